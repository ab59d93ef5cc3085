"""What a table's messages showed as the bot stopped (`Storage.keep_shown`, stop 53),
kept beside the state the stop stored and for that state only (docs/bot.md « Restarts,
fewer calls (stop 53) »)."""

from __future__ import annotations

from bot.storage import Storage
from bot.tables.landed import Landed

from .test_tables import CLASSIC, GUILD

SHOWN = {"seq": 5, "messages": {"12": "lobby digest"}, "hands": {"ab": "hand digest"},
         "chart": [13, "fr"]}


async def test_what_is_shown_is_kept_for_the_state_stored_only(storage: Storage) -> None:
    first = await storage.create_table(GUILD, 10, 500, CLASSIC)
    second = await storage.create_table(GUILD, 11, 500, CLASSIC)
    assert await storage.save_snapshot(first, 5, {"v": 5})
    assert await storage.save_snapshot(second, 7, {"v": 7})
    # The second's stored state is not the one it was kept for (its last save lost).
    await storage.keep_shown([(first, 5, SHOWN), (second, 8, {**SHOWN, "seq": 8})])
    kept = await storage.load_snapshot(first)
    assert kept is not None and kept.shown == SHOWN and kept.state == {"v": 5}
    landed = Landed.read(kept.shown, kept.seq)
    assert landed == Landed({12: "lobby digest"}, {"ab": "hand digest"}, (13, "fr"))
    assert Landed.read(kept.shown, 6) is None  # kept for another state: nothing known
    other = await storage.load_snapshot(second)
    assert other is not None and other.shown is None

    # Any later save of the table drops it: edits may have followed.
    assert await storage.save_snapshot(first, 6, {"v": 6})
    later = await storage.load_snapshot(first)
    assert later is not None and later.shown is None and later.state == {"v": 6}


async def test_a_start_forgets_what_it_read(storage: Storage) -> None:
    first = await storage.create_table(GUILD, 10, 500, CLASSIC)
    second = await storage.create_table(GUILD, 11, 500, CLASSIC)
    for table_id in (first, second):
        assert await storage.save_snapshot(table_id, 5, {"v": 5})
    await storage.keep_shown([(first, 5, SHOWN), (second, 5, SHOWN)])
    await storage.forget_shown([first])
    forgotten, kept = await storage.load_snapshot(first), await storage.load_snapshot(second)
    assert forgotten is not None and forgotten.shown is None and forgotten.state == {"v": 5}
    assert kept is not None and kept.shown == SHOWN
    await storage.forget_shown([])  # nothing to forget: no statement


def test_what_is_not_as_written_is_nothing_known() -> None:
    for stored in ({"seq": 5}, {"seq": 5, "messages": [], "hands": {}},
                   {"seq": "5", "messages": {}, "hands": {}}):
        assert Landed.read(stored, 5) is None
    landed = Landed.read({"seq": 5, "messages": {"x": "a", "7": 3, "8": "b"},
                          "hands": {"t": None, "u": "c"}, "chart": [1]}, 5)
    assert landed == Landed({8: "b"}, {"u": "c"}, None)
    assert Landed.read(landed.to_dict(5), 5) == landed  # written as it reads
