"""The one error a refused action raises."""

from __future__ import annotations

from typing import TypeAlias

__all__ = ["ErrorParam", "IllegalAction"]

# What fills a refusal's sentence: a value, phase or card's notation, a count, a seat (None
# when none is meant).
ErrorParam: TypeAlias = str | int | None


class IllegalAction(ValueError):
    """An action the rules refuse; the game is left exactly as it was.

    ``code`` is stable (the UI translates it), ``params`` fill the UI's sentence, and
    ``str(error)`` is an English sentence for logs and the scenario runner.
    """

    def __init__(self, code: str, message: str, **params: ErrorParam) -> None:
        super().__init__(message)
        self.code = code
        self.params = params
