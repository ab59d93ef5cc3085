"""End-to-end: play-test 12 (a French group of regulars over a week; a mixed English and French
table on a busy evening, restarts included). Each test is a thing a player or host tripped
over, as they met it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.client import PresidentBot
from bot.i18n import button_names, plural, t
from bot.packages.game.hand import game_result_lines, hand_screen
from bot.packages.game.lines import entry_text, role_name
from bot.packages.game.table_message import table_screen
from bot.packages.settings.views import form_label
from bot.tables.log import note
from bot.tables.players import Player as Seated
from bot.tables.table import Table
from engine import KNOBS, Card, Game, Phase, Rules
from engine.events import Played, RoundOver, TimedOut
from fakediscord import FakeDiscord
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import (
    Player,
    after_an_equal,
    cid,
    create_table,
    host_against_bots,
    humans_only,
    leave_game,
    let_timers_play,
    message,
    play_until,
    tick,
    two_humans_against_a_bot,
)
from .test_display import play_out, table_for


def french_plain(text: str) -> str:
    """French text with its no-break spaces as ordinary ones, to compare with a quote."""
    return text.replace("\u202f", " ").replace("\u00a0", " ")


async def four_at_classic(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                          preset: str = "classic", game_end: str = "rounds:3",
                          ) -> tuple[list[Player], Table]:
    users = [fake.add_user("alice", locale="en-US"), fake.add_user("marie", locale="fr"),
             fake.add_user("léo", locale="fr"), fake.add_user("george", locale="en-GB")]
    table, players = await humans_only(fake, clock, bot, users, preset, game_end=game_end)
    return players, table


async def test_a_leaver_who_comes_back_this_round_takes_their_seat_back(
        fake: FakeDiscord, clock: LinkedClock, president: PresidentBot) -> None:
    """léo stepped out mid-round and came straight back: he was listed for the next game
    as « léo (2) » (his own stand-in bot counted as a twin), and with george removed too,
    the game stopped for « too few players » while four people wanted to play. Until the
    round ends, the seat a bot finishes for a leaver is theirs to take back."""
    (alice, marie, leo, george), table = await four_at_classic(fake, clock, president)
    game = table.game
    seat = table.seat_of(leo.user.id)
    assert game is not None and seat is not None
    await leave_game(leo.user)
    assert seat in table.left_seats and game.automated(seat)
    await leo.user.slash("president join")
    assert table.seat_of(leo.user.id) == seat and table.seats[seat].name == "léo"
    assert not table.queue and seat not in table.left_seats and not game.automated(seat)
    await tick(fake, clock, 1)
    assert "léo is back and takes their seat again" in message(
        marie.user, table.table_message_id).content
    leo.hand_id = leo.user.last_ephemeral().id  # his hand again, not a list's « léo (2) »
    assert any(line.startswith("🂠 **Ta main** (13)") for line in leo.hand.content.splitlines())
    # he plays on, his own cards: the round ends with four people in it
    await play_until(fake, clock, [alice, marie, leo, george],
                     lambda: game.phase is Phase.ROUND_OVER)
    assert table.seat_of(leo.user.id) == seat and game.active[seat]


async def test_the_leave_prompt_says_the_seat_can_be_taken_back(
        fake: FakeDiscord, clock: LinkedClock, president: PresidentBot) -> None:
    (alice, marie, leo, george), table = await four_at_classic(fake, clock, president)
    await leo.user.slash("president leave")
    assert "`/president rejoindre` avant la fin de la manche te rend ta place" in \
        leo.user.last_ephemeral().content
    await alice.user.slash("president leave")
    assert "`/president join` before the round ends gives you your seat back" in \
        alice.user.last_ephemeral().content


async def test_a_player_the_host_removed_cannot_come_straight_back(
        fake: FakeDiscord, clock: LinkedClock, president: PresidentBot) -> None:
    """george, removed mid-game, answered « You joined the table » a click later (on the
    list for the next game), and in the lobby a kick lasted as long."""
    (alice, marie, leo, george), table = await four_at_classic(fake, clock, president)
    await alice.user.slash("president kick", member=george.user)
    assert table.seat_of(george.user.id) is None
    await george.user.slash("president join")
    assert t("en-GB", "err.kicked") in george.user.last_ephemeral().content
    assert table.seat_of(george.user.id) is None and not table.queue
    await tick(fake, clock, 1)
    assert "the host removed george" in message(alice.user, table.table_message_id).content


@pytest.mark.parametrize(("game_end", "phase"), [("rounds:3", Phase.ROUND_OVER),
                                                 ("rounds:1", Phase.GAME_OVER)])
async def test_a_kick_between_rounds_is_in_the_history(
        fake: FakeDiscord, clock: LinkedClock, president: PresidentBot, game_end: str,
        phase: Phase) -> None:
    """The host removed léo on the round-over (or game-over) screen: the seat went, and the
    others read nothing of why (only mid-round removals were written down)."""
    (alice, marie, leo, george), table = await four_at_classic(fake, clock, president,
                                                               game_end=game_end)
    game = table.game
    assert game is not None
    await play_until(fake, clock, [alice, marie, leo, george], lambda: game.phase is phase)
    await alice.user.slash("president kick", member=leo.user)
    await tick(fake, clock, 1)
    assert "• the host removed léo from the game" in message(
        marie.user, table.table_message_id).content


async def test_a_kick_in_the_lobby_lasts_until_the_next_game(
        fake: FakeDiscord, clock: LinkedClock, president: PresidentBot) -> None:
    alice, bob = fake.add_user("alice", locale="en-US"), fake.add_user("bob", locale="fr")
    table = await create_table(president, alice)
    await bob.click(message(bob, table.lobby_message_id), cid(table, "join"))
    await alice.slash("president kick", member=bob)
    await bob.click(message(bob, table.lobby_message_id), cid(table, "join"))
    assert t("fr", "err.kicked_lobby") in bob.last_ephemeral().content
    assert table.seat_of(bob.id) is None
    await alice.slash("president addbot")
    await alice.slash("president addbot")
    await alice.slash("president start")
    await bob.slash("president join")  # the next game has started: on its list
    assert table.queued(bob.id)


def test_every_settings_form_title_fits_whole() -> None:
    """« Temps écoulés d’affilée avant le pilote autom » : the form's title was cut at
    Discord's 45 characters, mid-word. Every knob's form title fits whole, in either
    language."""
    for locale in ("fr", "en-US"):
        for knob in KNOBS:
            title = t(locale, "settings.modal", knob=form_label(locale, knob))
            assert len(title) <= 45, (locale, knob, title)


async def test_ta_gueule_is_named_as_the_table_plays_it(
        fake: FakeDiscord, clock: LinkedClock, president: PresidentBot) -> None:
    """After an equal 5 in classic, zoé's hand read « 🤐 Même valeur ou rien : joue un 5 ou
    passe. »: wild7's « ou rien », where classic plays « ta gueule »."""
    marie = await after_an_equal(fake, clock, president, "fr", "classic",
                                 [["5H", "9C", "AC", "6S", "JS"], ["5C", "KC", "KD", "8H", "10H"],
                                  ["5D", "QC", "QD", "7H", "JH"]])
    assert "🤐 Ta gueule : joue un 5 ou passe." in french_plain(marie.hand.content)


