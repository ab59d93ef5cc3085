"""What an older version of the bot leaves for the next one (tests/bot/older/<commit>.json,
read by tests/bot/test_e2e_playtest15_upgrades.py): run in a worktree of that commit, with
that commit's own code and test helpers, it opens eleven tables in the states a redeploy
may catch on a SQLite file, stops the bot as a redeploy stops it, and writes each table's
snapshot with the Discord messages and hand interactions it names, and every row of the
database. Not a test of this tree (pytest does not collect it here); to capture a commit:

    git worktree add /tmp/old <commit>
    cp tests/bot/older_capture.py /tmp/old/tests/bot/test_zz_capture.py
    cd /tmp/old && CAPTURE_OUT=$OLDPWD/tests/bot/older \\
        $OLDPWD/.venv/bin/python -m pytest -p no:cacheprovider tests/bot/test_zz_capture.py

The scenarios use only helpers every commit since play-test 10 has; those that need what a
later commit brought (a player's own break, house rules) are left out of a commit without
it (`playable`). The fake clock makes two captures of a commit the same but for their
interaction tokens. Run in this tree itself, the same steps give what this version leaves
for a version rolled back to (docs/bot.md, « Play-test 35: the upgrade night »).
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import os
import sqlite3
import subprocess
import traceback
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.client import PresidentBot
from bot.i18n import t
from bot.tables import table as tables
from bot.tables.table import Table
from engine import Game, Phase
from fakediscord import FakeDiscord, TestUser
from fakediscord.state import Channel
from tests.bot.conftest import LinkedClock
from tests.bot.e2e import (
    Player,
    cid,
    connect_bot,
    create_table,
    host_against_bots,
    leave_game,
    message,
    play_until,
    tick,
)


def user_in(fake: FakeDiscord, name: str, locale: str, channel: Channel) -> TestUser:
    """A member of the fake's server who acts in `channel` (one table per channel)."""
    user = fake.add_user(name, locale=locale)
    user.channel = channel
    return user


async def against_three_bots(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                             host: TestUser, **rules: Any) -> tuple[Table, Player, Game]:
    """`host` against three bots at classic (with `rules` changed), dealt, their hand open."""
    table = await host_against_bots(bot, host, "classic", 3, **rules)
    await tick(fake, clock, 1)
    p = Player(host)
    await p.open_hand(bot)
    game = table.game
    assert game is not None
    return table, p, game


async def dealt(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot, channel: Channel,
                names: tuple[str, ...], locale: str, preset: str, bots: int = 0,
                game_end: str | None = None) -> tuple[Table, list[TestUser]]:
    """`names` (the first hosts, the others join) and `bots` bots at a `preset` table in
    `channel`, its game (of `game_end`, where given) started from the lobby."""
    users = [user_in(fake, n, locale, channel) for n in names]
    host = users[0]
    table = await create_table(bot, host, preset)
    if game_end is not None:
        await bot.service.set_rules(table, host.id, table.rules.replace(game_end=game_end))
    for u in users[1:]:
        await u.click(message(u, table.lobby_message_id), cid(table, "join"))
    for _ in range(bots):
        await host.click(message(host, table.lobby_message_id), cid(table, "addbot"))
    await host.click(message(host, table.lobby_message_id), cid(table, "start"))
    await tick(fake, clock, 1)
    return table, users


async def hands_open(bot: PresidentBot, users: list[TestUser]) -> list[Player]:
    """Each of `users` opens their hand: the players `play_until` plays for."""
    players = [Player(u) for u in users]
    for p in players:
        await p.open_hand(bot)
    return players


async def next_round(fake: FakeDiscord, clock: LinkedClock, table: Table, host: TestUser) -> None:
    """The host deals the next round from the table message."""
    game = table.game
    assert game is not None
    await host.click(message(host, table.table_message_id), cid(table, "next", game.version))
    await tick(fake, clock, 1)


async def classic_mid_trick(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                            channel: Channel) -> list[TestUser]:
    """marie and léo against two bots, a trick under way on a human's turn, hands open."""
    table, [marie, leo] = await dealt(fake, clock, bot, channel, ("marie", "léo"), "fr",
                                      "classic", bots=2, game_end="rounds:3")
    players = await hands_open(bot, [marie, leo])
    game = table.game
    assert game is not None
    await play_until(fake, clock, players, lambda: len(game.trick) >= 2
                     and game.to_act in (table.seat_of(marie.id), table.seat_of(leo.id)))
    return [marie, leo]


