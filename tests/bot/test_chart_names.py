"""Names on the points chart in any script: drawn by a chain of fonts where one has the
glyphs, else shown as their seat (« Siège 2 »), which the alt text and the results tell.
Checked on the fonts' character maps and matplotlib's own warnings, not on pixels."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.i18n.typography import french
from bot.lookalike import likeness
from bot.packages.game import chart
from engine import Phase
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import host_against_bots, let_timers_play, message, record_charts, tick

CHINESE = "王小明"


@pytest.fixture
def bundled_fonts(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The chart's fonts as matplotlib ships them, whatever else the machine has: no font
    for Chinese then."""
    monkeypatch.setattr(chart, "families", lambda: (chart.PRIMARY, chart.SYMBOLS))
    chart.coverage.cache_clear()
    yield
    chart.coverage.cache_clear()


def drawn_whole(shown: chart.PointsChart) -> None:
    """Renders ``shown``: matplotlib warns of every glyph none of its fonts has."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        chart.render(shown)


def test_the_fonts_are_tried_in_order_and_never_the_last_resort() -> None:
    """DejaVu Sans first, the machine's Noto Sans families, matplotlib's STIXGeneral last;
    not Last Resort, which draws every character of a block alike."""
    families = chart.families()
    assert families[0] == chart.PRIMARY and families[-1] == chart.SYMBOLS
    assert all(f in (chart.PRIMARY, chart.SYMBOLS) or f.startswith("Noto Sans")
               for f in families)
    covered = dict(chart.coverage())
    for name in ("Zoé", "Ærøskøbing", "Ωμέγα", "Наташа", "مرحبا", "שלום", "ჯანი"):
        assert all(ord(c) in covered[chart.PRIMARY] for c in name), name
    assert all(ord(c) in covered[chart.SYMBOLS] for c in "𝐌𝐚𝐱Ⓜ")


@pytest.mark.usefixtures("bundled_fonts")
def test_a_name_of_mathematical_letters_is_drawn_by_the_fallback_font() -> None:
    """« 𝐌𝐚𝐱 » (mathematical bold letters, common in display names) has no glyph in
    DejaVu Sans: it read « ? ». STIXGeneral draws it, after DejaVu Sans."""
    shown = chart.chart_of("fr", ("𝐌𝐚𝐱", "Zoé 🎉"), ((1, 2), (2, 1)))
    assert shown.names == ("𝐌𝐚𝐱", "Zoé") and shown.stand_ins == ()
    assert shown.fonts == (chart.PRIMARY, chart.SYMBOLS)
    assert chart.chart_of("fr", ("Zoé", "Léa"), ((1,), (2,))).fonts == (chart.PRIMARY,)
    drawn_whole(shown)


@pytest.mark.usefixtures("bundled_fonts")
def test_a_name_no_font_draws_stands_as_its_seat() -> None:
    """« 王小明 » was drawn « ? » and two such names « ? » and « ? (2) »: nobody could tell
    whose line was whose. A name losing a letter or a digit (« Ali 王 » would read « Ali »)
    is its seat instead, and the alt text says so; emoji alone still just go."""
    names = (CHINESE, "Ali 王", "Zoé 🎉", "李")
    shown = chart.chart_of("fr", names, ((1,), (2,), (3,), (4,)))
    assert shown.names == ("Siège 1", "Siège 2", "Zoé", "Siège 4")
    assert shown.stand_ins == (("Siège 1", CHINESE), ("Siège 2", "Ali 王"),
                               ("Siège 4", "李"))
    assert french(f"{CHINESE} (« Siège 1 » sur l’image) : 1") in shown.alt
    assert french("Zoé 🎉 : 3") in shown.alt
    english = chart.chart_of("en", names, ((1,), (2,), (3,), (4,)))
    assert english.names[0] == "Seat 1"
    assert f"{CHINESE} (“Seat 1” in the picture): 1" in english.alt
    drawn_whole(shown)


def test_names_drawn_alike_all_stand_as_their_seats() -> None:
    """« Zoé 🎉 » and « Zoé 🔥 » are two names at the table, both « Zoé » once the emoji
    go: the second was « Zoé (2) » on the chart, which may be the table's own « Zoé (2) ».
    Both are their seats; a name drawn like a seat's label is its own seat too."""
    names = ("Zoé 🎉", "Zoé (2)", "Zoé 🔥", "Siège 1", "ZOÉ 🌟", "Léa")
    shown = chart.chart_of("fr", names, tuple((i,) for i in range(6)))
    assert shown.names == ("Siège 1", "Zoé (2)", "Siège 3", "Siège 4", "Siège 5", "Léa")
    keys = [likeness(name) for name in shown.names]
    assert not any(a & b for i, a in enumerate(keys) for b in keys[i + 1:])
    assert french("Siège 1 (« Siège 4 » sur l’image) : 3") in shown.alt


@pytest.mark.usefixtures("bundled_fonts")
async def test_the_results_say_who_stands_as_their_seat(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At a game's end, the results message the chart is attached to names who the
    picture shows as their seat (a table whose names are all drawn has no such line:
    `test_e2e_chart`)."""
    drawn = record_charts(monkeypatch)
    host = fake.add_user(CHINESE, locale="fr")
    table = await host_against_bots(instant, host, "classic", 2, game_end="rounds:1")
    game = table.game
    assert game is not None
    await let_timers_play(fake, clock, game, Phase.GAME_OVER)
    await tick(fake, clock, 1)
    assert [c.names for c in drawn] == [("Siège 1", "Bot 1", "Bot 2")]
    results = message(host, table.table_message_id)
    assert results.attachments == (chart.FILENAME,)
    pair = t("fr", "chart.stand_in_pair", label="Siège 1", name=CHINESE)
    assert t("fr", "table.chart_stand_ins", pairs=pair) in results.content
    fake.assert_no_errors()
