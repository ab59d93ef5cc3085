"""The people a game's final standings do not rank: those who left their seat (or the queue)
during the game and did not come back, named below the standings with their own points
and, where a bot finished the round they left, what that bot scored in their seat.

Who ranks is the engine's (`Game.standings`: the seats of the last round, and those waiting
off the table). A leaver who did not come back is not among them, and the round they left
showed the seat with the bot's points on top of theirs (« 🤖 bob · Vice-président · +2 »,
total 3 pts): named by the seat's total alone, bob read as his own the points the bot
scored after he had gone (play-test 38's leftovers). The points are split as the chart and
the stored rounds split them (`bot.people`): the leaver's are the seat's total as they left
it, the bot's what the seat gained in the rounds it played (`RoundOver.gained`), and the
two add up to the seat's total the round showed. Nothing here decides a rank."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.i18n import LocaleLike, plural, t
from bot.people import Person, people
from bot.tables.table import Table
from engine import Game, Who


@dataclass(frozen=True)
class LeaverPoints:
    """A leaver's seat's points, split: `own`, theirs as they left; `stand_in`, what the
    bot finishing their round scored after (None where no bot did: they left between
    rounds, out of cards, or from the queue)."""

    name: str
    own: int
    stand_in: int | None

    @property
    def total(self) -> int:
        """The seat's total as the last round they (or their bot) played showed it."""
        return self.own + (self.stand_in or 0)


@dataclass(frozen=True)
class StandingSplits:
    """What the final standings' lines need besides `Game.standings`: `seats`, each ranked
    seat a leaver's stand-in held as the game's last round ended, its total split (the
    standings rank the seat, the engine's, and name it « 🤖 bob » with a total that counts
    bob's points and the bot's alike); `left`, those they do not rank (`_unranked`). Both
    empty for a game restored from a snapshot from before the table kept each round's
    holders and gains (`_kept`)."""

    seats: dict[int, LeaverPoints]
    left: list[LeaverPoints]


def standing_splits(table: Table, game: Game,
                    ranked: Sequence[tuple[Who, int]]) -> StandingSplits:
    """The splits for the standings `ranked` (`Game.standings`, read once by the caller),
    from the table's kept rounds' people (`bot.people`), found once: each stand-in seat
    found them again, and the unranked lines read the standings a second time (stop 56's
    review)."""
    if not _kept(table):
        return StandingSplits({}, [])
    found = people(table.round_holders)
    seats: dict[int, LeaverPoints] = {}
    for who, _ in ranked:
        if isinstance(who, int):
            split = _stand_in(table, found, who, game.total(who))
            if split is not None:
                seats[who] = split
    return StandingSplits(seats, _unranked(table, found, _ranked_people(table, ranked)))


def _unranked(table: Table, found: Sequence[Person], ranked: set[int]) -> list[LeaverPoints]:
    """Everyone with a line in the chart (`bot.people`, `found`) whom the standings do not
    rank (`ranked`, user ids), in the order they first played, from their last stretch at a
    seat: a human line's last total, or a stand-in's, split by what the stand-in's rounds
    gained."""
    rounds = table.round_totals
    lasts: dict[int, Person] = {}
    for person in found:
        user = person.holder.user_id
        if user is None or user in ranked or not (person.holder.human
                                                  or person.holder.stand_in):
            continue
        before = lasts.get(user)
        if before is None or before.cells[-1][0] < person.cells[-1][0]:
            lasts[user] = person
    left = []
    for person in lasts.values():
        index, seat = person.cells[-1]
        own, bot = _split(table, person, rounds[index][seat])
        left.append(LeaverPoints(person.holder.name, own, bot))
    return left


def round_stand_ins(table: Table, game: Game,
                    totals: Sequence[int]) -> dict[int, LeaverPoints]:
    """The seats leavers' stand-ins held as the round the results show ended (`totals`:
    the seats', as that round showed them), split as the standings split them: the round's
    line named one « 🤖 bob » with the seat's total, bob's points and the bot's alike,
    above standings that told them apart (play-test 38). Empty where the table kept no
    holders or gains for that round."""
    if len(table.round_totals) != game.round_no or not _kept(table):
        return {}
    found = people(table.round_holders)
    splits = {seat: _stand_in(table, found, seat, total) for seat, total in enumerate(totals)}
    return {seat: split for seat, split in splits.items() if split is not None}


