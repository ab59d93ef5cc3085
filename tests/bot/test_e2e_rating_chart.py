"""`/president stats` shows the member's rating after each rated round as a chart, replayed
from the stored rounds: its last point is the rating the statistics show."""

from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.config import Config
from bot.packages.game import chart
from engine import Phase
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import Player, cid, message, play_until, table_of, tick


async def test_stats_attach_the_rating_after_each_rated_round(
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
    alice = Player(fake.add_user("alice"))
    bob = Player(fake.add_user("bob"))
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
    drawn.clear()  # the game's points chart

    await alice.user.slash("president stats")
    shown = alice.user.last_ephemeral()
    assert shown.attachments == (chart.RATING_FILENAME,)
    assert len(drawn) == 1 and drawn[0].names == ("Classic Président",)
    (series,) = drawn[0].series
    assert len(series) == 2  # both rounds had two humans
    assert f"rating {series[-1]}" in shown.text  # the replay ends on the stored rating
    await fake.disconnect(bot)

