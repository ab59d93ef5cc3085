"""Knob values and rule summaries in words, shared by the lobby, settings and /rules."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.i18n import LocaleLike, has, join_names, plural, t
from bot.i18n.cards import rank_short, short
from engine import KNOBS, PRESETS, Card, GameEnd, KnobGroup, Rules
from engine.roles import exchange_pairs, roles_for
from engine.rules import ROLE_CODES


def knob_label(locale: LocaleLike, name: str) -> str:
    return t(locale, f"knob.{name}")


def table_sizes(rules: Rules, seats: int | None = None) -> range:
    """The table sizes to speak of: the game's when it is known, else every size the rules
    allow (a lobby)."""
    if seats is not None:
        return range(seats, seats + 1)
    return range(rules.min_players, rules.max_players + 1)


def roles_in_play(rules: Rules, seats: int | None = None) -> list[str]:
    """The roles a table can hand out, in `ROLE_CODES` order, as the engine gives them at
    each of its sizes (`roles_for`): proletario's 4 seats have no Neutre."""
    found = {role for n in table_sizes(rules, seats) for role in roles_for(n, rules.vp_at_three)}
    return [role for role in ROLE_CODES if role in found]


def knob_value(locale: LocaleLike, name: str, value: Any, rules: Rules, *,
               seats: int | None = None) -> str:
    """A knob's value in words; points per role name only the roles that can occur at
    `seats` seats (else at any size the rules allow)."""
    spec = KNOBS[name]
    if spec.kind == "bool":
        return t(locale, "yes" if value else "no")
    if spec.kind == "choice":
        key = f"knob.{name}.{value}"
        if name == "closing_rank" and value == "best" and not rules.revolution:
            key += ".no_revolution"  # the best value is always the 2: no word of the 3
        return t(locale, key) if has(key) else str(value)
    if spec.kind == "game_end":
        end: GameEnd = value
        if end.n is None:
            return t(locale, f"game_end.{end.kind}")
        return plural(locale, f"game_end.{end.kind}", end.n)
    if spec.kind == "points":
        return " · ".join(f"{role_name(locale, rules, role)} {value[role]}"
                          for role in roles_in_play(rules, seats))
    if spec.kind == "card":
        return t(locale, "none") if value is None else short(
            locale, value if isinstance(value, Card) else Card.parse(str(value)),
            rules.deck_kind.spanish)
    if spec.kind == "optional_int" and value is None:
        # « jamais » reads for a count of timeouts, not for a count of bots: a knob may
        # word its none itself (« pas de bouton »).
        key = f"knob.{name}.none"
        return t(locale, key if has(key) else "never")
    return spec.format(value)


def role_name(locale: LocaleLike, rules: Rules, role: str) -> str:
    return t(locale, f"role.{rules.role_names}.{role}")


def group_name(locale: LocaleLike, group: KnobGroup) -> str:
    return t(locale, f"knob.group.{group.value}")


def knobs_by_group(rules: Rules) -> list[tuple[KnobGroup, list[str]]]:
    """The knobs that apply (`Rules.applies`) under their group, in `KNOBS` order: the
    settings panel has a menu per group and its summary a section, so a knob keeps its menu
    and its place among the others whatever the preset, fast mode or deck."""
    return [(group, [name for name, spec in KNOBS.items()
                     if spec.group is group and rules.applies(name)])
            for group in KnobGroup]


def preset_name(locale: LocaleLike, preset: str) -> str:
    return t(locale, f"preset.{preset}")


#: Whether a table's rules still are what its preset's name says: « Presi (jeu espagnol) »,
#: « Proletario (4 places, jokers) », « Les 7 remplacent » (the host may turn them off).
NAMED_AS: dict[str, Callable[[Rules], bool]] = {
    "presi": lambda rules: rules.deck_kind.spanish,
    "proletario": lambda rules: rules.min_players == rules.max_players == 4
    and rules.deck_kind.has_jokers,
    "wild7": lambda rules: rules.wild_rank == "7",
}


def table_preset_name(locale: LocaleLike, rules: Rules) -> str:
    """The preset's name as a table's titles give it (lobby, table message, settings,
    rules): its own words, unless the host changed what they say, when its plain name
    leaves the rules line to say what changed. A proletario table opened to eight seats
    read « Proletario (4 places, jokers) » above eight players, and one of two above
    « Places maximum : 2 » (play-test 19)."""
    still = NAMED_AS.get(rules.preset_id)
    if still is not None and not still(rules):
        return t(locale, f"preset_plain.{rules.preset_id}")
    return preset_name(locale, rules.preset_id)


