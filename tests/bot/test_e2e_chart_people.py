"""Play-test 14: the points charts draw one line per person, not per seat.

A league organiser saw carol, who took Bot 1's seat from proletario's queue after round 1,
drawn at « 2, 2 » on the end-of-game chart (Bot 1's round under her name) and « 2, 4 » on
`/president history`'s, where the standings said « carol · 2 pts ». Both charts now follow
who played each round (`bot.people`): a line may start late, break, or be a bot's one
round finishing a leaver's. Each test checks both charts against what the table showed
after every round (who held each seat, the game's totals) and against the standings.
"""

import re
from functools import partial
from pathlib import Path

import pytest

from bot.packages.game import chart
from bot.tables.players import Player as Seat
from bot.tables.table import Table
from engine import Game, Phase, Rules
from engine.events import RoundOver
from fakediscord import FakeDiscord, TestUser
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    connect_bot,
    database_url,
    humans_only,
    leave_game,
    message,
    play_until,
    record_charts,
    tick,
    two_humans_against_a_bot,
)

Lines = dict[str, dict[int, int]]


def noted(table: Table, lines: Lines) -> None:
    """What the round's results showed: each seat's holder then and the game's total
    there, as the organiser writes it down (a bot finishing a leaver's round is theirs:
    « alice (bot) »)."""
    event = table.results[0]
    assert isinstance(event, RoundOver)
    for seat, held in enumerate(table.result_seats):
        if not event.roles[seat]:
            continue  # a seat freed for good: nobody played it
        name = f"{held.name} (bot)" if held.left_by is not None else held.name
        lines.setdefault(name, {})[event.round_no] = event.totals[seat]


def playing(table: Table) -> Game:
    assert table.game is not None
    return table.game


def round_over(table: Table, round_no: int) -> bool:
    game = table.game
    return game is not None and game.phase is Phase.ROUND_OVER and game.round_no == round_no


# How the chart marks a bot's line (« Bot 2 (normal) », « Bot 1 (bot) » once gone or in
# the history, which keeps no level): these tests' bots are the only names « Bot n ».
BOT_MARK = re.compile(r"^(Bot \d+) \((?:facile|normal|difficile|easy|hard|bot)\)$")


def drawn_lines(shown: chart.PointsChart) -> Lines:
    """The chart's lines by the names the table gave them, a bot's without its mark."""
    return {BOT_MARK.sub(r"\1", name): {r + 1: v for r, v in enumerate(values) if v is not None}
            for name, values in zip(shown.names, shown.series, strict=True)}


async def next_round(fake: FakeDiscord, clock: LinkedClock, table: Table, host: Player) -> None:
    game = table.game
    assert game is not None
    await tick(fake, clock, 1)
    await host.user.click(message(host.user, table.table_message_id),
                          cid(table, "next", game.version))
    await tick(fake, clock, 1)


async def end_game(fake: FakeDiscord, clock: LinkedClock, table: Table, host: Player) -> None:
    """The host stops the (unlimited) proletario between rounds: its standings stand."""
    await host.user.slash("president end")
    await tick(fake, clock, 1)
    assert table.game is not None
    if table.game.phase is not Phase.GAME_OVER:
        await host.user.click(host.user.last_ephemeral(),
                              cid(table, "stop", 0, str(table.game_no)))
    await tick(fake, clock, 2)
    game = fresh(table).game
    assert game is not None and game.phase is Phase.GAME_OVER


async def past_chart(user: TestUser, drawn: list[chart.PointsChart]
                     ) -> tuple[chart.PointsChart, str]:
    """The newest game of the channel as `/president history` charts it for ``user``."""
    await user.slash("president history")
    page = user.last_ephemeral()
    await user.select(page, [page.select().options[0].value])
    return drawn[-1], user.last_ephemeral().text


def standings(table: Table) -> dict[str, int]:
    """The final standings as the game counts them (`Game.standings`), by the names the
    table message gives them."""
    game = table.game
    assert game is not None
    return {table.result_seats[seat].name: game.points[seat] for seat, _ in game.standings()
            if isinstance(seat, int)}


