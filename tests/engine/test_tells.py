"""Tells (passes and leads) and the beliefs search reads from them (engine.tells)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

import pytest

from engine import PRESETS, Card, Game, Phase, Rules
from engine.actions import Action
from engine.bots import decide, make_player
from engine.bots.endsearch import END_CARDS, searches
from engine.cards import THREE, TWO
from engine.determinize import sample_hands
from engine.tells import beliefs, breakers, spenders
from engine.view import player_view


def _round(preset: str, seed: int, level: str) -> Iterator[tuple[Game, int]]:
    """A first round at 4 seats between players of one level; yields the game before each
    decision."""
    rules = Rules.preset(preset, game_end="unlimited")
    game = Game.new(rules, 4, seed=seed)
    player = make_player(level)
    while game.phase is Phase.PLAY:
        seat = game.to_act
        assert seat is not None
        yield game, seat
        game.apply(seat, decide(player, game, seat))


def _greedy_round(preset: str, seed: int) -> Iterator[tuple[Game, int]]:
    """A first round between reference players."""
    return _round(preset, seed, "greedy")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_beliefs_about_reference_players_always_hold(preset: str) -> None:
    """The reference bot plays exactly as the tells assume (whole groups, weakest lead), so
    every belief about its seats is true of the real hands: a check that can fail on any
    misread pass, lead, revolution, constraint or card played since."""
    checked = 0
    for seed in range(12):
        for game, seat in _greedy_round(preset, seed):
            seen = beliefs(player_view(game, seat))
            for holder, level in seen.none:
                assert not any(c.value == level for c in game.hands[holder]), (seed, holder)
            for holder, level, n in seen.not_exact:
                assert sum(1 for c in game.hands[holder] if c.value == level) != n
            checked += len(seen.none) + len(seen.not_exact)
    assert checked > 500  # the tells said a good deal


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_known_reference_player_is_read_by_its_own_rule(preset: str) -> None:
    """A seat known to play the reference bot answers with its weakest natural group of a
    value it holds exactly that many of, 2s included, or passes (with two cards or fewer, it
    plays whatever answers): read so, every belief about it is true of the real hands, and
    they say more than the tells read of anyone (each answer's whole value gone, a pass's
    2s, a few-card pass)."""
    checked = added = fewer = 0
    for seed in range(8):
        for game, seat in _greedy_round(preset, seed):
            view = player_view(game, seat)
            plain = beliefs(view)
            seen = beliefs(view, naive=frozenset(range(4)) - {seat})
            for holder, level in seen.none:
                assert not any(c.value == level for c in game.hands[holder]), (seed, holder)
            for holder, level, n in seen.not_exact:
                assert sum(1 for c in game.hands[holder] if c.value == level) != n, seed
            for holder, level, n in seen.fewer:
                assert sum(1 for c in game.hands[holder] if c.value == level) < n, seed
            checked += len(seen.none) + len(seen.not_exact) + len(seen.fewer)
            added += len(set(seen.none) - set(plain.none)) + \
                len(set(seen.not_exact) - set(plain.not_exact))
            fewer += len(seen.fewer)
    assert checked > 500 and added > checked // 10
    if preset in ("classic", "presi"):
        assert fewer  # a pass with two cards or fewer: no legal play at all


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_pass_from_a_known_normal_player_says_it_had_no_play(preset: str) -> None:
    """The normal level answers whenever it can, so where only that explains a pass (no
    finish penalty, no wilds: presi and proletario) its pass says it held no legal play:
    every such belief is true of the real hands, and they say more than the tells alone.
    Elsewhere nothing is added (a normal player also passes to avoid a penalised end).
    Where it searches its last cards (presi, proletario, classic), its passes with that few
    are read as anyone's."""
    added = 0
    searched = END_CARDS if searches(Rules.preset(preset)) else 0
    for seed in range(10):
        for game, seat in _round(preset, seed, "normal"):
            view = player_view(game, seat)
            plain = beliefs(view)
            told = beliefs(view, frozenset(range(4)) - {seat}, searched_end=searched)
            for holder, level in set(told.none) - set(plain.none):
                assert not any(c.value == level for c in game.hands[holder]), (seed, holder)
                added += 1
            # A pass read as no play at all implies the whole-group reading it replaces.
            assert set(told.not_exact) <= set(plain.not_exact) and plain.fewer == ()
            for holder, level, n in told.fewer:
                assert sum(1 for c in game.hands[holder] if c.value == level) < n
                added += 1
    rules = Rules.preset(preset)
    assert (added > 100) == (rules.finish_penalty == "none" and rules.wild_level is None)


