"""The table runtime over the real repository (SQLite), without Discord: which tables a
process restores, the snapshot counter across restarts, and results that survive database
failures and a crash between storing a state and storing its result."""

from __future__ import annotations

import asyncio
import errno
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from bot.storage import SnapshotWriter, Storage, shard_of, upgrade_to_head
from bot.tables.clock import ManualClock
from bot.tables.logentry import LogEntry
from bot.tables.persistence import StorageStore
from bot.tables.players import Player
from bot.tables.refusals import TableError
from bot.tables.restore import restore_tables
from bot.tables.service import TableService
from bot.tables.snapshot import stored_table
from bot.tables.table import MOVES_REMEMBERED, Table
from bot.tables.tokens import HandLink
from engine import Phase, Rules

from .e2e import database_url
from .stored import stored_game
from .test_e2e_privacy import stall_rounds
from .test_service import ALICE, BOB, CAROL, play_round, settle

Sleep = Callable[[float], Awaitable[object]]


@dataclass
class Process:
    """One bot process's table runtime: a service, its writer and its store."""

    service: TableService
    writer: SnapshotWriter
    clock: ManualClock

    async def settle(self) -> None:
        """Storage work queued so far has run (no retry may be pending)."""
        await self.service.drain()
        await self.writer.flush()


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[tuple[str, Storage]]:
    url = database_url(tmp_path)
    await upgrade_to_head(url)
    storage = await Storage.open(url)
    yield url, storage
    await storage.close()


async def no_wait(seconds: float) -> None:
    await asyncio.sleep(0)


def start(storage: Storage, sleep: Sleep = no_wait, clock: ManualClock | None = None) -> Process:
    clock = clock or ManualClock()
    service = TableService(clock, bot_pause=0, seed=1)
    writer = SnapshotWriter(storage)
    service.store = StorageStore(storage, writer, sleep=sleep)
    return Process(service, writer, clock)


async def started(process: Process, guild_id: int = 1, channel_id: int = 100,
                  **knobs: Any) -> Table:
    """alice and bob against one bot: two humans, so rounds move ratings."""
    svc = process.service
    table = await svc.create(channel_id, guild_id, ALICE, "alice", "en", "classic")
    await svc.join(table, BOB, "bob", "en")
    await svc.add_bot(table, ALICE)
    if knobs:
        await svc.set_rules(table, ALICE, table.rules.replace(**knobs))
    await svc.games.start(table, ALICE)
    return table


