"""Helpers for end-to-end tests: find the bot's messages and play like a person would."""

from __future__ import annotations

import asyncio
import types
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import discord.http
import discord.webhook.async_
import pytest

from bot.client import PresidentBot
from bot.config import Config
from bot.i18n import t
from bot.packages.game import chart
from bot.packages.screen import Screen
from bot.storage import Storage
from bot.tables.table import Table
from engine import Card, Game, Phase
from fakediscord import Button, Channel, FakeClock, FakeDiscord, Message, Select, TestUser

from . import databases
from .conftest import LinkedClock
from .reading import Reader

# The history's lines for a turn that ran out: alone (the autopilot took over, say), or one
# with the pass or play made for the player (`bot.tables.log.note`).
TIMED_OUT = frozenset({"ev.timeout", "ev.passed_late", "ev.played_late"})


def table_of(bot: PresidentBot, user: TestUser) -> Table:
    table = bot.service.registry.in_channel(user.channel.id)
    assert table is not None
    return table


def cid(table: Table, action: str, version: int = 0, arg: str = "") -> str:
    return f"pz:{table.id}:{action}:{version}:{arg}"


def message(user: TestUser, message_id: int | None) -> Message:
    assert message_id is not None
    found = [m for m in user.visible() if m.id == message_id]
    assert found, f"{user.name} cannot see message {message_id}"
    return found[0]


def before_takeover(locale: str, lines: list[str]) -> list[str]:
    """A round's or game's end's lines up to the host's choice: where others sit, it ends on
    from when they may choose for a silent host (`table_message.takeover_lines`)."""
    quiet = (t(locale, "table.host_quiet_at", at="\0").split("\0")[0],
             t(locale, "table.host_quiet"))
    return lines[:-1] if lines and lines[-1].startswith(quiet) else lines


def hand(user: TestUser) -> Message:
    """The user's newest ephemeral that shows a hand (their hand message)."""
    return user.last_ephemeral()


async def leave_game(user: TestUser) -> None:
    """``user`` leaves the game they play: /president leave, then the button it asks with."""
    await user.slash("president leave")
    await user.click(user.last_ephemeral(), t(user.user.locale, "btn.quit_game"))


async def tick(fake: FakeDiscord, clock: LinkedClock, seconds: float = 1.0) -> None:
    clock.advance(seconds)
    await fake.settle()


class AsyncioOnTheFakeClock(types.ModuleType):
    """asyncio as discord.py's webhook module sees it (`webhook_waits_on_the_fake_clock`):
    the same but for `sleep`, which waits on the fake's clock until `end`."""

    def __init__(self, clock: FakeClock) -> None:
        super().__init__("asyncio")
        self._clock = clock
        self._ended = asyncio.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    async def sleep(self, delay: float) -> None:
        waits = {asyncio.ensure_future(self._clock.sleep(delay)),
                 asyncio.ensure_future(self._ended.wait())}
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()

    def end(self) -> None:
        """Every wait ends now, and any later one at once: the fake clock no longer moves
        once the test is over, and the bot's stop must not wait for it."""
        self._ended.set()


def webhook_waits_on_the_fake_clock(monkeypatch: pytest.MonkeyPatch,
                                    fake: FakeDiscord) -> AsyncioOnTheFakeClock:
    """discord.py sleeps out a 429 on an interaction token, and an exhausted webhook bucket,
    inside its webhook adapter (`AsyncWebhookAdapter.request`), with `asyncio.sleep`: on the
    wall clock. Here those waits follow the fake's clock, so a test holds a hand's token
    for as long as it likes and ends the wait with `tick`, never sleeping. `end` the waits
    before the bot stops."""
    shim = AsyncioOnTheFakeClock(fake.clock)
    monkeypatch.setattr(discord.webhook.async_, "asyncio", shim)
    return shim