async def test_a_newcomer_from_the_queue_is_drawn_from_the_round_they_played(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = record_charts(monkeypatch)
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    alice = Player(fake.add_user("alice", locale="fr"))
    bob = Player(fake.add_user("bob"))
    carol = Player(fake.add_user("carol", locale="fr"))
    table, game = await two_humans_against_a_bot(fake, clock, bot, alice, bob, "proletario",
                                                 bots=0)
    await carol.user.slash("president join")  # a full table: carol waits in the queue
    lines: Lines = {}
    await play_until(fake, clock, [alice, bob], lambda: game.phase is Phase.ROUND_OVER)
    noted(table, lines)
    bots = [p.name for p in table.seats if p.is_bot]
    await next_round(fake, clock, table, alice)
    game = playing(table)
    taken = next(name for name in bots if name not in [p.name for p in table.seats])
    await carol.open_hand(bot)
    await play_until(fake, clock, [alice, bob, carol], lambda: game.phase is Phase.ROUND_OVER)
    noted(table, lines)
    await end_game(fake, clock, table, alice)
    await bot.service.drain()

    live = drawn[-1]
    assert drawn_lines(live) == lines
    # carol's line starts at round 2, the bot whose seat she took stops at round 1, and
    # both end where the table's standings put them.
    assert set(lines[taken]) == {1} and set(lines["carol"]) == {2}
    final = standings(table)
    assert final["carol"] == lines["carol"][2]
    board = message(alice.user, table.table_message_id).content
    assert f"**carol** · {final['carol']}\u00a0pt" in board
    # In the order they first played; the bot that gave carol its seat is gone, with its
    # level: it reads « (bot) ».
    assert live.names == ("alice", "bob", *(f"{name} (bot)" if name == taken
                                            else f"{name} (normal)" for name in bots), "carol")
    assert f"carol (manche 2)\u00a0: {lines['carol'][2]}" in live.alt
    assert f"{taken} (manche 1)\u00a0: {lines[taken][1]}." in live.alt
    assert "alice\u00a0: " in live.alt  # a line through every round reads as before

    past, text = await past_chart(bob.user, drawn)  # bob reads it in English
    assert drawn_lines(past) == lines
    assert f"carol (round 2): {lines['carol'][2]}" in past.alt and past.alt in text
    assert bot.storage is not None
    stats = await bot.storage.player_stats(fake.guild.id, carol.user.id)
    assert stats.points == final["carol"]
    await fake.disconnect(bot)


async def test_a_leavers_stand_in_and_the_bot_after_them_are_lines_of_their_own(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = record_charts(monkeypatch)
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    alice = Player(fake.add_user("alice", locale="fr"))
    bob = Player(fake.add_user("bob", locale="fr"))
    table, game = await two_humans_against_a_bot(fake, clock, bot, alice, bob, "proletario",
                                                 bots=0)
    lines: Lines = {}
    await play_until(fake, clock, [alice, bob], lambda: game.phase is Phase.ROUND_OVER)
    noted(table, lines)
    await next_round(fake, clock, table, alice)
    game = playing(table)
    await leave_game(alice.user)  # mid-round: a bot finishes it for her, then keeps the seat
    await play_until(fake, clock, [bob], lambda: game.phase is Phase.ROUND_OVER)
    noted(table, lines)
    seat = table.seat_of(bob.user.id)
    assert seat is not None and table.host_id == bob.user.id
    await next_round(fake, clock, table, bob)
    game = playing(table)
    await play_until(fake, clock, [bob], lambda: game.phase is Phase.ROUND_OVER)
    noted(table, lines)
    fresh = table.result_seats[0].name
    await end_game(fake, clock, table, bob)
    await bot.service.drain()

    live = drawn[-1]
    assert drawn_lines(live) == lines
    assert set(lines["alice"]) == {1} and set(lines["alice (bot)"]) == {2}
    assert set(lines[fresh]) == {3} and fresh != "alice"
    # The stand-in plays on from alice's points, as the round's results showed; the bot
    # after it starts afresh (`seats.free_seat`).
    assert live.alt.count("alice") == 2
    assert f"alice (bot) (manche 2)\u00a0: {lines['alice (bot)'][2]}" in live.alt
    assert standings(table)[fresh] == lines[fresh][3]
    past, text = await past_chart(bob.user, drawn)
    # The history keeps no bot's level: its alt text is the live one's without them.
    assert drawn_lines(past) == lines
    assert past.alt == live.alt.replace(" (niveau normal)", "")
    assert bot.storage is not None
    stats = await bot.storage.player_stats(fake.guild.id, alice.user.id)
    assert stats.points == lines["alice"][1]  # her own round only, as her line
    await fake.disconnect(bot)


async def test_the_last_place_giving_up_their_seat_brings_their_points_back(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Proletario without a bot: the last place waits a round for the one queued, then
    sits again with their points (`Player.points`): one line, broken for that round."""
    drawn = record_charts(monkeypatch)
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    users = [fake.add_user(name, locale="en") for name in ("ann", "ben", "cid", "dan")]
    table, players = await humans_only(fake, clock, bot, users, "proletario")
    eve = Player(fake.add_user("eve"))
    await eve.user.slash("president join")
    everyone = [*players, eve]
    lines: Lines = {}
    for round_no in range(1, 4):
        if round_no > 1:
            await next_round(fake, clock, table, players[0])
            for player in everyone:
                if table.seat_of(player.user.id) is not None:
                    await player.open_hand(bot)
        await play_until(fake, clock, everyone, partial(round_over, table, round_no))
        noted(table, lines)
    await end_game(fake, clock, table, players[0])
    await bot.service.drain()

    live = drawn[-1]
    assert drawn_lines(live) == lines
    broken = [name for name, values in lines.items() if set(values) == {1, 3}]
    assert broken, lines  # round 1's last place sat out round 2 and came back
    assert set(lines["eve"]) >= {2}
    assert " (rounds 1 and 3): " in live.alt
    past, _ = await past_chart(users[1], drawn)
    assert drawn_lines(past) == lines
    await fake.disconnect(bot)


def test_a_snapshot_from_before_draws_its_game_per_seat_as_it_did() -> None:
    """A table restored from a snapshot that has no `round_holders` knows no more than
    who sits now: its chart is drawn per seat under today's names, as before; a snapshot
    taken now keeps who held each seat in each round."""
    table = Table(1, 2, 3, 4, "fr", Rules.preset("proletario"),
                  seats=[Seat(4, "alice"), Seat(5, "bob"), Seat(6, "carol")])
    table.note_totals(RoundOver(1, (0, 1, 2), ("P", "N", "L"), (2, 1, 0), (2, 1, 0)))
    table.seats[2] = Seat(7, "dan")
    table.note_totals(RoundOver(2, (2, 0, 1), ("N", "L", "P"), (1, 0, 2), (3, 1, 2)))
    restored = Table.from_dict(table.to_dict())
    assert restored.round_holders == table.round_holders
    shown = chart.points_chart(restored, "fr")
    assert shown is not None and shown.names == ("alice", "bob", "carol", "dan")
    assert shown.series == ((2, 3), (1, 1), (0, None), (None, 2))

    before = table.to_dict()
    del before["holders"]
    old = chart.points_chart(Table.from_dict(before), "fr")
    assert old == chart.chart_of("fr", ("alice", "bob", "dan"), ((2, 3), (1, 1), (0, 2)))
    # The next round of that game keeps it so: its holders cover only the rounds since.
    restored = Table.from_dict(before)
    restored.note_totals(RoundOver(3, (0, 1, 2), ("P", "N", "L"), (2, 1, 0), (5, 2, 2)))
    again = chart.points_chart(restored, "fr")
    assert again is not None and again.names == ("alice", "bob", "dan")


async def test_a_leaver_back_after_someone_took_their_seat_starts_again_from_nothing(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Stop 42. A player who leaves between rounds gives their seat to a bot, which the one
    waiting takes; coming back, they wait, then sit again at 0 (they left: their points
    went with them). `/president history` summed the stored rounds as if they had given up
    their seat to the queue (the seat's next holder was a human then too) and drew them
    from their old points, where the table had shown a fresh start."""
    drawn = record_charts(monkeypatch)
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    users = [fake.add_user(name, locale="en") for name in ("ann", "ben", "cid", "dan")]
    table, players = await humans_only(fake, clock, bot, users, "proletario")
    eve = Player(fake.add_user("eve"))
    await eve.user.slash("president join")  # a full table: eve waits in the queue
    everyone = [*players, eve]
    lines: Lines = {}
    await play_until(fake, clock, everyone, partial(round_over, table, 1))
    noted(table, lines)
    # One who scored leaves as the round's results show: the host stays to deal.
    leaver = next(p for p in players[1:] if lines[p.user.user.name][1] > 0)
    await leave_game(leaver.user)
    await tick(fake, clock, 1)
    for round_no in (2, 3):
        await next_round(fake, clock, table, players[0])
        if round_no == 2:  # eve took the bot's seat: the leaver comes back to the queue
            assert table.seat_of(eve.user.id) is not None
            await leaver.user.slash("president join")
            assert table.seat_of(leaver.user.id) is None
        for player in everyone:
            if table.seat_of(player.user.id) is not None:
                await player.open_hand(bot)
        await play_until(fake, clock, everyone, partial(round_over, table, round_no))
        noted(table, lines)
    name = leaver.user.user.name
    assert set(lines[name]) == {1, 3}, lines  # round 2's last place gave them a seat
    await end_game(fake, clock, table, players[0])
    await bot.service.drain()

    live = drawn[-1]
    assert drawn_lines(live) == lines
    past, _ = await past_chart(users[1], drawn)
    assert drawn_lines(past) == lines
    assert past.series == live.series
    await fake.disconnect(bot)
