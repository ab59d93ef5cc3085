"""End-to-end: play-test 7, big and crowded tables — every preset at its most seats, with
the names players really have: Discord's longest, emoji, markdown, @everyone, right to
left, and two members of one name."""

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from matplotlib.text import Annotation

from bot.client import PresidentBot
from bot.i18n import plural, t
from bot.i18n.typography import french
from bot.names import ISOLATE, POP
from bot.packages.game import chart
from bot.packages.text import player_name
from bot.storage import SeatRef
from bot.tables.table import Table
from engine import Phase
from fakediscord import FakeDiscord, TestUser

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    connect_bot,
    database_url,
    humans_only,
    message,
    play_until,
    record_charts,
    tick,
    to_the_next_exchange,
    uncut_screens,
)

ARABIC = "مرحبا بالعالم"


@pytest.fixture(autouse=True)
def uncut(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text the bot asks to show, before `Screen.kwargs` would cut it at Discord's
    2,000 characters: none of this play-test's may need cutting."""
    yield from uncut_screens(monkeypatch)


def numbered_notices(users: list[TestUser]) -> list[list[str]]:
    """What each of ``users`` was told privately of the name they sit under (« 👥 »)."""
    return [[m.content for m in user.visible() if m.ephemeral and "👥" in m.content]
            for user in users]


async def named_at_the_end(fake: FakeDiscord, clock: LinkedClock, table: Table,
                           players: list[Player], shown: list[str],
                           drawn: list[chart.PointsChart]) -> None:
    """The game played to its end: the results name each seat as ``shown`` (in seat
    order), and so does the one chart drawn."""
    game = table.game
    assert game is not None
    await play_until(fake, clock, players, lambda: game.phase is Phase.GAME_OVER)
    await tick(fake, clock, 1)
    board = message(players[0].user, table.table_message_id).content
    for name in shown:
        assert f"**{name}** · " in board
    assert [c.names for c in drawn] == [tuple(shown)]


async def test_two_players_of_one_name_are_told_apart(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """From the play-test: two members called « Twin » (and two of the same 32-character
    name) sat at one table as « Twin » and « Twin »: in the lobby, the table message, the
    history, the exchange, the results and the chart nobody could tell whose seat was
    whose. The second to arrive is « Twin (2) », and told so; a long name gives way to
    the mark."""
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
    told = numbered_notices(users)
    def numbered(name: str, shown: str) -> list[str]:
        return [t("fr", "lobby.numbered", name=name, shown=shown)]

    assert told == [[], [], numbered("Twin", "Twin (2)"), [],
                    numbered(long, "Jean-Baptiste de la Fontaine (2)"),
                    numbered("Twin (2)", "Twin (2) (2)")]
    await named_at_the_end(fake, clock, table, players, shown, drawn)
    fake.assert_no_errors()


async def test_players_of_names_that_look_alike_are_told_apart(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A member named « Тwin » with a Cyrillic Т joined a table where « Twin » sat, and passed for them everywhere the table names
    players: names that look alike by UTS #39 (`bot.lookalike`) are numbered as one name
    is, and the one numbered told so. « Zoé » typed with a combining accent is « Zoé »;
    « Léa » and « Lea » are two names, and keep their accents and their own."""
    drawn = record_charts(monkeypatch)
    names = ["Twin", "Тwin", "Zoé", "Zoe\u0301", "Léa", "Lea"]
    users = [fake.add_user(name, locale="fr") for name in names]
    table, players = await humans_only(fake, clock, instant, users, "classic",
                                       game_end="rounds:1")
    shown = ["Twin", "Тwin (2)", "Zoé", "Zoe\u0301 (2)", "Léa", "Lea"]
    assert [p.name for p in table.seats] == shown
    told = numbered_notices(users)
    assert told == [[], [t("fr", "lobby.numbered", name="Тwin", shown="Тwin (2)")], [],
                    [t("fr", "lobby.numbered", name="Zoe\u0301", shown="Zoe\u0301 (2)")],
                    [], []]
    await named_at_the_end(fake, clock, table, players, shown, drawn)
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
    cut (« Jean-Baptiste de… »): the legend has it whole. Each line keeps a colour and a
    marker of its own."""
    names = tuple(f"Jean-Baptiste de la Fontaine {i:03d}" for i in range(8))
    series = tuple(tuple(range(s % 3, 5 * (s % 3 + 1), s % 3 + 1))[:5] for s in range(8))
    figure = chart.draw(chart.chart_of("fr", names, series))
    figure.canvas.draw()
    axes = figure.axes[0]
    whole = figure.bbox
    ends = [text for text in axes.texts if isinstance(text, Annotation)]
    assert [end.get_text() for end in ends] == ["Jean-Baptiste de…"] * 8
    for end in ends:
        box = end.get_window_extent()
        assert whole.x0 <= box.x0 and box.x1 <= whole.x1 and whole.y0 <= box.y0
    lines = axes.get_lines()
    assert len({line.get_color() for line in lines}) == 8
    assert len({line.get_marker() for line in lines}) == 8
    legend = axes.get_legend()
    assert legend is not None
    assert [text.get_text() for text in legend.get_texts()] == list(names)
    box = legend.get_window_extent()
    assert box.y1 < axes.get_window_extent().y0  # under the plot, over none of its lines
    assert whole.y0 <= box.y0


# Eight players as a crowded evening brings them: Discord's longest name, emoji, markdown,
# a would-be mention, right to left, and two members of one name.
CROWD = ["Jean-Baptiste de la Fontaine 000", "🎉🎉 Zoé 🎉🎉", "*b* _i_ ~s~ |x| `c` > q",
         "@everyone", ARABIC, "Twin", "Twin", "||spoiler|| # T <@1>"]
# The roles of an 8-seat table from first to last (RULES §8, « 7–8: P VP N… VL L »).
EIGHT_ROLES = ["P", "VP", "N", "N", "N", "N", "VL", "L"]
RESULT = re.compile(r"^\d\. \*\*(.+)\*\* · (.+) · \+\d")


def round_results(board: str, locale: str, round_no: int) -> list[tuple[str, str]]:
    """(name, role) of each line of a round's results, in finishing order."""
    block = board.split(t(locale, "table.round_over", round=round_no) + "\n")[1]
    found = [RESULT.match(line) for line in block.split("\n")]
    return [(m[1], m[2]) for m in found if m is not None]


def exchange_lines(board: str, locale: str) -> list[str]:
    """The lines under « Exchange in progress »: who still gives how many cards to whom."""
    block = board.split("\n")
    start = next(i for i, line in enumerate(block)
                 if line.startswith(t(locale, "table.exchange", countdown="").rstrip()))
    return sorted(block[start + 1:block.index("", start)])


@pytest.mark.parametrize(("preset", "locale"), [
    ("wild7", "fr"), ("classic", "en-US"), ("presi", "fr"), ("proletario", "en-US")])
async def test_every_preset_at_eight_seats_of_awkward_names(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch, preset: str, locale: str,
) -> None:
    """Every preset as big as a host can make it (8 seats), two rounds: each role named in
    the table's language and the preset's words, the exchange naming who gives to whom,
    the results, the final standings and the chart naming all eight apart, every message
    within Discord's limits (the fake refuses what Discord refuses) and none pinging."""
    drawn = record_charts(monkeypatch)
    users = [fake.add_user(name, locale=locale) for name in CROWD]
    table, players = await humans_only(fake, clock, instant, users, preset,
                                       max_players=8, game_end="rounds:2")
    game = table.game
    assert game is not None and game.seats == 8
    shown = [p.name for p in table.seats]
    assert len(set(shown)) == 8
    await play_until(fake, clock, players, lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    board = message(users[0], table.table_message_id).content
    results = round_results(board, locale, 1)
    assert [role for _, role in results] == \
        [t(locale, f"role.{table.rules.role_names}.{r}") for r in EIGHT_ROLES]
    assert sorted(name for name, _ in results) == sorted(shown)

    await users[0].click(message(users[0], table.table_message_id),
                         cid(table, "next", game.version))
    await tick(fake, clock, 1)
    ranked = [name for name, _ in results]
    due = {(ranked[0], ranked[7], 2), (ranked[1], ranked[6], 1)}
    if preset == "presi":  # the low roles pick their best cards themselves
        due |= {(ranked[7], ranked[0], 2), (ranked[6], ranked[1], 1)}
    board = message(users[0], table.table_message_id).content
    assert exchange_lines(board, locale) == sorted(
        t(locale, "table.exchange_pair", giver=giver, receiver=receiver,
          cards=plural(locale, "n.cards", count)) for giver, receiver, count in due)

    await play_until(fake, clock, players, lambda: game.phase is Phase.GAME_OVER)
    await tick(fake, clock, 1)
    board = message(users[0], table.table_message_id).content
    assert sorted(name for name, _ in round_results(board, locale, 2)) == sorted(shown)
    standings = board.split(t(locale, "table.standings"))[1]
    assert all(f"**{name}** · " in standings for name in shown)
    assert len(drawn) == 1 and sorted(drawn[0].names) == sorted(set(drawn[0].names))
    written = [m for m in fake.world.messages.values() if m.author_id == fake.world.bot.id]
    assert [m.id for m in written if fake.writer.may_ping(m.id)] == []
    fake.assert_no_errors()


def test_names_the_chart_font_draws_alike_stand_as_their_seats() -> None:
    """From the play-test: « Zoé 🎉 » and « Zoé 🔥 » are two names at the table, but the
    chart's fonts draw no emoji, and its legend named two lines « Zoé » (and two names of
    emoji only « ? »). They stand as their seats there (numbering the second « Zoé (2) »
    could name the table's own « Zoé (2) »); the alt text keeps them whole."""
    shown = chart.chart_of("fr", ("Zoé 🎉", "Zoé 🔥", "🎉", "🔥", "Léa"),
                           ((1,), (2,), (3,), (4,), (5,)))
    assert shown.names == ("Siège 1", "Siège 2", "Siège 3", "Siège 4", "Léa")
    assert french("Zoé 🔥 (« Siège 2 » sur l’image) : 2") in shown.alt


async def test_a_28_card_president_reaches_every_card_to_give_back(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock
) -> None:
    """wild7 at two seats, second round: the President holds 26 cards and the 2 the Scum
    gave. Every one of the 28 is offered to give back, over menus of at most 25 (Discord's
    most), and a card picked in the second menu with one of the first is given."""
    users = [fake.add_user(name, locale="en-US") for name in (CROWD[0], CROWD[2])]
    table, players = await humans_only(fake, clock, instant, users, "wild7")
    game = await to_the_next_exchange(fake, clock, table, players, users[0])
    president = next(s for s in range(2) if game.exchange_due(s) is not None)
    hand = players[president].hand
    menus = [s for s in hand.selects if ":give:" in s.custom_id]
    assert [len(m.options) for m in menus] == [25, 3]
    offered = [o.value for m in menus for o in m.options]
    assert sorted(offered) == sorted(str(c) for c in game.hand(president))
    await users[president].select(hand, [menus[1].options[-1].value], select=menus[1].custom_id)
    await users[president].select(players[president].hand, [menus[0].options[0].value],
                                  select=menus[0].custom_id)
    confirm = next(b for b in players[president].hand.buttons
                   if b.custom_id and ":give_ok:" in b.custom_id)
    await users[president].click(players[president].hand, confirm.custom_id or "")
    assert game.phase is Phase.PLAY and len(game.hand(president)) == 26
    given = {menus[1].options[-1].value, menus[0].options[0].value}
    assert given.isdisjoint(str(c) for c in game.hand(president))
    fake.assert_no_errors()


async def test_a_history_menu_says_where_it_cut_a_long_list_of_winners(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
) -> None:
    """From the play-test: three players level at the top of an 8-seat game, each of a
    32-character name: the /president history menu's line, cut at Discord's 100
    characters, ended « …and Jean-Baptiste de la Fo » as if that were a name. It ends
    with « … » now; the page's line names all three."""
    bot = await connect_bot(fake, clock, database_url(tmp_path))
    storage = bot.storage
    assert storage is not None
    names = [player_name(f"Jean-Baptiste de la Fontaine {i:03d}") for i in range(8)]
    seats = [SeatRef(100 + i, False, name) for i, name in enumerate(names)]
    table_id = await storage.create_table(fake.guild.id, fake.channel.id, 100,
                                          {"preset": "wild7", "set": {}})
    game_id = await storage.start_game(table_id, game_no=1, preset="wild7",
                                       rules={"preset": "wild7", "set": {}}, seats=seats)
    await storage.record_round(game_id, 1, ranking=list(range(8)),
                               roles=["P", "VP", "N", "N", "N", "N", "VL", "L"],
                               points=[3, 3, 3, 1, 1, 1, 0, 0], seats=seats)
    await storage.finish_game(game_id, winners=[0, 1, 2], stopped_early=False)
    ana = fake.add_user("ana")

    await ana.slash("president history")
    page = ana.last_ephemeral()
    assert all(name in page.text for name in names[:3])
    described = page.select().options[0].description
    assert described is not None and len(described) == 100 and described.endswith("…")
    assert described.startswith(f"winners: {names[0]}, {names[1]}")
    await fake.disconnect(bot)
    fake.assert_no_errors()


def test_eight_players_level_at_the_top_keep_their_names_in_the_picture() -> None:
    """From the play-test: eight players ending level, at the top of the chart, had their
    names stacked around their lines' common end, the first ones above the picture, cut
    off or gone. The stack is brought down under the picture's top, still a line apart."""
    names = tuple(f"Joueur {i}" for i in range(8))
    figure = chart.draw(chart.chart_of("fr", names, tuple((i % 3, 5, 10) for i in range(8))))
    figure.canvas.draw()
    boxes = [text.get_window_extent() for text in figure.axes[0].texts
             if isinstance(text, Annotation)]
    assert len(boxes) == 8
    assert all(figure.bbox.y0 <= box.y0 and box.y1 <= figure.bbox.y1 for box in boxes)
    assert not [(a, b) for a in range(8) for b in range(a + 1, 8) if boxes[a].overlaps(boxes[b])]
    assert chart.spaced([100, 100, 100], 14, 0, 105) == [77, 91, 105]
    assert chart.spaced([0, 0], 14, 5) == [5, 19]
