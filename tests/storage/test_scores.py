"""Games, rounds, history, stats and leaderboards."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Sequence

import pytest

from bot.storage import SeatRef, Storage, UnknownGame, UnknownTable
from engine.rules import RulesDict

GUILD = 42 << 22
OTHER_GUILD = 43 << 22
CLASSIC: RulesDict = {"preset": "classic", "set": {}}
GAME_NOS = itertools.count(1)  # a new game at a reused table needs a new number
ALICE, BOB, CAROL, DAVE = 1001, 1002, 1003, 1004
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol", DAVE: "Dave"}


def human(user_id: int) -> SeatRef:
    return SeatRef(user_id, False, NAMES[user_id])


BOT = SeatRef(None, True, "Bot")
ROLES_4 = {0: "P", 1: "VP", 2: "VL", 3: "L"}
POINTS_4 = {0: 3, 1: 2, 2: 0, 3: 0}


async def play_round(
    storage: Storage,
    game_id: int,
    round_no: int,
    seats: Sequence[SeatRef],
    ranking: Sequence[int],
) -> bool:
    """Record a 4-seat round with classic roles and points from the finishing order."""
    place = {seat: index for index, seat in enumerate(ranking)}
    outcome = await storage.record_round(
        game_id,
        round_no,
        ranking=ranking,
        roles=[ROLES_4[place[seat]] for seat in range(len(seats))],
        points=[POINTS_4[place[seat]] for seat in range(len(seats))],
        seats=seats,
    )
    return outcome.inserted


async def new_game(
    storage: Storage, seats: Sequence[SeatRef], *, channel: int = 10, guild: int = GUILD
) -> tuple[int, int]:
    table = await storage.get_table_by_channel(channel)
    table_id = (
        table.table_id
        if table is not None
        else await storage.create_table(guild, channel, 1, CLASSIC)
    )
    game_id = await storage.start_game(table_id, game_no=next(GAME_NOS), preset="classic",
                                       rules=CLASSIC, seats=seats)
    return table_id, game_id


async def test_round_is_written_once(storage: Storage) -> None:
    seats = [human(ALICE), human(BOB), human(CAROL), human(DAVE)]
    _, game_id = await new_game(storage, seats)
    assert await play_round(storage, game_id, 1, seats, [0, 1, 2, 3])
    assert not await play_round(storage, game_id, 1, seats, [0, 1, 2, 3])
    # A conflicting replay of the same round number is ignored too: the first write stands.
    assert not await play_round(storage, game_id, 1, seats, [3, 2, 1, 0])

    stats = await storage.player_stats(GUILD, ALICE)
    assert (stats.rounds, stats.times("P"), stats.points) == (1, 1, 3)
    assert stats.ratings[0].rounds == 1


async def test_concurrent_duplicates_insert_one_round(storage: Storage) -> None:
    seats = [human(ALICE), human(BOB), human(CAROL), human(DAVE)]
    _, game_id = await new_game(storage, seats)
    inserted = await asyncio.gather(
        *(play_round(storage, game_id, 1, seats, [0, 1, 2, 3]) for _ in range(5))
    )
    assert sorted(inserted) == [False, False, False, False, True]
    assert (await storage.player_stats(GUILD, ALICE)).ratings[0].rounds == 1


async def test_round_validation(storage: Storage) -> None:
    seats = [human(ALICE), human(BOB), BOT]
    _, game_id = await new_game(storage, seats)
    with pytest.raises(ValueError):
        await storage.record_round(
            game_id, 1, ranking=[0, 1, 1], roles=["P", "N", "L"], points=[3, 1, 0], seats=seats
        )
    with pytest.raises(ValueError):
        await storage.record_round(
            game_id, 1, ranking=[0, 1], roles=["P", "L"], points=[3, 0], seats=seats
        )
    with pytest.raises(ValueError):
        await storage.record_round(
            game_id, 0, ranking=[0, 1, 2], roles=["P", "N", "L"], points=[3, 1, 0], seats=seats
        )
    with pytest.raises(UnknownGame):
        await storage.record_round(
            999, 1, ranking=[0, 1, 2], roles=["P", "N", "L"], points=[3, 1, 0], seats=seats
        )
    with pytest.raises(UnknownTable):
        await storage.start_game(999, game_no=1, preset="classic", rules=CLASSIC, seats=seats)
    with pytest.raises(ValueError):
        SeatRef(None, False, "nobody")


async def test_finish_game_once_and_history(storage: Storage) -> None:
    seats = [human(ALICE), human(BOB), BOT, human(CAROL)]
    table_id, first = await new_game(storage, seats)
    await play_round(storage, first, 1, seats, [0, 1, 2, 3])
    await play_round(storage, first, 2, seats, [1, 0, 2, 3])
    assert await storage.finish_game(first, winners=[0, 1], stopped_early=False)
    assert not await storage.finish_game(first, winners=[3], stopped_early=True)

    _, second = await new_game(storage, seats)
    assert second != first
    await play_round(storage, second, 1, seats, [2, 0, 1, 3])
    assert await storage.finish_game(second, winners=[], stopped_early=True)

    _, unfinished = await new_game(storage, seats)
    await play_round(storage, unfinished, 1, seats, [0, 1, 2, 3])

    # The channel gets a new table after the first one is closed; history spans both.
    await storage.update_table(table_id, status="closed")
    _, third = await new_game(storage, seats)
    await play_round(storage, third, 1, seats, [2, 3, 0, 1])
    await storage.finish_game(third, winners=[2], stopped_early=False)

    history = await storage.game_history(channel_id=10)
    assert [game.game_id for game in history] == [third, second, first]
    assert [game.number for game in history] == [3, 2, 1]  # the oldest is 1, and stays so
    assert [winner.name for winner in history[0].winners] == ["Bot"]
    assert history[0].winners[0].is_bot
    assert history[1].stopped_early and history[1].winners == ()
    assert [(w.seat, w.user_id, w.name) for w in history[2].winners] == [
        (0, ALICE, "Alice"),
        (1, BOB, "Bob"),
    ]
    assert history[2].rounds == 2 and not history[2].stopped_early
    assert history[2].ended_at is not None and history[2].ended_at >= history[2].started_at

    assert [game.game_id for game in await storage.game_history(channel_id=10, limit=1)] == [third]
    older = await storage.game_history(channel_id=10, limit=2, offset=1)
    assert [(game.game_id, game.number) for game in older] == [(second, 2), (first, 1)]
    assert await storage.game_history(channel_id=10, offset=3) == []
    by_table = await storage.game_history(table_id=table_id)
    assert [(game.game_id, game.number) for game in by_table] == [(second, 2), (first, 1)]
    assert await storage.game_history(channel_id=11) == []
    with pytest.raises(ValueError):
        await storage.game_history()
    with pytest.raises(UnknownGame):
        await storage.finish_game(999, winners=[], stopped_early=False)


async def test_winners_named_after_last_occupant(storage: Storage) -> None:
    """A bot that took over a seat between rounds is who won with it."""
    seats = [human(ALICE), human(BOB), human(CAROL)]
    _, game_id = await new_game(storage, seats)
    await storage.upsert_user(BOB, "Bobby")
    later = [human(ALICE), SeatRef(BOB, True, "Bot (Bobby)"), human(CAROL)]
    await storage.record_round(
        game_id, 1, ranking=[1, 0, 2], roles=["N", "P", "L"], points=[1, 3, 0], seats=later
    )
    await storage.finish_game(game_id, winners=[1], stopped_early=False)
    (game,) = await storage.game_history(channel_id=10)
    assert [(w.name, w.is_bot, w.user_id) for w in game.winners] == [("Bot (Bobby)", True, BOB)]
    # The bot's win and its President are not Bob's; the round, which he left to the bot,
    # counts as one he played (and left: `ratings.rated_places`).
    bob = await storage.player_stats(GUILD, BOB)
    assert (bob.name, bob.rounds, bob.wins, bob.times("P")) == ("Bobby", 1, 0, 0)


async def test_a_game_stopped_after_its_seats_changed_hands_names_who_holds_them_now(
    storage: Storage,
) -> None:
    """Play-test: Dave took a bot's seat from the queue and the host stopped the game
    before any round of his ended; the table named the seat's holder, the history the bot
    whose last stored round it was. Its end now stores who holds each seat."""
    seats = [human(ALICE), BOT, human(CAROL)]
    _, game_id = await new_game(storage, seats)
    await play_round(storage, game_id, 1, seats, [1, 0, 2])
    now = [human(ALICE), human(DAVE), human(CAROL)]
    await storage.finish_game(game_id, winners=[1], stopped_early=False, seats=now)
    (game,) = await storage.game_history(channel_id=10)
    assert [(w.name, w.is_bot, w.user_id) for w in game.winners] == [("Dave", False, DAVE)]


async def test_a_winner_waiting_in_the_queue_is_stored_after_the_seats(
    storage: Storage,
) -> None:
    """Proletario: Dave gave up his seat for the queue with the best total, and won (RULES
    §8, §10). He held no seat as the game ended: his win is stored after the game's seats,
    and the history and his stats count it as any other."""
    seats = [human(ALICE), human(BOB), human(CAROL), human(DAVE)]
    _, game_id = await new_game(storage, seats)
    await play_round(storage, game_id, 1, seats, [3, 0, 1, 2])
    now = [human(ALICE), human(BOB), human(CAROL), BOT]
    await play_round(storage, game_id, 2, now, [0, 1, 2, 3])
    assert await storage.finish_game(game_id, winners=[0], stopped_early=False, seats=now,
                                     waiting_winners=[human(DAVE)])
    assert not await storage.finish_game(game_id, winners=[], stopped_early=False,
                                         waiting_winners=[human(DAVE)])
    (game,) = await storage.game_history(channel_id=10)
    assert [(w.seat, w.name, w.user_id) for w in game.winners] == [
        (0, "Alice", ALICE), (4, "Dave", DAVE)]
    dave = await storage.player_stats(GUILD, DAVE)
    assert (dave.games, dave.wins, dave.rounds) == (1, 1, 1)


async def test_names_of_accents_emoji_and_a_nul_are_stored_alike_on_both_backends(
    storage: Storage,
) -> None:
    """Names as members carry them, at the ids Discord hands out (past 2**53, up to the
    largest a signed 64-bit column holds). A U+0000 in a name made PostgreSQL refuse the
    game's row and every round of it (SQLite stored it): it is left out on both."""
    names = {ALICE: "Zoé 🐉\x00", BOB: "Bjørn 👨‍👩‍👧‍👦", CAROL: "e\u0301lise", DAVE: "مرحبا"}
    ids = {user: (1 << 63) - user for user in names}
    seats = [SeatRef(ids[user], False, name) for user, name in names.items()]
    _, game_id = await new_game(storage, seats, guild=(1 << 63) - 1)
    assert await play_round(storage, game_id, 1, seats, [0, 1, 2, 3])
    await storage.finish_game(game_id, winners=[0], stopped_early=False)

    (game,) = await storage.game_history(channel_id=10)
    assert [(w.name, w.user_id) for w in game.winners] == [("Zoé 🐉", ids[ALICE])]
    board = await storage.leaderboard((1 << 63) - 1, "classic")
    assert sorted((row.name, row.user_id) for row in board.rows) == sorted(
        (name.replace("\x00", ""), ids[user]) for user, name in names.items())
    stats = await storage.player_stats((1 << 63) - 1, ids[ALICE])
    assert (stats.name, stats.rounds, stats.wins) == ("Zoé 🐉", 1, 1)