async def test_a_thread_is_called_a_thread(
        fake: FakeDiscord, clock: LinkedClock, president: PresidentBot) -> None:
    """`/president rejoindre` in a thread with no table said « pas de table dans ce
    salon », and the history of a thread's table was « Dernières parties de ce salon »."""
    marie = fake.add_user("marie", locale="fr")
    thread = fake.add_thread(fake.channel, "partie", marie)
    await fake.settle()
    marie.channel = thread
    await marie.slash("president join")
    assert french_plain(marie.last_ephemeral().content) == \
        "⚠️ Il n’y a pas de table dans ce fil. Ouvres-en une avec `/president ouvrir`."
    await marie.slash("president rules")
    assert "Pas encore de table dans ce fil" in str(marie.last_ephemeral().embeds[0].description)
    await create_table(president, marie)
    await marie.slash("president create")
    assert "Une table est déjà ouverte dans ce fil" in french_plain(
        marie.last_ephemeral().content)
    marie.channel = fake.channel  # and a channel is still a « salon » (where she is shown
    await marie.slash("president rules")  # the rules of her table in the thread: play-test 38)
    assert "Pas de table dans ce salon" in str(marie.last_ephemeral().embeds[0].description)


def test_a_tie_in_the_final_standings_is_said_in_the_hand() -> None:
    """léo and sam both ended on 1 point: the table listed two « 2. », and sam's hand said
    only « 2e place avec 1 pt »."""
    game = Game.new(Rules.preset("classic"), seats=4, seed=1)
    game.points[:] = [5, 1, 1, 0]
    game.winners = (0,)
    assert [french_plain(line) for line in game_result_lines(game, 2, "fr")] == [
        "🏁 Classement final : 2e place ex æquo avec 1 pt."]
    assert game_result_lines(game, 3, "en-US") == ["🏁 Final standings: 4th with 0 pts."]