async def presi_exchange(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                         channel: Channel) -> list[TestUser]:
    """Three humans at presi, their first round over and the second's exchange under way."""
    table, users = await dealt(fake, clock, bot, channel, ("inès", "hugo", "jade"), "fr",
                               "presi", game_end="rounds:3")
    players = await hands_open(bot, users)
    game = table.game
    assert game is not None
    await play_until(fake, clock, players, lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    await next_round(fake, clock, table, users[0])
    assert game.phase is Phase.EXCHANGE, game.phase
    return users


async def proletario_queue(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                           channel: Channel) -> list[TestUser]:
    """nina against three bots at proletario, théo waiting in the queue for a seat."""
    nina = user_in(fake, "nina", "fr", channel)
    theo = user_in(fake, "théo", "fr", channel)
    table = await host_against_bots(bot, nina, "proletario", 3, game_end="rounds:3")
    await tick(fake, clock, 1)
    await theo.click(message(theo, table.table_message_id), cid(table, "join"))
    await tick(fake, clock, 1)
    assert table.queue, "théo should wait in the queue"
    p = Player(nina)
    await p.open_hand(bot)
    game = table.game
    assert game is not None
    await play_until(fake, clock, [p], lambda: len(game.trick) >= 1 and game.to_act == 0)
    return [nina, theo]


async def wild7_announce(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                         channel: Channel) -> list[TestUser]:
    """alice and bob against two bots at wild7, a 7 on the trick announced as another value."""
    table, [alice, bob] = await dealt(fake, clock, bot, channel, ("alice", "bob"), "en-US",
                                      "wild7", bots=2)
    game = table.game
    assert game is not None
    humans = {table.seat_of(alice.id): alice, table.seat_of(bob.id): bob}
    for _ in range(400):
        seat = game.to_act
        if seat is not None and seat in humans and game.phase is Phase.PLAY:
            user = humans[seat]
            plays = game.legal_plays(seat)
            wild = [o for o in plays if o.announce is not None
                    and any(c.rank != o.announce for c in o.cards)]
            if wild:
                await bot.service.moves.play(table, user.id, wild[0].cards, wild[0].announce,
                                             game.version)
                break
            elif plays and not game.trick:
                await bot.service.moves.play(table, user.id, plays[0].cards, plays[0].announce,
                                             game.version)
            else:
                await bot.service.moves.pass_turn(table, user.id, game.version)
            await tick(fake, clock, 0.1)
        elif game.phase is Phase.ROUND_OVER:
            await next_round(fake, clock, table, alice)
        else:
            await tick(fake, clock, 1)
    else:
        raise AssertionError("no announcement")
    await Player(alice).open_hand(bot)
    return [alice, bob]


async def classic_fast(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                       channel: Channel) -> list[TestUser]:
    """zoé against three bots in fast mode, a trick under way on the common timer."""
    zoe = user_in(fake, "zoé", "fr", channel)
    _, _, game = await against_three_bots(fake, clock, bot, zoe, fast=True)
    for _ in range(60):
        if len(game.trick) >= 2:
            break
        await tick(fake, clock, 0.5)
    assert game.trick
    return [zoe]


async def left_player(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                      channel: Channel) -> list[TestUser]:
    """Three humans and a bot; paul leaves mid-round: a bot plays his seat to the round's end."""
    table, users = await dealt(fake, clock, bot, channel, ("chloé", "paul", "lina"), "fr",
                               "classic", bots=1)
    players = await hands_open(bot, users)
    game = table.game
    assert game is not None
    await play_until(fake, clock, players, lambda: game.version >= 4)
    await leave_game(users[1])  # paul: a bot finishes his round; his farewell is pending
    return users


async def presi_away(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                     channel: Channel) -> list[TestUser]:
    """Three humans at presi; sam leaves mid-round and his seat waits for him (his grace)."""
    table, users = await dealt(fake, clock, bot, channel, ("max", "eva", "sam"), "fr",
                               "presi")
    players = await hands_open(bot, users)
    game = table.game
    assert game is not None
    await play_until(fake, clock, players, lambda: game.version >= 3)
    await leave_game(users[2])  # sam: presi waits for him
    assert table.away
    return users


async def autopilot(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                    channel: Channel) -> list[TestUser]:
    """kim against three bots, her turns run out until the autopilot plays her seat."""
    kim = user_in(fake, "kim", "en-US", channel)
    _, _, game = await against_three_bots(fake, clock, bot, kim, game_end="rounds:3",
                                          autopilot_after_timeouts=2)
    for _ in range(200):
        if 0 in game.autopilot and game.phase is Phase.PLAY:
            break
        await tick(fake, clock, 5)
    assert 0 in game.autopilot
    return [kim]


async def round_over(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                     channel: Channel) -> list[TestUser]:
    """ana against three bots, the first round's results shown: the host deals the next."""
    ana = user_in(fake, "ana", "en-US", channel)
    _, p, game = await against_three_bots(fake, clock, bot, ana, game_end="rounds:3")
    await play_until(fake, clock, [p], lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    return [ana]


async def game_over(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                    channel: Channel) -> list[TestUser]:
    """tom against three bots, a game of two rounds over: the host may replay."""
    tom = user_in(fake, "tom", "en-US", channel)
    table, p, game = await against_three_bots(fake, clock, bot, tom, game_end="rounds:2")
    await play_until(fake, clock, [p], lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    await next_round(fake, clock, table, tom)
    await play_until(fake, clock, [p], lambda: game.phase is Phase.GAME_OVER)
    await tick(fake, clock, 1)
    return [tom]


async def lobby(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                channel: Channel) -> list[TestUser]:
    """A lobby: lou hosts, noé and a bot seated, not started."""
    lou = user_in(fake, "lou", "fr", channel)
    noe = user_in(fake, "noé", "fr", channel)
    table = await create_table(bot, lou, "classic")
    await noe.click(message(noe, table.lobby_message_id), cid(table, "join"))
    await lou.click(message(lou, table.lobby_message_id), cid(table, "addbot"))
    return [lou, noe]


async def player_break(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                       channel: Channel) -> list[TestUser]:
    """rose hosts rémi and two bots at classic; mid-trick, rémi takes his own short break
    (« Pause » from the table message: a player's break, since play-test 29)."""
    table, [rose, remi] = await dealt(fake, clock, bot, channel, ("rose", "rémi"), "fr",
                                      "classic", bots=2, game_end="rounds:3")
    players = await hands_open(bot, [rose, remi])
    game = table.game
    assert game is not None
    await play_until(fake, clock, players, lambda: len(game.trick) >= 1)
    await remi.click(message(remi, table.table_message_id), cid(table, "pause"))
    await tick(fake, clock, 1)
    assert table.pause is not None and table.pause.by == remi.id
    return [rose, remi]


async def house_lobby(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                      channel: Channel) -> list[TestUser]:
    """gaby played a presi game to three rounds against two bots in the channel, and
    closed the table; the next table's lobby opened on those house rules (its `house`,
    kept until the host changes the rules or starts: stop 51), two bots seated."""
    gaby = user_in(fake, "gaby", "en-US", channel)
    await gaby.slash("president create", preset="presi")
    first = bot.service.registry.in_channel(channel.id)
    assert first is not None
    await bot.service.set_rules(first, gaby.id, first.rules.replace(game_end="rounds:3"))
    for _ in range(2):
        await gaby.click(message(gaby, first.lobby_message_id), cid(first, "addbot"))
    await gaby.click(message(gaby, first.lobby_message_id), cid(first, "start"))
    await tick(fake, clock, 1)
    await gaby.slash("president end")
    await gaby.click(gaby.last_ephemeral(), t(gaby.user.locale, "btn.stop_game"))
    await gaby.slash("president end")  # the stopped game: to the lobby
    await gaby.slash("president end")  # the lobby: the table closes
    await tick(fake, clock, 1)
    await gaby.slash("president create")  # no preset: the channel's last game's
    table = bot.service.registry.in_channel(channel.id)
    assert table is not None and getattr(table, "house", None) is not None
    for _ in range(2):
        await gaby.click(message(gaby, table.lobby_message_id), cid(table, "addbot"))
    return [gaby]


def playable(name: str) -> bool:
    """Whether the commit's code has what the scenario plays: a player's own break
    (`Pause.own`, stop 50), house rules (`bot.tables.house`, stop 51). The others play on
    every commit since play-test 10."""
    if name == "player_break":
        pause = getattr(tables, "Pause", None)  # (breaks: play-test 29, stop 49)
        return pause is not None and "own" in {f.name for f in dataclasses.fields(pause)}
    if name == "house_lobby":
        return importlib.util.find_spec("bot.tables.house") is not None
    return True


SCENARIOS: dict[str, Callable[..., Awaitable[list[TestUser]]]] = {
    # Those that let the clock run long first: every table's timers run meanwhile.
    f.__name__: f for f in (game_over, round_over, autopilot, lobby, proletario_queue,
                            classic_mid_trick, left_player, presi_exchange, classic_fast,
                            presi_away, wild7_announce, player_break, house_lobby)
    if playable(f.__name__)
}


def jsonable(obj: Any, drop: tuple[str, ...]) -> Any:
    """The record as JSON, without what the next version redraws anyway (its text)."""
    data = {k: v for k, v in dataclasses.asdict(obj).items() if k not in drop}
    return json.loads(json.dumps(data, default=str))


async def test_capture(fake: FakeDiscord, clock: LinkedClock, tmp_path: Path) -> None:
    """Every scenario in a channel of its own, the bot stopped, what it stored dumped."""
    out = Path(os.environ["CAPTURE_OUT"])
    db = tmp_path / "president.db"
    url = f"sqlite+aiosqlite:///{db}"
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    made: dict[str, tuple[Channel, list[TestUser]]] = {}
    failures: dict[str, str] = {}
    for name, scenario in SCENARIOS.items():
        channel = fake.add_channel(fake.guild, name.replace("_", "-"))
        try:
            users = await scenario(fake, clock, bot, channel)
        except Exception:
            failures[name] = traceback.format_exc()
            continue
        made[name] = (channel, users)
    await tick(fake, clock, 1)
    tables = {name: bot.service.registry.in_channel(ch.id) for name, (ch, _) in made.items()}
    await fake.disconnect(bot)
    commit, date = subprocess.run(["git", "show", "-s", "--format=%h %cI", "HEAD"],
                                  capture_output=True, text=True, check=True).stdout.split()
    connection = sqlite3.connect(db)
    revision = connection.execute("SELECT version_num FROM alembic_version").fetchone()[0]
    result: dict[str, Any] = {
        "commit": commit, "date": date, "revision": revision,
        "now": clock.now(), "elapsed": fake.clock.monotonic(),
        "application_id": fake.world.application_id,
        "guild": {"id": fake.guild.id, "locale": fake.guild.locale,
                  "channel_id": fake.channel.id},
        "failures": failures, "tables": {},
    }
    names = [r[0] for r in connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN "
        "('alembic_version', 'table_snapshots', 'sqlite_sequence')")]
    result["rows"] = {}
    for name in names:
        cursor = connection.execute(f"SELECT * FROM {name}")
        columns = [c[0] for c in cursor.description]
        result["rows"][name] = [dict(zip(columns, r, strict=True)) for r in cursor]
    for name, table in tables.items():
        if table is None:
            failures[name] = "no table"
            continue
        channel, users = made[name]
        row = connection.execute("SELECT seq, state, saved_at FROM table_snapshots "
                                 "WHERE table_id = ?",
                                 (table.id,)).fetchone()
        status = connection.execute("SELECT status FROM tables WHERE id = ?",
                                    (table.id,)).fetchone()[0]
        state = json.loads(row[1])
        wanted = {state.get("lobby_message_id"), state.get("table_message_id"),
                  (state.get("reminder") or {}).get("message_id")}  # a ping posted
        tokens = {h["token"] for h in state.get("hands", {}).values()}
        interactions = [i for i in fake.world.interactions.values() if i.token in tokens]
        wanted |= {i.original_message_id for i in interactions}
        result["tables"][name] = {
            "status": status, "seq": row[0], "saved_at": row[2], "state": state,
            "channel": {"id": channel.id, "name": channel.name},
            "users": [{"id": u.id, "name": u.name, "locale": u.user.locale} for u in users],
            "messages": [jsonable(m, ("content", "embeds", "attachments"))
                         for m in fake.world.messages.values() if m.id in wanted],
            "interactions": [jsonable(i, ("response", "modal")) for i in interactions],
        }
    connection.close()
    assert not failures, json.dumps(failures, indent=1)
    (out / f"{commit}.json").write_text(json.dumps(result, ensure_ascii=False, default=str))
