"""The exchange's timer names the givers it chose for (`TimedOut.late`), and timeouts stored
before it did still read."""

from __future__ import annotations

from engine import Game, Phase, Rules, event_from_dict
from engine.events import TimedOut


def test_the_exchange_timeout_names_only_the_givers_who_had_not_chosen() -> None:
    game = Game.new(Rules.preset("classic"), 4, seed=3, previous_ranking=[0, 1, 2, 3])
    due = game.exchange_due(1)
    assert due is not None
    game.give(1, due.allowed[:1])
    events = game.timeout()
    timed_out = [e for e in events if isinstance(e, TimedOut)]
    assert timed_out == [TimedOut("exchange", None, (0,))]
    assert game.phase is Phase.PLAY
    assert event_from_dict(timed_out[0].to_dict()) == timed_out[0]


def test_a_giver_on_autopilot_is_not_named_late() -> None:
    """A seat the autopilot plays for is no player who ran out of time: not named."""
    game = Game.new(Rules.preset("classic"), 4, seed=3, previous_ranking=[0, 1, 2, 3])
    game.autopilot.add(0)
    events = game.timeout()
    assert [e for e in events if isinstance(e, TimedOut)] == [TimedOut("exchange", None, (1,))]


def test_a_timeout_stored_before_late_was_kept_reads_with_nobody_late() -> None:
    exchange = event_from_dict({"kind": "timeout", "timer": "exchange", "seat": None})
    turn = event_from_dict({"kind": "timeout", "timer": "turn", "seat": 2})
    assert exchange == TimedOut("exchange", None, ())
    assert turn == TimedOut("turn", 2, ())
