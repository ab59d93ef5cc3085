"""The normal level's second opinion: trees read as trained, a model that matches the
features, and an opinion that only ever picks a listed candidate the tactics' rules allow."""

from __future__ import annotations

import random

import pytest

from engine import Card, Game, Phase, Rules
from engine.bots.candidates import candidates
from engine.bots.features import FEATURES, Position, row
from engine.bots.normal import explain, opponents, tactics_of, unseen
from engine.bots.second import Forest, Tree, forest, revise
from engine.bots.tactics import bad_cards, strands
from engine.view import player_view


def stump(feature: int, threshold: float, low: float, high: float) -> Tree:
    return Tree((feature, -1, -1), (threshold, 0.0, 0.0), (1, 0, 0), (2, 0, 0),
                (0.0, low, high))


def test_a_forest_adds_its_trees_leaves_to_its_baseline() -> None:
    model = Forest(0.5, (stump(0, 0.5, -1.0, 2.0), stump(1, 0.0, 0.25, 0.75)))
    assert model.predict((0.0, 0.0)) == 0.5 - 1.0 + 0.25
    assert model.predict((0.5, 1.0)) == 0.5 - 1.0 + 0.75  # <= goes left, as scikit-learn
    assert model.predict((0.6, -1.0)) == 0.5 + 2.0 + 0.25


def test_a_model_for_other_features_is_refused() -> None:
    with pytest.raises(ValueError, match="other features"):
        Forest.from_dict({"features": ["strength"], "baseline": 0.0, "trees": []})


def test_the_shipped_model_reads_today_s_features() -> None:
    model = forest()
    assert model.trees
    width = len(FEATURES)
    assert all(f < width for tree in model.trees for f in tree.feature)


def positions(preset: str, seed: int, moves: int = 300) -> list[Game]:
    """Turn-based positions of one game, played on by random legal moves."""
    rng = random.Random(seed)
    game = Game.new(Rules.preset(preset), 4, seed=seed)
    out = []
    for _ in range(moves):
        seat = game.to_act
        if game.phase is not Phase.PLAY or seat is None:
            break
        out.append(game.clone(rng=game.rng))
        options = game.legal_plays(seat)
        if options and (rng.random() < 0.8 or not game.can_pass(seat)):
            game.play_option(seat, rng.choice(options))
        else:
            game.pass_turn(seat)
    return out


@pytest.mark.parametrize("preset", ["classic", "presi", "proletario", "wild7"])
def test_the_opinion_picks_a_candidate_the_tactics_allow(preset: str) -> None:
    overruled = 0
    for seed in range(3):
        for game in positions(preset, seed):
            seat = game.to_act
            assert seat is not None
            view = player_view(game, seat)
            option, reason = tactics_of(view)
            action, why = explain(view)
            moves = candidates(view, option)
            assert action.option in moves
            if action.option != option:
                overruled += 1
                assert reason != "go_out" and why in ("hold", "judged")
                bad = bad_cards(view.hand, view.rules)
                assert action.option is None or not strands(action.option, len(view.hand), bad)
            else:
                assert why == reason
    assert overruled  # the opinion is not idle


def test_going_out_is_never_overruled() -> None:
    hands = [[Card.parse(c) for c in text.split()]
             for text in ("9H", "3H 4H 7H", "3S 4S 7S", "3D 4D 7D")]
    game = Game.new(Rules.preset("classic"), 4, hands=hands, opener=0)
    view = player_view(game, 0)
    option, reason = tactics_of(view)
    assert reason == "go_out"
    assert revise(view, option, reason, unseen(view), opponents(view)) == (option, reason)


def test_the_features_never_read_the_hidden_cards() -> None:
    """Two deals that differ only in the other seats' hands give the same rows."""
    rules = Rules.preset("classic")
    mine = [Card.parse(c) for c in ["3H", "5H", "5S", "9D", "JC", "KH", "2S"]]
    rest = [c for c in rules.deck_kind.cards() if c not in mine]
    rows = []
    for seed in (1, 2):
        others = rest[:]
        random.Random(seed).shuffle(others)
        hands = [mine] + [others[i::3][:7] for i in range(3)]
        game = Game.new(rules, 4, hands=hands, opener=0)
        view = player_view(game, 0)
        position = Position(view, unseen(view), opponents(view))
        tactics = tactics_of(view)[0]
        rows.append([row(position, move, tactics) for move in candidates(view, tactics)])
    assert rows[0] == rows[1]


def test_training_records_what_the_search_measured() -> None:
    from engine.bots.training import record

    rows, gains = record("classic", deals=2, seed=3, samples=2)
    assert rows and len(rows) == len(gains)
    assert all(len(r) == len(FEATURES) for r in rows)
    assert all(-3.0 <= g <= 3.0 for g in gains)  # places at 4 seats differ by 3 at most
    assert record("classic", deals=2, seed=3, samples=2) == (rows, gains)  # reproducible


def test_exported_trees_predict_as_scikit_learn_does() -> None:
    pytest.importorskip("sklearn")  # only in the `train` extra, not needed to play
    import numpy as np
    from sklearn.ensemble import HistGradientBoostingRegressor

    from engine.bots.training import export

    rng = np.random.default_rng(0)
    x = rng.random((400, len(FEATURES)))
    y = x[:, 1] - 2 * x[:, 7] * x[:, 20] + rng.normal(0, 0.1, 400)
    model = HistGradientBoostingRegressor(max_iter=20, random_state=0).fit(x, y)
    ours = Forest.from_dict(export(model))
    for sample in x[:50]:
        assert ours.predict(tuple(sample)) == pytest.approx(model.predict([sample])[0])
