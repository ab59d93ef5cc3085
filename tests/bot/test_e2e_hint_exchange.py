"""« Conseil / Hint » in the exchange (issue 12): while a seat owes cards and may give them,
its hand offers the hint button too, and a click shows that player alone the cards the
normal bot would give (`engine.bots.normal.exchange_action` on their own view) and why."""

from __future__ import annotations

from typing import Any

from bot.client import PresidentBot
from bot.i18n import t
from bot.i18n.cards import shorts
from bot.i18n.typography import french
from bot.packages.game.hint import advice
from bot.tables.table import Table
from engine import Card, Game, Phase, Rules
from engine.bots.normal import exchange_action
from engine.view import player_view
from fakediscord import FakeDiscord, Message, TestUser
from fakediscord.forge import Forger
from fakediscord.limits import BUTTON
from fakediscord.state import MESSAGE_COMPONENT

from .conftest import LinkedClock
from .e2e import cid, create_table, deal, message, tick

# Seat 0's hand. As the President it keeps its pairs and its 2s: 3♠ and 5♥ are its lone
# low cards. As the Scum its best cards are the 2♥ and an Ace (of two).
PRESIDENT = ["3S", "5H", "6D", "6C", "8S", "9H", "9D", "JC", "QS", "KH", "AD", "2C", "2S"]
SCUM = ["3D", "4S", "4H", "5C", "7S", "7H", "8D", "10C", "JD", "QH", "AS", "AH", "2H"]


def hands(first: list[str]) -> list[list[Card]]:
    """``first`` for seat 0 (the host), the rest of the deck dealt to three bots."""
    mine = [Card.parse(c) for c in first]
    rest = sorted((c for c in Rules.preset("classic").deck_kind.cards() if c not in mine),
                  key=str)
    return [mine, rest[0::3], rest[1::3], rest[2::3]]


def hint_buttons(user: TestUser) -> list[str]:
    return [b.label or "" for b in user.last_ephemeral().buttons
            if ":hint:" in (b.custom_id or "")]


def control(shown: Message, action: str) -> str:
    """The custom_id of the message's button of this ``:action:``."""
    return next(b.custom_id for b in shown.buttons if b.custom_id and action in b.custom_id)


async def exchange_at_seat_0(fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
                             host: TestUser, first: list[str], ranking: list[int], *,
                             hints: bool, **rules: Any) -> tuple[Table, Game]:
    """``host`` against three bots, dealt ``first``, in the exchange after ``ranking``,
    with the hand open."""
    table = await create_table(president, host)
    if rules:
        await president.service.set_rules(table, host.id, table.rules.replace(**rules))
    await president.service.set_options(table, host.id, hints=hints)  # before the start
    for _ in range(3):
        await president.service.add_bot(table, host.id)
    await president.service.games.start(table, host.id)
    await tick(fake, clock, 0.5)
    game = deal(president, table, hands(first), previous_ranking=ranking)
    assert game.phase is Phase.EXCHANGE
    await fake.settle()
    await host.slash("president hand")
    return table, game


