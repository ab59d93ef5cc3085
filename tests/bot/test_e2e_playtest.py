"""End-to-end: what play-testers tripped over (issue 9), each through the real bot."""

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.client import PresidentBot
from bot.i18n import button_names, plural, t
from bot.i18n.typography import french
from bot.packages.controls import WARNING
from bot.packages.game.lines import entry_text
from bot.packages.rules_text import knob_value, preset_name, rules_page
from bot.tables.autoplay import FAST_BOT_PAUSES
from bot.tables.service import HOST_IDLE_SECONDS, IDLE_CLOSE_SECONDS
from engine import PRESETS, Card, Phase, Rules
from engine.rules import ROLE_CODES
from fakediscord import FakeDiscord, Message, Select
from fakediscord.forge import Forger
from fakediscord.limits import BUTTON
from fakediscord.state import MESSAGE_COMPONENT
from tests.fresh import fresh

from .conftest import BOT_PAUSE, LinkedClock
from .e2e import (
    Player,
    cid,
    connect_bot,
    create_table,
    database_url,
    deal,
    dealt_against_two_bots,
    host_against_bots,
    leave_game,
    let_timers_play,
    marie_against_three_bots,
    marie_and_bob_against_a_bot,
    marie_timed_out_until,
    message,
    play_until,
    table_of,
    tick,
)


async def test_ending_mid_round_says_the_game_stopped_with_totals_so_far(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock
) -> None:
    marie, table, game = await marie_timed_out_until(fake, clock, instant, "rounds:5",
                                                     Phase.ROUND_OVER)
    await marie.click(message(marie, table.table_message_id), cid(table, "next", game.version))
    await tick(fake, clock, 1)
    assert game.round_no == 2 and game.phase is not Phase.ROUND_OVER
    await marie.slash("president end")  # mid-game: asked first, nothing stopped yet
    prompt = marie.last_ephemeral()
    assert prompt.text == t("fr", "end.confirm") and not game.stopped_early
    await marie.click(prompt, "Arrêter la partie")
    assert marie.last_ephemeral().text == t("fr", "end.stopped")
    assert not marie.last_ephemeral().buttons
    # A second click that left before the first's answer came back stops nothing more (a
    # second End would have sent the table back to its lobby).
    await marie.click_shown(prompt, "Arrêter la partie")
    assert table.game is game and fresh(game).stopped_early  # still that game, stopped once
    await tick(fake, clock, 1)
    board = message(marie, table.table_message_id).content
    assert "Partie arrêtée pendant la manche 2" in board
    assert "Fin de la manche" not in board
    assert "Classement final" in board
    for seat in game.players:
        assert f"{table.name(seat)}** · {plural('fr', 'n.points', game.points[seat])}" in board
    fake.assert_no_errors()


def forged_on(custom: str) -> Callable[[dict[str, Any]], None]:
    """A payload edit that shows the button ``custom`` on the clicked message, as a modified
    client could claim (Discord only lets a user click a message they see)."""
    def edit(payload: dict[str, Any]) -> None:
        button = {"type": BUTTON, "custom_id": custom, "label": "x", "style": 4}
        payload["message"]["components"].append({"type": 1, "components": [button]})
    return edit


