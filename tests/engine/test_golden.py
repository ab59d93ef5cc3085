"""Golden transcripts: one seeded game per preset, its whole event log and legal-move counts.

Any change of behaviour, wanted or not, shows up here as a diff of a readable JSON file.
Regenerate after an intended change with ``UPDATE_GOLDEN=1 pytest tests/engine/test_golden.py``
and read the diff before committing it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from engine import PRESETS, Game, GreedyPlayer, Phase, RandomPlayer, Rules

GOLDEN = Path(__file__).parent / "golden"
CASES = [(preset, 4) for preset in sorted(PRESETS)] + [("wild7", 2), ("classic", 5)]


def transcript(preset: str, seats: int) -> dict[str, Any]:
    """Two rounds (so one exchange) with greedy seats 0–1 and random others, seed 2026."""
    game = Game.new(Rules.preset(preset, game_end="unlimited"), seats, seed=2026)
    players = [GreedyPlayer() if s < 2 else RandomPlayer(2026 + s) for s in range(seats)]
    log: list[dict[str, Any]] = []
    legal_counts: list[int] = []
    rounds = 0
    while rounds < 2:
        if game.phase is Phase.ROUND_OVER:
            rounds += 1
            if rounds < 2:
                log += [e.to_dict() for e in game.next_round()]
            continue
        if game.phase is Phase.EXCHANGE:
            seat = next(s for s in range(seats) if (d := game.exchange_due(s)) and d.ready)
        else:
            assert game.to_act is not None
            seat = game.to_act
            legal_counts.append(len(game.legal_actions(seat)))
        log += [e.to_dict() for e in game.apply(seat, players[seat].choose(game, seat))]
    return {"preset": preset, "seats": seats, "legal_counts": legal_counts,
            "points": game.points, "events": log}


@pytest.mark.parametrize(("preset", "seats"), CASES, ids=[f"{p}-{s}" for p, s in CASES])
def test_golden_transcript(preset: str, seats: int) -> None:
    path = GOLDEN / f"{preset}-{seats}.json"
    actual = transcript(preset, seats)
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(json.dumps(actual, indent=1, ensure_ascii=False) + "\n")
    expected = json.loads(path.read_text())
    assert actual["legal_counts"] == expected["legal_counts"]
    assert actual["events"] == expected["events"]
    assert actual["points"] == expected["points"]
