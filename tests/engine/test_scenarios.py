"""Rule scenarios (shared/scenarios/FORMAT.md) run against the engine.

- every JSON file of ``tests/scenarios/`` (the project's own scenarios, written from the rules);
- every JSON file of the shared folder ``../shared/scenarios`` next to the repository (or the
  folder named by ``PRESIDENT_SCENARIOS``), skipped with a reason when it does not exist;
- the runner's command line: PASS/FAIL lines, the closing count line, the exit status, and
  malformed files reported as FAIL lines with a reason, never a traceback.

``tests/scenarios_disputed/`` holds scenarios where the engine disagrees with the rules; they
are not run here.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from engine.scenario import main, run_file

REPO = Path(__file__).resolve().parents[2]
OWN_DIR = REPO / "tests" / "scenarios"
# The shared folder sits next to the working checkout; a clone elsewhere (CI) finds it at the
# workplace's fixed location.
_CANDIDATES = [REPO.parent / "shared" / "scenarios", Path("/work/shared/scenarios")]
SHARED_DIR = Path(
    os.environ.get("PRESIDENT_SCENARIOS")
    or next((p for p in _CANDIDATES if p.is_dir()), _CANDIDATES[0])
)


def _files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.json")) if folder.is_dir() else []


OWN = _files(OWN_DIR)
SHARED = _files(SHARED_DIR)


def _check(path: Path) -> None:
    outcome = run_file(path)
    assert outcome.failure is None, f"{path.name}: {outcome.line}"


def test_own_scenarios_exist() -> None:
    assert OWN, f"no scenario in {OWN_DIR}"


@pytest.mark.parametrize("path", OWN, ids=[p.stem for p in OWN])
def test_own_scenario(path: Path) -> None:
    _check(path)


# Without the shared folder the test is one visible skip, not silently absent.
_MISSING = pytest.param(Path(), id="missing", marks=pytest.mark.skip(
    reason=f"shared scenario folder not found: {SHARED_DIR} (set PRESIDENT_SCENARIOS)"))


@pytest.mark.parametrize("path", [pytest.param(p, id=p.stem) for p in SHARED] or [_MISSING])
def test_shared_scenario(path: Path) -> None:
    _check(path)


# --- the runner's command line ------------------------------------------------------------

GOOD = {
    "name": "good one",
    "source": "000_ef49553c40686b5c.txt",
    "rules": {"preset": "classic", "set": {"on_equal": "none"}},
    "hands": [["3H", "9S"], ["4H", "KD"], ["5H", "AC"]],
    "opener": 0,
    "steps": [
        {"seat": 0, "play": ["3H"], "expect": {"to_act": 1, "top_value": "3", "count": 1}},
        {"seat": 1, "pass": True, "expect": {"to_act": 2}},
    ],
}


def _write(folder: Path, stem: str, data: object) -> Path:
    path = folder / f"{stem}.json"
    text = data if isinstance(data, str) else json.dumps(data)
    path.write_text(text, encoding="utf-8")
    return path


def _variant(**changes: object) -> dict[str, object]:
    data: dict[str, object] = json.loads(json.dumps(GOOD))
    data.update(changes)
    data["name"] = f"bad {sorted(changes)[0]}"
    return data


def test_cli_all_pass(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path, "a", GOOD)
    _write(tmp_path, "b", {**GOOD, "name": "good two"})
    status = main([str(tmp_path)])
    out = capsys.readouterr().out.splitlines()
    assert status == 0
    assert out == ["PASS good one", "PASS good two", "2 passed, 0 failed"]


def test_cli_failure_is_reported_and_nonzero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = _write(tmp_path, "a_good", GOOD)
    wrong = json.loads(json.dumps(GOOD))
    wrong["name"] = "wrong expectation"
    wrong["steps"][0]["expect"]["to_act"] = 2
    bad = _write(tmp_path, "b_wrong", wrong)
    status = main([str(good), str(bad)])
    out = capsys.readouterr().out.splitlines()
    assert status != 0
    assert out[0] == "PASS good one"
    assert out[1].startswith("FAIL wrong expectation: step 0:")
    assert "to_act" in out[1]
    assert out[-1] == "1 passed, 1 failed"


def test_cli_refused_action_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(json.dumps(GOOD))
    data["name"] = "must refuse"
    data["steps"] = [{"seat": 0, "play": ["3H"], "reject": True}]
    status = main([str(_write(tmp_path, "x", data))])
    out = capsys.readouterr().out.splitlines()
    assert status != 0
    assert out[0].startswith("FAIL must refuse: step 0:")
    assert out[-1] == "0 passed, 1 failed"


MALFORMED = {
    "not_json": "{ this is not json",
    "unknown_knob": _variant(rules={"preset": "classic", "set": {"no_such_knob": True}}),
    "bad_knob_value": _variant(rules={"preset": "classic", "set": {"on_equal": "sometimes"}}),
    "unknown_card": _variant(hands=[["3H", "1Z"], ["4H", "KD"], ["5H", "AC"]]),
    "card_dealt_twice": _variant(hands=[["3H", "9S"], ["3H", "KD"], ["5H", "AC"]]),
    "unknown_step_key": _variant(steps=[{"seat": 0, "dance": True}]),
    "bad_seat": _variant(steps=[{"seat": 7, "play": ["3H"]}]),
}


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_cli_malformed_is_a_fail_line(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, case, MALFORMED[case])
    status = main([str(path)])
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert status != 0
    assert len(lines) == 2, lines
    assert lines[0].startswith("FAIL "), lines[0]
    reason = lines[0].split(": ", 1)[1] if ": " in lines[0] else ""
    assert reason.strip(), f"no reason given: {lines[0]!r}"
    assert lines[1] == "0 passed, 1 failed"
    assert "Traceback" not in captured.out + captured.err


def test_cli_malformed_does_not_stop_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path, "a_broken", "[1, 2")
    _write(tmp_path, "b_good", GOOD)
    status = main([str(tmp_path)])
    out = capsys.readouterr().out.splitlines()
    assert status != 0
    assert out[0].startswith("FAIL ")
    assert out[1] == "PASS good one"
    assert out[-1] == "1 passed, 1 failed"
