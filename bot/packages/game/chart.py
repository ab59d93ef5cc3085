"""The story of a game as a chart: each player's points after every round, as a PNG.

Drawn with matplotlib on its Agg canvas through ``Figure`` (no pyplot: no global state, so
a worker thread can draw while the loop goes on; see ``Charts.attach``). The chart has
its own opaque light background with dark text, which reads the same on Discord's dark and
light themes, large type and markers for a phone, each line named at its end as well as in
the legend and drawn with a marker and dash of its own, in colours dark enough to read
(WCAG contrast), and an alt text with every value.
Words come from the table's language. Names are drawn with a chain of fonts (`families`),
and a name they cannot draw, or draw like another, stands as « Joueur 3 » (its seat),
which the alt text and the results message tell.

``python -m bot.packages.game.chart`` measures the cost of one chart and writes a sample.
"""

from __future__ import annotations

import argparse
import bisect
import io
import math
import time
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_hex, to_rgb
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties, findfont, fontManager
from matplotlib.ft2font import FT2Font
from matplotlib.text import Annotation
from matplotlib.ticker import MaxNLocator

from bot.graphemes import cut
from bot.i18n import LocaleLike, join_names, plural, t
from bot.lookalike import likeness
from bot.packages.rules_text import pooled_name
from bot.packages.text import clipped, unescaped
from bot.people import Person, drawn, people, seated
from bot.tables.table import Table

FILENAME = "points.png"
# A line's name starts this far right of its last point, and names stand at least this
# far apart (a 12-point name's line of text), in points.
_LABEL_SHIFT = 6
_LABEL_GAP = 14
# The longest name written at a line's end, in characters: the legend has it whole, and
# a long one there would run out of the picture (eight of 32 characters leave no room for
# the plot). A bot with its level, « Bot 7 (difficile) », fits whole.
_END_NAME = 17
# The picture's height in inches, the lines the legend holds in the plot's corner, and the
# height each row of a legend under the plot adds.
_HEIGHT = 4.5
_LEGEND_INSIDE = 4
_LEGEND_ROW = 0.3
RATING_FILENAME = "rating.png"
_BACKGROUND = "#f5f5f7"
_INK = "#1e1f22"
# Colours that stay apart for common colour blindness (Okabe–Ito), dark enough on light.
_COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000",
            "#8c564b")
# WCAG 2.2's least contrast with the background: 4.5:1 for text (a name at a line's end,
# 12-point bold), 3:1 for the parts of a graphic one needs to read it (a line, success
# criterion 1.4.11). Orange, sky blue and pink fall short as they are: `_contrasted`
# darkens them just enough, keeping their hue.
_TEXT_CONTRAST = 4.5
_LINE_CONTRAST = 3.0
# Each line has its own marker and dash pattern as well: where lines cross, and in the
# legend, a reader who cannot tell two colours apart (or sees the chart in grey) still can.
# Lines are people, and a table of eight where one left draws nine, whose ninth was drawn
# as the first (play-test 14): past the eight colours the dashes shift by one, and nine
# markers against eight colours keep each line's marker apart from its colour's twin.
_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "h")
_DASHES = ("-", "--", "-.", ":")
# The most markers a line carries. A marker a round, 8 points wide, lets a long evening's
# sixty rounds (or a member's hundreds of rated rounds) overlap into a band of shapes in
# which neither the marker nor the dash that tell lines apart without colour can be read
# (play-test 31): past this many rounds, a line marks every few rounds (`_marked`).
_MARKS = 30
#: Discord's longest alt text: the attachment's « description (alt text) for the file (max
#: 1024 characters) » (discord-api-docs, developers/resources/message.mdx, Attachment
#: Structure).
MAX_ALT = 1024
# The fonts names are drawn with, tried in this order for each character: matplotlib's
# DejaVu Sans (Latin, Greek, Cyrillic, Arabic, Hebrew, Georgian, Armenian…), then every
# « Noto Sans » family the machine has (Google's one design across scripts, under the
# OFL: Debian's fonts-noto-core and fonts-noto-cjk bring Thai, Devanagari, Chinese,
# Japanese, Korean… in 133 MB, so the bot leaves them to its host: docs/deploy.md), then
# matplotlib's STIXGeneral (arrows, technical and mathematical signs, ⌚). Not the Last
# Resort font matplotlib ends on: it draws every character of a block alike, so that any
# two Chinese names would read the same.
PRIMARY = "DejaVu Sans"
SYMBOLS = "STIXGeneral"
_WEIGHTS = ("normal", "bold")  # regular for the legend, bold for the lines' ends and title


