"""`make sandbox`: play against bots in a terminal, without a Discord token.

Starts the fake Discord, connects the real bot to it (storage in a local SQLite file), and
lets a person act as a Discord user: type slash commands, and pick buttons and select options
by number. The screen shows exactly what Discord would show that user: the channel's
messages and their own ephemeral ones.

    /president create preset:classic     a slash command (options as name:value; the
                                         names your client shows work too: /president ouvrir)
    2                                    click control [2] of the newest message
    B 3                                  control [3] of message B
    (a select asks which options, by number: 1,3)
    <Enter>                              look again (bots and timers keep running)
    q                                    quit
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import re
import string
import sys
import time
from pathlib import Path

from bot.client import PresidentBot
from bot.config import Config
from bot.tables.clock import SystemClock
from fakediscord import (
    Button,
    FakeDiscord,
    Message,
    Select,
    TestUser,
    UserActionError,
    render_message,
    render_modal,
)

SHOWN = 6  # messages on screen, newest last
LETTERS = string.ascii_uppercase


COUNTDOWN = re.compile(r"<t:(\d+):R>")


def countdowns(text: str, now: float) -> str:
    """Draw `<t:unix:R>` as Discord does, relative to now ("in 25s", "3s ago")."""
    def relative(match: re.Match[str]) -> str:
        seconds = round(int(match.group(1)) - now)
        return f"(in {seconds}s)" if seconds >= 0 else f"({-seconds}s ago)"

    return COUNTDOWN.sub(relative, text)


def parse_options(words: list[str]) -> dict[str, object]:
    options: dict[str, object] = {}
    for word in words:
        name, sep, value = word.partition(":")
        if not sep:
            raise UserActionError(f"option {word!r}: write name:value")
        options[name] = value
    return options


class Terminal:
    def __init__(self, fake: FakeDiscord, user: TestUser) -> None:
        self.fake = fake
        self.user = user
        self.screen: list[Message] = []

    async def ask(self, prompt: str) -> str:
        return await asyncio.get_running_loop().run_in_executor(None, input, prompt)

    def show(self) -> None:
        self.screen = self.user.visible()[-SHOWN:]
        print("\n" + "=" * 72)
        for letter, message in zip(LETTERS, self.screen, strict=False):
            print(f"--- {letter} " + "-" * 66)
            print(countdowns(render_message(message), time.time()))
        modal = self.user.modal
        if modal is not None:
            print("--- form " + "-" * 63)
            print(render_modal(modal))

    async def run(self) -> None:
        print(__doc__)
        self.show()
        while True:
            line = (await self.ask(f"{self.user.name}> ")).strip()
            if line in ("q", "quit", "exit"):
                return
            try:
                await self.handle(line)
            except UserActionError as err:
                print(f"!! {err}")
            with contextlib.suppress(Exception):
                await self.fake.settle(require_answers=False)
            self.show()

    async def handle(self, line: str) -> None:
        if not line:
            return
        if self.user.modal is not None and not line.startswith("/"):
            await self.fill_modal(line)
            return
        if line.startswith("/"):
            command, *words = self.canonical(line[1:].split())
            if words and ":" not in words[0]:
                command, words = f"{command} {words[0]}", words[1:]
            await self.user.slash(command, options=parse_options(words))
            return
        parts = line.split()
        target = self.screen[-1] if self.screen else None
        if len(parts) == 2 and parts[0].upper() in LETTERS[:len(self.screen)]:
            target = self.screen[LETTERS.index(parts[0].upper())]
            parts = parts[1:]
        if target is None or not parts[0].isdigit():
            raise UserActionError("type a slash command, a control number, or a letter and one")
        number = int(parts[0])
        control = self.control(target.id, number)
        if isinstance(control, Button):
            await self.user.click(target.id, control.custom_id or control.label or "")
        elif isinstance(control, Select):
            await self.pick(target.id, number, control)

    def control(self, message_id: int, number: int) -> Button | Select:
        """Control `number` of the message as it is now: the bot may have redrawn it since
        the screen was printed, and Discord's client always shows the latest version."""
        current = next((m for m in self.user.visible() if m.id == message_id), None)
        if current is None:
            raise UserActionError("that message is gone")
        controls = current.controls
        if not 1 <= number <= len(controls):
            raise UserActionError(f"message has controls 1 to {len(controls)}")
        return controls[number - 1]

    async def pick(self, message_id: int, number: int, menu: Select) -> None:
        for index, option in enumerate(menu.options, start=1):
            extra = f" — {option.description}" if option.description else ""
            print(f"  {index}. {option.label}{extra}")
        answer = await self.ask(f"options ({menu.min_values}-{menu.max_values}, e.g. 1,2): ")
        chosen = [menu.options[int(a) - 1].value for a in answer.replace(" ", "").split(",")
                  if a.isdigit() and 1 <= int(a) <= len(menu.options)]
        now = self.control(message_id, number)  # redrawn while the person was choosing?
        if not isinstance(now, Select):
            raise UserActionError("that menu is gone")
        await self.user.select(message_id, chosen, select=now.custom_id)

    def canonical(self, words: list[str]) -> list[str]:
        """Command, subcommand and option names as synced, from the names the user's Discord
        client shows (`/president ouvrir regles:presi` for a French user)."""
        guild_id = self.user.channel.guild_id
        node = self.fake.commands.find(guild_id, words[0]) if words else None
        if node is None:
            for command in self.fake.commands.listing(guild_id) + self.fake.commands.listing(None):
                if words and words[0] in (command.get("name_localizations") or {}).values():
                    node = command
        if node is None:
            return words
        out = [node["name"]]
        for word in words[1:]:
            name, sep, value = word.partition(":")
            found = next((o for o in node.get("options") or []
                          if name in (o["name"], *(o.get("name_localizations") or {}).values())),
                         None)
            if found is None:
                out.append(word)
                continue
            out.append(f"{found['name']}{sep}{value}")
            if not sep:
                node = found
        return out

    async def fill_modal(self, line: str) -> None:
        modal = self.user.modal
        assert modal is not None
        field = modal.inputs[0]
        await self.user.modal_submit({field.custom_id: line})


async def main_async(locale: str, database: Path) -> None:
    database.parent.mkdir(parents=True, exist_ok=True)
    config = Config(token="sandbox", database_url=f"sqlite+aiosqlite:///{database}",
                    bot_pause=1.5, log_level="WARNING")
    async with FakeDiscord.running(token=config.token) as fake:
        bot = PresidentBot(config, clock=SystemClock(), guild_ready_timeout=0)
        await fake.connect(bot)
        user = fake.add_user("you", locale=locale)
        try:
            await Terminal(fake, user).run()
        finally:
            await fake.disconnect(bot)


def main() -> None:
    parser = argparse.ArgumentParser(description="Play Président in a terminal, on a fake Discord.")
    parser.add_argument("--locale", default="fr", help="your Discord locale (fr, en-US, ...)")
    parser.add_argument("--database", type=Path, default=Path("data/sandbox.db"))
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    with contextlib.suppress(KeyboardInterrupt, EOFError):
        asyncio.run(main_async(args.locale, args.database))


if __name__ == "__main__":
    main()
