"""A message as the bot wants it shown: text plus controls, with a fingerprint to skip
edits that would change nothing."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import discord

from bot.graphemes import cut

# An embed's description holds at most 4,096 characters, see « Embed Limits » in
# https://discord.com/developers/docs/resources/message#embed-object-embed-limits
EMBED_DESCRIPTION = 4096


@dataclass
class Screen:
    content: str
    view: discord.ui.View | None = None
    embed: discord.Embed | None = None
    # The text to keep once a newer message takes over: without controls, its instructions
    # would send readers to buttons that are gone.
    retired: str | None = None

    @property
    def fingerprint(self) -> str:
        parts = [self.content]
        if self.embed is not None:
            parts.append(str(self.embed.title) + str(self.embed.description))
        if self.view is not None:
            for item in self.view.children:
                parts.append(repr(_describe(item)))
        return hashlib.sha1("\x1f".join(parts).encode()).hexdigest()

    def kwargs(self) -> dict[str, Any]:
        out: dict[str, Any] = {"content": cut(self.content, 2000), "view": self.view}
        if self.embed is not None:
            out["embed"] = self.embed
        return out


def _describe(item: discord.ui.Item[Any]) -> tuple[object, ...]:
    inner = getattr(item, "item", item)
    if isinstance(inner, discord.ui.Button):
        return ("b", inner.custom_id, inner.label, inner.style.value, inner.disabled, inner.row)
    if isinstance(inner, discord.ui.Select):
        options = tuple((o.label, o.value, o.default, o.description) for o in inner.options)
        return ("s", inner.custom_id, inner.placeholder, options, inner.min_values,
                inner.max_values, inner.row)
    return ("?", type(inner).__name__)
