"""Persistence for the bot: scores, ratings, tables and crash-safe live snapshots.

`Storage` is the only way the rest of the bot touches SQL; `SnapshotWriter` persists the
table runtime's state after every action without making play wait for the database.
"""

from bot.storage.db import database_url, downgrade_to, upgrade_to_head
from bot.storage.errors import ChannelBusy, StorageError, UnknownGame, UnknownTable
from bot.storage.records import (
    GameSummary,
    GuildData,
    GuildSettings,
    HeldData,
    KeptHouse,
    Leaderboard,
    LeaderboardRow,
    PlayerStats,
    PresetRating,
    RatingChange,
    RoundOutcome,
    SeatRef,
    Snapshot,
    TableRecord,
    TableStatus,
    Winner,
)
from bot.storage.repository import Storage
from bot.storage.shards import shard_of
from bot.storage.writer import SnapshotWriter, WriterStats

__all__ = [
    "ChannelBusy",
    "GameSummary",
    "GuildData",
    "GuildSettings",
    "HeldData",
    "KeptHouse",
    "Leaderboard",
    "LeaderboardRow",
    "PlayerStats",
    "PresetRating",
    "RatingChange",
    "RoundOutcome",
    "SeatRef",
    "Snapshot",
    "SnapshotWriter",
    "Storage",
    "StorageError",
    "TableRecord",
    "TableStatus",
    "UnknownGame",
    "UnknownTable",
    "Winner",
    "WriterStats",
    "database_url",
    "downgrade_to",
    "shard_of",
    "upgrade_to_head",
]
