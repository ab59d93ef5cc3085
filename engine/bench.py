"""``python -m engine.bench``: full random rounds per second, per preset, on one core.

``--search`` measures what search costs instead: ``Game.clone``, ``determinize`` from a
seat's view, and rollouts (from the 12th decision of a round to its end, every seat playing
the bots' tactics through :meth:`Game.step`, on scratch copies as search rolls out), per
preset.

Every decision goes through the checked public API: the seat's legal options are listed
(``legal_plays`` and ``can_pass``), a seeded :class:`RandomPlayer` picks one uniformly, and
``play_option`` / ``pass_turn`` verify it before applying it. Rounds follow each other in one unlimited game, so from the second round on each
round includes its deal and its exchange.

``--snapshot`` measures what the bot pays to store a game after every action
(``Game.to_dict``) and to read it back from its JSON at a restart (``Game.from_dict``), on
the same positions as ``--search``.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from .bots.rollout import rollout
from .determinize import determinize
from .game import Game, Phase
from .players import RandomPlayer
from .rules import Rules
from .snapshot import GameSnapshot
from .view import player_view

CASES = [
    ("classic", 4, {}),
    ("classic", 4, {"fast": True}),
    ("presi", 4, {}),
    ("proletario", 4, {}),
    ("wild7", 4, {}),
    ("wild7", 8, {}),
]


def play_rounds(rules: Rules, seats: int, rounds: int, seed: int) -> int:
    """Play ``rounds`` full rounds with random players; returns the number of decisions."""
    game = Game.new(rules.replace(game_end="unlimited"), seats, seed=seed)
    players = [RandomPlayer(seed * 31 + s) for s in range(seats)]
    decisions = 0
    done = 0
    while True:
        phase = game.phase
        if phase is Phase.ROUND_OVER:
            done += 1
            if done == rounds:
                return decisions
            game.next_round()
            continue
        if phase is Phase.EXCHANGE:
            for seat in range(seats):
                due = game.exchange_due(seat)
                if due is not None and due.ready:
                    game.apply(seat, players[seat].choose(game, seat))
                    decisions += 1
                    break
            continue
        acting = game.to_act
        # Fast mode has no turn: the first seat with something to do acts.
        seat = acting if acting is not None else next(
            (s for s in game.players if game.legal_actions(s)), game.players[0])
        option = players[seat].pick(game, seat)
        if option is None:
            game.pass_turn(seat)
        else:
            game.play_option(seat, option)
        decisions += 1


def positions(rules: Rules, seats: int, count: int) -> list[Game]:
    """``count`` first-round positions after 12 random decisions (distinct seeds)."""
    out = []
    for seed in range(count):
        game = Game.new(rules, seats, seed=seed)
        player = RandomPlayer(seed)
        for _ in range(12):
            seat = game.to_act
            assert seat is not None
            game.step(seat, player.pick(game, seat))
        if game.phase is Phase.PLAY:
            out.append(game)
    return out


def search_speed(repeat: int) -> None:
    """Microseconds per clone and per determinization, rollouts per second, per preset."""
    print(f"{'preset':<12}{'seats':>6}{'clone µs':>10}{'determinize µs':>16}{'rollouts/s':>12}")
    for preset, seats, overrides in CASES:
        rules = Rules.preset(preset, **overrides)
        if rules.fast:
            continue  # rollouts follow turns
        games = positions(rules, seats, 200)
        views = [player_view(g, g.to_act) for g in games if g.to_act is not None]
        for game in games:
            game.scratch()  # as search rolls out its sampled deals: recording no tells
        rng = random.Random(1)
        best = [float("inf")] * 3
        for _ in range(repeat):
            start = time.process_time()
            for game in games:
                game.clone()
            best[0] = min(best[0], (time.process_time() - start) / len(games))
            start = time.process_time()
            for view in views:
                determinize(view, rng)
            best[1] = min(best[1], (time.process_time() - start) / len(views))
            start = time.process_time()
            for game in games:
                seat = game.to_act
                assert seat is not None
                rollout(game.clone(), seat)
            best[2] = min(best[2], (time.process_time() - start) / len(games))
        print(f"{preset:<12}{seats:>6}{best[0] * 1e6:>10,.0f}{best[1] * 1e6:>16,.0f}"
              f"{1 / best[2]:>12,.0f}")


def _stored(game: Game) -> GameSnapshot:
    """A game's snapshot as storage gives it back: through JSON, its tuples lists."""
    data: GameSnapshot = json.loads(json.dumps(game.to_dict()))
    return data


def snapshot_speed(repeat: int) -> None:
    """Microseconds per snapshot written and per snapshot read back, per preset."""
    print(f"{'preset':<12}{'seats':>6}{'to_dict µs':>12}{'from_dict µs':>14}")
    for preset, seats, overrides in CASES:
        rules = Rules.preset(preset, **overrides)
        if rules.fast:
            continue  # the positions follow turns
        games = positions(rules, seats, 200)
        stored = [_stored(game) for game in games]
        best = [float("inf")] * 2
        for _ in range(repeat):
            start = time.process_time()
            for game in games:
                game.to_dict()
            best[0] = min(best[0], (time.process_time() - start) / len(games))
            start = time.process_time()
            for data in stored:
                Game.from_dict(data)
            best[1] = min(best[1], (time.process_time() - start) / len(stored))
        print(f"{preset:<12}{seats:>6}{best[0] * 1e6:>12,.1f}{best[1] * 1e6:>14,.1f}")


class _Options(argparse.Namespace):
    """The command line as `main` reads it: argparse's attributes are untyped otherwise."""

    rounds: int
    repeat: int
    search: bool
    snapshot: bool


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=1000, help="rounds per case")
    parser.add_argument("--repeat", type=int, default=5, help="runs per case; the best counts")
    parser.add_argument("--search", action="store_true",
                        help="clone, determinize and rollout speed instead")
    parser.add_argument("--snapshot", action="store_true",
                        help="snapshot write and read speed instead")
    args = parser.parse_args(namespace=_Options())
    if args.search:
        search_speed(args.repeat)
        return
    if args.snapshot:
        snapshot_speed(args.repeat)
        return
    print(f"{'preset':<12}{'seats':>6}{'rounds/s':>12}{'decisions/s':>14}")
    for preset, seats, overrides in CASES:
        rules = Rules.preset(preset, **overrides)
        runs = []
        for _ in range(args.repeat):  # best of N, in CPU time: what one core does, whatever else runs
            start = time.process_time()
            done = play_rounds(rules, seats, args.rounds, seed=1)
            runs.append((time.process_time() - start, done))
        elapsed, decisions = min(runs)  # the same decisions each run: one seed
        label = preset + (" fast" if overrides.get("fast") else "")
        print(f"{label:<12}{seats:>6}{args.rounds / elapsed:>12,.0f}{decisions / elapsed:>14,.0f}")


if __name__ == "__main__":
    main()
