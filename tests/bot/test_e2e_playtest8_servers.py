"""End-to-end: play-test 8, a busy evening across servers and channels: one player at
tables in two servers and two channels at once, servers speaking different languages,
per-server rankings, and servers, channels and threads changing under running tables."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.client import PresidentBot
from bot.i18n import t
from bot.tables.table import Table
from engine import Phase
from fakediscord import Channel, FakeDiscord, Guild, Message, TestUser
from fakediscord.forge import MANAGE_GUILD, Forger
from fakediscord.state import APPLICATION_COMMAND

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    connect_bot,
    create_table,
    database_url,
    host_against_bots,
    leave_game,
    message,
    play_every_round,
    table_in_a_thread,
    table_of,
    tick,
)


class Evening:
    """Two servers: « Le Cercle » in French (#cartes, #belote) and « The Club » in English
    (#cards); marie (French client) is a member of both, alice (English) of the Club only."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.cercle: Guild = fake.add_guild("Le Cercle", locale="fr")
        self.cartes: Channel = fake.add_channel(self.cercle, "cartes")
        self.belote: Channel = fake.add_channel(self.cercle, "belote")
        self.club: Guild = fake.add_guild("The Club")
        self.cards: Channel = fake.add_channel(self.club, "cards")
        self.marie: TestUser = fake.add_user("marie", locale="fr",
                                             guilds=[self.cercle, self.club])
        self.alice: TestUser = fake.add_user("alice", guilds=[self.club])


async def tables_in_two_servers(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                                **rules: object) -> tuple[Evening, Table, Table]:
    """marie hosts a game against two bots in #cartes; alice hosts one in #cards that marie
    joins, with a bot; both started, with ``rules`` changed."""
    evening = Evening(fake)
    await fake.settle()
    marie, alice = evening.marie, evening.alice
    marie.channel = evening.cartes
    at_cercle = await host_against_bots(bot, marie, "classic", 2, **rules)
    alice.channel = evening.cards
    at_club = await create_table(bot, alice)
    if rules:
        await bot.service.set_rules(at_club, alice.id, at_club.rules.replace(**rules))
    lobby = message(alice, at_club.lobby_message_id)
    await marie.click(lobby, cid(at_club, "join"))
    await alice.click(lobby, cid(at_club, "addbot"))
    await alice.click(lobby, cid(at_club, "start"))
    await tick(fake, clock, 1)
    return evening, at_cercle, at_club


def tables_named(shown: Message) -> set[int]:
    """The tables whose ids the message's controls carry."""
    ids = [b.custom_id for b in shown.buttons if b.custom_id] + \
        [s.custom_id for s in shown.selects]
    return {int(c.split(":")[1]) for c in ids if c.startswith("pz:")}


def holds(shown: Message, table: Table, user: TestUser) -> bool:
    """Whether ``shown`` is ``user``'s hand at ``table``: its controls name that table and
    it counts the cards the game deals them there."""
    assert table.game is not None
    seat = table.seat_of(user.id)
    assert seat is not None
    count = len(table.game.hands[seat])
    return tables_named(shown) == {table.id} and f"({count})" in shown.content


async def test_a_player_at_tables_in_two_servers_has_a_hand_at_each(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """marie plays in the French server and the English one at once: /president hand and
    « Ma main » in each channel show that table's cards and controls, in her French, and
    leaving the Club's game leaves the Cercle's alone."""
    evening, at_cercle, at_club = await tables_in_two_servers(fake, clock, president)
    marie = evening.marie

    await marie.slash("president hand", channel=evening.cartes)
    assert holds(marie.last_ephemeral(evening.cartes), at_cercle, marie)
    await marie.slash("president hand", channel=evening.cards)
    assert holds(marie.last_ephemeral(evening.cards), at_club, marie)
    assert "Ta main" in marie.last_ephemeral(evening.cards).content
    for table, channel in ((at_cercle, evening.cartes), (at_club, evening.cards)):
        marie.channel = channel
        await marie.click(message(marie, table.table_message_id), cid(table, "hand"))
        assert holds(marie.last_ephemeral(channel), table, marie)

    marie.channel = evening.cards
    await leave_game(marie)
    assert at_club.seat_of(marie.id) is None or marie.id in at_club.away
    assert at_cercle.plays(marie.id)
    await marie.slash("president hand", channel=evening.cartes)
    assert holds(marie.last_ephemeral(evening.cartes), at_cercle, marie)
    fake.assert_no_errors()


async def test_each_tables_timer_and_autopilot_keep_to_that_table(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """marie lets both her turns run out: each table's autopilot takes her seat there;
    /president resume in #cartes gives her back the Cercle's seat only, and when alice's
    game at the Club ends, marie's game at the Cercle plays on and her hand answers."""
    evening, at_cercle, at_club = await tables_in_two_servers(
        fake, clock, president, autopilot_after_timeouts=1)
    marie = evening.marie
    cercle_game, club_game = at_cercle.game, at_club.game
    assert cercle_game is not None and club_game is not None
    seat_cercle, seat_club = at_cercle.seat_of(marie.id), at_club.seat_of(marie.id)
    alice = Player(evening.alice)
    await alice.open_hand(president)
    for _ in range(200):
        if seat_cercle in cercle_game.autopilot and seat_club in club_game.autopilot:
            break
        if not await alice.act():
            await tick(fake, clock, 5)
    assert seat_cercle in cercle_game.autopilot and seat_club in club_game.autopilot

    await marie.slash("president resume", channel=evening.cartes)
    assert seat_cercle not in cercle_game.autopilot and seat_club in club_game.autopilot
    assert holds(marie.last_ephemeral(evening.cartes), at_cercle, marie)

    await evening.alice.slash("president end")
    await evening.alice.click(evening.alice.last_ephemeral(), t("en", "btn.stop_game"))
    await tick(fake, clock, 1)
    assert club_game.phase is Phase.GAME_OVER
    assert cercle_game.phase is not Phase.GAME_OVER and not at_cercle.closed
    await marie.slash("president hand", channel=evening.cartes)
    assert holds(marie.last_ephemeral(evening.cartes), at_cercle, marie)
    fake.assert_no_errors()


async def test_a_command_away_from_the_table_says_where_the_table_is(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """From the play-test: marie typed /president hand in #belote, and in a thread under
    #cartes, and was told there was no table and to open one, though she plays in #cartes.
    She is now told where she plays on this server; someone not seated, in the thread, is
    told the table is in its parent channel; the Club's table is never named at the
    Cercle; where nothing is near, the old answer stands."""
    evening, at_cercle, _ = await tables_in_two_servers(fake, clock, president)
    marie = evening.marie
    thread = fake.add_thread(evening.cartes, "fil", marie)
    zoe = fake.add_user("zoé", locale="fr", guilds=[evening.cercle])
    await fake.settle()

    for channel, key in ((evening.belote, "err.no_table_yours"),
                         (thread, "err.no_table_yours.thread")):  # « ce fil » (play-test 12)
        await marie.slash("president hand", channel=channel)
        assert marie.last_ephemeral(channel).content == "⚠️ " + t(
            "fr", key, channels=f"<#{evening.cartes.id}>")
    await zoe.slash("president join", channel=thread)
    assert zoe.last_ephemeral(thread).content == "⚠️ " + t(
        "fr", "err.no_table_thread", channel=f"<#{evening.cartes.id}>")
    await zoe.slash("president hand", channel=evening.belote)
    assert zoe.last_ephemeral(evening.belote).content == "⚠️ " + t("fr", "err.no_table")
    assert at_cercle.seat_of(zoe.id) is None

    evening.alice.join(evening.cercle)
    await evening.alice.slash("president resume", channel=evening.belote)
    assert evening.alice.last_ephemeral(evening.belote).content == "⚠️ " + t(
        "en", "err.no_table")

    # At two tables of the server (one waiting in its lobby), both are named.
    zoe.channel = marie.channel = evening.belote
    belote = await create_table(president, zoe)
    await marie.click(message(marie, belote.lobby_message_id), cid(belote, "join"))
    await marie.slash("president hand", channel=thread)
    assert marie.last_ephemeral(thread).content == "⚠️ " + t(
        "fr", "err.no_table_yours.thread",
        channels=f"<#{evening.cartes.id}> et <#{evening.belote.id}>")
    fake.assert_no_errors()


async def test_opening_a_table_where_one_is_open_or_beside_it(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """A second table in the same channel is refused in the asker's language; a thread of
    that channel, or another channel, takes its own table."""
    evening, at_cercle, at_club = await tables_in_two_servers(fake, clock, president)
    marie, alice = evening.marie, evening.alice
    await alice.slash("president create", channel=evening.cards)
    assert alice.last_ephemeral(evening.cards).content == "⚠️ " + t("en", "err.table_exists")
    await marie.slash("president create", channel=evening.cards)
    assert marie.last_ephemeral(evening.cards).content == "⚠️ " + t("fr", "err.table_exists")
    assert table_of(president, alice) is at_club

    thread = fake.add_thread(evening.cartes, "deuxième table", marie)
    await fake.settle()
    for channel in (thread, evening.belote):
        marie.channel = channel
        opened = await create_table(president, marie)
        assert opened not in (at_cercle, at_club) and opened.channel_id == channel.id
    fake.assert_no_errors()


async def test_public_lines_speak_the_tables_language_and_private_ones_the_players(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """alice, with an English client, joins marie's table at the French Community server:
    the lobby and table message stay French, alice's hand and refusals are English; at the
    Club marie's hand is French under an English table."""
    evening = Evening(fake)
    await fake.settle()
    cached = president.get_guild(evening.cercle.id)
    assert cached is not None
    cached.features.append("COMMUNITY")
    marie, alice = evening.marie, evening.alice
    alice.join(evening.cercle)
    marie.channel = alice.channel = evening.cartes
    table = await create_table(president, marie)
    lobby = message(alice, table.lobby_message_id)
    await alice.click(lobby, cid(table, "join"))
    await alice.click(lobby, cid(table, "start"))
    assert "Only the host" in alice.last_ephemeral().content
    await marie.click(lobby, cid(table, "addbot"))
    await marie.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    board = message(alice, table.table_message_id)
    assert "Manche 1" in board.content
    await alice.click(board, cid(table, "hand"))
    assert "Your hand" in alice.last_ephemeral().content
    fake.assert_no_errors()


async def test_rankings_and_stats_stay_on_the_server_they_were_won_on(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """marie and alice play a rated game at the Club: its leaderboard ranks them and
    marie's stats there count it; at the Cercle the leaderboard is empty and her stats say
    she has not played there. From the play-test: they said « marie n’a pas encore joué »,
    untrue of someone who just played on another server; both now say « sur ce serveur »."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    evening = Evening(fake)
    await fake.settle()
    marie, alice = evening.marie, evening.alice
    alice.channel = marie.channel = evening.cards
    table = await create_table(bot, alice)
    await bot.service.set_rules(table, alice.id, table.rules.replace(game_end="rounds:1"))
    lobby = message(alice, table.lobby_message_id)
    await marie.click(lobby, cid(table, "join"))
    await alice.click(lobby, cid(table, "addbot"))
    await alice.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    players = [Player(alice), Player(marie)]
    for player in players:
        await player.open_hand(bot)
    await play_every_round(fake, clock, table, players)
    await tick(fake, clock, 1)
    await bot.service.drain()

    await marie.slash("president leaderboard", channel=evening.cards)
    ranked = marie.last_ephemeral(evening.cards).embeds[0].description or ""
    assert f"<@{marie.id}>" in ranked and f"<@{alice.id}>" in ranked
    await marie.slash("president leaderboard", channel=evening.belote)
    board = marie.last_ephemeral(evening.belote).embeds[0]
    assert board.description == t("fr", "leaderboard.empty", preset="Président classique")
    assert "sur ce serveur" in board.description
    await marie.slash("president stats", channel=evening.belote)
    stats = marie.last_ephemeral(evening.belote).embeds[0]
    assert stats.description == t("fr", "stats.none", name="marie")
    assert stats.description.endswith("n’a pas encore joué sur ce serveur.")
    await marie.slash("president stats", channel=evening.cards)
    assert "1 partie" in (marie.last_ephemeral(evening.cards).embeds[0].description or "")
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_server_with_only_the_commands_is_told_to_invite_the_bot(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """From the play-test: a server that added only the app's commands, not its bot user.
    /president create there answered that the bot lacks « Voir le salon » and to ask the
    moderators for it, who could grant nothing (the bot is not in the server), and
    /president hand said to open a table. Both now say the bot is not in the server, with
    the link that invites it; invited, it opens tables there."""
    salon = fake.add_guild("Le Salon", locale="fr", bot=False)
    channel = fake.add_channel(salon, "jeux")
    marie = fake.add_user("marie", locale="fr", guilds=[salon])
    marie.channel = channel
    await fake.settle()
    link = ("https://discord.com/oauth2/authorize?client_id="
            f"{fake.world.application_id}&scope=bot+applications.commands"
            f"&permissions=274878008320&guild_id={salon.id}&disable_guild_select=true")
    refusal = "⚠️ " + t("fr", "err.not_in_server", link=link)

    mark = fake.mark()
    await marie.slash("president create", preset="classic")
    assert marie.last_ephemeral().content == refusal
    await marie.slash("president hand")
    assert marie.last_ephemeral().content == refusal
    assert president.service.registry.tables() == []
    assert [c.route for c in fake.calls_since(mark)
            if not c.route.startswith("/interactions/")] == []

    fake.invite_bot(salon)
    await fake.settle()
    table = await create_table(president, marie)
    assert table.guild_id == salon.id
    fake.assert_no_errors()


async def test_a_servers_language_and_a_kick_stay_on_that_server(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """Each server's admin picks its language: only that server's tables switch. Kicked
    from the Cercle, the bot ends the table there, marie's hand there says so in French,
    and her game at the Club plays on, her hand there answering."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    evening, at_cercle, at_club = await tables_in_two_servers(fake, clock, bot)
    marie, alice = evening.marie, evening.alice
    forger = Forger(fake)
    admin = fake.add_user("admin", guilds=[evening.cercle, evening.club])
    for channel, language in ((evening.cartes, "en"), (evening.cards, "fr")):
        admin.channel = channel
        await forger.send(admin, APPLICATION_COMMAND,
                          forger.command(admin, "president language", language=language),
                          permissions=MANAGE_GUILD)
    await tick(fake, clock, 1)
    marie.channel, alice.channel = evening.cartes, evening.cards
    assert "Round 1" in message(marie, at_cercle.table_message_id).content
    assert "Manche 1" in message(alice, at_club.table_message_id).content

    await marie.slash("president hand", channel=evening.cartes)
    await marie.slash("president hand", channel=evening.cards)
    fake.remove_bot(evening.cercle)
    await fake.settle()
    await tick(fake, clock, 5)
    assert at_cercle.closed and not at_club.closed
    assert marie.last_ephemeral(evening.cartes).content == t("fr", "hand.closed")
    await marie.slash("president hand", channel=evening.cards)
    assert holds(marie.last_ephemeral(evening.cards), at_club, marie)
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_channel_deleted_mid_game_leaves_the_players_other_tables_alone(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """#cartes is deleted mid-game: its table ends; marie's game at the Club plays on, and
    in #belote she is no longer pointed to a table that is gone."""
    evening, at_cercle, at_club = await tables_in_two_servers(fake, clock, president)
    marie = evening.marie
    fake.delete_channel(evening.cartes)
    await fake.settle()
    await tick(fake, clock, 5)
    assert at_cercle.closed and not at_club.closed
    await marie.slash("president hand", channel=evening.belote)
    answers = [m.content for m in marie.visible(evening.belote) if m.ephemeral]
    assert answers == ["⚠️ " + t("fr", "err.no_table"),  # then what became of her table
                       t("fr", "vanished.named", channel="cartes")]
    await marie.slash("president hand", channel=evening.cards)
    assert holds(marie.last_ephemeral(evening.cards), at_club, marie)
    fake.assert_no_errors()


async def test_a_channel_deleted_ends_the_table_of_its_archived_thread_at_once(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """Found in the play-test: a moderator archived the table's thread, then deleted
    #cartes, which took the thread with it. discord.py had dropped the archived thread, so
    nobody told the table: it played on unseen, its players still pointed to it, until its
    next post and edit were refused (404). It now ends with its channel's deletion, calling
    Discord no more, and marie's other game plays on."""
    evening, _, at_club = await tables_in_two_servers(fake, clock, president)
    marie = evening.marie
    thread, in_thread = await table_in_a_thread(fake, clock, president, marie, evening.cartes)
    fake.archive_thread(thread)
    await fake.settle()
    assert president.get_channel(thread.id) is None  # discord.py no longer holds it

    mark = fake.mark()
    fake.delete_channel(evening.cartes)
    await fake.settle()
    assert in_thread.closed and not at_club.closed
    for _ in range(60):
        await tick(fake, clock, 1)
    assert [c for c in fake.calls_since(mark) if c.route.startswith("/channels/")
            and str(thread.id) in c.path] == []
    await marie.slash("president hand", channel=evening.belote)
    answers = [m.content for m in marie.visible(evening.belote) if m.ephemeral]
    assert answers == ["⚠️ " + t("fr", "err.no_table"),  # then what became of her table
                       t("fr", "vanished.named", channel="cartes")]
    fake.assert_no_errors()


async def test_a_table_closed_while_its_refresh_waits_for_a_place_posts_nothing(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """Found in the play-test: #belote was deleted while its lobby's refresh waited for a
    place under Discord's global rate limit (a busy evening: the bot's budget was full).
    The table ended, then the waiting refresh went on and posted its lobby into the
    deleted channel (404); it now checks the table is still open once it has a place."""
    evening = Evening(fake)
    await fake.settle()
    marie = evening.marie
    marie.channel = evening.belote
    table = await create_table(president, marie)
    release = asyncio.Event()

    async def busy_call() -> None:
        async with president.budget.call():
            await release.wait()

    holders = [asyncio.create_task(busy_call()) for _ in range(president.budget.limit)]
    await president.service.add_bot(table, marie.id)
    await tick(fake, clock, 1)  # the lobby's refresh now waits for a place
    mark = fake.mark()
    fake.delete_channel(evening.belote)
    await fake.settle()
    assert table.closed
    release.set()
    await asyncio.gather(*holders)
    await tick(fake, clock, 1)
    assert [c for c in fake.calls_since(mark) if c.route.startswith("/channels/")] == []
    fake.assert_no_errors()
