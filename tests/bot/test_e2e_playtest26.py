"""End-to-end: play-test 26 (stop 48), the regulars: a server's friends playing evening
after evening, and what `/president stats`, `leaderboard` and `history` tell them. Each test
is a thing a regular would call wrong, as they met it."""

import re
from pathlib import Path

import pytest

from bot.i18n import t
from engine import Phase
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import (
    Player,
    alice_and_bob_stored,
    cid,
    connect_bot,
    database_url,
    host_against_bots,
    leave_game,
    message,
    play_until,
    record_charts,
    tick,
)


async def rating_line(player: Player) -> str:
    """The preset line of the player's /president stats: « **Classic Président** · rating
    1062 (1 round counted) · 1 round »."""
    await player.user.slash("president stats")
    return player.user.last_ephemeral().text.split("\n")[2]


def rating_of(line: str) -> int:
    found = re.search(r"rating (\d+)", line)
    assert found is not None, line
    return int(found[1])


async def test_leaving_a_round_one_is_losing_does_not_keep_a_rating_safe(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """alice and bob, with a bot, three rounds of classic. In the second, bob leaves at
    once, a bot finishing his round. His rating stayed as it was, the round missing from
    his stats as if he had not sat down, and alice, the only human left, got nothing for
    it either: « rating 1062 (1 round counted) · 2 rounds ». He is now rated as finishing
    the round behind her, the round counted for both, and his rating chart ends where his
    stats stand. The question before he leaves says so."""
    drawn = record_charts(monkeypatch)
    bot, alice, bob, table, game = await alice_and_bob_stored(fake, clock, tmp_path,
                                                              "rounds:3")
    await play_until(fake, clock, [alice, bob], lambda: game.phase is Phase.ROUND_OVER)
    await bot.service.drain()
    alice_before, bob_before = rating_of(await rating_line(alice)), \
        rating_of(await rating_line(bob))
    await tick(fake, clock, 1)
    await alice.user.click(message(alice.user, table.table_message_id),
                           cid(table, "next", game.version))
    await tick(fake, clock, 1)

    await bob.user.slash("president leave")  # he is told before he confirms
    assert bob.user.last_ephemeral().text.endswith(
        " gives you your seat back. For your rating, this round counts as finished behind "
        "every human who stays at the table.")
    await leave_game(bob.user)
    await play_until(fake, clock, [alice],
                     lambda: game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER))
    await bot.service.drain()

    alice_line, bob_line = await rating_line(alice), await rating_line(bob)
    assert alice_line.endswith(" (2 rounds counted) · 2 rounds"), alice_line
    assert bob_line.endswith(" (2 rounds counted) · 2 rounds"), bob_line
    assert rating_of(alice_line) > alice_before and rating_of(bob_line) < bob_before
    drawn.clear()
    await bob.user.slash("president stats")
    assert [chart.series for chart in drawn] == [((bob_before, rating_of(bob_line)),)]
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_player_alone_with_bots_is_not_told_of_a_rating_when_leaving(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
) -> None:
    """With no other human at the table the round rates nobody: the question before
    leaving says nothing of a rating, in French as in English."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    marie = fake.add_user("marie", locale="fr")
    await host_against_bots(bot, marie, "classic", 3)
    await tick(fake, clock, 1)
    await marie.slash("president leave")
    assert marie.last_ephemeral().text == t("fr", "leave.confirm.round")
    await fake.disconnect(bot)
    fake.assert_no_errors()
