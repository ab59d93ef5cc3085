"""End-to-end: play-test 27, « a bad connection »: the bot's gateway connection drops during
an evening of games (a host's VPS on flaky Wi-Fi, a Discord gateway incident). The fake holds
the gap (`FakeDiscord.gateway_down`) and ends it with a RESUME that replays what the gap
dispatched, or with an Invalid Session after which the bot IDENTIFYs again
(`FakeDiscord.gateway_up`). Time is the fake's: nothing sleeps."""

from __future__ import annotations

import pytest

from bot.client import IDENTIFY_INTERVAL, PresidentBot, create_bot
from bot.config import Config
from bot.replays import ANSWER_WITHIN
from engine import Game
from fakediscord import FakeDiscord, InteractionRecord

from .conftest import LinkedClock
from .e2e import Player, dealt_against_two_bots, host_against_three_bots, message, tick
from .test_e2e_playtest9_moderation import audit_log_only, marie_and_bob_in_the_lobby
from .test_e2e_playtest24 import reminder_text, reminders, until_half_time

LOCALES = ["fr", "en-US"]
# marie opens, and may play any of her cards; the bots hold higher ones.
HANDS = [["3C", "4C", "5C", "6C", "7C", "8C"], ["9D", "JD", "KD", "9S", "JS", "KS"],
         ["10H", "QH", "AH", "10S", "QS", "AS"]]


async def pick_first_card(marie: Player) -> InteractionRecord:
    """marie picks the first card of her hand's menu; the bot may not be there to hear it."""
    hand = marie.hand
    menu = next(m for m in hand.selects if ":play:" in m.custom_id)
    return await marie.user.select(hand, [menu.options[0].value], select=menu.custom_id,
                                   settle=False)


