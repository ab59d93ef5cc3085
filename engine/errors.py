"""The one error a refused action raises."""

from __future__ import annotations

from typing import Any

__all__ = ["IllegalAction"]


class IllegalAction(ValueError):
    """An action the rules refuse; the game is left exactly as it was.

    ``code`` is stable (the UI translates it), ``params`` fill the UI's sentence, and
    ``str(error)`` is an English sentence for logs and the scenario runner.
    """

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params