async def test_who_waits_is_named_on_the_table_at_every_stage(
        fake: FakeDiscord, clock: LinkedClock, president: PresidentBot) -> None:
    """zoé and sam waited in proletario's queue, and the table message named them only once
    the game was over: not while the round was played, nor when the host chose Next."""
    alice = fake.add_user("alice")
    table = await host_against_bots(president, alice, "proletario", 3)
    await tick(fake, clock, 1)
    zoe = fake.add_user("zoé", locale="fr")
    await zoe.click(message(zoe, table.table_message_id), cid(table, "join"))
    await tick(fake, clock, 1)
    assert "Waiting for the next round: zoé" in message(alice, table.table_message_id).content
    assert french_plain(t("fr", "lobby.queued")) in french_plain(zoe.last_ephemeral().content)


def test_fast_modes_timer_opening_is_not_told_as_the_players_own_move() -> None:
    """« • time is up • alice plays a 3 » read as if alice had chosen it: the common timer
    opened with her weakest card."""
    table = table_for("classic", 3)
    table.rules = table.rules.replace(fast=True)
    for event in (TimedOut("fast", None), Played(0, (Card.parse("3H"),), "3", 1)):
        note(table, event)
    assert [entry_text("en", table, e) for e in table.log] == [
        "time is up: p0 opens the trick with their weakest card, a 3"]
    note(table, TimedOut("turn", 1))  # a turn's timer names whose it was already
    note(table, Played(1, (Card.parse("4H"),), "4", 1))
    assert [entry_text("en", table, e) for e in table.log][1:] == [
        "p1 ran out of time: a 4 played automatically"]


async def test_a_bot_that_wins_is_marked_as_a_bot_in_the_game_over_line(
        fake: FakeDiscord, clock: LinkedClock, president: PresidentBot) -> None:
    """Results lines read « 1. 🤖 Bot 1 · Président… » above « victoire : Bot 1 »."""
    marie = fake.add_user("marie", locale="fr")
    table = await host_against_bots(president, marie, "classic", 3, game_end="rounds:1")
    game = table.game
    assert game is not None
    await let_timers_play(fake, clock, game, Phase.GAME_OVER)
    await tick(fake, clock, 1)
    winners = [table.seats[s] for s in game.winners if isinstance(s, int)]
    shown = french_plain(message(marie, table.table_message_id).content)
    names = [f"🤖 {p.name}" if p.is_bot else p.name for p in winners]
    assert winners[0].is_bot  # (the three bots outplay her timer)
    assert f"victoire : {names[0]}" in shown, shown