@dataclass(frozen=True)
class PointsChart:
    """What the chart shows; ``series[i][r]`` is line ``i``'s value after round ``r + 1``
    (a player's points in a game; a preset's rating in a member's statistics), None for a
    round they did not play (they took a seat later, or gave theirs up for a while)."""

    title: str
    x_label: str
    y_label: str
    names: tuple[str, ...]
    series: tuple[tuple[int | None, ...], ...]
    alt: str  # the image's description: Discord's alt text (every value), the sandbox's line
    # The names drawn as their seat instead (``label`` for ``name``, as messages show it).
    stand_ins: tuple[tuple[str, str], ...] = ()
    fonts: tuple[str, ...] = (PRIMARY,)  # the families the picture needs, in order


def points_chart(table: Table, locale: LocaleLike) -> PointsChart | None:
    """The chart of the table's current game, or None before its first round ends: a
    line per person who played, with the points the game gave them after each of their
    rounds (`bot.people`). A game restored from a snapshot from before the table knew who
    held each seat in each round is drawn per seat under its holder's name, as it was.
    A bot is marked, with its level, as the table names it (`chart_of`'s ``bots``)."""
    rounds = table.round_totals
    if not rounds:
        return None
    if len(table.round_holders) != len(rounds):
        seats = range(len(rounds[-1]))
        return chart_of(locale, tuple(table.name(s) for s in seats),
                        tuple(tuple(totals[s] for totals in rounds) for s in seats),
                        bots={s: table.seats[s].level for s in seats
                              if table.seats[s].is_bot})
    found = people(table.round_holders)
    return chart_of(locale, tuple(line_name(locale, person) for person in found),
                    tuple(drawn(person, rounds) for person in found),
                    seated=seated(found, len(rounds)),
                    bots={index: _level(table, person) for index, person in enumerate(found)
                          if person.holder.is_bot and not person.holder.stand_in})


def _level(table: Table, person: Person) -> str | None:
    """The level of a bot's line: its seat's bot's, if that bot still sits there (a bot
    that gave its seat to the queue is gone, and with it its level: None)."""
    _, seat = person.cells[-1]
    player = table.seats[seat] if seat < len(table.seats) else None
    if player is None or not player.is_bot or player.name != person.holder.name:
        return None
    return player.level


def line_name(locale: LocaleLike, person: Person) -> str:
    """A line's name: its person's; the bot finishing a leaver's round plays under the
    leaver's name, which the chart tells apart from the leaver's own line (« alice (bot) »,
    where the results read « 🤖 alice »)."""
    holder = person.holder
    return t(locale, "chart.stand_in_bot", name=holder.name) if holder.stand_in \
        else holder.name


def chart_of(locale: LocaleLike, names: tuple[str, ...],
             series: tuple[tuple[int | None, ...], ...], *, seated: bool = True,
             bots: Mapping[int, str | None] | None = None) -> PointsChart:
    """The chart of ``series`` (one per name, in seat order as messages show them, or in
    the order people first played when seats changed hands: then not ``seated``), worded
    in ``locale``. ``bots``: the lines of bots, and each one's level where it is known.
    Messages name a bot « 🤖 Bot 2 » beside its level; the alt text does too, and the
    picture, which has no font for 🤖, « Bot 2 (normal) » (« Bot 2 (bot) » without its
    level), so that no bot reads as a person called Bot 2 (stop 47)."""
    bots = bots or {}
    typed = tuple(unescaped(name) for name in names)
    pictured = tuple(_bot_label(locale, "chart.bot", name, bots[index]) if index in bots
                     else name for index, name in enumerate(typed))
    drawn, standing = _labelled(locale, pictured, "chart.stand_in" if seated else "chart.line")
    # In the alt text, whole, with the seat's label where the picture has it instead.
    spoken = tuple(_bot_label(locale, "chart.alt_bot", name, bots[index]) if index in bots
                   else name for index, name in enumerate(typed))
    said = tuple(t(locale, "chart.alt_stand_in", name=name, label=drawn[index])
                 if index in standing else name for index, name in enumerate(spoken))
    title = t(locale, "chart.title")
    return PointsChart(
        title=title,
        x_label=t(locale, "chart.round"),
        y_label=t(locale, "chart.points"),
        names=drawn,
        series=series,
        alt=described(locale, t(locale, "chart.alt",
                                players=plural(locale, "chart.players", len(names)),
                                rounds=plural(locale, "n.rounds",
                                              len(series[0]) if series else 0)),
                      said, series),
        stand_ins=tuple((drawn[index], names[index]) for index in sorted(standing)),
        fonts=needed((title, *drawn)),
    )


