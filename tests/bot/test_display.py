"""Rendering of hands and the table from engine states (no Discord connection needed)."""

import re
from typing import Any

import discord
import pytest

from bot.i18n import join_names, plural, t
from bot.i18n.cards import rank_words, shorts
from bot.i18n.typography import french
from bot.packages.controls import CUSTOM_ID, error_text
from bot.packages.game import hand_plays, lines, prompts
from bot.packages.game.hand import hand_screen
from bot.packages.game.hand_plays import option_value, parse_option
from bot.packages.game.table_message import table_screen
from bot.packages.game.views import refusal
from bot.packages.lobby.display import lobby_screen
from bot.packages.rules_text import end_line, knob_value
from bot.tables.log import note
from bot.tables.logentry import LogEntry
from bot.tables.players import Player
from bot.tables.service import TableError
from bot.tables.table import Table
from bot.tables.tokens import HandLink
from engine import Card, Game, GreedyPlayer, Phase, Rules
from engine.events import GameOver, RoundOver


def table_for(preset: str, seats: int, seed: int = 3, **kwargs: Any) -> Table:
    rules = Rules.preset(preset)
    table = Table(id=7, channel_id=1, guild_id=1, host_id=100, locale="en", rules=rules)
    table.seats = [Player(100 + s, f"p{s}") for s in range(seats)]
    table.game = Game.new(rules, seats=seats, seed=seed, **kwargs)
    return table


def unwrap(item: discord.ui.Item[Any]) -> discord.ui.Button[Any] | discord.ui.Select[Any]:
    """A restart-safe DynamicItem's own button or select; any other item itself."""
    inner = item.item if isinstance(item, discord.ui.DynamicItem) else item
    assert isinstance(inner, discord.ui.Button | discord.ui.Select), inner
    return inner


def selects(view: discord.ui.View | None) -> list[discord.ui.Select[Any]]:
    assert view is not None
    return [i for i in map(unwrap, view.children) if isinstance(i, discord.ui.Select)]


def test_every_legal_play_is_offered_across_pages_within_discord_limits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = table_for("wild7", 2)
    game = table.game
    assert game is not None and game.to_act is not None
    seat = game.to_act
    legal = {option_value(choice) for o in game.legal_plays(seat)
             for choice in hand_plays.suit_choices(game, seat, o)}  # each choice of suits
    assert len(legal) > 25  # 26 cards with wild 7s: more than one select can hold
    monkeypatch.setattr(hand_plays, "SELECTS_PER_PAGE", 1)  # force paging
    offered: set[str] = set()
    for page in range(20):
        screen = hand_screen(table, 100 + seat, "en", page=page)
        menus = selects(screen.view)
        assert len(menus) <= 1
        assert all(len(m.options) <= 25 for m in menus)
        assert screen.view is not None and len(screen.view.children) <= 25
        for item in screen.view.children:
            assert CUSTOM_ID.fullmatch(unwrap(item).custom_id or "")
        offered |= {o.value for m in menus for o in m.options}
    assert offered == legal
    cards, announce = parse_option(next(iter(legal)))
    assert cards


def test_presi_high_role_gives_its_weakest_cards_pre_checked() -> None:
    table = table_for("presi", 3, previous_ranking=[0, 1, 2])
    game = table.game
    assert game is not None and game.phase is Phase.EXCHANGE
    due = game.exchange_due(0)
    assert due is not None and due.mode == "weakest"
    screen = hand_screen(table, 100, "fr")
    assert "Échange à l’aveugle" in screen.content
    menu = selects(screen.view)[0]
    chosen = [o.value for o in menu.options if o.default]
    assert chosen == [str(c) for c in due.allowed[:due.count]]
    assert screen.view is not None
    confirm = [i.custom_id for i in map(unwrap, screen.view.children)
               if ":give_ok:" in (i.custom_id or "")]
    assert confirm == [f"pz:7:give_ok:{game.version}:{'.'.join(chosen)}"]


def test_table_message_shows_turn_countdown_counts_and_roles() -> None:
    table = table_for("classic", 4, previous_ranking=[0, 1, 2, 3])
    game = table.game
    assert game is not None
    table.timer_deadline = 1_700_000_030.0
    screen = table_screen(table, 1_700_000_000.0)
    assert "<t:1700000030:R>" in screen.content
    assert "President" in screen.content and "Scum" in screen.content
    assert "p0 must give 2 cards to p3" in screen.content
    assert "p1 must give 1 card to p2" in screen.content
    assert "p3 must give" not in screen.content  # the low role's gift is automatic


