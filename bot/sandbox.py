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
import time
from dataclasses import fields
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

from bot.client import PresidentBot
from bot.config import Config
from bot.i18n import LocaleLike, t
from bot.i18n.cards import face_alt, short
from bot.packages.cards.faces import card_of_face, face_cards
from bot.tables.clock import SystemClock
from engine import Card
from fakediscord import (
    Button,
    FakeDiscord,
    Message,
    Select,
    TestUser,
    UserActionError,
    WallClock,
    Words,
    render_message,
    render_modal,
)
from fakediscord.commands import SUB_COMMAND, SUB_COMMAND_GROUP

SHOWN = 6  # messages on screen, newest last
LETTERS = string.ascii_uppercase


COUNTDOWN = re.compile(r"<t:(\d+):R>")
TIMESTAMP = re.compile(r"<t:(\d+)(?::([tTdDfF]))?>")
MENTION = re.compile(r"<@!?(\d+)>")
# A card face: `<:roi_de_trefle:123>` in text (named for its reader, `face_alt`; a message
# from before, `<:fr_KC_3fa2c1:123>`), `:fr_KC_3fa2c1:` on a control (whose label already
# names the card).
FACE = re.compile(r"<:(\w+):\d+>")
OWN_FACE = re.compile(r"^((?:fr|es)_[0-9A-Z]{2,3})_[0-9a-f]{6}$")
CONTROL_FACE = re.compile(r":(?:fr|es)_[0-9A-Z]{2,3}_[0-9a-f]{6}: ")
FILE = re.compile(r"^\[file: (.+)\]$", re.MULTILINE)
# strftime patterns for Discord's timestamp styles (short/long time, date, date and time).
STYLES = {"t": "%H:%M", "T": "%H:%M:%S", "d": "%d/%m/%Y", "D": "%d %B %Y",
          "f": "%d %B %Y %H:%M", "F": "%A %d %B %Y %H:%M"}


def countdowns(text: str, now: float, locale: LocaleLike) -> str:
    """Draw `<t:unix:R>` as Discord does, relative to now and in the reader's language
    ("in 25s", « il y a 3 s »): the style is a "relative duration", e.g. "2 months ago"
    (discord-api-docs, Reference, « Message Formatting », Timestamp Styles), which each
    client writes in its own language."""
    def relative(match: re.Match[str]) -> str:
        seconds = round(int(match.group(1)) - now)
        key = "sandbox.in" if seconds >= 0 else "sandbox.ago"
        return t(locale, key, seconds=abs(seconds))

    return COUNTDOWN.sub(relative, text)


def as_client(text: str, now: float, names: dict[int, str], locale: LocaleLike) -> str:
    """What a Discord client shows for markup codes: countdowns, dates in local time, and
    `<@id>` as @name (a user the fake does not know stays a code, as on Discord)."""
    def stamp(match: re.Match[str]) -> str:
        when = datetime.fromtimestamp(int(match.group(1)))
        return when.strftime(STYLES[match.group(2) or "f"])

    def mention(match: re.Match[str]) -> str:
        name = names.get(int(match.group(1)))
        return f"@{name}" if name is not None else match.group(0)

    return MENTION.sub(mention, TIMESTAMP.sub(stamp, countdowns(text, now, locale)))


@cache
def _spoken_faces() -> dict[str, tuple[Card, bool]]:
    """Each face's name as a reader's text writes it (`face_alt`), in either language, and
    its card: no two cards share one."""
    return {face_alt(language, card, spanish): (card, spanish)
            for language in ("fr", "en") for card, spanish, _ in face_cards()}


def as_terminal(text: str, locale: LocaleLike, images: dict[str, str]) -> str:
    """What a terminal can show of a picture: card faces as the cards' text (« R♣ »), an
    image as a line naming it (its alt text, `images`: file name → description)."""
    def face(match: re.Match[str]) -> str:
        name = match.group(1)
        own = OWN_FACE.match(name)
        card = card_of_face(own.group(1)) if own else _spoken_faces().get(name)
        return match.group(0) if card is None else short(locale, *card) + " "

    def image(match: re.Match[str]) -> str:
        alt = images.get(match.group(1))
        return t(locale, "sandbox.image", alt=alt) if alt else match.group(0)

    return FILE.sub(image, CONTROL_FACE.sub("", FACE.sub(face, text)).replace(" \n", "\n"))


