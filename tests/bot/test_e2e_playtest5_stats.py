"""End-to-end: play-test 5, what players see after and around their games: statistics,
leaderboard, history and charts."""

import warnings
from pathlib import Path

import pytest
from matplotlib.text import Annotation

from bot.client import PresidentBot
from bot.i18n.typography import french
from bot.packages.game import chart
from bot.packages.text import player_name
from bot.storage import SeatRef
from engine import Phase
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import (
    Player,
    alice_and_bob_stored,
    before_takeover,
    cid,
    connect_bot,
    database_url,
    eight_seat_game_over,
    host_against_bots,
    let_timers_play,
    message,
    play_until,
    record_charts,
    tick,
    two_humans_against_a_bot,
)


async def test_history_says_a_game_stopped_without_a_winner_was_stopped(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """From the play-test: a game the host stopped after its first round showed in
    /president history as « winners: — » (« gagnant : — » in French), where its table had
    said « stopped early, no winner »."""
    record_charts(monkeypatch)
    bot, alice, bob, table, game = await alice_and_bob_stored(fake, clock, tmp_path, "rounds:3", bob_locale="fr")
    await play_until(fake, clock, [alice, bob], lambda: game.phase is Phase.ROUND_OVER)
    await alice.user.slash("president end")
    await alice.user.click(alice.user.last_ephemeral(),
                           cid(table, "stop", 0, str(table.game_no)))
    await bot.service.drain()

    await alice.user.slash("president history")
    shown = alice.user.last_ephemeral()
    assert "· 1 round · stopped early, no winner" in shown.text
    assert [o.description for o in shown.select().options] == ["stopped early, no winner"]
    await bob.user.slash("president history")
    assert "· 1 manche · arrêtée avant la fin, sans victoire" in bob.user.last_ephemeral().text
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_stats_name_the_member_as_they_are_called_now(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """From the play-test: after a change of name, /president stats still titled the member
    and their rating chart with the name of their last game (stored once for every server,
    so a nickname of another server could show too)."""
    drawn = record_charts(monkeypatch)
    bot, alice, bob, table, game = await alice_and_bob_stored(fake, clock, tmp_path, "rounds:1", bob_locale="fr")
    await play_until(fake, clock, [alice, bob], lambda: game.phase is Phase.GAME_OVER)
    await bot.service.drain()
    alice.user.user.name = "Alice_B"
    drawn.clear()

    await alice.user.slash("president stats")
    assert alice.user.last_ephemeral().text.startswith("📊 Alice\\_B\n")
    await bob.user.slash("president stats", member=alice.user)
    assert bob.user.last_ephemeral().text.startswith("📊 Alice\\_B\n")
    assert [c.title for c in drawn] == ["Alice_B's rating", "Cote · Alice_B"]
    await fake.disconnect(bot)
    fake.assert_no_errors()


def ticks(shown: chart.PointsChart) -> tuple[list[float], list[float]]:
    """The ticks the chart shows on its axes (rounds, points), those within its view."""
    axes = chart.draw(shown).axes[0]
    low, high = axes.get_xlim()
    bottom, top = axes.get_ylim()
    return ([x for x in axes.get_xticks() if low <= x <= high],
            [y for y in axes.get_yticks() if bottom <= y <= top])


def test_a_chart_after_one_round_ticks_that_round_alone() -> None:
    """From the play-test: the chart of a one-round game, and the rating chart after one
    rated round, ticked rounds 0.945, 0.96… 1.05, and points 0.5, 1.5…; rounds, points and
    ratings are whole numbers."""
    points = chart.chart_of("en", ("alice", "bob", "Bot 1"), ((1,), (0,), (3,)))
    rounds, scores = ticks(points)
    assert rounds == [1] and scores == [0, 1, 2, 3]
    rating = chart.rating_chart("fr", "alice", {"classic": [1138]})
    assert rating is not None
    rounds, ratings = ticks(rating)
    assert rounds == [1] and all(r == int(r) for r in ratings)
    longer = chart.chart_of("en", ("alice", "bob"), ((1, 2, 4, 7), (0, 1, 1, 1)))
    assert ticks(longer)[0] == [1, 2, 3, 4]


def test_names_of_lines_that_end_level_do_not_overlap() -> None:
    """From the play-test: two players level on points at the end of a game had their
    names written over each other at the end of their lines (« alice » and « bob » read as
    one blot). Level or close, the names stand apart; a name alone stays on its line."""
    shown = chart.chart_of("fr", tuple(f"Joueur numéro {i}" for i in range(8)),
                           ((3, 5, 8), (1, 3, 4), (1, 3, 4), (0, 1, 4), (2, 2, 2),
                            (0, 0, 1), (1, 1, 1), (0, 2, 4)))
    figure = chart.draw(shown)
    figure.canvas.draw()
    names = [text for text in figure.axes[0].texts if isinstance(text, Annotation)]
    boxes = [name.get_window_extent() for name in names]
    assert not [(a, b) for a in range(8) for b in range(a + 1, 8) if boxes[a].overlaps(boxes[b])]
    # The leader's name, alone at 8 points (floats: mypy takes a pair of floats for never
    # equal to the literal ints (6, 0), and what follows for unreachable).
    assert names[0].xyann == (6.0, 0.0)
    tops = [box.y0 for box in boxes]  # level names in the legend's order, top down
    assert tops[1] > tops[2] > tops[3] > tops[7] and tops[5] > tops[6]


def test_spaced_moves_values_apart_no_more_than_needed() -> None:
    assert chart.spaced([0, 0], 14) == [-7, 7]
    assert chart.spaced([0, 5, 100], 14) == [-4.5, 9.5, 100]
    assert chart.spaced([0, 30], 14) == [0, 30]


async def test_emoji_the_chart_font_lacks_are_left_out_of_the_pictures(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """From the play-test: a name with emoji (« Léa 🎉 ») was drawn with empty boxes where
    the chart's font has no glyph. Those characters are left out of the picture (a name of
    nothing else reads « ? »); what the font draws stays, and messages keep every emoji."""
    drawn = record_charts(monkeypatch)
    lea = fake.add_user("Léa 🎉 ♥", locale="fr")
    table = await host_against_bots(instant, lea, "classic", 2, game_end="rounds:1")
    game = table.game
    assert game is not None
    await let_timers_play(fake, clock, game, Phase.GAME_OVER)
    await tick(fake, clock, 1)
    assert "**Léa 🎉 ♥** · " in message(lea, table.table_message_id).content
    assert [c.names for c in drawn] == [("Léa ♥", "Bot 1 (normal)", "Bot 2 (normal)")]
    rating = chart.rating_chart("en", "🎉 Zoë 🎉", {"classic": [1000, 1040]})
    assert rating is not None and rating.title == "Zoë's rating"
    assert rating.alt.startswith("Rating of 🎉 Zoë 🎉 over 2 rounds counted")  # shows emoji
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # matplotlib warns of each glyph it lacks
        chart.render(rating)
        chart.render(chart.chart_of("en", ("🎉", "Léa 🎉🎉"), ((1,), (0,))))
    fake.assert_no_errors()


# Eight 32-character names of markdown characters only: 64 characters each once escaped.
MARKDOWN_NAMES = [("*_~|`" * 8)[i:i + 32] for i in range(8)]


async def test_eight_names_of_markdown_keep_the_final_standings_whole(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Left open by play-test 4: at 8 seats with names made of markdown characters only,
    the game-over table message ran past Discord's 2,000 characters even with no history
    line left, and was cut in the final standings. The players' lines give way then: the
    results name every player with their role and points."""
    record_charts(monkeypatch)
    game, board = await eight_seat_game_over(fake, clock, instant, MARKDOWN_NAMES)
    assert len(board) <= 2000 - 80  # the retired note's room
    standings = before_takeover("fr", board.split("**Classement final**\n")[1].split("\n"))
    assert len(standings) == 9, board  # every seat, then the host's choice
    assert standings[-1].startswith("L’hôte, ") and french(" choisit : ") in standings[-1]
    results = board.split("🏁 **Fin de la manche 1**\n")[1].split("\n")
    assert len([line for line in results[:8] if " · +" in line]) == 8  # every result
    fake.assert_no_errors()


@pytest.mark.both_databases  # on PostgreSQL in `make test` too
async def test_stats_and_leaderboard_agree_on_the_rounds_a_rating_counts(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """From the play-test: after a round against bots and one with bob, alice's statistics
    read « rating 927 · 2 rounds » and the leaderboard « rating 927 · 1 round »: the first
    counts every round played, the second those rated (with two humans). Both now say which
    rounds the rating counts."""
    record_charts(monkeypatch)
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    alice = Player(fake.add_user("alice"))
    bob = Player(fake.add_user("bob", locale="fr"))
    alone = await host_against_bots(bot, alice.user, "classic", 2, game_end="rounds:1")
    assert alone.game is not None
    await let_timers_play(fake, clock, alone.game, Phase.GAME_OVER)
    await alice.user.slash("president end")  # back to the lobby
    await alice.user.slash("president end")  # the table closes
    table, game = await two_humans_against_a_bot(fake, clock, bot, alice, bob,
                                                 game_end="rounds:1")
    await play_until(fake, clock, [alice, bob], lambda: game.phase is Phase.GAME_OVER)
    await bot.service.drain()

    await alice.user.slash("president stats")
    stats = alice.user.last_ephemeral().text
    assert "**Classic Président** · rating " in stats
    assert " (1 round counted) · 2 rounds\n" in stats
    await alice.user.slash("president leaderboard")
    assert f"<@{alice.user.id}> · rating " in alice.user.last_ephemeral().text
    assert alice.user.last_ephemeral().text.count("· 1 round counted") == 2
    await bob.user.slash("president stats")
    assert " (1 manche comptée) · 1 manche\n" in bob.user.last_ephemeral().text
    await bob.user.slash("president leaderboard")
    assert bob.user.last_ephemeral().text.count("· 1 manche comptée") == 2
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_history_menu_names_winners_as_typed(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
) -> None:
    """From the play-test: the menu of /president history gave a winner « Ali_ce » as
    « winner: Ali\\_ce »: a menu's option is plain text, where the backslash that escapes
    the name's markdown in messages shows as it is."""
    bot = await connect_bot(fake, clock, database_url(tmp_path))
    storage = bot.storage
    assert storage is not None
    seats = [SeatRef(1, False, player_name("Ali_ce *x*")), SeatRef(None, True, "Bot")]
    table_id = await storage.create_table(fake.guild.id, fake.channel.id, 1,
                                          {"preset": "classic", "set": {}})
    game_id = await storage.start_game(table_id, game_no=1, preset="classic",
                                       rules={"preset": "classic", "set": {}}, seats=seats)
    await storage.record_round(game_id, 1, ranking=[0, 1], roles=["P", "L"], points=[3, 0],
                               seats=seats)
    await storage.finish_game(game_id, winners=[0], stopped_early=False)
    ana = fake.add_user("ana")

    await ana.slash("president history")
    page = ana.last_ephemeral()
    assert "· winner: Ali\\_ce \\*x\\*" in page.text  # markdown, escaped
    assert [o.description for o in page.select().options] == ["winner: Ali_ce *x*"]
    await fake.disconnect(bot)
    fake.assert_no_errors()


def test_the_french_rating_chart_does_not_write_de_before_a_vowel() -> None:
    """From the play-test: the French rating chart was titled « Cote de alice » (« de »
    before a vowel, where French writes « d’ »): the name now stands apart, as in the
    other titles (« 📊 alice », « Classement · … »)."""
    shown = chart.rating_chart("fr", "Émile", {"classic": [1040]})
    assert shown is not None
    assert (shown.title, shown.alt.split(".")[0]) == ("Cote · Émile",
                                                     french("Émile : cote sur 1 manche comptée"))
