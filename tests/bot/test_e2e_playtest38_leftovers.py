"""End-to-end: what play-test 38 (stop 55) saw and left (docs/bot.md « Play-test 38,
leftovers (stop 55) »): a leaver read « You left the table » twice, in the prompt they
confirmed and in their hand; a leaver who did not come back was missing from the final
standings, though the round they left showed their stand-in's points."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import plural, t
from engine import Phase
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    connect_bot,
    database_url,
    leave_game,
    message,
    play_until,
    tick,
    two_humans_against_a_bot,
)
from .stored import stored_game


@pytest.mark.parametrize("locale", ["fr", "en-US"])
async def test_a_leaver_reads_that_they_left_once(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """bob leaves mid-round by `/president leave` and « Leave the game »: the prompt and
    his open hand both turned into « You left the table. », two identical lines. The
    prompt he confirmed says it; the hand, stripped of its controls so as not to look
    live, says only that it closed."""
    marie = Player(fake.add_user("marie", locale="fr"))
    bob = Player(fake.add_user("bob", locale=locale))
    table, _ = await two_humans_against_a_bot(fake, clock, president, marie, bob)
    hand = bob.hand_id
    await leave_game(bob.user)
    prompt = bob.user.last_ephemeral()
    await tick(fake, clock, 1)
    assert table.left_seat(bob.user.id) is not None
    assert prompt.content == t(locale, "lobby.left")
    shown = message(bob.user, hand)
    assert shown.content == t(locale, "hand.folded") != prompt.content
    assert not shown.buttons and not shown.selects
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", ["fr", "en"])
async def test_a_leaver_who_does_not_come_back_is_named_below_the_standings(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """Classic to two rounds: bob leaves in the first, a bot finishes it for him
    (« 🤖 bob · … +n à cette manche »), and his seat is freed. The final standings, the
    engine's (`Game.standings`: the seats of the last round), had no word of that seat: its
    points, shown in round 1 and stored for it, no longer added up to anything. The seat's
    stand-in is now named below them, with the total its last round showed and stored,
    and not ranked."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url)
    marie = Player(fake.add_user("marie", locale=locale))
    bob = Player(fake.add_user("bob"))
    table, game = await two_humans_against_a_bot(fake, clock, bot, marie, bob, bots=2,
                                                 game_end="rounds:2")
    seat = table.seat_of(bob.user.id)
    assert seat is not None
    await leave_game(bob.user)
    await play_until(fake, clock, [marie], lambda: game.phase is Phase.ROUND_OVER)
    total = game.total(seat)
    await marie.user.click(message(marie.user, table.table_message_id),
                           cid(table, "next", game.version))
    await play_until(fake, clock, [marie], lambda: game.phase is Phase.GAME_OVER)
    await tick(fake, clock, 1)
    assert seat not in dict(game.standings())
    board = message(marie.user, table.table_message_id).content.split("\n")
    title = board.index(t(locale, "table.standings"))
    assert "**🤖 bob**" in board[title + 1 + len(game.standings())]
    left = t(locale, "table.standing_left", name="🤖 bob",
             total=plural(locale, "n.points", total))
    assert board[title + 1 + len(game.standings())] == left
    assert table.game_row_id is not None
    stored = await stored_game(url, table.game_row_id)
    assert sum(r.points for r in stored.results if r.seat == seat) == total
    fake.assert_no_errors()
    await fake.disconnect(bot)
