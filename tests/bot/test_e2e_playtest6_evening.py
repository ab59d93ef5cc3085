"""End-to-end: play-test 6, a long evening at one table — hands left open past their
interaction tokens, games replayed one after another, players leaving between games."""

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.client import PresidentBot
from bot.i18n import button_names, t
from bot.tables.table import Table
from engine import Game, Phase
from fakediscord import FakeDiscord
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    connect_bot,
    create_table,
    database_url,
    host_against_bots,
    leave_game,
    message,
    play_until,
    record_charts,
    tick,
    two_humans_against_a_bot,
)

TOKEN_MINUTES = 15  # "Interaction tokens are valid for 15 minutes" (receiving-and-responding)


@pytest.mark.parametrize(("host_locale", "guest_locale"), [("fr", "en"), ("en", "fr")])
async def test_closing_a_table_leaves_hands_past_their_token_alone(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, host_locale: str,
    guest_locale: str
) -> None:
    """From the play-test: after a game that ran past the 15 minutes of the hands' tokens,
    closing the table edited every hand ever opened there, and Discord answered each
    expired one with 401 « Invalid Webhook Token » — requests that count toward
    Cloudflare's ban of the bot's address. Only hands still reachable are told the table
    is closed, in their player's language."""
    host = Player(fake.add_user("marie", locale=host_locale))
    guest = Player(fake.add_user("léo", locale=guest_locale))
    table, game = await two_humans_against_a_bot(fake, clock, instant, host, guest,
                                                 game_end="rounds:1")
    await play_until(fake, clock, [host, guest], lambda: game.phase is Phase.GAME_OVER)
    await tick(fake, clock, (TOKEN_MINUTES + 1) * 60)  # they talk it over
    old_hand = host.hand.content
    await guest.user.slash("president hand")  # léo looks at his hand again: a fresh token
    guest.hand_id = guest.user.last_ephemeral().id
    await host.user.click(message(host.user, table.table_message_id),
                          cid(table, "end", game.version))
    await host.user.slash("president end")
    await tick(fake, clock, 1)
    assert table.closed
    assert guest.hand.content == t(guest_locale, "hand.closed")
    assert host.hand.content == old_hand  # beyond reach: left as it was
    assert fake.invalid_requests() == 0
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", ["fr", "en"])
async def test_a_player_leaving_a_finished_game_does_not_say_too_few_are_left(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-test: three friends and a bot finished a game; one went home with
    /president leave, and the lobby told the two left, with their bot, « ⚠️ Il ne reste
    pas assez de joueurs » — three seats, which a classic game needs. Only the leaver's
    seat goes: the others keep the results and « Rejouer », which deals them without it."""
    players = [Player(fake.add_user(name, locale=locale)) for name in ("marie", "léo", "sam")]
    users = [player.user for player in players]
    table = await create_table(instant, users[0])
    await instant.service.set_rules(table, users[0].id,
                                    table.rules.replace(game_end="rounds:1"))
    lobby = message(users[0], table.lobby_message_id)
    for user in users[1:]:
        await user.click(lobby, cid(table, "join"))
    await users[0].click(lobby, cid(table, "addbot"))
    await users[0].click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    for player in players:
        await player.open_hand(instant)
    game = table.game
    assert game is not None
    await play_until(fake, clock, players, lambda: game.phase is Phase.GAME_OVER)
    await users[2].slash("president leave")
    await tick(fake, clock, 1)
    assert table.game is game and game.phase is Phase.GAME_OVER and table.notice is None
    shown = message(users[0], table.table_message_id).content
    assert t(locale, "table.back_to_lobby") not in shown
    assert t(locale, "table.host_over", host="marie") in shown
    await users[0].click(message(users[0], table.table_message_id),
                         cid(table, "replay", game.version))
    replayed = fresh(table).game
    assert replayed is not None and replayed is not game
    assert sum(replayed.active) == 3 >= table.rules.min_players
    assert table.seat_of(users[2].id) is None
    fake.assert_no_errors()


def over(game: Game) -> Callable[[], bool]:
    return lambda: game.phase is Phase.GAME_OVER


def bookkeepers(bot: PresidentBot) -> list[Any]:
    """The publisher, each of its parts, and the outbox."""
    publisher = bot.publisher
    return [publisher, publisher.blocked, publisher.hands, publisher.charts,
            publisher.owed_edits, publisher.servers, bot.service.outbox]


def held(bot: PresidentBot) -> int:
    """How many entries the publisher's and the outbox's bookkeeping hold in all."""
    return sum(len(value) for owner in bookkeepers(bot) for value in vars(owner).values()
               if isinstance(value, dict | set))


def mentions(bot: PresidentBot, table: Table) -> list[str]:
    """The publisher's and the outbox's bookkeeping entries that are about ``table``."""
    found = []
    for owner in bookkeepers(bot):
        for name, value in vars(owner).items():
            if isinstance(value, dict | set):
                found += [f"{name}[{key!r}]" for key in value
                          if key == table.id or (isinstance(key, tuple) and table.id in key)]
    return found


async def test_an_evening_of_games_leaves_nothing_behind_once_the_table_closes(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """From the play-test: each finished game left its results message's id in the bot for
    good, and a closed table its last fingerprints and storage task: a bot running for
    weeks of evenings grew with every game and every table. A table's bookkeeping stays
    the same size game after game, and goes when the table closes."""
    record_charts(monkeypatch)
    instant = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=0)
    marie = Player(fake.add_user("marie", locale="fr"))
    host = marie.user
    table = await host_against_bots(instant, host, "classic", 2, game_end="rounds:1")
    sizes = []
    for _ in range(3):
        await tick(fake, clock, 1)
        await marie.open_hand(instant)
        game = table.game
        assert game is not None
        await play_until(fake, clock, [marie], over(game))
        await tick(fake, clock, 1)
        await instant.service.drain()
        sizes.append(held(instant))
        if len(sizes) < 3:
            await host.click(message(host, table.table_message_id),
                             cid(table, "replay", game.version))
    assert sizes[1] == sizes[2], sizes
    await host.slash("president end")  # the finished game: back to the lobby
    await host.slash("president end")  # the lobby: the table closes
    await tick(fake, clock, 1)
    await instant.service.drain()
    assert table.closed
    assert mentions(instant, table) == []
    await fake.disconnect(instant)
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", ["fr", "en"])
async def test_the_host_leaving_a_table_of_bots_hands_it_to_the_friend_waiting(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-test: marie played proletario against three bots; léo came and was
    told « tu es dans la file et tu entres entre deux manches »; marie went home, and the
    table closed under him (« Il n’y a pas de table dans ce salon »). The one waiting
    becomes the host: bots finish the round, and his Next deals him in."""
    marie = fake.add_user("marie", locale=locale)
    leo = fake.add_user("léo", locale=locale)
    table = await host_against_bots(president, marie, "proletario", 3)
    await leo.slash("president join")
    assert leo.last_ephemeral().content == t(locale, "lobby.queued")
    await leave_game(marie)
    assert not table.closed
    assert table.is_host(leo.id)
    assert ("ev.new_host", {"name": "léo"}) in [(e.key, e.params) for e in table.log]
    game = table.game
    assert game is not None
    for _ in range(300):
        if game.phase is Phase.ROUND_OVER:
            break
        await tick(fake, clock, 1)
    await tick(fake, clock, 1)
    await leo.click(message(leo, table.table_message_id), cid(table, "next", game.version))
    assert table.seat_of(leo.id) is not None and table.queue == []
    assert game.phase is not Phase.ROUND_OVER
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", ["fr", "en"])
async def test_a_table_of_bots_closes_once_its_last_waiting_player_leaves_too(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """The friend waiting, who became the host when marie left, goes home too before the
    round ends: nobody is left, seated or waiting, and the table closes rather than bots
    playing on for nobody until the idle timeout."""
    marie = fake.add_user("marie", locale=locale)
    leo = fake.add_user("léo", locale=locale)
    table = await host_against_bots(president, marie, "proletario", 3)
    await leo.slash("president join")
    await leave_game(marie)
    assert table.is_host(leo.id) and not table.closed
    await tick(fake, clock, 1)
    board = table.table_message_id
    await leo.slash("president leave")
    assert leo.last_ephemeral().content == t(locale, "lobby.left_queue")  # never seated
    assert fresh(table).closed
    await tick(fake, clock, 1)
    assert message(leo, board).content.endswith(t(locale, "lobby.closed"))
    fake.assert_no_errors()


async def round_over(fake: FakeDiscord, clock: LinkedClock, game: Game) -> None:
    """Bots and timers play until the round is over."""
    for _ in range(600):
        if game.phase is Phase.ROUND_OVER:
            await tick(fake, clock, 1)
            return
        await tick(fake, clock, 5)
    raise AssertionError("the round never ended")


@pytest.mark.parametrize("locale", ["fr", "en"])
async def test_a_bot_taking_a_seat_never_gets_the_name_of_a_bot_still_seated(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-test: léo waited at marie's proletario table and took Bot 1's seat
    between rounds; when marie left after the next round the bot taking her seat was
    named « Bot 3 » — like the Bot 3 already seated, so the history and the results
    named two seats alike."""
    marie = fake.add_user("marie", locale=locale)
    leo = fake.add_user("léo", locale=locale)
    table = await host_against_bots(president, marie, "proletario", 3)
    await leo.slash("president join")
    game = table.game
    assert game is not None
    await round_over(fake, clock, game)
    await marie.click(message(marie, table.table_message_id), cid(table, "next", game.version))
    assert table.seat_of(leo.id) is not None
    await round_over(fake, clock, game)
    await leave_game(marie)
    names = [p.name for p in table.seats]
    assert sorted(names) == sorted({*names}), names
    assert t(locale, "bot.name", n=4) in names
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", ["fr", "en"])
async def test_a_friend_arriving_after_the_game_is_not_told_to_wait_for_its_end(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-test: sam arrived while marie's finished game showed its results and
    the host's choice; /president join answered « Une partie est en cours à cette table ;
    attends qu’elle se termine » — it had ended, and waiting would change nothing. He is
    told how he gets in, and is on the list for the next game: the host's End seats him in
    the lobby (play-test 6, between games)."""
    marie = Player(fake.add_user("marie", locale=locale))
    sam = fake.add_user("sam", locale=locale)
    table = await host_against_bots(instant, marie.user, "classic", 2, game_end="rounds:1")
    await tick(fake, clock, 1)
    await marie.open_hand(instant)
    game = table.game
    assert game is not None
    await play_until(fake, clock, [marie], over(game))
    await tick(fake, clock, 1)
    await sam.slash("president join")
    assert sam.last_ephemeral().content == t(locale, "lobby.queued_next_game", **button_names(locale))
    assert table.seat_of(sam.id) is None
    board = message(marie.user, table.table_message_id)
    await marie.user.click(board, t(locale, "btn.end_game"))  # the button he is told of
    assert table.seat_of(sam.id) is not None
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", ["fr", "en"])
async def test_the_bot_taking_a_leavers_seat_is_numbered_after_the_bots_seated(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-test: marie left her proletario game against Bot 1, Bot 2 and Bot 3
    mid-round; at the round's end the bot keeping her seat was « Bot 5 », as if her seat,
    played out by a bot, were a fourth bot of its own."""
    marie = fake.add_user("marie", locale=locale)
    leo = fake.add_user("léo", locale=locale)
    table = await host_against_bots(president, marie, "proletario", 3)
    await leo.slash("president join")  # someone stays, so the table does not close
    await leave_game(marie)
    game = table.game
    assert game is not None
    await round_over(fake, clock, game)
    assert sorted(p.name for p in table.seats) == [t(locale, "bot.name", n=n)
                                                   for n in range(1, 5)]
    fake.assert_no_errors()