@pytest.fixture
async def waits(monkeypatch: pytest.MonkeyPatch, fake: FakeDiscord,
                president: PresidentBot) -> AsyncIterator[None]:
    """discord.py's webhook waits on the fake clock (`webhook_waits_on_the_fake_clock`),
    ended before the bot stops: a test module imports it and marks its tests
    `usefixtures("waits")`."""
    shim = webhook_waits_on_the_fake_clock(monkeypatch, fake)
    yield
    shim.end()


def http_waits_on_the_fake_clock(monkeypatch: pytest.MonkeyPatch,
                                 fake: FakeDiscord) -> AsyncioOnTheFakeClock:
    """discord.py retries a 500, 502, 504 or 524 five times in its REST client
    (`HTTPClient.request`), sleeping 1, 3, 5, 7 and 9 s with `asyncio.sleep`, as it sleeps
    out a channel route's 429: on the wall clock. Here on the fake's, as
    `webhook_waits_on_the_fake_clock` does for the webhook adapter: a test injects a 502
    and moves the clock, never sleeping. `end` the waits before the bot stops."""
    shim = AsyncioOnTheFakeClock(fake.clock)
    monkeypatch.setattr(discord.http, "asyncio", shim)
    return shim


def database_url(tmp_path: Path, name: str = "president.db") -> str:
    """The database named ``name`` of the running test: a SQLite file in ``tmp_path``, or a
    fresh PostgreSQL database under `TEST_DATABASE=postgresql` (tests/bot/databases.py)."""
    assert databases.current is not None, "asked outside a bot test"
    return databases.current.url(tmp_path, name)


async def connect_bot(fake: FakeDiscord, clock: LinkedClock, url: str,
                      **config: Any) -> PresidentBot:
    """A bot storing to the database at ``url``, connected to the fake Discord."""
    bot = PresidentBot(Config(token=fake.token, database_url=url, **config), clock=clock,
                       guild_ready_timeout=0)
    await fake.connect(bot)
    return bot


# The seconds `restart` lets the new process run (its first redraws) before it returns.
RESTART_UP = 1.0


async def restart(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                  url: str, down: float = 0.0,
                  meanwhile: Callable[[], object] | None = None) -> PresidentBot:
    """The bot stops as a redeploy stops it (its storage work drained), stays down ``down``
    seconds, while ``meanwhile`` happens (what the bot is not told, down), and a new
    process starts on the same database; the fake clock moves on by Discord's IDENTIFY
    window besides.

    Only the storage is waited for here: the stop (`PresidentBot.close`) drains the rest once
    the call budget is closed. A closed table's last edits may wait in the budget for its
    window to pass on the bot's clock, which stands still meanwhile (a monkey seed hung so,
    its table closed in the first second, while the card faces' uploads filled the budget)."""
    await asyncio.gather(*bot.service.outbox.pending(), return_exceptions=True)
    await fake.disconnect(bot)
    clock.advance(down)
    if meanwhile is not None:
        meanwhile()
    again = await connect_bot(fake, clock, url, bot_pause=1.0)
    await fake.settle()
    while again.faces_sync is not None and not again.faces_sync.done():
        await tick(fake, clock, 0.1)
    await tick(fake, clock, RESTART_UP)  # the redraws coalesced meanwhile
    return again


async def snapshot_followed(url: str, table_id: int, state: Mapping[str, object]) -> int:
    """The table's last snapshot in the database at ``url`` followed by ``state`` (stored
    under the next seq), as a process that saved it then died leaves it: the followed
    snapshot's seq."""
    storage = await Storage.open(url)
    stored = await storage.load_snapshot(table_id)
    assert stored is not None
    assert await storage.save_snapshot(table_id, stored.seq + 1, state)
    await storage.close()
    return stored.seq


async def started_on(fake: FakeDiscord, clock: LinkedClock, url: str) -> PresidentBot:
    """A new process on the database at ``url``, once the last has stopped (or crashed):
    connected, settled and `RESTART_UP` seconds on."""
    again = await connect_bot(fake, clock, url, bot_pause=1.0)
    await fake.settle()
    await tick(fake, clock, RESTART_UP)
    return again


