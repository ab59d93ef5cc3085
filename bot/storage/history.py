"""What the history and statistics commands read: finished games, a game's points, a
member's totals, ratings over time and the leaderboard. Read-only queries, each one short
transaction returning plain records (`records.py`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection
from typing import Any

from sqlalchemy import ColumnElement, Row, and_, case, distinct, func, or_, select
from sqlalchemy.orm import aliased
from sqlalchemy.orm.util import AliasedClass

from bot import people
from bot.people import Holder
from bot.storage import ratings
from bot.storage.access import Access
from bot.storage.forget import erased
from bot.storage.models import Game, GameSeat, GameTable, Rating, Round, RoundResult, User
from bot.storage.records import (
    GamePoints,
    GameSummary,
    Leaderboard,
    LeaderboardRow,
    PlayerStats,
    PresetRating,
    PresetRoles,
    Winner,
)

# How many absent members one query asks about (`leaderboard`): under the 999 bound
# parameters of SQLite before 3.32, far under asyncpg's 32,767.
ABSENT_CHUNK = 500


class History(Access):
    """The reads of `Storage` (bot/storage/repository.py) behind /president history, stats
    and leaderboard."""

    async def game_history(
        self, *, channel_id: int | None = None, table_id: int | None = None, limit: int = 10,
        offset: int = 0,
    ) -> list[GameSummary]:
        """Finished games of a channel (every table it had) or of one table, newest first,
        skipping the newest ``offset`` (the pages of /president history). Each is numbered
        by its place among them, oldest first: a game keeps its number as newer ones end
        (numbered newest first, « 1. » was another game after each game). A cancelled game
        is among them, marked (play-test 39: the history said no game had been played where
        the stats counted its rounds)."""
        if (channel_id is None) == (table_id is None):
            raise ValueError("give exactly one of channel_id and table_id")

        def finished(game: type[Game] | AliasedClass[Game]) -> ColumnElement[bool]:
            """Those listed of ``game``'s rows (the `Game` model or an alias of it): the
            table's own alias, so that a count of them inside the list is not correlated
            with the list's table."""
            if table_id is not None:
                return and_(game.ended_at.is_not(None), game.table_id == table_id)
            tables = aliased(GameTable)
            return and_(game.ended_at.is_not(None), game.table_id.in_(
                select(tables.id).where(tables.channel_id == channel_id)))

        rounds = select(func.count(Round.id)).where(Round.game_id == Game.id).scalar_subquery()
        # Listed in (ended_at, id) order: the count of those up to a game is its number.
        before = aliased(Game)
        number = select(func.count(before.id)).where(finished(before), or_(
            before.ended_at < Game.ended_at,
            and_(before.ended_at == Game.ended_at, before.id <= Game.id),
        )).scalar_subquery()
        statement = select(
            Game.id,
            Game.table_id,
            Game.preset,
            Game.rules,
            Game.started_at,
            Game.ended_at,
            Game.stopped_early,
            Game.cancelled,
            rounds.label("rounds"),
            number.label("number"),
        ).where(finished(Game))
        statement = statement.order_by(Game.ended_at.desc(), Game.id.desc()) \
            .limit(limit).offset(offset)
        async with self._read() as connection:
            games = (await connection.execute(statement)).all()
            winners: dict[int, list[Winner]] = {game.id: [] for game in games}
            if games:
                seats = await connection.execute(
                    select(
                        GameSeat.game_id,
                        GameSeat.seat,
                        GameSeat.user_id,
                        GameSeat.is_bot,
                        GameSeat.name,
                    )
                    .where(GameSeat.game_id.in_(list(winners)), GameSeat.is_winner.is_(True))
                    .order_by(GameSeat.game_id, GameSeat.seat)
                )
                for seat in seats:
                    winners[seat.game_id].append(
                        Winner(seat.seat, seat.user_id, seat.is_bot, seat.name)
                    )
        return [
            GameSummary(
                game_id=game.id,
                number=game.number,
                table_id=game.table_id,
                preset=game.preset,
                started_at=game.started_at,
                ended_at=game.ended_at,
                stopped_early=game.stopped_early,
                rounds=game.rounds,
                winners=tuple(winners[game.id]),
                cancelled=game.cancelled,
                rules=game.rules,
            )
            for game in games
        ]

    async def game_seat_holders(self, game_id: int) -> dict[int, int]:
        """The people who held a seat of a game under way as it started, by seat (its
        `game_seats`, rewritten only at its end): the restore's way to name who left a
        seat under a snapshot too old to say (`restore._name_leavers`)."""
        async with self._read() as connection:
            rows = await connection.execute(
                select(GameSeat.seat, GameSeat.user_id)
                .where(GameSeat.game_id == game_id, GameSeat.is_bot.is_(False),
                       GameSeat.user_id.is_not(None)))
            return {row.seat: int(row.user_id) for row in rows}

    async def game_points(self, game_id: int, channel_id: int) -> GamePoints | None:
        """Each person's points after every round they played of a finished game of this
        channel, as the table showed them (the chart of a past game, one line per person
        however the seats changed hands: `bot.people`); None for a game of another channel
        (the id comes from a control, so it is checked) or one without a round. A game
        with rounds stored before they kept their totals (migration 0005) is summed from
        their points (`people.summed`)."""
        game = (
            select(Game.id, Game.preset, Game.rules)
            .join(GameTable, GameTable.id == Game.table_id)
            .where(Game.id == game_id, GameTable.channel_id == channel_id,
                   Game.ended_at.is_not(None))
        )
        async with self._read() as connection:
            found = (await connection.execute(game)).first()
            if found is None:
                return None
            results = (await connection.execute(
                select(Round.round_no, RoundResult.seat, RoundResult.user_id,
                       RoundResult.is_bot, RoundResult.name, RoundResult.role,
                       RoundResult.points, RoundResult.total)
                .join(RoundResult, RoundResult.round_id == Round.id)
                .where(Round.game_id == game_id)
                .order_by(Round.round_no, RoundResult.seat)
            )).all()
        if not results:
            return None
        seats = max(row.seat for row in results) + 1
        by_round: dict[int, tuple[list[Holder | None], list[int], list[int | None]]] = {}
        for row in results:
            held, gained, totals = by_round.setdefault(
                row.round_no, ([None] * seats, [0] * seats, [None] * seats))
            # A seat freed for good is stored with no role: nobody played it that round.
            if row.role is not None:
                held[row.seat] = Holder(row.user_id, row.is_bot, row.name)
            gained[row.seat] = row.points
            totals[row.seat] = row.total
        stored = [by_round[number] for number in sorted(by_round)]
        rounds = [held for held, _, _ in stored]
        if all(row.total is not None for row in results):
            lines = [(person, people.drawn(person, [totals for _, _, totals in stored]))
                     for person in people.people(rounds)]
        else:
            lines = people.summed(rounds, [gained for _, gained, _ in stored])
        return GamePoints(
            preset=found.preset,
            rules=found.rules,
            names=tuple(person.holder.name for person, _ in lines),
            totals=tuple(values for _, values in lines),
            erased=frozenset(index for index, (person, _) in enumerate(lines)
                             if erased(person.holder.user_id, person.holder.is_bot,
                                       person.holder.name)),
            stand_ins=frozenset(index for index, (person, _) in enumerate(lines)
                                if person.holder.stand_in),
            seated=people.seated([person for person, _ in lines], len(rounds)),
            bots=frozenset(index for index, (person, _) in enumerate(lines)
                           if person.holder.is_bot and not person.holder.stand_in))

    # Stats and rankings

    async def player_stats(
        self, guild_id: int, user_id: int, preset: str | None = None
    ) -> PlayerStats:
        """A member's totals on a server (one preset, or all when `preset` is None).

        Games count only when they ended and the member finished at least one round in them:
        a game abandoned before its first round has none. One cancelled (presi's leaver who
        never came back: « no result », RULES §10) is not among them but counted apart
        (`cancelled`), as the history lists it, its rounds among theirs (play-test 14). One
        stopped after a round, by its host or for want of players, is stored as ended
        (`Games.back_to_lobby`).

        A round the member left, a bot finishing it in their seat, counts as a round they
        played, as it does in their rating (`ratings.rated_places`: behind those who
        stayed); its role and points are the bot's, not theirs. A round someone else
        removed them from (the host, a moderator) does not count for them at all, as it
        does not in their rating (`ratings.seat`), nor a game they played only such rounds of.
        """
        games_filter = [Game.guild_id == guild_id]
        if preset is not None:
            games_filter.append(Game.preset == preset)
        own = RoundResult.is_bot.is_(False)  # else the bot that finished the round for them
        # Not a round the bot finished for them after someone else removed them.
        theirs = or_(own, RoundResult.departure.is_(None),
                     RoundResult.departure != ratings.REMOVED)
        totals = (
            select(
                func.count(RoundResult.round_id).label("rounds"),
                func.count(distinct(case(
                    (and_(Game.ended_at.is_not(None), Game.cancelled.is_(False)), Round.game_id),
                ))).label("games"),
                func.count(distinct(case((Game.cancelled.is_(True), Round.game_id))))
                .label("cancelled"),
                func.coalesce(func.sum(case((own, RoundResult.points), else_=0)), 0)
                .label("points"),
            )
            .select_from(RoundResult)
            .join(Round, Round.id == RoundResult.round_id)
            .join(Game, Game.id == Round.game_id)
            .where(RoundResult.user_id == user_id, theirs, *games_filter)
        )
        wins = (
            select(func.count())
            .select_from(GameSeat)
            .join(Game, Game.id == GameSeat.game_id)
            .where(
                GameSeat.user_id == user_id,
                GameSeat.is_winner.is_(True),
                GameSeat.is_bot.is_(False),
                *games_filter,
            )
        )
        rating_rows = select(Rating.preset, Rating.mu, Rating.sigma, Rating.rounds).where(
            Rating.guild_id == guild_id, Rating.user_id == user_id
        )
        if preset is not None:
            rating_rows = rating_rows.where(Rating.preset == preset)
        # None in a round they left. Labelled apart from the column: PostgreSQL reads a
        # GROUP BY name as an input column before an output one.
        role = case((own, RoundResult.role)).label("held")
        role_rows = (
            select(Game.preset, role, func.count().label("rounds"))
            .select_from(RoundResult)
            .join(Round, Round.id == RoundResult.round_id)
            .join(Game, Game.id == Round.game_id)
            .where(RoundResult.user_id == user_id, theirs, *games_filter)
            .group_by(Game.preset, role)
        )
        async with self._read() as connection:
            row = (await connection.execute(totals)).one()
            win_count = (await connection.execute(wins)).scalar_one()
            name = (
                await connection.execute(select(User.display_name).where(User.id == user_id))
            ).scalar_one_or_none()
            presets = (await connection.execute(rating_rows.order_by(Rating.preset))).all()
            role_counts = (await connection.execute(role_rows)).all()
        return PlayerStats(
            guild_id=guild_id,
            user_id=user_id,
            name=name,
            preset=preset,
            rounds=int(row.rounds),
            games=int(row.games),
            cancelled=int(row.cancelled),
            wins=int(win_count),
            points=int(row.points),
            ratings=tuple(
                PresetRating(
                    preset=rating.preset,
                    rating=ratings.display_rating(rating.mu, rating.sigma),
                    mu=rating.mu,
                    sigma=rating.sigma,
                    rounds=rating.rounds,
                )
                for rating in presets
            ),
            roles=_roles_by_preset([(r.preset, r.held, int(r.rounds)) for r in role_counts]),
        )

    async def rating_history(self, guild_id: int, user_id: int) -> dict[str, list[int]]:
        """The member's displayed rating after each of their rated rounds on a server, per
        preset (`ratings.replay`: recomputed from the rounds, replayed in a worker thread
        as a server may hold thousands)."""
        presets = select(Rating.preset).where(Rating.guild_id == guild_id,
                                              Rating.user_id == user_id)
        query = (
            select(Round.id, Game.preset, RoundResult.seat, RoundResult.user_id,
                   RoundResult.is_bot, RoundResult.name, RoundResult.place,
                   RoundResult.departure)
            .join(Game, Game.id == Round.game_id)
            .join(RoundResult, RoundResult.round_id == Round.id)
            .where(Game.guild_id == guild_id, Round.rated.is_(True), Game.preset.in_(presets))
            .order_by(Round.id, RoundResult.seat)
        )
        async with self._read() as connection:
            rows = (await connection.execute(query)).all()
        rounds: dict[int, tuple[str, list[ratings.Seat]]] = {}
        for row in rows:
            # An erased player's seat is keyed to its round alone, below zero as no
            # Discord id is; a bot's seat that played for them (they left) stays theirs,
            # unless they were removed (`ratings.seat`), as the live update read it.
            who = row.user_id if row.user_id is not None else \
                -1 - row.seat if erased(row.user_id, row.is_bot, row.name) else None
            rounds.setdefault(row.id, (row.preset, []))[1].append(
                ratings.seat(who, row.is_bot, row.place, row.departure))
        async with self._counted():
            return await asyncio.to_thread(ratings.replay, list(rounds.values()), user_id)

    async def leaderboard(
        self, guild_id: int, preset: str, *, limit: int = 10, caller_id: int | None = None,
        absent: Collection[int] = (),
        ahead_most: int = 0,
    ) -> Leaderboard:
        """Top `limit` rated members of a server for a preset, best first.

        Ordered by the rating shown, the conservative ordinal (mu - 3 sigma) on the display
        scale, so a single lucky round does not top the board; ties go to whoever played
        more rounds, and players still level on what the board shows share their place
        (« 1. zoe · 1. wanda », as the final standings of a game show a tie: numbered apart
        by account id, one read as ahead for no reason; or by a fraction of a point the
        rounded rating hides, « 3. bea · 927 · 1 round », « 4. cy · 927 · 1 round »: play-test
        26), listed by their unrounded ratings, then by account id. `caller` is set when the
        caller is rated but outside the top. The users in `absent` (no longer members of
        the server, `stats.members`) are left out, the others ranked among themselves.
        With `ahead_most`, a caller outside the top comes with up to that many of those
        ranked ahead of them and not shown (`Leaderboard.ahead`): one more query.
        """
        ordinal = Rating.mu - 3 * Rating.sigma
        # `ratings.display_rating` in SQL. SQL's round() may take a half away from zero
        # where Python's takes it to even: they part only on a rating exactly halfway
        # between two figures, which OpenSkill's arithmetic does not land on.
        shown = func.round(ratings.DISPLAY_BASE + ratings.DISPLAY_SCALE * ordinal)
        order = (shown.desc(), Rating.rounds.desc())
        rated = (Rating.guild_id == guild_id, Rating.preset == preset)
        ranked = (
            select(
                Rating.user_id,
                Rating.mu,
                Rating.sigma,
                Rating.rounds,
                User.display_name,
                shown.label("shown"),
                func.row_number().over(order_by=(*order, ordinal.desc(),
                                                 Rating.user_id.asc())).label("row"),
                func.rank().over(order_by=order).label("rank"),
                func.count().over().label("total"),
            )
            .join(User, User.id == Rating.user_id)
            .where(*rated)
            .subquery()
        )
        async with self._read() as connection:
            # The absent are left out in Python, not by a `NOT IN` of them all: a raid's
            # thousands of bans would pass the drivers' bound parameters (SQLite's
            # SQLITE_MAX_VARIABLE_NUMBER, asyncpg's 32,767). Asked about in bounded chunks,
            # only those rated here matter (« Review of stop 50, afterwards »).
            wanted_absent = sorted(set(absent))
            gone: dict[int, tuple[float, int]] = {}
            for start in range(0, len(wanted_absent), ABSENT_CHUNK):
                chunk = wanted_absent[start:start + ABSENT_CHUNK]
                found = await connection.execute(
                    select(Rating.user_id, shown, Rating.rounds)
                    .where(*rated, Rating.user_id.in_(chunk)))
                gone.update((row.user_id, (float(row[1]), row.rounds)) for row in found)
            # The top `limit` present are among the first `limit` + len(gone) rows.
            wanted = ranked.c.row <= limit + len(gone)
            if caller_id is not None:
                wanted = or_(wanted, ranked.c.user_id == caller_id)
            rows = (await connection.execute(
                select(ranked).where(wanted).order_by(ranked.c.row))).all()
            present = [row for row in rows if row.user_id not in gone]
            shown_ids = {row.user_id for row in present[:limit]}
            mine = next((row for row in present[limit:] if row.user_id == caller_id), None)
            between: list[int] = []
            if mine is not None and ahead_most > 0:
                # Those strictly ahead (a lower rank: ties share the caller's number), the
                # shown and the gone among the first of them.
                found = await connection.execute(
                    select(ranked.c.user_id).where(ranked.c.rank < mine.rank)
                    .order_by(ranked.c.row).limit(limit + len(gone) + ahead_most + 1))
                between = [user for (user,) in found
                           if user not in shown_ids and user not in gone]

        def entry(row: Row[Any]) -> LeaderboardRow:
            # Ranked among those present: the absent ahead of it (a better rating shown,
            # or as good and more rounds) no longer are.
            key = (float(row.shown), row.rounds)
            return LeaderboardRow(
                rank=int(row.rank) - sum(1 for ahead in gone.values() if ahead > key),
                user_id=row.user_id,
                name=row.display_name,
                rating=ratings.display_rating(row.mu, row.sigma),
                mu=row.mu,
                sigma=row.sigma,
                rounds=row.rounds,
            )

        top = tuple(entry(row) for row in present[:limit])
        caller = next((entry(row) for row in present[limit:]
                       if row.user_id == caller_id), None)
        return Leaderboard(
            guild_id=guild_id,
            preset=preset,
            rows=top,
            caller=caller,
            total=int(rows[0].total) - len(gone) if rows else 0,
            ahead=tuple(between[:ahead_most]),
            ahead_all=mine is None or (ahead_most > 0 and len(between) <= ahead_most),
        )


def _roles_by_preset(rows: list[tuple[str, str | None, int]]) -> tuple[PresetRoles, ...]:
    """Fold (preset, role, count) rows into one record per preset, by preset name."""
    rounds: dict[str, int] = {}
    roles: dict[str, dict[str, int]] = {}
    for preset, role, count in rows:
        rounds[preset] = rounds.get(preset, 0) + count
        if role is not None:
            roles.setdefault(preset, {})[role] = count
    return tuple(PresetRoles(preset=p, rounds=rounds[p], roles=roles.get(p, {}))
                 for p in sorted(rounds))
