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

from collections.abc import Callable, Mapping
from typing import Protocol

from ..actions import Action
from ..game import Game
from ..players import GreedyPlayer, RandomPlayer
from ..view import PlayerView, player_view
from .easy import EasyBot
from .hard import HardBot
from .normal import NormalBot
from .rollout import Style

__all__ = ["ANSWERERS", "LEVELS", "PLAYERS", "SEARCHERS", "STYLES", "Bot", "EasyBot", "HardBot", "NormalBot",
           "Player", "decide", "make_bot", "make_player"]

LEVELS = ("easy", "normal", "hard")
PLAYERS = (*LEVELS, "greedy", "random")
# How hard's search models a seat whose player is known to be one of these: every level
# answers whatever it takes (the tactics, which easy and hard start from too); the
# reference bot by its own code. A random player fits no style: it is modelled as an
# unknown player is. Measured in docs/bots.md (« Known players »).
STYLES = {"easy": Style.TACTICS, "normal": Style.TACTICS, "hard": Style.TACTICS,
          "greedy": Style.NAIVE}
# The players that answer whenever they can: the normal level is the tactics alone, which
# never pass while a play is possible (easy passes on a whim, hard when its search says so).
ANSWERERS = frozenset({"normal"})
# The players that search their last cards where the rules let them (engine.bots.endsearch):
# hard's rollouts model that search, and read their late passes as anyone's.
SEARCHERS = frozenset({"normal"})


class Bot(Protocol):
    level: str

    def choose(self, view: PlayerView) -> Action: ...


Player = Bot | GreedyPlayer | RandomPlayer


def make_bot(level: str, seed: int | None = None, *, samples: int | None = None,
             budget: float = 0.08, clock: Callable[[], float] | None = None,
             others: Mapping[int, str] | None = None,
             taken_over: frozenset[int] = frozenset()) -> Bot:
    """A bot of one of :data:`LEVELS`; ``samples``/``budget``/``clock`` tune ``hard``, and
    ``others`` tells it who plays the seats whose player is public (seat: one of
    :data:`PLAYERS`, e.g. the bots a table's lobby shows with their level).

    ``taken_over``: seats of ``others`` whose player took them over during this round (a bot
    replacing a person who left). Their later moves are that player's, but what they did
    earlier this round was someone else's: their passes are not read as an answerer's, nor
    their plays as a reference player's."""
    if level == "easy":
        return EasyBot(seed)
    if level == "normal":
        return NormalBot()
    if level == "hard":
        seated = (others or {}).items()
        known = {seat: STYLES[name] for seat, name in seated if name in STYLES}
        answerers = frozenset(seat for seat, name in seated
                              if name in ANSWERERS and seat not in taken_over)
        searchers = frozenset(seat for seat, name in seated if name in SEARCHERS)
        naive = frozenset(seat for seat, style in known.items()
                          if style is Style.NAIVE and seat not in taken_over)
        return HardBot(seed, samples=samples, budget=budget, clock=clock, known=known,
                       answerers=answerers, searchers=searchers, naive=naive)
    raise ValueError(f"unknown level {level!r}: one of {', '.join(LEVELS)}")


def make_player(name: str, seed: int | None = None, *, samples: int | None = None,
                budget: float = 0.08, clock: Callable[[], float] | None = None,
                others: Mapping[int, str] | None = None) -> Player:
    """Any of :data:`PLAYERS`: a level, or a reference player."""
    if name == "greedy":
        return GreedyPlayer()
    if name == "random":
        return RandomPlayer(seed)
    if name == "hard" and samples is None and clock is None:
        samples = 20
    return make_bot(name, seed, samples=samples, budget=budget, clock=clock, others=others)


def decide(player: Player, game: Game, seat: int) -> Action:
    """The player's action for ``seat``: bots get the seat's view, reference players the game."""
    if isinstance(player, GreedyPlayer | RandomPlayer):
        return player.choose(game, seat)
    return player.choose(player_view(game, seat))
