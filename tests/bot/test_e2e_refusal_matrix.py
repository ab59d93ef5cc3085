"""The refusal matrix: every kind of interaction the bot offers, in every situation where it
must be refused, in French and in English, through the fake Discord.

Interactions: the twenty-two `/president` subcommands (`bot/packages/president/cog.py`, plus
an unknown one), the DM's `/forget`, `/privacy` and `/my-language`
(`bot/packages/privacy/direct.py`), every action of a custom_id
(`pz:{table}:{action}:{version}:{arg}`, registered with `@action` and `@standalone`) and
the settings' form. Situations: no table in the channel; not seated; seated but not the host; seated but not one's turn; a control
left on screen from an earlier round, game or table; values a select or a form never
offered (an unknown setting, a number out of range, a card one may not give); a lobby, a
game in play, a finished round, an exchange, a finished game, a replayed game, a closed
table, a question of erasure. One table goes through every phase, so each phase is set up
once per language.

Each cell must be answered within Discord's 3 s, privately, by the precise refusal in the
user's language, and change neither the table (nor its stored snapshot) nor any public
message (`refusal_matrix.Probe`). The matrix's size is printed; every failure is listed.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from discord import app_commands

from bot.client import PresidentBot
from bot.packages.controls import FORMS, HANDLERS, STANDALONE
from engine import Phase
from fakediscord import FakeDiscord, Message, TestUser
from fakediscord.commands import build_command_data
from fakediscord.forge import MANAGE_GUILD, Forger, leaf_options
from fakediscord.state import APPLICATION_COMMAND, InteractionRecord
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    connect_bot,
    database_url,
    leave_game,
    message,
    play_until,
    table_of,
    tick,
)
from .refusal_matrix import Probe, press, submit


async def forged_command(fake: FakeDiscord, user: TestUser, command: str, option: str | None,
                         value: object, **values: object) -> InteractionRecord:
    """`/command` as a modified client sends it: its first option's value replaced (None:
    the member's resolved data left out), or with `option` None, a subcommand renamed."""
    forger = Forger(fake)
    data = forger.command(user, command, **values)
    if option is None:
        data["options"][0]["name"] = value
    elif value is None:
        data.pop("resolved", None)
    else:
        leaf_options(data)[0]["value"] = value
    return await forger.send(user, APPLICATION_COMMAND, data, settle=False)


class Matrix:
    """The three users at the table's channel and the probe judging their refused inputs."""

    def __init__(self, fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                 locale: str) -> None:
        self.fake = fake
        self.clock = clock
        self.bot = bot
        self.host = Player(fake.add_user("hana", locale=locale))
        self.guest = Player(fake.add_user("gus", locale=locale))
        self.outsider = fake.add_user("otto", locale=locale)
        self.probe = Probe(fake, bot, fake.guild.id)

    async def slash(self, name: str, user: TestUser, expect: str | None, command: str,
                    **options: object) -> None:
        await self.probe.refused(f"/{command} {name}", user, expect,
                                 lambda: user.slash(f"president {command}", settle=False,
                                                    options=options))

    async def dm(self, name: str, user: TestUser, expect: str | None, command: str) -> None:
        """A top-level command of the DM with the bot (`privacy.direct`), typed there."""
        await self.probe.refused(f"dm/{command} {name}", user, expect,
                                 lambda: user.slash(command, channel=user.dm, settle=False))

    async def dm_forged(self, name: str, user: TestUser, expect: str, command: str,
                        value: object = None, **options: object) -> None:
        """A top-level command of the DM with the bot as a modified client sends it there:
        with an option it does not have, or (`value`) its first option's value replaced."""
        synced = self.fake.commands.find(None, command)
        assert synced is not None
        data = build_command_data(self.fake.world, None, synced, [], options)
        if value is None:
            data["options"] = [{"name": "explode", "type": 3, "value": "now"}]
        else:
            leaf_options(data)[0]["value"] = value
        await self.probe.refused(f"dm/{command} {name}", user, expect,
                                 lambda: Forger(self.fake).send(user, APPLICATION_COMMAND, data,
                                                                channel=user.dm, settle=False))

    async def forged(self, name: str, user: TestUser, expect: str, command: str,
                     option: str | None, value: object, **options: object) -> None:
        await self.probe.refused(f"/{command} {name}", user, expect,
                                 lambda: forged_command(self.fake, user,
                                                        f"president {command}", option, value,
                                                        **options))

    async def click(self, name: str, user: TestUser, expect: str | None, message_id: int,
                    custom: str, values: list[str] | None = None) -> None:
        action = custom.split(":")[2] if custom.count(":") >= 2 else custom
        await self.probe.refused(f"{action} {name}", user, expect,
                                 lambda: press(self.fake, user, message_id, custom, values))

    async def form(self, name: str, user: TestUser, expect: str, custom: str, text: str,
                   message_id: int | None = None) -> None:
        action = custom.split(":")[2] if custom.count(":") >= 2 else custom
        await self.probe.refused(f"{action} {name}", user, expect,
                                 lambda: submit(self.fake, user, custom, text, message_id))


