"""The greedy player is issue 12's yardstick: made faster, it must choose as it always has.

The reference below is its rule as first written (a dict of the hand's sizes per value, then
``min`` over the whole groups); the player itself only counts a value where an option could
be the weakest so far. Both answer every turn of random games in every preset and in
random knob mixes, wilds, jokers, revolutions and named top cards included.
"""

from __future__ import annotations

import pytest

from engine import Game, PlayOption, RandomPlayer, Rules
from engine.cards import TWO
from engine.players import GreedyPlayer
from tests.engine.test_search import _rule_sets, _turn_decisions


def _reference_pick(game: Game, seat: int) -> PlayOption | None:
    """GreedyPlayer.pick as it was before stop 62 (its sizes counted over the whole hand)."""
    options = game.legal_plays(seat)
    if not options:
        return None
    sizes: dict[int, int] = {}
    for card in game.hands[seat]:
        sizes[card.value] = sizes.get(card.value, 0) + 1

    def plain(o: PlayOption) -> bool:
        return o.special is None and o.wilds == 0 and o.announce is None

    def strength(o: PlayOption) -> int:
        return TWO - o.level if game.revolution else o.level

    whole = [o for o in options if plain(o) and sizes.get(o.level, 0) == o.count]
    if whole:
        return min(whole, key=strength)

    def rank(o: PlayOption) -> tuple[int, int, int]:
        return (game.strength(o.level), o.wilds, 1 if o.special else 0)

    if game.can_pass(seat):
        return min(options, key=rank) if len(game.hands[seat]) <= 2 else None
    return min([o for o in options if plain(o)] or options, key=rank)


@pytest.mark.parametrize("rules,seats", list(_rule_sets(24, 62)))
def test_greedy_picks_as_its_reference_rule(rules: Rules, seats: int) -> None:
    greedy = GreedyPlayer()
    checked = 0
    for seed in range(3):
        game = Game.new(rules, seats, seed=seed)
        for seat, option in _turn_decisions(game, RandomPlayer(seed)):
            # Identity, not equality: the same listed option, as the rollouts step it.
            assert greedy.pick(game, seat) is _reference_pick(game, seat)
            checked += 1
            game.step(seat, option)
    assert checked > 0
