"""Proletario's blind exchange gives the low role's best cards for it, but the seed lets every
giver choose (« Tu choisis ce que tu donnes sans voir ce que tu reçois »): a Proletario with
more equal best cards than it owes picks which go, from its hand, until the swap."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import plural, t
from bot.i18n.cards import shorts
from engine import Card, Phase
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import (
    Player,
    connect_bot,
    database_url,
    deal,
    host_against_bots,
    let_timers_play,
    table_of,
    tick,
)

# Seat 0 (the host) finished last: the Proletario owes two best cards to the President
# (seat 1) and holds three 2s. The President keeps three groups besides the 2s it receives,
# five cards in all (with four or fewer the normal bot searches its end, since stop 54 in
# proletario too, and may lead the 2s), so it opens with a low card, not with the pair of 2s
# only a joker beats.
HANDS = [["2H", "2S", "2D", "AS", "5C"], ["3H", "4H", "9H", "JH", "QH"], ["6D", "7D"],
         ["KC", "KD", "8C"]]
RANKING = [1, 2, 3, 0]
LOCALES = ["fr", "en"]


def cards(codes: str) -> list[Card]:
    return [Card.parse(code) for code in codes.split()]


async def proletario_with_three_twos(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                                     locale: str) -> Player:
    """marie hosts proletario against three bots, dealt HANDS in the exchange, her hand open
    before any bot gives (they pause a second)."""
    marie = Player(fake.add_user("marie", locale=locale))
    table = await host_against_bots(bot, marie.user, "proletario", 3)
    await tick(fake, clock, 1)
    game = deal(bot, table, HANDS, previous_ranking=RANKING)
    await tick(fake, clock, 0.5)
    assert game.phase is Phase.EXCHANGE and game.gift_on_hold(0) is not None
    await marie.open_hand(bot)
    return marie


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_proletario_picks_which_of_its_equal_best_cards_go_and_it_outlives_a_restart(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """The hand used to show the rules' pick with no way to change it."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = await proletario_with_three_twos(fake, clock, bot, locale)
    table = table_of(bot, marie.user)
    game = table.game
    assert game is not None
    shown = marie.hand
    assert t(locale, "hand.give_equal_best") in shown.content
    [menu] = [s for s in shown.selects if ":give:" in s.custom_id]
    assert {o.value for o in menu.options} == {"2H", "2S", "2D"}  # never the ace
    assert menu.min_values == menu.max_values == 2
    held = game.gift_on_hold(0)
    assert held is not None and held[2]
    assert {o.value for o in menu.options if o.default} == {str(c) for c in held[1]}

    await marie.user.select(shown, ["2D", "2H"], select=menu.custom_id)
    assert game.gift_on_hold(0) == (1, tuple(cards("2D 2H")), False)
    after = marie.hand
    assert t(locale, "hand.give_held", cards=shorts(locale, cards("2D 2H"), False),
             name=f"🤖 {table.name(1)}") in after.content
    assert not [s for s in after.selects if ":give:" in s.custom_id]  # chosen once, as others

    await bot.service.drain()
    await fake.disconnect(bot)
    again = await connect_bot(fake, clock, url, bot_pause=1.0)
    restored = table_of(again, marie.user)
    assert restored.game is not None
    assert restored.game.gift_on_hold(0) == (1, tuple(cards("2D 2H")), False)
    for _ in range(5):  # the bots give, a second apart; the cards change hands
        await tick(fake, clock, 1)
    assert restored.game.phase is Phase.PLAY
    assert {"2D", "2H"} <= {str(c) for c in restored.game.hand(1)}
    assert "2S" in {str(c) for c in restored.game.hand(0)}
    await again.service.drain()
    await fake.disconnect(again)
    fake.assert_no_errors()


async def test_the_rules_pick_goes_when_the_proletario_does_nothing(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    marie = await proletario_with_three_twos(fake, clock, president, "fr")
    table = table_of(president, marie.user)
    game = table.game
    assert game is not None
    held = game.gift_on_hold(0)
    assert held is not None
    await let_timers_play(fake, clock, game, Phase.PLAY)
    assert set(held[1]) <= set(game.hand(1))
    fake.assert_no_errors()


async def test_no_menu_without_a_choice(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """Two 2s and two to give: the rules' pick is the only one, so nothing is offered."""
    marie = Player(fake.add_user("marie", locale="fr"))
    table = await host_against_bots(president, marie.user, "proletario", 3)
    await tick(fake, clock, 1)
    hands = [["2H", "2S", "AD", "AS", "5C"], *HANDS[1:]]
    deal(president, table, hands, previous_ranking=RANKING)
    await tick(fake, clock, 0.5)
    await marie.open_hand(president)
    assert t("fr", "hand.give_equal_best") not in marie.hand.content
    assert not [s for s in marie.hand.selects if ":give:" in s.custom_id]
    fake.assert_no_errors()


async def test_a_pick_leaving_a_better_card_behind_is_refused_and_changes_nothing(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """A 2 and three aces, two to give: the 2 must go, the choice is which ace. Two aces are
    refused by the engine's rule, in the hand, and the rules' pick stands."""
    marie = Player(fake.add_user("marie", locale="fr"))
    table = await host_against_bots(president, marie.user, "proletario", 3)
    await tick(fake, clock, 1)
    hands = [["2H", "AS", "AD", "AC", "5C"], *HANDS[1:]]
    game = deal(president, table, hands, previous_ranking=RANKING)
    await tick(fake, clock, 0.5)
    await marie.open_hand(president)
    held = game.gift_on_hold(0)
    [menu] = [s for s in marie.hand.selects if ":give:" in s.custom_id]
    assert {o.value for o in menu.options} == {"2H", "AS", "AD", "AC"}
    await marie.user.select(marie.hand, ["AS", "AD"], select=menu.custom_id)
    refusal = "⚠️ " + t("fr", "engine.must_give_best", cards=plural("fr", "n.cards", 2))
    assert marie.hand.content.startswith(refusal)
    assert game.gift_on_hold(0) == held
    fake.assert_no_errors()
