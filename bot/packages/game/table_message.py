"""The public table message: the trick, whose turn, every player's cards left, role and
points, the recent history and a round's results; and what a closed table's messages say.
Everyone reads it in the table's language."""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import LocaleLike, join_names, plural, t
from bot.packages.cards.emojis import CONTENT_LIMIT, FaceLine, faces
from bot.packages.controls import button, view
from bot.packages.game import chart
from bot.packages.game.lines import (
    bot_shown,
    entry_text,
    leaver_at,
    penalty_words,
    place,
    result_name,
    result_player,
    role_name,
    round_finished,
    seat_name,
    spanish,
    timed,
    trick_faces,
    trick_fit,
    trick_line,
    who_name,
)
from bot.packages.game.unranked import (
    ranked_line,
    result_line,
    round_stand_ins,
    standing_splits,
    unranked_line,
)
from bot.packages.lobby.display import idle_warning, queue_line
from bot.packages.rules_text import table_preset_name
from bot.packages.screen import Screen
from bot.packages.text import shown_text
from bot.tables import graces, hosting, turnover
from bot.tables.deadlines import pause_ends
from bot.tables.hosting import HOST_IDLE_SECONDS
from bot.tables.logentry import LogEntry
from bot.tables.table import Table
from engine import Game, Phase
from engine.events import RoundOver

#: Room kept under Discord's content limit for the line a replaced table message ends with
#: (« the table continues in a newer message below »).
RETIRED_NOTE_ROOM = 80
#: Room for the names of those waiting for the next game, under the results (`queue_line`).
WAITING_ROOM = 300
#: The mark of the seat whose turn it is, as the turn lines start (`table.turn`,
#: `hand.your_turn`). A screen reader says an emoji's name: ▶️ read « bouton lecture »,
#: "play button", a control beside « de jouer » (play-test 25); ➡️ reads « flèche droite »,
#: "right arrow", and looks as it did on a phone, a coloured square.
TURN_MARKER = "➡️"


def title(loc: LocaleLike, table: Table, game: Game) -> str:
    """The message's first line: the round, the preset, and how far the game goes. Someone
    who comes to watch (or to play the next game) reads only this message, the lobby's
    rules scrolled away above it; « Manche 3 » alone did not say whether the game ended
    there or went on for an hour (play-test 30): a set number of rounds reads « sur 5 »,
    « la dernière » at its last, a target its points."""
    preset = table_preset_name(loc, table.rules)
    end = table.rules.game_end
    if end.kind == "rounds" and end.n is not None:
        key = "table.title_last" if game.round_no >= end.n else "table.title_of"
        return t(loc, key, round=game.round_no, rounds=end.n, preset=preset)
    if end.kind == "target" and end.n is not None:
        return t(loc, "table.title_target", round=game.round_no, preset=preset,
                 target=plural(loc, "game_end.target", end.n))
    return t(loc, "table.title", round=game.round_no, preset=preset)


