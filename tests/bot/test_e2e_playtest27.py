"""End-to-end: play-test 27, « a bad connection »: the bot's gateway connection drops during
an evening of games (a host's VPS on flaky Wi-Fi, a Discord gateway incident). The fake holds
the gap (`FakeDiscord.gateway_down`) and ends it with a RESUME that replays what the gap
dispatched, or with an Invalid Session after which the bot IDENTIFYs again
(`FakeDiscord.gateway_up`). Time is the fake's: nothing sleeps."""

from __future__ import annotations

import pytest

from bot.client import PresidentBot
from bot.config import Config
from bot.replays import ANSWER_WITHIN
from engine import Game
from fakediscord import FakeDiscord, InteractionRecord

from .conftest import LinkedClock
from .e2e import Player, dealt_against_two_bots

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
