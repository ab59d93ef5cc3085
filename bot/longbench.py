"""What a long evening costs each action: the snapshot of one table as its game grows.

    python -m bot.longbench [--rounds 1,10,40,100,200] [--repeat 200]

A real `Table` (marie, bob and two bots at presi, no end) plays its rounds with the engine's
random players, every event noted into its history as the bot notes it, every round's
totals kept for the chart (`Table.note_totals`). At each count of rounds it prints the
snapshot's size, the event loop's time per action to build and encode it
(`Table.to_dict` + `jsoncodec.dumps`, what `Persistence.snapshot` and
`SnapshotWriter.submit` pay after every click; CPU time, median of ``--repeat``) and an
awaited SQLite write of it (`Storage.save_snapshot`, median of 50; the writer coalesces
these off the loop). docs/bot.md, « Play-test 31 »."""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bot.storage import jsoncodec
from bot.storage.db import upgrade_to_head
from bot.storage.repository import Storage
from bot.tables.log import note
from bot.tables.players import Player
from bot.tables.table import Table
from engine import Game, Phase, RandomPlayer, Rules
from engine.events import RoundOver


def evening_table() -> Table:
    """marie (host) and bob, two bots, at an unlimited presi game just dealt."""
    rules = Rules.preset("presi").replace(game_end="unlimited")
    table = Table(id=1, channel_id=2, guild_id=3, host_id=10, locale="fr", rules=rules)
    table.seats = [Player(10, "marie", "fr", 1), Player(11, "bob", "fr", 2),
                   Player(None, "Bot 1", "fr", 3), Player(None, "Bot 2", "fr", 4)]
    table.game = Game.new(rules, seats=4, seed=31, bots=[2, 3])
    return table


def play_round(table: Table, players: list[RandomPlayer]) -> None:
    """One round to its end, each event noted as the service notes it, then the next dealt."""
    game = table.game
    assert game is not None
    events = []
    while game.phase is not Phase.ROUND_OVER:
        if game.phase is Phase.EXCHANGE:
            seat = next(s for s in range(game.seats)
                        if (due := game.exchange_due(s)) is not None and due.ready)
            events = game.apply(seat, players[seat].choose(game, seat))
        else:
            seat = game.to_act if game.to_act is not None else game.players[0]
            option = players[seat].pick(game, seat)
            events = (game.pass_turn(seat) if option is None
                      else game.play_option(seat, option))
        for event in events:
            note(table, event)
            if isinstance(event, RoundOver):
                table.note_totals(event)
        table.seq += 1


def encode_time(table: Table, repeat: int) -> float:
    """Median CPU seconds to build and encode the table's snapshot."""
    samples = []
    for _ in range(repeat):
        start = time.process_time()
        jsoncodec.dumps(table.to_dict())
        samples.append(time.process_time() - start)
    return statistics.median(samples)


async def write_time(storage: Storage, table_id: int, table: Table, seq: int) -> float:
    """Median wall seconds of an awaited SQLite write of the snapshot."""
    state = table.to_dict()
    samples = []
    for n in range(50):
        start = time.perf_counter()
        await storage.save_snapshot(table_id, seq + n, state)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


async def run(counts: list[int], repeat: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite+aiosqlite:///{Path(folder) / 'bench.db'}"
        await upgrade_to_head(url)
        storage = await Storage.open(url)
        try:
            table_id = await storage.create_table(3, 2, 10, {"preset": "presi", "set": {}})
            table = evening_table()
            players = [RandomPlayer(31 + s) for s in range(4)]
            print(f"{'rounds':>7}{'bytes':>9}{'chart rows':>12}{'encode µs':>11}"
                  f"{'SQLite write ms':>17}")
            played, seq = 0, 0
            for count in counts:
                while played < count:
                    if played:  # as `Games.next_round` deals it
                        assert table.game is not None
                        table.log.clear()
                        table.exchange_notes.clear()
                        table.game.next_round()
                    play_round(table, players)
                    played += 1
                size = len(jsoncodec.dumps(table.to_dict()))
                encode = encode_time(table, repeat)
                seq += 100
                write = await write_time(storage, table_id, table, seq)
                print(f"{played:>7}{size:>9,}{len(table.round_totals):>12}"
                      f"{encode * 1e6:>11,.0f}{write * 1000:>17.2f}")
        finally:
            await storage.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", default="1,10,40,100,200",
                        help="the counts of rounds to measure at, comma-separated")
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    counts = sorted({int(c) for c in args.rounds.split(",")})
    if not counts or counts[0] < 1 or args.repeat < 1:
        parser.error("rounds and --repeat must be at least 1")
    asyncio.run(run(counts, args.repeat))


if __name__ == "__main__":
    main()