#: Typed settings a host may get wrong, and the sentence that says how to type them.
TYPED = [
    ("game_end", "soon", "settings.bad.game_end"),
    ("game_end", "0", "settings.bad.game_end"),
    ("game_end", "1000", "settings.bad.game_end"),
    ("game_end", "1000 points", "settings.bad.game_end"),
    ("points", "P100 VP1 N0 VL0 L0", "settings.bad.points"),
    ("points", "P3 VP2 X1", "settings.bad.points"),
    ("top_single", "ZZ", "settings.bad.card.french"),
    ("top_single", "3H", "settings.bad.card.french"),
    ("top_single", "2🪙", "rules.conflict.top_single_deck"),
    ("turn_seconds", "1", "settings.bad.int"),
    ("turn_seconds", "-5", "settings.bad.int"),
    ("vs_bots", "99", "settings.bad.vs_bots"),
    ("autopilot_after_timeouts", "٣", "settings.bad.optional_int"),
    ("exchange_seconds", "", "settings.bad.int"),
]


async def no_table(m: Matrix) -> None:
    """Nothing is open in the channel yet."""
    otto, gus = m.outsider, m.guest.user
    for command in ("join", "leave", "addbot", "start", "settings", "end", "replay", "hand",
                    "resume", "pause", "continue"):
        await m.slash("with no table", otto, "err.no_table", command)
    await m.slash("with no table", otto, "err.no_table", "kick", member=gus)
    await m.slash("by a member", otto, "err.language_forbidden", "language", language="en")
    await m.slash("by a member", otto, "err.forget_server_forbidden", "forget-server")
    await m.forged("of an unknown preset", otto, "err.bad_command", "rules", "preset",
                   "wild8", preset="classic")
    await m.forged("of an unknown preset", otto, "err.bad_command", "create", "preset",
                   "CLASSIC", preset="classic")
    await m.forged("of an unknown preset", otto, "err.bad_command", "leaderboard", "preset",
                   "", preset="classic")
    await m.forged("of an unresolved member", otto, "err.bad_command", "stats", "member",
                   None, member=gus)
    for command in ("hand", "history", "privacy"):  # (an option none of them has)
        await m.forged("unknown", otto, "err.bad_command", command, None, "explode")
    for command in ("privacy", "forget"):  # the DM's own (`privacy.direct`), likewise
        await m.dm_forged("unknown", otto, "err.bad_command", command)
    await m.dm_forged("unknown", otto, "err.bad_command", "my-language", language="fr")
    await m.dm_forged("of an unknown language", otto, "err.bad_command", "my-language",
                      "de", language="fr")
    await otto.slash("president history")
    page = otto.last_ephemeral().id
    await m.click("of a page out of range", otto, "err.unknown_control", page,
                  "pz:0:history_page:0:100")
    await m.click("of a page not in digits", otto, "err.unknown_control", page,
                  "pz:0:history_page:0:٣")
    await m.click("of a game not in digits", otto, "err.unknown_control", page,
                  "pz:0:past_chart:0:", ["1e3"])
    await m.click("of a table that does not exist", otto, "err.unknown_control", page,
                  "pz:987654:join:0:")
    await m.form("of a table that does not exist", otto, "err.table_gone",
                 "pz:987654:form:0:min_players", "4")


