"""Untrusted text made safe to show: what users typed or chose as their name.

Every message the bot writes is Discord markdown, so a display name such as
`[click me](https://evil.example)` would render as a link, `**x**` in bold and `@everyone`
as a mention. Such text is escaped before it is shown, and the bidirectional control
characters (right-to-left overrides and isolates) that would reorder the rest of the line
are removed. A name written right to left is then set between isolates of the bot's own
(`bot.names.isolated`), so that the line around it keeps its order.
"""

from __future__ import annotations

import re

import discord

from bot.graphemes import cut
from bot.names import NAME_LENGTH, isolated

# Unicode's explicit directional formatting characters (UAX #9, section 2): marks,
# embeddings, overrides and isolates, plus the Arabic letter mark.
BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
# The marks the table puts beside a seat, 🤖 a bot and 👑 the host (with their emoji
# variation selector): a member whose name carried one passed for a bot, or for the host.
SEAT_MARKS = re.compile("[\U0001F916\U0001F451][\ufe0e\ufe0f]?")
LINK_BREAK = ":\u200b//"
# « 1. » opening a line starts a numbered list in Discord's markdown, which
# `escape_markdown` leaves as it is (it escapes « - », « # » and « > » there): a name
# opening a line of the table message (« 1. Zoé must give 2 cards to… ») would indent it.
ORDERED_ITEM = re.compile(r"^(\s*\d+)\.(?=\s|$)", re.MULTILINE)


def shown_text(text: str) -> str:
    """`text` as it may appear in a message: no bidi controls, markdown and mentions escaped.

    `escape_mentions` only breaks @everyone, @here and ids of 17 to 20 digits; a `<` is
    escaped too, so no `<@1>`, `<#channel>`, `<t:timestamp>` or `<:emoji:id>` renders. A
    web address is broken as `escape_mentions` breaks @everyone, with a zero-width space:
    else a name « https://… » is a link, and Discord unfurls it into a preview (a
    picture, say) under the table message (« Link previews »,
    https://docs.discord.com/developers/link-previews/overview); its markdown is escaped
    like the rest."""
    plain = BIDI_CONTROLS.sub("", text)
    escaped = discord.utils.escape_mentions(
        discord.utils.escape_markdown(plain, ignore_links=False))
    escaped = ORDERED_ITEM.sub(r"\1\\.", escaped)
    return escaped.replace("<", "\\<").replace("://", LINK_BREAK)


def player_name(raw: str) -> str:
    """A display name as every table message shows it: on one line, without the marks the
    table gives bots and the host (`SEAT_MARKS`), at most Discord's own length, then made
    safe (escaping happens last, so it is never cut in half). Cut between grapheme
    clusters (`bot.graphemes`)."""
    plain = cut(" ".join(SEAT_MARKS.sub("", BIDI_CONTROLS.sub("", raw)).split()), NAME_LENGTH)
    shown = shown_text(plain)
    return isolated(shown) if shown else "?"


def clipped(text: str, limit: int) -> str:
    """Plain ``text`` (a menu's line, a chart's label) within ``limit`` characters, « … »
    saying where it was cut, rather than stopping mid-word as if that were all; never
    inside a character as a reader sees it (`bot.graphemes`)."""
    return text if len(text) <= limit else cut(text, limit - 1).rstrip() + "…"


def unescaped(shown: str) -> str:
    """A name made safe by `shown_text`, as plain text again, for what is not markdown (a
    chart's picture and its alt text): every backslash `shown_text` adds escapes the one
    character after it, a backslash the name held included."""
    return re.sub(r"\\(.)", r"\1", shown, flags=re.DOTALL)