def _bot_label(locale: LocaleLike, key: str, name: str, level: str | None) -> str:
    """A bot's line named with its level (``key``), or with ``key``'s ``_unknown`` wording
    where its level is not known (a past game's: storage keeps no level)."""
    if level is None:
        return t(locale, f"{key}_unknown", name=name)
    return t(locale, key, name=name, level=t(locale, f"level.{level}"))


def rating_chart(locale: LocaleLike, name: str, history: dict[str, list[int]]
                 ) -> PointsChart | None:
    """A member's rating after each rated round, one line per preset; None without any."""
    if not history:
        return None
    presets = sorted(history)
    name = unescaped(name)  # as messages show it: escaped
    names = tuple(pooled_name(locale, p) for p in presets)
    series = tuple(tuple(history[p]) for p in presets)
    # As on the points chart, a name the fonts cannot draw whole is not drawn at all (an
    # emoji-only name read « ? »): the title goes without it, and the message it comes
    # with (`stats.title`, where Discord draws every character) and the alt text name them.
    title = t(locale, "chart.rating_title", name=drawable(name)) if _readable(name) \
        else t(locale, "chart.rating_title_unnamed")
    return PointsChart(
        title=title,
        x_label=t(locale, "chart.rated_round"),
        y_label=t(locale, "chart.rating"),
        names=names,
        series=series,
        alt=described(locale, t(locale, "chart.rating_alt", name=name, rounds=plural(
            locale, "n.rated", sum(len(v) for v in history.values()))), names, series),
        fonts=needed((title, *names)),
    )


def described(locale: LocaleLike, summary: str, names: tuple[str, ...],
              series: tuple[tuple[int | None, ...], ...]) -> str:
    """The alt text: ``summary``, then every line's values in the legend's order, so that
    someone who hears the chart read out, or cannot tell its colours apart, gets all of it,
    not only its size; a line that missed rounds (None) says which rounds its values are
    (« carol (manches 2 à 3) : 0, 2 »). When that would pass Discord's limit the earliest
    values go, as many as needed and the same number from each line, « … » standing for
    them (the rounds then named are those of the values kept).

    The text only grows with the number of values kept (one more value adds at least
    « , 0 », more than the « … » it may replace), so that number is found by bisection: a
    member's ten thousand rated rounds cost a few dozen drafts, not ten thousand of ever
    longer ones (seconds of the event loop's time)."""

    played = [[(index + 1, value) for index, value in enumerate(values) if value is not None]
              for values in series]

    def text(keep: int) -> str:
        lines = []
        for name, values, points in zip(names, series, played, strict=True):
            shown = ", ".join(str(v) for _, v in points[-keep:])
            values_text = f"… {shown}" if len(points) > keep else shown
            if len(points) == len(values):
                lines.append(t(locale, "chart.alt_line", name=name, values=values_text))
            else:
                lines.append(t(locale, "chart.alt_line_rounds", name=name, values=values_text,
                               rounds=_rounds(locale, [r for r, _ in points[-keep:]])))
        return t(locale, "chart.alt_values", summary=summary, lines=". ".join(lines))

    longest = max((len(points) for points in played), default=0)
    # The count of values that fit: the first `keep` (from 1) whose text is too long, less 1.
    fits = bisect.bisect_left(range(1, longest + 1), True,
                              key=lambda keep: len(text(keep)) > MAX_ALT)
    return text(fits) if fits else cut(summary, MAX_ALT)