def table_screen(table: Table, now: float) -> Screen:
    game = table.game
    assert game is not None
    loc = table.locale
    lines = [title(loc, table, game)]
    wanted: list[FaceLine] = []
    trick_at: int | None = None  # the trick's line, while tricks are played
    if game.revolution and game.phase is Phase.PLAY:  # a round's end restores the order
        lines.append(t(loc, "table.revolution"))
    # Whose turn it is, or the exchange's, and its countdown, hold only while this is the
    # table's message: a game cut short mid-round (presi's seat given up) left « À fred de
    # jouer, il y a 3 minutes » in the message it retired (play-test 14).
    # A break's lines come first (`pause_lines`); each phase's own are added to both lists
    # (extending `lines` with all of `live` wrote a break's lines twice: play-test 29).
    live: list[str] = pause_lines(table, now)
    lines.extend(live)
    if game.phase is Phase.EXCHANGE:
        exchange = timed(loc, "table.exchange", table)
        live.append(exchange)
        lines.append(exchange)
        pending = []
        for seat in range(game.seats):
            due = game.exchange_due(seat)
            if due is not None:
                pending.append(t(loc, "table.exchange_pair", giver=seat_name(table, due.giver),
                                 receiver=seat_name(table, due.receiver),
                                 cards=plural(loc, "n.cards", due.count)))
        lines.extend(pending)
    elif game.phase is Phase.PLAY:
        trick_at = len(lines)
        lines.append(trick_line(loc, table, game))
        turn: list[str] = []
        if table.rules.fast:
            turn.append(timed(loc, "table.fast", table))
        elif game.to_act is not None:
            turn.append(timed(loc, "table.turn", table, name=seat_name(table, game.to_act)))
        live.extend(turn)
        lines.extend(turn)
    # Said while it holds, like the turn: a table of autopilots, a round's end left waiting.
    warning = idle_warning(table)
    live.extend(warning)
    lines.extend(warning)
    lines.append("")
    # At the game's end the last round's results and the final standings name every
    # seat, with role and points: the seats' own lines would name each a third time.
    over = game.phase is Phase.GAME_OVER and round_finished(table, game)
    players = [] if over else player_lines(loc, table, game)
    # Who waits sits between rounds where bots fill the table, or in a bot's seat at a
    # game with no end (`turnover.round_sitters`), else at the next game. Not at the game's
    # last round: no deal follows it (`turnover.last_round`).
    names = [p.name for p in table.queue]
    sitters = turnover.round_sitters(table)
    waiting = [(names[:sitters], "table.waiting_round"), (names[sitters:], "table.waiting_next")]
    waiting = [(who, key) for who, key in waiting if who]
    if game.phase is not Phase.GAME_OVER:  # (at its end: `host_choice`)
        players.extend(queue_line(loc, who, WAITING_ROOM, key) for who, key in waiting)
    history = [f"• {entry_text(loc, table, e)}" for e in table.log]
    # The lines a break words for now, and as a replaced message keeps them (`retired`).
    frozen = {f"• {entry_text(loc, table, e)}": f"• {entry_text(loc, table, e, kept=True)}"
              for e in table.log if graces.grace_after_break(table, e) is not None}
    results: list[str] = []
    charted = chart_text(loc, table) if game.phase is Phase.GAME_OVER else []
    # What to do next: true only while this is the table's current message.
    instructions: list[str] = []
    pressed: list[tuple[str, list[str]]] = []  # who is asked to press « Ma main », and why
    tip = False  # the instructions are only how to reopen a hand closed by mistake
    quiet: list[str] = []  # from when anyone may choose for a silent host (`takeover_lines`)
    if game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
        results.append("")
        results.extend(results_lines(loc, table, game))
        instructions.extend(host_choice(table, game))
        quiet = takeover_lines(table, now)
        instructions.extend(quiet)
    elif game.phase in (Phase.PLAY, Phase.EXCHANGE):
        # Not one a moderator timed out, as far as the bot knows (`Table.timed_out`): the
        # button refuses them until then (play-test 46), and nothing public says why.
        stale = [p for p in table.humans()
                 if p.user_id is not None and not _hand_live(table, p.user_id, now)
                 and table.seat_of(p.user_id) is not None
                 and table.timed_out.get(p.user_id, 0.0) <= now]
        # A player whose seat waits for them (presi, they left) is told pressing brings
        # them back, not asked as if they were still playing.
        playing = [p.name for p in stale if p.user_id not in table.away]
        away = [p.name for p in stale if p.user_id in table.away]
        pressed = [(key, names) for key, names in (("table.press_hand", playing),
                                                   ("table.press_hand_back", away)) if names]
        if pressed:
            instructions.extend(["", *press_lines(loc, pressed)])
        elif table.humans():  # (someone seated who could have closed theirs)
            # Every hand looks live, but Discord tells the bot nothing when a player
            # dismisses theirs (issue 8 §6): nothing here said how to get it back until
            # their turn ran out (play-test 13).
            instructions.extend(["", t(loc, "table.reopen_hand")])
            tip = True
    # Eight seats with long names overrun Discord's 2,000 characters (the content would be
    # cut, standings and all): the oldest history lines go first, as many as needed, leaving
    # room for the note a retired table message ends with. Names of markdown characters,
    # twice as long once escaped, overrun it still: then the players' lines go too, since
    # the results name every player with their role and points.
    # A trick of twenty plays or more at such a table overruns it still: its oldest plays
    # give way next (`trick_fit`), the one to beat always shown.
    def excess() -> int:
        recent = ["", t(loc, "table.recent"), *history] if history else []
        return len("\n".join([*lines, *players, *recent, *results, *charted,
                              *instructions])) - (CONTENT_LIMIT - RETIRED_NOTE_ROOM)

    def overruns() -> bool:
        return excess() > 0
    if quiet and overruns():
        # At a round's or game's end the takeover's line gives way first, before any
        # result: a host action refused says it too (`err.not_host_later`).
        instructions = instructions[:-len(quiet)]
    if tip and overruns():
        # The tip gives way first: the button stays, and the history says what happened
        # (the history went first, every line of it if need be, to keep the tip).
        instructions = []
    while history and overruns():
        del history[0]
    skip = 0
    if trick_at is not None and overruns():
        skip = trick_fit(loc, table, game, len(lines[trick_at]) - excess())
        lines[trick_at] = trick_line(loc, table, game, skip)
    if trick_at is not None:
        wanted.extend(trick_faces(game, trick_at, skip))
    # Eight names of markdown characters, with a list for the next game, overran an
    # exchange (no history, no trick to shorten) when nobody's hand was live, and the cut
    # took the line asking them to press « Ma main » (play-test 19): who waits for the
    # next game, then who is asked to press, give way to their count.
    if overruns() and waiting and game.phase in (Phase.PLAY, Phase.EXCHANGE):
        players[-len(waiting):] = [queue_line(loc, who, 0, key) for who, key in waiting]
    if overruns() and game.phase in (Phase.PLAY, Phase.EXCHANGE) and instructions:
        instructions = ["", *press_lines(loc, pressed, counted=True)]
    if results and players and overruns():
        players = []
    if not players:
        del lines[-1]  # the blank line above them
    if overruns():  # then the chart's text too: the standings sum it up
        charted = []
    # Eight names of markdown characters, each doubled by its escapes, overrun a finished
    # game's results still, and Discord's cut took what the host may do next (play-test
    # 19): the list for the next game gives way to its count, then the last round's lines,
    # as the final standings name everyone with their points.
    if overruns() and game.phase is Phase.GAME_OVER and table.queue:
        instructions = host_choice(table, game, waiting_room=0)
    # Play-test 41's words on a penalised finish give way before the round's lines do:
    # eight names of markdown characters, several out on a 7, lost every result to them.
    if overruns() and results and round_finished(table, game) and game.penalised:
        results = ["", *results_lines(loc, table, game, penalties=False)]
    if overruns() and game.phase is Phase.GAME_OVER and round_finished(table, game):
        results = ["", *results_lines(loc, table, game, round_lines=False)]
    # Those waiting for a seat with the points they gave theirs up with stand in the final
    # standings too: with a dozen of them, the standings alone overran, and the cut took the
    # host's choice (review of play-test 19). Their last places give way to their count.
    titled = t(loc, "table.standings")
    if overruns() and game.phase is Phase.GAME_OVER and titled in results:
        start = results.index(titled)
        room = len("\n".join(results[start:])) - excess()
        results = [*results[:start], *standings(loc, table, game, room)]
    lines.extend(players)
    if history:
        lines.extend(["", t(loc, "table.recent"), *history])
    lines.extend(results)
    lines.extend(charted)
    # Face lines go above the instructions, so the retired text keeps them too.
    shown = faces.with_lines(lines + instructions, wanted, spanish(table), loc)
    kept = [frozen.get(line, line) for line in shown[:len(shown) - len(instructions)]
            if line not in live]
    if len("\n".join(kept)) > CONTENT_LIMIT - RETIRED_NOTE_ROOM:
        # The faces, added up to Discord's 2,000, left no room for the retired message's
        # last line (« ⬇️ La table continue… »), which the cut took mid-word: it keeps the
        # cards' text lines alone (play-test 19).
        kept = [frozen.get(line, line) for line in lines if line not in live]
    return Screen("\n".join(shown), table_view(table, game), retired="\n".join(kept))


