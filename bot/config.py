"""Settings read once at start from the environment (and a `.env` file when present)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from dotenv import dotenv_values

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///data/president.db"


class MissingToken(RuntimeError):
    """Raised when no bot token is configured: the entry point turns it into exit code 2."""

    def __init__(self) -> None:
        super().__init__(
            "DISCORD_TOKEN is not set: copy .env.example to .env and fill it in, "
            "or try the bot locally without a token with `make sandbox`."
        )


@dataclass(frozen=True)
class Config:
    token: str
    database_url: str = DEFAULT_DATABASE_URL
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    # Seconds a bot waits before playing, so humans can follow what happened.
    bot_pause: float = 1.5

    @classmethod
    def from_env(
        cls, env: Mapping[str, str] | None = None, dotenv: Path | None = Path(".env")
    ) -> Config:
        """Merge `.env` under the real environment (the environment wins, as in twelve-factor)."""
        values: dict[str, str] = {}
        if dotenv is not None and dotenv.is_file():
            values.update({k: v for k, v in dotenv_values(dotenv).items() if v is not None})
        values.update(os.environ if env is None else env)
        token = values.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise MissingToken()
        guild = values.get("DEV_GUILD_ID", "").strip()
        return cls(
            token=token,
            database_url=values.get("DATABASE_URL", "").strip() or DEFAULT_DATABASE_URL,
            dev_guild_id=int(guild) if guild else None,
            log_level=(values.get("LOG_LEVEL", "").strip() or "INFO").upper(),
            bot_pause=float(values.get("BOT_PAUSE_SECONDS", "").strip() or 1.5),
        )
