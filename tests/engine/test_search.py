"""Search support: clone, the fast path and determinization agree with the checked path."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engine import KNOBS, PRESETS, Card, Game, Phase, PlayOption, RandomPlayer, Rules, RulesError
from engine.bots import make_bot
from engine.determinize import determinize, sample_hands
from engine.tricks import _QUIET
from engine.view import player_view

_VARIANTS = ["on_equal", "trick_end", "closing_rank", "four_closes", "revolution",
             "finishing_closes_trick", "equal_allowed", "finish_penalty", "pass_is_final",
             "exchange_blind", "exchange_return", "two_beats_larger"]


def _rule_sets(count: int, seed: int) -> Iterator[tuple[Rules, int]]:
    """Every preset, then random knob mixes on top of them, with a legal table size."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        preset = sorted(PRESETS)[made % len(PRESETS)]
        overrides: dict[str, object] = {}
        if made >= len(PRESETS):
            for name in rng.sample(_VARIANTS, 4):
                spec = KNOBS[name]
                overrides[name] = (rng.random() < 0.5 if spec.kind == "bool"
                                   else rng.choice(spec.choices))
        try:
            rules = Rules.preset(preset, game_end="unlimited", **overrides)
        except RulesError:
            continue
        made += 1
        yield rules, rng.randint(max(2, rules.min_players), min(6, rules.max_players))


def _turn_decisions(game: Game,
                    player: RandomPlayer) -> Iterator[tuple[int, PlayOption | None]]:
    """Turn-based play to the end of round 2, exchanges included; yields each decision."""
    while game.phase is not Phase.GAME_OVER and game.round_no <= 2:
        if game.phase is Phase.ROUND_OVER:
            game.next_round()
            continue
        if game.phase is Phase.EXCHANGE:
            giver = next(s for s in range(game.seats)
                         if (d := game.exchange_due(s)) is not None and d.ready)
            game.apply(giver, player.choose(game, giver))
            continue
        seat = game.to_act
        assert seat is not None
        yield seat, player.pick(game, seat)


@pytest.mark.parametrize("rules,seats", list(_rule_sets(16, 12)))
def test_step_reaches_the_states_the_checked_path_reaches(rules: Rules, seats: int) -> None:
    checked = Game.new(rules, seats, seed=5)
    fast = Game.new(rules, seats, seed=5)
    player = RandomPlayer(9)
    for seat, option in _turn_decisions(checked, player):
        if fast.round_no != checked.round_no:  # the checked loop dealt on: follow it
            fast = Game.from_dict(checked.to_dict())
        assert fast.legal_plays(seat) == checked.legal_plays(seat)
        if option is None:
            checked.pass_turn(seat)
        else:
            checked.play_option(seat, option)
        fast.step(seat, option)
        assert fast.to_dict() == checked.to_dict()
    # The list step hands the rare events to (going out, a revolution, a skip) is one for
    # the whole process: it must keep none of them.
    assert list(_QUIET) == []


@pytest.mark.parametrize("rules,seats", list(_rule_sets(16, 62)))
def test_a_scratch_copy_moves_as_the_checked_path_but_records_nothing(rules: Rules,
                                                                      seats: int) -> None:
    """Search's scratch copies (``scratch``) reach every state the checked path reaches,
    but for the records no rollout reads (each seat's plays and the tells), which stay as
    they were when the copy was made one; its clones too."""
    checked = Game.new(rules, seats, seed=7)
    fast = checked.clone()
    fast.scratch()
    kept = (fast.to_dict().get("played"), fast.to_dict().get("tells"))
    player = RandomPlayer(8)
    steps = 0
    for seat, option in _turn_decisions(checked, player):
        if fast.round_no != checked.round_no:  # the checked loop dealt on: follow it
            fast = checked.clone()
            fast.scratch()
            kept = (fast.to_dict().get("played"), fast.to_dict().get("tells"))
        if option is None:
            checked.pass_turn(seat)
        else:
            checked.play_option(seat, option)
        if steps % 5 == 0:
            fast = fast.clone()  # the flag travels with the copies search makes
        fast.step(seat, option)
        steps += 1
        mine, theirs = dict(fast.to_dict()), dict(checked.to_dict())
        assert (mine.pop("played", None), mine.pop("tells", None)) == kept
        theirs.pop("played", None)
        theirs.pop("tells", None)
        assert mine == theirs
    assert steps > 0


