"""Which bot decisions the table service sends to its workers (bot/tables/thinking.py)."""

from __future__ import annotations

from bot.tables.thinking import may_search, searches
from engine import Game, Phase, Rules
from engine.bots import decide, make_bot, make_player
from engine.view import player_view


def _late_view(preset: str) -> tuple[Game, int]:
    """A first round of normal players, stopped at the first turn of a seat holding 4 cards
    or fewer with more than one move."""
    game = Game.new(Rules.preset(preset, game_end="unlimited"), 4, seed=2)
    normal = make_player("normal")
    while game.phase is Phase.PLAY:
        seat = game.to_act
        assert seat is not None
        view = player_view(game, seat)
        if len(view.hand) <= 4 and len(view.legal) + view.can_pass > 1:
            return game, seat
        game.apply(seat, decide(normal, game, seat))
    raise AssertionError("no late turn")


def test_a_normal_bot_s_end_search_goes_to_the_workers_where_the_rules_let_it_search() -> None:
    """Presi, proletario and classic (no finish penalty, or tricks until all pass and no wild
    card): normal searches its last cards, a decision of tens of ms that must not run on the
    event loop. Wild7 (wild 7s and a penalised finish): the tactics, in place. Hard always
    searches; easy never does."""
    game, seat = _late_view("presi")
    view = player_view(game, seat)
    assert searches(make_bot("normal"), view) and searches(make_bot("hard", samples=2), view)
    assert not searches(make_bot("easy"), view)
    opening = Game.new(Rules.preset("presi"), 4, seed=2)
    assert opening.to_act is not None
    early = player_view(opening, opening.to_act)
    assert not searches(make_bot("normal"), early)  # thirteen cards: the tactics
    game, seat = _late_view("classic")
    assert searches(make_bot("normal"), player_view(game, seat))
    game, seat = _late_view("proletario")
    assert searches(make_bot("normal"), player_view(game, seat))
    game, seat = _late_view("wild7")
    assert not searches(make_bot("normal"), player_view(game, seat))
    assert may_search("normal", Rules.preset("presi")) and may_search("normal", Rules.preset("classic"))
    assert may_search("hard", Rules.preset("wild7"))
    assert not may_search("normal", Rules.preset("wild7")) and not may_search("easy", Rules.preset("presi"))
