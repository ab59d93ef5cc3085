"""What Discord acknowledged each message shows, edit by edit.

The publisher's other bookkeeping (`Publisher._shown`, `HandLink.fingerprint`) says what
the bot means a message to show, set as an answer goes, to skip edits that would change
nothing while the process runs. What a stop keeps for its restart (`bot.tables.landed`)
must be surer: a message is known to show a drawing only once Discord answered its edit (or
post) with a 200, and no other edit of it was on its way meanwhile (two at once may land in
either order: play-test 23). An edit that fails, or whose answer never comes, leaves the
message unknown. Each table's own entries go with it (`forget`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

Key = int | str  # a channel message's id; a hand's interaction token


@dataclass
class Sent:
    """One edit on its way: `shown` is set to its drawing's digest once Discord has
    acknowledged it."""

    shown: str | None = None


class Acks:
    def __init__(self) -> None:
        self._known: dict[Key, tuple[int, str]] = {}  # the table, the digest
        self._sending: dict[Key, int] = {}  # edits on their way
        self._crossed: set[Key] = set()  # two of them were on their way at once

    def get(self, key: Key) -> str | None:
        known = self._known.get(key)
        return known[1] if known is not None else None

    def sending(self, key: Key) -> bool:
        return key in self._sending

    @contextmanager
    def edit(self, key: Key | None, table_id: int, *, crossed: bool = False
             ) -> Iterator[Sent]:
        """Around one edit of the message: unknown from its start, known as `Sent.shown`
        once back if nothing crossed it (`crossed`: the caller knows of an edit of the same
        message through another key). `key` None: a message nothing is known of."""
        if key is None:
            yield Sent()
            return
        self._known.pop(key, None)
        if crossed or key in self._sending:
            self._crossed.add(key)
        self._sending[key] = self._sending.get(key, 0) + 1
        sent = Sent()
        try:
            yield sent
        finally:
            left = self._sending.pop(key) - 1
            spoiled = key in self._crossed
            if left:
                self._sending[key] = left
            else:
                self._crossed.discard(key)
            if sent.shown is not None and not spoiled:
                self._known[key] = (table_id, sent.shown)

    def posted(self, key: Key, table_id: int, shown: str) -> None:
        """A new message, or one a restart knows shows `shown` (`bot.tables.landed`)."""
        self._known[key] = (table_id, shown)

    def unknown(self, key: Key) -> None:
        """Something else may have changed the message (an edit through another key): not
        known again until its next edit is back, nor by the one on its way."""
        self._known.pop(key, None)
        if key in self._sending:
            self._crossed.add(key)

    def forget(self, table_id: int) -> None:
        self._known = {key: known for key, known in self._known.items()
                       if known[0] != table_id}
