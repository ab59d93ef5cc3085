"""Play-test 14: an English group tried unusual knob combinations and read the words of
the rules page, the settings, the hand and the history against what the engine does."""
from __future__ import annotations

from bot.client import PresidentBot
from bot.i18n import t
from bot.packages.game.lines import entry_text
from bot.packages.rules_text import rules_page
from bot.tables.log import note
from engine import Card, Game, Rules
from engine.events import Skipped
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import after_an_equal
from .test_display import selects, table_for


def C(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


def page(locale: str, rules: Rules) -> str:
    return "\n".join(rules_page(locale, rules))


def test_ta_gueule_is_english_where_it_recurs_and_named_once_where_it_is_explained() -> None:
    """« ta gueule » stayed French in every skip of classic's history and on the hand,
    while wild7's « ou rien » read “or nothing!”: the lines met every turn speak English;
    the rules page and the knob keep the French name once, in English quotes."""
    classic = table_for("classic", 3)
    note(classic, Skipped(1))
    assert entry_text("en", classic, classic.log[-1]) == "p1 holds none of that value: skipped"
    for key in ("ev.skipped.skip_unless_holding", "hand.equal_rule.skip_unless_holding"):
        assert "gueule" not in t("en", key, name="p1")
    for key in ("knob.on_equal.skip_unless_holding", "howto.variant.on_equal.skip_unless_holding"):
        assert "“ta gueule”" in t("en", key) and "«" not in t("en", key)


async def test_ta_gueule_on_an_english_hand_is_named_in_english(
        fake: FakeDiscord, clock: LinkedClock, president: PresidentBot) -> None:
    alice = await after_an_equal(fake, clock, president, "en-US", "classic",
                                 [["5H", "9C", "AC", "6S", "JS"], ["5C", "KC", "KD", "8H", "10H"],
                                  ["5D", "QC", "QD", "7H", "JH"]])
    assert "🤐 Skip unless holding: play a 5 or pass." in alice.hand.content


def test_the_page_names_what_answers_2s_that_beat_a_larger_play() -> None:
    """presi with « 2s beat a play one card larger » said nothing answers 2s, while the 2 of
    oros played alone does (`legal_options`; the seed: « gagne n'importe quel pli »)."""
    presi = Rules.preset("presi", two_beats_larger=True)
    assert "after 2s, only the 2🪙 played alone may answer" in page("en", presi)
    assert "après des 2, seul le 2🪙 joué seul peut répondre" in page("fr", presi)
    assert "nothing answers 2s" not in page("en", presi)
    both = Rules.preset("proletario", top_single="2S")
    assert "only a joker or the 2♠ played alone may answer" in page("en", both)
    assert "seuls un joker ou le 2♠ joué seul peuvent répondre" in page("fr", both)
    assert "after 2s, only a joker may answer" in page("en", Rules.preset("proletario"))
    assert "nothing answers 2s" in page("en", Rules.preset("classic", two_beats_larger=True))


def test_presi_s_2_of_oros_alone_answers_2s_that_beat_a_larger_play() -> None:
    """What the page says, the engine does: after two 2s only the 2 of oros is offered."""
    rules = Rules.preset("presi", two_beats_larger=True, finishing_closes_trick=False)
    game = Game.new(rules, seats=3, seed=1, opener=1,
                    hands=[C("2O 3O 4O 5O"), C("2C 2E 9C"), C("6O 8O 9O")])
    game.play(1, C("2C 2E"))
    game.pass_turn(2)
    assert [str(o) for o in game.legal_plays(0)] == ["2O"]


def test_ta_gueule_with_wild_7s_says_a_7_does_not_stand_in() -> None:
    """Under « ta gueule » with 7s wild, a 7 neither counts as holding the value nor plays
    it (as under « ou rien », whose line says « sans 7 »): the page says so too."""
    classic = Rules.preset("classic", wild_rank="7")
    wild7 = Rules.preset("wild7", on_equal="skip_unless_holding")
    for rules in (classic, wild7):
        assert "must play it again (without a 7) or pass" in page("en", rules)
        assert "doit la rejouer (sans 7) ou passer" in page("fr", rules)
    assert "(without a 7)" not in page("en", Rules.preset("classic"))


def test_the_jokers_are_named_alike_on_the_rules_page_the_hand_and_the_history() -> None:
    """The hand read « red🃏 », the history « the red joker », the rules page « the coloured
    joker » (the face is drawn red): each language names them one way on every screen."""
    from bot.i18n.cards import card_words, short

    proletario = Rules.preset("proletario")
    for locale, colour in (("en", "red"), ("fr", "couleur")):
        red, black = Card.parse("RJ"), Card.parse("BJ")
        assert short(locale, red, False) == f"{colour}🃏"
        assert colour in card_words(locale, red, False)
        assert "noir" in card_words(locale, black, False) or "black" in card_words(
            locale, black, False)
    assert "the red joker outranks the black one" in page("en", proletario)
    assert "le joker couleur est plus fort que le noir et blanc" in page("fr", proletario)
    assert "coloured" not in page("en", proletario)


def test_the_two_role_name_choices_that_read_alike_in_english_say_how_they_differ() -> None:
    """« President … Scum (classic) » and « (Wild 7s) » read the same: their English roles
    are the same words; only French parts « Vice-trou » from « Vice-trou du cul »."""
    classic, wild7 = (t("en", f"knob.role_names.{v}") for v in ("classic", "wild7"))
    assert classic != wild7
    assert classic.endswith(f"(French: {t('fr', 'role.classic.VL')})")
    assert wild7.endswith(f"(French: {t('fr', 'role.wild7.VL')})")
    assert t("en", "role.classic.VL") in classic and t("en", "role.wild7.VL") in wild7


HELPED = ("equal_allowed", "reseat_by_rank", "deal_extras", "vp_at_three", "low_gives")


def test_the_settings_menu_says_what_the_unclear_knobs_do_in_100_characters() -> None:
    """The panel showed each knob's name and value only: « Seats follow the ranking »,
    « Extra cards go »… said nothing of what they do. Each now says it under its value, and
    each choice of the value menu under its words, whole within Discord's 100 characters."""
    from bot.i18n import has
    from bot.packages.rules_text import knob_value
    from bot.packages.settings.views import choice_help, settings_screen
    from engine import KNOBS, PRESETS

    for locale in ("en", "fr"):
        for preset in PRESETS:
            rules = Rules.preset(preset)
            for name in HELPED:
                spec = KNOBS[name]
                values = spec.choices if spec.kind == "choice" else (True, False)
                for value in values:
                    help_ = (t(locale, f"knob.{name}.help") if has(f"knob.{name}.help")
                             else choice_help(locale, name, str(value)))
                    assert help_, (name, value)
                    line = t(locale, "settings.knob_help", help=help_,
                             value=knob_value(locale, name, value, rules))
                    assert len(line) <= 100, (locale, line)
        for choice in KNOBS["deal_extras"].choices:
            assert len(choice_help(locale, "deal_extras", choice) or "x" * 101) <= 100
    table = table_for("presi", 3)
    screen = settings_screen(table, "en", focus="deal_extras")
    options = {o.value: o.description for menu in selects(screen.view) for o in menu.options}
    assert options["reseat_by_rank"] == (
        "off · from round 2, turns go in the order of the last round's ranking")
    assert options["low_gives"] == "their best cards, picked by hand · chosen among cards of equal value"
    assert options["rotate"] == "each deal starts one seat further on"


def test_the_rules_page_says_where_the_extra_cards_go_and_who_plays_after_whom() -> None:
    """RULES §3–4: proletario's two top roles get 14 cards and from the second round turns
    follow the ranking; the page said neither (nor any preset's extra cards)."""
    proletario = page("en", Rules.preset("proletario"))
    assert ("the extra ones go to the last round's top roles (in the first round, to players "
            "drawn at random)") in proletario
    assert ("seats follow the last round's ranking: turns go from **President** down to the "
            "last place") in proletario
    assert "les cartes en plus tournent : chaque donne commence une place plus loin" in \
        page("fr", Rules.preset("presi")).replace("\u202f", " ").replace("\u00a0", " ")
    classic = page("en", Rules.preset("classic"))
    assert "in seat order in the first round, then to the last round's last places" in classic
    assert "seats follow" not in classic
    at_four = "\n".join(rules_page("en", Rules.preset("classic"), seats=4))
    assert "extra ones" not in at_four  # 52 cards share out evenly at four
