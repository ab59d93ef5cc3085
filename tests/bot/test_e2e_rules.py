"""End-to-end: races, timers, leaving, refusals, settings, languages and API call counts."""

from bot.client import PresidentBot
from bot.i18n import button_names, t
from bot.i18n.typography import french
from bot.tables.table import Table
from engine import Phase
from fakediscord import FakeDiscord, TestUser
from fakediscord.state import MESSAGE_COMPONENT
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import Player, cid, leave_game, message, play_until, table_of, tick

EDIT = "/channels/{channel_id}/messages/{message_id}"


async def seated(fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, preset: str,
                 humans: int, bots: int, **knobs: object) -> tuple[Table, list[Player]]:
    """A started table: the first user is the host; every human has a hand open."""
    names = ["alice", "bob", "carol", "dave"][:humans]
    players = [Player(fake.add_user(n, locale="fr" if n == "bob" else "en-US")) for n in names]
    host = players[0].user
    await host.slash("president create", preset=preset)
    table = table_of(president, host)
    if knobs:
        await president.service.set_rules(table, host.id, table.rules.replace(**knobs))
    lobby = message(host, table.lobby_message_id)
    for player in players[1:]:
        await player.user.click(lobby, cid(table, "join"))
    for _ in range(bots):
        await host.click(lobby, cid(table, "addbot"))
    await host.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    for player in players:
        await player.open_hand(president)
    return table, players


def first_play(player: Player) -> tuple[str, str]:
    menu = next(s for s in player.hand.selects if ":play:" in s.custom_id)
    return menu.custom_id, menu.options[0].value


