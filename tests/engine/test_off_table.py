"""Players waiting off the table (RULES §10: proletario's last place gives up the seat to
the queue when no bot is seated) keep their points in the game: they count in the
standings and can win, whichever way the game ends (RULES §8 compares every player's
totals)."""

from __future__ import annotations

import pytest

from engine import Card, Game, GreedyPlayer, IllegalAction, Phase, Rules, event_from_dict
from engine.events import GameOver


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def _one_card_round(points: tuple[int, ...] = (0, 0, 0, 9), **overrides: object) -> Game:
    """A proletario round played out at once: each seat holds one card and goes out in
    seat order (P 0 +3, VP 1 +2, Secrétaire 2, Proletario 3), from these ``points``."""
    game = Game.new(Rules.preset("proletario", **overrides), 4,
                    hands=[cards("3H"), cards("4H"), cards("5H"), cards("6H")], opener=0,
                    points=list(points))
    for seat, card in enumerate(("3H", "4H", "5H", "6H")):
        if game.phase is Phase.PLAY:
            game.play(seat, cards(card))
    assert game.ranking == (0, 1, 2, 3)
    assert game.points == [points[0] + 3, points[1] + 2, points[2], points[3]]
    return game


def play_out(game: Game) -> None:
    """Play the round under way to its end, the greedy player at every seat."""
    bot = GreedyPlayer()
    while game.phase is Phase.EXCHANGE:
        giver = next(s for s in range(game.seats)
                     if (due := game.exchange_due(s)) is not None and due.ready)
        game.apply(giver, bot.choose(game, giver))
    while game.phase is Phase.PLAY:
        seat = game.to_act
        assert seat is not None
        game.apply(seat, bot.choose(game, seat))


def test_the_proletario_waiting_with_the_best_total_wins_when_the_host_stops() -> None:
    """« The current totals are final » (RULES §8): zoe gave up her seat with 9 points, the
    seated leader has 3, and stopping the unlimited game names her, first of the
    standings."""
    game = _one_card_round()
    version = game.version
    game.step_off(3, "zoe")
    assert game.off_table == {"zoe": 9} and game.points[3] == 0 and game.version > version
    game.take_seat(3, "eve")  # a newcomer brings nothing
    assert game.points[3] == 0 and game.total("zoe") == 9
    assert game.stop_winners() == ("zoe",)
    assert game.standings() == [("zoe", 1), (0, 2), (1, 3), (2, 4), (3, 4)]
    events = game.stop()
    assert game.winners == ("zoe",) and not game.stopped_early
    over = next(e for e in events if isinstance(e, GameOver))
    assert over.winners == ("zoe",) and event_from_dict(over.to_dict()) == over


def test_a_tie_between_a_seat_and_a_waiting_player_is_shared() -> None:
    """« Players tied on the highest total are joint winners » (RULES §8), seated or not."""
    game = _one_card_round(points=(6, 0, 0, 9))
    game.step_off(3, "zoe")
    game.take_seat(3, "eve")
    assert game.points == [9, 2, 0, 0] and game.off_table == {"zoe": 9}
    assert game.stop_winners() == (0, "zoe")
    assert game.standings() == [(0, 1), ("zoe", 1), (1, 3), (2, 4), (3, 4)]
    game.stop()
    assert game.winners == (0, "zoe")


def test_the_last_of_a_set_number_of_rounds_counts_the_waiting_players() -> None:
    """rounds:2: the game ends with round 2, and zoe, waiting with 9, beats every seat
    (at most 3 + 3 after two rounds)."""
    game = _one_card_round(game_end="rounds:2")
    game.step_off(3, "zoe")
    game.take_seat(3, "eve")
    game.next_round()
    play_out(game)
    assert game.phase is Phase.GAME_OVER and game.winners == ("zoe",)
    assert game.standings()[0] == ("zoe", 1)


def test_points_come_back_with_their_player_and_a_leaver_stops_counting() -> None:
    game = _one_card_round()
    game.step_off(3, "zoe")
    game.take_seat(3, "eve")
    game.step_off(2, "eve")
    game.take_seat(2, "zoe")
    assert game.points[2] == 9 and game.off_table == {"eve": 0}
    game.next_round()
    game.leave_off_table("eve")  # she left the queue: her standing goes
    assert game.off_table == {}
    with pytest.raises(IllegalAction):  # seats change only between rounds
        game.step_off(0, "ann")


def test_who_takes_a_seat_does_not_take_its_autopilot() -> None:
    """The Proletario on autopilot (two timeouts) gives up their seat to the queue: eve,
    sitting there, played her first round by the autopilot until she pressed « Reprendre »,
    one timeout from it again."""
    game = _one_card_round()
    game.autopilot.add(3)
    game.timeouts[3] = 2
    game.step_off(3, "zoe")
    game.take_seat(3, "eve")
    assert not game.automated(3) and game.timeouts[3] == 0


def test_the_standings_of_a_game_over_stand_when_a_waiting_player_leaves() -> None:
    game = _one_card_round()
    game.step_off(3, "zoe")
    game.take_seat(3, "eve")
    game.stop()
    game.leave_off_table("zoe")
    assert game.winners == ("zoe",) and game.standings()[0] == ("zoe", 1)


def test_one_key_waits_once() -> None:
    game = _one_card_round()
    game.step_off(3, "zoe")
    with pytest.raises(ValueError):
        game.step_off(2, "zoe")


def test_the_snapshot_and_a_clone_keep_who_waits_off_the_table() -> None:
    game = _one_card_round()
    game.step_off(3, "zoe")
    game.take_seat(3, "eve")
    again = Game.from_dict(game.to_dict())
    assert again.off_table == {"zoe": 9} and again.standings() == game.standings()
    copy = game.clone()
    copy.off_table["zoe"] = 0
    assert game.off_table == {"zoe": 9}
    game.stop()
    over = Game.from_dict(game.to_dict())
    assert over.winners == ("zoe",) and over.phase is Phase.GAME_OVER
    # A snapshot from before the engine kept them restores with nobody off the table.
    old = game.to_dict()
    del old["off_table"]
    old["winners"] = [0]
    assert Game.from_dict(old).off_table == {}


def test_a_replay_starts_with_nobody_off_the_table() -> None:
    game = _one_card_round()
    game.step_off(3, "zoe")
    game.take_seat(3, "eve")
    game.stop()
    assert game.replay().off_table == {}
