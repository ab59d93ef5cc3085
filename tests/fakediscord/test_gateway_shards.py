"""The gateway starts sessions as strictly as Discord (discord-api-docs,
developers/events/gateway.mdx, "Identifying", "Rate Limiting", "Sharding", "Get Gateway Bot",
"Session Start Limit Object"; close codes from developers/topics/opcodes-and-status-codes.mdx,
"Gateway Close Event Codes"): 4010 for an invalid shard, 4011 for a session that would
handle too many guilds, an Invalid Session for an IDENTIFY sooner than max_concurrency
allows, and one session start used per IDENTIFY.

Spoken at the websocket's level with aiohttp, on the fake clock: nothing sleeps."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from fakediscord import FakeDiscord
from fakediscord.gateway import GatewayLimits

from .tinybot import ShardedTinyBot

HELLO, IDENTIFY, INVALID_SESSION, DISPATCH = 10, 2, 9, 0


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as client_session:
        yield client_session


async def identify(
    fake: FakeDiscord,
    session: aiohttp.ClientSession,
    shard: Any = None,
    *,
    token: str | None = None,
) -> tuple[aiohttp.ClientWebSocketResponse, dict[str, Any] | int]:
    """Open a gateway websocket and IDENTIFY; the answer is the first frame after HELLO
    (READY or Invalid Session) or, if the fake closed the websocket, its close code."""
    ws = await session.ws_connect(fake.gateway.url)
    hello = await ws.receive_json()
    assert hello["op"] == HELLO
    data: dict[str, Any] = {"token": token or fake.token, "intents": 1, "properties": {}}
    if shard is not None:
        data["shard"] = shard
    await ws.send_json({"op": IDENTIFY, "d": data})
    message = await ws.receive()
    if message.type is aiohttp.WSMsgType.TEXT:
        return ws, message.json()
    assert message.type is aiohttp.WSMsgType.CLOSE, message
    return ws, int(message.data)


def ready(answer: dict[str, Any] | int) -> bool:
    return isinstance(answer, dict) and answer["op"] == DISPATCH and answer["t"] == "READY"


async def gateway_bot(fake: FakeDiscord, session: aiohttp.ClientSession) -> dict[str, Any]:
    headers = {"Authorization": f"Bot {fake.token}"}
    async with session.get(fake.api_url + "/gateway/bot", headers=headers) as response:
        assert response.status == 200
        body: dict[str, Any] = await response.json()
        return body


def add_guilds(fake: FakeDiscord, count: int) -> None:
    """``count`` more guilds, one fake millisecond apart: consecutive shards."""
    for n in range(count):
        fake.clock.advance(0.001)
        fake.add_guild(f"Guild {n}")


@pytest.mark.parametrize("shard", [[2, 2], [5, 2], [-1, 2], [0, 0], [1], "0,1", [0, "1"]])
async def test_an_invalid_shard_is_closed_with_4010(
    fake: FakeDiscord, session: aiohttp.ClientSession, shard: Any
) -> None:
    ws, answer = await identify(fake, session, shard)

    assert answer == 4010 and ws.close_code == 4010
    assert fake.gateway.identifies == []


async def test_a_wrong_token_is_closed_with_4004(
    fake: FakeDiscord, session: aiohttp.ClientSession
) -> None:
    _, answer = await identify(fake, session, token="not-the-token")
    assert answer == 4004


async def test_a_session_above_the_guilds_per_shard_is_closed_with_4011(
    session: aiohttp.ClientSession,
) -> None:
    async with FakeDiscord.running(gateway_limits=GatewayLimits(guilds_per_shard=2)) as fake:
        add_guilds(fake, 3)  # four guilds in all

        _, unsharded = await identify(fake, session)
        assert unsharded == 4011
        # Discord's recommendation is one that no shard exceeds.
        shards = (await gateway_bot(fake, session))["shards"]
        assert shards == 2
        for shard_id in range(shards):
            _, answer = await identify(fake, session, [shard_id, shards])
            assert ready(answer)
            assert isinstance(answer, dict) and len(answer["d"]["guilds"]) == 2
            fake.clock.advance(5.0)


async def test_the_recommended_shards_leave_no_shard_above_the_maximum(
    session: aiohttp.ClientSession,
) -> None:
    async with FakeDiscord.running(gateway_limits=GatewayLimits(guilds_per_shard=3)) as fake:
        assert (await gateway_bot(fake, session))["shards"] == 1
        add_guilds(fake, 6)  # seven guilds: three shards at least
        assert (await gateway_bot(fake, session))["shards"] == 3
        fake.gateway.recommended_shards = 5  # a test may ask for more, never fewer
        assert (await gateway_bot(fake, session))["shards"] == 5


async def test_an_identify_sooner_than_max_concurrency_allows_is_an_invalid_session(
    fake: FakeDiscord, session: aiohttp.ClientSession
) -> None:
    _, first = await identify(fake, session, [0, 2])
    assert ready(first)

    # max_concurrency 1: every shard has rate limit key 0, one IDENTIFY per 5 seconds.
    ws, early = await identify(fake, session, [1, 2])
    assert early == {"op": INVALID_SESSION, "d": False}
    assert not ws.closed  # Discord answers with opcode 9; the client closes
    fake.clock.advance(4.999)
    _, still_early = await identify(fake, session, [1, 2])
    assert still_early == {"op": INVALID_SESSION, "d": False}
    fake.clock.advance(0.001)
    _, on_time = await identify(fake, session, [1, 2])
    assert ready(on_time)
    assert fake.gateway.identifies == [(0, 2), (1, 2)]


async def test_max_concurrency_buckets_shards_by_shard_id_modulo(
    session: aiohttp.ClientSession,
) -> None:
    async with FakeDiscord.running(gateway_limits=GatewayLimits(max_concurrency=2)) as fake:
        add_guilds(fake, 3)
        assert (await gateway_bot(fake, session))["session_start_limit"]["max_concurrency"] == 2
        # Keys 0 and 1 start at once; shard 2 has key 0 again and waits for its bucket.
        _, zero = await identify(fake, session, [0, 4])
        _, one = await identify(fake, session, [1, 4])
        _, two = await identify(fake, session, [2, 4])
        assert ready(zero) and ready(one)
        assert two == {"op": INVALID_SESSION, "d": False}
        fake.clock.advance(5.0)
        _, two_again = await identify(fake, session, [2, 4])
        _, three = await identify(fake, session, [3, 4])
        assert ready(two_again) and ready(three)


async def test_each_identify_uses_one_session_start(
    fake: FakeDiscord, session: aiohttp.ClientSession
) -> None:
    limit = (await gateway_bot(fake, session))["session_start_limit"]
    assert limit == {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}

    _, answer = await identify(fake, session)
    assert ready(answer)
    await identify(fake, session)  # too early: refused, uses none
    await identify(fake, session, [3, 1])  # 4010: uses none
    fake.clock.advance(60.0)
    limit = (await gateway_bot(fake, session))["session_start_limit"]
    assert limit["remaining"] == 999
    assert limit["reset_after"] == 24 * 3600 * 1000 - 60_000

    fake.clock.advance(24 * 3600.0)
    limit = (await gateway_bot(fake, session))["session_start_limit"]
    assert limit["remaining"] == 1000 and limit["reset_after"] == 0


async def test_the_session_start_limit_terminates_every_session_and_resets_the_token(
    session: aiohttp.ClientSession,
) -> None:
    async with FakeDiscord.running(gateway_limits=GatewayLimits(session_starts=1)) as fake:
        first, answer = await identify(fake, session)
        assert ready(answer)
        fake.clock.advance(5.0)

        _, refused = await identify(fake, session)

        assert refused == 4004
        while (await first.receive()).type is aiohttp.WSMsgType.TEXT:
            pass  # the first session's GUILD_CREATE, then its end
        assert first.close_code == 4004
        headers = {"Authorization": f"Bot {fake.token}"}
        async with session.get(fake.api_url + "/users/@me", headers=headers) as response:
            assert response.status == 401
        fake.log.expect_status(401)


async def test_an_auto_sharded_client_identifies_its_shards_five_seconds_apart(
    fake: FakeDiscord,
) -> None:
    add_guilds(fake, 2)
    fake.gateway.recommended_shards = 3
    bot = ShardedTinyBot(fake.clock)
    start = fake.clock.monotonic()

    await fake.connect(bot, advance=fake.clock.advance)

    assert fake.gateway.identifies == [(0, 3), (1, 3), (2, 3)]
    assert fake.gateway.refused == []
    assert fake.clock.monotonic() == pytest.approx(start + 10.0)
    assert len(bot.guilds) == 3