def _stand_in(table: Table, found: Sequence[Person], seat: int,
              total: int) -> LeaverPoints | None:
    """The seat's `total` split, where a leaver's stand-in held it as the last round the
    table kept (`_kept`, whose people are `found`) ended with that total; else None."""
    rounds, held = table.round_totals, table.round_holders
    if seat >= len(held[-1]) or rounds[-1][seat] != total:
        return None
    holder = held[-1][seat]
    if holder is None or not holder.stand_in:
        return None
    person = next(p for p in found if p.cells[-1] == (len(rounds) - 1, seat))
    own, bot = _split(table, person, rounds[-1][seat])
    return LeaverPoints(holder.name, own, bot)


def _kept(table: Table) -> bool:
    """Whether the table kept each round of its game's holders and gains beside its totals:
    not in a game restored from a snapshot from before it did, nor before a round ended."""
    rounds = len(table.round_totals)
    return rounds > 0 and len(table.round_holders) == rounds == len(table.round_gained)


def _split(table: Table, person: Person, total: int) -> tuple[int, int | None]:
    """The seat's `total` at the person's last round: theirs, and what their stand-in's
    rounds gained (None for a human line: all theirs)."""
    if not person.holder.stand_in:
        return total, None
    bot = sum(table.round_gained[index][seat] for index, seat in person.cells)
    return total - bot, bot


def _ranked_people(table: Table, ranked: Sequence[tuple[Who, int]]) -> set[int]:
    """The user ids the standings `ranked` name: each ranked seat's holder as its last
    round ended (a leaver's stand-in ranks in their name) and now, and those waiting with
    points."""
    ids: set[int | None] = set()
    last = table.round_holders[-1] if table.round_holders else []
    for who, _ in ranked:
        if isinstance(who, int):
            holder = last[who] if who < len(last) else None
            ids.add(holder.user_id if holder is not None else None)
            if who < len(table.seats):  # (a round under way: who holds it now)
                ids.update((table.seats[who].user_id, table.seats[who].left_by))
        else:
            waiting = table.waiting_player(who)
            ids.add(waiting.user_id if waiting is not None else None)
    return {user for user in ids if user is not None}


def ranked_line(loc: LocaleLike, place: int, name: str, left: LeaverPoints) -> str:
    """« 2. **🤖 bob** · 6 pts · bob : 3 pts, 🤖 le bot qui a fini la manche à sa place :
    +3 pts »: a stand-in's ranked seat, the leaver's share and the bot's beside."""
    return t(loc, "table.standing_line_bot", place=place, name=name,
             total=plural(loc, "n.points", left.total), leaver=left.name,
             own=plural(loc, "n.points", left.own), bot=plural(loc, "n.points",
                                                               left.stand_in or 0))


def result_line(loc: LocaleLike, place: int, name: str, role: str, gained: int,
                left: LeaverPoints) -> str:
    """« 2. **🤖 bob** · Vice-président · +2 à cette manche, total 6 pts · bob : 4 pts,
    🤖 le bot qui a fini la manche à sa place : +2 pts »: a stand-in's round line, the
    seat's total split as the standings split it."""
    return t(loc, "table.result_line_bot", place=place, name=name, role=role, gained=gained,
             total=plural(loc, "n.points", left.total), leaver=left.name,
             own=plural(loc, "n.points", left.own),
             bot=plural(loc, "n.points", left.stand_in or 0))


def unranked_line(loc: LocaleLike, left: LeaverPoints) -> str:
    """« — **bob** · 1 pt · n’est plus à la table : hors classement », and where a bot
    finished their round, what it scored and the seat's total, which the round showed."""
    own = plural(loc, "n.points", left.own)
    if left.stand_in is None:
        return t(loc, "table.standing_left", name=left.name, total=own)
    return t(loc, "table.standing_left_bot", name=left.name, total=own,
             bot=plural(loc, "n.points", left.stand_in),
             seat=plural(loc, "n.points", left.total))
