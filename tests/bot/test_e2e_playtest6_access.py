"""End-to-end: play-test 6, accessibility and phones: players who cannot tell colours
apart, who hear the game through a screen reader, or who play on Discord's mobile app, in
French and English."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from matplotlib.lines import Line2D
from PIL import Image

from bot.client import PresidentBot
from bot.i18n import plural
from bot.i18n.cards import face_alt, rank_short
from bot.i18n.typography import french
from bot.packages.cards.emojis import faces as card_faces
from bot.packages.cards.faces import ASSETS, draw_face
from bot.packages.game import chart
from bot.packages.game.lines import role_name, seat_name
from engine import Card, Phase
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import (
    Player,
    connect_bot,
    database_url,
    dealt_against_two_bots,
    host_against_three_bots,
    let_timers_play,
    message,
    play_every_round,
    record_charts,
    tick,
    two_humans_against_a_bot,
)
from .test_e2e_card_faces import start


def test_chart_lines_differ_by_marker_and_dash_not_only_by_colour() -> None:
    """From the play-test: every line of the points chart had the same round marker and
    the same solid stroke, so the legend and lines that cross were told apart by colour
    alone. Each of eight lines now has a marker of its own and a dash pattern, the legend
    showing the same."""
    names = tuple(f"p{i}" for i in range(8))
    series = tuple((i, i + 1, 2 * i) for i in range(8))
    axes = chart.draw(chart.chart_of("en", names, series)).axes[0]
    styles = [(line.get_marker(), line.get_linestyle()) for line in axes.get_lines()]
    assert len(styles) == 8 and len({marker for marker, _ in styles}) == 8
    assert len({dash for _, dash in styles}) == 4
    legend = axes.get_legend()
    assert legend is not None
    handles = [h for h in legend.legend_handles if isinstance(h, Line2D)]
    assert [(h.get_marker(), h.get_linestyle()) for h in handles] == styles


def test_chart_names_and_lines_stand_out_from_the_background() -> None:
    """From the play-test: the names at the lines' ends were written in the lines' colours,
    and orange, sky blue and pink on the light card are 2.1:1 to 2.8:1, hard to read for
    anyone with low vision (WCAG asks 4.5:1 of text, 3:1 of a graphic's lines). They are
    now darkened just enough, hue kept."""
    assert round(chart.contrast("#000000", "#ffffff"), 1) == 21.0
    assert round(chart.contrast("#e69f00"), 2) == 2.07  # the palette's orange, as it was
    names = tuple(f"p{i}" for i in range(8))
    axes = chart.draw(chart.chart_of("fr", names, tuple((i, i) for i in range(8)))).axes[0]
    lines = [str(line.get_color()) for line in axes.get_lines()]
    labels = [str(text.get_color()) for text in axes.texts]
    assert len(lines) == len(labels) == 8 and len(set(lines)) == 8
    assert min(chart.contrast(colour) for colour in lines) >= 3
    assert min(chart.contrast(colour) for colour in labels) >= 4.5


@pytest.mark.parametrize(("locale", "summary", "line", "bot"), [
    ("fr", "Points par manche, 4 participants, 2 manches", french("{name} : {values}"),
     "🤖 {name} (niveau normal)"),
    ("en-US", "Points per round, 4 players, 2 rounds", "{name}: {values}",
     "🤖 {name} (normal level)"),
])
async def test_the_results_chart_alt_text_reads_every_players_points(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch, locale: str, summary: str, line: str, bot: str,
) -> None:
    """From the play-test: a screen reader read the end-of-game chart as « points par
    manche, 4 joueurs, 2 manches » and nothing of what it shows; the results text has the
    final totals only. Its alt text now gives each player's points after every round."""
    record_charts(monkeypatch)
    host = fake.add_user("zoé", locale=locale)
    table = await host_against_three_bots(president, host, "rounds:2")
    game = table.game
    assert game is not None
    totals = []
    await let_timers_play(fake, clock, game, Phase.ROUND_OVER)
    totals.append(tuple(game.points))
    await host.click(message(host, table.table_message_id),
                     f"pz:{table.id}:next:{game.version}:")
    await let_timers_play(fake, clock, game, Phase.GAME_OVER)
    totals.append(tuple(game.points))
    await tick(fake, clock, 1)
    results = message(host, table.table_message_id)
    assert results.attachments == (chart.FILENAME,)
    alt = fake.world.messages[results.id].attachments[0]["description"]
    first, second = totals
    said = [bot.format(name=table.name(s)) if table.seats[s].is_bot else table.name(s)
            for s in range(4)]
    values = ". ".join(line.format(name=said[s], values=f"{first[s]}, {second[s]}")
                       for s in range(4))
    assert alt == f"{summary}. {values}."
    fake.assert_no_errors()


def test_a_long_games_alt_text_keeps_its_latest_rounds_within_discords_limit() -> None:
    """Discord refuses an alt text over 1,024 characters (the fake too): eight long names
    over 60 rounds keep as many of the latest rounds as fit, the same number for everyone,
    « … » standing for the earlier ones."""
    names = tuple(f"{'ÉÉÉÉ' * 7}{i:04d}" for i in range(8))
    series = tuple(tuple(100 + r + i for r in range(60)) for i in range(8))
    alt = chart.chart_of("fr", names, series).alt
    assert len(alt) <= chart.MAX_ALT
    assert alt.startswith("Points par manche, 8 participants, 60 manches. ")
    lines = alt.removeprefix("Points par manche, 8 participants, 60 manches. ").split(". ")
    assert len(lines) == 8
    kept = {len(text.split(", ")) for text in lines}
    assert len(kept) == 1 and 1 < kept.pop() < 60
    assert all(text.startswith(french(f"{name} : … "))
               for text, name in zip(lines, names, strict=True))
    assert lines[-1].endswith(f", {series[-1][-1]}.")


async def test_a_past_games_chart_line_escapes_the_names_it_reads_out(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`/president history`'s chart repeats its alt text as the embed's line, so what it
    shows is in the message too; a name of markdown in it stays as typed, not in bold."""
    record_charts(monkeypatch)
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    star = Player(fake.add_user("**star**"))
    bob = Player(fake.add_user("bob"))
    table, _ = await two_humans_against_a_bot(fake, clock, bot, star, bob,
                                              game_end="rounds:1")
    await play_every_round(fake, clock, table, [star, bob])
    await bot.service.drain()
    await tick(fake, clock, 1)
    await bob.user.slash("president history")
    listed = bob.user.last_ephemeral()
    await bob.user.select(listed, [listed.select().options[0].value])
    shown = bob.user.last_ephemeral()
    assert shown.attachments == (chart.FILENAME,)
    assert french("\\*\\*star\\*\\* : ") not in shown.text  # English reader: no French spacing
    assert "\\*\\*star\\*\\*: " in shown.text and "bob: " in shown.text
    await fake.disconnect(bot)
    fake.assert_no_errors()


def _ink(image: Image.Image) -> set[tuple[int, int]]:
    """Where a joker's star is drawn (the face's upper middle, above its word), seen in grey
    as someone who cannot tell red from black sees it: the pixels darker than the paper."""
    flat = Image.new("RGBA", image.size, "white")
    flat.alpha_composite(image.convert("RGBA"))
    grey = flat.convert("L")
    return {(x, y) for x in range(24, 104) for y in range(10, 92)
            if grey.getpixel((x, y)) < 160}  # type: ignore[operator]


def test_the_two_jokers_faces_differ_in_shape_not_only_in_colour() -> None:
    """From the play-test: the coloured joker (which outranks the black one in the
    exchange) and the black joker had the same star and the same word, red against black,
    one picture in grey. The black joker's star is now hollow, on the committed face too."""
    faces = {}
    for rank in ("RJ", "BJ"):
        with Image.open(ASSETS / f"fr_{rank}.png") as committed:
            drawn = draw_face(Card.parse(rank), spanish=False)
            assert committed.convert("RGBA").tobytes() == drawn.tobytes()  # not stale
            faces[rank] = _ink(committed)
    coloured, black = faces["RJ"], faces["BJ"]
    assert len(coloured ^ black) > 0.3 * len(coloured | black)


FACE_ID = re.compile(r"<:[a-z0-9_]+:(\d+)>")


def face_keys(line: str) -> list[str]:
    """The faces a line of text shows, by their key (« fr_DH »), found by emoji id: the
    text names each for its reader (`face_alt`)."""
    keys = {emoji.id: key for key, emoji in card_faces.emojis.items()}
    return [keys[int(found)] for found in FACE_ID.findall(line)]


@pytest.mark.parametrize(("locale", "text", "shown"), [
    ("fr", "V♠ D♥ R♦", ["fr_VS", "fr_DH", "fr_RD"]),
    ("en-US", "J♠ Q♥ K♦", ["fr_JS", "fr_QH", "fr_KD"]),
])
async def test_the_face_under_a_court_prints_the_letter_its_text_line_writes(
    fake: FakeDiscord, clock: LinkedClock, locale: str, text: str, shown: list[str],
) -> None:
    """From the play-test: a French hand read « V♠ D♥ R♦ » and the faces under it showed J,
    Q and K (so did its menus' options): two notations of one card, side by side. Courts
    now have a face for French readers (V, D, R), the hand and its options following the
    reader's language; an English reader keeps J, Q, K."""
    bot = await start(fake, clock)
    host = Player(fake.add_user("reader", locale=locale))
    table, _ = await dealt_against_two_bots(
        fake, clock, bot, host, [["QH", "JS", "KD"], ["4H", "6H", "8C"], ["7D", "8S", "9C"]],
        opener=0)
    lines = host.hand.content.splitlines()
    at = next(i for i, line in enumerate(lines) if line.endswith(text))
    assert face_keys(lines[at + 1]) == shown
    singles = next(m for m in host.hand.selects if ":play:" in m.custom_id)
    # Each option's face: named for the reader (`CardFaces.emoji`), drawn from the face
    # the text line's letter goes with.
    keys = dict(zip(text.split(), shown, strict=True))
    for option in singles.options:
        card = Card.parse(option.value)
        assert option.emoji == f":{face_alt(locale, card, False)}:"
        emoji = card_faces.emoji(card, False, locale)
        assert emoji is not None and emoji.id == card_faces.emojis[keys[option.label]].id
    queen = text.split()[1]
    await host.user.select(host.hand, [next(o.value for o in singles.options
                                            if o.label == queen)], select=singles.custom_id)
    await tick(fake, clock, 1)  # the table message's coalesced redraw; bots wait longer
    board = message(host.user, table.table_message_id).content.splitlines()
    trick = next(i for i, line in enumerate(board) if f"{queen}" in line)
    assert shown[1] in face_keys(board[trick + 1])  # the table's language: the host's
    await fake.disconnect(bot)


@pytest.mark.parametrize("locale", ["fr", "en-US"])
def test_every_face_prints_the_rank_as_the_text_writes_it(locale: str) -> None:
    """Every card of every deck, in both languages: the face shown to that reader starts
    with the letter the text writes (« D♥ » over D, « Sota🪙 » over S, « V🪙 » over V)."""
    from bot.packages.cards import faces as drawn  # face_index came with the French faces

    every = drawn.face_cards()
    keys = {drawn.face_key(*face) for face in every}
    french = locale == "fr"
    for card, spanish, _ in every:
        if card.is_joker:  # its face says JOKER
            continue
        assert drawn.face_key(card, spanish, french) in keys  # drawn, and synced
        index = drawn.face_index(card, spanish, french)
        assert index[0] == rank_short(locale, card.rank, spanish)[0], (card, spanish)


@pytest.mark.parametrize(("locale", "line"), [
    ("fr", "{place}. **{name}** · {role} · +{gained} à cette manche, total {total}"),
    ("en-US", "{place}. **{name}** · {role} · +{gained} this round, total {total}"),
])
async def test_a_rounds_results_say_in_words_what_was_won_and_the_total(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str, line: str,
) -> None:
    """From the play-test: a round's results read « +3 → 3 pts », which a newcomer had to
    decode and a screen reader read as « plus 3 flèche droite 3 pts ». They now say it:
    what the round gave, then the total."""
    host = fake.add_user("zoé", locale=locale)
    table = await host_against_three_bots(president, host, "rounds:3")
    game = table.game
    assert game is not None and game.phase is not Phase.ROUND_OVER
    await let_timers_play(fake, clock, game, Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    shown = message(host, table.table_message_id).content
    assert "→" not in shown
    for place, seat in enumerate(game.ranking or (), start=1):
        role = game.roles[seat]
        assert role is not None
        expected = line.format(place=place, name=seat_name(table, seat),
                               role=role_name(locale, table, role),
                               gained=table.rules.points.get(role, 0),
                               total=plural(locale, "n.points", game.points[seat]))
        assert expected in shown.splitlines()
    fake.assert_no_errors()


@pytest.mark.parametrize(("locale", "out"), [("fr", "🤖 Bot 1 sort (1re place)"),
                                             ("en-US", "🤖 Bot 1 is out (1st)")])
async def test_going_out_after_a_penalised_player_names_the_place_the_results_give(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str, out: str,
) -> None:
    """From the play-test (wild7, eight seats): the history read « joueur0 sort (7e place) »
    and the results, a line below, « 5. joueur0 »: going out counted the players sent to
    the bottom for finishing on a 2 as if they were above. It now names the place held."""
    host = Player(fake.add_user("zoé", locale=locale))
    table, game = await dealt_against_two_bots(
        fake, clock, president, host, [["2H"], ["3S"], ["4S", "5S"]], opener=0)
    singles = next(m for m in host.hand.selects if ":play:" in m.custom_id)
    await host.user.select(host.hand, [singles.options[0].value], select=singles.custom_id)
    for _ in range(10):
        if game.phase is Phase.ROUND_OVER:
            break
        await tick(fake, clock, 1)
    await tick(fake, clock, 1)
    assert game.ranking == (1, 2, 0)  # zoé finished on a 2: last
    lines = message(host.user, table.table_message_id).content.splitlines()
    assert f"• {out}" in lines
    fake.assert_no_errors()
