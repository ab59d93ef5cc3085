"""What the table message and the hands both write: countdowns, places, role names, the
history's lines and the trick, each in the reader's language."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import CATALOGUES, LocaleLike, t
from bot.i18n.cards import play_words, rank_short, rank_words, shorts, top_single_words
from bot.packages.cards.emojis import FaceLine
from bot.packages.rules_text import role_name as rules_role_name
from bot.tables import graces
from bot.tables.logentry import LogEntry, given, line_cards, maybe
from bot.tables.players import Player
from bot.tables.snapshot import LineParams
from bot.tables.table import Table
from engine import Card, Game, Who
from engine.events import RoundOver


def countdown(table: Table) -> str:
    """When the turn's (or exchange's) clock runs out; nothing while the clocks wait for a
    server Discord lost (`Table.paused_since`): its end moves the deadline on, and a hand
    drawn meanwhile, its token's last edit (`Hands._lapse_at_expiry`) or one a restart
    redrew, kept the old time for good, minutes past once its player was back with
    their seconds again."""
    if table.timer_deadline is None or table.paused_since is not None:
        return ""
    return f"<t:{int(table.timer_deadline)}:R>"


def timed(locale: LocaleLike, key: str, table: Table, **params: object) -> str:
    """A line that ends on the clock's `countdown`, without the space before it where there
    is none: the clocks held by a break or an outage, a table without turn timers. « ➡️ À
    **alice** de jouer » ended on an invisible space while the game was paused (stop 62),
    which a screen reader may say and a copied line carries."""
    return t(locale, key, countdown=countdown(table), **params).rstrip()


def place(locale: LocaleLike, n: int) -> str:
    return t(locale, f"place.{n}") if n <= 3 else t(locale, "place.n", n=n)


def role_name(locale: LocaleLike, table: Table, role: str | None) -> str:
    return rules_role_name(locale, table.rules, role) if role else ""


def spanish(table: Table) -> bool:
    return table.rules.deck_kind.spanish


def entry_text(locale: LocaleLike, table: Table, entry: LogEntry, *,
               kept: bool = False) -> str:
    """A history line in the reader's language; cards become words here. `kept`: as a
    table message keeps it once a fresh one replaces it (`Screen.retired`), read long
    after, when what the break promised may be past."""
    params = dict(entry.params)
    key = entry.key
    if params.pop("bot", False):  # a bot marked as the table message marks it (`log.named`)
        params["name"] = line_name(entry.params)
    waits = graces.grace_after_break(table, entry)
    if waits is not None:
        # During a break a leaver's seat waits from « Continuer » on: its deadline, a
        # time that may pass meanwhile, is not yet known (stop 49's review). A message
        # replaced meanwhile keeps what held then, without the button it no longer has
        # nor a promise the break's end (or the game's) outdates (stop 50).
        key = "ev.away_paused_kept" if kept else "ev.away_paused"
        params = {"name": params["name"], "seconds": round(waits),
                  "button": t(table.locale, "btn.play_on")}
    if "cards" in params:
        played = [Card.parse(c) for c in line_cards(params)]
        if entry.key in ("ev.played", "ev.played_timeout", "ev.played_late"):
            params["cards"] = play_words(
                locale, played, given(params, "value", str), given(params, "count", int),
                spanish(table), maybe(params, "special", str), maybe(params, "announce", str),
                None if table.rules.wild_rank == "none" else table.rules.wild_rank)
        else:
            params["cards"] = shorts(locale, played, spanish(table))
    if "place" in params and entry.key in ("ev.out", "ev.out_closes", "ev.penalised"):
        params["place"] = place(locale, given(params, "place", int))
    if entry.key == "ev.penalised":
        rank = penalty_rank(table, params.get("rank"))
        if rank is None:
            key = "ev.penalised_either"
            params.update(penalty_ranks(locale, table))
        else:
            params["rank"] = rank_words(locale, rank, 1, spanish(table))
        if rank not in (None, "2"):
            # A 7 among the last cards (wild7's « finir avec un 7 »), whatever their value:
            # « a fini sur un 7 » read wrong under « joue deux 9, dont un 7 » (play-test 17).
            key = "ev.penalised_wild"
    if entry.key in ("ev.trick_closed.best", "ev.trick_closed.two", "ev.trick_closed.four"):
        four = entry.key.endswith(".four")
        params["value"] = rank_words(locale, str(params["value"]), 4 if four else 1,
                                     spanish(table))
    if entry.key == "ev.trick_closed.top_single":
        params["card"] = top_single_words(locale, table.rules.top_single, spanish(table))
    if "role" in params:
        params["role"] = role_name(locale, table, str(params["role"]))
    if entry.key in ("hand.gave", "hand.gave_late", "hand.received") and "level" in params:
        # The exchange's partner was a bot: named as the table names bots (a note from
        # before the level was kept names it bare, as it did).
        params["name"] = t(locale, "hand.bot_named", name=bot_shown(str(params["name"])),
                           level=level_words(locale, str(params.pop("level"))))
    return t(locale, key, **params)


def penalty_rank(table: Table, known: object) -> str | None:
    """The card a penalised finish was for (`Penalised.rank`: « 2 », or « 7 » under
    wild7's « finir sa main sur un 2 ou avec un 7 »), ``known`` where it was kept; else 2
    where only 2s send a player down, and None where either may have (a history line, or a
    game without its plays, from a snapshot from before they were kept: they read « sur un
    2 » at wild7 whatever the card)."""
    if known is not None:
        return str(known)
    return "2" if table.rules.finish_penalty == "two" else None


def penalty_ranks(locale: LocaleLike, table: Table) -> dict[str, str]:
    """Both cards a finish may be penalised for, in words, for a line that cannot say which
    (`penalty_rank`)."""
    return {"two": rank_words(locale, "2", 1, spanish(table)),
            "seven": rank_words(locale, "7", 1, spanish(table))}


def penalty_words(locale: LocaleLike, table: Table, game: Game,
                  seat: int) -> tuple[str, dict[str, str]] | None:
    """How ``seat``'s finish was penalised (`finish_penalty`), as a key's ending (« » for a
    2, « _wild » for a 7, « _either » where it cannot be told) and the card's words; None
    where it was not. Its last play says which card (a game restored without its plays
    cannot: `penalty_rank`)."""
    if seat not in game.penalised:
        return None
    last = next((tell.play for tell in reversed(game.tells)
                 if tell.seat == seat and tell.play is not None), None)
    rank = penalty_rank(table, None if last is None else "2" if last.value == "2" else "7")
    if rank is None:
        return "_either", penalty_ranks(locale, table)
    return "" if rank == "2" else "_wild", {"rank": rank_words(locale, rank, 1, spanish(table))}


def seat_name(table: Table, seat: int) -> str:
    return _shown(table.seats[seat])


def result_name(table: Table, seat: int) -> str:
    """The seat as its round's results name it: who held it as the round ended
    (`Table.result_seats`), though a fresh bot may hold it since."""
    return _shown(result_player(table, seat))


def result_player(table: Table, seat: int) -> Player:
    """Who held the seat as its round ended (`result_name`)."""
    held = table.result_seats
    return held[seat] if seat < len(held) else table.seats[seat]


def who_name(table: Table, who: Who) -> str:
    """Whom the game's standings and winners name (`engine.Who`): a seat as its round's
    results name it, or a player waiting in the queue with the points they left their seat
    with (`Game.step_off`)."""
    if isinstance(who, int):
        return result_name(table, who)
    waiting = table.waiting_player(who)
    return waiting.name if waiting is not None else "?"


def leaver_at(table: Table, game: Game, who: Who) -> str | None:
    """Who left the seat ``who`` mid-round, a bot finishing the round for them
    (`Player.left_by`), in a game that stopped before that round's end: every point of the
    seat is theirs (the round under way counts for nobody), so the standings and winners
    name them, where « 🤖 bob » read as if a bot had earned them (play-test 44). None for
    anyone else, and once the round ended (its results split the seat's points)."""
    if not isinstance(who, int) or round_finished(table, game):
        return None
    held = result_player(table, who)
    return held.name if held.is_bot and held.left_by is not None else None


def line_name(params: LineParams) -> str:
    """Whom a history line (or a trick's play, `trick_names`) names, as `log.named` kept
    them: a bot marked as the table message marks it (« 🤖 marie », a leaver's bot)."""
    name = str(params["name"])
    return bot_shown(name) if params.get("bot") else name


def trick_names(table: Table, game: Game) -> list[str]:
    """Who made each play of the trick, oldest first: the player, or the bot standing in
    for them, as they were when they played (`Table.trick_by`), where the seat's holder now
    may be someone else (play-test 45). A trick the table did not follow whole (restored
    from a snapshot from before it was kept) is named by the seats' holders, as it was."""
    by = table.trick_by
    if [b.get("seat") for b in by] != [p.seat for p in game.trick]:
        return [seat_name(table, p.seat) for p in game.trick]
    return [line_name(b) for b in by]


def _shown(player: Player) -> str:
    return bot_shown(player.name) if player.is_bot else player.name


def bot_shown(name: str) -> str:
    """A bot as the table message names it, marked: « 🤖 Bot 1 »."""
    return f"🤖 {name}"


def level_words(loc: LocaleLike, level: str) -> str:
    """A bot's level as the table message says it beside the bot: « difficile »."""
    return t(loc, f"level.{level}")


def played_order(cards: Sequence[Card], wild: int | None) -> list[Card]:
    """A play's cards as a hand lists them: by suit, the wilds that joined them last. The
    engine keeps the deal's order, so a pair shown « 9♥ 9♦ » on the table was « 9♦ 9♥ » in
    the hand that played it (play-test 18)."""
    return sorted(cards, key=lambda card: (card.value == wild, card.suit))


def trick_faces(game: Game, index: int, skip: int = 0) -> list[FaceLine]:
    """The trick's faces, one group per play, wanted under line ``index`` (its text line),
    the ``skip`` oldest plays left out as its line leaves them (`trick_fit`)."""
    wild = game.rules.wild_level
    shown = game.trick[skip:]
    return [(index, [played_order(p.cards, wild) for p in shown])] if shown else []


#: What stands for the oldest plays of a trick too long for its message (`trick_fit`).
EARLIER = "…"


def trick_line(loc: LocaleLike, table: Table, game: Game, skip: int = 0) -> str:
    """The trick, its plays oldest first; the ``skip`` oldest give way to « … »."""
    if not game.trick:
        return t(loc, "table.trick_empty")
    plays = _trick_plays(loc, table, game)
    return _joined(loc, plays, skip)


def trick_fit(loc: LocaleLike, table: Table, game: Game, room: int) -> int:
    """How many of the trick's oldest plays its line leaves out to hold within ``room``
    characters: none when it fits, never the latest (the play to beat). At eight seats of
    long names a trick of twenty plays or more (presi's equal answers, « ta gueule »'s
    runs) took the table message past Discord's 2,000 characters, which cut its end (the
    list for the next game, « appuyez sur Ma main »), and the hand's, whose last line is
    the trick: the newest plays were the ones cut (play-test 19)."""
    if not game.trick:
        return 0
    plays = _trick_plays(loc, table, game)
    skip = 0
    while skip < len(plays) - 1 and len(_joined(loc, plays, skip)) > room:
        skip += 1
    return skip


def _trick_plays(loc: LocaleLike, table: Table, game: Game) -> list[str]:
    wild = game.rules.wild_level
    return [t(loc, "table.trick_play", name=name,
              cards=cards_shown(loc, table, played_order(p.cards, wild), p.announce))
            for p, name in zip(game.trick, trick_names(table, game), strict=True)]


def _joined(loc: LocaleLike, plays: Sequence[str], skip: int) -> str:
    shown = [EARLIER, *plays[skip:]] if skip else list(plays)
    return t(loc, "table.trick", plays=" · ".join(shown))


def cards_shown(loc: LocaleLike, table: Table, cards: Sequence[Card],
                announce: str | None) -> str:
    """Cards as symbols, with the value announced for wild 7s ("7♣ 7♠ → D"); 7s played
    as 7s need no arrow."""
    text = shorts(loc, cards, spanish(table))
    if not announce or all(c.rank == announce for c in cards):
        return text
    return f"{text} → {rank_short(loc, announce, spanish(table))}"


def round_finished(table: Table, game: Game) -> bool:
    """Whether the current round ended with a result; a game the host stopped in the middle
    of a round has none (its roles and points are still the previous round's)."""
    return any(isinstance(r, RoundOver) and r.round_no == game.round_no for r in table.results)


def _wordable(table: Table, entry: LogEntry) -> bool:
    """Whether this version words the stored line in both languages: a key it does not know
    (a newer version's, after a rollback) or whose placeholders changed since it was stored
    failed every redraw of its table, which then never showed again (play-test 15)."""
    try:
        for locale in CATALOGUES:
            entry_text(locale, table, entry)
    except (KeyError, IndexError, TypeError, ValueError):
        return False
    return True


def drop_unworded(table: Table) -> list[str]:
    """Drop the table's stored lines (history, notice, exchange notes) it cannot word; the
    keys dropped."""
    dropped = [e.key for e in table.log if not _wordable(table, e)]
    table.log = [e for e in table.log if _wordable(table, e)]
    if table.notice is not None and not _wordable(table, table.notice):
        dropped.append(table.notice.key)
        table.notice = None
    for seat, notes in table.exchange_notes.items():
        dropped += [e.key for e in notes if not _wordable(table, e)]
        table.exchange_notes[seat] = [e for e in notes if _wordable(table, e)]
    return dropped
