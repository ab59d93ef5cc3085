"""Where a turn-based bot move's time goes: ``python -m bot.turnbench``.

    python -m bot.turnbench [--preset proletario] [--rounds 2] [--pause 1.5]

Plays ``--rounds`` rounds at one table through the real `TableService` (one human who never
answers, so the turn timer and then the autopilot play for them; bots fill the other seats)
on a manual clock: the waiting is counted, never slept. Every change goes through a display
that renders the table message and the human's hand as the publisher would, and a store that
serialises the snapshot as the storage writer would (without a database: its cost is
``python -m bot.storage.bench``). Prints, per bot move, the scheduled pause and the CPU time
of each part on this machine: the bot's decision and the engine, the snapshot, the renders.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections import defaultdict
from typing import Any, cast

from bot.packages.game.hand import hand_screen
from bot.packages.game.table_message import retired_text, table_screen
from bot.storage import jsoncodec
from bot.tables.clock import ManualClock
from bot.tables.outbox import TableStore
from bot.tables.service import TableService
from bot.tables.table import Table
from engine import Phase

HUMAN = 1
MOVE = "bot move (decision, engine, snapshot, timers)"
TABLE = "render table message"
HANDS = "render hands"


class Timings:
    """CPU seconds spent per part, and how often each ran."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)

    def add(self, part: str, started: float) -> None:
        self.seconds[part] += time.process_time() - started
        self.calls[part] += 1


class RenderingDisplay:
    """Renders what the publisher would send, without sending it."""

    def __init__(self, service: TableService, timings: Timings) -> None:
        self.service = service
        self.timings = timings

    async def flush(self, table: Table) -> None:
        if table.game is not None:
            started = time.process_time()
            table_screen(table, self.service.clock.now())
            self.timings.add(TABLE, started)

    async def flush_hands(self, table: Table) -> None:
        started = time.process_time()
        for player in table.humans():
            if player.user_id is not None:
                hand_screen(table, player.user_id, player.locale, now=self.service.clock.now())
        self.timings.add(HANDS, started)

    async def closed(self, table: Table) -> None:
        return None

    def turn(self, table: Table) -> None:
        return None  # the hands' drawing is timed in `flush_hands`

    def keep(self, table: Table) -> None:
        started = time.process_time()
        table.keep_retired(retired_text(table, self.service.clock.now()))
        self.timings.add(TABLE, started)


class EncodingStore:
    """Serialises every snapshot as the storage writer does; stores nothing."""

    def __init__(self, timings: Timings) -> None:
        self.timings = timings

    def snapshot(self, table: Table) -> None:
        started = time.process_time()
        jsoncodec.dumps(table.to_dict())
        self.timings.add("snapshot to_dict + JSON", started)

    @property
    def stopped(self) -> bool:
        return False

    async def open_table(self, table: Table) -> int:
        return 1

    def __getattr__(self, name: str) -> Any:
        async def nothing(*args: object, **kwargs: object) -> None:
            return None

        return nothing


async def run(preset: str, rounds: int, pause: float) -> None:
    clock = ManualClock()
    service = TableService(clock, bot_pause=pause, seed=1)
    timings = Timings()
    service.display = RenderingDisplay(service, timings)
    service.store = cast(TableStore, EncodingStore(timings))
    table = await service.create(100, 1, HUMAN, "human", "en", preset)
    while len(table.seats) < table.rules.min_players:
        await service.add_bot(table, HUMAN)
    await service.games.start(table, HUMAN)
    game = table.game
    assert game is not None
    move = service.bots.move  # measured around the service's own bot step

    async def timed_move(target: Table) -> None:
        started = time.process_time()
        await move(target)
        timings.add(MOVE, started)

    setattr(service.bots, "move", timed_move)  # noqa: B010  (the scheduler looks it up per move)
    started_at, played = clock.now(), 0
    while played < rounds:
        deadlines = [d for key in service.scheduler.pending()
                     if (d := service.scheduler.deadline(key)) is not None]
        clock.advance(max(0.0, min(deadlines) - clock.now()) if deadlines else 1.0)
        for _ in range(50):
            await asyncio.sleep(0)
        if game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
            played += 1
            if game.phase is Phase.GAME_OVER or played == rounds:
                break
            await service.games.next_round(table, HUMAN)
    moves = timings.calls[MOVE]
    waited = clock.now() - started_at
    print(f"{preset}, {len(table.seats)} seats, {played} round(s): {moves} bot moves, "
          f"{waited:.0f} s of game time (pauses and the human's timeouts), "
          f"BOT_PAUSE_SECONDS={pause}")
    print(f"{'part':45} {'calls':>6} {'ms/call':>8} {'ms per bot move':>16}")
    for part, seconds in sorted(timings.seconds.items(), key=lambda kv: -kv[1]):
        calls = timings.calls[part]
        print(f"{part:45} {calls:6} {1000 * seconds / calls:8.2f} "
              f"{1000 * seconds / max(moves, 1):16.2f}")
    # A bot move stores its snapshot inside its step: count the renders on top of it.
    cpu = sum(timings.seconds[part] for part in (MOVE, TABLE, HANDS))
    print(f"CPU per bot move, snapshot and renders included: {1000 * cpu / max(moves, 1):.1f}"
          f" ms; the pause per move: {1000 * pause:.0f} ms")
    await service.scheduler.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="proletario")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--pause", type=float, default=1.5)
    args = parser.parse_args()
    asyncio.run(run(args.preset, args.rounds, args.pause))


if __name__ == "__main__":
    main()