def test_a_searching_normal_player_may_pass_holding_a_play() -> None:
    """Why hard reads a known normal seat's passes as anyone's once it holds END_CARDS
    cards or fewer where it searches its end: read as « no play at all », some of those
    passes would say what is false of the real hands."""
    assert searches(Rules.preset("presi"))
    false = 0
    for seed in range(10):
        for game, seat in _round("presi", seed, "normal"):
            told = beliefs(player_view(game, seat), frozenset(range(4)) - {seat})
            false += sum(1 for holder, level in told.none
                         if any(c.value == level for c in game.hands[holder]))
            false += sum(1 for holder, level, n in told.fewer
                         if sum(1 for c in game.hands[holder] if c.value == level) >= n)
    assert false > 0


@pytest.mark.parametrize("preset", ["proletario", "presi", "classic"])
def test_a_known_normal_player_is_read_by_how_it_leads_and_searches(preset: str) -> None:
    """In one-lap tricks (proletario) the normal level leads the next group up while a lone
    weakest card waits, and with END_CARDS cards or fewer its end search may lead or answer
    with anything: read so (a lead says at most one card of each weaker value, a searched
    move nothing), its beliefs about normal players hold of the real hands. Read as
    anyone's lead (« nothing weaker »), about one in seven of proletario's « none » were
    false (stop 55). A sure winner led before a weaker group (the tactics' ``lead_sure``)
    broke that reading until stop 57, and where tricks last until all pass so did a lone
    card led late before a weaker group (``lead_lone``) and, with revolutions, a weaker
    quad kept back: read so too, none is false now."""
    rules = Rules.preset(preset)
    assert searches(rules)
    checked = false = 0
    for seed in range(10):
        for game, seat in _round(preset, seed, "normal"):
            others = frozenset(range(4)) - {seat}
            told = beliefs(player_view(game, seat), others, searched_end=END_CARDS,
                           waiting=others)
            held = [Counter(c.value for c in hand) for hand in game.hands]
            false += sum(1 for h, v, n in told.not_exact if held[h][v] == n)
            false += sum(1 for h, v, n in told.fewer if held[h][v] >= n)
            false += sum(1 for h, v in told.none if held[h][v])
            checked += len(told.none) + len(told.not_exact) + len(told.fewer)
    assert checked > 500 and false == 0, (false, checked)


def test_a_sure_winner_led_before_a_weaker_pair_says_nothing_weaker() -> None:
    """Proletario, seed 0: the normal seat 3 holds 3♣ 3♦ 4♥ 8♣ 8♥ 8♠ and leads its three 8s
    as a sure winner (the tactics' ``lead_sure``: nothing seat 2's three cards hold beats
    them, nor a pair of 3s, and only the 4 is left over). Read as the weakest group or the
    next one up while a lone card waits, the lead said « fewer than two 3s » (stop 57):
    seat 2's own hand and what was played since show no answer, so it may have been sure,
    and it says nothing of weaker values."""
    for game, seat in _round("proletario", 0, "normal"):
        view = player_view(game, seat)
        lead = [t.play for t in view.tells if t.seat == 3 and t.top is None and
                t.play is not None and t.play.value == "8" and t.play.count == 3]
        if seat == 2 and lead:
            break
    else:
        raise AssertionError("no lead of three 8s")
    assert sorted(str(c) for c in game.hands[3]) == ["3C", "3D", "4H"]
    others = frozenset(range(4)) - {seat}
    told = beliefs(view, others, searched_end=END_CARDS, waiting=others)
    assert (3, THREE, 2) not in told.fewer and (3, THREE) not in told.none
    assert (3, lead[0].level) in told.none  # (all its 8s, which it led)


