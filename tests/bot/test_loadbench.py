"""The load benchmark's small run, on the fake clock: a dozen tables of mixed presets with
humans and bots under Discord's rate limits, for ten seconds of fake time (issue 8)."""

from __future__ import annotations

from bot.loadbench import run


async def test_a_small_load_runs_clean() -> None:
    result = await run(12, 10, seed=3, wall=False)
    assert (result.errors, result.unanswered, result.r429, result.invalid) == (0, 0, 0, 0)
    assert result.actions > 0 and result.acks
    assert result.line().startswith("tables=12 ack_p50_ms=")
