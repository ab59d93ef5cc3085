"""``python -m engine.arena``: players measured against each other on duplicate deals.

Each deal is one round, played once per rotation of the players round the seats, so every
player meets every hand: ``--deals 1000`` at 4 seats plays 1,000 deals × 4 rotations, the
issue's « 1,000 duplicate deals with seats rotated » (until stop 26 ``--deals`` counted
rounds: its old ``--deals 1000`` is ``--deals 250`` now, the same deals). By
default the round is a game's first (no roles, no exchange), the protocol of issue 12's
figures and targets (greedy vs 3× random reproduces its 2.13 / 1.83 / 1.83 / 3.36);
``--rounds exchanged`` plays a round after an exchange instead (a random previous ranking
gives the roles, as in every round but a game's first), so each player also meets every
role and the exchange's choices count. ``--rounds games`` plays a whole game of
``--game-rounds`` rounds (5, classic's length) from each deal, every round scored, each
later one after the exchange its previous ranking calls for, as at a table: a round's
winner receives the loser's best cards in the next (the deck's shuffles are the deal's in every
rotation; whose cards they become after the first round depends on play).

One line per distinct player: mean finishing place (1 = best) and the share of rounds won,
each with its 95 % confidence half-width (from the spread of the deals' means: a deal's
rotations, and a game's rounds, are not independent of one another), and the median and 99th
percentile of its decision times (wall clock; each process on one core: ``--jobs 2`` on two
cores plays the deals twice as fast, as two runs side by side would).

``--clock cpu`` reads hard's time budget, and the decision times printed, from the process's
CPU time (``time.process_time``) instead of the wall clock (``time.perf_counter``), and the
line says so: ``p50_cpu_ms``/``p99_cpu_ms`` for ``p50_ms``/``p99_ms``. The issue's time
target is « on one core of this machine »: what one core gives a decision is the CPU time of
the one process deciding, whatever else the machine runs. On a shared, loaded machine the
wall clock's 80 ms buy hard a fraction of a core, so its figures measure the load; 80 ms of
CPU buy the samples an idle core would (less the caches other processes evict). Every arena
process is single-threaded, workers under ``--jobs`` too (nothing in the engine starts a
thread, and a pool's worker runs its deals in its main thread): the process's CPU time is the
decision's. A deal played with ``cpu`` checks that and refuses to run beside other threads,
whose CPU time the clock would count as the decision's.

As at a Discord table, where the lobby shows every bot with its level, each bot is told
who plays the other seats (hard models them accordingly); ``--anonymous`` tells it nothing,
as when the others are people.

    python -m engine.arena --preset classic --players hard,greedy,greedy,greedy \\
        --deals 1000 --seed 1
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import random
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import TextIO

from .bots import PLAYERS, Player, decide, make_player
from .game import Game, Phase
from .rules import Rules

__all__ = ["CLOCKS", "Score", "play_deals"]

#: The clocks hard's budget and the decision times can be read from (``--clock``): the wall
#: clock, or the process's CPU time (« one core »'s time, whatever the machine's load).
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}


@dataclass
class Score:
    """What one distinct player did over the run."""

    places: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    #: The deal each place came from: the places of one deal (its rotations, and with
    #: ``game_rounds`` the rounds of its games) are not independent of one another.
    deals: list[int] = field(default_factory=list)

    def extend(self, other: Score) -> None:
        """Add another run's records (the deals a worker played) after these."""
        self.places.extend(other.places)
        self.seconds.extend(other.seconds)
        self.deals.extend(other.deals)

    def line(self, name: str, preset: str, seats: int, deals: int, clock: str = "wall") -> str:
        """The run's figures for ``name``; ``clock`` names the clock the times were read
        from, CPU times being printed as ``p50_cpu_ms``/``p99_cpu_ms``."""
        n = len(self.places)
        mean = sum(self.places) / n
        first = sum(1 for p in self.places if p == 1) / n
        times = sorted(self.seconds) or [0.0]
        p50 = times[len(times) // 2] * 1000
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))] * 1000
        unit = "_ms" if clock == "wall" else f"_{clock}_ms"
        return (f"player={name} preset={preset} seats={seats} deals={deals} "
                f"mean_rank={mean:.2f} rank_ci={self._half_width(float):.2f} "
                f"first_pct={100 * first:.1f} "
                f"first_ci={100 * self._half_width(lambda p: float(p == 1)):.1f} "
                f"p50{unit}={_ms(p50)} p99{unit}={_ms(p99)}")

    def _half_width(self, value: Callable[[int], float]) -> float:
        """95 % half-width of the mean of ``value(place)``, from the spread of its means
        per deal (a cluster per deal; each place its own cluster where no deal is
        recorded): duplicate deals make a deal's rotations pull against one another, and a
        game's rounds follow one another, so places are not independent draws."""
        keys = self.deals if len(self.deals) == len(self.places) else range(len(self.places))
        sums: dict[int, list[float]] = {}
        for key, place in zip(keys, self.places, strict=True):
            sums.setdefault(key, []).append(value(place))
        means = [sum(v) / len(v) for v in sums.values()]
        k = len(means)
        if k < 2:
            return 0.0
        centre = sum(means) / k
        spread = math.sqrt(sum((m - centre) ** 2 for m in means) / (k - 1))
        return 1.96 * spread / math.sqrt(k)


