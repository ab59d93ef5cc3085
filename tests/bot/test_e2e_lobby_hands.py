"""End-to-end: the hands left open when a table goes back to its lobby. They were redrawn
only during a game, so a finished game's hand went on saying it once the host had pressed
« Terminer », a player kicked or leaving in the lobby kept a hand showing their seat, and a
new host of the lobby was not told. Every open hand now follows the lobby too, except those
whose 15-minute token expired, which are never edited."""

import pytest

from bot.client import PresidentBot
from bot.i18n import button_names, t
from engine import Phase
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    create_table,
    message,
    play_until,
    tick,
    two_humans_against_a_bot,
)

TOKEN_MINUTES = 15  # "Interaction tokens are valid for 15 minutes" (receiving-and-responding)


async def finished_for_three(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                             locale: str) -> tuple[list[Player], int]:
    """marie hosts léo and a bot, sam joins on the list; one round is played out and the
    game is over, all three hands open. Returns them and the game's last version."""
    marie, leo, sam = (Player(fake.add_user(name, locale=locale))
                       for name in ("marie", "léo", "sam"))
    table, game = await two_humans_against_a_bot(fake, clock, bot, marie, leo,
                                                 game_end="rounds:1")
    await sam.user.slash("president join")
    await sam.open_hand(bot)
    await play_until(fake, clock, [marie, leo], lambda: game.phase is Phase.GAME_OVER)
    await tick(fake, clock, 1)
    assert t(locale, "hand.game_over") in leo.hand.content
    return [marie, leo, sam], game.version


