"""The table's snapshot types say what its writer puts where (stop 51).

mypy holds `Table.to_dict` to `TableSnapshot`'s keys and each row's list type, but a restart
reads back what was stored, trusting the type (`restore.restore_tables`' cast) and each
compact row's `…Fields` tuple: nothing but this test says that they are the writer's. Checked
on the snapshots of a game played through the fake in every preset, read back from JSON as
storage reads them, and on the snapshots older versions left (tests/bot/older).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.people import HolderFields, HolderRow
from bot.storage import jsoncodec
from bot.tables.house import House
from bot.tables.logentry import LogEntry
from bot.tables.pause import Pause
from bot.tables.ping import Reminder
from bot.tables.players import Player as Seat
from bot.tables.snapshot import HoldersFields, MovedFields, TableSnapshot
from bot.tables.table import Table
from engine import PRESETS, Phase, Rules
from engine.events import RoundOver
from fakediscord import FakeDiscord
from tests.typeddicts import conforms

from .conftest import LinkedClock
from .e2e import Player, cid, message, play_until, tick, two_humans_against_a_bot

OLDER = sorted((Path(__file__).parent / "older").glob("*.json"))


def _checked(snapshot: object, rows: dict[str, int]) -> None:
    """`snapshot` is a `TableSnapshot`, its compact rows of their `…Fields`; counts the
    rows and records of each kind it holds in `rows`."""
    assert conforms(snapshot, TableSnapshot), snapshot
    assert isinstance(snapshot, dict)
    runs = snapshot.get("holders", [])
    for run in runs:
        assert conforms(run, HoldersFields), run
    for held in [run[1] for run in runs] + snapshot.get("round_holders", []):
        for holder in held:
            assert holder is None or conforms(holder, HolderFields), holder
            rows["holders"] += holder is not None
    for moved in snapshot.get("moved_from", []):
        assert conforms(moved, MovedFields), moved
        rows["moved"] += 1
    for key in ("hands", "log", "results", "unstored"):
        rows[key] += len(snapshot.get(key) or ())
    rows["game"] += snapshot.get("game") is not None


@pytest.mark.parametrize("preset", list(PRESETS))
async def test_a_played_game_s_snapshots_are_of_their_types(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, preset: str
) -> None:
    marie = Player(fake.add_user("marie", locale="fr"))
    bob = Player(fake.add_user("bob"))
    table, game = await two_humans_against_a_bot(fake, clock, president, marie, bob, preset,
                                                 game_end="rounds:2")
    rows = dict.fromkeys(("holders", "moved", "hands", "log", "results", "unstored", "game"),
                         0)
    seen = []

    def stored() -> bool:  # each step of the game, as storage reads the snapshot back
        seen.append(jsoncodec.loads(jsoncodec.dumps(table.to_dict())))
        return game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER)

    while game.phase is not Phase.GAME_OVER:
        await play_until(fake, clock, [marie, bob], stored)
        if game.phase is Phase.ROUND_OVER:
            await tick(fake, clock, 1)
            board = message(marie.user, table.table_message_id)
            await marie.user.click(board, cid(table, "next", game.version))
            await tick(fake, clock, 1)
    # The keys written only when set, on a copy of the table as the game left it (the live
    # one would act on them).
    copy = Table.from_dict(table.to_dict())
    copy.pause = Pause(marie.user.id, "marie", 5.0, "la porte", 3.0, 7.0, own=True)
    copy.own_breaks = {marie.user.id: 99.0}
    copy.skipped = {1: LogEntry("hand.skipped.equal", {"name": "bob"}, (bob.user.id,))}
    copy.keep_retired("retired")
    copy.charts_off, copy.pointers_owed, copy.retired_below = [5], [(1, 2)], 9
    copy.reminder = Reminder(3, (marie.user.id,), "turn", True, 44, 12.5)
    copy.seats[0].left_out = copy.seats[0].left_removed = True
    copy.seats[0].took_from_level = "hard"
    copy.house = House(("jokers_high",))  # play-test 33's, merged the same stop
    copy.house = House(("jokers_high",), settings=("hints",), own_thread=True)  # stop 52's
    written = copy.to_dict()
    assert {"pause", "own_breaks", "skipped", "retired_people", "charts_off", "pointers_owed",
            "retired_below", "house", "kept"} <= set(written)
    assert {"settings", "own_thread"} <= set(written["house"])
    assert Table.from_dict(written).house == copy.house
    seen.append(jsoncodec.loads(jsoncodec.dumps(written)))
    assert len(seen) > 1
    for snapshot in seen:
        _checked(snapshot, rows)
    assert all(rows.values()), rows  # each kind seen


@pytest.mark.parametrize("capture", OLDER, ids=[path.stem for path in OLDER])
def test_the_snapshots_older_versions_left_are_of_their_types(capture: Path) -> None:
    """What an older version stored reads as a `TableSnapshot` too: its keys not kept then
    are `NotRequired`, the one it wrote and this one no longer does (a queued player's
    `points`) is still named."""
    rows = dict.fromkeys(("holders", "moved", "hands", "log", "results", "unstored", "game"),
                         0)
    for table in json.loads(capture.read_text())["tables"].values():
        _checked(table["state"], rows)
    assert rows["game"] and rows["hands"] and rows["log"], rows


def test_the_seats_holders_are_stored_once_a_run_and_read_in_either_form() -> None:
    """Who held the seats is stored once per stretch of rounds they kept them (stop 51):
    a row a round grew a long evening's snapshot by some ninety bytes a round (play-test
    31). A snapshot from before, one row a round, restores the same holders."""
    table = Table(1, 2, 3, 4, "fr", Rules.preset("proletario"),
                  seats=[Seat(4, "alice"), Seat(5, "bob"), Seat(6, "carol")])
    for n in range(1, 3):
        table.note_totals(RoundOver(n, (0, 1, 2), ("P", "N", "L"), (2, 1, 0), (2, 1, 0)))
    table.seats[2] = Seat(7, "dan")
    for n in range(3, 6):
        table.note_totals(RoundOver(n, (0, 1, 2), ("P", "N", "L"), (2, 1, 0), (2, 1, 0)))
    table.note_totals(RoundOver(6, (0, 1), ("P", "L", ""), (2, 0, 0), (2, 0, 0)))
    alice: HolderRow = [4, False, "alice"]
    bob: HolderRow = [5, False, "bob"]
    carol: HolderRow = [6, False, "carol"]
    dan: HolderRow = [7, False, "dan"]
    stored = jsoncodec.loads(jsoncodec.dumps(table.to_dict()))
    assert stored["holders"] == [[2, [alice, bob, carol]], [3, [alice, bob, dan]],
                                 [1, [alice, bob, None]]]
    assert "round_holders" not in stored
    assert Table.from_dict(stored).round_holders == table.round_holders
    older = table.to_dict()  # as stop 50 wrote it
    del older["holders"]
    older["round_holders"] = [[alice, bob, carol], [alice, bob, carol], [alice, bob, dan],
                              [alice, bob, dan], [alice, bob, dan], [alice, bob, None]]
    assert Table.from_dict(older).round_holders == table.round_holders
    # An evening of two hundred rounds at the same seats is one run.
    for n in range(7, 201):
        table.note_totals(RoundOver(n, (0, 1, 2), ("P", "N", "L"), (2, 1, 0), (2, 1, 0)))
    assert len(table.to_dict()["holders"]) == 4
