"""A gap in the bot's gateway connection, as Discord's gateway docs describe it
(developers/events/gateway.mdx, « Resuming », « Initiating a Disconnect »; gateway-events.mdx,
« Reconnect », « Invalid Session »): a RESUME replays what the gap dispatched, in order; a
session that timed out meanwhile makes the client IDENTIFY again and loses the interactions
it never delivered; a Reconnect (opcode 7) is a RESUME at once. On the fake clock."""

from __future__ import annotations

import asyncio

import discord

from fakediscord import FakeDiscord, TestUser
from tests.fresh import fresh

from .tinybot import ShardedTinyBot, TinyBot


def record(bot: discord.Client) -> list[str]:
    """The events the bot is dispatched, in order; a message as its id (the bot has no
    MESSAGE_CONTENT intent)."""
    seen: list[str] = []

    async def on_message(message: discord.Message) -> None:
        seen.append(str(message.id))

    async def on_resumed() -> None:
        seen.append("RESUMED")

    async def on_ready() -> None:
        seen.append("READY")

    bot.on_message = on_message  # type: ignore[attr-defined]
    bot.on_resumed = on_resumed  # type: ignore[attr-defined]
    bot.on_ready = on_ready  # type: ignore[attr-defined]
    return seen


async def test_a_resume_replays_what_the_gap_dispatched_in_order(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    """Messages posted while the connection was down reach the bot once it is back, in
    order, before RESUMED; a slash command sent meanwhile arrives too, but later than the
    three seconds Discord allows its first answer, which is refused (10062)."""
    seen = record(bot)
    await fake.gateway_down()
    said = [str(alice.say(word).id) for word in ("one", "two", "three")]
    asked = await alice.slash("president hand", settle=False)
    await fake.settle()  # the bot cannot answer what it has not received
    fake.clock.advance(10)
    assert seen == [] and not asked.attempted

    await fake.gateway_up()

    assert seen == [*said, "RESUMED"]
    assert fake.gateway.resumes[-1] == 4  # three messages and the interaction
    assert fresh(asked).attempted and isinstance(bot.failures[-1].__cause__, discord.NotFound)
    fake.expect_error(10062)


async def test_a_session_that_timed_out_identifies_again_and_loses_the_gap(
    fake: FakeDiscord, alice: TestUser
) -> None:
    """The gap outlasted the session: the RESUME gets an Invalid Session (d: false), the
    client IDENTIFYs again and is described its guilds anew (READY); what the gap
    dispatched is gone, and the slash command sent meanwhile was never delivered (its
    user saw « This interaction failed »)."""
    bot = ShardedTinyBot(fake.clock)
    await fake.connect(bot)
    seen = record(bot)
    identified = len(fake.gateway.identifies)
    await fake.gateway_down()
    lost = str(alice.say("lost").id)
    asked = await alice.slash("president hand", settle=False)
    fake.clock.advance(300)

    await fake.gateway_up(resumable=False)

    assert len(fake.gateway.identifies) == identified + 1
    assert lost not in seen and "RESUMED" not in seen and "READY" in seen
    assert fake.gateway.lost_interactions == [asked.id]
    assert asked.abandoned and not asked.attempted
    await alice.slash("president hand")
    assert alice.last_ephemeral().content.startswith("Your hand")


async def test_a_reconnect_opcode_is_resumed_at_once(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    seen = record(bot)
    resumes = len(fake.gateway.resumes)

    fake.gateway.reconnect()
    await fake.settle()
    after = str(alice.say("after").id)
    await fake.settle()

    assert len(fake.gateway.resumes) == resumes + 1 and seen == ["RESUMED", after]


async def test_a_stopped_client_leaves_no_session_to_send_a_click_to(
    fake: FakeDiscord, bot: TinyBot
) -> None:
    """A stopped bot's session is ended (`Gateway.end_detached`): a click then finds no
    bot, loudly, rather than waiting in a session nobody will resume."""
    await fake.disconnect(bot)

    assert not fake.gateway.reachable


async def test_an_invalid_session_that_may_be_resumed_is_resumed(
    fake: FakeDiscord, bot: TinyBot
) -> None:
    identified, resumes = len(fake.gateway.identifies), len(fake.gateway.resumes)
    resumed = asyncio.create_task(bot.wait_for("resumed", timeout=5))

    fake.gateway.invalid_session(resumable=True)
    await resumed

    assert len(fake.gateway.resumes) == resumes + 1
    assert len(fake.gateway.identifies) == identified


async def test_an_invalid_session_that_may_not_be_resumed_is_identified_anew(
    fake: FakeDiscord, alice: TestUser
) -> None:
    """The session is over: the client IDENTIFYs again (on its clock, 5 s after its last
    IDENTIFY) and is described its guilds anew."""
    bot = ShardedTinyBot(fake.clock)
    await fake.connect(bot)
    fake.clock.advance(5)
    identified, resumes = len(fake.gateway.identifies), len(fake.gateway.resumes)
    ready = asyncio.create_task(bot.wait_for("shard_ready", timeout=5))

    fake.gateway.invalid_session(resumable=False)
    await ready

    assert len(fake.gateway.identifies) == identified + 1
    assert len(fake.gateway.resumes) == resumes
    await alice.slash("president hand")
    assert alice.last_ephemeral().content.startswith("Your hand")