async def test_no_hint_button_in_the_exchange_when_hints_are_off(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    marie = fake.add_user("marie", locale="fr")
    table, game = await exchange_at_seat_0(fake, president, clock, marie, PRESIDENT,
                                           [0, 1, 2, 3], hints=False)
    due = game.exchange_due(0)
    assert due is not None and due.ready and not table.hints
    hand = marie.last_ephemeral()
    assert any(":give:" in s.custom_id for s in hand.selects)  # she does owe cards
    assert hint_buttons(marie) == []
    forged = {"custom_id": cid(table, "hint", game.version), "component_type": BUTTON}
    await Forger(fake).send(marie, MESSAGE_COMPONENT, forged, message=hand)  # refused
    assert marie.last_ephemeral().content == "⚠️ " + t("fr", "err.unknown_control")
    assert game.exchange_due(0) == due
    fake.assert_no_errors()


async def test_the_president_sees_in_french_which_cards_the_normal_bot_would_give(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    marie = fake.add_user("marie", locale="fr")
    table, game = await exchange_at_seat_0(fake, president, clock, marie, PRESIDENT,
                                           [0, 1, 2, 3], hints=True)
    due = game.exchange_due(0)
    assert due is not None and due.ready and due.mode == "choice"  # the Scum's gift came
    assert hint_buttons(marie) == ["💡 Conseil"]
    version, before = game.version, tuple(game.hand(0))

    await marie.click(marie.last_ephemeral(), cid(table, "hint", game.version))
    shown = marie.last_ephemeral()
    give = exchange_action(player_view(game, 0))
    assert give is not None
    assert [str(c) for c in give.cards] == ["3S", "5H"]  # the lone low cards
    line = shown.content.splitlines()[0]
    assert line == (french("💡 Le bot normal donnerait 3♠ 5♥ — les petites cartes isolées coûtent "
                    "le moins : tes paires et tes cartes fortes restent."))
    assert line == t("fr", "hint.give", cards=shorts("fr", give.cards, False),
                     reason=t("fr", "reason.give_lone"))
    assert line == advice(table, 0, "fr")
    assert any(":give:" in s.custom_id for s in shown.selects)  # the hand is still there
    assert hint_buttons(marie) == ["💡 Conseil"]
    assert game.version == version and game.hand(0) == before  # advice changes nothing
    fake.assert_no_errors()


async def test_the_scum_sees_in_english_the_best_cards_then_nothing_once_given(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    alice = fake.add_user("alice")
    table, game = await exchange_at_seat_0(fake, president, clock, alice, SCUM,
                                           [1, 2, 3, 0], hints=True, low_gives="pick")
    due = game.exchange_due(0)
    assert due is not None and due.ready and due.mode == "best"
    assert hint_buttons(alice) == ["💡 Hint"]
    first = alice.last_ephemeral()

    await alice.click(first, cid(table, "hint", game.version))
    give = exchange_action(player_view(game, 0))
    assert give is not None and sorted(str(c) for c in give.cards) == ["2H", "AS"]
    line = alice.last_ephemeral().content.splitlines()[0]
    assert line == t("en-US", "hint.give", cards=shorts("en-US", give.cards, False),
                     reason=t("en-US", "reason.give_best"))
    assert line.startswith("💡 The normal bot would give ") and \
        "the rules make you give your best cards" in line

    # A second hand gives the cards; the first one still shows its button: a click on it
    # now has nothing to suggest (the bot President has not given back yet).
    await alice.slash("president hand")
    second = alice.last_ephemeral()
    await alice.click(second, control(second, ":give_ok:"))
    assert game.phase is Phase.EXCHANGE and game.exchange_due(0) is None
    assert sorted(str(c) for c in game.hand(0)) == sorted(set(SCUM) - {"2H", "AS"})
    assert hint_buttons(alice) == []
    first = message(alice, first.id)
    await alice.click(first, control(first, ":hint:"))
    assert alice.last_ephemeral().id == second.id  # redrawn in place, no refusal
    assert message(alice, first.id).content.splitlines()[0] == \
        "💡 You have no card to give right now: nothing to suggest."
    fake.assert_no_errors()


async def test_a_gift_picked_on_a_menu_redrawn_meanwhile_is_given(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """Everyone gives at once, so others' gifts redraw the hand while its player picks: the
    pick, made on the menu as their client showed it, still counts (it is this round's)."""
    marie = fake.add_user("marie", locale="fr")
    table, game = await exchange_at_seat_0(fake, president, clock, marie, PRESIDENT,
                                           [0, 1, 2, 3], hints=False)
    shown = marie.last_ephemeral()
    menu = next(s.custom_id for s in shown.selects if ":give:" in s.custom_id)
    drawn_at = game.version
    await tick(fake, clock, 5)  # the Vice-Trou gives to the Vice-Président meanwhile
    assert game.version > drawn_at and game.phase is Phase.EXCHANGE
    assert menu not in [s.custom_id for s in marie.last_ephemeral().selects]  # redrawn
    due = game.exchange_due(0)
    assert due is not None and due.ready
    gift = [str(card) for card in due.allowed[:due.count]]
    await marie.select_shown(shown, gift, select=menu)
    assert not any(Card.parse(code) in game.hand(0) for code in gift)
    fake.assert_no_errors()