def shown_names(items: list[dict[str, Any]], locale: LocaleLike) -> str:
    """Options' (or choices') names as the player's client shows them."""
    return ", ".join((item.get("name_localizations") or {}).get(str(locale), item["name"])
                     for item in items)


def client_words(locale: LocaleLike) -> Words:
    """What the client says around the bot's messages, in the player's language: templates
    whose placeholders the rendering fills."""
    kept = {"user": "{user}", "author": "{author}", "name": "{name}", "low": "{low}",
            "high": "{high}"}
    return Words(**{field.name: t(locale, f"sandbox.word.{field.name}", **kept)
                    for field in fields(Words)})


def parse_options(words: list[str], locale: LocaleLike) -> dict[str, object]:
    options: dict[str, object] = {}
    for word in words:
        name, sep, value = word.partition(":")
        if not sep:
            raise UserActionError(t(locale, "sandbox.name_value", word=word))
        options[name] = value
    return options


class Terminal:
    def __init__(self, fake: FakeDiscord, user: TestUser) -> None:
        self.fake = fake
        self.user = user
        self.screen: list[Message] = []
        self.words = client_words(user.user.locale)

    async def ask(self, prompt: str) -> str:
        return await asyncio.get_running_loop().run_in_executor(None, input, prompt)

    def show(self) -> None:
        self.screen = self.user.visible()[-SHOWN:]
        print("\n" + "=" * 72)
        for letter, message in zip(LETTERS, self.screen, strict=False):
            print(f"--- {letter} " + "-" * 66)
            names = {uid: u.name for uid, u in self.fake.world.users.items()}
            stored = self.fake.world.messages.get(message.id)
            images = {a["filename"]: a["description"] for a in
                      (stored.attachments if stored is not None else []) if "description" in a}
            shown = as_client(render_message(message, self.words), time.time(), names,
                              self.user.user.locale)
            print(as_terminal(shown, self.user.user.locale, images))
        modal = self.user.modal
        if modal is not None:
            print("--- form " + "-" * 63)
            print(render_modal(modal, self.words))

    async def run(self) -> None:
        print(t(self.user.user.locale, "sandbox.help"))
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
            await self.user.slash(command, options=parse_options(words, self.user.user.locale))
            return
        parts = line.split()
        target = self.screen[-1] if self.screen else None
        if len(parts) == 2 and parts[0].upper() in LETTERS[:len(self.screen)]:
            target = self.screen[LETTERS.index(parts[0].upper())]
            parts = parts[1:]
        if target is None or not parts[0].isdigit():
            raise UserActionError(t(self.user.user.locale, "sandbox.what"))
        number = int(parts[0])
        control = self.control(target, number)
        if isinstance(control, Button):
            await self.user.click_shown(target, control.custom_id or control.label or "")
        elif isinstance(control, Select):
            await self.pick(target, control)

    def control(self, message: Message, number: int) -> Button | Select:
        """Control `number` of the message as the screen printed it: like Discord's client,
        the sandbox sends what the person saw and picked, even if the bot has redrawn the
        message since (the bot then answers « Trop tard… » or with a fresh hand)."""
        controls = message.controls
        if not controls:
            raise UserActionError(t(self.user.user.locale, "sandbox.no_controls"))
        if not 1 <= number <= len(controls):
            raise UserActionError(t(self.user.user.locale, "sandbox.no_control",
                                    count=len(controls)))
        return controls[number - 1]

    async def pick(self, message: Message, menu: Select) -> None:
        for index, option in enumerate(menu.options, start=1):
            extra = f" — {option.description}" if option.description else ""
            print(f"  {index}. {option.label}{extra}")
        answer = await self.ask(t(self.user.user.locale, "sandbox.options",
                                  low=menu.min_values, high=menu.max_values))
        chosen = [menu.options[int(a) - 1].value for a in answer.replace(" ", "").split(",")
                  if a.isdigit() and 1 <= int(a) <= len(menu.options)]
        await self.user.select_shown(message, chosen, select=menu.custom_id)

    def canonical(self, words: list[str]) -> list[str]:
        """Command, subcommand and option names as synced, from the names the user's Discord
        client shows (`/president ouvrir préréglage:presi` for a French user)."""
        guild_id = self.user.channel.guild_id
        node = self.fake.commands.find(guild_id, words[0]) if words else None
        if node is None:
            for command in self.fake.commands.listing(guild_id) + self.fake.commands.listing(None):
                if words and words[0] in (command.get("name_localizations") or {}).values():
                    node = command
        locale = self.user.user.locale
        if node is None:
            raise UserActionError(t(locale, "sandbox.no_command", word=words[0] if words else ""))
        out = [node["name"]]
        given: set[str] = set()
        for word in words[1:]:
            name, sep, value = word.partition(":")
            offered = node.get("options") or []
            found = next((o for o in offered
                          if name in (o["name"], *(o.get("name_localizations") or {}).values())),
                         None)
            if found is None:  # a client offers only these: it could not send another
                raise UserActionError(t(locale, "sandbox.no_such", word=name,
                                        offered=shown_names(offered, locale)))
            nested = found["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)
            if nested == bool(sep):  # an option without a value, or a subcommand with one
                raise UserActionError(t(locale, "sandbox.name_value", word=word))
            if nested:
                node = found
            else:
                value = self.choice(found, value)
                given.add(found["name"])
            out.append(f"{found['name']}{sep}{value}")
        # What a client would not send either: a command without its subcommand, or
        # without an option it requires.
        offered = node.get("options") or []
        if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in offered):
            raise UserActionError(t(locale, "sandbox.needs_sub",
                                    offered=shown_names(offered, locale)))
        needed = [o for o in offered if o.get("required") and o["name"] not in given]
        if needed:
            raise UserActionError(t(locale, "sandbox.needs_option",
                                    name=shown_names(needed, locale)))
        return out

    def choice(self, option: dict[str, Any], typed: str) -> str:
        """A choice as typed, by its name in the player's language (or its value), as the
        option's value; a client offers only the option's choices."""
        choices = option.get("choices") or []
        if not choices:
            return typed
        for choice in choices:
            names = (choice["name"], str(choice["value"]),
                     *(choice.get("name_localizations") or {}).values())
            if typed in names:
                return str(choice["value"])
        locale = self.user.user.locale
        raise UserActionError(t(locale, "sandbox.no_choice", word=typed,
                                name=shown_names([option], locale),
                                offered=shown_names(choices, locale)))

    async def fill_modal(self, line: str) -> None:
        modal = self.user.modal
        assert modal is not None
        field = modal.inputs[0]
        await self.user.modal_submit({field.custom_id: line})


