"""End-to-end: play-test 9, a moderated server. Tables live in servers where moderators
act: they ban and kick members, time them out, lock and archive threads, take the bot's
permissions away, delete channels and sweep messages, while games are under way."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.packages.game import chart
from bot.tables.logentry import LogEntry
from bot.tables.table import Table
from engine import Phase
from fakediscord import FakeDiscord, TestUser
from fakediscord.errors import UserActionError
from fakediscord.forge import Forger
from fakediscord.state import APPLICATION_COMMAND, Guild

from .conftest import LinkedClock
from .e2e import (
    Player,
    alice_and_bob_stored,
    cid,
    connect_bot,
    create_table,
    database_url,
    host_against_bots,
    marie_and_bob_stopped,
    message,
    play_every_round,
    play_until,
    restart,
    table_in_a_thread,
    tick,
    two_humans_against_a_bot,
)


def audit_log_only(fake: FakeDiscord) -> None:
    """The bot may view the server's audit log and may not ban: what docs/deploy.md asks a
    server for, so that banned and kicked players leave its tables."""
    fake.set_bot_guild_permissions(fake.guild, view_audit_log=True, ban_members=False)


async def marie_and_bob_in_the_lobby(fake: FakeDiscord, bot: PresidentBot
                                     ) -> tuple[TestUser, TestUser, Table]:
    """marie (French) opens a classic table in the French server; bob (English) joins."""
    fake.guild.locale = "fr"
    marie = fake.add_user("marie", locale="fr")
    bob = fake.add_user("bob")
    table = await create_table(bot, marie)
    await bob.click(message(bob, table.lobby_message_id), cid(table, "join"))
    return marie, bob, table


async def test_a_player_banned_in_the_lobby_frees_their_seat_and_the_host_role(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """From the play-test: a moderator banned marie, who hosted a lobby. Her seat stayed
    and so did her role: bob could neither start nor seat a bot for the 10 minutes a silent
    host keeps it. She now leaves as a leaver does: her seat frees, bob hosts, and the lobby
    says why, in the table's French, naming her without a mention."""
    audit_log_only(fake)
    marie, bob, table = await marie_and_bob_in_the_lobby(fake, president)
    fake.ban(fake.guild, marie)
    await fake.settle()
    await tick(fake, clock, 1)

    assert table.player(marie.id) is None and table.host_id == bob.id
    lobby = message(bob, table.lobby_message_id)
    assert t("fr", "table.member_gone", name="marie") in lobby.content
    assert "👑 **bob** devient l’hôte de la table" in lobby.content  # (play-test 13)
    assert f"<@{marie.id}>" not in lobby.content
    for _ in range(2):
        await bob.click(lobby, cid(table, "addbot"))
    await bob.click(lobby, cid(table, "start"))
    assert table.game is not None
    fake.assert_no_errors()