async def test_player_stats(storage: Storage) -> None:
    seats = [human(ALICE), human(BOB), BOT, human(CAROL)]
    _, game_id = await new_game(storage, seats)
    await play_round(storage, game_id, 1, seats, [0, 1, 2, 3])  # Alice P, Carol L
    await play_round(storage, game_id, 2, seats, [3, 0, 1, 2])  # Carol P, Alice VP, Bot L
    await play_round(storage, game_id, 3, seats, [0, 3, 2, 1])  # Alice P, Bob L
    await storage.finish_game(game_id, winners=[0], stopped_early=False)

    _, other = await new_game(storage, seats)
    await play_round(storage, other, 1, seats, [1, 2, 3, 0])  # Bob P, Alice L
    await storage.finish_game(other, winners=[1], stopped_early=False)

    # A presi game on the same server and a game on another server.
    presi_table = await storage.create_table(GUILD, 20, 1, {"preset": "presi", "set": {}})
    presi = await storage.start_game(
        presi_table, game_no=1, preset="presi", rules={"preset": "presi", "set": {}}, seats=seats
    )
    await play_round(storage, presi, 1, seats, [0, 1, 2, 3])
    await storage.finish_game(presi, winners=[0], stopped_early=False)
    _, elsewhere = await new_game(storage, seats, channel=30, guild=OTHER_GUILD)
    await play_round(storage, elsewhere, 1, seats, [0, 1, 2, 3])

    alice = await storage.player_stats(GUILD, ALICE)
    assert alice.name == "Alice"
    assert (alice.rounds, alice.games, alice.wins) == (5, 3, 2)
    assert (alice.times("P"), alice.times("L"), alice.points) == (3, 1, 3 + 2 + 3 + 0 + 3)
    assert [rating.preset for rating in alice.ratings] == ["classic", "presi"]
    # Roles per preset: classic P, VP, P, L over four rounds; presi P in its one round.
    assert [(r.preset, r.rounds, r.roles) for r in alice.roles] == [
        ("classic", 4, {"P": 2, "VP": 1, "L": 1}),
        ("presi", 1, {"P": 1}),
    ]

    classic = await storage.player_stats(GUILD, ALICE, preset="classic")
    assert (classic.rounds, classic.games, classic.wins, classic.times("P")) == (4, 2, 1, 2)
    assert [rating.preset for rating in classic.ratings] == ["classic"]
    assert classic.ratings[0].rounds == 4
    assert [r.preset for r in classic.roles] == ["classic"]

    carol = await storage.player_stats(GUILD, CAROL, preset="classic")
    assert (carol.times("P"), carol.times("L"), carol.wins) == (1, 1, 0)

    nobody = await storage.player_stats(GUILD, 999)
    assert (nobody.name, nobody.rounds, nobody.games, nobody.points, nobody.ratings) == (
        None,
        0,
        0,
        0,
        (),
    )
    elsewhere_stats = await storage.player_stats(OTHER_GUILD, ALICE)  # a game not ended yet
    assert (elsewhere_stats.rounds, elsewhere_stats.games, elsewhere_stats.wins) == (1, 0, 0)
    assert nobody.roles == ()


