"""End-to-end: what a race or a restart forgot (stop 47, after play-test 23). A late click
told what beat it across a restart, a gift the exchange timer made, the idle close's clock
moved by a refused click, the retiring of an old lobby or table message while a click's
answer redraws it, and a hand's redraw on its way as its table closes."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.packages.lobby.display import lobby_screen
from bot.tables.table import Table
from engine import Phase
from fakediscord import FakeDiscord, LatencyConfig, Spread

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    connect_bot,
    create_table,
    database_url,
    http_waits_on_the_fake_clock,
    message,
    play_until,
    restart,
    tick,
    to_the_next_exchange,
    two_humans_against_a_bot,
    waits,  # noqa: F401 (a fixture, used by name)
)
from .test_e2e_hand_rate_limits import HAND_EDIT, bob_to_play
from .test_e2e_playtest23 import answer, sentence, to_a_human_turn

LOCALES = ["fr", "en-US"]


def live(bot: PresidentBot, table: Table) -> Table:
    """The table as the bot now runs it (a restart restores another object)."""
    found = bot.service.registry.in_channel(table.channel_id)
    assert found is not None
    return found


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("timer", [False, True])
async def test_a_late_play_after_a_restart_still_says_what_beat_it(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str, timer: bool
) -> None:
    """bob's phone shows his turn; his computer plays it (or his timer does), the bot is
    redeployed, then the phone's slow click arrives. Which move beat a click was kept in
    memory only, so after the restart he read « The table has moved on since this was
    shown », not that his move (or his timer's) came first."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    host = Player(fake.add_user("marie", locale=locale))
    guest = Player(fake.add_user("bob", locale=locale))
    table, game = await two_humans_against_a_bot(fake, clock, bot, host, guest,
                                                 turn_seconds=20)
    mover = await to_a_human_turn(fake, clock, table, [host, guest])
    shown = mover.hand
    menu = next(s for s in shown.selects if ":play:" in s.custom_id)
    version = game.version
    if timer:
        deadline = bot.service.scheduler.deadline((table.id, "timer"))
        assert deadline is not None
        clock.advance(deadline - clock.now() + 0.001)
        await fake.settle()
    else:
        await mover.user.select_shown(shown, [menu.options[0].value], select=menu.custom_id)
    assert game.version > version
    bot = await restart(fake, clock, bot, url)
    table = live(bot, table)
    restored = table.game
    assert restored is not None and restored.phase is Phase.PLAY
    moved = restored.version
    late = await mover.user.select_shown(shown, [menu.options[-1].value],
                                         select=menu.custom_id)
    key = "err.timer_played" if timer else "err.already_played"
    assert answer(late).startswith("⚠️ " + sentence(locale, key)), answer(late)
    assert restored.version == moved
    fake.assert_no_errors()
    await fake.disconnect(bot)


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_gift_the_exchange_timer_made_says_the_timer_gave_it(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """The giver confirms her cards as the exchange's time runs out, and the timer gives
    for her first. She read « Your cards were already given in this exchange », as if she
    had given them (on another device?); she is now told her time ran out and they were
    given for her, and a restart in between says so too."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    host = Player(fake.add_user("marie", locale=locale))
    guest = Player(fake.add_user("bob", locale=locale))
    table, game = await two_humans_against_a_bot(fake, clock, bot, host, guest, bots=2,
                                                 exchange_seconds=20)
    await to_the_next_exchange(fake, clock, table, [host, guest], host.user)
    assert game.phase is Phase.EXCHANGE
    givers = []
    for player in (host, guest):
        await player.user.click(player.hand, cid(table, "refresh"))
        shown = player.hand
        confirms = [b.custom_id for b in shown.buttons
                    if b.custom_id is not None and ":give_ok:" in b.custom_id]
        if confirms:
            givers.append((player, shown, confirms[0]))
    assert givers, "no human gives pre-checked cards in this exchange"
    player, shown, confirm = givers[0]
    deadline = bot.service.scheduler.deadline((table.id, "timer"))
    assert deadline is not None
    clock.advance(deadline - clock.now() - 0.001)
    await fake.settle()
    fake.enable_latency(LatencyConfig())
    late = await player.user.click_shown(shown, confirm, settle=False)
    clock.advance(0.002)  # the timer gives while the click is on its way
    await fake.settle()
    seat = table.seat_of(player.user.id)
    assert seat is not None and any(swap[0] == seat for swap in game.swaps)
    assert table.gave_late(seat)
    said = sentence(locale, "err.timer_given")
    assert answer(late).startswith("⚠️ " + said), answer(late)
    fake.disable_latency()
    bot = await restart(fake, clock, bot, url)
    again = await player.user.click_shown(shown, confirm)
    assert answer(again).startswith("⚠️ " + said), answer(again)
    fake.assert_no_errors()
    await fake.disconnect(bot)


async def test_an_answer_on_its_way_to_a_table_message_lands_before_its_retiring(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """At a round's end marie presses « Terminer » on the table message and, at once, types
    `/president replay`. « Terminer » is answered by redrawing the message (type 7, or
    deferred and edited once saved): the game's results, with « Rejouer » and « Terminer ». The new game retires that message
    (its buttons gone, « ⬇️ La table continue… ») and posts its own; the retiring edit was
    no redraw the publisher waited for, and the slower answer landed over it, the old
    results keeping their buttons for good below no table. The retiring now waits for the
    answer on its way, so it lands last."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    host = Player(fake.add_user("marie", locale="fr"))
    guest = Player(fake.add_user("bob", locale="fr"))
    table, game = await two_humans_against_a_bot(fake, clock, bot, host, guest)
    await play_until(fake, clock, [host, guest], lambda: game.phase is Phase.ROUND_OVER)
    for _ in range(3):
        await tick(fake, clock, 2)
    results = table.table_message_id
    assert results is not None
    # An answer slow on its way, the channel's edits quick.
    fake.enable_latency(LatencyConfig(mean=0.01, jitter=0.0,
                                      routes={"/interactions/": Spread(2.9)}))
    ended = await host.user.click(results, cid(table, "end", game.version), settle=False)
    await host.user.slash("president replay", settle=False)
    await fake.settle()
    for _ in range(3):
        await tick(fake, clock, 2)
    # The results, redrawn with their buttons: at once (type 7), or, since answers wait
    # for their save (`bot/packages/saving.py`, stop 61), deferred (type 6) while the
    # table's latest state, the replay's with it, is stored, and edited after: either way
    # the redraw must land before the retiring, which the message's state below checks.
    assert ended.response_type in (6, 7)
    assert table.game_no == 2 and table.table_message_id != results
    old = message(host.user, results)
    assert not old.components, old.content
    assert old.content.endswith(t("fr", "table.moved_on")), old.content
    fake.assert_no_errors()
    await fake.disconnect(bot)


@pytest.mark.usefixtures("waits")
async def test_a_hand_redraw_on_its_way_as_the_table_closes_lands_before_the_closing(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """marie's hand token is held on a 429 as bob plays, and she presses « Actualiser »,
    which answers through a new token. She then closes the table (the game stopped, back
    to the lobby, closed). The closing told her hand through the new token at once, and
    the held edit, through the old one, landed after it: her hand showed the game and
    its controls again, at a closed table. The closing now waits for her hand's redraw
    on its way."""
    marie, bob, table, game = await bob_to_play(fake, clock, president)
    fake.inject_429(HAND_EDIT, method="PATCH", retry_after=10.0, user=marie.user)
    assert await bob.act()
    await tick(fake, clock, 1)
    await marie.user.click(marie.hand, cid(table, "refresh"))
    for _ in range(3):  # stopped, back to the lobby, closed
        await president.service.games.end(table, marie.user.id)
    await fake.settle()
    assert table.closed
    await tick(fake, clock, 10.0)  # the held edit's retry
    await tick(fake, clock, 1)
    shown = marie.hand
    assert shown.content == t("fr", "hand.closed"), shown.content
    assert not shown.components
    fake.assert_no_errors()


async def test_a_click_on_a_lobby_being_retired_leaves_it_retired(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lobby open for nearly an hour gives way to a fresh one at its next change
    (Discord limits the edits of older messages): ami2's `/president join` retires it,
    and that edit meets a 429 Discord's channel limit makes discord.py sleep out. ami3
    presses « Rejoindre » on it meanwhile: the answer redrew the old lobby with its
    buttons and, slower on its way than the retiring, landed over it, leaving two lobbies
    with buttons. A click answered while its message is being retired is now only
    acknowledged; the fresh lobby lists them both."""
    shim = http_waits_on_the_fake_clock(monkeypatch, fake)
    try:
        await a_click_on_a_lobby_being_retired(fake, clock, tmp_path)
    finally:
        shim.end()


async def a_click_on_a_lobby_being_retired(fake: FakeDiscord, clock: LinkedClock,
                                           tmp_path: Path) -> None:
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    host = fake.add_user("marie", locale="fr")
    table = await create_table(bot, host)
    old = table.lobby_message_id
    assert old is not None
    for _ in range(10):  # the bot's start-up calls (its emojis) made, a window at a time
        await tick(fake, clock, 2)
    # Someone acts every 20 minutes: the table stays open, and nobody is warned of its
    # idle close (25 idle minutes: `IDLE_WARN_SECONDS`), which would redraw the lobby.
    for i in range(2):
        clock.advance(20 * 60)
        await fake.add_user(f"ami{i}", locale="fr").click(old, cid(table, "join"))
    clock.advance(16 * 60)  # 56 minutes old
    await tick(fake, clock, 1)
    fake.inject_429("/channels/{channel_id}/messages/{message_id}", method="PATCH",
                    retry_after=2.0)
    ami2 = fake.add_user("ami2", locale="fr")
    await ami2.slash("president join")  # answered privately: the refresh redraws the lobby
    assert table.seat_of(ami2.id) is not None
    await tick(fake, clock, 1)  # the refresh, a second after the lobby's last
    assert [c.status for c in fake.calls if c.injected] == [429]
    assert table.lobby_message_id == old  # its retiring held by the 429
    fake.enable_latency(LatencyConfig(mean=0.0, jitter=0.0,
                                      routes={"/interactions/": Spread(2.9)}))
    late = await fake.add_user("ami3", locale="fr").click(old, cid(table, "join"),
                                                          settle=False)
    await fake.settle()
    for _ in range(3):
        await tick(fake, clock, 2)
    assert len(table.seats) == 5 and table.lobby_message_id not in (None, old)
    retired = message(host, old)
    assert retired.content == t("fr", "table.moved_on") and not retired.components, \
        retired.content
    assert late.response_type == 6  # acknowledged: the fresh lobby shows them
    fresh = message(host, table.lobby_message_id)
    assert fresh.content == lobby_screen(table).content and fresh.components
    fake.assert_no_errors()
    await fake.disconnect(bot)
