"""The host's break at the service (`bot.tables.breaks`), where the e2e play-test
(`test_e2e_playtest29.py`) cannot time a race: a bot's move already due as the break comes,
a host's click racing an outage (no click reaches the fake's bot during one)."""

import asyncio

import pytest

from bot.tables.clock import ManualClock
from bot.tables.deadlines import IDLE_CLOSE_SECONDS, OWN_PAUSE_SECONDS, PAUSE_LIMIT_SECONDS
from bot.tables.pause import Pause
from bot.tables.refusals import TableError
from bot.tables.service import TableService
from bot.tables.table import Table
from tests.fresh import fresh

ALICE = 1
BOB = 2


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


async def next_move(table: Table, clock: ManualClock) -> None:
    """Let the clock run, a second at a time, until the table's game moves, or for 30 s
    (alice's turn timer): a bot's move costs its pause, not 30 s, so rounds where the bots
    pass much do not outlast the idle close (`IDLE_CLOSE_SECONDS`) before they end."""
    game = table.game
    version = -1 if game is None else game.version
    for _ in range(30):
        clock.advance(1)
        await settle()
        game = table.game
        if game is not None and game.version != version:
            return


async def alice_against_two_bots() -> tuple[TableService, ManualClock, Table]:
    """On a service of its own (bots pausing 2 s, seed 1) and its manual clock, alice
    hosts two bots at a classic table, started; time passes until a bot's move is the
    next thing due (its pause of 2 s running)."""
    clock = ManualClock()
    svc = TableService(clock, bot_pause=2.0, seed=1)
    table = await svc.create(100, 1, ALICE, "alice", "en")
    await svc.add_bot(table, ALICE)
    await svc.add_bot(table, ALICE)
    await svc.games.start(table, ALICE)
    game = table.game
    assert game is not None
    await settle()
    for _ in range(60):
        if game.to_act not in (None, 0):
            return svc, clock, table
        clock.advance(30)  # alice's turn runs out
        await settle()
    raise AssertionError("no bot's turn came")


async def test_a_bot_move_due_as_the_break_comes_waits_for_its_end() -> None:
    """The bot's move fires while the host's pause waits for the table's lock, just ahead
    of it: the move, running already, is not cancelled with the table's deadlines, and
    played once the pause was in. It now sees the break and leaves the move to the
    break's end, which schedules it again."""
    svc, clock, table = await alice_against_two_bots()
    game = table.game
    assert game is not None
    version = game.version
    async with table.lock:
        pausing = asyncio.ensure_future(svc.breaks.pause(table, ALICE))
        await settle()  # the pause waits for the lock, first in line
        clock.advance(2.0)  # the bot's move is due: it waits for the lock, second
        await settle()
    await pausing
    await settle()

    assert table.pause is not None and game.version == version
    clock.advance(10 * 60)
    await settle()
    assert game.version == version
    await svc.breaks.play_on(table, ALICE)
    clock.advance(2.0)
    await settle()
    assert game.version > version
    await svc.drain()


async def test_a_break_begun_during_an_outage_waits_for_its_end() -> None:
    """A host's pause that reaches the bot while Discord has lost the server (a click
    racing the outage): the break's hour does not run until the server is back, then
    counts on from there (« Play-test 29, afterwards »)."""
    svc, clock, table = await alice_against_two_bots()
    await svc.outages.server_lost(1)
    clock.advance(60)
    await svc.breaks.pause(table, ALICE)
    assert table.pause is not None
    since = table.pause.since
    assert svc.scheduler.deadline((table.id, "pause over")) is None
    clock.advance(PAUSE_LIMIT_SECONDS + 60)
    await settle()
    assert not table.closed

    await svc.outages.server_back(1)

    assert fresh(table).pause is not None and table.paused_since is not None
    ends = since + PAUSE_LIMIT_SECONDS * 2 + 60
    assert svc.scheduler.deadline((table.id, "pause over")) == pytest.approx(ends)
    await svc.drain()


