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
        return _digest(cut(self.content, 2000),
                       self.embed.to_dict() if self.embed is not None else None,
                       self.view.to_components() if self.view is not None else [])

    def kwargs(self) -> dict[str, Any]:
        out: dict[str, Any] = {"content": cut(self.content, 2000), "view": self.view}
        if self.embed is not None:
            out["embed"] = self.embed
        return out


def shown_by(message: discord.Message) -> str:
    """The digest of what a message Discord returned displays, as `Screen.fingerprint`
    digests what a screen would: its text, its first embed, its rows of controls. A post
    retried with the nonce of a try whose answer was lost gets that try's message back
    (bot/packages/publisher/nonces.py), drawn as it was then; told from what is to be
    shown by its text alone, a post whose embed or buttons had changed since kept the
    old ones. Where Discord's copy reads differently from what was sent (a field it
    adds), the digests differ and the message is edited once more: never the reverse."""
    return _digest(message.content, message.embeds[0].to_dict() if message.embeds else None,
                   [row.to_dict() for row in message.components])


def _digest(content: str, embed: object, components: object) -> str:
    payload = {"content": content, "embed": embed, "components": components}
    drawn = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha1(drawn.encode()).hexdigest()
