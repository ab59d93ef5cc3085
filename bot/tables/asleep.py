"""Edits an archived thread refused, owed to its messages once it wakes.

Discord refuses to edit a message in an archived thread ("Users cannot edit messages, add
reactions, use application commands, or join archived threads", Threads, Active & Archived
Threads, https://discord.com/developers/docs/topics/threads#active-archived-threads). A table there
goes on in a fresh message, whose post wakes the thread, and the message it left is owed
the edit that retires it; a table that closed there, or whose thread a moderator closed,
posts nothing more, and its messages are owed the edits that close them. Each is sent once
the thread is active again (`OwedEdits.wake`). Kept per thread in memory and, with storage,
in the database (`asleep_edits`): a restart while the thread slept left those messages with
a turn long past and live buttons. A week at most, as a deleted channel's word
(`bot.tables.vanished`): a thread nobody wakes in a week is one nobody reads, and a thread
deleted meanwhile has nothing left to edit.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection, Iterable
from dataclasses import dataclass, field, replace
from typing import Protocol

from bot.storage.records import AsleepEditRecord
from bot.tables.clock import Clock

log = logging.getLogger(__name__)

KEEP_SECONDS = 7 * 24 * 3600.0


@dataclass(frozen=True)
class OwedEdit:
    """What a message is to show once its thread wakes: ``text``, without controls (None:
    it only loses them), which may name ``people`` (by id): their erasure takes it."""

    text: str | None
    people: frozenset[int] = frozenset()


@dataclass
class Sleeping:
    """One archived thread's owed edits, per message, since the first was refused."""

    guild_id: int
    at: float
    edits: dict[int, OwedEdit] = field(default_factory=dict)


class AsleepStore(Protocol):
    """Where owed edits outlive the process (see `bot.tables.persistence`)."""

    async def owe_edit(self, guild_id: int, channel_id: int, message_id: int,
                       edit: OwedEdit, at: float) -> None: ...

    async def paid_edits(self, message_ids: Collection[int]) -> None: ...

    async def named_edits(self, message_ids: Collection[int]) -> set[int]: ...


class AsleepThreads:
    """The threads that owe edits, with what each of their messages is owed."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.store: AsleepStore | None = None
        self._owed: dict[int, Sleeping] = {}
        # The database sees owing and paying in the order they happen: an edit refused
        # again as its row is being deleted must not lose the row it writes anew.
        self._storing = asyncio.Lock()

    def load(self, records: Iterable[AsleepEditRecord]) -> None:
        """What the database still owes, at start (oldest first)."""
        for record in records:
            sleeping = self._owed.setdefault(
                record.channel_id, Sleeping(record.guild_id, record.at.timestamp()))
            sleeping.edits[record.message_id] = OwedEdit(record.text,
                                                         frozenset(record.people))

    def owes(self, channel_id: int) -> bool:
        return channel_id in self._owed

    def guilds(self) -> set[int]:
        """The servers whose threads owe edits."""
        return {sleeping.guild_id for sleeping in self._owed.values()}

    def channels(self, guild_id: int) -> list[int]:
        """The server's threads that owe edits."""
        return [channel_id for channel_id, sleeping in self._owed.items()
                if sleeping.guild_id == guild_id]

    async def owe(self, guild_id: int, channel_id: int, message_id: int,
                  edit: OwedEdit) -> None:
        """The thread refused this message's edit: owe it ``edit`` instead of anything it
        was owed before."""
        now = self.clock.now()
        self._expire(now)
        self._owed.setdefault(channel_id, Sleeping(guild_id, now)).edits[message_id] = edit
        await self._stored(lambda store: store.owe_edit(guild_id, channel_id, message_id,
                                                        edit, now), "keep an owed edit")

    async def take(self, channel_id: int) -> dict[int, OwedEdit]:
        """The thread is awake: what it owes, forgotten here; `paid` forgets each in
        storage once it is sent, so that a stop meanwhile leaves it to the restart.

        A text is sent only if storage still holds it: /president forget run by another
        process of a sharded deployment cleared the rows that name the user, not this
        process's copy, and a server's erasure deleted its rows. Where storage cannot say,
        the message only loses its buttons: a text that may name someone erased is not
        worth the risk."""
        sleeping = self._owed.get(channel_id)
        if sleeping is None:
            return {}
        checked = {message_id: edit for message_id, edit in sleeping.edits.items()
                   if edit.text is not None}
        store = self.store
        kept: set[int] = set(checked)
        if checked and store is not None:
            async with self._storing:
                try:
                    kept = await store.named_edits(checked)
                except Exception:
                    log.warning("could not check the owed edits of thread %s", channel_id,
                                exc_info=True)
                    kept = set()
        # Taken only now: an erasure in this process meanwhile (`forget`) unnamed the copy
        # here, which a read before its commit could not see; an edit owed meanwhile is
        # this process's newest word, not the one checked.
        sleeping = self._owed.pop(channel_id, sleeping)
        return {message_id: OwedEdit(None) if checked.get(message_id) is edit
                and message_id not in kept else edit
                for message_id, edit in sleeping.edits.items()}

    async def paid(self, message_ids: Collection[int]) -> None:
        """These messages got their edit, or can no longer get it (deleted, say)."""
        if message_ids:
            await self._stored(lambda store: store.paid_edits(message_ids),
                               "forget edits sent")

    def forget(self, user_id: int) -> None:
        """The user asked to be erased (/president forget): no owed text may name them any
        more (those messages will only lose their buttons); storage does the same in the
        erasure, which the other processes read as their threads wake (`take`)."""
        for sleeping in self._owed.values():
            for message_id, edit in sleeping.edits.items():
                if user_id in edit.people:
                    sleeping.edits[message_id] = replace(edit, text=None, people=frozenset())

    def forget_guild(self, guild_id: int) -> None:
        """The server's admins erased its data (/president forget-server)."""
        for channel_id in self.channels(guild_id):
            del self._owed[channel_id]

    def _expire(self, now: float) -> None:
        """Threads asleep for over a week are let go, as storage lets their rows go at the
        next start (`Storage.asleep_since`)."""
        for channel_id in [channel_id for channel_id, sleeping in self._owed.items()
                           if sleeping.at < now - KEEP_SECONDS]:
            del self._owed[channel_id]

    async def _stored(self, call: Callable[[AsleepStore], Awaitable[None]], what: str) -> None:
        store = self.store
        if store is None:
            return
        async with self._storing:
            try:
                await call(store)
            except Exception:  # a courtesy: the table goes on without it
                log.warning("could not %s", what, exc_info=True)
