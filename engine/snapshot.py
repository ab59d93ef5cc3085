"""The whole game state as JSON-safe data, and back.

The bot stores this after every action to survive restarts, so it holds everything the
engine needs to continue identically, the random generator's state included; caches are not
stored (they rebuild on demand).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import NotRequired, TypeAlias, TypedDict, TypeVar, cast

from .automation import Automation, Chooser
from .cards import Card
from .exchange import Gift
from .rules import Rules, RulesDict
from .state import Phase, Tell, TrickPlay

__all__ = ["GameSnapshot", "game_from_dict", "game_to_dict"]

G = TypeVar("G", bound=Automation)

# Cards are stored in their notation (``Card.parse`` reads it back). The compact rows below
# are JSON lists of mixed values: each row's type says what it may hold, and its ``…Fields``
# tuple what it holds where, which the reader trusts (a cast, checking nothing, as before).

# The random generator's state: version, the internal state's 625 numbers, the gauss
# function's cached value.
RngRow: TypeAlias = list[int | list[int] | float | None]
RngFields: TypeAlias = tuple[int, list[int], float | None]
# The same as `Random.getstate` gives it and `setstate` takes it (typeshed: tuple[Any, ...]).
RngState: TypeAlias = tuple[int, tuple[int, ...], float | None]

# A play in a tell: seat, cards, level, count, value, special, announce (see TrickPlay).
PlayRow: TypeAlias = list[int | list[str] | str | None]
PlayFields: TypeAlias = tuple[int, list[str], int, int, str, str | None, str | None]

# A tell: seat, cards it had played before, revolution, the constraint on it (level, count,
# or None), the top it faced (None: it opened), the play it made (None: it passed).
TellRow: TypeAlias = list[int | bool | list[int] | PlayRow | None]
TellFields: TypeAlias = tuple[int, int, bool, list[int] | None, PlayRow | None, PlayRow | None]

# The seat that opens for holding the deciding card, and that card.
DecidingRow: TypeAlias = list[int | str]
DecidingFields: TypeAlias = tuple[int, str]

# An exchange's transfer: giver, receiver, cards, mode.
SwapRow: TypeAlias = list[int | list[str] | str]
SwapFields: TypeAlias = tuple[int, int, list[str], str]


class PlaySnapshot(TypedDict):
    """A play lying in the current trick (:class:`engine.state.TrickPlay`)."""

    seat: int
    cards: list[str]
    level: int
    count: int
    value: str
    special: str | None
    announce: str | None


class GiftSnapshot(TypedDict):
    """One giver's part of the exchange (:class:`engine.exchange.Gift`)."""

    giver: int
    receiver: int
    count: int
    mode: str
    cards: list[str] | None
    automatic: bool
    transferred: bool


class GameSnapshot(TypedDict):
    """The whole state, as :func:`game_to_dict` writes it (every key) and
    :func:`game_from_dict` reads it: the keys marked ``NotRequired`` are missing from
    snapshots stored before they were kept, and read with their default."""

    rules: RulesDict
    seats: int
    rng: RngRow
    autoplay: bool  # whether the game plays its own seats (its chooser is not stored)
    phase: str  # a Phase's value
    round_no: int
    rounds_scored: NotRequired[int]
    hands: list[list[str]]
    active: list[bool]
    order: list[int]
    points: list[int]
    off_table: NotRequired[dict[str, int]]
    ranking: list[int] | None
    out: list[int]
    penalised: list[int]
    revolution: bool
    trick: list[PlaySnapshot]
    pile: list[str]
    passed: list[int]
    last_player: int | None
    to_act: int | None
    opener: int | None
    forced_opener: NotRequired[int | None]
    constraint: list[int] | None  # seat, level, count
    lap: list[int]
    gifts: list[GiftSnapshot]
    swaps: NotRequired[list[SwapRow]]
    lacks: NotRequired[list[list[int]]]  # seat, level, count
    deciding: NotRequired[DecidingRow | None]
    played: NotRequired[list[list[str]]]
    tells: NotRequired[list[TellRow]]
    version: int
    round_version: NotRequired[int]
    trick_version: int
    timer_serial: int
    timeouts: list[int]
    autopilot: list[int]
    bots: list[int]
    winners: list[int | str]  # seats, and keys of players off the table (Who)
    stopped_early: bool


