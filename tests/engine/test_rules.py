import dataclasses
import json

import pytest

from engine import (
    KNOBS,
    PRESETS,
    Card,
    Game,
    GameEnd,
    GreedyPlayer,
    IllegalAction,
    Phase,
    Rules,
    RulesError,
)
from engine.cards import Deck
from engine.plays import opening_options


@pytest.mark.parametrize("preset", list(PRESETS))
def test_presets_are_valid_and_round_trip(preset: str) -> None:
    rules = Rules.preset(preset)
    assert rules.differences() == {}
    assert Rules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules


def test_preset_values_follow_rules_md() -> None:
    classic, presi, prole, wild = (Rules.preset(p) for p in PRESETS)
    assert (classic.on_equal, classic.closing_rank, classic.four_closes, classic.revolution,
            classic.finish_penalty) == ("skip_unless_holding", "best", True, True, "two")
    assert presi.deck == "spanish48" and str(presi.top_single) == "2O"
    assert presi.game_end == GameEnd("target", 11) and dict(presi.points)["P"] == 2
    assert (prole.trick_end, prole.equal_allowed, prole.two_beats_larger,
            prole.autopilot_after_timeouts) == ("one_lap", False, True, 2)
    assert (wild.wild_rank, wild.on_equal, wild.closing_rank, wild.min_players,
            wild.max_players) == ("7", "same_or_pass", "two", 2, 8)


def test_unknown_knob_names_the_knobs() -> None:
    with pytest.raises(RulesError, match="unknown knob.*on_equal") as err:
        Rules.preset("classic", colour="red")
    assert err.value.knob == "colour"


@pytest.mark.parametrize(
    ("knob", "value", "expected"),
    [
        ("on_equal", "maybe", "none, skip_unless_holding, skip_next, same_or_pass"),
        ("deck", "tarot", "french52, french54, spanish48, spanish40"),
        ("revolution", "perhaps", "true, false"),
        ("turn_seconds", "1", "between 5 and 600"),
        ("game_end", "forever", "rounds:N, unlimited, target:N"),
        ("top_single", "ZZ", "unknown card"),
        ("top_single", "AS", "is not a 2"),  # RULES §7: it is a 2 (an ordinary one in groups)
        ("points", "P3 X9", "unknown roles"),
    ],
)
def test_bad_values_name_the_valid_choices(knob: str, value: str, expected: str) -> None:
    with pytest.raises(RulesError, match=expected):
        Rules.preset("classic", **{knob: value})


@pytest.mark.parametrize(
    ("preset", "overrides", "knob"),
    [
        ("classic", {"trick_end": "one_lap", "fast": True}, "fast"),
        ("presi", {"first_opener": "queen_of_hearts"}, "first_opener"),
        ("classic", {"first_opener": "three_of_oros"}, "first_opener"),
        ("classic", {"top_single": "2O"}, "top_single"),
        ("classic", {"min_players": 5, "max_players": 4}, "max_players"),
    ],
)
def test_invalid_combinations_are_refused(preset: str, overrides: dict[str, object],
                                          knob: str) -> None:
    with pytest.raises(RulesError) as err:
        Rules.preset(preset, **overrides)
    assert err.value.knob == knob


@pytest.mark.parametrize("name", list(KNOBS))
def test_every_knob_value_formats_and_parses_back(name: str) -> None:
    spec = KNOBS[name]
    for preset in PRESETS:
        value = getattr(Rules.preset(preset), name)
        assert spec.parse(spec.format(value)) == value
        assert spec.parse(spec.to_json(value)) == value


def test_choice_knobs_accept_every_listed_value() -> None:
    for name, spec in KNOBS.items():
        for choice in spec.choices:
            base = "presi" if choice == "three_of_oros" else "classic"
            try:
                rules = Rules.preset(base, **{name: choice})
            except RulesError as err:  # only the documented incompatibilities may refuse
                assert err.knob in ("fast", "wild_rank", "first_opener"), (name, choice, err)
            else:
                assert getattr(rules, name) == choice


def test_replace_validates_and_keeps_the_preset() -> None:
    rules = Rules.preset("wild7").replace(revolution="true", game_end="target:20")
    assert rules.preset_id == "wild7"
    assert rules.differences() == {"revolution": True, "game_end": GameEnd("target", 20)}
    assert rules.describe() == "wild7 (revolution=true, game_end=target:20)"
    with pytest.raises(RulesError):
        rules.replace(max_players=9)


def test_from_dict_refuses_unknown_keys_and_presets() -> None:
    with pytest.raises(RulesError):
        Rules.from_dict({"preset": "classic", "extra": 1})
    with pytest.raises(RulesError, match="classic, presi, proletario, wild7"):
        Rules.from_dict({"preset": "poker"})


