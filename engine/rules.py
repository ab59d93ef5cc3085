"""The rule set of a table: immutable, validated data.

Every rule that differs between the four rule documents is a *knob*; a preset is nothing but a
named set of knob values. Nothing in the engine asks which preset is in use.

>>> r = Rules.preset("classic", revolution=False)
>>> r.revolution, r.differences()
(False, {'revolution': False})
>>> Rules.preset("classic", on_equal="sometimes")
Traceback (most recent call last):
...
engine.rules.RulesError: on_equal: 'sometimes' is not one of none, skip_unless_holding, skip_next, same_or_pass
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol, TypeAlias, TypedDict, TypeGuard, cast

from .cards import SEVEN, TWO, Card, Deck
from .jsonvalue import Json
from .roles import roles_for

__all__ = [
    "APPLIES", "CONFLICTS", "GameEnd", "KNOBS", "KnobGroup", "KnobSpec", "KnobValue", "PRESETS",
    "ROLE_CODES", "Rules", "RulesDict", "RulesError",
]

ROLE_CODES = ("P", "VP", "N", "VL", "L")
_DECKS: dict[str, Deck] = {deck.value: deck for deck in Deck}  # knob value → Deck


#: Values of several knobs that cannot go together, by name: the knobs each one involves
#: (the first is the one named in the error). A host who changed any of them is told which
#: of their own changes clashed, not a knob they never touched.
CONFLICTS: dict[str, tuple[str, ...]] = {
    "min_above_max": ("max_players", "min_players"),
    "deck_too_small": ("max_players", "deck"),
    "top_single_deck": ("top_single", "deck"),
    "queen_not_spanish": ("first_opener", "deck"),
    "oros_not_french": ("first_opener", "deck"),
    "fast_one_lap": ("fast", "trick_end"),
    "wild_no_sevens": ("wild_rank", "deck"),
    "target_unreachable": ("points", "game_end", "min_players", "max_players", "vp_at_three"),
}


class RulesError(ValueError):
    """A knob name or value that the rules do not accept; the message names the valid choices.

    ``conflict`` names the entry of :data:`CONFLICTS` when the value is valid alone but
    clashes with another knob's."""

    def __init__(self, knob: str, message: str, conflict: str | None = None) -> None:
        super().__init__(f"{knob}: {message}")
        self.knob = knob
        self.conflict = conflict

    @property
    def involved(self) -> tuple[str, ...]:
        """Every knob the refusal is about."""
        return CONFLICTS[self.conflict] if self.conflict is not None else (self.knob,)


# A host types these numbers. 999 rounds is weeks of play and 999 points some hundred rounds
# at the largest points per role (99); the bound keeps every message that quotes them short and
# every stored total far inside the 32-bit integers of the results tables.
GAME_END_MAX = 999


@dataclass(frozen=True, slots=True)
class GameEnd:
    """When a game ends: after ``n`` rounds, at ``n`` points, or never (the host stops it)."""

    kind: str
    n: int | None = None

    @classmethod
    def parse(cls, text: str) -> GameEnd:
        text = "".join(text.split()).lower()  # « rounds: 5 » reads as rounds:5
        if text == "unlimited":
            return cls("unlimited")
        kind, _, number = text.partition(":")
        if (kind in ("rounds", "target") and number.isascii() and number.isdigit()
                and 1 <= int(number) <= GAME_END_MAX):
            return cls(kind, int(number))
        raise ValueError(f"{text!r} is not one of rounds:N, unlimited, target:N "
                         f"(1 <= N <= {GAME_END_MAX})")

    def __str__(self) -> str:
        return self.kind if self.n is None else f"{self.kind}:{self.n}"




#: A knob's value as `KnobSpec.parse` makes it, by kind: bool; choice, str; int; optional_int,
#: int or None; points, role code → points; game_end, a GameEnd; card, a Card or None.
KnobValue: TypeAlias = "bool | str | int | Mapping[str, int] | GameEnd | Card | None"
def _parse_bool(raw: object) -> bool:
    if isinstance(raw, bool):
        return raw
    text = str(raw).strip().lower()
    if text in ("true", "yes", "on", "1", "oui"):
        return True
    if text in ("false", "no", "off", "0", "non"):
        return False
    raise ValueError(f"{raw!r} is not one of true, false")


def _is_mapping(raw: object) -> TypeGuard[Mapping[object, object]]:
    """Whether a knob's raw value maps something to something: narrowed so, not to
    `isinstance`'s Mapping[Any, Any], what it maps is read as the objects it is."""
    return isinstance(raw, Mapping)


