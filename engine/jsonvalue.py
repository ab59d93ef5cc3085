"""The JSON values the engine writes and reads: a rule set's `to_dict`, a scenario file.

What comes in from outside (a parsed file) is `object` until checked, narrowed by
`isinstance` where it is read (`engine.scenario`, `Rules.from_dict`); what the engine writes
is `Json`, so a value JSON cannot hold (a card, a set) is a type error, not a crash at
`json.dumps`.
"""

from __future__ import annotations

from typing import TypeAlias

__all__ = ["Json"]

Json: TypeAlias = "None | bool | int | float | str | list[Json] | dict[str, Json]"
