"""Stop 47's small fixes: what stop 46 left shown wrongly (the chart's bots, the rules page
during a revolution)."""

from __future__ import annotations

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.i18n.cards import rank_short
from bot.packages.game import chart
from bot.packages.rules_text import how_to_play
from engine import Rules
from fakediscord import FakeDiscord
from tests.fresh import fresh

from .conftest import LinkedClock
from .test_e2e_playtest17 import dealt, pass_turn, play

LOCALES = ["fr", "en"]


def test_a_hard_bots_chart_label_is_drawn_whole_at_its_lines_end() -> None:
    """A bot's line is marked with its level (« Bot 7 (difficile) »), and the name at a
    line's end, cut at 16 characters, would have read « Bot 7 (difficil… »."""
    shown = chart.chart_of("fr", ("zoé", "Bot 7"), ((1, 2), (3, 4)), bots={1: "hard"})
    assert shown.names == ("zoé", "Bot 7 (difficile)")
    assert "🤖 Bot 7 (niveau difficile)" in shown.alt
    ends = [text.get_text() for text in chart.draw(shown).axes[0].texts]
    assert ends == ["zoé", "Bot 7 (difficile)"]


@pytest.mark.parametrize("locale", LOCALES)
def test_during_a_revolution_the_rules_page_lists_the_order_in_force(locale: str) -> None:
    """`/president règles` during a revolution listed « 3 4 5 … A 2 » from weakest to
    strongest above its line saying the flip made the 3 the strongest: it lists the order
    in force, « 2 A R … 4 3 », saying a revolution is under way."""
    rules = Rules.preset("classic")
    ranks = [rank_short(locale, rank, False) for rank in rules.deck_kind.ranks]
    assert how_to_play(locale, rules)[1] == t(locale, "howto.order", order=" ".join(ranks))
    assert how_to_play(locale, rules, revolution=True)[1] == t(
        locale, "howto.order.revolution", order=" ".join(reversed(ranks)))
    assert ranks[-1] == "2" and ranks[0] == "3"


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_openers_hand_says_a_quad_lead_changes_the_2s_exception(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """At proletario with the host's revolutions, the opener's hand excepted « un groupe
    de 2 sur un coup d’une carte de plus » from the count to answer with, drawn before the
    lead: led with four 5s, the revolution starts and the 2s beat nothing larger; in a
    revolution the hand left them out, and four 9s ending it let them back. The hand of an
    opener holding a quad says so, each way; one without a quad says nothing more."""
    table, game, players = await dealt(
        fake, clock, president, locale, "proletario",
        ["5H 5S 5D 5C 9H 9S 9D 9C 2C", "KD 3S 3H 8C", "QH 4C 4D 8D", "JH 6C 6D 2S"],
        revolution=True)
    marie, paul, jeanne, lucas = players
    starts = t(locale, "hand.lead_quad_revolution_on")
    ends = t(locale, "hand.lead_quad_revolution_off")
    assert starts in marie.hand.content.split("\n")
    await play(fake, clock, marie, "5H 5S 5D 5C")
    assert game.revolution
    for player in (paul, jeanne, lucas):
        await pass_turn(fake, clock, player)
    assert game.to_act == 0 and not game.trick
    shown = marie.hand.content.split("\n")
    assert ends in shown and starts not in shown
    await play(fake, clock, marie, "9H 9S 9D 9C")
    assert not fresh(game).revolution
    for player in (paul, jeanne, lucas):
        assert starts not in player.hand.content and ends not in player.hand.content
    fake.assert_no_errors()