async def test_a_cancelled_game_is_listed_and_its_rounds_counted_not_the_game(
        storage: Storage) -> None:
    """Play-test 39: a game cancelled after two rounds (presi's seat left for good, RULES
    §10) stored no end; the history said no game had been played while the stats counted
    its rounds. It ends cancelled now: listed between the games before and after it, no
    winner, its rounds and its chart there; the stats count its rounds, and it apart from
    the games (play-test 14's « no result »)."""
    seats = [human(ALICE), human(BOB), BOT, human(CAROL)]
    _, first = await new_game(storage, seats)
    await play_round(storage, first, 1, seats, [0, 1, 2, 3])
    assert await storage.finish_game(first, winners=[0], stopped_early=False)
    _, cancelled = await new_game(storage, seats)
    await play_round(storage, cancelled, 1, seats, [1, 0, 2, 3])
    await play_round(storage, cancelled, 2, seats, [3, 1, 2, 0])
    assert await storage.cancel_game(cancelled)
    assert not await storage.cancel_game(cancelled)  # the first ending wins
    assert not await storage.finish_game(cancelled, winners=[1], stopped_early=False)
    _, last = await new_game(storage, seats)
    await play_round(storage, last, 1, seats, [0, 1, 2, 3])
    assert await storage.finish_game(last, winners=[0], stopped_early=False)
    assert not await storage.cancel_game(last)
    with pytest.raises(UnknownGame):
        await storage.cancel_game(999)

    history = await storage.game_history(channel_id=10)
    assert [(g.game_id, g.number, g.rounds, g.cancelled, g.winners != ())
            for g in history] == [(last, 3, 1, False, True), (cancelled, 2, 2, True, False),
                                  (first, 1, 1, False, True)]
    assert history[1].ended_at is not None and history[1].stopped_early
    points = await storage.game_points(cancelled, 10)
    assert points is not None and points.names == ("Alice", "Bob", "Bot", "Carol")
    assert [len(line) for line in points.totals] == [2, 2, 2, 2]

    alice = await storage.player_stats(GUILD, ALICE)
    assert (alice.games, alice.cancelled, alice.wins, alice.rounds) == (2, 1, 2, 4)
    by_preset = await storage.player_stats(GUILD, ALICE, preset="presi")
    assert (by_preset.games, by_preset.cancelled, by_preset.rounds) == (0, 0, 0)


