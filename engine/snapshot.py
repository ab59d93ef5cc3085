"""The whole game state as JSON-safe data, and back.

The bot stores this after every action to survive restarts, so it holds everything the
engine needs to continue identically, the random generator's state included; caches are not
stored (they rebuild on demand).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, TypeVar

from .automation import Automation, Chooser
from .cards import Card
from .exchange import Gift
from .rules import Rules
from .state import Phase, Tell, TrickPlay

__all__ = ["game_from_dict", "game_to_dict"]

G = TypeVar("G", bound=Automation)


def game_to_dict(game: Automation) -> dict[str, Any]:
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


def game_from_dict(data: dict[str, Any], cls: type[G], autoplay: Chooser | None = None) -> G:
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
    game.swaps = [(g, r, tuple(cards(cs)), mode) for g, r, cs, mode in data.get("swaps", [])]
    game.lacks = [(s, level, count) for s, level, count in data.get("lacks", [])]
    deciding = data.get("deciding")  # absent from snapshots taken before it was kept
    game.deciding = None if deciding is None else (deciding[0], Card.parse(deciding[1]))
    # Snapshots from before tells were recorded restore without them: beliefs start afresh.
    game.played = [cards(p) for p in data.get("played", [[]] * game.seats)]
    game.tells = [
        Tell(seat, before, _row_play(top), _row_play(play), revolution,
             None if held is None else (held[0], held[1]))
        for seat, before, revolution, held, top, play in data.get("tells", [])
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


def _rng_state(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def _rng_from(data: list[Any]) -> tuple[Any, ...]:
    return (data[0], tuple(data[1]), data[2])


def _play_dict(play: TrickPlay) -> dict[str, Any]:
    return {"seat": play.seat, "cards": [str(c) for c in play.cards], "level": play.level,
            "count": play.count, "value": play.value, "special": play.special,
            "announce": play.announce}


def _trick_play(data: dict[str, Any]) -> TrickPlay:
    return TrickPlay(data["seat"], tuple(Card.parse(c) for c in data["cards"]), data["level"],
                     data["count"], data["value"], data["special"], data["announce"])


def _play_row(play: TrickPlay | None) -> list[Any] | None:
    if play is None:
        return None
    return [play.seat, [str(c) for c in play.cards], play.level, play.count, play.value,
            play.special, play.announce]


def _row_play(row: list[Any] | None) -> TrickPlay | None:
    if row is None:
        return None
    seat, cs, level, count, value, special, announce = row
    return TrickPlay(seat, tuple(Card.parse(c) for c in cs), level, count, value, special,
                     announce)
