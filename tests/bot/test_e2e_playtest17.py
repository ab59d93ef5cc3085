"""End-to-end: play-test 17, « every rule that fires is seen and understood »: the special
rules of each preset set up through the fake Discord in French and in English, the table
message and every player's hand read before and after each fires."""

from __future__ import annotations

from typing import Any

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.i18n.cards import rank_words
from bot.i18n.typography import french
from bot.packages.game.lines import place
from bot.tables.table import Table
from engine import Card, Game
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import Player, after_an_equal, humans_only, message, tick

LOCALES = ["fr", "en-US"]
NAMES = ["marie", "paul", "jeanne", "lucas"]


async def dealt(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot, locale: str,
                preset: str, hands: list[str], **rules: Any) -> tuple[Table, Game, list[Player]]:
    """People only (one per hand, all speaking ``locale``) at a ``preset`` table with
    ``rules`` changed, dealt ``hands`` (cards split by spaces), the first seat opening; every
    hand open."""
    users = [fake.add_user(name, locale=locale) for name in NAMES[:len(hands)]]
    table, players = await humans_only(fake, clock, bot, users, preset, **rules)
    assert table.game is not None
    cards = [[Card.parse(c) for c in hand.split()] for hand in hands]
    table.game = game = Game.new(table.rules, seats=len(hands), seed=1, hands=cards, opener=0,
                                 first_version=table.game.version + 1)
    table.log = []
    bot.service._after(table, list(game.first_events))
    await tick(fake, clock, 1)
    for player in players:
        await player.open_hand(bot)
    return table, game, players


async def play(fake: FakeDiscord, clock: LinkedClock, player: Player, cards: str,
               announce: str = "") -> None:
    """``player`` picks ``cards`` (announced as ``announce``, for wilds) in their hand's
    menus, as offered there."""
    wanted = sorted(cards.split())
    for menu in player.hand.selects:
        for option in menu.options:
            shown, _, said = option.value.partition("|")
            if ":play:" in menu.custom_id and sorted(shown.split(".")) == wanted \
                    and said == announce:
                await player.user.select(player.hand, [option.value], select=menu.custom_id)
                await tick(fake, clock, 1)
                return
    raise AssertionError(f"{cards} is not offered to {player.user.name}")


