"""End-to-end: a player dismisses their ephemeral hand mid-game (issue 8 §6).

Discord tells the bot nothing when a player dismisses an ephemeral message, and the
bot's edits of it still succeed (see fakediscord.state.World.dismiss): the table must
keep offering a way to reopen one's hand.
"""

from bot.client import PresidentBot
from engine import Phase
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import Player, cid, message, tick, two_humans_against_a_bot

ORIGINAL = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"


async def test_a_dismissed_hand_is_reopened_from_the_table_and_played_from(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    alice = Player(fake.add_user("alice"))
    bob = Player(fake.add_user("bob"))
    table, game = await two_humans_against_a_bot(fake, clock, president, alice, bob)
    alice_seat = table.seat_of(alice.user.id)
    assert game.phase is Phase.PLAY and alice_seat is not None
    dismissed = alice.hand
    alice.user.dismiss(dismissed)
    mark, version = fake.mark(), game.version

    # The game goes on without her hand on screen: bob and the bot play, the bot redraws
    # the dismissed hand as it would any other, and Discord accepts the edits.
    bob_played = False
    for _ in range(200):
        if bob_played and game.version != version and game.to_act == alice_seat:
            break
        if await bob.act():
            bob_played = True
        else:
            await tick(fake, clock, 1)
    else:
        raise AssertionError("the turn never came back to alice")
    await tick(fake, clock, 1)  # the redraw of the last move lands
    redraws = [c for c in fake.calls_since(mark, ORIGINAL) if c.user == "alice"]
    assert redraws and all((c.method, c.status) == ("PATCH", 200) for c in redraws)
    (kept,) = [m for m in fake.messages() if m.id == dismissed.id]
    assert kept.dismissed and kept.text != dismissed.text  # redrawn, unseen
    assert dismissed.id not in [m.id for m in alice.user.visible()]
    assert not [m for m in alice.user.visible() if m.ephemeral]  # she sees no hand at all

    # The public table message still offers her hand: a fresh one, as the game is now.
    board = message(alice.user, table.table_message_id)
    assert cid(table, "hand") in [b.custom_id for b in board.buttons]
    await alice.open_hand(president)
    fresh = alice.hand
    assert fresh.id != dismissed.id and fresh.ephemeral and not fresh.dismissed
    assert fresh.text == kept.text  # the same current state the unseen redraw showed
    assert any(":play:" in s.custom_id for s in fresh.selects)

    # And she plays from it.
    before = len(game.hand(alice_seat))
    assert await alice.act()
    assert len(game.hand(alice_seat)) < before or game.to_act != alice_seat
    fake.assert_no_errors()
