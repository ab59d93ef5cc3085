"""The normal level's end search (engine.bots.endsearch) and hard's model of it."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from engine import Card, Game, Phase, Rules
from engine.bots import decide, make_player, rollout
from engine.bots.endsearch import END_CARDS, searches, searching
from engine.bots.hard import OWN_END_CARDS, own_end
from engine.bots.moves import candidates, same
from engine.bots.normal import SEARCHED, decided, explain
from engine.bots.rollout import end_choice
from engine.plays import PlayOption
from engine.view import player_view

# Where normal searches: presi, proletario (one-lap tricks, jokers), classic (a penalised
# finish), and wild7 without its wild 7s or without its finish penalty.
SEARCHING = {"presi": Rules.preset("presi"), "proletario": Rules.preset("proletario"),
             "classic": Rules.preset("classic"),
             "wild7-no-wild": Rules.preset("wild7").replace(wild_rank="none"),
             "wild7-no-penalty": Rules.preset("wild7").replace(finish_penalty="none")}


def _normal_round(rules: Rules, seed: int) -> Iterator[tuple[Game, int]]:
    """A first round at 4 seats between normal players; the game before each decision."""
    game = Game.new(rules.replace(game_end="unlimited"), 4, seed=seed)
    player = make_player("normal")
    while game.phase is Phase.PLAY:
        seat = game.to_act
        assert seat is not None
        yield game, seat
        game.apply(seat, decide(player, game, seat))


def _normal_ends(rules: Rules) -> Iterator[tuple[Game, int, PlayOption | None]]:
    """The decisions of three such rounds where a normal seat holds its last
    :data:`END_CARDS` cards or fewer, with the tactics' move there."""
    for seed in range(3):
        for game, seat in _normal_round(rules, seed):
            if len(game.hands[seat]) <= END_CARDS:
                yield game, seat, explain(player_view(game, seat))[0].option


@pytest.mark.parametrize("preset", sorted(SEARCHING))
def test_searched_moves_are_legal_and_a_pure_function_of_the_view(preset: str) -> None:
    """At the end of its hand normal searches: its move is one the view lists, the same from
    a clone of the game (whose hidden cards are the same but whose random state is not
    shared), and it departs from the tactics at times, saying so."""
    searched = departed = 0
    for seed in range(4):
        for game, seat in _normal_round(SEARCHING[preset], seed):
            view = player_view(game, seat)
            if not searching(view):
                continue
            assert len(view.hand) <= END_CARDS
            action, reason = decided(view)
            if action.option is None:
                assert view.can_pass
            else:
                assert action.option in view.legal
            clone = game.clone(rng=random.Random(seed + 99))
            assert decided(player_view(clone, seat)) == (action, reason)
            searched += 1
            if reason == SEARCHED:
                departed += 1
                assert action != explain(view)[0]
    assert searched > 20 and departed > 0


def test_a_searched_move_never_goes_out_on_a_punished_card() -> None:
    """Classic punishes a finish on a 2 (``finish_penalty``) and normal searches there all
    the same: the search's rollouts place such a finish last, as the game does, so no
    searched move empties the hand on a punished card while another move is open."""
    rules = SEARCHING["classic"]
    searched = 0
    for seed in range(8):
        for game, seat in _normal_round(rules, seed):
            view = player_view(game, seat)
            if not searching(view):
                continue
            action, _ = decided(view)
            searched += 1
            option = action.option
            if option is not None and len(option.cards) == len(view.hand):
                assert not any(rules.punishes_last(card) for card in option.cards), (seed, seat)
    assert searched > 20


def test_wild_cards_with_a_penalised_finish_play_the_tactics_to_the_end() -> None:
    """Where a card is wild (wild7's ``wild_rank``) and a finish is penalised, normal does not
    search; either knob alone off and it does, as where tricks last one lap (proletario's
    ``trick_end``) with no penalty: the knobs decide, not the preset."""
    rules = Rules.preset("wild7")
    assert not searches(rules)
    assert searches(rules.replace(wild_rank="none"))
    assert searches(rules.replace(finish_penalty="none"))
    assert searches(Rules.preset("proletario"))
    assert searches(Rules.preset("classic"))
    assert not searches(Rules.preset("classic").replace(trick_end="one_lap"))
    assert not searches(Rules.preset("classic").replace(wild_rank="7"))
    assert not searches(Rules.preset("classic").replace(fast=True))
    for game, seat in _normal_round(rules, 1):
        view = player_view(game, seat)
        assert not searching(view) and decided(view) == explain(view)


@pytest.mark.parametrize("preset", sorted(SEARCHING))
def test_hard_s_model_of_a_searching_normal_plays_legal_moves(preset: str) -> None:
    """``end_choice``, hard's stand-in for a normal seat's end search in its rollouts,
    returns a move the game lists for the seat, or a pass where passing is allowed."""
    checked = 0
    for game, seat, default in _normal_ends(SEARCHING[preset]):
        before = game.to_dict()
        option = end_choice(game, seat, default, frozenset(), frozenset(), frozenset())
        assert game.to_dict() == before  # it searched on copies
        if option is None:
            assert game.can_pass(seat)
        else:
            assert option in game.legal_plays(seat)
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("preset", ["presi", "classic"])
def test_hard_s_model_cuts_rollouts_without_changing_its_choice(preset: str) -> None:
    """``end_choice`` stops rolling out once a candidate reaches the next place free and
    cuts a later candidate's rollout once it can no longer beat the best so far
    (``beat``): it chooses as rolling every candidate out to its end and keeping the first
    best would, and a cut rollout tells a place below ``beat`` as the whole one does."""
    checked = 0
    for game, seat, default in _normal_ends(SEARCHING[preset]):
        options = candidates(default, game.legal_plays(seat), game.can_pass(seat),
                             game.revolution)
        whole: list[int] = []
        for option in options:
            copy = game.clone(rng=game.rng)
            copy.step(seat, same(copy.legal_plays(seat), option))
            whole.append(rollout.rollout(copy.clone(rng=copy.rng), seat))
            for beat in range(1, len(game.order) + 1):
                cut = rollout.rollout(copy.clone(rng=copy.rng), seat, beat=beat)
                assert cut == whole[-1] if whole[-1] < beat else beat <= cut <= whole[-1]
        first_best = options[whole.index(min(whole))]
        assert end_choice(game, seat, default, frozenset(), frozenset(),
                          frozenset()) == first_best
        checked += 1
    assert checked > 20