@pytest.mark.parametrize("rules,seats", list(_rule_sets(12, 34)))
def test_clone_continues_identically_and_independently(rules: Rules, seats: int) -> None:
    game = Game.new(rules, seats, seed=3)
    player = RandomPlayer(4)
    rng = random.Random(0)
    for seat, option in _turn_decisions(game, player):
        if rng.random() < 0.1:
            before = game.to_dict()
            copy = game.clone()
            assert copy.to_dict() == before
            copy.step(seat, option)
            assert game.to_dict() == before  # the original did not move
            twin = game.clone()
            game.step(seat, option)
            twin.step(seat, option)
            assert twin.to_dict() == game.to_dict()
            continue
        game.step(seat, option)


@pytest.mark.parametrize("rules,seats", list(_rule_sets(12, 56)))
def test_determinize_is_consistent_and_plays_like_the_real_game(rules: Rules,
                                                                seats: int) -> None:
    game = Game.new(rules, seats, seed=8)
    player = RandomPlayer(2)
    rng = random.Random(1)
    for seat, option in _turn_decisions(game, player):
        if rng.random() < 0.15:
            view = player_view(game, seat)
            sample = determinize(view, random.Random(rng.random()))
            assert sample.hand(seat) == game.hand(seat)
            assert sample.hand_sizes() == game.hand_sizes()
            assert _keys(sample, seat) == _keys(game, seat)  # suits may differ
            assert sample.can_pass(seat) == game.can_pass(seat)
            dealt = sorted(str(c) for h in sample.hands for c in h) + [str(c) for c in game.pile]
            assert sorted(dealt) == sorted(str(c) for c in rules.deck_kind.cards())
            for holder, cards in view.known:
                assert set(cards) <= set(sample.hands[holder])
            # With the real hands put back, the sample is the real game.
            sample.hands = [list(h) for h in game.hands]
            real = game.clone()
            real._base.clear()  # both list options from the same hands, the same suits
            sample._base.clear()
            sample._legal_cache.clear()
            _play_both(real, sample, RandomPlayer(7))
        game.step(seat, option)


def _keys(game: Game, seat: int) -> list[tuple[str | None, int, int, int]]:
    return [o.key for o in game.legal_plays(seat)]


def _play_both(real: Game, sample: Game, player: RandomPlayer) -> None:
    while real.phase is Phase.PLAY:
        seat = real.to_act
        assert seat is not None and sample.to_act == seat
        assert sample.legal_plays(seat) == real.legal_plays(seat)
        option = player.pick(real, seat)
        real.step(seat, option)
        sample.step(seat, option)
    assert sample.ranking == real.ranking and sample.points == real.points


def test_sampled_hands_respect_what_the_seat_inferred() -> None:
    """A cap from a gift of best cards and a lack from a skip hold in every sample."""
    rules = Rules.preset("classic")
    game = Game.new(rules, 4, seed=1, previous_ranking=[0, 1, 2, 3])
    while game.phase is Phase.EXCHANGE:
        seat = next(s for s in range(4) if (d := game.exchange_due(s)) and d.ready)
        due = game.exchange_due(seat)
        assert due is not None
        game.give(seat, due.allowed[:due.count])
    view = player_view(game, 0)  # the President received the last place's two best cards
    (giver, cap), = view.caps
    assert giver == 3
    forced = view.__class__(**{**{f: getattr(view, f) for f in view.__dataclass_fields__},
                               "lacks": ((1, 11, 1),)})  # seat 1 showed it had no ace
    rng = random.Random(4)
    for _ in range(50):
        hands = sample_hands(forced, rng)
        assert all(c.value <= cap for c in hands[3] if c not in dict(view.known).get(3, ()))
        assert not any(c.value == 11 for c in hands[1])
        assert sorted(len(h) for h in hands) == sorted(game.hand_sizes())


