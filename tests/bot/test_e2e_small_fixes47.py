"""Stop 47's small fixes: what stop 46 left shown wrongly (the chart's bots, the rules page
during a revolution)."""

from __future__ import annotations

from bot.packages.game import chart


def test_a_hard_bots_chart_label_is_drawn_whole_at_its_lines_end() -> None:
    """A bot's line is marked with its level (« Bot 7 (difficile) »), and the name at a
    line's end, cut at 16 characters, would have read « Bot 7 (difficil… »."""
    shown = chart.chart_of("fr", ("zoé", "Bot 7"), ((1, 2), (3, 4)), bots={1: "hard"})
    assert shown.names == ("zoé", "Bot 7 (difficile)")
    assert "🤖 Bot 7 (niveau difficile)" in shown.alt
    ends = [text.get_text() for text in chart.draw(shown).axes[0].texts]
    assert ends == ["zoé", "Bot 7 (difficile)"]
