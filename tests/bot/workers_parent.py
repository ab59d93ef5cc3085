"""A bot's process reduced to its pool of search workers, for tests/bot/test_worker_lifetimes.py.

It starts one worker (bot/tables/thinking.py), writes the worker's pid on stdout, and waits
to be killed with SIGKILL, as a host kills a bot (the OOM killer, a container stopped): no
shutdown runs, and the worker must notice alone that its parent is gone. With ``ready`` the
worker has answered once (idle, waiting for work); without, it is still starting.
"""

from __future__ import annotations

import multiprocessing
import os
import sys

from bot.tables.thinking import Workers


def main(ready: bool) -> None:
    workers = Workers(1)
    if ready:
        pid = workers.pool().submit(os.getpid).result(timeout=120)
    else:
        workers.warm()
        [worker] = multiprocessing.active_children()
        assert worker.pid is not None
        pid = worker.pid
    print(pid, flush=True)
    sys.stdin.read()  # until the test kills this process


if __name__ == "__main__":
    main(sys.argv[1:] == ["ready"])