async def pass_turn(fake: FakeDiscord, clock: LinkedClock, player: Player) -> None:
    custom_id = next(b.custom_id for b in player.hand.buttons
                     if b.custom_id and ":pass:" in b.custom_id)
    await player.user.click(player.hand, custom_id)
    await tick(fake, clock, 1)


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_player_out_reads_their_place_and_why_a_finish_on_a_2_sent_them_down(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-test: at classic (« Finir par un 2 »), marie went out first on a 2 and
    the table said « marie a fini sur un 2 : 4e place », but her hand read only « Tu n’as
    plus de cartes. », as did the hand of paul, out 1st normally: the hand of a player out
    now says their place, and, sent down, why."""
    table, game, (marie, paul, jeanne, lucas) = await dealt(
        fake, clock, president, locale, "classic", ["2H", "9S 6C", "KH KS 4C", "3H 5H 8D"])
    await play(fake, clock, marie, "2H")
    two = rank_words(locale, "2", 1, False)
    assert marie.hand.content.split("\n") == [
        t(locale, "hand.empty"),
        t(locale, "hand.out_penalised", rank=two, place=place(locale, 4))]
    if locale == "fr":
        assert french("⚠️ Tu as fini sur un 2 : sortie pénalisée, tu prends la 4e place de "
                      "la manche.") in marie.hand.content
    await play(fake, clock, paul, "6C")  # paul opens (the 2 closed the trick)...
    await pass_turn(fake, clock, jeanne)  # ... nobody answers
    await pass_turn(fake, clock, lucas)
    await play(fake, clock, paul, "9S")
    assert game.finish_place(1) == 1
    assert paul.hand.content.split("\n")[:2] == [  # (then the trick, still on the table)
        t(locale, "hand.empty"), t(locale, "hand.out", place=place(locale, 1))]
    if locale == "fr":
        assert french("🏁 Tu prends la 1re place de la manche ; elle continue sans toi.") \
            in paul.hand.content
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_wild7_finish_with_a_7_in_a_pair_is_said_to_be_with_a_7(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-test: at wild7 marie went out on 9♥ 7♥, a pair of 9s (« finir sa main
    sur un 2 ou avec un 7 », the seed), and the table read « marie joue deux 9, dont un 7 ·
    marie a fini sur un 7 : 3e place »: she finished on two 9s, with a 7. Both the table
    and her hand now say « avec un 7 »."""
    table, game, (marie, _, _) = await dealt(
        fake, clock, president, locale, "wild7", ["9H 7H", "9S 6C 10C", "KH KS 4C 8D"])
    await play(fake, clock, marie, "9H 7H")
    assert game.penalised == [0]
    seven = rank_words(locale, "7", 1, False)
    third = place(locale, 3)
    board = message(marie.user, table.table_message_id).content
    assert f"• {t(locale, 'ev.penalised_wild', name='marie', rank=seven, place=third)}" \
        in board.split("\n")
    assert t(locale, "ev.penalised", name="marie", rank=seven, place=third) not in board
    assert t(locale, "hand.out_penalised_wild", rank=seven, place=third) \
        in marie.hand.content.split("\n")
    if locale == "fr":
        assert french("• marie a fini avec un 7 : 3e place") in board
    else:
        assert "• marie finished with a 7: ranked 3rd" in board
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_in_fast_mode_the_last_to_play_is_told_why_they_cannot_pass(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-test: in classic's fast mode, paul's hand, on top of the trick, had no
    Pass while the others' had one, and said only « Joue dès que tu peux battre la table »:
    the last to play may not pass (RULES §9, the seed: « Le dernier poseur ne peut pas
    passer »), but may play over their own cards. His hand says so; the others' do not."""
    table, game, (marie, paul, jeanne) = await dealt(
        fake, clock, president, locale, "classic", ["8H 3S 4S KD", "8D 5D 9S KC",
                                                    "8C 10S 3H KS"], fast=True)
    assert t(locale, "hand.fast_top") not in marie.hand.content  # an empty trick
    await play(fake, clock, marie, "8H")
    await play(fake, clock, paul, "8D")
    assert game.last_player == 1 and not game.can_pass(1)
    assert t(locale, "hand.fast_top") in paul.hand.content.split("\n")
    assert not [b for b in paul.hand.buttons if b.custom_id and ":pass:" in b.custom_id]
    for other in (marie, jeanne):
        assert t(locale, "hand.fast_top") not in other.hand.content
        assert [b for b in other.hand.buttons if b.custom_id and ":pass:" in b.custom_id]
    if locale == "fr":
        assert french("Tu as posé en dernier : tu ne peux pas passer, mais tu peux rejouer "
                      "par-dessus ta propre pose.") in paul.hand.content
    fake.assert_no_errors()


@pytest.mark.parametrize(("locale", "preset", "hands", "key"), [
    (locale, preset, hands, key) for locale in LOCALES for preset, hands, key in (
        ("proletario", ["5H 5S 5D 5C 3S RJ", "6H 6S 9C", "KH KS 4C", "QH 8S BJ"],
         "hand.revolution_jokers"),
        ("presi", ["5O 5E 5C 5B 3E", "6O 2O 9C", "KO KE 4C"], "hand.revolution_top_single"),
        ("classic", ["5H 5S 5D 5C 3S", "6H 2S 9C", "KH KS 4C"], "hand.revolution"))])
async def test_a_revolution_says_the_jokers_and_the_2_of_oros_keep_their_power(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str, preset: str,
    hands: list[str], key: str
) -> None:
    """From the play-test: a host turned revolutions on at proletario, then at presi. After
    four 5s every hand read « le 3 devient la carte la plus forte et le 2 la plus faible »,
    though a joker still beats everything (the red joker sorted last, above the 3s), and
    the 2 of oros played alone still wins any trick (RULES §7). Each table now says so."""
    table, game, players = await dealt(fake, clock, president, locale, preset, hands,
                                       revolution=True)
    await play(fake, clock, players[0], " ".join(hands[0].split()[:4]))
    assert game.revolution
    card = t(locale, "card.top_single")
    for player in players:
        assert t(locale, key, card=card) in player.hand.content.split("\n")
    if preset == "proletario":
        assert t(locale, "hand.revolution") not in players[0].hand.content
    if locale == "fr" and preset == "presi":
        assert french("🔄 Révolution : l’ordre des valeurs est inversé, le 3 devient la plus "
                      "forte et le 2 la plus faible ; le 2 de deniers joué seul gagne toujours "
                      "le pli.") in players[1].hand.content
    fake.assert_no_errors()


@pytest.mark.parametrize(("first", "key"), [("4H", "hand.same_or_pass_wild"),
                                            ("9S", "hand.same_or_pass_none_wild")])
async def test_or_nothing_says_in_french_a_7_cannot_be_a_joker_here(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, first: str, key: str
) -> None:
    """From the play-test: after two 4s at wild7, a player holding a 7 read « joue un 4 ou
    passe ; un 7 ne peut pas la remplacer »: « la » stood for no word of the line (with
    « deux 4 » it would want « les »). The seed calls the 7 a joker (« Le 7 est un joker »,
    « sans joker… ou passer »): the line now says a 7 cannot serve as one here."""
    marie = await after_an_equal(fake, clock, president, "fr", "wild7",
                                 [[first, "7H", "AC"], ["4C", "KC", "KD"], ["4D", "QC", "QD"]])
    line = {"hand.same_or_pass_wild":
            "🤐 Même valeur ou rien : joue un 4 ou passe ; un 7 ne peut pas servir de joker ici.",
            "hand.same_or_pass_none_wild":
            "🤐 Même valeur ou rien : il faudrait un 4, que tu n’as pas (un 7 ne peut pas servir "
            "de joker ici) ; tu ne peux que passer."}[key]
    assert french(line) in marie.hand.content.split("\n")
    assert "remplacer" not in marie.hand.content
    fake.assert_no_errors()
