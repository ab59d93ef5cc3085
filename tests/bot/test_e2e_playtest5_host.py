"""End-to-end: play-test 5, the host tuning a table's settings and rules before playing."""

import re

import discord
import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.i18n.typography import french
from bot.packages.settings.views import knob_form, typed_value
from engine import Phase, Rules
from engine.cards import TWO
from fakediscord import FakeDiscord, Message, TestUser

from .conftest import LinkedClock
from .e2e import cid, create_table, host_against_bots, let_timers_play, message, tick


async def open_form(user: TestUser, knob: str) -> None:
    """From the host's settings panel, pick a typed knob: its form opens."""
    panel = user.last_ephemeral()
    menu = next(s for s in panel.selects if any(o.value == knob for o in s.options))
    await user.select(panel, [knob], select=menu.custom_id)


async def test_the_waiting_players_never_sit_beyond_the_seats_back_in_the_lobby(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """From the play-test: three players came to a full proletario game and waited; when the
    host ended the finished game, the lobby seated all seven (« Joueurs (7/4) »), the next
    game was dealt to seven seats, and every change of settings was refused (« 7 joueurs
    sont assis : plus que 4 »). The seats stay four; the others keep waiting."""
    users = [fake.add_user(f"joueur{i}", locale="fr") for i in range(7)]
    host = users[0]
    table = await create_table(president, host, "proletario")
    await president.service.set_rules(table, host.id, table.rules.replace(game_end="rounds:1"))
    lobby = message(host, table.lobby_message_id)
    for user in users[1:4]:
        await user.click(lobby, cid(table, "join"))
    await host.click(lobby, cid(table, "start"))
    for user in users[4:]:
        await user.slash("president join")
    game = table.game
    assert game is not None
    await let_timers_play(fake, clock, game, Phase.GAME_OVER)
    await tick(fake, clock, 1)
    await host.click(message(host, table.table_message_id), cid(table, "end", game.version))
    await tick(fake, clock, 1)
    shown = message(host, table.lobby_message_id).content
    assert french("À la table (4/4) :") in shown
    assert french("En attente d’une place : joueur4, joueur5 et joueur6") in shown
    await host.slash("president settings")
    await open_form(host, "turn_seconds")
    await host.modal_submit({"Nouvelle valeur": "20"})
    assert host.last_ephemeral().content.startswith(
        french("✅ Enregistré — Secondes par tour : 20."))
    await host.click(message(host, table.lobby_message_id), cid(table, "start"))
    assert table.game is not None and table.game.seats == 4
    fake.assert_no_errors()


async def test_a_player_waiting_in_the_lobby_sits_when_a_seat_frees_or_is_added(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """From the play-test: a fifth player waited at a full proletario lobby; the host raised
    the maximum to 5 and the lobby showed « Joueurs (4/5) » with them still waiting, then
    « Lancer » gave the free seat to a bot. A seat that frees or is added in the lobby goes
    to the first who waits."""
    users = [fake.add_user(f"joueur{i}", locale="fr") for i in range(6)]
    host = users[0]
    table = await create_table(president, host, "proletario")
    lobby = message(host, table.lobby_message_id)
    for user in users[1:6]:
        await user.click(lobby, cid(table, "join"))
    assert [p.name for p in table.queue] == ["joueur4", "joueur5"]
    await host.slash("president settings")
    await open_form(host, "max_players")
    await host.modal_submit({"Nouvelle valeur": "5"})
    await tick(fake, clock, 1)
    shown = message(host, table.lobby_message_id).content
    assert french("À la table (5/5) :") in shown and "5. **joueur4**" in shown
    assert french("En attente d’une place : joueur5") in shown
    await users[1].click(message(users[1], table.lobby_message_id), cid(table, "leave"))
    assert [p.name for p in table.seats][-1] == "joueur5" and table.queue == []
    await host.click(message(host, table.lobby_message_id), cid(table, "start"))
    assert table.game is not None
    assert [p.is_bot for p in table.seats] == [False] * 5  # no bot took a waiting player's seat
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", ["fr", "en"])
async def test_the_form_of_the_card_that_wins_any_trick_suggests_only_2s_in_full(
    fake: FakeDiscord, president: PresidentBot, locale: str
) -> None:
    """From the play-test: the form's hint for « Carte seule qui gagne tout pli » suggested
    « D♥ » and « QH », which the form then refused (only a 2 may win any trick), and at 126
    characters it was cut at Discord's 100, mid-word (« « QH » : Dam »)."""
    host = fake.add_user("hôte", locale=locale)
    table = await create_table(president, host, "presi")
    form = knob_form(table, "top_single", locale)
    label = next(item for item in form.children if isinstance(item, discord.ui.Label))
    hint = t(locale, "settings.hint.card.spanish")  # presi's deck: its own examples
    assert label.description == hint and len(hint) <= 100
    examples = re.findall(r"[«“]\s?([^»”]+?)\s?[»”]", hint)
    assert len(examples) == 4
    for typed in examples[:-1]:
        card = typed_value("top_single", typed, rules=table.rules)
        assert card is not None and card.value == TWO, typed
    assert typed_value("top_single", examples[-1], rules=table.rules) is None  # « aucune »


async def test_presi_against_bots_keeps_to_the_hosts_maximum(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """From the play-test: a presi host set 2 players at most, then « Lancer contre des
    bots » seated two bots and dealt a game of three."""
    host = fake.add_user("marie", locale="fr")
    table = await create_table(president, host, "presi")
    await president.service.set_rules(table, host.id,
                                      table.rules.replace(min_players=2, max_players=2))
    await tick(fake, clock, 1)
    await host.click(message(host, table.lobby_message_id), cid(table, "vsbots"))
    assert table.game is not None and table.game.seats == 2
    assert [p.name for p in table.seats] == ["marie", "Bot 1"]
    fake.assert_no_errors()


def offered(panel: Message) -> list[str]:
    """Every knob the panel's menus offer."""
    return [o.value for s in panel.selects if ":knob:" in s.custom_id for o in s.options]


async def test_knobs_that_change_nothing_in_fast_mode_or_one_lap_are_not_offered(
    fake: FakeDiscord, president: PresidentBot
) -> None:
    """From the play-test: in fast mode the panel still offered « Temps écoulé » (its one
    timer closes the trick or opens, whatever the knob says) and « Passer exclut du pli »
    (a pass always lasts the trick there), as proletario's one lap offered the latter (each
    player has one chance anyway): controls that changed nothing."""
    marie = fake.add_user("marie", locale="fr")
    table = await create_table(president, marie)
    await marie.slash("president settings")
    assert {"timeout_action", "pass_is_final"} <= set(offered(marie.last_ephemeral()))
    panel = marie.last_ephemeral()
    menu = next(s for s in panel.selects if any(o.value == "fast" for o in s.options))
    await marie.select(panel, ["fast"], select=menu.custom_id)
    assert table.rules.fast
    panel = marie.last_ephemeral()
    assert not {"timeout_action", "pass_is_final"} & set(offered(panel))
    summary = panel.embeds[0].description or ""
    assert "Temps écoulé" not in summary and "Passer exclut du pli" not in summary
    await president.service.set_rules(table, marie.id, Rules.preset("proletario"))
    await marie.slash("president settings")
    assert "pass_is_final" not in offered(marie.last_ephemeral())
    assert "timeout_action" in offered(marie.last_ephemeral())
    fake.assert_no_errors()


@pytest.mark.parametrize(("locale", "finished", "settings"), [
    ("fr", french("La partie est finie : **Terminer** ramène la table au salon d’attente, où les "
     "règles se changent ; **Rejouer** garde les mêmes."), "⚙️ **Réglages**"),
    ("en", "The game is over: **End game** takes the table back to the lobby, where the "
     "rules can be changed; **Replay** keeps the same ones.", "⚙️ **Settings**"),
])
async def test_settings_after_a_finished_game_say_how_to_change_the_rules(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock, locale: str,
    finished: str, settings: str
) -> None:
    """From the play-test: at the end of a game, the host who wanted other rules for the next
    one was told « Les règles sont figées une fois la partie lancée » — of a game that was
    over, with no word of the way back to the lobby where they change."""
    host = fake.add_user("hôte", locale=locale)
    table = await host_against_bots(instant, host, "classic", 2, game_end="rounds:1")
    game = table.game
    assert game is not None
    await host.slash("president settings")
    assert host.last_ephemeral().content.endswith(t(locale, "err.settings_locked"))
    await let_timers_play(fake, clock, game, Phase.GAME_OVER)
    await tick(fake, clock, 1)
    await host.slash("president settings")
    assert host.last_ephemeral().content.endswith(finished)
    await host.click(message(host, table.table_message_id), cid(table, "end", game.version))
    await host.slash("president settings")
    assert host.last_ephemeral().content.startswith(settings)
    fake.assert_no_errors()


@pytest.mark.parametrize(("locale", "refusal"), [
    ("fr", french("⚠️ 7 places sont occupées, et ces règles en permettent 6 au plus : "
                  "retire d’abord des personnes ou des bots ; rien n’a changé.")),
    ("en", "⚠️ 7 players are seated, and these rules allow 6 at most: remove players or bots "
     "first; nothing changed."),
])
async def test_too_many_seated_for_new_rules_says_what_to_do(
    fake: FakeDiscord, president: PresidentBot, locale: str, refusal: str
) -> None:
    """From the play-test: a host of five who picked proletario (4 seats) read « 5 joueurs
    sont assis : plus que 4. », which in French reads as « only 4 left », and nothing said
    what to do. Rules with a queue take the extra players in it since play-test 14 (the
    host's bots go first): the refusal is for rules without one, classic's six seats from
    a wild7 lobby of seven."""
    host = fake.add_user("hôte", locale=locale)
    table = await create_table(president, host, "wild7")
    lobby = message(host, table.lobby_message_id)
    for _ in range(6):
        await host.click(lobby, cid(table, "addbot"))
    await host.slash("president settings")
    panel = host.last_ephemeral()
    presets = next(s for s in panel.selects if ":preset:" in s.custom_id)
    await host.select(panel, ["classic"], select=presets.custom_id)
    assert host.last_ephemeral().content.splitlines()[0] == refusal
    assert table.rules.preset_id == "wild7"
    panel = host.last_ephemeral()
    presets = next(s for s in panel.selects if ":preset:" in s.custom_id)
    await host.select(panel, ["proletario"], select=presets.custom_id)
    assert table.rules.preset_id == "proletario"
    assert len(table.seats) == 4 and table.seats[0].user_id == host.id and not table.queue
    fake.assert_no_errors()


async def pick_value(user: TestUser, knob: str, value: str) -> str:
    """From the host's settings panel, set a choice knob; the first line of the answer."""
    panel = user.last_ephemeral()
    menu = next(s for s in panel.selects if any(o.value == knob for o in s.options))
    await user.select(panel, [knob], select=menu.custom_id)
    panel = user.last_ephemeral()
    values = next(s for s in panel.selects if ":value:" in s.custom_id)
    await user.select(panel, [value], select=values.custom_id)
    return user.last_ephemeral().content.splitlines()[0]


async def test_a_presi_host_moving_to_a_french_deck_is_told_each_knob_to_set_first(
    fake: FakeDiscord, president: PresidentBot
) -> None:
    """From the play-test: a presi host who picked the 52-card deck read « la carte seule qui
    gagne tout pli n'est pas dans ce paquet », then « le 3 de deniers n'est que dans les
    paquets espagnols ; la première manche s'ouvre alors à la Dame de cœur ou au hasard » —
    and the queen was refused in turn, the deck still Spanish. Each refusal now names the
    knob to set first and the value that works; following them gets the host there."""
    marie = fake.add_user("marie", locale="fr")
    table = await create_table(president, marie, "presi")
    await marie.slash("president settings")
    before = table.rules
    assert await pick_value(marie, "deck", "french52") == (
        french("⚠️ Paquet : la carte seule qui gagne tout pli n’est pas dans ce paquet ; règle "
        "d’abord « Carte seule qui gagne tout pli » sur « aucune », puis choisis un 2 du "
        "nouveau paquet si tu veux."))
    assert table.rules == before
    await open_form(marie, "top_single")
    await marie.modal_submit({"Nouvelle valeur": "aucune"})
    assert await pick_value(marie, "deck", "french52") == (
        french("⚠️ Paquet : la première manche s’ouvre au 3 de deniers, qui n’est que dans les "
        "paquets espagnols ; règle d’abord « Ouvre la première manche » sur « au hasard »."))
    assert await pick_value(marie, "first_opener", "random") == (
        french("✅ Enregistré — Ouvre la première manche : au hasard."))
    assert await pick_value(marie, "deck", "french52") == \
        french("✅ Enregistré — Paquet : 52 cartes.")
    assert await pick_value(marie, "first_opener", "queen_of_hearts") == (
        french("✅ Enregistré — Ouvre la première manche : Dame de cœur."))
    await open_form(marie, "top_single")
    await marie.modal_submit({"Nouvelle valeur": "2🪙"})
    assert marie.last_ephemeral().content.splitlines()[0] == (
        french("⚠️ Carte seule qui gagne tout pli : cette carte n’est pas dans le paquet de la "
        "table ; choisis un 2 de ce paquet, ou « aucune »."))
    await open_form(marie, "top_single")
    await marie.modal_submit({"Nouvelle valeur": "2♥"})
    assert (table.rules.deck, table.rules.first_opener, str(table.rules.top_single)) == (
        "french52", "queen_of_hearts", "2H")
    fake.assert_no_errors()


async def test_a_target_no_role_scores_toward_is_refused(
    fake: FakeDiscord, president: PresidentBot
) -> None:
    """From the play-test: a presi host who set every role's points to 0 kept « premier à 11
    points »: the game could never end, and stopped by hand it had no winner. Either knob
    that would make the target unreachable is refused and changes nothing."""
    alice = fake.add_user("alice")
    table = await create_table(president, alice, "presi")
    await alice.slash("president settings")
    await open_form(alice, "points")
    await alice.modal_submit({"New value": "P0 VP0"})
    assert alice.last_ephemeral().content.splitlines()[0] == (
        "⚠️ Points per role: with these points a round can end with nobody scoring, and the "
        "target might never be reached. Give the President points, for example, or end the "
        "game after a number of rounds.")
    assert table.rules.points["P"] == 2
    await open_form(alice, "game_end")
    await alice.modal_submit({"New value": "5 rounds"})
    await open_form(alice, "points")
    await alice.modal_submit({"New value": "P0 VP0"})
    assert alice.last_ephemeral().content.startswith("✅ Saved — Points per role: President 0")
    await open_form(alice, "game_end")
    await alice.modal_submit({"New value": "11 points"})
    assert alice.last_ephemeral().content.startswith("⚠️ End of the game: with these points")
    assert str(table.rules.game_end) == "rounds:5"
    # only the Neutral scores: fine at three seats, not once four (with no Neutral) may play
    await president.service.set_rules(table, alice.id, table.rules.replace(
        points="P0 VP0 N1", vp_at_three=False, max_players=3, game_end="target:5"))
    await open_form(alice, "max_players")
    await alice.modal_submit({"New value": "4"})
    assert alice.last_ephemeral().content.startswith("⚠️ Maximum players: with these points")
    assert table.rules.max_players == 3
    fake.assert_no_errors()


@pytest.mark.parametrize(("locale", "closes"), [
    ("fr", "✋ Le pli se ferme quand tout le reste de la table a passé, sur un 2 ou sur quatre cartes "
     "de même valeur d’affilée."),
    ("en", "✋ A trick closes when everyone else has passed, on a 2 or on four cards of one "
     "value in a row."),
])
async def test_rules_without_revolution_speak_of_no_3_that_closes(
    fake: FakeDiscord, president: PresidentBot, locale: str, closes: str
) -> None:
    """From the play-test: a classic host turned the revolution off, and /president rules
    still said the trick closes « sur la meilleure carte (le 2 ; le 3 en révolution) »."""
    host = fake.add_user("hôte", locale=locale)
    table = await create_table(president, host)
    await president.service.set_rules(table, host.id, table.rules.replace(revolution=False))
    await host.slash("president rules")
    page = host.last_ephemeral().embeds[0].description or ""
    assert closes in page.splitlines()
    assert "le 3 en révolution" not in page and "the 3 in a revolution" not in page
    fake.assert_no_errors()


@pytest.mark.parametrize(("locale", "saved"), [
    ("fr", [french("✅ Enregistré — Des bots complètent la table : oui."),
            french("✅ Enregistré — Les cartes en plus vont : aux rôles du haut.")]),
    ("en", ["✅ Saved — Bots fill empty seats: on.",
            "✅ Saved — Extra cards go: to the top roles."]),
])
async def test_a_saved_setting_reads_as_a_sentence_whatever_its_label(
    fake: FakeDiscord, president: PresidentBot, locale: str, saved: list[str]
) -> None:
    """From the play-test: the confirmation glued the knob's label to « vaut maintenant »,
    which many labels cannot take: « Des bots complètent la table vaut maintenant oui »,
    « Les cartes en plus vont vaut maintenant aux rôles du haut », "Extra cards go is now to
    the top roles". It says the label and the value as the panel's summary does."""
    host = fake.add_user("hôte", locale=locale)
    await create_table(president, host)
    await host.slash("president settings")
    panel = host.last_ephemeral()
    menu = next(s for s in panel.selects if any(o.value == "bots_fill" for o in s.options))
    await host.select(panel, ["bots_fill"], select=menu.custom_id)
    assert host.last_ephemeral().content.splitlines()[0] == saved[0]
    assert await pick_value(host, "deal_extras", "to_top") == saved[1]
    fake.assert_no_errors()