def _ms(value: float) -> str:
    return f"{value:.0f}" if value >= 10 else f"{value:.2g}"


def play_deals(rules: Rules, names: Sequence[str], deals: int, seed: int, *,
               samples: int | None = None, budget: float = 0.08,
               timed: bool = False, exchanged: bool = False, game_rounds: int = 1,
               anonymous: bool = False, jobs: int = 1, clock: str = "wall") -> dict[str, Score]:
    """Play ``deals`` deals, each once per rotation of the players round the seats (and
    each as a game of ``game_rounds`` rounds); scores by player name.

    ``exchanged``: each round follows an exchange between random roles, else it is a first.
    ``game_rounds``: how many rounds each deal's game lasts, every one scored; after the
    first, each follows the exchange the previous round's ranking calls for.
    ``samples`` fixes hard's sample count (deterministic); otherwise, with ``timed``, hard
    searches for ``budget`` seconds of ``clock`` per decision: one of :data:`CLOCKS`, the
    wall clock or the process's CPU time, which also times the decisions. Each player is
    told who plays the other seats unless ``anonymous``. ``jobs`` worker processes share the deals
    (each deal is played whole by one of them, its seeds drawn here), so the scores are
    the same as with one, save what a time budget makes depend on the machine's load.
    """
    if game_rounds < 1:
        raise ValueError("a game lasts at least one round")
    if clock not in CLOCKS:
        raise ValueError(f"unknown clock {clock!r}: one of {', '.join(CLOCKS)}")
    seats = len(names)
    rng = random.Random(seed)
    plan: list[tuple[int, tuple[int, ...]]] = []
    for _ in range(deals):
        deal_seed = rng.randrange(2**32)
        previous = list(range(seats))
        rng.shuffle(previous)
        plan.append((deal_seed, tuple(previous)))
    play = _DealPlayer(rules.replace(game_end="unlimited"), tuple(names), samples=samples,
                       budget=budget, timed=timed, exchanged=exchanged,
                       game_rounds=game_rounds, anonymous=anonymous, clock=clock)
    scores = {name: Score() for name in names}
    if jobs > 1 and len(plan) > 1:
        # A fresh interpreter per worker (spawn), not a fork of a process that may hold
        # threads; chunks small enough that a slow deal does not leave a core idle.
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(jobs, mp_context=context) as pool:
            parts = list(pool.map(play, plan, chunksize=max(1, len(plan) // (jobs * 16))))
    else:
        parts = [play(deal) for deal in plan]
    for part in parts:
        for name, score in part.items():
            scores[name].extend(score)
    return scores


@dataclass(frozen=True, kw_only=True)
class _DealPlayer:
    """Plays one deal with `play_deals`' settings. A module-level class rather than a
    `functools.partial` (typeshed types its call `Any`) so that the spawned workers can
    unpickle it: a closure would not travel."""

    rules: Rules = field(kw_only=False)
    names: tuple[str, ...] = field(kw_only=False)
    samples: int | None
    budget: float
    timed: bool
    exchanged: bool
    game_rounds: int
    anonymous: bool
    clock: str = "wall"

    def __call__(self, deal: tuple[int, tuple[int, ...]]) -> dict[str, Score]:
        """One deal in every rotation of the seats: the scores it adds (see play_deals)."""
        deal_seed, previous = deal
        rules, names = self.rules, self.names
        seats = len(names)
        tick = CLOCKS[self.clock]
        if tick is time.process_time:
            _check_single_threaded()
        clock = tick if self.timed else None
        scores = {name: Score() for name in names}
        for shift in range(seats):
            seated = [names[(s + shift) % seats] for s in range(seats)]
            players = [make_player(name, deal_seed + s, samples=self.samples,
                                   budget=self.budget, clock=clock,
                                   others=None if self.anonymous else _others(seated, s))
                       for s, name in enumerate(seated)]
            game = Game.new(rules, seats, seed=deal_seed,
                            previous_ranking=list(previous) if self.exchanged else None)
            for number in range(self.game_rounds):
                if number:
                    game.next_round()
                _play_round(game, players, [scores[name] for name in seated], tick)
                assert game.ranking is not None
                for place, seat in enumerate(game.ranking, start=1):
                    scores[seated[seat]].places.append(place)
                    scores[seated[seat]].deals.append(deal_seed)
        return scores


def _others(seated: Sequence[str], seat: int) -> dict[int, str]:
    """Who plays every seat but ``seat``: what a table shows its players."""
    return {s: name for s, name in enumerate(seated) if s != seat}


def _check_single_threaded() -> None:
    """Refuse to read the process's CPU time as one decision's while another thread runs:
    the clock would count that thread's time too. (Linux lists a process's threads, its own
    as well as Python's, under ``/proc/self/task``.)"""
    threads = threading.active_count()
    if os.path.isdir("/proc/self/task"):
        threads = max(threads, len(os.listdir("/proc/self/task")))
    if threads > 1:
        raise RuntimeError(f"--clock cpu times a single-threaded process; this one runs "
                           f"{threads} threads")


def _play_round(game: Game, players: list[Player], scores: list[Score],
                clock: Callable[[], float] = time.perf_counter) -> None:
    while game.phase is Phase.EXCHANGE:
        giver = next(s for s in range(game.seats)
                     if (d := game.exchange_due(s)) is not None and d.ready)
        game.apply(giver, decide(players[giver], game, giver))
    while game.phase is Phase.PLAY:
        seat = game.to_act
        assert seat is not None, "the arena plays turn-based rules"
        start = clock()
        action = decide(players[seat], game, seat)
        scores[seat].seconds.append(clock() - start)
        game.apply(seat, action)


class _Options(argparse.Namespace):
    """The command line as `main` reads it: argparse's attributes are untyped otherwise."""

    preset: str
    players: str
    seats: int | None
    deals: int
    seed: int
    set: list[str]
    budget_ms: float
    samples: int | None
    rounds: str
    game_rounds: int
    anonymous: bool
    jobs: int
    clock: str


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--players", default="hard,greedy,greedy,greedy",
                        help=f"comma-separated, one per seat: {', '.join(PLAYERS)}")
    parser.add_argument("--seats", type=int,
                        help="table size; the last of --players fills the seats left")
    parser.add_argument("--deals", type=int, default=1000,
                        help="duplicate deals, each played once per rotation of the seats")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--set", action="append", default=list[str](), metavar="KNOB=VALUE",
                        help="rule variant, repeatable")
    parser.add_argument("--budget-ms", type=float, default=80.0,
                        help="hard's time budget per decision")
    parser.add_argument("--samples", type=int, help="hard: a fixed sample count instead")
    parser.add_argument("--rounds", choices=("first", "exchanged", "games"), default="first",
                        help="a game's first round (no exchange), a round after one, or "
                             "whole games")
    parser.add_argument("--game-rounds", type=int, default=5,
                        help="with --rounds games: the rounds of each game")
    parser.add_argument("--anonymous", action="store_true",
                        help="bots are not told who plays the other seats")
    parser.add_argument("--jobs", type=int, default=1,
                        help="worker processes sharing the deals (one per core at most "
                             "with the wall clock: hard's budget would shrink)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="what hard's budget and the decision times are read from: the "
                             "wall clock, or the process's CPU time (one core's time "
                             "whatever the load; printed as p50_cpu_ms/p99_cpu_ms)")
    args = parser.parse_args(argv, namespace=_Options())
    names = [n.strip() for n in args.players.split(",") if n.strip()]
    for name in names:
        if name not in PLAYERS:
            parser.error(f"unknown player {name!r}: one of {', '.join(PLAYERS)}")
    if args.game_rounds < 1:
        parser.error("--game-rounds: a game lasts at least one round")
    if args.jobs < 1:
        parser.error("--jobs: at least one")
    seats = args.seats or len(names)
    names = (names + names[-1:] * seats)[:seats]
    overrides = dict(item.split("=", 1) for item in args.set)
    rules = Rules.preset(args.preset, **overrides)
    if not rules.min_players <= seats <= rules.max_players:
        parser.error(f"{args.preset} seats {rules.min_players} to {rules.max_players} players, "
                     f"not {seats}")
    scores = play_deals(rules, names, args.deals, args.seed, samples=args.samples,
                        budget=args.budget_ms / 1000, timed=args.samples is None,
                        exchanged=args.rounds == "exchanged",
                        game_rounds=args.game_rounds if args.rounds == "games" else 1,
                        anonymous=args.anonymous, jobs=args.jobs, clock=args.clock)
    try:
        for name in sorted(set(names), key=names.index):  # each once, by its first seat
            print(scores[name].line(name, args.preset, seats, args.deals, args.clock),
                  flush=True)
    except BrokenPipeError:
        # The reader (``| head``) went away: say nothing more, as Unix tools do. Python's
        # advice (library/signal, « Note on SIGPIPE »): point stdout at devnull so the
        # interpreter's own flush at exit does not raise again.
        # (Typeshed lets `sys.stdout` be anything, as it is None in a process with none.)
        stdout: TextIO | None = sys.stdout
        if stdout is not None:
            os.dup2(os.open(os.devnull, os.O_WRONLY), stdout.fileno())
        sys.exit(1)


if __name__ == "__main__":
    main()
