"""Settings read once at start from the environment (and a `.env` file when present)."""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from dotenv import dotenv_values

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///data/president.db"
# SHARD_LOCK_IDLE_TIMEOUT's default and least (`_lock_idle`): four of the locks' checks,
# 30 s apart, missed; two, each taking up to its 10 s timeout.
LOCK_IDLE_TIMEOUT = 120.0
LOCK_IDLE_LEAST = 80.0


class MissingToken(RuntimeError):
    """Raised when no bot token is configured: the entry point turns it into exit code 2."""

    def __init__(self) -> None:
        super().__init__(
            "DISCORD_TOKEN is not set: copy .env.example to .env and fill it in, "
            "or try the bot locally without a token with `make sandbox`."
        )


class InvalidSetting(ValueError):
    """A setting that cannot be used; the message names the variable and what it accepts.

    Refused at start rather than guessed: a process running the wrong shards would restore
    (and play) tables another process owns.
    """


def settings(env: Mapping[str, str] | None = None,
             dotenv: Path | None = Path(".env")) -> dict[str, str]:
    """`.env` under the environment (`os.environ` unless `env`), as the bot reads them: the
    `alembic` command line reads its DATABASE_URL so too, or it would migrate the default
    SQLite file while the bot runs on the database `.env` names."""
    values: dict[str, str] = {}
    if dotenv is not None and dotenv.is_file():
        values.update({k: v for k, v in dotenv_values(dotenv).items() if v is not None})
    values.update(os.environ if env is None else env)
    return values


@dataclass(frozen=True)
class Config:
    token: str
    database_url: str = DEFAULT_DATABASE_URL
    dev_guild_id: int | None = None
    # Guilds whose commands a global sync clears (CLEAR_GUILD_COMMANDS): Discord lists a
    # guild's commands beside the global ones, so a development guild synced earlier would
    # show every command twice.
    clear_guild_ids: tuple[int, ...] = ()
    log_level: str = "INFO"
    # Seconds a bot waits before playing, so humans can follow what happened.
    bot_pause: float = 1.5
    # Connections this process keeps open (and may add under bursts) to the database.
    database_pool_size: int = 5
    database_max_overflow: int = 5
    # Seconds a connection attempt, a statement (0: no limit) and a wait for a pooled
    # connection may take before failing as transient (`bot.storage.db.CONNECT_TIMEOUT`).
    database_connect_timeout: float = 10.0
    database_command_timeout: float = 30.0
    database_pool_timeout: float = 10.0
    # discord.py sharding: both None for one process running every shard; otherwise this
    # process runs `shard_ids` out of `shard_count` and owns only those shards' guilds.
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    # SHARD_COUNT=auto: run every shard of the count Discord recommends (GET /gateway/bot),
    # learnt at start; Discord refuses an unsharded bot at 2,500 guilds.
    shard_auto: bool = False
    # Serve Prometheus metrics on this port (0: any free one); None serves none.
    metrics_port: int | None = None
    # Seconds PostgreSQL lets the shard locks' session go unchecked before ending it,
    # freeing a dead process's shards (`ShardLocks.acquire`); None: only TCP keepalive
    # ends it. `from_env` sets it (SHARD_LOCK_IDLE_TIMEOUT, 120 s: four checks missed),
    # tests leave it off: the checks run on their clock, the timeout on the server's.
    shard_lock_idle_timeout: float | None = None
    # Worker processes the hard bots search in (SEARCH_WORKERS); None: one per core but
    # one, which the event loop keeps (`bot.tables.thinking.workers`).
    search_workers: int | None = None

    def __post_init__(self) -> None:
        if self.shard_auto and (self.shard_count is not None or self.shard_ids is not None):
            raise InvalidSetting("SHARD_COUNT=auto picks the count itself: no shard_count "
                                 "or shard_ids go with it")
        if (self.shard_count is None) != (self.shard_ids is None):
            raise InvalidSetting("shard_count and shard_ids go together")
        if self.shard_count is not None and self.shard_ids is not None:
            if self.shard_count < 1:
                raise InvalidSetting(f"SHARD_COUNT must be at least 1, not {self.shard_count}")
            wrong = [i for i in self.shard_ids if not 0 <= i < self.shard_count]
            if wrong or not self.shard_ids:
                raise InvalidSetting(
                    f"SHARD_IDS must list shard numbers from 0 to {self.shard_count - 1} "
                    f"(SHARD_COUNT={self.shard_count}), got {list(self.shard_ids)}"
                )
            if len(set(self.shard_ids)) != len(self.shard_ids):
                raise InvalidSetting(f"SHARD_IDS lists a shard twice: {list(self.shard_ids)}")

    @classmethod
    def from_env(
        cls, env: Mapping[str, str] | None = None, dotenv: Path | None = Path(".env")
    ) -> Config:
        """Merge `.env` under the real environment (the environment wins, as in twelve-factor)."""
        values = settings(env, dotenv)
        token = values.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise MissingToken()
        shard_auto = values.get("SHARD_COUNT", "").strip().lower() == "auto"
        shard_count, shard_ids = _shards(values) if not shard_auto else (None, None)
        if shard_auto and values.get("SHARD_IDS", "").strip():
            raise InvalidSetting(
                "SHARD_IDS needs a whole-number SHARD_COUNT: with SHARD_COUNT=auto Discord "
                "picks the count at start, so one process runs every shard"
            )
        return cls(
            token=token,
            database_url=values.get("DATABASE_URL", "").strip() or DEFAULT_DATABASE_URL,
            dev_guild_id=_guild_id(values, "DEV_GUILD_ID"),
            clear_guild_ids=_guild_ids(values, "CLEAR_GUILD_COMMANDS"),
            log_level=_log_level(values, "LOG_LEVEL"),
            bot_pause=_seconds(values, "BOT_PAUSE_SECONDS", 1.5),
            database_pool_size=_count(values, "DATABASE_POOL_SIZE", 5, least=1),
            database_max_overflow=_count(values, "DATABASE_MAX_OVERFLOW", 5, least=0),
            database_connect_timeout=_timeout(values, "DATABASE_CONNECT_TIMEOUT", 10.0),
            database_command_timeout=_seconds(values, "DATABASE_COMMAND_TIMEOUT", 30.0),
            database_pool_timeout=_timeout(values, "DATABASE_POOL_TIMEOUT", 10.0),
            shard_count=shard_count,
            shard_ids=shard_ids,
            shard_auto=shard_auto,
            metrics_port=_port(values, "METRICS_PORT"),
            shard_lock_idle_timeout=_lock_idle(values, "SHARD_LOCK_IDLE_TIMEOUT"),
            search_workers=_count(values, "SEARCH_WORKERS", 0, least=1) or None,
        )


