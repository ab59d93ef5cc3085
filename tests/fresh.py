"""`fresh`: an object's state read again after something changed it.

mypy narrows an attribute once a test asserts it (`assert not table.closed`, `assert
table.game is game`) and keeps that narrowing across an `await`, or a call, that changes
it: the next assert on it then reads as always false, and what follows as unreachable
(`--warn-unreachable`, pyproject.toml). `fresh(table).closed` is a new expression, which
mypy reads with its declared type: the same object and the same check, at run time.
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def fresh(value: T) -> T:
    """`value` itself, its attributes read as declared rather than as last asserted."""
    return value
