"""What the monkey (`monkey.py`) checks once rounds chain: cards, the exchange's gifts, the
roles the table message names, and what the database keeps of each game.

Each function returns the broken invariants as sentences (empty when all hold), so that the
monkey can say after which step they broke.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import func, or_, select
from sqlalchemy.ext.asyncio import create_async_engine

from bot.packages.game.lines import role_name, seat_name
from bot.storage import ratings
from bot.storage.models import Game as GameRow
from bot.storage.models import GameSeat, Rating, Round, RoundResult
from bot.tables.players import Player, waiting_key
from bot.tables.table import Table
from engine import Game, Phase, Who
from engine.roles import exchange_pairs

from .stored import game_results, holder_of, points_problems


def table_problems(table: Table) -> list[str]:
    """Every card in exactly one place, the exchange's gifts those the rules set, and points
    that add up to the rounds' totals the table shows on its chart."""
    game = table.game
    if game is None:
        return []
    problems = game_problems(game) + exchange_problems(game)
    # Once a round has ended, each seat holds its total, unless it changed hands as the
    # round ended (a fresh bot for a proletario leaver starts afresh: `Game.take_seat`). A
    # game stopped mid-round has no such round (`result_seats` empty): seats may have
    # changed hands since the last one, and points with them.
    if game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER) and table.round_totals \
            and table.result_seats:
        totals = table.round_totals[-1]

        def who(player: Player) -> tuple[object, ...]:  # a bot's name may be reused
            return (holder_of(player), player.joined)

        held = [who(p) for p in table.result_seats]
        for seat, points in enumerate(game.points):
            same = seat < len(held) and held[seat] == who(table.seats[seat])
            if points != totals[seat] and (same or points != 0):
                problems.append(f"points {game.points}, last round's totals {totals}")
                break
    if len(table.round_totals) > game.round_no:
        problems.append(f"{len(table.round_totals)} rounds of totals in round {game.round_no}")
    return problems


def game_problems(game: Game) -> list[str]:
    problems = []
    held = [c for hand in game.hands for c in hand] + list(game.pile)
    if len(held) != game.deck.size:
        problems.append(f"{len(held)} cards held or played, the deck has {game.deck.size}")
    doubles = [c for c, n in Counter(held).items() if n > 1]
    if doubles:
        problems.append(f"cards in two places: {doubles}")
    if not all(game.deck.contains(c) for c in held):
        problems.append("a card from outside the deck")
    return problems


def exchange_problems(game: Game) -> list[str]:
    """This round's gifts (`game.swaps`) are those the last round's ranking owes: the low
    role gives the high one its count (two between Président and Trou, one between the
    vices), and gets as many back; none twice, none between other seats. Once every gift
    has gone (play under way), each owed gift was made."""
    if game.phase not in (Phase.EXCHANGE, Phase.PLAY) or game.ranking is None \
            or game.round_no < 2:
        return []
    owed = Counter[tuple[int, int, int]]()
    for low, high, count in exchange_pairs(game.ranking, game.rules.vp_at_three):
        owed[(low, high, count)] += 1
        owed[(high, low, count)] += 1
    made = Counter((giver, receiver, len(cards)) for giver, receiver, cards, _ in game.swaps)
    problems = [f"a gift the rules do not owe: {gift} (owed {sorted(owed)})"
                for gift in made - owed]
    if game.phase is Phase.PLAY and made != owed:
        problems.append(f"gifts made {sorted(made)}, owed {sorted(owed)}")
    for giver, _receiver, cards, _mode in game.swaps:
        if len(set(cards)) != len(cards):
            problems.append(f"seat {giver} gave one card twice: {cards}")
    return problems


