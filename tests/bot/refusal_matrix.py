"""The refusal matrix's probe: send one interaction that must be refused and judge the answer.

A refusal (docs/bot.md, « Untrusted input ») is:
(a) answered: Discord drops an interaction whose first response does not come within 3 s
    (« you must send an initial response within 3 seconds of receiving the event »,
    https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction);
    the fake Discord enforces that deadline on its clock and records when the answer came;
(b) private, and in the user's language: a new message flagged EPHEMERAL (`1 << 6`, 64, same
    page, « Create Followup Message »), or an update of the user's own ephemeral (their hand,
    their settings panel), whose warning line is the catalogue's sentence for the expected
    refusal, in the user's locale, never a raw key;
(c) without effect: the table as the bot stores it (`Table.to_dict`, and the snapshot in the
    database) and every public message of the channel are as they were.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.client import PresidentBot
from bot.i18n import CATALOGUES, lang
from bot.packages.controls import WARNING
from fakediscord import FakeDiscord, TestUser
from fakediscord.forge import Forger
from fakediscord.limits import BUTTON, LABEL, STRING_SELECT, TEXT_INPUT, walk
from fakediscord.state import (
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    InteractionRecord,
)

from .forgery import BOOKKEEPING, private_answer, state_of

#: Discord's deadline for the first response (see the module's docstring).
ANSWER_WITHIN = 3.0
EPHEMERAL = 1 << 6
RAW_KEY = re.compile(r"\b(err|engine|settings|lobby|btn|hint|cmd)\.[a-z_]+\b")


def template(locale: str, key: str) -> re.Pattern[str]:
    """The catalogue sentence of `key` in the locale's language, placeholders as wildcards."""
    text = CATALOGUES[lang(locale)][key]
    parts = re.split(r"\{[^{}]*\}", text)
    return re.compile(".+?".join(re.escape(part) for part in parts), re.DOTALL)


def keys_saying(locale: str, line: str) -> list[str]:
    """Every catalogue key whose sentence, in the locale's language, opens `line`: what a
    failing cell got instead of what it expected."""
    catalogue = CATALOGUES[lang(locale)]
    return [key for key, text in catalogue.items()
            if len(re.sub(r"\{[^{}]*\}", "", text)) >= 12 and template(locale, key).match(line)]


