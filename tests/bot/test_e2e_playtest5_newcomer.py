"""End-to-end: play-test 5, a newcomer to the game and to the bot, in French and English."""

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.i18n.typography import french
from bot.packages.game.hand_gifts import exchange_role_line
from bot.packages.game.table_message import TURN_MARKER
from bot.tables import seats
from bot.tables.players import Player as Seated
from bot.tables.table import Table
from engine import Card, Game, Phase, Rules
from fakediscord import FakeDiscord
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import (
    Player,
    create_table,
    dealt_against_two_bots,
    message,
    play_until,
    tick,
    two_humans_against_a_bot,
)
from .test_display import play_out, table_for


async def test_the_opener_is_told_the_trick_is_theirs_to_open_and_why_there_is_no_pass(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """From the play-test: a newcomer whose turn opens a trick saw « À toi de jouer » and
    no **Passer** button, nothing saying the trick was empty, that they lead, nor that the
    count they play fixes the others'. An answer keeps its Pass and gets no such line."""
    marie = Player(fake.add_user("marie", locale="fr"))
    await dealt_against_two_bots(
        fake, clock, president, marie,
        [["3S", "5H", "5D", "9C"], ["4H", "6H", "KC"], ["7D", "8S", "QC"]], opener=0)
    lines = marie.hand.content.splitlines()
    assert lines[3] == french("Le pli est vide : c’est toi qui l’ouvres. Joue des cartes "
                              "d’une même valeur (les autres devront répondre avec autant de "
                              "cartes) ; tu ne peux pas passer.")
    assert lines[0].startswith(f"{TURN_MARKER} **À toi de jouer**")  # above the hand
    assert "Passer" not in [b.label for b in marie.hand.buttons]
    fake.assert_no_errors()


async def test_an_english_opener_reads_it_in_english_and_an_answer_does_not(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    alice = Player(fake.add_user("alice"))
    _, game = await dealt_against_two_bots(
        fake, clock, president, alice,
        [["3S", "5H", "9C", "JD", "AD"], ["4H", "6H", "KC", "10S", "JS"],
         ["7D", "8S", "QC", "10D", "AS"]], opener=0)
    assert "The trick is empty: you open it. Play any cards of one value (the others must " \
        "answer with as many); you cannot pass." in alice.hand.content.splitlines()
    await alice.user.select(alice.hand, ["3S"], select="Play a single…")
    for _ in range(10):
        if game.to_act == 0:
            break
        await tick(fake, clock, 1)
    assert game.to_act == 0 and game.trick
    text = alice.hand.content
    assert "you cannot pass" not in text and "Pass" in [b.label for b in alice.hand.buttons]
    fake.assert_no_errors()


async def test_the_exchange_says_why_a_player_gives_their_best_cards(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """From the play-test: the Scum's hand read « You gave 2♣ 2♥ to marie » and the
    President's « Give 2 cards to alice », never why. Each now reads its role from the last
    round, its partner's, and what each owes the other."""
    marie = Player(fake.add_user("marie", locale="fr"))
    hands = [["3S", "5H", "9C", "2S"], ["4H", "6H", "KC", "AS"], ["7D", "8S", "QC", "JH"]]
    await dealt_against_two_bots(fake, clock, president, marie, hands,
                                 previous_ranking=[1, 2, 0], low_gives="pick")
    assert french("🎖️ À la manche précédente, tu as fini **Trou du cul** : tu dois tes meilleures "
        "cartes à **🤖 Bot 1** (Président, niveau normal), qui t’en rend autant de son choix.") in \
        marie.hand.content.splitlines()
    fake.assert_no_errors()


async def test_the_english_president_and_a_neutral_read_their_part_of_the_exchange(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    alice = Player(fake.add_user("alice"))
    hands = [["3S", "5H", "9C", "2S"], ["4H", "6H", "KC", "AS"], ["7D", "8S", "QC", "JH"]]
    table, _ = await dealt_against_two_bots(fake, clock, president, alice, hands,
                                            previous_ranking=[0, 1, 2])
    assert "🎖️ You finished the last round as **President**: **🤖 Bot 2** (Scum, normal " \
        "level) gave you their best cards; you give back as many of your choice." in \
        alice.hand.content.splitlines()
    # Neutral: the others' exchange still waits on the President (a seat the engine takes
    # for a human here, so that nobody gives back for it).
    table.game = Game.new(table.rules, seats=3, seed=1, bots=[2],
                          hands=[[Card.parse(c) for c in hand] for hand in hands],
                          previous_ranking=[1, 0, 2])
    president.service._after(table, [])
    await tick(fake, clock, 1)
    assert table.game.phase is Phase.EXCHANGE
    await alice.user.click(alice.hand, "Refresh")
    assert "🎖️ You finished the last round as **Neutral**: you have nothing to exchange." in \
        alice.hand.content.splitlines()
    fake.assert_no_errors()


async def test_the_hand_at_the_end_of_a_round_gives_the_players_place_and_role(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """From the play-test: at a round's end the hand said only « La manche est terminée »;
    the newcomer's place, role and points were only in a list of everyone's, on the table
    message. The hand now says them, in the player's language."""
    marie = Player(fake.add_user("marie", locale="fr"))
    alice = Player(fake.add_user("alice"))
    _, game = await two_humans_against_a_bot(fake, clock, president, marie, alice,
                                             game_end="rounds:2")
    await play_until(fake, clock, [marie, alice], lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)  # the hands catch up
    ranking = game.ranking
    assert ranking is not None
    places = {"fr": ["1re place", "2e place", "3e place"], "en": ["1st", "2nd", "3rd"]}
    roles = {"fr": ["Président", "Neutre", "Trou du cul"], "en": ["President", "Neutral", "Scum"]}
    points = [3, 1, 0]
    for seat, player, lang in ((0, marie, "fr"), (1, alice, "en")):
        index = ranking.index(seat)
        lines = player.hand.content.splitlines()
        expected = (french(f"🎖️ Tu finis la manche à la {places[lang][index]} : "
                           f"**{roles[lang][index]}** (+{points[index]}).")) if lang == "fr" else \
            f"🎖️ You finished {places[lang][index]} in the round: **{roles[lang][index]}** " \
            f"(+{points[index]})."
        assert lines[-1] == expected, lines
    fake.assert_no_errors()


async def test_the_lobby_points_a_newcomer_to_the_rules_command(
    fake: FakeDiscord, president: PresidentBot
) -> None:
    """From the play-test: someone invited to a table who does not know the game found
    nothing on the lobby leading to its rules: **Settings** is the host's, and the lobby
    only summed up the changes from the preset. It now names `/president rules`."""
    marie = fake.add_user("marie", locale="fr")
    table = await create_table(president, marie)
    lobby = message(marie, table.lobby_message_id)
    assert lobby.content.splitlines()[-1] == \
        t("fr", "lobby.rules_hint")
    await marie.slash("president end")
    alice = fake.add_user("alice")
    table = await create_table(president, alice)
    assert message(alice, table.lobby_message_id).content.splitlines()[-1] == \
        "📜 New to Président? `/president rules` explains this table's rules."
    fake.assert_no_errors()


@pytest.mark.parametrize(("locale", "line"), [
    ("en", "🎖️ You finished the last round as **Vice-President**: **p2** (Vice-Scum) gave "
           "you their best card; you give back one of your choice."),
    ("fr", "🎖️ À la manche précédente, tu as fini **Vice-président** : **p2** (Vice-trou) "
           "t’a donné sa meilleure carte, contre une de ton choix.")])
def test_a_one_card_exchange_is_worded_in_the_singular(locale: str, line: str) -> None:
    """Play-test (stop 38): the Vice-President, who swaps one card, read « owes you their
    best cards, and you give back as many »."""
    rules = Rules.preset("classic")
    table = Table(id=7, channel_id=1, guild_id=1, host_id=100, locale=locale, rules=rules)
    for n in range(4):
        table.seats.append(table.new_player(100 + n, f"p{n}"))
    game = Game.new(rules, 4, seed=1, previous_ranking=[1, 0, 2, 3])
    table.game = game
    assert exchange_role_line(table, game, 0, locale) == french(line)


def test_cards_received_are_no_longer_owed_and_a_newcomer_takes_a_place() -> None:
    """Play-test 12: once the Vice-trou's card was in her hand, marie's still read « te doit
    sa meilleure carte »; and someone who took a seat between rounds read « À la manche
    précédente, tu as fini Président », a round they never played."""
    rules = Rules.preset("classic")
    table = Table(id=7, channel_id=1, guild_id=1, host_id=100, locale="fr", rules=rules)
    for n in range(4):
        table.seats.append(table.new_player(100 + n, f"p{n}"))
    game = Game.new(rules, 4, seed=1, previous_ranking=[1, 0, 2, 3])
    table.game = game
    assert game.exchange_due(2) is None  # the best card went at the deal
    assert exchange_role_line(table, game, 0, "fr") == french(
        "🎖️ À la manche précédente, tu as fini **Vice-président** : **p2** (Vice-trou) "
        "t’a donné sa meilleure carte, contre une de ton choix.")
    table.seats[1].took_from = "Bot 1"
    assert exchange_role_line(table, game, 1, "en") == (
        "🎖️ You take the seat of **Bot 1**, **President** in the last round: **p3** (Scum) "
        "gave you their best cards; you give back as many of your choice.")


def test_who_takes_a_seat_between_rounds_is_told_whose() -> None:
    """Play-test 12: sam took a bot's seat from proletario's queue and read « You finished
    the last round as President », a round he never played."""
    table = table_for("proletario", 4)
    game = table.game
    assert game is not None
    table.seats[1] = Seated(None, "Bot 1")
    play_out(table, game)
    table.queue.append(Seated(200, "sam"))
    seats.seat_waiting_players(table, game)
    assert table.seats[1].name == "sam" and table.seats[1].took_from == "Bot 1"
    game.next_round()
    assert "You take the seat of **🤖 Bot 1** (normal level)" in exchange_role_line(table, game, 1, "en")
    play_out(table, game)
    seats.seat_waiting_players(table, game)  # the next round he plays his own seat
    assert fresh(table.seats[1]).took_from is None
    assert Seated.from_dict(Seated(5, "x", took_from="y").to_dict()).took_from == "y"
