"""The session's check for processes left behind (tests/processes.py)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests import processes

pytestmark = pytest.mark.skipif(not processes.supported(), reason="needs /proc and pidfds")

# Until its stdin closes.
WAITS = [sys.executable, "-c", "import sys; sys.stdin.read()"]


def test_a_process_on_its_way_out_is_waited_for_and_one_that_stays_is_killed() -> None:
    marker = f"test-{os.getpid()}"
    env = {**os.environ, processes.MARKER: marker}
    ending = subprocess.Popen(WAITS, stdin=subprocess.PIPE, env=env)
    stays = None
    try:
        assert list(processes.running_with(marker)) == [ending.pid]
        assert ending.stdin is not None
        ending.stdin.close()  # it exits: the wait returns as soon as it has
        assert processes.end_left_behind(marker, timeout=60) == {}
        assert ending.wait(timeout=60) == 0
        stays = subprocess.Popen(WAITS, stdin=subprocess.PIPE, env=env)
        left = processes.end_left_behind(marker, timeout=0)
        assert list(left) == [stays.pid] and "sys.stdin.read()" in left[stays.pid]
        assert stays.wait(timeout=60) == -9  # killed
    finally:
        for process in (ending, stays):
            if process is not None:
                process.kill()
                process.wait()