# The sandbox's player, server and channel keep their ids across runs: a table stored in the
# database comes back in its channel with its host and players, who can go on playing it
# (with fresh ids the restarted bot found the channel gone and closed the table). Snowflakes
# from the first second of Discord's epoch, which the fake never mints (its ids follow its
# clock).
SANDBOX_USER_ID = (1000 << 22) | 1
SANDBOX_HOME = ((1000 << 22) | 2, (1000 << 22) | 3)  # the guild, its channel


def sandbox_user(fake: FakeDiscord, locale: str) -> TestUser:
    """The person at the terminal, a member of the fake's guild, with a stable id."""
    user = TestUser(fake, fake.world.add_user("you", locale, user_id=SANDBOX_USER_ID),
                    fake.channel)
    fake.add_member(fake.guild, user)
    return user


async def main_async(locale: str, database: Path) -> None:
    database.parent.mkdir(parents=True, exist_ok=True)
    config = Config(token="sandbox", database_url=f"sqlite+aiosqlite:///{database}",
                    bot_pause=1.5, log_level="WARNING")
    async with FakeDiscord.running(token=config.token, clock=WallClock(),
                                   home=SANDBOX_HOME) as fake:
        bot = PresidentBot(config, clock=SystemClock(), guild_ready_timeout=0)
        await fake.connect(bot)
        user = sandbox_user(fake, locale)
        try:
            await Terminal(fake, user).run()
        finally:
            await fake.disconnect(bot)


def main() -> None:
    parser = argparse.ArgumentParser(description="Play Président in a terminal, on a fake Discord.")
    parser.add_argument("--locale", default="fr", help="your Discord locale (fr, en-US, ...)")
    parser.add_argument("--database", type=Path, default=Path("data/sandbox.db"))
    args = parser.parse_args()
    # Library warnings ("PyNaCl is not installed", "Can't keep up") go to a file, not into
    # the play area.
    args.database.parent.mkdir(parents=True, exist_ok=True)
    logging.basicConfig(level=logging.WARNING, filename=args.database.with_suffix(".log"))
    with contextlib.suppress(KeyboardInterrupt, EOFError):
        asyncio.run(main_async(args.locale, args.database))


if __name__ == "__main__":
    main()
