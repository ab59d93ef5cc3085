"""End-to-end: stop 49's leftovers of stop 48. A player the host removed mid-round, or a
moderator banned from the server, is not rated for that round as one who fled it."""

from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.packages.privacy.views import summary
from engine import Phase
from fakediscord import FakeDiscord, UserActionError
from fakediscord.forge import Forger
from fakediscord.state import APPLICATION_COMMAND

from .conftest import LinkedClock
from .e2e import (
    Player,
    alice_and_bob_stored,
    cid,
    connect_bot,
    create_table,
    database_url,
    message,
    play_until,
    record_charts,
    restart,
    table_of,
    tick,
)
from .test_e2e_playtest9_moderation import audit_log_only
from .test_e2e_playtest26 import rating_line, rating_of


@pytest.mark.parametrize("how", ["host", "moderator"])
async def test_a_player_removed_mid_round_is_not_rated_for_it(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    how: str,
) -> None:
    """alice, bob, carol and a bot, three rounds of classic: in the second alice removes bob
    (`/president kick`), or a moderator bans him from the server, a bot finishing his
    round. He was rated as having fled it, behind alice and carol, the round counted among
    his rounds (« 2 rounds counted · 2 rounds »). It is not his now: his rating and rounds
    stay as after round 1, his chart has one point, and alice and carol are rated for it
    between themselves; a restart while the bot plays his round out changes nothing."""
    drawn = record_charts(monkeypatch)
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    alice, bob, carol = (Player(fake.add_user(name)) for name in ("alice", "bob", "carol"))
    table = await create_table(bot, alice.user, "classic")
    await bot.service.set_rules(table, alice.user.id, table.rules.replace(game_end="rounds:3"))
    lobby = message(alice.user, table.lobby_message_id)
    for guest in (bob, carol):
        await guest.user.click(lobby, cid(table, "join"))
    await alice.user.click(lobby, cid(table, "addbot"))  # bob gone, three seats play on
    await alice.user.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    for player in (alice, bob, carol):
        await player.open_hand(bot)
    game = table.game
    assert game is not None
    await play_until(fake, clock, [alice, bob, carol],
                     lambda: game.phase is Phase.ROUND_OVER)
    await bot.service.drain()
    bob_before = rating_of(await rating_line(bob))
    await tick(fake, clock, 1)
    await alice.user.click(message(alice.user, table.table_message_id),
                           cid(table, "next", game.version))
    await tick(fake, clock, 1)
    assert game.phase not in (Phase.ROUND_OVER, Phase.GAME_OVER)

    if how == "host":
        await alice.user.slash("president kick", member=bob.user)
        assert alice.user.last_ephemeral().text == "You removed bob from the table."
    else:
        audit_log_only(fake)
        fake.ban(fake.guild, bob.user)
        await fake.settle()
    await tick(fake, clock, 1)
    assert table.seat_of(bob.user.id) is None
    # A redeploy while the bot plays his round out: the snapshot says he was removed.
    bot = await restart(fake, clock, bot, database_url(tmp_path))
    restored = table_of(bot, alice.user).game
    assert restored is not None
    for stayed in (alice, carol):
        await stayed.open_hand(bot)
    await play_until(fake, clock, [alice, carol],
                     lambda: restored.phase in (Phase.ROUND_OVER, Phase.GAME_OVER))
    await bot.service.drain()

    for stayed in (alice, carol):
        line = await rating_line(stayed)
        assert line.endswith(" (2 rounds counted) · 2 rounds"), line
    assert bot.storage is not None
    stats = await bot.storage.player_stats(fake.guild.id, bob.user.id)
    assert (stats.rounds, stats.games) == (1, 0)
    assert [(r.rating, r.rounds) for r in stats.ratings] == [(bob_before, 1)]
    assert await bot.storage.rating_history(fake.guild.id, bob.user.id) == {
        "classic": [bob_before]}
    # The stayers' charts end where their stats stand: the replay reads the round alike.
    for stayed in (alice, carol):
        shown = (await bot.storage.player_stats(fake.guild.id, stayed.user.id)).ratings
        assert (await bot.storage.rating_history(fake.guild.id, stayed.user.id))[
            "classic"][-1] == shown[0].rating
    if how == "host":
        drawn.clear()
        await bob.user.slash("president stats")
        assert [chart.series for chart in drawn] == [((bob_before,),)]
        said = bob.user.last_ephemeral()
        assert said.text.split("\n")[2].endswith(
            f"rating {bob_before} (1 round counted) · 1 round"), said.text
        footer = said.embeds[0].footer
        assert footer is not None and footer.endswith(
            "but a round the host or a moderator removes someone from does not count for "
            "them.")
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_player_banned_from_the_server_erases_themselves_from_a_dm(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
) -> None:
    """bob (French) played a game on the bot's one server, then was banned from it: no
    server command is his any more, and `/president forget` was the only way to erase
    what the bot keeps about him. In his DM with the bot, `/forget` (« oublier ») is
    refused while the finished table still names him, saying so without calling its
    server « another »; once it closed, it asks first in his language, with the server
    version's buttons, then erases it all, the server's others keeping their results."""
    bot, alice, bob, table, game = await alice_and_bob_stored(fake, clock, tmp_path, "rounds:1",
                                                              bob_locale="fr")
    await play_until(fake, clock, [alice, bob], lambda: game.phase is Phase.GAME_OVER)
    await bot.service.drain()
    assert bot.storage is not None
    held = await bot.storage.held_about(bob.user.id)
    assert (held.games, held.rounds, held.ratings) == (1, 1, 1)
    alice_before = await bot.storage.player_stats(fake.guild.id, alice.user.id)
    audit_log_only(fake)
    fake.ban(fake.guild, bob.user)
    await fake.settle()
    with pytest.raises(UserActionError, match="not a member"):
        await bob.user.slash("president forget")
    # The finished game still shows his seat and that he went: no server is « here ».
    await bob.user.slash("forget", channel=bob.user.dm)
    assert bob.user.last_ephemeral(bob.user.dm).content == "⚠️ " + t("fr", "err.forget_held_dm")
    await alice.user.slash("president end")  # back to the lobby
    await alice.user.slash("president end")  # the table closes

    await bob.user.slash("forget", channel=bob.user.dm)
    question = bob.user.last_ephemeral(bob.user.dm)
    assert question.content == t("fr", "forget.confirm", summary=summary("fr", held),
                                 erased="Personne effacée")
    assert [b.label for b in question.buttons] == ["Annuler", "Tout effacer"]
    assert await bot.storage.held_about(bob.user.id) == held  # asked, not erased
    await bob.user.click(question, "Tout effacer")
    (answered,) = [m for m in bob.user.visible(bob.user.dm) if m.id == question.id]
    assert answered.content == t("fr", "forget.done", summary=summary("fr", held),
                                 erased="Personne effacée") and not answered.buttons
    assert (await bot.storage.held_about(bob.user.id)).empty
    assert await bot.storage.player_stats(fake.guild.id, alice.user.id) == alice_before

    await bob.user.slash("forget", channel=bob.user.dm)
    assert bob.user.last_ephemeral(bob.user.dm).content == t("fr", "forget.nothing")
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_dm_offers_forget_alone_and_a_server_does_not_offer_it(
    fake: FakeDiscord, president: PresidentBot,
) -> None:
    """The command picker of a DM with the bot lists its own only (contexts [BOT_DM]:
    `/forget`, `/privacy` since stop 50, `/my-language` since stop 59);
    a server's lists `/president` only (contexts [GUILD]). A `/president` command that
    reaches the bot from a DM all the same (a modified client) is told where the commands
    work and what a DM offers, in its sender's language, and changes nothing. A refusal of
    `/forget` (a bot without storage) is answered in the DM as on a server."""
    marie = fake.add_user("marie", locale="fr")
    assert fake.commands.names(None) == ["forget", "my-language", "privacy"]  # (stop 59's)
    assert fake.commands.names(fake.guild.id) == ["president"]
    with pytest.raises(UserActionError, match="not synced for a DM with the bot"):
        await marie.slash("president stats", channel=marie.dm)
    with pytest.raises(UserActionError, match="not synced for"):
        await marie.slash("forget")

    forger = Forger(fake)
    await forger.send(marie, APPLICATION_COMMAND, forger.command(marie, "president stats"),
                      channel=marie.dm)
    assert marie.last_ephemeral(marie.dm).content == "⚠️ " + t("fr", "err.server_only")

    await marie.slash("forget", channel=marie.dm)  # a refusal is answered there too
    assert marie.last_ephemeral(marie.dm).content == "⚠️ " + t("fr", "err.no_storage")
    fake.assert_no_errors()
