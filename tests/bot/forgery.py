"""Forged and malformed interactions for the fuzz and race tests, and what they must leave.

Every input made here is one the bot must refuse: a control's id with the other component
type, values that are no card, custom_ids forged onto a message (bad arguments, versions
that do not exist, another table's or another guild's ids, host actions by others, someone
else's « Quitter la partie »), modal submits of actions that are no form or with numbers in
other scripts, slash commands with unknown subcommands, values outside their choices and
users that are not snowflakes. The checks say what a refusal is: an answer, private, that
Discord accepts, and no change.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.client import PresidentBot
from bot.i18n import CATALOGUES
from bot.packages.game.hand_plays import option_value
from bot.tables.table import Table
from engine import KNOBS, Phase
from fakediscord import FakeDiscord, TestUser
from fakediscord.forge import MANAGE_GUILD, Forger, leaf_options
from fakediscord.limits import BUTTON, LABEL, STRING_SELECT, TEXT_INPUT, walk
from fakediscord.state import (
    APPLICATION_COMMAND,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    Channel,
    InteractionRecord,
    StoredMessage,
)

ACTIONS = ["hand", "refresh", "page", "play", "pass", "resume", "give", "give_ok", "next",
           "end", "stop", "quit", "replay", "join", "leave", "addbot", "removebot", "start",
           "vsbots", "settings", "preset", "reset", "done", "knob", "value", "form", "pause",
           "play_on", "house_reset"]
HAND_ACTIONS = {"refresh", "page", "play", "pass", "resume", "give", "give_ok"}
HOST_ACTIONS = ["start", "addbot", "removebot", "vsbots", "settings", "preset", "reset",
                "knob", "value", "next", "end", "stop", "replay", "pause", "play_on",
                "house_reset"]
NOT_CARDS = ["ZZ", "", " ", "3H.ZZ", "3H|ZZ", "RJ.BJ", "10X", "1H", "💩", "3H.3H", "0", "..",
             "|", "3h|q|k", "٣H", "AS" * 60, "3H|K", "null"]
BAD_ARGS = ["x", "-1", "٣", "５", "1_0", "+5", "99999999999", "", "ZZ.3H", "3H..4H", " 1",
            "0x1", "1e3"]
BAD_NUMBERS = ["٣", "５", "1_0", "+5", "abc", "1e3", "0x10", "½", "²", "∞", "-", "P٣ VP1"]
HAND_CONTROLS = (":play:", ":pass:", ":give:", ":give_ok:", ":refresh:", ":page:", ":resume:")


def cid(table_id: int, action: str, version: int = 0, arg: str = "") -> str:
    return f"pz:{table_id}:{action}:{version}:{arg}"


# A table's stored fields a refusal may change: the bookkeeping of answering (the hand a
# click redrew and the interaction it went through, message ids, the snapshot counter) and
# when the host and anyone were last seen (a refused click still shows they are there, and
# stores it at once if it moves them a minute or more: `Deadlines._seen_kept`).
BOOKKEEPING = ("hands", "seq", "lobby_message_id", "table_message_id", "host_seen",
               "human_seen")


def state_of(bot: PresidentBot, guild_ids: list[int]) -> str:
    """Everything a refusal must leave as it was: each table's seats, queue, rules, game,
    host, language and picks; not its `BOOKKEEPING`."""
    tables = {}
    everywhere = [t for g in guild_ids for t in bot.service.registry.in_guild(g)]
    for table in sorted(everywhere, key=lambda t: t.id):
        data: dict[str, object] = dict(table.to_dict())
        for key in BOOKKEEPING:
            data.pop(key)
        tables[table.id] = data
    return json.dumps(tables, sort_keys=True, default=str)


def changes(before: str, after: str) -> list[str]:
    """Which fields of which tables differ between two `state_of` results."""
    old, new = json.loads(before), json.loads(after)
    found = [f"table {t} appeared or went" for t in set(old) ^ set(new)]
    for table_id in set(old) & set(new):
        for key in sorted(set(old[table_id]) | set(new[table_id])):
            if old[table_id].get(key) != new[table_id].get(key):
                found.append(f"table {table_id}: {key}")
    return found


@dataclass
class Forgery:
    """One forged interaction, ready to send."""

    category: str
    user: TestUser
    kind: int
    data: dict[str, Any]
    channel: Channel | None = None
    message: int | None = None
    permissions: int | None = None
    inject: dict[str, Any] | None = None  # a component added to the payload's message

    def edit(self, payload: dict[str, Any]) -> None:
        if self.inject is not None and "message" in payload:
            payload["message"]["components"] = [
                *payload["message"]["components"],
                {"type": 1, "components": [self.inject]},
            ][-5:]


@dataclass
class Tally:
    """What the fuzz counts; every figure but `sent` and `by_category` must stay 0."""

    sent: int = 0
    unanswered: int = 0
    not_private: int = 0
    wrong_language: int = 0
    rejected_by_discord: int = 0
    state_changes: int = 0
    hands_shown: int = 0
    errors_logged: int = 0
    by_category: dict[str, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)

    def bad(self) -> int:
        return (self.unanswered + self.not_private + self.wrong_language
                + self.rejected_by_discord
                + self.state_changes + self.hands_shown + self.errors_logged)


class Fuzzer:
    """Makes forged inputs against one table from what its users can see."""

    def __init__(self, fake: FakeDiscord, bot: PresidentBot, rng: random.Random,
                 table: Table, host: TestUser, seated: TestUser, outsider: TestUser,
                 foreign_channel: Channel, foreign_table: Table, empty_channel: Channel) -> None:
        self.fake = fake
        self.bot = bot
        self.rng = rng
        self.table = table
        self.host = host
        self.seated = seated
        self.outsider = outsider
        self.foreign_channel = foreign_channel
        self.foreign_table = foreign_table
        self.empty_channel = empty_channel
        self.forger = Forger(fake)

    # ------------------------------------------------------------------ what users see

    def visible(self, user: TestUser) -> list[StoredMessage]:
        world = self.fake.world
        return [m for m in world.visible(user.id, self.table.channel_id)]

    def components(self, message: StoredMessage) -> list[dict[str, Any]]:
        return [dict(c) for _, c in walk(message.components)
                if c.get("type") in (BUTTON, STRING_SELECT) and c.get("custom_id")]

    def version(self) -> int:
        game = self.table.game
        return game.version if game is not None else 0

    # ------------------------------------------------------------------ categories

    def make(self) -> Forgery:
        makers: list[Callable[[], Forgery | None]] = [
            self.wrong_type, self.not_cards, self.forged_control, self.forged_control,
            self.modal, self.slash, self.other_guild, self.stale_host_button,
            self.future_play,
        ]
        while True:
            forgery = self.rng.choice(makers)()
            if forgery is not None:
                return forgery

    def wrong_type(self) -> Forgery | None:
        """A control's exact custom_id sent as the other component type."""
        user = self.rng.choice([self.host, self.seated])
        shown = [(m, c) for m in self.visible(user) for c in self.components(m)]
        if not shown:
            return None
        message, component = self.rng.choice(shown)
        kind = BUTTON if component["type"] == STRING_SELECT else STRING_SELECT
        data: dict[str, Any] = {"custom_id": component["custom_id"], "component_type": kind}
        if kind == STRING_SELECT:
            data["values"] = [self.rng.choice(NOT_CARDS)]
        return Forgery("wrong_type", user, MESSAGE_COMPONENT, data, message=message.id)

    def not_cards(self) -> Forgery | None:
        """A select on screen, picked with values it never offered."""
        user = self.rng.choice([self.host, self.seated])
        shown = [(m, c) for m in self.visible(user) for c in self.components(m)
                 if c["type"] == STRING_SELECT]
        if not shown:
            return None
        message, component = self.rng.choice(shown)
        values: list[object] = list(self.rng.sample(NOT_CARDS, self.rng.choice([1, 1, 2, 3])))
        if self.rng.random() < 0.1:
            values = [7, None, {"card": "3H"}]
        data = {"custom_id": component["custom_id"], "component_type": STRING_SELECT,
                "values": values}
        return Forgery("not_cards", user, MESSAGE_COMPONENT, data, message=message.id)

    def forged_control(self) -> Forgery | None:
        """A custom_id forged onto a message the user sees: only ids that must be refused."""
        rng = self.rng
        table_id = self.table.id
        version = self.version()
        choice = rng.randrange(7)
        user = rng.choice([self.host, self.seated, self.outsider])
        if choice == 0:  # bad arguments for the hand's controls
            action = rng.choice(["page", "give_ok", "give", "play"])
            custom = cid(table_id, action, version, rng.choice(BAD_ARGS))
        elif choice == 1:  # host actions by someone else
            user = rng.choice([self.seated, self.outsider])
            # A seated player's « Pause » is a break of their own (stop 50), not refused;
            # an outsider's is.
            actions = [a for a in HOST_ACTIONS if a != "pause" or user is self.outsider]
            custom = cid(table_id, rng.choice(actions), version,
                         rng.choice(["", "0", "1", "deck"]))
        elif choice == 2:  # another table, one that does not exist, an unknown action
            custom = rng.choice([
                cid(self.foreign_table.id, rng.choice(ACTIONS), 0),
                cid(987654321, rng.choice(ACTIONS), version),
                cid(table_id, "explode", version),
                f"pz:{table_id}:join:٣:", f"pz:{table_id}:join:0", "nothing", "pz:::::",
                f"pz:{table_id}{'9' * 30}:join:0:",
                f"pz:{table_id}:refresh:{version}:a\nb", f"pz:{table_id}:join:0:{'x' * 100}",
            ])
        elif choice == 3:  # joins and leaves that cannot apply
            # « Quitter la partie » names its game and its player: someone else's, another
            # game's (never the one under way), or unreadable.
            mine, game_no = self.seated.id, self.table.game_no
            user, action, arg = rng.choice([
                (self.host, "join", ""), (self.seated, "join", ""), (self.outsider, "leave", ""),
                (self.outsider, "resume", ""), (self.outsider, "pass", ""),
                (self.outsider, "quit", f"{game_no}.{mine}"),
                (self.host, "quit", f"{game_no}.{mine}"),
                (self.seated, "quit", f"{game_no + 1}.{mine}"),
                (self.seated, "quit", f"{rng.choice(BAD_ARGS)}.{mine}")])
            custom = cid(table_id, action, version, arg)
        elif choice == 4:  # settings by the host with values no select offers
            user = self.host
            action, arg = rng.choice([("preset", ""), ("knob", "tricks"), ("knob", "table"),
                                      ("value", "deck"), ("value", "min_players"),
                                      ("value", "ZZ")])
            custom = cid(table_id, action, 0, arg)
        elif choice == 5:  # a form's id as a click
            custom = cid(table_id, "form", 0, rng.choice(list(KNOBS)))
        else:  # a closing "done" or a hand control on a public message
            user = rng.choice([self.host, self.seated])
            custom = cid(table_id, rng.choice(["done", "refresh", "page"]), version,
                         "x" if rng.random() < 0.5 else "")
            public = [m for m in self.visible(user) if m.ephemeral_to is None]
            if not public:
                return None
            if custom.split(":")[2] != "done" and custom.endswith(":"):
                custom = custom[:-1] + "x"  # page/refresh forged with a bad page
            return self._injected("forged_control", user, custom, rng.choice(public).id)
        messages = self.visible(user)
        if not messages:
            return None
        return self._injected("forged_control", user, custom, rng.choice(messages).id)

    def _injected(self, category: str, user: TestUser, custom: str,
                  message: int) -> Forgery:
        if self.rng.random() < 0.5:
            component: dict[str, Any] = {"type": BUTTON, "custom_id": custom, "label": "x",
                                         "style": 1}
            data: dict[str, Any] = {"custom_id": custom, "component_type": BUTTON}
        else:
            values = self.rng.sample(NOT_CARDS, 2)
            component = {"type": STRING_SELECT, "custom_id": custom,
                         "options": [{"label": v or "-", "value": v} for v in values],
                         "min_values": 1, "max_values": 2}
            data = {"custom_id": custom, "component_type": STRING_SELECT, "values": values}
        return Forgery(category, user, MESSAGE_COMPONENT, data, message=message,
                       inject=component)

    def modal(self) -> Forgery | None:
        """A modal submit: actions that are no form, forms with unreadable numbers, forms
        for knobs that take no typed value, forms from another guild's channel."""
        rng = self.rng
        user = rng.choice([self.host, self.seated, self.outsider])
        choice = rng.randrange(4)
        channel = None
        typed = [k for k, spec in KNOBS.items() if spec.kind not in ("bool", "choice")]
        if choice == 0:
            custom = cid(self.table.id, rng.choice([a for a in ACTIONS if a != "form"]),
                         self.version(), rng.choice(["", "0", "1"]))
            text = rng.choice(["1", "x"])
        elif choice == 1:
            user = self.host
            custom = cid(self.table.id, "form", 0, rng.choice(typed))
            text = rng.choice(BAD_NUMBERS)
        elif choice == 2:
            user = self.host
            knob = rng.choice([k for k, spec in KNOBS.items() if spec.kind == "bool"])
            custom = cid(self.table.id, "form", 0, knob)
            text = rng.choice(["true", "false", "oui"])
        else:  # a well-formed answer, from another guild's channel
            user = self.host
            custom = cid(self.table.id, rng.choice(["form", "join", "start"]), 0,
                         "game_end")
            text = "3"
            channel = self.foreign_channel
        components = [{"type": LABEL,
                       "component": {"type": TEXT_INPUT, "custom_id": "f", "value": text}}]
        data = {"custom_id": custom, "components": components}
        messages = [m.id for m in self.visible(user)] if channel is None else []
        message = rng.choice(messages) if messages and rng.random() < 0.5 else None
        return Forgery("modal", user, MODAL_SUBMIT, data, channel=channel, message=message)

    def slash(self) -> Forgery | None:
        """Slash commands Discord's client would not send."""
        rng = self.rng
        user = rng.choice([self.host, self.seated, self.outsider])
        forger = self.forger
        choice = rng.randrange(8)
        permissions = None
        if choice in (0, 1):  # a member that is not resolved, not a snowflake, too big
            command = "president kick" if choice == 0 else "president stats"
            data = forger.command(user, command, member=self.seated)
            option = leaf_options(data)[0]
            broken = rng.choice(["unresolved", "abc", str(2**64), str(2**63), "-1", "٣"])
            if broken == "unresolved":
                data.pop("resolved", None)
            else:
                option["value"] = broken
        elif choice == 2:  # an unknown subcommand
            data = forger.command(user, "president hand")
            data["options"][0]["name"] = rng.choice(["explode", "", "HAND", "hand2"])
        elif choice == 3:  # a preset outside the choices
            command = rng.choice(["president create", "president leaderboard"])
            data = forger.command(user, command, preset="classic")
            leaf_options(data)[0]["value"] = rng.choice(["CLASSIC", "", "wild8", "x" * 200])
            if command == "president create" and rng.random() < 0.5:
                return Forgery("slash", user, APPLICATION_COMMAND, data,
                               channel=self.empty_channel)
        elif choice == 4:  # a language outside the choices, even from an admin
            data = forger.command(user, "president language", language="fr")
            leaf_options(data)[0]["value"] = rng.choice(["CLASSIC", "de", "", "FR"])
            permissions = MANAGE_GUILD if rng.random() < 0.5 else None
        elif choice == 5:  # an option of another type, or one the command does not have
            data = forger.command(user, "president create", preset="classic")
            if rng.random() < 0.5:
                leaf_options(data)[0]["type"] = 4
                leaf_options(data)[0]["value"] = 3
            else:
                leaf_options(data).append({"type": 3, "name": "seats", "value": "9"})
        elif choice == 6:  # the language of a table by someone neither its host nor an admin
            user = rng.choice([self.seated, self.outsider])
            data = forger.command(user, "president language", language="en")
        else:  # a required option left out
            data = forger.command(user, "president language", language="en")
            leaf_options(data).clear()
            permissions = MANAGE_GUILD if rng.random() < 0.5 else None
        return Forgery("slash", user, APPLICATION_COMMAND, data, permissions=permissions)

    def other_guild(self) -> Forgery | None:
        """This table's real controls, sent from a channel of another guild or another
        channel of its own."""
        user = self.host
        shown = [(m, c) for m in self.visible(user) for c in self.components(m)]
        if not shown:
            return None
        message, component = self.rng.choice(shown)
        data: dict[str, Any] = {"custom_id": component["custom_id"],
                                "component_type": component["type"]}
        if component["type"] == STRING_SELECT:
            data["values"] = [o["value"] for o in component.get("options", [])[:1]]
        channel = self.rng.choice([self.foreign_channel, self.empty_channel])
        return Forgery("other_guild", user, MESSAGE_COMPONENT, data, channel=channel,
                       message=message.id)

    def stale_host_button(self) -> Forgery | None:
        """Next, End and Replay drawn for another version of the game."""
        version = self.version()
        wrong = self.rng.choice([version + 1, version + 5, max(0, version - 1) if version else
                                 version + 2, 10**15])
        action = self.rng.choice(["next", "end", "replay"])
        messages = self.visible(self.host)
        if not messages:
            return None
        return self._injected("stale_host_button", self.host,
                              cid(self.table.id, action, wrong), self.rng.choice(messages).id)

    def future_play(self) -> Forgery | None:
        """A legal play or pass carrying a version that does not exist yet."""
        game = self.table.game
        if game is None or game.phase is not Phase.PLAY:
            return None
        user = self.rng.choice([self.host, self.seated])
        seat = self.table.seat_of(user.id)
        hands = [m for m in self.visible(user) if m.ephemeral_to == user.id]
        if seat is None or not hands:
            return None
        future = game.version + self.rng.choice([1, 2, 50])
        options = game.legal_plays(seat)
        if options and self.rng.random() < 0.8:
            value = option_value(self.rng.choice(options))
            custom = cid(self.table.id, "play", future, "1")
            component: dict[str, Any] = {
                "type": STRING_SELECT, "custom_id": custom,
                "options": [{"label": "x", "value": value}]}
            data: dict[str, Any] = {"custom_id": custom, "component_type": STRING_SELECT,
                                    "values": [value]}
        else:
            custom = cid(self.table.id, "pass", future)
            component = {"type": BUTTON, "custom_id": custom, "label": "x", "style": 1}
            data = {"custom_id": custom, "component_type": BUTTON}
        return Forgery("future_play", user, MESSAGE_COMPONENT, data, message=hands[-1].id,
                       inject=component)

    # ------------------------------------------------------------------ sending and judging

    async def send(self, forgery: Forgery) -> InteractionRecord:
        return await self.forger.send(
            forgery.user, forgery.kind, forgery.data, channel=forgery.channel,
            message=forgery.message, permissions=forgery.permissions, edit=forgery.edit,
            settle=False)