@dataclass
class Probe:
    """Sends refused interactions for one user and records what went wrong, if anything."""

    fake: FakeDiscord
    bot: PresidentBot
    guild_id: int
    cells: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def public(self, channel_id: int) -> str:
        """Every public message of the channel as everyone sees it."""
        shown = [(m.id, m.content, m.embeds, m.components, m.attachments)
                 for m in self.fake.world.messages.values()
                 if m.channel_id == channel_id and m.ephemeral_to is None]
        return json.dumps(shown, sort_keys=True, default=str)

    async def stored(self) -> str:
        """The snapshots in the database, without the bookkeeping of answering (`state_of`
        leaves out the same): when the host and anyone were last seen included, which a
        refused click moves (someone is there) and stores at once, a minute at a time, so
        that a crash does not close the table early (`Deadlines._seen_kept`, stops 47, 49)."""
        storage = self.bot.storage
        assert storage is not None
        found = {}
        for table in sorted(self.bot.service.registry.in_guild(self.guild_id),
                            key=lambda t: t.id):
            await self.bot.service.committed(table)
            snapshot = await storage.load_snapshot(table.id)
            state = dict(snapshot.state) if snapshot is not None else {}
            for key in BOOKKEEPING:
                state.pop(key, None)
            found[table.id] = state
        return json.dumps(found, sort_keys=True, default=str)

    async def refused(self, name: str, user: TestUser, expect: str | None,
                      send: Callable[[], Awaitable[InteractionRecord]]) -> None:
        """Run one cell: `send` must be answered by the refusal `expect` (a catalogue key),
        privately, in the user's language, changing nothing. With `expect` None the answer
        is no refusal (a prompt, a hand redrawn without a notice) but must be private and
        change nothing all the same."""
        self.cells.append(name)
        channel = user.channel.id
        before = (state_of(self.bot, [self.guild_id]), await self.stored(),
                  self.public(channel))
        errors = len(self.fake.errors)
        record = await send()
        await self.fake.settle()
        problems = self.judge(record, user.user.locale, expect)
        if len(self.fake.errors) != errors:
            problems.append(f"Discord refused the answer: {self.fake.errors[-1]}")
        after = (state_of(self.bot, [self.guild_id]), await self.stored(),
                 self.public(channel))
        for what, old, new in zip(("table", "stored snapshot", "public messages"), before,
                                  after, strict=True):
            if old != new:
                problems.append(f"{what} changed")
        if problems:
            self.failures.append(f"{name} [{user.user.locale}]: {'; '.join(problems)}")

    def judge(self, record: InteractionRecord, locale: str,
              expect: str | None) -> list[str]:
        if not record.acknowledged or record.abandoned:
            return ["unanswered"]
        problems = []
        assert record.answered_at is not None
        if record.answered_at - record.created_at > ANSWER_WITHIN:
            problems.append(f"answered after {record.answered_at - record.created_at:.1f} s")
        if not private_answer(self.fake, record):
            return [*problems, f"answered with type {record.response_type}, not privately"]
        if record.response_type == 4 and not (record.response or {}).get("flags", 0) \
                & EPHEMERAL:
            problems.append("its response is not flagged ephemeral")
        texts = self.answers(record)
        if expect is None:
            return problems
        lines = [line for text in texts for line in text.splitlines()
                 if line.startswith(WARNING.strip())]
        if not lines:
            return [*problems, f"no refusal line in {texts!r}"]
        line = lines[0].removeprefix(WARNING).strip()
        if RAW_KEY.search(line):
            problems.append(f"a raw key in {line!r}")
        if not template(locale, expect).match(line):
            problems.append(f"expected {expect}, got {keys_saying(locale, line)} {line!r}")
        return problems

    def answers(self, record: InteractionRecord) -> list[str]:
        """The text of what the interaction answered with: its new messages, or the user's
        ephemeral it updated."""
        world = self.fake.world
        ids = [record.original_message_id, *record.followup_ids]
        if record.response_type == 7:
            ids.append(record.message_id)
        texts = []
        for message_id in ids:
            stored = world.messages.get(message_id or 0)
            if stored is None:
                continue
            parts = [stored.content]
            parts += [str(c.get("content", "")) for _, c in walk(stored.components)
                      if "content" in c]
            parts += [str(e.get("description", "")) for e in stored.embeds]
            texts.append("\n".join(p for p in parts if p))
        return texts


async def press(fake: FakeDiscord, user: TestUser, message_id: int, custom: str,
                values: list[str] | None = None) -> InteractionRecord:
    """`user` clicks (or picks `values` in) the control `custom` on a message they see. A
    control the message does not show is a modified client's click: Discord delivers its
    custom_id with the message as Discord stores it (`fakediscord.forge`), so the bot sees
    it absent (`controls.refuse_forged`)."""
    shown = [c for _, c in walk(fake.world.messages[message_id].components)
             if c.get("custom_id") == custom]
    kind = int(shown[0]["type"]) if shown else BUTTON if values is None else STRING_SELECT
    data: dict[str, Any] = {"custom_id": custom, "component_type": kind}
    if values is not None:
        data["values"] = values
    return await Forger(fake).send(user, MESSAGE_COMPONENT, data, message=message_id,
                                   settle=False)


async def submit(fake: FakeDiscord, user: TestUser, custom: str, text: str,
                 message_id: int | None = None) -> InteractionRecord:
    """`user` submits the form `custom` with `text` typed in its one field."""
    components = [{"type": LABEL,
                   "component": {"type": TEXT_INPUT, "custom_id": "f", "value": text}}]
    return await Forger(fake).send(user, MODAL_SUBMIT,
                                   {"custom_id": custom, "components": components},
                                   message=message_id, settle=False)
