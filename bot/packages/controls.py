"""Restart-safe buttons and selects: every custom_id names its table, action and state version.

One `DynamicItem` claims every component click the bot receives, so controls keep working
after a restart and a forged or foreign custom_id still gets a clear answer instead of
Discord's "This interaction failed". Features register their handlers with `@action`.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.graphemes import cut
from bot.i18n import has, plural, t
from bot.languages import discord_locale, own_locale
from bot.packages.moderation import timed_out
from bot.packages.text import shown_text
from bot.storage.failures import describe, transient
from bot.tables.service import TableError
from bot.tables.table import Table
from bot.tables.tokens import TOKEN_LIFETIME

if TYPE_CHECKING:
    from bot.packages.host import Host

log = logging.getLogger(__name__)

PREFIX = "pz"
# ASCII digits only: `\d` would also take « ٣ » or « ５ », which `int()` then reads.
CUSTOM_ID = re.compile(rf"{PREFIX}:([0-9]{{1,20}}):([a-z_]+):([0-9]{{1,20}}):([^:]*)")


def custom_id(table_id: int, action: str, version: int = 0, arg: str = "") -> str:
    cid = f"{PREFIX}:{table_id}:{action}:{version}:{arg}"
    if len(cid) > 100 or not CUSTOM_ID.fullmatch(cid):
        raise ValueError(f"custom_id {cid!r} cannot be encoded")
    return cid


@dataclass
class Click:
    """One decoded component interaction."""

    interaction: discord.Interaction[Host]
    table: Table
    action: str
    version: int
    arg: str
    values: list[str] = field(default_factory=list)

    @property
    def bot(self) -> Host:
        return self.interaction.client

    @property
    def user_id(self) -> int:
        return self.interaction.user.id

    @property
    def locale(self) -> str:
        return str(self.interaction.locale)


Handler = Callable[[Click], Awaitable[None]]
# Buttons and selects, and forms, apart: a form's answer sent as a click (or a click's id
# sent as a form) is refused instead of running a handler written for the other kind.
HANDLERS: dict[str, Handler] = {}
FORMS: dict[str, Handler] = {}

#: Table id 0 in a custom_id: a control of no table (tables are numbered from 1), such as the
#: past games offered by /president history. Its handler gets the arg and the picked values.
NO_TABLE = 0
Standalone = Callable[[discord.Interaction[Any], str, list[str]], Awaitable[None]]
STANDALONE: dict[str, Standalone] = {}
#: Controls of no table a member in timeout keeps (`route_standalone`).
OPEN_IN_TIMEOUT: set[str] = set()


def standalone(name: str, *, open_in_timeout: bool = False
               ) -> Callable[[Standalone], Standalone]:
    """Register the handler of a control of no table (see `NO_TABLE`); `open_in_timeout`:
    a member in timeout may use it (`route_standalone`)."""
    def register(handler: Standalone) -> Standalone:
        if name in STANDALONE or name in HANDLERS or name in FORMS:
            raise ValueError(f"action {name!r} registered twice")
        STANDALONE[name] = handler
        if open_in_timeout:
            OPEN_IN_TIMEOUT.add(name)
        return handler
    return register


@dataclass(frozen=True)
class Drawn:
    """Where and how the bot draws an action's control: what tells a late click on one that
    a redraw has since replaced (see `late`) from a forged one."""

    select: bool = False  # a string select, else a button
    private: bool = False  # on an ephemeral message (a hand, a prompt, the settings panel)
    versioned: bool = False  # carries the game version it was drawn for, else 0
    # What its arg matches; a group named "user" must be the clicker's id (their prompt).
    arg: str = ""
    # The late click's answer, run like a handler (a hand is redrawn); else err.stale_button.
    late: Handler | None = None


#: How each action's control is drawn; an action without one has no late clicks (every
#: click on one of its controls absent from its message is refused as forged).
DRAWN: dict[str, Drawn] = {}


def action(name: str, *, form: bool = False,
           drawn: Drawn | None = None) -> Callable[[Handler], Handler]:
    """Register the handler of a button or select (`form=True`: of a submitted form), and
    how its control is drawn (`drawn`)."""
    registry = FORMS if form else HANDLERS

    def register(handler: Handler) -> Handler:
        if name in HANDLERS or name in FORMS or name in STANDALONE:
            raise ValueError(f"action {name!r} registered twice")
        registry[name] = handler
        if drawn is not None:
            DRAWN[name] = drawn
        return handler

    return register


def number(text: str, limit: int) -> int:
    """A number carried in a custom_id or a value: ASCII digits below `limit`, else the
    control was forged (`int()` alone would take « ٣ », "1_0" or "+5")."""
    if not text or len(text) > 9 or not all("0" <= ch <= "9" for ch in text):
        raise TableError("err.unknown_control")
    value = int(text)
    if value >= limit:
        raise TableError("err.unknown_control")
    return value


#: Discord's « Unknown interaction »: what it answers a first response that reached it past
#: its deadline, « you must send an initial response within 3 seconds of receiving the
#: event. If the 3 second deadline is exceeded, the token will be invalidated » (Receiving
#: and Responding, Responding to an Interaction,
#: https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction).
UNKNOWN_INTERACTION = 10062
#: Discord's « Invalid Webhook Token » (401): what it answers an edit or a followup through
#: an interaction's token past its life, « Interaction `tokens` are valid for **15
#: minutes** » (same page, Followup Messages; JSON Error Codes, topics/opcodes-and-status-
#: codes.mdx): a click acknowledged in time (deferred) whose answer waited longer, for a
#: move's commit while the database was away.
INVALID_WEBHOOK_TOKEN = 50027


def too_late(err: BaseException) -> bool:
    """Whether `err` is Discord refusing an answer that reached it past the interaction's
    3 seconds (a slow network, a loaded Discord), or past its token's 15 minutes once
    deferred: its user was shown « This interaction failed », or nothing more, and the
    token is dead, so no other answer can reach them (a refusal saying an error happened
    would be one more refused call). No bug of the bot's: one warning line, no traceback.
    What the click changed stands, and shows on the table and its hands."""
    return (isinstance(err, discord.NotFound) and err.code == UNKNOWN_INTERACTION) or (
        isinstance(err, discord.HTTPException) and err.status == 401
        and err.code == INVALID_WEBHOOK_TOKEN)


#: Where `PresidentBot.dispatch` notes when an interaction reached the bot (`heard`), in the
#: dict discord.py keeps on each interaction for its handlers (`Interaction.extras`).
HEARD = "heard"


def heard(interaction: discord.Interaction[Any]) -> float:
    """When the interaction reached the bot, on the service's clock: its token's 15 minutes
    count from about then (minus the network's trip, within `tokens.TOKEN_LIFETIME`'s 30 s),
    however long its answer then waited for a move's commit."""
    at = interaction.extras.get(HEARD)
    now: float = interaction.client.service.clock.now()
    return at if isinstance(at, float) else now


