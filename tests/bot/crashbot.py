"""The real bot as an OS process of its own, for the crash test (tests/bot/test_crash.py).

It runs `bot.__main__.serve` unchanged, pointed at a fake Discord served by the test
process, so the test can SIGKILL it at any instant, as a host would kill a container.
Settings come from the environment: the fake's URLs, the database, and the knobs every
table is opened with (the test cannot reach the settings panel's state from outside).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from typing import Any

import discord.gateway
import discord.http
import yarl

from bot.__main__ import serve
from bot.client import PresidentBot
from bot.config import Config
from bot.tables.service import TableService
from bot.tables.table import Table


def open_tables_with(knobs: dict[str, Any]) -> None:
    """Every table is opened with `knobs` on top of its preset."""
    create = TableService.create

    async def create_with_knobs(self: TableService, *args: Any, **kwargs: Any) -> Table:
        table = await create(self, *args, **kwargs)
        table.rules = table.rules.replace(**knobs)
        return table

    TableService.create = create_with_knobs  # type: ignore[method-assign]


def main() -> None:
    logging.basicConfig(level=logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("bot").setLevel(logging.INFO)  # the test quotes it when a run fails
    discord.http.Route.BASE = os.environ["CRASH_API"]
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["CRASH_GATEWAY"])
    open_tables_with(json.loads(os.environ.get("CRASH_KNOBS", "{}")))
    token = os.environ["CRASH_TOKEN"]
    config = Config(token=token, database_url=os.environ["CRASH_DATABASE_URL"],
                    bot_pause=float(os.environ.get("CRASH_BOT_PAUSE", "0.02")))
    bot = PresidentBot(config, guild_ready_timeout=0)
    asyncio.run(run(bot, token))


async def run(bot: PresidentBot, token: str) -> None:
    """`serve`, with redraws every 50 ms instead of every second: the test's players only
    see their turn once their hand is redrawn, and a game should take seconds, not minutes."""
    bot.service.coalescer.interval = 0.05
    await serve(bot, token)


if __name__ == "__main__":
    main()
