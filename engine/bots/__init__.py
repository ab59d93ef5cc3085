"""Bots by level: ``easy``, ``normal``, ``hard``, each deciding from a :class:`PlayerView`.

A bot is given what its seat may see (:func:`engine.view.player_view`), never the game, and
returns an :class:`Action` chosen among the listed ones, so it obeys every knob by
construction. ``greedy`` (the unchanged :class:`engine.players.GreedyPlayer`, the yardstick)
and ``random`` are the reference players; they read the game, and :func:`decide` hides that.

>>> from engine import Game, Rules
>>> game = Game.new(Rules.preset("classic"), seats=4, seed=1)
>>> seat = game.to_act
>>> game.apply(seat, decide(make_player("normal"), game, seat)) != []
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..actions import Action
from ..game import Game
from ..players import GreedyPlayer, RandomPlayer
from ..view import PlayerView, player_view
from .easy import EasyBot
from .hard import HardBot
from .normal import NormalBot

__all__ = ["LEVELS", "PLAYERS", "Bot", "EasyBot", "HardBot", "NormalBot", "Player", "decide",
           "make_bot", "make_player"]

LEVELS = ("easy", "normal", "hard")
PLAYERS = LEVELS + ("greedy", "random")


class Bot(Protocol):
    level: str

    def choose(self, view: PlayerView) -> Action: ...


Player = Bot | GreedyPlayer | RandomPlayer


def make_bot(level: str, seed: int | None = None, *, samples: int | None = None,
             budget: float = 0.08, clock: Callable[[], float] | None = None) -> Bot:
    """A bot of one of :data:`LEVELS`; ``samples``/``budget``/``clock`` tune ``hard``."""
    if level == "easy":
        return EasyBot(seed)
    if level == "normal":
        return NormalBot()
    if level == "hard":
        return HardBot(seed, samples=samples, budget=budget, clock=clock)
    raise ValueError(f"unknown level {level!r}: one of {', '.join(LEVELS)}")


def make_player(name: str, seed: int | None = None, *, samples: int | None = None,
                budget: float = 0.08,
                clock: Callable[[], float] | None = None) -> Player:
    """Any of :data:`PLAYERS`: a level, or a reference player."""
    if name == "greedy":
        return GreedyPlayer()
    if name == "random":
        return RandomPlayer(seed)
    if name == "hard" and samples is None and clock is None:
        samples = 20
    return make_bot(name, seed, samples=samples, budget=budget, clock=clock)


def decide(player: Player, game: Game, seat: int) -> Action:
    """The player's action for ``seat``: bots get the seat's view, reference players the game."""
    if isinstance(player, GreedyPlayer | RandomPlayer):
        return player.choose(game, seat)
    return player.choose(player_view(game, seat))
