"""The normal bot's reasons (« Conseil »): every decision names one, and explaining a
position never changes what the bot plays."""

from __future__ import annotations

import random

import pytest

from engine import Card, Game, Phase, Rules
from engine.bots import make_bot
from engine.bots.endsearch import searching
from engine.bots.normal import (
    GIFT_REASONS,
    SEARCHED,
    decided,
    exchange_action,
    explain,
    explain_gift,
)
from engine.bots.tactics import REASONS
from engine.view import player_view


def cards(text: str) -> list[Card]:
    return [Card.parse(word) for word in text.split()]


def test_explain_names_a_known_reason_and_the_bot_s_own_play() -> None:
    bot = make_bot("normal")
    seen: set[str] = set()
    for preset in ("classic", "presi", "proletario", "wild7"):
        game = Game.new(Rules.preset(preset), seats=4, seed=3)
        rng = random.Random(preset)
        for _ in range(400):
            seat = game.to_act
            if seat is None:
                break
            view = player_view(game, seat)
            action, reason = decided(view)
            assert reason in (*REASONS, SEARCHED)
            assert action == bot.choose(view)
            if not searching(view):  # the tactics', unless its end search chose
                assert (action, reason) == explain(view)
            if action.kind == "pass" and reason != SEARCHED:
                # Passing is final for the trick: the bot passes only when it cannot play or
                # when every play would leave it a hand that can only end penalised.
                assert reason in ("no_play", "avoid_bad_end"), (preset, view.hand, reason)
            seen.add(reason)
            # Vary the positions: sometimes a random legal move instead of the bot's.
            options = game.legal_plays(seat)
            if options and rng.random() < 0.3:
                game.play_option(seat, rng.choice(options))
            else:
                game.apply(seat, action)
    assert {"go_out", "lead_low", "answer_cheap", "control", "break", "no_play"} <= seen


def test_explain_gift_names_a_known_reason_and_the_bot_s_own_gift() -> None:
    """Every preset's exchange, from every previous ranking's seats: the hint's gift is the
    bot's gift, and the reasons cover forced and free choices."""
    bot = make_bot("normal")
    seen: set[str] = set()
    for preset in ("classic", "presi", "proletario", "wild7"):
        for seed in range(12):
            previous = list(range(4))
            random.Random(seed).shuffle(previous)
            game = Game.new(Rules.preset(preset), seats=4, seed=seed, previous_ranking=previous)
            while game.phase is Phase.EXCHANGE:
                seat = next(s for s in range(4) if explain_gift(player_view(game, s)))
                view = player_view(game, seat)
                explained = explain_gift(view)
                assert explained is not None
                gift, reason = explained
                assert reason in GIFT_REASONS
                assert gift == bot.choose(view) == exchange_action(view)
                seen.add(reason)
                game.apply(seat, gift)
    assert seen == set(GIFT_REASONS)



@pytest.mark.parametrize(("preset", "hand"), [("classic", "2H 2S"), ("wild7", "7S 7H"),
                                              ("wild7", "2S 7H")])
def test_a_penalised_way_out_is_said_to_be_forced(preset: str, hand: str) -> None:
    """Opening with nothing but cards one may not finish on, the only ways left end
    penalised: the Conseil said « nobody can beat it, so you keep the lead for your last
    cards » beside the menu's « ⚠️ penalised finish » (play-test 13)."""
    hands = [cards(hand), cards("3C 4C 5C"), cards("3D 4D 5D"), cards("3H 4H 5H")]
    game = Game.new(Rules.preset(preset), 4, hands=hands, opener=0)
    action, reason = explain(player_view(game, 0))
    assert reason == "bad_end_forced" and action.kind == "play"


def test_a_penalised_way_out_is_avoided_while_a_clean_end_remains() -> None:
    """wild7: on a pair of 4s, 7♠ 5♥ may go out as two 5s, penalised (a 7 in the last
    play); passing keeps 7♠ alone (as a 2, which closes) then 5♥, an unpenalised end. The
    Conseil had called the pair forced (play-test 13), and the bot played it."""
    game = Game.new(Rules.preset("wild7"), 2, hands=[cards("4C 4S 9H"), cards("7S 5H")],
                    opener=0)
    game.play_option(0, next(o for o in game.legal_plays(0) if o.count == 2))
    action, reason = explain(player_view(game, 1))
    assert (action.kind, reason) == ("pass", "avoid_bad_end")
    opening = Game.new(Rules.preset("wild7"), 2, hands=[cards("4C 9H"), cards("7S 5H")],
                       opener=1)
    action, _ = explain(player_view(opening, 1))
    assert action.kind == "play" and action.cards == (Card.parse("7S"),)


def test_no_revolution_against_a_strong_hand() -> None:
    """Classic (revolution on): four 3s led from a hand of aces, kings and 2s reverse the
    order and make those the weakest cards; over 300 deals the quad placed 3.27 where a
    pair of 3s placed 1.29 (play-test 13). A weak hand may still turn the order over."""
    strong = cards("3S 3H 3D 3C 8S JH QS KS KH AS AD 2S 2H")
    weak = cards("4S 4H 4D 4C 5S 6H 7D 8C")
    for hand, quad_led in ((strong, False), (weak, True)):
        others = [c for c in Rules.preset("classic").deck_kind.cards() if c not in hand]
        game = Game.new(Rules.preset("classic"), 4, opener=0,
                        hands=[hand, others[:13], others[13:26], others[26:39]])
        action, _ = explain(player_view(game, 0))
        assert (action.option is not None and action.option.count == 4) is quad_led, hand


def test_a_play_chosen_to_dodge_a_penalised_end_says_so() -> None:
    """Classic, A♠ 2♠ on a lone 7: the bot rightly plays the 2 (the ace would leave a lone
    2 to finish on), but the Conseil said « no cheaper answer » (play-test 13)."""
    game = Game.new(Rules.preset("classic"), 3, opener=0,
                    hands=[cards("7H 9C"), cards("AS 2S"), cards("3C 4C 5C")])
    game.play(0, cards("7H"))
    action, reason = explain(player_view(game, 1))
    assert action.cards == (Card.parse("2S"),) and reason == "dodge_bad_end"
