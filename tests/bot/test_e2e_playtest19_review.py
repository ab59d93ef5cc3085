"""End-to-end: the review of play-test 19's fixes, « the biggest tables »: what they left
past Discord's 2,000 characters or unsaid, each checked in French and in English."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot.client import PresidentBot
from bot.i18n import plural, t
from bot.packages.game.table_message import host_name, table_screen
from bot.packages.rules_text import table_preset_name
from bot.tables.deadlines import IDLE_CLOSE_SECONDS
from bot.tables.table import Table
from engine import Card, Game, Phase, Rules
from fakediscord import FakeDiscord, TestUser
from fakediscord.forge import Forger
from fakediscord.limits import STRING_SELECT
from fakediscord.state import MESSAGE_COMPONENT

from .conftest import LinkedClock
from .e2e import (
    Player,
    before_takeover,
    cid,
    create_table,
    deal,
    host_against_bots,
    humans_only,
    message,
    play_until,
    tick,
    uncut_screens,
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
    yield from uncut_screens(monkeypatch)


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
    lines = before_takeover(locale, message(users[0], board_id).content.split("\n"))
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
    # Late, and beaten by her own play of 3♣ from that same version (play-test 23).
    assert host.user.last_ephemeral().content.startswith("⚠️ " + t(locale,
                                                                  "err.already_played"))
    assert Card.parse("BJ") in game.hand(0) and game.to_act == 1
    fake.assert_no_errors()


#: What the names of a crowded evening are made of: markdown characters (each doubled by its
#: escape), mostly, then emoji of several code points and right-to-left letters (which set
#: the name between isolates).
MARKDOWN_PARTS = ["*", "_", "~", "|", ">", "`", "<"]
OTHER_PARTS = ["🎉", "👨‍👩‍👧", "🇫🇷", "ا", "é", "Ж", "#", "@"]


def adversarial_name(rng: random.Random, number: int) -> str:
    """A 32-character name (Discord's longest), told apart by ``number``."""
    name = f"{number:02}"
    while len(name) < 32:
        part = rng.choice(MARKDOWN_PARTS if rng.random() < 0.97 else OTHER_PARTS)
        if len(name) + len(part) > 32:
            break
        name += part
    return name


def essentials_missing(table: Table, game: Game, board: str, locale: str,
                       absent: bool) -> list[str]:
    """What the table message must still say, whatever gave way to fit: whose turn it is,
    the play to beat, the call to press « Ma main » (while someone, ``absent``, never opened
    their hand),
    the host's choice between rounds and at the game's end."""
    lines = board.split("\n")
    missing = []
    if game.phase is Phase.PLAY and game.to_act is not None and not table.rules.fast:
        turn = t(locale, "table.turn", name=table.name(game.to_act), countdown="").rstrip()
        if not any(line.startswith(turn) for line in lines):
            missing.append("turn")
    if game.phase is Phase.PLAY and game.trick:
        last = game.trick[-1]
        if not any(line.startswith(t(locale, "table.trick", plays=""))
                   and table.name(last.seat) in line.rsplit(" · ", 1)[-1] for line in lines):
            missing.append("play to beat")
    if absent and game.phase in (Phase.PLAY, Phase.EXCHANGE) and \
            not lines[-1].startswith("🔔 "):
        missing.append("press « Ma main »")
    if game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
        lines = before_takeover(locale, lines)
    if game.phase is Phase.ROUND_OVER and \
            lines[-1] != t(locale, "table.host_next", host=host_name(table)):
        missing.append("host's choice between rounds")
    if game.phase is Phase.GAME_OVER and not lines[-1].startswith(
            t(locale, "table.host_over", host=host_name(table)).split(":")[0]):
        missing.append("host's choice at the end")
    return missing


async def board_caught_up(fake: FakeDiscord, clock: LinkedClock, table: Table,
                          reader: TestUser) -> bool:
    """Whether the table message, a second or two on (its redraws are coalesced), shows
    the table as it is: a timer or a bot may move meanwhile, when it is left unchecked."""
    for _ in range(2):
        await tick(fake, clock, 1)
        shown = message(reader, table.table_message_id).content
        if shown == table_screen(table, clock.now()).content:
            return True
    return False


async def random_move(player: Player, rng: random.Random) -> bool:
    """One move from the hand, chosen at random among what it offers (any menu, any
    option, Pass); the exchange as `Player.act` does it. False when it offers none."""
    shown = player.hand
    menus = [m for m in shown.selects if ":play:" in m.custom_id]
    passes = [b.custom_id for b in shown.buttons if b.custom_id and ":pass:" in b.custom_id]
    if not menus and not passes or any(":give" in m.custom_id for m in shown.selects) or \
            any(b.custom_id and ":give_ok:" in b.custom_id for b in shown.buttons):
        return await player.act()
    if passes and (not menus or rng.random() < 0.3):
        await player.user.click(shown, passes[0])
        return True
    menu = rng.choice(menus)
    await player.user.select(shown, [rng.choice(menu.options).value], select=menu.custom_id)
    return True


@pytest.mark.parametrize("seed", range(8))
async def test_random_big_tables_fit_discord_and_say_what_matters(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, seed: int,
    shown: list[str],
) -> None:
    """Seeded random tables at their largest: each preset opened to seven or eight seats of
    32-character names made mostly of markdown characters (with emoji and right-to-left
    letters), six or twelve friends listed or queued, revolutions on or off, the host alone
    or about half the players opening their hand (the timers, then the autopilot, play for
    the others), random plays and passes, two rounds through to the results and the
    closing. Every message the bot shows fits
    Discord's 2,000 characters uncut (the `shown` fixture), and the table message still
    says what matters at every step (`essentials_missing`)."""
    rng = random.Random(seed)
    locale = LOCALES[seed % 2]
    preset = ["classic", "presi", "wild7", "proletario"][seed % 4]
    seats = rng.choice([7, 8, 8])
    users = [fake.add_user(adversarial_name(rng, n), locale=locale) for n in range(seats)]
    table = await create_table(instant, users[0], preset)
    await instant.service.set_rules(table, users[0].id, table.rules.replace(
        min_players=2, max_players=8, game_end="rounds:2", revolution=rng.random() < 0.5,
        turn_seconds=5, exchange_seconds=5, autopilot_after_timeouts=1))
    for user in users[1:]:
        await user.click(message(user, table.lobby_message_id), cid(table, "join"))
    await users[0].click(message(users[0], table.lobby_message_id), cid(table, "start"))
    await tick(fake, clock, 1)
    game = table.game
    assert game is not None
    for n in range(rng.choice([6, 12])):
        friend = fake.add_user(adversarial_name(rng, seats + n), locale=locale)
        await friend.click(message(friend, table.table_message_id), cid(table, "join"))
    # Some never open their hand (the timers, then the autopilot, play for them): the
    # table asks them to, all game long.
    players = [Player(user) for user in users]
    opening = rng.choice([0.0, 0.5])  # how likely each but the host is to open their hand
    present = [p for p in players if p is players[0] or rng.random() < opening]
    for player in present:
        await player.open_hand(instant)
    absent = len(present) < len(players)
    checked = 0
    for _ in range(3000):
        if game.phase is Phase.GAME_OVER:
            break
        if await board_caught_up(fake, clock, table, users[0]):
            board = message(users[0], table.table_message_id).content
            assert essentials_missing(table, game, board, locale, absent) == [], board
            checked += 1
        if game.phase is Phase.ROUND_OVER:
            board_message = message(users[0], table.table_message_id)
            await users[0].click(board_message, cid(table, "next", game.version))
            continue
        moved = False
        for player in rng.sample(present, len(present)):
            if player.hand_id is not None and await random_move(player, rng):
                moved = True
                break
        if not moved:
            await tick(fake, clock, 1)
    assert game.phase is Phase.GAME_OVER
    await tick(fake, clock, 1)
    board = message(users[0], table.table_message_id).content
    assert essentials_missing(table, game, board, locale, absent) == [], board
    board_id = table.table_message_id
    await tick(fake, clock, IDLE_CLOSE_SECONDS)
    assert table.closed
    assert message(users[0], board_id).content.endswith(t(locale, "lobby.closed"))
    assert len(shown) > 30 and checked > 20
    fake.assert_no_errors()
