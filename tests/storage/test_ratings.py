"""Ratings move from finishing orders, once per round, and never against bots."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from sqlalchemy.sql.dml import Insert

from bot.storage import RoundOutcome, SeatRef, Storage
from bot.storage.models import Round, User
from bot.storage.ratings import NEWCOMER, Skill, display_rating, rate, rated_places, seat
from engine.rules import RulesDict

from .locks import hold_after

GUILD = 7 << 22
CLASSIC: RulesDict = {"preset": "classic", "set": {}}


def human(user_id: int) -> SeatRef:
    return SeatRef(user_id, False, f"U{user_id}")


BOT = SeatRef(None, True, "Bot")


def test_winner_rises_loser_falls() -> None:
    after = rate({1: 1, 2: 2, 3: 3, 4: 4}, dict.fromkeys((1, 2, 3, 4), NEWCOMER))
    assert after[1].mu > after[2].mu > after[3].mu > after[4].mu
    assert after[1].mu > NEWCOMER.mu > after[4].mu
    assert all(skill.sigma < NEWCOMER.sigma for skill in after.values())
    assert NEWCOMER.display == display_rating(NEWCOMER.mu, NEWCOMER.sigma) == 1000


def test_only_relative_order_matters() -> None:
    skills = {1: Skill(27.0, 6.0), 2: Skill(24.0, 7.0), 3: Skill(25.0, 5.0)}
    assert rate({1: 1, 2: 3, 3: 4}, skills) == rate({1: 1, 2: 2, 3: 3}, skills)
    assert rate({1: 1}, skills) == {}


async def _ratings(storage: Storage, users: list[int], preset: str = "classic") -> list[int]:
    board = await storage.leaderboard(GUILD, preset, limit=100)
    by_user = {row.user_id: row.rating for row in board.rows}
    return [by_user.get(user, 1000) for user in users]


async def _game(storage: Storage, channel: int = 10) -> int:
    table_id = await storage.create_table(GUILD, channel, 1, CLASSIC)
    return await storage.start_game(table_id, game_no=1, preset="classic", rules=CLASSIC, seats=[])


async def test_bots_are_left_out(storage: Storage) -> None:
    """Humans ranked 1st and 4th around two bots rate like a 2-player human round."""
    with_bots = await _game(storage, channel=10)
    outcome = await storage.record_round(
        with_bots,
        1,
        ranking=[0, 1, 2, 3],
        roles=["P", "VP", "VL", "L"],
        points=[3, 2, 0, 0],
        seats=[human(1), BOT, BOT, human(2)],
    )
    assert outcome.inserted and outcome.rated
    assert [(c.user_id, c.before) for c in outcome.changes] == [(1, 1000), (2, 1000)]
    expected = rate({1: 1, 2: 2}, {1: NEWCOMER, 2: NEWCOMER})
    assert [c.after for c in outcome.changes] == [expected[1].display, expected[2].display]
    assert await _ratings(storage, [1, 2]) == [expected[1].display, expected[2].display]

    # Bots never get a rating row, and a lone human among bots is not rated at all.
    lone = await storage.record_round(
        with_bots,
        2,
        ranking=[0, 1, 2],
        roles=["P", "N", "L"],
        points=[3, 1, 0],
        seats=[human(3), BOT, BOT],
    )
    assert lone.inserted and not lone.rated and lone.changes == ()
    board = await storage.leaderboard(GUILD, "classic", limit=100)
    assert {row.user_id for row in board.rows} == {1, 2}
    stats = await storage.player_stats(GUILD, 3)
    assert (stats.rounds, stats.times("P"), stats.ratings) == (1, 1, ())


async def test_a_player_who_left_the_round_is_rated_behind_those_who_stayed(
    storage: Storage,
) -> None:
    """U2 left the round, a bot finishing it first in their seat: they are rated as
    finishing it behind U1 and U3, who stayed (play-test 26: they kept their rating, as if
    they had not played). The round counts among their rounds; the bot's role and points
    are not theirs."""
    game_id = await _game(storage)
    outcome = await storage.record_round(
        game_id,
        1,
        ranking=[1, 2, 0],
        roles=["L", "P", "N"],
        points=[0, 3, 1],
        seats=[human(1), SeatRef(2, True, "U2"), human(3)],
    )
    assert outcome.rated
    assert {change.user_id: change.after for change in outcome.changes} == {
        user: skill.display for user, skill in rate(
            {3: 1, 1: 2, 2: 3}, dict.fromkeys((1, 2, 3), NEWCOMER)).items()}
    left = await storage.player_stats(GUILD, 2)
    assert (left.rounds, left.points, left.times("P"), left.ratings[0].rounds) == (1, 0, 0, 1)
    assert [(played.rounds, played.roles) for played in left.roles] == [(1, {})]
    assert await storage.rating_history(GUILD, 2) == {"classic": [left.ratings[0].rating]}


async def test_a_player_someone_removed_is_not_rated_for_the_round(storage: Storage) -> None:
    """U2 was removed by the host (or a moderator) mid-round, last as it stood, a bot
    finishing it first in their seat: the round is not theirs (stop 49: it rated them as
    leavers, behind U1 and U3). U1 and U3 are rated among themselves; U2's stats, rating
    and chart say nothing of it; the leaderboard has no row for them. A second round with
    U2 playing it through rates them as usual."""
    game_id = await _game(storage)
    outcome = await storage.record_round(
        game_id,
        1,
        ranking=[1, 2, 0],
        roles=["L", "P", "N"],
        points=[0, 3, 1],
        seats=[human(1), SeatRef(2, True, "U2", "removed"), human(3)],
    )
    assert outcome.rated
    assert {change.user_id: change.after for change in outcome.changes} == {
        user: skill.display for user, skill in rate(
            {3: 1, 1: 2}, dict.fromkeys((1, 3), NEWCOMER)).items()}
    removed = await storage.player_stats(GUILD, 2)
    assert (removed.rounds, removed.games, removed.points, removed.ratings) == (0, 0, 0, ())
    assert removed.roles == ()
    assert await storage.rating_history(GUILD, 2) == {}
    assert await storage.rating_history(GUILD, 1) == {"classic": [outcome.changes[0].after]}
    board = await storage.leaderboard(GUILD, "classic", limit=100)
    assert {row.user_id for row in board.rows} == {1, 3}

    second = await storage.record_round(
        game_id, 2, ranking=[1, 0, 2], roles=["N", "P", "L"], points=[1, 3, 0],
        seats=[human(1), human(2), human(3)])
    assert {change.user_id for change in second.changes} == {1, 2, 3}
    played = await storage.player_stats(GUILD, 2)
    assert (played.rounds, played.times("P"), played.ratings[0].rounds) == (1, 1, 1)
    assert await storage.rating_history(GUILD, 2) == {"classic": [played.ratings[0].rating]}
    assert (await storage.rating_history(GUILD, 1))["classic"] == [
        outcome.changes[0].after, (await storage.player_stats(GUILD, 1)).ratings[0].rating]


def test_a_removed_seat_reads_as_nobody_s_a_left_one_as_its_leaver_s() -> None:
    assert seat(2, True, 1, "removed") == (None, True, 1)
    assert seat(2, True, 1, "left") == seat(2, True, 1, None) == (2, True, 1)
    # Removed once out of cards: the place they won is theirs, a human's seat.
    assert seat(2, False, 1, "removed") == (2, False, 1)


def test_a_round_every_human_left_rates_nobody() -> None:
    assert rated_places([(1, True, 1), (2, True, 2), (None, False, 3)]) == {}
    assert rated_places([(1, True, 1), (2, False, 3), (3, True, 2)]) == {1: 4, 2: 3, 3: 4}


async def test_user_in_two_seats_is_not_rated(storage: Storage) -> None:
    game_id = await _game(storage)
    outcome = await storage.record_round(
        game_id,
        1,
        ranking=[0, 1, 2, 3],
        roles=["P", "VP", "VL", "L"],
        points=[3, 2, 0, 0],
        seats=[human(1), human(2), human(1), human(3)],
    )
    assert {change.user_id for change in outcome.changes} == {2, 3}


async def test_ratings_accumulate_and_duplicates_do_not_apply(storage: Storage) -> None:
    game_id = await _game(storage)
    seats = [human(1), human(2), human(3)]
    for round_no in (1, 2, 3):
        await storage.record_round(
            game_id,
            round_no,
            ranking=[0, 1, 2],
            roles=["P", "N", "L"],
            points=[3, 1, 0],
            seats=seats,
        )
    before = await _ratings(storage, [1, 2, 3])
    assert before[0] > before[1] > before[2]
    repeat = await storage.record_round(
        game_id, 3, ranking=[2, 1, 0], roles=["L", "N", "P"], points=[0, 1, 3], seats=seats
    )
    assert not repeat.inserted and repeat.changes == ()
    assert await _ratings(storage, [1, 2, 3]) == before
    stats = await storage.player_stats(GUILD, 1, preset="classic")
    assert stats.ratings[0].rounds == 3 and stats.ratings[0].rating == before[0]


async def test_ratings_are_per_guild_and_preset(storage: Storage) -> None:
    game_id = await _game(storage)
    await storage.record_round(
        game_id, 1, ranking=[0, 1], roles=["P", "L"], points=[3, 0], seats=[human(1), human(2)]
    )
    presi_table = await storage.create_table(GUILD, 11, 1, {"preset": "presi", "set": {}})
    presi = await storage.start_game(presi_table, game_no=1, preset="presi",
                                     rules={"preset": "presi", "set": {}}, seats=[])
    await storage.record_round(
        presi, 1, ranking=[1, 0], roles=["L", "P"], points=[0, 2], seats=[human(1), human(2)]
    )
    classic_ratings = await _ratings(storage, [1, 2])
    presi_ratings = await _ratings(storage, [1, 2], preset="presi")
    assert classic_ratings == presi_ratings[::-1]
    assert classic_ratings[0] > classic_ratings[1]
    assert (await storage.leaderboard(GUILD + (1 << 22), "classic")).total == 0


async def test_concurrent_rounds_sharing_a_player_lose_no_update(storage: Storage) -> None:
    """Tables finishing rounds at once with the same player (row locks on PostgreSQL,
    BEGIN IMMEDIATE on SQLite) must apply every update on top of the previous one."""
    games = [await _game(storage, channel=10 + n) for n in range(6)]
    await asyncio.gather(
        *(
            storage.record_round(
                game_id,
                1,
                ranking=[0, 1],
                roles=["P", "L"],
                points=[3, 0],
                seats=[human(1), human(100 + n)],
            )
            for n, game_id in enumerate(games)
        )
    )
    # Every opponent is a newcomer, so the order of the six updates does not matter.
    expected = NEWCOMER
    for _ in games:
        expected = rate({1: 1, 2: 2}, {1: expected, 2: NEWCOMER})[1]
    (rating,) = (await storage.player_stats(GUILD, 1)).ratings
    assert rating.rounds == len(games)
    assert rating.mu == pytest.approx(expected.mu)
    assert rating.sigma == pytest.approx(expected.sigma)


async def test_players_level_on_the_leaderboard_share_their_place(storage: Storage) -> None:
    """zoe and wanda each won one two-player round against a newcomer: rated alike, they
    read « 1. zoe · 2. wanda » by account id (play-test 14); they share 1st now, as the
    final standings of a game show a tie, and the next place is 3rd."""
    for winner, loser, channel in ((1, 2, 10), (3, 4, 11)):
        game = await _game(storage, channel=channel)
        await storage.record_round(game, 1, ranking=[0, 1], roles=["P", "L"], points=[3, 0],
                                   seats=[human(winner), human(loser)])
    board = await storage.leaderboard(GUILD, "classic")
    assert [(row.rank, row.user_id) for row in board.rows] == [(1, 1), (1, 3), (3, 2), (3, 4)]
    outside = await storage.leaderboard(GUILD, "classic", limit=2, caller_id=4)
    assert [row.user_id for row in outside.rows] == [1, 3]
    assert outside.caller is not None and (outside.caller.rank, outside.caller.user_id) == (3, 4)


def _is_round_insert(statement: object) -> bool:
    return isinstance(statement, Insert) and statement.table.name == Round.__tablename__


async def test_rounds_sharing_a_player_stored_at_once_are_replayed_in_the_order_rated(
    storage: Storage, db_url: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two tables end a round with player 1 at once (two processes on PostgreSQL): one he
    left (his seat a bot's, rated behind the newcomer who stayed), one where he beat the
    server's best. The first took its round's id, then the second stored and rated its
    round whole (a left seat's user row is not renamed, so nothing of it was locked yet),
    then the first was rated: rated second, numbered first, and the rating chart, which
    replays rounds by id (`History.rating_history`), ended elsewhere than the stored
    rating. Rounds are now numbered once their players' rating rows are locked: the
    second waits, and both read back in the order they were rated. On SQLite the writes
    queue whole (BEGIN IMMEDIATE), as before."""
    for channel, seats in ((20, [3, 4]), (21, [3, 4]), (22, [3, 4]), (23, [1, 4])):
        game = await _game(storage, channel=channel)  # 3 the best; 1 a known user
        await storage.record_round(game, 1, ranking=[0, 1], roles=["P", "L"], points=[3, 0],
                                   seats=[human(user) for user in seats])
    left, beats_the_best = await _game(storage, channel=10), await _game(storage, channel=11)
    # The first round, once numbered, waits until the other is stored or waits on it.
    await _rounds_meeting(storage, db_url, monkeypatch, _is_round_insert,
                          (left, [human(2), SeatRef(1, True, "Bot 1")]),
                          (beats_the_best, [human(1), human(3)]))

    (stored,) = (await storage.player_stats(GUILD, 1)).ratings
    assert stored.rounds == 3
    assert (await storage.rating_history(GUILD, 1))["classic"][-1] == stored.rating


