"""The monkey's checks of chained rounds (`monkey_checks.py`) catch what they are for: a
gift the rules do not owe or one never made, and a role the table message misnames."""

from __future__ import annotations

from bot.packages.game.table_message import table_screen
from bot.tables.table import Table
from engine import Game, Phase

from .monkey_checks import exchange_problems, role_problems, table_problems
from .stored import Result, points_problems
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


def test_points_that_do_not_follow_their_holder_are_caught() -> None:
    """A seat's points are its holder's (`Game.take_seat`): a newcomer taking a bot's seat
    starts at 0, a last place back from the queue brings theirs; a bot's points on a
    person, or a person's lost on the way back, are caught."""
    alice, bob = 1, 2
    rounds = [Result(1, 0, alice, "alice", 3), Result(1, 1, None, "Bot 1", 1),
              Result(2, 0, None, "Bot 2", 2), Result(2, 1, bob, "bob", 1),  # alice queued
              Result(3, 0, None, "Bot 2", 0), Result(3, 1, alice, "alice", 2)]  # and back
    assert points_problems(rounds, {0: 2, 1: 5}) == []
    assert points_problems(rounds, {0: 2, 1: 2}) == []  # she left the queue, came anew
    assert len(points_problems(rounds, {0: 2, 1: 6})) == 1  # the bot's 1 given to her
    assert len(points_problems(rounds, {0: 5, 1: 5})) == 1  # the bot 2's own run is 2
    assert len(points_problems(rounds, {0: 2, 1: 5, 2: 1})) == 1  # a seat nobody held