def after_restart(deadline: float, stopped: float, clock: LinkedClock) -> float:
    """Where a deadline stored by a bot `restart` stopped at `stopped` stands once it
    returns: later by the time the bot was away, when nobody could act (play-test 15)."""
    return deadline + clock.now() - RESTART_UP - stopped


def record_charts(monkeypatch: pytest.MonkeyPatch) -> list[chart.PointsChart]:
    """Charts are not drawn but recorded, in the order the bot asked for them."""
    drawn: list[chart.PointsChart] = []

    def render(shown: chart.PointsChart) -> bytes:
        drawn.append(shown)
        return b"\x89PNG fake"

    monkeypatch.setattr(chart, "render", render)
    return drawn


async def create_table(bot: PresidentBot, host: TestUser, preset: str = "classic") -> Table:
    """``host`` opens a ``preset`` table with /president create."""
    await host.slash("president create", preset=preset)
    return table_of(bot, host)


async def host_against_bots(bot: PresidentBot, host: TestUser, preset: str, bots: int,
                            **rules: Any) -> Table:
    """``host`` opens a ``preset`` table (with ``rules`` changed), seats ``bots`` bots from
    the lobby and starts."""
    table = await create_table(bot, host, preset)
    if rules:
        await bot.service.set_rules(table, host.id, table.rules.replace(**rules))
    lobby = message(host, table.lobby_message_id)
    for _ in range(bots):
        await host.click(lobby, cid(table, "addbot"))
    await host.click(lobby, cid(table, "start"))
    return table


