import ast
import string
from pathlib import Path
from typing import Literal

from bot.i18n import CATALOGUES, join_names, lang, plural, t
from bot.i18n.en import CATALOGUE as EN
from bot.i18n.fr import CATALOGUE as FR
from engine import Rules
from engine.bots.normal import GIFT_REASONS, SEARCHED
from engine.bots.tactics import REASONS

from .typography import NBSP, NNBSP, faults

BOT = Path(__file__).resolve().parents[2] / "bot"


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_both_catalogues_have_the_same_keys() -> None:
    assert sorted(set(EN) ^ set(FR)) == []


def test_no_catalogue_writes_a_key_twice() -> None:
    """A key written twice in a dict literal keeps its last text without a word: a new
    « hand.closed » for a leaver's hand silently took the place of « Cette table est
    fermée » (docs/bot.md « Play-test 38, leftovers (stop 55) »)."""
    twice = []
    for name in ("en", "fr"):
        tree = ast.parse((BOT / "i18n" / f"{name}.py").read_text(encoding="utf-8"))
        seen: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict):
                for key in node.keys:
                    if isinstance(key, ast.Constant) and isinstance(key.value, str):
                        if key.value in seen:
                            twice.append(f"{name}: {key.value}")
                        seen.add(key.value)
    assert twice == []


def test_both_catalogues_use_the_same_placeholders() -> None:
    mismatched = [k for k in EN if placeholders(EN[k]) != placeholders(FR[k])]
    assert mismatched == []


def test_french_locales_get_french_everyone_else_english() -> None:
    assert lang("fr") == "fr"
    assert lang("fr-CA") == "fr"
    assert lang("en-US") == "en"
    assert lang("de") == "en"
    assert lang(None) == "en"
    assert t("fr", "btn.my_hand") == "Ma main"
    assert t("en-GB", "btn.my_hand") == "My hand"


def test_counts_agree_with_their_noun() -> None:
    assert plural("fr", "n.cards", 1) == "1 carte"
    assert plural("fr", "n.points", 0) == f"0{NBSP}pt"  # French: 0 is singular
    assert plural("en", "n.points", 0) == "0 pts"
    assert plural("fr", "n.games", 2) == "2 parties"
    assert plural("en", "history.winners", 1, names="Ana") == "winner: Ana"


def test_join_names() -> None:
    assert join_names("en", ["Alice", "Bob", "Carol"]) == "Alice, Bob and Carol"
    assert join_names("fr", ["Alice", "Bob"]) == "Alice et Bob"
    assert join_names("fr", ["Alice"]) == "Alice"


def test_command_names_are_valid_discord_names() -> None:
    for catalogue in CATALOGUES.values():
        for key, value in catalogue.items():
            if key.startswith("cmd.") and not key.endswith(".desc"):
                assert value == value.lower() and " " not in value and len(value) <= 32, key
            if key.startswith("cmd.") and key.endswith(".desc"):
                assert 1 <= len(value) <= 100, key


# Keyword arguments through which discord.py sends text to users.
TEXT_KWARGS = {"content", "label", "placeholder", "title", "description", "default"}
TEXT_CALLS = {"send_message", "send", "edit_message", "edit_original_response", "followup"}