async def lobby(m: Matrix) -> tuple[Message, int]:
    """hana hosts, gus sits, otto watches; hana's settings panel is open. Returns the lobby
    as shown and the panel's id."""
    hana, gus, otto = m.host.user, m.guest.user, m.outsider
    await hana.slash("president create", preset="classic")
    table = table_of(m.bot, hana)
    assert table.lobby_message_id is not None
    await gus.click(message(gus, table.lobby_message_id), cid(table, "join"))
    lobby_id = table.lobby_message_id
    await hana.click(message(hana, lobby_id), cid(table, "settings"))
    panel = hana.last_ephemeral().id
    await hana.select(panel, ["deck"], select=next(
        s.custom_id for s in message(hana, panel).selects if ":knob:" in s.custom_id
        and "deck" in [o.value for o in s.options]))
    shown = message(hana, lobby_id)
    buttons = [b.custom_id for b in shown.buttons if b.custom_id is not None]

    await m.slash("at an open table", hana, "err.table_exists", "create")
    await m.slash("when seated", gus, "err.already_seated", "join")
    await m.slash("when not seated", otto, "err.not_seated", "leave")
    for command in ("addbot", "start", "settings", "end", "replay"):
        await m.slash("by a guest", gus, "err.not_host", command)
    await m.slash("by a guest", gus, "err.not_host", "kick", member=hana)
    await m.slash("of someone not seated", hana, "err.kick_unknown", "kick", member=otto)
    await m.slash("of oneself", hana, "err.kick_self", "kick", member=hana)
    await m.slash("with too few seated", hana, "err.min_players", "start")
    await m.slash("in the lobby", hana, "err.no_game", "replay")
    await m.slash("in the lobby", hana, "err.no_game", "pause")
    await m.slash("in the lobby", gus, "err.no_game", "pause")  # (a break of his own)
    await m.slash("when not seated", otto, "err.pause_not_seated", "pause")
    await m.slash("in the lobby", hana, "err.no_game", "continue")
    await m.slash("in the lobby", gus, "err.no_game", "resume")
    await m.slash("when not seated", otto, "err.no_game", "resume")
    await m.slash("by a guest", gus, "err.language_forbidden", "language", language="en")
    await m.forged("of an unknown level", hana, "err.bad_command", "addbot", "level",
                   "godlike", level="hard")
    await m.forged("of an unknown language", hana, "err.bad_command", "language", "language",
                   "de", language="fr")
    await m.forged("of an unknown language", gus, "err.bad_command", "my-language",
                   "language", "de", language="fr")

    assert {cid(table, a) for a in ("addbot", "start", "settings")} <= set(buttons)
    for custom in buttons:
        if custom.split(":")[2] not in ("join", "leave"):
            await m.click("by a guest", gus, "err.not_host", lobby_id, custom)
    level = next(s.custom_id for s in shown.selects if ":addbot_level:" in s.custom_id)
    await m.click("by a guest", gus, "err.not_host", lobby_id, level, ["hard"])
    await m.click("of an unknown level", hana, "err.bad_choice", lobby_id, level, ["godlike"])
    await m.click("of two levels", hana, "err.bad_choice", lobby_id, level, ["easy", "hard"])
    await m.click("when seated", hana, "err.already_seated", lobby_id, cid(table, "join"))
    await m.click("when not seated", otto, "err.not_seated", lobby_id, cid(table, "leave"))
    await m.click("with too few seated", hana, "err.min_players", lobby_id,
                  cid(table, "start"))

    selects = {s.custom_id.split(":")[2]: s.custom_id for s in message(hana, panel).selects}
    await m.click("of an unknown preset", hana, "err.bad_choice", panel, selects["preset"],
                  ["wild8"])
    await m.click("of an unknown setting", hana, "err.bad_choice", panel, selects["knob"],
                  ["tricks"])
    await m.click("of a setting the rules do not offer", hana, "err.bad_choice", panel,
                  selects["knob"], ["jokers"])
    await m.click("of a value the setting does not have", hana, "err.bad_choice", panel,
                  selects["value"], ["tarot"])
    form = cid(table, "form", 0, "min_players")
    await m.form("by a guest", gus, "err.not_host", form, "4")
    await m.form("of an unknown setting", hana, "err.form_expired",
                 cid(table, "form", 0, "tricks"), "4", panel)
    await m.form("of a setting chosen from a list", hana, "err.form_expired",
                 cid(table, "form", 0, "revolution"), "oui", panel)
    await m.form("out of range", hana, "settings.bad.int", form, "99", panel)
    await m.form("not a number", hana, "settings.bad.int", form, "trois", panel)
    await m.form("above the most seats", hana, "rules.conflict.min_above_max", form, "7",
                 panel)
    for knob, text, expect in TYPED:
        await m.form(f"of {knob} {text!r}", hana, expect, cid(table, "form", 0, knob), text,
                     panel)
    return shown, panel


def controls(user: TestUser, message_id: int, action: str) -> list[str]:
    """The custom_ids of the message's controls of one action, as its user sees it."""
    shown = message(user, message_id)
    ids = [b.custom_id for b in shown.buttons] + [s.custom_id for s in shown.selects]
    return [c for c in ids if c is not None and c.split(":")[2] == action]


