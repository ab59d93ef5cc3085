"""What the database holds for a game, read with plain SQL: what restart tests assert on."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncConnection, create_async_engine

from bot.storage.models import Game, Rating, Round, RoundResult
from bot.tables.players import Player


@dataclass(frozen=True)
class Result:
    """One stored round result: who held `seat` in round `round_no` and what it scored."""

    round_no: int
    seat: int
    user_id: int | None
    name: str
    points: int

    @property
    def holder(self) -> tuple[str, int | str]:
        """A person by id (their stand-in bot finishing a round for them included), a bot
        by name: bots never change seats, so a name is one bot within a seat's run."""
        return ("user", self.user_id) if self.user_id is not None else ("bot", self.name)


Holder = tuple[str, int | str]


def holder_of(player: Player) -> Holder:
    """Who holds a seat, as `Result.holder` names them once its round is stored."""
    person = player.user_id if player.user_id is not None else player.left_by
    return ("user", person) if person is not None else ("bot", player.name)


def points_problems(results: list[Result], shown: dict[int, int],
                    holders: dict[int, Holder] | None = None) -> list[str]:
    """Whether each seat's points on the table are those its holder scored (`Game.take_seat`):
    the stored rounds of its current holder's run in that seat, plus, for a person who
    waited in proletario's queue, the runs they played before in this game, which they
    bring back; a person who left the queue and came again starts afresh, so any trailing
    part of their earlier runs may count. A bot's points never follow anyone, and a fresh
    bot may bear a name freed since, its points starting afresh. `holders`:
    who holds each seat now, where a seat may have changed hands since its last stored
    round (by default, its holder then)."""
    problems = []
    runs: list[tuple[tuple[str, int | str], int, list[Result]]] = []  # holder, seat, rounds
    for result in sorted(results, key=lambda r: (r.seat, r.round_no)):
        if runs and runs[-1][1] == result.seat and _goes_on(runs[-1][2], result.holder):
            runs[-1][2].append(result)
        else:
            runs.append((result.holder, result.seat, [result]))
    for seat in sorted({r.seat for r in results} | {s for s, p in shown.items() if p}):
        own = [run for run in runs if run[1] == seat]
        if not own:
            problems.append(f"seat {seat} shows {shown[seat]} points, none stored")
            continue
        holder, _, last = own[-1]
        start = last[0].round_no
        if holders is not None and not _goes_on(last, holders.get(seat, holder)):  # taken
            holder, last, start = holders[seat], [], last[-1].round_no + 1
        earlier = [sum(r.points for r in rounds) for who, _, rounds in
                   sorted(runs, key=lambda run: run[2][0].round_no)
                   if who == holder and holder[0] == "user" and rounds[-1].round_no < start]
        total = sum(r.points for r in last)
        allowed = {total + sum(earlier[k:]) for k in range(len(earlier) + 1)}
        if holder[0] == "bot":  # a fresh bot may take a number freed since (« Bot 2 »)
            allowed.add(0)
        if shown.get(seat, 0) not in allowed:
            stored = sorted((r.round_no, r.seat, r.holder, r.points) for r in results)
            problems.append(f"seat {seat} shows {shown.get(seat, 0)} points, its holder "
                            f"{holder} scored {sorted(allowed)} (rounds {stored})")
    return problems


def _goes_on(run: list[Result], holder: Holder) -> bool:
    """Whether `holder` holds the seat of `run` on: the same holder, or nobody under the
    same name, as a leaver's seat freed mid-game stays in the game's rounds, unplayed,
    with the points they left it."""
    return holder == run[-1].holder or holder == ("bot", run[-1].name)


@dataclass(frozen=True)
class StoredGame:
    round_nos: list[int]  # one entry per stored round row: a duplicate would show twice
    points: dict[int, int]  # seat → points summed over the stored rounds
    ended: int  # 1 once finished
    table_games: int  # game rows of the game's table: a restart must not start another
    rated_rounds: dict[int, int]  # user → rounds counted in their rating (whole guild)
    results: list[Result]  # every seat of every stored round


async def stored_game(url: str, game_id: int) -> StoredGame:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as connection:
            rounds = (await connection.execute(
                select(Round.round_no).where(Round.game_id == game_id).order_by(Round.round_no)
            )).scalars().all()
            points = (await connection.execute(
                select(RoundResult.seat, func.sum(RoundResult.points))
                .join(Round, Round.id == RoundResult.round_id)
                .where(Round.game_id == game_id).group_by(RoundResult.seat)
            )).all()
            ended = (await connection.execute(
                select(func.count()).select_from(Game)
                .where(Game.id == game_id, Game.ended_at.is_not(None))
            )).scalar_one()
            results = await game_results(connection, game_id)
            rated = (await connection.execute(select(Rating.user_id, Rating.rounds))).all()
            table_id = select(Game.table_id).where(Game.id == game_id).scalar_subquery()
            games = (await connection.execute(
                select(func.count()).select_from(Game).where(Game.table_id == table_id)
            )).scalar_one()
    finally:
        await engine.dispose()
    return StoredGame(list(rounds), {seat: int(total) for seat, total in points}, ended,
                      games, {user: count for user, count in rated}, results)


async def game_results(connection: AsyncConnection, game_id: int) -> list[Result]:
    rows = (await connection.execute(
        select(Round.round_no, RoundResult.seat, RoundResult.user_id, RoundResult.name,
               RoundResult.points)
        .join(Round, Round.id == RoundResult.round_id).where(Round.game_id == game_id)
    )).all()
    return [Result(int(no), int(seat), user, str(name), int(points))
            for no, seat, user, name, points in rows]