def pause_lines(table: Table, now: float) -> list[str]:
    """The host's break (`Table.pause`): since when, who called it and why, and how it
    ends, by the host's button or the table's close once it has lasted too long
    (`Deadlines._pause_over`), the time nobody could continue it not counted
    (`pause_ends`: an outage's end redraws it). Live lines: a retired message does not
    keep them."""
    pause = table.pause
    if pause is None:
        return []
    loc = table.locale
    key = "table.paused_reason" if pause.reason else "table.paused"
    closes = int(pause_ends(pause, now))
    # A player's own break ends by itself (stop 50): the game goes on then, not closes.
    until = "table.paused_own_until" if pause.own else "table.paused_until"
    return [t(loc, key, name=pause.name, since=f"<t:{int(pause.since)}:t>",
              reason=pause.reason),
            t(loc, until, button=t(loc, "btn.play_on"), at=f"<t:{closes}:R>",
              name=pause.name, lengthen=t(loc, "btn.lengthen"))]


def press_lines(loc: LocaleLike, pressed: list[tuple[str, list[str]]],
                counted: bool = False) -> list[str]:
    """The lines asking players whose hand is not live to press « Ma main », one per key
    (`table.press_hand`, `table.press_hand_back`), naming them, or, ``counted``, their
    number (« 🔔 8 personnes : appuyez… »)."""
    return [plural(loc, key, len(names), names=plural(loc, "lobby.queue_count", len(names))
                   if counted else join_names(loc, names))
            for key, names in pressed]