async def playing(m: Matrix, lobby_shown: Message) -> tuple[int, int, int]:
    """A bot seated, the game started (two rounds), both hands open. Returns gus's and
    hana's prompts (quit, stop, and kick: removing gus would leave too few) for later."""
    hana, gus, otto = m.host.user, m.guest.user, m.outsider
    table = table_of(m.bot, hana)
    await m.bot.service.set_rules(table, hana.id, table.rules.replace(game_end="rounds:2",
                                                                    low_gives="pick",
                                                                    vs_bots=3))
    lobby_id = lobby_shown.id
    await hana.click(message(hana, lobby_id), cid(table, "addbot"))
    before_start = message(hana, lobby_id)
    for action in ("removebot", "vsbots"):  # shown with a bot seated, with vs_bots set
        (custom,) = controls(gus, lobby_id, action)
        await m.click("by a guest", gus, "err.not_host", lobby_id, custom)
    # Offered only on a channel's house rules (play-test 33), which a table without
    # storage never opens on: a click on it is a lobby button drawn before, and late.
    assert controls(hana, lobby_id, "house_reset") == []
    await m.click("when not offered", hana, "err.stale_button", lobby_id,
                  cid(table, "house_reset"))
    await hana.click(before_start, cid(table, "start"))
    await tick(m.fake, m.clock, 1)
    await m.host.open_hand(m.bot)
    await m.guest.open_hand(m.bot)
    game = table.game
    assert game is not None and game.phase is Phase.PLAY

    await m.slash("at a game in play", hana, "err.table_exists", "create")
    await m.slash("during a game", hana, "err.already_started", "start")
    await m.slash("during a game", hana, "err.settings_locked", "settings")
    await m.slash("during a game", hana, "err.game_running", "addbot")
    await m.slash("during a game", hana, "err.replay_unfinished", "replay")
    await m.slash("when seated", gus, "err.already_seated", "join")
    await m.slash("when not seated", otto, "err.not_seated", "leave")
    await m.slash("when not seated", otto, "err.not_seated", "resume")
    await m.slash("when playing oneself", gus, "err.not_automated", "resume")
    await m.slash("while seated", gus, "err.forget_seated", "forget")
    await m.dm("while seated", gus, "err.forget_seated_dm", "forget")
    for command in ("end", "replay", "continue"):
        await m.slash("by a guest", gus, "err.not_host", command)
    # Settings fixed until the lobby are said so to anyone first (stop 60): « only the
    # host », and the role his to take in ten minutes, was a way that led to this refusal.
    await m.slash("by a guest during a game", gus, "err.settings_locked", "settings")
    # So are the lobby's other host actions (stop 60; « only the host » before).
    await m.slash("by a guest during a game", gus, "err.game_running", "addbot")
    await m.slash("by a guest during a game", gus, "err.already_started", "start")
    for command in ("addbot", "start"):  # without a seat, no hand to point to
        await m.slash("by someone not seated during a game", otto, "err.game_running",
                      command)
    await m.slash("by a guest", gus, "err.not_host", "kick", member=hana)
    await m.slash("by a guest", gus, "err.language_forbidden", "language", language="fr")
    await m.slash("when not paused", hana, "err.not_paused", "continue")
    # A seated guest's « Pause » is a break of his own (stop 50, `paused`); a spectator's
    # is refused.
    await m.click("when not seated", otto, "err.pause_not_seated", table.table_message_id or 0,
                  cid(table, "pause"))
    await m.slash("when not seated", otto, "err.pause_not_seated", "pause")
    await m.slash("asks first", gus, None, "leave")
    quit_prompt = gus.last_ephemeral().id
    await m.slash("asks first", hana, None, "end")
    stop_prompt = hana.last_ephemeral().id
    await m.slash("asks first", hana, None, "kick", member=gus)
    kick_prompt = hana.last_ephemeral().id
    await m.click("when not seated", otto, None, table.table_message_id or 0,
                  cid(table, "hand"))
    await m.click("of someone else's prompt", otto, "err.unknown_control", lobby_id,
                  cid(table, "quit", 0, f"{table.game_no}.{gus.id}"))

    # The lobby as shown before the start: its buttons are late now.
    for action in ("start", "addbot", "settings"):
        await m.probe.refused(f"{action} on the lobby before the start", hana,
                              "err.stale_button", partial(hana.click_shown, before_start,
                                                          cid(table, action), settle=False))
    # A seat whose turn it is not: its hand offers no play, and a modified client's play,
    # pass or hint (hints are off) is a control the hand does not show.
    waiting = next(p for p in (m.host, m.guest) if table.seat_of(p.user.id) != game.to_act)
    seat = table.seat_of(waiting.user.id)
    assert seat is not None and controls(waiting.user, waiting.hand.id, "play") == []
    card = str(game.hand(seat)[0])
    await m.click("when it is not one's turn", waiting.user, "err.unknown_control",
                  waiting.hand.id, cid(table, "play", game.version, "1"), [card])
    for action in ("pass", "hint"):
        await m.click("when it is not one's turn", waiting.user, "err.unknown_control",
                      waiting.hand.id, cid(table, action, game.version))
    await play_until(m.fake, m.clock, [], lambda: game.to_act in humans(m))
    actor = next(p for p in (m.host, m.guest) if table.seat_of(p.user.id) == game.to_act)
    await paused(m, actor)
    before = actor.hand
    assert await actor.act()
    menu = next(s for s in before.selects if ":play:" in s.custom_id)
    # Its player's own move left it (a second device's click): said so (play-test 23).
    await m.probe.refused("play on a hand one's own move has left", actor.user,
                          "err.already_played",
                          lambda: actor.user.select_shown(before, [menu.options[0].value],
                                                          select=menu.custom_id,
                                                          settle=False))
    # Hand controls of an earlier version (resumed since, paged since) or not of the bot's
    # making (a page that is no number).
    assert game.version > 0
    for action, arg, expect in (("resume", "", "err.stale"), ("page", "1", "err.stale"),
                                ("page", "x", "err.unknown_control")):
        await m.click(f"of an earlier version, arg {arg!r}", actor.user, expect,
                      actor.hand.id, cid(table, action, game.version - 1, arg))
    return quit_prompt, stop_prompt, kick_prompt


