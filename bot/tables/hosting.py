"""Who may use the host's actions: the host, or a seated human taking the role over from a
host who is gone, so a table never locks its channel for good."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from bot.tables.logentry import LogEntry
from bot.tables.refusals import TableError
from bot.tables.table import Table

# A host silent this long may be replaced by any seated human who uses a host action.
HOST_IDLE_SECONDS = 10 * 60


def may_host(table: Table, user_id: int, now: float) -> bool:
    """Whether a host action by this user would be let through: the host's, or a seated
    human's taking the role over from a host who is gone (no longer seated, away) or
    silent for HOST_IDLE_SECONDS."""
    if table.is_host(user_id):
        return True
    return table.seat_of(user_id) is not None and replaceable(table, now)


def replaceable(table: Table, now: float) -> bool:
    """Whether a seated human may take the host role over now: the host is gone (no longer
    seated, away) or silent for HOST_IDLE_SECONDS."""
    host_gone = table.seat_of(table.host_id) is None and not table.queued(table.host_id)
    return host_gone or table.host_id in table.away or now - table.host_seen > HOST_IDLE_SECONDS


def refusal(table: Table, user_id: int, now: float) -> TableError:
    """Why a host action is refused (`may_host` said no): a seated player may take the role
    over once the host has been silent long enough, and is told when, rather than left to
    wait on a host a moderator timed out, or who went quiet. Someone without a seat, while
    the table reads « anyone seated can choose instead », is told that a seat is what they
    lack: « only the host » denied what the table had just offered them (play-test 30)."""
    if table.seat_of(user_id) is not None:
        return TableError("err.not_host_later", host=table.host_id,
                          at=int(table.host_seen + HOST_IDLE_SECONDS) + 1)
    if replaceable(table, now):
        return TableError("err.not_host_unseated", host=table.host_id)
    return TableError("err.not_host", host=table.host_id)


def claim(table: Table, user_id: int, now: float) -> None:
    """Let a host action through (`may_host`), the user taking the role over if need be."""
    if not may_host(table, user_id, now):
        raise refusal(table, user_id, now)
    table.host_handed = False  # whoever acts as host knows it
    if table.is_host(user_id):
        table.host_seen = now
        return
    seat = table.seat_of(user_id)
    assert seat is not None
    table.host_id, table.host_seen = user_id, now
    table.remember(LogEntry("ev.new_host", {"name": table.seats[seat].name}))


@contextlib.asynccontextmanager
async def host_action(table: Table) -> AsyncIterator[None]:
    """The table's lock for a host action. A seated human may take the host role over
    by using one (`claim`); if the action is then refused, the role goes back, as a
    refusal changes nothing."""
    async with table.lock:
        host, seen, log = table.host_id, table.host_seen, list(table.log)
        handed = table.host_handed
        try:
            yield
        except TableError:
            table.host_handed = handed
            if table.host_id != host:
                table.host_id, table.host_seen, table.log = host, seen, log
            raise