def retired_text(table: Table, now: float) -> str | None:
    """What the table message keeps once a newer one takes over, drawn from the table's
    state now (`Display.keep`): None without a game, or without a message to retire."""
    if table.game is None or table.table_message_id is None:
        return None
    return table_screen(table, now).retired


def chart_text(loc: LocaleLike, table: Table) -> list[str]:
    """The end-of-game chart as text, where the bot may not attach it, or its upload to this
    message failed for good (`Table.chart_unsent`): its alt text has every value, so the
    results still read completely. While the chart can be attached (or may be: a restored
    table has not heard yet, `Table.attach_files`), only who the picture shows as their seat
    (« Joueur 3 », for a name its fonts cannot draw), if anyone."""
    shown = chart.points_chart(table, loc)
    if shown is None:
        return []
    unsent = table.chart_unsent is not None and table.chart_unsent == table.table_message_id
    if table.attach_files is False or unsent:
        return ["", t(loc, "table.chart_text", chart=shown_text(shown.alt))]
    if not shown.stand_ins:
        return []
    pairs = [t(loc, "chart.stand_in_pair", label=label, name=name)
             for label, name in shown.stand_ins]
    return ["", t(loc, "table.chart_stand_ins", pairs=join_names(loc, pairs))]


def host_name(table: Table) -> str:
    """The host, seated or waiting (a host who left handed the role on: `pass_host`)."""
    return next((p.name for p in [*table.seats, *table.queue] if p.user_id == table.host_id),
                "?")


def host_choice(table: Table, game: Game, waiting_room: int = WAITING_ROOM) -> list[str]:
    """What the host chooses between, naming them: the role may have passed to someone
    since the game began. A finished game also names who asked to join the next one
    (`Seating.join`, within ``waiting_room`` characters), and a table without a queue says
    « Rejouer » seats them while the rules leave room."""
    loc = table.locale
    if game.phase is not Phase.GAME_OVER:
        return [t(loc, "table.host_next", host=host_name(table))]
    if not table.queue:
        return [t(loc, "table.host_over", host=host_name(table))]
    names = [p.name for p in table.queue]
    key = "table.host_over" if table.rules.bots_fill else "table.host_over_waiting"
    return [queue_line(loc, names, waiting_room, "table.waiting_next"),
            t(loc, key, host=host_name(table), max=table.rules.max_players)]


def takeover_lines(table: Table, now: float) -> list[str]:
    """A host silent HOST_IDLE_SECONDS may be replaced by anyone seated who uses a host
    action (`hosting.may_host`), which nobody learnt before trying one and being refused
    (`err.not_host_later`, play-test 24): said under the host's choice, where another
    person sits to do it."""
    others = [p.user_id for p in table.humans()
              if p.user_id is not None and p.user_id != table.host_id]
    if not others:
        return []
    if hosting.may_host(table, others[0], now):
        return [t(table.locale, "table.host_quiet")]
    at = int(table.host_seen + HOST_IDLE_SECONDS) + 1
    return [t(table.locale, "table.host_quiet_at", at=f"<t:{at}:R>")]


