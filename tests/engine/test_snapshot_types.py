"""The snapshot's types say what its writer puts where (stop 50).

mypy holds the writer to `GameSnapshot`'s keys and to each row's list type, but the reader
trusts each compact row's `…Fields` tuple (a cast): nothing but this test says that the
tuple's positions are the writer's. Checked on the snapshot as the bot reads it back, from
JSON, through rounds with an exchange, tells and a deciding card.
"""

from __future__ import annotations

import json
from typing import get_type_hints

from engine import Game, GreedyPlayer, Phase, Rules
from engine.snapshot import (
    DecidingFields,
    GameSnapshot,
    PlayFields,
    RngFields,
    SwapFields,
    TellFields,
)
from tests.typeddicts import conforms


def _snapshots(preset: str, seats: int, seed: int) -> list[dict[str, object]]:
    """The game's snapshot after every fifth action of two rounds, and in the second's
    exchange, read back from JSON."""
    game = Game.new(Rules.preset(preset).replace(game_end="unlimited"), seats, seed=seed)
    bot = GreedyPlayer()
    out: list[dict[str, object]] = []
    actions = 0
    while game.round_no < 2 or game.phase is not Phase.ROUND_OVER:
        if game.phase is Phase.ROUND_OVER:
            game.next_round()
        elif game.phase is Phase.EXCHANGE:
            out.append(json.loads(json.dumps(game.to_dict())))  # its gifts still open
            game.timeout()  # the server chooses for every giver
        else:
            seat = game.to_act
            assert seat is not None
            game.apply(seat, bot.choose(game, seat))
        actions += 1
        if actions % 5 == 0:
            out.append(json.loads(json.dumps(game.to_dict())))
    return out


def test_every_stored_value_is_of_its_keys_type_and_every_row_of_its_fields() -> None:
    rows = {"tells": 0, "tops": 0, "swaps": 0, "deciding": 0, "gifts": 0}
    for preset, seats, seed in (("wild7", 5, 3), ("classic", 4, 1), ("proletario", 6, 2)):
        for snapshot in _snapshots(preset, seats, seed):
            # The rules are Rules.to_dict's, read and checked by Rules.from_dict.
            rest = {k: v for k, v in snapshot.items() if k != "rules"}
            hints = get_type_hints(GameSnapshot)
            assert set(snapshot) == set(hints)  # the writer writes every key
            for key, value in rest.items():
                assert conforms(value, hints[key]), (key, value)
            assert conforms(snapshot["rng"], RngFields)
            tells, swaps, gifts = snapshot["tells"], snapshot["swaps"], snapshot["gifts"]
            assert isinstance(tells, list) and isinstance(swaps, list) \
                and isinstance(gifts, list)
            for tell in tells:
                assert conforms(tell, TellFields) and isinstance(tell, list), tell
                for play in tell[4:]:
                    assert play is None or conforms(play, PlayFields), play
                    rows["tops"] += play is not None
                rows["tells"] += 1
            for swap in swaps:
                assert conforms(swap, SwapFields), swap
                rows["swaps"] += 1
            rows["gifts"] += len(gifts)
            if snapshot["deciding"] is not None:
                assert conforms(snapshot["deciding"], DecidingFields)
                rows["deciding"] += 1
    assert all(rows.values()), rows  # every kind of row was seen
