"""Migrations go up, down and up again on both backends and match the models exactly."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect
from sqlalchemy.engine import Connection

from bot.storage import Storage, downgrade_to, upgrade_to_head
from bot.storage.db import create_engine
from bot.storage.models import Base

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = {table.name for table in Base.metadata.sorted_tables}


async def _inspect(url: str) -> tuple[set[str], list[Any], str | None]:
    engine = create_engine(url)
    try:
        async with engine.connect() as connection:

            def run(sync: Connection) -> tuple[set[str], list[Any], str | None]:
                context = MigrationContext.configure(sync, opts={"compare_type": True})
                return (
                    set(inspect(sync).get_table_names()),
                    compare_metadata(context, Base.metadata),
                    context.get_current_revision(),
                )

            return await connection.run_sync(run)
    finally:
        await engine.dispose()


async def test_up_down_up(empty_db_url: str) -> None:
    # Two start-ups racing in one process (alembic's context is process-global).
    await asyncio.gather(upgrade_to_head(empty_db_url), upgrade_to_head(empty_db_url))
    tables, diff, revision = await _inspect(empty_db_url)
    assert tables >= SCHEMA
    assert diff == []
    assert revision is not None

    await downgrade_to(empty_db_url, "base")
    tables, _, revision = await _inspect(empty_db_url)
    assert tables <= {"alembic_version"}
    assert revision is None

    await upgrade_to_head(empty_db_url)
    tables, diff, _ = await _inspect(empty_db_url)
    assert tables >= SCHEMA
    assert diff == []
    storage = await Storage.open(empty_db_url)
    try:
        table_id = await storage.create_table(1, 2, 3, {"preset": "classic", "set": {}})
        assert (await storage.get_table(table_id)) is not None
    finally:
        await storage.close()


def test_release_command_from_several_processes(empty_db_url: str) -> None:
    """The Procfile release line, `alembic upgrade head` with DATABASE_URL, run by several
    processes at once (a deploy starting every shard); SQLite's directory is created."""
    env = {**os.environ, "DATABASE_URL": empty_db_url}
    processes = [
        subprocess.Popen(
            [sys.executable, "-m", "alembic", "upgrade", "head"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for _ in range(3)
    ]
    for process in processes:
        _, errors = process.communicate(timeout=60)
        assert process.returncode == 0, errors.decode()
    tables, diff, _ = asyncio.run(_inspect(empty_db_url))
    assert tables >= SCHEMA
    assert diff == []
