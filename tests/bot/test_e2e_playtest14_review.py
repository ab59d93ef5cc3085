"""End-to-end: the second review of play-test 14's fixes (stop 41): hand links, farewells and
the hand's last edit as its token runs out, across the lobby and restarts."""

from __future__ import annotations

from pathlib import Path

from bot.client import PresidentBot
from bot.i18n import t
from bot.i18n.typography import french
from bot.packages.game import chart
from fakediscord import FakeDiscord, LatencyConfig

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    connect_bot,
    database_url,
    message,
    restart,
    tick,
    two_humans_against_a_bot,
)
from .test_e2e_playtest14 import _hands_of, _live

LAPSE_FR = french(t("fr", "hand.lapsing", refresh="Actualiser", hand="Ma main"))


def _lapse_keys(bot: PresidentBot) -> list[object]:
    return [k for k in bot.service.scheduler.pending()
            if isinstance(k, tuple) and len(k) == 3 and k[1] == "lapse"]


async def _until_lapse(fake: FakeDiscord, clock: LinkedClock, bob: Player,
                       limit: float = 17 * 60) -> bool:
    waited = 0.0
    while waited < limit:
        await tick(fake, clock, 10)
        waited += 10
        if bob.hand.text.startswith("⏸️"):
            return True
    return False


async def test_same_hand_clicked_again_and_again_is_never_told_it_moved(
        fake: FakeDiscord, president: PresidentBot, clock: LinkedClock) -> None:
    alice = Player(fake.add_user("alice", locale="fr"))
    bob = Player(fake.add_user("bob", locale="fr"))
    table, _ = await two_humans_against_a_bot(fake, clock, president, alice, bob)
    fake.enable_latency(LatencyConfig(mean=0.08, jitter=0.04, seed=5))
    for _ in range(3):
        await bob.user.click(bob.hand, cid(table, "refresh"), settle=False)
    await fake.settle()
    await tick(fake, clock, 1)
    hands = _hands_of(bob.user)
    assert len(hands) == 1 and hands[0].text != french(t("fr", "hand.moved"))
    assert not table.farewells
    fake.assert_no_errors()


async def test_lapse_timer_survives_the_table_going_back_to_the_lobby(
        fake: FakeDiscord, president: PresidentBot, clock: LinkedClock) -> None:
    """End → lobby → Start: the hands are the same links, refreshed into the new game,
    and `Games.back_to_lobby`'s `deadlines.forget` cancelled their lapse timers."""
    alice = Player(fake.add_user("alice", locale="fr"))
    bob = Player(fake.add_user("bob", locale="fr"))
    table, game = await two_humans_against_a_bot(fake, clock, president, alice, bob,
                                                 turn_seconds=600)
    assert len(_lapse_keys(president)) == 2
    await president.service.games.end(table, alice.user.id)
    await president.service.games.end(table, alice.user.id)  # game over -> lobby
    await tick(fake, clock, 1)
    assert table.game is None
    keys = _lapse_keys(president)
    await president.service.games.start(table, alice.user.id)
    await tick(fake, clock, 2)
    assert table.hands.get(bob.user.id) is not None
    lapsed = await _until_lapse(fake, clock, bob)
    assert keys and lapsed, (keys, bob.hand.text[:80])


