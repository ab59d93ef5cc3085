"""The public lobby message: who sits, the rules in one line, and the lobby buttons."""

from __future__ import annotations

from typing import Any

import discord

from bot.graphemes import cut
from bot.i18n import join_names, plural, t
from bot.packages.cards.emojis import CONTENT_LIMIT
from bot.packages.controls import button, select, view
from bot.packages.rules_text import summary, table_preset_name
from bot.packages.screen import Screen
from bot.tables.deadlines import IDLE_CLOSE_SECONDS
from bot.tables.house import DROPPED_NAMED, house_to_leave
from bot.tables.logentry import LogEntry
from bot.tables.seats import vs_bots_size
from bot.tables.table import Table
from engine.bots import LEVELS


def lobby_screen(table: Table) -> Screen:
    """Discord cuts a message at 2,000 characters, which took the lobby's last lines: the
    seats and hints always show; the waiting list gives way first, down to a count
    (`queue_line`), then the rules line, down to its first changes (`summary`)."""
    loc = table.locale
    if table.closed:
        return Screen(t(loc, "lobby.closed"), view())
    title = t(loc, "lobby.title", preset=table_preset_name(loc, table.rules))
    if table.running:
        body, names, tail = [t(loc, "lobby.started")], [], []
    else:
        body, names = seat_lines(table), [p.name for p in table.queue]
        # the rules hint is the only way to the full rules for a newcomer (Réglages is the
        # host's)
        tail = ["", *idle_warning(table), start_hint(table), t(loc, "lobby.rules_hint")]
    house = [] if table.running else house_lines(table)
    shortest_queue = [queue_line(loc, names, 0, "lobby.queue")] if names else []
    others = "\n".join([title, t(loc, "lobby.rules", summary=""), *house, *body,
                        *shortest_queue, *tail])
    lines = [title, t(loc, "lobby.rules",
                      summary=summary(loc, table.rules, room=CONTENT_LIMIT - len(others))),
             *house, *body]
    if names:  # the line and its newline in the room left
        room = CONTENT_LIMIT - len("\n".join([*lines, *tail])) - 1
        lines.append(queue_line(loc, names, room, "lobby.queue"))
    return Screen("\n".join([*lines, *tail]),
                  view() if table.running else lobby_view(table))


def house_lines(table: Table) -> list[str]:
    """Under the rules, where they come from when the table opened on its channel's house
    rules (`bot.tables.house`), the table settings the house brought, and the button back
    to the preset's; or why some or all of them could not be read back. Gone once the host
    changes the rules or a game starts."""
    house, loc = table.house, table.locale
    if house is None:
        return []
    lines = [t(loc, "lobby.house_unreadable")] if house.unreadable else []
    reset = t(loc, "settings.reset")
    if not house.unreadable and table.rules.differences():
        # In a thread they are its own (kept by its games) or its channel's (kept by the
        # channel's games and its threads').
        key = "lobby.house" if table.parent_id is None else \
            "lobby.house.own_thread" if house.own_thread else "lobby.house.thread"
        lines.append(t(loc, key, reset=reset))
    if house.settings:
        shown = table.settings()
        lines.append(t(loc, "lobby.house_settings", reset=reset, settings=join_names(loc, [
            setting_words(loc, name, getattr(shown, name)) for name in house.settings])))
    if house.dropped:
        named = [f"`{name}`" for name in house.dropped[:DROPPED_NAMED]]
        rest = len(house.dropped) - len(named)
        knobs = join_names(loc, named) if not rest else \
            plural(loc, "lobby.queue_more", rest, names=", ".join(named))
        lines.append(t(loc, "lobby.house_dropped", knobs=knobs))
    return lines


def setting_words(loc: str, name: str, value: object) -> str:
    """A table setting the house brought, in a few words (« bots de niveau difficile »)."""
    if name == "bot_level":
        return t(loc, "lobby.house_setting.bot_level", level=t(loc, f"level.{value}"))
    return t(loc, f"lobby.house_setting.{name}.{'on' if value else 'off'}")


def offers_preset(table: Table) -> bool:
    """Whether the lobby offers « Revenir au préréglage »: on house rules that are not the
    preset's own (some knobs unread may leave them so), or table settings the house set."""
    return house_to_leave(table.house, table.rules)


def idle_warning(table: Table) -> list[str]:
    """When the table closes if nobody acts, once that is near (`Table.idle_warned`): the
    close came unannounced (play-test 24)."""
    if not table.idle_warned:
        return []
    closes = int(table.human_seen + IDLE_CLOSE_SECONDS)
    return [t(table.locale, "table.idle_warning", at=f"<t:{closes}:R>")]


