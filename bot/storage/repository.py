"""The async repository, `Storage`: every SQL statement of the bot lives in its parts,
one module a concern (`guilds.py`, `tables.py`, `house.py`, `snapshots.py`,
`results.py`, `owed.py`, the reads of `history.py`, the players' languages in
`languages.py` and a user's erasure in `forget.py`), each reaching the database through
`access.py`.

Each public method is one short transaction and returns plain records (`records.py`), so a
cog or the table runtime never holds a connection across an `await` on Discord. Writes that
must happen at most once (rounds, game endings, rating updates) are idempotent at the
database level, which is what makes replaying after a crash safe.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Self

from sqlalchemy import text
from sqlalchemy.engine import URL

from bot.storage.access import wall_clock
from bot.storage.db import create_engine, database_url
from bot.storage.forget import Forgetting
from bot.storage.history import History
from bot.storage.languages import PlayerLanguages
from bot.storage.owed import Owed
from bot.storage.results import Results
from bot.storage.snapshots import Snapshots
from bot.storage.tables import Tables


class Storage(Tables, Results, Snapshots, Owed, History, Forgetting, PlayerLanguages):
    """Async repository over one engine; create with `await Storage.open(url)`.

    Every date it stores comes from `now`: /president history and stats show them, and the
    bot passes its own clock so that they agree with its timers (a test's injected clock
    included) rather than with the machine's."""

    @classmethod
    async def open(
        cls,
        url: str | URL | None = None,
        *,
        pool_size: int | None = None,
        max_overflow: int | None = None,
        now: Callable[[], datetime] = wall_clock,
        connect_timeout: float | None = None,
        command_timeout: float | None = None,
        pool_timeout: float | None = None,
    ) -> Self:
        """Connect (to `DATABASE_URL` when `url` is None) and fail now if the database is
        unreachable, rather than on the first button press. Does not migrate: call
        `db.upgrade_to_head` first. Sizes and timeouts: `db.create_engine`."""
        engine = create_engine(
            url or database_url(), pool_size=pool_size, max_overflow=max_overflow,
            connect_timeout=connect_timeout, command_timeout=command_timeout,
            pool_timeout=pool_timeout,
        )
        storage = cls(engine, now=now)
        try:
            async with storage._read() as connection:
                await connection.execute(text("SELECT 1"))
        except BaseException:
            await engine.dispose()
            raise
        return storage