def _held(name: str, value: object) -> KnobValue:
    """A knob's field as `Rules.knob_values` reads it, by its name: untyped, so checked to
    hold what a knob holds rather than assumed to (`mypy engine --disallow-any-expr`)."""
    if value is None or isinstance(value, (bool, int, str, GameEnd, Card)) \
            or _is_points(value):
        return value
    raise TypeError(f"the knob {name} holds {value!r}")


def _is_points(value: object) -> TypeGuard[Mapping[str, int]]:
    """Whether a value is a points knob's: words (role codes) to whole numbers."""
    return _is_mapping(value) and all(isinstance(role, str) and isinstance(points, int)
                                      for role, points in value.items())


def _parse_points(raw: object) -> dict[str, int]:
    if isinstance(raw, str):
        pairs: dict[str, object] = {}
        for token in raw.replace(",", " ").split():
            role = token.rstrip("-0123456789")
            pairs[role] = token[len(role):]
        raw = pairs
    if not _is_mapping(raw):
        raise ValueError("points must map roles P, VP, N, VL, L to integers (e.g. 'P3 VP2 N1 VL0 L0')")
    raw = {str(role).upper(): value for role, value in raw.items()}  # « p3 vp2 »: P and VP
    out = {}
    for role in ROLE_CODES:
        value = raw.get(role, 0)
        try:
            out[role] = int(str(value))
        except ValueError:
            raise ValueError(f"points for {role}: {value!r} is not an integer") from None
    unknown = set(raw) - set(ROLE_CODES)
    if unknown:
        raise ValueError(f"unknown roles {sorted(unknown)}: roles are {', '.join(ROLE_CODES)}")
    return out


class KnobGroup(enum.Enum):
    """The concern a knob belongs to, fixed whatever the other knobs: a host finds it in the
    same place under every preset. :data:`KNOBS` lists each group's knobs together, groups
    in this order, so every list of knobs reads group by group."""

    TRICKS = "tricks"  # how a trick is played and closed, which cards do what
    TABLE = "table"  # who plays, deal and openers, roles and exchange, scoring, time, leaving


@dataclass(frozen=True, slots=True)
class KnobSpec:
    """How one knob is typed, parsed and offered to a host."""

    name: str
    group: KnobGroup
    kind: str  # bool | choice | int | points | game_end | card | optional_int
    choices: tuple[str, ...] = ()
    min: int | None = None
    max: int | None = None

    def parse(self, raw: object) -> KnobValue:
        """Turn a user's or a JSON file's value into the knob's Python value, or raise ValueError."""
        if self.kind == "bool":
            return _parse_bool(raw)
        if self.kind == "choice":
            text = str(raw).strip().lower()
            if text not in self.choices:
                raise ValueError(f"{raw!r} is not one of {', '.join(self.choices)}")
            return text
        if self.kind in ("int", "optional_int"):
            if self.kind == "optional_int" and (raw is None or str(raw).strip().lower() == "none"):
                return None
            try:
                number = int(str(raw).strip())
            except ValueError:
                raise ValueError(f"{raw!r} is not an integer") from None
            if (self.min is not None and number < self.min) or (
                self.max is not None and number > self.max
            ):
                raise ValueError(f"{number} is not between {self.min} and {self.max}")
            return number
        if self.kind == "points":
            points = _parse_points(raw)
            for role, number in points.items():
                if (self.min is not None and number < self.min) or (
                    self.max is not None and number > self.max
                ):
                    raise ValueError(f"points for {role}: {number} is not between {self.min} "
                                     f"and {self.max}")
            return points
        if self.kind == "game_end":
            return raw if isinstance(raw, GameEnd) else GameEnd.parse(str(raw))
        if self.kind == "card":
            if raw is None or str(raw).strip().lower() == "none":
                return None
            card = raw if isinstance(raw, Card) else Card.parse(str(raw))
            if card.value != TWO:
                # RULES §7 describes it as a 2 (« inside a pair/triple/quad of 2s it is an
                # ordinary 2 »), and the engine plays it as one: any other card is refused.
                raise ValueError(f"{card} is not a 2: the single card that wins any trick is a 2")
            return card
        raise AssertionError(self.kind)

    def format(self, value: KnobValue) -> str:
        """The value as a host would type it (inverse of :meth:`parse`)."""
        if value is None:
            return "none"
        if self.kind == "bool":
            return "true" if value else "false"
        if isinstance(value, Mapping):  # a "points" knob's
            return " ".join(f"{role}{value[role]}" for role in ROLE_CODES)
        return str(value)

    def to_json(self, value: KnobValue) -> Json:
        """The value as a rule set's `to_dict` stores it: what :meth:`parse` reads back."""
        if isinstance(value, Mapping):  # a "points" knob's
            return dict(value)
        if isinstance(value, (GameEnd, Card)):  # a "game_end" or "card" knob's
            return str(value)
        return value


