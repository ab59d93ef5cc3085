"""The game state machine: rounds, tricks, exchange, timers, automation.

Every public action follows the same shape (PokerKit's): ``verify_x`` raises
:class:`IllegalAction` with a reason and changes nothing, ``can_x`` answers yes or no, and ``x``
verifies, applies and returns the list of :mod:`events <engine.events>` it caused. The engine
owns no clock: :attr:`Game.timer` says which countdown runs and ``serial`` tells the caller
when to restart it; the caller reports expiry with :meth:`Game.timeout`.

:class:`Game` is assembled here from one layer per concern, each its own module importing
only the ones below it: :mod:`engine.state` (the attributes), :mod:`engine.tricks`,
:mod:`engine.rounds` (rounds and the exchange), :mod:`engine.automation` (timers, bots,
autopilot). What needs the finished class stays here: construction, copies, snapshots.

>>> from engine import Game, Rules
>>> game = Game.new(Rules.preset("classic"), seats=4, seed=1)
>>> game.phase.value, game.to_act is not None, sum(game.hand_sizes())
('play', True, 52)
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Sequence
from dataclasses import replace

from .actions import Action
from .automation import Automation, Chooser
from .cards import Card
from .events import Event
from .exchange import ExchangeDue
from .observation import Observation, observe
from .rules import Rules
from .snapshot import GameSnapshot, game_from_dict, game_to_dict
from .state import Phase, Tell, Timer, TrickPlay, Who

__all__ = ["Chooser", "ExchangeDue", "Game", "Phase", "Tell", "Timer", "TrickPlay", "Who"]


class Game(Automation):
    """One game at one table: a sequence of rounds under fixed :class:`Rules`."""

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(
        cls,
        rules: Rules,
        seats: int,
        seed: int | None = None,
        *,
        bots: Iterable[int] = (),
        hands: Sequence[Sequence[Card]] | None = None,
        previous_ranking: Sequence[int] | None = None,
        opener: int | None = None,
        points: Sequence[int] | None = None,
        autoplay: Chooser | None = None,
        first_version: int = 0,
    ) -> Game:
        """A game with its first round dealt.

        ``hands``/``previous_ranking``/``opener``/``points`` set up a position (scenarios,
        tests); ``previous_ranking`` makes it a later round with roles and an exchange.
        ``autoplay`` makes the engine play bot and autopilot seats itself, at once, with
        the chooser given (the scenario runner gives :class:`engine.players.GreedyPlayer`);
        the bot gives none, to pace its bots. ``first_version``: where
        :attr:`version` starts, past an earlier game's at the same table, so that a control
        drawn in that game is never taken for one of this game's.
        """
        game = cls(rules, seats, random.Random(seed), autoplay)
        game.version = first_version
        game.bots = set(bots)
        if points is not None:
            game.points = list(points)
        if previous_ranking is not None:
            if sorted(previous_ranking) != list(range(seats)):
                raise ValueError("previous_ranking must list every seat once")
            game.ranking = tuple(previous_ranking)
            game.round_no = 1
        game.first_events = game._finish(game._start_round(hands, opener))
        return game

    def replay(self) -> Game:
        """A new game: same rules, seats and bots, scores reset. Its versions go on from this
        game's, so a control drawn in this game is never taken for one of the new game's."""
        game = Game(self.rules, self.seats, random.Random(self.rng.random()), self.autoplay)
        game.version = self.version + 1
        game.bots = set(self.bots)
        game.active = list(self.active)
        game.first_events = game._finish(game._start_round(None, None))
        return game

    # ------------------------------------------------------------------ queries
    def observe(self, seat: int | None) -> Observation:
        """What ``seat`` may see (``None``: a spectator); never another player's cards."""
        return observe(self, seat)

    # ------------------------------------------------------------------ actions
    def apply(self, seat: int, action: Action, seen: int | None = None) -> list[Event]:
        """Apply an :class:`Action` value (what players return)."""
        if action.kind == "play":
            assert action.option is not None
            return self.play_option(seat, action.option, seen)
        if action.kind == "pass":
            return self.pass_turn(seat, seen)
        if action.kind == "give":
            return self.give(seat, action.cards)
        raise ValueError(f"unknown action {action.kind!r}")

    # ------------------------------------------------------------------ search support
    def clone(self, rng: random.Random | None = None) -> Game:
        """An independent copy for search, in tens of microseconds (``to_dict`` is far slower).

        Immutable parts (rules, cards, tuples, the turn cycles) are shared; every container
        play mutates is copied. ``rng``: the copy's random generator (default: a copy of
        this one's state, so the copy deals the same future rounds).
        """
        game = Game.__new__(Game)
        # Every attribute is an object: typeshed's `dict[str, Any]` need not flow further.
        state: dict[str, object] = game.__dict__
        own: dict[str, object] = self.__dict__
        state.update(own)
        game.hands = [list(h) for h in self.hands]
        game.active = list(self.active)
        game.points = list(self.points)
        game.off_table = dict(self.off_table)
        game.out = list(self.out)
        game.penalised = list(self.penalised)
        game.trick = list(self.trick)
        game.pile = list(self.pile)
        game.passed = set(self.passed)
        game.lap = list(self.lap)
        game.gifts = [replace(g) for g in self.gifts]
        game.swaps = list(self.swaps)
        game.lacks = list(self.lacks)
        game.played = [list(p) for p in self.played]
        game.tells = list(self.tells)
        game.timeouts = list(self.timeouts)
        game.autopilot = set(self.autopilot)
        game.bots = set(self.bots)
        game._base = dict(self._base)  # option lists are replaced, never mutated
        game._legal_cache = {}
        game._legal_version = -1
        game._due_cache = {}
        game._due_version = -1
        game.rng = copy.copy(self.rng) if rng is None else rng  # a copy: the same state
        return game

    # ------------------------------------------------------------------ serialisation
    def to_dict(self) -> GameSnapshot:
        """The whole state, JSON-safe; :meth:`from_dict` continues identically."""
        return game_to_dict(self)

    @classmethod
    def from_dict(cls, data: GameSnapshot, autoplay: Chooser | None = None) -> Game:
        """The game :meth:`to_dict` stored. A snapshot keeps whether the game played its
        own seats, not with what: ``autoplay`` must then be given again (see
        :func:`engine.snapshot.game_from_dict`)."""
        return game_from_dict(data, cls, autoplay)
