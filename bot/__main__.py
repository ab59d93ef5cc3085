"""`python -m bot` / `president-bot`: run the bot with the settings of the environment."""

from __future__ import annotations

import logging
import sys

from bot.config import Config, MissingToken


def main() -> None:
    try:
        config = Config.from_env()
    except MissingToken as err:
        print(err, file=sys.stderr)
        sys.exit(2)
    logging.basicConfig(level=config.log_level,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from bot.client import PresidentBot

    PresidentBot(config).run(config.token, log_handler=None)


if __name__ == "__main__":
    main()