def failing(times: int, call: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """`call` that first fails `times` times as a dropped database connection would."""
    left = [times]

    async def flaky(*args: Any, **kwargs: Any) -> Any:
        if left[0]:
            left[0] -= 1
            raise OperationalError("INSERT INTO rounds", {}, ConnectionResetError("gone"))
        return await call(*args, **kwargs)

    return flaky


async def test_a_sharded_process_restores_only_the_tables_of_its_guilds(
    db: tuple[str, Storage]
) -> None:
    _, storage = db
    first = start(storage)
    guilds = [(1000 << 22) + 7, (1001 << 22) + 7]  # shard 0, then shard 1, of 2
    assert [shard_of(g, 2) for g in guilds] == [0, 1]
    tables = [await started(first, guild, 100 + n) for n, guild in enumerate(guilds)]
    await first.settle()

    for shard, table in enumerate(tables):
        process = start(storage)
        assert await restore_tables(process.service, storage, shard_ids=[shard],
                                    shard_count=2) == 1
        assert process.service.registry.in_channel(table.channel_id) is not None
        other = tables[1 - shard]
        assert process.service.registry.in_channel(other.channel_id) is None
        await process.settle()
    # The other process's table is left alone, not closed.
    assert len(await storage.active_tables()) == 2
    everything = start(storage)
    assert await restore_tables(everything.service, storage) == 2
    await everything.settle()


async def test_a_database_away_at_start_closes_no_table(
    db: tuple[str, Storage], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A snapshot the database cannot hand over for a moment is not an unreadable one
    (play-test 15): the start fails, to be tried again, and every table stays open."""
    _, storage = db
    first = start(storage)
    await started(first, 7, 100)
    await first.settle()

    async def away(table_id: int) -> None:
        raise OperationalError("SELECT", {}, ConnectionRefusedError(errno.ECONNREFUSED, "no"))

    monkeypatch.setattr(storage, "load_snapshot", away)
    with pytest.raises(OperationalError):
        await restore_tables(start(storage).service, storage)
    assert len(await storage.active_tables()) == 1


async def test_after_a_crash_the_clocks_move_on_by_the_downtime_alone(tmp_path: Path) -> None:
    """The process dies 20 s into alice's turn at one table, its last change stored then,
    while another table changed since; the bot is back a minute later. Her turn keeps the
    10 s it had left as the process died: it stored a change 20 s after hers, so it ran
    her clock that long. Before, her clock moved on from her own table's last change, and
    each crash gave her turn its 20 s back (a whole turn, a leaver's whole grace)."""
    url = database_url(tmp_path)
    await upgrade_to_head(url)
    clock = ManualClock()
    storage = await Storage.open(url, now=lambda: datetime.fromtimestamp(clock.now(), UTC))
    first = start(storage, clock=clock)
    waiting = await started(first, 1, 100)
    await first.settle()
    deadline = waiting.timer_deadline
    assert deadline is not None and deadline - clock.now() == 30
    clock.advance(20)
    await started(first, 1, 101)
    await first.settle()  # and the process dies: no stop stores the tables again

    again = start(storage, clock=ManualClock(clock.now() + 60))
    assert await restore_tables(again.service, storage) == 2
    restored = again.service.registry.in_channel(100)
    assert restored is not None and restored.timer_deadline == deadline + 60
    await again.settle()
    await storage.close()


async def test_a_refused_click_keeps_the_table_open_across_a_crash(tmp_path: Path) -> None:
    """bob, seated, presses « Rejoindre » again, twenty minutes into a quiet lobby: the
    refusal moved when anyone was last seen in memory only. The process then stored the
    other table's change and died: restored, the lobby counted bob's twenty minutes as
    idle and closed ten minutes after the restart, not thirty. Stop 47 stored the refused
    clicks' time within a minute, so a crash in that minute still closed the table up to
    a minute early. Now a click that moves it by a minute or more is stored at once (one
    write), and those within a minute of the stored time move nothing, in memory either:
    the process dying at once, the restart keeps the idle close exactly where it was."""
    url = database_url(tmp_path)
    await upgrade_to_head(url)
    clock = ManualClock()
    storage = await Storage.open(url, now=lambda: datetime.fromtimestamp(clock.now(), UTC))
    first = start(storage, clock=clock)
    svc = first.service
    table = await svc.create(100, 1, ALICE, "alice", "en", "classic")
    await svc.join(table, BOB, "bob", "en")
    await first.settle()
    clock.advance(20 * 60)
    await settle()
    submitted = first.writer.stats.submitted
    seen = clock.now()
    for _ in range(10):
        with pytest.raises(TableError):
            await svc.join(table, BOB, "bob", "en")
        await settle()
        clock.advance(1)
    await first.settle()
    assert first.writer.stats.submitted == submitted + 1
    assert (table.human_seen, table.host_seen) == (seen, seen - 20 * 60)
    await started(first, 1, 101)  # another table's change, stored
    await first.settle()  # and the process dies: no stop stores the tables again

    again = start(storage, clock=ManualClock(clock.now() + 60))
    assert await restore_tables(again.service, storage) == 2
    restored = again.service.registry.in_channel(100)
    assert restored is not None and restored.human_seen == seen + 60
    await again.settle()
    await storage.close()


async def test_refused_clicks_move_the_last_seen_times_a_minute_at_a_time(
        tmp_path: Path) -> None:
    """A flood of refused clicks (a player pressing a dead button, each a second apart for
    three minutes) costs a write a minute, not one a click, and what the table keeps in
    memory is what storage holds after each click: a crash at any moment loses nothing."""
    url = database_url(tmp_path)
    await upgrade_to_head(url)
    clock = ManualClock()
    storage = await Storage.open(url)
    first = start(storage, clock=clock)
    svc = first.service
    table = await svc.create(100, 1, ALICE, "alice", "en", "classic")
    await svc.join(table, BOB, "bob", "en")
    await first.settle()
    joined = clock.now()
    submitted = first.writer.stats.submitted
    for _ in range(180):
        clock.advance(1)
        with pytest.raises(TableError):
            await svc.join(table, BOB, "bob", "en")
        await settle()
        await first.settle()
        snapshot = await storage.load_snapshot(table.id)
        assert snapshot is not None
        assert snapshot.state["human_seen"] == table.human_seen
    assert first.writer.stats.submitted == submitted + 3
    assert table.human_seen == joined + 180
    await storage.close()


def test_a_thread_tables_parent_channel_outlives_a_restart() -> None:
    """A restored table in a thread still ends with its parent channel; a snapshot from
    before knows no parent (the table then ends at its first refused post, as before)."""
    table = Table(id=1, channel_id=2, guild_id=3, host_id=ALICE, locale="fr",
                  rules=Rules.preset("classic"), parent_id=5)
    assert Table.from_dict(table.to_dict()).parent_id == 5
    older = table.to_dict()
    del older["parent_id"]
    assert Table.from_dict(older).parent_id is None


def test_a_bots_seat_notice_from_before_it_named_its_taker_goes_with_them() -> None:
    """« u2 prend la place de Bot 3 », saved before the notice kept u2's id, stayed on the
    restored lobby after u2 left, until its next change. Restored, it names the one seated
    person of that name, whose leaving ends it; with nobody of that name seated, it is
    dropped."""
    table = Table(id=1, channel_id=2, guild_id=3, host_id=ALICE, locale="fr",
                  rules=Rules.preset("classic"),
                  seats=[Player(ALICE, "alice"), Player(None, "Bot 1"), Player(BOB, "u2")],
                  notice=LogEntry("lobby.bot_gave_way", {"name": "u2", "bot": "Bot 3"}))
    older = table.to_dict()
    notice = older["notice"]
    assert notice is not None and "people" not in notice
    restored = Table.from_dict(older)
    assert restored.notice is not None and restored.notice.people == (BOB,)
    older["seats"] = [s for s in older["seats"] if s["user_id"] != BOB]
    assert Table.from_dict(older).notice is None
    notice["key"] = "lobby.bot_added"
    assert Table.from_dict(older).notice == LogEntry("lobby.bot_added",
                                                     {"name": "u2", "bot": "Bot 3"})


def test_which_seat_beat_a_late_click_outlives_a_restart_boundedly() -> None:
    """The moves the table remembers a late click by (`Table.moved_from`) are kept in its
    snapshot, oldest first, as many as it keeps in memory; a snapshot from before has
    none, and a late click is then told the table moved on, as before."""
    table = Table(id=1, channel_id=2, guild_id=3, host_id=ALICE, locale="fr",
                  rules=Rules.preset("classic"))
    for version in range(MOVES_REMEMBERED + 3):
        table.moved(version, version % 3, timer=version == 7)
    restored = Table.from_dict(table.to_dict())
    assert restored.moved_from == table.moved_from
    assert list(restored.moved_from) == list(range(3, MOVES_REMEMBERED + 3))
    assert restored.moved_from[7] == (1, True)
    older = table.to_dict()
    del older["moved_from"]
    assert Table.from_dict(older).moved_from == {}


async def test_the_snapshot_counter_carries_over_a_restart(db: tuple[str, Storage]) -> None:
    _, storage = db
    first = start(storage)
    table = await started(first)
    await first.settle()
    before = await storage.load_snapshot(table.id)
    assert before is not None and before.seq == table.seq > 1

    second = start(storage)
    await restore_tables(second.service, storage)
    restored = second.service.registry.in_channel(table.channel_id)
    assert restored is not None and restored.seq == before.seq + 1  # the restart's own save
    await play_round(second.service, second.clock, restored)
    await second.settle()
    after = await storage.load_snapshot(table.id)
    assert after is not None and after.seq == restored.seq > before.seq + 1
    assert restored.game is not None and after.state["game"] == restored.game.to_dict()


async def test_an_opened_hand_and_its_language_outlive_a_restart_before_any_move(
    db: tuple[str, Storage]
) -> None:
    """bob opens his hand in French and nothing else happens before the process stops: the
    restarted bot still refreshes that hand, in French."""
    _, storage = db
    first = start(storage)
    table = await started(first)
    await first.settle()
    link = HandLink(7, "bob's token", first.clock.now(), "shown", "fr")
    first.service.hands.remember(table, BOB, link)
    await first.settle()

    second = start(storage)
    await restore_tables(second.service, storage)
    restored = second.service.registry.in_channel(table.channel_id)
    assert restored is not None and restored.hands[BOB].token == "bob's token"
    bob = restored.seat_of(BOB)
    assert bob is not None and restored.seats[bob].locale == "fr"


async def test_a_hand_opened_again_outlives_a_kill_before_any_move(
    db: tuple[str, Storage]
) -> None:
    """bob presses My hand again (a message of its own) and the process dies before any
    move: the restarted bot refreshes the hand he now looks at, not the one further up. A
    click on the hand itself (the same message) waits for the next move's save."""
    _, storage = db
    first = start(storage)
    table = await started(first)
    await first.settle()
    first.service.hands.remember(table, BOB, HandLink(7, "first", first.clock.now()))
    await first.settle()
    first.service.hands.remember(table, BOB, HandLink(7, "clicked on it", first.clock.now()))
    await first.settle()
    stored = await storage.load_snapshot(table.id)
    assert stored is not None and stored_table(stored.state)["hands"][str(BOB)]["token"] == "first"

    first.service.hands.remember(table, BOB, HandLink(7, "opened again", first.clock.now()),
                                 new_message=True)
    await first.settle()  # no close: the process is killed

    second = start(storage)
    await restore_tables(second.service, storage)
    restored = second.service.registry.in_channel(table.channel_id)
    assert restored is not None and restored.hands[BOB].token == "opened again"


async def test_a_games_row_is_stored_only_after_the_snapshot_that_numbers_it(
    db: tuple[str, Storage]
) -> None:
    """Were the row first, a crash before the Start's snapshot would restore the lobby with
    the previous number, and the next game would reuse the row (its preset, its ratings)."""
    _, storage = db
    process = start(storage)
    order: list[str] = []
    flush, start_game = process.writer.flush, storage.start_game

    async def flushed(table_id: int | None = None) -> None:
        await flush(table_id)
        order.append("snapshot")

    async def started_game(*args: Any, **kwargs: Any) -> int:
        order.append("game row")
        return await start_game(*args, **kwargs)

    process.writer.flush = flushed  # type: ignore[method-assign]
    storage.start_game = started_game  # type: ignore[method-assign]
    await started(process)
    await process.settle()
    assert "game row" in order and "snapshot" in order[:order.index("game row")]


async def test_a_result_refused_by_a_flaky_database_is_retried_once_stored(
    db: tuple[str, Storage], caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    url, storage = db
    delays: list[float] = []

    async def sleep(seconds: float) -> None:
        delays.append(seconds)

    process = start(storage, sleep)
    monkeypatch.setattr(storage, "record_round", failing(2, storage.record_round))
    monkeypatch.setattr(storage, "finish_game", failing(1, storage.finish_game))
    table = await started(process, game_end="rounds:1")
    await play_round(process.service, process.clock, table)
    await process.settle()

    assert table.game is not None and table.game.phase is Phase.GAME_OVER
    assert table.game_row_id is not None
    stored = await stored_game(url, table.game_row_id)
    assert stored.round_nos == [1] and stored.ended == 1
    assert stored.points == dict(enumerate(table.game.points))
    assert stored.rated_rounds == {ALICE: 1, BOB: 1}
    assert delays == [0.5, 1.0, 0.5]  # backoff per result: round, round, then game end
    # One line as the database fails, one as it answers again: not one per attempt.
    assert f"database unavailable (ConnectionResetError: gone): table {table.id}'s round 1 " \
        "and every write after it" in caplog.text
    assert caplog.text.count("database answering again") == 2  # round 1, then game end


async def test_a_crash_between_the_state_and_its_result_records_it_at_restart(
    db: tuple[str, Storage], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, storage = db
    attempted, never = asyncio.Event(), asyncio.Event()

    async def hang(seconds: float) -> None:
        attempted.set()
        await never.wait()

    crashing = start(storage, hang)
    monkeypatch.setattr(storage, "record_round", failing(1, storage.record_round))
    table = await started(crashing, game_end="rounds:1")
    await play_round(crashing.service, crashing.clock, table)
    await asyncio.wait_for(attempted.wait(), 5)  # the round's result failed to store
    game = table.game
    assert game is not None and game.phase is Phase.GAME_OVER
    assert table.game_row_id is not None
    snapshot = await storage.load_snapshot(table.id)
    assert snapshot is not None
    kept = stored_table(snapshot.state)["game"]
    assert kept is not None and kept["phase"] == "game_over"
    assert (await stored_game(url, table.game_row_id)).round_nos == []  # the window
    for task in crashing.service.outbox.pending():  # the process dies here
        task.cancel()
    monkeypatch.undo()

    for _ in range(2):  # the second restart finds both results stored: nothing changes
        process = start(storage)
        assert await restore_tables(process.service, storage) == 1
        await process.settle()
        stored = await stored_game(url, table.game_row_id)
        assert stored.round_nos == [1] and stored.ended == 1
        assert stored.points == dict(enumerate(game.points))
        assert stored.rated_rounds == {ALICE: 1, BOB: 1}


async def test_a_round_that_sends_the_table_back_to_the_lobby_is_still_recorded(
    db: tuple[str, Storage]
) -> None:
    url, storage = db
    process = start(storage)
    svc = process.service
    table = await svc.create(100, 1, ALICE, "alice", "en", "classic")
    for user, name in ((BOB, "bob"), (CAROL, "carol")):
        await svc.join(table, user, name, "en")
    await svc.games.start(table, ALICE)
    await process.settle()
    game_id = table.game_row_id
    assert game_id is not None
    await svc.leave(table, CAROL)
    await play_round(svc, process.clock, table)
    await process.settle()
    assert table.game is None and table.game_row_id is None  # too few players: lobby
    assert (await stored_game(url, game_id)).round_nos == [1]


class StartNeverReturns:
    """The storage as seen by a process that dies while storing a game's start: everything
    works but `start_game`, which never returns."""

    def __init__(self, storage: Storage) -> None:
        self._storage = storage
        self.reached = asyncio.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._storage, name)

    async def start_game(self, *args: Any, **kwargs: Any) -> int:
        self.reached.set()
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


def dies_at_game_start(process: Process) -> StartNeverReturns:
    store = process.service.store
    assert isinstance(store, StorageStore)
    hanging = StartNeverReturns(store.storage)
    store.storage = hanging  # type: ignore[assignment]
    return hanging


async def crash(process: Process) -> None:
    """The process dies: its queued storage work and timers never run; what the snapshot
    writer committed is all that is left."""
    await process.writer.flush()
    for task in process.service.outbox.pending():
        task.cancel()
    await process.service.scheduler.close()


async def game_rows(url: str, table_id: int) -> dict[int, int]:
    """game_no → games.id for a table."""
    from sqlalchemy import select
    from sqlalchemy.ext.asyncio import create_async_engine

    from bot.storage.models import Game as GameRow

    engine = create_async_engine(url)
    try:
        async with engine.connect() as connection:
            rows = (await connection.execute(select(GameRow.game_no, GameRow.id).where(
                GameRow.table_id == table_id))).all()
    finally:
        await engine.dispose()
    # game_no is NULL only for rows stored before migration 0002; these tests store none.
    return {no: game_id for no, game_id in rows if no is not None}


async def finish_restored(storage: Storage, table: Table) -> Table:
    process = start(storage)
    assert await restore_tables(process.service, storage) == 1
    restored = process.service.registry.in_channel(table.channel_id)
    assert restored is not None and restored.game is not None
    while restored.game.phase is not Phase.GAME_OVER:
        if restored.game.phase is Phase.ROUND_OVER:
            await process.service.games.next_round(restored, ALICE)
        await play_round(process.service, process.clock, restored)
    await process.settle()
    return restored


async def test_a_crash_after_start_before_the_game_row_keeps_the_games_results(
    db: tuple[str, Storage]
) -> None:
    url, storage = db
    first = start(storage)
    hanging = dies_at_game_start(first)
    table = await started(first, game_end="rounds:2")
    await asyncio.wait_for(hanging.reached.wait(), 5)
    await crash(first)
    snapshot = await storage.load_snapshot(table.id)
    assert snapshot is not None and snapshot.state["game"] is not None
    assert snapshot.state["game_row_id"] is None and snapshot.state["game_no"] == 1

    restored = await finish_restored(storage, table)
    rows = await game_rows(url, table.id)
    assert list(rows) == [1] and restored.game_row_id == rows[1]
    stored = await stored_game(url, rows[1])
    assert stored.round_nos == [1, 2] and stored.ended == 1
    assert restored.game is not None
    assert stored.points == dict(enumerate(restored.game.points))


async def test_a_crash_after_replay_before_the_game_row_keeps_both_games_apart(
    db: tuple[str, Storage]
) -> None:
    url, storage = db
    first = start(storage)
    table = await started(first, game_end="rounds:1")
    await play_round(first.service, first.clock, table)
    await first.settle()
    assert table.game is not None and table.game.phase is Phase.GAME_OVER
    first_points = list(table.game.points)
    hanging = dies_at_game_start(first)
    await first.service.games.replay(table, ALICE)
    await asyncio.wait_for(hanging.reached.wait(), 5)
    await crash(first)
    snapshot = await storage.load_snapshot(table.id)
    assert snapshot is not None
    assert snapshot.state["game_row_id"] is None and snapshot.state["game_no"] == 2

    restored = await finish_restored(storage, table)
    rows = await game_rows(url, table.id)
    assert sorted(rows) == [1, 2] and restored.game_row_id == rows[2]
    first_game, second_game = [await stored_game(url, rows[n]) for n in (1, 2)]
    assert first_game.round_nos == [1] and first_game.points == dict(enumerate(first_points))
    assert second_game.round_nos == [1] and second_game.ended == 1
    assert restored.game is not None
    assert second_game.points == dict(enumerate(restored.game.points))


async def test_a_transient_error_on_the_first_table_update_of_a_start_loses_nothing(
    db: tuple[str, Storage], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, storage = db
    process = start(storage)
    table = await process.service.create(100, 1, ALICE, "alice", "en", "classic")
    await process.service.join(table, BOB, "bob", "en")
    await process.service.add_bot(table, ALICE)
    await process.service.set_rules(table, ALICE, table.rules.replace(game_end="rounds:1"))
    await process.settle()
    monkeypatch.setattr(storage, "update_table", failing(1, storage.update_table))
    await process.service.games.start(table, ALICE)
    await play_round(process.service, process.clock, table)
    await process.settle()
    assert table.game_row_id is not None and table.game is not None
    stored = await stored_game(url, table.game_row_id)
    assert stored.round_nos == [1] and stored.ended == 1
    assert stored.points == dict(enumerate(table.game.points))


async def test_a_round_is_retried_through_a_refused_connection_and_a_dns_blip(
    db: tuple[str, Storage], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A PostgreSQL restart behind a name that stops resolving for a moment (docker compose
    restarting `db`, a failover switching DNS): asyncpg raises ConnectionRefusedError, then
    socket.gaierror and no-route OSError, unwrapped. All are retried: the play-test found the
    round dropped for good at the DNS failure (« a result could not be saved »)."""
    url, storage = db
    process = start(storage)
    record_round = storage.record_round
    outage = [ConnectionRefusedError(errno.ECONNREFUSED, "Connect call failed"),
              socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution"),
              OSError(errno.EHOSTUNREACH, "No route to host")]

    async def during_outage(*args: Any, **kwargs: Any) -> Any:
        if outage:
            raise outage.pop(0)
        return await record_round(*args, **kwargs)

    monkeypatch.setattr(storage, "record_round", during_outage)
    table = await started(process, game_end="rounds:1")
    await play_round(process.service, process.clock, table)
    await process.settle()
    assert not outage and table.game_row_id is not None
    stored = await stored_game(url, table.game_row_id)
    assert stored.round_nos == [1] and stored.ended == 1
    assert not table.store_failed and not table.unstored


async def test_a_record_that_can_never_be_stored_does_not_block_the_tables_queue(
    db: tuple[str, Storage], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A value the database cannot hold fails the same way every time: logged with the
    table id, the table told once, and the next results stored."""
    url, storage = db
    process = start(storage)
    table = await started(process, game_end="rounds:2")
    record_round = storage.record_round

    async def refuse_round_1(game_id: int, round_no: int, **kwargs: Any) -> Any:
        if round_no == 1:
            raise OverflowError("Python int too large to convert to SQLite INTEGER")
        return await record_round(game_id, round_no, **kwargs)

    monkeypatch.setattr(storage, "record_round", refuse_round_1)
    await play_round(process.service, process.clock, table)
    await process.settle()
    assert f"storage work for table {table.id} failed" in caplog.text
    assert [e.key for e in table.log].count("table.store_failed") == 1
    await process.service.games.next_round(table, ALICE)
    await play_round(process.service, process.clock, table)
    await process.settle()
    assert table.game_row_id is not None
    stored = await stored_game(url, table.game_row_id)
    assert stored.round_nos == [2] and stored.ended == 1
    assert [e.key for e in table.log].count("table.store_failed") <= 1
    caplog.clear()  # the error above is the one this test expects


async def test_a_crash_after_replay_before_the_last_games_results_are_stored_keeps_them(
    db: tuple[str, Storage], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host replays at once; the process dies before the finished game's round and end
    were stored. The replayed game's snapshot no longer shows those results, but keeps them
    in its outbox (`Table.unstored`): the restart stores them under the first game."""
    url, storage = db
    first = start(storage)
    table = await started(first, game_end="rounds:1")
    stuck = asyncio.Event()

    async def never(*args: Any, **kwargs: Any) -> Any:
        stuck.set()
        await asyncio.Event().wait()

    monkeypatch.setattr(storage, "record_round", never)
    await play_round(first.service, first.clock, table)
    assert table.game is not None and table.game.phase is Phase.GAME_OVER
    first_points = list(table.game.points)
    await first.service.games.replay(table, ALICE)
    await asyncio.wait_for(stuck.wait(), 5)
    await crash(first)
    monkeypatch.undo()
    snapshot = await storage.load_snapshot(table.id)
    assert snapshot is not None and snapshot.state["game_no"] == 2
    assert snapshot.state["results"] == []
    assert len(stored_table(snapshot.state)["unstored"]) == 2

    process = start(storage)
    assert await restore_tables(process.service, storage) == 1
    await process.settle()
    rows = await game_rows(url, table.id)
    stored = await stored_game(url, rows[1])
    assert stored.round_nos == [1] and stored.ended == 1
    assert stored.points == dict(enumerate(first_points))
    restored = process.service.registry.in_channel(table.channel_id)
    assert restored is not None and restored.unstored == []


async def test_a_cancelled_game_not_yet_stored_as_the_process_dies_is_stored_at_restart(
    db: tuple[str, Storage], monkeypatch: pytest.MonkeyPatch
) -> None:
    """presi: round 1 stored, carol leaves mid-round 2 and her seat's wait runs out, the
    game is cancelled; the process dies before that is stored. The cancellation waits in
    the table's outbox (`results.Cancelled`, in the snapshot) and the restart stores it:
    the channel's history lists the game as cancelled (docs/bot.md « Cancelled games in the
    history (stop 56) »)."""
    url, storage = db
    first = start(storage)
    svc = first.service
    table = await svc.create(100, 1, ALICE, "alice", "en", "presi")
    for user, name in ((BOB, "bob"), (CAROL, "carol")):
        await svc.join(table, user, name, "en")
    await svc.games.start(table, ALICE)
    await play_round(svc, first.clock, table)
    await svc.games.next_round(table, ALICE)
    await first.settle()
    stuck = asyncio.Event()

    async def never(*args: Any, **kwargs: Any) -> Any:
        stuck.set()
        await asyncio.Event().wait()

    monkeypatch.setattr(storage, "cancel_game", never)
    await svc.leave(table, CAROL)
    assert CAROL in table.away
    first.clock.advance(table.rules.leave_grace_seconds + 1)
    await asyncio.wait_for(stuck.wait(), 5)
    assert table.game is None
    await crash(first)
    monkeypatch.undo()
    snapshot = await storage.load_snapshot(table.id)
    assert snapshot is not None
    assert [p["result"] for p in stored_table(snapshot.state)["unstored"]] == [
        {"kind": "game_cancelled"}]
    assert await storage.game_history(channel_id=100) == []

    process = start(storage)
    assert await restore_tables(process.service, storage) == 1
    await process.settle()
    [listed] = await storage.game_history(channel_id=100)
    assert (listed.cancelled, listed.rounds, listed.winners) == (True, 1, ())
    restored = process.service.registry.in_channel(table.channel_id)
    assert restored is not None and restored.unstored == []


async def test_a_result_stored_after_the_writer_closed_saves_no_snapshot(
    db: tuple[str, Storage], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stop whose wait for storage work timed out (`PresidentBot._stop`: a loop late by
    seconds under load, docs/deploy.md « 100 tables with the searching normal ») closes the
    writer while a result is still being stored. Once stored, the outbox saves the table
    again (`touch`): after the close that raised « snapshot writer is closed », was logged
    as a failed storage work, and raised again from the failure's own save. The final
    snapshot the stop took still lists the result as owed; the restart records it again."""
    url, storage = db
    process = start(storage)
    table = await started(process, game_end="rounds:2")
    held = stall_rounds(storage, monkeypatch)
    await play_round(process.service, process.clock, table)
    assert table.unstored
    await process.writer.close()
    held.set()
    failures = [asyncio.ensure_future(t) for t in process.service.outbox.pending()]
    await asyncio.gather(*failures, return_exceptions=True)
    assert [f.exception() for f in failures] == [None] * len(failures)
    assert not table.store_failed and not table.unstored
    assert table.game_row_id is not None
    assert (await stored_game(url, table.game_row_id)).round_nos == [1]
