"""The edits archived threads owe their tables' messages stay bounded and erasable: one per
message, a week at most, nothing left naming an erased player (`bot.tables.asleep`)."""

from __future__ import annotations

import asyncio
from collections.abc import Collection

from bot.tables.asleep import KEEP_SECONDS, AsleepThreads, OwedEdit
from bot.tables.clock import ManualClock


async def test_a_message_is_owed_its_latest_edit_once() -> None:
    owed = AsleepThreads(ManualClock())
    await owed.owe(1, 30, 301, OwedEdit("live"))
    await owed.owe(1, 30, 301, OwedEdit("retired"))
    await owed.owe(1, 30, 302, OwedEdit(None))
    await owed.owe(2, 40, 401, OwedEdit("closed"))
    assert owed.guilds() == {1, 2} and owed.channels(1) == [30]
    assert await owed.take(30) == {301: OwedEdit("retired"), 302: OwedEdit(None)}
    assert not owed.owes(30) and await owed.take(30) == {} and owed.owes(40)


async def test_a_thread_asleep_for_over_a_week_is_let_go() -> None:
    clock = ManualClock()
    owed = AsleepThreads(clock)
    await owed.owe(1, 30, 301, OwedEdit("closed"))
    clock.advance(KEEP_SECONDS + 1)
    await owed.owe(1, 40, 401, OwedEdit("closed"))
    assert not owed.owes(30) and owed.owes(40)


async def test_an_erasure_takes_the_texts_that_may_name_the_player() -> None:
    owed = AsleepThreads(ManualClock())
    await owed.owe(1, 30, 301, OwedEdit("alice, bob", frozenset({7, 8})))
    await owed.owe(1, 30, 302, OwedEdit("bob", frozenset({8})))
    await owed.owe(2, 40, 401, OwedEdit("alice", frozenset({7})))
    owed.forget(7)
    owed.forget_guild(2)
    assert await owed.take(30) == {301: OwedEdit(None), 302: OwedEdit("bob", frozenset({8}))}
    assert not owed.owes(40)


class _Rows:
    """Storage's owed edits as another process of a sharded deployment shares them."""

    def __init__(self) -> None:
        self.texts: dict[int, str | None] = {}
        self.fails = False
        self.reading: asyncio.Event | None = None  # set: the read waits for it

    async def owe_edit(self, guild_id: int, channel_id: int, message_id: int,
                       edit: OwedEdit, at: float) -> None:
        self.texts[message_id] = edit.text

    async def paid_edits(self, message_ids: Collection[int]) -> None:
        for message_id in message_ids:
            self.texts.pop(message_id, None)

    async def named_edits(self, message_ids: Collection[int]) -> set[int]:
        if self.fails:
            raise ConnectionError("the database is away")
        named = {m for m in message_ids if self.texts.get(m) is not None}
        if self.reading is not None:
            await self.reading.wait()
        return named


async def test_a_text_erased_by_another_process_is_not_sent() -> None:
    """/president forget ran on another shard's process: it cleared the stored texts that
    name the user, not this process's copy. Waking, the thread sends only what storage
    still holds; a message whose row went (its server erased) only loses its buttons, and
    so does every text while storage cannot say."""
    rows = _Rows()
    owed = AsleepThreads(ManualClock())
    owed.store = rows
    await owed.owe(1, 30, 301, OwedEdit("alice, bob", frozenset({7, 8})))
    await owed.owe(1, 30, 302, OwedEdit("bob", frozenset({8})))
    await owed.owe(1, 30, 303, OwedEdit("carol", frozenset({9})))
    await owed.owe(1, 30, 304, OwedEdit(None))
    rows.texts[301] = None  # the other process's erasure of 7
    del rows.texts[303]  # the server's erasure
    assert await owed.take(30) == {301: OwedEdit(None), 302: OwedEdit("bob", frozenset({8})),
                                   303: OwedEdit(None), 304: OwedEdit(None)}
    await owed.owe(1, 40, 401, OwedEdit("dave", frozenset({10})))
    rows.fails = True
    assert await owed.take(40) == {401: OwedEdit(None)}


async def test_an_erasure_while_the_thread_wakes_takes_the_text_all_the_same() -> None:
    """The read saw the row before the erasure's commit; the erasure in this process then
    unnamed the copy here, which is what goes. An edit owed meanwhile is the newest word."""
    rows = _Rows()
    rows.reading = asyncio.Event()
    owed = AsleepThreads(ManualClock())
    owed.store = rows
    await owed.owe(1, 30, 301, OwedEdit("alice", frozenset({7})))
    await owed.owe(1, 30, 302, OwedEdit("bob, old", frozenset({8})))
    taking = asyncio.create_task(owed.take(30))
    await asyncio.sleep(0)  # the read is under way
    owed.forget(7)
    owed._owed[30].edits[302] = OwedEdit("bob, new", frozenset({8}))  # owed as it reads
    rows.texts.pop(302)  # ... its row written after the read
    rows.reading.set()
    assert await taking == {301: OwedEdit(None), 302: OwedEdit("bob, new", frozenset({8}))}
    assert not owed.owes(30)
