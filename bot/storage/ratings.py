"""Rating maths: OpenSkill's Plackett-Luce model over each round's finishing order.

Plackett-Luce models a ranking of many players as successive choices of "who finishes
next", which is exactly how a round of Président ends; it needs no pairwise decomposition
and handles 2 to 8 players. Ratings live per (server, preset) because a `proletario`
round and a `classic` round reward different skills.

Bot policy: bots are left out of the update and the humans of a round are ranked among
themselves by their relative finishing order. Bots have no stable identity or skill to be
rated against, so beating them must not inflate anyone's rating (nor losing to them deflate
it), yet the order between humans at a table that also seats bots is still a genuine
result; dropping those rounds entirely would freeze ratings for every `proletario` table
(bots fill its seats) and for every game in which someone left and a bot took the seat.
A round with fewer than two eligible humans moves nothing. A user occupying two seats of
the same round (possible in tests and sandboxes) is not rated for that round.

A human who leaves during a round (a bot finishing it in their seat, or the host removing
them) is rated as finishing it behind every human who stayed, level with any other who left
it: the bot's place is not theirs, and leaving a round one is losing must not keep a rating
safe (play-test 26: it did, and with one other human at the table it also took the round
from the one who stayed). A round that every human left moves nothing. One who leaves it
already out of cards left the bot nothing to play: their seat is stored as theirs, a
human's, and rated at the place they won (`bot.tables.persistence.seat_refs`).

A human someone else made go during a round (the host removing them, a moderator kicking or
banning them from the server: `round_results.departure` « removed ») is not rated for it:
the round is not theirs, and the humans who stayed are rated among themselves, as beside a
bot (`seat`). Leaving was not their choice, so ranking them last would let a host, or a
rival hosting, push anyone's rating down by removing them while losing; and neither would
their place as the round stood be theirs, a bot having finished it. Rounds stored before
the reason was (migration 0010) read every left seat as left by its holder.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

_MODEL = PlackettLuce()

# Display scale: a newcomer (mu 25, sigma 25/3, ordinal 0) shows 1000, and each point of
# ordinal is worth 40, so a round won among four newcomers shows about +120. The ordinal
# (mu - 3 sigma) is conservative: it rises as the system grows confident in a player.
DISPLAY_BASE = 1000
DISPLAY_SCALE = 40


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float
    sigma: float

    @property
    def display(self) -> int:
        return display_rating(self.mu, self.sigma)


NEWCOMER = Skill(_MODEL.mu, _MODEL.sigma)


def display_rating(mu: float, sigma: float) -> int:
    """The integer shown in stats and leaderboards."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 * sigma))


def rate(places: Mapping[int, int], skills: Mapping[int, Skill]) -> dict[int, Skill]:
    """New skills for the users in `places` (user id -> finishing place, 1 is best).

    Only relative order matters: places 1, 3, 4 among the humans of a round with a bot in
    second place rate exactly like 1, 2, 3.
    """
    if len(places) < 2:
        return {}
    users: Sequence[int] = sorted(places, key=lambda user: places[user])
    teams = [
        [_MODEL.rating(mu=skills[user].mu, sigma=skills[user].sigma, name=str(user))]
        for user in users
    ]
    rated = _MODEL.rate(teams, ranks=[float(places[user]) for user in users])
    return {user: Skill(team[0].mu, team[0].sigma) for user, team in zip(users, rated, strict=True)}


#: A seat of a round as rating reads it: who played it (a user id; for an erased player,
#: a key of that round alone, below zero; None for a bot's own seat), whether they left
#: during the round, a bot finishing it for them, and the seat's finishing place.
Seat = tuple[int | None, bool, int]

#: `round_results.departure` of a seat whose holder someone else made go (`records.Departure`).
REMOVED = "removed"


def seat(user: int | None, is_bot: bool, place: int, departure: str | None) -> Seat:
    """A stored seat as rating reads it: a bot finishing the round of a player someone else
    removed counts for nobody, as a bot's own seat (module docstring). A removed player
    already out of cards holds a human's seat, their place won: it counts as theirs."""
    if is_bot and departure == REMOVED:
        return (None, True, place)
    return (user, is_bot, place)


def rated_places(seats: Iterable[Seat]) -> dict[int, int]:
    """The places a round rates, by person: each person in one seat only, who left behind
    every person who stayed (level among themselves). Nobody unless at least two people
    count and one of them stayed. The live update (`rating_update`) and `replay` both read
    rounds through it, so a chart replays what the ratings did."""
    listed = list(seats)
    by_user: dict[int, list[tuple[bool, int]]] = {}
    for user, left, place in listed:
        if user is not None:
            by_user.setdefault(user, []).append((left, place))
    single = {user: found[0] for user, found in by_user.items() if len(found) == 1}
    if len(single) < 2 or all(left for left, _ in single.values()):
        return {}
    behind = max(place for _, _, place in listed) + 1
    return {user: behind if left else place for user, (left, place) in single.items()}


#: One stored round for `replay`: its preset, and its seats.
StoredRound = tuple[str, Sequence[Seat]]


def replay(rounds: Iterable[StoredRound], user_id: int) -> dict[str, list[int]]:
    """A member's displayed rating after each of their rated rounds, per preset.

    The ratings table keeps only the latest skill, so the history is recomputed from the
    stored rounds in the order they were recorded, every person of each round included (a
    rating moves with the others' at the table), by the live update's `rated_places`.

    A seat of a player erased since (`forget`) is keyed to that round alone (nothing ties
    their rounds together any more): they still took part, so the round still moves the
    others, each such seat replayed as a newcomer. The replayed values of their opponents
    may then part slightly from the ratings stored, which stay as they were
    (docs/privacy.md); so may those of rounds a player left, stored before play-test 26
    rated who left a round (docs/deploy.md)."""
    skills: dict[tuple[str, int], Skill] = {}
    history: dict[str, list[int]] = {}
    for preset, seats in rounds:
        places = rated_places(seats)
        after = rate(places, {user: skills.get((preset, user), NEWCOMER) for user in places})
        for user, skill in after.items():
            if user >= 0:
                skills[(preset, user)] = skill
        if user_id in after:
            history.setdefault(preset, []).append(after[user_id].display)
    return history