def played_name(locale: LocaleLike, preset: str, stored: object) -> str:
    """A past game's preset as its table's titles gave it (`table_preset_name`), from the
    rules stored with it: a proletario game played at six was listed in the history as
    « Proletario (4 places, jokers) » (play-test 40). A preset this version does not know
    is named by its id; rules it cannot read, by the preset's own name."""
    if preset not in PRESETS:
        return preset
    try:
        rules = Rules.from_dict(stored) if isinstance(stored, Mapping) else None
    except (ValueError, TypeError):  # RulesError included
        rules = None
    if rules is None or rules.preset_id != preset:
        return preset_name(locale, preset)
    return table_preset_name(locale, rules)


def pooled_name(locale: LocaleLike, preset: str) -> str:
    """What `/president stats`, the leaderboard, the rating chart and `/privacy` rate under
    a preset: every game of the server started from it, whatever its host changed. Each
    preset's own name says what some of those games were not (« Proletario (4 places,
    jokers) » above a rating that counts the games at six, play-test 40), and wild7's
    plain name, « Président », names no preset; so their own words, true of every such
    game (`preset_pooled`). A preset this version does not know is named by its id."""
    return t(locale, f"preset_pooled.{preset}") if preset in PRESETS else preset


def how_to_play(locale: LocaleLike, rules: Rules, revolution: bool = False) -> list[str]:
    """A few lines on playing this table, built from its knobs: the goal, the order of the
    cards, what closes a trick, and the variants that are on. In a `revolution` under way,
    the plays that need not match the opening's count are those of the reversed order, as
    the opener's hand says them (`count_exceptions`): the page went on naming the 2s on a
    larger play after four 5s had made the 2s the weakest."""
    deck = rules.deck_kind
    spanish = deck.spanish
    # The order in force: during a revolution, the reversed one (its line says why), where
    # the page listed the normal order under « Révolution en cours » (stop 47).
    ranks = reversed(deck.ranks) if revolution else deck.ranks
    order = " ".join(rank_short(locale, rank, spanish) for rank in ranks)
    answer = "howto.answer.equal" if rules.equal_allowed else "howto.answer.higher"
    exceptions = count_exceptions(locale, rules, revolution)
    if exceptions:
        answer = t(locale, f"{answer}.except", exceptions=exceptions)
    else:
        answer = t(locale, answer)
    lines = [t(locale, "howto.goal"),
             t(locale, "howto.order.revolution" if revolution else "howto.order", order=order),
             answer]
    if rules.fast or rules.applies("pass_is_final"):  # (one lap: the closing line says it)
        lines.append(t(locale, "howto.pass.final" if rules.fast or rules.pass_is_final
                       else "howto.pass.again"))
    if deck.has_jokers:
        lines.append(t(locale, "howto.jokers"))
    if rules.wild_rank != "none":
        lines.append(t(locale, "howto.wild", rank=rules.wild_rank))
    closes = [t(locale, f"howto.close.{rules.trick_end}")]
    if rules.closing_rank != "none":
        # Without revolution the best value is always the 2: no word of the 3.
        rank = rules.closing_rank if rules.revolution else "two"
        closes.append(t(locale, f"howto.close.{rank}"))
    if rules.four_closes:
        closes.append(t(locale, "howto.close.four"))
    if deck.has_jokers and rules.jokers_close:
        closes.append(t(locale, "howto.close.joker"))
    if rules.top_single is not None:
        closes.append(t(locale, "howto.close.top_single",
                        card=short(locale, rules.top_single, spanish)))
    if rules.finishing_closes_trick:
        closes.append(t(locale, "howto.close.finished"))
    lines.append(t(locale, "howto.closes", closes=join_names(locale, closes, "list.or")))
    lines.append(opens_line(locale, rules))
    # A wild never stands in for the value an equal answer calls for, nor counts as holding
    # it (`legal_options`' constraint, `_holds`): the rules that follow an equal say so.
    wild = f".wild{rules.wild_rank}" if rules.wild_rank != "none" else ""
    top_single = "" if rules.top_single is None else short(locale, rules.top_single, spanish)
    variants = [t(locale, f"howto.variant.{name}", card=top_single,
                  rule=t(locale, f"howto.variant.{two_beats_larger_key(rules)}",
                         card=top_single)) for name, on in (
        ("fast", rules.fast), (revolution_key(rules), rules.revolution),
        # In revolution the 2s are the weakest and beat nothing larger (`legal_options`).
        ("two_beats_larger.outside_revolution" if rules.revolution
         else two_beats_larger_key(rules), rules.two_beats_larger),
        ("no_equal", not rules.equal_allowed),
        (f"on_equal.{rules.on_equal}"
         + (wild if rules.on_equal in ("same_or_pass", "skip_unless_holding") else ""),
         rules.equal_allowed and not rules.fast and rules.on_equal != "none"),
        (f"penalty.{rules.finish_penalty}", rules.finish_penalty != "none")) if on]
    if variants:
        lines.append(t(locale, "howto.variants"))
        lines.extend(f"• {variant}" for variant in variants)
    return lines


