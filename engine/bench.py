"""``python -m engine.bench``: full random rounds per second, per preset, on one core.

Every decision goes through the checked public API: the seat's legal options are listed
(``legal_plays`` and ``can_pass``), a seeded :class:`RandomPlayer` picks one uniformly, and
``play_option`` / ``pass_turn`` verify it before applying it. Rounds follow each other in one unlimited game, so from the second round on each
round includes its deal and its exchange.
"""

from __future__ import annotations

import argparse
import time

from .game import Game, Phase
from .players import RandomPlayer
from .rules import Rules

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=1000, help="rounds per case")
    parser.add_argument("--repeat", type=int, default=5, help="runs per case; the best counts")
    args = parser.parse_args()
    print(f"{'preset':<12}{'seats':>6}{'rounds/s':>12}{'decisions/s':>14}")
    for preset, seats, overrides in CASES:
        rules = Rules.preset(preset, **overrides)
        elapsed = float("inf")
        for _ in range(args.repeat):  # best of N, in CPU time: what one core does, whatever else runs
            start = time.process_time()
            decisions = play_rounds(rules, seats, args.rounds, seed=1)
            elapsed = min(elapsed, time.process_time() - start)
        label = preset + (" fast" if overrides.get("fast") else "")
        print(f"{label:<12}{seats:>6}{args.rounds / elapsed:>12,.0f}{decisions / elapsed:>14,.0f}")


if __name__ == "__main__":
    main()
