"""The host's settings panel: every knob of RULES.md, starting from the chosen preset.

Yes/no knobs toggle on pick, choice knobs open a select of their values, numbers and other
typed values open a form. Typed answers are read in the host's words (« 5 manches »,
« jamais »); the engine validates every change (`Rules.replace`). A refused value leaves the
rules as they were and says why, in the host's language, on top of the panel.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.graphemes import cut
from bot.i18n import CATALOGUES, LocaleLike, has, join_names, plural, t
from bot.i18n.cards import rank_short, short
from bot.languages import own_locale
from bot.packages.controls import (
    WARNING,
    Click,
    Drawn,
    action,
    button,
    custom_id,
    refusal_text,
    select,
    view,
)
from bot.packages.rules_text import (
    full,
    group_name,
    knob_label,
    knob_value,
    knobs_by_group,
    preset_name,
    role_name,
    table_preset_name,
)
from bot.packages.saving import redraw, saved, tell
from bot.packages.screen import EMBED_DESCRIPTION, Screen
from bot.packages.text import clipped, shown_text
from bot.tables.breaks import OWN_COOLDOWN_SECONDS
from bot.tables.deadlines import OWN_PAUSE_SECONDS, PAUSE_LIMIT_SECONDS
from bot.tables.players import Player
from bot.tables.seats import most_vs_bots
from bot.tables.service import TableError, settings_open
from bot.tables.table import Table
from engine import KNOBS, PRESETS, Card, Deck, GameEnd, Rules, RulesError
from engine.bots import LEVELS
from engine.rules import ROLE_CODES

if TYPE_CHECKING:
    from bot.packages.host import Host

    Interaction = discord.Interaction[Host]

# What a host may type for "no value", in either language: the panel's own words for it
# included (« pas de bouton »), so a value reads back as it is shown.
NOTHING = {text[key].lower() for text in CATALOGUES.values() for key in text
           if key in ("none", "never") or (key.startswith("knob.") and key.endswith(".none"))
           } | {"aucun"}  # as many hosts say « no card » (the panel's word is « aucune »)
# Suits in words, in either language and the Spanish names themselves, per deck: ♣ is the
# engine's "C", which in a Spanish deck means copas, so a suit is read in the table's deck.
SUIT_WORDS: dict[bool, dict[str, tuple[str, ...]]] = {
    False: {"S": ("pique", "piques", "spade", "spades"),
            "H": ("cœur", "coeur", "cœurs", "coeurs", "heart", "hearts"),
            "D": ("carreau", "carreaux", "diamond", "diamonds"),
            "C": ("trèfle", "trefle", "trèfles", "trefles", "club", "clubs")},
    True: {"O": ("denier", "deniers", "oro", "oros", "coin", "coins"),
           "C": ("coupe", "coupes", "copa", "copas", "cup", "cups"),
           "E": ("épée", "epee", "épées", "epees", "espada", "espadas", "sword", "swords"),
           "B": ("bâton", "baton", "bâtons", "batons", "basto", "bastos", "club", "clubs")},
}


def without_variation(text: str) -> str:
    """Text without emoji variation selectors: Discord's emoji picker and phone keyboards
    type « ♥️ » (U+2665 U+FE0F) where the table writes « ♥ », and the table's own « ⚔️ »
    carries one that a typed « ⚔ » lacks."""
    return text.replace("\ufe0f", "").replace("\ufe0e", "")


@functools.cache
def shown_cards(deck: Deck) -> dict[str, str]:
    """Every card of `deck` as a host may type it, read as the engine's code (« QH »,
    « 2O »): as the screens write it in either language (« D♥ », "Q♥", « 2🪙 »), what a
    host copies from the table, and in words (« 2 de deniers », "2 of spades")."""
    found: dict[str, str] = {}
    for card in deck.cards():
        for locale in CATALOGUES:
            found[without_variation(short(locale, card, deck.spanish).lower())] = card.text
            if card.is_joker:
                continue
            for rank in {card.rank.lower(), rank_short(locale, card.rank, deck.spanish).lower()}:
                for word in SUIT_WORDS[deck.spanish][card.suit]:
                    for joint in (" de ", " d’", " d'", " of ", " "):
                        found[f"{rank}{joint}{word}"] = card.text
    return found


def settings_screen(table: Table, locale: LocaleLike, *, focus: str = "", notice: str = "") -> Screen:
    rules = table.rules
    lines = [notice] if notice else []
    lines.append(t(locale, "settings.title", preset=table_preset_name(locale, rules)))
    # Beside the timers' settings, how they stop for a break (`bot.tables.breaks`), which
    # the host wants to know before the pizza arrives (play-test 29). Not on the rules
    # page: French proletario's fills Discord's 2,000 characters but for 27.
    lines.append(t(locale, "settings.pause", minutes=PAUSE_LIMIT_SECONDS // 60,
                   own=OWN_PAUSE_SECONDS // 60, cooldown=OWN_COOLDOWN_SECONDS // 60))
    embed_text = "\n".join(full(locale, rules))
    # The buttons come first, on the top row: a value menu appearing below never moves them
    # (a sandbox player picks controls by number). Table settings beside the rules share
    # their row; the menus take one row each, in order.
    items: list[discord.ui.Item[Any]] = [
        button(table.id, "reset", t(locale, "settings.reset"), row=0),
        button(table.id, "bot_level", t(locale, "settings.bot_level",
                                        level=t(locale, f"level.{table.bot_level}")), row=0),
        button(table.id, "hints", t(locale, "settings.hints",
                                    state=t(locale, "yes" if table.hints else "no")), row=0),
        button(table.id, "reminders", t(locale, "settings.reminders", state=t(
            locale, "yes" if table.reminders else "no")), row=0),
        button(table.id, "done", t(locale, "settings.done"),
               style=discord.ButtonStyle.success, row=0),
        select(table.id, "preset", t(locale, "settings.pick_preset"),
               [discord.SelectOption(label=preset_name(locale, p), value=p,
                                     default=p == rules.preset_id) for p in PRESETS]),
    ]
    # One menu per group, never a knob that changes nothing: a knob stays in its menu and
    # its place whatever the preset, as in the summary above.
    for group, names in knobs_by_group(rules):
        options = [discord.SelectOption(
            label=cut(knob_label(locale, name), 100), value=name,
            description=knob_description(locale, name, rules),
            default=name == focus) for name in names]
        items.append(select(table.id, "knob", t(locale, "settings.pick_knob",
                                                group=group_name(locale, group)),
                            options, arg=group.value))
    if focus and KNOBS[focus].kind == "choice":
        current = getattr(rules, focus)
        items.append(select(
            table.id, "value", t(locale, "settings.pick_value", knob=knob_label(locale, focus)),
            [discord.SelectOption(label=cut(knob_value(locale, focus, c, rules), 100), value=c,
                                  description=choice_help(locale, focus, c),
                                  default=c == current) for c in KNOBS[focus].choices],
            arg=focus))
    screen = Screen("\n".join(lines), view(*items))
    screen.embed = discord.Embed(description=cut(embed_text, EMBED_DESCRIPTION))
    return screen


def knob_description(locale: LocaleLike, name: str, rules: Rules) -> str:
    """A knob's line under its name in the menu: its value, then what it does where the
    name alone does not say it (« Seats follow the ranking »: which seats? play-test 14),
    else what the value does (« picked by hand »: among cards of equal value). Discord shows
    at most 100 characters there; each fits whole (`tests/bot/test_e2e_playtest14_words.py`)."""
    current = getattr(rules, name)
    value = knob_value(locale, name, current, rules)
    key = f"knob.{name}.help"
    if has(key):
        return cut(t(locale, "settings.knob_help", value=value, help=t(locale, key)), 100)
    help_ = choice_help(locale, name, current) if KNOBS[name].kind == "choice" else None
    if help_ is None:
        return cut(value, 100)
    return cut(t(locale, "settings.knob_help", value=value, help=help_), 100)


def choice_help(locale: LocaleLike, name: str, choice: str) -> str | None:
    """What a choice does, under it in the value menu, where its words alone do not say it
    (to whom « the last places first » go, and from when)."""
    key = f"knob.{name}.{choice}.help"
    return cut(t(locale, key), 100) if has(key) else None


async def open_settings(interaction: Interaction, table: Table) -> None:
    """Host only, before the start: the panel as an ephemeral message. A seated player may
    take the role over from a silent host here too, as with every host action
    (`hosting.claim`; play-test 13's co-host could through « Add bot », not here).

    Settings fixed until the lobby are said so first, to anyone: a player told only the
    host may, and that they could take the role over in ten minutes, would then have been
    refused as too late (play-test 43's bob), as a late host button is said late whoever
    clicks it (`refusals.late_host_button`)."""
    await interaction.client.service.open_settings(table, interaction.user.id)
    if not await saved(interaction, table, new_message=True):  # the host it names, saved
        return
    screen = settings_screen(table, own_locale(interaction))
    await tell(interaction, **screen.kwargs())


def refused_rules(locale: LocaleLike, err: RulesError, changed: str = "") -> str:
    """Why the engine refused a rule set, in the host's words: the rules that conflict,
    named by the one the host `changed` when it is one of them. A conflict may have a
    sentence for each knob changed: a new deck under a card of the old one says which knob
    to set first (its `other`), and to what, for a way out in one step."""
    knob = changed if changed in err.involved else err.knob
    label = knob_label(locale, knob) if knob in KNOBS else knob
    if err.conflict is not None:
        key = f"rules.conflict.{err.conflict}"
        other = next((k for k in err.involved if k != knob), knob)
        return t(locale, f"{key}.{knob}" if has(f"{key}.{knob}") else key, knob=label,
                 other=knob_label(locale, other))
    return t(locale, "err.setting_invalid", knob=label, detail=shown_text(str(err)))


# What a refusal of a new deck tells the host to set first, by conflict: the knob and the
# value that leave the way open. The engine names one clash at a time.
WAYS_OUT: dict[str, tuple[str, object]] = {
    "top_single_deck": ("top_single", None),
    "queen_not_spanish": ("first_opener", "random"),
    "oros_not_french": ("first_opener", "random"),
}


def every_clash(rules: Rules, err: RulesError, changed: str, value: object) -> list[RulesError]:
    """`err`, and every other clash `changed` set to `value` meets: a presi table taking a
    French deck clashes with its 2 of oros and with its 3 of oros opening the first round,
    and the engine names only the first, so the host who set the card to « aucune » as told
    was then refused again for the opener. Each way out of :data:`WAYS_OUT` is tried in
    turn, so the refusal names every knob to set first."""
    found = [err]
    overrides: dict[str, object] = {changed: value}
    while (way_out := WAYS_OUT.get(found[-1].conflict or "")) is not None \
            and changed in found[-1].involved and way_out[0] not in overrides:
        overrides[way_out[0]] = way_out[1]
        try:
            rules.replace(**overrides)
        except RulesError as clash:
            found.append(clash)
        else:
            break
    return found


def role_codes(locale: LocaleLike, rules: Rules) -> str:
    """"P = Président, VP = Vice-président, …" with the table's role names."""
    return ", ".join(t(locale, "settings.role_code", code=code,
                       role=role_name(locale, rules, code))
                     for code in ROLE_CODES)


def bad_input(locale: LocaleLike, knob: str, rules: Rules) -> str:
    """What to type for this knob, after an answer it could not read or this table cannot
    take (its own sentence where it has one: the bots' count says the seats)."""
    spec = KNOBS[knob]
    key = f"settings.bad.{knob}" if has(f"settings.bad.{knob}") else \
        deck_key(f"settings.bad.{spec.kind}", spec.kind, rules)
    return t(locale, key, knob=knob_label(locale, knob), none=nothing_word(locale, knob),
             min=spec.min, max=most(knob, rules), seats=rules.max_players,
             roles=role_codes(locale, rules))


def most(knob: str, rules: Rules) -> int | None:
    """The largest number a host may type for this knob at this table: the knob's own, save
    the bots' count, which the table's seats bound (« 9 » at a table of 6 was saved, and
    the button then seated 5)."""
    return most_vs_bots(rules) if knob == "vs_bots" else KNOBS[knob].max


def deck_key(key: str, kind: str, rules: Rules) -> str:
    """A card's hint, with examples from the table's deck: a French deck has no 🪙."""
    if kind != "card":
        return key
    return key + (".spanish" if Deck(rules.deck).spanish else ".french")


def nothing_word(locale: LocaleLike, knob: str) -> str:
    """How the panel words this knob's « no value », in quotes: what a hint offers to type
    (« pas de bouton » for the bots' button, « jamais » elsewhere)."""
    word = t(locale, f"knob.{knob}.none") if has(f"knob.{knob}.none") else t(locale, "never")
    return t(locale, "quoted", text=word)


def typed_text(locale: LocaleLike, knob: str, value: Any) -> str:
    """The current value as the host would type it: the form opens with it filled in."""
    spec = KNOBS[knob]
    if value is None:
        if has(f"knob.{knob}.none"):
            return t(locale, f"knob.{knob}.none")
        return t(locale, "never" if spec.kind == "optional_int" else "none")
    if isinstance(value, GameEnd):
        if value.n is None:
            return t(locale, "game_end.unlimited.word")
        return plural(locale, f"game_end.{value.kind}", value.n)
    return spec.format(value)


def plain_digits(text: str) -> bool:
    """Whether every digit typed is an ASCII one, with no "_" or "+": Python's `int()`
    would also read « ٣ », « ５ », "1_0" and "+5", which no host means as a number."""
    return not any(ch in "_+" or (ch.isnumeric() and not "0" <= ch <= "9") for ch in text)


def typed_value(knob: str, text: str, current: Any = None, rules: Rules | None = None) -> Any:
    """A typed answer as the engine's value, in the words of either language (« 5 manches »,
    "never", « aucune ») or the engine's own syntax; ValueError if it cannot be read.
    `current` is the knob's value now, which points per role start from; `rules` the
    table's, whose role names a host may type for the points (« Culo 0 », « TDC 0 »)."""
    spec = KNOBS[knob]
    if not plain_digits(text):
        raise ValueError(f"{text!r} is not typed in plain digits")
    words = " ".join(text.lower().split())
    if spec.kind in ("optional_int", "card") and words in NOTHING:
        return None
    if spec.kind == "points":  # roles not typed keep their points: « P5 » changes only P
        kept = f"{spec.format(current)} " if current is not None else ""
        return spec.parse(kept + _role_codes_typed(words, rules).upper())
    if spec.kind == "card":  # as shown, in words, or the engine's code (« 2O »)
        return spec.parse(_card_code(words, Deck(rules.deck) if rules is not None
                                     else Deck.FRENCH54))
    if spec.kind == "game_end":
        return spec.parse(_game_end(words))
    if knob.endswith("_seconds"):  # « 30 s », « 30 secondes », "30 seconds"
        words = re.sub(r"^(\d+)\s*(?:s|sec|secs|secondes?|seconds?)$", r"\1", words)
    value = spec.parse(words)
    highest = None if rules is None else most(knob, rules)
    if isinstance(value, int) and highest is not None and value > highest:
        raise ValueError(f"{value} is above {highest} at this table")
    return value


def _card_code(words: str, deck: Deck) -> str:
    """The engine's code of a card typed as `deck` shows it. A card of another deck reads
    as its own code, for the engine to say it is not in this one (« 2🪙 » at a French
    table), unless that code means a card of this deck: « 2♣ » is never copas' "2C"."""
    words = without_variation(words)
    for cards in (shown_cards(deck), *(shown_cards(other) for other in Deck if other != deck)):
        code = cards.get(words, cards.get(words.replace(" ", "")))
        if code is not None and (cards is shown_cards(deck)
                                 or Card.parse(code) not in deck.cards()):
            return code
    return words.upper()


def _role_aliases(rules: Rules) -> dict[str, str]:
    """What a host may type for a role: its name at this table in either language
    (« trou du cul », "scum") and that name's initials (« tdc », « vc », « vt »). An alias
    two roles share, or that is another role's code (proletario's « p »), reads as nothing."""
    found: dict[str, set[str]] = {}
    for code in ROLE_CODES:
        for locale in CATALOGUES:
            name = role_name(locale, rules, code).lower()
            initials = "".join(word[0] for word in re.split(r"[\s\-’']+", name) if word)
            for alias in (name, initials):
                found.setdefault(alias, set()).add(code)
    aliases: dict[str, str] = {}
    for alias, codes in found.items():
        if len(codes) != 1:
            continue
        (code,) = codes
        if alias.upper() == code or alias.upper() not in ROLE_CODES:
            aliases[alias] = code
    return aliases


def _role_codes_typed(words: str, rules: Rules | None) -> str:
    """« Culo 0, vice-culo=1 » as « L0 VL1 »: role names and initials as codes, a number
    after a space, « = » or « : » joined to its role."""
    if rules is not None:
        aliases = _role_aliases(rules)
        pattern = "|".join(re.escape(a) for a in sorted(aliases, key=len, reverse=True))
        letter = r"[^\W\d_]"  # a name ends where letters do: « vc0 » is VC then 0
        words = re.sub(rf"(?<!{letter})({pattern})(?!{letter})",
                       lambda m: aliases[m.group(1)], words)
    return re.sub(r"(?<!\w)([a-z]+)\s*[:=]?\s*(-?\d+)", r"\1\2", words, flags=re.IGNORECASE)


def _game_end(words: str) -> str:
    """« 5 », « 5 manches », "first to 11 points", « illimité »… in the engine's syntax.
    « premier à 11 points », as the panel once showed a score to reach, still reads."""
    words = re.sub(r"^premi(er|ère) à (?=\d)", "", words)
    if words.isdigit():
        return f"rounds:{words}"
    # Short forms hosts type: « 11 pts », « 7 tours », « illimitée ».
    short_form = re.fullmatch(r"(\d+)\s*(?:(pts?)|tours?)", words)
    if short_form:
        return f"{'target' if short_form.group(2) else 'rounds'}:{short_form.group(1)}"
    if re.fullmatch(r"illimit[ée]e?s?|unlimited", words):
        return "unlimited"
    for text in CATALOGUES.values():
        if words in (text["game_end.unlimited"].lower(), text["game_end.unlimited.word"]):
            return "unlimited"
        for kind, key in (("rounds", "game_end.rounds"), ("target", "game_end.target"),
                          ("target", "game_end.points")):
            for form in ("one", "many"):
                pattern = re.escape(text[f"{key}.{form}"].lower()).replace(
                    re.escape("{n}"), r"(\d+)")
                match = re.fullmatch(pattern, words)
                if match:
                    return f"{kind}:{match.group(1)}"
    return words


async def apply(interaction: Interaction, table: Table, make: Callable[[], Rules],
                knob: str = "", *, whole: bool = False, value: object = None) -> None:
    """Build new rules with `make()`; show the panel again, with the refusal if any, else
    what was saved: the knob and its value, or (`whole`, a preset picked or reset) the
    preset the rules now are. A refused `value` picked for `knob` is told with every clash
    it meets (`every_clash`)."""
    locale = own_locale(interaction)
    notice = ""
    try:
        rules = make()
    except RulesError as err:
        clashes = every_clash(table.rules, err, knob, value) if value is not None else [err]
        notice = "\n".join(WARNING + refused_rules(locale, clash, knob) for clash in clashes)
    except ValueError:  # a typed answer that cannot be read
        notice = WARNING + bad_input(locale, knob, table.rules)
    else:
        seated = list(table.seats)
        try:
            await interaction.client.service.set_rules(table, interaction.user.id, rules)
        except TableError as err:
            notice = refusal_text(locale, err)
            knob = ""
        if knob:
            notice = "✅ " + t(locale, "settings.saved", knob=knob_label(locale, knob),
                              value=knob_value(locale, knob, getattr(rules, knob), rules))
        elif whole and not notice:
            notice = "✅ " + t(locale, "settings.preset_saved",
                              preset=preset_name(locale, rules.preset_id))
        notice = "\n".join(line for line in (notice, *seats_cut(locale, table, seated))
                           if line)
    await show_panel(interaction, table, notice)


def seats_cut(locale: LocaleLike, table: Table, seated: list[Player]) -> list[str]:
    """Who lost their seat to rules with fewer seats and a queue (`seats.overflow_to_queue`):
    the bots that left, then the people now waiting, each in the lobby's order. A host who
    picked proletario with five seated saw « Bot 2 » gone from the lobby with no word of it
    (play-test 38)."""
    kept = {id(p) for p in table.seats}
    gone = [p for p in seated if id(p) not in kept]
    lines = []
    for kind, left in (("bots", [p for p in gone if p.is_bot]),
                       ("people", [p for p in gone if not p.is_bot])):
        if left:
            lines.append(plural(locale, f"settings.seats_cut.{kind}", len(left),
                                max=table.rules.max_players,
                                names=join_names(locale, [f"**{p.name}**" for p in left])))
    return lines


async def show_panel(interaction: Interaction, table: Table, notice: str) -> None:
    """Redraw the panel the host clicked, with a line on top saying what happened, once
    that is saved (`saving.saved`: a crash in between must not leave the host told of a
    rule the restart takes back, stop 61)."""
    message = interaction.message
    # A form sent without its panel (or forged onto a public message): answered with a new
    # panel, never by turning a public message into the host's settings.
    new_message = message is None or not message.flags.ephemeral
    if not await saved(interaction, table, new_message=new_message):
        return
    screen = settings_screen(table, own_locale(interaction), notice=notice)
    if new_message:
        await tell(interaction, **screen.kwargs())
    else:
        await redraw(interaction, **screen.kwargs())


def _check(click: Click) -> None:
    """The panel's controls: settings fixed until the lobby first, to anyone, as
    `open_settings` says; then the host's alone."""
    settings_open(click.table)
    if not click.table.is_host(click.user_id):
        raise TableError("err.not_host", host=click.table.host_id)


async def _not_offered(click: Click, name: str) -> bool:
    """The panel offers only the knobs that change something under the rules as they are
    (`Rules.applies`, as `knobs_by_group` lists them). A pick of another (presi's jokers,
    `on_equal` in fast mode) changes nothing: it came from a panel drawn before a change
    (another panel of the host's turned « Quand quelqu’un part » to a bot, and this one
    still offered « Secondes pour revenir »), so the panel is drawn again as the rules are,
    saying why. True when it was; a name that is no knob is refused."""
    if name not in KNOBS:
        raise TableError("err.bad_choice")
    if click.table.rules.applies(name):
        return False
    await show_panel(click.interaction, click.table, WARNING + t(
        click.locale, "settings.not_applied", knob=knob_label(click.locale, name)))
    return True


# The settings panel's buttons, on the host's private message.
PANEL = Drawn(private=True)


@action("preset", drawn=Drawn(select=True, private=True))
async def pick_preset(click: Click) -> None:
    _check(click)
    if len(click.values) != 1 or click.values[0] not in PRESETS:
        raise TableError("err.bad_choice")
    preset = click.values[0]
    await apply(click.interaction, click.table, lambda: Rules.preset(preset), whole=True)


@action("reset", drawn=PANEL)
async def reset(click: Click) -> None:
    _check(click)
    await apply(click.interaction, click.table,
                lambda: Rules.preset(click.table.rules.preset_id), whole=True)


@action("done", drawn=PANEL)
async def done(click: Click) -> None:
    """Close the panel; closed by the host in the lobby, its rules are confirmed."""
    message = click.interaction.message
    if message is None or not message.flags.ephemeral:  # forged onto a public message
        raise TableError("err.unknown_control")
    table = click.table
    # The settings the host confirmed are the channel's house rules, as a game's start
    # makes its own (docs/bot.md, « Play-test 33 »); kept only where something changed, and
    # said so in the same answer (« Small fixes (stop 52) »): a host who changed nothing
    # hears nothing more.
    kept = table.is_host(click.user_id) and table.game is None \
        and click.bot.service.confirm_rules(table)
    closed = "settings.closed"
    if kept:
        closed = "settings.closed.kept.thread" if table.parent_id is not None \
            else "settings.closed.kept"
    if await saved(click.interaction, table):  # the house rules it names, saved
        await redraw(click.interaction, content=t(click.locale, closed), embed=None, view=None)


@action("bot_level", drawn=PANEL)
async def next_bot_level(click: Click) -> None:
    """Cycle the level of the bots the host adds from now on: easy → normal → hard."""
    _check(click)
    table = click.table
    level = LEVELS[(LEVELS.index(table.bot_level) + 1) % len(LEVELS)]
    await click.bot.service.set_options(table, click.user_id, bot_level=level)
    await show_panel(click.interaction, table, "✅ " + t(
        click.locale, "settings.bot_level_saved", level=t(click.locale, f"level.{level}")))


@action("hints", drawn=PANEL)
async def toggle_hints(click: Click) -> None:
    """Turn the hands' « Conseil » button on or off (off by default)."""
    _check(click)
    table = click.table
    await click.bot.service.set_options(table, click.user_id, hints=not table.hints)
    await show_panel(click.interaction, table, "✅ " + t(
        click.locale, "settings.hints_on" if table.hints else "settings.hints_off"))


@action("reminders", drawn=PANEL)
async def toggle_reminders(click: Click) -> None:
    """Turn the pings of a player a timer waits on off or on (on by default): they post in
    the channel, which a host may want kept for talk (`bot.tables.reminders`)."""
    _check(click)
    table = click.table
    await click.bot.service.set_options(table, click.user_id, reminders=not table.reminders)
    await show_panel(click.interaction, table, "✅ " + t(
        click.locale, "settings.reminders_on" if table.reminders else "settings.reminders_off"))


@action("knob", drawn=Drawn(select=True, private=True, arg="[a-z0-9_]{1,30}"))
async def pick_knob(click: Click) -> None:
    """The picked knob names itself: the menu's arg (its group, or a part number on a panel
    drawn before the groups) only keeps the two menus' ids apart, so a click on an older
    panel still changes the knob it showed."""
    _check(click)
    name = click.values[0] if len(click.values) == 1 else ""
    if await _not_offered(click, name):
        return
    spec = KNOBS[name]
    rules = click.table.rules
    if spec.kind == "bool":
        await apply(click.interaction, click.table,
                    lambda: rules.replace(**{name: not getattr(rules, name)}), name)
    elif spec.kind == "choice":
        screen = settings_screen(click.table, own_locale(click.interaction), focus=name)
        message = click.interaction.message
        if message is not None and message.flags.ephemeral:
            await click.interaction.response.edit_message(**screen.kwargs())
        else:  # forged onto a public message: the panel comes privately
            await click.interaction.response.send_message(ephemeral=True, **screen.kwargs())
    else:
        await click.interaction.response.send_modal(knob_form(click.table, name, click.locale))


@action("value", drawn=Drawn(select=True, private=True, arg="[a-z_]{1,40}"))
async def pick_value(click: Click) -> None:
    _check(click)
    name = click.arg
    if name not in KNOBS or KNOBS[name].kind != "choice":
        raise TableError("err.unknown_control")
    if len(click.values) != 1 or click.values[0] not in KNOBS[name].choices:
        raise TableError("err.bad_choice")
    if await _not_offered(click, name):
        return
    rules = click.table.rules
    value = click.values[0]
    await apply(click.interaction, click.table, lambda: rules.replace(**{name: value}), name,
                value=value)


def form_label(locale: LocaleLike, knob: str) -> str:
    """The knob's name within a form's title (45 characters, Discord's most): its own
    shorter wording where the panel's would not fit."""
    short = f"form.title.{knob}"
    return t(locale, short) if has(short) else knob_label(locale, knob)


def knob_form(table: Table, knob: str, locale: str) -> discord.ui.Modal:
    """One text field for a typed knob (numbers, points per role, game end, a card).

    The form is stopped before it is sent, so discord.py keeps nothing in memory: its answer
    is routed by custom_id like any control (`@action("form")`), and a form submitted after
    a restart still changes the rule."""
    spec = KNOBS[knob]
    form: discord.ui.Modal = discord.ui.Modal(
        title=clipped(t(locale, "settings.modal", knob=form_label(locale, knob)), 45),
        custom_id=custom_id(table.id, "form", 0, knob))
    field: discord.ui.TextInput[discord.ui.Modal] = discord.ui.TextInput(
        default=cut(typed_text(locale, knob, getattr(table.rules, knob)), 100), max_length=100)
    hint = t(locale, deck_key(f"settings.hint.{spec.kind}", spec.kind, table.rules),
             min=spec.min, max=most(knob, table.rules), none=nothing_word(locale, knob)) \
        if spec.kind != "points" else role_codes(locale, table.rules)
    form.add_item(discord.ui.Label(text=cut(t(locale, "settings.modal.field"), 45),
                                   description=cut(hint, 100), component=field))
    form.stop()
    return form


@action("form", form=True)
async def submit_knob(click: Click) -> None:
    _check(click)
    name = click.arg
    if name not in KNOBS or KNOBS[name].kind in ("bool", "choice") or len(click.values) != 1 \
            or not click.table.rules.applies(name):  # a form of a knob no longer offered
        raise TableError("err.form_expired")
    rules = click.table.rules
    text = click.values[0]
    await apply(click.interaction, click.table,
                lambda: rules.replace(**{name: typed_value(name, text, getattr(rules, name),
                                                          rules)}),
                name)
