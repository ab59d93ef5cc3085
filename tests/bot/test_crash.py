"""Crash safety on the real process: the bot runs as an OS process (tests/bot/crashbot.py)
against the fake Discord served here and a SQLite file, and is killed with SIGKILL at random
instants, including 0–40 ms after Start, Replay, a gift and a fast-mode play. After every
kill: the stored table holds every card of the deck once and every move confirmed to its
player; at the end: one games row per game, one row per (game, round), and each game's
points in SQL equal the engine's totals.

The short run (`CRASH_KILLS`, default 8) is part of `make test`; `make soak` runs at least
100 kills across the four presets and fast mode (figures in docs/deploy.md). The instants
are drawn from a seeded generator (`CRASH_SEED`); where a kill lands in the bot's work
depends on the machine, which is the point: the invariants must hold wherever it lands.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import sys
from collections import deque
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select

from bot.packages.game.table_message import TURN_MARKER
from bot.storage import Storage
from bot.storage.db import upgrade_to_head
from bot.storage.models import Game as GameRow
from bot.tables.snapshot import stored_table
from bot.tables.table import Table
from engine import Game, Phase, Rules
from engine.rules import RulesError
from fakediscord import FakeClock, FakeDiscord, InteractionRecord, Message, TestUser

from .e2e import database_url
from .stored import stored_game

KILLS = int(os.environ.get("CRASH_KILLS", "8"))
SEED = int(os.environ.get("CRASH_SEED", "1"))
PRESETS = os.environ.get("CRASH_PRESETS", "classic").split(",")
GAMES = 2  # the second starts with Replay
ANSWER_TIMEOUT = 60.0  # real seconds; only bounds a failing run on a very busy machine
GAME_TIMEOUT = 600.0  # real seconds for one table's games, likewise
HAND_LAG = 5.0  # real seconds a player waits for their hand to catch up with the table
VERSION = re.compile(r"^pz:\d+:[a-z_]+:(\d+):")


@dataclass
class Acked:
    """The newest move a player saw accepted: (game number, engine version) in storage."""

    game_no: int = 0
    version: int = -1


@dataclass
class Run:
    fake: FakeDiscord
    url: str
    log: Path
    knobs: dict[str, Any]
    rng: random.Random
    kills_left: int
    storage: Storage
    process: asyncio.subprocess.Process | None = None
    table_id: int | None = None
    acked: Acked = field(default_factory=Acked)
    totals: dict[int, list[int]] = field(default_factory=dict)  # game_no → engine points
    kills: int = 0
    restarts_checked: int = 0
    refreshes: int = 0  # hands a player refreshed because they lagged (Human.refresh)

    # -- the bot process ------------------------------------------------------------------

    async def start_bot(self) -> None:
        # The fake refuses an IDENTIFY within 5 s of the last (Discord's max_concurrency):
        # the restart takes that long on the fake clock.
        self.fake.until_identify()
        env = {**os.environ, "CRASH_API": self.fake.api_url,
               "CRASH_GATEWAY": self.fake.gateway.url, "CRASH_TOKEN": self.fake.token,
               "CRASH_DATABASE_URL": self.url, "CRASH_KNOBS": json.dumps(self.knobs)}
        with self.log.open("ab") as out:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "tests.bot.crashbot", env=env,
                stdout=out, stderr=out, cwd=Path(__file__).parents[2])
        await self.until(lambda: self.fake.gateway.connected, "the bot to connect")

    async def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, as a host killing the container."""
        assert self.process is not None
        self.process.kill()
        await self.process.wait()
        self.kills += 1
        self.kills_left -= 1
        await self.until(lambda: not self.fake.gateway.connected
                         and not self.fake.gateway.closing(), "the socket to close")
        for interaction in self.fake.hub.unanswered():  # sent to the dead process
            interaction.abandoned = True
        await self.check_stored()
        await self.start_bot()

    async def maybe_kill(self, chance: float) -> None:
        if self.kills_left > 0 and self.rng.random() < chance:
            await asyncio.sleep(self.rng.uniform(0, 0.040))
            await self.kill()

    async def until(self, condition: Any, what: str) -> None:
        for _ in range(int(ANSWER_TIMEOUT / 0.005)):
            if condition():
                return
            if what != "the socket to close":
                self.check_alive()
            await asyncio.sleep(0.005)
        raise AssertionError(f"timed out waiting for {what}; {self.log_tail()}")

    def check_alive(self) -> None:
        if self.process is not None and self.process.returncode is not None:
            raise AssertionError(f"the bot process died; {self.log_tail()}")

    def log_tail(self, lines: int = 40) -> str:
        """What the bot logged last, for a failure on a machine whose files are gone after."""
        text = self.log.read_text(errors="replace").splitlines() if self.log.exists() else []
        kept = [line for line in text if "voice will NOT be supported" not in line]
        return f"bot log {self.log}, last lines:\n" + "\n".join(kept[-lines:])

    async def answered(self, record: InteractionRecord) -> None:
        await self.until(lambda: record.attempted, f"an answer to {record.description}")

    # -- what is stored -------------------------------------------------------------------

    async def stored_table(self) -> Table | None:
        if self.table_id is None:
            return None
        snapshot = await self.storage.load_snapshot(self.table_id)
        return None if snapshot is None else Table.from_dict(stored_table(snapshot.state))

    async def check_stored(self) -> None:
        """What a restart will restore: the deck whole, and no confirmed move missing."""
        table = await self.stored_table()
        if table is None:
            return
        game = table.game
        if game is not None and game.phase in (Phase.PLAY, Phase.EXCHANGE):
            assert cards_held(game) == deck_of(game), "cards lost or duplicated"
        if self.acked.game_no:
            assert (table.game_no, game.version if game else -1) >= \
                (self.acked.game_no, self.acked.version), \
                f"a confirmed move was lost: stored {table.game_no}/" \
                f"{game.version if game else None}, confirmed {self.acked}"
        self.restarts_checked += 1

    async def confirmed(self, record: InteractionRecord) -> None:
        """The answer to a move shows it accepted: the move must already be stored (bot.packages
        .game views confirm a move only once its snapshot is committed). The move's own
        version is above the one its control was drawn for; the answer may also show bots'
        later moves, which are confirmed to nobody and need not be stored yet."""
        answer = record.response or {}
        content = str(answer.get("content", ""))
        drawn = VERSION.match(str(record.data.get("custom_id", "")))
        if not content or content.startswith("⚠️") or drawn is None:
            return  # refused, or deferred (the hand is edited once stored, no version here)
        table = await self.stored_table()
        assert table is not None and table.game is not None, \
            f"a move was confirmed with no game stored: answer={content!r}, data={record.data}"
        moved = int(drawn.group(1)) + 1
        assert table.game.version >= moved, (
            f"a move was confirmed before it was stored: stored {table.game.version}, "
            f"move {moved}, answer={content!r}")
        self.acked = Acked(table.game_no, moved)


