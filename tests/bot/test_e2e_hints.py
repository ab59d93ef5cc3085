"""« Conseil / Hint » (issue 12): a settings toggle, off by default, gives hands a button
that shows the asking player alone what the normal bot would play there, and why."""

from __future__ import annotations

from bot.client import PresidentBot
from bot.i18n import t
from bot.i18n.typography import french
from bot.packages.game.hint import advice
from bot.tables.table import Table
from engine import Game
from engine.bots.normal import explain
from engine.view import player_view
from fakediscord import FakeDiscord, TestUser
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import Player, cid, dealt_against_two_bots, marie_hosts_with_bob_around, message, tick


def hint_buttons(user: TestUser) -> list[str]:
    return [b.label or "" for b in user.last_ephemeral().buttons if ":hint:" in (b.custom_id or "")]


async def test_hints_are_off_by_default_and_the_host_turns_them_on(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    marie, bob, table = await marie_hosts_with_bob_around(fake, president)
    await bob.slash("president join")
    lobby = message(marie, table.lobby_message_id)
    await marie.click(lobby, cid(table, "addbot"))
    await marie.click(lobby, cid(table, "addbot"))
    await marie.click(lobby, cid(table, "settings"))
    panel = marie.last_ephemeral()
    assert french("💡 Bouton Conseil : non") in [b.label for b in panel.buttons]
    await marie.click(panel, cid(table, "hints"))
    panel = marie.last_ephemeral()
    assert french("💡 Bouton Conseil : oui") in [b.label for b in panel.buttons]
    assert "bouton **Conseil**" in panel.content and table.hints
    await marie.click(panel, cid(table, "hints"))
    assert not fresh(table).hints
    await president.service.games.start(table, marie.id)
    await tick(fake, clock, 0.5)
    await marie.slash("president hand")
    assert hint_buttons(marie) == []  # off: no button, whoever's turn it is
    fake.assert_no_errors()


async def hints_on_until_a_person_acts(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> tuple[Table, Game, int, TestUser, TestUser, str]:
    """marie (French) and bob (English) with two bots, hints on, played until one of them
    must act: the table, its game, that seat, who acts, the other, and the actor's locale."""
    marie, bob, table = await marie_hosts_with_bob_around(fake, president)
    await bob.slash("president join")
    await president.service.set_options(table, marie.id, hints=True)
    for _ in range(2):
        await president.service.add_bot(table, marie.id)
    await president.service.games.start(table, marie.id)
    game = table.game
    assert game is not None
    people = {table.seat_of(marie.id): marie, table.seat_of(bob.id): bob}
    for _ in range(20):  # bots play until a person must
        if game.to_act in people:
            break
        await tick(fake, clock, 1.0)
    seat = game.to_act
    assert seat is not None
    asker = people[seat]
    other = bob if asker is marie else marie
    loc = "fr" if asker is marie else "en-US"
    return table, game, seat, asker, other, loc


async def test_the_player_to_act_alone_sees_the_normal_bot_s_advice_in_their_language(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    table, game, seat, asker, other, loc = await hints_on_until_a_person_acts(
        fake, president, clock)
    await asker.slash("president hand")
    await other.slash("president hand")
    assert hint_buttons(other) == []  # not their turn
    labels = hint_buttons(asker)
    assert labels == ["💡 " + t(loc, "btn.hint")]
    before = [m.content for m in other.visible()]

    await asker.click(asker.last_ephemeral(), cid(table, "hint", game.version))
    shown = asker.last_ephemeral().content
    action, reason = explain(player_view(game, seat))
    assert shown.startswith("💡 ") and t(loc, f"reason.{reason}") in shown
    assert shown.splitlines()[0] == advice(table, seat, loc)
    verb = "hint.pass" if action.option is None else "hint.play"
    assert t(loc, verb, cards="", reason="").split("—")[0].rstrip() in shown
    assert [m.content for m in other.visible()] == before  # nothing shown to anyone else
    assert game.to_act == seat  # advice changes nothing
    fake.assert_no_errors()


async def test_no_hint_where_pass_is_the_only_move(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """Play-test (stop 38): the button was offered with Pass alone, and 15 clicks of 25 said
    « would pass: nothing you hold can be played »: there is no choice to advise on."""
    marie = Player(fake.add_user("marie", locale="fr"))
    table, game = await dealt_against_two_bots(
        fake, clock, president, marie, [["3S", "4H", "5C"], ["KS", "AH"], ["6D", "9S"]],
        opener=1)
    table.hints = True
    for _ in range(10):
        if game.to_act == 0:
            break
        await tick(fake, clock, 1)
    assert game.to_act == 0 and game.trick and not game.legal_plays(0)
    await marie.user.slash("president hand")
    shown = marie.user.last_ephemeral()
    assert t("fr", "hand.only_pass") in shown.content.split("\n")
    assert hint_buttons(marie.user) == [] and t("fr", "btn.pass") in [b.label for b in
                                                                       shown.buttons]
    fake.assert_no_errors()


async def test_a_hint_stays_until_the_hand_changes(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """The hint is drawn above the hand; a refresh of the table that leaves the hand as it
    was (the other player opening theirs) redrew it at once without the hint, before it
    could be read. It stays until the hand changes (`show_hand` remembers the hand
    without its notice)."""
    table, game, seat, asker, other, loc = await hints_on_until_a_person_acts(
        fake, president, clock)
    await asker.slash("president hand")
    hand = asker.last_ephemeral()
    await asker.click(hand, cid(table, "hint", game.version))
    told = advice(table, seat, loc)
    assert message(asker, hand.id).content.splitlines()[0] == told
    edits = message(asker, hand.id).content
    await other.slash("president hand")  # the table stops asking them for « Ma main »
    await tick(fake, clock, 1.0)
    assert message(asker, hand.id).content == edits
    assert game.to_act == seat
    fake.assert_no_errors()