async def paused(m: Matrix, actor: Player) -> None:
    """hana pauses the game (play-test 29) as it is ``actor``'s turn: their move, a second
    pause, the pause button the message no longer shows, and a guest's continue are
    refused; then she continues."""
    hana, gus, otto = m.host.user, m.guest.user, m.outsider
    table = table_of(m.bot, hana)
    board = table.table_message_id or 0
    await hana.click(message(hana, board), cid(table, "pause"))
    await tick(m.fake, m.clock, 1)  # the hands say so
    await move_during_a_pause(m, actor, "err.paused")
    await m.slash("during a pause", hana, "err.already_paused", "pause")
    # The « Pause » its phone still showed: a late click does what it says (« Review of
    # stop 49 »), so a second pause is refused as one.
    await m.click("on a table already paused", hana, "err.already_paused", board,
                  cid(table, "pause"))
    await m.click("by a guest", gus, "err.not_host", board, cid(table, "play_on"))
    await hana.click(message(hana, board), cid(table, "play_on"))
    await tick(m.fake, m.clock, 1)
    # gus's own short break (« Play-test 29, leftovers », stop 50): a move during it is
    # refused saying how it ends, a spectator may not end it, and once gus is back a
    # second one within half an hour is refused, saying when.
    await gus.click(message(gus, board), cid(table, "pause"))
    await tick(m.fake, m.clock, 1)
    started = fresh(table).pause
    assert started is not None
    offer, since = gus.last_ephemeral().id, str(int(started.since))
    await move_during_a_pause(m, actor, "err.paused_own")
    # (the host's own « Pause » makes gus's break hers since stop 51: only gus's late
    # « Pause », still shown on his phone, is a second break refused)
    await m.click("during a player's break", gus, "err.already_paused", board,
                  cid(table, "pause"))
    await m.click("by someone not seated", otto, "err.not_host", board, cid(table, "play_on"))
    # The host's « Prolonger la pause » on their hand (stop 51's leftovers): by the break's
    # owner (from his own hand) it is the host's errand.
    await m.click("of one's own break", gus, "err.lengthen_host_only", m.guest.hand.id,
                  cid(table, "lengthen", 0, since))
    # Its twin on the table message (stop 52): everyone sees it, only the host may press it.
    await m.click("of one's own break", gus, "err.lengthen_host_only", board,
                  cid(table, "extend", 0, since))
    await m.click("by someone not seated", otto, "err.lengthen_host_only", board,
                  cid(table, "extend", 0, since))
    # The break's reason (stop 51): by someone else than its caller, or once it is over.
    await m.form("of another's break", hana, "err.pause_reason_late",
                 cid(table, "pause_reason", 0, since), "pizza")
    await gus.click(message(gus, board), cid(table, "play_on"))
    await tick(m.fake, m.clock, 1)
    await m.click("once the break is over", gus, "err.pause_reason_late", offer,
                  cid(table, "pause_why", 0, since))
    await m.click("once the break is over", hana, "err.lengthen_late", m.host.hand.id,
                  cid(table, "lengthen", 0, since))
    await m.click("once the break is over", hana, "err.lengthen_late", board,
                  cid(table, "extend", 0, since))
    await m.form("once the break is over", gus, "err.pause_reason_late",
                 cid(table, "pause_reason", 0, since), "pizza", offer)
    await m.click("soon after one's own break", gus, "err.pause_cooldown", board,
                  cid(table, "pause"))
    await m.slash("soon after one's own break", gus, "err.pause_cooldown", "pause")


async def move_during_a_pause(m: Matrix, actor: Player, expect: str) -> None:
    """``actor``'s move during a break, refused as `expect`: a play where their hand
    offers one, else a pass."""
    shown = actor.hand
    menu = next((s for s in shown.selects if ":play:" in s.custom_id), None)
    if menu is not None:
        await m.probe.refused("play during a pause", actor.user, expect,
                              lambda: actor.user.select_shown(shown, [menu.options[0].value],
                                                              select=menu.custom_id,
                                                              settle=False))
    else:
        (passing,) = controls(actor.user, shown.id, "pass")
        await m.click("during a pause", actor.user, expect, shown.id, passing)


def humans(m: Matrix) -> set[int | None]:
    table = table_of(m.bot, m.host.user)
    return {table.seat_of(m.host.user.id), table.seat_of(m.guest.user.id)}


