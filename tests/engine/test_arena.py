"""The arena's figures: intervals from the spread of each deal's mean, not of single places."""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Callable, Mapping

import pytest

from engine import Rules, arena
from engine.arena import Score, main, play_deals
from engine.bots import Player, make_player


def figures(score: Score) -> dict[str, float]:
    line = score.line("normal", "classic", 4, len(score.places))
    return {k: float(v) for k, v in re.findall(r"(\w+)=([0-9.]+)", line) if k != "seats"}


def test_the_interval_is_the_spread_of_the_deals_means() -> None:
    # Two deals: one won in all four rotations, one lost in all four.
    score = Score(places=[1, 1, 1, 1, 4, 4, 4, 4], deals=[7] * 4 + [9] * 4)
    shown = figures(score)
    assert shown["mean_rank"] == 2.5 and shown["first_pct"] == 50.0
    # Deal means 1 and 4: spread 1.5 × √2 over √2 deals.
    assert shown["rank_ci"] == pytest.approx(1.96 * 1.5, abs=0.01)
    assert shown["first_ci"] == pytest.approx(98.0, abs=0.1)


def test_a_deal_whose_rotations_cancel_out_leaves_no_doubt() -> None:
    """Duplicate deals: every deal's rotations give the same mean, so no interval at all,
    where single places taken as independent would have shown a wide one."""
    score = Score(places=[1, 2, 3, 4] * 3, deals=[1] * 4 + [2] * 4 + [3] * 4)
    assert figures(score)["rank_ci"] == 0.0
    alone = Score(places=[1, 2, 3, 4] * 3)  # no deals recorded: each place its own
    spread = math.sqrt(sum((p - 2.5) ** 2 for p in [1, 2, 3, 4] * 3) / 11)
    assert figures(alone)["rank_ci"] == pytest.approx(1.96 * spread / math.sqrt(12), abs=0.01)


def test_the_command_line_plays_whole_games(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--preset", "classic", "--players", "normal,greedy", "--seats", "4", "--deals", "2",
          "--seed", "1", "--rounds", "games", "--game-rounds", "2"])
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == ["player=normal", "player=greedy"]
    assert all("seats=4 deals=2 " in line for line in lines)
    with pytest.raises(SystemExit):
        main(["--rounds", "games", "--game-rounds", "0"])
    assert "a game lasts at least one round" in capsys.readouterr().err


def test_deals_counts_duplicate_deals_each_played_in_every_rotation() -> None:
    """``--deals 1000`` is the issue's « 1,000 duplicate deals with seats rotated »: 1,000
    distinct deals, each once per rotation, so every player holds every hand once."""
    rules = Rules.preset("classic")
    scores = play_deals(rules, ["normal", "greedy", "greedy", "greedy"], 3, seed=1)
    normal, greedy = scores["normal"], scores["greedy"]
    assert len(set(normal.deals)) == 3 and len(normal.places) == 3 * 4
    assert len(greedy.places) == 3 * 4 * 3
    assert all(normal.deals.count(deal) == 4 for deal in set(normal.deals))


def test_worker_processes_play_the_same_deals_to_the_same_scores() -> None:
    """``--jobs``: the deals' seeds are drawn before they are shared out, and the scores come
    back in deal order, so a deterministic run is the same with workers as without."""
    rules = Rules.preset("presi")
    names = ["hard", "normal", "easy", "greedy"]
    alone = play_deals(rules, names, 3, seed=4, samples=2, exchanged=True)
    shared = play_deals(rules, names, 3, seed=4, samples=2, exchanged=True, jobs=2)
    for name in names:
        assert shared[name].places == alone[name].places
        assert shared[name].deals == alone[name].deals
        assert len(shared[name].seconds) == len(alone[name].seconds)


def test_the_cpu_clock_is_hards_budget_and_times_the_decisions(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``--clock cpu``: hard's budget is read from the process's CPU time (« one core »'s
    time, whatever the load), and so are the decision times; by default the wall clock."""
    given: list[Callable[[], float] | None] = []
    read: list[str] = []

    def player(name: str, seed: int | None = None, *, samples: int | None = None,
               budget: float = 0.08, clock: Callable[[], float] | None = None,
               others: Mapping[int, str] | None = None) -> Player:
        if name == "hard":
            given.append(clock)
        return make_player(name, seed, samples=samples, budget=budget, clock=clock,
                           others=others)

    def ticks(name: str) -> Callable[[], float]:
        def tick() -> float:
            read.append(name)
            return 0.0
        return tick

    monkeypatch.setattr(arena, "make_player", player)
    monkeypatch.setattr(arena, "CLOCKS", {"wall": ticks("wall"), "cpu": ticks("cpu")})
    rules = Rules.preset("classic")
    names = ["hard", "greedy", "greedy", "greedy"]
    # A budget of 0 on a clock standing still: one sample a decision, whatever the machine.
    scores = play_deals(rules, names, 1, seed=2, budget=0.0, timed=True, clock="cpu")
    assert len(given) == 4 and all(c is arena.CLOCKS["cpu"] for c in given)
    assert set(read) == {"cpu"} and scores["hard"].seconds
    given.clear()
    read.clear()
    play_deals(rules, names, 1, seed=2, budget=0.0, timed=True)
    assert len(given) == 4 and all(c is arena.CLOCKS["wall"] for c in given)
    assert set(read) == {"wall"}
    with pytest.raises(ValueError, match="unknown clock"):
        play_deals(rules, names, 1, seed=2, clock="sundial")


def test_the_printed_times_name_the_cpu_clock(capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """CPU milliseconds are printed under their own names, never as ``p50_ms``/``p99_ms``;
    the wall clock's line is as it always was."""
    # This process may hold threads other tests left (its deals would be refused): the check
    # is the next test's.
    checked: list[bool] = []
    monkeypatch.setattr(arena, "_check_single_threaded", lambda: checked.append(True))
    score = Score(places=[1, 2], seconds=[0.05, 0.09], deals=[1, 1])
    assert "p50_cpu_ms=90 p99_cpu_ms=90" in score.line("hard", "classic", 4, 1, "cpu")
    assert " p50_ms=90 p99_ms=90" in score.line("hard", "classic", 4, 1)
    command = ["--players", "hard,greedy", "--seats", "4", "--deals", "1", "--samples", "1"]
    main([*command, "--clock", "cpu"])
    cpu = capsys.readouterr().out.splitlines()
    main(command)
    wall = capsys.readouterr().out.splitlines()
    assert len(cpu) == len(wall) == 2
    assert all(" p50_cpu_ms=" in line and " p50_ms=" not in line for line in cpu)
    assert all(" p50_ms=" in line and "cpu" not in line for line in wall)
    assert checked  # the CPU clock's deals checked, the wall clock's did not
    with pytest.raises(SystemExit):
        main(["--clock", "sundial"])
    assert "invalid choice" in capsys.readouterr().err


def test_workers_are_single_threaded_for_the_cpu_clock() -> None:
    """The process's CPU time is one decision's only in a single-threaded process: each
    worker under ``--jobs`` is one (its deals check, and would refuse otherwise), and a
    process running another thread is refused."""
    rules = Rules.preset("presi")
    names = ["hard", "greedy", "greedy", "greedy"]
    shared = play_deals(rules, names, 2, seed=4, samples=1, clock="cpu", jobs=2)
    alone = play_deals(rules, names, 2, seed=4, samples=1)
    assert shared["hard"].places == alone["hard"].places
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        with pytest.raises(RuntimeError, match="single-threaded"):
            arena._check_single_threaded()
    finally:
        stop.set()
        other.join()
