"""The errors `Storage` (bot/storage/repository.py) raises on purpose."""

from __future__ import annotations


class StorageError(Exception):
    """Base of the errors the repository raises on purpose."""


class UnknownTable(StorageError, LookupError):
    def __init__(self, table_id: int) -> None:
        super().__init__(f"no table {table_id}")
        self.table_id = table_id


class UnknownGame(StorageError, LookupError):
    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game {game_id}")
        self.game_id = game_id


class ChannelBusy(StorageError):
    """The channel already has an open (not closed) table: `table_id` is that table."""

    def __init__(self, channel_id: int, table_id: int) -> None:
        super().__init__(f"channel {channel_id} already has open table {table_id}")
        self.channel_id = channel_id
        self.table_id = table_id
