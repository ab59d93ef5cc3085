"""A whole game of each preset, two humans and bots, through the real discord.py client."""

from bot.client import PresidentBot
from engine import Phase
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    marie_timed_out_until,
    message,
    play_until,
    table_of,
    tick,
)


async def set_knob(fake: FakeDiscord, host: Player, president: PresidentBot, knob: str,
                   value: str) -> None:
    table = table_of(president, host.user)
    await host.user.click(message(host.user, table.lobby_message_id), cid(table, "settings"))
    panel = host.user.last_ephemeral()
    menu = next(s for s in panel.selects if any(o.value == knob for o in s.options))
    await host.user.select(panel, [knob], select=menu.custom_id)
    await host.user.modal_submit({"New value": value})


async def full_game(fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
                    preset: str, bots: int, settings: dict[str, str]) -> tuple[Player, Player]:
    alice = Player(fake.add_user("alice"))
    bob = Player(fake.add_user("bob", locale="fr"))
    await alice.user.slash("president create", preset=preset)
    table = table_of(president, alice.user)
    for knob, value in settings.items():
        await set_knob(fake, alice, president, knob, value)
    lobby = message(alice.user, table.lobby_message_id)
    await bob.user.click(lobby, cid(table, "join"))
    for _ in range(bots):
        await alice.user.click(lobby, cid(table, "addbot"))
    await alice.user.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    await alice.open_hand(president)
    await bob.open_hand(president)
    game = table.game
    assert game is not None
    players = [alice, bob]
    rounds = 0
    while True:
        await play_until(fake, clock, players,
                         lambda: game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER))
        rounds += 1
        await tick(fake, clock, 1)
        board = message(bob.user, table.table_message_id)
        assert f"Fin de la manche {game.round_no}" in board.content or \
            f"Round {game.round_no} is over" in board.content
        if game.phase is Phase.GAME_OVER or rounds == 2:
            break
        await alice.user.click(board, cid(table, "next", game.version))
        await tick(fake, clock, 1)
        if game.phase is Phase.EXCHANGE:
            texts = alice.hand.content + bob.hand.content
            assert "Give" in texts or "Donne" in texts or "waiting" in texts or "attend" in texts
    if game.phase is not Phase.GAME_OVER:
        board = message(alice.user, table.table_message_id)
        await alice.user.click(board, cid(table, "end", game.version))
        await tick(fake, clock, 1)
    assert game.phase is Phase.GAME_OVER
    board = message(alice.user, table.table_message_id)
    assert "Game over" in board.content or "Fin de la partie" in board.content
    assert game.round_no == 2
    fake.assert_no_errors()
    return alice, bob


async def test_classic_full_game(fake: FakeDiscord, president: PresidentBot,
                                 clock: LinkedClock) -> None:
    alice, bob = await full_game(fake, president, clock, "classic", 2,
                                 {"game_end": "rounds:2"})
    table = table_of(president, alice.user)
    assert table.game is not None and table.game.winners


async def test_presi_full_game(fake: FakeDiscord, president: PresidentBot,
                               clock: LinkedClock) -> None:
    await full_game(fake, president, clock, "presi", 1, {"game_end": "rounds:2"})


async def test_proletario_full_game(fake: FakeDiscord, president: PresidentBot,
                                    clock: LinkedClock) -> None:
    alice, _ = await full_game(fake, president, clock, "proletario", 0, {})
    table = table_of(president, alice.user)
    assert sum(p.is_bot for p in table.seats) == 2


async def test_wild7_two_players_full_game(fake: FakeDiscord, president: PresidentBot,
                                           clock: LinkedClock) -> None:
    await full_game(fake, president, clock, "wild7", 0, {"game_end": "rounds:2"})


async def test_a_replaced_table_message_points_to_the_newer_one(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock
) -> None:
    marie, table, game = await marie_timed_out_until(fake, clock, instant, "rounds:2",
                                                     Phase.ROUND_OVER)
    old = message(marie, table.table_message_id)
    assert "L’hôte, marie, choisit" in old.content
    await marie.click(old, cid(table, "next", game.version))
    await tick(fake, clock, 1)
    assert table.table_message_id != old.id
    old = message(marie, old.id)
    assert not old.buttons and "L’hôte, marie, choisit" not in old.content
    assert "Fin de la manche 1" in old.content and "message plus récent" in old.content
    fake.assert_no_errors()
