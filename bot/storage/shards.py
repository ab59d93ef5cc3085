"""Which shard, and so which process, owns a guild: in Python (`shard_of`) and
in SQL (`in_shards`), for the rows a process restores or is owed."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from sqlalchemy import BigInteger, Integer, literal

# discord.py: a guild belongs to shard (guild_id >> 22) % shard_count.
SHARD_SHIFT = 22


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard (and so the process) that owns a guild and therefore its tables."""
    return (guild_id >> SHARD_SHIFT) % shard_count


def in_shards(guild_id: Any, shard_ids: Collection[int] | None,
              shard_count: int | None) -> Any:
    """The rows of the guilds of these shards (`shard_of` in SQL)."""
    if shard_ids is None or not shard_count:
        raise ValueError("shard_ids and shard_count go together")
    # PostgreSQL defines bigint >> integer only, hence the typed literal.
    shifted = guild_id.op(">>", return_type=BigInteger)(literal(SHARD_SHIFT, Integer))
    return (shifted % shard_count).in_(list(shard_ids))