async def exchange(m: Matrix) -> tuple[Message, Message]:
    """The first round played out, then the second round's exchange. Returns the table
    message of the first round's end and a giver's hand in the exchange, as shown."""
    hana, gus = m.host.user, m.guest.user
    table = table_of(m.bot, hana)
    game = table.game
    assert game is not None
    players = [m.host, m.guest]
    await play_until(m.fake, m.clock, players, lambda: game.phase is Phase.ROUND_OVER)
    await tick(m.fake, m.clock, 1)
    board = table.table_message_id
    assert board is not None
    round_over = message(hana, board)
    for custom in (*controls(gus, board, "next"), *controls(gus, board, "end")):
        await m.click("by a guest", gus, "err.not_host", board, custom)
    await m.slash("after a round", hana, "err.settings_locked", "settings")
    await m.slash("by a guest after a round", gus, "err.settings_locked", "settings")
    await m.slash("by a guest after a round", gus, "err.game_running", "addbot")
    await m.slash("by a guest after a round", gus, "err.already_started", "start")
    await m.slash("after a round", hana, "err.already_started", "start")
    # Between two rounds it stopped the game unasked (play-test 14): `end` asks first.
    await m.slash("after a round", hana, "err.replay_unfinished", "replay")
    await hana.click(round_over, cid(table, "next", game.version))
    await tick(m.fake, m.clock, 1)
    assert game.phase is Phase.EXCHANGE, game.phase
    await m.probe.refused("next on the finished round's message", hana, "err.stale_button",
                          lambda: hana.click_shown(round_over, cid(table, "next",
                                                                   round_over_version(round_over)),
                                                   settle=False))
    givers = [p for p in players if controls(p.user, p.hand.id, "give")]
    assert givers, "no human gives in this exchange"
    giver = givers[0]
    shown = giver.hand
    seat = table.seat_of(giver.user.id)
    assert seat is not None
    menu = next(s for s in shown.selects if ":give:" in s.custom_id)
    offered = [o.value for o in menu.options]
    held = {str(c) for c in game.hand(seat)}
    others = sorted({str(c) for s in range(len(table.seats)) for c in game.hand(s)} - held)
    due = game.exchange_due(seat)
    assert due is not None
    await m.click("of cards not offered", giver.user, "err.bad_choice", shown.id,
                  menu.custom_id, ["ZZ"] * due.count)
    await m.click("of a card one does not hold", giver.user, "engine.not_in_hand", shown.id,
                  menu.custom_id, [others[0]] * due.count if due.count == 1 else
                  others[:due.count])
    await m.click("of one card too many", giver.user, "engine.wrong_give_count", shown.id,
                  menu.custom_id, (offered + [c for c in held if c not in offered])
                  [:due.count + 1])
    confirm = controls(giver.user, shown.id, "give_ok")
    if confirm:  # the pre-checked cards' button, forged with cards the rules refuse
        worst = sorted(game.hand(seat), key=lambda c: c.value)[:due.count]
        await m.click("of cards that are not one's best", giver.user, "engine.must_give_best",
                      shown.id, cid(table, "give_ok", game.version,
                                    ".".join(str(c) for c in worst)))
    await m.slash("during the exchange", hana, "err.settings_locked", "settings")
    await play_until(m.fake, m.clock, players, lambda: game.phase is Phase.PLAY)
    return round_over, shown


def round_over_version(shown: Message) -> int:
    custom = next(b.custom_id for b in shown.buttons
                  if b.custom_id is not None and ":next:" in b.custom_id)
    return int(custom.split(":")[3])


async def game_over(m: Matrix, panel: int, stop_prompt: int, gift: Message) -> Message:
    """The second round played out: the game is over. Returns its table message as shown."""
    hana, gus = m.host.user, m.guest.user
    table = table_of(m.bot, hana)
    game = table.game
    assert game is not None
    await play_until(m.fake, m.clock, [m.host, m.guest],
                     lambda: game.phase is Phase.GAME_OVER)
    await tick(m.fake, m.clock, 1)
    board = table.table_message_id
    assert board is not None
    over = message(hana, board)
    await m.slash("after the game", hana, "err.settings_after_game", "settings")
    await m.slash("by a guest after the game", gus, "err.settings_after_game", "settings")
    for user, situation in ((hana, "after the game"), (gus, "by a guest after the game")):
        await m.slash(situation, user, "err.bots_after_game", "addbot")
        await m.slash(situation, user, "err.start_after_game", "start")
    await m.slash("after the game", hana, "err.pause_game_over", "pause")
    await m.click("on the panel left from the lobby", hana, "err.settings_after_game", panel,
                  cid(table, "reset"))
    await m.click("on the panel left from the lobby", hana, "err.settings_after_game", panel,
                  next(s.custom_id for s in message(hana, panel).selects
                       if ":knob:" in s.custom_id), ["deck"])
    await m.form("after the game", hana, "err.settings_after_game",
                 cid(table, "form", 0, "min_players"), "4", panel)
    for action in ("replay", "end"):
        for custom in controls(gus, board, action):
            await m.click("by a guest", gus, "err.not_host", board, custom)
    await m.click("on the prompt of the game in play", hana, "err.stale_button", stop_prompt,
                  cid(table, "stop", 0, str(table.game_no)))
    menu = next(s for s in gift.selects if ":give:" in s.custom_id)
    giver = next(p.user for p in (m.host, m.guest) if p.user.id == gift_owner(m, gift))
    await m.probe.refused("give on the exchange's hand", giver, "err.stale",
                          lambda: giver.select_shown(gift, [o.value for o in
                                                            menu.options[:menu.min_values]],
                                                     select=menu.custom_id, settle=False))
    await m.slash("after the game", gus, "err.not_automated", "resume")
    return over


