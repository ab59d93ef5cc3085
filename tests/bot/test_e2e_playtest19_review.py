"""End-to-end: the review of play-test 19's fixes, « the biggest tables »: what they left
past Discord's 2,000 characters or unsaid, each checked in French and in English."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot.client import PresidentBot
from bot.i18n import plural, t
from bot.packages.rules_text import table_preset_name
from bot.packages.screen import Screen
from bot.tables.deadlines import IDLE_CLOSE_SECONDS
from engine import Card, Phase, Rules
from fakediscord import FakeDiscord
from fakediscord.forge import Forger
from fakediscord.limits import STRING_SELECT
from fakediscord.state import MESSAGE_COMPONENT

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    create_table,
    deal,
    host_against_bots,
    humans_only,
    message,
    play_until,
    tick,
)

LOCALES = ["fr", "en-US"]
# Names of markdown characters, twice as long once escaped for the message.
MARKDOWN = [f"{i:02}" + "*_~|`" * 6 for i in range(20)]


@pytest.fixture(autouse=True)
def shown(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text the bot asks to show, before `Screen.kwargs` would cut it at Discord's
    2,000 characters (Create Message, « content: up to 2000 characters »,
    https://discord.com/developers/docs/resources/message#create-message): none may need
    cutting, as a cut drops the message's end mid-word."""
    texts: list[str] = []
    kwargs = Screen.kwargs

    def recorded(screen: Screen) -> dict[str, Any]:
        texts.append(screen.content)
        return kwargs(screen)

    monkeypatch.setattr(Screen, "kwargs", recorded)
    yield texts
    assert max(map(len, texts), default=0) <= 2000


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_final_standings_of_those_waiting_leave_the_hosts_choice_whole(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """Proletario opened to eight seats of names in markdown characters, twelve more
    waiting for a seat, each with the points they gave their seat up with (the last place
    steps off for the queue, `Game.step_off`): the final standings name all twenty, and
    the results message went past 2,000 characters even once everything else had given
    way; Discord's cut took the host's choice, and on closing « Cette table est fermée ».
    The standings' last places give way to how many they are."""
    users = [fake.add_user(name, locale=locale) for name in MARKDOWN[:8]]
    table, players = await humans_only(fake, clock, instant, users, "proletario",
                                       min_players=2, max_players=8, game_end="rounds:1")
    game = table.game
    assert game is not None
    for name in MARKDOWN[8:]:
        friend = fake.add_user(name, locale=locale)
        await friend.click(message(friend, table.table_message_id), cid(table, "join"))
    for points, waiting in enumerate(table.queue):  # as if each had played and stepped off
        game.off_table[waiting.key] = points
    await play_until(fake, clock, players, lambda: game.phase is Phase.GAME_OVER)
    await tick(fake, clock, 1)
    board_id = table.table_message_id
    lines = message(users[0], board_id).content.split("\n")
    host = table.seats[0].name
    assert lines[-1] == t(locale, "table.host_over", host=host)
    assert lines[-2] == t(locale, "table.waiting_next",
                          names=plural(locale, "lobby.queue_count", 12))
    standings = lines[lines.index(t(locale, "table.standings")) + 1:-2]
    more = [line for line in standings if not line.startswith(tuple("0123456789"))]
    assert len(more) == 1 and more[0].endswith(tuple(
        plural(locale, "table.standings_more", n) for n in range(1, 20)))
    await tick(fake, clock, IDLE_CLOSE_SECONDS)
    assert table.closed
    closed = message(users[0], board_id).content.split("\n")
    assert closed[-1] == t(locale, "lobby.closed")
    assert t(locale, "table.standings") in closed
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_wild7_table_without_wild_sevens_is_not_titled_for_them(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """Play-test 19 gave a preset's name that speaks of what the host changed its plain
    name, for presi's deck and proletario's seats and jokers, but not for wild7's own
    claim: a host turning the wild 7s off read « Les 7 remplacent » above the rules line
    saying they do not. Classic names no knob; any seat count keeps « Les 7 remplacent »."""
    wild7 = Rules.preset("wild7")
    assert table_preset_name(locale, wild7) == t(locale, "preset.wild7")
    assert table_preset_name(locale, wild7.replace(max_players=2)) == t(locale, "preset.wild7")
    spanish = wild7.replace(deck="spanish48", first_opener="three_of_oros")
    assert table_preset_name(locale, spanish) == t(locale, "preset.wild7")
    plain = t(locale, "preset_plain.wild7")
    assert plain != t(locale, "preset.wild7")
    classic = Rules.preset("classic")
    assert table_preset_name(locale, classic.replace(wild_rank="7")) == t(locale, "preset.classic")
    host = fake.add_user("marie", locale=locale)
    table = await create_table(instant, host, "wild7")
    await instant.service.set_rules(table, host.id, table.rules.replace(wild_rank="none"))
    await tick(fake, clock, 1)
    lobby = message(host, table.lobby_message_id)
    assert lobby.content.split("\n")[0] == t(locale, "lobby.title", preset=plain)
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_menu_of_specials_drawn_before_the_upgrade_is_answered_as_late(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """Play-test 19 moved a joker (and presi's 2 of oros) into the singles' menu, and kept
    « special0 » among the play menus' ids (`views.play`): a hand drawn before, its joker
    in « Jouer une carte spéciale… », may still show on a player's screen after the
    upgrade while the bot has redrawn that message. A pick there is answered as late (the
    hand as it is now, nothing played), not refused as a control of no bot."""
    host = Player(fake.add_user("marie", locale=locale))
    table = await host_against_bots(president, host.user, "proletario", 3)
    await tick(fake, clock, 1)
    deal(president, table, [
        ["9C", "9D", "9H", "9S", "BJ", "3C", "4C", "5C", "6C", "8C", "10C", "JC", "QC", "KC"],
        ["3D", "4D", "5D", "6D", "7D", "8D", "10D", "JD", "QD", "KD", "AD", "2D", "RJ"],
        ["3H", "4H", "5H", "6H", "7H", "8H", "10H", "JH", "QH", "KH", "AH", "2H", "7C"],
        ["3S", "4S", "5S", "6S", "7S", "8S", "10S", "JS", "QS", "KS", "AS", "2S", "AC", "2C"],
    ], opener=0)
    await fake.settle()
    await host.open_hand(president)
    game = table.game
    assert game is not None
    drawn_for = game.version
    await host.user.select(host.hand, ["3C"], select=host.hand.selects[0].custom_id)
    assert game.to_act == 1 and not host.hand.selects  # a bot's turn: no menu to pick from
    drawn_before = {"custom_id": cid(table, "play", drawn_for, "special0"),
                    "component_type": STRING_SELECT, "values": ["BJ"]}
    await Forger(fake).send(host.user, MESSAGE_COMPONENT, drawn_before, message=host.hand)
    assert host.user.last_ephemeral().content.startswith("⚠️ " + t(locale, "err.stale"))
    assert Card.parse("BJ") in game.hand(0) and game.to_act == 1
    fake.assert_no_errors()