async def _rounds_meeting(storage: Storage, db_url: str, monkeypatch: pytest.MonkeyPatch,
                          held: Callable[[object], bool], first_round: tuple[int, list[SeatRef]],
                          second_round: tuple[int, list[SeatRef]]) -> list[RoundOutcome]:
    """Round 1 of two games stored at once: the first's statement that is `held` holds its
    transaction until the second, started then, meets it (`hold_after`); both outcomes."""
    first: asyncio.Task[RoundOutcome] | None = None
    other: asyncio.Task[RoundOutcome] | None = None

    def first_held(statement: object) -> bool:
        return held(statement) and asyncio.current_task() is first

    holding = hold_after(monkeypatch, storage, db_url, first_held, lambda: other)
    (game, seats), (other_game, other_seats) = first_round, second_round
    first = asyncio.ensure_future(storage.record_round(
        game, 1, ranking=[0, 1], roles=["P", "L"], points=[3, 0], seats=seats))
    await asyncio.wait_for(holding.wait(), 10)  # the wall clock bounds a failing test
    other = asyncio.ensure_future(storage.record_round(
        other_game, 1, ranking=[0, 1], roles=["P", "L"], points=[3, 0], seats=other_seats))
    outcomes = await asyncio.gather(first, other)
    monkeypatch.undo()
    return list(outcomes)


