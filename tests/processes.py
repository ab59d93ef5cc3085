"""The processes a test session leaves behind (tests/conftest.py, `no_process_left_behind`).

Every process the session starts, and every one those start, inherits a marker in its
environment (`MARKER`); a process reparented to pid 1 when its parent died keeps it. So the
session finds at its end, in /proc (Linux), what it started and is still running, orphans
included, which its own children (`multiprocessing.active_children`) would miss: the search
workers of a bot process a test killed (docs/bot.md, « Worker processes that outlived their
table (stop 62) »). It waits for them on pidfds, which tell a process's exit without polling.
"""

from __future__ import annotations

import os
import select
import signal
import time
from pathlib import Path

MARKER = "PRESIDENT_TEST_SESSION"
PROC = Path("/proc")


def supported() -> bool:
    """Where the check can run: /proc to find the processes, pidfds to wait for them."""
    return PROC.is_dir() and hasattr(os, "pidfd_open") and hasattr(signal, "pidfd_send_signal")


def running_with(marker: str) -> dict[int, str]:
    """The processes now running with ``MARKER=marker`` in their environment, but this
    one and its resource tracker (multiprocessing's, which lives as long as it does): their
    command lines, by pid. Another user's processes, and zombies, show no environment."""
    wanted = f"{MARKER}={marker}".encode()
    found: dict[int, str] = {}
    for entry in PROC.iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            environ = (entry / "environ").read_bytes().split(b"\0")
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):  # gone meanwhile, or not readable
            continue
        if wanted not in environ:
            continue
        if parent == os.getpid() and "multiprocessing.resource_tracker" in command:
            continue
        found[int(entry.name)] = command
    return found


def end_left_behind(marker: str, timeout: float) -> dict[int, str]:
    """Waits up to ``timeout`` seconds for the processes running with ``marker`` to exit (a
    worker whose parent was just killed is still on its way out), then kills those still
    running, with SIGKILL through their pidfds (no pid reused meanwhile is hit): whoever
    set the marker started them. Returns those it killed: their command lines, by pid."""
    found = running_with(marker)
    pidfds: dict[int, int] = {}
    try:
        for pid in found:
            try:
                pidfds[os.pidfd_open(pid)] = pid
            except ProcessLookupError:
                continue
        deadline = time.monotonic() + timeout
        waiting = set(pidfds)
        while waiting:
            ended, _, _ = select.select(sorted(waiting), [], [],
                                        max(0.0, deadline - time.monotonic()))
            if not ended:
                break
            waiting.difference_update(ended)
        for pidfd in waiting:
            signal.pidfd_send_signal(pidfd, signal.SIGKILL)
        return {pidfds[pidfd]: found[pidfds[pidfd]] for pidfd in sorted(waiting)}
    finally:
        for pidfd in pidfds:
            os.close(pidfd)
