"""A player's erasure (`Storage.forget_user`), on SQLite and PostgreSQL: what goes, and
what stays so that nobody else's standing changes."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime
from typing import TypeVar

import pytest
from sqlalchemy.sql.dml import Delete, Insert
from sqlalchemy.sql.expression import TableClause

from bot.storage import GuildData, HeldData, SeatRef, Storage
from bot.storage.forget import NOBODY, GuildBusy
from bot.storage.models import GameSeat, Rating, RoundResult

from .locks import hold_after
from .test_scores import ALICE, BOB, BOT, CAROL, GUILD, OTHER_GUILD, human, new_game, play_round

T = TypeVar("T")
NOTHING = HeldData(named=False, games=0, rounds=0, ratings=0, hosted=0, notices=0,
                   language=False)


async def _two_servers(storage: Storage) -> tuple[int, int]:
    """Alice plays with Bob and Carol on one server (a game she wins, her table closed
    since), and with Bob on another (a game still going); she is owed a notice."""
    seats = [human(ALICE), human(BOB), BOT, human(CAROL)]
    table_id, first = await new_game(storage, seats)
    await play_round(storage, first, 1, seats, [0, 1, 2, 3])
    await play_round(storage, first, 2, seats, [1, 0, 2, 3])
    assert await storage.finish_game(first, winners=[0], stopped_early=False)
    await storage.update_table(table_id, host_id=ALICE, status="closed")
    pair = [human(BOB), human(ALICE), BOT, BOT]
    _, second = await new_game(storage, pair, channel=20, guild=OTHER_GUILD)
    await play_round(storage, second, 1, pair, [1, 0, 2, 3])
    await storage.owe_vanished(GUILD, [ALICE, BOB], "cartes", datetime.now(UTC))
    # Her table's closing, which an archived thread refused, and a lobby's without her.
    await storage.owe_edit(GUILD, 30, 301, "alice, bob: fermée", [ALICE, BOB],
                           datetime.now(UTC))
    await storage.owe_edit(GUILD, 30, 302, "bob: fermée", [BOB], datetime.now(UTC))
    return first, second


async def _erased_as_a_game_starts(
    storage: Storage, db_url: str, monkeypatch: pytest.MonkeyPatch, player: int,
    erase: Callable[[], Coroutine[object, object, T]],
) -> T:
    """On :func:`_two_servers`, ``erase`` runs just as a first game of ``player``'s on the
    other server starts (two connections on PostgreSQL): the start has stored its seats,
    not yet committed, and waits until the erasure waits on it (or is over)."""
    await _two_servers(storage)
    await storage.create_table(OTHER_GUILD, 21, CAROL, {"preset": "classic", "set": {}})
    table = await storage.get_table_by_channel(21)
    assert table is not None
    erasing: asyncio.Task[T] | None = None

    def seats_stored(statement: object) -> bool:
        """The start, its seats stored, waits until the erasure waits on it (or is over)."""
        return isinstance(statement, Insert) and statement.table.name == GameSeat.__tablename__

    seated = hold_after(monkeypatch, storage, db_url, seats_stored, lambda: erasing)
    starting = asyncio.ensure_future(storage.start_game(
        table.table_id, game_no=1, preset="classic", rules={"preset": "classic", "set": {}},
        seats=[human(player), BOT]))
    await asyncio.wait_for(seated.wait(), 10)  # the wall clock bounds a failing test
    erasing = asyncio.ensure_future(erase())
    await asyncio.gather(starting, erasing)
    monkeypatch.undo()
    return erasing.result()


async def test_forgetting_erases_the_player_everywhere_and_nobody_else(
    storage: Storage,
) -> None:
    first, _ = await _two_servers(storage)
    bob_before = await storage.player_stats(GUILD, BOB)
    carol_before = await storage.player_stats(GUILD, CAROL)
    board_before = await storage.leaderboard(GUILD, "classic")
    held = await storage.held_about(ALICE)
    assert held == HeldData(named=True, games=2, rounds=3, ratings=2, hosted=1, notices=1,
                            language=False)

    assert await storage.forget_user(ALICE) == held
    assert await storage.held_about(ALICE) == NOTHING
    alice = await storage.player_stats(GUILD, ALICE)
    assert (alice.name, alice.rounds, alice.games, alice.wins, alice.ratings) == \
        (None, 0, 0, 0, ())
    assert (await storage.player_stats(OTHER_GUILD, ALICE)).rounds == 0
    board = await storage.leaderboard(GUILD, "classic")
    assert ALICE not in [row.user_id for row in board.rows]
    # The others keep their records and ratings as they were: ranks close up.
    assert await storage.player_stats(GUILD, BOB) == bob_before
    assert await storage.player_stats(GUILD, CAROL) == carol_before
    assert [(r.user_id, r.mu, r.sigma) for r in board.rows] == \
        [(r.user_id, r.mu, r.sigma) for r in board_before.rows if r.user_id != ALICE]
    # Her seat keeps its win and its points, without her id or name.
    history = await storage.game_history(channel_id=10)
    assert [(w.seat, w.user_id, w.is_bot, w.name) for w in history[0].winners] == \
        [(0, None, False, "")]
    points = await storage.game_points(first, 10)
    assert points is not None
    assert points.names == ("", "Bob", "Bot", "Carol") and points.erased == {0}
    assert points.totals[0] == (3, 5)
    # Bob's owed notice stays; the closed table she hosted names nobody.
    assert [v.user_id for v in await storage.vanished_since(datetime(2000, 1, 1, tzinfo=UTC))] \
        == [BOB]
    # The message whose owed text named her will only lose its buttons, her id gone too.
    assert [(e.message_id, e.text, e.people) for e in
            await storage.asleep_since(datetime(2000, 1, 1, tzinfo=UTC))] == \
        [(301, None, ()), (302, "bob: fermée", (BOB,))]
    # Another process's copy asks before sending (`AsleepThreads.take`): 301's text is gone.
    assert await storage.named_edits([301, 302, 303]) == {302}
    table = await storage.get_table(history[0].table_id)
    assert table is not None and table.host_id == NOBODY


async def test_forgetting_twice_or_a_stranger_erases_nothing(storage: Storage) -> None:
    await _two_servers(storage)
    await storage.forget_user(ALICE)
    assert await storage.forget_user(ALICE) == NOTHING
    assert await storage.forget_user(4242) == NOTHING
    assert (await storage.held_about(BOB)).ratings == 2


async def test_a_round_a_bot_finished_for_a_leaver_loses_their_name_with_them(
    storage: Storage,
) -> None:
    """Alice left during round 2: a bot finished it in her seat, under her name, held for
    her (`seat_refs`), and won the game there. Her erasure takes that name too: the seat
    reads as erased, still a bot's for ratings, its win and points kept."""
    seats = [human(ALICE), human(BOB), BOT, human(CAROL)]
    held_for_alice = [SeatRef(ALICE, True, "Alice"), human(BOB), BOT, human(CAROL)]
    _, game = await new_game(storage, seats)
    await play_round(storage, game, 1, seats, [1, 0, 2, 3])
    await play_round(storage, game, 2, held_for_alice, [0, 1, 2, 3])
    assert await storage.finish_game(game, winners=[0], stopped_early=False)
    assert (await storage.held_about(ALICE)).rounds == 2
    bob_board = await storage.leaderboard(GUILD, "classic")

    await storage.forget_user(ALICE)
    assert await storage.held_about(ALICE) == NOTHING
    points = await storage.game_points(game, 10)
    # Her round and her stand-in's are two lines, as before her erasure (« Alice » and
    # « Alice (bot) »): both erased now.
    assert points is not None and points.names[0] == points.names[4] == ""
    assert points.erased == {0, 4} and not points.seated
    history = await storage.game_history(channel_id=10)
    assert [(w.user_id, w.is_bot, w.name) for w in history[0].winners] == [(None, True, "")]
    assert [(r.user_id, r.mu) for r in (await storage.leaderboard(GUILD, "classic")).rows] \
        == [(r.user_id, r.mu) for r in bob_board.rows if r.user_id != ALICE]


