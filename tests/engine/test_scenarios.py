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


# GOOD played to its end: seat 2 goes out, then seat 0.
_ROUND_OVER = [
    {"seat": 0, "play": ["3H"]}, {"seat": 1, "play": ["KD"]}, {"seat": 2, "play": ["AC"]},
    {"seat": 0, "pass": True}, {"seat": 1, "pass": True}, {"seat": 2, "play": ["5H"]},
    {"seat": 0, "play": ["9S"], "expect": {"phase": "round_over", "out": [2, 0]}},
]

MALFORMED = {
    "not_json": "{ this is not json",
    "unknown_knob": _variant(rules={"preset": "classic", "set": {"no_such_knob": True}}),
    "bad_knob_value": _variant(rules={"preset": "classic", "set": {"on_equal": "sometimes"}}),
    "unknown_card": _variant(hands=[["3H", "1Z"], ["4H", "KD"], ["5H", "AC"]]),
    "card_dealt_twice": _variant(hands=[["3H", "9S"], ["3H", "KD"], ["5H", "AC"]]),
    "unknown_step_key": _variant(steps=[{"seat": 0, "dance": True}]),
    "bad_seat": _variant(steps=[{"seat": 7, "play": ["3H"]}]),
    # `"pass": false` is no pass: the runner must not act on it.
    "pass_false": _variant(steps=[{"seat": 0, "play": ["3H"]}, {"seat": 1, "pass": False}]),
    "timeout_false": _variant(steps=[{"timeout": False}]),
    # A known key in another case is a typo, not prose: « As » would lose the play's value.
    "known_key_other_case": _variant(steps=[{"seat": 0, "play": ["3H"], "As": "3"}]),
    "unknown_key_not_prose": _variant(extra={"seats": 3}),
    # Python holds False == 0: `"to_act": false` must not pass for seat 0, nor `1` for true.
    "bool_for_seat": _variant(steps=[{"expect": {"to_act": False}}]),
    "number_for_bool": _variant(steps=[{"expect": {"revolution": 0}}]),
    "bool_points": _variant(points=[True, 0, 0], steps=[{"expect": {"points": [1, 0, 0]}}]),
    "bool_ranking": _variant(previous_ranking=[True, False, 2], steps=[]),
    # Keys an action does not read would be dropped: the step would check something else.
    "as_on_a_pass": _variant(steps=[{"seat": 0, "play": ["3H"]},
                                    {"seat": 1, "pass": True, "as": "K"}]),
    "seat_on_next_round": _variant(steps=[*_ROUND_OVER, {"seat": 0, "next_round": {
        "hands": [["3H"], ["4H"], ["5H"]]}}]),
    "step_doing_nothing": _variant(steps=[{}]),
    "reject_not_bool": _variant(steps=[{"seat": 0, "pass": True, "reject": "yes"}]),
    "reject_without_action": _variant(steps=[{"reject": True, "expect": {"to_act": 0}}]),
    "next_round_unknown_key": _variant(steps=[*_ROUND_OVER, {"next_round": {
        "hand": [["3H"], ["4H"], ["5H"]]}}]),
    "source_not_text": _variant(source=["000_ef49553c40686b5c.txt"]),
}


def _without(key: str, **changes: object) -> dict[str, object]:
    data = _variant(**changes) if changes else json.loads(json.dumps(GOOD))
    del data[key]
    return data


# FORMAT.md: a scenario is « a rule set, the dealt hands, a list of steps »; `opener` is
# « needed for `random`, or when the deciding card is not dealt » in a first round.
MISSING = {
    "rules": _without("rules"),
    "hands": _without("hands"),
    "steps": _without("steps"),
    "rules.preset": _variant(rules={"set": {"on_equal": "none"}}),
    "seat": _variant(steps=[{"play": ["3H"]}]),
    "opener": _without("opener"),  # no QH dealt
    "opener ": _without("opener", rules={"preset": "proletario"}),  # random
}


@pytest.mark.parametrize("field", sorted(MISSING))
def test_a_missing_field_is_named_with_its_file(
    field: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, f"missing_{field.strip()}", MISSING[field])
    status = main([str(path)])
    line = capsys.readouterr().out.splitlines()[0]
    assert status != 0
    assert line.startswith("FAIL ") and f"missing '{field.strip()}'" in line, line
    assert str(path) in line, line


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


# --- every form FORMAT.md allows (or a reader would write) loads and runs -----------------

_WILD7 = {
    "name": "wild7 form",
    "source": "004_4e41a7ca39857afc.txt",
    "rules": {"preset": "wild7"},
    "hands": [["7H", "4H"], ["JS", "AS"], ["6D", "10D"]],
    "opener": 0,
}