def game_to_dict(game: Automation) -> GameSnapshot:
    def cards(cs: Iterable[Card]) -> list[str]:
        return [str(c) for c in cs]

    return {
        "rules": game.rules.to_dict(),
        "seats": game.seats,
        "rng": _rng_state(game.rng),
        # Whether the game plays its own seats; what plays them is the caller's to give back.
        "autoplay": game.autoplay is not None,
        "phase": game.phase.value,
        "round_no": game.round_no,
        "rounds_scored": game.rounds_scored,
        "hands": [cards(h) for h in game.hands],
        "active": list(game.active),
        "order": list(game.order),
        "points": list(game.points),
        "off_table": dict(game.off_table),
        "ranking": None if game.ranking is None else list(game.ranking),
        "out": list(game.out),
        "penalised": list(game.penalised),
        "revolution": game.revolution,
        "trick": [_play_dict(p) for p in game.trick],
        "pile": cards(game.pile),
        "passed": sorted(game.passed),
        "last_player": game.last_player,
        "to_act": game.to_act,
        "opener": game.opener,
        "forced_opener": game.forced_opener,
        "constraint": None if game.constraint is None else list(game.constraint),
        "lap": list(game.lap),
        "gifts": [
            {"giver": g.giver, "receiver": g.receiver, "count": g.count, "mode": g.mode,
             "cards": None if g.cards is None else cards(g.cards),
             "automatic": g.automatic, "transferred": g.transferred}
            for g in game.gifts
        ],
        "swaps": [[g, r, cards(cs), mode] for g, r, cs, mode in game.swaps],
        "lacks": [list(lack) for lack in game.lacks],
        "deciding": None if game.deciding is None else [game.deciding[0],
                                                        str(game.deciding[1])],
        "played": [cards(p) for p in game.played],
        # Compact rows (a round records dozens): seat, before, revolution, constraint, then
        # the top faced and the play made, each None or seat, cards, level, count, value,
        # special, announce.
        "tells": [
            [t.seat, t.before, t.revolution,
             None if t.constraint is None else list(t.constraint),
             _play_row(t.top), _play_row(t.play)]
            for t in game.tells
        ],
        "version": game.version,
        "round_version": game.round_version,
        "trick_version": game.trick_version,
        "timer_serial": game.timer_serial,
        "timeouts": list(game.timeouts),
        "autopilot": sorted(game.autopilot),
        "bots": sorted(game.bots),
        "winners": list(game.winners),
        "stopped_early": game.stopped_early,
    }


