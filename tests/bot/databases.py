"""Which database the bot tests store to: SQLite files in the test's tmp dir (the default), or
PostgreSQL with `TEST_DATABASE=postgresql` (`make test-pg`).

On PostgreSQL every database a test asks for is a fresh, empty one on the test server
(tests/storage/postgres.py), migrated by the bot as it starts like a new SQLite file is, and
dropped when the test ends. Tests marked `both_databases` run on both in `make test`: the
few whole games that keep the two dialects in step without `make test-pg`.
"""

from __future__ import annotations

import os
from pathlib import Path

from tests.storage.postgres import PostgresDatabases

VARIABLE = "TEST_DATABASE"
BACKENDS = ("sqlite", "postgresql")
MARK = "both_databases"


def chosen() -> str:
    """The backend `TEST_DATABASE` names for the whole run."""
    backend = os.environ.get(VARIABLE, "").strip().lower() or "sqlite"
    if backend not in BACKENDS:
        raise ValueError(f"{VARIABLE}={backend!r}: use one of {', '.join(BACKENDS)}")
    return backend


class TestDatabases:
    """The databases one test stores to, by name; PostgreSQL ones created on first use."""

    def __init__(self, backend: str, server: PostgresDatabases | None) -> None:
        assert (backend == "postgresql") == (server is not None)
        self.backend = backend
        self.server = server
        self.urls: dict[tuple[Path, str], str] = {}

    def url(self, tmp_path: Path, name: str) -> str:
        if self.server is None:
            return f"sqlite+aiosqlite:///{tmp_path / name}"
        key = (tmp_path, name)
        if key not in self.urls:
            self.urls[key] = self.server.create("bot")
        return self.urls[key]

    def drop(self) -> None:
        if self.server is not None:
            self.server.drop_all()


current: TestDatabases | None = None