async def test_open_tables_holding_a_player_are_found_whichever_process_runs_them(
    storage: Storage,
) -> None:
    """A table's saved state naming the player (seated, waiting, a result to store) is
    found while the table is open, whoever runs it; a closed one, or one naming someone
    else, is not."""
    seated = await storage.create_table(GUILD, 31, BOB, {"preset": "classic", "set": {}})
    await storage.save_snapshot(seated, 1, {"seats": [{"user_id": BOB}, {"user_id": ALICE}]})
    pending = await storage.create_table(OTHER_GUILD, 32, BOB, {"preset": "classic", "set": {}})
    await storage.save_snapshot(pending, 1, {"unstored": [{"start": {"seats": [
        {"user_id": None, "left_by": ALICE}]}}]})
    closed = await storage.create_table(GUILD, 33, ALICE, {"preset": "classic", "set": {}})
    await storage.save_snapshot(closed, 1, {"seats": [{"user_id": ALICE}]})
    await storage.update_table(closed, status="closed")
    assert await storage.open_tables_holding(ALICE) == [(GUILD, 31), (OTHER_GUILD, 32)]
    assert await storage.open_tables_holding(CAROL) == []


async def test_the_others_rating_history_still_counts_rounds_against_an_erased_player(
    storage: Storage,
) -> None:
    """Bob's chart has a point for each rated round, erased opponent or not: the erased
    seat is replayed as a newcomer, so the rounds he played against her still move him."""
    await _two_servers(storage)
    before = await storage.rating_history(OTHER_GUILD, BOB)
    assert len(before["classic"]) == 1
    await storage.forget_user(ALICE)
    assert await storage.rating_history(OTHER_GUILD, BOB) == before
    after = await storage.rating_history(GUILD, BOB)
    assert len(after["classic"]) == 2


