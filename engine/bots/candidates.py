"""The few moves worth weighing beside the tactics' own: the hard level searches them, and
the normal level's second opinion (:mod:`engine.bots.second`) judges them."""

from __future__ import annotations

from ..plays import PlayOption
from ..view import PlayerView

__all__ = ["MAX_CANDIDATES", "candidates"]

# Fewer candidates leave more samples for each: classic vs 3× greedy, 240 rounds seed 2,
# 3 / 4 / 6 candidates gave 1.80 / 1.75 / 1.82 (within noise of each other; 4 kept).
MAX_CANDIDATES = 4


def candidates(view: PlayerView, first: PlayOption | None) -> list[PlayOption | None]:
    """``first`` (the tactics' move; None: pass), then pass, then the cheapest options."""
    out: list[PlayOption | None] = [first]
    if view.can_pass and first is not None:
        out.append(None)
    seen = {None if first is None else first.key}
    ranked = sorted(view.legal, key=lambda o: (o.announce is not None, o.wilds,
                                               o.special is not None,
                                               view.strength(o.level), -o.count))
    for option in ranked:
        if len(out) >= MAX_CANDIDATES:
            break
        if option.key not in seen:
            seen.add(option.key)
            out.append(option)
    return out