async def test_lapse_timer_after_a_restart(
        fake: FakeDiscord, clock: LinkedClock, tmp_path: Path) -> None:
    """A restored link got no lapse timer: its hand went quiet again."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    alice = Player(fake.add_user("alice", locale="fr"))
    bob = Player(fake.add_user("bob", locale="fr"))
    table, _ = await two_humans_against_a_bot(fake, clock, bot, alice, bob,
                                              turn_seconds=600)
    await tick(fake, clock, 2)
    bot = await restart(fake, clock, bot, url)
    try:
        keys = _lapse_keys(bot)
        lapsed = await _until_lapse(fake, clock, bob)
        assert keys and lapsed, (keys, bob.hand.text[:80])
    finally:
        await fake.disconnect(bot)


async def test_refresh_on_a_frozen_hand_stops_the_table_asking_for_my_hand(
        fake: FakeDiscord, president: PresidentBot, clock: LinkedClock) -> None:
    alice = Player(fake.add_user("alice", locale="fr"))
    bob = Player(fake.add_user("bob", locale="fr"))
    table, _ = await two_humans_against_a_bot(fake, clock, president, alice, bob,
                                              turn_seconds=600)
    await tick(fake, clock, 13 * 60)
    assert await _until_lapse(fake, clock, bob)
    board = message(bob.user, table.table_message_id)
    asked_before = "bob" in board.text.split("🔔")[-1] if "🔔" in board.text else False
    await bob.user.click(bob.hand, cid(table, "refresh"))  # within the last 20 s
    await tick(fake, clock, 1)
    board = message(bob.user, table.table_message_id)
    asked = "🔔" in board.text and "bob" in board.text.split("🔔")[-1]
    assert asked_before and not asked, board.text
    fake.assert_no_errors()


async def test_an_older_hand_clicked_then_a_restart_keeps_following_the_clicked_one(
        fake: FakeDiscord, clock: LinkedClock, tmp_path: Path) -> None:
    """bob's click on his older hand moves the link there (the newer says « moved »); it
    was not saved, and a kill before the next move restored the newer link, redrawing the
    « moved » message with controls while the one bob looked at went stale."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    alice = Player(fake.add_user("alice", locale="fr"))
    bob = Player(fake.add_user("bob", locale="fr"))
    table, game = await two_humans_against_a_bot(fake, clock, bot, alice, bob,
                                                 turn_seconds=600)
    old = bob.hand_id
    assert old is not None
    await tick(fake, clock, 20 * 60)
    seat_b, seat_a = table.seat_of(bob.user.id), table.seat_of(alice.user.id)
    for _ in range(200):
        if game.to_act == seat_b:
            break
        if game.to_act == seat_a:
            await alice.user.click(message(alice.user, table.table_message_id),
                                   cid(table, "hand"))
            alice.hand_id = alice.user.last_ephemeral().id
            await alice.act()
        else:
            await tick(fake, clock, 1)
    assert game.to_act == seat_b
    await tick(fake, clock, 2)
    await bob.open_hand(bot)
    new = bob.hand_id
    await tick(fake, clock, 1)
    await bob.user.click(old, cid(table, "refresh"))
    await tick(fake, clock, 1)
    moved = french(t("fr", "hand.moved"))
    assert message(bob.user, new).text == moved and game.to_act == seat_b
    clicked_link = table.hands[bob.user.id]
    assert clicked_link.message_id == old
    bot = await restart(fake, clock, bot, url)
    try:
        restored = bot.service.registry.in_channel(bob.user.channel.id)
        assert restored is not None and restored.game is not None
        await tick(fake, clock, 2)
        link = restored.hands[bob.user.id]
        newer = message(bob.user, new)
        assert link.token == clicked_link.token, "restored the newer link, not the clicked one"
        assert newer.text == moved and not _live(newer), newer.text[:120]
    finally:
        await fake.disconnect(bot)


def test_the_ninth_chart_line_differs_from_the_first_by_more_than_hexagon_vs_circle() -> None:
    """Line 9 shared line 1's colour and dash; only « h » against « o » told them apart,
    which at markersize 8 (legend included) reads as the same dot."""
    names = tuple(f"p{i}" for i in range(9))
    series = tuple((i, i + 1) for i in range(9))
    lines = chart.draw(chart.PointsChart("P", "M", "P", names, series, "alt")).axes[0].get_lines()
    first, ninth = lines[0], lines[8]
    assert (first.get_color(), first.get_linestyle()) != (ninth.get_color(), ninth.get_linestyle())
