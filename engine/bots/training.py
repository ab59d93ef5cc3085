"""``python -m engine.bots.training``: train the normal level's second opinion.

It plays first rounds with a hard bot (a fixed number of samples: reproducible) against 3×
the reference bot, seats rotated, and at each of the hard bot's decisions with more than
one candidate it records what its search measured: for every candidate other than the
tactics' move, the row of :mod:`engine.bots.features` and the places it gained on the
tactics' move, averaged over the same sampled deals. Gradient-boosted regression trees
(scikit-learn's ``HistGradientBoostingRegressor``) are fitted to those gains and written as
plain JSON for :mod:`engine.bots.second`, which needs nothing but the standard library.

scikit-learn is needed here only, not to play: ``pip install -e '.[train]'``. About 40
minutes of CPU for the shipped model (``--jobs 2`` halves it on two cores):

    python -m engine.bots.training --deals 800 --samples 40 --seed 21 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import os
import random
from collections.abc import Sequence
from multiprocessing import Pool
from pathlib import Path
from typing import Any

from ..actions import Action
from ..game import Game, Phase
from ..players import GreedyPlayer
from ..rules import Rules
from ..view import player_view
from . import make_bot
from .candidates import candidates
from .features import FEATURES, Position, row
from .hard import HardBot, _best
from .normal import opponents, tactics_of, unseen

__all__ = ["export", "fit", "main", "record"]

PRESETS = ("classic", "presi", "proletario", "wild7")
Rows = tuple[list[tuple[float, ...]], list[float]]


def record(preset: str, deals: int, seed: int, samples: int) -> Rows:
    """Rows and gains (places, positive: better than the tactics' move) from ``deals``
    first rounds of ``preset``, the hard bot in each seat in turn."""
    rules = Rules.preset(preset).replace(game_end="unlimited")
    rng = random.Random(seed)
    greedy = GreedyPlayer()
    rows: list[tuple[float, ...]] = []
    gains: list[float] = []
    for deal in range(deals):
        deal_seed = rng.randrange(2**32)
        me = deal % 4
        bot = make_bot("hard", deal_seed, samples=samples,
                       others={s: "greedy" for s in range(4) if s != me})
        assert isinstance(bot, HardBot)
        game = Game.new(rules, 4, seed=deal_seed)
        while game.phase is Phase.PLAY:
            seat = game.to_act
            assert seat is not None
            if seat != me:
                game.apply(seat, greedy.choose(game, seat))
                continue
            view = player_view(game, seat)
            tactics = tactics_of(view)[0]
            moves = candidates(view, tactics)
            if len(moves) < 2:
                game.apply(seat, bot.choose(view))
                continue
            places = bot.weigh(view, moves)
            means = [sum(p) / len(p) for p in places]
            position = Position(view, unseen(view), opponents(view))
            for move, mean in zip(moves[1:], means[1:], strict=True):
                rows.append(row(position, move, tactics))
                gains.append(means[0] - mean)
            chosen = moves[_best(places)]
            game.apply(seat, Action.pass_() if chosen is None else Action.play(chosen))
    return rows, gains


def _record(job: tuple[str, int, int, int]) -> Rows:
    return record(*job)


def fit(rows: Sequence[tuple[float, ...]], gains: Sequence[float], *, trees: int = 150,
        rate: float = 0.1, leaves: int = 31, seed: int = 0) -> dict[str, object]:
    """Trees fitted to the gains, as the JSON that :class:`engine.bots.second.Forest` reads."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")  # oversubscribed OpenMP threads crawl
    import numpy as np
    from sklearn.ensemble import HistGradientBoostingRegressor

    model = HistGradientBoostingRegressor(max_iter=trees, learning_rate=rate,
                                          max_leaf_nodes=leaves, min_samples_leaf=40,
                                          random_state=seed)
    model.fit(np.array(rows), np.array(gains))
    return export(model)


def export(model: Any) -> dict[str, object]:
    """A fitted ``HistGradientBoostingRegressor`` as plain JSON: its baseline and, per
    boosting round, its tree's nodes (a leaf's feature is -1)."""
    out = []
    for (predictor,) in model._predictors:  # one regression tree per boosting round
        nodes = predictor.nodes
        out.append({
            "feature": [-1 if n["is_leaf"] else int(n["feature_idx"]) for n in nodes],
            "threshold": [float(n["num_threshold"]) for n in nodes],
            "left": [int(n["left"]) for n in nodes],
            "right": [int(n["right"]) for n in nodes],
            "value": [float(n["value"]) for n in nodes],
        })
    baseline = model._baseline_prediction
    return {"features": list(FEATURES), "baseline": float(baseline.ravel()[0]), "trees": out}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--deals", type=int, default=800, help="first rounds per preset")
    parser.add_argument("--samples", type=int, default=40, help="the hard bot's samples")
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).with_name("second.json"))
    args = parser.parse_args(argv)
    chunk = 100
    jobs = [(preset, min(chunk, args.deals - start), args.seed + 1000 * p + start,
             args.samples)
            for p, preset in enumerate(args.presets.split(","))
            for start in range(0, args.deals, chunk)]
    with Pool(args.jobs) as pool:
        parts = pool.map(_record, jobs)
    rows = [r for part in parts for r in part[0]]
    gains = [g for part in parts for g in part[1]]
    args.out.write_text(json.dumps(fit(rows, gains), separators=(",", ":")) + "\n",
                        encoding="utf-8")
    print(f"{len(rows)} rows from {len(jobs)} jobs -> {args.out}")


if __name__ == "__main__":
    main()