async def test_a_game_closed_for_an_unreadable_state_is_listed_cancelled(
        storage: Storage) -> None:
    """A table closed at start for a state this version cannot read (`bot.tables.restore`)
    left its game unended: the history never listed it while the stats counted its
    rounds (play-test 39's finding, for presi's cancelled game). Its game ends cancelled
    in the same transaction, as the upgrade to 0016 marked the older ones: listed, no
    winner, its rounds counted, the game apart. A game ended before stays as it was; one
    with no round stored stays unended and counts nowhere."""
    seats = [human(ALICE), human(BOB), BOT, human(CAROL)]
    table_id, won = await new_game(storage, seats)
    await play_round(storage, won, 1, seats, [0, 1, 2, 3])
    assert await storage.finish_game(won, winners=[0], stopped_early=False)
    _, broken = await new_game(storage, seats)
    await play_round(storage, broken, 1, seats, [1, 0, 2, 3])
    await play_round(storage, broken, 2, seats, [3, 1, 2, 0])
    other, empty = await new_game(storage, seats, channel=11)
    assert await storage.save_snapshot(table_id, 3, {"from": "a newer version"})

    await storage.close_unreadable(table_id, GUILD, 10, "fr", [101])
    await storage.close_unreadable(other, GUILD, 11, "en", [])
    history = await storage.game_history(channel_id=10)
    assert [(g.game_id, g.number, g.rounds, g.cancelled, g.winners != ())
            for g in history] == [(broken, 2, 2, True, False), (won, 1, 1, False, True)]
    assert history[0].stopped_early and history[0].ended_at is not None
    assert await storage.game_history(channel_id=11) == []
    assert await storage.cancel_game(empty)  # (still unended: no round, nothing counts)
    assert not await storage.cancel_game(broken)  # ended already
    alice = await storage.player_stats(GUILD, ALICE)
    assert (alice.games, alice.cancelled, alice.wins, alice.rounds) == (1, 1, 1, 3)