def _hand_live(table: Table, user_id: int, now: float) -> bool:
    """Whether the player surely sees a live hand: a valid link, and no turn let run out
    since it was shown (a hand dismissed looks live to the bot; play-test 13's newcomer
    was never asked back while the timer played turn after turn)."""
    link = table.hands.get(user_id)
    return link is not None and link.valid(now) and not link.lapsed and not link.frozen


def player_lines(loc: LocaleLike, table: Table, game: Game) -> list[str]:
    roles = game.roles
    sizes = game.hand_sizes()
    # Once the round is over the results give the places; a finishing-order place here
    # would contradict them for players sent down by the finish penalty.
    playing = game.phase in (Phase.PLAY, Phase.EXCHANGE)
    lines = []
    for seat in game.players:
        extras = ""
        if roles[seat]:
            extras += t(loc, "table.role", role=role_name(loc, table, roles[seat]))
        extras += t(loc, "table.points", points=plural(loc, "n.points", game.points[seat]))
        finished = game.finish_place(seat)
        if finished is not None and playing:
            extras += t(loc, "table.out", place=place(loc, finished))
        elif seat in game.passed:
            extras += t(loc, "table.passed")
        if game.automated(seat) and not table.seats[seat].is_bot:
            extras += t(loc, "table.auto")
        if table.seats[seat].user_id == table.host_id:  # as the lobby marks them
            extras += t(loc, "table.host_mark")
        if table.seats[seat].is_bot:
            extras += t(loc, "table.bot_level",
                        level=t(loc, f"level.{table.seats[seat].level}"))
        if not playing and table.seats[seat].vacant:
            # Its player left this round and the seat is freed (no bot keeps it here): the
            # plain name beside its role read as if they still sat, under results that
            # name « 🤖 bob » (play-test 20).
            extras += t(loc, "table.seat_left")
        elif not playing and result_name(table, seat) != seat_name(table, seat):
            # The seat changed hands as the round ended (a bot for a leaver, someone from
            # the queue): the results above name who played it.
            held = result_player(table, seat)
            extras += took_seat(loc, held.name, held.level if held.is_bot else None)
        elif playing and (took_from := table.seats[seat].took_from) is not None:
            # Someone from the queue sat at this round's deal: the role beside them is the
            # seat's, which they did not earn (`seats.seat_waiting_players`; play-test 16).
            extras += took_seat(loc, took_from, table.seats[seat].took_from_level)
        marker = f"{TURN_MARKER} " if game.to_act == seat and game.phase is Phase.PLAY else ""
        if sizes[seat] == 0:  # « 0 carte » beside « a fini » is noise on a phone's line
            lines.append(t(loc, "table.player_done", marker=marker,
                           name=seat_name(table, seat), extras=extras))
            continue
        lines.append(t(loc, "table.player", marker=marker, name=seat_name(table, seat),
                       cards=plural(loc, "n.cards", sizes[seat]), extras=extras))
    return lines


def took_seat(loc: LocaleLike, name: str, level: str | None) -> str:
    """« · à la place de marie », whom a seat's player replaced; a bot named as on its own
    line, marked and its level said (« · à la place de 🤖 Bot 1 (niveau normal) »). `level`:
    the bot's, None for a person (or a bot a snapshot from before levels were kept names)."""
    if level is None:
        return t(loc, "table.took_seat", name=name)
    return t(loc, "table.took_seat_bot", name=bot_shown(name), level=t(loc, f"level.{level}"))


