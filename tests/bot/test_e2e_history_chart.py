"""`/president history` opens a past game's points chart, rebuilt from its stored rounds:
the same series the table showed when the game ended, answered only to the one who asked,
in their language."""

from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.config import Config
from bot.packages.game import chart
from engine import Phase
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import Player, cid, message, play_until, table_of, tick


async def test_history_opens_a_past_games_chart_from_the_stored_rounds(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn: list[chart.PointsChart] = []

    def render(shown: chart.PointsChart) -> bytes:
        drawn.append(shown)
        return b"\x89PNG fake"

    monkeypatch.setattr(chart, "render", render)
    url = f"sqlite+aiosqlite:///{tmp_path / 'president.db'}"
    bot = PresidentBot(Config(token=fake.token, database_url=url, bot_pause=1.0), clock=clock,
                       guild_ready_timeout=0)
    await fake.connect(bot)
    alice = Player(fake.add_user("alice", locale="en-US"))
    bob = Player(fake.add_user("bob", locale="fr"))
    await alice.user.slash("president create", preset="classic")
    table = table_of(bot, alice.user)
    await bot.service.set_rules(table, alice.user.id, table.rules.replace(game_end="rounds:2"))
    lobby = message(alice.user, table.lobby_message_id)
    await bob.user.click(lobby, cid(table, "join"))
    await alice.user.click(lobby, cid(table, "addbot"))
    await alice.user.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    await alice.open_hand(bot)
    await bob.open_hand(bot)
    game = table.game
    assert game is not None
    while game.phase is not Phase.GAME_OVER:
        await play_until(fake, clock, [alice, bob],
                         lambda: game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER))
        if game.phase is Phase.ROUND_OVER:
            await tick(fake, clock, 1)  # the table message offers Next
            board = message(alice.user, table.table_message_id)
            await alice.user.click(board, cid(table, "next", game.version))
            await tick(fake, clock, 1)
    await bot.service.drain()
    await tick(fake, clock, 1)
    (at_the_end,) = drawn  # the chart the results message got when the game ended
    drawn.clear()

    await bob.user.slash("president history")
    listed = bob.user.last_ephemeral()
    assert "2 manches" in listed.text
    menu = listed.select()
    assert len(menu.options) == 1
    await bob.user.select(listed, [menu.options[0].value])
    shown = bob.user.last_ephemeral()
    assert shown.id != listed.id and shown.ephemeral
    assert shown.attachments == (chart.FILENAME,)
    assert "Points de la partie" in shown.text
    (rebuilt,) = drawn
    assert rebuilt.names == at_the_end.names
    assert rebuilt.series == at_the_end.series and len(rebuilt.series[0]) == 2
    assert rebuilt.title == "Points par manche"  # in bob's language, not the table's
    await fake.disconnect(bot)
    fake.assert_no_errors()