def cards_held(game: Game) -> list[str]:
    held = [c for seat in range(game.seats) for c in game.hand(seat)] + list(game.pile)
    return sorted(str(c) for c in held)


def deck_of(game: Game) -> list[str]:
    return sorted(str(c) for c in game.rules.deck_kind.cards())


def custom_ids(message: Message) -> list[str]:
    ids = [b.custom_id for b in message.buttons if b.custom_id]
    return ids + [s.custom_id for s in message.selects]


def board(fake: FakeDiscord, needle: str) -> Message | None:
    """The newest public message with a control whose custom_id contains `needle`."""
    for message in reversed(fake.messages()):
        if not message.ephemeral and any(needle in cid for cid in custom_ids(message)):
            return message
    return None


class Human:
    """Plays the first option offered, gives what the bot pre-checks; notes what is
    confirmed, and lets the run kill the bot right after opening a hand, gifts and
    fast-mode plays. Like a player, they press the hand's Refresh when the table asks
    them for their hand, or says it is their turn while their hand has not shown it for a
    while: a kill between a hand's opening and its save loses the bot's link to it
    (bot.tables.handlinks.HandLinks.remember), and the hand they look at is then not redrawn."""

    def __init__(self, run: Run, user: TestUser) -> None:
        self.run = run
        self.user = user
        self.hand_id: int | None = None
        self.done: deque[str] = deque(maxlen=8)  # what they did last, for a failure's report
        self.behind_since: float | None = None  # since when their hand lags the table

    def hand(self) -> Message | None:
        found = [m for m in self.user.visible() if m.id == self.hand_id]
        return found[0] if found else None

    def lagging(self, controls: list[str]) -> bool:
        """For HAND_LAG seconds, the table message has asked this player to press My hand
        (the bot follows no hand of theirs), or said it is their turn while their hand
        offers no move. The table message is redrawn within Discord's rate limits, so it
        may lag a moment behind a hand: only a lasting difference counts."""
        table_message = board(self.run.fake, ":hand:")
        lines = [] if table_message is None else table_message.content.splitlines()
        asked = any(line.startswith("🔔") and self.user.name in line for line in lines)
        turn = any(line.startswith(f"{TURN_MARKER} **{self.user.name}** to play")
                   for line in lines) \
            and not any(f":{kind}:" in c for c in controls for kind in ("play", "pass"))
        now = asyncio.get_running_loop().time()
        if not (asked or turn):
            self.behind_since = None
        elif self.behind_since is None:
            self.behind_since = now
        return self.behind_since is not None and now - self.behind_since > HAND_LAG

    async def open_hand(self) -> bool:
        table_message = board(self.run.fake, ":hand:")
        if table_message is None:
            return False
        cid = next(c for c in custom_ids(table_message) if ":hand:" in c)
        record = await self.user.click(table_message, cid, settle=False)
        await self.run.answered(record)
        shown = [m for m in self.user.visible() if m.id == record.original_message_id]
        if shown and any(":refresh:" in c for c in custom_ids(shown[0])):  # a hand
            self.hand_id = shown[0].id
        await self.run.maybe_kill(0.15)  # shown, maybe not saved yet
        return True

    async def refresh(self, shown: Message, controls: list[str]) -> bool:
        cid = next((c for c in controls if ":refresh:" in c), None)
        if cid is None:
            return await self.open_hand()
        record = await self.user.click(shown, cid, settle=False)
        await self.run.answered(record)
        self.done.append(f"{cid}: refreshed")
        self.behind_since = None
        self.run.refreshes += 1
        return True

    async def act(self) -> bool:
        shown = self.hand()
        if shown is None:
            return await self.open_hand()
        controls = custom_ids(shown)
        if self.lagging(controls):
            return await self.refresh(shown, controls)
        buttons = {b.custom_id: b for b in shown.buttons if b.custom_id and not b.disabled}
        confirm = next((c for c in buttons if ":give_ok:" in c and not c.endswith(":")), None)
        if confirm is not None:
            await self.move(self.user.click(shown, confirm, settle=False), chance=0.5)
            return True
        for menu in shown.selects:
            if ":give:" in menu.custom_id:
                count = menu.min_values
                picks = [o.value for o in menu.options[:count]]
                record = await self.user.select(shown, picks, select=menu.custom_id,
                                                settle=False)
                await self.run.answered(record)
                return True
        for menu in shown.selects:
            if ":play:" in menu.custom_id:
                chance = 0.3 if self.run.knobs.get("fast") else 0.05
                await self.move(self.user.select(shown, [menu.options[0].value],
                                                 select=menu.custom_id, settle=False), chance)
                return True
        passing = next((c for c in buttons if ":pass:" in c), None)
        if passing is not None:
            await self.move(self.user.click(shown, passing, settle=False), chance=0.05)
            return True
        return False

    async def move(self, sent: Any, chance: float) -> None:
        record = await sent
        await self.run.maybe_kill(chance)
        if record.abandoned:
            self.done.append(f"{record.data.get('custom_id')}: abandoned")
            return
        await self.run.answered(record)
        answer = str((record.response or {}).get("content", ""))[:80]
        self.done.append(f"{record.data.get('custom_id')}: {answer!r}")
        await self.run.confirmed(record)

    def report(self) -> dict[str, Any]:
        shown = self.hand()
        return {"hand": None if shown is None else shown.content[:300],
                "controls": [] if shown is None else custom_ids(shown),
                "did": list(self.done)}