def results_lines(loc: LocaleLike, table: Table, game: Game,
                  round_lines: bool = True, penalties: bool = True) -> list[str]:
    """The round's results, and at the game's end who won and the final standings;
    without `round_lines`, a finished game's round results are left out, without
    `penalties` their words on a penalised finish (`table_screen`, where they would not
    fit)."""
    if not round_finished(table, game):
        lines = [t(loc, "table.stopped", round=game.round_no)]
        if game.winners:  # (a bot marked as on every other line: « 🤖 Bot 1 »)
            names = [leaver_at(table, game, who) or who_name(table, who)
                     for who in game.winners]
            lines.append(plural(loc, "table.game_over", len(names),
                                names=join_names(loc, names)))
        if game.round_no > 1:  # stopped in its first round, nobody has scored: no standings
            lines.extend(standings(loc, table, game))
        return lines
    over = game.phase is Phase.GAME_OVER
    lines = round_result_lines(loc, table, game, penalties) if round_lines or not over else []
    if not over:
        return lines
    if lines:
        lines.append("")
    if game.winners:
        names = [who_name(table, who) for who in game.winners]
        lines.append(plural(loc, "table.game_over", len(names), names=join_names(loc, names)))
    else:
        lines.append(t(loc, "table.game_over_none"))
    lines.extend(standings(loc, table, game))
    return lines


def round_result_lines(loc: LocaleLike, table: Table, game: Game,
                       penalties: bool = True) -> list[str]:
    """A finished round's results: each seat's place, role and points, and with
    `penalties` why a penalised finish ranks where it does."""
    lines = [t(loc, "table.round_over", round=game.round_no)]
    roles = game.roles
    # The totals as the round ended: a seat that changed hands since starts afresh
    # (`Game.take_seat`), but these lines name who played it.
    ended = next((e for e in table.results if isinstance(e, RoundOver)), None)
    totals = ended.totals if ended is not None else tuple(game.points)
    stand_ins = round_stand_ins(table, game, totals)
    for index, seat in enumerate(game.ranking or ()):
        role = roles[seat]
        gained = table.rules.points.get(role, 0) if role else 0
        name, shown = result_name(table, seat), role_name(loc, table, role)
        # A leaver's stand-in: whose points are whose, as the standings say it.
        split = stand_ins.get(seat)
        line = t(loc, "table.result_line", place=index + 1, name=name, role=shown,
                 gained=gained, total=plural(loc, "n.points", totals[seat])) \
            if split is None else result_line(loc, index + 1, name, shown, gained, split)
        # Why a player out first ranks last: the history's « finished on a 2 » has often
        # scrolled away by the round's end (play-test 41).
        penalty = penalty_words(loc, table, game, seat) if penalties else None
        if penalty is not None:
            line = t(loc, f"table.result_penalised{penalty[0]}", line=line, **penalty[1])
        lines.append(line)
    return lines


def standings(loc: LocaleLike, table: Table, game: Game, room: int | None = None) -> list[str]:
    """The game's totals, best first, placed as the rules place them (`Game.standings`):
    those waiting in the queue with the points they left their seat with are said to be
    there, as the round's results, which name the seats, do not name them. Within ``room``
    characters, the last places give way to how many they are (« … et 5 autres »), the
    first always named: eight seats and a dozen waiting, of names in markdown characters,
    took the results past Discord's 2,000 characters (review of play-test 19)."""
    ranked = game.standings()
    splits = standing_splits(table, game, ranked)
    full = [t(loc, "table.standings")]
    for who, rank in ranked:
        key = "table.standing_line" if isinstance(who, int) else "table.standing_waiting"
        split = splits.seats.get(who) if isinstance(who, int) else None
        total = plural(loc, "n.points", game.total(who))
        if split is not None:
            full.append(ranked_line(loc, rank, who_name(table, who), split))
        elif (leaver := leaver_at(table, game, who)) is not None:
            # Their seat, its points theirs, marked as the seat lines mark one who left.
            full.append(t(loc, key, place=rank, name=leaver, total=total)
                        + t(loc, "table.seat_left"))
        else:
            full.append(t(loc, key, place=rank, name=who_name(table, who), total=total))
    full.extend(unranked_line(loc, left) for left in splits.left)
    lines, named = full, len(ranked)
    while room is not None and named > 1 and len("\n".join(lines)) > room:
        named -= 1
        lines = [*full[:1 + named], plural(loc, "table.standings_more", len(ranked) - named)]
    return lines