def game_from_dict(data: GameSnapshot, cls: type[G], autoplay: Chooser | None = None) -> G:
    """The stored state as a ``cls``: the caller names the class, since the module that
    assembles it (engine.game) imports this one.

    ``autoplay``: what plays the automated seats, given exactly when the stored game played
    them itself (its ``autoplay`` was true): restored otherwise, the game would not go on as
    it would have, so a chooser missing or one too many raises ValueError.
    """

    def cards(cs: Iterable[str]) -> list[Card]:
        return [Card.parse(c) for c in cs]

    if data["autoplay"] != (autoplay is not None):
        raise ValueError("this game played its automated seats itself: give it autoplay"
                         if data["autoplay"] else
                         "this game left its automated seats to its caller: give no autoplay")
    game = cls(Rules.from_dict(data["rules"]), data["seats"], random.Random(), autoplay)
    game.rng.setstate(_rng_from(data["rng"]))
    game.phase = Phase(data["phase"])
    game.round_no = data["round_no"]
    # Snapshots from before the count: the rounds before this one ended with a result.
    game.rounds_scored = data.get("rounds_scored", game.round_no - (
        game.phase not in (Phase.ROUND_OVER, Phase.GAME_OVER)))
    game.hands = [cards(h) for h in data["hands"]]
    game.active = list(data["active"])
    game.order = list(data["order"])
    game.points = list(data["points"])
    game.off_table = {str(key): int(points)
                      for key, points in data.get("off_table", {}).items()}
    game.ranking = None if data["ranking"] is None else tuple(data["ranking"])
    game.out = list(data["out"])
    game.penalised = list(data["penalised"])
    game.revolution = data["revolution"]
    game.trick = [_trick_play(p) for p in data["trick"]]
    game.pile = cards(data["pile"])
    game.passed = set(data["passed"])
    game._run = game._run_length()
    game.last_player = data["last_player"]
    game.to_act = data["to_act"]
    game.opener = data["opener"]
    game.forced_opener = data.get("forced_opener")
    game.constraint = None if data["constraint"] is None else (
        data["constraint"][0], data["constraint"][1], data["constraint"][2])
    game.lap = list(data["lap"])
    game.gifts = [
        Gift(g["giver"], g["receiver"], g["count"], g["mode"],
              None if g["cards"] is None else tuple(cards(g["cards"])),
              g["automatic"], g["transferred"])
        for g in data["gifts"]
    ]
    game.swaps = [(g, r, tuple(cards(cs)), mode)
                  for g, r, cs, mode in cast("list[SwapFields]", data.get("swaps", []))]
    game.lacks = [(s, level, count) for s, level, count in data.get("lacks", [])]
    # Absent from snapshots taken before it was kept.
    deciding = cast("DecidingFields | None", data.get("deciding"))
    game.deciding = None if deciding is None else (deciding[0], Card.parse(deciding[1]))
    # Snapshots from before tells were recorded restore without them: beliefs start afresh.
    game.played = [cards(p) for p in data.get("played", [[]] * game.seats)]
    game.tells = [
        Tell(seat, before, _row_play(top), _row_play(play), revolution,
             None if held is None else (held[0], held[1]))
        for seat, before, revolution, held, top, play in cast("list[TellFields]",
                                                              data.get("tells", []))
    ]
    game.version = data["version"]
    game.round_version = data.get("round_version", 0)
    game.trick_version = data["trick_version"]
    game.timer_serial = data["timer_serial"]
    game.timeouts = list(data["timeouts"])
    game.autopilot = set(data["autopilot"])
    game.bots = set(data["bots"])
    game.winners = tuple(data["winners"])
    game.stopped_early = data["stopped_early"]
    return game


def _rng_state(rng: random.Random) -> RngRow:
    version, internal, gauss = cast(RngState, rng.getstate())
    return [version, list(internal), gauss]


def _rng_from(data: RngRow) -> RngState:
    fields = cast(RngFields, data)
    return (fields[0], tuple(fields[1]), fields[2])


def _play_dict(play: TrickPlay) -> PlaySnapshot:
    return {"seat": play.seat, "cards": [str(c) for c in play.cards], "level": play.level,
            "count": play.count, "value": play.value, "special": play.special,
            "announce": play.announce}


def _trick_play(data: PlaySnapshot) -> TrickPlay:
    return TrickPlay(data["seat"], tuple(Card.parse(c) for c in data["cards"]), data["level"],
                     data["count"], data["value"], data["special"], data["announce"])


def _play_row(play: TrickPlay | None) -> PlayRow | None:
    if play is None:
        return None
    return [play.seat, [str(c) for c in play.cards], play.level, play.count, play.value,
            play.special, play.announce]


def _row_play(row: PlayRow | None) -> TrickPlay | None:
    if row is None:
        return None
    seat, cs, level, count, value, special, announce = cast(PlayFields, row)
    return TrickPlay(seat, tuple(Card.parse(c) for c in cs), level, count, value, special,
                     announce)