async def test_a_break_continued_during_an_outage_leaves_the_clocks_to_its_end() -> None:
    """The host's « Continuer » reaches the bot while Discord has lost the server: the
    break ends, but nobody can act there yet, so the clocks wait on, bots included, until
    the server is back, and run on from there."""
    svc, clock, table = await alice_against_two_bots()
    game = table.game
    assert game is not None
    version = game.version
    await svc.breaks.pause(table, ALICE)
    await svc.outages.server_lost(1)
    await svc.breaks.play_on(table, ALICE)

    assert table.pause is None and table.paused_since is not None
    clock.advance(10 * 60)
    await settle()
    assert game.version == version and not table.closed
    await svc.outages.server_back(1)
    assert fresh(table).paused_since is None
    clock.advance(2.0)
    await settle()
    assert game.version > version
    await svc.drain()


def test_a_break_s_held_time_and_outage_outlive_a_restart_and_older_snapshots() -> None:
    """`Pause.held` and `outage_since` are stored, and read back; a break without them
    stores what stop 49 did, and stop 49's snapshot reads as none held."""
    held = Pause(ALICE, "alice", 1000.0, "pizza", held=300.0, outage_since=2000.0)
    assert Pause.from_dict(held.to_dict()) == held
    plain = Pause(ALICE, "alice", 1000.0)
    assert plain.to_dict() == {"by": ALICE, "name": "alice", "since": 1000.0, "reason": ""}
    assert Pause.from_dict(plain.to_dict()) == plain
    assert held.outage_ended(2600.0) == Pause(ALICE, "alice", 1000.0, "pizza", held=900.0)


async def test_a_game_sent_back_to_the_lobby_during_an_outage_leaves_its_clocks_waiting() -> None:
    """Under a break, Discord loses the server; a click racing the outage (no click
    reaches the fake's bot during one) sends the game back to the lobby: presi's host
    removes bob, whose seat the rules would wait for, so the game is cancelled. Nobody can
    act in the lobby either until the server is back: its idle close waits, as every other
    clock does (it ran at once, and closed the table mid-outage), then counts its 30
    minutes on from there."""
    clock = ManualClock()
    svc = TableService(clock, bot_pause=2.0, seed=1)
    table = await svc.create(100, 1, ALICE, "alice", "en", "presi")
    await svc.join(table, BOB, "bob", "en")
    await svc.add_bot(table, ALICE)
    await svc.games.start(table, ALICE)
    await settle()
    await svc.breaks.pause(table, ALICE)
    await svc.outages.server_lost(1)
    clock.advance(5 * 60)

    await svc.kick(table, ALICE, BOB, "bob")

    assert table.game is None and table.pause is None and table.paused_since is not None
    assert svc.scheduler.deadline((table.id, "idle")) is None
    clock.advance(IDLE_CLOSE_SECONDS + 60)
    await settle()
    assert not fresh(table).closed
    await svc.outages.server_back(1)
    assert fresh(table).paused_since is None
    assert svc.scheduler.deadline((table.id, "idle")) == pytest.approx(
        clock.now() + IDLE_CLOSE_SECONDS)
    await svc.drain()


async def test_a_player_s_own_break_stops_naming_them_once_they_left_the_table() -> None:
    """bob takes his own break, and later leaves the game. His half-hour's turn of breaks
    (`Table.own_breaks`) was stored for as long as the table stayed open, unless someone
    else's break pruned it: his id in the stored state refused his `/president forget`
    (`Storage.open_tables_holding`) long after the game had any use for it. It is stored
    for the people the table still holds only (`Table.people`)."""
    clock = ManualClock()
    svc = TableService(clock, bot_pause=2.0, seed=1)
    table = await svc.create(100, 1, ALICE, "alice", "en")
    await svc.join(table, BOB, "bob", "en")
    await svc.add_bot(table, ALICE)
    await svc.games.start(table, ALICE)
    await settle()
    assert await svc.breaks.pause(table, BOB)  # his own
    await svc.breaks.play_on(table, BOB)
    assert str(BOB) in table.to_dict()["own_breaks"]  # seated: his turn of breaks is kept

    assert await svc.seating.leave(table, BOB)
    await settle()
    for _ in range(200):  # alice's turns run out, the bots play, rounds go by
        if BOB not in table.people():
            break
        await next_move(table, clock)
    assert table.seat_of(BOB) is None and BOB not in table.people() and not table.closed
    assert str(BOB) not in table.to_dict().get("own_breaks", {})
    await svc.drain()