def test_a_host_at_game_over_is_told_the_choice_is_theirs() -> None:
    """alice, proletario's host, was sent to the queue as last place; at the game's end her
    hand said only « You are first in the queue. Between rounds… », and marie, handed the
    host role at game over, read « at the end of the round, you choose »."""
    table = table_for("proletario", 4)
    game = table.game
    assert game is not None
    game.stop()  # over
    alice = Seated(300, "alice")
    table.queue.append(alice)
    table.host_id = 300
    lines = hand_screen(table, 300, "en").content.splitlines()
    assert lines[0] == t("en", "hand.host_over", **button_names("en"))
    assert t("en", "hand.queue_next_game", **button_names("en")) in lines
    table.host_id, table.host_handed = 101, True
    # Read in French at an English table: the buttons as the table message shows them.
    assert hand_screen(table, 101, "fr").content.splitlines()[0] == t(
        "fr", "hand.new_host_over", **button_names(table.locale))


def test_a_seat_that_changed_hands_as_the_round_ended_says_whose_it_was() -> None:
    """alice left mid-round: the results read « 4. 🤖 alice · Proletario » and the seat's
    row « 🤖 Bot 1 · 3 cards · Proletario », two names for one seat with nothing between."""
    table = table_for("proletario", 4)
    game = table.game
    assert game is not None
    play_out(table, game)
    table.result_seats = [replace(p) for p in table.seats]
    table.seats[2] = Seated(None, "Bot 1")
    shown = table_screen(table, 0.0).content
    assert "**🤖 Bot 1**" in shown and " · in place of p2" in shown
    assert shown.count("in place of") == 1


async def test_a_person_takes_a_bots_seat_in_a_full_lobby(
        fake: FakeDiscord, clock: LinkedClock, president: PresidentBot) -> None:
    """In a thread's classic table of seven (three people, four bots) yves was turned away:
    « La table est complète (7 places) : réessaie quand une place se libère »."""
    marie = fake.add_user("marie", locale="fr")
    table = await create_table(president, marie)
    await president.service.set_rules(table, marie.id, table.rules.replace(max_players=4))
    for _ in range(3):
        await marie.slash("president addbot")
    assert len(table.seats) == 4
    yves = fake.add_user("yves", locale="fr")
    await yves.click(message(yves, table.lobby_message_id), cid(table, "join"))
    assert [p.name for p in table.seats] == ["marie", "Bot 1", "Bot 2", "yves"]
    assert french_plain("🪑 **yves** prend la place de 🤖 Bot 3 : à une table complète, une "
                        "personne passe avant un bot.") in french_plain(
        message(marie, table.lobby_message_id).content)
    zoe = fake.add_user("zoé", locale="fr")
    await zoe.slash("president join")
    assert [p.name for p in table.seats] == ["marie", "Bot 1", "yves", "zoé"]
    fake.assert_no_errors()


async def test_a_hand_opened_again_leaves_the_older_message_saying_where_it_went(
        fake: FakeDiscord, clock: LinkedClock, president: PresidentBot) -> None:
    """After `/president main`, léo's first hand message stayed on his screen showing an
    exchange long over, with its buttons, and nothing said it was no longer followed."""
    marie = Player(fake.add_user("marie", locale="fr"))
    bob = Player(fake.add_user("bob"))
    table, game = await two_humans_against_a_bot(fake, clock, president, marie, bob)
    first = marie.hand_id
    await marie.user.slash("president hand")
    await tick(fake, clock, 1)
    old = message(marie.user, first)
    # Not « plus bas »: Discord shows ephemeral answers as they arrive, and a slow
    # connection may deliver the newer hand first (play-test 14).
    assert french_plain(old.content) == "🔁 Ta main suit maintenant un autre message, " \
        "celui que tu as ouvert ou utilisé en dernier."
    # Nothing of the old exchange is left to press: only play-test 32's way back to it.
    assert [b.label for b in old.buttons] == ["Afficher ma main ici"] and not old.selects
    newer = marie.user.last_ephemeral()
    assert newer.id != first and "🂠 **Ta main**" in newer.content
    fake.assert_no_errors()


