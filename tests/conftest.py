"""Checks over the whole test session."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests import processes

# Real seconds, for processes on their way out at the session's end (a search worker
# noticing its parent's death once it has started: seconds on a loaded machine). The wait
# ends as soon as they have exited; only a process that never would waits it out.
LEFT_BEHIND_WAIT = 60.0


@pytest.fixture(scope="session", autouse=True)
def no_process_left_behind() -> Iterator[None]:
    """The session fails if it leaves a process running: one of its bots' search workers
    whose pool was never closed, or whose bot process a test killed (tests/processes.py).
    Those left are killed, and listed. Skipped where there is no /proc or pidfd (not Linux)."""
    if not processes.supported():
        yield
        return
    marker = str(os.getpid())
    os.environ[processes.MARKER] = marker  # inherited by every process started from here on
    yield
    left = processes.end_left_behind(marker, LEFT_BEHIND_WAIT)
    assert not left, ("the test session left these processes running (killed now): "
                      + "; ".join(f"{pid}: {command}" for pid, command in left.items()))
