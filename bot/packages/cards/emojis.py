"""The card faces as application emojis, and cards drawn with them where Discord allows.

At start the bot makes sure every face in ``bot/assets/cards`` is one of its application
emojis (owned by the bot, usable in every server without a permission). A face's emoji is
named after the face and a hash of its PNG (``fr_10H_3fa2c1``), so a later start finds it by
name and uploads again only a face whose drawing changed. The old drawing stays while there
is room under Discord's 2,000: another process of the bot (a shard, or the one a rolling
deploy replaces) may still show it, and Discord refuses any button or option showing a
deleted emoji (400 « Invalid emoji »), which would freeze that process's hands. The sync runs in the background: until it ends, or when it
fails, cards are text, exactly as without faces. It is all or nothing, so a hand never
mixes faces and text.

Faces are an addition, never a replacement: the hand, the trick and the exchange notes keep
their text line, and the faces in a message's text are named for the reader
(``<:dix_de_coeur:id>``: a server that blocks external emojis shows ``:dix_de_coeur:``
instead of a face, and screen readers read that name; `CardFaces.written`), as are the
faces of select options (`CardFaces.emoji`), and a face
line is left out when it would take the message over Discord's 2,000 characters (each
face costs about 36).
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Callable, Sequence
from pathlib import Path

import discord

from bot.i18n import LocaleLike, lang
from bot.i18n.cards import face_alt
from bot.packages.cards.faces import ASSETS, face_key
from bot.tables.budget import CallBudget
from engine import Card

log = logging.getLogger(__name__)

#: Discord's cap on a message's content.
CONTENT_LIMIT = 2000
#: Discord's cap on an application's emojis (Emoji resource, « Application-Owned Emoji »).
APP_EMOJI_LIMIT = 2000
#: The bot's own emoji names: a face key and six hex digits of its PNG's hash.
OWN_NAME = re.compile(r"^(fr|es)_[0-9A-Z]{2,3}_[0-9a-f]{6}$")


#: A line of faces wanted under line ``index`` of a message: ``(index, groups of cards)``.
FaceLine = tuple[int, Sequence[Sequence[Card]]]


def emoji_name(key: str, png: bytes) -> str:
    return f"{key}_{hashlib.sha256(png).hexdigest()[:6]}"


class CardFaces:
    """Face key → application emoji; empty (text cards) until a sync succeeds."""

    def __init__(self, directory: Path = ASSETS) -> None:
        self.directory = directory
        self.emojis: dict[str, discord.PartialEmoji] = {}

    def clear(self) -> None:
        self.emojis = {}

    async def sync(self, client: discord.Client, budget: CallBudget,
                   uploading: Callable[[], None] | None = None) -> None:
        """Find or create every face's emoji; on any refusal, stay on text cards.
        `uploading` is called once the listing shows faces to upload (a first start, new
        drawings): what waits for the faces then goes on with text cards.

        Application emoji routes count toward Discord's global limit like channel calls: a
        first start's 118 uploads beside restored tables' posts would overrun it, so each
        call holds a place in the bot's budget."""
        self.clear()
        try:
            self.emojis = await self._sync(client, budget, uploading)
        except discord.HTTPException as exc:
            log.warning("card faces unavailable, cards stay text: %s", exc)
        else:
            log.info("card faces ready: %d emojis", len(self.emojis))

    async def _sync(self, client: discord.Client, budget: CallBudget,
                    uploading: Callable[[], None] | None = None,
                    ) -> dict[str, discord.PartialEmoji]:
        wanted = {path.stem: emoji_name(path.stem, path.read_bytes())
                  for path in sorted(self.directory.glob("*.png"))}
        async with budget.call():
            listed = await client.fetch_application_emojis()
        owned = [e for e in listed if OWN_NAME.match(e.name)]
        by_name = {e.name: e for e in owned}
        keep = set(wanted.values())
        missing = sum(1 for name in keep if name not in by_name)
        if missing and uploading is not None:
            uploading()
        stale = sorted((e for e in owned if e.name not in keep), key=lambda e: e.id)
        for old in stale[:max(0, len(listed) + missing - APP_EMOJI_LIMIT)]:  # oldest first,
            async with budget.call():  # and only to make room for the new drawings
                await old.delete()
        found: dict[str, discord.PartialEmoji] = {}
        for key, name in wanted.items():
            emoji = by_name.get(name)
            if emoji is None:
                png = (self.directory / f"{key}.png").read_bytes()
                async with budget.call():
                    emoji = await client.create_application_emoji(name=name, image=png)
            found[key] = discord.PartialEmoji(name=emoji.name, id=emoji.id)
        return found

    def emoji(self, card: Card, spanish: bool, locale: LocaleLike
              ) -> discord.PartialEmoji | None:
        """The card's face as a reader in ``locale`` writes its rank (« D♥ » in French),
        named for that reader (`face_alt`: « dame_de_coeur », not « fr_DH_534d3f »). The name
        is what a message's text writes (`written`) and what a select option's emoji object
        carries: a partial emoji of "`id`, `name`, and `animated`" (Component Reference,
        Select Option Structure, developers/components/reference.mdx), drawn from its id,
        whose name Discord does not check against the emoji's own for a custom emoji ("the
        `name` field doesn't seem to be validated at all by the API for custom emojis",
        discordjs/discord.js pull request 11375). The option was read by the emoji's own
        name (play-test 25); a client that still reads that one reads what it did before."""
        emoji = self.emojis.get(face_key(card, spanish, french=lang(locale) == "fr"))
        if emoji is None:
            return None
        return discord.PartialEmoji(name=face_alt(locale, card, spanish), id=emoji.id)

    def option_emoji(self, cards: Sequence[Card], value: str, spanish: bool,
                     locale: LocaleLike) -> discord.PartialEmoji | None:
        """A play's face for its select option: a card of the value played (not a wild)."""
        if not cards:
            return None
        card = next((c for c in cards if c.rank == value), cards[0])
        return self.emoji(card, spanish, locale)

    def line(self, groups: Sequence[Sequence[Card]], spanish: bool,
             locale: LocaleLike) -> str | None:
        """Groups of cards (a hand, or each play of a trick) as one line of faces, a space
        between groups; None when a face is not available."""
        shown = [[self.written(c, spanish, locale) for c in group] for group in groups]
        if not shown or any(not group or None in group for group in shown):
            return None
        return " ".join("".join(e or "" for e in group) for group in shown)

    def written(self, card: Card, spanish: bool, locale: LocaleLike) -> str | None:
        """The card's face in a message's text, named for the reader (`emoji`:
        « dame_de_coeur » read out, not « fr_DH_534d3f »)."""
        emoji = self.emoji(card, spanish, locale)
        return None if emoji is None else f"<:{emoji.name}:{emoji.id}>"

    def with_lines(self, lines: Sequence[str], wanted: Sequence[FaceLine],
                   spanish: bool, locale: LocaleLike) -> list[str]:
        """``lines`` with, for each ``(index, groups)`` of ``wanted``, the faces of ``groups``
        as a line under line ``index``. ``wanted`` goes by priority: a face line that would
        take the message over Discord's content limit is left out (its text line says the
        same), so the later, less useful ones go first."""
        total = len("\n".join(lines))
        under: dict[int, list[str]] = {}
        for index, groups in wanted:
            shown = self.line(groups, spanish, locale)
            if shown is None or index >= len(lines) or total + len(shown) + 1 > CONTENT_LIMIT:
                continue
            total += len(shown) + 1
            under.setdefault(index, []).append(shown)
        return [x for i, line in enumerate(lines) for x in (line, *under.get(i, ()))]


#: The process's faces: the bot syncs them at start and clears them when it closes.
faces = CardFaces()
