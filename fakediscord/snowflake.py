"""Discord snowflake ids, minted from the fake clock so ids and timestamps agree."""

from __future__ import annotations

from .clock import FakeClock

DISCORD_EPOCH_MS = 1_420_070_400_000
_INCREMENT_BITS = 12


class Snowflakes:
    """Mints strictly increasing ids whose time part follows the fake clock.

    discord.py derives ``created_at`` from ids and orders messages by them, so ids must grow
    even when the clock stands still: the 12-bit increment absorbs that, and if it would
    overflow the time part is nudged one millisecond ahead.
    """

    def __init__(self, clock: FakeClock) -> None:
        self._clock = clock
        self._last_ms = 0
        self._increment = 0

    def next(self) -> int:
        ms = int(self._clock.now().timestamp() * 1000) - DISCORD_EPOCH_MS
        if ms <= self._last_ms:
            ms = self._last_ms
            self._increment += 1
            if self._increment >= 1 << _INCREMENT_BITS:
                ms += 1
                self._increment = 0
        else:
            self._increment = 0
        self._last_ms = ms
        return (ms << 22) | self._increment
