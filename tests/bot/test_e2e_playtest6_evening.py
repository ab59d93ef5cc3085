"""End-to-end: play-test 6, a long evening at one table — hands left open past their
interaction tokens, games replayed one after another, players leaving between games."""

import pytest

from bot.client import PresidentBot
from bot.i18n import t
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
)


@pytest.mark.parametrize("locale", ["fr", "en"])
async def test_a_player_leaving_a_finished_game_does_not_say_too_few_are_left(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-test: three friends and a bot finished a game; one went home with
    /president leave, and the lobby told the two left, with their bot, « ⚠️ Il ne reste
    pas assez de joueurs » — three seats, which a classic game needs. The game had ended
    with its results: the lobby says so and offers to play again."""
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
    shown = message(users[0], table.lobby_message_id).content
    assert t(locale, "table.back_to_lobby") not in shown
    assert t(locale, "table.finished") in shown
    assert len(table.seats) == 3 >= table.rules.min_players
    fake.assert_no_errors()