FORMS: dict[str, dict[str, object]] = {
    # Prose for readers, at the top and on a step.
    "notes": {**GOOD, "comment": "why this matters", "note": "seed sentence",
              "steps": [{"comment": "opening", "seat": 0, "play": ["3H"],
                         "description": "any prose"}]},
    # Cards, announced values and expected values in lower case.
    "lower_case": {**_WILD7, "steps": [
        {"seat": 0, "play": ["7h"], "as": "q", "expect": {"top_value": "q", "count": 1}},
        {"seat": 1, "play": ["js"], "reject": True},
        {"seat": 1, "play": ["as"], "expect": {"top_value": "a", "to_act": 2}}]},
    # A value written as a JSON number, announced and expected.
    "number_value": {**_WILD7, "steps": [
        {"seat": 0, "play": ["7H"], "as": 10, "expect": {"top_value": 10, "to_act": 1}},
        {"seat": 1, "play": ["JS"], "expect": {"top_value": "J"}}]},
    # Every seat's hand as a list by seat.
    "hands_by_list": {**GOOD, "steps": [
        {"seat": 0, "play": ["3H"], "expect": {"hands": [["9S"], ["4H", "KD"], ["5H", "AC"]]}}]},
    # A refused action may carry checks; a card from another deck is refused, not malformed.
    "reject_with_expect": {**GOOD, "steps": [
        {"seat": 0, "play": ["RJ"], "reject": True, "expect": {"to_act": 0}},
        {"seat": 1, "play": ["4H"], "reject": True, "expect": {"to_act": 0, "top_value": None}},
        {"seat": 0, "play": ["3H"], "reject": False}]},
    # The next round dealt by the engine: an empty object, or just true.
    "next_round_dealt": {**GOOD, "steps": [
        *_ROUND_OVER, {"next_round": {}, "expect": {"phase": "exchange",
                                                    "roles": ["N", "L", "P"]}}]},
    "next_round_true": {**GOOD, "steps": [
        *_ROUND_OVER, {"next_round": True, "expect": {"phase": "exchange"}}]},
    # Any other key holding text is prose too, at the top and on a step.
    "other_prose_keys": {**GOOD, "why": "seed sentence", "author": "someone",
                         "steps": [{"seat": 0, "play": ["3H"], "why": "the lowest card"}]},
    # Knob values as a reader types them: spaces in game_end, roles of points in lower case,
    # the preset's name capitalised.
    "loose_knob_values": {**GOOD, "rules": {"preset": "Classic", "set": {
        "on_equal": "none", "game_end": "rounds: 1", "points": "p3 vp2 n1 vl0 l0"}},
        "steps": [*_ROUND_OVER[:-1], {"seat": 0, "play": ["9S"], "expect": {
            "phase": "game_over", "points": [1, 0, 3], "winners": [2]}}]},
    # Whose timer runs out, or whose view a check is about, named as a note.
    "seat_on_timeout_and_check": {**GOOD, "steps": [
        {"seat": 0, "timeout": True, "expect": {"to_act": 1}},
        {"seat": 1, "expect": {"to_act": 1}}]},
    # Nobody yet: winners and autopilot as null, like the empty list.
    "nobody_as_null": {**GOOD, "steps": [{"expect": {"winners": None, "autopilot": None}}]},
    # Seats outside the preset's min_players–max_players: FORMAT.md takes the seats from
    # the hands (2 to 8) and names no such bound; the engine plays them as dealt.
    # A first round's opener follows from the rules where the deciding card is dealt, from
    # the previous ranking in a second round, and nobody opens in fast mode.
    "opener_from_the_queen": {**_without("opener"), "hands": [["3H", "QH"], ["4H"], ["5H"]],
                              "steps": [{"expect": {"to_act": 0}}]},
    "opener_from_the_ranking": {**_without("opener", rules={"preset": "proletario"}),
                                "previous_ranking": [0, 1, 2], "steps": []},
    "opener_in_fast_mode": {**_without("opener", rules={"preset": "classic", "set": {
        "fast": True}}), "steps": [{"expect": {"to_act": None}}]},
    "seats_outside_min_max": {**GOOD, "hands": [["3H", "9S"], ["4H", "KD"]], "opener": 0,
                              "steps": [{"seat": 0, "play": ["3H"], "expect": {"to_act": 1}},
                                        {"seat": 1, "play": ["KD"], "expect": {"to_act": 0}}]},
}


@pytest.mark.parametrize("case", sorted(FORMS))
def test_allowed_forms_run(case: str, tmp_path: Path) -> None:
    outcome = run_file(_write(tmp_path, case, FORMS[case]))
    assert outcome.failure is None, outcome.line


def test_a_file_saved_with_a_byte_order_mark_runs(tmp_path: Path) -> None:
    """Some editors start UTF-8 files with a BOM; the scenario is no less readable."""
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(GOOD).encode("utf-8"))
    outcome = run_file(path)
    assert outcome.failure is None, outcome.line