def play_out(table: Table, game: Game) -> None:
    """Every seat plays greedily until the round (or the game) is over; the table keeps
    its results, as the service does."""
    for _ in range(2000):
        if game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
            return
        dues = [game.exchange_due(s) for s in range(game.seats)]
        seat = next(s for s, due in enumerate(dues)
                    if (due is not None and due.ready) or game.to_act == s)
        events = game.apply(seat, GreedyPlayer().choose(game, seat))
        table.results.extend(e for e in events if isinstance(e, RoundOver | GameOver))
    raise AssertionError("the round did not end")


def test_french_results_screen_after_the_last_round() -> None:
    table = table_for("classic", 4)
    table.locale = "fr"
    table.rules = table.rules.replace(game_end="rounds:1")
    table.game = Game.new(table.rules, seats=4, seed=5)
    game = table.game
    play_out(table, game)
    assert game.phase is Phase.GAME_OVER
    text = table_screen(table, 0.0).content
    assert "a fini (" not in text  # places come from the results, not the finishing order
    assert re.search(r"\b1 (cartes|pts)\b", text) is None
    assert "Classement final" in text
    assert (french("victoire :") in text) == (len(game.winners) == 1)
    assert french("L’hôte, p0, choisit : **Rejouer** ou **Terminer** pour revenir au salon "
        "d’attente.") in text
    assert "manche suivante" not in text.lower()
    best = max(game.points)
    first = next(s for s in game.players if game.points[s] == best)
    assert french(f"1. **p{first}** · {best} pts") in text
    assert "La partie est terminée." in hand_screen(table, 100, "fr").content


def test_french_hand_words_and_cards() -> None:
    table = table_for("classic", 4, previous_ranking=[0, 1, 2, 3])
    table.seats[1].user_id = table.seats[2].user_id = table.seats[3].user_id = None
    table.locale = "fr"
    table.exchange_notes[0] = [LogEntry("hand.received", {"cards": ["QS", "2H"],
                                                          "name": "p3"})]
    hand = hand_screen(table, 100, "fr").content
    assert "p3 t’a donné D♠ 2♥." in hand  # known before choosing what to give back
    assert "Donne **2 cartes** à **🤖 p3**" in hand  # a bot, marked as the table marks it
    assert "carte(s)" not in hand
    board = table_screen(table, 0.0).content
    assert french("🔔 p0 : appuie sur **Ma main** pour voir tes cartes et jouer.") in board
    assert "p0 doit donner 2 cartes à 🤖 p3" in board  # marked as on its own line
    entry = LogEntry("ev.penalised", {"name": "p2", "place": 4})
    assert lines.entry_text("fr", table, entry) == \
        french("p2 a fini sur un 2 : 4e place")


def test_waiting_hand_names_the_player_to_act_and_wild_announces_are_shown() -> None:
    table = table_for("wild7", 2)
    game = table.game
    assert game is not None and game.to_act is not None
    waiting = 1 - game.to_act
    content = hand_screen(table, 100 + waiting, "fr").content
    assert f"c’est à **p{game.to_act}** de jouer" in content
    announced = next(o for o in game.legal_plays(game.to_act) if o.announce == "Q")
    game.play(game.to_act, announced.cards, "Q")
    assert "→ D" in lines.trick_line("fr", table, game)  # a 7 played as a Queen (Dame)


def test_refusals_and_points_read_naturally() -> None:
    assert error_text("fr", TableError("engine.wrong_give_count", count=1)) == \
        "Donne exactement 1 carte."
    assert error_text("en", TableError("engine.must_give_best", count=2)) == \
        "You must give your best cards (2 cards)."
    presi = Rules.preset("presi")
    assert knob_value("fr", "points", presi.points, presi) == \
        "Président 2 · Vice-président 1 · Neutre 0 · Vice-Culo 0 · Culo 0"
    assert knob_value("fr", "game_end", presi.game_end, presi) == "11 points à atteindre"
    assert knob_value("en", "game_end", Rules.preset("classic", game_end="rounds:1").game_end,
                      presi) == "1 round"