async def test_forgetting_a_server_erases_its_games_and_no_other_server(
    storage: Storage,
) -> None:
    """Alice's first server goes with its games, ratings, notices (the word owed to its
    unreadable tables' channels too) and settings; her game on the other server, and the
    names it needs, stay. Carol, who played only there, goes."""
    await _two_servers(storage)
    await storage.set_guild_language(GUILD, "fr")
    await storage.close_unreadable(998, GUILD, 10, "fr", [101])
    await storage.close_unreadable(999, OTHER_GUILD, 20, "en", [])
    other_before = await storage.player_stats(OTHER_GUILD, BOB)
    held = await storage.held_by_guild(GUILD)
    assert held == GuildData(settings=True, tables=1, games=1, ratings=3, notices=2)

    assert await storage.forget_guild(GUILD) == held
    assert (await storage.held_by_guild(GUILD)).empty
    assert await storage.game_history(channel_id=10) == []
    assert (await storage.player_stats(GUILD, BOB)).rounds == 0
    assert await storage.player_stats(OTHER_GUILD, BOB) == other_before
    assert (await storage.get_guild_settings(GUILD)).language is None
    assert (await storage.held_about(CAROL)).empty
    assert (await storage.held_about(ALICE)).named
    assert await storage.asleep_since(datetime(2000, 1, 1, tzinfo=UTC)) == []
    assert [r.guild_id for r in await storage.unreadable_since(
        datetime(2000, 1, 1, tzinfo=UTC))] == [OTHER_GUILD]
    assert await storage.forget_guild(GUILD) == GuildData(False, 0, 0, 0, 0)