def count_exceptions(locale: LocaleLike, rules: Rules, revolution: bool = False) -> str:
    """The plays that need not match the opening's count (RULES §1: « exceptions:
    `top_single`, jokers, `two_beats_larger` »), from the knobs that turn them on, as
    alternatives: « le 2🪙 joué seul », « un joker ou un groupe de 2 sur un coup d’une carte
    de plus »; empty where every answer has the opening's count. The answer line said
    « autant de cartes » alone at presi and proletario, whose seeds make these the exceptions
    (« La seule exception est le deux de deniers joué seul », « Le 2 bat une taille de
    plus », « Un joker seul se joue sur n’importe quelle combinaison »). The 2s come last:
    followed by « ou un joker », they read as 2s on a joker too, which the engine refuses.
    During a `revolution` the 2s are the weakest value and beat no larger play (RULES §7)."""
    names = []
    if rules.top_single is not None:
        names.append(t(locale, "howto.except.top_single",
                       card=short(locale, rules.top_single, rules.deck_kind.spanish)))
    if rules.deck_kind.has_jokers:
        names.append(t(locale, "howto.except.jokers"))
    if rules.two_beats_larger and not revolution:
        names.append(t(locale, "howto.except.two_beats_larger"))
    return join_names(locale, names, "list.or")


def revolution_key(rules: Rules) -> str:
    """The revolution as the page words it: the jokers, and the card that wins alone, keep
    their power (`legal_options` lets a special play answer anything), as the hands say
    (`hand_plays.revolution_line`, play-test 17); the page said only « le 3 devient la plus
    forte » at a proletario or presi table whose host turned revolutions on. With both, both:
    a proletario whose host set a card that wins alone read of the jokers only."""
    jokers = rules.deck_kind.has_jokers
    if rules.top_single is not None:
        return "revolution." + ("jokers_top_single" if jokers else "top_single")
    return "revolution.jokers" if jokers else "revolution"


def two_beats_larger_key(rules: Rules) -> str:
    """What may answer 2s when they beat a larger play: the engine lets a special card
    answer them (`legal_options`), a joker or the card that wins any trick alone (presi's
    2 of oros: « gagne n'importe quel pli »), and nothing else."""
    jokers = rules.deck_kind.has_jokers
    if rules.top_single is not None:
        return "two_beats_larger." + ("jokers_top_single" if jokers else "top_single")
    return "two_beats_larger." + ("jokers" if jokers else "none")


def opens_line(locale: LocaleLike, rules: Rules) -> str:
    """Who opens the first round, and the later ones (every seed says it; the page did
    not): fast mode has no first opener at all."""
    if rules.fast:
        return t(locale, "howto.opens.free")
    role = "L" if rules.round_opener == "last_place" else "P"
    return t(locale, "howto.opens", first=t(locale, f"howto.opens.{rules.first_opener}"),
             role=role_name(locale, rules, role))


def deal_lines(locale: LocaleLike, rules: Rules, seats: int | None = None) -> list[str]:
    """Who gets the cards left over when the deck does not share out evenly at the table's
    sizes (`deal_extras`), and, from the second round, whether turns follow the last
    ranking (`reseat_by_rank`): RULES §3–4, which the page never said (play-test 14)."""
    lines = []
    if any(rules.deck_kind.size % n for n in table_sizes(rules, seats)):
        lines.append(t(locale, f"howto.deal.{rules.deal_extras}"))
    if rules.reseat_by_rank:
        lines.append(t(locale, "howto.reseat", first=role_name(locale, rules, "P")))
    return lines


def exchange_lines(locale: LocaleLike, rules: Rules, seats: int | None = None) -> list[str]:
    """Who gives what to whom between rounds, as the engine pairs the roles
    (`exchange_pairs`) at the table's sizes: a pair that only some sizes have says from
    how many players. Then who picks the cards, and when the high roles give back."""
    sizes = table_sizes(rules, seats)
    pairs: dict[tuple[str, str, int], list[int]] = {}
    for n in sizes:
        roles = roles_for(n, rules.vp_at_three)
        for giver, receiver, count in exchange_pairs(range(n), rules.vp_at_three):
            pairs.setdefault((roles[giver], roles[receiver], count), []).append(n)
    if not pairs:
        return []
    lines = [t(locale, "howto.exchange")]
    for (low, high, count), at in pairs.items():
        pair = t(locale, "howto.exchange.pair", low=role_name(locale, rules, low),
                 high=role_name(locale, rules, high),
                 best=plural(locale, "howto.exchange.best", count),
                 back=plural(locale, f"howto.exchange.back.{rules.exchange_return}", count))
        if len(at) < len(sizes):
            pair = t(locale, "howto.exchange.from", pair=pair, n=min(at))
        lines.append(pair)
    lines.append(t(locale, f"howto.exchange.low.{rules.low_gives}"))
    lines.append(t(locale, "howto.exchange.blind" if rules.exchange_blind
                   else "howto.exchange.seen"))
    return lines


