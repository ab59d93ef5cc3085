"""End-to-end: seats, breaks and the leaderboard (docs/bot.md « Seats, breaks and the
leaderboard (stop 52) »).

- At a game with no end, a latecomer took only bots' seats: a seat a classic leaver freed
  (removed from the game at the round's end) was never given again, so one asking for a
  seat waited for the host's « Terminer ». The list now takes such a seat at the next deal,
  where the engine deals it again (`Game.reopen_seat`).

Time is the fake's: nothing sleeps."""

from __future__ import annotations

import pytest

from bot.client import PresidentBot
from bot.i18n import button_names, t
from engine import Phase
from fakediscord import FakeDiscord
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import cid, humans_only, leave_game, message, play_until, tick

#: (the table's language, the latecomers'): each reads the other's.
PAIRS = [("fr", "en-US"), ("en-US", "fr")]


@pytest.mark.parametrize(("locale", "theirs"), PAIRS)
async def test_a_latecomer_at_a_game_with_no_end_takes_a_seat_a_leaver_freed(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str, theirs: str
) -> None:
    """marie, bob, carol and zoe play classic with no bot and no end. zoe leaves in round
    1 (a bot finishes it, her seat goes at its end). dave asks for a seat: he was told that
    he took a bot's seat (her stand-in counted as one) and then sat at none, or, once her
    seat had gone, that he waited for the next game, hours away. He now reads that he takes
    a seat someone left, the table says he waits for the next round, and at « Manche
    suivante » he sits at zoe's seat with 0 points and her rank, his hand open to him;
    erin, asking next, is on the list for the next game (no seat is left)."""
    users = [fake.add_user(name, locale=locale) for name in ("marie", "bob", "carol", "zoe")]
    dave = fake.add_user("dave", locale=theirs)
    erin = fake.add_user("erin", locale=theirs)
    table, players = await humans_only(fake, clock, president, users, "classic",
                                       game_end="unlimited")
    game = table.game
    assert game is not None
    zoe_seat = table.seat_of(users[3].id)
    assert zoe_seat is not None
    await leave_game(users[3])
    await tick(fake, clock, 1)
    names = button_names(locale)
    board = message(dave, table.table_message_id)
    await dave.click(board, cid(table, "hand"))
    assert t(theirs, "hand.join_no_end", **names) in dave.last_ephemeral().content
    await dave.click(board, cid(table, "join"))
    assert dave.last_ephemeral().content == t(theirs, "lobby.queued_no_end_freed", **names)
    await erin.click(board, cid(table, "join"))
    assert erin.last_ephemeral().content == t(theirs, "lobby.listed_no_end", **names)
    await tick(fake, clock, 1)
    shown = message(users[0], table.table_message_id).content
    assert t(locale, "table.waiting_round", names="dave") in shown
    assert t(locale, "table.waiting_next", names="erin") in shown

    await play_until(fake, clock, players[:3], lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    assert not fresh(game).active[zoe_seat]  # her seat is gone from the game
    ranking = fresh(game).ranking
    assert ranking is not None and zoe_seat in ranking  # (where her stand-in finished)
    rank = ranking.index(zoe_seat)
    shown = message(users[0], table.table_message_id).content
    assert t(locale, "table.waiting_round", names="dave") in shown  # still his, between rounds
    await users[0].click(message(users[0], table.table_message_id),
                         cid(table, "next", game.version))
    await tick(fake, clock, 1)
    assert table.seat_of(dave.id) == zoe_seat and fresh(game).active[zoe_seat]
    assert zoe_seat in fresh(game).players and fresh(game).points[zoe_seat] == 0
    ranking = fresh(game).ranking
    assert ranking is not None and ranking.index(zoe_seat) == rank  # her rank, his now
    assert [p.user_id for p in table.queue] == [erin.id]
    shown = message(users[0], table.table_message_id).content
    assert "dave" in shown and t(locale, "table.waiting_next", names="erin") in shown
    await dave.click(message(dave, table.table_message_id), cid(table, "hand"))
    assert t(theirs, "hand.not_seated") not in dave.last_ephemeral().content  # his hand
    fake.assert_no_errors()
