"""What the publisher's channel calls share: no pings, the refusals of a closed thread, and
which failures pass.

The codes are Discord's JSON error codes
(https://discord.com/developers/docs/topics/opcodes-and-status-codes#json-json-error-codes).
"""

from __future__ import annotations

from typing import TypeAlias

import aiohttp
import discord

NO_PINGS = discord.AllowedMentions.none()
# "Tried to perform an operation on an archived thread, such as editing a message". A post
# is no such operation: "Sending a message will automatically unarchive the thread, unless
# the thread has been locked by a moderator" (Threads, Active & Archived Threads,
# https://discord.com/developers/docs/topics/threads#active-archived-threads).
ARCHIVED_THREAD = 50083
# "Thread is locked": "Users (including bot users) without the MANAGE_THREADS permission
# [...] won't be able to create or update messages in locked threads" (Threads, Locked
# Threads, https://discord.com/developers/docs/topics/threads#locked-threads).
THREAD_LOCKED = 160005

# A failed call that may go through if tried again (`passing`, which tells a 5xx or a 429 from
# a refusal): an HTTP error past discord.py's own retries, or the network: a dropped
# connection (aiohttp's `ClientError`), a `TimeoutError`. A long 429 of Discord's is
# `discord.RateLimited`, which its callers catch first and wait out as it says.
Passing: TypeAlias = discord.HTTPException | aiohttp.ClientError | TimeoutError


def passing(err: BaseException) -> bool:
    """Whether a failed call may go through if tried again (HTTP Response Codes,
    https://discord.com/developers/docs/topics/opcodes-and-status-codes#http-http-response-codes):
    a server error ("502 (GATEWAY UNAVAILABLE) [...] Wait a bit and retry", "5xx (SERVER
    ERROR) [...] these are rare") past discord.py's own retries, a 429 (a rate limit, or
    Cloudflare's without `Via`), discord.py's `RateLimited` (waited out as it says), the
    network or a timeout. Any other refusal, a 4xx (a 403 Missing Access, a 404 Unknown
    Channel or Message, an invalid form body), would be answered the same again.

    The one rule of the chart uploads and take-offs, the pings, the owed edits, the
    unreadable tables' word and the member checks."""
    if isinstance(err, discord.HTTPException):
        return err.status == 429 or err.status >= 500
    return isinstance(err, discord.RateLimited | aiohttp.ClientError | TimeoutError)


def described(err: BaseException) -> str:
    """A failed call in a log line: Discord's status and code, else the network's error."""
    if isinstance(err, discord.HTTPException):
        return f"{err.status} {err.code}"
    if isinstance(err, discord.RateLimited):
        return f"rate limited for {err.retry_after:.1f} s"
    return repr(err)
