"""The monkey's checks of chained rounds (`monkey_checks.py`) catch what they are for: a
gift the rules do not owe or one never made, and a role the table message misnames."""

from __future__ import annotations

from bot.packages.game.table_message import table_screen
from bot.tables.table import Table
from engine import Game, Phase

from .monkey_checks import exchange_problems, role_problems, table_problems
from .test_display import play_out, table_for


def second_round(preset: str) -> tuple[Table, Game]:
    """A four-seat table whose first round was played out, the second dealt and its
    exchange made."""
    table = table_for(preset, 4)
    game = table.game
    assert game is not None
    play_out(table, game)
    game.next_round()
    play_out_exchange(table, game)
    return table, game


def play_out_exchange(table: Table, game: Game) -> None:
    while game.phase is Phase.EXCHANGE:
        seat = next(s for s in range(game.seats)
                    if (due := game.exchange_due(s)) is not None and due.ready)
        due = game.exchange_due(seat)
        assert due is not None
        game.give(seat, due.allowed[:due.count] if due.mode != "best"
                  else due.allowed[-due.count:])


def test_an_exchange_made_as_the_rules_say_breaks_nothing() -> None:
    for preset in ("classic", "presi", "proletario", "wild7"):
        table, game = second_round(preset)
        assert game.phase is Phase.PLAY and game.round_no == 2
        assert len(game.swaps) == 4  # two pairs, each way
        assert table_problems(table) == [], preset


def test_a_gift_missing_or_of_the_wrong_count_is_caught() -> None:
    _, game = second_round("classic")
    giver, receiver, cards, mode = game.swaps.pop()
    assert "gifts made" in exchange_problems(game)[0]
    game.swaps.append((giver, receiver, cards[:1] + cards, mode))
    found = exchange_problems(game)
    assert any("do not owe" in p for p in found)
    assert any("gave one card twice" in p for p in found)


def test_a_role_the_table_message_misnames_is_caught() -> None:
    table, _ = second_round("classic")
    text = table_screen(table, 0.0).content
    assert role_problems(table, text) == []
    assert " · President · " in text and " · Scum · " in text
    swapped = text.replace(" · President · ", " · ? · ").replace(" · Scum · ", " · President · ")
    assert len(role_problems(table, swapped)) == 2  # one role missing, one misplaced
    assert role_problems(table, text.replace(" · Vice-Scum", "")) != []
