"""No search worker outlives its pool or the bot's process (bot/tables/thinking.py, and
docs/bot.md, « Worker processes that outlived their table (stop 62) »): a pool closed or
discarded while its workers are still starting, and a bot's process killed outright."""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import subprocess
import sys
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from bot.tables import thinking

ROOT = Path(__file__).parents[2]
# Real seconds, a guard against a hang only: the waits below end when the processes do.
WAIT = 60.0


def started_by(workers: thinking.Workers) -> list[multiprocessing.process.BaseProcess]:
    """`warm` the pool's workers; those it started (each about a second from running)."""
    before = set(multiprocessing.active_children())
    workers.warm()
    started = [p for p in multiprocessing.active_children() if p not in before]
    assert len(started) == workers.count
    return started


def test_closing_the_pool_while_its_workers_start_waits_for_them() -> None:
    """`close` returns once every worker has exited (before: it returned at once, the
    workers still starting, to live on after their owner)."""
    workers = thinking.Workers(1)
    started = started_by(workers)
    workers.close()
    assert [p.exitcode for p in started] == [0]


def test_a_discarded_pool_s_workers_start_and_exit_cleanly(
    capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    """A pool discarded (its death reported) while a worker starts, then the next pool
    started: the old pool, and with it its count of queued searches, lives until its
    workers are gone. Before, the count went with the next pool and its lock with it; the
    starting worker, unpickling it, failed (FileNotFoundError, multiprocessing/synchronize.py)."""
    workers = thinking.Workers(1)
    started = started_by(workers)
    workers.discard(workers.pool(), BrokenProcessPool("a worker died"))
    assert [r.getMessage() for r in caplog.records] == [
        "a bot's worker process died: deciding in a thread"]
    caplog.clear()  # the death this test reports (conftest's no_logged_errors)
    assert workers.pool() is not None  # the next pool, with a count of its own
    gc.collect()
    workers.close()  # every pool's workers, the discarded one's too
    assert [p.exitcode for p in started] == [0]
    assert "Error" not in capfd.readouterr().err


@pytest.mark.parametrize("ready", [False, True], ids=["starting", "idle"])
def test_a_worker_exits_when_the_bot_s_process_is_killed(ready: bool) -> None:
    """SIGKILL runs no shutdown: the worker, blocked on its queue (it holds both ends of the
    pipe, so no end of file comes), lived on for ever, its parent pid 1. It now watches its
    parent and exits with it, started or still starting."""
    parent = subprocess.Popen(
        [sys.executable, "-m", "tests.bot.workers_parent", *(["ready"] if ready else [])],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    try:
        worker = int(parent.stdout.readline())
    finally:
        parent.kill()
        parent.wait()
    # The worker shares the parent's stdout (and so does the parent's resource tracker,
    # which exits once the worker has): its end of file says they are all gone.
    try:
        parent.communicate(timeout=WAIT)
    except subprocess.TimeoutExpired:
        os.kill(worker, signal.SIGKILL)  # started by this test
        parent.communicate()
        pytest.fail(f"worker {worker} outlived its killed parent by {WAIT} s")
