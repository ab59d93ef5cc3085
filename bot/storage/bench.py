"""Cost of persisting one table action, on SQLite and PostgreSQL.

    python -m bot.storage.bench [--actions N] [--tables N] [--interval S]
                                [--postgres URL | --no-postgres]

Three figures per backend, all with a realistic ~5 KB snapshot (five seats mid-round):
- awaited: `await storage.save_snapshot(...)` one action after another (what a runtime that
  waits for durability before the next action would pay per click);
- concurrent: the same with `--tables` tables acting at once (contention, pool);
- writer: `SnapshotWriter.submit` (what the runtime actually waits for) and the lag from
  submit until that state, or a newer one, is committed, with every table acting about every
  `--interval` seconds at its own pace (default 0.05: ~320 actions/s over 16 tables, several
  times what a busy server sees).
PostgreSQL runs in a temporary database created on the server and dropped afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import secrets
import statistics
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import make_url

from bot.storage import jsoncodec
from bot.storage.db import create_engine, normalize_url, upgrade_to_head
from bot.storage.repository import Storage
from bot.storage.writer import SnapshotWriter

DEFAULT_POSTGRES = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
DECK = [rank + suit for suit in "SHDC" for rank in RANKS]


def table_state(seq: int, rng: random.Random) -> dict[str, Any]:
    """A table runtime as the bot would snapshot it: engine state, seats, messages, tokens."""
    cards = DECK[:]
    rng.shuffle(cards)
    hands = [sorted(cards[seat::5], key=lambda card: RANKS.index(card[:-1])) for seat in range(5)]
    now = datetime.now(UTC)
    return {
        "version": 1,
        "seq": seq,
        "engine": {
            "rules": {"preset": "classic", "set": {"revolution": True, "fast": False}},
            "seats": 5,
            "seed": 7,
            "round_no": 3,
            "phase": "play",
            "version": seq,
            "to_act": seq % 5,
            "hands": hands,
            "trick": [{"seat": s, "cards": [hands[s][0]], "announce": None} for s in range(3)],
            "passed": [False, True, False, False, False],
            "out": [],
            "revolution": False,
            "points": [7, 5, 3, 1, 0],
            "roles": ["P", "VP", "N", "VL", "L"],
            "ranking": [0, 1, 2, 3, 4],
            "timeouts": [0, 0, 1, 0, 0],
            "autopilot": [False] * 5,
            "log": [
                {
                    "kind": "played",
                    "seat": s % 5,
                    "cards": [cards[s], cards[s + 1]],
                    "announce": None,
                    "version": seq - 40 + s,
                }
                for s in range(40)
            ],
            "history": [
                {"round": r, "ranking": [0, 1, 2, 3, 4], "points": [3, 2, 1, 0, 0]} for r in (1, 2)
            ],
        },
        "seats": [
            {"user_id": 300_000_000_000_000_000 + s, "name": f"Joueur numéro {s}", "bot": False}
            for s in range(5)
        ],
        "channel_id": 1_100_000_000_000_000_001,
        "table_message_id": 1_100_000_000_000_000_002,
        "hand_messages": {str(s): 1_100_000_000_000_000_100 + s for s in range(5)},
        "hand_tokens": {
            str(s): {"token": secrets.token_urlsafe(16), "created": now - timedelta(seconds=s)}
            for s in range(5)
        },
        "timer": {"kind": "turn", "seat": seq % 5, "serial": seq, "deadline": now},
    }


def percentiles(samples: Sequence[float]) -> str:
    ordered = sorted(samples)
    cut = statistics.quantiles(ordered, n=100, method="inclusive")
    return (
        f"p50 {cut[49] * 1000:7.3f} ms  p99 {cut[98] * 1000:7.3f} ms  "
        f"max {ordered[-1] * 1000:7.3f} ms  (n={len(ordered)})"
    )


class TimedSink:
    """Records when each table's snapshots commit, to measure the writer's lag."""

    def __init__(self, storage: Storage) -> None:
        self._storage = storage
        self.commits: dict[int, list[tuple[int, float]]] = {}

    async def save_snapshots_json(self, rows: Sequence[tuple[int, int, str]]) -> int:
        written = await self._storage.save_snapshots_json(rows)
        committed = time.perf_counter()
        for table_id, seq, _ in rows:
            self.commits.setdefault(table_id, []).append((seq, committed))
        return written

    async def delete_snapshot(self, table_id: int) -> None:
        await self._storage.delete_snapshot(table_id)


async def bench_backend(url: str, actions: int, tables: int, interval: float) -> None:
    await upgrade_to_head(url)
    storage = await Storage.open(url, pool_size=tables, max_overflow=0)
    rng = random.Random(1)
    states = [table_state(seq, rng) for seq in range(1, 65)]
    try:
        ids = [
            await storage.create_table(1 << 22, 10_000 + n, 1, {"preset": "classic", "set": {}})
            for n in range(tables)
        ]
        # Warm up the pool and the statement caches.
        for seq in range(1, 21):
            await storage.save_snapshot(ids[0], seq, states[seq % len(states)])

        awaited = []
        for seq in range(21, 21 + actions):
            start = time.perf_counter()
            await storage.save_snapshot(ids[0], seq, states[seq % len(states)])
            awaited.append(time.perf_counter() - start)
        print(f"  awaited, 1 table     {percentiles(awaited)}")

        concurrent: list[float] = []

        async def play(table_id: int, count: int) -> None:
            for seq in range(1_000_000, 1_000_000 + count):
                start = time.perf_counter()
                await storage.save_snapshot(table_id, seq, states[seq % len(states)])
                concurrent.append(time.perf_counter() - start)

        began = time.perf_counter()
        await asyncio.gather(*(play(table_id, actions // tables) for table_id in ids))
        elapsed = time.perf_counter() - began
        print(
            f"  awaited, {tables} tables   {percentiles(concurrent)}  "
            f"{len(concurrent) / elapsed:.0f} writes/s"
        )

        sink = TimedSink(storage)
        writer = SnapshotWriter(sink)
        submits: list[float] = []
        submitted: dict[int, list[tuple[int, float]]] = {table_id: [] for table_id in ids}

        async def act(table_id: int, count: int) -> None:
            # Tables do not act in lockstep: random start and pace, like players.
            pace = random.Random(table_id)
            await asyncio.sleep(pace.uniform(0, interval))
            for seq in range(2_000_000, 2_000_000 + count):
                state = states[seq % len(states)]
                start = time.perf_counter()
                writer.submit(table_id, seq, state)
                done = time.perf_counter()
                submits.append(done - start)
                submitted[table_id].append((seq, done))
                await asyncio.sleep(pace.uniform(0.5, 1.5) * interval)

        await asyncio.gather(*(act(table_id, actions // tables) for table_id in ids))
        await writer.flush()
        lags = []
        for table_id, entries in submitted.items():
            commits = sink.commits[table_id]
            for seq, at in entries:
                lags.append(next(when for done, when in commits if done >= seq) - at)
        print(f"  writer submit        {percentiles(submits)}")
        print(
            f"  writer lag to disk   {percentiles(lags)}  "
            f"coalesced {writer.stats.coalesced}/{writer.stats.submitted}"
        )
    finally:
        await storage.close()


async def temporary_postgres(server: str) -> tuple[str, str] | None:
    """Create a scratch database; None (with a message) when no server answers."""
    name = f"president_bench_{secrets.token_hex(4)}"
    engine = create_engine(server, pool_size=1, max_overflow=0)
    try:
        async with engine.connect() as connection:
            autocommit = await connection.execution_options(isolation_level="AUTOCOMMIT")
            await autocommit.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as error:  # whatever the cause, there is no server to bench on
        print(f"PostgreSQL skipped: {server} did not answer ({error.__class__.__name__}: {error})")
        return None
    finally:
        await engine.dispose()
    url = make_url(normalize_url(server)).set(database=name)
    return url.render_as_string(hide_password=False), name


async def drop_postgres(server: str, name: str) -> None:
    engine = create_engine(server, pool_size=1, max_overflow=0)
    try:
        async with engine.connect() as connection:
            autocommit = await connection.execution_options(isolation_level="AUTOCOMMIT")
            await autocommit.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        await engine.dispose()


async def main(arguments: argparse.Namespace) -> None:
    size = len(jsoncodec.dumps(table_state(1, random.Random(1))).encode())
    print(f"snapshot size: {size} bytes of JSON; {arguments.actions} actions per figure")
    with tempfile.TemporaryDirectory() as directory:
        url = f"sqlite+aiosqlite:///{Path(directory) / 'bench.db'}"
        print("SQLite (WAL, synchronous=NORMAL)")
        await bench_backend(url, arguments.actions, arguments.tables, arguments.interval)
    if arguments.postgres is None:
        return
    created = await temporary_postgres(arguments.postgres)
    if created is None:
        return
    url, name = created
    try:
        print(f"PostgreSQL ({make_url(url).host}, pool_pre_ping on)")
        await bench_backend(url, arguments.actions, arguments.tables, arguments.interval)
    finally:
        await drop_postgres(arguments.postgres, name)


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--tables", type=int, default=16)
    parser.add_argument("--interval", type=float, default=0.05, help="seconds between actions")
    parser.add_argument("--postgres", default=DEFAULT_POSTGRES, help="server to bench on")
    parser.add_argument("--no-postgres", dest="postgres", action="store_const", const=None)
    return parser.parse_args(argv)


if __name__ == "__main__":
    asyncio.run(main(parse()))