def test_same_or_nothing_says_what_may_be_played() -> None:
    table = table_for("wild7", 2)
    game = table.game
    assert game is not None and game.to_act is not None
    first = game.to_act
    second = 1 - first
    held = {c.rank for c in game.hand(second)}
    lead = next(o for o in game.legal_plays(first)
                if o.count == 1 and not o.wilds and o.value in held and o.value != "2")
    game.play(first, lead.cards)
    answer = next(o for o in game.legal_plays(second)
                  if o.count == 1 and not o.wilds and o.value == lead.value)
    game.play(second, answer.cards)
    assert game.to_act == first
    words = rank_words("fr", lead.value, 1, False)
    assert any(card.rank == "7" for card in game.hand(first))  # a 7 may not stand in: said
    assert french(f"🤐 Même valeur ou rien : joue {words} ou passe ; un 7 ne peut pas servir "
                  "de joker ici.") in hand_screen(table, 100 + first, "fr").content


def test_french_lobby_lists_changed_rules_with_french_punctuation() -> None:
    table = Table(id=7, channel_id=1, guild_id=1, host_id=100, locale="fr",
                  rules=Rules.preset("classic", fast=True), seats=[Player(100, "p0")])
    assert french("Règles : 5 manches · Mode rapide (sans tours) : oui") in \
        lobby_screen(table).content


def test_plays_that_doom_the_finish_say_so_in_the_menu() -> None:
    """Classic sends down whoever goes out on a 2: the menu warns of a play that leaves only
    2s, and of going out on one, in the player's language. The plays stay offered."""
    table = table_for("classic", 3, hands=[[Card.parse(c) for c in hand] for hand in (
        ("6C", "2D"), ("3H", "4H", "5H"), ("7H", "8H", "9H"))], opener=0)
    options = {o.value: o.description or "" for s in selects(hand_screen(table, 100, "fr").view)
               for o in s.options}
    assert "⚠️ ne te laisse que des cartes pénalisantes pour finir" in options["6C"]
    assert "⚠️" not in options["2D"]
    table.game = Game.new(table.rules, seats=3, seed=3, opener=0, hands=[
        [Card.parse("2D")], [Card.parse(c) for c in ("3H", "4H")], [Card.parse("7H")]])
    alone = next(o for s in selects(hand_screen(table, 100, "en").view) for o in s.options)
    assert "⚠️ a penalised finish: you go down the ranking" in (alone.description or "")


def test_the_hand_says_why_it_can_only_pass_and_shows_the_table_off_turn() -> None:
    table = table_for("classic", 3, hands=[[Card.parse(c) for c in hand] for hand in (
        ("AC", "3D"), ("4H", "5H"), ("6H", "7H"))], opener=0)
    game = table.game
    assert game is not None
    game.play(0, [Card.parse("AC")])
    watching = hand_screen(table, 102, "fr").content  # seat 2 waits for seat 1
    assert "c’est à **p1** de jouer" in watching and "A♣" in watching
    assert french("Rien dans ta main ne bat ce qui est sur la table : tu ne peux que passer.") in \
        hand_screen(table, 101, "fr").content


@pytest.mark.parametrize(("preset", "seats", "phase", "says"), [
    ("classic", 4, Phase.PLAY, "Un bot finit la manche à ta place, puis la partie continue"),
    ("classic", 4, Phase.ROUND_OVER, "Elle continue sans toi dès la prochaine manche."),
    ("classic", 3, Phase.PLAY, french(
        "Un bot finit la manche à ta place ; ensuite, il ne restera plus assez de monde à la "
        "table : la partie s’arrête et la table revient au salon d’attente.")),
    ("classic", 3, Phase.ROUND_OVER, "Il ne restera plus assez de monde à la table"),
    ("proletario", 4, Phase.PLAY, "Un bot prend ta place."),
    ("proletario", 4, Phase.ROUND_OVER, "Un bot prend ta place."),
    ("presi", 4, Phase.EXCHANGE, french("Ta place t’attend 60 secondes")),
    ("presi", 4, Phase.ROUND_OVER, "Elle continue sans toi dès la prochaine manche"),
])
def test_the_leave_prompt_says_what_leaving_does_by_the_rules(
    preset: str, seats: int, phase: Phase, says: str
) -> None:
    """Between rounds a leaver's seat goes at once (a bot's where bots fill tables); in a
    round presi waits for them, else a bot finishes it (Seating.remove); a seat freed
    below min_players (3 in classic) sends the table to its lobby."""
    table = table_for(preset, seats)
    assert table.game is not None
    table.game.phase = phase
    table.game_no = 3
    screen = prompts.quit_prompt(table, 101, "fr")
    assert screen.content.startswith(french("Quitter la partie ? ")) and says in screen.content
    assert "s’il reste" not in screen.content
    assert screen.view is not None
    [leave] = map(unwrap, screen.view.children)
    assert isinstance(leave, discord.ui.Button)
    assert (leave.label, leave.style, leave.custom_id) == (
        "Quitter la partie", discord.ButtonStyle.danger, "pz:7:quit:0:3.101")


