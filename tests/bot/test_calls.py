"""Which failed Discord calls are worth trying again (`calls.passing`): the one rule the
chart uploads and take-offs, the pings, the owed edits, the unreadable tables' word and the
member checks share."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import aiohttp
import discord
import pytest

from bot.packages.publisher.calls import passing


def _http(status: int) -> discord.HTTPException:
    """What discord.py raises for an answer of `status` (it reads the status and reason)."""
    response: Any = SimpleNamespace(status=status, reason="reason")
    if status == 403:
        return discord.Forbidden(response, {"code": 50001, "message": "Missing Access"})
    if status == 404:
        return discord.NotFound(response, {"code": 10008, "message": "Unknown Message"})
    if status >= 500:
        return discord.DiscordServerError(response, "server error")
    return discord.HTTPException(response, {"code": 50035, "message": "Invalid Form Body"})


@pytest.mark.parametrize("status", [429, 500, 502, 503, 504, 524])
def test_a_server_error_or_a_429_passes(status: int) -> None:
    assert passing(_http(status))


@pytest.mark.parametrize("status", [400, 401, 403, 404, 405, 413])
def test_any_other_4xx_is_a_refusal_that_would_answer_the_same(status: int) -> None:
    assert not passing(_http(status))


@pytest.mark.parametrize("err", [
    discord.RateLimited(42.0),
    aiohttp.ServerDisconnectedError(),
    aiohttp.ClientConnectionError("reset"),
    TimeoutError(),
], ids=["rate limited", "disconnected", "connection", "timeout"])
def test_a_long_rate_limit_the_network_or_a_timeout_passes(err: Exception) -> None:
    assert passing(err)


def test_a_bug_is_no_passing_failure() -> None:
    assert not passing(ValueError("a bug"))