def token_alive(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction's token may still answer (`heard`, `TOKEN_LIFETIME`): an
    answer deferred while a move waited for its commit (the database away for a quarter of
    an hour) would be refused with 401 « Invalid Webhook Token » (`too_late`)."""
    now: float = interaction.client.service.clock.now()
    return now < heard(interaction) + TOKEN_LIFETIME


async def refuse(interaction: discord.Interaction[Any], key: str, **params: object) -> None:
    """Tell the user, privately and in their language, why nothing happened."""
    await answer_privately(interaction, refusal_text(own_locale(interaction),
                                                     TableError(key, **params)))


def out_of_reach(err: BaseException, where: str) -> bool:
    """Whether `err` is the database being away rather than a bug
    (`bot.storage.failures.transient`). If so it is logged here as one WARNING line without
    a traceback, and the caller answers `err.storage_down`: during a failover every command
    fails the same way, and a traceback each would bury the log in identical ones. A bug is
    left to the caller, which logs it as an error with its traceback."""
    # Discord's own API fails through aiohttp, whose errors are OSErrors and TimeoutErrors
    # too (`ClientOSError`, `ServerTimeoutError`): those are no database outage.
    if isinstance(err, aiohttp.ClientError | discord.DiscordException) or not transient(err):
        return False
    log.warning("%s: the database is out of reach (%s)", where, describe(err))
    return True


async def answer_privately(interaction: discord.Interaction[Any], text: str) -> None:
    """One ephemeral line: the interaction's response, or a follow-up once it is answered.
    Always a new message (type 4), which Discord accepts for every interaction type. No
    follow-up past the token's life (`token_alive`): it would be a 401, raised out of the
    handler; nothing can reach its user any more."""
    if interaction.response.is_done():
        if not token_alive(interaction):
            log.info("interaction %s: its token has expired, not told: %s", interaction.id,
                     text)
            return
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


def opened_form(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction was answered with a form (MODAL). Discord accepts a followup
    then, but it lands in the channel under the open form, where the host, busy typing, does
    not see it: a permission notice waits for the form's submission, whose answer shows it
    (or for the host's next action if they close the form)."""
    return interaction.response.type is discord.InteractionResponseType.modal


async def tell_vanished(interaction: discord.Interaction[Any]) -> None:
    """After answering any command or control on a server, tell its user, once, of their
    tables there whose channel was deleted (`bot.tables.vanished`): nowhere else is left
    to say it. Privately, in their language, after the answer they asked for. Not where
    that answer failed (`too_late`): kept for their next interaction, which can answer. Nor
    under a form the answer opened (`opened_form`), where its user, typing, misses it: kept
    for the form's answer (`submit_form`), or their next action if they close it. Nor
    through a token past its life (`token_alive`): an answer deferred a quarter of an hour
    while its move waited for the database."""
    if interaction.guild_id is None or not interaction.response.is_done() or \
            opened_form(interaction) or not token_alive(interaction):
        return
    owed = await interaction.client.service.vanished.take(interaction.guild_id,
                                                          interaction.user.id)
    if owed:  # a channel's table and its threads' are one line: the threads went with it
        await answer_privately(interaction, "\n".join(dict.fromkeys(
            t(interaction.locale, "vanished.unnamed") if table.channel is None else
            t(interaction.locale, "vanished.named.thread" if table.in_thread else
              "vanished.named", channel=shown_text(table.channel))
            for table in owed)))


# Every refusal opens with it, whichever path answers it (a command, a control, a form, a
# redrawn hand's notice), so a player tells a refusal from an answer at a glance.
WARNING = "⚠️ "


def here(interaction: discord.Interaction[Any], key: str) -> str:
    """`key`, or its wording for a thread where the interaction comes from one: a French
    reader calls a thread « fil », not « salon »."""
    thread = f"{key}.thread"
    return thread if isinstance(interaction.channel, discord.Thread) and has(thread) else key


def refusal_text(locale: object, err: TableError) -> str:
    """A refusal as its one private line: the warning sign, then `error_text`."""
    return WARNING + error_text(locale, err)


def error_text(locale: object, err: TableError) -> str:
    """The sentence for a refusal; unknown engine codes fall back to the engine's own words.

    A count of cards from the engine becomes words here ("1 carte", "2 cartes")."""
    params = dict(err.params)
    count = params.get("count")
    if isinstance(count, int):
        params["cards"] = plural(locale, "n.cards", count)
    try:
        return t(locale, err.key, **params)
    except (KeyError, IndexError):
        return t(locale, "engine.other", detail=err.params.get("detail", err.key))


# The custom_ids `Control` claims. discord.py only dispatches to it an id that matches this
# and that is on the message with its type; `refuse_forged` answers every other click.
CLAIMED = re.compile(r"(?P<raw>.{1,100})")


class Control(discord.ui.DynamicItem[discord.ui.Item[Any]], template=CLAIMED):
    """Claims every component: ours are decoded and routed, anything else is refused."""

    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> Control:
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.client.replays.late(interaction):
            return  # its player was told it failed (`bot.replays`)
        data: dict[str, Any] = dict(interaction.data or {})
        raw, values = str(data.get("custom_id", "")), strings(data.get("values"))
        if not await route_standalone(interaction, raw, values):
            await route(interaction, raw, values, HANDLERS, "err.unknown_control")
        await tell_vanished(interaction)


async def route_standalone(interaction: discord.Interaction[Any], raw: str,
                           values: list[str]) -> bool:
    """Run a control of no table; False for any other custom_id (`route` takes it). Its
    handler checks what the values name, as they are untrusted."""
    match = CUSTOM_ID.fullmatch(raw)
    if match is None or int(match.group(1)) != NO_TABLE or match.group(2) not in STANDALONE:
        return False
    if interaction.client.stopping:  # as `route` and the commands: storage is closing
        await refuse(interaction, "err.restarting")
        return True
    # The command that drew it is one Discord no longer offers a member in timeout
    # (`moderation`): its controls follow it, as a table's do (stop 61; `/president
    # history`'s pages were still turned). An erasure's stay open (`privacy.views`).
    timeout = None if match.group(2) in OPEN_IN_TIMEOUT else \
        timed_out(interaction, interaction.client.service.clock.now(), "err.timed_out.read")
    if timeout is not None:
        await answer_privately(interaction, refusal_text(own_locale(interaction), timeout))
        return True
    try:
        await STANDALONE[match.group(2)](interaction, match.group(4), values)
    except TableError as err:
        await answer_privately(interaction, refusal_text(own_locale(interaction), err))
    except Exception as err:
        if too_late(err):
            log.warning("%s: answered too late for its token (%s)", match.group(2), err)
        elif out_of_reach(err, match.group(2)):
            await refuse(interaction, "err.storage_down")
        else:
            log.exception("%s failed", match.group(2))
            await refuse(interaction, "err.internal")
    return True


def strings(values: object) -> list[str]:
    """A select's picked values; anything but a list of strings (a forged payload) is none."""
    if not isinstance(values, list):
        return []
    return [v for v in values if isinstance(v, str)]


async def route(interaction: discord.Interaction[Any], raw: str, values: list[str],
                handlers: dict[str, Handler], unknown: str) -> None:
    """Decode a custom_id and run its handler; `unknown` answers ids no handler claims.

    Every field of an interaction is untrusted: a table is only acted on from its own
    channel, whatever table id the custom_id names, and a handler that fails unexpectedly
    still answers (the failure is logged) instead of leaving "This interaction failed"."""
    match = CUSTOM_ID.fullmatch(raw)
    handler = handlers.get(match.group(2)) if match else None
    if match is None or handler is None:
        await refuse(interaction, unknown)
        return
    if interaction.client.stopping:
        await refuse(interaction, "err.restarting")
        return
    interaction.client.service.heard(interaction.user.id, str(interaction.locale),
                                     str(discord_locale(interaction)))
    table = interaction.client.service.registry.by_id(int(match.group(1)))
    if table is None or table.closed:
        await refuse(interaction, "err.table_gone")
        return
    if table.channel_id != interaction.channel_id or table.guild_id != interaction.guild_id:
        await refuse(interaction, "err.other_channel")
        return
    timeout = timed_out(interaction, interaction.client.service.clock.now())
    if timeout is not None:  # the rule Discord holds their commands to (`moderation`)
        until = timeout.params["until"]
        assert isinstance(until, int)
        interaction.client.service.heard_timeout(table, interaction.user.id, until)
        await answer_privately(interaction, refusal_text(own_locale(interaction), timeout))
        return
    interaction.client.service.heard_timeout_lifted(table, interaction.user.id)
    click = Click(interaction, table, match.group(2), int(match.group(3)), match.group(4),
                  values)
    try:
        await handler(click)
    except TableError as err:
        await answer_privately(interaction, refusal_text(own_locale(interaction), err))
    except Exception as err:
        if too_late(err):
            # Nothing can reach its player any more (`too_late`), nor tell a host anything
            # (`acted`): what the click changed shows on the table and in the hands.
            log.warning("%s on table %s: answered too late for its token (%s)",
                        click.action, table.id, err)
        elif out_of_reach(err, f"{click.action} on table {table.id}"):
            await refuse(interaction, "err.storage_down")
        else:
            log.exception("%s on table %s failed", click.action, table.id)
            await refuse(interaction, "err.internal")
        return
    # Someone acted: a table whose channel refused the bot may post again, or tells its host.
    await interaction.client.publisher.acted(interaction, table)


def typed_answers(components: list[Any]) -> list[str]:
    """The text typed in a submitted form, field by field (inside labels or action rows)."""
    answers: list[str] = []
    for component in components:
        if not isinstance(component, dict):
            continue
        if "value" in component:
            answers.append(str(component["value"]))
        inner = component.get("component")
        answers += typed_answers([inner] if inner is not None else [])
        answers += typed_answers(list(component.get("components") or []))
    return answers


async def submit_form(interaction: discord.Interaction[Any]) -> None:
    """Forms are routed by custom_id, not by discord.py's in-memory modals: one submitted
    after a restart still works, and one nobody knows is told it expired instead of
    failing silently."""
    if interaction.type is not discord.InteractionType.modal_submit or \
            interaction.client.replays.late(interaction):
        return
    data: dict[str, Any] = dict(interaction.data or {})
    components = data.get("components")
    answers = typed_answers(components if isinstance(components, list) else [])
    await route(interaction, str(data.get("custom_id", "")), answers, FORMS, "err.form_expired")
    await tell_vanished(interaction)


def shown_on(message: discord.Message | None, cid: str, kind: object) -> bool:
    """Whether a component with this custom_id and type is on the message (Discord's own
    client can only click those; anything else is a forged request). discord.py matches
    both too, and drops a click on a button's id sent as a select without a word."""
    if message is None:
        return False
    for row in message.components:
        for child in getattr(row, "children", [row]):
            if getattr(child, "custom_id", None) == cid and child.type.value == kind:
                return True
    return False


# Hand controls drawn for a version: a click on one that a redraw replaced (someone moved
# while its player was choosing) goes to its handler, not refused as unknown. Play and pass
# then check the exact version, gifts the round (everyone gives at once), and the others
# (more cards, the hint, resuming) act on the state as it is now.
REDRAWN = frozenset({"play", "pass", "give", "give_ok", "page", "hint", "resume"})


def redrawn_on(message: discord.Message, name: str, kind: object) -> bool:
    """Whether the message now shows a control of this action and type, drawn for another
    version: what a click on its replaced predecessor looks like (a forged one names an
    action or a type the message does not offer)."""
    for row in message.components:
        for child in getattr(row, "children", [row]):
            match = CUSTOM_ID.fullmatch(str(getattr(child, "custom_id", "") or ""))
            if match is not None and match.group(2) == name and child.type.value == kind:
                return True
    return False


BUTTON, SELECT = discord.ComponentType.button.value, discord.ComponentType.string_select.value


def drawn_there(interaction: discord.Interaction[Any], match: re.Match[str],
                kind: object) -> Drawn | None:
    """How the bot draws the click's action, if it draws it as that component type on
    that kind of message (public or private); else None: no control of ours looks so."""
    name, drawn, message = match.group(2), DRAWN.get(match.group(2)), interaction.message
    if drawn is None or int(match.group(1)) == NO_TABLE or message is None or \
            name not in HANDLERS:
        return None
    if kind != (SELECT if drawn.select else BUTTON) or \
            drawn.private != bool(message.flags.ephemeral):
        return None
    return drawn


def gone(interaction: discord.Interaction[Any], match: re.Match[str], kind: object) -> bool:
    """Whether a click on a control absent from its message is one the bot drew for this
    channel's table, since closed: its message lost its controls when the table closed, but
    its user's client still showed them. « This table no longer exists » says why, as for a
    click on a control still shown (`route`), rather than calling the control unknown. An
    id naming a table never closed here (another channel's, or none) stays forged."""
    if drawn_there(interaction, match, kind) is None:
        return False
    closed: bool = interaction.client.service.registry.was_closed(
        int(match.group(1)), interaction.channel_id, interaction.guild_id)
    return closed


#: The one control a hand that moved to another message keeps: « Afficher ma main ici ».
MOVED_HAND = "here"


def stripped(message: discord.Message | None) -> bool:
    """Whether the bot took every control off the message (but a moved hand's
    `MOVED_HAND`): a hand that moved to a newer message, or told its player they left. A
    click on one of the controls it showed just before is late, whatever version it was
    drawn for: the edit had not reached the player's client yet."""
    if message is None:
        return False
    for row in message.components:
        for child in getattr(row, "children", [row]):
            match = CUSTOM_ID.fullmatch(str(getattr(child, "custom_id", "") or ""))
            if match is None or match.group(2) != MOVED_HAND:
                return False
    return True


def late(interaction: discord.Interaction[Any], match: re.Match[str], kind: object) -> bool:
    """Whether a click on a control absent from its message is one this bot drew there, for
    this table and this user, that a redraw has since replaced: its player's client still
    showed it (a hand redrawn when the turn timer ran out, « Manche suivante » clicked
    again once the next round was dealt, a prompt already answered).

    Anything this bot could not have drawn there is forged: an action of no table or drawn
    on the other kind of message (public or private) or as the other component type, a
    table of another channel or guild, a version not older than the game's (a control of
    the current screen absent from it, unless it shows none: `stripped`), an arg of another
    form or naming another player."""
    drawn = drawn_there(interaction, match, kind)
    table = interaction.client.service.registry.by_id(int(match.group(1)))
    if drawn is None or table is None or table.closed or \
            table.channel_id != interaction.channel_id or table.guild_id != interaction.guild_id:
        return False
    arg = match.group(4)
    version = int(match.group(3))
    if drawn.versioned:
        current = table.game.version if table.game is not None else table.next_version
        if version >= current and not stripped(interaction.message):
            return False
    elif version != 0:
        return False
    found = re.fullmatch(drawn.arg, arg)
    owner = found.groupdict().get("user") if found is not None else None
    return found is not None and owner in (None, str(interaction.user.id))


async def stale_button(click: Click) -> None:
    """A late click's answer unless its action has its own (`Drawn.late`)."""
    raise TableError("err.stale_button")


async def refuse_forged(interaction: discord.Interaction[Any]) -> None:
    """discord.py silently drops clicks on components absent from their message; answer them
    so a forged click is told why nothing happened instead of timing out, and a late one
    (`late`) that the screen has moved on."""
    if interaction.type is not discord.InteractionType.component or \
            interaction.client.replays.late(interaction):
        return
    data: dict[str, Any] = dict(interaction.data or {})
    cid = str(data.get("custom_id", ""))
    if shown_on(interaction.message, cid, data.get("component_type")) and \
            CLAIMED.fullmatch(cid) is not None:
        return
    match = CUSTOM_ID.fullmatch(cid)
    if match is not None and match.group(2) in REDRAWN and interaction.message is not None \
            and interaction.message.flags.ephemeral \
            and redrawn_on(interaction.message, match.group(2), data.get("component_type")):
        # A hand redrawn while its player was choosing: their client still showed the old
        # menu. The move is judged against the version it was drawn for (« Trop tard… »).
        await route(interaction, cid, strings(data.get("values")), HANDLERS,
                    "err.unknown_control")
        return
    if match is not None and gone(interaction, match, data.get("component_type")):
        await refuse(interaction, "err.table_gone")
        return
    if match is not None and late(interaction, match, data.get("component_type")):
        answer = DRAWN[match.group(2)].late or stale_button
        await route(interaction, cid, [], {match.group(2): answer}, "err.unknown_control")
        return
    await refuse(interaction, "err.unknown_control")


def button(
    table_id: int, name: str, label: str, *, version: int = 0, arg: str = "",
    style: discord.ButtonStyle = discord.ButtonStyle.secondary, row: int | None = None,
    disabled: bool = False,
) -> Control:
    return Control(discord.ui.Button(
        label=label, custom_id=custom_id(table_id, name, version, arg), style=style, row=row,
        disabled=disabled,
    ))


#: Discord takes at most 25 options in one string select (its `options` field, "max 25"):
#: longer lists are split across several menus.
OPTIONS_PER_SELECT = 25


def select(
    table_id: int, name: str, placeholder: str, options: list[discord.SelectOption], *,
    version: int = 0, arg: str = "", row: int | None = None, min_values: int = 1,
    max_values: int = 1,
) -> Control:
    return Control(discord.ui.Select(
        custom_id=custom_id(table_id, name, version, arg), placeholder=cut(placeholder, 150),
        options=options, row=row, min_values=min_values, max_values=max_values,
    ))


def view(*items: discord.ui.Item[Any]) -> discord.ui.View:
    result = discord.ui.View(timeout=None)
    for item in items:
        result.add_item(item)
    return result
