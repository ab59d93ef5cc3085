"""Discord's rate limits: per-route buckets per top-level resource and the global limit.

Read against discord-api-docs, developers/topics/rate-limits.mdx
(https://discord.com/developers/docs/topics/rate-limits):

- "per-route rate limits often account for top-level resources within the path [...]
  channels (channel_id), guilds (guild_id), and webhooks (webhook_id or webhook_id +
  webhook_token)": a channel's message routes are counted per channel, webhook and
  interaction-token routes per id + token.
- "All bots can make up to 50 requests per second to our API [...] independent of any
  individual rate limit on a route", and "Interaction endpoints are not bound to the bot's
  Global Rate Limit" (the callback, follow-ups and edits through an interaction's token,
  interactions/receiving-and-responding#endpoints).
- "Interactions webhooks share the same rate limit properties as normal webhooks"
  (receiving-and-responding.mdx, Followup Messages): editing an ephemeral hand through
  ``/webhooks/{application_id}/{token}/messages/@original`` is counted in the webhook
  bucket of that id + token like any webhook call, outside the global limit. Whether the
  message is ephemeral changes nothing in the docs; Discord's support article « My Bot is
  Being Rate Limited » says ephemeral responses and follow-ups « do not count towards the
  rate limits », which the API docs do not say: the fake follows the docs. Every
  ``/webhooks/`` route the fake serves is an interaction token's (it has no channel
  webhooks), so all of them are outside the global limit. The docs publish no number for
  the webhook bucket: 5 per 2 s is what bots observe (below), a setting.
- "rate limits should not be hard coded into your app": every number here is a setting,
  and the bot must read the headers rather than assume them.

Time is the fake's clock, never the wall clock, so tests cross a window with ``advance``.
Buckets are fixed windows opened by their first request, which is what the headers
describe (a Reset time, a Remaining count until then).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from .clock import FakeClock

INTERACTION_ROUTE_PREFIXES = ("/interactions/", "/webhooks/")


@dataclass(frozen=True)
class Window:
    """``limit`` requests per ``seconds``."""

    limit: int
    seconds: float


@dataclass(frozen=True)
class RateLimitConfig:
    """The numbers the fake enforces. Discord publishes only the global one (50/s); the
    per-route defaults are what bots commonly observe on message routes (5 per 5 s per
    channel) and on webhook routes (5 per 2 s per id + token)."""

    global_window: Window = Window(50, 1.0)
    channel_messages: Window = Window(5, 5.0)
    webhooks: Window = Window(5, 2.0)


@dataclass
class _Bucket:
    window: Window
    opened: float = float("-inf")
    used: int = 0

    def roll(self, now: float) -> None:
        if now >= self.opened + self.window.seconds:
            self.opened = now
            self.used = 0

    def reset_after(self, now: float) -> float:
        return max(0.0, self.opened + self.window.seconds - now)


@dataclass(frozen=True)
class Verdict:
    """What the limiter decided for one request: the headers to send and, when refused,
    the 429's retry_after and whether it was the global limit."""

    headers: dict[str, str]
    refused: bool = False
    retry_after: float = 0.0
    is_global: bool = False


@dataclass
class RateLimiter:
    """Counts requests per bucket and globally; ``config`` None switches limits off."""

    clock: FakeClock
    config: RateLimitConfig | None = None
    _buckets: dict[tuple[str, str], _Bucket] = field(default_factory=dict)
    _global: _Bucket | None = None

    def enable(self, config: RateLimitConfig) -> None:
        self.config = config
        self._buckets.clear()
        self._global = None

    def judge(self, method: str, route: str, resource: str | None) -> Verdict:
        """Count one request to ``route`` (a template) on its top-level ``resource``
        (channel id, or webhook id + token), or refuse it with a 429."""
        if self.config is None:
            return Verdict({})
        now = self.clock.monotonic()
        counted = not route.startswith(INTERACTION_ROUTE_PREFIXES)
        if counted:
            if self._global is None:
                self._global = _Bucket(self.config.global_window)
            self._global.roll(now)
            if self._global.used >= self._global.window.limit:
                # The global 429 carries X-RateLimit-Global and Scope global (Example
                # Exceeded Global Rate Limit Response, same page).
                headers = {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}
                retry = self._global.reset_after(now)
                return Verdict(headers, refused=True, retry_after=retry, is_global=True)
        found = self._bucket(route, resource)
        headers = {}
        refused = False
        reset_after = 0.0
        if found is not None:
            name, bucket = found
            bucket.roll(now)
            refused = bucket.used >= bucket.window.limit
            bucket.used += 0 if refused else 1
            reset_after = bucket.reset_after(now)
            headers = {
                "X-RateLimit-Limit": str(bucket.window.limit),
                "X-RateLimit-Remaining": str(bucket.window.limit - bucket.used),
                # Epoch seconds; discord.py reads Reset-After unless told to use its clock.
                "X-RateLimit-Reset": f"{self.clock.now().timestamp() + reset_after:.3f}",
                "X-RateLimit-Reset-After": f"{reset_after:.3f}",
                "X-RateLimit-Bucket": name,
            }
        if refused:
            # "X-RateLimit-Scope - Returned only on HTTP 429 responses [...] user (per bot
            # or user limit)".
            headers["X-RateLimit-Scope"] = "user"
            return Verdict(headers, refused=True, retry_after=reset_after)
        if counted and self._global is not None:
            self._global.used += 1
        return Verdict(headers)

    def _bucket(self, route: str, resource: str | None) -> tuple[str, _Bucket] | None:
        assert self.config is not None
        if route.startswith("/channels/{channel_id}/messages"):
            kind, window = "channel-messages", self.config.channel_messages
        elif route.startswith("/webhooks/"):
            kind, window = "webhooks", self.config.webhooks
        else:
            return None
        # The bucket hash is "non-inclusive of top-level resources in the path": one name
        # for every channel, counted apart per channel.
        name = hashlib.sha1(kind.encode()).hexdigest()[:16]
        key = (name, resource or "")
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(window)
        return name, bucket
