from bot.client import PresidentBot
from engine import Phase
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import (
    alice_hosts_with_bob_around,
    cid,
    let_timers_play,
    marie_against_three_bots,
    message,
    tick,
)


async def test_create_join_addbot_start_and_open_hand(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    alice, bob, table = await alice_hosts_with_bob_around(fake, president)
    lobby = message(alice, table.lobby_message_id)
    assert "alice" in lobby.content and lobby.content.count("Classic Président") == 1
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


async def test_ending_a_finished_game_says_it_is_over(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock
) -> None:
    marie, table, game = await marie_against_three_bots(fake, instant, "rounds:1")
    await let_timers_play(fake, clock, game, Phase.GAME_OVER)
    await tick(fake, clock, 1)
    board = message(marie, table.table_message_id)
    assert "Classement final" in board.content
    await marie.click(board, cid(table, "end", game.version))
    await tick(fake, clock, 1)
    lobby = message(marie, table.lobby_message_id)
    assert "🏁 La partie est terminée." in lobby.content
    assert "pas assez de joueurs" not in lobby.content
    fake.assert_no_errors()


async def test_host_removes_the_last_added_bot(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    alice, bob, table = await alice_hosts_with_bob_around(fake, president)
    lobby = message(alice, table.lobby_message_id)
    assert "Remove a bot" not in [b.label for b in lobby.buttons]
    await bob.click(lobby, cid(table, "join"))
    await alice.click(lobby, cid(table, "addbot"))
    await alice.click(lobby, cid(table, "addbot"))
    lobby = message(alice, table.lobby_message_id)
    assert "Bot 1" in lobby.content and "Bot 2" in lobby.content
    await bob.click(lobby, cid(table, "removebot"))
    assert "C’est réservé à l’hôte" in bob.last_ephemeral().content
    assert [p.name for p in table.seats] == ["alice", "bob", "Bot 1", "Bot 2"]
    await alice.click(lobby, cid(table, "removebot"))
    lobby = message(alice, table.lobby_message_id)
    assert "Bot 1" in lobby.content and "Bot 2" not in lobby.content
    await alice.click(lobby, cid(table, "removebot"))
    lobby = message(alice, table.lobby_message_id)
    assert "Bot 1" not in lobby.content
    assert "Remove a bot" not in [b.label for b in lobby.buttons]
    fake.assert_no_errors()



async def test_joining_by_command_says_so_in_the_joiners_language(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    alice, bob, table = await alice_hosts_with_bob_around(fake, president)
    carol = fake.add_user("carol")
    await bob.slash("president join")
    assert bob.last_ephemeral().text == "Tu as rejoint la table."
    await carol.slash("president join")
    assert carol.last_ephemeral().text == "You joined the table."
    await tick(fake, clock, 1)  # the lobby message follows through the publisher's refresh
    lobby = message(alice, table.lobby_message_id)
    assert "bob" in lobby.content and "carol" in lobby.content
    fake.assert_no_errors()


async def test_the_commands_are_offered_in_servers_only(
    fake: FakeDiscord, president: PresidentBot
) -> None:
    """No table lives in a DM: Discord is told so, and offers the commands there not at all
    (`contexts`: GUILD alone)."""
    synced = fake.commands.find(fake.guild.id, "president")
    assert synced is not None and synced["contexts"] == [0]


async def test_only_the_host_is_asked_to_stop_a_game(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    alice, bob, table = await alice_hosts_with_bob_around(fake, president)
    lobby = message(alice, table.lobby_message_id)
    await bob.click(lobby, cid(table, "join"))
    await alice.click(lobby, cid(table, "addbot"))
    await alice.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    await bob.slash("president end")
    refusal = bob.last_ephemeral()
    assert "C’est réservé à l’hôte" in refusal.text and not refusal.buttons
    await alice.slash("president end")
    assert [b.label for b in alice.last_ephemeral().buttons] == ["Stop the game"]
    assert table.game is not None and table.game.phase is not Phase.GAME_OVER
    fake.assert_no_errors()


async def test_leaving_the_lobby_is_immediate_and_only_a_player_is_asked_mid_game(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    alice, bob, table = await alice_hosts_with_bob_around(fake, president)
    carol = fake.add_user("carol")
    lobby = message(alice, table.lobby_message_id)
    await carol.click(lobby, cid(table, "join"))
    await carol.slash("president leave")  # no game: no asking
    assert carol.last_ephemeral().text == "You left the table."
    assert table.seat_of(carol.id) is None
    await bob.click(lobby, cid(table, "join"))
    await alice.click(lobby, cid(table, "addbot"))
    # bob leaves from the lobby as alice starts: the game started first, so he is asked.
    await alice.click(lobby, cid(table, "start"), settle=False)
    await bob.click(lobby, cid(table, "leave"), settle=False)
    await fake.settle()
    assert [b.label for b in bob.last_ephemeral().buttons] == ["Quitter la partie"]
    assert table.seat_of(bob.id) is not None and table.game is not None
    await carol.slash("president leave")
    refusal = carol.last_ephemeral()
    assert refusal.text == "⚠️ You are not seated at this table." and not refusal.buttons
    fake.assert_no_errors()
