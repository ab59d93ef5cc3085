"""The reminder a table posts for those a timer waits on (`Reminder`), as its snapshot keeps it.

Its own record, apart from `Table` that holds it and from `bot.tables.reminders` that
arms and drops it (which imports the table), so that both can read it one way.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.tables.snapshot import ReminderSnapshot


@dataclass
class Reminder:
    """A ping in the channel for those a timer waits on (`bot.tables.reminders`): an edit
    notifies nobody, so it is a message of its own, deleted once its timer is over."""

    serial: int  # the game timer it is about
    user_ids: tuple[int, ...]
    kind: str  # turn | exchange
    # Once its post was tried: a refused one is not tried again for this timer (one that
    # failed for a passing reason is, once: `tries`).
    sent: bool = False
    message_id: int | None = None
    # The timer's deadline the message shows: a restart moves the timer on, and the message
    # is edited to follow it.
    deadline: float | None = None
    # Runtime: the posts tried by this process; one failing for a passing reason is tried
    # once more (`publisher.reminders`).
    tries: int = field(default=0, compare=False)
    # Runtime: when (the bot's clock) the first of them was sent, for the look after the
    # last (`publisher.reminders.Reminders._look`).
    first_try: float | None = field(default=None, compare=False)

    def to_dict(self) -> ReminderSnapshot:
        return {"serial": self.serial, "user_ids": list(self.user_ids), "kind": self.kind,
                "sent": self.sent, "message_id": self.message_id, "deadline": self.deadline}

    @classmethod
    def from_dict(cls, d: ReminderSnapshot) -> Reminder:
        return cls(int(d["serial"]), tuple(int(u) for u in d["user_ids"]), str(d["kind"]),
                   bool(d.get("sent")), d.get("message_id"), d.get("deadline"))
