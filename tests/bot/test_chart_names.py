"""Names on the points chart in any script: drawn by a chain of fonts where one has the
glyphs, else shown as their seat (« Siège 2 »), which the alt text and the results tell.
Checked on the fonts' character maps and matplotlib's own warnings, not on pixels."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.i18n.typography import french
from bot.lookalike import likeness
from bot.packages.game import chart
from engine import Phase
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import (
    Player,
    connect_bot,
    database_url,
    host_against_bots,
    let_timers_play,
    message,
    play_every_round,
    record_charts,
    tick,
    two_humans_against_a_bot,
)

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
    assert [c.names for c in drawn] == [("Siège 1", "Bot 1 (normal)", "Bot 2 (normal)")]
    results = message(host, table.table_message_id)
    assert results.attachments == (chart.FILENAME,)
    pair = t("fr", "chart.stand_in_pair", label="Siège 1", name=CHINESE)
    assert t("fr", "table.chart_stand_ins", pairs=pair) in results.content
    fake.assert_no_errors()


@pytest.mark.usefixtures("bundled_fonts")
@pytest.mark.parametrize("locale", ["fr", "en"])
def test_a_rating_chart_titles_a_name_its_fonts_cannot_draw_whole_without_it(
    locale: str
) -> None:
    """The rating chart's title drew « ? » for a name of emoji alone (no colour emoji font
    reaches matplotlib: docs/deploy.md) or of letters no font has, and « Ali » for
    « Ali 王 ». Such a name goes from the title, as from the points chart; the alt text
    names the member whole, and so does the statistics' title above the picture."""
    history = {"classic": [1000, 1040]}
    for name in ("🎉🎉", CHINESE, "Ali 王", "🎉 ⭐"):
        shown = chart.rating_chart(locale, name, history)
        assert shown is not None
        assert shown.title == t(locale, "chart.rating_title_unnamed"), name
        assert "?" not in shown.title
        assert name in shown.alt
        drawn_whole(shown)
    named = chart.rating_chart(locale, "🎉 Zoë 🎉", history)
    assert named is not None
    assert named.title == t(locale, "chart.rating_title", name="Zoë")
    drawn_whole(named)


async def test_the_statistics_of_a_member_named_in_emoji_say_who_above_a_chart_without_a_sign(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """« 🎉🎉 » asks for their statistics, in French, and bob for theirs, in English: the
    chart's title is the neutral one (no « ? »), the answer's title names them as Discord
    draws it, emoji and all, and so does the picture's alt text."""
    drawn = record_charts(monkeypatch)
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    party = Player(fake.add_user("🎉🎉", locale="fr"))
    bob = Player(fake.add_user("bob"))
    table, _ = await two_humans_against_a_bot(fake, clock, bot, party, bob,
                                             game_end="rounds:1")
    await play_every_round(fake, clock, table, [party, bob])
    await bot.service.drain()
    for asker, locale in ((party.user, "fr"), (bob.user, "en")):
        drawn.clear()
        await asker.slash("president stats", member=party.user)
        shown = asker.last_ephemeral()
        assert shown.attachments == (chart.RATING_FILENAME,)
        (rating,) = drawn
        assert rating.title == t(locale, "chart.rating_title_unnamed")
        assert shown.embeds[0].title == t(locale, "stats.title", name="🎉🎉")
        assert rating.alt.startswith(t(locale, "chart.rating_alt", name="🎉🎉", rounds=""))
    await fake.disconnect(bot)
