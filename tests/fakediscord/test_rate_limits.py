"""Discord's rate limits in the fake: per-route buckets per top-level resource, the global
limit, their headers and 429 bodies, judged on the fake clock (issue 8, part 2)."""

from __future__ import annotations

from typing import Any

import aiohttp

from fakediscord import FakeDiscord, RateLimitConfig, TestUser, Window
from fakediscord.ratelimits import RateLimiter

from .tinybot import TinyBot


async def post(fake: FakeDiscord, channel_id: int) -> tuple[int, Any, dict[str, str]]:
    """A raw POST, so the test sees every header (discord.py would retry a 429 itself)."""
    headers = {"Authorization": f"Bot {fake.token}"}
    url = f"{fake.api_url}/channels/{channel_id}/messages"
    async with aiohttp.ClientSession() as session, session.post(
        url, json={"content": "hi"}, headers=headers
    ) as response:
        return response.status, await response.json(), dict(response.headers)


async def test_limits_are_off_unless_enabled(fake: FakeDiscord) -> None:
    answers = [await post(fake, fake.channel.id) for _ in range(60)]
    assert [status for status, _, _ in answers] == [200] * 60
    assert not any(name.startswith("X-RateLimit") for _, _, headers in answers
                   for name in headers)


async def test_a_channels_message_bucket_counts_per_channel_on_the_fake_clock(
    fake: FakeDiscord,
) -> None:
    fake.enable_rate_limits(RateLimitConfig(channel_messages=Window(3, 5.0)))
    other = fake.add_channel(fake.guild, "other")
    answers = [await post(fake, fake.channel.id) for _ in range(3)]
    assert [status for status, _, _ in answers] == [200] * 3
    assert [headers["X-RateLimit-Remaining"] for _, _, headers in answers] == ["2", "1", "0"]
    headers = answers[-1][2]
    assert headers["X-RateLimit-Limit"] == "3"
    assert float(headers["X-RateLimit-Reset-After"]) == 5.0
    reset = float(headers["X-RateLimit-Reset"])
    assert reset == fake.clock.now().timestamp() + 5.0

    fake.clock.advance(2.0)
    status, body, headers = await post(fake, fake.channel.id)
    assert status == 429
    assert body == {"message": "You are being rate limited.", "retry_after": 3.0,
                    "global": False}
    assert headers["X-RateLimit-Scope"] == "user" and "X-RateLimit-Global" not in headers
    assert headers["Retry-After"] == "3" and headers["X-RateLimit-Remaining"] == "0"
    assert fake.expect_rate_limited().route == "/channels/{channel_id}/messages"
    assert fake.invalid_requests() == 1

    # Another channel is another bucket, under the same bucket name.
    status, _, other_headers = await post(fake, other.id)
    assert status == 200 and other_headers["X-RateLimit-Remaining"] == "2"
    assert other_headers["X-RateLimit-Bucket"] == headers["X-RateLimit-Bucket"]

    fake.clock.advance(3.0)
    status, _, headers = await post(fake, fake.channel.id)
    assert status == 200 and headers["X-RateLimit-Remaining"] == "2"


async def test_the_global_limit_spans_channels_and_resets_each_second(
    fake: FakeDiscord,
) -> None:
    fake.enable_rate_limits(RateLimitConfig(global_window=Window(4, 1.0)))
    channels = [fake.add_channel(fake.guild, f"c{i}") for i in range(5)]
    for channel in channels[:4]:
        assert (await post(fake, channel.id))[0] == 200
    fake.clock.advance(0.25)
    status, body, headers = await post(fake, channels[4].id)
    assert status == 429
    assert body["global"] is True and body["retry_after"] == 0.75
    assert headers["X-RateLimit-Global"] == "true"
    assert headers["X-RateLimit-Scope"] == "global"
    fake.expect_rate_limited()
    fake.clock.advance(0.75)
    assert (await post(fake, channels[4].id))[0] == 200


async def test_interaction_endpoints_escape_the_global_limit_but_not_their_bucket(
    fake: FakeDiscord, bot: TinyBot, alice: TestUser
) -> None:
    """Interaction endpoints are not bound to the global limit; their webhook routes have a
    bucket per webhook id + token."""
    fake.enable_rate_limits(RateLimitConfig(global_window=Window(1, 1.0)))
    assert (await post(fake, fake.channel.id))[0] == 200
    # The global second is used up; a slash command's callback and follow-up still pass.
    await alice.slash("president create", preset="Classic", seats=6, public=False)
    assert fake.errors == []
    followups = [c for c in fake.calls if c.route.startswith("/webhooks/")]
    assert followups and all(c.status == 200 for c in followups)
    assert (await post(fake, fake.channel.id))[0] == 429
    fake.expect_rate_limited()


def test_webhook_buckets_are_per_id_and_token(fake: FakeDiscord) -> None:
    limiter = RateLimiter(fake.clock, RateLimitConfig(webhooks=Window(1, 2.0)))
    route = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
    assert not limiter.judge("PATCH", route, "1/a").refused
    assert not limiter.judge("PATCH", route, "1/b").refused
    refused = limiter.judge("PATCH", route, "1/a")
    assert refused.refused and not refused.is_global and refused.retry_after == 2.0
