"""End-to-end: play-test 6, the bot in English and at tables where French and English
players sit together."""

import re
from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.i18n.cards import shorts
from bot.i18n.typography import french
from bot.sandbox import Terminal
from engine import Card, Deck, Phase
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    connect_bot,
    create_table,
    database_url,
    deal,
    host_against_bots,
    let_timers_play,
    message,
    play_every_round,
    record_charts,
    tick,
    two_humans_against_a_bot,
)
from .typography import NBSP


async def test_presi_names_its_top_roles_president_in_english_as_in_french(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """From the play-test: an English presi table called its top roles « Presidente » and
    « Vicepresidente », in Spanish, where the French table and RULES.md say Président and
    Vice-président (presi renames only the low roles: Vice-Culo, Culo). An English player
    read « You finished 1st: **Presidente** » on the hand their French neighbour read as
    « **Président** »."""
    alice = Player(fake.add_user("alice"))
    table = await host_against_bots(president, alice.user, "presi", 2)
    await tick(fake, clock, 1)
    game = deal(president, table, [["9O"], ["3C", "4C", "5C"], ["3E", "4E", "6E"]], opener=0)
    await tick(fake, clock, 1)
    await alice.open_hand(president)
    await alice.user.select(alice.hand, ["9O"], select="Play a single…")
    for _ in range(30):
        if game.phase is not Phase.PLAY:
            break
        await tick(fake, clock, 1)
    assert game.ranking is not None and game.ranking[0] == 0
    await tick(fake, clock, 1)
    assert alice.hand.content.splitlines()[-1] == \
        "🎖️ You finished 1st in the round: **President** (+2)."

    await alice.user.slash("president rules")
    lines = alice.user.last_ephemeral().text.split("\n")
    assert "🏅 Points each round: President 2 · Vice-President 1 · Culo 0." in lines
    marie = fake.add_user("marie", locale="fr")
    await marie.slash("president rules")
    assert french("🏅 Points par manche : Président 2 · Vice-président 1 · Culo 0.") in \
        marie.last_ephemeral().text.split("\n")
    fake.assert_no_errors()


async def test_the_presi_settings_name_the_roles_as_the_table_does(
    fake: FakeDiscord, president: PresidentBot
) -> None:
    alice = fake.add_user("alice")
    table = await create_table(president, alice, "presi")
    await alice.slash("president settings")
    panel = alice.last_ephemeral()
    assert "▫️ **Role names**: President … Vice-Culo, Culo" in panel.text.split("\n")
    assert "▫️ **Points per role**: President 2 · Vice-President 1 · Neutral 0 · Vice-Culo 0 " \
        "· Culo 0" in panel.text.split("\n")
    assert table.rules.role_names == "presi"
    fake.assert_no_errors()


async def test_the_lobby_greets_a_newcomer_without_a_gender_in_either_language(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """From the play-test: the French lobby asked « Nouveau au Président ? », which speaks
    to a man only (the catalogue never gives players a gender), and its English line wrote
    "table’s" where every other English line writes "table's"."""
    marie = fake.add_user("marie", locale="fr")
    alice = fake.add_user("alice")
    table = await create_table(president, marie)
    assert message(alice, table.lobby_message_id).content.splitlines()[-1] == \
        t("fr", "lobby.rules_hint")
    await marie.slash("president language", language="en")
    await tick(fake, clock, 1)
    assert message(alice, table.lobby_message_id).content.splitlines()[-1] == \
        "📜 New to Président? `/president rules` explains this table's rules."
    fake.assert_no_errors()


async def test_a_past_games_chart_names_its_preset_once_in_each_pickers_language(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """From the play-test: picking a presi game in /president history titled its chart
    "📈 Game points (Presi (Spanish deck))", brackets in brackets, where every other title
    puts its preset after a « · » (« 🏆 Leaderboard · … », « 📜 Rules of this table · … »)."""
    record_charts(monkeypatch)
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    alice = Player(fake.add_user("alice"))
    bob = Player(fake.add_user("bob", locale="fr"))
    table, _ = await two_humans_against_a_bot(fake, clock, bot, alice, bob, "presi",
                                              game_end="rounds:1")
    await play_every_round(fake, clock, table, [alice, bob])
    await bot.service.drain()
    for player, title in ((alice, "📈 Game points · Presi (Spanish deck)"),
                          (bob, "📈 Points de la partie · Presi (jeu espagnol)")):
        await player.user.slash("president history")
        listed = player.user.last_ephemeral()
        await player.user.select(listed, [listed.select().options[0].value])
        assert player.user.last_ephemeral().embeds[0].title == title
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_every_refusal_opens_with_a_warning_in_the_clickers_language(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """From the play-test: an English guest at a French table who pressed the host's
    **Lancer** read "Only the host (<@…>) can do that." — plain, where a refused play in a
    hand reads « ⚠️ … ». Commands, lobby buttons and table buttons refused the same way in
    both languages; every refusal now opens with ⚠️, in the clicker's language whatever the
    table speaks."""
    marie = fake.add_user("marie", locale="fr")
    alice = fake.add_user("alice")
    table = await create_table(president, marie)
    lobby = message(alice, table.lobby_message_id)
    only_host = f"⚠️ Only the host (<@{marie.id}>) can do that."
    await alice.click(lobby, cid(table, "start"))
    assert alice.last_ephemeral().content == only_host
    await alice.slash("president settings")
    assert alice.last_ephemeral().content == only_host
    await alice.slash("president leave")
    assert alice.last_ephemeral().content == "⚠️ You are not seated at this table."
    await marie.slash("president join")
    assert marie.last_ephemeral().content == "⚠️ Tu as déjà une place à cette table."
    await alice.click(lobby, cid(table, "join"))
    await marie.click(lobby, cid(table, "addbot"))
    await marie.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    board = message(alice, table.table_message_id)
    await alice.click(board, cid(table, "hand"))
    await alice.slash("president replay")  # seated now: told when the role may be hers
    assert alice.last_ephemeral().content.startswith(only_host + " If the host has not acted")
    assert table.game is not None and table.game.phase is not Phase.GAME_OVER
    fake.assert_no_errors()


async def test_the_sandbox_draws_countdowns_in_its_players_language(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """From the play-test: the sandbox, French unless told otherwise, drew the turn's
    countdown as « ▶️ À toi de jouer (in 25s) », in English, where a French Discord client
    writes « dans 25 secondes »; an English player's stays "(in 25s)"."""
    for name, locale, relative, other in (
            ("vous", "fr", rf"\((dans|il y a) \d+{NBSP}s\)", "s ago)"),
            ("you", "en-US", r"\(in \d+s\)|\(\d+s ago\)", " s)")):
        user = fake.add_user(name, locale=locale)
        user.channel = fake.add_channel(fake.guild, f"sandbox-{name}")
        await fake.settle()
        terminal = Terminal(fake, user)
        table = await host_against_bots(president, user, "classic", 2)
        await tick(fake, clock, 1)
        await user.click(message(user, table.table_message_id), cid(table, "hand"))
        capsys.readouterr()
        terminal.show()
        screen = capsys.readouterr().out
        assert re.search(relative, screen), screen
        assert other not in screen and "<t:" not in screen
    fake.assert_no_errors()


async def test_a_joker_written_among_cards_reads_as_one_card(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """From the play-test: proletario's last place read "The rules give 🃏 black 2♠ to
    **Bot 1** for you", which reads as a black 2 of spades; « 🃏 noir 2♠ » in French. A
    joker is written like every other card, its name then its symbol: "black🃏 2♠"."""
    alice = Player(fake.add_user("alice"))
    table = await host_against_bots(president, alice.user, "proletario", 3)
    await tick(fake, clock, 1)
    cards = list(Deck(table.rules.deck).cards())
    deal(president, table, [cards[i::4] for i in range(4)], previous_ranking=[1, 2, 3, 0])
    await tick(fake, clock, 1)
    await alice.open_hand(president)
    lines = alice.hand.content.splitlines()
    assert lines[0].endswith(" 2♠ black🃏")
    assert "The rules give black🃏 2♠ to **🤖 Bot 1** for you: the cards change hands once " \
        "everyone has chosen." in lines
    assert shorts("fr", [Card.parse("RJ"), Card.parse("BJ"), Card.parse("2S")], False) == \
        "couleur🃏 noir🃏 2♠"
    fake.assert_no_errors()


async def test_wild7s_rules_say_a_7_joins_other_cards_as_well_as_standing_alone(
    fake: FakeDiscord, president: PresidentBot
) -> None:
    """From the play-test: /president rules said "7s are wild (played alone, you announce
    the value)", and the English player took it that a 7 is always played alone — then
    their hand offered "a pair of 10s, including a 7". RULES.md: with other cards a 7 takes
    their value, and only 7s played on their own take an announced one."""
    alice = fake.add_user("alice")
    await create_table(president, alice, "wild7")
    await alice.slash("president rules")
    assert "7s are wild: played with other cards they take those cards' value (a 7 and two " \
        "Kings are three Kings); played with no other value, they stand for the value you " \
        "announce. In the exchange a 7 is just a 7." in alice.last_ephemeral().text.split("\n")
    marie = fake.add_user("marie", locale="fr")
    await marie.slash("president rules")
    assert french("Les 7 remplacent n’importe quelle valeur : joués avec d’autres cartes, ils en "
        "prennent la valeur (un 7 et deux Rois font trois Rois) ; joués sans autre valeur, "
        "ils valent celle qu’on annonce. Dans l’échange, un 7 n’est qu’un 7.") in \
        marie.last_ephemeral().text.split("\n")
    fake.assert_no_errors()


async def test_the_president_giving_back_the_weakest_cards_reads_they_are_picked(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """From the play-test: presi's President read "You must give your weakest cards; they
    are checked." — « cochées » (ticked) taken word for word: in English the cards seemed
    to be verified, not already picked in the menu below."""
    alice = Player(fake.add_user("alice"))
    table = await host_against_bots(president, alice.user, "presi", 3)
    await tick(fake, clock, 1)
    cards = list(Deck(table.rules.deck).cards())
    deal(president, table, [cards[i::4] for i in range(4)], previous_ranking=[0, 1, 2, 3])
    await tick(fake, clock, 1)
    await alice.open_hand(president)
    assert "You must give your weakest cards: they are already picked for you." in \
        alice.hand.content.splitlines()
    (menu,) = alice.hand.selects
    assert [o.default for o in menu.options] == [True, True]
    fake.assert_no_errors()


async def test_settings_and_queue_lines_read_as_english(
    fake: FakeDiscord, president: PresidentBot
) -> None:
    """From the play-test: "2s beat one size more", "Four of a value close", "play at level
    easy" and "you are in the queue and enter between rounds" were French turned word for
    word into English."""
    alice = fake.add_user("alice")
    table = await create_table(president, alice, "proletario")
    await alice.slash("president settings")
    panel = alice.last_ephemeral()
    assert "▫️ **2s beat a play one card larger**: on" in panel.text.split("\n")
    await alice.click(panel, cid(table, "bot_level"))
    assert alice.last_ephemeral().content.splitlines()[0] == \
        "✅ Bots added from now on play at the hard level."
    await president.service.set_rules(table, alice.id, table.rules.replace(four_closes=True))
    await alice.slash("president settings")
    assert "✏️ **Four of one value in a row close the trick**: on (preset: off)" in \
        alice.last_ephemeral().text.split("\n")
    for n in range(3):  # people: a bot would give way to bob (play-test 12)
        await president.service.join(table, 900 + n, f"friend{n}", "en-US")
    bob = fake.add_user("bob")
    await bob.click(message(bob, table.lobby_message_id), cid(table, "join"))
    assert bob.last_ephemeral().content == (  # the lobby seats him as a seat frees (stop 38)
        "The lobby is full: you are in the queue, and take a seat when your turn comes, "
        "as one frees up or the host opens more.")
    fake.assert_no_errors()


async def test_an_english_host_of_a_french_table_is_told_the_buttons_it_shows(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock
) -> None:
    """From the play-test: an English host whose table speaks French (the server's choice)
    opened the settings after the game and read "**End game** takes the table back to the
    lobby…; **Replay** keeps the same ones." — under a table message whose buttons read
    « Terminer » and « Rejouer ». The refusal is in the host's language, the buttons it
    names as the table shows them."""
    alice = fake.add_user("alice")
    table = await host_against_bots(instant, alice, "classic", 2, game_end="rounds:1")
    await alice.slash("president language", language="fr")
    game = table.game
    assert game is not None
    await let_timers_play(fake, clock, game, Phase.GAME_OVER)
    await tick(fake, clock, 1)
    labels = [b.label for b in message(alice, table.table_message_id).buttons]
    assert "Terminer" in labels and "Rejouer" in labels
    await alice.slash("president settings")
    assert alice.last_ephemeral().content == (
        "⚠️ The game is over: **Terminer** takes the table back to the lobby, where the rules "
        "can be changed; **Rejouer** keeps the same ones.")
    fake.assert_no_errors()


async def test_a_player_out_after_a_penalised_one_is_told_the_place_they_hold(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """From the play-test (8 players, wild7): the history said "ann is out (7th)" — the
    seventh to go out — while the table listed her "out (5th)" and the results 5th: the
    two who went out on a 2 before her were sent to the bottom. The line gives the place."""
    alice = Player(fake.add_user("alice"))
    table = await host_against_bots(president, alice.user, "classic", 2)
    await tick(fake, clock, 1)
    game = deal(president, table, [["2S"], ["5C"], ["6C", "7C"]], opener=0)
    await tick(fake, clock, 1)
    await alice.open_hand(president)
    await alice.user.select(alice.hand, ["2S"], select="Play a single…")
    for _ in range(10):
        if game.phase is Phase.ROUND_OVER:
            break
        await tick(fake, clock, 1)
    assert game.ranking == (1, 2, 0)
    await tick(fake, clock, 1)
    lines = message(alice.user, table.table_message_id).content.splitlines()
    assert "• alice finished on a 2: ranked 3rd" in lines
    assert "• 🤖 Bot 1 is out (1st)" in lines
    fake.assert_no_errors()


async def test_a_presi_host_who_leaves_is_not_announced_as_the_new_host(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """From the play-test: alice, hosting presi, left mid-game; her seat waits for her, so
    she stays the host (any seated player may take the role over meanwhile), and the history
    said "alice is now the table's host" — of the one who had just left."""
    alice = fake.add_user("alice")
    bob = fake.add_user("bob")
    carl = fake.add_user("carl")
    table = await create_table(president, alice, "presi")
    lobby = message(alice, table.lobby_message_id)
    await bob.click(lobby, cid(table, "join"))
    await carl.click(lobby, cid(table, "join"))
    await alice.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    await alice.slash("president leave")
    await alice.click(alice.last_ephemeral(), "Leave the game")
    await tick(fake, clock, 1)
    assert alice.id in table.away and table.host_id == alice.id
    lines = message(bob, table.table_message_id).content.splitlines()
    assert any(line.startswith("• alice left: their seat waits until") for line in lines)
    assert not [line for line in lines if "table's host" in line]
    fake.assert_no_errors()


async def test_two_wild_7s_inside_a_play_read_as_two_not_a_pair(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """From the play-test: a wild7 hand offered "three 9s, including a pair of 7s" — the
    words of a play of its own for two cards inside another one (« dont deux 7 » in
    French)."""
    alice = Player(fake.add_user("alice"))
    table = await host_against_bots(president, alice.user, "wild7", 2)
    await tick(fake, clock, 1)
    deal(president, table, [["7S", "7H", "9C", "KD"], ["4H", "6H", "KC"], ["7D", "8S", "QC"]],
         opener=0)
    await tick(fake, clock, 1)
    await alice.open_hand(president)
    three = alice.hand.select("Play three…")
    assert [o.description for o in three.options] == \
        ["three 9s, including two 7s", "three Kings, including two 7s"]
    pairs = alice.hand.select("Play a pair…")
    assert "a pair of Kings, including a 7" in [o.description for o in pairs.options]
    fake.assert_no_errors()