def test_a_known_normal_player_s_joker_or_broken_group_says_which_control_cards_it_lacks(
) -> None:
    """The tactics answer with a joker only where no group of as few 2s answered, and break
    a group only where no control card answered (2s first, then a joker): read so of a
    known normal seat with more than END_CARDS cards, its joker says it holds no 2, its
    two 2s or more and its broken group (seen once it plays more of that value) no joker
    (a lone joker would have answered), and every such reading holds of the real hands
    (stop 56)."""
    rules = Rules.preset("proletario")
    jokers = broken = twos = 0
    for seed in range(12):
        for game, seat in _round("proletario", seed, "normal"):
            view = player_view(game, seat)
            others = frozenset(range(4)) - {seat}
            told = beliefs(view, others, searched_end=END_CARDS, waiting=others)
            held = [Counter(c.value for c in hand) for hand in game.hands]
            assert not [(h, v) for h, v in told.none if held[h][v]]
            for tell in view.tells:
                play, top, holder = tell.play, tell.top, tell.seat
                later = view.played[holder][tell.before:]
                if (play is None or top is None or holder == seat
                        or not view.hand_sizes[holder]
                        or view.hand_sizes[holder] + len(later) <= END_CARDS):
                    continue
                if play.special == "joker" and top.count == 1 and top.level != TWO and \
                        not any(c.value == TWO for c in later):
                    assert (holder, TWO) in told.none
                    jokers += 1
                elif play.special is None and play.level != TWO and top.special is None and \
                        sum(1 for c in later if c.value == play.level) > play.count and \
                        not any(c.is_joker for c in later):
                    assert {(holder, 13), (holder, 14)} <= set(told.none)
                    broken += 1
                elif play.special is None and play.count > 1 and top.special is None and \
                        all(c.value == TWO for c in play.cards) and \
                        not any(c.is_joker for c in later):
                    assert {(holder, 13), (holder, 14)} <= set(told.none)
                    twos += 1
    assert jokers > 5 and broken > 5 and twos > 5, (jokers, broken, twos)
    assert rules.trick_end == "one_lap"


def test_a_pass_and_a_lead_are_recorded_and_cleared_with_the_round() -> None:
    rules = Rules.preset("classic", game_end="unlimited")
    game = Game.new(rules, 4, seed=3)
    opener = game.to_act
    assert opener is not None
    lead = game.legal_plays(opener)[0]
    game.apply(opener, Action.play(lead))
    follower = game.to_act
    assert follower is not None
    game.apply(follower, Action.pass_())
    (led, passed) = game.tells
    assert (led.seat, led.top, led.before, led.play) == (opener, None, 0, game.trick[0])
    assert (passed.seat, passed.top, passed.play) == (follower, game.trick[-1], None)
    assert game.played[opener] == list(lead.cards)
    again = Game.from_dict(game.to_dict())
    assert again.tells == game.tells and again.played == game.played
    assert game.clone().tells == game.tells
    while game.phase is Phase.PLAY:
        seat = game.to_act
        assert seat is not None
        game.apply(seat, decide(make_player("greedy"), game, seat))
    game.next_round()
    assert game.tells == [] and game.played == [[] for _ in range(4)]


def test_a_turn_with_few_cards_says_nothing() -> None:
    """With two cards or fewer, players answer with anything they can: no belief; with more,
    a pass or an answer says which whole groups the seat lacked."""
    small = large = 0
    for seed in range(4):
        for game, seat in _greedy_round("classic", seed):
            view = player_view(game, seat)
            for tell in view.tells:
                if tell.top is None or tell.seat == seat or not view.hand_sizes[tell.seat]:
                    continue
                held = view.hand_sizes[tell.seat] + len(view.played[tell.seat]) - tell.before
                said = beliefs(replace(view, tells=(tell,))).not_exact
                if held <= 2:
                    assert said == ()
                    small += 1
                else:
                    large += bool(said)
    assert small and large


def test_samples_honour_the_beliefs_when_the_real_hands_do() -> None:
    """Against reference players the beliefs are true, so a deal honouring them exists:
    the sampled hands break none of the values believed absent and few of the others."""
    rng = random.Random(2)
    broken = total = 0
    for seed in range(6):
        for game, seat in _greedy_round("classic", seed):
            view = player_view(game, seat)
            seen = beliefs(view)
            if not seen.none:
                continue
            hands = sample_hands(view, rng)
            for holder, level in seen.none:
                assert not any(c.value == level for c in hands[holder])
            for holder, level, n in seen.not_exact:
                broken += sum(1 for c in hands[holder] if c.value == level) == n
                total += 1
    assert total > 100 and broken < total * 0.05