async def replayed(m: Matrix, over: Message, quit_prompt: int, stop_prompt: int,
                   kick_prompt: int) -> None:
    """hana replays: every control of the finished game is stale."""
    hana, gus = m.host.user, m.guest.user
    table = table_of(m.bot, hana)
    old = table.game_no
    await hana.click(over, next(b.custom_id for b in over.buttons
                                if b.custom_id is not None and ":replay:" in b.custom_id))
    await tick(m.fake, m.clock, 1)
    assert table.game is not None and table.game_no == old + 1
    for action in ("replay", "end"):
        custom = next(b.custom_id for b in over.buttons
                      if b.custom_id is not None and f":{action}:" in b.custom_id)
        await m.probe.refused(f"{action} on the finished game's message", hana,
                              "err.stale_button",
                              partial(hana.click_shown, over, custom, settle=False))
    await m.click("on the prompt of the game before", gus, "err.stale_button", quit_prompt,
                  cid(table, "quit", 0, f"{old}.{gus.id}"))
    await m.click("on the prompt of the game before", hana, "err.stale_button", stop_prompt,
                  cid(table, "stop", 0, str(old)))
    await m.click("on the prompt of the game before", hana, "err.stale_button", kick_prompt,
                  cid(table, "kick", 0, f"{old}.{hana.id}.{gus.id}"))


async def host_left(m: Matrix, panel: int) -> None:
    """hana leaves the replayed game: gus hosts now, and what hana still sees of the table
    (her settings panel, her hand) is no longer hers to use."""
    hana, gus = m.host.user, m.guest.user
    table = table_of(m.bot, hana)
    game = table.game
    assert game is not None
    hand = m.host.hand
    await leave_game(hana)
    assert table.host_id == gus.id and table.seat_of(hana.id) is None
    # The replayed game is in play: her panel's settings are fixed, which is said first,
    # to anyone (stop 60; « only the host » before). Her lost role shows on the rest.
    for action in ("reset", "bot_level", "hints", "reminders"):
        await m.click("by a former host", hana, "err.settings_locked", panel,
                      cid(table, action))
    selects = {s.custom_id.split(":")[2]: s.custom_id for s in message(hana, panel).selects}
    await m.click("by a former host", hana, "err.settings_locked", panel, selects["preset"],
                  ["presi"])
    await m.click("by a former host", hana, "err.settings_locked", panel, selects["knob"],
                  ["revolution"])
    await m.form("by a former host", hana, "err.settings_locked",
                 cid(table, "form", 0, "min_players"), "4", panel)
    for command in ("end", "replay"):
        await m.slash("by a former host", hana, "err.not_host", command)
    await m.slash("by a former host", hana, "err.settings_locked", "settings")
    await m.slash("by a former host", hana, "err.game_running", "addbot")
    await m.slash("after leaving", hana, "engine.already_left", "leave")
    await m.slash("after leaving", hana, "err.not_seated", "resume")
    await m.slash("after leaving", hana, None, "hand")
    await m.click("after leaving", hana, None, hand.id, cid(table, "refresh"))
    await m.click("after leaving", hana, None, hand.id, cid(table, "here"))
    for menu in hand.selects:
        if ":play:" in menu.custom_id:
            await m.probe.refused("play after leaving", hana, "err.not_seated",
                                  partial(hana.select_shown, hand, [menu.options[0].value],
                                          select=menu.custom_id, settle=False))


