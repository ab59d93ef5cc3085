"""The fake's sense of time, moved by tests instead of by the wall clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

DEFAULT_START = datetime(2025, 1, 6, 12, 0, tzinfo=UTC)


class FakeClock:
    """Time as the fake judges it.

    Discord's deadlines (3 s to acknowledge, 15 min per interaction token) are judged on
    this clock so tests can cross them with :meth:`advance` instead of sleeping. It never
    moves by itself: a test that does not advance it runs at "zero latency".
    """

    def __init__(self, start: datetime = DEFAULT_START) -> None:
        if start.tzinfo is None:
            raise ValueError("start must be timezone-aware, Discord timestamps are UTC")
        self._start = start
        self._elapsed = 0.0

    def monotonic(self) -> float:
        """Seconds since the clock was created; deadlines are differences of this."""
        return self._elapsed

    def now(self) -> datetime:
        """Wall time for snowflakes and message timestamps."""
        return self._start + timedelta(seconds=self._elapsed)

    def advance(self, seconds: float) -> None:
        """Move time forward, e.g. past the 3-second acknowledgement deadline."""
        if seconds < 0:
            raise ValueError("time only moves forward")
        self._elapsed += seconds