@pytest.mark.parametrize("preset,card", [("classic", "QH"), ("presi", "3O")])
def test_the_first_opener_holds_its_card_in_every_sample(preset: str, card: str) -> None:
    """The table says who opens the first round and why (« she has the queen of hearts »):
    until that card is played, the others' views know where it is, and samples put it there.
    A position whose opener is given says nothing of the kind."""
    deciding = Card.parse(card)
    game = Game.new(Rules.preset(preset), 4, seed=3)
    opener = game.to_act
    assert opener is not None and deciding in game.hands[opener]
    dealt = [list(h) for h in game.hands]
    watcher = (opener + 1) % 4
    view = player_view(game, watcher)
    assert dict(view.known) == {opener: (deciding,)}
    assert player_view(game, opener).known == ()
    rng = random.Random(5)
    for _ in range(20):
        assert deciding in sample_hands(view, rng)[opener]
    assert player_view(Game.from_dict(game.to_dict()), watcher) == view

    option = next(o for o in game.legal_plays(opener) if deciding in o.cards)
    game.play_option(opener, option)  # once played, it is in the pile for everyone
    assert player_view(game, watcher).known == ()

    given = Game.new(Rules.preset(preset), 4, hands=dealt, opener=(opener + 2) % 4)
    assert player_view(given, watcher).known == ()


def cards(text: str) -> list[Card]:
    return [Card.parse(word) for word in text.split()]


def test_hard_decides_when_every_hidden_card_is_known() -> None:
    """Play-test 13: the last opponent held only the queen of hearts, known to all since it
    opened the round; an earlier pass's belief contradicted it, and the repair of the
    sampled deal chose among no sampled seat: IndexError, and a table's bot never moved."""
    rules = Rules.preset("classic")
    h0, h2 = cards("3D 4C 9H 9D KC"), cards("3C 5C 6C QH")
    h1 = [c for c in rules.deck_kind.cards() if c not in h0 + h2]
    game = Game.new(rules, 3, seed=1, hands=[h0, h1, h2])
    for seat, played in [(2, "3C"), (0, "4C"), (1, None), (2, None), (0, "3D"), (1, None),
                         (2, "5C"), (0, None), (2, "6C"), (0, "KC"), (1, None), (2, None),
                         (0, "9H 9D")]:
        if played is None:
            game.pass_turn(seat)
        else:
            game.play(seat, cards(played))
    action = make_bot("hard", seed=0, samples=20).choose(player_view(game, 1))
    assert action.kind in ("play", "pass")


@pytest.mark.parametrize("rules,seats", list(_rule_sets(12, 78)))
def test_the_options_kept_with_a_hand_are_the_ones_it_makes(rules: Rules, seats: int) -> None:
    """Play keeps each seat's options in step with its hand (``_refresh_base``), whether the
    option's own cards were played (step, play_option) or cards a player named (play), and
    a primed game's copies share them: every listing is the one a game read afresh from its
    snapshot makes, whose options are built from the hands."""
    game = Game.new(rules, seats, seed=6)
    player = RandomPlayer(7)
    rng = random.Random(8)
    for seat, option in _turn_decisions(game, player):
        if rng.random() < 0.2:
            game.prime()
            copy = game.clone()
            fresh = Game.from_dict(game.to_dict())
            for s in game.order:
                if game.hands[s]:  # primed: every seat holding cards has its options
                    assert copy._base[s] == fresh._opening(s)
        if option is not None and rng.random() < 0.5:
            # The same kind of play from other cards of the hand, where it has others.
            hand = game.hands[seat]
            same_value = [c for c in hand if c.value == option.cards[0].value
                          and c is not rules.top_single]
            named = option.cards
            if option.special is None and not option.wilds and len(same_value) > option.count:
                named = tuple(rng.sample(same_value, option.count))
            game.play(seat, named, option.announce)
        elif option is None:
            game.pass_turn(seat)
        else:
            game.step(seat, option)
        fresh = Game.from_dict(game.to_dict())
        for s in game.order:
            if game.hands[s] and s in game._base:
                assert game._base[s] == fresh._opening(s)
        if game.phase is Phase.PLAY and game.to_act is not None:
            assert game.legal_plays(game.to_act) == fresh.legal_plays(game.to_act)


