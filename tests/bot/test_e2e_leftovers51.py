"""End-to-end: small leftovers of stop 51's first round that players would notice
(docs/bot.md « Round-one leftovers (stop 51) »).

Time is the fake's: nothing sleeps."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import button_names, t
from bot.packages.controls import WARNING
from bot.tables.deadlines import OWN_PAUSE_SECONDS
from fakediscord import FakeDiscord
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import Player, cid, message, tick
from .e2e import two_humans_against_a_bot as two_humans
from .test_e2e_playtest29 import a_humans_turn, pause, play_on
from .test_e2e_playtest34 import presi_night_closed

LOCALES = ["fr", "en-US"]
#: (the table's language, the latecomers'): each reads the other's.
PAIRS = [("fr", "en-US"), ("en-US", "fr")]


@pytest.mark.parametrize("locale", LOCALES)
async def test_history_in_a_thread_under_a_closed_table_points_to_the_channel(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    locale: str,
) -> None:
    """dave closes the presi table for the night; in the thread « tournoi » under #presi,
    emma's `/president history` said « no game has been played here yet », as if the
    night's games were lost: the hint pointed to the channel only while its table was
    open. It now points there once the table has closed too; a thread under a channel
    that never had a game still says there is none."""
    bot, presi, dave, emma = await presi_night_closed(fake, clock, tmp_path, monkeypatch,
                                                      locale)
    quiet = fake.add_channel(fake.guild, "quiet")
    thread = fake.add_thread(presi, "tournoi", emma)
    elsewhere = fake.add_thread(quiet, "chat", emma)
    await fake.settle()

    await emma.slash("president history", channel=thread)
    assert emma.last_ephemeral(thread).text.endswith(
        t(locale, "history.empty.parent", channel=f"<#{presi.id}>"))
    await emma.slash("president history", channel=elsewhere)
    assert emma.last_ephemeral(elsewhere).text.endswith(t(locale, "history.empty"))
    await fake.disconnect(bot)
    fake.assert_no_errors()


#: The edits of a follow-up message through its interaction's token.
FOLLOWUP_EDIT = "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_reason_s_offer_is_taken_back_when_the_break_ends(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """bob presses « Pause » and is offered « Donner une raison »; he comes back and presses
    « Continuer »: the offer kept its button, which only said it was too late. Within its
    token's 15 minutes it now says the break is over, without the button: one edit."""
    marie, bob, table, game = await a_humans_turn(fake, clock, president, locale)
    await pause(fake, clock, bob.user, table)
    offer = bob.user.last_ephemeral()
    assert offer.buttons
    mark = fake.mark()
    await play_on(fake, bob.user, table)
    await tick(fake, clock, 1)  # the hands (and the offer) follow, coalesced
    assert fresh(table).pause is None
    shown = message(bob.user, offer.id)
    assert shown.content == t(locale, "pause.offer_over") and not shown.buttons
    assert len(fake.calls_since(mark, FOLLOWUP_EDIT)) == 1
    # A click on a device still showing the button is refused as before, changing nothing.
    await bob.user.click_shown(offer, t(locale, "btn.pause_reason"))
    assert bob.user.modal is None and fresh(table).pause is None
    assert bob.user.last_ephemeral().content == WARNING + t(locale, "err.pause_reason_late")