def end_line(locale: LocaleLike, rules: Rules) -> str:
    """How the game ends (`game_end`), and who wins."""
    end = rules.game_end
    if end.kind == "rounds" and end.n is not None:
        return t(locale, "howto.end.rounds", rounds=plural(locale, "game_end.rounds", end.n))
    if end.kind == "target" and end.n is not None:
        return t(locale, f"howto.end.target.{rules.target_tie}",
                 points=plural(locale, "game_end.points", end.n))
    return t(locale, "howto.end.unlimited")


def timer_lines(locale: LocaleLike, rules: Rules) -> list[str]:
    """What the clock does: a newcomer to proletario saw a card played for them at their
    first slow turn, then the autopilot take their seat at the second, and the rules page
    had said nothing of either (the seed does: « Passé ce délai, ta plus petite
    combinaison possible est jouée pour toi »)."""
    if rules.fast:
        return [t(locale, "howto.timer.fast", seconds=rules.fast_seconds)]
    lines = [t(locale, f"howto.timer.{rules.timeout_action}", seconds=rules.turn_seconds)]
    if rules.autopilot_after_timeouts is not None:
        lines.append(plural(locale, "howto.autopilot", rules.autopilot_after_timeouts))
    return lines


def rules_page(locale: LocaleLike, rules: Rules, seats: int | None = None,
               revolution: bool = False) -> list[str]:
    """`/president rules`: how to play, the exchange, the points, the game's end (at the
    game's `seats` when one is under way, and in its `revolution`) and the clock, then the
    settings that differ from the preset."""
    lines = how_to_play(locale, rules, revolution)
    lines.extend(deal_lines(locale, rules, seats))
    lines.extend(exchange_lines(locale, rules, seats))
    lines.append(t(locale, "howto.points",
                   points=knob_value(locale, "points", rules.points, rules, seats=seats)))
    lines.append(end_line(locale, rules))
    lines.extend(timer_lines(locale, rules))
    changed = {name: value for name, value in rules.differences().items()
               if rules.applies(name)}
    lines.append("")
    if changed:
        lines.append(t(locale, "howto.changed"))
        lines.extend(t(locale, "lobby.rule", knob=knob_label(locale, name),
                       value=knob_value(locale, name, value, rules, seats=seats))
                     for name, value in changed.items())
    else:
        lines.append(t(locale, "howto.unchanged"))
    return lines


def summary(locale: LocaleLike, rules: Rules, room: int | None = None) -> str:
    """One line: how the game ends and every knob changed from the preset (the lobby's title
    names the preset). In at most `room` characters, when given: the lobby is one message,
    and a host who changed every knob would push it past Discord's 2,000. Then the first
    changes stay, in `KNOBS` order (how tricks are played before timers), and the others are
    counted, « … et 12 autres réglages », pointing to `/president rules` that lists them."""
    parts = [knob_value(locale, "game_end", rules.game_end, rules)]
    for name, value in rules.differences().items():
        if name != "game_end" and rules.applies(name):
            parts.append(t(locale, "lobby.rule", knob=knob_label(locale, name),
                           value=knob_value(locale, name, value, rules)))
    line = " · ".join(parts)
    shown = len(parts)
    while room is not None and len(line) > room and shown > 1:
        shown -= 1
        line = plural(locale, "lobby.rules_more", len(parts) - shown,
                      rules=" · ".join(parts[:shown]))
    return line


def full(locale: LocaleLike, rules: Rules) -> list[str]:
    """Every knob that applies to the table with its value, changed ones marked, under the
    heading of its group (the menu that offers it)."""
    base = Rules.preset(rules.preset_id)
    lines: list[str] = []
    for group, names in knobs_by_group(rules):
        if lines:
            lines.append("")
        lines.append(t(locale, "settings.group", group=group_name(locale, group)))
        for name in names:
            value = getattr(rules, name)
            base_value = getattr(base, name)
            if value != base_value:
                lines.append(t(locale, "settings.line_changed", mark="✏️",
                               knob=knob_label(locale, name),
                               value=knob_value(locale, name, value, rules),
                               base=knob_value(locale, name, base_value, base)))
            else:
                lines.append(t(locale, "settings.line", mark="▫️", knob=knob_label(locale, name),
                               value=knob_value(locale, name, value, rules)))
    return lines