def _answers_by_the_rules(base: list[PlayOption], top: PlayOption, revolution: bool,
                          equal_allowed: bool, two_beats_larger: bool) -> list[PlayOption]:
    """What may answer ``top``, option by option, as RULES says (legal_options' reference)."""
    out = []
    for o in base:
        if top.special == "joker":
            if o.special == "joker" and o.level > top.level:
                out.append(o)
            continue
        twos_rule = two_beats_larger and not revolution
        if twos_rule and top.level == 12 and top.special is None:
            if o.special is not None:
                out.append(o)
            continue
        if o.special is not None:
            out.append(o)
            continue
        shorter_two = twos_rule and top.count > 1 and o.level == 12 \
            and o.count == top.count - 1
        if o.count != top.count and not shorter_two:
            continue
        stronger = o.level < top.level if revolution else o.level > top.level
        if stronger or (o.level == top.level and equal_allowed):
            out.append(o)
    return out


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_legal_options_answer_as_the_rules_say(preset: str) -> None:
    """legal_options' answers, one comprehension per order, option by option."""
    from engine.plays import legal_options, opening_options

    rules = Rules.preset(preset)
    deck = rules.deck_kind.cards()
    rng = random.Random(11)
    for _ in range(400):
        hand = rng.sample(deck, rng.randint(1, 14))
        base = opening_options(hand, deck=rules.deck_kind, wild_level=rules.wild_level,
                               top_single=rules.top_single)
        other = opening_options(rng.sample(deck, 14), deck=rules.deck_kind,
                                wild_level=rules.wild_level, top_single=rules.top_single)
        top = rng.choice(other)
        for revolution in (False, True):
            for equal in (False, True):
                for twos in (False, True):
                    assert legal_options(base, top, revolution, equal, twos, None) == \
                        _answers_by_the_rules(base, top, revolution, equal, twos)


def test_a_dealer_deals_as_a_fresh_one_every_time() -> None:
    """Search reads a view once (Dealer) and deals from it again and again: each deal is the
    one a dealer built afresh deals from the same generator (nothing a deal changes stays),
    beliefs, caps and absences included (an exchange gives caps, greedy seats' tells
    beliefs), and its game is determinize's."""
    from engine.determinize import Dealer
    from engine.players import GreedyPlayer
    from engine.tells import beliefs

    checked = 0
    for preset in sorted(PRESETS):
        rules = Rules.preset(preset)
        if rules.fast:
            continue
        game = Game.new(rules, 4, seed=2, previous_ranking=[2, 0, 3, 1])
        greedy = GreedyPlayer()
        while game.phase is Phase.EXCHANGE:
            giver = next(s for s in range(4) if (d := game.exchange_due(s)) and d.ready)
            game.apply(giver, greedy.choose(game, giver))
        turn = 0
        while game.phase is Phase.PLAY:
            seat = game.to_act
            assert seat is not None
            if turn % 3 == 0:
                view = player_view(game, seat)
                believed = beliefs(view, naive=frozenset(s for s in range(4) if s != seat))
                dealer = Dealer(view, believed)
                for draw in range(4):
                    assert dealer.hands(random.Random(draw)) == \
                        sample_hands(view, random.Random(draw), believed)
                assert dealer.game(random.Random(9)).to_dict() == \
                    determinize(view, random.Random(9), believed).to_dict()
                checked += bool(believed.not_exact) + bool(view.caps)
            game.apply(seat, greedy.choose(game, seat))
            turn += 1
    assert checked > 10  # beliefs to repair and caps were dealt by


def test_the_repairs_draw_as_randrange() -> None:
    """The repairs' draws, read inline, are ``randrange``'s (and ``choice``'s): the same
    deals as before they were inlined."""
    from engine.determinize import _below

    for seed in range(5):
        ours, theirs = random.Random(seed), random.Random(seed)
        below = _below(ours)
        for n in (1, 2, 3, 5, 12, 13, 40, 1000):
            assert [below(n) for _ in range(50)] == [theirs.randrange(n) for _ in range(50)]
