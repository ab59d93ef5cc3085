"""What a player does when the game waits for them: the monkey's (`monkey.py`) way to get
past the first round.

A user whose turn it is (the table message marks it), who owes a gift, or who hosts a table
between rounds or games, a lobby that could start, or someone seated nowhere: each reads
what their client shows and clicks one of its controls — a play or a pass in their newest
hand, cards to give in its menus, « Manche suivante », « Rejouer » or « Terminer » on the
table message, « Rejoindre », « Ajouter un bot » or « Lancer » in the lobby. Nothing here
reaches past the screen: the engine is read only to know who is waited for, as the table
message says.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.packages.controls import CUSTOM_ID
from bot.tables.registry import Registry
from bot.tables.table import Table
from engine import Game, Phase
from fakediscord import TestUser
from fakediscord.snapshots import Button, Control, Message, Select
from fakediscord.state import Channel

# A control the monkey clicks: what it says, the message, its custom_id, values picked.
Click = tuple[str, Message, str, list[str] | None]
HAND = ("play", "pass", "give", "give_ok", "resume", "page")


@dataclass(frozen=True)
class Due:
    """Someone the game or a lobby waits for, and what for."""

    user: TestUser
    table: Table
    channel: Channel
    kind: str  # hand | next | over | join | start | fill | bots (nobody but the clock)


def waited_for(users: list[TestUser], registry: Registry,
               channels: list[Channel]) -> list[Due]:
    by_id = {u.id: u for u in users}
    where = {c.id: c for c in channels}
    seated = {s.user_id for t in registry.tables() for s in (*t.seats, *t.queue)}
    found = []
    for table in registry.tables():
        channel = where.get(table.channel_id)
        if channel is None or table.closed:
            continue
        host = by_id.get(table.host_id)
        game = table.game
        if game is None:
            if host is not None and table.seat_of(host.id) is not None:
                enough = len(table.seats) >= table.rules.min_players
                found.append(Due(host, table, channel, "start" if enough else "fill"))
        elif game.phase is Phase.ROUND_OVER and host is not None:
            found.append(Due(host, table, channel, "next"))
        elif game.phase is Phase.GAME_OVER and host is not None:
            found.append(Due(host, table, channel, "over"))
        else:
            if game.to_act is not None and game.automated(game.to_act) or \
                    game.phase is Phase.EXCHANGE:
                found.append(Due(by_id.get(table.host_id) or users[0], table, channel, "bots"))
            for seat, player in enumerate(table.seats):
                user = by_id.get(player.user_id or 0)
                if user is None or seat not in game.players:
                    continue
                if game.phase is Phase.EXCHANGE and gives(game, seat) \
                        or game.phase is Phase.PLAY and (
                            game.to_act == seat or game.to_act is None
                            and (game.legal_plays(seat) or game.can_pass(seat))):
                    found.append(Due(user, table, channel, "hand"))
        if game is None or game.phase is Phase.GAME_OVER:
            found += [Due(u, table, channel, "join") for u in users if u.id not in seated]
    return found


def gives(game: Game, seat: int) -> bool:
    """Whether the hand offers this seat cards to give: what it owes, or its pick among
    equal best cards that a blind exchange holds back for it."""
    due = game.exchange_due(seat)
    if due is not None:
        return due.ready
    choice = game.gift_choice(seat)
    return choice is not None and choice.ready and len(choice.allowed) > choice.count


def action_of(control: Control) -> tuple[int, str, int] | None:
    """The table, action and version a control's custom_id names."""
    match = CUSTOM_ID.fullmatch(control.custom_id or "")
    return (int(match[1]), match[2], int(match[3])) if match else None


def shown(user: TestUser, table: Table, message_id: int | None) -> Message | None:
    return next((m for m in user.visible() if m.id == message_id), None)


def newest_hand(user: TestUser, table: Table) -> Message | None:
    """The newest private message showing this table's hand controls."""
    for message in reversed([m for m in user.visible() if m.ephemeral]):
        for control in message.controls:
            named = action_of(control)
            if named is not None and named[0] == table.id and named[1] in HAND + ("refresh",):
                return message
    return None


def enabled(message: Message, *actions: str) -> list[Control]:
    return [c for c in message.controls if not c.disabled
            and (named := action_of(c)) is not None and named[1] in actions
            and (not isinstance(c, Select) or c.options)]


def pick(rng: random.Random, message: Message, control: Control) -> Click:
    """Click the button, or pick options in the menu: one play, or as many cards as the
    menu takes (a split exchange menu takes from none up)."""
    assert control.custom_id is not None
    if isinstance(control, Button):
        return f"click {control.label!r} {control.custom_id}", message, control.custom_id, None
    high = min(control.max_values, len(control.options))
    low = min(control.min_values, high)
    count = high if control.min_values == control.max_values else rng.randint(low, high)
    values = [o.value for o in rng.sample(list(control.options), count)]
    return f"select {values} in {control.custom_id}", message, control.custom_id, values


def hand_move(rng: random.Random, user: TestUser, table: Table) -> Click | None:
    """A play or a pass, a gift, « Reprendre »; or « Ma main » when no hand is in sight."""
    hand = newest_hand(user, table)
    moves = enabled(hand, *HAND) if hand is not None else []
    if hand is None or not moves:
        board = shown(user, table, table.table_message_id)
        buttons = enabled(board, "hand") if board is not None else []
        return pick(rng, board, buttons[0]) if board is not None and buttons else None
    for action, weight in (("resume", 0.9), ("give_ok", 0.5), ("pass", 0.2), ("page", 0.1)):
        found = enabled(hand, action)
        if found and rng.random() < weight:
            return pick(rng, hand, found[0])
    menus = enabled(hand, "play", "give") or moves
    return pick(rng, hand, rng.choice(menus))


def host_move(rng: random.Random, user: TestUser, table: Table, kind: str) -> Click | None:
    """« Manche suivante »; « Rejouer » mostly or « Terminer » once a game is over; in the
    lobby « Lancer » once enough are seated, else « Ajouter un bot »."""
    actions: tuple[str, ...]
    if kind in ("next", "over"):
        where, actions = table.table_message_id, ("next",) if kind == "next" else (
            ("replay",) if rng.random() < 0.75 else ("end",))
    else:
        where, actions = table.lobby_message_id, ("start",) if kind == "start" else (
            "addbot", "vsbots")
    message = shown(user, table, where)
    if message is None:
        return None
    found = enabled(message, *actions)
    return pick(rng, message, rng.choice(found)) if found else None


def join_move(rng: random.Random, user: TestUser, table: Table) -> Click | None:
    """« Rejoindre » on the lobby, or on the table message to wait for the next game."""
    for where in (table.lobby_message_id, table.table_message_id):
        message = shown(user, table, where)
        found = enabled(message, "join") if message is not None else []
        if message is not None and found:
            return pick(rng, message, found[0])
    return None


def move(rng: random.Random, due: Due) -> Click | None:
    due.user.channel = due.channel
    if due.kind == "hand":
        return hand_move(rng, due.user, due.table)
    if due.kind == "join":
        return join_move(rng, due.user, due.table)
    return host_move(rng, due.user, due.table, due.kind)
