"""Play-test 31: a long evening. Friends play for hours at one table: an unlimited presi
game of sixty rounds and more, friends coming and going, the host changing a rule between
games, replays (docs/bot.md, « Play-test 31 »)."""

from __future__ import annotations

import pytest
from matplotlib.lines import Line2D

from bot.packages.game import chart

LOCALES = ["fr", "en-US"]


def evening(rounds: int) -> tuple[tuple[int | None, ...], ...]:
    """Four players' points over ``rounds`` rounds: marie and bob all evening, carol from
    the middle on, and dave for one round alone, as a stand-in."""
    marie = tuple(r // 2 for r in range(rounds))
    bob = tuple(r // 3 for r in range(rounds))
    carol = tuple(None if r < rounds // 2 else r - rounds // 2 for r in range(rounds))
    dave = tuple(1 if r == 20 else None for r in range(rounds))
    return marie, bob, carol, dave


def marked(line: Line2D) -> list[int] | None:
    """The positions of the line's points that carry a marker; None: every point."""
    marks = line.get_markevery()
    if marks is None:
        return None
    assert isinstance(marks, list)
    return [int(mark) for mark in marks]


@pytest.mark.parametrize("locale", LOCALES)
def test_a_long_evening_s_chart_marks_each_line_every_few_rounds(locale: str) -> None:
    """From the play-test: the chart of sixty rounds drew a marker 8 points wide at every
    round; they overlapped into bands where neither marker nor dash, what tells the lines
    apart without colour, could be read (worse at two hundred). A line marks at most
    thirty rounds, its last among them (its end name stands there), and a round played
    alone still shows."""
    for rounds in (60, 200):
        series = evening(rounds)
        drawn = chart.chart_of(locale, ("marie", "bob", "carol", "dave"), series)
        lines = chart.draw(drawn).axes[0].get_lines()
        assert len(lines) == 4
        for line, points in zip(lines, series, strict=True):
            marks = marked(line)
            assert marks is not None
            played = [i for i, v in enumerate(points) if v is not None]
            assert set(marks) <= set(played)
            assert played[-1] in marks
            assert len(marks) <= 30
            if len(played) > 30:  # marie and bob; carol too at 200 rounds
                assert min(b - a for a, b in zip(marks, marks[1:], strict=False)) >= 2
            else:
                assert marks == played
        assert marked(lines[3]) == [20]


@pytest.mark.parametrize("locale", LOCALES)
def test_a_short_game_s_chart_marks_every_round(locale: str) -> None:
    """Thirty rounds and fewer keep a marker per round (matplotlib's None: all), a lone
    one included."""
    series = evening(30)
    lines = chart.draw(chart.chart_of(locale, ("marie", "bob", "carol", "dave"),
                                      series)).axes[0].get_lines()
    for line, points in zip(lines, series, strict=True):
        marks = marked(line)
        assert marks is None or marks == [i for i, v in enumerate(points) if v is not None]
