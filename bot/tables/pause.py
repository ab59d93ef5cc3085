"""A break at the table (`Pause`): who called it, since when, and the time its limit waits.

Its own record, apart from `Table` that holds it and from `bot.tables.breaks` that acts
on it (which imports the table), so that both can read it one way.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.tables.snapshot import PauseSnapshot


@dataclass(frozen=True)
class Pause:
    """A break at the table (`bot.tables.breaks`), the host's or a player's own (`own`):
    who called it, as the table names them (the host role may pass on meanwhile), since
    when on the service's clock, and the reason they gave, if any. The clocks it holds are `Table.paused_since`'s.

    Its limit (`deadlines.pause_ends`) waits while nobody could continue it, as the turn
    clocks wait for an outage: `held`, the seconds Discord had lost the server or the
    gateway was gone during it, or the bot was away (a restart, `Outages.adopt`), and
    `outage_since`, the start of such an outage while it lasts (stored: a restart
    meanwhile goes on counting it until the server is back, `Outages.server_back`). Before
    (stop 49), an hour's break reaching its hour during an outage closed the table,
    though nobody could have pressed « Continuer ».

    `own`: a seated player's own short break (stop 50), not the host's: it lasts
    `breaks.OWN_PAUSE_SECONDS` and then the game goes on by itself rather than closing,
    and they or the host may end it sooner."""

    by: int
    name: str
    since: float
    reason: str = ""
    held: float = 0.0
    outage_since: float | None = None
    own: bool = False

    def outage_began(self, now: float) -> Pause:
        """An outage began at `now`: its limit waits from then (one under way goes on)."""
        return self if self.outage_since is not None else replace(self, outage_since=now)

    def outage_ended(self, now: float) -> Pause:
        """The outage under way, if any, ended at `now`: its time is added to `held`."""
        if self.outage_since is None:
            return self
        return replace(self, held=self.held + max(0.0, now - self.outage_since),
                       outage_since=None)

    def away(self, seconds: float) -> Pause:
        """The bot was away `seconds` (a restart): nobody could continue meanwhile."""
        return replace(self, held=self.held + seconds)

    def to_dict(self) -> PauseSnapshot:
        # The limit's fields only when set: a break without an outage stores what stop 49
        # did, and a version rolled back to reads the rest and ignores them.
        d: PauseSnapshot = {"by": self.by, "name": self.name, "since": self.since,
                            "reason": self.reason}
        if self.held:
            d["held"] = self.held
        if self.outage_since is not None:
            d["outage_since"] = self.outage_since
        if self.own:
            d["own"] = True
        return d

    @classmethod
    def from_dict(cls, d: PauseSnapshot) -> Pause:
        outage = d.get("outage_since")
        return cls(int(d["by"]), str(d["name"]), float(d["since"]), str(d.get("reason", "")),
                   float(d.get("held", 0.0)), float(outage) if outage is not None else None,
                   bool(d.get("own", False)))