CAROL = 3


async def three_at_a_table(svc: TableService) -> Table:
    """alice hosts bob and carol at a classic table, started."""
    table = await svc.create(100, 1, ALICE, "alice", "en")
    await svc.join(table, BOB, "bob", "en")
    await svc.join(table, CAROL, "carol", "en")
    await svc.games.start(table, ALICE)
    await settle()
    return table


async def test_a_player_who_left_cannot_end_the_break_they_called() -> None:
    """bob calls his own break, then leaves the game (a bot takes his seat). His « Continuer »
    ended everyone's break all the same: the owner's check asked only who called it. One who
    left is no longer a player at the table; the break runs out by itself, or the host ends
    it, and he is told so (when, and who)."""
    clock = ManualClock()
    svc = TableService(clock, bot_pause=2.0, seed=1)
    table = await three_at_a_table(svc)
    assert await svc.breaks.pause(table, BOB)
    assert await svc.seating.leave(table, BOB)
    assert table.seat_of(BOB) is None
    with pytest.raises(TableError) as refused:
        await svc.breaks.play_on(table, BOB)
    assert refused.value.key == "err.pause_left"
    pause = fresh(table.pause)
    assert pause is not None and pause.by == BOB
    assert refused.value.params == {
        "host": ALICE, "at": f"<t:{int(pause.since + OWN_PAUSE_SECONDS)}:R>"}
    await svc.breaks.play_on(table, ALICE)  # the host still may
    assert fresh(table).pause is None
    await svc.drain()


async def test_a_third_player_s_continue_during_another_s_break_says_whose_it_is() -> None:
    """carol presses « Continuer » during bob's own break, the host (alice) present: she was
    told when she might act as host (`err.not_host_later`), ten minutes off, though the
    break ends by itself in five. She is told whose break it is, who ends it, and when it
    ends by itself; nothing changes."""
    clock = ManualClock()
    svc = TableService(clock, bot_pause=2.0, seed=1)
    table = await three_at_a_table(svc)
    assert await svc.breaks.pause(table, BOB)
    clock.advance(60)
    with pytest.raises(TableError) as refused:
        await svc.breaks.play_on(table, CAROL)
    pause = fresh(table.pause)
    assert pause is not None and pause.by == BOB and table.host_id == ALICE
    assert refused.value.key == "err.pause_not_yours"
    assert refused.value.params == {
        "name": "bob", "host": ALICE,
        "at": f"<t:{int(pause.since + OWN_PAUSE_SECONDS)}:R>"}
    await svc.breaks.play_on(table, BOB)  # his to end
    assert table.pause is None
    await svc.drain()


async def test_with_a_silent_host_a_seated_player_s_pause_is_their_own_break() -> None:
    """The takeover rule lets a seated player act as host once the host has been silent ten
    minutes; « Pause » is not one of the actions that takes the role (« Review of stop 50,
    afterwards »): bob gets his own five minutes, bounded by his cooldown, not the host's
    hour that closes the table at its end. Then « Continuer » by carol, a host action, may
    take the role over as before and end it."""
    clock = ManualClock()
    svc = TableService(clock, bot_pause=2.0, seed=1)
    table = await three_at_a_table(svc)
    clock.advance(11 * 60)
    await settle()
    assert await svc.breaks.pause(table, BOB)
    pause = fresh(table.pause)
    assert pause is not None and pause.own and table.host_id == ALICE
    with pytest.raises(TableError) as refused:
        await svc.breaks.pause(table, BOB)
    assert refused.value.key == "err.already_paused"
    await svc.breaks.play_on(table, CAROL)  # alice silent: carol acts in her place
    assert table.pause is None and table.host_id == CAROL
    with pytest.raises(TableError) as again:
        await svc.breaks.pause(table, BOB)
    assert again.value.key == "err.pause_cooldown"
    await svc.drain()