async def test_leaving_mid_game_asks_first_in_the_leavers_language(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """From the play-test: /president leave unseated a player at once. Mid-game it asks
    first, saying what leaving does; the button is bob's alone, and a second click (on the
    same prompt before its answer came back, or on another one) leaves nothing more."""
    marie, bob, table, game = await marie_and_bob_against_a_bot(fake, clock, president)
    seat = table.seat_of(bob.user.id)
    assert seat is not None
    await bob.user.slash("president leave")
    prompt = bob.user.last_ephemeral()
    await bob.user.slash("president leave")
    again = bob.user.last_ephemeral()
    # Three seats in classic (min_players 3): the round ends with a bot, then the lobby.
    assert prompt.text == "Leave the game? A bot finishes this round for you; then too few " \
        "players are left: the game stops and the table goes back to its lobby. Changed your " \
        "mind? `/president join` before the round ends gives you your seat back, as long as " \
        "someone is still at the table. For your rating, this round counts as finished " \
        "behind every human who stays at the table."
    assert [(b.label, b.style) for b in prompt.buttons] == [("Leave the game", 4)]  # danger
    assert table.seat_of(bob.user.id) == seat and not game.automated(seat)
    await marie.user.slash("president leave")  # French, for the French player
    assert marie.user.last_ephemeral().text == t("fr", "leave.confirm.round_lobby") + " " + \
        t("fr", "leave.host", name="bob") + " " + t("fr", "leave.rated")  # (play-test 45)
    # bob's button, forged onto the public table message by marie, leaves nobody.
    custom = prompt.button("Leave the game").custom_id
    assert custom is not None
    await Forger(fake).send(marie.user, MESSAGE_COMPONENT,
                            {"custom_id": custom, "component_type": BUTTON},
                            message=table.table_message_id, edit=forged_on(custom))
    assert marie.user.last_ephemeral().text == WARNING + t("fr", "err.not_yours")
    assert table.seat_of(marie.user.id) is not None and table.seat_of(bob.user.id) == seat

    await bob.user.click(prompt, "Leave the game")
    answered = message(bob.user, prompt.id)  # the prompt says it, its button gone
    assert answered.text == "You left the table." and not answered.buttons
    assert table.seat_of(bob.user.id) is None and game.automated(seat)
    left = sorted(table.left_seats)
    await bob.user.click_shown(prompt, "Leave the game")  # late, not forged
    assert bob.user.last_ephemeral().text == "⚠️ " + t("en", "err.stale_button")
    await bob.user.click(again, "Leave the game")  # the engine refuses a second leave
    refused = message(bob.user, again.id)  # on the prompt, its button gone (stop 57)
    assert refused.text == \
        "⚠️ You have already left this game: a bot plays your seat; nothing was changed."
    assert not refused.buttons
    assert table.game is game and sorted(table.left_seats) == left
    await tick(fake, clock, 1)
    assert french("bob quitte la partie ; un bot finit la manche") in \
        message(bob.user, table.table_message_id).content
    fake.assert_no_errors()


async def test_leaving_twice_is_refused_in_the_leavers_language_until_the_seat_goes(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """bob (French) left: while a bot finishes the round in his seat, /president leave says
    he already left (the engine's refusal of a seat's second leave), privately, and
    changes nothing; once the round is over and his seat gone, he is simply not seated.
    Coming back meanwhile gives him his seat back (play-test 12), and leaving it again asks
    again."""
    marie, bob, table, game = await marie_and_bob_against_a_bot(fake, clock, president,
                                                               bob_locale="fr")
    seat = table.seat_of(bob.user.id)
    assert seat is not None
    await leave_game(bob.user)
    assert game.automated(seat) and table.left_seat(bob.user.id) == seat
    version = game.version
    refusal = WARNING + t("fr", "engine.already_left")
    await bob.user.slash("president leave")  # no prompt: he is not playing any more
    assert bob.user.last_ephemeral().text == refusal and not bob.user.last_ephemeral().buttons
    assert game.version == version
    await bob.user.slash("president join")
    assert table.seat_of(bob.user.id) == seat and not game.automated(seat)
    await leave_game(bob.user)
    await bob.user.slash("president leave")
    assert bob.user.last_ephemeral().text == refusal
    assert not table.queue and sorted(table.left_seats) == [seat]
    await play_until(fake, clock, [marie], lambda: table.game is None)
    await bob.user.slash("president leave")
    assert bob.user.last_ephemeral().text == WARNING + t("fr", "err.not_seated")
    fake.assert_no_errors()


async def test_a_leave_prompt_clicked_after_its_game_ended_leaves_nothing(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    marie, bob, table, game = await marie_and_bob_against_a_bot(fake, clock, president)
    await bob.user.slash("president leave")
    prompt = bob.user.last_ephemeral()
    await marie.user.slash("president end")
    await marie.user.click(marie.user.last_ephemeral(), "Arrêter la partie")
    assert game.phase is Phase.GAME_OVER
    await bob.user.click(prompt, "Leave the game")
    assert bob.user.last_ephemeral().text == "⚠️ " + t("en", "err.stale_button")
    assert table.seat_of(bob.user.id) is not None and table.game is game
    fake.assert_no_errors()


async def test_a_presi_leaver_is_asked_and_leaving_again_keeps_the_deadline(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    marie, bob, table, _ = await marie_and_bob_against_a_bot(fake, clock, president, "presi", bob_locale="fr")
    await bob.user.slash("president leave")
    prompt = bob.user.last_ephemeral()
    assert prompt.text == t("fr", "leave.confirm.wait", seconds=60)
    await bob.user.slash("president leave")
    again = bob.user.last_ephemeral()
    await bob.user.click(prompt, "Quitter la partie")
    deadline = table.away[bob.user.id]
    await tick(fake, clock, 10)
    refusal = "⚠️ " + t("fr", "err.already_left", deadline=int(deadline))
    await bob.user.click(again, "Quitter la partie")  # a second click, on the other prompt
    assert bob.user.last_ephemeral().text == refusal
    await bob.user.slash("president leave")  # no prompt: he is not playing any more
    assert bob.user.last_ephemeral().text == refusal and not bob.user.last_ephemeral().buttons
    assert table.away == {bob.user.id: deadline}  # not pushed back
    await tick(fake, clock, deadline - clock.now())
    assert table.game is None
    fake.assert_no_errors()


async def test_between_rounds_no_replay_and_no_revolution_line(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock
) -> None:
    marie, table, game = await marie_against_three_bots(fake, instant, "rounds:2")
    await let_timers_play(fake, clock, game, Phase.ROUND_OVER)
    game.revolution = True  # as if the round had ended in a revolution
    instant.service.refresh(table)
    await tick(fake, clock, 1)
    board = message(marie, table.table_message_id)
    labels = [b.label for b in board.buttons]
    assert "Rejouer" not in labels and "Manche suivante" in labels
    assert "Révolution" not in board.content
    await marie.click(board, cid(table, "next", game.version))
    await let_timers_play(fake, clock, game, Phase.GAME_OVER)
    await tick(fake, clock, 1)
    assert "Rejouer" in [b.label for b in message(marie, table.table_message_id).buttons]
    fake.assert_no_errors()


async def test_wild7_timed_out_opener_keeps_the_wild_seven(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    marie = fake.add_user("marie", locale="fr")
    table = await host_against_bots(president, marie, "wild7", 1)
    await tick(fake, clock, 1)
    game = deal(president, table, [["7H", "5S", "KS"], ["9C", "10C", "JC"]], opener=0)
    await tick(fake, clock, 1)
    await tick(fake, clock, table.rules.turn_seconds)
    assert [str(c) for c in game.hand(0)] == ["KS", "7H"]
    board = message(marie, table.table_message_id).content
    assert french("marie a dépassé son temps : joue d’office un 5") in board
    fake.assert_no_errors()


async def test_a_penalised_finisher_shows_the_place_and_the_card(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    marie = Player(fake.add_user("marie", locale="fr"))
    table, _ = await dealt_against_two_bots(fake, clock, president, marie,
                                            [["2S"], ["3H", "4H", "8C"], ["5H", "6H"]], opener=0)
    assert await marie.act()
    await tick(fake, clock, 1)
    board = message(marie.user, table.table_message_id).content
    assert french("marie** · 0 pt · a fini (3e place)") in board  # no « 0 carte » (play-test 10)
    assert french("marie a fini sur un 2 : 3e place") in board
    assert "marie sort" not in board
    fake.assert_no_errors()


async def test_the_table_says_who_opens_and_why_each_trick_closed(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock
) -> None:
    marie, table, game = await marie_against_three_bots(fake, instant, "rounds:2")
    await tick(fake, clock, 1)
    opener = next(s for s in range(4) if Card.parse("QH") in game.hands[s]) \
        if game.round_no == 1 and not game.pile else None
    board = message(marie, table.table_message_id).content
    if opener is not None:
        assert f"{table.name(opener)} a la Dame de cœur et ouvre" in board
    closes: set[str] = set()
    for _ in range(200):
        if game.phase is Phase.ROUND_OVER:
            break
        await tick(fake, clock, 30)
        closes |= {e.key for e in table.log if e.key.startswith("ev.trick_closed")}
        board = message(marie, table.table_message_id).content
        assert "remporte le pli" not in board or "ne répond" in board or "temps" in board
    assert closes and "ev.trick_closed" not in closes
    await tick(fake, clock, 1)
    await marie.click(message(marie, table.table_message_id), "Manche suivante")
    await let_timers_play(fake, clock, game, Phase.PLAY)
    await tick(fake, clock, 1)
    assert any(e.key == "ev.opens.last_place" for e in table.log)
    assert french("Trou du cul de la manche précédente : ") in \
        message(marie, table.table_message_id).content
    fake.assert_no_errors()


async def test_fast_mode_names_nobody_as_the_opener(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """Play-test (stop 38): in fast mode the history said « bob a la Dame de cœur et
    ouvre », then marie opened: anyone may open there (RULES §9), and it now says so."""
    marie = Player(fake.add_user("marie", locale="fr"))
    table = await host_against_bots(president, marie.user, "classic", 2, fast=True)
    keys = [e.key for e in table.log]
    assert "ev.opens_free" in keys and not any(k.startswith("ev.opens.") for k in keys)
    fake.assert_no_errors()


async def test_fast_mode_bots_wait_a_human_time_between_moves(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    marie = Player(fake.add_user("marie", locale="fr"))
    table = await host_against_bots(president, marie.user, "classic", 2, fast=True)
    game = table.game
    assert game is not None
    moves: list[float] = []
    version = game.version
    for _ in range(60):  # half-second steps of the fake clock: marie never moves
        await tick(fake, clock, 0.5)
        if game.version != version:
            version = game.version
            moves.append(clock.now())
    gaps = [b - a for a, b in zip(moves, moves[1:], strict=False)]
    assert len(moves) >= 4
    low = BOT_PAUSE * FAST_BOT_PAUSES[0]
    # Never faster than a person; a longer gap is the common timer closing a passed trick.
    assert all(gap >= low for gap in gaps), gaps
    assert len(set(gaps)) > 1  # randomised, not a fixed beat
    fake.assert_no_errors()


async def test_the_only_human_leaving_closes_the_table_with_its_standings(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock
) -> None:
    user, table, game = await marie_against_three_bots(fake, instant, "rounds:5")
    marie = Player(user)
    await let_timers_play(fake, clock, game, Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    await marie.user.click(message(marie.user, table.table_message_id), "Manche suivante")
    await let_timers_play(fake, clock, game, Phase.PLAY)
    await tick(fake, clock, 1)
    await marie.open_hand(instant)
    board_id = table.table_message_id
    await leave_game(marie.user)
    await tick(fake, clock, 1)
    assert table.closed
    board = message(marie.user, board_id)
    assert not board.buttons and not board.selects
    assert "Classement final" in board.content and "Cette table est fermée." in board.content
    assert "À **" not in board.content  # no turn left frozen on it
    hand = marie.hand
    assert not hand.selects and not hand.buttons
    assert "Cette table est fermée." in hand.content
    fake.assert_no_errors()


async def test_presi_announces_the_grace_period_and_the_leaver_hand_loses_its_controls(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    marie, bob, table, _ = await marie_and_bob_against_a_bot(fake, clock, president, "presi", bob_locale="fr")
    await leave_game(bob.user)
    await tick(fake, clock, 1)
    board = message(marie.user, table.table_message_id).content
    assert french("bob quitte la table : sa place l’attend jusqu’à <t:") in board
    assert "sinon la partie est annulée" in board
    assert not bob.hand.selects and not bob.hand.buttons
    assert "🃏 Main refermée." in bob.hand.content
    await tick(fake, clock, table.rules.leave_grace_seconds)
    assert table.game is None and not table.closed
    assert french("La partie est annulée : bob n’est pas de retour.") in \
        message(marie.user, table.lobby_message_id).content
    fake.assert_no_errors()


async def test_a_leavers_hand_says_goodbye_in_the_leavers_language(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    marie, bob, table, _ = await marie_and_bob_against_a_bot(fake, clock, president)
    assert table.locale == "fr"  # the table speaks its French host's language
    await leave_game(bob.user)
    await tick(fake, clock, 1)
    assert bob.hand.content == "🃏 Hand closed."
    fake.assert_no_errors()


async def test_a_hand_clicked_after_the_table_went_back_to_its_lobby_loses_its_controls(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """bob leaves a table at its minimum: the round ends and the table goes back to its
    lobby, and marie's hand says so. A client still showing the hand's controls (the redraw
    had not reached it) answers her next click by saying the game is over, in place,
    instead of a new « no game » message beside a live menu; it says where she now is, as
    the redraw does."""
    marie, bob, table, _ = await marie_and_bob_against_a_bot(fake, clock, president)
    await leave_game(bob.user)
    drawn = marie.hand  # as her client may still show it
    control = next(b.custom_id for b in drawn.buttons if b.custom_id)
    await play_until(fake, clock, [marie], lambda: table.game is None)
    hand = marie.hand
    assert hand.content == t("fr", "hand.lobby_host", **button_names("fr")) and not hand.buttons
    await marie.user.click_shown(drawn, control)
    assert marie.hand.content == "\n".join(
        ["⚠️ " + t("fr", "err.stale_button"), t("fr", "hand.lobby_host", **button_names("fr"))])
    assert not marie.hand.buttons and not marie.hand.selects
    assert marie.user.last_ephemeral().id == hand.id  # no second message beside it
    fake.assert_no_errors()


async def test_stats_leave_out_a_cancelled_game_and_an_empty_board_says_why(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    marie = Player(fake.add_user("marie", locale="fr"))
    table = await host_against_bots(bot, marie.user, "presi", 2)
    game = table.game
    assert game is not None
    # marie plays her round through her hand: left to her turn timer, a round the bots'
    # end search draws out (stop 52) outlasted the idle table's closing.
    await play_until(fake, clock, [marie], lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    await marie.user.click(message(marie.user, table.table_message_id), "Manche suivante")
    await tick(fake, clock, 1)
    await leave_game(marie.user)  # presi: the seat waits, then the game is off
    await tick(fake, clock, table.rules.leave_grace_seconds + 1)
    await bot.service.drain()

    # « cancelled (no result) » (RULES §10): its round counts, the game does not, and is
    # said apart, as the history lists it (stop 56).
    await marie.user.slash("president stats")
    text = marie.user.last_ephemeral().text
    assert "0 partie et 1 annulée · 0 victoire · 1 manche" in text
    assert "pas encore de cote" in text and "cote 0" not in text
    # Her one round's role, under presi's own names (a Culo is not a Trou du cul).
    assert "**Presi** · 1 manche · pas encore de cote" in text
    assert [code for code in ROLE_CODES if f"{t('fr', f'role.presi.{code}')} ×1" in text]
    assert "Trou du cul" not in text
    await marie.user.slash("president leaderboard", preset="presi")
    assert "Personne n’est encore classé en Presi" in marie.user.last_ephemeral().text
    await marie.user.slash("president history")
    assert " · 1 manche · annulée, sans victoire" in marie.user.last_ephemeral().text
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_silent_host_passes_the_role_and_an_idle_table_closes_itself(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    alice = fake.add_user("alice", locale="fr")
    bob = fake.add_user("bob", locale="fr")
    await alice.slash("president create", preset="classic")
    table = table_of(president, alice)
    await bob.click(message(bob, table.lobby_message_id), cid(table, "join"))
    await bob.slash("president addbot")
    assert "C’est réservé à l’hôte" in bob.last_ephemeral().content  # alice is still around
    await tick(fake, clock, HOST_IDLE_SECONDS + 1)
    await bob.slash("president addbot")  # alice has been silent: bob takes over
    assert table.host_id == bob.id and len(table.seats) == 3
    await tick(fake, clock, 1)
    assert "bob devient l’hôte de la table" in [
        entry_text("fr", table, e) for e in table.log]
    await tick(fake, clock, IDLE_CLOSE_SECONDS)
    assert table.closed
    await alice.slash("president create", preset="classic")  # the channel is free again
    assert table_of(president, alice) is not table
    fake.assert_no_errors()


async def test_a_split_give_counts_picks_across_menus(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    marie = Player(fake.add_user("marie", locale="fr"))
    table = await host_against_bots(president, marie.user, "wild7", 1)
    await tick(fake, clock, 1)
    deck = sorted(table.rules.deck_kind.cards(), key=str)
    hands = [deck[0::2], deck[1::2]]  # 26 each: marie, the President, gives back 2 of 28
    deal(president, table, hands, previous_ranking=[0, 1])
    await marie.open_hand(president)
    menus = [s for s in marie.hand.selects if ":give:" in s.custom_id]
    assert len(menus) == 2
    first, second = menus
    await marie.user.select(marie.hand, [o.value for o in first.options[:2]],
                            select=first.custom_id)
    assert french("Choisies : ") in marie.hand.content and "Donner les cartes choisies" in \
        marie.hand.content
    second = next(s for s in marie.hand.selects if s.custom_id.endswith(":1"))
    await marie.user.select(marie.hand, [second.options[0].value], select=second.custom_id)
    assert "tu en as déjà choisi 2 dans l’autre menu" in marie.hand.content
    assert len(table.gift_picks[marie.user.id][0]) == 2  # the first menu's picks stay
    first = next(s for s in marie.hand.selects if s.custom_id.endswith(":0"))
    assert sum(o.default for o in first.options) == 2
    await marie.user.select(marie.hand, [first.options[0].value], select=first.custom_id)
    assert "encore 1 carte à choisir" in marie.hand.content
    fake.assert_no_errors()


async def test_wording_fast_open_french_spanish_cards_and_autopilot(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    marie = Player(fake.add_user("marie", locale="fr"))
    table = await create_table(president, marie.user)
    await president.service.set_rules(table, marie.user.id, table.rules.replace(fast=True))
    await president.service.add_bot(table, marie.user.id)
    await president.service.add_bot(table, marie.user.id)
    await president.service.games.start(table, marie.user.id)
    await tick(fake, clock, 1)
    await marie.open_hand(president)
    assert french("Le pli est vide : ouvre-le") in marie.hand.content
    assert "battre la table" not in marie.hand.content
    await marie.user.slash("president end")  # stop the game, asked first
    await marie.user.click(marie.user.last_ephemeral(), "Arrêter la partie")
    for _ in range(2):  # back to the lobby, close
        await marie.user.slash("president end")
    assert table.closed

    table = await create_table(president, marie.user, "presi")
    await president.service.set_rules(
        table, marie.user.id, table.rules.replace(autopilot_after_timeouts=1))
    await marie.user.click(message(marie.user, table.lobby_message_id), "Lancer contre des bots")
    await tick(fake, clock, 1)
    await marie.open_hand(president)
    text = marie.hand.content
    assert not any(word in text for word in ("Sota", "Caballo", "Rey")), text
    game = table.game
    assert game is not None
    for _ in range(100):  # marie never answers: the timer plays for her, then the autopilot
        if any(e.key == "ev.autopilot_on" for e in table.log):
            break
        await tick(fake, clock, 30)
    assert "le pilote automatique joue pour marie" in [
        entry_text("fr", table, e) for e in table.log]
    fake.assert_no_errors()


async def test_rules_explain_the_game_and_list_only_knobs_that_apply(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    marie = fake.add_user("marie", locale="fr")
    table = await create_table(president, marie)
    await marie.slash("president rules")
    page = marie.last_ephemeral().text
    assert french("Des plus faibles aux plus fortes : 3 4 5 6 7 8 9 10 V D R A 2") in page
    assert (french("Le pli se ferme quand tout le reste de la table a passé, sur la meilleure carte "
            "(le 2 ; le 3 en révolution) ou sur quatre cartes de même valeur d’affilée")) in page
    assert french("révolution : un carré posé d’un coup inverse l’ordre des valeurs") in page
    assert "Les réglages sont ceux du préréglage." in page
    for absent in ("joker", "Secondes pour revenir", "Minuteur du mode rapide"):
        assert absent not in page, absent

    await marie.slash("president settings")
    offered = {o.value for s in marie.last_ephemeral().selects for o in s.options}
    assert "turn_seconds" in offered
    assert not {"jokers_close", "leave_grace_seconds", "fast_seconds"} & offered
    await president.service.set_rules(table, marie.id, table.rules.replace(fast=True))
    await marie.slash("president settings")
    panel = marie.last_ephemeral()
    offered = {o.value for s in panel.selects for o in s.options}
    assert "fast_seconds" in offered and "turn_seconds" not in offered
    assert "Minuteur du mode rapide" in panel.text and "Secondes par tour" not in panel.text
    await marie.slash("president rules")
    page = marie.last_ephemeral().text
    assert french("Réglages changés par rapport au préréglage :") in page and "Mode rapide" in page
    fake.assert_no_errors()


async def test_the_player_chooses_which_suits_go(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    marie = Player(fake.add_user("marie", locale="fr"))
    _, game = await dealt_against_two_bots(
        fake, clock, president, marie,
        [["KC", "KH", "KS", "4D"], ["3H", "5H", "8C"], ["6H", "9H", "JC"]], opener=0)
    menus = {s.placeholder: s for s in marie.hand.selects if ":play:" in s.custom_id}
    singles = [o.label for o in menus["Jouer une carte…"].options]
    assert {"R♣", "R♥", "R♠"} <= set(singles)
    pairs = [o.label for o in menus["Jouer une paire…"].options]
    assert sorted(pairs) == sorted(["R♣ R♥", "R♣ R♠", "R♥ R♠"])
    choice = next(o for o in menus["Jouer une paire…"].options if o.label == "R♣ R♠")
    await marie.user.select(marie.hand, [choice.value],
                            select=menus["Jouer une paire…"].custom_id)
    assert [str(c) for c in game.hand(0)] == ["4D", "KH"]
    fake.assert_no_errors()


async def test_a_host_chosen_top_single_is_named_as_played_not_as_the_2_of_oros(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    # The host made the 2 of spades the single card that wins any trick (the knob presi
    # sets to the 2 of oros): the history names the card played, not presi's.
    marie = Player(fake.add_user("marie", locale="fr"))
    table, _ = await dealt_against_two_bots(
        fake, clock, president, marie,
        [["2S", "3H", "9C"], ["4H", "5H", "8C"], ["5D", "6H", "8D"]], opener=0,
        top_single=Card.parse("2S"))
    hand = marie.hand
    menu, option = next((m, o) for m in hand.selects for o in m.options if o.value == "2S")
    await marie.user.select(hand, [option.value], select=menu.custom_id)
    await tick(fake, clock, 1)
    board = message(marie.user, table.table_message_id).content
    assert "marie joue le 2♠" in board
    assert french("le 2♠ gagne le pli : marie le remporte") in board
    assert "deniers" not in board
    fake.assert_no_errors()


async def test_a_late_click_on_ones_own_screen_is_told_it_is_late_not_forged(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """From the play-test: « Passer » clicked on a hand as it was drawn before the turn
    timer ran out, and « Manche suivante » clicked twice, were answered as forged controls
    (« n'appartient pas à ce bot »). They are this bot's controls for this table and
    player that a redraw replaced: the click is told it is late, and nothing changes."""
    marie, table, game = await marie_against_three_bots(fake, president, "rounds:5")
    seat = table.seat_of(marie.id)
    assert seat is not None
    await play_until(fake, clock, [], lambda: game.to_act == seat and game.can_pass(seat))
    await marie.slash("president hand")
    drawn = marie.last_ephemeral()
    assert "Passer" in [b.label for b in drawn.buttons]
    version = game.version
    await tick(fake, clock, table.rules.turn_seconds)
    while game.version == version:  # the server passes for her; a bot is thinking
        await tick(fake, clock, 0.25)
    await tick(fake, clock, 1.5)  # her hand is redrawn (edits are coalesced)
    assert "Passer" not in [b.label for b in message(marie, drawn.id).buttons]
    version, hand = game.version, list(game.hand(seat))
    await marie.click_shown(drawn, "Passer")
    redrawn = message(marie, drawn.id)  # her hand as it is now, saying the timer moved
    assert redrawn.text.startswith("⚠️ " + t("fr", "err.timer_played"))  # play-test 23
    assert game.version == version and list(game.hand(seat)) == hand
    assert marie.last_ephemeral().text != "⚠️ " + t("fr", "err.unknown_control")

    await let_timers_play(fake, clock, game, Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    board = message(marie, table.table_message_id)
    await marie.click(board, "Manche suivante")
    await tick(fake, clock, 1)
    assert game.round_no == 2
    assert "Manche suivante" not in [b.label for b in message(marie, board.id).buttons]
    version = game.version
    await marie.click_shown(board, "Manche suivante")  # her second click
    assert marie.last_ephemeral().text == "⚠️ " + t("fr", "err.stale_button")
    assert game.round_no == 2 and game.version == version
    fake.assert_no_errors()


async def test_a_control_absent_from_its_message_that_the_bot_never_drew_there_is_forged(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock
) -> None:
    """What a late click is not: a version the game has not reached (or the current one,
    which the screen would show), another table's or a table that does not exist, a
    private control on the public message or a public one on a hand, a button's id as a
    menu, an arg the bot never writes, or « Quitter la partie » naming someone else. Each
    is refused as forged, and nothing changes."""
    marie, table, game = await marie_against_three_bots(fake, instant, "rounds:5")
    seat = table.seat_of(marie.id)
    assert seat is not None
    await let_timers_play(fake, clock, game, Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    await marie.slash("president hand")
    hand = marie.last_ephemeral()
    board = message(marie, table.table_message_id)
    old = game.version - 1
    forged: list[tuple[Any, str, int]] = [
        (board, cid(table, "next", game.version + 1), BUTTON),
        (board, cid(table, "replay", game.version), BUTTON),  # current: it would be shown
        (board, f"pz:{table.id + 1}:next:{old}:", BUTTON),
        (board, cid(table, "pass", old), BUTTON),  # a hand's control on the public message
        (hand, cid(table, "next", old), BUTTON),  # a public control on a hand
        (board, cid(table, "next", old), 3),  # a button's id as a menu
        (board, cid(table, "join", 1), BUTTON),  # a lobby button carries no version
        (hand, cid(table, "page", old, "x"), BUTTON),
        (hand, cid(table, "quit", 0, f"{table.game_no}.{marie.id + 1}"), BUTTON),
        (hand, cid(table, "hint", old), BUTTON),
    ]
    before = (game.version, game.phase, game.round_no)
    for shown, custom, kind in forged:
        data: dict[str, Any] = {"custom_id": custom, "component_type": kind}
        if kind == 3:
            data["values"] = ["x"]
        await Forger(fake).send(marie, MESSAGE_COMPONENT, data, message=shown)
        assert marie.last_ephemeral().text == "⚠️ " + t("fr", "err.unknown_control"), custom
    assert (game.version, game.phase, game.round_no) == before
    # The same « Manche suivante » drawn for an earlier version is only late.
    await Forger(fake).send(marie, MESSAGE_COMPONENT,
                            {"custom_id": cid(table, "next", old), "component_type": BUTTON},
                            message=board)
    assert marie.last_ephemeral().text == "⚠️ " + t("fr", "err.stale_button")
    assert (game.version, game.phase, game.round_no) == before
    fake.assert_no_errors()


def test_points_per_role_name_only_the_roles_the_table_can_hand_out() -> None:
    """From the play-test: proletario's points read « … · Neutre 1 · … », a role its 4 seats
    never give. The roles come from the engine (`roles_for`) at the game's size, else at
    every size the rules allow."""
    proletario, classic, presi = (Rules.preset(p) for p in ("proletario", "classic", "presi"))
    assert knob_value("fr", "points", proletario.points, proletario) == \
        "Président 3 · VP 2 · Secrétaire 0 · Proletario 0"
    assert knob_value("en", "points", proletario.points, proletario) == \
        "President 3 · VP 2 · Secretary 0 · Proletario 0"
    assert knob_value("fr", "points", classic.points, classic) == \
        "Président 3 · Vice-président 2 · Neutre 1 · Vice-trou 0 · Trou du cul 0"
    assert knob_value("fr", "points", classic.points, classic, seats=4) == \
        "Président 3 · Vice-président 2 · Vice-trou 0 · Trou du cul 0"
    assert knob_value("fr", "points", classic.points, classic, seats=3) == \
        "Président 3 · Neutre 1 · Trou du cul 0"
    assert knob_value("fr", "points", presi.points, presi, seats=3) == \
        "Président 2 · Vice-président 1 · Culo 0"
    assert "Neutre" in knob_value("fr", "points", presi.points, presi)  # 5 and 6 seats
    wild7 = Rules.preset("wild7", min_players=2, max_players=2)
    assert knob_value("en", "points", wild7.points, wild7) == "President 3 · Scum 0"


async def test_proletario_settings_and_rules_show_no_neutral(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    marie = fake.add_user("marie", locale="fr")
    table = await create_table(president, marie, "proletario")
    await marie.slash("president settings")
    panel = marie.last_ephemeral()
    assert french("**Points par rôle** : Président 3 · VP 2 · Secrétaire 0 · Proletario 0") in \
        panel.text
    described = [o.description for s in panel.selects for o in s.options if o.value == "points"]
    assert described == ["Président 3 · VP 2 · Secrétaire 0 · Proletario 0"]
    await marie.slash("president rules")
    assert "Neutre" not in marie.last_ephemeral().text
    # A classic game of 4: its rules name the roles of 4 seats, no « dès 4 à la table ».
    await marie.slash("president end")
    table = await host_against_bots(president, marie, "classic", 3)
    assert table.game is not None and table.game.seats == 4
    await marie.slash("president rules")
    page = marie.last_ephemeral().text
    assert french("🏅 Points par manche : Président 3 · Vice-président 2 · Vice-trou 0 · "
        "Trou du cul 0.") in page
    assert french("• Vice-trou → Vice-président : sa meilleure carte ; en retour, 1 carte "
        "de son choix\n") in page
    fake.assert_no_errors()


async def test_rules_tell_the_exchange_the_points_and_the_end_of_the_game(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """From the play-test: /president rules said nothing of the exchange, the points or
    how the game ends unless the host had changed « Fin de partie »."""
    marie = fake.add_user("marie", locale="fr")
    await create_table(president, marie, "classic")
    await marie.slash("president rules")
    page = marie.last_ephemeral().text
    for line in (
        french("🔁 Entre deux manches, échange :"),
        french("• Trou du cul → Président : ses 2 meilleures cartes ; en retour, 2 cartes de "
               "son choix"),
        french("• Vice-trou → Vice-président : sa meilleure carte ; en retour, 1 carte "
               "de son choix (dès 4 à la table)"),
        "Les meilleures cartes sont prises d’office à la donne.",
        "Le rôle du haut rend après avoir reçu.",
        french("🏅 Points par manche : Président 3 · Vice-président 2 · Neutre 1 · Vice-trou 0 "
               "· Trou du cul 0."),
        french("🏁 La partie dure 5 manches ; le plus haut total gagne (à égalité, victoire "
               "partagée)."),
    ):
        assert line in page.split("\n"), line
    await marie.slash("president end")

    bob = fake.add_user("bob")
    await create_table(president, bob, "presi")
    await bob.slash("president rules")
    page = bob.last_ephemeral().text
    for line in (
        "• Culo → President: their 2 best cards; in return, their 2 weakest cards",
        "• Vice-Culo → Vice-President: their best card; in return, their weakest card "
        "(from 4 players)",
        "The low role picks its best cards itself (free among cards of equal value).",
        "Blind: the high roles give back without seeing what they receive; the cards move "
        "once everyone has given.",
        "🏁 First to 11 points wins; if several reach it in the same round, the highest total "
        "wins, then the better place in that round.",
    ):
        assert line in page.split("\n"), line
    assert "blind exchange" not in page  # said once, in the exchange
    await bob.slash("president end")

    await create_table(president, bob, "proletario")
    await bob.slash("president rules")
    page = bob.last_ephemeral().text
    assert "• Secretary → VP: their best card; in return, 1 card of their choice" in \
        page.split("\n")  # always 4 seats: no « from 4 players »
    assert "🏁 No set end: the host stops the game, and the totals at that moment are " \
        "final." in page
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", ["fr", "en"])
def test_every_presets_rules_fit_in_one_discord_message(locale: str) -> None:
    """/president rules in a 2,000-character message, the longest preset included."""
    for preset in PRESETS:
        rules = Rules.preset(preset)
        title = t(locale, "rules.title", preset=preset_name(locale, preset))
        text = "\n".join([title, *rules_page(locale, rules)])
        assert len(text) < 2000, (preset, len(text))


async def test_a_play_picked_in_a_hand_whose_game_is_gone_says_it_was_not_played(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """The same hand, but marie picks a play: the answer must say the click was not taken
    (a crash just after Start restores the lobby the same way, and the crash test reads
    an answer without « ⚠️ » as a move accepted)."""
    marie, bob, table, _ = await marie_and_bob_against_a_bot(fake, clock, president)

    def plays(shown: Message) -> Select | None:
        return next((m for m in shown.selects if ":play:" in m.custom_id), None)

    await play_until(fake, clock, [bob], lambda: plays(marie.hand) is not None)
    drawn = marie.hand  # as her client shows it, play menu included
    menu = plays(drawn)
    assert menu is not None
    await leave_game(bob.user)
    await play_until(fake, clock, [marie], lambda: table.game is None)
    await marie.user.select_shown(drawn, [menu.options[0].value], select=menu.custom_id)
    assert marie.hand.content == "\n".join(
        ["⚠️ " + t("fr", "err.stale_button"), t("fr", "hand.lobby_host", **button_names("fr"))])
    assert table.game is None and not marie.hand.selects
    assert marie.user.last_ephemeral().id == drawn.id
    fake.assert_no_errors()