async def to_the_next_exchange(fake: FakeDiscord, clock: LinkedClock, table: Table,
                               players: Sequence[Player], host: TestUser) -> Game:
    """``players`` play the round out, and ``host`` deals the next one from the table
    message: its exchange is under way (or its play, where the rules have none)."""
    game = table.game
    assert game is not None
    await play_until(fake, clock, list(players), lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    await host.click(message(host, table.table_message_id), cid(table, "next", game.version))
    await tick(fake, clock, 1)
    return game


async def table_in_a_thread(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                            host: TestUser, parent: Channel | None = None, *,
                            manage_threads: bool = True) -> tuple[Channel, Table]:
    """``host`` starts a thread « partie » of ``parent`` (the fake's channel unless said) and
    there a classic game against two bots, shown. With ``manage_threads=False`` the bot may
    not manage the parent's threads, so a locked thread refuses its posts and edits."""
    parent = parent or fake.channel
    thread = fake.add_thread(parent, "partie", host)
    await fake.settle()
    host.channel = thread
    if not manage_threads:
        fake.set_bot_permissions(parent, manage_threads=False)
    table = await host_against_bots(bot, host, "classic", 2)
    await tick(fake, clock, 1)
    return thread, table


async def archived_mid_game(fake: FakeDiscord, clock: LinkedClock, thread: Channel,
                            table: Table) -> int | None:
    """A moderator archives the table's ``thread`` mid-game: the next edit is refused
    (50083, expected), and the fresh table message posted instead wakes the thread. The
    id of the table message it replaced."""
    first = table.table_message_id
    fake.archive_thread(thread)
    await fake.settle()
    for _ in range(40):
        await tick(fake, clock, 1)
    fake.expect_error(50083)  # the one refused edit
    assert not thread.archived and table.table_message_id != first
    return first


async def host_against_three_bots(bot: PresidentBot, host: TestUser, game_end: str) -> Table:
    """A classic table where ``host`` plays three bots, started, ending by ``game_end``."""
    table = await host_against_bots(bot, host, "classic", 3, game_end=game_end)
    assert table.game is not None
    return table


async def marie_against_three_bots(fake: FakeDiscord, bot: PresidentBot,
                                   game_end: str) -> tuple[TestUser, Table, Game]:
    """marie, a French player, hosts a classic game against three bots, started."""
    marie = fake.add_user("marie", locale="fr")
    table = await host_against_three_bots(bot, marie, game_end)
    assert table.game is not None
    return marie, table, table.game


async def alice_hosts_with_bob_around(fake: FakeDiscord,
                                      bot: PresidentBot) -> tuple[TestUser, TestUser, Table]:
    """alice (English) opens a classic table; bob (French) is in the channel, not seated."""
    alice = fake.add_user("alice")
    bob = fake.add_user("bob", locale="fr")
    return alice, bob, await create_table(bot, alice)


async def marie_hosts_with_bob_around(fake: FakeDiscord,
                                      bot: PresidentBot) -> tuple[TestUser, TestUser, Table]:
    """marie (French) opens a classic table; bob (English) is in the channel, not seated."""
    marie = fake.add_user("marie", locale="fr")
    bob = fake.add_user("bob")
    return marie, bob, await create_table(bot, marie)


def deal(bot: PresidentBot, table: Table, hands: Sequence[Sequence[Card | str]],
         opener: int | None = None, previous_ranking: Sequence[int] | None = None) -> Game:
    """Replace the table's game by one dealt ``hands``: seat 0 is the host, every other
    seat a bot; the dealt position's timer is set as after any change."""
    cards = [[Card.parse(c) if isinstance(c, str) else c for c in hand] for hand in hands]
    table.game = Game.new(table.rules, seats=len(cards), seed=1,
                          bots=list(range(1, len(cards))), hands=cards, opener=opener,
                          previous_ranking=previous_ranking)
    bot.service._after(table, [])
    return table.game


async def after_an_equal(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                         locale: str, preset: str, hands: Sequence[Sequence[Card | str]],
                         ) -> Player:
    """A French or English host against two bots at ``preset``, dealt ``hands``, the second
    seat opening: once the bots have played two equal values, it is the host's turn under
    the rule that follows an equal (« ta gueule », « ou rien »), their hand open."""
    host = Player(fake.add_user("marie", locale=locale))
    table = await host_against_bots(bot, host.user, preset, 2)
    await tick(fake, clock, 1)
    game = deal(bot, table, hands, opener=1)
    for _ in range(10):
        if game.constraint is not None:
            break
        await tick(fake, clock, 1)
    assert game.constraint is not None and game.constraint[0] == 0 and game.to_act == 0
    await host.open_hand(bot)
    return host


async def dealt_against_two_bots(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                                 host: Player, hands: Sequence[Sequence[Card | str]], *,
                                 opener: int | None = None,
                                 previous_ranking: Sequence[int] | None = None,
                                 **rules: Any) -> tuple[Table, Game]:
    """``host`` starts a classic game (with ``rules`` changed) against two bots, which
    `deal` then replaces by one dealt ``hands``; the host's hand is open on it."""
    table = await host_against_bots(bot, host.user, "classic", 2, **rules)
    await tick(fake, clock, 1)
    game = deal(bot, table, hands, opener=opener, previous_ranking=previous_ranking)
    await tick(fake, clock, 1)
    await host.open_hand(bot)
    return table, game


async def two_humans_against_a_bot(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                                   host: Player, guest: Player, preset: str = "classic",
                                   *, bots: int = 1, **rules: Any) -> tuple[Table, Game]:
    """``host`` opens a ``preset`` table (with ``rules`` changed); ``guest`` joins, one bot
    (or ``bots``) is seated, the game starts and both humans open their hands."""
    table = await create_table(bot, host.user, preset)
    if rules:
        await bot.service.set_rules(table, host.user.id, table.rules.replace(**rules))
    lobby = message(host.user, table.lobby_message_id)
    await guest.user.click(lobby, cid(table, "join"))
    for _ in range(bots):
        await host.user.click(lobby, cid(table, "addbot"))
    await host.user.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    await host.open_hand(bot)
    await guest.open_hand(bot)
    assert table.game is not None
    return table, table.game


async def marie_and_bob_against_a_bot(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                                      preset: str = "classic", *, bob_locale: str = "en-US",
                                      ) -> tuple[Player, Player, Table, Game]:
    """marie (French) hosts a ``preset`` game with bob (English unless ``bob_locale`` says
    otherwise) and a bot, both hands open (`two_humans_against_a_bot`)."""
    marie = Player(fake.add_user("marie", locale="fr"))
    bob = Player(fake.add_user("bob", locale=bob_locale))
    table, game = await two_humans_against_a_bot(fake, clock, bot, marie, bob, preset)
    return marie, bob, table, game


async def alice_and_bob_stored(fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
                               game_end: str, *, bob_locale: str = "en-US",
                               ) -> tuple[PresidentBot, Player, Player, Table, Game]:
    """A bot storing to a database in ``tmp_path`` (bots pause 1 s); alice (English) hosts a
    classic game until ``game_end`` with bob (English unless ``bob_locale`` says otherwise)
    and a bot, both hands open (`two_humans_against_a_bot`)."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    alice = Player(fake.add_user("alice"))
    bob = Player(fake.add_user("bob", locale=bob_locale))
    table, game = await two_humans_against_a_bot(fake, clock, bot, alice, bob,
                                                 game_end=game_end)
    return bot, alice, bob, table, game


async def play_every_round(fake: FakeDiscord, clock: LinkedClock, table: Table,
                           players: list[Player]) -> None:
    """The humans play each round through; the host (the first player) clicks Next
    between rounds, until the game is over."""
    game = table.game
    assert game is not None
    host = players[0]
    while game.phase is not Phase.GAME_OVER:
        await play_until(fake, clock, players,
                         lambda: game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER))
        if game.phase is Phase.ROUND_OVER:
            await tick(fake, clock, 1)  # the table message offers Next
            board = message(host.user, table.table_message_id)
            await host.user.click(board, cid(table, "next", game.version))
            await tick(fake, clock, 1)


async def eight_seat_game_over(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                               names: Sequence[str]) -> tuple[Game, str]:
    """Eight French players named ``names`` play one round of wild7 through to the game's
    end: the game, and its table message as the host then sees it (the longest a table
    message gets)."""
    users = [fake.add_user(name, locale="fr") for name in names]
    table, players = await humans_only(fake, clock, bot, users, "wild7", game_end="rounds:1")
    game = table.game
    assert game is not None and game.seats == 8
    await play_every_round(fake, clock, table, players)
    await tick(fake, clock, 1)
    assert game.phase is Phase.GAME_OVER
    return game, message(users[0], table.table_message_id).content


async def marie_and_bob_stopped(fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
                                ) -> tuple[str, Player, Player, Table]:
    """marie (fr) and bob against a bot on a bot with a database file that may neither
    view the audit log nor ban, what it owes storage written, then the bot stopped: for
    the restart that asks Discord who is still a member. Returned with the database's
    url and their table."""
    fake.set_bot_guild_permissions(fake.guild, view_audit_log=False, ban_members=False)
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = Player(fake.add_user("marie", locale="fr"))
    bob = Player(fake.add_user("bob"))
    table, _ = await two_humans_against_a_bot(fake, clock, bot, marie, bob)
    await asyncio.gather(*bot.service.outbox.pending(), return_exceptions=True)
    await fake.disconnect(bot)
    return url, marie, bob, table


async def humans_only(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                      users: Sequence[TestUser], preset: str,
                      **rules: Any) -> tuple[Table, list[Player]]:
    """The first of ``users`` opens a ``preset`` table (with ``rules`` changed), the others
    join from the lobby, the game starts with no bot and every hand is open."""
    table = await create_table(bot, users[0], preset)
    if rules:
        await bot.service.set_rules(table, users[0].id, table.rules.replace(**rules))
    for user in users[1:]:
        await user.click(message(user, table.lobby_message_id), cid(table, "join"))
    await users[0].click(message(users[0], table.lobby_message_id), cid(table, "start"))
    await tick(fake, clock, 1)
    players = [Player(u) for u in users]
    for player in players:
        await player.open_hand(bot)
    return table, players


async def next_move(fake: FakeDiscord, clock: LinkedClock, game: Game) -> None:
    """Let the table's clock run, a second at a time, until ``game`` moves, or for 30 s (a
    human's turn timer): a human left to the timer costs those 30 s, a bot's move only its
    pause. A step of 30 s whatever came due made every bot's move cost 30 s of the table's
    clock, so a round where bots pass much outlasted the idle close (`IDLE_CLOSE_SECONDS`,
    30 minutes without a person's click) and never ended (docs/bots.md, stops 53 and 54)."""
    version = game.version
    for _ in range(30):
        await tick(fake, clock, 1)
        if game.version != version:
            return


async def let_timers_play(fake: FakeDiscord, clock: LinkedClock, game: Game,
                          phase: Phase) -> None:
    """Let the human's turn timer run out until ``phase``: the server plays for them, the
    bots at their own pace (`next_move`)."""
    for _ in range(600):
        if game.phase is phase:
            return
        await next_move(fake, clock, game)
    raise AssertionError(f"the game never reached {phase.value}")


async def marie_timed_out_until(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                                game_end: str, phase: Phase) -> tuple[TestUser, Table, Game]:
    """marie's game against three bots (`marie_against_three_bots`), her turn timer playing
    for her until ``phase``, shown."""
    marie, table, game = await marie_against_three_bots(fake, bot, game_end)
    await let_timers_play(fake, clock, game, phase)
    await tick(fake, clock, 1)
    return marie, table, game


def controls_of(msg: Message) -> tuple[list[Select], list[Button]]:
    return list(msg.selects), list(msg.buttons)


class Player:
    """A test user who keeps one hand message open and plays simply: the first play
    offered, else pass; in the exchange, what the bot pre-checks, else the first cards."""

    def __init__(self, user: TestUser) -> None:
        self.user = user
        self.hand_id: int | None = None

    @property
    def hand(self) -> Message:
        return message(self.user, self.hand_id)

    async def open_hand(self, bot: PresidentBot) -> None:
        table = table_of(bot, self.user)
        board = message(self.user, table.table_message_id)
        await self.user.click(board, cid(table, "hand"))
        self.hand_id = self.user.last_ephemeral().id

    async def act(self) -> bool:
        """One move if the hand offers one; False when there is nothing to do."""
        if self.hand_id is None:
            return False
        shown = self.hand
        selects, buttons = controls_of(shown)
        confirm = next((b.custom_id for b in buttons
                        if b.custom_id and ":give_ok:" in b.custom_id), None)
        gifts = [m for m in selects if ":give:" in m.custom_id]
        if confirm is not None and not confirm.endswith(":"):
            await self.user.click(shown, confirm)  # the pre-checked cards
            return True
        if gifts and confirm is not None:  # a hand too big for one select: pick, then confirm
            first = gifts[0]
            await self.user.select(shown, [o.value for o in first.options[:first.max_values]],
                                   select=first.custom_id)
            await self.user.click(self.hand, confirm)
            return True
        if gifts:  # the cards checked (a low role's gift the rules chose), else the first
            first = gifts[0]
            checked = [o.value for o in first.options if o.default]
            await self.user.select(shown, checked or [o.value for o in
                                                      first.options[:first.min_values]],
                                   select=first.custom_id)
            return True
        for menu in selects:
            if ":play:" in menu.custom_id:
                await self.user.select(shown, [menu.options[0].value], select=menu.custom_id)
                return True
        for button in buttons:
            if button.custom_id and ":pass:" in button.custom_id:
                await self.user.click(shown, button.custom_id)
                return True
        return False


async def play_until(fake: FakeDiscord, clock: LinkedClock, players: list[Player],
                     done: Callable[[], bool], steps: int = 3000,
                     reader: Reader | None = None) -> None:
    """Humans act through their hands; when none can, time passes for bots and timers;
    ``reader``, if given, reads what changed after each step (play-tests 44 and 45)."""
    for _ in range(steps):
        if done():
            return
        await act_or_wait(fake, clock, players)
        if reader is not None:
            reader()
    raise AssertionError("the game did not reach the expected point")


async def act_or_wait(fake: FakeDiscord, clock: LinkedClock, players: list[Player]) -> None:
    """One step of `play_until`: the first of ``players`` who can acts through their hand;
    when none can, a second passes for the bots and the timers."""
    for player in players:
        if await player.act():
            return
    await tick(fake, clock, 1.0)


LOCALES = ["fr", "en-US"]  # a French player's and an American's (play-tests 44 and 45)


async def three_at_classic(fake: FakeDiscord, bot: PresidentBot, clock: LinkedClock,
                           locale: str, bots: int = 0) -> tuple[list[Player], Table]:
    """marie hosts classic with bob and claire (all in ``locale``, ``bots`` bots beside
    them), dealt, each hand open: the players and the table (play-tests 44 and 45)."""
    users = [fake.add_user(name, locale=locale) for name in ("marie", "bob", "claire")]
    table = await create_table(bot, users[0])
    lobby = message(users[0], table.lobby_message_id)
    for user in users[1:]:
        await user.click(lobby, cid(table, "join"))
    for _ in range(bots):
        await users[0].click(lobby, cid(table, "addbot"))
    await users[0].click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    players = [Player(user) for user in users]
    for player in players:
        await player.open_hand(bot)
    return players, table


async def round_one_played(fake: FakeDiscord, clock: LinkedClock, players: list[Player],
                           table: Table) -> Game:
    """``table``'s game, its first round played out by ``players`` (and its bots)."""
    game = table.game
    assert game is not None
    await play_until(fake, clock, players, lambda: game.phase is Phase.ROUND_OVER)
    return game


async def french_john_at_alice_s_table(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                                      alice: TestUser, john: TestUser) -> tuple[Message, str]:
    """john (en-US), who chose French, at alice's (en-US) classic table, her lobby in her
    English: he joins and presses « Start » (the host's), answered and refused in French;
    a bot fills a seat, the round is dealt and he opens his hand, French too (stops 58 and
    59): his hand and « my hand » as the table message names it."""
    await alice.slash("president create", preset="classic")
    table = table_of(bot, alice)
    lobby = message(alice, table.lobby_message_id)
    assert "Président table" in lobby.content  # public: alice's table, her language
    await john.slash("president join")
    assert john.last_ephemeral().content == t("fr", "lobby.joined")
    await john.click(lobby, cid(table, "start"))  # the host's: a French refusal
    assert john.last_ephemeral().content.startswith("⚠️ " + t("fr", "err.not_host", host=alice.id))
    await alice.click(lobby, cid(table, "addbot"))
    await alice.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    board = message(alice, table.table_message_id)
    hand_button = t(table.locale, "btn.my_hand")  # as the table message names it
    assert "Round 1" in board.content
    await john.click(board, cid(table, "hand"))
    hand = john.last_ephemeral()
    assert "**Ta main**" in hand.content and "Your hand" not in hand.content
    return hand, hand_button


def uncut_screens(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """For an autouse fixture: yields every text the bot asks to show, recorded before
    `Screen.kwargs` would cut it at Discord's 2,000 characters (Create Message, « content: up
    to 2000 characters », https://discord.com/developers/docs/resources/message#create-message),
    then fails the test if any would have needed cutting: a cut drops the message's end
    mid-word."""
    texts: list[str] = []
    kwargs = Screen.kwargs

    def recorded(screen: Screen) -> dict[str, Any]:
        texts.append(screen.content)
        return kwargs(screen)

    monkeypatch.setattr(Screen, "kwargs", recorded)
    yield texts
    assert max(map(len, texts), default=0) <= 2000