def _is_users_upsert(statement: object) -> bool:
    return isinstance(statement, Insert) and statement.table.name == User.__tablename__


async def test_two_players_who_swapped_tables_are_stored_at_once_without_deadlock(
    storage: Storage, db_url: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Players 1 and 2 each left a table, where a bot finishes the round in their seat
    (a held seat: its user row is made to exist, not renamed), and sit at the other's:
    both tables end a round at once (two connections on PostgreSQL). The users were
    upserted in two statements, the humans renamed then the held left alone, each sorted
    but not together: the first round locked user 2 (a human there), the second user 1,
    then each waited on the other's row, and PostgreSQL broke the deadlock by failing one
    round (40P01, retried by the result queue after a « database unavailable » warning).
    The users are now upserted in one statement in id order: the second waits, both
    rounds are stored. On SQLite the writes queue whole (BEGIN IMMEDIATE), as before."""
    for channel in (20, 21):  # both players known, so that their rows are updated, locked
        game = await _game(storage, channel=channel)
        await storage.record_round(game, 1, ranking=[0, 1], roles=["P", "L"], points=[3, 0],
                                   seats=[human(1), human(2)])
    one_left, two_left = await _game(storage, channel=10), await _game(storage, channel=11)
    # The first round, its first users upserted, waits until the other is stored or waits
    # on it.
    outcomes = await _rounds_meeting(storage, db_url, monkeypatch, _is_users_upsert,
                                     (one_left, [human(2), SeatRef(1, True, "Bot 1")]),
                                     (two_left, [human(1), SeatRef(2, True, "Bot 2")]))

    assert [outcome.inserted for outcome in outcomes] == [True, True]
    assert [rating.rounds for rating in (await storage.player_stats(GUILD, 1)).ratings] == [4]
    assert [rating.rounds for rating in (await storage.player_stats(GUILD, 2)).ratings] == [4]


async def test_a_seat_held_by_a_bot_keeps_its_player_s_name(storage: Storage) -> None:
    """A bot finishing a round in a seat its player left carries the bot's label: the
    player's stored name stays, while a player first seen so is named by it (the one
    statement that upserts a round's users renames the humans only)."""
    await storage.upsert_user(1, "Ann")
    game = await _game(storage)
    await storage.record_round(game, 1, ranking=[0, 1, 2], roles=["P", None, "L"],
                               points=[3, 1, 0], seats=[human(2), SeatRef(1, True, "Bot 1"),
                                                        SeatRef(5, True, "Bot 5")])
    assert [(await storage.player_stats(GUILD, user)).name for user in (1, 2, 5)] == \
        ["Ann", "U2", "Bot 5"]
