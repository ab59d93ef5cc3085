"""The snapshot's types say what its writer puts where (stop 50).

mypy holds the writer to `GameSnapshot`'s keys and to each row's list type, but the reader
trusts each compact row's `…Fields` tuple (a cast): nothing but this test says that the
tuple's positions are the writer's. Checked on the snapshot as the bot reads it back, from
JSON, through rounds with an exchange, tells and a deciding card.
"""

from __future__ import annotations

import json
import types
from typing import NotRequired, Union, get_args, get_origin, get_type_hints, is_typeddict

from engine import Game, GreedyPlayer, Phase, Rules
from engine.snapshot import (
    DecidingFields,
    GameSnapshot,
    PlayFields,
    RngFields,
    SwapFields,
    TellFields,
)


def _conforms(value: object, hint: object) -> bool:
    """Whether a JSON value is of the type `hint` names (tuples as JSON lists, positionally;
    a bool is not an int)."""
    origin, args = get_origin(hint), get_args(hint)
    if hint is None or hint is type(None):
        return value is None
    if origin is Union or origin is types.UnionType:
        return any(_conforms(value, arg) for arg in args)
    if origin is list:
        return isinstance(value, list) and all(_conforms(v, args[0]) for v in value)
    if origin is tuple:
        return isinstance(value, list) and len(value) == len(args) \
            and all(_conforms(v, arg) for v, arg in zip(value, args, strict=True))
    if origin is dict:
        return isinstance(value, dict) and all(
            _conforms(k, args[0]) and _conforms(v, args[1]) for k, v in value.items())
    if isinstance(hint, type) and is_typeddict(hint):
        hints = get_type_hints(hint)
        required = {key for key, h in get_type_hints(hint, include_extras=True).items()
                    if get_origin(h) is not NotRequired}
        return isinstance(value, dict) and required <= set(value) <= set(hints) \
            and all(_conforms(v, hints[k]) for k, v in value.items())
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    assert hint in (str, bool), hint
    return isinstance(value, hint)


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
                assert _conforms(value, hints[key]), (key, value)
            assert _conforms(snapshot["rng"], RngFields)
            tells, swaps, gifts = snapshot["tells"], snapshot["swaps"], snapshot["gifts"]
            assert isinstance(tells, list) and isinstance(swaps, list) \
                and isinstance(gifts, list)
            for tell in tells:
                assert _conforms(tell, TellFields) and isinstance(tell, list), tell
                for play in tell[4:]:
                    assert play is None or _conforms(play, PlayFields), play
                    rows["tops"] += play is not None
                rows["tells"] += 1
            for swap in swaps:
                assert _conforms(swap, SwapFields), swap
                rows["swaps"] += 1
            rows["gifts"] += len(gifts)
            if snapshot["deciding"] is not None:
                assert _conforms(snapshot["deciding"], DecidingFields)
                rows["deciding"] += 1
    assert all(rows.values()), rows  # every kind of row was seen
