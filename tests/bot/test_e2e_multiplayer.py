"""End-to-end: several people at one table (play-test 3): who is host, who waits, who leaves."""

from bot.client import PresidentBot
from bot.i18n import button_names, t
from bot.i18n.typography import french
from engine import Phase
from fakediscord import FakeDiscord
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    create_table,
    host_against_bots,
    leave_game,
    let_timers_play,
    message,
    play_until,
    tick,
)


async def test_a_presi_host_who_does_not_come_back_hands_the_lobby_to_the_next_player(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """A presi host leaves mid-game and lets the grace run out: the game is cancelled, and
    the lobby it goes back to names a host among those still seated (the longest seated),
    as any other leave does, not the host who is gone."""
    marie, bob, carol = (fake.add_user(n, locale="fr") for n in ("marie", "bob", "carol"))
    dave = fake.add_user("dave")
    table = await create_table(president, marie, "presi")
    for user in (bob, carol, dave):
        await user.click(message(user, table.lobby_message_id), cid(table, "join"))
    await marie.click(message(marie, table.lobby_message_id), cid(table, "start"))
    await tick(fake, clock, 1)
    await leave_game(marie)
    assert table.host_id == marie.id  # her seat waits for her
    await tick(fake, clock, table.rules.leave_grace_seconds)
    assert table.game is None
    await tick(fake, clock, 1)
    lobby = message(bob, table.lobby_message_id).content
    assert french("La partie est annulée : marie n’est pas de retour.") in lobby
    assert table.host_id == bob.id
    assert "**bob** (👑 hôte)" in lobby
    fake.assert_no_errors()


async def test_a_presi_game_cancelled_after_a_seat_went_between_rounds_keeps_everyone_else(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """dave leaves between rounds (his seat goes), then bob leaves mid-round and does not come
    back: the game is cancelled and everyone still seated, eve too, is back in the lobby."""
    names = ("marie", "bob", "carol", "dave", "eve")
    marie, bob, carol, dave, eve = (fake.add_user(n, locale="fr") for n in names)
    table = await create_table(president, marie, "presi")
    for user in (bob, carol, dave, eve):
        await user.click(message(user, table.lobby_message_id), cid(table, "join"))
    await marie.click(message(marie, table.lobby_message_id), cid(table, "start"))
    game = table.game
    assert game is not None
    players = [Player(u) for u in (marie, bob, carol, dave, eve)]
    await tick(fake, clock, 1)
    for player in players:
        await player.open_hand(president)
    await play_until(fake, clock, players, lambda: game.phase is Phase.ROUND_OVER)
    await leave_game(dave)
    assert table.seat_of(dave.id) is None
    await tick(fake, clock, 1)
    await marie.click(message(marie, table.table_message_id), cid(table, "next", game.version))
    await let_timers_play(fake, clock, game, Phase.PLAY)
    await leave_game(bob)
    await tick(fake, clock, table.rules.leave_grace_seconds)
    assert table.game is None
    assert [p.name for p in table.seats] == ["marie", "carol", "eve"]
    await tick(fake, clock, 1)
    lobby = message(marie, table.lobby_message_id).content
    assert "**eve**" in lobby and "**bob**" not in lobby
    fake.assert_no_errors()


async def test_the_last_place_sent_to_the_queue_sees_so_on_their_hand(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """proletario with four people and eve waiting: between rounds the last place gives eve
    the seat and joins the queue (RULES §10). Their open hand stops showing the cards of the
    round before and says they wait in the queue; so does « Ma main »."""
    names = ("marie", "bob", "carol", "dave")
    users = [fake.add_user(n, locale="en-US" if n == "dave" else "fr") for n in names]
    eve = fake.add_user("eve", locale="fr")
    table = await create_table(president, users[0], "proletario")
    for user in users[1:]:
        await user.click(message(user, table.lobby_message_id), cid(table, "join"))
    await users[0].click(message(users[0], table.lobby_message_id), cid(table, "start"))
    await tick(fake, clock, 1)
    await eve.slash("president join")
    assert eve.last_ephemeral().text == t("fr", "lobby.queued")
    game = table.game
    assert game is not None
    players = [Player(u) for u in users]
    for player in players:
        await player.open_hand(president)
    await play_until(fake, clock, players, lambda: game.phase is Phase.ROUND_OVER)
    assert game.ranking is not None
    last = players[game.ranking[-1]]
    await tick(fake, clock, 1)
    host = users[0]
    await host.click(message(host, table.table_message_id), cid(table, "next", game.version))
    await tick(fake, clock, 1)
    assert table.queued(last.user.id) and table.seat_of(eve.id) is not None
    language = "en" if last.user is users[3] else "fr"
    shown = last.hand
    role = "Proletario"
    queued = "\n".join([t(language, "hand.stepped_off", role=role),
                        t(language, "hand.queued.first"), t(language, "hand.queue_seats")])
    assert shown.text == queued and not shown.buttons and not shown.selects
    await last.user.click(message(last.user, table.table_message_id), cid(table, "hand"))
    assert last.user.last_ephemeral().text == queued
    fake.assert_no_errors()


async def test_a_spectators_hand_says_how_to_get_a_seat(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """From the closing note: someone without a seat who pressed « Ma main » read only that
    they were watching, and someone queued nothing of their place in the queue. A proletario
    table (`bots_fill`) queues them: the hand says to join, then who is ahead."""
    names = ("marie", "bob", "carol", "dave")
    users = [fake.add_user(n, locale="fr") for n in names]
    eve, frank = fake.add_user("eve", locale="fr"), fake.add_user("frank")
    table = await create_table(president, users[0], "proletario")
    for user in users[1:]:
        await user.click(message(user, table.lobby_message_id), cid(table, "join"))
    await users[0].click(message(users[0], table.lobby_message_id), cid(table, "start"))
    await tick(fake, clock, 1)
    board = message(eve, table.table_message_id)
    await eve.click(board, cid(table, "hand"))
    assert eve.last_ephemeral().text.split("\n") == [
        t("fr", "hand.not_seated"), t("fr", "hand.join_queue", **button_names("fr"))]
    await eve.slash("president join")
    await frank.slash("president join")
    await frank.click(board, cid(table, "hand"))
    assert frank.last_ephemeral().text.split("\n") == [
        "⏳ You are in the queue: 1 person is ahead of you.",
        "Between rounds, the queue takes the bots' seats first; once no bot is left, the "
        "round's last place gives up theirs."]
    await eve.click(board, cid(table, "hand"))
    assert eve.last_ephemeral().text.startswith("⏳ Tu es en tête de la file d’attente.\n")
    fake.assert_no_errors()


async def test_a_spectator_at_a_table_without_a_queue_is_told_to_ask_for_the_next_game(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """classic seats nobody mid-game and queues nobody (`bots_fill` off): /president join
    lists them for the next game, and the hand says so first."""
    marie = fake.add_user("marie", locale="fr")
    john = fake.add_user("john")
    table = await host_against_bots(president, marie, "classic", 2)
    await tick(fake, clock, 1)
    await john.click(message(john, table.table_message_id), cid(table, "hand"))
    assert john.last_ephemeral().text.split("\n") == [
        "👀 You are watching this table: you have no seat at it.",
        "To play, press **Rejoindre** under the table, or use `/president join`: you will be "
        "on the list for the next game."]
    # Stop 38's play-test: once listed, the hand said « first in the queue ».
    await john.slash("president join")
    await john.click(message(john, table.table_message_id), cid(table, "hand"))
    assert john.last_ephemeral().text.split("\n")[0] == t("en", "hand.listed.first")
    fake.assert_no_errors()


async def test_a_kicked_players_hand_says_the_host_removed_them_in_their_language(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """marie kicks dave mid-game: his open hand loses its controls and says the host removed
    him (in English, his language), not that he left; bob, who leaves himself, is told he
    left."""
    marie, bob, carol = (fake.add_user(n, locale="fr") for n in ("marie", "bob", "carol"))
    dave = fake.add_user("dave", locale="en-US")
    table = await create_table(president, marie)
    for user in (bob, carol, dave):
        await user.click(message(user, table.lobby_message_id), cid(table, "join"))
    await marie.click(message(marie, table.lobby_message_id), cid(table, "start"))
    await tick(fake, clock, 1)
    players = [Player(u) for u in (bob, dave)]
    for player in players:
        await player.open_hand(president)
    await marie.slash("president kick", member=dave)
    assert marie.last_ephemeral().text == "Tu as retiré dave de la table."
    await leave_game(bob)
    await tick(fake, clock, 1)
    bobs, daves = (player.hand for player in players)
    assert daves.text == "The host removed you from this table." and not daves.buttons
    assert bobs.text == "🃏 Main refermée." and not bobs.buttons
    fake.assert_no_errors()


async def test_a_player_removed_from_presi_mid_round_cancels_the_game_at_once(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """Presi waits for a leaver to come back (RULES §10); a player the host removed is not
    coming back, so the game is cancelled at once rather than after a grace in which the
    removed player could return to their seat. Since that ends the game for everyone, the
    host is asked first (stop 38's play-test), and the table message the lobby replaces
    never said bob's seat was waiting for him."""
    marie, bob, carol, dave = (fake.add_user(n, locale="fr")
                               for n in ("marie", "bob", "carol", "dave"))
    table = await create_table(president, marie, "presi")
    for user in (bob, carol, dave):
        await user.click(message(user, table.lobby_message_id), cid(table, "join"))
    await marie.click(message(marie, table.lobby_message_id), cid(table, "start"))
    await tick(fake, clock, 1)
    assert table.game is not None and table.game.phase is not Phase.ROUND_OVER
    await marie.slash("president kick", member=bob)
    prompt = marie.last_ephemeral()
    assert prompt.content == t("fr", "kick.confirm.cancel", name="bob")
    assert fresh(table).game is not None and table.seat_of(bob.id) is not None
    board = table.table_message_id
    await marie.click(prompt, cid(table, "kick", 0, f"{table.game_no}.{marie.id}.{bob.id}"))
    assert message(marie, prompt.id).content == t("fr", "lobby.kicked", name="bob")
    assert fresh(table).game is None and not table.away
    await tick(fake, clock, 1)
    assert "attend" not in message(carol, board or 0).content  # « sa place l’attend… »
    assert [p.user_id for p in table.seats] == [marie.id, carol.id, dave.id]
    await tick(fake, clock, 1)
    lobby = message(carol, table.lobby_message_id).content
    assert french("La partie est annulée : l’hôte a retiré bob de la table.") in lobby
    fake.assert_no_errors()


async def test_when_the_host_leaves_mid_game_the_history_names_the_new_host(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """The host role passes silently to the longest-seated player, and the table message
    names no host: the history says who it is now, so they know the next round is theirs."""
    marie, bob, carol = (fake.add_user(n, locale="fr") for n in ("marie", "bob", "carol"))
    table = await create_table(president, marie)
    for user in (bob, carol):
        await user.click(message(user, table.lobby_message_id), cid(table, "join"))
    await marie.click(message(marie, table.lobby_message_id), cid(table, "start"))
    await tick(fake, clock, 1)
    await leave_game(marie)
    await tick(fake, clock, 1)
    assert table.host_id == bob.id
    assert "bob devient l’hôte de la table" in message(bob, table.table_message_id).content
    fake.assert_no_errors()


async def test_replay_seats_the_players_waiting_in_the_queue(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock
) -> None:
    """eve joined a full proletario table mid-game and was told she enters between two
    rounds; « Rejouer » starts the next game, so she takes a bot's seat in it, as she
    would have at the next round."""
    marie, eve = fake.add_user("marie", locale="fr"), fake.add_user("eve", locale="fr")
    table = await host_against_bots(instant, marie, "proletario", 3, game_end="rounds:1")
    game = table.game
    assert game is not None
    await eve.slash("president join")
    assert table.queued(eve.id)
    await let_timers_play(fake, clock, game, Phase.GAME_OVER)
    await tick(fake, clock, 1)
    await marie.click(message(marie, table.table_message_id), cid(table, "replay", game.version))
    assert table.game is not None and table.game is not game
    assert not table.queue and table.seat_of(eve.id) is not None
    assert table.game.bots == {s for s, p in enumerate(table.seats) if p.is_bot}
    fake.assert_no_errors()
