"""Who held each seat round after round (`Table.round_holders`, the end-of-game chart's
lines), as a table's snapshot keeps them.

Apart from `Table` because the stored form is not the table's: runs of rounds through
which the same people held the seats (stop 51), and one row a round in a snapshot from
before, which a restored table still reads.
"""

from __future__ import annotations

from itertools import groupby
from typing import cast

from bot.people import Holder
from bot.tables.snapshot import HoldersFields, HoldersRow, TableSnapshot


def holder_runs(rows: list[list[Holder | None]]) -> list[HoldersRow]:
    """One run per stretch of rounds through which the seats kept their holders."""
    return [[len(list(rounds)), [h.to_list() if h is not None else None for h in held]]
            for held, rounds in groupby(rows)]


def stored_holders(d: TableSnapshot) -> list[list[Holder | None]]:
    """Who held the seats as each round ended: stored in runs of rounds (`holders`), or
    before stop 51 one row a round (`round_holders`)."""
    rows = [held for count, held in (cast(HoldersFields, run) for run in d["holders"])
            for _ in range(count)] if "holders" in d else d.get("round_holders", [])
    return [[Holder.from_list(h) if h is not None else None for h in held] for held in rows]
