"""A user dismisses one of their ephemeral messages (issue 8 §6).

Discord tells the bot nothing; the bot's edits and deletes through the interaction token
still succeed; only the user's screen loses the message. See
:meth:`fakediscord.state.World.dismiss` for the documentation this follows.
"""

from __future__ import annotations

import discord
import pytest

from fakediscord import FakeDiscord, TestUser, UserActionError, render_message

from .tinybot import TinyBot


async def test_a_dismissed_ephemeral_leaves_the_screen_and_the_bot_is_told_nothing(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    await alice.slash("president hand")
    hand = alice.last_ephemeral()
    mark, interactions = fake.mark(), len(fake.interactions)

    alice.dismiss(hand)
    await fake.settle()

    assert fake.calls_since(mark) == [] and len(fake.interactions) == interactions
    assert hand.id not in [m.id for m in alice.visible()]
    with pytest.raises(UserActionError, match="no ephemeral message"):
        alice.last_ephemeral()
    # The god's view keeps it, flagged.
    (kept,) = [m for m in fake.messages() if m.id == hand.id]
    assert kept.dismissed and kept.content == hand.content
    assert render_message(kept).splitlines()[0] == (
        "Président (to alice) [only you can see this] [dismissed]"
    )
    assert not hand.dismissed  # the snapshot read before is what alice saw then


async def test_dismissing_one_ephemeral_keeps_the_others(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    await alice.slash("president hand")
    first = alice.last_ephemeral()
    await alice.slash("president hand")
    second = alice.last_ephemeral()

    alice.dismiss(first)

    assert [m.id for m in alice.visible() if m.ephemeral] == [second.id]
    assert alice.last_ephemeral().id == second.id


async def test_the_bots_edit_of_the_original_response_still_succeeds(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    await alice.slash("edit_later")
    first = alice.last_ephemeral()
    alice.dismiss(first)
    mark = fake.mark()

    bot.gate.set()
    await fake.settle()

    patches = fake.calls_since(mark, "/webhooks/{webhook_id}/{webhook_token}/messages/@original")
    assert [(c.method, c.status) for c in patches] == [("PATCH", 200)]
    (kept,) = [m for m in fake.messages() if m.id == first.id]
    assert kept.content == "second" and kept.edited and kept.dismissed
    assert first.id not in [m.id for m in alice.visible()]  # an edit does not bring it back
    assert bot.failures == []


async def test_followup_edit_and_delete_of_a_dismissed_message_succeed(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    inter = await alice.slash("president create", preset="Classic")
    (hosting_id,) = inter.followup_ids
    alice.dismiss(hosting_id)
    webhook = discord.Webhook.partial(fake.world.application_id, inter.token, client=bot)

    edited = await webhook.edit_message(hosting_id, content="You host, still")

    assert edited.content == "You host, still"
    (kept,) = [m for m in fake.messages() if m.id == hosting_id]
    assert kept.dismissed and kept.content == "You host, still"
    assert hosting_id not in [m.id for m in alice.visible()]

    await webhook.delete_message(hosting_id)

    assert hosting_id not in [m.id for m in fake.messages()]
    route = "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"
    assert [(c.method, c.status) for c in fake.calls if c.route == route] == [
        ("PATCH", 200),
        ("DELETE", 204),
    ]


async def test_a_dismissed_message_cannot_be_acted_on(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    await alice.slash("president hand")
    hand = alice.last_ephemeral()
    alice.dismiss(hand)
    interactions = len(fake.interactions)

    with pytest.raises(UserActionError, match="alice dismissed message .*no longer on"):
        await alice.click(hand, "Pass")
    with pytest.raises(UserActionError, match="dismissed"):
        await alice.select(hand, ["K×2"])
    with pytest.raises(UserActionError, match="dismissed"):
        await alice.click_shown(hand, "Pass")  # even as it was on screen before
    with pytest.raises(UserActionError, match="dismissed"):
        await alice.select_shown(hand, ["K×2"])

    assert len(fake.interactions) == interactions


async def test_a_click_made_before_the_dismissal_is_still_answered(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    await alice.slash("president hand")
    hand = alice.last_ephemeral()

    inter = await alice.select(hand, ["K×2"], settle=False)
    alice.dismiss(hand)
    await fake.settle()

    assert inter.response_type == 7
    (kept,) = [m for m in fake.messages() if m.id == hand.id]
    assert kept.content == "You picked ['K2']" and kept.dismissed
    assert hand.id not in [m.id for m in alice.visible()]


async def test_dismissing_what_is_not_ones_own_ephemeral_is_a_test_error(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser, bob: TestUser
) -> None:
    await alice.slash("president create", preset="Classic")
    table, hosting = alice.visible()

    with pytest.raises(UserActionError, match="only ephemeral messages"):
        alice.dismiss(table)
    with pytest.raises(UserActionError, match="someone else's ephemeral"):
        bob.dismiss(hosting)
    with pytest.raises(UserActionError, match="no longer exists"):
        alice.dismiss(123)

    alice.dismiss(hosting)
    with pytest.raises(UserActionError, match="already dismissed"):
        alice.dismiss(hosting)
    assert not [m for m in fake.messages() if m.dismissed and m.id != hosting.id]