def role_problems(table: Table, text: str) -> list[str]:
    """The roles the table message names beside each player are the engine's: a player line
    (« **name** · 13 cards · Président · 4 points ») holds exactly its seat's role name."""
    game = table.game
    if game is None or game.phase not in (Phase.PLAY, Phase.EXCHANGE):
        return []
    names = {role_name(table.locale, table, role) for role in ("P", "VP", "N", "VL", "L")}
    problems = []
    lines = text.splitlines()
    for seat in game.players:
        label = f"**{seat_name(table, seat)}** · "
        found = [line for line in lines if label in line]
        if len(found) != 1:
            continue  # two players of one name: the line cannot tell them apart
        parts = found[0].split(" · ")
        shown = [p for p in parts if p in names]
        role = game.roles[seat]
        wanted = [role_name(table.locale, table, role)] if role else []
        if shown != wanted:
            problems.append(f"the table message names {shown} for {table.name(seat)}, "
                            f"the engine {wanted}")
    return problems


@dataclass(frozen=True)
class Finished:
    """A game the monkey saw end, as its table announced it."""

    table_id: int
    game_no: int
    points: tuple[int, ...]
    winners: frozenset[Who]
    rounds: int
    stopped: bool


async def stored_problems(url: str, finished: Iterable[Finished]) -> list[str]:
    """Each finished game is stored once: one game row, ended, its rounds once each, the
    points its table announced those its seats' holders scored (`points_problems`), its
    winners marked; and each player's ratings count the
    rated rounds stored for them, no more, no fewer (a bot's seat that finished a round for
    a player who left is stored under their id, and rates them as having left it; one the
    host or a moderator removed is not rated for it, `ratings.seat`)."""
    engine = create_async_engine(url)
    problems = []
    try:
        async with engine.connect() as db:
            for game in finished:
                rows = (await db.execute(
                    select(GameRow.id, GameRow.ended_at).where(
                        GameRow.table_id == game.table_id, GameRow.game_no == game.game_no)
                )).all()
                if len(rows) != 1 or rows[0].ended_at is None:
                    problems.append(f"game {game.table_id}/{game.game_no} ended but stored "
                                    f"as {rows}")
                    continue
                row_id = rows[0].id
                rounds = list((await db.execute(
                    select(Round.round_no).where(Round.game_id == row_id)
                )).scalars())
                if sorted(rounds) != list(range(1, game.rounds + 1)):
                    problems.append(f"game {game.table_id}/{game.game_no}: rounds stored "
                                    f"{sorted(rounds)}, played {game.rounds}")
                results = await game_results(db, row_id)
                problems += [f"game {game.table_id}/{game.game_no}: {problem}" for problem
                             in points_problems(results, dict(enumerate(game.points)))]
                # Rows past the game's seats: winners waiting in the queue, by user id.
                winners = {row.seat if row.seat < row.seats else waiting_key(row.user_id)
                           for row in (await db.execute(
                               select(GameSeat.seat, GameSeat.user_id, GameRow.seats)
                               .join(GameRow, GameRow.id == GameSeat.game_id)
                               .where(GameSeat.game_id == row_id, GameSeat.is_winner)))}
                if winners != game.winners:
                    problems.append(f"game {game.table_id}/{game.game_no}: stored winners "
                                    f"{sorted(map(str, winners))}, announced "
                                    f"{sorted(map(str, game.winners))}")
            twice = (await db.execute(
                select(GameRow.table_id, GameRow.game_no, func.count())
                .group_by(GameRow.table_id, GameRow.game_no).having(func.count() > 1)
            )).all()
            problems += [f"game {table}/{no} stored {n} times" for table, no, n in twice]
            rated = {user: int(n) for user, n in (await db.execute(
                select(RoundResult.user_id, func.count())
                .join(Round, Round.id == RoundResult.round_id)
                .where(Round.rated, RoundResult.user_id.is_not(None),
                       or_(RoundResult.is_bot.is_(False), RoundResult.departure.is_(None),
                           RoundResult.departure != ratings.REMOVED))
                .group_by(RoundResult.user_id)
            )).all() if user is not None}
            counted = {int(user): int(n) for user, n in (await db.execute(
                select(Rating.user_id, func.sum(Rating.rounds)).group_by(Rating.user_id)
            )).all()}
            for user in set(counted) | set(rated):
                if counted.get(user, 0) != rated.get(user, 0):
                    problems.append(f"user {user}'s ratings count {counted.get(user)} rounds, "
                                    f"{rated.get(user, 0)} rated rounds stored")
    finally:
        await engine.dispose()
    return problems
