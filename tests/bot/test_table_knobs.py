"""The table behaviour RULES §10 gives presi (seats opening one per arrival, « contre des
bots ») is two knobs, `seats_grow` and `vs_bots`: any preset may have it, presi may drop it,
and rules stored before the knobs existed load with each preset's behaviour unchanged."""

from typing import Any

import discord
import pytest

from bot.i18n import plural
from bot.packages.lobby.display import lobby_view, start_hint
from bot.packages.rules_text import knob_value
from bot.packages.settings.views import typed_text, typed_value
from bot.tables.service import TableError
from bot.tables.table import Table
from engine import Rules
from tests.bot.test_service import ALICE, BOB, lobby, service


def custom_ids(view: discord.ui.View) -> list[str]:
    return [str(getattr(item, "custom_id", "")) for item in view.children]


def offers_vs_bots(table: Table) -> bool:
    return any(":vsbots:" in cid for cid in custom_ids(lobby_view(table)))


async def test_a_classic_table_with_seats_grow_opens_its_minimum_then_one_per_arrival() -> None:
    svc, _ = service()
    table = await lobby(svc, "classic", ALICE)
    assert table.capacity() == 6
    await svc.set_rules(table, ALICE, table.rules.replace(seats_grow=True))
    assert table.capacity() == 3
    for user in range(2, 5):
        await svc.join(table, user, f"u{user}", "en")
    assert table.capacity() == 5


async def test_presi_without_seats_grow_opens_every_seat_at_once() -> None:
    svc, _ = service()
    table = await lobby(svc, "presi", ALICE)
    assert table.capacity() == 3
    await svc.set_rules(table, ALICE, table.rules.replace(seats_grow=False))
    assert table.capacity() == 6


async def test_vs_bots_seats_that_many_bots_under_any_preset() -> None:
    svc, _ = service()
    table = await lobby(svc, "classic", ALICE)
    assert not offers_vs_bots(table)
    await svc.set_rules(table, ALICE, table.rules.replace(vs_bots=3))
    assert offers_vs_bots(table)
    await svc.games.play_against_bots(table, ALICE)
    assert [p.is_bot for p in table.seats] == [False, True, True, True]
    assert table.game is not None


async def test_against_bots_never_passes_the_maximum() -> None:
    svc, _ = service()
    table = await lobby(svc, "wild7", ALICE)
    await svc.set_rules(table, ALICE, table.rules.replace(vs_bots=7, max_players=4))
    assert table.rules.vs_bots == 3  # the rules say what the button seats
    await svc.games.play_against_bots(table, ALICE)
    assert len(table.seats) == 4


async def test_presi_without_vs_bots_offers_no_such_start_and_refuses_a_late_click() -> None:
    svc, _ = service()
    table = await lobby(svc, "presi", ALICE, BOB)
    assert offers_vs_bots(table)
    await svc.set_rules(table, ALICE, table.rules.replace(vs_bots=None))
    assert not offers_vs_bots(table)
    with pytest.raises(TableError) as err:
        await svc.games.play_against_bots(table, ALICE)
    assert err.value.key == "err.no_vs_bots"
    assert len(table.seats) == 2 and table.game is None


@pytest.mark.parametrize(("preset", "grows", "bots"), [
    ("classic", False, None), ("presi", True, 2), ("proletario", False, None),
    ("wild7", False, None)])
def test_rules_stored_before_the_knobs_load_with_the_presets_behaviour(
        preset: str, grows: bool, bots: int | None) -> None:
    """A snapshot written before the knobs existed names neither: its table behaves as its
    preset always did (presi three seats, growing; its « contre des bots » with two)."""
    stored: dict[str, Any] = {"preset": preset, "set": {"turn_seconds": 45}}
    table = Table(id=7, channel_id=1, guild_id=1, host_id=ALICE, locale="fr",
                  rules=Rules.from_dict(stored))
    restored = Table.from_dict(table.to_dict())
    assert (restored.rules.seats_grow, restored.rules.vs_bots) == (grows, bots)
    assert restored.rules.differences() == {"turn_seconds": 45}
    assert offers_vs_bots(restored) is (bots is not None)