async def test_a_server_erased_as_its_last_player_starts_elsewhere_keeps_that_player(
    storage: Storage, db_url: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Carol played only on the first server, which its admins erase just as her first
    game on the other server starts (two connections on PostgreSQL): the start has stored
    her seat, not yet committed, when the erasure reads which users nothing names any more.
    It chose her, waited on her row, and deleting it broke the seat's foreign key once the
    start committed: the erasure failed whole (« violates foreign key constraint »), an
    internal error for the admin. Her name is now kept, the server erased; on SQLite the
    writes queue whole, as before."""
    await _erased_as_a_game_starts(storage, db_url, monkeypatch, CAROL,
                                   lambda: storage.forget_guild(GUILD))
    assert (await storage.held_by_guild(GUILD)).empty
    carol = await storage.held_about(CAROL)
    assert (carol.named, carol.games) == (True, 1)


async def test_a_server_with_an_open_table_is_not_erased(storage: Storage) -> None:
    await _two_servers(storage)
    held = await storage.held_by_guild(OTHER_GUILD)
    with pytest.raises(GuildBusy):
        await storage.forget_guild(OTHER_GUILD)
    assert await storage.held_by_guild(OTHER_GUILD) == held


async def test_the_seat_names_kept_are_listed_in_one_order_on_every_backend(
    storage: Storage,
) -> None:
    """Alice played a round under each of eleven names (her game seat takes the last).
    Which ten of them were listed, and in what order, the database's ordering of text
    chose: its collation on PostgreSQL (C on the test server, a locale's on a typical
    one), code points on SQLite, which put « Bea » and « Zoé » before « anne » and
    « Émile » after « kim ». They follow the reading order
    now, case and accents aside, on both backends."""
    names = ["kim", "Zoé", "jo", "inès", "hugo", "gus", "fanny", "Émile", "chloé", "Bea",
             "anne"]
    seats = [human(ALICE), human(BOB), BOT, human(CAROL)]
    _, game = await new_game(storage, seats)
    for round_no, name in enumerate(names, start=1):
        named = [SeatRef(ALICE, False, name), *seats[1:]]
        await play_round(storage, game, round_no, named, [0, 1, 2, 3])
    kept = await storage.kept_about(ALICE)
    assert kept.seat_names == ("anne", "Bea", "chloé", "Émile", "fanny", "gus", "hugo",
                               "inès", "jo", "kim")


async def test_a_player_forgotten_as_their_game_starts_is_erased_with_it(
    storage: Storage, db_url: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Alice asks to be forgotten just as a new game of hers starts elsewhere (two
    connections on PostgreSQL): the start has named her and stored her seat, not yet
    committed, when the erasure unnames her seats (the new one unseen), then deletes her
    row, which waits on the start. Once the start committed, the delete broke the new
    seat's foreign key: the erasure failed whole (« violates foreign key constraint »),
    an internal error for her. It now waits on her row first, then erases the new game's
    seat with the others; on SQLite the writes queue whole, as before."""
    erased = await _erased_as_a_game_starts(storage, db_url, monkeypatch, ALICE,
                                            lambda: storage.forget_user(ALICE))
    assert erased.games == 3
    assert await storage.held_about(ALICE) == NOTHING


async def test_a_player_forgotten_as_a_round_of_theirs_is_stored_is_erased_with_it(
    storage: Storage, db_url: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same meeting with a round of her running game, stored as she is forgotten (its
    results stored, not yet committed): its result is erased with the rest."""
    _, second = await _two_servers(storage)
    erasing: asyncio.Task[HeldData] | None = None

    def results_stored(statement: object) -> bool:
        """The round, its results stored, waits until the erasure waits on it (or is over)."""
        return isinstance(statement, Insert) and \
            statement.table.name == RoundResult.__tablename__

    stored = hold_after(monkeypatch, storage, db_url, results_stored, lambda: erasing)
    pair = [human(BOB), human(ALICE), BOT, BOT]
    storing = asyncio.ensure_future(play_round(storage, second, 2, pair, [0, 1, 2, 3]))
    await asyncio.wait_for(stored.wait(), 10)  # the wall clock bounds a failing test
    erasing = asyncio.ensure_future(storage.forget_user(ALICE))
    await asyncio.gather(storing, erasing)
    monkeypatch.undo()

    assert erasing.result().rounds == 4
    assert await storage.held_about(ALICE) == NOTHING


async def test_a_game_starting_as_its_player_is_forgotten_names_them_anew(
    storage: Storage, db_url: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The other way round: the erasure holds Alice's row (`forget_user` locks it first)
    when a new game of hers starts, which waits on it, then names her anew once she is
    erased: the game she sat down to keeps her, as if she had started it after."""
    await _two_servers(storage)
    await storage.create_table(OTHER_GUILD, 21, CAROL, {"preset": "classic", "set": {}})
    table = await storage.get_table_by_channel(21)
    assert table is not None
    starting: asyncio.Task[int] | None = None

    def ratings_deleted(statement: object) -> bool:
        """The erasure, her row locked, waits until the start waits on it (or is over)."""
        return isinstance(statement, Delete) and isinstance(statement.table, TableClause) \
            and statement.table.name == Rating.__tablename__

    held = hold_after(monkeypatch, storage, db_url, ratings_deleted, lambda: starting)
    erasing = asyncio.ensure_future(storage.forget_user(ALICE))
    await asyncio.wait_for(held.wait(), 10)  # the wall clock bounds a failing test
    starting = asyncio.ensure_future(storage.start_game(
        table.table_id, game_no=1, preset="classic", rules={"preset": "classic", "set": {}},
        seats=[human(ALICE), BOT]))
    await asyncio.gather(erasing, starting)
    monkeypatch.undo()

    assert erasing.result().games == 2
    alice = await storage.held_about(ALICE)
    assert (alice.named, alice.games, alice.rounds) == (True, 1, 0)