# --- a third play-test, of the changes above -------------------------------------------------

async def test_a_leaver_of_a_games_last_round_is_not_dealt_into_the_replay(
        fake: FakeDiscord, clock: LinkedClock, president: PresidentBot) -> None:
    """léo left during a one-round game: its end never freed his seat (only a round's end
    did), so « Rejouer » dealt « 🤖 léo » into the new game, and his `/president join`
    then gave him that seat mid-round."""
    (alice, marie, leo, george), table = await four_at_classic(fake, clock, president,
                                                               game_end="rounds:1")
    game = table.game
    assert game is not None
    seat = table.seat_of(leo.user.id)
    await leave_game(leo.user)
    await play_until(fake, clock, [alice, marie, george],
                     lambda: game.phase is Phase.GAME_OVER)
    await tick(fake, clock, 1)
    assert "léo left the game" not in message(alice.user, table.table_message_id).content
    await replay(fake, clock, alice, table)
    replayed = table.game
    assert replayed is not None and replayed is not game and seat is not None
    assert not replayed.active[seat] and not table.left_seats
    assert "🤖 léo" not in message(marie.user, table.table_message_id).content
    await leo.user.slash("president join")
    assert table.seat_of(leo.user.id) is None and table.queued(leo.user.id)


async def replay(fake: FakeDiscord, clock: LinkedClock, host: Player, table: Table) -> None:
    game = table.game
    assert game is not None
    await host.user.click(message(host.user, table.table_message_id),
                          cid(table, "replay", game.version))
    await tick(fake, clock, 1)


async def test_a_leavers_and_a_removed_players_hand_say_their_way_back(
        fake: FakeDiscord, clock: LinkedClock, president: PresidentBot) -> None:
    """A leaver's « Ma main » said `/president rejoindre` would put them on the list for the
    next game (it gives the seat back); someone removed by the host was invited to join,
    then refused."""
    (alice, marie, leo, george), table = await four_at_classic(fake, clock, president)
    await alice.user.slash("president kick", member=george.user)
    await leave_game(leo.user)
    await leo.user.slash("president hand")
    assert french_plain(t("fr", "hand.take_back")) in french_plain(
        leo.user.last_ephemeral().content)
    await george.user.slash("president hand")
    assert t("en-GB", "err.kicked") in george.user.last_ephemeral().content
    await george.user.slash("president leave")  # not « you already left »: removed
    assert t("en-GB", "err.kicked") in george.user.last_ephemeral().content