def _rounds(locale: LocaleLike, rounds: list[int]) -> str:
    """Which rounds, as stretches: « manches 2 à 4 et 6 », “rounds 2 to 4 and 6”."""
    spans: list[list[int]] = []
    for number in rounds:
        if spans and spans[-1][-1] == number - 1:
            spans[-1].append(number)
        else:
            spans.append([number])
    said = [str(span[0]) if len(span) == 1
            else t(locale, "chart.span", first=span[0], last=span[-1]) for span in spans]
    return plural(locale, "chart.rounds", len(rounds), spans=join_names(locale, said))


def families() -> tuple[str, ...]:
    """The font families the chart may draw names with, in the order tried (see
    `PRIMARY`): those the machine has, as matplotlib lists them."""
    installed = {font.name for font in fontManager.ttflist}
    noto = sorted((name for name in installed if name.startswith("Noto Sans")),
                  key=lambda name: (name != "Noto Sans", name))
    return tuple(name for name in (PRIMARY, *noto, SYMBOLS) if name in installed)


@cache
def coverage() -> tuple[tuple[str, frozenset[int]], ...]:
    """Each of `families` with the characters it draws in both weights (a family without
    a bold face is drawn bold from its regular one, as matplotlib picks the nearest)."""
    return tuple((family, _glyphs(family)) for family in families())


def _glyphs(family: str) -> frozenset[int]:
    maps = (FT2Font(findfont(FontProperties(family=family, weight=weight),
                             fallback_to_default=False)).get_charmap() for weight in _WEIGHTS)
    return frozenset.intersection(*(frozenset(found) for found in maps))


def _font_of(character: str) -> str | None:
    """The first family that draws ``character``; None if none does."""
    return next((family for family, glyphs in coverage() if ord(character) in glyphs), None)


def needed(texts: tuple[str, ...]) -> tuple[str, ...]:
    """The families ``texts`` need, in `families`' order, the first always: matplotlib
    then looks each character up along them (font fallback, matplotlib 3.6 and later),
    and only the fonts a picture needs are read."""
    used = {_font_of(c) for text in texts for c in text if not c.isspace()}
    return tuple(family for family, _ in coverage() if family == PRIMARY or family in used)


def drawable(name: str) -> str:
    """``name`` less the characters none of the chart's fonts draws (emoji, which would be
    drawn as empty boxes: matplotlib draws no colour emoji font, docs/deploy.md), its
    spaces closed up; only for a name `_readable` says it still names. Alt texts keep the
    name whole: Discord shows emoji."""
    return _kept(name)


def _kept(name: str) -> str:
    kept = "".join(c for c in name if c.isspace() or _font_of(c) is not None)
    return " ".join(kept.split())


def _readable(name: str) -> bool:
    """Whether ``name`` drawn as `drawable` draws it still names its player: something
    left, and nothing left out but signs (emoji, symbols), no letter or digit (« 王小明 »
    without a font for it would be « ? », « Ali 王 » a mere « Ali »)."""
    return bool(_kept(name)) and all(
        _font_of(c) is not None for c in name if unicodedata.category(c)[0] in "LN")


def _labelled(locale: LocaleLike, names: tuple[str, ...], label: str = "chart.stand_in"
              ) -> tuple[tuple[str, ...], frozenset[int]]:
    """The names as the picture shows them, and which of them are labels: drawable, or
    their seat's label (« Siège 3 ») where the fonts would lose a letter or a digit of
    them, or draw two of them alike (« Zoé 🎉 » and « Zoé 🔥 » both « Zoé », look-alikes
    by `bot.lookalike`). Labels are never numbered after a name, which could be the
    table's own « Zoé (2) »: a name drawn like a label is labelled too. Where lines are
    people, not seats (a seat changed hands, two lines may share it), the ``label`` is
    the line's number (« Courbe 3 »)."""
    standing = {index for index, name in enumerate(names) if not _readable(name)}
    while True:
        shown = [t(locale, label, n=index + 1) if index in standing
                 else drawable(name) for index, name in enumerate(names)]
        keys = [likeness(name) for name in shown]
        clashing = {index for index, key in enumerate(keys)
                    if any(key & other for at, other in enumerate(keys) if at != index)}
        if clashing <= standing:
            return tuple(shown), frozenset(standing)
        standing |= clashing


def render(chart: PointsChart) -> bytes:
    """The PNG (800×450; taller with a legend under the plot). Runs in a worker thread: it
    touches no shared state."""
    out = io.BytesIO()
    draw(chart).savefig(out, format="png", facecolor=_BACKGROUND)
    return out.getvalue()


