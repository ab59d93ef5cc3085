"""A user's DM with the bot, as Discord models it: commands offered there by their contexts,
and interactions from it that carry no guild (docs cited in `fakediscord.payloads`'s
`dm_interaction_payload` and `fakediscord.commands.offered`)."""

from __future__ import annotations

import pytest

from fakediscord import FakeDiscord, TestUser, UserActionError
from fakediscord.commands import BOT_DM, GUILD, offered
from fakediscord.payloads import RESPONSE_PERMISSIONS, interaction_payload, user_payload
from fakediscord.state import DM

from .tinybot import TinyBot


async def test_a_command_from_a_dm_reaches_the_bot_with_no_guild(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser, bob: TestUser
) -> None:
    """discord.py reads the DM's interaction as one with no guild (its guild locale None),
    the answer and its components stay in alice's DM, seen by her alone."""
    record = await alice.slash("president hand", channel=alice.dm)
    hand = alice.last_ephemeral(alice.dm)
    assert hand.content == "Your hand (fr/None)"
    assert alice.dm.type == DM and alice.dm is fake.world.dm_channel(alice.id)
    assert hand.id not in [m.id for m in alice.visible()]
    await alice.click(hand, "Pass")
    assert [m.content for m in alice.visible(alice.dm)] == ["You passed"]

    payload = interaction_payload(fake.world, record)
    for absent in ("guild_id", "guild", "guild_locale", "member"):
        assert absent not in payload, absent
    assert payload["user"] == user_payload(alice.user)
    assert payload["channel"] == {"id": str(alice.dm.id), "type": DM, "last_message_id": None,
                                  "flags": 0, "recipients": [user_payload(alice.user)]}
    assert payload["channel_id"] == str(alice.dm.id)
    assert (payload["context"], payload["authorizing_integration_owners"]) == (1, {"0": "0"})
    assert payload["app_permissions"] == str(RESPONSE_PERMISSIONS)

    with pytest.raises(UserActionError, match="not in the DM"):
        await bob.slash("president hand", channel=alice.dm)
    assert bob.dm is not alice.dm
    assert bot.failures == []


def test_contexts_decide_where_a_command_is_offered() -> None:
    dm_only = {"name": "forget", "contexts": [BOT_DM]}
    guild_only = {"name": "president", "contexts": [GUILD], "dm_permission": False}
    assert offered(dm_only, BOT_DM) and not offered(dm_only, GUILD)
    assert offered(guild_only, GUILD) and not offered(guild_only, BOT_DM)
    # Without contexts the deprecated dm_permission decides, visible by default.
    assert offered({"name": "old"}, BOT_DM) and offered({"name": "old"}, GUILD)
    assert not offered({"name": "old", "dm_permission": False}, BOT_DM)
    # « Guild commands don't support the BOT_DM interaction context ».
    assert not offered({"name": "local", "guild_id": "1", "contexts": [GUILD, BOT_DM]}, BOT_DM)


async def test_a_command_not_offered_in_dms_cannot_be_run_there(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    """The tiny bot's commands have no contexts: offered in DMs unless dm_permission says
    otherwise; a command whose contexts leave DMs out is not in the DM's picker."""
    listed = fake.commands.listing(None)
    fake.commands.sync(None, [
        {k: v for k, v in c.items() if k not in ("id", "application_id", "version")}
        | ({"contexts": [GUILD]} if c["name"] == "president" else {})
        for c in listed])
    assert "president" not in fake.commands.names(None)
    assert "president" in fake.commands.names(fake.guild.id)
    with pytest.raises(UserActionError, match="not synced for a DM with the bot"):
        await alice.slash("president hand", channel=alice.dm)
    await alice.slash("slow", channel=alice.dm, settle=False)
    bot.gate.set()
    await fake.settle()
    assert alice.last_message(alice.dm).content == "finally"


async def test_a_dm_reaches_the_session_of_shard_0_only(
    fake: FakeDiscord, alice: TestUser
) -> None:
    """« Gateway events that do not contain a `guild_id` will only be sent to the first shard
    (`shard_id: 0`). This includes Direct Message (DM) […] events » (Gateway, Sharding;
    discord/discord-api-docs at c98d64bc, developers/events/gateway.mdx): a sharded bot's
    process that does not run shard 0 never hears of a DM's command or click."""
    bots = [TinyBot(shard_id=shard, shard_count=2) for shard in (0, 1)]
    for bot in bots:
        await fake.connect(bot)
    await alice.slash("president create", channel=alice.dm, preset="classic")
    (posted,) = [m for m in alice.visible(alice.dm) if not m.ephemeral]
    await alice.click(posted, "Join")
    assert [user for _, user in bots[0].joins] == [alice.id]
    assert bots[1].joins == []
    assert fake.errors == []
