from bot.client import PresidentBot
from bot.i18n import button_names, t
from bot.i18n.typography import french
from bot.packages.controls import WARNING
from bot.packages.game.lines import seat_name
from engine import Phase
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import (
    alice_hosts_with_bob_around,
    cid,
    create_table,
    let_timers_play,
    marie_against_three_bots,
    marie_hosts_with_bob_around,
    marie_timed_out_until,
    message,
    tick,
)
from .extremes import LONG_TYPED, longest_rules


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
    marie, table, game = await marie_timed_out_until(fake, clock, instant, "rounds:1",
                                                     Phase.GAME_OVER)
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


async def test_a_crowded_lobby_with_every_knob_changed_is_one_message_discord_takes(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """The longest lobby through Discord: eight of its longest names seated, eight more
    waiting, and the longest rules a host can set on wild7. Discord refuses a message over
    2,000 characters; the lobby keeps its seats and hints and counts the rest."""
    users = [fake.add_user(f"{i}{LONG_TYPED}"[:32], locale="fr") for i in range(16)]
    host = users[0]
    table = await create_table(president, host, "wild7")
    rules = longest_rules("wild7", "fr").replace(bots_fill=True)  # a full table queues
    await president.service.set_rules(table, host.id, rules)
    for user in users[1:]:
        await user.slash("president join")
    await tick(fake, clock, 1)
    assert len(table.seats) == 8 and len(table.queue) == 8
    lobby = message(host, table.lobby_message_id).content
    assert len(lobby) <= 2000 and french("À la table (8/8) :") in lobby  # the last edit, not refused
    assert "(`/president règles`)" in lobby.split("\n")[1]  # the rules line, cut short
    assert lobby.split("\n")[-1] == t("fr", "lobby.rules_hint")
    fake.assert_no_errors()


async def test_joining_a_table_without_a_queue_says_when_a_seat_opens(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock
) -> None:
    """Joining a classic game (no queue) was refused with « wait for it to end », and again,
    word for word, once it had ended and stayed on its final standings. Asking while the
    game is under way, or once it is over, puts them on the list for the next game, which
    the host's End seats in the lobby."""
    marie, table, game = await marie_against_three_bots(fake, instant, "rounds:1")
    john = fake.add_user("john")
    await john.slash("president join")
    # The buttons named as marie's French table shows them (play-test 14).
    assert john.last_ephemeral().content == t("en", "lobby.listed_next_game",
                                              **button_names(table.locale))
    assert table.seat_of(john.id) is None and table.queued(john.id)
    await let_timers_play(fake, clock, game, Phase.GAME_OVER)
    await tick(fake, clock, 1)
    await john.slash("president join")
    assert john.last_ephemeral().content == "⚠️ " + t("en", "err.already_listed")
    assert table.seat_of(john.id) is None and table.queued(john.id)
    await marie.click(message(marie, table.table_message_id), cid(table, "end", game.version))
    assert table.seat_of(john.id) is not None
    fake.assert_no_errors()


async def test_refusals_in_the_lobby_lead_with_a_warning_sign(
    fake: FakeDiscord, president: PresidentBot
) -> None:
    """A refusal alone in its private answer read like any other answer (« C’est réservé
    à l’hôte »), while a refusal atop a hand or the settings panel led with ⚠️: every
    refusal now does, from a command or a button."""
    marie = fake.add_user("marie", locale="fr")
    john = fake.add_user("john")
    await john.slash("president join")  # no table yet
    assert john.last_ephemeral().content == \
        "⚠️ There is no table in this channel. Open one with `/president create`."
    alice, bob, table = await alice_hosts_with_bob_around(fake, president)
    lobby = message(alice, table.lobby_message_id)
    await bob.click(lobby, cid(table, "start"))  # not the host
    assert bob.last_ephemeral().content.startswith("⚠️ C’est réservé à l’hôte")
    await alice.click(lobby, cid(table, "start"))
    assert alice.last_ephemeral().content == \
        "⚠️ At least 3 players, bots included, are needed to start (1 seated)."
    await marie.slash("president create")
    assert marie.last_ephemeral().content.startswith(
        "⚠️ Une table est déjà ouverte dans ce salon")
    assert len(table.seats) == 1 and table.game is None
    fake.assert_no_errors()


async def test_joining_a_full_lobby_says_how_a_seat_opens(
    fake: FakeDiscord, president: PresidentBot
) -> None:
    """« La table est complète (3 places). » left a newcomer with nothing to do: it now says
    to try again when a seat frees (stop 38's play-test: « attends » read as a queue that
    would seat them), or to ask the host for more while the rules allow more players."""
    marie, bob, table = await marie_hosts_with_bob_around(fake, president)
    await president.service.set_rules(table, marie.id, table.rules.replace(max_players=3))
    for name in ("carl", "dana"):  # people: a bot gives way to a newcomer (play-test 12)
        friend = fake.add_user(name)
        await friend.slash("president join")
    await bob.slash("president join")
    assert bob.last_ephemeral().content == "⚠️ The table is full (3 seats): try again when " \
        "a seat frees up, or ask the host to open more in **Réglages**."  # as the lobby says
    await president.service.set_rules(table, marie.id, table.rules.replace(max_players=8))
    for n in range(5):
        friend = fake.add_user(f"friend{n}")
        await friend.slash("president join")
    assert len(table.seats) == 8
    jeanne = fake.add_user("jeanne", locale="fr")
    await jeanne.slash("president join")
    assert jeanne.last_ephemeral().content == WARNING + t("fr", "err.table_full_join_most", max=8)
    assert table.seat_of(bob.id) is None and table.seat_of(jeanne.id) is None
    fake.assert_no_errors()


async def test_addbot_and_start_by_command_answer_with_what_they_did(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """Play-test (stop 38): `/president addbot`, `start` and `replay` each answered only
    « C’est fait. ». The bot seated says who joined at what level; a start or a replay by
    command answers with the host's own hand, their first need."""
    marie, _, table = await marie_hosts_with_bob_around(fake, president)
    await marie.slash("president addbot", level="hard")
    assert marie.last_ephemeral().content == french("🤖 **Bot 1** rejoint la table (difficile).")
    await marie.slash("president addbot")
    await marie.slash("president start")
    game = table.game
    assert game is not None
    hand = marie.last_ephemeral()
    assert hand.selects or any(b.custom_id and ":pass:" in b.custom_id for b in hand.buttons) \
        or t("fr", "hand.waiting", name=seat_name(table, game.to_act or 0)) in hand.content
    assert table.hands.get(marie.id) is not None  # followed like any hand she opens
    fake.assert_no_errors()