def test_the_leave_prompt_counts_the_seats_already_leaving() -> None:
    """A player who left mid-round keeps a bot in their seat until the round ends, then the
    seat goes: a second leaver of four in classic leaves two, below its three."""
    table = table_for("classic", 4)
    table.left_seats.add(2)
    assert "revient au salon d’attente" in prompts.quit_prompt(table, 101, "fr").content
    assert "goes back to its lobby" in prompts.quit_prompt(table, 101, "en").content


def test_choices_of_suits_from_the_hand_given_are_the_engines() -> None:
    """A hand's render sorts the hand once and hands it to `suit_choices`: the same
    choices as when it asks the engine, before and after the hand changes."""
    table = table_for("classic", 4)
    game = table.game
    assert game is not None
    for _ in range(6):
        seat = game.to_act
        assert seat is not None
        for option in game.legal_plays(seat):
            assert hand_plays.suit_choices(game, seat, option, game.hand(seat)) == \
                hand_plays.suit_choices(game, seat, option)
        if game.phase is not Phase.PLAY:
            break
        game.apply(seat, GreedyPlayer().choose(game, seat))


def test_a_gift_held_back_by_a_blind_exchange_says_where_it_goes() -> None:
    """Proletario's exchange is blind and gives the low roles' best cards for them: a
    play-test's Proletario saw only « On attend… » beside cards already promised away."""
    table = table_for("proletario", 4, previous_ranking=[0, 1, 2, 3])
    game = table.game
    assert game is not None and game.phase is Phase.EXCHANGE
    held = game.gift_on_hold(3)  # the Proletario: their best cards, chosen by the rules
    assert held is not None and held[0] == 0 and held[2]
    screen = hand_screen(table, 103, "fr")
    cards = shorts("fr", held[1], False)
    assert f"La règle te fait donner {cards} à **p0**" in screen.content
    assert "On attend que les autres finissent l’échange." in screen.content
    assert game.gift_on_hold(0) is None  # the President has yet to choose
    due = game.exchange_due(0)
    assert due is not None
    game.give(0, due.allowed[:due.count])
    given = shorts("en", due.allowed[:due.count], False)
    assert f"You give {given} to **p3**" in hand_screen(table, 100, "en").content



@pytest.mark.parametrize(("locale", "more"), [("fr", "et {n} autres"), ("en", "and {n} more")])
def test_a_long_queue_is_cut_short_so_the_lobby_keeps_its_last_lines(
    locale: str, more: str
) -> None:
    """From the play-test: eight long names at the table and six or more waiting made the
    lobby longer than Discord's 2,000 characters, which cut its last lines off. The queue
    now names whom it can and counts the others."""
    table = Table(id=7, channel_id=1, guild_id=1, host_id=100, locale=locale,
                  rules=Rules.preset("classic").replace(max_players=8))
    long_name = "\\_" * 16 + "x" * 16  # 32 characters typed, escaped as 48
    table.seats = [Player(100 + s, f"{s}{long_name}") for s in range(8)]
    hint = lobby_screen(table).content.splitlines()[-1]
    table.queue = [Player(200 + s, f"q{s}{long_name}" * 2) for s in range(30)]
    content = lobby_screen(table).content
    assert len(content) <= 2000
    assert content.splitlines()[-1] == hint
    queue = next(line for line in content.splitlines() if line.startswith(
        "En attente" if locale == "fr" else "Waiting"))
    shown = sum(f"q{s}{long_name}" in queue for s in range(30))
    assert 0 < shown < 30 and queue.endswith(more.format(n=30 - shown))
    assert f"q{shown - 1}{long_name}" in queue  # the first to arrive are named

    table.queue = table.queue[:3]  # a short queue is named in full
    # (in the lobby, they take seats as seats free or the host opens more: `seat_queue`)
    assert t(locale, "lobby.queue",
             names=join_names(locale, [p.name for p in table.queue])) \
        in lobby_screen(table).content.splitlines()


