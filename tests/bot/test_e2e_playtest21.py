"""End-to-end: play-test 21, « a host who reads the settings »: a host opening the settings
panel at each preset, changing its knobs one at a time and together, reading what
`/president règles` and the lobby then say and playing to see the knob act, in French and in
English."""

from __future__ import annotations

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.i18n.cards import short
from bot.i18n.typography import french
from bot.packages.rules_text import knob_label, rules_page
from engine import Card, Rules
from engine.cards import TWO
from engine.plays import PlayOption, legal_options
from engine.state import TrickPlay
from fakediscord import FakeDiscord, Message, TestUser

from .conftest import LinkedClock
from .e2e import cid, create_table, message, tick
from .test_e2e_playtest17 import dealt, pass_turn, play

LOCALES = ["fr", "en-US"]


async def pick(user: TestUser, knob: str, value: str) -> Message:
    """From the host's open settings panel, pick `knob` in its menu, then `value` in the
    menu of its values; the panel as it then reads."""
    panel = user.last_ephemeral()
    menu = next(s for s in panel.selects if any(o.value == knob for o in s.options))
    await user.select(panel, [knob], select=menu.custom_id)
    panel = user.last_ephemeral()
    values = next(s for s in panel.selects if ":value:" in s.custom_id)
    await user.select(panel, [value], select=values.custom_id)
    return user.last_ephemeral()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_new_deck_refused_names_every_knob_to_set_first(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-test: at presi, the host picked a 52-card deck. The refusal said to set
    « Carte seule qui gagne tout pli » to « aucune » first; done, the deck was refused
    again, this time for the 3 of oros opening the first round. The engine names one clash
    at a time: the refusal now names both knobs, and once both are set the deck is taken."""
    marie = fake.add_user("marie", locale=locale)
    table = await create_table(president, marie, "presi")
    await marie.slash("president settings")
    before = table.rules
    panel = await pick(marie, "deck", "french52")
    assert table.rules == before
    lines = panel.content.split("\n")
    deck = knob_label(locale, "deck")
    assert lines[0] == "⚠️ " + t(locale, "rules.conflict.top_single_deck.deck", knob=deck,
                                other=knob_label(locale, "top_single"))
    assert lines[1] == "⚠️ " + t(locale, "rules.conflict.oros_not_french.deck", knob=deck,
                                other=knob_label(locale, "first_opener"))
    if locale == "fr":
        assert french("« Carte seule qui gagne tout pli » sur « aucune »") in lines[0]
        assert french("« Ouvre la première manche » sur « au hasard »") in lines[1]
    # As told: the card to none (typed), the opener to random, then the deck.
    menu = next(s for s in panel.selects if any(o.value == "top_single" for o in s.options))
    await marie.select(panel, ["top_single"], select=menu.custom_id)
    await marie.modal_submit({t(locale, "settings.modal.field"): t(locale, "none")})
    await pick(marie, "first_opener", "random")
    panel = await pick(marie, "deck", "french52")
    assert panel.content.startswith("✅")
    assert table.rules == Rules.preset("presi", top_single="none", first_opener="random",
                                       deck="french52")
    await tick(fake, clock, 1)
    assert knob_label(locale, "deck") in message(marie, table.lobby_message_id).content
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_in_a_revolution_the_2s_no_longer_beat_a_larger_play_nor_stop_answers(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-test: a host turned revolutions on at proletario, whose 2s beat a
    play one card larger and are answered by a joker alone. After four 5s reversed the
    order, the rules page said « le 2 la plus faible », yet a 2 opened with alone won the
    trick: every other hand offered only **Passer**. In a revolution the 2s are the weakest
    value (RULES §7): any higher play answers them; the rules page says so under the
    variant."""
    table, game, players = await dealt(
        fake, clock, president, locale, "proletario",
        ["5H 5S 5D 5C 2C 2D 9S", "KD 3S 3H 8C", "QH 4C 4D 8D", "JH 6C 6D 8H"],
        revolution=True)
    marie, paul, jeanne, lucas = players
    await play(fake, clock, marie, "5H 5S 5D 5C")
    assert game.revolution
    for player in (paul, jeanne, lucas):
        await pass_turn(fake, clock, player)
    await play(fake, clock, marie, "2C")
    await play(fake, clock, paul, "KD")  # a king answers a 2 in a revolution
    assert game.trick[-1].seat == 1
    await marie.user.slash("president rules")
    shown = marie.user.last_ephemeral().embeds[0].description or ""
    rule = t(locale, "howto.variant.two_beats_larger.jokers")
    assert t(locale, "howto.variant.two_beats_larger.outside_revolution", rule=rule) in shown
    if locale == "fr":
        assert french("après des 2, seul un joker peut répondre, sauf en révolution, où les 2 "
                      "sont les plus faibles") in shown
    fake.assert_no_errors()


def test_the_2s_beat_a_larger_play_while_they_are_the_best_value() -> None:
    """The engine's rule, without a revolution as with one (`legal_options`): 2s on a pair
    of kings, and what answers a 2."""
    rules = Rules.preset("proletario", revolution=True)
    twos = [PlayOption("2", TWO, 1, ()), PlayOption("2", TWO, 2, ())]
    king = Card.parse("KS")
    kings = TrickPlay(0, (king, king), king.value, 2, "K", None, None)
    normal = legal_options(twos, kings, False, rules.equal_allowed, True, None)
    assert [o.count for o in normal] == [1, 2]  # one 2 on a pair, two 2s on a pair
    assert legal_options(twos, kings, True, rules.equal_allowed, True, None) == []
    two = TrickPlay(0, (Card.parse("2C"),), TWO, 1, "2", None, None)
    answers = [PlayOption("K", king.value, 1, ())]
    assert legal_options(answers, two, False, rules.equal_allowed, True, None) == []
    assert legal_options(answers, two, True, rules.equal_allowed, True, None) == answers


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_wild7_table_without_wild_7s_is_not_titled_wild_7s(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-test: at wild7 the host set « Cartes qui remplacent » to « aucune ».
    The lobby, the settings panel and `/president règles` still read « Les 7 remplacent »
    above « Cartes qui remplacent : aucune », as play-test 19's proletario of eight read
    « 4 places ». The name gives way to its plain one there; picking the preset again
    brings back its rules and its name."""
    marie = fake.add_user("marie", locale=locale)
    table = await create_table(president, marie, "wild7")
    full, plain = t(locale, "preset.wild7"), t(locale, "preset_plain.wild7")
    await marie.slash("president settings")
    panel = await pick(marie, "wild_rank", "none")
    assert table.rules == Rules.preset("wild7", wild_rank="none")
    assert t(locale, "settings.title", preset=plain) in panel.content
    await tick(fake, clock, 1)
    lobby = message(marie, table.lobby_message_id).content
    assert lobby.split("\n")[0] == t(locale, "lobby.title", preset=plain)
    assert knob_label(locale, "wild_rank") in lobby
    await marie.slash("president rules")
    assert marie.last_ephemeral().embeds[0].title == t(locale, "rules.title", preset=plain)
    if locale == "fr":
        assert plain == "Président"
    # The preset picked again: its own rules, and its name.
    await marie.slash("president settings")
    panel = marie.last_ephemeral()
    presets = next(s for s in panel.selects if ":preset:" in s.custom_id)
    await marie.select(panel, ["wild7"], select=presets.custom_id)
    assert table.rules == Rules.preset("wild7")
    assert t(locale, "settings.title", preset=full) in marie.last_ephemeral().content
    await tick(fake, clock, 1)
    lobby = message(marie, table.lobby_message_id).content
    assert lobby.split("\n")[0] == t(locale, "lobby.title", preset=full)
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_panel_from_before_a_change_is_drawn_again_with_why(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """From the play-test: at presi the host had two settings panels open. In the second
    one they had a bot take over whoever leaves; in the first, still offering « Secondes
    pour revenir », they picked it: « Ce choix n’est pas proposé par cette commande ; rien
    n’a changé. », words for a forged click, and the panel stayed as it was. The panel is
    drawn again as the rules are, saying the setting changes nothing now. Once the game
    has started, the same panel is refused as every setting then is."""
    marie = fake.add_user("marie", locale=locale)
    table = await create_table(president, marie, "presi")
    await marie.slash("president settings")
    old = marie.last_ephemeral()
    await marie.slash("president settings")
    await pick(marie, "on_leave", "bot")
    rules = table.rules
    menu = next(s for s in old.selects
                if any(o.value == "leave_grace_seconds" for o in s.options))
    await marie.select(old, ["leave_grace_seconds"], select=menu.custom_id)
    assert table.rules == rules
    panel = message(marie, old.id)
    label = knob_label(locale, "leave_grace_seconds")
    assert panel.content.split("\n")[0] == "⚠️ " + t(locale, "settings.not_applied",
                                                     knob=label)
    assert all(o.value != "leave_grace_seconds" for s in panel.selects for o in s.options)
    if locale == "fr":
        assert french("« Secondes pour revenir » ne change rien") in panel.content
    lobby = message(marie, table.lobby_message_id)
    for action in ("addbot", "addbot", "start"):
        await marie.click(message(marie, lobby.id), cid(table, action))
    await tick(fake, clock, 1)
    assert table.game is not None
    tricks = next(s for s in panel.selects if any(o.value == "revolution" for o in s.options))
    await marie.select(panel, ["revolution"], select=tricks.custom_id)
    assert marie.last_ephemeral().content == "⚠️ " + t(locale, "err.settings_locked")
    assert table.rules == rules
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
def test_the_rules_page_says_jokers_and_the_2_of_oros_outlast_a_revolution(locale: str) -> None:
    """From the play-test: a host turned revolutions on at proletario, then at presi, and
    read `/president règles`: « le 3 devient la plus forte, le 2 la plus faible », though
    a joker still beats everything and the 2 of oros alone still wins any trick, as the
    hands have said since play-test 17. The page says it too."""
    pages = {preset: rules_page(locale, Rules.preset(preset, revolution=True))
             for preset in ("classic", "presi", "proletario")}
    assert "• " + t(locale, "howto.variant.revolution") in pages["classic"]
    assert "• " + t(locale, "howto.variant.revolution.jokers") in pages["proletario"]
    card = short(locale, Card.parse("2O"), True)
    assert "• " + t(locale, "howto.variant.revolution.top_single", card=card) in pages["presi"]
    if locale == "fr":
        assert french("jusqu’au carré suivant ; le 2🪙 joué seul gagne toujours le pli") in \
            "\n".join(pages["presi"])
