"""The game API beyond what scenarios express: timers, observations, codes, seats, endings."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine import Action, Card, Game, GreedyPlayer, IllegalAction, Phase, Rules
from engine.events import Out
from engine.roles import exchange_pairs
from engine.rounds import Rounds


def cards(text: str) -> list[Card]:
    return [Card.parse(t) for t in text.split()]


def classic(**overrides: object) -> Rules:
    return Rules.preset("classic", **overrides)


def test_turn_timer_restarts_on_every_decision_but_exchange_timer_does_not() -> None:
    game = Game.new(classic(), 3, hands=[cards("3H 9C"), cards("4H 10C"), cards("5H JC")],
                    opener=0)
    timer = game.timer
    assert timer is not None and (timer.kind, timer.seat, timer.seconds) == ("turn", 0, 30)
    game.play(0, cards("3H"))
    assert game.timer is not None and game.timer.seat == 1
    assert game.timer.serial != timer.serial

    exchange = Game.new(classic(), 4, seed=3, previous_ranking=[0, 1, 2, 3])
    assert exchange.phase is Phase.EXCHANGE
    first = exchange.timer
    assert first is not None and first.kind == "exchange"
    due = exchange.exchange_due(1)
    assert due is not None and due.ready and due.count == 1
    exchange.give(1, due.allowed[:1])
    assert exchange.timer == first  # one timer for the whole exchange


def test_fast_timer_ignores_passes_and_refusals() -> None:
    game = Game.new(classic(fast=True), 3,
                    hands=[cards("3H 9C KD"), cards("4H 10C QS"), cards("5H JC AS")], opener=0)
    assert game.to_act is None
    start = game.timer
    assert start is not None and start.kind == "fast" and start.seconds == 10
    seen = game.version
    game.play(1, cards("4H"), seen=seen)
    after_play = game.timer
    assert after_play is not None and after_play.serial != start.serial
    with pytest.raises(IllegalAction) as stale:
        game.play(2, cards("5H"), seen=seen)
    assert stale.value.code == "stale" and stale.value.params["by"] == 1
    assert Card.parse("5H") in game.hands[2]
    game.pass_turn(0)
    assert game.timer == after_play
    with pytest.raises(IllegalAction) as err:
        game.pass_turn(1)
    assert err.value.code == "last_player_cannot_pass"


def test_fast_pass_drawn_for_an_earlier_trick_is_refused_and_changes_nothing() -> None:
    """A pass answers the trick its player saw: one sent for trick N must not count as a
    pass on trick N+1, which its player has not seen."""
    game = Game.new(classic(fast=True), 3,
                    hands=[cards("3H 9C KD"), cards("4H 10C QS"), cards("5H JC AS")], opener=0)
    game.play(0, cards("3H"))
    first_trick = game.version
    game.pass_turn(1, seen=first_trick)
    game.pass_turn(2, seen=first_trick)  # every other player passed: the trick closes
    assert not game.trick and not game.passed
    game.play(0, cards("9C"))  # the second trick, which seat 1 has not seen yet
    before = game.to_dict()
    with pytest.raises(IllegalAction) as stale:
        game.pass_turn(1, seen=first_trick)
    assert stale.value.code == "stale"
    assert game.to_dict() == before and 1 not in game.passed
    game.pass_turn(1, seen=game.version)  # the same pass, drawn for this trick, counts
    assert game.passed == {1}


def test_observation_never_shows_other_hands() -> None:
    game = Game.new(Rules.preset("wild7"), 5, seed=11)
    for seat in range(5):
        seen = game.observe(seat)
        assert set(seen.hand) == set(game.hands[seat])
        others = {c for s in range(5) if s != seat for c in game.hands[s]}
        text = repr(seen)
        assert not any(f"'{c}'" in text for c in others if c not in seen.hand)
        assert seen.hand_sizes == tuple(len(h) for h in game.hands)
    spectator = game.observe(None)
    assert spectator.hand == () and spectator.legal == ()


def test_exchange_events_are_private_to_both_sides() -> None:
    game = Game.new(classic(), 4, seed=2, previous_ranking=[3, 2, 1, 0])
    due = game.exchange_due(3)
    assert due is not None
    events = game.give(3, due.allowed[:2])
    given = [e for e in events if e.kind == "exchange_given"]
    assert given and all(e.visible_to(3) and e.visible_to(0) for e in given)
    assert not any(e.visible_to(1) or e.visible_to(None) for e in given)


def test_refusals_carry_codes_and_change_nothing() -> None:
    game = Game.new(classic(), 3, hands=[cards("3H 3S 9C"), cards("4H 10C"), cards("5H JC")],
                    opener=0)
    before = game.to_dict()
    attempts: list[tuple[Callable[[], object], str]] = [
        (lambda: game.play(1, cards("4H")), "not_your_turn"),
        (lambda: game.pass_turn(0), "must_open"),
        (lambda: game.play(0, cards("3H 9C")), "mixed_values"),
        (lambda: game.play(0, cards("4H")), "not_in_hand"),
        (lambda: game.give(0, cards("3H")), "wrong_phase"),
        (lambda: game.resume(0), "not_on_autopilot"),
        (lambda: game.next_round(), "round_not_over"),
    ]
    for attempt, code in attempts:
        with pytest.raises(IllegalAction) as err:
            attempt()
        assert err.value.code == code
        assert str(err.value)
    assert game.to_dict() == before
    assert game.can_play(0, cards("3H 3S")) and not game.can_play(1, cards("4H"))
    assert not game.can_give(0, cards("3H"))
    game.play(0, cards("3H 3S"))
    for attempt, code in [(lambda: game.play(1, cards("4H")), "wrong_count")]:
        with pytest.raises(IllegalAction) as err:
            attempt()
        assert err.value.code == code


def test_wild_announcements_are_listed_per_value() -> None:
    game = Game.new(Rules.preset("wild7"), 2, hands=[cards("7H 7S KD"), cards("3C")],
                    opener=0)
    options = game.legal_plays(0)
    announced = {(o.value, o.count) for o in options if o.announce}
    assert ("A", 2) in announced and ("3", 1) in announced
    assert any(o.value == "K" and o.count == 3 and o.wilds == 2 for o in options)
    assert str(next(o for o in options if o.announce == "A" and o.count == 2)) == "7→A×2"


def test_stop_and_replay() -> None:
    game = Game.new(classic(), 4, seed=1)
    game.stop()
    assert game.phase is Phase.GAME_OVER and game.stopped_early and game.winners == ()
    with pytest.raises(IllegalAction):
        game.stop()
    again = game.replay()
    assert again.phase is Phase.PLAY and again.points == [0, 0, 0, 0] and again.round_no == 1

    unlimited = Game.new(classic(game_end="unlimited"), 3, seed=1, points=[4, 7, 7])
    unlimited.stop()
    assert unlimited.winners == (1, 2) and not unlimited.stopped_early

    # Stopped before any round counted, nobody has scored: no winner (play-test 14), not
    # every seat level at 0.
    unplayed = Game.new(classic(game_end="unlimited"), 4, seed=1)
    unplayed.stop()
    assert unplayed.winners == () and unplayed.stopped_early
    after_one = Game.new(classic(game_end="unlimited"), 4, seed=1)
    _finish_round(after_one)
    after_one.stop()
    assert after_one.winners and not after_one.stopped_early


def test_versions_say_which_round_and_game_a_control_was_drawn_in() -> None:
    """A round remembers the version it began at, and a replayed game goes on counting
    where its predecessor stopped: the bot refuses controls drawn before either."""
    game = Game.new(classic(), 4, seed=2)
    assert game.round_version == 0
    _finish_round(game)
    game.next_round()
    assert game.phase is Phase.EXCHANGE and 0 < game.round_version == game.version
    restored = Game.from_dict(game.to_dict())
    assert restored.round_version == game.round_version
    game.stop()
    again = game.replay()
    assert again.version >= again.round_version > game.version
    later = Game.new(classic(), 4, seed=2, first_version=again.version + 1)
    assert later.version >= later.round_version == again.version + 1


class Recording:
    """A chooser that plays as GreedyPlayer and notes which seats it was asked for."""

    def __init__(self) -> None:
        self.seats: list[int] = []

    def choose(self, game: Rounds, seat: int) -> Action:
        self.seats.append(seat)
        return GreedyPlayer().choose(game, seat)


def test_autoplay_plays_with_the_callers_chooser_which_a_restorer_gives_again() -> None:
    """The engine plays its automated seats with what the caller gives it, and a snapshot
    keeps only that it did: restoring it needs a chooser again, and refuses one it did not
    have, rather than go on otherwise than the stored game would have."""
    chooser = Recording()
    game = Game.new(classic(), 4, seed=1, bots={1, 2, 3}, autoplay=chooser)
    while game.phase is Phase.PLAY:
        assert game.to_act == 0
        game.apply(0, GreedyPlayer().choose(game, 0))
    assert chooser.seats and set(chooser.seats) == {1, 2, 3}
    assert game.replay().autoplay is chooser

    game.next_round()
    data = game.to_dict()
    assert data["autoplay"] is True
    with pytest.raises(ValueError, match="give it autoplay"):
        Game.from_dict(data)
    restored = Game.from_dict(data, autoplay=Recording())
    for copy in (game, restored):
        for seat in range(4):
            due = copy.exchange_due(seat)
            if due is not None and not copy.automated(seat):
                copy.apply(seat, GreedyPlayer().choose(copy, seat))
    assert restored.to_dict() == game.to_dict()

    paced = Game.new(classic(), 4, seed=1, bots={1, 2, 3})
    assert paced.to_dict()["autoplay"] is False and paced.to_act is not None
    with pytest.raises(ValueError, match="give no autoplay"):
        Game.from_dict(paced.to_dict(), autoplay=chooser)


def _finish_round(game: Game) -> None:
    bot = GreedyPlayer()
    while game.phase is Phase.PLAY:
        seat = game.to_act
        assert seat is not None
        game.apply(seat, bot.choose(game, seat))


def test_a_freed_seat_is_not_dealt_and_roles_follow_the_smaller_table() -> None:
    game = Game.new(classic(), 5, seed=4)
    _finish_round(game)
    leaver = game.ranking[2] if game.ranking else 0
    game.remove_seat(leaver)
    game.next_round()
    assert game.hands[leaver] == [] and leaver not in game.players
    assert sum(len(h) for h in game.hands) == 52
    assert sorted(r for r in game.roles if r) == sorted(["P", "VP", "VL", "L"])


def test_someone_taking_a_seat_between_rounds_brings_their_own_points() -> None:
    """RULES §10's rotation (a waiting player takes a bot's seat and its rank): the seat's
    points are the newcomer's, 0 unless they bring some; the rank stays the seat's. Seats
    change hands only between rounds."""
    game = Game.new(Rules.preset("proletario"), 4, seed=3)
    with pytest.raises(IllegalAction):
        game.take_seat(0)
    _finish_round(game)
    assert game.ranking is not None
    top = game.ranking[0]
    assert game.points[top] == 3
    version = game.version
    game.step_off(top, "ann")
    game.take_seat(top)
    assert game.points[top] == 0 and game.ranking[0] == top and game.version > version
    game.take_seat(top, "ann")  # ann sits again, with her 3 points
    assert Game.from_dict(game.to_dict()).points[top] == 3 and game.off_table == {}
    game.next_round()
    assert game.roles[top] == "P"


def _exchange(game: Game) -> None:
    while game.phase is Phase.EXCHANGE:
        for seat in range(game.seats):
            due = game.exchange_due(seat)
            if due is not None:
                game.give(seat, list(game.hand(seat))[:due.count])


def test_a_newcomer_reopens_a_freed_seat_between_rounds() -> None:
    """A seat freed at a round's end (its leaver's, finished by a bot) is dealt again once
    a newcomer sits there: 0 points, the rank the seat finished at. Freed a round earlier,
    it has no rank: Neutral, no exchange, the others' roles those of the smaller table
    (before stop 53: no role at all, the table and the hand saying nothing of it).
    Mid-round, or a seat in play, is refused."""
    game = Game.new(classic(), 4, seed=4)
    with pytest.raises(IllegalAction):
        game.reopen_seat(1)
    assert game.freed_seats() == [] and game.freed_seats(leaving={1}) == [1]
    _finish_round(game)
    assert game.ranking is not None
    last = game.ranking[-1]
    game.remove_seat(last)
    with pytest.raises(IllegalAction):
        game.reopen_seat((last + 1) % 4)  # in play
    assert game.freed_seats() == [last]
    version = game.version
    game.reopen_seat(last)
    assert game.points[last] == 0 and game.version > version and game.freed_seats() == []
    game.next_round()
    assert last in game.players and sum(len(h) for h in game.hands) == 52
    assert game.roles[last] == "L"  # the seat's rank: it gives its two best cards
    game = Game.from_dict(game.to_dict())
    _exchange(game)
    _finish_round(game)
    game.remove_seat(last)
    game.next_round()  # a round without the seat: it loses its rank
    _exchange(game)
    _finish_round(game)
    game.reopen_seat(last)
    game.next_round()
    assert game.roles[last] == "N" and last in game.players  # Neutral: no exchange
    assert sorted(r for r in game.roles if r) == ["L", "N", "N", "P"]
    assert all(last not in pair[:2] for pair in exchange_pairs(game.ranking or (), False))
    assert Game.from_dict(game.to_dict()).roles[last] == "N"
    assert sum(len(h) for h in game.hands) == 52


def test_a_seat_freed_once_the_game_is_over_is_not_dealt_in_its_replay() -> None:
    """A player leaving a finished game frees their seat, and « Rejouer » deals the others
    without it; mid-round seats still do not change."""
    game = Game.new(classic(), 4, seed=4)
    with pytest.raises(IllegalAction):
        game.remove_seat(1)
    game.stop()
    assert game.phase is Phase.GAME_OVER
    game.remove_seat(1)
    again = game.replay()
    assert again.hands[1] == [] and 1 not in again.players
    assert sum(len(h) for h in again.hands) == 52


def test_leave_hands_the_seat_to_a_bot_and_set_bot_gives_it_back() -> None:
    game = Game.new(classic(), 4, seed=9)
    game.leave(2)
    assert game.automated(2)
    game.set_bot(2, False)
    assert not game.automated(2)



def test_a_seat_leaves_once_and_a_bot_seat_not_at_all() -> None:
    """A second leave, or one by a seat a bot plays from the start, is refused with its own
    reason and changes nothing (it was accepted without effect, bumping the version)."""
    game = Game.new(classic(), 4, seed=9, bots={3})
    assert game.can_leave(2) and not game.can_leave(3)
    game.leave(2)
    for seat in (2, 3):
        version = game.version
        assert not game.can_leave(seat)
        with pytest.raises(IllegalAction) as refused:
            game.leave(seat)
        assert refused.value.code == "already_left" and game.version == version
    with pytest.raises(IllegalAction) as outside:
        game.leave(4)
    assert outside.value.code == "not_seated"

def test_proletario_reseats_by_rank_and_deals_fourteen_to_the_top() -> None:
    game = Game.new(Rules.preset("proletario"), 4, seed=6)
    assert sorted(len(h) for h in game.hands) == [13, 13, 14, 14]
    _finish_round(game)
    ranking = game.ranking
    assert ranking is not None
    game.next_round()
    assert game.players == list(ranking)
    assert [len(game.hands[s]) for s in ranking] == [14, 14, 13, 13]


def test_gift_choice_offers_a_low_role_its_equal_best_cards_until_it_picks() -> None:
    """Proletario's blind exchange gives the low role's best cards for it; `gift_choice`
    says what it may pick instead (the cards of the due values), until it has picked."""
    cards = [[Card.parse(c) for c in hand.split()]
             for hand in ("2H 2S 2D AS 5C", "3H 4H 9H", "6D 7D", "KC KD 8C")]
    game = Game.new(Rules.preset("proletario"), seats=4, seed=1, hands=cards,
                    previous_ranking=[1, 2, 3, 0])
    assert game.exchange_due(0) is None
    choice = game.gift_choice(0)
    assert choice is not None and choice.receiver == 1 and choice.count == 2
    assert sorted(map(str, choice.allowed)) == ["2D", "2H", "2S"]
    assert game.gift_choice(1) == game.exchange_due(1)  # a pending gift: the same answer
    game.give(0, [Card.parse("2D"), Card.parse("2S")])
    assert game.gift_choice(0) is None


def _play(game: Game, seat: int, cards_text: str) -> None:
    wanted = sorted(cards_text.split())
    game.play_option(seat, next(o for o in game.legal_plays(seat)
                                if sorted(str(c) for c in o.cards) == wanted))


def test_standings_break_a_tie_at_the_target_as_the_winner_is_chosen() -> None:
    """Presi: the President and the Vice-president both reach 11 in the last round, and the
    President alone wins (seed 001); the standings had them share the 1st place, and the
    VP's hand said « 1re place ex æquo » beside « victoire : marie » (play-test 13)."""
    game = Game.new(Rules.preset("presi"), 3, hands=[cards("3O AE"), cards("4O KE"),
                                                     cards("5O 6E 7E 8E")],
                    opener=0, points=[9, 10, 0])
    for seat, played in [(0, "3O"), (1, "4O"), (2, "5O"), (0, "AE"), (1, "KE")]:
        _play(game, seat, played)
    assert game.phase is Phase.GAME_OVER and game.points == [11, 11, 0]
    assert game.winners == (0,) and game.standings() == [(0, 1), (1, 2), (2, 3)]
    joint = Game.new(Rules.preset("presi").replace(target_tie="joint"), 3,
                     hands=[cards("3O AE"), cards("4O KE"), cards("5O 6E 7E 8E")],
                     opener=0, points=[9, 10, 0])
    for seat, played in [(0, "3O"), (1, "4O"), (2, "5O"), (0, "AE"), (1, "KE")]:
        _play(joint, seat, played)
    assert joint.winners == (0, 1) and joint.standings() == [(0, 1), (1, 1), (2, 3)]
    below = Game.new(Rules.preset("presi"), 3, hands=[cards("3O AE"), cards("4O KE"),
                                                      cards("5O 6E 7E 8E")],
                     opener=0, points=[9, 0, 1])
    for seat, played in [(0, "3O"), (1, "4O"), (2, "5O"), (0, "AE"), (1, "KE")]:
        _play(below, seat, played)
    assert below.points == [11, 1, 1]  # a tie below the target stands
    assert below.standings() == [(0, 1), (1, 2), (2, 2)]


@pytest.mark.parametrize("held", [1.5, [1], {"seat": 1}])
def test_an_event_field_holding_no_field_value_is_refused_in_its_dict(held: object) -> None:
    """`Event.to_dict` reads each field by name, which mypy types `Any`: a value no event
    field holds (set past the constructor) is refused, not written as if it were JSON's."""
    event = Out(seat=1, position=1, place=1)
    assert event.to_dict() == {"kind": "out", "seat": 1, "position": 1, "place": 1}
    object.__setattr__(event, "seat", held)
    with pytest.raises(TypeError, match="holds"):
        event.to_dict()