def test_changed_knobs_survive_a_snapshot() -> None:
    rules = Rules.preset("classic", seats_grow=True, vs_bots=4)
    table = Table(id=7, channel_id=1, guild_id=1, host_id=ALICE, locale="fr", rules=rules)
    data = table.to_dict()
    assert data["rules"]["set"] == {"seats_grow": True, "vs_bots": 4}
    assert Table.from_dict(data).rules == rules


def test_the_knobs_read_in_both_languages() -> None:
    presi = Rules.preset("presi")
    off = presi.replace(vs_bots=None)
    assert knob_value("fr", "vs_bots", None, off) == "pas de bouton"
    assert knob_value("en", "vs_bots", None, off) == "no button"
    assert knob_value("fr", "vs_bots", 2, presi) == "2"
    assert knob_value("fr", "autopilot_after_timeouts", None, presi) == "jamais"
    # the form opens with the value as the panel shows it, and reads it back
    assert typed_text("fr", "vs_bots", None) == "pas de bouton"
    assert typed_value("vs_bots", "Pas de bouton") is None
    assert typed_value("vs_bots", "no button") is None
    assert typed_value("vs_bots", "jamais") is None and typed_value("vs_bots", "3") == 3
    assert presi.applies("seats_grow")
    assert not Rules.preset("proletario").applies("seats_grow")  # 4 seats, all open anyway


@pytest.mark.parametrize(("preset", "typed", "changed"), [
    ("presi", "VC0 C0", {"VL": 0, "L": 0}),
    ("presi", "Culo 2, vice-culo=1", {"L": 2, "VL": 1}),
    ("classic", "TDC 1 VT 2", {"L": 1, "VL": 2}),
    ("classic", "trou du cul: 4", {"L": 4}),
    ("classic", "Scum 5 P 9", {"L": 5, "P": 9}),
    ("proletario", "Secrétaire 1", {"VL": 1}),
    ("proletario", "secretary 2 p 7", {"VL": 2, "P": 7}),
])
def test_points_per_role_read_the_tables_role_names(preset: str, typed: str,
                                                    changed: dict[str, int]) -> None:
    """Play-test (stop 38): the form wanted « P VP N VL L », codes of the English words,
    and refused « VC0 C0 » at a presi table or « TDC 0 » at a French one. A role's name at
    the table, in either language, or its initials now read as its code; an initial two
    roles share (proletario's « p ») stays the President's code."""
    rules = Rules.preset(preset)
    assert typed_value("points", typed, rules.points, rules) == {**rules.points, **changed}


@pytest.mark.parametrize(("knob", "typed", "value"), [
    ("game_end", "illimitée", "unlimited"), ("game_end", "11 pts", "target:11"),
    ("game_end", "1 pt", "target:1"), ("game_end", "7 tours", "rounds:7"),
    ("turn_seconds", "30 s", 30), ("turn_seconds", "45 secondes", 45),
    ("exchange_seconds", "20 seconds", 20)])
def test_the_short_forms_hosts_type_are_read(knob: str, typed: str, value: object) -> None:
    """Play-test (stop 38): « illimitée », « 11 pts », « 7 tours » and « 30 s » were refused
    with a message that did not say the 1 to 999 range either."""
    rules = Rules.preset("classic")
    assert rules.replace(**{knob: typed_value(knob, typed)}) == rules.replace(**{knob: value})


async def test_a_table_its_bots_fill_offers_no_start_against_bots() -> None:
    """proletario's bots fill the table at the start (`bots_fill`); a host who also set
    `vs_bots` was offered « Lancer contre des bots » and told it fills the table « jusqu’à
    3 places », yet it seated to six as « Lancer » does. Only « Lancer » is offered, and
    the hint says how many seats bots take."""
    svc, _ = service()
    table = await lobby(svc, "proletario", ALICE)
    await svc.set_rules(table, ALICE, table.rules.replace(max_players=6, vs_bots=2))
    assert not offers_vs_bots(table)
    assert start_hint(table) == plural(table.locale, "lobby.hint_fill", 5)
    await svc.games.play_against_bots(table, ALICE)  # a button drawn before: the same start
    assert table.game is not None and table.game.seats == 6
