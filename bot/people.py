"""Who played each round of a game, as one line per person for its points chart.

A seat may change hands between rounds (RULES §10: proletario's queue takes a bot's seat, a
leaver's goes to a bot, the last place gives theirs up and sits again later bringing their
points). Points belong to whoever scored them (play-test 11), so a chart drawn per seat
under today's holder gave a newcomer the bot's rounds. Both charts — the end of a game's
(`Table.round_holders`) and a past game's (`History.game_points`, from the stored rounds) —
group the rounds here the same way, and value each line with the totals the table showed
(`drawn`), so that they draw the same lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeAlias, cast

# A holder as a table's snapshot stores it (`Table.round_holders`): user id, whether a bot,
# name. The row's type says what it may hold; the tuple, what it holds where (as the rows
# of `engine.snapshot`).
HolderRow: TypeAlias = list[int | bool | str | None]
HolderFields: TypeAlias = tuple[int | None, bool, str]


@dataclass(frozen=True)
class Holder:
    """Who held a seat as a round ended, as the stored round has it (`SeatRef`'s fields):
    a human by user id; a bot (``is_bot``) by its name at that seat. A bot finishing the
    round of a player who left carries their id (`persistence.seat_refs`): a `stand_in`."""

    user_id: int | None
    is_bot: bool
    name: str

    @property
    def stand_in(self) -> bool:
        return self.is_bot and self.user_id is not None

    @property
    def human(self) -> bool:
        """A person known by their id (an erased one is not: their rows lost it)."""
        return not self.is_bot and self.user_id is not None

    def to_list(self) -> HolderRow:
        return [self.user_id, self.is_bot, self.name]

    @classmethod
    def from_list(cls, data: HolderRow) -> Holder:
        user_id, is_bot, name = cast(HolderFields, data)
        return cls(None if user_id is None else int(user_id), bool(is_bot), str(name))


# A round's holders, seat by seat; None where nobody played the seat (a seat freed for good:
# it has no role, and its points stay frozen).
Round = Sequence[Holder | None]


@dataclass(frozen=True)
class Person:
    """One line: ``holder`` as of their latest round (the name the line goes by), and the
    (round index, seat) of every round they played, in order."""

    holder: Holder
    cells: tuple[tuple[int, int], ...]


def people(rounds: Sequence[Round]) -> list[Person]:
    """Everyone who played a round, in the order they first played (then by seat): a
    human is one line however often their seat changed; a bot, a stand-in or an erased
    player (no id to follow) one line per stretch of rounds at a seat. A seat's bot is
    never the same bot twice: a fresh one may take an earlier one's name (« Bot 1 »)."""
    cells: dict[object, list[tuple[int, int]]] = {}
    latest: dict[object, Holder] = {}
    runs: dict[int, tuple[Holder, object]] = {}  # seat → its holder in the last round, key
    for index, held in enumerate(rounds):
        for seat, holder in enumerate(held):
            if holder is None:
                runs.pop(seat, None)
                continue
            key: object
            if holder.human:
                key = ("user", holder.user_id)
            else:
                before = runs.get(seat)
                key = before[1] if before is not None and before[0] == holder \
                    else ("run", seat, index)
            runs[seat] = (holder, key)
            cells.setdefault(key, []).append((index, seat))
            latest[key] = holder
    order = sorted(cells, key=lambda key: cells[key][0])
    return [Person(latest[key], tuple(cells[key])) for key in order]


def seated(found: Sequence[Person], rounds: int) -> bool:
    """Whether each line is one seat's, for every round, in seat order: no seat changed
    hands, and the chart reads as it did per seat (its names stand in as « Siège 3 »)."""
    return all(person.cells == tuple((index, seat) for index in range(rounds))
               for seat, person in enumerate(found))


def drawn(person: Person, totals: Sequence[Sequence[int | None]]) -> tuple[int | None, ...]:
    """The game's totals at the person's seat after each round they played (``totals``:
    round by round, seat by seat, as the table showed them: `Game.points`, which a seat
    changing hands sets to what its new holder brings, `Game.take_seat`); None for the
    rounds they did not play. Both charts value a line so, the live one from the table's
    `round_totals`, a past game's from its stored rounds."""
    values: list[int | None] = [None] * len(totals)
    for index, seat in person.cells:
        values[index] = totals[index][seat]
    return tuple(values)


def summed(rounds: Sequence[Round], gained: Sequence[Sequence[int]]
           ) -> list[tuple[Person, tuple[int | None, ...]]]:
    """Each person's points after every round they played, from what each seat gained in
    each round, for the rounds stored before they kept their totals (migration 0005), as
    the game counted them
    (`Game.take_seat`): a bot, or a human taking a seat afresh, starts at 0; a human who
    gave up their seat to the queue (the last place, for someone waiting: the seat's next
    holder is a human) brings their points back when they sit again, one who left (their
    seat went to a bot, or to nobody) starts again at 0; the bot finishing a leaver's round
    plays on from the leaver's points, which the round's results show, without adding to
    them (the leaver's statistics do not count that round either)."""
    found = people(rounds)
    points: dict[int, int] = {}  # each human's points as they last left a round
    ends: dict[int, tuple[int, int]] = {}  # each human's last round and seat so far

    def brought(user_id: int, index: int) -> int:
        """What a human holds as round ``index`` starts, by who took their seat after."""
        if user_id not in ends:
            return 0
        at, seat = ends[user_id]
        after = rounds[at + 1][seat] if at + 1 < index else None
        return points[user_id] if at == index - 1 or (after is not None and not after.is_bot) \
            else 0

    values: list[list[int | None]] = [[None] * len(rounds) for _ in found]
    owner = {cell: line for line, person in enumerate(found) for cell in person.cells}
    for index, held in enumerate(rounds):
        for seat, holder in enumerate(held):
            if holder is None:
                continue
            line = owner[(index, seat)]
            previous = values[line][index - 1] if index else None
            if holder.user_id is not None and (holder.human or previous is None):
                total = brought(holder.user_id, index) + gained[index][seat]
                if holder.human:
                    points[holder.user_id] = total
            else:  # a bot's (or an erased player's) stretch, from 0
                total = (previous or 0) + gained[index][seat]
            values[line][index] = total
        for seat, holder in enumerate(held):
            if holder is not None and holder.human and holder.user_id is not None:
                ends[holder.user_id] = (index, seat)
    return [(person, tuple(line)) for person, line in zip(found, values, strict=True)]