def closed_lines(table: Table) -> list[str]:
    """What a closed table's messages say: why (when known), the standings of the game it
    was playing if a round of it finished (a round in progress has no result), and that
    the table is closed."""
    loc = table.locale
    lines: list[str] = []
    game = table.game
    at = ranked = 0  # where the standings start, and how many they rank
    if game is not None:
        lines.append(title(loc, table, game))
        if game.phase is Phase.GAME_OVER:
            # A finished game closed later (idle after it, say) keeps who won: its
            # message lost the « 🏆 » line and kept only the standings (play-test 14).
            names = [who_name(table, who) for who in game.winners]
            lines.append(plural(loc, "table.game_over", len(names),
                                names=join_names(loc, names)) if names
                         else t(loc, "table.game_over_none"))
        if game.ranking is not None or game.phase is Phase.GAME_OVER:
            shown = standings(loc, table, game)
            at, ranked = len(lines), len(shown) - 1
            lines.extend(shown)
        lines.append("")
    notice = closing_notice(table.notice)
    if notice is not None:
        lines.append(entry_text(loc, table, notice))
    lines.append(t(loc, "lobby.closed"))
    excess = len("\n".join(lines)) - CONTENT_LIMIT
    if game is not None and ranked and excess > 0:
        # The standings of a dozen waiting beside eight seats took the closing past
        # Discord's 2,000 characters, whose cut took « Cette table est fermée. »: their
        # last places give way to their count, as on the results (`table_screen`).
        room = len("\n".join(lines[at:at + 1 + ranked])) - excess
        lines[at:at + 1 + ranked] = standings(loc, table, game, room)
    return lines


# The lobby's notices that tell what to do next there (press Start, the new host's say),
# which a closed table contradicts: « l’hôte appuie sur Lancer pour rejouer » above « Cette
# table est fermée » (play-test 18).
LOBBY_ONLY = frozenset({"table.finished", "lobby.new_host", "lobby.bot_gave_way"})


def closing_notice(notice: LogEntry | None) -> LogEntry | None:
    """What of the lobby's notice a closed table's messages keep: why it went back to its
    lobby (a game cancelled, a member gone), not what to do there now."""
    if notice is None or notice.key in LOBBY_ONLY:
        return None
    if notice.key == "lobby.new_host_gone":  # who left stays; who hosts next no longer matters
        return LogEntry("table.member_gone", {"name": notice.params["gone"]}, notice.people)
    return notice


def table_view(table: Table, game: Game) -> discord.ui.View:
    loc = table.locale
    items: list[discord.ui.Item[Any]] = []
    if game.phase is not Phase.GAME_OVER:
        items.append(button(table.id, "hand", t(loc, "btn.my_hand"),
                            style=discord.ButtonStyle.primary))
    if game.phase is Phase.ROUND_OVER:
        items.append(button(table.id, "next", t(loc, "btn.next_round"),
                            version=game.version, style=discord.ButtonStyle.success))
    if game.phase is Phase.GAME_OVER:  # between rounds the game goes on: no replay offered
        # First, as the results line names it (« **Rejouer** ou **Terminer** ») and as
        # « Manche suivante » comes before « Terminer » between rounds.
        items.append(button(table.id, "replay", t(loc, "btn.replay"), version=game.version,
                            style=discord.ButtonStyle.success))
    if game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
        items.append(button(table.id, "end", t(loc, "btn.end_game"), version=game.version,
                            style=discord.ButtonStyle.danger))
    # The host's break, during a game under way (`bot.tables.breaks`); a finished game
    # has no clock to hold, the lobby no game.
    if table.pause is not None:
        items.append(button(table.id, "play_on", t(loc, "btn.play_on"),
                            style=discord.ButtonStyle.success))
    elif game.phase is not Phase.GAME_OVER:
        items.append(button(table.id, "pause", t(loc, "btn.pause")))
    # A friend watching asks for a seat from here as with `/president join`: the queue
    # between rounds (`bots_fill`), else the list for the next game (Seating.join).
    items.append(button(table.id, "join", t(loc, "btn.join")))
    if table.pause is not None and table.pause.own:
        # The host makes a player's own break theirs from where every host control is
        # (stop 52): a host whose hand is not open, or who does not play, had only
        # `/president pause`. Anyone else is refused, privately (`Breaks.lengthen`).
        # Last, in the row while it has room, else alone on a second (between rounds).
        items.append(button(table.id, "extend", t(loc, "btn.lengthen"),
                            arg=str(int(table.pause.since))))
    return view(*items)
