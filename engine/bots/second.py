"""The normal level's second opinion: trees trained on what the hard level's search found.

The tactics (:mod:`engine.bots.tactics`) are rules, and no rule drawn from where the hard
level departs from them has helped: whether a pass or a higher play pays depends on the
whole position (docs/bots.md, « Tried at stop 19 »). So the normal level asks a model
instead. :mod:`engine.bots.training` let the hard level weigh the tactics' move against the
same few candidates it searches (:mod:`engine.bots.candidates`) at thousands of decisions,
and fitted gradient-boosted trees to how many places each candidate gained on the tactics'
move in its samples. Here the trees read a candidate beside the tactics' move
(:mod:`engine.bots.features`) and predict that gain; the best candidate replaces the
tactics' move only when its predicted gain is positive. Going out is never overruled.

The trees are data (``second.json``, written by the training tool): no search runs here, so
the normal level stays under a millisecond per decision and deterministic.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from ..game import Phase
from ..plays import PlayOption
from ..view import PlayerView
from .candidates import candidates
from .features import FEATURES, Position, row
from .tactics import Unseen, bad_cards, strands

__all__ = ["MODEL", "REASONS", "Forest", "forest", "revise"]

#: Why the second opinion overruled the tactics (what the bot's « Conseil » says).
REASONS = ("hold", "judged")
MODEL = "second.json"


@dataclass(frozen=True)
class Tree:
    """One regression tree as parallel lists: node ``i`` is a leaf when ``feature[i] < 0``
    (its ``value`` is the prediction), else ``left[i]`` when ``x[feature[i]] <=
    threshold[i]`` and ``right[i]`` otherwise."""

    feature: tuple[int, ...]
    threshold: tuple[float, ...]
    left: tuple[int, ...]
    right: tuple[int, ...]
    value: tuple[float, ...]

    def predict(self, x: tuple[float, ...]) -> float:
        feature, threshold, left, right = self.feature, self.threshold, self.left, self.right
        i = 0
        while (f := feature[i]) >= 0:
            i = left[i] if x[f] <= threshold[i] else right[i]
        return self.value[i]


@dataclass(frozen=True)
class Forest:
    """A sum of trees over :data:`features.FEATURES`: the predicted gain, in places."""

    baseline: float
    trees: tuple[Tree, ...]

    def predict(self, x: tuple[float, ...]) -> float:
        return self.baseline + sum(tree.predict(x) for tree in self.trees)

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Forest:
        if data.get("features") != list(FEATURES):
            raise ValueError("the model was trained on other features than engine.bots.features")
        trees = data["trees"]
        assert isinstance(trees, list)
        return cls(float(data["baseline"]),  # type: ignore[arg-type]
                   tuple(Tree(tuple(t["feature"]), tuple(t["threshold"]), tuple(t["left"]),
                              tuple(t["right"]), tuple(t["value"])) for t in trees))


@cache
def forest() -> Forest:
    """The shipped model, read once."""
    text = resources.files(__package__).joinpath(MODEL).read_text(encoding="utf-8")
    return Forest.from_dict(json.loads(text))


def revise(view: PlayerView, option: PlayOption | None, reason: str, unseen: Unseen,
           opponents: list[int]) -> tuple[PlayOption | None, str]:
    """The tactics' ``option`` (None: pass) and ``reason``, or the candidate the trees
    predict gains on it, with :data:`REASONS`' ``hold`` (a pass) or ``judged``."""
    if reason == "go_out" or view.rules.fast or view.phase is not Phase.PLAY or \
            view.to_act != view.seat:
        return option, reason
    moves = candidates(view, option)
    if len(moves) < 2:
        return option, reason
    model = forest()
    position = Position(view, unseen, opponents)
    bad = bad_cards(view.hand, view.rules)
    size = len(view.hand)
    best, gain = option, 0.0
    for move in moves[1:]:
        if move is not None and bad and strands(move, size, bad):
            continue  # the tactics' rule: never keep only cards one may not finish on
        predicted = model.predict(row(position, move, option))
        if predicted > gain:
            best, gain = move, predicted
    if gain <= 0.0:
        return option, reason
    return best, "hold" if best is None else "judged"
