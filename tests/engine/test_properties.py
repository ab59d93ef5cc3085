"""Random games on every preset and on random knob combinations: invariants that must hold."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine import KNOBS, PRESETS, Action, Game, IllegalAction, Phase, RandomPlayer, Rules
from engine.events import Event, RoundOver, event_from_dict
from engine.roles import roles_for
from engine.rules import RulesError

PROPERTY_SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def _knob_value(name: str, rng: random.Random) -> object:
    spec = KNOBS[name]
    if spec.kind == "bool":
        return rng.random() < 0.5
    if spec.kind == "choice":
        return rng.choice(spec.choices)
    if spec.kind in ("int", "optional_int"):
        assert spec.min is not None and spec.max is not None
        return rng.randint(spec.min, min(spec.max, spec.min + 20))
    if spec.kind == "points":
        return {role: rng.randint(0, 4) for role in ("P", "VP", "N", "VL", "L")}
    if spec.kind == "game_end":
        return rng.choice(["rounds:2", "unlimited", "target:4"])
    # Any card a host may type: the engine takes only a 2 (others are refused, not played).
    return rng.choice(["none", "2O", "2H", "AS", "QH", "3O"])


@st.composite
def rule_sets(draw: st.DrawFn) -> Rules:
    preset = draw(st.sampled_from(sorted(PRESETS)))
    rng = random.Random(draw(st.integers(0, 2**32)))
    overrides = {}
    for name in rng.sample(sorted(KNOBS), draw(st.integers(0, 8))):
        overrides[name] = _knob_value(name, rng)
    try:
        return Rules.preset(preset, **overrides)
    except RulesError:
        assume(False)
        raise


def _decide(game: Game, players: list[RandomPlayer], rng: random.Random) -> tuple[int, Action] | None:
    """Who acts next and how; None means: let the timer run out."""
    if game.phase is Phase.EXCHANGE:
        ready = [s for s in range(game.seats) if (d := game.exchange_due(s)) and d.ready]
        if not ready or rng.random() < 0.1:
            return None
        seat = rng.choice(ready)
        return seat, players[seat].choose(game, seat)
    if game.rules.fast:
        able = [s for s in game.players if game.legal_actions(s)]
        if not able or rng.random() < 0.05:
            return None
        seat = rng.choice(able)
    else:
        assert game.to_act is not None
        seat = game.to_act
        if rng.random() < 0.03:
            return None
    return seat, players[seat].choose(game, seat)


def _attempt_illegal(game: Game, rng: random.Random) -> None:
    """Random attempts that the listing does not offer must be refused without any change."""
    before = json.dumps(game.to_dict())
    seat = rng.randrange(game.seats)
    hand = game.hands[seat]
    if hand:
        cards = rng.sample(hand, rng.randint(1, min(4, len(hand))))
        listed = {(frozenset(a.cards), a.option.announce if a.option else None)
                  for a in game.legal_actions(seat) if a.kind == "play"}
        try:
            game.verify_play(seat, cards)
        except IllegalAction:
            refused = True
        else:
            refused = False
        if not refused:
            # Accepted cards must make a listed kind of play (suits may differ).
            option = game.verify_play(seat, cards)
            assert option in game.legal_plays(seat)
        elif (frozenset(cards), None) in listed:
            raise AssertionError(f"listed play {cards} refused")
    if not game.can_pass(seat):
        try:
            game.pass_turn(seat)
        except IllegalAction:
            pass
        else:
            raise AssertionError("a pass that can_pass refused was accepted")
    assert json.dumps(game.to_dict()) == before


def _check_invariants(game: Game) -> None:
    total = sum(len(h) for h in game.hands) + len(game.pile)
    assert total == game.deck.size
    if game.phase is Phase.PLAY:
        acting = [s for s in range(game.seats) if game.legal_actions(s)]
        for seat in range(game.seats):
            if not game.hands[seat]:
                assert seat not in acting, "a seat acts after going out"
        if not game.rules.fast:
            assert acting == [game.to_act], (acting, game.to_act)
        assert len(set(game.out)) == len(game.out)


def _check_round_over(game: Game, event: RoundOver) -> None:
    seated = [s for s in range(game.seats) if game.active[s]]
    assert sorted(event.ranking) == seated, "the ranking is a permutation of the seats"
    roles = roles_for(len(event.ranking), game.rules.vp_at_three)
    for seat, role in zip(event.ranking, roles, strict=True):
        assert event.roles[seat] == role
        assert event.gained[seat] == game.rules.points[role]


def play(rules: Rules, seats: int, seed: int, rounds: int = 2,
         round_trip_every: int = 0) -> list[dict[str, Any]]:
    """Play a random game with every check on; returns the event log as dicts."""
    game = Game.new(rules, seats, seed=seed)
    players = [RandomPlayer(seed * 7 + s) for s in range(seats)]
    rng = random.Random(seed)
    log: list[Event] = []
    finished = 0
    for step in range(3000):
        if game.phase is Phase.GAME_OVER:
            break
        if game.phase is Phase.ROUND_OVER:
            finished += 1
            if finished >= rounds:
                break
            log += game.next_round()
            continue
        if round_trip_every and step % round_trip_every == 0:
            game = Game.from_dict(json.loads(json.dumps(game.to_dict())))
        _check_invariants(game)
        if step % 5 == 0:
            _attempt_illegal(game, rng)
        decision = _decide(game, players, rng)
        events = game.timeout() if decision is None else game.apply(*decision)
        for event in events:
            if isinstance(event, RoundOver):
                _check_round_over(game, event)
        log += events
    else:
        raise AssertionError("the game did not end")
    return [e.to_dict() for e in log]


@PROPERTY_SETTINGS
@given(rules=rule_sets(), seed=st.integers(0, 10_000), data=st.data())
def test_random_games_keep_every_invariant(rules: Rules, seed: int, data: st.DataObject) -> None:
    seats = data.draw(st.integers(rules.min_players, rules.max_players))
    play(rules, seats, seed)


@PROPERTY_SETTINGS
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 10_000))
def test_same_seed_same_game_and_round_trips_change_nothing(preset: str, seed: int) -> None:
    rules = Rules.preset(preset)
    seats = max(rules.min_players, 4) if rules.max_players >= 4 else rules.min_players
    plain = play(rules, seats, seed)
    assert play(rules, seats, seed) == plain
    assert play(rules, seats, seed, round_trip_every=3) == plain


def test_fast_mode_games_keep_every_invariant() -> None:
    for seed in range(15):
        play(Rules.preset("classic", fast=True), 3 + seed % 4, seed)


def test_events_round_trip_through_dicts() -> None:
    game = Game.new(Rules.preset("classic"), 4, seed=5)
    players = [RandomPlayer(s) for s in range(4)]
    events: list[Event] = []
    while game.phase is Phase.PLAY:
        seat = game.to_act
        assert seat is not None
        events += game.apply(seat, players[seat].choose(game, seat))
    events += game.next_round()
    assert {e.kind for e in events} >= {"played", "passed", "trick_closed", "out", "round_over"}
    for event in events:
        assert event_from_dict(json.loads(json.dumps(event.to_dict()))) == event
