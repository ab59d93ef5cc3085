"""The edits archived threads owe their tables' messages stay bounded and erasable: one per
message, a week at most, nothing left naming an erased player (`bot.tables.asleep`)."""

from __future__ import annotations

from bot.tables.asleep import KEEP_SECONDS, AsleepThreads, OwedEdit
from bot.tables.clock import ManualClock


async def test_a_message_is_owed_its_latest_edit_once() -> None:
    owed = AsleepThreads(ManualClock())
    await owed.owe(1, 30, 301, OwedEdit("live"))
    await owed.owe(1, 30, 301, OwedEdit("retired"))
    await owed.owe(1, 30, 302, OwedEdit(None))
    await owed.owe(2, 40, 401, OwedEdit("closed"))
    assert owed.guilds() == {1, 2} and owed.channels(1) == [30]
    assert owed.take(30) == {301: OwedEdit("retired"), 302: OwedEdit(None)}
    assert not owed.owes(30) and owed.take(30) == {} and owed.owes(40)


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
    assert owed.take(30) == {301: OwedEdit(None), 302: OwedEdit("bob", frozenset({8}))}
    assert not owed.owes(40)
