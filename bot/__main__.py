"""`python -m bot` / `president-bot`: run the bot with the settings of the environment."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from typing import TYPE_CHECKING

from bot.config import Config, InvalidSetting, MissingToken

if TYPE_CHECKING:
    from bot.client import PresidentBot


def main() -> None:
    try:
        config = Config.from_env()
    except (MissingToken, InvalidSetting) as err:
        print(err, file=sys.stderr)
        sys.exit(2)
    logging.basicConfig(level=config.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if config.log_level != "DEBUG":
        # Every start migrates: at INFO alembic lists its plugins and its DDL mode, seven
        # lines an operator reads as something to look at. Its warnings and errors still show.
        logging.getLogger("alembic").setLevel(logging.WARNING)
    from bot.client import create_bot
    from bot.storage.db import NewerDatabase

    bot = create_bot(config)
    try:
        with contextlib.suppress(KeyboardInterrupt, asyncio.CancelledError):
            asyncio.run(serve(bot, config.token))
    except NewerDatabase as err:  # a rollback of the code alone: one line, as a bad setting
        print(err, file=sys.stderr)
        sys.exit(2)
    if bot.shards_lost:
        # Another process runs one of its shards (see `PresidentBot.check_shard_locks`): a
        # failure status, so that a supervisor restarting only failed processes restarts
        # this one, which then waits for the lock as a process of an overlapping deploy does.
        sys.exit(1)


async def serve(bot: PresidentBot, token: str) -> None:
    """Run until the gateway closes, Ctrl-C, or SIGTERM: platforms send SIGTERM on every
    redeploy, and without a handler Python would exit at once, skipping `bot.close()` and
    with it the last queued table snapshots. Stopping cancels this task like Ctrl-C does."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    loop.add_signal_handler(signal.SIGTERM, task.cancel)
    try:
        async with bot:
            await bot.start(token)
    finally:
        loop.remove_signal_handler(signal.SIGTERM)


if __name__ == "__main__":
    main()