async def test_a_player_banned_mid_game_leaves_as_a_leaver_does(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """bob is banned in the middle of a round: a bot finishes it for him, the history says
    he is no longer a member (in French, the table's language), and marie plays on."""
    audit_log_only(fake)
    fake.guild.locale = "fr"
    marie = Player(fake.add_user("marie", locale="fr"))
    bob = Player(fake.add_user("bob"))
    table, game = await two_humans_against_a_bot(fake, clock, president, marie, bob)
    seat = table.seat_of(bob.user.id)
    fake.ban(fake.guild, bob.user)
    await fake.settle()
    await tick(fake, clock, 1)

    assert table.seat_of(bob.user.id) is None and seat in table.left_seats
    board = message(marie.user, table.table_message_id).content
    assert t("fr", "ev.member_gone", name="bob") in board
    assert game.phase is not Phase.GAME_OVER and not table.closed
    fake.assert_no_errors()


async def test_a_presi_player_banned_is_not_waited_for(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """presi waits for a leaver to come back (RULES §10); a banned player cannot, so the
    game is cancelled at once, as for a player the host removed, and says why."""
    audit_log_only(fake)
    marie = Player(fake.add_user("marie", locale="fr"))
    bob = Player(fake.add_user("bob"))
    table, _ = await two_humans_against_a_bot(fake, clock, president, marie, bob, "presi")
    fake.ban(fake.guild, bob.user)
    await fake.settle()
    await tick(fake, clock, 1)

    assert table.game is None and not table.away
    assert table.notice is not None and table.notice.key == "table.cancelled_gone"
    # The notice names him, no longer at the table: an edit an archived thread owes the
    # lobby keeps his id, so that his erasure takes its text, and so does the snapshot.
    assert bob.user.id in table.people() and table.player(bob.user.id) is None
    assert LogEntry.from_dict(table.notice.to_dict()) == table.notice
    fake.assert_no_errors()


async def test_a_player_kicked_leaves_where_the_bot_reads_the_audit_log(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """A kick sends no ban event; where the bot may view the audit log, its entry tells the
    bot, and the kicked player leaves the lobby as a banned one does."""
    audit_log_only(fake)
    marie, bob, table = await marie_and_bob_in_the_lobby(fake, president)
    fake.kick(fake.guild, bob)
    await fake.settle()
    assert table.player(bob.id) is None and table.host_id == marie.id
    fake.assert_no_errors()


async def test_without_the_audit_log_a_ban_is_not_told_to_the_bot(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """Where the bot may neither ban members nor view the audit log, Discord sends it no
    ban (Guild Ban Add): the seat stays until a host acts, as docs/deploy.md says."""
    fake.set_bot_guild_permissions(fake.guild, view_audit_log=False, ban_members=False)
    _, bob, table = await marie_and_bob_in_the_lobby(fake, president)
    fake.ban(fake.guild, bob)
    await fake.settle()
    assert table.player(bob.id) is not None
    fake.assert_no_errors()


async def test_a_member_in_timeout_is_refused_at_the_table_until_it_ends(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """A moderator times bob out for 10 minutes mid-game. His client offers him no
    command any more (Discord took Use Application Commands away), but his clicks still
    arrived and played. They are now refused, privately in his English, saying until when,
    and change nothing; a command forged past his client is refused alike. Once the timeout
    is over his clicks work again. marie, not timed out, plays on."""
    marie = Player(fake.add_user("marie", locale="fr"))
    bob = Player(fake.add_user("bob"))
    table, game = await two_humans_against_a_bot(fake, clock, president, marie, bob)
    fake.time_out(fake.guild, bob.user, 600)
    await fake.settle()
    until = int(clock.now()) + 600
    refusal = "⚠️ " + t("en", "err.timed_out", until=until)

    with pytest.raises(UserActionError):
        await bob.user.slash("president hand")
    version = game.version
    await bob.user.click(message(bob.user, table.table_message_id), cid(table, "hand"))
    assert bob.user.last_ephemeral().content == refusal
    if await bob.act():  # his turn (the deal decides): his play is refused alike
        assert bob.user.last_ephemeral().content == refusal
    assert game.version == version and table.seat_of(bob.user.id) is not None
    forger = Forger(fake)
    await forger.send(bob.user, APPLICATION_COMMAND,
                      forger.command(bob.user, "president leave"))
    assert bob.user.last_ephemeral().content == refusal
    assert table.seat_of(bob.user.id) is not None

    await marie.user.click(message(marie.user, table.table_message_id), cid(table, "hand"))
    assert "Ta main" in marie.user.last_ephemeral().content
    await tick(fake, clock, 601)
    await bob.user.click(message(bob.user, table.table_message_id), cid(table, "hand"))
    assert "Your hand" in bob.user.last_ephemeral().content
    fake.assert_no_errors()


async def test_a_locked_thread_is_told_to_its_host_once_and_costs_no_refused_call_per_click(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """A moderator locks the thread of marie's game. The table message could no longer be
    edited (160005), and every click of hers at the table tried again: one more refused
    call each (counted by Discord towards the invalid requests), while she was never told
    why the table stood still. She is now told once, privately in French, that the thread
    is locked; her clicks cost no call to the channel until it is unlocked, and then the
    table picks up again. (The bot now hears the lock and costs no refused call at all:
    test_e2e_channel_events.)"""
    marie = fake.add_user("marie", locale="fr")
    thread, table = await table_in_a_thread(fake, clock, president, marie, manage_threads=False)
    fake.lock_thread(thread)
    await fake.settle()
    for _ in range(5):
        await tick(fake, clock, 1)
    board = message(marie, table.table_message_id)

    told = "⚠️ " + t("fr", "err.thread_locked")
    for _ in range(3):
        await marie.click(board, cid(table, "hand"))
        await tick(fake, clock, 1)
    notices = [m for m in marie.visible(thread) if m.content == told]
    assert len(notices) == 1
    fake.assert_no_errors()  # not one refused call

    fake.lock_thread(thread, locked=False)
    await fake.settle()
    await marie.click(board, cid(table, "hand"))
    await tick(fake, clock, 1)
    assert message(marie, table.table_message_id).content != board.content
    fake.assert_no_errors()


async def test_players_of_a_table_whose_channel_was_deleted_are_told_at_their_next_action(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """From the play-test: a moderator deleted #cartes during marie's game with bob, and
    zoé waiting for the next one. The table ended, but the bot had nowhere to say so: bob's
    next /president hand said only that there was no table, and nobody learnt what had
    happened. Each of them is now told once, privately and in their language, at their
    next command or click on the server, whatever it answers."""
    fake.guild.locale = "fr"
    cartes = fake.add_channel(fake.guild, "cartes")
    belote = fake.add_channel(fake.guild, "belote")
    marie = Player(fake.add_user("marie", locale="fr"))
    bob = Player(fake.add_user("bob"))
    zoe = fake.add_user("zoé", locale="fr")
    for user in (marie.user, bob.user, zoe):
        user.channel = cartes
    table, _ = await two_humans_against_a_bot(fake, clock, president, marie, bob)
    await zoe.click(message(zoe, table.table_message_id), cid(table, "join"))
    assert table.queued(zoe.id)
    fake.delete_channel(cartes)
    await fake.settle()
    assert table.closed
    told_fr = t("fr", "vanished.named", channel="cartes")

    await bob.user.slash("president hand", channel=belote)  # a refusal, then the word
    shown = [m.content for m in bob.user.visible(belote) if m.ephemeral]
    assert shown == ["⚠️ " + t("en", "err.no_table"), t("en", "vanished.named", channel="cartes")]
    await bob.user.slash("president hand", channel=belote)  # once
    assert bob.user.last_ephemeral(belote).content == "⚠️ " + t("en", "err.no_table")

    marie.user.channel = zoe.channel = belote
    lobby = await create_table(president, marie.user)  # a command that succeeds
    assert marie.user.last_ephemeral(belote).content == told_fr
    await zoe.click(message(zoe, lobby.lobby_message_id), cid(lobby, "join"))  # a click
    assert zoe.last_ephemeral(belote).content == told_fr
    assert lobby.seat_of(zoe.id) is not None
    fake.assert_no_errors()


async def test_a_channel_purged_between_rounds_and_at_the_end_loses_no_answer(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """A moderation bot purges the channel (one MESSAGE_DELETE_BULK of every message in it)
    after the first round, and again at the game's end. Checked, nothing to fix: the round's
    results come back with « Next », the hands (ephemeral, which nobody else can delete)
    play on, the final results come back with their chart, and /president history, read
    from storage, still lists the game and draws its chart."""
    bot, alice, bob, table, game = await alice_and_bob_stored(fake, clock, tmp_path, "rounds:2")

    def purge() -> None:
        public = [m for m in fake.messages() if not m.ephemeral]
        fake.delete_messages(fake.channel, public)

    await play_until(fake, clock, [alice, bob], lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    purge()
    await fake.settle()
    await tick(fake, clock, 1)
    board = message(alice.user, table.table_message_id)
    await alice.user.click(board, cid(table, "next", game.version))
    await tick(fake, clock, 1)
    assert game.round_no == 2
    await play_every_round(fake, clock, table, [alice, bob])
    await tick(fake, clock, 1)
    await bot.service.drain()
    purge()
    await fake.settle()
    await tick(fake, clock, 1)
    results = message(bob.user, table.table_message_id)
    assert results.attachments == (chart.FILENAME,)

    await bob.user.slash("president history")
    listed = bob.user.last_ephemeral()
    assert "2 rounds" in listed.text
    await bob.user.select(listed, [listed.select().options[0].value])
    assert bob.user.last_ephemeral().attachments == (chart.FILENAME,)
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_deleted_thread_the_bot_no_longer_held_is_told_without_its_name(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """marie's game was in a thread a moderator archived (discord.py then drops it), then
    deleted: the bot hears only the thread's id, so it cannot name it, and tells her that
    one of her tables on this server ended with its channel."""
    marie = fake.add_user("marie", locale="fr")
    thread, table = await table_in_a_thread(fake, clock, president, marie)
    fake.archive_thread(thread)
    await fake.settle()
    fake.delete_channel(thread)
    await fake.settle()
    assert table.closed

    await marie.slash("president rules", channel=fake.channel)
    assert marie.last_ephemeral(fake.channel).content == t("fr", "vanished.unnamed")
    fake.assert_no_errors()


async def test_what_players_are_owed_of_a_deleted_channel_survives_a_restart(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """#cartes is deleted during marie's game, and the bot is redeployed before she comes
    back: the restarted bot still owes her the word, and tells her once."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    cartes = fake.add_channel(fake.guild, "cartes")
    marie = fake.add_user("marie", locale="fr")
    marie.channel = cartes
    await host_against_bots(bot, marie, "classic", 2)
    await tick(fake, clock, 1)
    fake.delete_channel(cartes)
    await fake.settle()

    again = await restart(fake, clock, bot, url)
    await marie.slash("president rules", channel=fake.channel)
    assert marie.last_ephemeral(fake.channel).content == t("fr", "vanished.named",
                                                           channel="cartes")
    await marie.slash("president rules", channel=fake.channel)
    assert marie.last_ephemeral(fake.channel).embeds  # the rules alone
    again = await restart(fake, clock, again, url)  # told: not owed any more
    assert len(again.service.vanished) == 0
    await fake.disconnect(again)
    fake.assert_no_errors()


async def two_servers_stopped(fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
                              ) -> tuple[str, Player, Player, Table, Guild]:
    """Two servers' tables on a bot with a database file, then the bot stopped, for the
    restart that describes each server: marie and bob against a bot in the fake's server
    (its locale French), paul's lobby in another (returned: `other`)."""
    fake.guild.locale = "fr"
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = Player(fake.add_user("marie", locale="fr"))
    bob = Player(fake.add_user("bob"))
    table, _ = await two_humans_against_a_bot(fake, clock, bot, marie, bob)
    other = fake.add_guild("autre serveur")
    paul = fake.add_user("paul", locale="fr", guilds=[other])
    paul.channel = fake.add_channel(other, "tables")
    await fake.settle()
    await create_table(bot, paul)
    await asyncio.gather(*bot.service.outbox.pending(), return_exceptions=True)
    await fake.disconnect(bot)
    return url, marie, bob, table, other


async def test_a_player_banned_while_the_bot_was_down_leaves_at_the_restart(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """Discord replays no ban to a bot that was down: the restarted bot asks whether each
    seated player is still a member, and bob, banned meanwhile, leaves as a leaver does
    (where the bot may not even view the audit log); marie, still a member, plays on."""
    fake.guild.locale = "fr"
    url, marie, bob, table = await marie_and_bob_stopped(fake, clock, tmp_path)
    fake.ban(fake.guild, bob.user)
    again = await connect_bot(fake, clock, url, bot_pause=1.0)
    await fake.settle()
    await tick(fake, clock, 1)

    restored = again.service.registry.in_channel(table.channel_id)
    assert restored is not None and restored.game is not None
    assert restored.seat_of(bob.user.id) is None and restored.seat_of(marie.user.id) is not None
    board = message(marie.user, restored.table_message_id).content
    assert t("fr", "ev.member_gone", name="bob") in board
    fake.expect_error(10007)  # Unknown Member: how Discord says he is gone
    await fake.disconnect(again)
    fake.assert_no_errors()


async def test_a_dropped_connection_asking_after_a_member_holds_no_server_at_the_restart(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """As above, but the connection asking whether marie is still a member drops (aiohttp's
    `ServerDisconnectedError`, no `HTTPException`). It went up through the server's
    description, bob kept his seat, and at a start through the loop that describes the
    bot's servers (`ServerChanges._ready`): paul's server, described after it, stayed held, his
    table posting nothing until its next outage or the next start. marie keeps her seat
    (nothing is said of her), bob leaves, and paul's table goes on."""
    fake.set_bot_guild_permissions(fake.guild, view_audit_log=False, ban_members=False)
    url, marie, bob, table, other = await two_servers_stopped(fake, clock, tmp_path)
    fake.ban(fake.guild, bob.user)
    # Twice: aiohttp tries an idempotent request again on a connection dropped once.
    fake.inject_disconnect("/guilds/{guild_id}/members/{user_id}", method="GET", times=2)
    again = await connect_bot(fake, clock, url, bot_pause=1.0)
    await fake.settle()
    await tick(fake, clock, 1)

    assert [c.path for c in fake.calls if c.injected] == [
        f"/guilds/{fake.guild.id}/members/{marie.user.id}"] * 2
    assert not again.publisher.servers.holds(fake.guild.id)
    assert not again.publisher.servers.holds(other.id)
    restored = again.service.registry.in_channel(table.channel_id)
    assert restored is not None and restored.game is not None
    assert restored.seat_of(bob.user.id) is None and restored.seat_of(marie.user.id) is not None
    fake.expect_error(10007)  # Unknown Member: how Discord says he is gone
    await fake.disconnect(again)
    fake.assert_no_errors()


@pytest.mark.parametrize("failing", ["tell_unreadable", "check_members"])
async def test_a_step_of_a_server_s_description_that_fails_unforeseen_holds_no_server(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture, failing: str,
) -> None:
    """A step of marie's server's description at the restart fails for a reason none of
    them foresaw (a bug, a storage error: here a RuntimeError). The error went up through
    the description: a failed word for unreadable tables kept her server held, and at a
    start any failure went up through the loop over the bot's servers (`ServerChanges._ready`), so
    paul's server, described after it, stayed held too, their tables posting nothing
    until the next outage or start. The failure is logged, and both servers go on."""
    from bot.packages.president.listeners import ServerChanges
    from bot.packages.publisher.servers import UndescribedServers

    url, marie, bob, table, other = await two_servers_stopped(fake, clock, tmp_path)

    async def broken(self: object, guild_id: int) -> None:
        if guild_id == fake.guild.id:
            raise RuntimeError("unforeseen")

    if failing == "tell_unreadable":
        monkeypatch.setattr(UndescribedServers, "tell_unreadable", broken)
    else:
        monkeypatch.setattr(ServerChanges, "_check_members", broken)
    again = await connect_bot(fake, clock, url, bot_pause=1.0)
    await fake.settle()
    await tick(fake, clock, 1)

    failures = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert failures == [f"describing server {fake.guild.id}: {failing} failed; "
                        "the rest goes on"]
    caplog.clear()  # the failure this test provokes (conftest's no_logged_errors)
    assert not again.publisher.servers.holds(fake.guild.id)
    assert not again.publisher.servers.holds(other.id)
    restored = again.service.registry.in_channel(table.channel_id)
    assert restored is not None and restored.game is not None
    await fake.disconnect(again)
    fake.assert_no_errors()


async def test_a_player_banned_during_an_outage_leaves_when_the_server_is_back(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """Nothing of a server in an outage reaches the bot, its bans included: when the
    server is back, bob, banned meanwhile, leaves the lobby, and marie stays."""
    audit_log_only(fake)
    marie, bob, table = await marie_and_bob_in_the_lobby(fake, president)
    fake.start_outage(fake.guild)
    await fake.settle()
    fake.ban(fake.guild, bob)
    await fake.settle()
    assert table.player(bob.id) is not None  # not heard
    fake.end_outage(fake.guild)
    await tick(fake, clock, 1)  # the budget's window: the card faces filled it at start
    assert table.player(bob.id) is None and table.player(marie.id) is not None
    fake.expect_error(10007)
    fake.assert_no_errors()