def _lock_idle(values: Mapping[str, str], name: str) -> float:
    """Past two checks of the locks (`bot.client.LOCK_CHECK_INTERVAL`, each up to
    `shardlock.CHECK_TIMEOUT`): shorter, a loaded process would lose its locks to the
    server between checks that answer."""
    seconds = _seconds(values, name, LOCK_IDLE_TIMEOUT)
    if seconds < LOCK_IDLE_LEAST:
        raise InvalidSetting(f"{name} must be at least {LOCK_IDLE_LEAST:.0f} seconds, "
                             f"not {values[name]!r}")
    return seconds


def _count(values: Mapping[str, str], name: str, default: int, *, least: int) -> int:
    raw = values.get(name, "").strip()
    if not raw:
        return default
    number = int(raw) if raw.isascii() and raw.isdigit() else None
    if number is None or number < least:
        raise InvalidSetting(f"{name} must be a whole number of at least {least}, not {raw!r}")
    return number


def _port(values: Mapping[str, str], name: str) -> int | None:
    if not values.get(name, "").strip():
        return None
    port = _count(values, name, 0, least=0)
    if port > 65535:
        raise InvalidSetting(f"{name} must be a TCP port from 0 to 65535, not {port}")
    return port


def _guild_id(values: Mapping[str, str], name: str) -> int | None:
    raw = values.get(name, "").strip()
    if not raw:
        return None
    if not (raw.isascii() and raw.isdigit()):
        raise InvalidSetting(f"{name} must be one guild id (its digits), not {raw!r}")
    return int(raw)


def _log_level(values: Mapping[str, str], name: str) -> str:
    """A level Python's logging knows by name (WARN and FATAL included)."""
    level = values.get(name, "").strip().upper() or "INFO"
    if level not in logging.getLevelNamesMapping():
        raise InvalidSetting(f"{name} must be one of CRITICAL, ERROR, WARNING, INFO, DEBUG, "
                             f"not {level!r}")
    return level


def _seconds(values: Mapping[str, str], name: str, default: float) -> float:
    """A duration in seconds, with a decimal point (« 1,5 » is refused, not misread)."""
    raw = values.get(name, "").strip()
    if not raw:
        return default
    seconds = float(raw) if re.fullmatch(r"[0-9]+(\.[0-9]*)?|\.[0-9]+", raw) else None
    if seconds is None or not 0 <= seconds <= 3600:
        raise InvalidSetting(f"{name} must be a number of seconds from 0 to 3600, with a "
                             f"decimal point (1.5), not {raw!r}")
    return seconds


def _timeout(values: Mapping[str, str], name: str, default: float) -> float:
    """A wait that must end: 0 would fail every connection at once, not wait for ever."""
    seconds = _seconds(values, name, default)
    if seconds <= 0:
        raise InvalidSetting(f"{name} must be more than 0 seconds, not {values[name]!r}")
    return seconds


def _guild_ids(values: Mapping[str, str], name: str) -> tuple[int, ...]:
    """Comma-separated guild ids (ASCII digits only)."""
    parts = [part.strip() for part in values.get(name, "").split(",") if part.strip()]
    if not all(part.isascii() and part.isdigit() for part in parts):
        raise InvalidSetting(f"{name} must list guild ids separated by commas, not {parts!r}")
    return tuple(int(part) for part in parts)


def _shards(values: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT alone runs every shard of that count in this process; SHARD_IDS without
    SHARD_COUNT is refused, since which guilds a shard owns depends on the count."""
    ids = values.get("SHARD_IDS", "").strip()
    if not values.get("SHARD_COUNT", "").strip():
        if ids:
            raise InvalidSetting("SHARD_IDS needs SHARD_COUNT (the total number of shards)")
        return None, None
    total = _count(values, "SHARD_COUNT", 1, least=1)
    if not ids:
        return total, tuple(range(total))
    try:
        return total, tuple(int(part) for part in ids.split(","))
    except ValueError:
        raise InvalidSetting(
            f"SHARD_IDS must be shard numbers separated by commas, e.g. 0,1; got {ids!r}"
        ) from None
