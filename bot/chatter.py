"""Channel chatter, left unread but counted: the MESSAGE_CREATE and MESSAGE_UPDATE events
that the GUILD_MESSAGES intent brings along with the deletes the bot asks it for.

Discord sends them for every message posted or edited in every channel the bot can see
(« GUILD_MESSAGES (1 << 9) - MESSAGE_CREATE, MESSAGE_UPDATE, MESSAGE_DELETE,
MESSAGE_DELETE_BULK », https://discord.com/developers/docs/events/gateway#list-of-intents):
on busy servers, far more than the bot's own tables make. discord.py would build a
`discord.Message` of each (author, member, mentions) and, `commands.Bot` being the base,
run `process_commands` for each in a task of its own, though the bot has no prefix command
and reads no message. Measured with ``python -m bot.loadbench --chatter`` (docs/deploy.md,
« Channel chatter »).
"""

from __future__ import annotations

from collections.abc import Callable, Container
from typing import Any

import discord


def leave_chatter_unread(client: discord.Client, watched: Container[int],
                         heard: Callable[[int, int], None],
                         own: Callable[[int, int], None]) -> None:
    """Drop MESSAGE_CREATE unparsed, telling `heard` its channel's and its own id when the
    channel is `watched` (one has a table) and the bot did not write it, `own` the same
    when the bot did (its deletion is then not chatter's), and drop MESSAGE_UPDATE
    unless the bot wrote the message (an edit takes no more room below a table than the
    message did). The channel is looked at first: nearly all chatter is in channels without
    a table, and costs there one conversion and one look-up (docs/deploy.md, « Channel
    chatter »).

    The bot's own edits stay parsed: discord.py refreshes from them the view it stored for
    that message (`ConnectionState.parse_message_update`). Nothing else in discord.py needs
    either event without a message cache (``max_messages=None``, `PresidentBot`); the
    deletes that matter arrive as MESSAGE_DELETE, parsed as before."""
    state = client._connection
    parsers = state.parsers
    update = parsers["MESSAGE_UPDATE"]

    def created(data: Any) -> None:
        """A message was posted: only its channel, author and id are read (`Buried.heard`,
        `Buried.posted_own`)."""
        channel_id = int(data["channel_id"])
        if channel_id in watched:
            author = data.get("author")
            if author is None or author.get("id") != str(state.self_id):
                heard(channel_id, int(data["id"]))
            else:
                own(channel_id, int(data["id"]))

    def edited(data: Any) -> None:
        author = data.get("author")
        if author is not None and author.get("id") == str(state.self_id):
            update(data)

    parsers["MESSAGE_CREATE"] = created
    parsers["MESSAGE_UPDATE"] = edited
