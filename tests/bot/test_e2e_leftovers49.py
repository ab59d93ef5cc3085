"""End-to-end: stop 49's leftovers of stop 48. A player the host removed mid-round, or a
moderator banned from the server, is not rated for that round as one who fled it."""

from pathlib import Path

import pytest

from engine import Phase
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    connect_bot,
    create_table,
    database_url,
    message,
    play_until,
    record_charts,
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
    between themselves."""
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
    await play_until(fake, clock, [alice, carol],
                     lambda: game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER))
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
