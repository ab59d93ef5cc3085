"""Président rules engine: pure, deterministic, no I/O.

>>> from engine import Game, Rules
>>> game = Game.new(Rules.preset("wild7"), seats=5, seed=3)
>>> len(game.legal_plays(game.to_act)) > 0
True
"""

from .actions import Action
from .cards import Card, Deck
from .errors import IllegalAction
from .events import Event, event_from_dict
from .game import Chooser, ExchangeDue, Game, Phase, Timer, TrickPlay, Who
from .observation import Observation
from .players import GreedyPlayer, RandomPlayer
from .plays import PlayOption
from .roles import roles_for
from .rules import KNOBS, PRESETS, GameEnd, KnobGroup, KnobSpec, Rules, RulesError

__all__ = [
    "Action", "Card", "Chooser", "Deck", "Event", "ExchangeDue", "Game", "GameEnd", "GreedyPlayer",
    "IllegalAction", "KNOBS", "KnobGroup", "KnobSpec", "Observation", "PRESETS", "Phase",
    "PlayOption", "RandomPlayer", "Rules", "RulesError", "Timer", "TrickPlay", "event_from_dict",
    "Who", "roles_for",
]