@pytest.mark.parametrize(("preset", "modelled"), [("presi", True), ("proletario", False)])
def test_hard_models_a_normal_seat_s_search_where_tricks_last_until_all_pass(
        preset: str, modelled: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hard's rollouts play a known normal seat's end by ``end_choice`` in presi; in
    proletario's one-lap tricks by the tactics, which placed hard better against 3× normal
    (docs/bots.md, « Hard against the stronger normal in proletario (stop 55) »)."""
    calls = 0
    choice = rollout.end_choice

    def counted(*args: Any) -> PlayOption | None:
        nonlocal calls
        calls += 1
        return choice(*args)

    monkeypatch.setattr(rollout, "end_choice", counted)
    monkeypatch.setattr("engine.bots.hard.own_end", lambda rules: 0)  # hard's own end aside
    rules = Rules.preset(preset, game_end="unlimited")
    seated = {0: "hard", 1: "normal", 2: "normal", 3: "normal"}
    for seed in range(2):
        game = Game.new(rules, 4, seed=seed)
        players = [make_player(name, seed, samples=3,
                               others={s: n for s, n in seated.items() if s != seat})
                   for seat, name in seated.items()]
        while game.phase is Phase.PLAY and not calls:
            seat = game.to_act
            assert seat is not None
            game.apply(seat, decide(players[seat], game, seat))
    assert (calls > 0) == modelled


def test_hard_searches_its_own_end_in_its_rollouts_where_no_finish_is_penalised() -> None:
    """Hard's own seat plays its last :data:`OWN_END_CARDS` cards in its rollouts by
    ``end_choice``, as it searches its real end, where no finish is penalised
    (``finish_penalty``), whether tricks last until all pass or one lap; elsewhere by the
    tactics (classic worse-leaning with it: docs/bots.md, « Hard's own end in its rollouts,
    gated (stop 57) »; proletario better against 3× normal: « Hard's own end in
    proletario's rollouts (stop 58) »). The knobs decide, not the preset."""
    assert own_end(Rules.preset("presi")) == OWN_END_CARDS
    assert own_end(Rules.preset("proletario")) == OWN_END_CARDS
    assert own_end(Rules.preset("classic")) == 0
    assert own_end(Rules.preset("wild7")) == 0
    assert own_end(Rules.preset("classic").replace(finish_penalty="none")) == OWN_END_CARDS
    assert own_end(Rules.preset("classic").replace(trick_end="one_lap")) == 0
    assert own_end(Rules.preset("presi").replace(finish_penalty="two")) == 0
    assert own_end(Rules.preset("presi").replace(trick_end="one_lap")) == OWN_END_CARDS


def test_hard_s_own_end_searched_in_a_rollout_leads_the_card_that_goes_out_later() -> None:
    """Presi, hard (seat 0) to lead holding 8 and 9 against 9 N 7 / N 8 A / 6 3 4: the
    tactics lead the 8, the 9 and a knight answer, and hard's 9 is left to go out third; its
    end searched, it leads the 9, the other 9 answers (presi's equal play skips the knight),
    and the 8 goes out on the next trick's 7 and 8: first."""
    rules = Rules.preset("presi", game_end="unlimited")
    hands = [[Card.parse(word) for word in text.split()]
             for text in ("8O 9E", "9B NC 7B", "NO 8B AO", "6E 3E 4E")]
    places = [rollout.rollout(Game.new(rules, 4, hands=hands, opener=0), 0,
                              waiting=frozenset({0}), own_end=own) for own in (0, OWN_END_CARDS)]
    assert places == [3, 1]


@pytest.mark.parametrize(("preset", "searched"),
                         [("presi", True), ("classic", False), ("proletario", True)])
def test_hard_s_rollouts_search_its_own_end_only_with_few_cards(
        preset: str, searched: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Against 3× greedy (no normal seat to model) every ``end_choice`` in hard's rollouts is
    its own seat's, with 1 to :data:`OWN_END_CARDS` cards; none where a finish is
    penalised."""
    sizes: list[int] = []
    choice = rollout.end_choice

    def counted(*args: Any) -> PlayOption | None:
        game, actor = args[0], args[1]
        assert actor == 0
        sizes.append(len(game.hands[actor]))
        return choice(*args)

    monkeypatch.setattr(rollout, "end_choice", counted)
    rules = Rules.preset(preset, game_end="unlimited")
    seated = {0: "hard", 1: "greedy", 2: "greedy", 3: "greedy"}
    for seed in range(2):
        game = Game.new(rules, 4, seed=seed)
        players = [make_player(name, seed, samples=3,
                               others={s: n for s, n in seated.items() if s != seat})
                   for seat, name in seated.items()]
        while game.phase is Phase.PLAY and rollout.place(game, 0) is None:
            seat = game.to_act
            assert seat is not None
            game.apply(seat, decide(players[seat], game, seat))
    assert bool(sizes) == searched
    assert all(1 <= size <= OWN_END_CARDS for size in sizes)