async def host_click(run: Run, host: TestUser, needle: str, chance: float) -> bool:
    found = board(run.fake, needle)
    if found is None:
        return False
    cid = next(c for c in custom_ids(found) if needle in c)
    record = await host.click(found, cid, settle=False)
    await run.maybe_kill(chance)
    if not record.abandoned:
        await run.answered(record)
    return True


async def play_table(run: Run, preset: str) -> None:
    fake = run.fake
    alice, bob = (Human(run, fake.add_user(name)) for name in ("alice", "bob"))
    await run.start_bot()
    record = await alice.user.slash("president create", preset=preset, settle=False)
    await run.answered(record)  # deferred: the lobby follows
    await run.until(lambda: board(fake, ":start:") is not None, "the lobby")
    lobby = board(fake, ":start:")
    assert lobby is not None
    run.table_id = int(custom_ids(lobby)[0].split(":")[1])
    await run.answered(await bob.user.click(lobby, next(
        c for c in custom_ids(lobby) if ":join:" in c), settle=False))
    deadline = asyncio.get_running_loop().time() + GAME_TIMEOUT
    while asyncio.get_running_loop().time() < deadline:
        table = await run.stored_table()
        game = table.game if table is not None else None
        if table is not None and game is not None and game.phase is Phase.GAME_OVER:
            run.totals[table.game_no] = list(game.points)
            if table.game_no >= GAMES:
                return
            if await host_click(run, alice.user, ":replay:", chance=1.0):
                run.acked = Acked()
                continue
        elif table is not None and game is None and table.game_no == 0:
            lobby = board(fake, ":start:")
            if lobby is not None and len(table.seats) < 3 and not table.rules.bots_fill:
                await host_click(run, alice.user, ":addbot:", chance=0.0)
                continue
            if await host_click(run, alice.user, ":start:", chance=1.0):
                continue
        elif game is not None and game.phase is Phase.ROUND_OVER \
                and await host_click(run, alice.user, ":next:", chance=0.2):
            continue
        # Both act in each pass, as players at one table do: neither waits on the other.
        if not [await human.act() for human in (alice, bob)].count(True):
            run.check_alive()
            await asyncio.sleep(0.01)
    table = await run.stored_table()
    game = table.game if table is not None else None
    state = None if game is None else (game.phase, game.round_no, game.to_act)
    seen = {h.user.name: h.report() for h in (alice, bob)}
    raise AssertionError(f"the games never ended (stored: game {table and table.game_no}, "
                         f"{state}); players: {seen}; {run.log_tail()}")


