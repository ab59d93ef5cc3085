"""A message as the bot wants it shown: text plus controls, with a fingerprint to skip
edits that would change nothing."""

from __future__ import annotations

import hashlib
import json
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
        """A digest of everything the message displays: its text as sent, its embed and its
        controls, as discord.py sends them (`Embed.to_dict`, `View.to_components`: every
        field, footer and image, every label, emoji, style and option). A restart trusts it
        for what a message shows (`bot.tables.landed`): reading only some of it (an
        embed's title and description, an option's label but not its emoji), a restart
        skipped an edit that changed only the rest."""
        payload = {"content": cut(self.content, 2000),
                   "embed": self.embed.to_dict() if self.embed is not None else None,
                   "components": self.view.to_components() if self.view is not None else []}
        drawn = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
        return hashlib.sha1(drawn.encode()).hexdigest()

    def kwargs(self) -> dict[str, Any]:
        out: dict[str, Any] = {"content": cut(self.content, 2000), "view": self.view}
        if self.embed is not None:
            out["embed"] = self.embed
        return out

