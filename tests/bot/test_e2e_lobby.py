from bot.client import PresidentBot
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import cid, message, table_of, tick


async def test_create_join_addbot_start_and_open_hand(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    alice = fake.add_user("alice")
    bob = fake.add_user("bob", locale="fr")
    await alice.slash("president create", preset="classic")
    table = table_of(president, alice)
    lobby = message(alice, table.lobby_message_id)
    assert "alice" in lobby.content and "Classic" in lobby.content
    await bob.click(lobby, cid(table, "join"))
    await alice.click(lobby, cid(table, "addbot"))
    lobby = message(alice, table.lobby_message_id)
    assert "bob" in lobby.content and "Bot 1" in lobby.content
    await alice.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    assert table.game is not None
    board = message(bob, table.table_message_id)
    assert "Round 1" in board.content
    await bob.click(board, cid(table, "hand"))
    mine = bob.last_ephemeral()
    assert "Ta main" in mine.content
    fake.assert_no_errors()
