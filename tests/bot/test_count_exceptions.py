"""The answer rule's exceptions (`rules_text.count_exceptions`) against the engine's legal
plays: every play it names as not matching the opening's count is one the engine lets
answer a larger play, at every preset and with the knobs that could turn one on or off, and
every such play the engine allows is named."""

from __future__ import annotations

import itertools

import pytest

from bot.i18n import t
from bot.i18n.cards import short
from bot.packages.rules_text import count_exceptions
from engine import PRESETS, Card, Game, PlayOption, Rules, RulesError
from engine.cards import TWO
from engine.plays import legal_options
from engine.state import TrickPlay

DECKS = ("french52", "french54", "spanish48", "spanish40")


def variants() -> list[Rules]:
    """Every preset with each deck, `two_beats_larger` on and off, and a top single card
    or none (with a random first opener, which any deck allows); combinations the rules
    refuse (wild7's 7s in a deck without them) are left out."""
    found = []
    for preset, deck, larger, top in itertools.product(PRESETS, DECKS, (False, True),
                                                        (False, True)):
        card = "2O" if deck.startswith("spanish") else "2S"
        try:
            found.append(Rules.preset(preset).replace(
                first_opener="random", deck=deck, two_beats_larger=larger,
                top_single=card if top else "none"))
        except RulesError:
            continue
    return found


def answers(rules: Rules, count: int) -> set[str]:
    """What the engine lets answer ``count`` 3s with fewer cards: seat 1 holds a joker (where
    the deck has them), the top single card (where there is one) and ``count`` other 2s."""
    spanish = rules.deck_kind.spanish
    suits = ("O", "C", "E", "B") if spanish else ("S", "H", "D", "C")
    top = rules.top_single
    twos = [c for c in (Card.parse(f"2{s}") for s in suits) if c != top][:count]
    held = twos + ([top] if top is not None else []) \
        + ([Card.parse("RJ")] if rules.deck_kind.has_jokers else [])
    threes = [Card.parse(f"3{s}") for s in suits[:count]]
    game = Game.new(rules, seats=4, seed=1, opener=0, hands=[
        threes + [Card.parse(f"4{suits[0]}")], held + [Card.parse(f"5{suits[0]}")],
        [Card.parse(f"6{suits[0]}")], [Card.parse(f"6{suits[1]}")]])
    game.play(0, threes)
    assert game.to_act == 1
    kinds = set()
    for option in game.legal_plays(1):
        if option.count == count:
            continue
        if option.special is not None:
            kinds.add(option.special)
        else:
            assert option.level == TWO and option.count == count - 1, option
            kinds.add("two_beats_larger")
    return kinds


@pytest.mark.parametrize("locale", ["fr", "en"])
@pytest.mark.parametrize("rules", variants(), ids=lambda r: "-".join(
    [r.preset_id, r.deck] + (["larger"] if r.two_beats_larger else [])
    + (["top"] if r.top_single is not None else [])))
def test_the_exceptions_named_are_the_engine_s(rules: Rules, locale: str) -> None:
    allowed = answers(rules, 2) | answers(rules, 3)
    named = count_exceptions(locale, rules)
    top = rules.top_single
    words = {
        "top_single": t(locale, "howto.except.top_single", card=short(
            locale, top, rules.deck_kind.spanish)) if top is not None else None,
        "two_beats_larger": t(locale, "howto.except.two_beats_larger"),
        "joker": t(locale, "howto.except.jokers"),
    }
    for kind, said in words.items():
        assert (said is not None and said in named) == (kind in allowed), (kind, named)
    assert (named == "") == (not allowed)
    # « un groupe de 2 sur un coup d’une carte de plus ou un joker » read as 2s on a joker
    # too, which nothing but a higher joker answers: that phrase ends the list.
    if "two_beats_larger" in allowed:
        assert named.endswith(words["two_beats_larger"] or ""), named


@pytest.mark.parametrize("locale", ["fr", "en"])
def test_in_a_revolution_the_2s_are_no_exception(locale: str) -> None:
    """A host's revolution at proletario: the 2s are then the weakest value, so they beat no
    larger play (`legal_options`) and the opener's hand does not name them; the jokers
    keep their power, and their exception."""
    rules = Rules.preset("proletario", revolution=True)
    threes = TrickPlay(0, (Card.parse("3S"), Card.parse("3H")), 3, 2, "3", None, None)
    held = [PlayOption("2", TWO, 1, ()), PlayOption("RJ", 100, 1, (Card.parse("RJ"),), special="joker")]
    assert [o.value for o in legal_options(held, threes, False, rules.equal_allowed,
                                           True, None)] == ["2", "RJ"]
    assert [o.value for o in legal_options(held, threes, True, rules.equal_allowed,
                                           True, None)] == ["RJ"]
    assert count_exceptions(locale, rules, revolution=True) == t(locale, "howto.except.jokers")
    assert t(locale, "howto.except.two_beats_larger") in count_exceptions(locale, rules)