# Group by group, in the order hosts and readers see them. seats_grow, vs_bots, role_names,
# vp_at_three, low_gives, deal_extras, reseat_by_rank, timeout_action and target_tie are facts
# RULES.md states per preset rather than named knobs.
_TRICKS, _TABLE = KnobGroup.TRICKS, KnobGroup.TABLE
_SPECS = [
    KnobSpec("deck", _TRICKS, "choice", tuple(d.value for d in Deck)),
    KnobSpec("equal_allowed", _TRICKS, "bool"),
    KnobSpec("on_equal", _TRICKS, "choice",
             ("none", "skip_unless_holding", "skip_next", "same_or_pass")),
    KnobSpec("trick_end", _TRICKS, "choice", ("all_passed", "one_lap")),
    KnobSpec("pass_is_final", _TRICKS, "bool"),
    KnobSpec("finishing_closes_trick", _TRICKS, "bool"),
    KnobSpec("closing_rank", _TRICKS, "choice", ("none", "best", "two")),
    KnobSpec("four_closes", _TRICKS, "bool"),
    KnobSpec("revolution", _TRICKS, "bool"),
    KnobSpec("wild_rank", _TRICKS, "choice", ("none", "7")),
    KnobSpec("top_single", _TRICKS, "card"),
    KnobSpec("jokers_close", _TRICKS, "bool"),
    KnobSpec("two_beats_larger", _TRICKS, "bool"),
    KnobSpec("finish_penalty", _TRICKS, "choice", ("none", "two", "two_or_wild")),
    KnobSpec("min_players", _TABLE, "int", min=2, max=8),
    KnobSpec("max_players", _TABLE, "int", min=2, max=8),
    KnobSpec("bots_fill", _TABLE, "bool"),
    # RULES §10, presi: « the table starts with 3 seats and grows by one per arrival »: the
    # lobby opens min_players seats, then one more per player seated, up to max_players.
    KnobSpec("seats_grow", _TABLE, "bool"),
    # RULES §10, presi: « against bots a player plays with two bots »: how many bots the
    # lobby's « Contre des bots » seats beside one player; none offers no such start.
    KnobSpec("vs_bots", _TABLE, "optional_int", min=1, max=7),
    KnobSpec("deal_extras", _TABLE, "choice", ("from_last", "rotate", "to_top")),
    KnobSpec("first_opener", _TABLE, "choice", ("queen_of_hearts", "three_of_oros", "random")),
    KnobSpec("round_opener", _TABLE, "choice", ("last_place", "first_place")),
    KnobSpec("reseat_by_rank", _TABLE, "bool"),
    # The names each seed gives its roles: classic's seed says « Vice-trou » where wild7's
    # says « Vice-trou du cul » (RULES.md lists one set for both; the seeds win).
    KnobSpec("role_names", _TABLE, "choice", ("classic", "presi", "proletario", "wild7")),
    KnobSpec("vp_at_three", _TABLE, "bool"),
    KnobSpec("exchange_return", _TABLE, "choice", ("choice", "weakest")),
    KnobSpec("exchange_blind", _TABLE, "bool"),
    KnobSpec("low_gives", _TABLE, "choice", ("auto", "pick")),
    KnobSpec("points", _TABLE, "points", min=0, max=99),
    KnobSpec("game_end", _TABLE, "game_end", min=1, max=GAME_END_MAX),
    # RULES §8: « Players tied on the highest total are joint winners », save presi's « if P
    # and VP both reach 11 in the same round, P wins » (its seed: « c'est le Président qui
    # gagne »): the round's ranking breaks a tie at the target there.
    KnobSpec("target_tie", _TABLE, "choice", ("joint", "ranking")),
    KnobSpec("fast", _TABLE, "bool"),
    KnobSpec("turn_seconds", _TABLE, "int", min=5, max=600),
    KnobSpec("fast_seconds", _TABLE, "int", min=3, max=120),
    KnobSpec("timeout_action", _TABLE, "choice", ("pass", "smallest")),
    KnobSpec("autopilot_after_timeouts", _TABLE, "optional_int", min=1, max=10),
    KnobSpec("exchange_seconds", _TABLE, "int", min=5, max=600),
    KnobSpec("on_leave", _TABLE, "choice", ("bot", "wait_then_cancel")),
    KnobSpec("leave_grace_seconds", _TABLE, "int", min=5, max=600),
]

