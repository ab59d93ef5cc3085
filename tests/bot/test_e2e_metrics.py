"""Prometheus metrics through the bot: with METRICS_PORT set the figures move as tables
are played and are served on /metrics; Discord calls are counted by route and status,
429s included, and the ones Discord counts as invalid requests too."""

from pathlib import Path

import aiohttp

from bot.client import PresidentBot
from bot.config import Config
from bot.metrics import route_of
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import database_url, host_against_three_bots, tick

CALLBACK = "/interactions/{id}/{token}/callback"
POSTS = "/channels/{id}/messages"


def test_routes_are_templates_without_ids_or_tokens() -> None:
    assert route_of("/api/v10/channels/12/messages/34") == "/channels/{id}/messages/{id}"
    assert route_of("/api/v10/interactions/12/a-T0k3n/callback") == CALLBACK
    assert route_of("/api/v10/webhooks/12/a-T0k3n/messages/@original") == (
        "/webhooks/{id}/{token}/messages/@original")


async def test_metrics_move_and_are_served(fake: FakeDiscord, clock: LinkedClock,
                                           tmp_path: Path) -> None:
    url = database_url(tmp_path)
    bot = PresidentBot(Config(token=fake.token, database_url=url, bot_pause=1.0,
                              metrics_port=0), clock=clock, guild_ready_timeout=0)
    await fake.connect(bot)
    value = bot.metrics.registry.get_sample_value
    assert value("president_restore_seconds") is not None
    assert value("president_open_tables", {"state": "playing"}) == 0
    alice = fake.add_user("alice")
    fake.inject_429("/channels/{channel_id}/messages", method="POST", times=1)

    await host_against_three_bots(bot, alice, "rounds:1")
    dealt = value("president_actions_total")
    assert dealt is not None and dealt >= 1
    for _ in range(4):  # alice's turn timer plays for her, and the bots play
        await tick(fake, clock, 30)

    assert value("president_open_tables", {"state": "playing"}) == 1
    actions = value("president_actions_total")
    assert actions is not None and actions > dealt
    # /president create, three Add bot clicks and Start: five first responses.
    assert value("president_interaction_ack_seconds_count") == 5
    assert value("president_discord_calls_total",
                 {"method": "POST", "route": CALLBACK, "status": "200"}) == 5
    assert value("president_discord_calls_total",
                 {"method": "POST", "route": POSTS, "status": "429"}) == 1
    assert value("president_discord_invalid_requests_total") == 1
    taken = value("president_call_budget_taken_total")
    assert taken is not None and taken > 0  # the table message and its edits
    assert value("president_call_budget_per_second") == 45
    written = value("president_snapshot_write_lag_seconds_count")
    assert written is not None and written > 0
    # The bots' searches (bot/tables/thinking.py): each start's wait is observed.
    started = value("president_searches_started_total")
    assert started is not None and value("president_search_wait_seconds_count") == started
    assert value("president_search_queue") == 0 == value("president_searches_in_flight")
    assert value("president_search_workers") == bot.service.thinker.workers.count >= 1

    assert bot.metrics.port is not None
    async with aiohttp.ClientSession() as session, session.get(
            f"http://127.0.0.1:{bot.metrics.port}/metrics") as response:
        text = await response.text()
    assert response.status == 200
    assert 'president_open_tables{state="playing"} 1.0' in text
    assert "president_interaction_ack_seconds_bucket" in text
    await fake.disconnect(bot)