async def test_a_freed_seat_is_nobodys_and_its_leaver_no_twin(
        fake: FakeDiscord, clock: LinkedClock, president: PresidentBot) -> None:
    """Once the round ended, léo's freed seat read « léo · … · in place of 🤖 léo », and
    léo joining the list became « léo (2) » beside his own empty seat."""
    (alice, marie, leo, george), table = await four_at_classic(fake, clock, president)
    game = table.game
    assert game is not None
    await leave_game(leo.user)
    await play_until(fake, clock, [alice, marie, george],
                     lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    assert "in place of" not in message(alice.user, table.table_message_id).content
    await leo.user.slash("president join")
    assert [p.name for p in table.queue] == ["léo"]


async def test_proletario_results_give_the_total_of_the_round_just_played(
        fake: FakeDiscord, clock: LinkedClock, president: PresidentBot) -> None:
    """george left mid-round and his stand-in won it: « 1. 🤖 george · Président · +3 this
    round, total 0 pts », the total being the fresh bot's that took the seat at once."""
    (alice, marie, leo, george), table = await four_at_classic(fake, clock, president,
                                                               "proletario")
    game = table.game
    assert game is not None
    await leave_game(george.user)
    await play_until(fake, clock, [alice, marie, leo], lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    ended = next(e for e in table.results if isinstance(e, RoundOver))
    seat = next(s for s, p in enumerate(table.result_seats) if p.name == "george")
    line = next(line for line in message(alice.user, table.table_message_id).content
                .splitlines() if "🤖 george" in line and "total" in line)
    assert f"total {plural('en-US', 'n.points', ended.totals[seat])}" in line, line


async def test_a_refused_kick_leaves_the_host_role_where_it_was(
        fake: FakeDiscord, clock: LinkedClock, president: PresidentBot) -> None:
    """The monkey: with the host silent for ten minutes, a player's `/president kick` of
    someone not at the table was refused, yet had made them the host on the way (the
    check before asking took the role over, and nothing gave it back)."""
    (alice, marie, leo, george), table = await four_at_classic(fake, clock, president)
    table.host_seen -= 11 * 60  # alice, the host, has been silent
    zed = fake.add_user("zed")
    await marie.user.slash("president kick", member=zed)
    assert t("fr", "err.kick_unknown", name="zed") in marie.user.last_ephemeral().content
    assert table.host_id == alice.user.id
    assert "ev.new_host" not in [e.key for e in table.log]
    await marie.user.slash("president kick", member=george.user)  # a kick that is made
    assert table.host_id == marie.user.id and table.seat_of(george.user.id) is None


async def test_a_role_re_ranked_by_a_freed_seat_is_said_so(
        fake: FakeDiscord, clock: LinkedClock, president: PresidentBot) -> None:
    """marie finished « 3. marie · Vice-Scum »; the last place left before the next round,
    and her hand then read « À la manche précédente, tu as fini Trou du cul », a role she
    never finished with: the engine pairs the seats left for the exchange."""
    players, table = await four_at_classic(fake, clock, president)
    game = table.game
    assert game is not None
    await play_until(fake, clock, players, lambda: game.phase is Phase.ROUND_OVER)
    ranking = list(game.ranking or ())
    by_seat = {table.seat_of(p.user.id): p for p in players}
    last, third = by_seat[ranking[-1]], by_seat[ranking[-2]]
    await leave_game(last.user)
    await tick(fake, clock, 1)
    host = next(p for p in players if table.is_host(p.user.id))  # (the role passes on)
    await host.user.click(message(host.user, table.table_message_id),
                          cid(table, "next", game.version))
    await tick(fake, clock, 1)
    assert game.roles[ranking[-2]] == "L"
    await third.user.slash("president hand")
    locale = third.user.user.locale
    line = next(line for line in third.user.last_ephemeral().content.splitlines()
                if line.startswith("🎖️"))
    assert line.startswith("🎖️ " + t(locale, "hand.exchange_role_shifted",
                                      was=role_name(locale, table, "VL"),
                                      role=role_name(locale, table, "L"))), line


async def test_a_host_back_in_their_seat_gets_the_role_back_unless_it_was_used(
        fake: FakeDiscord, clock: LinkedClock, president: PresidentBot) -> None:
    """alice, the host, stepped out and came back within the round: marie, who had been
    handed the role and had not used it, kept it, and alice was a plain player."""
    (alice, marie, leo, george), table = await four_at_classic(fake, clock, president)
    await leave_game(alice.user)
    assert table.is_host(marie.user.id) and table.host_handed
    await alice.user.slash("president join")
    assert table.is_host(alice.user.id) and not fresh(table).host_handed
    assert [e.key for e in table.log][-2:] == ["ev.back_seat", "ev.new_host"]
    await leave_game(alice.user)  # again; this time marie acts as host meanwhile
    assert table.is_host(marie.user.id)
    table.host_handed = False  # as any host action she makes does (`hosting.claim`)
    await alice.user.slash("president join")
    assert table.is_host(marie.user.id) and table.seat_of(alice.user.id) is not None