def test_too_late_names_who_played_and_no_one_when_nobody_did() -> None:
    """From play-test 10: in fast mode a play picked as the timer closed the trick was
    refused with « Trop tard : ? a joué avant toi »: the engine names no player (its
    `last_player` is None) when the trick changed without a play."""
    from bot.packages.game.views import refusal

    table = table_for("classic", 3)
    reader = table.seats[0].user_id
    assert reader is not None
    assert refusal("fr", table, TableError("engine.stale", by=1), reader) == \
        "⚠️ " + t("fr", "err.too_late", name="p1")
    refused = refusal("fr", table, TableError("engine.stale", by=None), reader)
    assert refused == "⚠️ " + t("fr", "err.too_late_trick") and "?" not in refused
    # The reader's own earlier play (play-test 14: a phone sent it twice).
    assert refusal("fr", table, TableError("engine.stale", by=0), reader) == \
        "⚠️ " + t("fr", "err.already_played")


@pytest.mark.parametrize("locale", ["fr", "en"])
def test_the_end_of_a_game_to_a_target_says_how_a_tie_is_decided(locale: str) -> None:
    """A tie at the target is a shared win, save where the round's places decide it
    (presi's « P wins »): the rules' summary says which, in the reader's language."""
    classic = Rules.preset("classic", game_end="target:11")
    presi = Rules.preset("presi")
    assert presi.game_end == classic.game_end
    points = {"fr": "11 points", "en": "11 points"}[locale]
    assert end_line(locale, classic) == t(locale, "howto.end.target.joint", points=points)
    assert end_line(locale, presi) == t(locale, "howto.end.target.ranking", points=points)
    assert end_line(locale, classic) != end_line(locale, presi)
    assert end_line(locale, classic.replace(target_tie="ranking")) == end_line(locale, presi)


def _against_two_bots(preset: str, locale: str, **kwargs: Any) -> Table:
    """p0 (a person) at a three-seat table with two hard bots, in ``locale``."""
    table = table_for(preset, 3, **kwargs)
    table.locale = locale
    table.seats[1] = Player(None, "Bot 1", level="hard")
    table.seats[2] = Player(None, "Bot 2", level="hard")
    return table


@pytest.mark.parametrize("locale", ["fr", "en-US"])
def test_the_table_and_the_hand_mark_a_bot_wherever_they_name_it(locale: str) -> None:
    """The table message's seat list reads « 🤖 Bot 1 · … · niveau difficile », and the
    hand's exchange lines « **🤖 Bot 1** (VP, niveau difficile) », but the turn line, the
    trick, the history, and the hand's « c'est à **Bot 1** de jouer » named the bot bare, as
    if a person called Bot 1 sat there. Each marks it as the results do, « 🤖 Bot 1 » (the
    seat list says its level); a history line from an older snapshot names it bare."""
    table = _against_two_bots("classic", locale)
    game = table.game
    assert game is not None
    for _ in range(10):
        if game.to_act in (1, 2) and any(p.seat in (1, 2) for p in game.trick):
            break
        seat = game.to_act
        assert seat is not None
        for event in game.play(seat, game.legal_plays(seat)[0].cards):
            note(table, event)
    else:
        raise AssertionError("no bot's play on the table with a bot to play")
    turn = game.to_act
    assert turn is not None
    bot = f"🤖 Bot {turn}"
    content = table_screen(table, 0.0).content
    assert t(locale, "table.turn", name=bot, countdown="").rstrip() in content
    played = next(p for p in game.trick if p.seat in (1, 2))
    trick = next(line for line in content.split("\n") if line.startswith(
        t(locale, "table.trick", plays="")[:4]))
    assert f"🤖 Bot {played.seat} " in trick
    history = [line for line in content.split("\n") if line.startswith("• ")]
    mine = [line for line in history if f"Bot {played.seat}" in line]
    assert mine and all(f"🤖 Bot {played.seat}" in line for line in mine)
    assert not any(f"**Bot {n}**" in content or f"• Bot {n}" in content for n in (1, 2))
    hand = hand_screen(table, 100, locale).content
    assert t(locale, "hand.waiting", name=bot) in hand
    # A line saved before bots were marked in it reads as it did.
    older = Table.from_dict(table.to_dict())
    for entry in older.log:
        entry.params.pop("bot", None)
    bare = table_screen(older, 0.0).content
    assert not any(line.startswith("• 🤖") for line in bare.split("\n"))
    # Beaten by a bot's play: « Trop tard : 🤖 Bot 1 a joué avant toi. »
    assert refusal(locale, table, TableError("engine.stale", by=1), 100) == \
        "⚠️ " + t(locale, "err.too_late", name="🤖 Bot 1")


