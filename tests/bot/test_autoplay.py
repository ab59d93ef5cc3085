"""Which automated seat moves: in fast mode bots race for each move, as people do."""

from __future__ import annotations

from collections import Counter

from bot.tables.autoplay import next_seat
from engine import Game, Phase, Rules
from engine.bots import make_bot
from engine.view import player_view


def test_seat_order_does_not_decide_a_fast_round_among_bots() -> None:
    """Five bots at a fast classic table: the first in seat order took every move (it
    answered its own plays while any remained) and was President in 97 rounds of 100, the
    others finishing in seat order (play-test 13). Each move now goes to a bot drawn among
    those with one, so the round is played, not dealt out by seat number."""
    rules = Rules.preset("classic").replace(fast=True)
    bot = make_bot("normal")
    presidents: Counter[int] = Counter()
    for seed in range(40):
        game = Game.new(rules, seats=5, seed=seed, bots=range(5))
        while game.phase is Phase.PLAY:
            seat = next_seat(game, table_id=seed)
            if seat is None:  # nobody may move: the common timer closes or opens the trick
                game.timeout()
                continue
            game.apply(seat, bot.choose(player_view(game, seat)))
        assert game.ranking is not None
        presidents[game.ranking[0]] += 1
    assert len(presidents) == 5 and max(presidents.values()) <= 16, presidents