@pytest.mark.parametrize("locale", LOCALES)
async def test_the_reason_s_offer_is_taken_back_when_the_break_runs_out(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """bob's five minutes run out while he is away: the game goes on by itself, and the
    offer he left open says the break is over, its button gone."""
    marie, bob, table, game = await a_humans_turn(fake, clock, president, locale)
    await pause(fake, clock, bob.user, table)
    offer = bob.user.last_ephemeral()
    await tick(fake, clock, OWN_PAUSE_SECONDS + 1)
    assert fresh(table).pause is None
    shown = message(bob.user, offer.id)
    assert shown.content == t(locale, "pause.offer_over") and not shown.buttons


@pytest.mark.parametrize("locale", LOCALES)
async def test_an_offer_older_than_its_token_is_left_alone(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """marie, the host, pauses for the pizza and is offered a reason; twenty minutes on
    she presses « Continuer »: the offer's token has run out (15 minutes), so it is not
    edited (a refused edit counts toward Discord's invalid-request limit) and its button
    keeps its refusal."""
    marie, bob, table, game = await a_humans_turn(fake, clock, president, locale)
    await pause(fake, clock, marie.user, table)
    offer = marie.user.last_ephemeral()
    await tick(fake, clock, 20 * 60)
    mark = fake.mark()
    await play_on(fake, marie.user, table)
    await tick(fake, clock, 1)
    assert fresh(table).pause is None
    assert fake.calls_since(mark, FOLLOWUP_EDIT) == []
    assert message(marie.user, offer.id).buttons
    await marie.user.click(offer, t(locale, "btn.pause_reason"))
    assert marie.user.last_ephemeral().content == WARNING + t(locale, "err.pause_reason_late")


ORIGINAL = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"


@pytest.mark.parametrize(("locale", "theirs"), PAIRS)
async def test_one_listed_who_moves_up_to_a_bot_s_seat_is_told_privately(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str, theirs: str
) -> None:
    """marie and bob play classic with one bot and no end. carol asks for a seat and takes
    the bot's at the next round; dave, next, is on the list for the next game. carol leaves
    the list: dave now takes the bot's seat, and was told nothing. His answer now says he
    moved up (one edit through its token, nothing posted, nobody pinged). erin, listed
    after him, moves up once her answer's token has run out: it is left alone (the table's
    line names her)."""
    marie = Player(fake.add_user("marie", locale=locale))
    bob = Player(fake.add_user("bob", locale=locale))
    carol, dave, erin = (fake.add_user(name, locale=theirs) for name in ("carol", "dave", "erin"))
    table, game = await two_humans(fake, clock, president, marie, bob,
                                   game_end="unlimited")
    await tick(fake, clock, 1)
    names = button_names(locale)
    board = message(carol, table.table_message_id)
    await carol.click(board, cid(table, "join"))
    await dave.click(board, cid(table, "join"))
    answer = dave.last_ephemeral()
    assert answer.content == t(theirs, "lobby.listed_no_end", **names)

    mark = fake.mark()
    await carol.slash("president leave")
    await tick(fake, clock, 1)
    assert [p.user_id for p in table.queue] == [dave.id]
    assert message(dave, answer.id).content == t(theirs, "lobby.moved_up_no_end", **names)
    edited = [c.user for c in fake.calls_since(mark, ORIGINAL)]
    assert edited.count("dave") == 1 and "carol" not in edited  # (and the hands, redrawn)
    assert t(locale, "table.waiting_round", names="dave") in \
        message(marie.user, table.table_message_id).content

    await erin.click(message(erin, table.table_message_id), cid(table, "join"))
    late = erin.last_ephemeral()
    assert late.content == t(theirs, "lobby.listed_no_end", **names)
    await tick(fake, clock, 16 * 60)  # (the autopilot plays marie's and bob's turns)
    mark = fake.mark()
    await dave.slash("president leave")
    await tick(fake, clock, 1)
    assert [p.user_id for p in table.queue] == [erin.id]
    assert message(erin, late.id).content == t(theirs, "lobby.listed_no_end", **names)
    assert [c for c in fake.calls_since(mark, ORIGINAL) if c.user == "erin"] == []
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_host_extends_a_player_s_break_from_their_hand(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """bob's doorbell rings and he presses « Pause »; marie, the host, had only
    `/president pause` to make the break hers. Her hand now shows « Prolonger la pause »
    during bob's break (his does not): pressed, the break is hers (bob's five minutes no
    longer end it, his « Continuer » is refused), and her hand is redrawn without it. The
    same button on a second device, after, is refused and changes nothing."""
    marie, bob, table, game = await a_humans_turn(fake, clock, president, locale)
    await pause(fake, clock, bob.user, table)
    label = t(locale, "btn.lengthen")
    hand = marie.hand
    assert label in [b.label for b in hand.buttons]
    assert label not in [b.label for b in bob.hand.buttons]

    await marie.user.click(hand, label)
    await tick(fake, clock, 1)
    pause_now = fresh(table).pause
    assert pause_now is not None and not pause_now.own and pause_now.by == marie.user.id
    assert label not in [b.label for b in marie.hand.buttons]
    await tick(fake, clock, OWN_PAUSE_SECONDS)  # bob's five minutes are past
    assert fresh(table).pause is not None
    await play_on(fake, bob.user, table)
    assert fresh(table).pause is not None  # the host's break now: bob's click ends nothing

    await marie.user.click_shown(hand, label)  # her phone, still showing the button
    still = fresh(table).pause
    assert still is not None and still.by == marie.user.id
    assert t(locale, "err.lengthen_late") in marie.hand.content
    fake.assert_no_errors()
