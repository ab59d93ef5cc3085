"""The settings form in the host's words, and forms that outlive the bot process."""

import re
from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.i18n.typography import french
from bot.packages.controls import WARNING
from bot.packages.settings.views import bad_input, typed_text, typed_value
from bot.tables.table import Table
from engine import KNOBS, PRESETS, Card, GameEnd, KnobGroup, Rules, RulesError
from engine.rules import CONFLICTS
from fakediscord import FakeDiscord, TestUser
from fakediscord.snapshots import TextInput
from fakediscord.state import MESSAGE_COMPONENT, MODAL_SUBMIT
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import cid, connect_bot, create_table, database_url, message, table_of, tick

ENGINE = Path(__file__).resolve().parents[2] / "engine"
TYPED = [name for name, spec in KNOBS.items()
         if spec.kind in ("int", "optional_int", "points", "game_end", "card")]


async def marie_opens_the_settings(fake: FakeDiscord,
                                   president: PresidentBot) -> tuple[TestUser, Table]:
    """marie, a French host, opens a classic table and its settings panel."""
    marie = fake.add_user("marie", locale="fr")
    table = await create_table(president, marie)
    await marie.slash("president settings")
    return marie, table


async def open_form(user: TestUser, knob: str) -> None:
    panel = user.last_ephemeral()
    menu = next(s for s in panel.selects if any(o.value == knob for o in s.options))
    await user.select(panel, [knob], select=menu.custom_id)


def test_typed_answers_in_either_language() -> None:
    assert typed_value("game_end", "2") == GameEnd("rounds", 2)
    assert typed_value("game_end", "3 manches") == GameEnd("rounds", 3)
    assert typed_value("game_end", "1 round") == GameEnd("rounds", 1)
    assert typed_value("game_end", "11 points") == GameEnd("target", 11)
    assert typed_value("game_end", "11 points à atteindre") == GameEnd("target", 11)
    assert typed_value("game_end", "Premier à 11 points") == GameEnd("target", 11)  # older
    assert typed_value("game_end", "first to 1 point") == GameEnd("target", 1)
    assert typed_value("game_end", "illimité") == GameEnd("unlimited")
    assert typed_value("game_end", "target:7") == GameEnd("target", 7)
    assert typed_value("autopilot_after_timeouts", "jamais") is None
    assert typed_value("top_single", "aucune") is None
    assert typed_value("top_single", "2o") == Card.parse("2O")
    # as the screens show cards, in either language: what a host copies from the table
    assert typed_value("top_single", "2♥") == typed_value("top_single", "2 ♥") == Card.parse("2H")
    presi = Rules.preset("presi")
    assert typed_value("top_single", "2🪙", rules=presi) == Card.parse("2O")
    # read, but refused: the single card that wins any trick is a 2 (RULES §7), and the
    # engine could not list the plays of a hand holding another (a play-test froze a game)
    for shown, rules in (("D♥", None), ("q♥", None), ("R 🪙", presi), ("Rey🪙", presi),
                         ("AS", None)):
        with pytest.raises(ValueError, match="is not a 2"):
            typed_value("top_single", shown, rules=rules)


def test_a_card_typed_in_words_is_read_in_the_tables_deck() -> None:
    """Play-test 12: « 2♣ » at a Spanish table saved the 2 of copas (the engine's "C"),
    with a ✅; and « 2 de deniers », the hint's own words, was refused."""
    presi, classic = Rules.preset("presi"), Rules.preset("classic")
    for typed in ("2 de deniers", "2 de Deniers", "2 of oros", "2 oros", "2O"):
        assert typed_value("top_single", typed, rules=presi) == Card.parse("2O")
    assert typed_value("top_single", "2 de coupe", rules=presi) == Card.parse("2C")
    assert typed_value("top_single", "2 d’épées", rules=presi) == Card.parse("2E")
    assert typed_value("top_single", "2 of clubs", rules=presi) == Card.parse("2B")
    assert typed_value("top_single", "2 de trèfle", rules=classic) == Card.parse("2C")
    assert typed_value("top_single", "2 of spades", rules=classic) == Card.parse("2S")
    assert typed_value("top_single", "2♣", rules=classic) == Card.parse("2C")
    for symbol in ("2♣", "2 de trèfle"):  # the engine's "2C" is copas there: refused
        with pytest.raises(ValueError):
            typed_value("top_single", symbol, rules=presi)
    # Another deck's card reads as itself, for the engine to say it is not in this one.
    assert typed_value("top_single", "2 de pique", rules=presi) == Card.parse("2S")
    assert typed_value("top_single", "2 de deniers", rules=classic) == Card.parse("2O")
    with pytest.raises(RulesError, match="top_single"):
        presi.replace(top_single=Card.parse("2S"))
    assert typed_value("top_single", "aucun", rules=presi) is None
    assert "2 de deniers" in bad_input("fr", "top_single", presi)
    assert "♠" not in bad_input("fr", "top_single", presi)
    assert "🪙" not in bad_input("en", "top_single", classic)
    assert typed_text("fr", "game_end", GameEnd("rounds", 5)) == "5 manches"
    assert typed_text("fr", "autopilot_after_timeouts", None) == "jamais"


