"""The end-of-game chart on the fake Discord: attached to the results message, with every
seat's points after each round, in the table's language."""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from bot.client import PresidentBot
from bot.i18n.typography import french
from bot.packages.game import chart
from bot.packages.publisher.charts import ANSWER_IN_TIME, IN_TIME
from bot.packages.screen import Screen
from bot.tables.table import Table
from engine import Game, Phase
from fakediscord import FakeDiscord, TestUser, errors

from .conftest import LinkedClock
from .e2e import cid, host_against_three_bots, let_timers_play, message, record_charts, tick


async def first_round_over(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot
                           ) -> tuple[TestUser, Table, Game]:
    """alice (fr) hosts three bots for three rounds, their timers playing her turns too,
    until the first round is over: the results, not yet a game's end (no chart)."""
    alice = fake.add_user("alice", locale="fr")
    table = await host_against_three_bots(bot, alice, "rounds:3")
    game = table.game
    assert game is not None
    await let_timers_play(fake, clock, game, Phase.ROUND_OVER)
    return alice, table, game


async def test_game_over_attaches_the_points_of_every_round(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = record_charts(monkeypatch)
    alice = fake.add_user("alice", locale="fr")
    table = await host_against_three_bots(president, alice, "rounds:3")
    game = table.game
    assert game is not None
    totals: list[tuple[int, ...]] = []
    for _ in range(3):
        await let_timers_play(fake, clock, game, Phase.ROUND_OVER if game.round_no < 3
                              else Phase.GAME_OVER)
        totals.append(tuple(game.points))
        if game.phase is Phase.ROUND_OVER:
            assert drawn == []  # only a finished game has a chart
            board = message(alice, table.table_message_id)
            await alice.click(board, f"pz:{table.id}:next:{game.version}:")
    assert game.phase is Phase.GAME_OVER
    assert len(drawn) == 1
    shown = drawn[0]
    assert shown.series == tuple(zip(*totals, strict=True))
    # A bot's line is marked with its level, as the table names it (stop 47).
    assert shown.names == ("alice", "Bot 1 (normal)", "Bot 2 (normal)", "Bot 3 (normal)")
    # The alt text has every value as well as the chart's size (read out, or for a player
    # who cannot tell its colours apart).
    said = ("alice", *(f"🤖 {table.name(s)} (niveau normal)" for s in range(1, 4)))
    values = ". ".join(french(f"{said[s]} : {', '.join(str(row[s]) for row in totals)}")
                       for s in range(4))
    assert (shown.title, shown.alt) == ("Points par manche",
                                       f"Points par manche, 4 participants, 3 manches. {values}.")
    results = message(alice, table.table_message_id)
    assert results.attachments == (chart.FILENAME,)
    stored = fake.world.messages[results.id].attachments[0]
    assert stored["description"] == shown.alt  # Discord's alt text, what the sandbox shows
    assert "Fin de la partie" in results.content
    assert "📈" not in results.content  # every name drawn: no seat stands for one


def test_render_draws_a_png() -> None:
    png = chart.render(chart.PointsChart("Points per round", "Round", "Points", ("a$b", "c"),
                                         ((1, 3), (2, 2)), "Points per round, 2 players"))
    assert png.startswith(b"\x89PNG") and len(png) < 200_000


async def test_a_game_the_host_ends_between_rounds_gets_its_chart(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """« Terminer » between rounds redraws the results through the click's own response;
    the chart must still follow, as it does when the last round ends a game."""
    drawn = record_charts(monkeypatch)
    alice, table, game = await first_round_over(fake, clock, president)
    await alice.click(message(alice, table.table_message_id), cid(table, "end", game.version))
    await tick(fake, clock, 2)  # past the refresh coalescer's second
    assert game.phase is Phase.GAME_OVER
    assert len(drawn) == 1
    assert message(alice, table.table_message_id).attachments == (chart.FILENAME,)


async def test_the_chart_follows_the_results_into_the_table_s_new_language(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Play-test 13: after the host switched the table to French at game over, the results
    were redrawn in French and their chart stayed « Points per round »."""
    drawn = record_charts(monkeypatch)
    john = fake.add_user("john")
    table = await host_against_three_bots(president, john, "rounds:1")
    game = table.game
    assert game is not None
    await let_timers_play(fake, clock, game, Phase.GAME_OVER)
    await tick(fake, clock, 1)
    assert [c.title for c in drawn] == ["Points per round"]
    await john.slash("president language", language="fr")
    await tick(fake, clock, 1)
    assert [c.title for c in drawn] == ["Points per round", "Points par manche"]
    assert "Fin de la partie" in message(john, table.table_message_id).content
    fake.assert_no_errors()


@pytest.mark.parametrize("late", [False, True])
async def test_the_results_carry_their_chart_in_one_edit(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch, late: bool,
) -> None:
    """The last round ends the game: the results' edit carries the chart
    (`Charts.in_time`), one call where the results and the upload took two, one after the
    other (« Card faces and the game's chart »). Not drawn within `IN_TIME` (`late`: a
    machine too busy), the results go alone, and the chart follows in an edit of its own
    once drawn, drawn once."""
    drawn = record_charts(monkeypatch)
    alice = fake.add_user("alice", locale="fr")
    table = await host_against_three_bots(president, alice, "rounds:1")
    game = table.game
    assert game is not None
    charts, edit = president.publisher.charts, president.publisher._edit
    draw, released = charts.draw, asyncio.Event()
    marks: list[int] = []

    async def marked(table: Table, message_id: int, screen: Screen | None,
                     asleep: str | None, *args: Any) -> bool:
        if not marks and screen is not None and "Fin de la partie" in screen.content:
            marks.append(fake.mark())  # the results' first edit
        return await edit(table, message_id, screen, asleep, *args)

    async def slow(shown: chart.PointsChart, filename: str) -> discord.File:
        await released.wait()  # longer than `IN_TIME`: until the test releases it
        return await draw(shown, filename)

    monkeypatch.setattr(president.publisher, "_edit", marked)
    if late:
        monkeypatch.setattr(charts, "draw", slow)
    await let_timers_play(fake, clock, game, Phase.GAME_OVER)
    await tick(fake, clock, IN_TIME + 1)
    results = table.table_message_id
    assert results is not None and marks
    assert message(alice, results).attachments == (() if late else (chart.FILENAME,))
    released.set()
    await tick(fake, clock, 1)
    assert len(drawn) == 1
    assert message(alice, results).attachments == (chart.FILENAME,)
    edits = [c for c in fake.calls_since(marks[0], "/channels/{channel_id}/messages/{message_id}")
             if c.method == "PATCH" and c.path.endswith(f"/{results}")]
    assert len(edits) == (2 if late else 1)
    fake.assert_no_errors()


CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"


@pytest.mark.parametrize("case", ["in time", "late", "refused"])
async def test_terminer_s_answer_carries_the_chart(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch, case: str,
) -> None:
    """« Terminer » between rounds draws the results through the click's own answer
    (type 7), which carries their chart where it is drawn within `ANSWER_IN_TIME` of the
    click: one call where the answer and the upload took two (docs/bot.md, « Small fixes
    (stop 52) »). Drawn later (`late`: a machine too busy), the answer goes without it
    within Discord's 3 seconds, and the chart follows in an edit of its own once drawn,
    drawn once. Refused for its file (`refused`: a 413), the answer goes again without it
    and the chart is given as text, as for an edit refused so."""
    drawn = record_charts(monkeypatch)
    alice, table, game = await first_round_over(fake, clock, president)
    await tick(fake, clock, 2)
    charts = president.publisher.charts
    draw, released = charts.draw, asyncio.Event()

    async def slow(shown: chart.PointsChart, filename: str) -> discord.File:
        await released.wait()  # longer than the answer may wait: until the test releases it
        return await draw(shown, filename)

    if case == "late":
        monkeypatch.setattr(charts, "draw", slow)
    if case == "refused":
        fake.inject_error(CALLBACK, errors.request_entity_too_large(), uploads=True)
    results = table.table_message_id
    assert results is not None
    mark = fake.mark()
    answer = await alice.click(message(alice, results), cid(table, "end", game.version),
                               settle=False)
    await fake.settle(require_answers=False)  # the click reaches the bot, on its clock
    await tick(fake, clock, ANSWER_IN_TIME)
    assert game.phase is Phase.GAME_OVER
    assert answer.acknowledged and answer.response_type == 7
    assert answer.answered_at is not None
    assert answer.answered_at - answer.created_at <= ANSWER_IN_TIME
    shown = message(alice, results)
    assert "Fin de la partie" in shown.content
    assert shown.attachments == ((chart.FILENAME,) if case == "in time" else ())
    released.set()
    await tick(fake, clock, 2)  # past the refresh coalescer's second
    assert table.table_message_id == results and len(drawn) == 1
    shown = message(alice, results)
    if case == "refused":
        assert shown.attachments == () and table.chart_unsent == results
    else:
        assert shown.attachments == (chart.FILENAME,)
        stored = fake.world.messages[results].attachments[0]
        assert stored["description"] == drawn[0].alt  # its alt text, as an edit's
    calls = fake.calls_since(mark)
    callbacks = [c for c in calls if c.route == CALLBACK]
    edits = [c for c in calls if c.method == "PATCH" and c.path.endswith(f"/{results}")]
    assert (len(callbacks), len(edits)) == {"in time": (1, 0), "late": (1, 1),
                                            "refused": (2, 1)}[case]
    fake.assert_no_errors()
