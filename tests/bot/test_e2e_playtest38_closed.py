"""End-to-end: the last three things players noticed from play-test 38 (docs/bot.md
« Play-test 38, closed (stop 57) »): a second « Leave the game » prompt answered « already
left » below itself, keeping its button; a stand-in's round line gave the seat's total,
the leaver's points and the bot's alike, above standings that tell them apart; and
« Conseil » pressed on the hand's second page of plays answered on the first."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import plural, t
from bot.packages.controls import WARNING
from bot.packages.game.lines import role_name
from engine import Phase
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    create_table,
    deal,
    message,
    play_until,
    tick,
    two_humans_against_a_bot,
)
from .test_e2e_playtest38_leftovers import bob_wins_the_first_round, next_round_then_leave

LOCALES = ["fr", "en-US"]


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_second_leave_prompt_says_on_itself_that_they_left_already(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """bob types `/president leave` twice and leaves by the first prompt; a bot finishes
    his round. The second prompt's « Leave the game » answered « ⚠️ You have already left
    this game… » in a new message under a prompt still offering to leave. It now says so
    in place of that prompt, its button gone, in bob's language, as the first says « You
    left the table »; nothing changes, and no message is added."""
    marie = Player(fake.add_user("marie", locale="fr"))
    bob = Player(fake.add_user("bob", locale=locale))
    table, game = await two_humans_against_a_bot(fake, clock, president, marie, bob)
    quit_label = t(locale, "btn.quit_game")
    await bob.user.slash("president leave")
    first = bob.user.last_ephemeral()
    await bob.user.slash("president leave")
    second = bob.user.last_ephemeral()
    await bob.user.click(first, quit_label)
    seat = table.left_seat(bob.user.id)
    assert seat is not None and game.automated(seat)
    await tick(fake, clock, 1)
    mine = [m.id for m in bob.user.visible() if m.ephemeral]
    version, left = game.version, sorted(table.left_seats)

    answer = await bob.user.click(second, quit_label)
    assert answer.response_type == 7  # the prompt, edited
    shown = message(bob.user, second.id)
    assert shown.content == WARNING + t(locale, "engine.already_left")
    assert not shown.buttons
    assert [m.id for m in bob.user.visible() if m.ephemeral] == mine  # nothing new
    assert message(bob.user, first.id).content == t(locale, "lobby.left")
    assert game.version == version and sorted(table.left_seats) == left
    assert table.seat_of(bob.user.id) is None
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", ["fr", "en"])
async def test_a_stand_in_s_round_line_says_whose_points_are_whose(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """Classic to three rounds: bob wins the first, leaves the second, which a bot
    finishes for him. That round's line named the seat « 🤖 bob » with its total, bob's
    points and the bot's together (« +n à cette manche, total 6 pts »), while the final
    standings split them. It now says the split as the standings do, and the two shares
    add up to the total it shows."""
    first = await bob_wins_the_first_round(fake, clock, tmp_path, locale, 3)
    bot, marie, table, game = first.bot, first.marie, first.table, first.game
    seat, own = first.seat, first.own
    await next_round_then_leave(fake, clock, first)
    await play_until(fake, clock, [], lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    total = game.total(seat)
    assert 0 < own < total
    assert game.ranking is not None
    place = game.ranking.index(seat) + 1
    role = game.roles[seat]
    assert role is not None
    board = message(marie.user, table.table_message_id).content.split("\n")
    shown = [line for line in board if line.startswith(f"{place}. **🤖 bob**")]
    assert shown == [t(locale, "table.result_line_bot", place=place, name="🤖 bob",
                       role=role_name(locale, table, role),
                       gained=table.rules.points[role],
                       total=plural(locale, "n.points", total), leaver="bob",
                       own=plural(locale, "n.points", own),
                       bot=plural(locale, "n.points", total - own))]
    fake.assert_no_errors()
    await fake.disconnect(bot)


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_hint_pressed_on_the_second_page_answers_there(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """wild7 at two seats, « Conseil » on: marie's 26 cards need two pages of menus. On
    the second, she presses 💡: the advice came on top of the first page, the menus she
    was reading turned back. It comes on the page she is on, and a refresh of the table
    keeps it there (`HandLink.turned`); from the first page, on the first."""
    marie = Player(fake.add_user("marie", locale=locale))
    table = await create_table(president, marie.user, "wild7")
    await president.service.set_options(table, marie.user.id, hints=True)
    lobby = message(marie.user, table.lobby_message_id)
    await marie.user.click(lobby, cid(table, "addbot"))
    await marie.user.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    deck = sorted(table.rules.deck_kind.cards(), key=str)
    game = deal(president, table, [deck[0::2], deck[1::2]], opener=0)
    await marie.open_hand(president)
    await tick(fake, clock, 1)
    first = [s.custom_id for s in marie.hand.selects]
    hint = t(locale, "btn.hint")

    def pressed() -> str:
        return next(b.custom_id or "" for b in marie.hand.buttons
                    if b.label is not None and hint in b.label)

    await marie.user.click(marie.hand, pressed())  # on the first page: the first page
    assert [s.custom_id for s in marie.hand.selects] == first
    advice = marie.hand.content.split("\n")[0]
    turn = next(b for b in marie.hand.buttons if b.custom_id and ":page:" in b.custom_id)
    await marie.user.click(marie.hand, turn.custom_id or "")
    second = [s.custom_id for s in marie.hand.selects]
    assert second and not set(second) & set(first)
    version = game.version

    await marie.user.click(marie.hand, pressed())
    assert game.version == version
    assert [s.custom_id for s in marie.hand.selects] == second
    assert marie.hand.content.split("\n")[0] == advice
    await tick(fake, clock, 1)
    dave = fake.add_user("dave", locale="fr")
    await dave.click(message(dave, table.table_message_id), cid(table, "join"))
    await tick(fake, clock, 1)
    assert [s.custom_id for s in marie.hand.selects] == second
    fake.assert_no_errors()
