"""What the normal level's learned second opinion looks at: a candidate move beside the
tactics' own, in numbers (see :mod:`engine.bots.second`).

Every feature is read from the seat's view (its hand, what is public, what is unseen), so
the second opinion knows no more than a player. A row describes one candidate (a play, or
the pass) and the tactics' choice side by side, then the position and the rules' knobs that
change what a move is worth; the trained trees decide which differences matter.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..plays import PlayOption
from ..view import PlayerView
from .tactics import Unseen, sure_winner

__all__ = ["MOVE_FEATURES", "POSITION_FEATURES", "FEATURES", "Position", "row"]

#: One move, as :func:`_move` describes it (zeros where a feature does not apply).
MOVE_FEATURES = ("is_pass", "strength", "count", "breaks_group", "control", "wilds",
                 "sure_winner", "beaters", "groups_after", "cards_after", "top_strength",
                 "top_count")
#: The position and the rules, the same for every candidate of one decision.
POSITION_FEATURES = ("bias", "hand", "fewest_opponent", "still_to_act", "leading",
                     "options", "can_pass", "one_lap", "equal_allowed",
                     "finishing_closes_trick", "two_beats_larger", "closing_rank",
                     "four_closes", "top_single", "finish_penalty")
#: A row: the candidate's move features, the tactics' choice's, then the position's.
FEATURES = tuple(f"move.{n}" for n in MOVE_FEATURES) + \
    tuple(f"tactics.{n}" for n in MOVE_FEATURES) + POSITION_FEATURES


class Position:
    """What every candidate of one decision shares: counted once per decision."""

    __slots__ = ("view", "held", "unseen", "biggest", "numbers")

    def __init__(self, view: PlayerView, unseen: Unseen, opponents: Sequence[int]) -> None:
        self.view = view
        self.unseen = unseen
        self.biggest = max(opponents, default=0)
        wild = view.rules.wild_level
        held: dict[int, int] = {}
        for card in view.hand:
            if card.suit != "" and card.value != wild:
                held[card.value] = held.get(card.value, 0) + 1
        self.held = held
        rules = view.rules
        if rules.trick_end == "one_lap" and view.trick:
            after = sum(1 for s in view.lap if s != view.seat)
        else:
            after = sum(1 for s in view.order if s != view.seat and view.hand_sizes[s]
                        and s not in view.passed)
        self.numbers = (
            1.0, len(view.hand) / 13, min(min(opponents, default=13), 6) / 6, after / 3,
            0.0 if view.trick else 1.0, len(view.legal) / 10, float(view.can_pass),
            float(rules.trick_end == "one_lap"), float(rules.equal_allowed),
            float(rules.finishing_closes_trick), float(rules.two_beats_larger),
            float(rules.closing_rank != "none"), float(rules.four_closes),
            float(rules.top_single is not None), float(rules.finish_penalty != "none"))


def _move(position: Position, option: PlayOption | None) -> tuple[float, ...]:
    view = position.view
    revolution = view.revolution
    if option is None:  # the pass: what it declines to beat
        top = view.trick[-1]
        level = 12 - top.level if revolution else top.level
        return (1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                1.0 if top.special else level / 12, top.count / 4)
    strength = 12 - option.level if revolution else option.level
    held = position.held.get(option.level, 0)
    rest = max(held - (option.count - option.wilds), 0) if option.special is None else 0
    control = option.special is not None or option.wilds > 0 or strength == 12
    unseen = position.unseen
    beaters = 0
    if option.special is None:
        equal = view.rules.equal_allowed
        for level, count in unseen.naturals.items():
            other = 12 - level if revolution else level
            if (other > strength or (other == strength and equal)) and \
                    count + unseen.wilds >= option.count:
                beaters += 1
    groups = len(position.held) - (1 if rest == 0 and option.special is None and held else 0)
    sure = sure_winner(option, view.rules, revolution, unseen, position.biggest)
    return (0.0, 1.0 if option.special else strength / 12, option.count / 4,
            1.0 if rest else 0.0, 1.0 if control else 0.0, option.wilds / 2,
            1.0 if sure else 0.0, beaters / 12, groups / 8,
            (len(view.hand) - option.count) / 13, 0.0, 0.0)


def row(position: Position, candidate: PlayOption | None,
        tactics: PlayOption | None) -> tuple[float, ...]:
    """The numbers the trees read for ``candidate`` against the tactics' ``tactics``, in
    the order of :data:`FEATURES`."""
    return _move(position, candidate) + _move(position, tactics) + position.numbers