def start_hint(table: Table) -> str:
    """How the host starts: with « Lancer contre des bots » on offer, what that button does
    (a newcomer saw two start buttons and no word of the difference). Where bots fill the
    table (`bots_fill`), how many « Lancer » seats: a proletario lobby opened to six read
    « Joueurs (4/6) » and the plain hint, and the start dealt two bots nobody had asked
    for (play-test 40). Else, below the rules' minimum, that « Lancer » waits for it: a
    table back in its lobby with two of classic's three read « appuie sur **Lancer** » and
    learned the minimum only from the refusal (play-test 44)."""
    if offers_vs_bots(table):
        return t(table.locale, "lobby.hint_vs_bots", n=vs_bots_size(table.rules))
    empty = table.rules.max_players - len(table.seats)
    if table.rules.bots_fill and empty > 0:
        return plural(table.locale, "lobby.hint_fill", empty)
    if len(table.seats) < table.rules.min_players:
        return t(table.locale, "lobby.hint_min", min=table.rules.min_players,
                 addbot=t(table.locale, "btn.addbot"))
    return t(table.locale, "lobby.hint")


def offers_vs_bots(table: Table) -> bool:
    """Whether « Lancer contre des bots » would seat any bot: with as many seated as it
    fills to, it is « Lancer » under another name, and is neither shown nor explained. So
    it is where bots fill the table (`bots_fill`): « Lancer » fills every seat, and this
    too once it has seated its own (proletario with `vs_bots` set offered it « jusqu’à 3
    places », and it dealt six)."""
    return not table.rules.bots_fill and len(table.seats) < vs_bots_size(table.rules)


def seat_lines(table: Table) -> list[str]:
    """Why the table came back (if it did), then who sits, host and bots marked."""
    loc = table.locale
    lines = []
    notice = shown_notice(table)
    if notice is not None:
        lines.append(t(loc, notice.key, **notice.params))
    lines.append(t(loc, "lobby.seats", count=len(table.seats), capacity=table.capacity()))
    if not table.seats:
        lines.append(t(loc, "lobby.empty"))
    for index, player in enumerate(table.seats, start=1):
        marks = []
        if player.user_id is not None and table.is_host(player.user_id):
            marks.append("👑 " + t(loc, "host.mark"))
        if player.is_bot:
            marks.append("🤖 " + t(loc, "bot.mark_level", level=t(loc, f"level.{player.level}")))
        suffix = f" ({', '.join(marks)})" if marks else ""
        lines.append(f"{index}. **{player.name}**{suffix}")
    return lines


def shown_notice(table: Table) -> LogEntry | None:
    """Why the table came back, if the lobby still says it. « Il ne reste pas assez de monde »
    says so only while it holds: a bot or a newcomer making the count again made it false,
    and the lobby kept it beside « appuie sur **Lancer** » (play-test 44); a bot removed
    below the count makes it true again."""
    notice = table.notice
    if notice is not None and notice.key == "table.back_to_lobby" and \
            len(table.seats) >= table.rules.min_players:
        return None
    return notice


def queue_line(loc: str, names: list[str], room: int, key: str) -> str:
    """« En attente de la prochaine manche : Alice, Bob et Carol » (`key`), or, when eight
    long names sit above a long queue, as many names as fit in `room` characters then « et 4
    autres »: Discord cuts a message at 2,000 characters, which took the lobby's last lines."""
    line = t(loc, key, names=join_names(loc, names))
    for shown in range(len(names) - 1, -1, -1):
        if len(line) <= room:
            break
        rest = len(names) - shown
        more = (plural(loc, "lobby.queue_more", rest, names=", ".join(names[:shown]))
                if shown else plural(loc, "lobby.queue_count", rest))
        line = t(loc, key, names=more)
    return line


def lobby_view(table: Table) -> discord.ui.View:
    loc = table.locale
    items: list[discord.ui.Item[Any]] = [
        button(table.id, "join", t(loc, "btn.join"), style=discord.ButtonStyle.primary),
        button(table.id, "leave", t(loc, "btn.leave")),
        button(table.id, "addbot", t(loc, "btn.addbot")),
        button(table.id, "settings", t(loc, "btn.settings")),
        button(table.id, "start", t(loc, "btn.start"), style=discord.ButtonStyle.success),
    ]
    if offers_vs_bots(table):
        items.append(button(table.id, "vsbots", t(loc, "btn.vs_bots"), row=1))
    if any(p.is_bot for p in table.seats):
        items.append(button(table.id, "removebot", t(loc, "btn.removebot"), row=1))
    if offers_preset(table):
        items.append(button(table.id, "house_reset", t(loc, "settings.reset"), row=1))
    # « Ajouter un bot » seats one at the table's default level; this picks another.
    items.append(select(
        table.id, "addbot_level", t(loc, "lobby.addbot_level"),
        [discord.SelectOption(label=t(loc, f"level.{level}"), value=level,
                              description=cut(t(loc, f"level.{level}.desc"), 100))
         for level in LEVELS],
        row=2))
    return view(*items)