async def closed(m: Matrix, lobby_shown: Message, panel: int) -> None:
    """gus stops the game and closes the table: nothing of it answers but to say so."""
    hana, gus, otto = m.host.user, m.guest.user, m.outsider
    table = table_of(m.bot, hana)
    hand = m.guest.hand
    await gus.slash("president end")
    await gus.click(gus.last_ephemeral(), cid(table, "stop", 0, str(table.game_no)))
    for _ in range(2):  # the stopped game's results go back to the lobby, which closes
        if not table.closed:
            await gus.slash("president end")
    assert table.closed
    for command in ("join", "leave", "start", "settings", "hand", "end"):
        await m.slash("at a closed table", gus, "err.no_table", command)
    await m.probe.refused("join on a closed table's lobby", otto, "err.table_gone",
                          partial(otto.click_shown, lobby_shown, cid(table, "join"),
                                  settle=False))
    for action in ("reset", "done"):
        await m.click("on a closed table's panel", hana, "err.table_gone", panel,
                      cid(table, action))
    await m.click("on a closed table's hand", gus, "err.table_gone", hand.id,
                  cid(table, "refresh"))
    await m.click("on a closed table's hand", gus, "err.table_gone", hand.id,
                  cid(table, "here"))
    await m.form("of a closed table", hana, "err.table_gone",
                 cid(table, "form", 0, "min_players"), "4", panel)


async def erasure_asked(m: Matrix) -> None:
    """The table closed, hana asks to erase what is kept about her, and, as an admin of the
    server, to erase the server; gus asks about himself. Their questions are ephemeral, so
    nobody else can click them: gus's client forging hana's buttons on his own question is
    told « unknown control ». hana's server button works only while she may manage it, and
    neither of her questions a quarter of an hour later."""
    hana, gus = m.host.user, m.guest.user
    await hana.slash("president forget")
    mine = hana.last_ephemeral()
    forger = Forger(m.fake)
    await forger.send(hana, APPLICATION_COMMAND, forger.command(hana, "president forget-server"),
                      permissions=MANAGE_GUILD)
    server = hana.last_ephemeral()
    await gus.slash("president forget")
    his = gus.last_ephemeral()
    assert len({mine.id, server.id, his.id}) == 3
    customs = {b.custom_id.split(":")[2]: b.custom_id for question in (mine, server)
               for b in question.buttons if b.custom_id}
    for action in ("forget", "forget_cancel", "forget_guild"):
        await m.click("forged for someone else", gus, "err.unknown_control", his.id,
                      customs[action])
    await m.click("without Manage Server", hana, "err.forget_server_forbidden", server.id,
                  customs["forget_guild"])
    await tick(m.fake, m.clock, 15 * 60 + 1)
    await m.click("too late", hana, "err.forget_expired", mine.id, customs["forget"])
    await m.click("too late", hana, "err.forget_expired", server.id, customs["forget_guild"])
    for question in (mine, server):
        await hana.click(question, customs["forget_cancel"])  # the questions go
    await gus.click(his, his.buttons[0].custom_id or "")


def gift_owner(m: Matrix, shown: Message) -> int:
    return next(p.user.id for p in (m.host, m.guest)
                if any(x.id == shown.id for x in p.user.visible()))


async def test_every_refusal_is_private_precise_in_the_users_language_and_changes_nothing(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
) -> None:
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    failures: list[str] = []
    cells: list[str] = []
    for locale in ("fr", "en-US"):
        channel = fake.add_channel(fake.guild, f"table-{locale}")
        await fake.settle()
        m = Matrix(fake, clock, bot, locale)
        for user in (m.host.user, m.guest.user, m.outsider):
            user.channel = channel
        await no_table(m)
        shown, panel = await lobby(m)
        quit_prompt, stop_prompt, kick_prompt = await playing(m, shown)
        _, gift = await exchange(m)
        over = await game_over(m, panel, stop_prompt, gift)
        await replayed(m, over, quit_prompt, stop_prompt, kick_prompt)
        await host_left(m, panel)
        await closed(m, shown, panel)
        await erasure_asked(m)
        print(f"\n{locale}: {len(m.probe.cells)} cells")
        for failure in m.probe.failures:
            print("  " + failure[:400])
        failures += m.probe.failures
        cells += m.probe.cells
    # Every command the app offers, the group's in servers and the DM's own (stop 49's
    # `/forget` had no cell: its refusals were never judged here); read before the
    # disconnect, which takes the cogs' commands off the tree.
    commands = {f"/{sub.name}" if isinstance(top, app_commands.Group) else f"dm/{sub.name}"
                for top in bot.tree.get_commands()
                for sub in (top.commands if isinstance(top, app_commands.Group) else [top])}
    await fake.disconnect(bot)
    interactions = {cell.split(" ", 1)[0] for cell in cells}
    situations = {cell.split(" ", 1)[1] for cell in cells}
    print(f"matrix: {len(cells)} cells, {len(interactions)} interactions × "
          f"{len(situations)} situations, in two languages")
    actions = set(HANDLERS) | set(FORMS) | set(STANDALONE)
    assert actions <= interactions, sorted(actions - interactions)
    assert commands <= interactions, sorted(commands - interactions)
    half = len(cells) // 2
    assert cells[:half] == cells[half:]  # every cell in both languages
    assert failures == []