async def check_results(run: Run) -> None:
    assert run.table_id is not None
    engine = run.storage._engine  # a read of the raw rows, not through the repository
    async with engine.connect() as connection:
        rows = (await connection.execute(
            select(GameRow.id, GameRow.game_no).where(GameRow.table_id == run.table_id)
        )).all()
    numbers = sorted(no or 0 for _, no in rows)
    for game_id, _ in rows:  # the last game's end is stored just after its final state
        for _ in range(int(ANSWER_TIMEOUT / 0.05)):
            if (await stored_game(run.url, game_id)).ended:
                break
            await asyncio.sleep(0.05)
    assert numbers == list(range(1, GAMES + 1)), f"one games row per game, got {numbers}"
    for game_id, game_no in rows:
        assert game_no is not None
        stored = await stored_game(run.url, game_id)
        rounds = len(stored.round_nos)
        assert stored.round_nos == list(range(1, rounds + 1)), "one row per (game, round)"
        assert stored.ended == 1
        assert stored.points == dict(enumerate(run.totals[game_no])), \
            f"game {game_no}: SQL points {stored.points} != engine {run.totals[game_no]}"


def allowed(preset: str, knobs: dict[str, Any]) -> bool:
    """Whether the preset takes the knobs (proletario's one-lap tricks exclude fast mode)."""
    try:
        Rules.preset(preset).replace(**knobs)
    except RulesError:
        return False
    return True


async def crash_run(tmp_path: Path, preset: str, knobs: dict[str, Any], kills: int,
                    seed: int) -> Run:
    url = database_url(tmp_path, f"{preset}-{len(knobs)}.db")
    await upgrade_to_head(url)
    storage = await Storage.open(url)
    # The bot process runs on the system clock: the fake's starts at the same instant, so
    # that interaction tokens look as young to the bot as they are.
    async with FakeDiscord.running(patch=False, clock=FakeClock(datetime.now(UTC))) as fake:
        run = Run(fake, url, tmp_path / f"bot-{preset}-{len(knobs)}.log",
                  {"game_end": "rounds:2", **knobs}, random.Random(seed), kills, storage)
        try:
            await play_table(run, preset)
            await check_results(run)
        finally:
            if run.process is not None and run.process.returncode is None:
                run.process.kill()
                await run.process.wait()
            await storage.close()
    return run


async def test_results_survive_sigkill_at_any_instant(tmp_path: Path) -> None:
    plans = [(preset, knobs) for preset in PRESETS for knobs in ({}, {"fast": True})
             if allowed(preset, knobs)]
    per_plan = max(1, KILLS // len(plans))
    total = 0
    for index, (preset, knobs) in enumerate(plans):
        run = await crash_run(tmp_path, preset, knobs, per_plan, SEED * 1000 + index)
        total += run.kills
        assert run.restarts_checked == run.kills
        print(f"crash preset={preset} fast={bool(knobs)} kills={run.kills} "
              f"games={len(run.totals)} refreshed_hands={run.refreshes}")
    assert total >= min(KILLS, len(plans)), "the run never killed the bot"
