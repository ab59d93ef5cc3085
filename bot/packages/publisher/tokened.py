"""Private answers kept, per table, for later edits through their interaction's token.

An ephemeral message is edited only through the token of the interaction it answered, and
« Interaction tokens are valid for **15 minutes** » (discord-api-docs,
developers/interactions/receiving-and-responding.mdx, Followup Messages). Some answers are
to change when the table does (a break's reason offer once the break is over, `Offers`; one
on a game's list once their place there changes, `ListedAnswers`): each is kept
here until that change edits it, or its token runs out, or it no longer applies. In memory
only: a restart forgets them, and what they show stays as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, Protocol, TypeVar

from bot.tables.tokens import TOKEN_LIFETIME


class Tokened(Protocol):
    """A kept answer: when its token was minted, on the service's clock."""

    @property
    def created(self) -> float: ...


T = TypeVar("T", bound=Tokened)


class TokenKept(Generic[T]):
    def __init__(self) -> None:
        self._kept: dict[int, list[T]] = {}

    def keep(self, table_id: int, answer: T) -> None:
        self._kept.setdefault(table_id, []).append(answer)

    def take(self, table_id: int, now: float, due: Callable[[T], bool],
             stays: Callable[[T], bool]) -> list[T]:
        """The table's answers still within their token that are `due` their edit, let
        go; of the others within it, those that `stays` are kept for a later change, the
        rest let go unedited (as every answer past its token)."""
        kept = self._kept.get(table_id)
        if not kept:
            return []
        alive = [a for a in kept if now < a.created + TOKEN_LIFETIME]
        taken = [a for a in alive if due(a)]
        staying = [a for a in alive if a not in taken and stays(a)]
        if staying:
            self._kept[table_id] = staying
        else:
            del self._kept[table_id]
        return taken

    def forget(self, table_id: int) -> None:
        self._kept.pop(table_id, None)