#: Every knob, by its RULES.md name, group by group (see :class:`KnobGroup`).
KNOBS: dict[str, KnobSpec] = {spec.name: spec for spec in _SPECS}

#: Knobs that only matter when other knobs allow it; the others always apply.
APPLIES: dict[str, Callable[[Rules], bool]] = {
    "jokers_close": lambda r: Deck(r.deck).has_jokers,
    "on_equal": lambda r: r.equal_allowed and not r.fast,  # RULES §9: off in fast mode
    # One lap gives each player one chance anyway; in fast mode a pass always lasts the trick.
    "pass_is_final": lambda r: r.trick_end == "all_passed" and not r.fast,
    "timeout_action": lambda r: not r.fast,  # fast mode's one timer closes or opens (§9)
    "fast_seconds": lambda r: r.fast,
    "turn_seconds": lambda r: not r.fast,  # fast mode has one common timer instead
    "autopilot_after_timeouts": lambda r: not r.fast,
    "leave_grace_seconds": lambda r: r.on_leave == "wait_then_cancel",
    "target_tie": lambda r: r.game_end.kind == "target",
    "seats_grow": lambda r: r.min_players < r.max_players,  # else every seat opens anyway
    "vp_at_three": lambda r: r.min_players <= 3,
}

_COMMON: dict[str, object] = {
    "bots_fill": False, "seats_grow": False, "vs_bots": None, "equal_allowed": True,
    "trick_end": "all_passed", "pass_is_final": True,
    "finishing_closes_trick": False, "four_closes": False, "revolution": False,
    "wild_rank": "none", "top_single": "none", "jokers_close": True, "two_beats_larger": False,
    "round_opener": "last_place", "exchange_return": "choice", "exchange_blind": False,
    "turn_seconds": 30, "exchange_seconds": 30, "fast": False, "fast_seconds": 10,
    "autopilot_after_timeouts": None, "on_leave": "bot", "leave_grace_seconds": 60,
    "vp_at_three": False, "low_gives": "auto", "deal_extras": "from_last",
    "reseat_by_rank": False, "timeout_action": "pass", "game_end": "rounds:5",
    "target_tie": "joint",
    "points": "P3 VP2 N1 VL0 L0",
}

#: The four presets of RULES.md §2.
PRESETS: dict[str, dict[str, object]] = {
    "classic": {
        **_COMMON, "deck": "french52", "min_players": 3, "max_players": 6,
        "on_equal": "skip_unless_holding", "closing_rank": "best", "four_closes": True,
        "revolution": True, "finish_penalty": "two", "first_opener": "queen_of_hearts",
        "role_names": "classic",
    },
    "presi": {
        **_COMMON, "deck": "spanish48", "min_players": 3, "max_players": 6,
        "on_equal": "skip_next", "finishing_closes_trick": True, "closing_rank": "none",
        "top_single": "2O", "finish_penalty": "none", "first_opener": "three_of_oros",
        "exchange_return": "weakest", "exchange_blind": True, "points": "P2 VP1 N0 VL0 L0",
        "game_end": "target:11", "target_tie": "ranking", "on_leave": "wait_then_cancel",
        "role_names": "presi", "vp_at_three": True, "low_gives": "pick",
        "deal_extras": "rotate", "seats_grow": True, "vs_bots": 2,
    },
    "proletario": {
        **_COMMON, "deck": "french54", "min_players": 4, "max_players": 4, "bots_fill": True,
        "equal_allowed": False, "on_equal": "none", "trick_end": "one_lap",
        "closing_rank": "none", "two_beats_larger": True, "finish_penalty": "none",
        "first_opener": "random", "round_opener": "first_place", "exchange_blind": True,
        "points": "P3 VP2 N1 VL0 L0", "game_end": "unlimited", "turn_seconds": 15,
        "exchange_seconds": 20, "autopilot_after_timeouts": 2, "role_names": "proletario",
        "deal_extras": "to_top", "reseat_by_rank": True, "timeout_action": "smallest",
    },
    "wild7": {
        **_COMMON, "deck": "french52", "min_players": 2, "max_players": 8,
        "on_equal": "same_or_pass", "closing_rank": "two", "four_closes": True,
        "wild_rank": "7", "finish_penalty": "two_or_wild", "first_opener": "queen_of_hearts",
        "role_names": "wild7",
    },
}