@pytest.mark.parametrize("locale", ["fr", "en"])
async def test_terminer_a_kick_and_the_host_leaving_redraw_the_lobbys_hands(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    (marie, leo, sam), version = await finished_for_three(fake, clock, instant, locale)
    table = instant.service.registry.in_channel(marie.user.channel.id)
    assert table is not None
    await marie.user.click(message(marie.user, table.table_message_id),
                           cid(table, "end", version))
    await tick(fake, clock, 1)
    assert table.game is None and table.seat_of(sam.user.id) is not None
    assert marie.hand.content == t(locale, "hand.lobby_host", **button_names(locale))
    for guest in (leo, sam):
        assert guest.hand.content == t(locale, "hand.lobby") and not guest.hand.buttons
    await marie.user.slash("president leave")  # the lobby asks nothing first
    await tick(fake, clock, 1)
    assert table.is_host(leo.user.id)
    assert marie.hand.content == t(locale, "hand.folded")
    assert leo.hand.content == t(locale, "hand.lobby_host", **button_names(locale))
    await leo.user.slash("president kick", member=sam.user)
    await tick(fake, clock, 1)
    assert sam.hand.content == t(locale, "hand.kicked") and not sam.hand.buttons
    assert leo.hand.content == t(locale, "hand.lobby_host", **button_names(locale))
    fake.assert_no_errors()


async def test_hands_past_their_token_are_left_as_they_were_in_the_lobby(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock
) -> None:
    """Redrawing the lobby's hands must not reach for expired tokens: each edit would be
    refused with 401 « Invalid Webhook Token », which counts toward Cloudflare's ban."""
    (marie, leo, sam), version = await finished_for_three(fake, clock, instant, "fr")
    table = instant.service.registry.in_channel(marie.user.channel.id)
    assert table is not None
    await tick(fake, clock, (TOKEN_MINUTES + 1) * 60)
    await leo.user.slash("president hand")  # a fresh token for léo only
    leo.hand_id = leo.user.last_ephemeral().id
    old = marie.hand.content
    await marie.user.click(message(marie.user, table.table_message_id),
                           cid(table, "end", version))
    await tick(fake, clock, 1)
    assert table.game is None
    assert leo.hand.content == t("fr", "hand.lobby")
    assert marie.hand.content == old
    assert fake.invalid_requests() == 0
    fake.assert_no_errors()


async def test_leaving_the_list_says_goodbye_on_the_hand(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """A friend on the list for the next game leaves it: their open hand kept saying they
    were on it."""
    marie, leo, sam = (Player(fake.add_user(name, locale="en")) for name in ("marie", "léo", "sam"))
    table, _ = await two_humans_against_a_bot(fake, clock, president, marie, leo)
    await sam.user.slash("president join")
    await sam.open_hand(president)
    assert t("en", "hand.queue_next_game", **button_names("en")) in sam.hand.content
    await sam.user.slash("president leave")
    await tick(fake, clock, 1)
    assert not table.queue and sam.hand.content == t("en", "hand.folded")
    fake.assert_no_errors()



@pytest.mark.parametrize("locale", ["fr", "en"])
async def test_a_stale_hand_clicked_in_the_lobby_says_where_its_player_is_and_follows_on(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """marie's hand outlived its token, so « Terminer » could not redraw it. Her click on
    its « Rafraîchir » said « game over » rather than that she hosts the lobby, and kept
    the expired token: her leaving then did not reach the hand she was looking at."""
    (marie, leo, sam), version = await finished_for_three(fake, clock, instant, locale)
    table = instant.service.registry.in_channel(marie.user.channel.id)
    assert table is not None
    await tick(fake, clock, (TOKEN_MINUTES + 1) * 60)
    await marie.user.click(message(marie.user, table.table_message_id),
                           cid(table, "end", version))
    await tick(fake, clock, 1)
    assert table.game is None and t(locale, "hand.game_over") in marie.hand.content
    await marie.user.click(marie.hand, cid(table, "refresh"))
    assert marie.hand.content == t(locale, "hand.lobby_host", **button_names(locale)) and not marie.hand.buttons
    assert marie.user.last_ephemeral().id == marie.hand_id  # redrawn in place
    await marie.user.slash("president leave")
    await tick(fake, clock, 1)
    assert marie.hand.content == t(locale, "hand.folded")
    assert fake.invalid_requests() == 0
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", ["fr", "en"])
async def test_my_hand_in_the_lobby_says_where_one_is_and_turns_into_the_cards_at_the_start(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """Play-test (stop 38): `/president hand` in the lobby answered « No game is running at
    this table », where the hand it would have drawn says where one is. It now answers with
    that hand: a seat in the lobby, the way to one, or a place in a full lobby's queue; and
    the game's start deals the cards into it."""
    marie, bob, otto = (fake.add_user(name, locale=locale) for name in ("marie", "bob", "otto"))
    table = await create_table(president, marie, "classic")
    await bob.click(message(bob, table.lobby_message_id), cid(table, "join"))
    await bob.slash("president hand")
    bob_hand = Player(bob)
    bob_hand.hand_id = bob.last_ephemeral().id
    assert bob_hand.hand.content == t(locale, "hand.lobby")
    await otto.slash("president hand")
    assert otto.last_ephemeral().content.split("\n") == [
        t(locale, "hand.not_seated"), t(locale, "hand.join_lobby", **button_names(locale))]
    await marie.slash("president addbot")
    await marie.click(message(marie, table.lobby_message_id), cid(table, "start"))
    await tick(fake, clock, 1)
    game = table.game
    assert game is not None
    seat = table.seat_of(bob.id)
    assert seat is not None and bob_hand.hand.selects  # his cards, to play from
    fake.assert_no_errors()


async def test_a_full_proletario_lobby_queues_a_newcomer_and_says_so_in_lobby_terms(
    fake: FakeDiscord, president: PresidentBot
) -> None:
    """Play-test (stop 38): a full proletario lobby told a newcomer they « take a seat
    between rounds », though the lobby seats them as soon as a seat frees."""
    users = [fake.add_user(name, locale="en-US") for name in ("ann", "ben", "cat", "dan", "eve")]
    table = await create_table(president, users[0], "proletario")
    for user in users[1:4]:
        await user.click(message(user, table.lobby_message_id), cid(table, "join"))
    eve = users[4]
    await eve.click(message(eve, table.lobby_message_id), cid(table, "join"))
    assert eve.last_ephemeral().content == t("en", "lobby.queued_lobby")
    await eve.slash("president hand")
    assert eve.last_ephemeral().content.split("\n") == [
        t("en", "hand.queued.first"), t("en", "hand.queue_lobby")]
    await users[3].slash("president leave")
    assert table.seat_of(eve.id) is not None
    fake.assert_no_errors()