def literal_text(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return any(ch.isalpha() for ch in node.value)
    if isinstance(node, ast.JoinedStr):
        return any(
            isinstance(v, ast.Constant) and any(ch.isalpha() for ch in str(v.value))
            for v in node.values
        )
    return False


def test_no_view_or_cog_passes_a_literal_string_to_discord() -> None:
    offenders = []
    for path in (BOT / "packages").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            for kw in node.keywords:
                if kw.arg in TEXT_KWARGS and literal_text(kw.value):
                    offenders.append(f"{path.name}:{node.lineno} {kw.arg}=")
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in TEXT_CALLS and node.args and literal_text(node.args[0]):
                offenders.append(f"{path.name}:{node.lineno} {name}(...)")
    assert offenders == []


def test_the_literal_detector_sees_literals() -> None:
    assert literal_text(ast.parse('"Join the table"', mode="eval").body)
    assert literal_text(ast.parse('f"Hello {name}"', mode="eval").body)
    assert not literal_text(ast.parse('t(locale, "btn.join")', mode="eval").body)
    assert not literal_text(ast.parse('"⚠️ "', mode="eval").body)


def test_every_engine_refusal_has_a_sentence() -> None:
    import re

    engine = BOT.parent / "engine"
    codes = set()
    for path in engine.glob("*.py"):
        codes |= set(re.findall(r'IllegalAction\(\s*"([a-z_]+)"', path.read_text()))
    assert codes
    assert sorted(c for c in codes if f"engine.{c}" not in EN) == []


def test_role_names_follow_the_preset() -> None:
    assert t("fr", "role.classic.L") == "Trou du cul"
    # Play-test 10: each seed names its own vice-last (the seed wins over RULES.md's one set).
    assert t("fr", "role.classic.VL") == "Vice-trou"  # seeds/000 (classic)
    assert t("fr", "role.wild7.VL") == "Vice-trou du cul"  # seeds/004 (wild7)
    assert Rules.preset("wild7").role_names == "wild7"
    assert Rules.preset("classic").role_names == "classic"
    assert t("fr", "role.presi.VL") == "Vice-Culo"
    assert t("fr", "role.proletario.VL") == "Secrétaire"
    assert t("en", "role.proletario.L") == "Proletario"


async def test_command_names_are_translated_for_french_clients() -> None:
    from discord import Locale, app_commands

    from bot.i18n.translator import CatalogueTranslator, ls

    translator = CatalogueTranslator()
    context: app_commands.TranslationContext[
        Literal[app_commands.TranslationContextLocation.other], None] = \
        app_commands.TranslationContext(app_commands.TranslationContextLocation.other, None)
    assert await translator.translate(ls("cmd.create"), Locale.french, context) == "ouvrir"
    assert await translator.translate(ls("cmd.create"), Locale.german, context) is None
    assert ls("cmd.create").message == "create"


def test_embed_titles_are_plain_text() -> None:
    """Discord draws embed titles as typed: markdown there shows as asterisks."""
    for catalogue in CATALOGUES.values():
        for key in ("rules.title", "stats.title", "leaderboard.title", "history.title"):
            assert "**" not in catalogue[key], key


def test_french_punctuation_has_its_space() -> None:
    """« Règles : 5 manches », not "Règles: 5 manches": French puts a space before : ; ! ?"""
    import re

    tight = [k for k, v in FR.items() if re.search(r"\S[:;!?](\s|$)", v)]
    assert tight == []


def test_french_lines_never_break_before_their_punctuation() -> None:
    """On a phone, « Quitter la partie ? » could end a line with « partie » and start the
    next with a lone « ? »: every space French binds to its neighbour (before « : ; ! ? »,
    inside « », between a number and its unit) is a no-break one, and English lines have
    no space there at all."""
    assert {k: faults(v, "fr") for k, v in FR.items() if faults(v, "fr")} == {}
    assert {k: faults(v, "en") for k, v in EN.items() if faults(v, "en")} == {}


def test_french_spacing_binds_punctuation_and_units_but_not_what_is_typed() -> None:
    """`french` turns the written spaces into no-break ones where French binds them, and
    leaves code spans, timestamps, emoji and ordinary words as they are."""
    from bot.i18n.typography import french

    assert french("Quitter ? Ou rien ! a ; b") == \
        f"Quitter{NNBSP}? Ou rien{NNBSP}! a{NNBSP}; b"
    assert french("Pour jouer, `/president rejoindre` : « ou rien ! »") == \
        f"Pour jouer, `/president rejoindre`{NBSP}: «{NNBSP}ou rien{NNBSP}!{NNBSP}»"
    assert french("`a : b ?` <t:{deadline}:R> <:2H:1> https://x") == \
        "`a : b ?` <t:{deadline}:R> <:2H:1> https://x"
    assert french("dans {seconds} s, 30 minutes, {n} pts, {name} sort, 5 manches") == \
        f"dans {{seconds}}{NBSP}s, 30{NBSP}minutes, {{n}}{NBSP}pts, {{name}} sort, 5 manches"


def test_the_spacing_checks_see_each_fault_and_nothing_else() -> None:
    nbsp, thin = NBSP, NNBSP
    for wrong in ("Règles : 5", "Quitter ?", "Ou rien !", "a ; b", "« ta gueule" + thin + "»",
                  "«" + thin + "ta gueule »", "dans 30 s", "{seconds} secondes", "{n} pts",
                  "2 000 cartes", "Règles" + thin + ": 5", "Quitter" + nbsp + "?"):
        assert faults(wrong, "fr"), wrong
    for right in ("Règles" + nbsp + ": {summary}", "Quitter" + thin + "?", "(«" + thin + "ou rien"
                  + thin + "!" + thin + "»)", "<t:{deadline}:R> · <:2H:123> · https://x",
                  "`/president rejoindre : ?`", "dans 30" + nbsp + "s", "{n}" + nbsp + "pts",
                  "5 manches", "{name} sort", "2" + thin + "000 cartes", "3♥ 4♠"):
        assert faults(right, "fr") == [], right
    for wrong in ("Rules : 5", "Leave" + thin + "?", "«" + thin + "ta gueule" + thin + "»"):
        assert faults(wrong, "en"), wrong
    assert faults("Rules: 5 rounds. Leave? «ta gueule» `/president join`", "en") == []


def test_french_spaces_stay_out_of_what_players_type() -> None:
    """Command names and code spans are typed: a no-break space there would make
    `/president règles` something no keyboard types."""
    import re

    assert [k for k, v in FR.items() if k.startswith("cmd.") and not k.endswith(".desc")
            and not re.fullmatch(r"[\w-]+", v)] == []
    spans = [span for v in FR.values() for span in re.findall(r"`[^`]*`", v)]
    assert spans and [s for s in spans if re.search(r"[^\S ]", s)] == []


def test_every_bot_reason_has_a_sentence() -> None:
    """The « Conseil » line names the normal bot's reason: each exists in both catalogues."""
    for reason in (*REASONS, *GIFT_REASONS, SEARCHED):
        for catalogue in (EN, FR):
            assert f"reason.{reason}" in catalogue, reason


def test_the_language_of_a_locale_is_remembered_but_never_goes_stale() -> None:
    """`lang` keeps its answer per locale (it is asked at every `t`): the same answer the
    second time, for strings and `discord.Locale` alike; a locale it cannot keep (not
    hashable) is worked out each time, so a changed value gets its own language; and it
    keeps no more than its bound."""
    from types import SimpleNamespace

    import discord

    from bot import i18n

    for _ in range(2):
        assert lang(discord.Locale.french) == "fr"
        assert lang(discord.Locale.american_english) == "en"
        assert lang("fr-CA") == "fr"
        assert lang(None) == "en"
    mutable = SimpleNamespace(value="fr")
    assert lang(mutable) == "fr"
    mutable.value = "en-GB"
    assert lang(mutable) == "en"
    for n in range(2 * i18n._LANGS_KEPT):
        assert lang(f"fr-x{n}") == "fr"
        assert lang(f"en-x{n}") == "en"
    assert len(i18n._LANGS) <= i18n._LANGS_KEPT


#: French words that give a player a gender (« 1er », « gagnant », « seul l’hôte »,
#: « assis »…): the catalogue says « 1re place », « victoire : Marie », « réservé à l’hôte »,
#: « à la table », so a line about Marie or Jean reads the same. A card or a move may still be
#: « le premier coup » or « joué seul »: only the forms once used about players are listed.
GENDERED_ABOUT_PLAYERS = (
    r"\b\d+er\b",  # « 1er » : « 1re place »
    r"\bgagnante?s?\b",  # « gagnant : Marie » : « victoire : Marie »
    r"\bSeule?s? (l’|les\b)",  # « Seul l’hôte peut » : « C’est réservé à l’hôte »
    r"\bassise?s?\b",  # « 3 assis » : « 3 à la table »
    r"\bprête?s?\b",
    r"\b(le|au|du) (premier|dernier)\b(?! (coup|pli|tour|message))",
    r"\bpremier à\b",  # « premier à 11 points » : « 11 points à atteindre »
    r"\baux derniers\b",  # « aux derniers » : « aux dernières places »
    r"\b(le|au) suivant\b|\bjoueur suivant\b",  # « le suivant passe » : « qui suit passe »
    r"\b(le )?mieux classée?\b",
    r"\b[Nn]ouve(au|aux|lle|lles) (au|aux|à|dans)\b",  # « Nouveau au Président ? »
    # Play-test 10: « Joueurs (3/6) », « au moins 3 joueurs », « un autre joueur », « ceux qui
    # attendent »: « À la table (3/6) », « être au moins 3 à la table », « quelqu’un d’autre »,
    # « les personnes qui attendent ».
    r"\b[Jj]oueurs?\b",
    r"\b[Cc](eux|elui) qui\b",
    r"\b[Cc]hacun\b",  # « chacun ne répond qu’une fois » : « on ne répond qu’une fois »
)


def gendered(text: str) -> list[str]:
    import re

    return [pattern for pattern in GENDERED_ABOUT_PLAYERS if re.search(pattern, text)]


def test_french_lines_do_not_give_players_a_gender() -> None:
    """From the play-test: « gagnant : Marie », « marie sort (1er) », « Seul l’hôte »…"""
    found = {key: gendered(value) for key, value in FR.items() if gendered(value)}
    assert found == {}


def test_the_gender_detector_sees_the_old_lines() -> None:
    for old in ("🏆 **Fin de la partie** · gagnant : {names}", "gagnants : {names}", "1er",
                "Seul l’hôte (<@{host}>) peut faire cela.", "({count} assis)",
                "Le premier à {points} gagne", "premier à {n} points", "le dernier",
                "d’abord aux derniers", "après une égalité, le suivant joue la même valeur",
                "une égalité fait sauter le joueur suivant", "puis le mieux classé",
                "📜 Nouveau au Président ?", "Nouvelle à cette table", "Joueurs (3/6) :",
                "Il faut au moins {min} joueurs pour lancer", "montré à un autre joueur",
                "et ceux qui attendent la prochaine partie"):
        assert gendered(old), old
    for fine in ("le premier coup reçu l’emporte", "Un joker se joue seul.",
                 "1re place", "victoire partagée : {names}", "la dernière place",
                 "Nouvelle valeur pour {knob}…", "🤖 Nouveaux bots : {level}",
                 "À la table (3/6) :", "montré à quelqu’un d’autre", "les personnes qui attendent",
                 "Il faut être au moins {min} à la table pour lancer, bots compris"):
        assert gendered(fine) == [], fine


def test_places_read_as_places_whatever_the_player() -> None:
    """« marie sort (1re place) », « a fini (3e place) »: the place agrees with « place »."""
    from bot.packages.game.lines import place

    assert [place("fr", n) for n in (1, 2, 3, 7)] == \
        ["1re place", "2e place", "3e place", "7e place"]
    assert t("fr", "ev.out", name="marie", place=place("fr", 1)) == "marie sort (1re place)"
    assert t("fr", "ev.penalised", name="marie", rank="un 2", place=place("fr", 3)) == \
        f"marie a fini sur un 2{NBSP}: 3e place"
    assert [place("en", n) for n in (1, 2, 3, 7)] == ["1st", "2nd", "3rd", "7th"]


def test_english_lines_write_one_apostrophe() -> None:
    """From play-test 6: the lobby read "this table’s rules" under "Only the host's…" lines:
    English lines write the straight apostrophe, as the rest of the catalogue does."""
    assert [key for key, value in EN.items() if "’" in value] == []


def markup(text: str) -> tuple[int, int, list[str], bool]:
    """What a line shows besides its words: bold and code spans, its emoji and symbols
    (« 🂠 », « ♠ », « → »), and whether it ends a sentence."""
    import re

    symbols = re.findall(r"[^\w\s.,;:!?'’«»“”()\[\]{}\-–—…/`*<>@#=+%&|·]", text)
    return text.count("**"), text.count("`"), sorted(symbols), text.rstrip().endswith(".")


def test_both_catalogues_show_the_same_markup() -> None:
    """Beyond keys and placeholders: a line bold, in code, with its emoji and its full stop in
    one language is so in the other, so a mixed table's French and English screens look alike."""
    assert [k for k in EN if markup(EN[k]) != markup(FR[k])] == []
    assert markup("⚠️ **Lancer** `/president lancer`.") != markup("⚠️ Start /president start")


#: Turns the proofreading took out of the French lines, each as it generalises: written
#: again, in another line, they would read as clumsy to a French player as they did there.
CLUMSY_FRENCH = (
    r"\bplutôt que (?!de\b|d’)\w+er\b",  # « plutôt que passer » : « plutôt que de passer »
    r"\bd’avant\b",  # « la manche d’avant » : « la manche précédente »
    r"\*\*, ou \*\*[^*]+\*\*[ .]",  # « **Rejouer**, ou **Terminer** » : no comma before « ou »
    r"\w, ou \w+$",  # « Français, anglais, ou automatique »
    # « pas de tours, il ne va pas »: a comma splice (not after « ensuite, », « sinon, »)
    r"(?<!ensuite)(?<!sinon), (il|elle|ce|cela) (\w+ )?(ne\b|n’)",
    r"\bensuite (?!,)\w",  # « ensuite il ne reste » : « ensuite, il ne restera »
    r"\bquand une se\b",  # « quand une se libère » : « quand il s’en libère une »
    r"\bespagnol \d",  # « espagnol 48 cartes » : « espagnol de 48 cartes »
    r"\b(table|partie) a bougé\b",  # « La table a bougé » : « La partie a avancé »
    r"Appuie sur \*\*\w+\*\*\.$",  # « Appuie sur **Reprendre**. » : and then what?
    r"^Pour toi, la règle\b",  # « Pour toi, la règle donne » : « La règle te fait donner »
    r"\bcelles-ci\s:",  # « aussi fortes que celles-ci : » : « aussi fortes : »
)


def clumsy(text: str) -> list[str]:
    import re

    return [pattern for pattern in CLUMSY_FRENCH if re.search(pattern, text)]


def test_french_lines_avoid_the_turns_proofreading_took_out() -> None:
    assert {key: clumsy(value) for key, value in FR.items() if clumsy(value)} == {}


def test_the_clumsy_turn_detector_sees_the_old_lines() -> None:
    for old in ("pas de réponse moins chère : une carte forte plutôt que passer",
                "{role} de la manche d’avant : {name} ouvre",
                "L’hôte, {host}, choisit : **Manche suivante**, ou **Terminer**.",
                "Français, anglais, ou automatique",
                "{knob} : le mode rapide n’a pas de tours, il ne va pas avec une fin de pli",
                "{knob} : les 7 ne peuvent pas remplacer, ce paquet n’a pas de 7.",
                "à ta place ; ensuite il ne reste plus assez de joueurs",
                "tu prends une place à ton tour quand une se libère", "espagnol 48 cartes",
                "La table a bougé depuis cet affichage",
                "🤖 Le pilote automatique joue pour toi. Appuie sur **Reprendre**.",
                "Pour toi, la règle donne {cards} à **{name}**",
                "Tu as d’autres cartes aussi fortes que celles-ci : choisis"):
        assert clumsy(old), old
    for fine in ("plutôt que de passer", "la manche précédente", "**Rejouer** ou **Terminer**",
                 "**Rejouer** fait entrer qui attend, tant qu’il reste de la place, ou "
                 "**Terminer** pour revenir", "rejoins-la, ou son hôte la ferme",
                 "ensuite, il ne restera plus", "espagnol de 48 cartes",
                 "Appuie sur **Reprendre** pour jouer toi-même.",
                 "La règle te fait donner {cards} à **{name}**", "sinon, ce sont celles-ci."):
        assert clumsy(fine) == [], fine


def test_english_lines_avoid_the_turns_proofreading_took_out() -> None:
    """Play-test 10: English that read as translated: « take a seat in your turn » (« à ton
    tour »), « you join them in the lobby » (them: nobody named), « **Next round**, or **End
    game** » (a comma before the « or » of two)."""
    import re

    clumsy_english = (r"\bin your turn\b", r"\bjoin them\b", r"\*\*, or \*\*[^*]+\*\*\.$")
    for old in ("take a seat in your turn as one frees up", "you join them in the lobby.",
                "chooses: **Next round**, or **End game**."):
        assert any(re.search(p, old) for p in clumsy_english), old
    assert {key: value for key, value in EN.items()
            if any(re.search(p, value) for p in clumsy_english)} == {}
