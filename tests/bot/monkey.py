"""A monkey play-test: real users doing legitimate but random things at several tables.

Each step one user does what their Discord client lets them do at that moment — click any
enabled button or pick in any enabled select of a message they still see (old ones too),
fill in or leave the modal the bot opened for them, dismiss an ephemeral, type a
/president command with random options — or the clock jumps (timers, autopilot, grace
periods and token expiry fire), or the bot restarts on the same database. After every step
`Monkey.check` judges what the bot did; `Monkey.failures` lists what it got wrong.

Left to chance alone, play seldom gets past a first round. So each seed draws how keen its
users are: that share of the steps, someone the game waits for makes their move from what
their client shows (`monkey_moves.py`), hosts set a short game end, fast mode or another
exchange rule in the settings panel before they start, and games run to their end and are
replayed or ended; the rest of the steps stay random. `Monkey.seen` counts how far play got.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.client import IDENTIFY_INTERVAL, PresidentBot
from bot.packages.controls import WARNING
from bot.tables.table import Table
from engine import KNOBS, PRESETS, Phase
from engine.bots import LEVELS
from fakediscord import FakeDiscord, SettleTimeout, TestUser
from fakediscord.errors import UserActionError
from fakediscord.payloads import USER_MENTION
from fakediscord.snapshots import Message, Select, TextInput
from fakediscord.state import Channel, InteractionRecord

from .conftest import LinkedClock
from .e2e import connect_bot, database_url, restart
from .forgery import changes, state_of
from .monkey_checks import Finished, role_problems, stored_problems, table_problems
from .monkey_moves import Due, move, newest_hand, waited_for
from .stored import holder_of, points_problems, stored_game

MENTION = re.compile(r"<@[!&]?\d+>|@everyone|@here")
COMMANDS = ["join", "leave", "addbot", "kick", "start", "settings", "end", "replay", "hand",
            "resume", "language", "rules", "stats", "history", "leaderboard", "create"]
JUMPS = [0.5, 1, 1, 1, 2, 2, 5, 10, 30, 60, 120]  # turns, bots, autopilot, grace periods
LONG_JUMPS = [300, 600, 1000, 2000, 3600]  # host idle, abandoned tables, token expiry
TYPED = ["1", "2", "3", "4", "5", "8", "10", "0", "20", "100", "-1", "x"]
MOVES = ("play", "pass", "give", "give_ok", "next", "replay")  # what a player mostly clicks
# How keen a seed's users are to play (the share of steps where someone waited for moves):
# now and then a seed of pure chance, as the monkey began.
KEEN = [0.0, 0.7, 0.8, 0.85, 0.9, 0.9, 0.95]
# What a host sets before starting: a short game (rounds, or points to reach), fast mode,
# two seats (a split exchange menu), or how the exchange goes; typed or picked as shown.
TUNES = {"game_end": ["1", "2", "2", "3", "3", "4", "5 points", "8 points"],
         "fast": [], "min_players": ["2"], "exchange_blind": [], "low_gives": [],
         "exchange_return": [], "vp_at_three": [], "deck": []}
# Whom a keen step serves first: a player to move, a host to go on, the bots (a short wait).
BUSIEST = 3
URGENCY = {"hand": 6, "next": 4, "over": 4, "bots": 3, "start": 2, "fill": 2, "join": 1}
TUNED = ["game_end"] * 10 + ["fast"] * 2 + list(TUNES)
# What a user does: a control (what it says, the message, its custom_id, values picked), a
# command (its name and options) or a modal's fields.
Doing = tuple[str, Message, str, list[str] | None] | tuple[str, dict[str, object]] | dict[str, str]
NAMES = [("alice", "en-US"), ("bob", "fr"), ("chloé", "fr"), ("dave", "en-GB"),
         ("émile", "fr"), ("fay", "en-US")]


@dataclass
class Monkey:
    """The world the monkey plays in, its random source, and what it saw go wrong."""

    fake: FakeDiscord
    clock: LinkedClock
    tmp_path: Path
    caplog: pytest.LogCaptureFixture
    rng: random.Random
    bot: PresidentBot | None = None
    users: list[TestUser] = field(default_factory=list)
    channels: list[Channel] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    done: Counter[str] = field(default_factory=Counter)
    step_no: int = 0
    keen: float = 0.0
    rounds: dict[tuple[int, int], int] = field(default_factory=dict)
    finished: dict[tuple[int, int], Finished] = field(default_factory=dict)
    seen: Counter[str] = field(default_factory=Counter)
    exchanges: set[tuple[int, int, int]] = field(default_factory=set)
    phases: dict[int, tuple[int, Phase | None]] = field(default_factory=dict)
    tuned: set[tuple[int, int]] = field(default_factory=set)
    marks: set[tuple[object, ...]] = field(default_factory=set)

    @property
    def url(self) -> str:
        return database_url(self.tmp_path, "monkey.db")

    async def open(self, tables: int, keen: float | None = None) -> None:
        """Connect the bot and open `tables` tables; `keen` (else the seed's draw) is the
        share of steps where someone waited for moves."""
        drawn = self.rng.choice(KEEN)
        self.keen = drawn if keen is None else keen
        self.bot = await connect_bot(self.fake, self.clock, self.url, bot_pause=1.0)
        self.channels = [self.fake.add_channel(self.fake.guild, f"table-{i}")
                         for i in range(tables)]
        self.users = [self.fake.add_user(name, locale=locale) for name, locale in NAMES]
        await self.fake.settle()
        for index, channel in enumerate(self.channels):
            host = self.users[index % len(self.users)]
            await host.slash("president create", channel=channel,
                             preset=self.rng.choice(list(PRESETS)))

    @property
    def live(self) -> PresidentBot:
        assert self.bot is not None
        return self.bot

    # ------------------------------------------------------------------ one step

    async def step(self) -> None:
        self.step_no += 1
        rng = self.rng
        user = rng.choice(self.users)
        self.place(user)
        roll = rng.random()
        if roll < 0.01:
            await self.restart()
            return
        if roll < 0.015:
            await self.outage()
            return
        if roll < 0.02:
            await self.gap()
            return
        if roll < 0.06:
            await self.burst()
            return
        if roll < 0.2:
            await self.jump(rng.choice(LONG_JUMPS if rng.random() < 0.05 else JUMPS))
            return
        if user.modal is not None and rng.random() < 0.7:
            await self.judged(user, "modal", self.fill_modal(user))
            return
        if rng.random() < self.keen and await self.play():
            return
        if roll < 0.3:
            await self.judged(user, "slash", self.command(user))
            return
        if roll < 0.31:
            mine = [m for m in user.visible() if m.ephemeral]
            if mine:
                user.dismiss(rng.choice(mine))
                self.done["dismiss"] += 1
            return
        await self.judged(user, "control", self.control(user))

    async def play(self) -> bool:
        """Someone the game waits for moves (False when nobody is waited for): a host about
        to start may first set the rules for a short game."""
        waiting = waited_for(self.users, self.live.service.registry, self.channels)
        empty = [c for c in self.channels
                 if self.live.service.registry.in_channel(c.id) is None]
        if empty and (not waiting or self.rng.random() < 0.2):
            user = self.rng.choice(self.users)
            user.channel = self.rng.choice(empty)
            options: dict[str, object] = {"preset": self.rng.choice(list(PRESETS))}
            await self.judged(user, "slash", ("create", options))
            return True
        if not waiting:
            return False
        # Each kind weighs its urgency whatever the number waiting; the first channel's
        # table is the busiest, so that even a short run sees its rounds chain.
        kinds = Counter(d.kind for d in waiting)
        busiest = self.channels[0].id
        weights = [URGENCY[d.kind] / kinds[d.kind] * (BUSIEST if d.channel.id == busiest else 1)
                   for d in waiting]
        due = self.rng.choices(waiting, weights)[0]
        if due.kind == "bots":
            await self.jump(self.rng.choice([1, 2, 3, 5]))  # waiting for the bots to play
            return True
        key = (due.table.id, due.table.game_no)
        if due.kind in ("start", "fill") and key not in self.tuned:
            self.tuned.add(key)
            if self.rng.random() < 0.8:
                await self.tune(due)
                return True
        what = move(self.rng, due)
        if what is None:
            return False
        self.count_menus(due)
        await self.judged(due.user, "control", what)
        return True

    async def tune(self, due: Due) -> None:
        """The host opens the settings panel and changes one rule, as its menus offer."""
        user = due.user
        user.channel = due.channel
        self.done["tune"] += 1
        await self.judged(user, "slash", ("settings", {}))
        knob = self.rng.choice(TUNED)
        for _ in range(2):  # the knob, then a choice knob's value
            panels = [m for m in user.visible() if m.ephemeral and m.selects]
            menus = [(m, s) for m in panels[-1:] for s in m.selects
                     if any(o.value == knob for o in s.options)
                     or s.custom_id.endswith(f":value:0:{knob}")]
            if not menus:
                return
            panel, menu = menus[0]
            values = [knob] if any(o.value == knob for o in menu.options) \
                else [self.rng.choice(menu.options).value]
            await self.judged(user, "control", (f"select {values} in {menu.custom_id}", panel,
                                                menu.custom_id, values))
            if user.modal is not None:
                fields = [i for i in user.modal.inputs if isinstance(i, TextInput)]
                text = self.rng.choice(TUNES[knob] or TYPED)
                await self.judged(user, "modal", {f.custom_id: text for f in fields})
            if values != [knob] or KNOBS[knob].kind != "choice":
                return

    def count_menus(self, due: Due) -> None:
        """Count the exchange screens a player met: menus split over several selects, and a
        low role's pick among equal best cards."""
        game = due.table.game
        seat = due.table.seat_of(due.user.id)
        if game is None or seat is None or game.phase is not Phase.EXCHANGE:
            return
        hand = newest_hand(due.user, due.table)
        gifts = [s for s in hand.selects if ":give:" in s.custom_id] if hand else []
        mark = (due.table.id, due.table.game_no, game.round_no, seat)
        if len(gifts) > 1:
            self.mark("split exchange menu", *mark)
        held = game.gift_on_hold(seat)
        if gifts and held is not None and held[2]:
            self.mark("equal best pick", *mark)

    def mark(self, what: str, *key: object) -> None:
        """Count a sight once per place it was met."""
        if (what, *key) not in self.marks:
            self.marks.add((what, *key))
            self.seen[what] += 1

    def place(self, user: TestUser) -> None:
        """Mostly where they play, sometimes another channel of the server."""
        seated = [c for c in self.channels if self.seated_at(user, c)]
        user.channel = self.rng.choice(seated if seated and self.rng.random() < 0.8
                                       else self.channels)

    def seated_at(self, user: TestUser, channel: Channel) -> bool:
        table = self.live.service.registry.in_channel(channel.id)
        return table is not None and table.seat_of(user.id) is not None

    def note_progress(self) -> None:
        """Count how far play went: rounds dealt, exchanges, games finished, replayed or
        ended, and who waited at a finished game; remember each finished game's results."""
        for table in self.live.service.registry.tables():
            game = table.game
            before = self.phases.get(table.id)
            self.phases[table.id] = (table.game_no, game.phase if game else None)
            if before is not None and before[1] is Phase.GAME_OVER:
                if table.game_no != before[0]:
                    self.seen["replayed"] += 1
                elif game is None:
                    self.seen["ended to the lobby"] += 1
            if game is None:
                continue
            key = (table.id, table.game_no)
            self.rounds[key] = max(self.rounds.get(key, 0), game.round_no)
            if game.round_no > 1 and game.phase in (Phase.EXCHANGE, Phase.PLAY) and \
                    game.swaps:
                self.exchanges.add((*key, game.round_no))
            if game.rules.fast:
                self.mark("fast rounds", *key, game.round_no)
            self.mark(f"rounds of {game.rules.preset_id}", *key, game.round_no)
            if game.phase is Phase.GAME_OVER:
                if table.queue:
                    self.mark("queues at a finished game", *key)
                if key not in self.finished:
                    self.finished[key] = Finished(
                        table.id, table.game_no, tuple(game.points), frozenset(game.winners),
                        len(table.round_totals), game.stopped_early)

    def summary(self) -> dict[str, int]:
        """How far play went, for the test's report."""
        return {"games": len(self.rounds), "rounds": sum(self.rounds.values()),
                "exchanges": len(self.exchanges), "finished": len(self.finished),
                **dict(sorted(self.seen.items()))}

    async def jump(self, seconds: float) -> None:
        self.done["jump"] += 1
        self.clock.advance(seconds)
        await self.settled(f"clock +{seconds}s")
        self.check_world(f"clock +{seconds}s")

    async def restart(self) -> None:
        self.done["restart"] += 1
        await self.check_stored("before the restart")
        self.bot = await restart(self.fake, self.clock, self.live, self.url)
        await self.check_stored("after the restart")
        self.check_world("restart")

    async def outage(self) -> None:
        """Discord loses the server for a while (nobody can click there meanwhile): the
        clock jumps, the bot may restart, and once the server is back every table must
        hold as after any step."""
        self.done["outage"] += 1
        guild = self.fake.guild
        self.fake.start_outage(guild)
        await self.settled("an outage")
        self.clock.advance(self.rng.choice(JUMPS))
        await self.settled("a jump in an outage")
        if self.rng.random() < 0.3:
            await self.restart()
        self.fake.end_outage(guild)
        await self.settled("an outage's end")
        self.check_world("an outage")

    async def gap(self) -> None:
        """The bot's gateway connection drops for a while (play-test 27): the clock jumps,
        and the connection comes back by a RESUME or, half the time, by a new session (the
        jump then at least the 5 s the bot waits between IDENTIFYs); every table must hold
        as after any step."""
        self.done["gap"] += 1
        await self.fake.gateway_down()
        resumable = self.rng.random() < 0.5
        jump = self.rng.choice(JUMPS)
        self.clock.advance(jump if resumable else max(jump, IDENTIFY_INTERVAL))
        await self.settled("a jump in a gap")
        await self.fake.gateway_up(resumable=resumable)
        await self.settled("a gap's end")
        self.check_world("a gap")

    # ------------------------------------------------------------------ what users do

    def control(self, user: TestUser) -> tuple[str, Message, str, list[str] | None] | None:
        """A control their client shows: their newest hand half the time, else anywhere."""
        rng = self.rng
        seen = [m for m in user.visible() if m.buttons or m.selects]
        if not seen:
            return None
        mine = [m for m in seen if m.ephemeral]
        shown = mine[-1] if mine and rng.random() < 0.7 else rng.choice(seen)
        table = self.live.service.registry.in_channel(user.channel.id)
        if table is not None and table.is_host(user.id) and table.game is not None \
                and table.game.phase is not Phase.PLAY and rng.random() < 0.5:
            board = [m for m in seen if m.id == table.table_message_id]
            shown = board[0] if board else shown  # between rounds, the host moves on
        controls = [c for c in shown.controls if not c.disabled
                    and (not isinstance(c, Select) or c.options)
                    and (isinstance(c, Select) or c.custom_id is not None)]
        if not controls:
            return None
        moves = [c for c in controls if c.custom_id and any(
            f":{action}:" in c.custom_id for action in MOVES)]
        chosen = rng.choice(moves if moves and rng.random() < 0.8 else controls)
        if isinstance(chosen, Select):
            low = max(1, chosen.min_values)
            high = min(chosen.max_values, len(chosen.options))
            count = rng.randint(min(low, high), high)
            values = [o.value for o in rng.sample(list(chosen.options), count)]
            return f"select {values} in {chosen.custom_id}", shown, chosen.custom_id, values
        assert chosen.custom_id is not None
        return f"click {chosen.label!r} {chosen.custom_id}", shown, chosen.custom_id, None

    def command(self, user: TestUser) -> tuple[str, dict[str, object]]:
        rng = self.rng
        name = rng.choice(COMMANDS)
        table = self.live.service.registry.in_channel(user.channel.id)
        if rng.random() < 0.3:  # what moves things on: open a table, start it, a hand
            name = "create" if table is None else "start" if table.game is None \
                and table.is_host(user.id) else "hand"
        options: dict[str, object] = {}
        given = rng.random() < 0.6  # an optional option filled in
        if name == "addbot" and given:
            options["level"] = rng.choice(list(LEVELS))
        elif name == "kick" or (name == "stats" and given):
            options["member"] = rng.choice(self.users)
        elif name == "create" or (name in ("rules", "leaderboard") and given):
            options["preset"] = rng.choice(list(PRESETS))
        elif name == "language":
            options["language"] = rng.choice(["fr", "en", "auto"])
        return name, options

    def fill_modal(self, user: TestUser) -> dict[str, str]:
        modal = user.modal
        assert modal is not None
        return {i.custom_id: self.rng.choice(TYPED) for i in modal.inputs
                if isinstance(i, TextInput)}

    # ------------------------------------------------------------------ judging a step

    async def judged(self, user: TestUser, kind: str, what: Doing | None) -> None:
        """One user acts alone: a refusal must then leave every table as it was."""
        before = state_of(self.live, [self.fake.guild.id])
        away = {t.id for t in self.live.service.registry.tables() if user.id in t.away}
        errors = len(self.fake.errors)
        logged = len(self.caplog.records)
        sent = await self.send(user, kind, what)
        if sent is None:
            return
        record, said = sent
        await self.settled(said)
        if self.answered(record, said):
            self.done["refused"] += 1
            after = state_of(self.live, [self.fake.guild.id])
            changed = changes(before, after)
            # A presi player whose seat waits for them is back once shown their hand, even
            # by a late click refused (docs/bot.md): « revient » in the log, no longer away.
            returned = [t.id for t in self.live.service.registry.tables()
                        if t.id in away and user.id not in t.away]
            back = {f"table {t}: {key}" for t in returned for key in ("away", "log")}
            if changed and not set(changed) <= back:
                self.fail(f"refused yet changed {changed}: {said}")
        self.judge_calls(errors, logged, said)

    async def burst(self) -> None:
        """Two or three users act at the same instant, as at a busy table: each is answered
        (their refusals private), whatever order the bot takes them in."""
        errors = len(self.fake.errors)
        logged = len(self.caplog.records)
        sent = []
        for user in self.rng.sample(self.users, self.rng.randint(2, 3)):
            self.place(user)
            if self.rng.random() < 0.8:
                found = await self.send(user, "control", self.control(user))
            else:
                found = await self.send(user, "slash", self.command(user))
            if found is not None:
                sent.append(found)
        if not sent:
            return
        self.done["burst"] += 1
        said = "together: " + "; ".join(s for _, s in sent)
        await self.settled(said)
        for record, one in sent:
            self.answered(record, one)
        self.judge_calls(errors, logged, said)

    async def send(self, user: TestUser, kind: str,
                   what: Doing | None) -> tuple[InteractionRecord, str] | None:
        """Do it, without waiting for the bot; None if their client would not let them."""
        if what is None:
            return None
        try:
            if kind == "modal":
                assert isinstance(what, dict)
                said = f"{user.name} submits {what}"
                record = await user.modal_submit(what, settle=False)
            elif kind == "slash":
                assert isinstance(what, tuple) and len(what) == 2
                name, options = what
                said = f"{user.name} /president {name} {options} in #{user.channel.name}"
                record = await user.slash(f"president {name}", options=options, settle=False)
            else:
                assert isinstance(what, tuple) and len(what) == 4
                said, shown, custom_id, values = what
                said = f"{user.name} {said} on {shown.id} in #{user.channel.name}"
                if values is None:
                    record = await user.click_shown(shown, custom_id, settle=False)
                else:
                    record = await user.select_shown(shown, values, select=custom_id,
                                                     settle=False)
        except UserActionError:
            return None  # a message gone since it was read, a modal no longer open
        self.done[kind] += 1
        return record, said

    def answered(self, record: InteractionRecord, said: str) -> bool:
        """Whether the interaction was refused; fails it if unanswered."""
        if not record.acknowledged:
            self.fail(f"unanswered: {said}")
        return bool(self.refusals(record))

    def judge_calls(self, errors: int, logged: int, said: str) -> None:
        if len(self.fake.errors) != errors:
            self.fail(f"Discord refused a call after {said}: {self.fake.errors[errors:]}")
        self.logged(logged, said)
        self.check_world(said)

    def refusals(self, record: InteractionRecord) -> list[str]:
        """The warnings the interaction was answered with; each must be private."""
        world = self.fake.world
        ids = [record.original_message_id, *record.followup_ids]
        found = []
        for message_id in ids:
            message = world.messages.get(message_id or 0)
            if message is None or not message.content.startswith(WARNING):
                continue
            found.append(message.content)
            if message.ephemeral_to != record.user_id:
                self.fail(f"a public refusal: {message.content!r}")
        return found

    async def settled(self, said: str) -> None:
        try:
            await self.fake.settle(timeout=20)
        except SettleTimeout as err:
            self.fail(f"never settled after {said}: {err}")

    def logged(self, since: int, said: str) -> None:
        bad = [r for r in self.caplog.records[since:]
               if r.levelno >= logging.WARNING and r.name.startswith("bot")]
        for record in bad:
            self.fail(f"logged {record.levelname} {record.getMessage()!r} after {said}")

    def check_world(self, said: str) -> None:
        """What must hold whatever happened: cards conserved, points summed, no ping."""
        self.note_progress()
        for table in self.live.service.registry.tables():
            for problem in table_problems(table) + self.roles_shown(table):
                self.fail(f"table {table.id} after {said}: {problem}")
        # A timer's ping notifies those its content names, by id, and nobody else
        # (`bot.tables.reminders`); every other message pings nobody.
        pinging = [m.id for m in self.fake.world.messages.values()
                   if m.author_id == self.fake.world.bot.id and MENTION.search(m.content)
                   and self.fake.writer.may_ping(m.id) and not self.reminder(m.id, m.content)]
        if pinging:
            self.fail(f"messages {pinging} may ping, after {said}")

    def reminder(self, message_id: int, content: str) -> bool:
        """Whether the message is a timer's ping notifying exactly the users it names."""
        named = {int(m) for m in USER_MENTION.findall(content)}
        return content.startswith("⏰ <@") and self.fake.writer.pinged(message_id) == named \
            and "@everyone" not in content and "@here" not in content

    def roles_shown(self, table: Table) -> list[str]:
        """The roles on the table message, once its latest redraw has gone out (none goes
        out while Discord has lost the server)."""
        message = self.fake.world.messages.get(table.table_message_id or 0)
        if message is None or not self.live.service.coalescer.idle(table.id) \
                or not self.fake.guild.available:
            return []
        return role_problems(table, message.content)

    async def stored(self) -> None:
        """Wait for the results queued for the database. Not `TableService.drain`, which
        also waits for a closed table's last edits: those may wait for the call budget's
        window to pass on the bot's clock, which moves only when the monkey moves it (the
        card faces' uploads at start fill the budget's first seconds)."""
        await asyncio.gather(*self.live.service.outbox.pending(), return_exceptions=True)

    async def check_stored(self, when: str) -> None:
        """A finished game's stored points are those its table announced, once."""
        for table in self.live.service.registry.tables():
            await self.check_table_stored(table, when)
        for problem in await stored_problems(self.url, self.finished.values()):
            self.fail(f"{when}: {problem}")

    async def check_table_stored(self, table: Table, when: str) -> None:
        """Once stored (nothing left in its outbox), a game's rounds are each stored once
        and their points add up to those its table shows."""
        game = table.game
        await self.stored()
        if game is None or table.game_row_id is None or table.unstored:
            return
        stored = await stored_game(self.url, table.game_row_id)
        if len(set(stored.round_nos)) != len(stored.round_nos):
            self.fail(f"table {table.id} {when}: rounds stored twice {stored.round_nos}")
        holders = {seat: holder_of(player) for seat, player in enumerate(table.seats)}
        for problem in points_problems(stored.results, dict(enumerate(game.points)), holders):
            self.fail(f"table {table.id} {when}: {problem}")

    def fail(self, text: str) -> None:
        self.failures.append(f"step {self.step_no}: {text}")