@pytest.mark.parametrize("locale", ["fr", "en-US"])
def test_the_table_s_exchange_line_marks_a_bot(locale: str) -> None:
    """« p0 doit donner 2 cartes à Bot 2 » beside a seat list naming « 🤖 Bot 2 »: the
    exchange line marks the bot too."""
    table = _against_two_bots("classic", locale, previous_ranking=[0, 1, 2])
    game = table.game
    assert game is not None and game.phase is Phase.EXCHANGE
    due = game.exchange_due(0)
    assert due is not None and due.receiver == 2
    content = table_screen(table, 0.0).content
    assert t(locale, "table.exchange_pair", giver="p0", receiver="🤖 Bot 2",
             cards=plural(locale, "n.cards", due.count)) in content


def test_the_reopen_tip_gives_way_before_the_history() -> None:
    """« 🂠 Main fermée par erreur ? **Ma main** la rouvre. » is a tip (the button stays),
    said to be the first line to give way at Discord's 2,000 characters; yet the history's
    lines went first, up to all of them, to keep it. At a table whose message overruns by
    less than the tip's length, the tip goes and the history stays whole."""
    tip = t("fr", "table.reopen_hand")
    for pad in range(1, 400):
        table = table_for("classic", 6)
        table.locale = "fr"
        for seat in range(1, 6):
            table.seats[seat] = Player(None, f"Bot {seat} " + "x" * pad, level="hard")
        table.hands[100] = HandLink(7, "token", 0.0)
        game = table.game
        assert game is not None
        for _ in range(12):
            turn = game.to_act
            assert turn is not None
            for event in game.play(turn, game.legal_plays(turn)[0].cards) \
                    if game.legal_plays(turn) and not game.can_pass(turn) \
                    else game.pass_turn(turn):
                note(table, event)
        history = ["• " + lines.entry_text("fr", table, e) for e in table.log]
        content = table_screen(table, 0.0).content.split("\n")
        if tip in content:
            continue  # it fits: more padding
        # The first padding that overruns: the tip went, the history stays whole.
        assert all(line in content for line in history), pad
        return
    raise AssertionError("the table never overran")


def test_a_free_gift_back_keeps_the_wild_7_last() -> None:
    """At wild7 the exchange's order makes a 7 just a 7 (RULES §7): the President's free
    gift back checked 3♦ 7♥ to start and listed the wild among the 6s and 9s, while her
    hand showed it last (play-test 46). A free choice follows the hand's order."""
    table = table_for("wild7", 4, seed=23, previous_ranking=[0, 1, 2, 3])
    game = table.game
    assert game is not None
    due = game.exchange_due(0)
    assert due is not None and due.mode == "choice" and due.ready
    assert Card.parse("7H") in due.allowed[:due.count]  # the exchange's order
    screen = hand_screen(table, 100, "en")
    (menu,) = selects(screen.view)
    assert [o.value for o in menu.options] == [str(c) for c in game.hand(0)]
    checked = [o.value for o in menu.options if o.default]
    assert checked == ["3D", "8S"]


def test_a_timed_out_member_s_hand_offers_no_reprendre() -> None:
    """A moderator timed claire out and the autopilot played for her: her hand said she
    could not play until the timeout's end, yet offered « Reprendre », refused when clicked
    (play-test 46). Offered again once the timeout is over (the entry gone)."""
    table = table_for("classic", 4)
    game = table.game
    assert game is not None and game.phase is Phase.PLAY
    game.autopilot.add(1)

    def buttons() -> list[str]:
        screen = hand_screen(table, 101, "en", now=100.0)
        assert screen.view is not None
        return [str(unwrap(item).custom_id) for item in screen.view.children]

    assert any(":resume:" in custom_id for custom_id in buttons())
    table.timed_out[101] = 400.0
    assert not any(":resume:" in custom_id for custom_id in buttons())
    content = hand_screen(table, 101, "en", now=100.0).content
    assert t("en", "hand.autopilot_timed_out") in content
    assert t("en", "hand.autopilot") not in content  # (« Press Resume »: no button to press)