def _parse_all(values: Mapping[str, object]) -> dict[str, KnobValue]:
    out: dict[str, KnobValue] = {}
    for name, raw in values.items():
        spec = KNOBS.get(name)
        if spec is None:
            raise RulesError(name, f"unknown knob; knobs are {', '.join(KNOBS)}")
        try:
            out[name] = spec.parse(raw)
        except ValueError as err:
            raise RulesError(name, str(err)) from None
    return out


class RulesDict(TypedDict):
    """A rule set as JSON (`Rules.to_dict`): its preset's id and the knobs that differ from
    it, each as its kind writes it (`KnobSpec.to_json`). Stored as it is: a table's row, a
    game's, a channel's house rules and every snapshot hold it."""

    preset: str
    set: dict[str, Json]


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    """A complete, validated rule set. Build one with :meth:`preset`; change it with :meth:`replace`."""

    preset_id: str
    deck: str
    min_players: int
    max_players: int
    bots_fill: bool
    seats_grow: bool
    vs_bots: int | None
    equal_allowed: bool
    on_equal: str
    trick_end: str
    pass_is_final: bool
    finishing_closes_trick: bool
    closing_rank: str
    four_closes: bool
    revolution: bool
    wild_rank: str
    top_single: Card | None
    jokers_close: bool
    two_beats_larger: bool
    finish_penalty: str
    first_opener: str
    round_opener: str
    exchange_return: str
    exchange_blind: bool
    points: Mapping[str, int] = field(hash=False)
    game_end: GameEnd
    target_tie: str
    turn_seconds: int
    exchange_seconds: int
    fast: bool
    fast_seconds: int
    autopilot_after_timeouts: int | None
    on_leave: str
    leave_grace_seconds: int
    role_names: str
    vp_at_three: bool
    low_gives: str
    deal_extras: str
    reseat_by_rank: bool
    timeout_action: str

    def __post_init__(self) -> None:
        deck = Deck(self.deck)
        checks: list[tuple[str, bool, str]] = [
            ("min_above_max", self.min_players <= self.max_players,
             f"max_players ({self.max_players}) is below min_players ({self.min_players})"),
            ("deck_too_small", self.max_players * 2 <= deck.size,
             "too many players for this deck"),
            ("top_single_deck", self.top_single is None or deck.contains(self.top_single),
             f"{self.top_single} is not a card of {self.deck}"),
            ("queen_not_spanish", self.first_opener != "queen_of_hearts" or not deck.spanish,
             "the queen of hearts is not in a Spanish deck; choose three_of_oros or random"),
            ("oros_not_french", self.first_opener != "three_of_oros" or deck.spanish,
             "the 3 of oros is only in Spanish decks; choose queen_of_hearts or random"),
            ("fast_one_lap", not (self.fast and self.trick_end == "one_lap"),
             "fast mode has no turns, so it cannot be combined with trick_end one_lap"),
            ("wild_no_sevens", self.wild_rank == "none" or "7" in deck.ranks,
             f"{self.deck} has no 7s"),
            ("target_unreachable", self.game_end.kind != "target" or self._always_scores(),
             "no role scores at some table size, so the target could never be reached"),
        ]
        for conflict, ok, message in checks:
            if not ok:
                raise RulesError(CONFLICTS[conflict][0], message, conflict)

    def _always_scores(self) -> bool:
        """Whether some role scores in every round, whatever the table's size: else a game
        played to a target might never end."""
        return all(max(self.points[role] for role in roles_for(n, self.vp_at_three)) > 0
                   for n in range(self.min_players, self.max_players + 1))

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def preset(cls, preset_id: str, **overrides: object) -> Rules:
        """The preset's rules with ``overrides`` (knob name → value, typed or as text)."""
        if preset_id not in PRESETS:
            raise RulesError("preset", f"{preset_id!r} is not one of {', '.join(PRESETS)}")
        return _made(preset_id, _parse_all({**PRESETS[preset_id], **overrides}))

    def replace(self, **overrides: object) -> Rules:
        """A copy with some knobs changed; values are parsed and the result validated."""
        return _made(self.preset_id, {**self.knob_values(), **_parse_all(overrides)})

    # -- views --------------------------------------------------------------------------------
    @property
    def deck_kind(self) -> Deck:
        # A dict lookup, not ``Deck(self.deck)``: rendering a hand asks once per card shown
        # (is the deck Spanish?), and an Enum call by value costs several times as much.
        # The knob was validated, so the lookup finds it; `Deck` still refuses any other.
        return _DECKS.get(self.deck) or Deck(self.deck)

    @property
    def wild_level(self) -> int | None:
        """The value whose cards are wild (the 7s of wild7, value 4), or None."""
        return 4 if self.wild_rank == "7" else None

    def punishes_last(self, card: Card) -> bool:
        """Whether a player going out with this card among their last ones is sent down
        (RULES §8, ``finish_penalty``): any 2, and with ``two_or_wild`` any 7; a joker
        never. What a hand must not keep for its end. The seed says « sur un 2 ou avec un
        7 », so a 7 counts whether or not the table makes 7s wild.

        >>> classic = Rules.preset("classic")
        >>> classic.punishes_last(Card.parse("2S")), classic.punishes_last(Card.parse("AS"))
        (True, False)
        """
        if self.finish_penalty == "none" or card.is_joker:
            return False
        return card.value == TWO or (self.finish_penalty == "two_or_wild"
                                     and card.value == SEVEN)

    def knob_values(self) -> dict[str, KnobValue]:
        values: dict[str, KnobValue] = {}
        for name in KNOBS:
            value: object = getattr(self, name)  # (by name: typeshed's Any, checked below)
            values[name] = _held(name, value)
        return values

    def applies(self, knob: str) -> bool:
        """Whether the knob changes anything with the other knobs as they are (see
        :data:`APPLIES`): a host is only offered, and a reader only shown, knobs that do."""
        condition = APPLIES.get(knob)
        return condition is None or condition(self)

    def differences(self) -> dict[str, KnobValue]:
        """Knobs whose value differs from the preset, in knob order."""
        base = _preset_base(self.preset_id).knob_values()
        return {name: value for name, value in self.knob_values().items()
                if base[name] != value}

    def to_dict(self) -> RulesDict:
        """JSON-safe: the preset id and only the knobs that differ from it."""
        return {
            "preset": self.preset_id,
            "set": {name: KNOBS[name].to_json(v) for name, v in self.differences().items()},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Rules:
        """Inverse of :meth:`to_dict`; also reads the scenario format's ``rules`` object."""
        unknown = set(data) - {"preset", "set"}
        if unknown:
            raise RulesError(sorted(unknown)[0], "rules take only 'preset' and 'set'")
        overrides = data.get("set") or {}
        if not isinstance(overrides, Mapping):
            raise RulesError("set", "must be an object of knob: value")
        # Checked an object just above; its keys are JSON's, strings, and each value is
        # parsed by its knob (`Rules.preset`).
        return cls.preset(str(data.get("preset", "")).strip().lower(),
                          **cast("Mapping[str, object]", overrides))

    def describe(self, formatter: Callable[[KnobSpec, KnobValue], str] | None = None) -> str:
        """One line: the preset and what differs, e.g. ``classic (revolution=false)``."""
        fmt = formatter or (lambda spec, value: spec.format(value))
        diffs = ", ".join(f"{k}={fmt(KNOBS[k], v)}" for k, v in self.differences().items())
        return f"{self.preset_id} ({diffs})" if diffs else self.preset_id


class _Made(Protocol):
    """`Rules`' constructor as `_made` calls it: a preset's id and knob values by name."""

    def __call__(self, *, preset_id: str, **knobs: KnobValue) -> Rules: ...


def _made(preset_id: str, values: Mapping[str, KnobValue]) -> Rules:
    """The rules with these knob values, validated (`Rules.__post_init__`). The one place
    values named at run time become fields: mypy cannot tie a name in KNOBS to its field's
    type, so the constructor is cast to one taking any knob value by name (`_Made`). Each
    value has its kind's type (`KnobSpec.parse`), the dataclass refuses a knob missing or
    unknown, and tests/engine/test_rules.py holds each field's type to its knob's kind."""
    return cast(_Made, Rules)(preset_id=preset_id, **values)


_PRESET_BASES: dict[str, Rules] = {}


def _preset_base(preset_id: str) -> Rules:
    """A preset's rules, parsed once: every snapshot of a table states its rules as their
    differences from the preset (`Rules.to_dict`), which parsed the preset anew each time.
    Read only: shared by every caller. (A dict rather than `functools.cache`, whose
    wrapper mypy types with `Any`.)"""
    base = _PRESET_BASES.get(preset_id)
    if base is None:
        base = _PRESET_BASES[preset_id] = Rules.preset(preset_id)
    return base
