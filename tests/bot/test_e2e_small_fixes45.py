"""End-to-end: small fixes (docs/bot.md, « Small fixes (stop 45) »), in French and in
English where the wording changes: results left while their chart's first upload is on its
way show the chart once, as text; a seat out on autopilot reads its place and what the
autopilot does next round; whose seat a newcomer took names a bot as the table names bots;
the answer rule names the plays that need not match the opening's count; results left by
any way out and closed within the second keep their text, and their chart once; the
closing cards name no revolution where there is none; an autopilot seat that finished last
reads it gives its seat up; a member check that failed is asked again."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.i18n.typography import french
from bot.packages.game import chart
from bot.packages.game.lines import place
from bot.packages.game.table_message import player_lines
from bot.packages.moderation import gone as moderation_gone
from bot.packages.president import listeners
from bot.tables.table import Table
from engine import Card, Game, GameEnd, Phase
from fakediscord import FakeDiscord, Message, TestUser

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    connect_bot,
    create_table,
    deal,
    host_against_bots,
    http_waits_on_the_fake_clock,
    leave_game,
    let_timers_play,
    marie_and_bob_stopped,
    message,
    play_until,
    record_charts,
    tick,
    two_humans_against_a_bot,
)
from .test_e2e_attach_files import chart_line, notices
from .test_e2e_chart_upload import EDIT, charts_drawn_late, injected, moved_on_while_uploading

LOCALES = ["fr", "en-US"]


@pytest.mark.parametrize("next_game", ["replay", "end"])
async def test_results_left_while_their_first_upload_goes_through_show_the_chart_once(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch, next_game: str,
) -> None:
    """The host moves on (« Rejouer », « Terminer ») while the results' first upload is on
    its way: a 502 discord.py tries again, four times over 20 s (on the fake clock), its
    fifth try going through. The results were retired with the chart as text
    (`Charts.moved_on`), and the upload landing after gave them the picture too: the chart
    twice. They keep the text alone, the picture taken off."""
    moved = await moved_on_while_uploading(fake, clock, president, monkeypatch, next_game, 4)
    marie, table = moved.marie, moved.table
    assert injected(fake) == [502] * 4  # the fifth try went through
    left = message(marie, moved.first)
    assert moved.line in left.content
    assert left.attachments == ()
    assert len(moved.drawn) == 1 and table.id not in president.publisher.charts._failed
    assert ("chart upload", table.id) not in president.service.scheduler.pending()
    assert notices(marie, "fr") == 0
    moved.waits.end()
    fake.assert_no_errors()



async def out_on_autopilot(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                           locale: str, last: str = "AS",
                           meanwhile: Callable[[], Awaitable[None]] | None = None,
                           **rules: Any) -> tuple[Player, Table, Game]:
    """marie (in ``locale``) opens a proletario table (with ``rules`` changed), the bots
    filling its seats, ``meanwhile`` happens, and she is dealt 3♥ K♥ and ``last``, cards
    that win: her turn timer runs out twice, which puts the autopilot on her seat (RULES
    §10), and it plays her last card while the bots still hold theirs."""
    marie = Player(fake.add_user("marie", locale=locale))
    table = await host_against_bots(bot, marie.user, "proletario", 0, **rules)
    await tick(fake, clock, 1)
    if meanwhile is not None:
        await meanwhile()
    game = deal(bot, table, [["3H", "KH", last], ["4C", "5C", "6C", "7C", "8C"],
                             ["4D", "5D", "6D", "7D", "8D"], ["4S", "5S", "6S", "7S", "8S"]],
                opener=0)
    await marie.open_hand(bot)
    for _ in range(200):
        if not game.hands[0]:
            break
        await tick(fake, clock, 1)
    await tick(fake, clock, 1)
    assert game.phase is Phase.PLAY and 0 in game.autopilot and not game.hands[0]
    return marie, table, game


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_seat_out_on_autopilot_reads_its_place_and_the_autopilot_of_the_next_round(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """At proletario, the autopilot played marie's last card: her hand read her place, « elle
    continue sans toi », then « Le pilote automatique joue pour toi » with « Reprendre », as
    if it still played her cards in this round. It says what the autopilot still does: play
    for her next round (the game goes on), which « Reprendre » stops; pressed, the line and
    the button go, her place stays. Five rounds, so that the next one is sure (an
    unlimited game's reads « si la partie continue »: `test_e2e_leftovers47.py`)."""
    marie, table, game = await out_on_autopilot(fake, clock, president, locale,
                                                game_end=GameEnd("rounds", 5))
    lines = marie.hand.content.split("\n")
    assert t(locale, "hand.out", place=place(locale, 1)) in lines
    assert t(locale, "hand.autopilot") not in lines
    told = t(locale, "hand.autopilot_next")
    assert lines[lines.index(t(locale, "hand.out", place=place(locale, 1))) + 1] == told
    if locale == "fr":
        assert french("🤖 Le pilote automatique jouera pour toi à la prochaine manche. Appuie "
                      "sur **Reprendre** pour la jouer toi-même.") == told
    else:
        assert told == ("🤖 The autopilot will play for you next round. Press **Resume** to "
                        "play it yourself.")
    resume = cid(table, "resume", game.version)
    assert resume in [b.custom_id for b in marie.hand.buttons]
    await marie.user.click(marie.hand, resume)
    await tick(fake, clock, 1)
    assert 0 not in game.autopilot
    assert told not in marie.hand.content
    assert t(locale, "hand.out", place=place(locale, 1)) in marie.hand.content.split("\n")
    assert not any(b.custom_id and ":resume:" in b.custom_id for b in marie.hand.buttons)
    fake.assert_no_errors()


async def test_a_seat_out_on_autopilot_in_the_game_s_last_round_reads_only_its_place(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """In the last of a set number of rounds there is no next round for the autopilot to
    play: the out seat reads its place, without « Reprendre »."""
    marie, _, _ = await out_on_autopilot(fake, clock, president, "fr",
                                         game_end=GameEnd("rounds", 1))
    lines = marie.hand.content.split("\n")
    assert t("fr", "hand.out", place=place("fr", 1)) in lines
    assert t("fr", "hand.autopilot") not in lines and t("fr", "hand.autopilot_next") not in lines
    assert not any(b.custom_id and ":resume:" in b.custom_id for b in marie.hand.buttons)
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_newcomer_s_seat_names_the_bot_it_was_as_the_table_names_bots(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """At proletario, sam waited in the queue and took a bot's seat at round 2's deal: his
    line read « · à la place de Bot 3 », the bot's name bare where every line of the table
    message marks a bot and says its level (« **🤖 Bot 3** · … · niveau difficile »). It
    names the bot so: « · à la place de 🤖 Bot 3 (niveau difficile) ». The level is kept
    with the name in the snapshot (`Player.took_from_level`); a snapshot from before names
    the bot by its name alone, as it did."""
    marie = fake.add_user("marie", locale=locale)
    sam = fake.add_user("sam", locale=locale)
    table = await create_table(president, marie, "proletario")
    await president.service.set_options(table, marie.id, bot_level="hard")
    for _ in range(3):
        await marie.click(message(marie, table.lobby_message_id), cid(table, "addbot"))
    await marie.click(message(marie, table.lobby_message_id), cid(table, "start"))
    await tick(fake, clock, 1)
    await sam.click(message(sam, table.table_message_id), cid(table, "join"))
    assert [p.user_id for p in table.queue] == [sam.id]
    game = table.game
    assert game is not None
    await let_timers_play(fake, clock, game, Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    await marie.click(message(marie, table.table_message_id), cid(table, "next", game.version))
    await tick(fake, clock, 1)
    seat = table.seat_of(sam.id)
    assert seat is not None and game.phase in (Phase.EXCHANGE, Phase.PLAY)
    replaced = table.seats[seat].took_from
    assert replaced is not None and replaced.startswith("Bot ")
    line = next(line for line in message(marie, table.table_message_id).content.split("\n")
                if "**sam**" in line)
    if locale == "fr":
        assert line.endswith(french(f" · à la place de 🤖 {replaced} (niveau difficile)"))
    else:
        assert line.endswith(f" · in place of 🤖 {replaced} (hard level)")

    restored = Table.from_dict(table.to_dict())
    assert restored.seats[seat].took_from_level == "hard"
    older = table.to_dict()
    del older["seats"][seat]["took_from_level"]
    restored = Table.from_dict(older)
    assert restored.game is not None
    lines = player_lines(locale, restored, restored.game)
    assert any(line.endswith(t(locale, "table.took_seat", name=replaced)) for line in lines)
    fake.assert_no_errors()


HANDS = {
    "presi": [["3O", "KC", "AB"], ["4O", "5O", "6O"], ["4C", "NC", "NE"]],
    "proletario": [["3H", "KH", "AS"], ["4C", "5C", "6C"], ["4D", "5D", "6D"],
                   ["4S", "5S", "6S"]],
}
EXCEPTIONS = {
    ("presi", "fr"): "le 2🪙 joué seul",
    ("presi", "en-US"): "the 2🪙 played alone",
    ("proletario", "fr"): "un joker ou un groupe de 2 sur un coup d’une carte de plus",
    ("proletario", "en-US"): "a joker or 2s on a play one card larger",
}


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("preset", ["presi", "proletario"])
async def test_the_answer_rule_names_the_plays_that_need_not_match_the_count(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str,
    preset: str,
) -> None:
    """The rules (`/president rules`) and the opener's hand said one answers « avec autant
    de cartes », with no word of the plays the seeds except: presi's 2 of oros alone (« La
    seule exception est le deux de deniers joué seul »), proletario's 2s on a play one card
    larger and its jokers, alone on any play. Both name them."""
    marie = Player(fake.add_user("marie", locale=locale))
    table = await host_against_bots(president, marie.user, preset,
                                    0 if preset == "proletario" else 2)
    await tick(fake, clock, 1)
    await marie.user.slash("president rules")
    page = marie.user.last_ephemeral().text.split("\n")
    exceptions = EXCEPTIONS[(preset, locale)]
    if locale == "fr":
        answer = (french(f"On répond avec autant de cartes que l’ouverture (sauf avec "
                         f"{exceptions}), de même valeur ou plus fortes, ou on passe.")
                  if preset == "presi" else
                  french(f"On répond avec autant de cartes que l’ouverture (sauf avec "
                         f"{exceptions}), plus fortes, ou on passe."))
        lead = french(f"Le pli est vide : c’est toi qui l’ouvres. Joue des cartes d’une même "
                      f"valeur (les autres devront répondre avec autant de cartes, sauf avec "
                      f"{exceptions}) ; tu ne peux pas passer.")
    else:
        answer = (f"Answer with as many cards as the opening (except with {exceptions}), "
                  + ("of the same value or higher, " if preset == "presi" else "higher, ")
                  + "or pass.")
        lead = (f"The trick is empty: you open it. Play any cards of one value (the others "
                f"must answer with as many, except with {exceptions}); you cannot pass.")
    assert answer in page
    deal(president, table, HANDS[preset], opener=0)
    await marie.open_hand(president)
    assert lead in marie.hand.content.split("\n")
    fake.assert_no_errors()


async def test_the_answer_rule_follows_the_knobs_not_the_preset(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock
) -> None:
    """Rules are data: a classic table dealt the 54 cards has jokers, and says so; without
    them, as the preset is, one answers with as many cards, full stop."""
    marie = Player(fake.add_user("marie", locale="fr"))
    table = await create_table(president, marie.user, "classic")
    await marie.user.slash("president rules")
    page = marie.user.last_ephemeral().text.split("\n")
    assert t("fr", "howto.answer.equal") in page
    await president.service.set_rules(table, marie.user.id, table.rules.replace(deck="french54"))
    await marie.user.slash("president rules")
    page = marie.user.last_ephemeral().text.split("\n")
    assert french("On répond avec autant de cartes que l’ouverture (sauf avec un joker), de "
                  "même valeur ou plus fortes, ou on passe.") in page
    fake.assert_no_errors()


# --------------------------------------------------------------------------- closed in the window

async def results_just_drawn(fake: FakeDiscord, clock: LinkedClock, table: Table,
                             players: list[Player], phase: Phase) -> Message:
    """The humans play until ``phase`` (a round's or the game's end): its results, drawn
    this instant. The redraw a button on them asks for now waits for the rest of the
    second (the coalescer's interval), and a closing within it comes first."""
    game = table.game
    assert game is not None
    await play_until(fake, clock, players, lambda: game.phase is phase)
    offered = cid(table, "replay" if phase is Phase.GAME_OVER else "next", game.version)
    for _ in range(20):
        shown = message(players[0].user, table.table_message_id)
        if offered in [b.custom_id for b in shown.buttons]:
            return shown
        await tick(fake, clock, 0.1)  # the last move's redraw, a fraction of a second away
    raise AssertionError("the results were never drawn")


async def marie_s_results(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                          locale: str, phase: Phase = Phase.GAME_OVER,
                          ) -> tuple[Player, Table, Game, Message]:
    """marie (in ``locale``) plays a classic game against two bots (of two rounds when
    ``phase`` is a round's end, else of one) to ``phase``'s results, just drawn."""
    marie = Player(fake.add_user("marie", locale=locale))
    rounds = 2 if phase is Phase.ROUND_OVER else 1
    table = await host_against_bots(bot, marie.user, "classic", 2,
                                    game_end=GameEnd("rounds", rounds))
    await tick(fake, clock, 1)
    await marie.open_hand(bot)
    game = table.game
    assert game is not None
    shown = await results_just_drawn(fake, clock, table, [marie], phase)
    return marie, table, game, shown


def kept_and_closed(user: TestUser, table: Table, results_id: int, kept: str | None) -> None:
    """The results message reads as the redraw would have retired it, its text ``kept``
    (`Table.retired`: standings, history and all), ending on the closing, without buttons."""
    assert kept is not None
    shown = message(user, results_id)
    assert not shown.buttons
    assert shown.content == f"{kept}\n\n{t(table.locale, 'lobby.closed')}"


# Ways out of results into a new round or game, whose message the next redraw posts:
# « Rejouer », `/president replay`, « Manche suivante » after a round's results, and
# « Terminer » followed by `/president start` (a game started before the lobby came back).
NEW_MESSAGE_WAYS = ["replay", "/president replay", "next", "end, /president start"]


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("way", NEW_MESSAGE_WAYS)
async def test_results_left_for_a_new_round_or_game_keep_their_text_when_the_table_closes(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str, way: str,
) -> None:
    """The reviewer's race, after stop 44's: marie left the results for a new game
    (« Rejouer », `/president replay`, « Terminer » then `/president start`) or a new round
    (« Manche suivante »), and left the table, the last human at it, within the second.
    The new message was not yet posted, nor the results retired: the closing wrote
    « Cette table est fermée. » over them, under the new round's title, and the standings
    were gone from the channel. The closing retires them as the redraw would have, their
    text kept, ending on « Cette table est fermée. »."""
    phase = Phase.ROUND_OVER if way == "next" else Phase.GAME_OVER
    marie, table, game, shown = await marie_s_results(fake, clock, president, locale, phase)
    results_id = shown.id
    if way in ("replay", "next"):
        await marie.user.click(shown, cid(table, way, game.version))
    elif way == "/president replay":
        await marie.user.slash("president replay")
    else:
        await marie.user.click(shown, cid(table, "end", game.version))
        await marie.user.slash("president start")
    kept = table.retired
    assert table.game is not None and table.post_table  # not yet posted, nor retired
    assert table.table_message_id == results_id
    heading = t(table.locale, "table.standings") if phase is Phase.GAME_OVER else \
        t(table.locale, "table.round_over", round=1)
    assert kept is not None and heading in kept.split("\n")
    await leave_game(marie.user)  # the last human: the table closes
    assert table.closed
    await tick(fake, clock, 1)
    kept_and_closed(marie.user, table, results_id, kept)
    if phase is Phase.GAME_OVER:  # who won, above the standings
        assert any(line.startswith("🏆") for line in kept.split("\n"))
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_results_left_for_a_replay_keep_their_text_when_a_ban_closes_the_table(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str,
) -> None:
    """The same race closed by a moderator: marie pressed « Rejouer » and was banned from
    the server within the second, the last human at the table (`member_gone`)."""
    fake.set_bot_guild_permissions(fake.guild, view_audit_log=True, ban_members=False)
    marie, table, game, shown = await marie_s_results(fake, clock, president, locale)
    await marie.user.click(shown, cid(table, "replay", game.version))
    kept = table.retired
    assert table.post_table and table.table_message_id == shown.id
    fake.ban(fake.guild, marie.user)
    await fake.settle()
    assert table.closed
    await tick(fake, clock, 1)
    kept_and_closed(fake.add_user("bob", locale=locale), table, shown.id, kept)
    fake.assert_no_errors()


# Ways out of a finished game's results to the lobby, which a closing within the second
# meets before the lobby is posted: « Terminer », a leaver or a kick that leaves too few for
# « Rejouer »; the closing: the host leaving the lobby, or `/president end` there.
LOBBY_WAYS = ["end, host leaves", "guest leaves, /president end", "kick, /president end"]


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("way", LOBBY_WAYS)
async def test_results_left_for_the_lobby_keep_their_text_when_the_table_closes(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str, way: str,
) -> None:
    """As stop 44's « Terminer » then `/president end`, by the other ways to the lobby:
    marie and bob finished a game against a bot, and within the second the table went to
    its lobby and closed."""
    marie = Player(fake.add_user("marie", locale=locale))
    bob = Player(fake.add_user("bob", locale=locale))
    table, game = await two_humans_against_a_bot(fake, clock, president, marie, bob,
                                                 game_end=GameEnd("rounds", 1))
    shown = await results_just_drawn(fake, clock, table, [marie, bob], Phase.GAME_OVER)
    if way == "end, host leaves":
        await marie.user.click(shown, cid(table, "end", game.version))
        await bob.user.slash("president leave")
        assert table.post_lobby and not table.closed
        kept = table.retired
        await marie.user.slash("president leave")
    else:
        if way.startswith("guest leaves"):
            await bob.user.slash("president leave")
        else:
            await marie.user.slash("president kick", member=bob.user)
        assert table.game is None and table.post_lobby  # too few for « Rejouer »
        kept = table.retired
        await marie.user.slash("president end")
        assert marie.user.last_ephemeral().content == t(locale, "lobby.ended")
    assert table.closed
    await tick(fake, clock, 1)
    kept_and_closed(marie.user, table, shown.id, kept)
    fake.assert_no_errors()


# What became of the results' chart when the table left them and closed within the second:
# uploaded already (the picture), on its way (a 502 discord.py tries again, going through on
# its fifth try, after the closing asked for its edit), on its way and failing for good
# after the closing (five 502s), or waiting for the bot's own retry (a 503).
UPLOADS = {"through": (502, 0), "on its way": (502, 4), "failing": (502, 5),
           "waiting": (503, 1)}


@pytest.mark.parametrize(("way", "upload", "locale"), [
    *[("replay", upload, locale) for upload in UPLOADS for locale in LOCALES],
    *[("end", "on its way", locale) for locale in LOCALES],
])
async def test_results_left_and_closed_within_the_second_show_their_chart_once(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch, way: str, upload: str, locale: str,
) -> None:
    """The table closes right after « Rejouer » (marie, the last human, leaves) or
    « Terminer » (`/president end` in the lobby), whatever its results' chart was doing.
    The closing waits for an upload on its way (`Publisher.closed`): the results keep
    their chart once, as the picture where it was uploaded before the table left them,
    else as the text they were retired with (`Charts.moved_on`), the picture that went
    through after taken off (`Charts._take_off`)."""
    drawn = record_charts(monkeypatch)
    waits = http_waits_on_the_fake_clock(monkeypatch, fake)
    status, times = UPLOADS[upload]
    if times:
        fake.inject_error(EDIT, status, method="PATCH", uploads=True, times=times)
    # Drawn late: the results on screen as their upload starts (stop 52).
    released = charts_drawn_late(monkeypatch, president)
    marie, table, game, shown = await marie_s_results(fake, clock, president, locale)
    assert shown.attachments == ()
    released.set()
    await fake.settle()
    shown = message(marie.user, shown.id)
    line = chart_line(table)
    charts = president.publisher.charts
    assert len(drawn) == 1 and line not in shown.content
    assert shown.attachments == ((chart.FILENAME,) if upload == "through" else ())
    assert (table.id in charts._failed) is (upload == "waiting")
    await marie.user.click(shown, cid(table, way, game.version))
    kept = table.retired
    assert kept is not None and table.table_message_id == shown.id
    assert kept.split("\n").count(line) == (0 if upload == "through" else 1)
    if way == "replay":
        await leave_game(marie.user)
    else:
        await marie.user.slash("president end")
    assert table.closed
    for _ in range(30):
        await tick(fake, clock, 1)
    kept_and_closed(marie.user, table, shown.id, kept)
    assert message(marie.user, shown.id).attachments == (
        (chart.FILENAME,) if upload == "through" else ())
    assert len(drawn) == 1 and len(injected(fake)) == times
    assert ("chart upload", table.id) not in president.service.scheduler.pending()
    waits.end()
    fake.assert_no_errors()


@pytest.mark.parametrize(("locale", "label", "best"), [
    ("fr", "Cartes qui ferment", "la meilleure valeur (le 2)"),
    ("en-US", "Closing cards", "the best value (2s)"),
])
async def test_the_closing_cards_value_names_no_revolution_where_there_is_none(
    fake: FakeDiscord, president: PresidentBot, locale: str, label: str, best: str,
) -> None:
    """Classic's closing cards read « la meilleure valeur (le 2 ; le 3 en révolution) »
    even with revolutions turned off: the panel names the 3 only where a revolution can
    happen, as the rules page does (`rules_text.knob_value`)."""
    marie = fake.add_user("marie", locale=locale)
    table = await create_table(president, marie, "classic")
    await marie.slash("president settings")
    def line(value: str) -> str:
        return t(locale, "settings.line", mark="▫️", knob=label, value=value)

    with_revolution = t(locale, "knob.closing_rank.best")
    assert line(with_revolution) in marie.last_ephemeral().text.split("\n")
    panel = marie.last_ephemeral()
    menu = next(s for s in panel.selects if any(o.value == "revolution" for o in s.options))
    await marie.select(panel, ["revolution"], select=menu.custom_id)
    assert not table.rules.revolution
    panel = marie.last_ephemeral()
    assert line(best) in panel.text.split("\n")
    assert with_revolution not in panel.text
    menu = next(s for s in panel.selects if any(o.value == "closing_rank" for o in s.options))
    option = next(o for o in menu.options if o.value == "closing_rank")
    assert option.description is not None and option.description.startswith(best)
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_an_autopilot_seat_that_finished_last_reads_it_gives_its_seat_up(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """proletario, four people and no bot, eve waiting: marie, on autopilot after two
    timeouts, finished last. Between rounds her hand read « Le pilote automatique jouera
    pour toi à la prochaine manche » with « Reprendre », where at the deal she gives her
    seat to eve (RULES §10). It says so, with nothing to resume; at the deal she waits."""
    users = [fake.add_user(n, locale=locale if n == "marie" else "fr")
             for n in ("marie", "bob", "carol", "dave")]
    marie = users[0]
    eve = fake.add_user("eve", locale="fr")
    table = await create_table(president, marie, "proletario")
    for user in users[1:]:
        await user.click(message(user, table.lobby_message_id), cid(table, "join"))
    await marie.click(message(marie, table.lobby_message_id), cid(table, "start"))
    await tick(fake, clock, 1)
    await eve.slash("president join")
    assert table.queued(eve.id)
    cards = [[Card.parse(c) for c in hand] for hand in (
        ["3H", "4H", "5H", "6H", "7H", "8H"], ["AH", "KH"], ["AS", "KS"], ["AD", "KD"])]
    game = table.game = Game.new(table.rules, seats=4, seed=1, bots=[], hands=cards, opener=0)
    president.service._after(table, [])
    players = [Player(u) for u in users]
    for player in players:
        await player.open_hand(president)
    await play_until(fake, clock, players[1:], lambda: game.phase is Phase.ROUND_OVER)
    assert game.ranking is not None and game.ranking[-1] == 0 and 0 in game.autopilot
    await tick(fake, clock, 1)
    lines = players[0].hand.content.split("\n")
    said = t(locale, "hand.steps_off", role="Proletario")
    assert said in lines
    if locale == "fr":
        assert said == french("🪑 Tu as fini à la dernière place (**Proletario**) : à la "
                              "prochaine donne, tu cèdes ta place à la file d’attente, et tu "
                              "te rassieds quand ton tour vient.")
    else:
        assert said == ("🪑 You finished last (**Proletario**): at the next deal you give "
                        "your seat up to the queue, and sit again when your turn comes.")
    assert t(locale, "hand.autopilot_next") not in lines
    assert not any(b.custom_id and ":resume:" in b.custom_id for b in players[0].hand.buttons)
    await marie.click(message(marie, table.table_message_id), cid(table, "next", game.version))
    await tick(fake, clock, 1)
    assert table.queued(marie.id) and table.seat_of(eve.id) == 0
    assert players[0].hand.content.split("\n")[0] == t(locale, "hand.stepped_off",
                                                       role="Proletario")
    fake.assert_no_errors()


MEMBER = "/guilds/{guild_id}/members/{user_id}"


async def bob_banned_while_down(fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
                                failure: str, calls: int) -> tuple[PresidentBot, Table,
                                                                   Player, Player]:
    """marie and bob at a table against a bot; bob is banned while the bot is down, and
    the next ``calls`` asking Discord whether someone is a member fail (``failure``: a 503,
    a dropped connection, which aiohttp tries once more itself, two calls a question, or a
    timeout, raised in the client: `FakeDiscord.inject_timeout`).
    The bot restarted, its server described: the restored table."""
    url, marie, bob, _ = await marie_and_bob_stopped(fake, clock, tmp_path)
    fake.ban(fake.guild, bob.user)
    if failure == "503":
        fake.inject_error(MEMBER, 503, method="GET", times=calls)
    elif failure == "timeout":
        fake.inject_timeout(MEMBER, method="GET", times=calls)
    else:
        fake.inject_disconnect(MEMBER, method="GET", times=calls)
    again = await connect_bot(fake, clock, url, bot_pause=1.0)
    await fake.settle()
    await tick(fake, clock, 1)
    restored = next(iter(again.service.registry.in_guild(fake.guild.id)))
    return again, restored, marie, bob


@pytest.mark.parametrize(("failure", "per_question"),
                         [("503", 1), ("disconnect", 2), ("timeout", 1)])
async def test_a_member_check_that_failed_is_asked_again(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, failure: str, per_question: int,
) -> None:
    """At the restart, asking whether marie and bob are still members fails (a 503, a
    dropped connection): both keep their seats, as a failure says nothing of them. Nothing
    asked again, bob, banned while the bot was down, kept his seat, his turns timing out,
    until the next outage or start. The failed checks are asked again after 5 s, then 30 s
    (the first retry failing too): bob leaves, marie stays."""
    bot, table, marie, bob = await bob_banned_while_down(
        fake, clock, tmp_path, failure, calls=4 * per_question)
    assert table.seat_of(bob.user.id) is not None and table.seat_of(marie.user.id) is not None
    for _ in range(5):
        await tick(fake, clock, 1)
    assert table.seat_of(bob.user.id) is not None  # the first retry failed too
    assert len([c for c in fake.calls if c.injected]) == 4 * per_question
    for _ in range(30):
        await tick(fake, clock, 1)
    assert table.seat_of(bob.user.id) is None and table.seat_of(marie.user.id) is not None
    assert ("member check", fake.guild.id) not in bot.service.scheduler.pending()
    fake.expect_error(10007)  # Unknown Member: how Discord says he is gone
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_member_check_failing_each_try_is_left_to_the_next_start(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
) -> None:
    """Asked at the restart and again after 5, 30 and 120 s, Discord answers a 503 each
    time: the checks stop there, left to the next outage or start, and bob keeps his
    seat meanwhile."""
    bot, table, marie, bob = await bob_banned_while_down(fake, clock, tmp_path, "503", 8)
    for _ in range(5 + 30 + 120 + 10):
        await tick(fake, clock, 1)
    assert len([c for c in fake.calls if c.injected]) == 8  # two members, four tries
    assert table.seat_of(bob.user.id) is not None and table.seat_of(marie.user.id) is not None
    assert ("member check", fake.guild.id) not in bot.service.scheduler.pending()
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_full_member_check_asked_during_a_retry_runs_after_it(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At the restart, asking whether marie is still a member fails: she is asked again
    after 5 s. While that retry waits on Discord, bob is banned unheard and the server is
    described again (the end of an outage): the full check it asks for is not dropped
    because the retry of marie alone was under way, but runs once it ends, and bob leaves."""
    url, marie, bob, _ = await marie_and_bob_stopped(fake, clock, tmp_path)
    assert marie.user.id < bob.user.id  # marie is asked first: the one failure is hers
    fake.inject_error(MEMBER, 503, method="GET", times=1)
    again = await connect_bot(fake, clock, url, bot_pause=1.0)
    await fake.settle()
    await tick(fake, clock, 1)
    table = next(iter(again.service.registry.in_guild(fake.guild.id)))
    assert again.service.scheduler.deadline(("member check", fake.guild.id)) is not None
    released = asyncio.Event()
    asked: list[list[int]] = []

    async def held(guild: Any, user_ids: Any, budget: Any, unsure: list[int]) -> Any:
        asked.append(list(user_ids))
        await released.wait()
        async for user_id in moderation_gone(guild, user_ids, budget, unsure):
            yield user_id

    monkeypatch.setattr(listeners, "gone", held)
    for _ in range(5):
        await tick(fake, clock, 1)
    assert asked == [[marie.user.id]]  # the retry, waiting on Discord
    fake.ban(fake.guild, bob.user)
    cog = again.get_cog("ServerChanges")
    assert isinstance(cog, listeners.ServerChanges)
    await cog._check_members(fake.guild.id)  # the server described again meanwhile
    released.set()
    await tick(fake, clock, 1)
    assert asked == [[marie.user.id], [marie.user.id, bob.user.id]]
    assert table.seat_of(bob.user.id) is None and table.seat_of(marie.user.id) is not None
    fake.expect_error(10007)  # Unknown Member: how Discord says he is gone
    await fake.disconnect(again)
    fake.assert_no_errors()