def draw(chart: PointsChart) -> Figure:
    """The chart laid out on a figure of its own, which `render` saves (and tests read)."""
    figure = Figure(figsize=(8, _HEIGHT), dpi=100, facecolor=_BACKGROUND)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    axes.set_facecolor(_BACKGROUND)
    labels = []
    for index, (name, points) in enumerate(zip(chart.names, chart.series, strict=True)):
        rounds = range(1, len(points) + 1)
        # A round the person did not play is no point: the line breaks there (matplotlib
        # draws no segment to a NaN), and each round played keeps its marker, a lone one
        # included (a stand-in's one round).
        drawn = [math.nan if v is None else v for v in points]
        end = max(r for r, v in zip(rounds, points, strict=True) if v is not None)
        colour = _COLOURS[index % len(_COLOURS)]
        label = name.replace("$", r"\$")  # matplotlib reads $...$ as mathematics
        axes.plot(rounds, drawn, marker=_MARKERS[index % len(_MARKERS)],
                  markevery=_marked(points),
                  linestyle=_DASHES[(index + index // len(_COLOURS)) % len(_DASHES)],
                  linewidth=2.5, markersize=8,
                  color=_contrasted(colour, _LINE_CONTRAST), label=label)
        labels.append(axes.annotate(
            clipped(label, _END_NAME), (end, drawn[end - 1]), xytext=(_LABEL_SHIFT, 0),
            textcoords="offset points", va="center", fontsize=12, fontfamily=list(chart.fonts),
            color=_contrasted(colour, _TEXT_CONTRAST), fontweight="bold"))
    axes.set_title(chart.title, fontsize=16, color=_INK, fontweight="bold",
                   fontfamily=list(chart.fonts))
    axes.set_xlabel(chart.x_label, fontsize=13, color=_INK)
    axes.set_ylabel(chart.y_label, fontsize=13, color=_INK)
    # Rounds and points (or ratings) are whole numbers: no tick between two of them, and
    # after one round a single tick (else 0.945, 0.96… read as rounds that never were).
    axes.xaxis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1))
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    axes.tick_params(colors=_INK, labelsize=12)
    axes.grid(True, color="#c8c8d0", linewidth=0.8)
    axes.margins(x=0.12)
    for spine in axes.spines.values():
        spine.set_color("#9a9aa5")
    # Up to four lines the legend fits in a corner; more of them, with long names, would
    # hide the lines it names (eight 32-character names cover half the plot): it goes
    # under the plot then, in two columns, and the picture grows to keep the plot's size.
    legend = FontProperties(family=list(chart.fonts), size=11)
    if len(chart.names) > _LEGEND_INSIDE:
        rows = -(-len(chart.names) // 2)
        figure.set_figheight(_HEIGHT + rows * _LEGEND_ROW)
        axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncols=2, prop=legend,
                    frameon=True, facecolor="white")
    else:
        axes.legend(loc="upper left", prop=legend, frameon=True, facecolor="white")
    figure.tight_layout()
    _spread(axes, labels)
    return figure