def test_knobs_apply_only_where_other_knobs_let_them() -> None:
    classic = Rules.preset("classic")
    assert not classic.applies("jokers_close") and Rules.preset("proletario").applies(
        "jokers_close")
    assert not classic.applies("fast_seconds") and classic.applies("turn_seconds")
    fast = classic.replace(fast=True)
    assert fast.applies("fast_seconds") and not fast.applies("turn_seconds")
    assert not fast.applies("on_equal")
    assert Rules.preset("presi").applies("leave_grace_seconds")
    assert not classic.applies("leave_grace_seconds")
    assert classic.applies("deck")  # a knob without a condition always applies


@pytest.mark.parametrize("text", ["rounds:0", "rounds:1000", "target:99999999999", "rounds:٣",
                                  "target:５", "rounds:+5", "rounds:1_0"])
def test_game_end_numbers_are_plain_digits_within_bounds(text: str) -> None:
    with pytest.raises(RulesError):
        Rules.preset("classic", game_end=text)
    assert Rules.preset("classic", game_end="rounds:999").game_end.n == 999


def test_deck_kind_follows_the_deck_knob() -> None:
    """`deck_kind` is looked up in a table of the decks, not parsed each time: rules whose
    deck changes (a host's new setting) name their own deck, never the previous one's."""
    rules = Rules.preset("classic").replace(first_opener="random")
    assert rules.deck_kind is Deck(rules.deck)
    for deck in Deck:
        changed = rules.replace(deck=deck.value)
        assert changed.deck_kind is deck
        assert changed.deck_kind.spanish == deck.value.startswith("spanish")


@pytest.mark.parametrize("card", ["2S", "2H", "2D", "2C"])
def test_any_2_of_the_deck_can_be_the_top_single_card(card: str) -> None:
    """Its holder can open with it alone as the top single card, and games play to the end."""
    rules = Rules.preset("classic", top_single=card)
    top = Card.parse(card)
    for seed in range(8):
        game = Game.new(rules, seats=4, seed=seed)
        holder = next(s for s in range(4) if top in game.hand(s))
        alone = opening_options(game.hand(holder), deck=rules.deck_kind, wild_level=None,
                                top_single=top)
        assert [o.cards for o in alone if o.special == "top_single"] == [(top,)]
        player = GreedyPlayer()
        while game.phase is Phase.PLAY:
            seat = game.to_act
            assert seat is not None
            game.apply(seat, player.choose(game, seat))
        assert game.ranking is not None


def test_in_a_revolution_the_2s_beat_no_larger_play_and_say_nothing_of_jokers() -> None:
    """A host's revolution at proletario: the 2s are the weakest value (RULES §7), so a
    single 2 opened then is answered by any higher single, and a pair on it is refused for
    its count, not with « after a group of 2s only a joker may answer »."""
    rules = Rules.preset("proletario", revolution=True)
    c = Card.parse
    game = Game.new(rules, seats=4, seed=1, opener=0, hands=[
        [c("5S"), c("5H"), c("5D"), c("5C"), c("2S"), c("9S")],
        [c("KS"), c("KH"), c("8S")], [c("6S"), c("7S")], [c("6H"), c("7H")]])
    game.play(0, [c("5S"), c("5H"), c("5D"), c("5C")])
    for seat in (1, 2, 3):
        game.pass_turn(seat)
    assert game.revolution and game.to_act == 0 and not game.trick
    game.play(0, [c("2S")])
    assert {o.value for o in game.legal_plays(1)} == {"K", "8"}
    with pytest.raises(IllegalAction) as refused:
        game.play(1, [c("KS"), c("KH")])
    assert refused.value.code == "wrong_count"



# What `KnobSpec.parse` gives each kind (`engine.rules.KnobValue`), as `Rules` annotates it.
_KIND_TYPES = {"bool": "bool", "choice": "str", "int": "int", "optional_int": "int | None",
               "points": "Mapping[str, int]", "game_end": "GameEnd", "card": "Card | None"}


def test_each_rules_field_has_its_knob_kind_s_type() -> None:
    """`rules._made` builds `Rules` from knob values named at run time, a call mypy does not
    check: each field's annotation must be the type its knob's kind parses to, and every
    field but the preset's id a knob."""
    fields = {f.name: f.type for f in dataclasses.fields(Rules)}
    assert set(fields) == {"preset_id", *KNOBS}
    for name, spec in KNOBS.items():
        assert fields[name] == _KIND_TYPES[spec.kind], name


@pytest.mark.parametrize("held", [1.5, {"P": "3"}, ["P"], Deck.FRENCH52])
def test_a_knob_read_by_name_is_checked_not_assumed(held: object) -> None:
    """`Rules.knob_values` reads each knob by name, which mypy types `Any`: a field holding
    no knob's value (set past the constructor's checks) is refused there, not passed on
    into a stored row (`to_dict`) or a new table's rules."""
    rules = Rules.preset("classic")
    assert rules.knob_values()["points"] == rules.points
    object.__setattr__(rules, "points", held)
    with pytest.raises(TypeError, match="points"):
        rules.knob_values()
