"""End-to-end: seats, leftovers (docs/bot.md « Seats, leftovers (stop 53) »).

- A newcomer at a seat a leaver freed a round or more before had no rank: no role on the
  table, nothing on their hand about the exchange they sat out. They play their first
  round Neutral, and their hand says why.

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
async def test_a_newcomer_at_a_seat_freed_rounds_before_plays_their_first_round_neutral(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str, theirs: str
) -> None:
    """marie, bob, carol and zoe play classic with no end. zoe leaves in round 1; round 2
    is dealt to the three others (President, Neutral, last). dave asks for a seat during
    round 2 and sits at zoe's seat at round 3: it finished no round just played, so it has
    no rank. He had no role (the table showed none beside him) and his hand said nothing
    of the exchange he sat out; he is now Neutral, on the table and in his hand, which
    says why, and the others' exchange is the one their round earned them."""
    users = [fake.add_user(name, locale=locale) for name in ("marie", "bob", "carol", "zoe")]
    dave = fake.add_user("dave", locale=theirs)
    table, players = await humans_only(fake, clock, president, users, "classic",
                                       game_end="unlimited")
    game = table.game
    assert game is not None
    zoe_seat = table.seat_of(users[3].id)
    assert zoe_seat is not None
    await leave_game(users[3])
    await tick(fake, clock, 1)
    for round_no in (1, 2):
        await play_until(fake, clock, players[:3],
                         lambda: fresh(game).phase is Phase.ROUND_OVER)
        await tick(fake, clock, 1)
        if round_no == 2:
            break
        await users[0].click(message(users[0], table.table_message_id),
                             cid(table, "next", game.version))
        await tick(fake, clock, 1)
        assert zoe_seat not in fresh(game).players
        board = message(dave, table.table_message_id)
        await dave.click(board, cid(table, "join"))
        assert dave.last_ephemeral().content == t(theirs, "lobby.queued_no_end_freed",
                                                  **button_names(locale))
    ranking = fresh(game).ranking
    assert ranking is not None and zoe_seat not in ranking  # round 2 went without the seat
    await users[0].click(message(users[0], table.table_message_id),
                         cid(table, "next", game.version))
    await tick(fake, clock, 1)
    assert table.seat_of(dave.id) == zoe_seat and zoe_seat in fresh(game).players
    assert fresh(game).phase is Phase.EXCHANGE
    neutral_here = t(locale, "role.classic.N")
    assert fresh(game).roles[zoe_seat] == "N"
    shown = message(users[0], table.table_message_id).content
    line = next(line for line in shown.splitlines() if "dave" in line)
    assert t(locale, "table.role", role=neutral_here) in line
    await dave.click(message(dave, table.table_message_id), cid(table, "hand"))
    why = t(theirs, "hand.exchange_role_new", role=t(theirs, "role.classic.N"))
    assert t(theirs, "hand.exchange_why.none", why=why) in dave.last_ephemeral().content
    assert fresh(game).exchange_due(zoe_seat) is None
    fake.assert_no_errors()