def cards_left(game: Game) -> int:
    return len(game.hand(0))


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_card_picked_while_the_bot_was_cut_off_is_not_played_behind_her_back(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """marie picks a card while the bot's connection is down: Discord shows her « This
    interaction failed » after three seconds. When the bot RESUMEs, Discord replays her
    click. It was played all the same (her card gone though she was told it failed), and
    the bot's two answers, refused (10062), were logged as errors. Now it is left alone:
    her hand is as she left it, and her next pick plays."""
    marie = Player(fake.add_user("marie", locale=locale))
    table, game = await dealt_against_two_bots(fake, clock, president, marie, HANDS, opener=0)
    await fake.gateway_down()
    lost = await pick_first_card(marie)
    clock.advance(ANSWER_WITHIN + 7)

    await fake.gateway_up()

    assert fake.gateway.resumes[-1] >= 1  # her click was replayed
    assert not lost.attempted and cards_left(game) == 6 and table.game is game
    again = await pick_first_card(marie)
    await fake.settle()
    assert again.attempted and cards_left(game) == 5


async def test_a_card_picked_during_a_blip_is_played_once_the_bot_is_back(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """A blip shorter than the three seconds: the replayed pick can still be answered,
    and is played."""
    marie = Player(fake.add_user("marie", locale="fr"))
    _, game = await dealt_against_two_bots(fake, clock, president, marie, HANDS, opener=0)
    await fake.gateway_down()
    pick = await pick_first_card(marie)
    clock.advance(ANSWER_WITHIN - 1)

    await fake.gateway_up()

    assert pick.attempted and cards_left(game) == 5


class AheadClock(LinkedClock):
    """A host's clock ten seconds ahead of Discord's: every interaction looks ten seconds
    old when it arrives."""

    def now(self) -> float:
        return super().now() + 10


@pytest.mark.parametrize("gap, played", [(ANSWER_WITHIN - 1, True), (ANSWER_WITHIN + 7, False)])
async def test_a_host_clock_that_runs_ahead_still_tells_a_blip_from_a_long_gap(
    fake: FakeDiscord, gap: float, played: bool
) -> None:
    """Lateness is measured against the offset the live clicks showed, not the host's
    clock alone: ten seconds ahead, a pick replayed after a blip still plays, and one
    replayed after a long gap still does not."""
    clock = AheadClock(fake.clock)
    bot = PresidentBot(Config(token=fake.token, bot_pause=1.0), clock=clock,
                       with_storage=False, guild_ready_timeout=0)
    await fake.connect(bot)
    marie = Player(fake.add_user("marie", locale="en-US"))
    _, game = await dealt_against_two_bots(fake, clock, bot, marie, HANDS, opener=0)
    await fake.gateway_down()
    pick = await pick_first_card(marie)
    clock.advance(gap)

    await fake.gateway_up()

    assert pick.attempted is played and cards_left(game) == (5 if played else 6)
    await fake.disconnect(bot)


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_table_asked_for_while_the_bot_was_cut_off_is_not_opened_later(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """/president create during the gap: its user was told it failed, and asks again once
    the bot is back. The replayed first one ran, its first answer refused (10062), and the
    bot logged it as an error, twice (« /president create failed », then « Task exception
    was never retrieved »): a network blip read as a bug. Now it runs nothing, and the
    second opens the table."""
    alice = fake.add_user("alice", locale=locale)
    await fake.gateway_down()
    await alice.slash("president create", preset="classic", settle=False)
    clock.advance(ANSWER_WITHIN + 30)

    await fake.gateway_up()

    assert president.service.registry.in_channel(fake.channel.id) is None
    await alice.slash("president create", preset="classic")
    assert president.service.registry.in_channel(fake.channel.id) is not None


async def play_a_minute(fake: FakeDiscord, clock: LinkedClock) -> None:
    """Timers and bots keep playing for a minute."""
    for _ in range(60):
        await tick(fake, clock, 1)


@pytest.mark.parametrize("locale", LOCALES)
async def test_send_messages_taken_during_a_gap_that_needed_a_new_session_costs_no_refused_call(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """A moderator takes Send Messages from the bot while its connection is down, and the
    gap outlasts the session: the bot IDENTIFYs again, and the overwrite's CHANNEL_UPDATE
    is lost with the old session. The new GUILD_CREATE says it, but only a server held
    (at a start, after an outage) was rechecked: the table went on posting, and its calls
    were refused (403, toward Cloudflare's ban). Now it stops before any call is refused."""
    marie = fake.add_user("marie", locale=locale)
    table = await host_against_three_bots(instant, marie, "rounds:3")
    await tick(fake, clock, IDENTIFY_INTERVAL)  # so that the bot may IDENTIFY at once
    await fake.gateway_down()
    fake.set_bot_permissions(fake.channel, send_messages=False)

    await fake.gateway_up(resumable=False)
    await play_a_minute(fake, clock)

    assert fake.invalid_requests() == 0 and fake.errors == []
    assert table.game is not None and table.game.version > 0


@pytest.mark.parametrize("locale", LOCALES)
async def test_send_messages_given_back_during_a_gap_that_needed_a_new_session_redraws_at_once(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """The other way: the table had stopped (Send Messages taken, heard), and the
    permission comes back while the connection is down, its session lost. The table
    stayed stopped until someone clicked; now the new session's GUILD_CREATE redraws it."""
    marie = fake.add_user("marie", locale=locale)
    table = await host_against_three_bots(instant, marie, "rounds:3")
    await tick(fake, clock, 1)
    board = message(marie, table.table_message_id)
    fake.set_bot_permissions(fake.channel, send_messages=False)
    await play_a_minute(fake, clock)
    assert message(marie, table.table_message_id).content == board.content
    await fake.gateway_down()
    fake.set_bot_permissions(fake.channel, send_messages=True)

    await fake.gateway_up(resumable=False)
    await tick(fake, clock, 1)  # the refresh the coalescer spaces by up to a second

    assert message(marie, table.table_message_id).content != board.content
    assert fake.invalid_requests() == 0 and fake.errors == []


async def cut_off_for(fake: FakeDiscord, clock: LinkedClock, seconds: int) -> None:
    """The bot's connection is down ``seconds`` (the bot's timers running meanwhile)."""
    await fake.gateway_down()
    for _ in range(seconds):
        clock.advance(1)
        await fake.settle(require_answers=False)


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_turn_timer_waits_while_the_bot_is_cut_off(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """marie's turn, 30 seconds on the clock, and the bot's connection is down two
    minutes: no click of hers could reach it. Her turn was played by the timer, then the
    next (the bots played on), her seat all but handed to the autopilot, where a server's
    outage stops the clocks. Now the clocks wait, as in an outage: back, her turn is still
    hers with the time she had, and the table's history says it waited."""
    marie = Player(fake.add_user("marie", locale=locale))
    table, game = await dealt_against_two_bots(fake, clock, president, marie, HANDS, opener=0)
    deadline = table.timer_deadline
    assert deadline is not None and deadline - clock.now() > 10

    await cut_off_for(fake, clock, 120)
    await fake.gateway_up()
    await tick(fake, clock, 1)

    assert cards_left(game) == 6 and table.timer_deadline is not None
    assert table.timer_deadline - clock.now() == pytest.approx(deadline - clock.now() + 120, abs=2)
    assert [e.key for e in table.log][-1] == "ev.paused"
    await pick_first_card(marie)
    await fake.settle()
    assert cards_left(game) == 5


async def test_a_blip_leaves_no_line_in_the_history(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """A gap of a few seconds (Discord's Reconnect, a dropped packet) moves the timer on
    by as much, and says nothing."""
    marie = Player(fake.add_user("marie", locale="fr"))
    table, game = await dealt_against_two_bots(fake, clock, president, marie, HANDS, opener=0)
    deadline = table.timer_deadline
    assert deadline is not None
    logged = len(table.log)

    await cut_off_for(fake, clock, 5)
    await fake.gateway_up()

    assert table.timer_deadline == pytest.approx(deadline + 5, abs=1)
    assert len(table.log) == logged and cards_left(game) == 6


@pytest.mark.parametrize("resumable", [True, False])
async def test_a_player_kicked_while_the_bot_was_cut_off_leaves_once_it_is_back(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, resumable: bool
) -> None:
    """bob is kicked from the server during the gap, where the bot may view the audit log.
    A RESUME replays the audit log's entry; a new session has lost it, but the bot asks
    then whether each seated player is still a member (Get Guild Member, as at a start).
    Either way bob leaves, and the table is not left waiting for him. (Found fine.)"""
    audit_log_only(fake)
    marie, bob, table = await marie_and_bob_in_the_lobby(fake, president)
    await tick(fake, clock, IDENTIFY_INTERVAL)  # so that the bot may IDENTIFY at once
    await fake.gateway_down()
    fake.kick(fake.guild, bob)

    await fake.gateway_up(resumable=resumable)
    await tick(fake, clock, 1)  # the check waits its turn on the call budget

    assert table.player(bob.id) is None and table.host_id == marie.id
    if not resumable:
        fake.expect_error(10007)  # bob, asked after: Unknown Member
    fake.assert_no_errors()


async def test_a_sharded_bot_s_clocks_wait_while_its_shards_are_cut_off(
    fake: FakeDiscord, clock: LinkedClock
) -> None:
    """The same with two shards in one process: each shard's gap stops the clocks of its
    own servers (`on_shard_disconnect`, `on_shard_resumed`)."""
    config = Config(token=fake.token, shard_count=2, shard_ids=(0, 1), bot_pause=1.0)
    bot = create_bot(config, clock=clock, with_storage=False, guild_ready_timeout=0)
    await fake.connect(bot, advance=clock.advance)
    marie = Player(fake.add_user("marie", locale="fr"))
    table, game = await dealt_against_two_bots(fake, clock, bot, marie, HANDS, opener=0)
    deadline = table.timer_deadline
    assert deadline is not None

    await cut_off_for(fake, clock, 120)
    await fake.gateway_up()

    assert cards_left(game) == 6 and table.timer_deadline == pytest.approx(deadline + 120, abs=2)
    await fake.disconnect(bot)


@pytest.mark.parametrize(("gap", "edits"), [(0.4, 0), (1.4, 1)])
async def test_a_blip_edits_the_ping_only_if_its_shown_second_moves(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, gap: float, edits: int
) -> None:
    """A gap moves marie's timer on by its length, and her ping says the new end, as a
    Discord timestamp: whole seconds. A gap of 0.4 s that left the second shown as it was
    edited the ping all the same, to the same text: one call per table pinged at each
    blip. A gap that moves the second still edits it."""
    marie = Player(fake.add_user("marie", locale="fr"))
    table, _ = await dealt_against_two_bots(fake, clock, president, marie, HANDS, opener=0)
    await until_half_time(fake, clock, table)
    [ping] = reminders(fake)
    deadline = table.timer_deadline
    assert deadline is not None and deadline % 1 + 0.4 < 1  # 0.4 s keeps its second
    mark = fake.mark()

    await fake.gateway_down()
    clock.advance(gap)
    await fake.settle(require_answers=False)
    await fake.gateway_up()
    await tick(fake, clock, 1)

    assert table.timer_deadline == pytest.approx(deadline + gap)
    assert len([c for c in fake.calls_since(mark)
                if c.method == "PATCH" and c.path.endswith(f"/{ping.id}")]) == edits
    assert [m.content for m in reminders(fake)] == [reminder_text(table, "turn", marie.user.id)]
    fake.assert_no_errors()