def test_splitting_a_group_is_seen_in_players_who_do_it_only() -> None:
    """The reference bot never splits a group while it holds more than two cards; the
    normal level does when nothing else answers, and is seen doing it."""
    for game, seat in _greedy_round("classic", 1):
        assert breakers(player_view(game, seat)) == frozenset()
    seen: set[int] = set()
    for seed in range(6):
        for game, seat in _round("classic", seed, "normal"):
            view = player_view(game, seat)
            for splitter in breakers(view):
                before = [t for t in view.tells if t.seat == splitter and t.play is not None]
                assert any(sum(1 for c in view.played[splitter][t.before:]
                               if c.value == t.play.level) > t.play.count
                           for t in before if t.play is not None)
                seen.add(splitter)
    assert seen


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_spending_a_joker_wild_or_top_single_is_seen_in_players_who_do_it_only(
        preset: str) -> None:
    """The reference bot answers only with whole natural groups while it holds more than two
    cards, so it is never seen spending; the normal level spends control cards when nothing
    else answers, and where the deck has jokers, wilds or a top single it is seen doing it."""
    for seed in range(3):
        for game, seat in _greedy_round(preset, seed):
            assert spenders(player_view(game, seat)) == frozenset()
    seen: set[int] = set()
    for seed in range(6):
        for game, seat in _round(preset, seed, "normal"):
            view = player_view(game, seat)
            for spender in spenders(view):
                assert any(t.seat == spender and t.top is not None and t.play is not None and
                           (t.play.special or any(c.value != t.play.level
                                                  for c in t.play.cards))
                           for t in view.tells)
                seen.add(spender)
    rules = Rules.preset(preset)
    spendable = rules.deck_kind.has_jokers or rules.wild_level is not None or \
        rules.top_single is not None
    assert bool(seen) == spendable


def _revolution_deal(rules: Rules, rng: random.Random) -> list[list[Card]]:
    """A deal of four hands where three values are held whole, each by one seat, so that
    quads are played and revolutions happen in most rounds (random deals rarely hold one)."""
    cards = list(rules.deck_kind.cards())
    rng.shuffle(cards)
    quads = rng.sample(sorted({c.value for c in cards if not c.is_joker}), 3)
    hands: list[list[Card]] = [[] for _ in range(4)]
    for value in quads:
        hands[rng.randrange(4)].extend(c for c in cards if c.value == value)
    for card in cards:
        if card.value not in quads:
            min(hands, key=len).append(card)
    return hands


@pytest.mark.parametrize("level", ["greedy", "normal"])
def test_beliefs_hold_through_revolutions_where_2s_beat_a_larger_play(level: str) -> None:
    """A host's revolutions at proletario, whose 2s beat a play one card larger and stop
    every answer but a joker's while they are the best value: in a revolution they are the
    weakest (play-test 21), so a seat facing a pair may pass holding a 2, and a 2 on top is
    answered by any value. Every belief read from the passes and plays of such rounds, by
    the reference bot (all of them) and by the normal level (its passes read as no legal
    play, save where it searches its end), is true of the real hands."""
    rules = Rules.preset("proletario", game_end="unlimited", revolution=True)
    assert searches(rules)
    player = make_player(level)
    answerers = level == "normal"
    checked = read_in_revolution = 0
    for seed in range(40):
        game = Game.new(rules, 4, seed=seed, opener=0,
                        hands=_revolution_deal(rules, random.Random(seed)))
        while game.phase is Phase.PLAY:
            seat = game.to_act
            assert seat is not None
            view = player_view(game, seat)
            plain = beliefs(view)
            # Its passes with END_CARDS cards or fewer are anyone's: it searches there.
            seen = beliefs(view, frozenset(range(4)) - {seat}, searched_end=END_CARDS) \
                if answerers else plain
            # The normal level does not lead its weakest nor keep its groups whole: only
            # what its passes add is read of it.
            none = set(seen.none) - set(plain.none) if answerers else set(seen.none)
            for holder, value in none:
                assert not any(c.value == value for c in game.hands[holder]), (seed, holder)
            for holder, value, n in () if answerers else seen.not_exact:
                assert sum(1 for c in game.hands[holder] if c.value == value) != n, seed
            for holder, value, n in seen.fewer:
                assert sum(1 for c in game.hands[holder] if c.value == value) < n, seed
            said = len(none) + len(seen.fewer) + (0 if answerers else len(seen.not_exact))
            checked += said
            read_in_revolution += bool(said) and any(
                t.revolution and t.play is None and t.top is not None for t in view.tells)
            game.apply(seat, decide(player, game, seat))
    assert checked > 500 and read_in_revolution > 50
