"""End-to-end: the last seated human leaves a table without a queue while friends wait on its
list for the next game. The host role used to go to the first of them, without a seat, while
bots played on for nobody; the game now stops and the list sits in the lobby, its first as
host, or the role goes to a seated human when one is left."""

import pytest

from bot.client import PresidentBot
from bot.i18n import button_names, t
from engine import Phase
from fakediscord import FakeDiscord
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    host_against_bots,
    leave_game,
    message,
    play_until,
    tick,
    two_humans_against_a_bot,
)

LOCALES = ["fr", "en"]


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_host_leaving_only_bots_and_the_list_seats_the_list_in_the_lobby(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    marie = fake.add_user("marie", locale=locale)
    sam = fake.add_user("sam", locale=locale)
    ada = fake.add_user("ada", locale=locale)
    table = await host_against_bots(president, marie, "classic", 2)
    await tick(fake, clock, 1)
    for friend in (sam, ada):
        await friend.slash("president join")
        assert friend.last_ephemeral().content == t(locale, "lobby.listed_next_game", **button_names(locale))
    await marie.slash("president leave")
    assert t(locale, "leave.confirm.list_lobby") in marie.last_ephemeral().content
    await marie.click(marie.last_ephemeral(), t(locale, "btn.quit_game"))
    await tick(fake, clock, 1)
    assert table.game is None and table.queue == []
    assert table.is_host(sam.id)
    assert [p.user_id for p in table.humans()] == [sam.id, ada.id]
    assert table.seat_of(marie.id) is None
    assert len(table.seats) == 4  # marie's two bots stay for the next game
    lobby = message(sam, table.lobby_message_id).content
    assert t(locale, "table.list_seated", name="sam") in lobby
    await sam.click(message(sam, table.lobby_message_id), cid(table, "start"))
    game = fresh(table).game
    assert game is not None and game.phase is Phase.PLAY
    fake.assert_no_errors()


async def test_the_last_human_leaving_a_finished_game_seats_the_list_in_the_lobby(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock
) -> None:
    """The same once the game is over: « Rejouer » was the seatless host's to press."""
    marie = Player(fake.add_user("marie", locale="fr"))
    sam = fake.add_user("sam", locale="fr")
    table = await host_against_bots(instant, marie.user, "classic", 2, game_end="rounds:1")
    await tick(fake, clock, 1)
    await sam.slash("president join")
    await marie.open_hand(instant)
    game = table.game
    assert game is not None
    await play_until(fake, clock, [marie], lambda: game.phase is Phase.GAME_OVER)
    await marie.user.slash("president leave")
    await tick(fake, clock, 1)
    assert table.game is None and table.is_host(sam.id) and table.seat_of(sam.id) is not None
    assert t("fr", "table.list_seated", name="sam") in \
        message(sam, table.lobby_message_id).content
    fake.assert_no_errors()


async def test_the_host_leaving_a_seated_human_hands_them_the_role_and_the_game_goes_on(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    marie = Player(fake.add_user("marie", locale="fr"))
    bob = Player(fake.add_user("bob"))
    sam = fake.add_user("sam", locale="fr")
    table, game = await two_humans_against_a_bot(fake, clock, president, marie, bob)
    await sam.slash("president join")
    await marie.user.slash("president leave")
    assert t("fr", "leave.confirm.round_lobby") in marie.user.last_ephemeral().content
    await leave_game(marie.user)
    assert table.is_host(bob.user.id) and table.game is game
    assert [p.user_id for p in table.queue] == [sam.id]
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_lists_open_hands_say_they_are_seated_once_the_lobby_seats_them(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-test: the friends on the list had their hands open, saying « on the
    list »; the lobby seated them, the first as host, and their hands kept saying so, as
    hands were not redrawn in a lobby. They now say the seat (and the host role) they have,
    and the leaver's says goodbye."""
    marie = Player(fake.add_user("marie", locale=locale))
    friends = [Player(fake.add_user(name, locale=locale)) for name in ("sam", "ada")]
    table = await host_against_bots(president, marie.user, "classic", 2)
    await tick(fake, clock, 1)
    await marie.open_hand(president)
    for friend in friends:
        await friend.user.slash("president join")
        await friend.open_hand(president)
    sam, ada = friends
    assert t(locale, "hand.queue_next_game", **button_names(locale)) in ada.hand.content
    await leave_game(marie.user)
    await tick(fake, clock, 1)
    assert table.game is None and table.is_host(sam.user.id)
    assert sam.hand.content == t(locale, "hand.lobby_host", **button_names(locale)) and not sam.hand.buttons
    assert ada.hand.content == t(locale, "hand.lobby") and not ada.hand.buttons
    assert marie.hand.content == t(locale, "hand.folded")
    fake.assert_no_errors()