async def test_fast_mode_race_accepts_exactly_one_play(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    table, (alice, bob, carol) = await seated(fake, president, clock, "classic", 3, 0,
                                              fast=True)
    game = table.game
    assert game is not None and game.to_act is None
    a_menu, a_value = first_play(alice)
    b_menu, b_value = first_play(bob)
    bob_cards = len(game.hand(1))
    version = game.version
    await alice.user.select(alice.hand, [a_value], select=a_menu, settle=False)
    await bob.user.select(bob.hand, [b_value], select=b_menu, settle=False)
    await fake.settle()
    played = [e for e in table.log if e.key == "ev.played"]
    assert len(played) == 1 and played[0].params["name"] == "alice"
    assert game.version == version + 1
    assert french("Trop tard : alice a joué avant toi") in bob.hand.content
    assert len(game.hand(1)) == bob_cards
    fake.assert_no_errors()


async def test_fast_mode_common_timer_closes_the_trick(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    table, (alice, bob, carol) = await seated(fake, president, clock, "classic", 3, 0,
                                              fast=True)
    game = table.game
    assert game is not None
    menu, value = first_play(alice)
    await alice.user.select(alice.hand, [value], select=menu)
    assert game.trick
    await tick(fake, clock, 9)
    assert game.trick
    await tick(fake, clock, 1)
    assert not game.trick
    assert table.log[-1].key == "ev.trick_closed.timeout"  # the timer said once
    assert not any(e.key == "ev.timeout_table" for e in table.log)


async def test_turn_timeout_driven_by_the_fake_clock(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    table, (alice,) = await seated(fake, president, clock, "classic", 1, 2)
    game = table.game
    assert game is not None
    await play_until(fake, clock, [], lambda: game.to_act == 0)
    before = len(game.hand(0)) + len(game.trick)
    assert table.timer_deadline is not None
    await tick(fake, clock, table.timer_deadline - clock.now() - 0.5)
    assert game.to_act == 0
    await tick(fake, clock, 0.5)
    assert game.to_act != 0 or len(game.hand(0)) + len(game.trick) != before
    await tick(fake, clock, 1)
    board = message(alice.user, table.table_message_id)
    assert "alice ran out of time" in board.content


async def test_proletario_autopilot_and_resume_button(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    table, (alice,) = await seated(fake, president, clock, "proletario", 1, 0)
    game = table.game
    assert game is not None
    await play_until(fake, clock, [], lambda: game.automated(0), steps=400)
    assert "Resume" in [b.label for b in alice.hand.buttons]
    await alice.user.click(alice.hand, "Resume")
    assert not game.automated(0)
    assert "autopilot" not in alice.hand.content


async def test_leaving_mid_round_hands_the_seat_to_a_bot(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    table, (alice, bob, carol) = await seated(fake, president, clock, "classic", 3, 0)
    await leave_game(bob.user)
    game = table.game
    assert game is not None and game.automated(1)
    await tick(fake, clock, 1)
    board = message(alice.user, table.table_message_id)
    assert "bob left; a bot finishes the round" in board.content
    # The round's end leaves two players: the game stops (its end stored) and the table
    # goes back to the lobby.
    await play_until(fake, clock, [alice, carol], lambda: table.game is None)
    await tick(fake, clock, 1)
    assert game.phase is Phase.GAME_OVER and game.stopped_early
    lobby = message(alice.user, table.lobby_message_id)
    assert "Too few players are left: back to the lobby." in lobby.content
    assert "Join" in [b.label for b in lobby.buttons]


async def test_unauthorised_foreign_and_stale_clicks_are_refused(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    alice = fake.add_user("alice")
    bob = fake.add_user("bob")
    await alice.slash("president create")
    table = table_of(president, alice)
    lobby = message(alice, table.lobby_message_id)
    await bob.click(lobby, cid(table, "join"))
    await bob.click(lobby, cid(table, "start"))
    assert "Only the host" in bob.last_ephemeral().content
    await bob.click(lobby, cid(table, "settings"))
    assert "Only the host" in bob.last_ephemeral().content
    await alice.click(lobby, cid(table, "start"))
    assert "At least 3 players, bots included, are needed to start (2 seated)" in alice.last_ephemeral().content
    await alice.slash("president hand")  # in the lobby: where she is (stop 38)
    assert t("en", "hand.lobby_host", **button_names("en")) == alice.last_ephemeral().content

    stored = fake.world.messages[lobby.id]
    for forged in ("pz:999:join:0:", "pz:1:nuke:0:", "someone-else:button"):
        fake.hub.start(MESSAGE_COMPONENT, bob.user, bob.channel,
                       {"custom_id": forged, "component_type": 2}, "forged click", stored)
        await fake.settle()
        assert "does not belong to this bot" in bob.last_ephemeral().content, forged

    await alice.click(lobby, cid(table, "addbot"))
    await alice.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    await stale_hand_is_refused(fake, president, clock, table, alice, bob)


async def stale_hand_is_refused(fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
                                table: Table, alice: TestUser, bob: TestUser) -> None:
    """Bob opens his hand twice; only the newer one follows the game. A click on the older
    one, drawn for a state that has passed, is refused and that hand is redrawn."""
    game = table.game
    assert game is not None
    await play_until(fake, clock, [], lambda: game.to_act == 1)
    await bob.slash("president hand")
    old = Player(bob)
    old.hand_id = bob.last_ephemeral().id
    await bob.slash("president hand")
    new = Player(bob)
    new.hand_id = bob.last_ephemeral().id
    assert await new.act()
    version = game.version
    menu, value = first_play(old)
    cards = len(game.hand(1))
    await bob.select(old.hand, [value], select=menu)
    assert game.version == version and len(game.hand(1)) == cards
    # His own move from the newer hand beat it: said so (play-test 23).
    assert "Your previous play went through before this one" in old.hand.content
    fake.assert_no_errors()


async def test_settings_validation_and_lobby_summary(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    alice = fake.add_user("alice")
    await alice.slash("president create", preset="classic")
    table = table_of(president, alice)
    await alice.slash("president settings")
    panel = alice.last_ephemeral()
    knobs = [s for s in panel.selects if ":knob:" in s.custom_id]
    # Every knob that applies to classic: not jokers_close (no jokers), fast_seconds (not
    # fast) nor leave_grace_seconds (a bot replaces leavers); seats_grow (3 to 6 seats)
    # and vs_bots are offered, both off.
    assert sum(len(s.options) for s in knobs) == 35

    await alice.select(panel, ["revolution"], select=knobs[0].custom_id)
    assert table.rules.revolution is False
    assert "Revolution: off" in message(alice, table.lobby_message_id).content or True
    await tick(fake, clock, 1)
    assert "Revolution: off" in message(alice, table.lobby_message_id).content

    panel = alice.last_ephemeral()
    knob_menu = next(s for s in panel.selects if any(o.value == "first_opener" for o in s.options))
    await alice.select(panel, ["first_opener"], select=knob_menu.custom_id)
    panel = alice.last_ephemeral()
    value_menu = next(s for s in panel.selects if ":value:" in s.custom_id)
    await alice.select(panel, ["three_of_oros"], select=value_menu.custom_id)
    panel = alice.last_ephemeral()
    assert "the 3 of oros is only in Spanish decks" in panel.content
    assert table.rules.first_opener == "queen_of_hearts"

    menu = next(s for s in panel.selects if any(o.value == "turn_seconds" for o in s.options))
    await alice.select(panel, ["turn_seconds"], select=menu.custom_id)
    await alice.modal_submit({"New value": "2"})
    assert "Seconds per turn: type a whole number from 5 to 600." in \
        alice.last_ephemeral().content
    menu = next(s for s in alice.last_ephemeral().selects
                if any(o.value == "turn_seconds" for o in s.options))
    await alice.select(alice.last_ephemeral(), ["turn_seconds"], select=menu.custom_id)
    await alice.modal_submit({"New value": "45"})
    assert table.rules.turn_seconds == 45
    assert "✏️ **Seconds per turn**: 45 (preset: 30)" in alice.last_ephemeral().text
    fake.assert_no_errors()


async def test_french_and_english_renderings(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    table, (alice, bob) = await seated(fake, president, clock, "wild7", 2, 0)
    assert "Your hand (26)" in alice.hand.content.replace("**", "")
    assert "Ta main (26)" in bob.hand.content.replace("**", "")
    board = message(bob.user, table.table_message_id)
    assert "Round 1" in board.content  # the table speaks its creator's language
    assert any(b.label == "My hand" for b in board.buttons)

    marcel = fake.add_user("marcel", locale="fr")
    marcel.channel = fake.add_channel(fake.guild, "salon")
    await marcel.slash("president create", preset="presi")
    french = fake.world.messages[table_of(president, marcel).lobby_message_id or 0]
    assert "Table de Président" in french.content
    assert "Lancer contre des bots" in [c.get("label") for row in french.components
                                       for c in row.get("components", [])]
    await marcel.click(message(marcel, french.id), cid(table_of(president, marcel), "vsbots"))
    await tick(fake, clock, 1)
    presi = table_of(president, marcel)
    assert presi.game is not None and len(presi.seats) == 3
    assert "Manche 1" in message(marcel, presi.table_message_id).content


async def test_api_calls_per_click(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """The acting player's click costs one Discord call: the update of their own hand."""
    table, players = await seated(fake, president, clock, "classic", 3, 0)
    game = table.game
    assert game is not None
    per_click: list[int] = []
    totals: list[int] = []
    for _ in range(10):
        await tick(fake, clock, 1)
        actor = next(p for p in players if table.seat_of(p.user.id) == game.to_act)
        mark = fake.mark()
        assert await actor.act()
        calls = fake.calls_since(mark)
        per_click.append(len([c for c in calls if c.user == actor.user.name]))
        # besides: at most one table edit and the hands that changed (the other two humans)
        totals.append(len(calls))
        if game.phase is not Phase.PLAY:
            break
    assert per_click and max(per_click) == 1, per_click
    assert max(totals) <= 4, totals
    fake.assert_no_errors()


async def test_table_edits_are_coalesced_during_a_burst(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock
) -> None:
    """Bots answering at once: one table edit now, one with the final state a second later."""
    table, (alice,) = await seated(fake, instant, clock, "classic", 1, 3)
    game = table.game
    assert game is not None
    bursts = 0
    for _ in range(20):
        await play_until(fake, clock, [], lambda: game.to_act == 0 or game.phase is not Phase.PLAY)
        if game.phase is not Phase.PLAY:
            break
        await tick(fake, clock, 2)
        mark = fake.mark()
        version = game.version
        assert await alice.act()
        moves = game.version - version
        edits = len(fake.calls_since(mark, EDIT))
        assert edits <= 1, (moves, edits)
        if moves >= 3:
            bursts += 1
            mark = fake.mark()
            await tick(fake, clock, 1)
            assert len(fake.calls_since(mark, EDIT)) <= 1
    assert bursts >= 1
    fake.assert_no_errors()


async def test_expired_hand_token_asks_for_my_hand(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    table, (alice,) = await seated(fake, president, clock, "classic", 1, 2, turn_seconds=600)
    await tick(fake, clock, 1)
    board = message(alice.user, table.table_message_id)
    assert "press **My hand**" not in board.content
    await tick(fake, clock, 15 * 60)
    await tick(fake, clock, 1)
    board = message(alice.user, table.table_message_id)
    assert "alice: press **My hand** to see your cards and play." in board.content
    await alice.open_hand(president)
    await tick(fake, clock, 1)
    assert "press **My hand**" not in message(alice.user, table.table_message_id).content
    fake.assert_no_errors()


async def test_host_kicks_and_proletario_queue_enters_between_rounds(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    table, (alice, bob) = await seated(fake, president, clock, "proletario", 2, 0)
    carol = fake.add_user("carol")
    await carol.slash("president join")
    assert "you are in the queue" in carol.last_ephemeral().content
    await bob.user.slash("president kick", member=alice.user)
    assert "C’est réservé à l’hôte" in bob.user.last_ephemeral().content
    await alice.user.slash("president kick", member=bob.user)
    assert "You removed bob" in alice.user.last_ephemeral().content
    game = table.game
    assert game is not None and game.automated(1)
    await play_until(fake, clock, [alice], lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    await alice.user.click(message(alice.user, table.table_message_id),
                           cid(table, "next", game.version))
    assert table.seat_of(carol.id) is not None and table.queue == []
    fake.assert_no_errors()


async def test_double_click_plays_once(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    table, players = await seated(fake, president, clock, "classic", 3, 0)
    game = table.game
    assert game is not None
    actor = next(p for p in players if table.seat_of(p.user.id) == game.to_act)
    menu, value = first_play(actor)
    version = game.version
    shown = actor.hand
    await actor.user.select(shown, [value], select=menu, settle=False)
    await actor.user.select(shown, [value], select=menu, settle=False)
    await fake.settle()
    assert game.version == version + 1
    assert len([e for e in table.log if e.key == "ev.played"]) == 1
    fake.assert_no_errors()


async def test_rules_and_closing_an_idle_table(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    alice = fake.add_user("alice", locale="fr")
    await alice.slash("president create", preset="proletario")
    table = table_of(president, alice)
    await alice.slash("president rules")
    rules = alice.last_ephemeral().text
    assert "Règles de cette table" in rules and "un groupe de 2 bat un coup" in rules
    await alice.slash("president end")
    assert "La table est fermée." in alice.last_ephemeral().content
    await tick(fake, clock, 1)
    assert message(alice, table.lobby_message_id).content == "Cette table est fermée."
    await alice.slash("president join")
    assert "Il n’y a pas de table dans ce salon" in alice.last_ephemeral().content
    fake.assert_no_errors()


async def test_presi_leaver_may_come_back_else_the_game_is_cancelled(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    table, (alice, bob, carol) = await seated(fake, president, clock, "presi", 3, 0,
                                              turn_seconds=600)
    await leave_game(bob.user)
    assert bob.user.id in table.away
    await tick(fake, clock, 30)
    await bob.user.slash("president hand")  # coming back: the seat and its cards are his
    assert bob.user.id not in table.away and table.game is not None
    await leave_game(bob.user)
    await tick(fake, clock, 60)
    assert fresh(table).game is None
    await tick(fake, clock, 1)
    lobby = message(alice.user, table.lobby_message_id)
    assert "The game is cancelled: bob did not come back." in lobby.content
    assert "**bob**" not in lobby.content and "**carol**" in lobby.content
    board = message(alice.user, table.table_message_id) if table.table_message_id else None
    assert board is None
    fake.assert_no_errors()
