"""End-to-end: play-test 7, big and crowded tables — every preset at its most seats, with
the names players really have: Discord's longest, emoji, markdown, @everyone, right to
left, and two members of one name."""

import pytest
from matplotlib.text import Annotation

from bot.client import PresidentBot
from bot.names import ISOLATE, POP
from bot.packages.game import chart
from engine import Phase
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import humans_only, message, play_until, record_charts, tick

ARABIC = "مرحبا بالعالم"


async def test_two_players_of_one_name_are_told_apart(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """From the play-test: two members called « Twin » (and two of the same 32-character
    name) sat at one table as « Twin » and « Twin »: in the lobby, the table message, the
    history, the exchange, the results and the chart nobody could tell whose seat was
    whose. The second to arrive is « Twin (2) »; a long name gives way to the mark."""
    drawn = record_charts(monkeypatch)
    long = "Jean-Baptiste de la Fontaine 000"
    names = ["Twin", "alice", "Twin", long, long, "Twin (2)"]
    users = [fake.add_user(name, locale="fr") for name in names]
    table, players = await humans_only(fake, clock, instant, users, "classic",
                                       game_end="rounds:1")
    shown = ["Twin", "alice", "Twin (2)", long, "Jean-Baptiste de la Fontaine (2)",
             "Twin (2) (2)"]
    assert [p.name for p in table.seats] == shown
    assert len(set(shown)) == len(shown) and all(len(name) <= 32 for name in shown)
    game = table.game
    assert game is not None
    await play_until(fake, clock, players, lambda: game.phase is Phase.GAME_OVER)
    await tick(fake, clock, 1)
    board = message(users[0], table.table_message_id).content
    for name in shown:
        assert f"**{name}** · " in board
    assert [c.names for c in drawn] == [tuple(shown)]
    fake.assert_no_errors()


async def test_a_right_to_left_name_leaves_the_rest_of_its_line_in_order(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock
) -> None:
    """From the play-test: with a player named « مرحبا بالعالم », the line
    « **مرحبا بالعالم** · 13 cartes · 0 pt » read « 13 · مرحبا بالعالم cartes »: the
    count after an Arabic name joins its right-to-left run. Such a name stands between
    isolates, everywhere the table shows it; a left-to-right name is left as it was."""
    users = [fake.add_user(name, locale="fr") for name in ("alice", ARABIC, "bob")]
    table, _ = await humans_only(fake, clock, instant, users, "classic")
    board = message(users[0], table.table_message_id).content
    assert f"**{ISOLATE}{ARABIC}{POP}** · 1" in board
    assert "**alice** · 1" in board
    fake.assert_no_errors()


def test_eight_long_names_leave_the_chart_readable() -> None:
    """From the play-test: at 8 players with long names the chart's legend, in the plot's
    corner, covered half the lines, and the names at the lines' ends ran out of the
    picture. The legend goes under the plot, in two columns, and a name at a line's end is
    cut (« Jean-Baptiste d… »): the legend has it whole."""
    names = tuple(f"Jean-Baptiste de la Fontaine {i:03d}" for i in range(8))
    series = tuple(tuple(range(s % 3, 5 * (s % 3 + 1), s % 3 + 1))[:5] for s in range(8))
    figure = chart.draw(chart.chart_of("fr", names, series))
    figure.canvas.draw()
    axes = figure.axes[0]
    whole = figure.bbox
    ends = [text for text in axes.texts if isinstance(text, Annotation)]
    assert [end.get_text() for end in ends] == ["Jean-Baptiste d…"] * 8
    for end in ends:
        box = end.get_window_extent()
        assert whole.x0 <= box.x0 and box.x1 <= whole.x1 and whole.y0 <= box.y0
    legend = axes.get_legend()
    assert legend is not None
    assert [text.get_text() for text in legend.get_texts()] == list(names)
    box = legend.get_window_extent()
    assert box.y1 < axes.get_window_extent().y0  # under the plot, over none of its lines
    assert whole.y0 <= box.y0