def _openings(language: str) -> set[str]:
    """The fixed start of each sentence of a catalogue (up to its first placeholder)."""
    starts = set()
    for text in CATALOGUES[language].values():
        start = text.split("{")[0].strip()
        if len(start) >= 12:
            starts.add(start)
    return starts


OPENINGS = {language: _openings(language) for language in CATALOGUES}


def in_other_language(fake: FakeDiscord, record: InteractionRecord, locale: str) -> bool:
    """Whether the private answer starts with a sentence that only the other language's
    catalogue has: a refusal must speak the user's language."""
    world = fake.world
    ids = [record.original_message_id, *record.followup_ids]
    if record.response_type == 7:
        ids.append(record.message_id)
    mine = "fr" if locale.startswith("fr") else "en"
    theirs = "en" if mine == "fr" else "fr"
    foreign = OPENINGS[theirs] - OPENINGS[mine]
    for message_id in ids:
        message = world.messages.get(message_id or 0)
        if message is None:
            continue
        text = message.content.removeprefix("⚠️ ").removeprefix("✅ ")
        if any(text.startswith(start) for start in foreign):
            return True
    return False


def private_answer(fake: FakeDiscord, record: InteractionRecord) -> bool:
    """Whether a refusal was answered privately: a new ephemeral message (type 4, or a
    deferral whose follow-ups are ephemeral), or a redraw of the user's own ephemeral."""
    world = fake.world
    if record.response_type == 4:
        message = world.messages.get(record.original_message_id or 0)
        return message is not None and message.ephemeral_to == record.user_id
    if record.response_type == 7:
        message = world.messages.get(record.message_id or 0)
        return message is not None and message.ephemeral_to == record.user_id
    if record.response_type == 5:
        original = world.messages.get(record.original_message_id or 0)
        followups = [world.messages.get(i) for i in record.followup_ids]
        return (original is None or original.ephemeral_to == record.user_id) and all(
            m is not None and m.ephemeral_to == record.user_id for m in followups)
    return False


def hands_shown_to_others(fake: FakeDiscord, tables: list[Table]) -> list[int]:
    """Messages showing a hand to someone other than its owner: hand controls or a hand's
    title on a public message, or on an ephemeral of someone who is not seated there."""
    leaks = []
    seated = {p.user_id for table in tables for p in table.seats + table.queue}
    for message in fake.world.messages.values():
        ids = [str(c.get("custom_id")) for _, c in walk(message.components)]
        hand = any(marker in i for i in ids for marker in HAND_CONTROLS) or \
            "**Your hand**" in message.content or "**Ta main**" in message.content
        if hand and (message.ephemeral_to is None or message.ephemeral_to not in seated):
            leaks.append(message.id)
    return leaks
