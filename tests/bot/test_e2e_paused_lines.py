"""A paused game's turn line (docs/bot.md « Public messages after the save (stop 62) »): the
clocks held, the line has no countdown, and it ended on the space before it, invisible
(« ➡️ À **bob** de jouer »). Now no line of the table message or of a hand ends on a
space, paused or not. Time is the fake's: nothing sleeps."""

from __future__ import annotations

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import tick
from .test_e2e_playtest29 import a_humans_turn, board, pause

LOCALES = ["fr", "en-US"]


def trailing(text: str) -> list[str]:
    return [line for line in text.split("\n") if line != line.rstrip()]


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_paused_turn_line_ends_on_its_last_word(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """marie pauses at someone's turn: the table message and both hands say whose turn
    it is, with no countdown and no space after the last word."""
    marie, bob, table, game = await a_humans_turn(fake, clock, president, locale)
    await marie.open_hand(president)
    await bob.open_hand(president)
    assert trailing(board(marie.user, table)) == []  # the countdown ends the line
    await pause(fake, clock, marie.user, table)
    await tick(fake, clock, 1)
    assert table.pause is not None and game.to_act is not None
    shown = board(marie.user, table)
    turn = t(table.locale, "table.turn", name=table.name(game.to_act), countdown="")
    assert turn.rstrip() in shown.split("\n")  # the whole line, with no countdown
    assert trailing(shown) == []
    assert trailing(marie.hand.text) == [] and trailing(bob.hand.text) == []
    fake.assert_no_errors()