def test_every_typed_value_reads_back_as_it_is_shown() -> None:
    for preset in PRESETS:
        rules = Rules.preset(preset)
        for knob in TYPED:
            value = getattr(rules, knob)
            for locale in ("fr", "en"):
                assert typed_value(knob, typed_text(locale, knob, value)) == value, \
                    (preset, knob, locale)


def test_every_rule_conflict_has_a_sentence() -> None:
    from bot.i18n.en import CATALOGUE

    source = (ENGINE / "rules.py").read_text()
    checks = source[source.index("def __post_init__"):source.index("def preset(")]
    raised = set(re.findall(r'\("([a-z_]+)",\s+(?:self|not)\b', checks))
    assert raised and raised <= set(CONFLICTS)
    assert sorted(c for c in CONFLICTS if f"rules.conflict.{c}" not in CATALOGUE) == []


async def test_french_host_types_values_in_french(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    marie, table = await marie_opens_the_settings(fake, president)

    await open_form(marie, "game_end")
    form = marie.modal
    assert form is not None
    field = form.inputs[0]
    assert isinstance(field, TextInput) and field.value == "5 manches"
    await marie.modal_submit({"Nouvelle valeur": "2"})
    assert table.rules.game_end == GameEnd("rounds", 2)
    assert french("✅ Enregistré — Fin de partie : 2 manches.") in marie.last_ephemeral().content

    await open_form(marie, "turn_seconds")
    await marie.modal_submit({"Nouvelle valeur": "beaucoup"})
    assert table.rules.turn_seconds == 30
    assert french("⚠️ Secondes par tour : écris un nombre entier de 5 à 600.") in \
        marie.last_ephemeral().content

    await open_form(marie, "first_opener")
    panel = marie.last_ephemeral()
    values = next(s for s in panel.selects if ":value:" in s.custom_id)
    await marie.select(panel, ["three_of_oros"], select=values.custom_id)
    refusal = marie.last_ephemeral().content.splitlines()[0]
    assert refusal.startswith(french("⚠️ Ouvre la première manche : le 3 de deniers n’est que"))
    assert "first_opener" not in refusal and "Spanish" not in refusal
    fake.assert_no_errors()


async def test_a_form_submitted_after_a_restart_still_changes_the_rule(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url)
    alice = fake.add_user("alice")
    await alice.slash("president create", preset="classic")
    await alice.slash("president settings")
    await open_form(alice, "turn_seconds")
    await fake.disconnect(bot)  # the form is still open on alice's screen

    again = await connect_bot(fake, clock, url)
    await alice.modal_submit({"New value": "45"})  # answered, or settle() would fail
    table = table_of(again, alice)
    assert table.rules.turn_seconds == 45
    assert "✅ Saved — Seconds per turn: 45." in alice.last_ephemeral().content
    await tick(fake, clock, 1)
    assert "Seconds per turn: 45" in message(alice, table.lobby_message_id).content
    await fake.disconnect(again)
    fake.assert_no_errors()


async def test_unknown_forms_are_answered_and_a_form_without_its_panel_still_works(
    fake: FakeDiscord, president: PresidentBot
) -> None:
    marie = fake.add_user("marie", locale="fr")
    await marie.slash("president create")
    for custom_id, answer in (("someone-else:form", french("⚠️ Ce formulaire a expiré : rouvre")),
                              ("pz:1:nope:0:", french("⚠️ Ce formulaire a expiré : rouvre")),
                              ("pz:999:form:0:turn_seconds", "⚠️ Cette table n’existe plus.")):
        fake.hub.start(MODAL_SUBMIT, marie.user, marie.channel,
                       {"custom_id": custom_id, "components": []}, "old form", None)
        await fake.settle()
        assert marie.last_ephemeral().content.startswith(answer), custom_id
    fake.hub.start(MODAL_SUBMIT, marie.user, marie.channel,  # a live table, no panel
                   {"custom_id": "pz:1:form:0:turn_seconds",
                    "components": [{"type": 18, "component": {"type": 4, "custom_id": "x",
                                                              "value": "40"}}]},
                   "form without its panel", None)
    await fake.settle()
    assert table_of(president, marie).rules.turn_seconds == 40
    assert french("✅ Enregistré — Secondes par tour : 40.") in marie.last_ephemeral().content
    fake.assert_no_errors()


async def test_a_conflict_names_the_knob_the_host_changed(
    fake: FakeDiscord, president: PresidentBot
) -> None:
    marie, table = await marie_opens_the_settings(fake, president)
    await open_form(marie, "min_players")
    await marie.modal_submit({"Nouvelle valeur": "7"})
    refusal = marie.last_ephemeral().content.splitlines()[0]
    assert refusal == WARNING + t("fr", "rules.conflict.min_above_max",
                                  knob=t("fr", "knob.min_players"))
    assert table.rules.min_players == 3
    await open_form(marie, "max_players")
    await marie.modal_submit({"Nouvelle valeur": "2"})
    assert marie.last_ephemeral().content.startswith(french("⚠️ Places maximum : le minimum"))
    fake.assert_no_errors()


async def test_points_keep_the_roles_not_typed_and_refuse_out_of_range(
    fake: FakeDiscord, president: PresidentBot
) -> None:
    marie, table = await marie_opens_the_settings(fake, president)
    for bad in ("P-1", "P999"):
        await open_form(marie, "points")
        await marie.modal_submit({"Nouvelle valeur": bad})
        assert marie.last_ephemeral().content.startswith("⚠️ Points par rôle"), bad
        assert table.rules.points == {"P": 3, "VP": 2, "N": 1, "VL": 0, "L": 0}
    await open_form(marie, "points")
    await marie.modal_submit({"Nouvelle valeur": "P5 VP3"})
    assert table.rules.points == {"P": 5, "VP": 3, "N": 1, "VL": 0, "L": 0}
    assert (french("✅ Enregistré — Points par rôle : Président 5 · Vice-président 3 · Neutre 1 · "
            "Vice-trou 0 · Trou du cul 0.")) in marie.last_ephemeral().content
    fake.assert_no_errors()


async def test_after_a_restart_the_lobby_message_follows_the_table_where_it_is(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """A restarted bot brings the lobby up to date in its own message rather than posting
    a second one above which the first would be left; its buttons still seat players, below
    a list that follows the table."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url)
    alice = fake.add_user("alice")
    await alice.slash("president create", preset="classic")
    old = table_of(bot, alice).lobby_message_id
    assert old is not None and message(alice, old).buttons
    await fake.disconnect(bot)

    again = await connect_bot(fake, clock, url)
    await tick(fake, clock, 1)
    table = table_of(again, alice)
    assert table.lobby_message_id == old
    assert len([m for m in fake.messages() if not m.ephemeral]) == 1
    await alice.click(message(alice, old), cid(table, "addbot"))
    assert "Bot 1" in message(alice, old).content and len(table.seats) == 2
    await fake.disconnect(again)
    fake.assert_no_errors()


async def test_a_panel_drawn_before_the_groups_still_changes_its_knobs(
    fake: FakeDiscord, president: PresidentBot
) -> None:
    """Panels used to cut the knobs in two halves whose menus' ids ended in 0 and 1. One
    still open on a host's screen works: the pick names its knob, which is all the bot reads,
    and the panel comes back drawn by group."""
    marie, table = await marie_opens_the_settings(fake, president)
    stored = fake.world.messages[marie.last_ephemeral().id]
    for row in stored.components:
        for component in row["components"]:
            for part, group in enumerate(KnobGroup):
                if component.get("custom_id") == f"pz:{table.id}:knob:0:{group.value}":
                    component["custom_id"] = f"pz:{table.id}:knob:0:{part}"
    old = marie.last_ephemeral()
    await marie.select(old, ["reseat_by_rank"], select=f"pz:{table.id}:knob:0:1")
    assert table.rules.reseat_by_rank
    panel = marie.last_ephemeral()
    assert french("✅ Enregistré — Les places suivent le classement : oui.") in panel.content
    assert [s.custom_id for s in panel.selects if ":knob:" in s.custom_id] == \
        [f"pz:{table.id}:knob:0:tricks", f"pz:{table.id}:knob:0:table"]
    fake.assert_no_errors()


async def test_the_single_card_that_wins_any_trick_must_be_a_2(
    fake: FakeDiscord, president: PresidentBot
) -> None:
    """A play-test typed « A♠ »: accepted, it froze the game (the engine plays that card as a
    2). Now it is refused in the host's words and the rules stay as they were."""
    marie, table = await marie_opens_the_settings(fake, president)
    await open_form(marie, "top_single")
    await marie.modal_submit({"Nouvelle valeur": "A♠"})
    assert table.rules.top_single is None
    assert marie.last_ephemeral().content.startswith(
        french("⚠️ Carte seule qui gagne tout pli : écris un 2 comme la table l’affiche"))
    await open_form(marie, "top_single")
    await marie.modal_submit({"Nouvelle valeur": "2♠"})
    assert fresh(table).rules.top_single == Card.parse("2S")
    assert french("✅ Enregistré — Carte seule qui gagne tout pli :") in \
        marie.last_ephemeral().content
    fake.assert_no_errors()



async def test_knobs_the_panel_does_not_offer_are_refused_when_forged(
    fake: FakeDiscord, president: PresidentBot
) -> None:
    """A play-test forged picks of knobs that change nothing under the rules as they are,
    which the panel does not list: presi's jokers (a Spanish deck has none), `on_equal` in
    fast mode, the fast-mode seconds while it is off. They were applied; now they change
    nothing, and the panel is drawn again as the rules are, saying so (play-test 21: such a
    pick comes from a panel drawn before a change); a name that is no knob is refused."""
    marie = fake.add_user("marie", locale="fr")
    table = await create_table(president, marie, "presi")
    await marie.slash("president settings")
    shown = marie.last_ephemeral()
    panel = fake.world.messages[shown.id]
    knobs = next(s for s in shown.selects if ":knob:" in s.custom_id)
    assert "jokers_close" not in [o.value for o in knobs.options]

    async def forge(data: dict[str, object]) -> str:
        fake.hub.start(MESSAGE_COMPONENT, marie.user, marie.channel, data, "forged", panel)
        await fake.settle()
        return marie.last_ephemeral().content

    refused = french("⚠️ « Après une égalité » ne change rien avec les règles de la table")
    presi = table.rules
    await marie.select(shown.id, ["on_equal"], select=knobs.custom_id)  # its values' menu
    values = next(s for s in marie.last_ephemeral().selects if ":value:" in s.custom_id)
    table.rules = fast = presi.replace(fast=True)  # as the host's other panel would
    await marie.select(shown.id, ["none"], select=values.custom_id)
    assert marie.last_ephemeral().content.startswith(refused)
    assert table.rules == fast
    table.rules = presi
    assert (await forge({"custom_id": knobs.custom_id, "component_type": 3,
                         "values": ["jokers_close"]})).startswith(
        french("⚠️ « Les jokers ferment le pli » ne change rien"))
    assert table.rules == presi
    drawn = fake.world.messages[shown.id].content
    for name in ("not_a_knob", ""):  # a name that is no knob is no panel of before: refused
        assert (await forge({"custom_id": knobs.custom_id, "component_type": 3,
                             "values": [name]})).startswith(
            french("⚠️ Ce choix n’est pas proposé par cette commande"))
        assert fake.world.messages[shown.id].content == drawn
    assert table.rules == presi
    fake.hub.start(MODAL_SUBMIT, marie.user, marie.channel,
                   {"custom_id": f"pz:{table.id}:form:0:fast_seconds",
                    "components": [{"type": 18, "component": {"type": 4, "custom_id": "x",
                                                              "value": "20"}}]},
                   "form of a knob not offered", None)
    await fake.settle()
    assert marie.last_ephemeral().content.startswith("⚠️ Ce formulaire a expiré")
    assert table.rules == presi
    fake.assert_no_errors()



@pytest.mark.parametrize(("locale", "reset", "menu", "reset_done", "preset_done"), [
    ("fr", "Revenir au préréglage", "Repartir d’un préréglage…",
     "✅ Enregistré — les règles sont celles du préréglage Président classique.",
     "✅ Enregistré — les règles sont celles du préréglage Presi (jeu espagnol)."),
    ("en", "Reset to preset", "Start from a preset…",
     "✅ Saved — the rules are now those of the Classic Président preset.",
     "✅ Saved — the rules are now those of the Presi (Spanish deck) preset."),
])
async def test_a_reset_or_a_new_preset_says_it_was_saved(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str, reset: str,
    menu: str, reset_done: str, preset_done: str
) -> None:
    """From the play-test: « Revenir au préréglage » and a preset picked redrew the panel
    with no word of what happened, where every other saved setting says « ✅ Enregistré »."""
    host = fake.add_user("hôte", locale=locale)
    table = await create_table(president, host)
    await host.slash("president settings")
    await open_form(host, "turn_seconds")
    await host.modal_submit({"Nouvelle valeur" if locale == "fr" else "New value": "40"})
    assert table.rules.turn_seconds == 40
    await host.click(host.last_ephemeral(), reset)
    assert table.rules == Rules.preset("classic")
    assert host.last_ephemeral().content.splitlines()[0] == reset_done

    await host.select(host.last_ephemeral(), ["presi"], select=menu)
    assert table.rules == Rules.preset("presi")
    assert host.last_ephemeral().content.splitlines()[0] == preset_done
    fake.assert_no_errors()