async def test_abandoned_game_counts_nowhere(storage: Storage) -> None:
    seats = [human(ALICE), human(BOB), human(CAROL)]
    await new_game(storage, seats)
    stats = await storage.player_stats(GUILD, ALICE)
    assert (stats.rounds, stats.games, stats.wins) == (0, 0, 0)
    assert await storage.game_history(channel_id=10) == []


async def test_leaderboard_top_and_caller(storage: Storage) -> None:
    players = list(range(2000, 2014))
    for user in players:
        await storage.upsert_user(user, f"P{user}")
    table_id = await storage.create_table(GUILD, 10, 1, CLASSIC)
    # Sliding rounds of four in a fixed strength order: lower ids always finish first.
    game_id = await storage.start_game(table_id, game_no=1, preset="classic", rules=CLASSIC,
                                       seats=[])
    for round_no, start in enumerate(range(len(players) - 3), start=1):
        seats = [SeatRef(user, False, f"P{user}") for user in players[start : start + 4]]
        await storage.record_round(
            game_id,
            round_no,
            ranking=[0, 1, 2, 3],
            roles=["P", "VP", "VL", "L"],
            points=[3, 2, 0, 0],
            seats=seats,
        )

    full = await storage.leaderboard(GUILD, "classic", limit=100)
    assert full.total == len(players) and full.caller is None
    # Players level on what the board shows share their place: three read « 1058 · 4
    # rounds counted », their ratings apart by less than the point rounded away; they were
    # 9th, 10th and 11th (play-test 26).
    shown = [(row.rating, row.rounds) for row in full.rows]
    assert [row.rank for row in full.rows] == [shown.index(level) + 1 for level in shown]
    assert [row.rank for row in full.rows][8:11] == [9, 9, 9]
    ordinals = [row.mu - 3 * row.sigma for row in full.rows]
    assert ordinals == sorted(ordinals, reverse=True)
    assert full.rows[0].rating > full.rows[-1].rating
    assert {row.name for row in full.rows} == {f"P{user}" for user in players}

    low = full.rows[-1]
    board = await storage.leaderboard(GUILD, "classic", limit=10, caller_id=low.user_id)
    assert board.rows == full.rows[:10]
    assert board.caller == low and board.total == len(players)

    inside = await storage.leaderboard(GUILD, "classic", limit=10, caller_id=full.rows[0].user_id)
    assert inside.caller is None
    unrated = await storage.leaderboard(GUILD, "classic", caller_id=999)
    assert unrated.caller is None and len(unrated.rows) == 10
    empty = await storage.leaderboard(GUILD, "presi", caller_id=low.user_id)
    assert (empty.rows, empty.caller, empty.total) == ((), None, 0)
    assert (await storage.leaderboard(OTHER_GUILD, "classic")).total == 0