def _marked(points: tuple[int | None, ...]) -> list[int]:
    """The positions of ``points`` whose marker is drawn: every round played while they are
    at most `_MARKS`; past that, one in so many (counted back from the last, which its end
    name stands beside), so that at most about `_MARKS` are, and every round played alone
    between two missed (a stand-in's one round), which without its marker would not show."""
    played = [i for i, v in enumerate(points) if v is not None]
    step = -(-len(played) // _MARKS)
    kept = set(played[::-1][::step])
    alone = {i for i in played
             if (i == 0 or points[i - 1] is None)
             and (i == len(points) - 1 or points[i + 1] is None)}
    return sorted(kept | alone)


def contrast(colour: str, background: str = _BACKGROUND) -> float:
    """WCAG 2.2's contrast ratio of two colours, from 1 (the same) to 21 (black on white)."""
    def luminance(shade: str) -> float:
        channels = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
                    for c in to_rgb(shade)]
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]

    light, dark = sorted((luminance(colour), luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@cache
def _contrasted(colour: str, least: float) -> str:
    """``colour`` mixed with the ink, a tenth at a time, until it stands ``least`` apart
    from the background."""
    red, green, blue = to_rgb(colour)
    ink = to_rgb(_INK)
    for step in range(11):
        share = step / 10
        mixed = to_hex((red + (ink[0] - red) * share, green + (ink[1] - green) * share,
                        blue + (ink[2] - blue) * share))
        if contrast(mixed) >= least:
            return mixed
    return _INK


def _spread(axes: Axes, labels: list[Annotation]) -> None:
    """Lines that end on the same value, or close, would write their names over each other
    (two players level on points are common): names ending at one round move up or down
    from their line's end just enough to stand a line of text apart, in the legend's order
    when level. They stay between the plot's foot and the picture's top: eight players
    level at the top would otherwise write the first names above the picture. Measured
    once the layout is done, in points as the offsets are."""
    axes.get_ylim()  # the view's limits, computed now from the data
    scale = 72 / axes.figure.dpi
    low = axes.get_window_extent().y0 * scale + _LABEL_GAP / 2
    high = axes.figure.bbox.y1 * scale - _LABEL_GAP / 2
    ends: dict[float, list[tuple[float, int]]] = {}
    for index, label in enumerate(labels):
        x, y = axes.transData.transform(label.xy)
        ends.setdefault(x, []).append((y * scale, index))
    for column in ends.values():
        column.sort(key=lambda end: (end[0], -end[1]))
        places = spaced([y for y, _ in column], _LABEL_GAP, low, high)
        for (y, index), place in zip(column, places, strict=True):
            labels[index].xyann = (_LABEL_SHIFT, place - y)


def spaced(values: list[float], gap: float, low: float = -math.inf,
           high: float = math.inf) -> list[float]:
    """Positions for ``values`` (ascending), at least ``gap`` apart, in the same order and
    each group that had to move centred on where its values were; then, those past
    ``high`` brought down to it and those under ``low`` up to it, pushing their
    neighbours no further than the gap needs (``low`` wins where both cannot hold)."""
    groups: list[tuple[float, list[float]]] = []  # (lowest position, the group's values)
    for value in values:
        start, members = value, [value]
        while groups and groups[-1][0] + gap * len(groups[-1][1]) > start:
            _, before = groups.pop()
            members = before + members
            start = sum(members) / len(members) - gap * (len(members) - 1) / 2
        groups.append((start, members))
    places = [start + gap * i for start, members in groups for i in range(len(members))]
    ceiling = high
    for index in reversed(range(len(places))):
        places[index] = ceiling = min(places[index], ceiling)
        ceiling -= gap
    floor = low
    for index in range(len(places)):
        places[index] = floor = max(places[index], floor)
        floor += gap
    return places


_SAMPLE = ("Alice", "Bruno", "Chloé", "Dédé")


def _sample(names: tuple[str, ...] = _SAMPLE) -> PointsChart:
    """Four players over five rounds of classic points, as a French table shows them."""
    series = ((2, 3, 5, 7, 9), (1, 3, 4, 5, 7), (0, 0, 1, 3, 3), (0, 1, 1, 1, 2))
    return chart_of("fr", names, series)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--out", type=Path, default=Path("docs/img/points-chart.png"))
    parser.add_argument("--names", help="four names, comma-separated (« 𝐌𝐚𝐱,王小明,Zoé 🎉,"
                        "Dédé » needs the fallback fonts and a seat's label)")
    args = parser.parse_args()
    if args.repeat < 1:  # the medians below need a run
        parser.error("--repeat must be at least 1")
    chart = _sample(tuple(args.names.split(",")) if args.names else _SAMPLE)
    first = time.perf_counter()
    png = render(chart)  # the first chart reads the fonts and their character maps: apart
    first = time.perf_counter() - first
    walls, cpus = [], []
    for _ in range(args.repeat):
        wall, cpu = time.perf_counter(), time.thread_time()
        png = render(chart)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.thread_time() - cpu)
    walls.sort()
    cpus.sort()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(png)
    print(f"points chart, 4 players × 5 rounds, {len(png)} bytes, {args.repeat} runs: "
          f"CPU median {cpus[len(cpus) // 2] * 1000:.0f} ms (best {cpus[0] * 1000:.0f}), "
          f"wall median {walls[len(walls) // 2] * 1000:.0f} ms; the first {first * 1000:.0f} "
          f"ms wall → {args.out}")


if __name__ == "__main__":
    main()
