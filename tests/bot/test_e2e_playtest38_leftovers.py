"""End-to-end: what play-test 38 (stop 55) saw and left (docs/bot.md « Play-test 38,
leftovers (stop 55) »): a leaver read « You left the table » twice, in the prompt they
confirmed and in their hand; a leaver who did not come back was missing from the final
standings, though the round they left showed their stand-in's points."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import plural, t
from bot.packages.game.unranked import standing_splits
from bot.tables.table import Table
from engine import Game, Phase
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    connect_bot,
    create_table,
    database_url,
    leave_game,
    message,
    play_until,
    tick,
    two_humans_against_a_bot,
)
from .stored import stored_game


@pytest.mark.parametrize("locale", ["fr", "en-US"])
async def test_the_lobby_s_quitter_as_the_game_starts_says_it_once(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """The lobby's « Quitter » answers by redrawing the lobby, so the hand of the one who
    left says it. Clicked as the host starts, by sam waiting in a full proletario lobby's
    queue, it finds the game started: the lobby is not redrawn and the answer says « You
    left the queue ». The hand's words were chosen before the leave, the answer's after,
    and the hand said it too. Both are now chosen after the leave, under the table's lock:
    the answer says it, the hand only that it closed."""
    users = [fake.add_user(name, locale="fr") for name in ("marie", "léo", "ana", "tom")]
    sam = Player(fake.add_user("sam", locale=locale))
    table = await create_table(president, users[0], "proletario")
    lobby = message(users[0], table.lobby_message_id)
    for user in [*users[1:], sam.user]:
        await user.click(lobby, cid(table, "join"))
    assert table.queued(sam.user.id)
    await sam.user.slash("president hand")
    sam.hand_id = sam.user.last_ephemeral().id
    await users[0].click(lobby, cid(table, "start"), settle=False)
    await sam.user.click(lobby, cid(table, "leave"), settle=False)
    await fake.settle()
    answer = sam.user.last_ephemeral()
    await tick(fake, clock, 1)
    assert table.game is not None and not table.queued(sam.user.id)
    assert answer.content == t(locale, "lobby.left_queue")
    assert sam.hand.content == t(locale, "hand.folded") != answer.content
    assert not sam.hand.buttons
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", ["fr", "en-US"])
async def test_the_lobby_s_quitter_in_the_lobby_says_it_on_the_hand(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """Where the lobby's « Quitter » redraws the lobby, which says nothing of who left, the
    hand still says it: once, in its reader's language."""
    marie = fake.add_user("marie", locale="fr")
    sam = Player(fake.add_user("sam", locale=locale))
    table = await create_table(president, marie)
    lobby = message(marie, table.lobby_message_id)
    await sam.user.click(lobby, cid(table, "join"))
    await sam.user.slash("president hand")
    sam.hand_id = sam.user.last_ephemeral().id
    answer = await sam.user.click(lobby, cid(table, "leave"))
    await tick(fake, clock, 1)
    assert table.seat_of(sam.user.id) is None
    assert answer.response_type == 7  # the lobby, redrawn
    assert sam.hand.content == t(locale, "lobby.left") and not sam.hand.buttons
    assert [m.id for m in sam.user.visible() if m.ephemeral] == [sam.hand_id]
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", ["fr", "en-US"])
async def test_a_leaver_reads_that_they_left_once(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """bob leaves mid-round by `/president leave` and « Leave the game »: the prompt and
    his open hand both turned into « You left the table. », two identical lines. The
    prompt he confirmed says it; the hand, stripped of its controls so as not to look
    live, says only that it closed."""
    marie = Player(fake.add_user("marie", locale="fr"))
    bob = Player(fake.add_user("bob", locale=locale))
    table, _ = await two_humans_against_a_bot(fake, clock, president, marie, bob)
    hand = bob.hand_id
    await leave_game(bob.user)
    prompt = bob.user.last_ephemeral()
    await tick(fake, clock, 1)
    assert table.left_seat(bob.user.id) is not None
    assert prompt.content == t(locale, "lobby.left")
    shown = message(bob.user, hand)
    assert shown.content == t(locale, "hand.folded") != prompt.content
    assert not shown.buttons and not shown.selects
    fake.assert_no_errors()


@dataclass(frozen=True)
class FirstRound:
    """bob's first round played, as the three standings tests start: what they read on."""
    url: str
    bot: PresidentBot
    marie: Player
    bob: Player
    table: Table
    game: Game
    seat: int
    own: int  # bob's points after the first round, which his cards win


async def bob_wins_the_first_round(fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
                                   locale: str, rounds: int) -> FirstRound:
    """On a storing bot, marie (in `locale`) opens classic to `rounds`, seats two bots,
    then bob joins (the fourth seat, whose cards win the first round) and she starts; both
    hands open, and bob plays the first round to its end."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url)
    marie = Player(fake.add_user("marie", locale=locale))
    bob = Player(fake.add_user("bob"))
    table = await create_table(bot, marie.user)
    await bot.service.set_rules(table, marie.user.id,
                                table.rules.replace(game_end=f"rounds:{rounds}"))
    lobby = message(marie.user, table.lobby_message_id)
    for _ in range(2):
        await marie.user.click(lobby, cid(table, "addbot"))
    await bob.user.click(lobby, cid(table, "join"))
    await marie.user.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    await marie.open_hand(bot)
    await bob.open_hand(bot)
    game = table.game
    assert game is not None
    seat = table.seat_of(bob.user.id)
    assert seat is not None
    await play_until(fake, clock, [bob], lambda: game.phase is Phase.ROUND_OVER)
    return FirstRound(url, bot, marie, bob, table, game, seat, game.total(seat))


async def next_round_then_leave(fake: FakeDiscord, clock: LinkedClock,
                                first: FirstRound) -> None:
    """marie deals the next round, and bob leaves it at once."""
    await tick(fake, clock, 1)
    await first.marie.user.click(message(first.marie.user, first.table.table_message_id),
                                 cid(first.table, "next", first.game.version))
    await tick(fake, clock, 1)
    await leave_game(first.bob.user)


@pytest.mark.parametrize("locale", ["fr", "en"])
async def test_a_leaver_who_does_not_come_back_is_named_below_the_standings(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """Classic to three rounds: bob plays the first (marie's turns pass by the timer: he
    wins it), leaves in the second, a bot finishes it for him (« 🤖 bob · … +n à cette
    manche »), and his seat is freed. The final standings, the engine's
    (`Game.standings`: the seats of the last round), do not rank that seat. Stop 55 named
    it below them by the seat's last total, « 🤖 bob · 6 pts », which counted the bot's
    points as bob's. bob is now named with his own points, as
    his line in the chart ends, and the bot's stated beside them with the seat's total:
    the two add up to it, and each is what the stored rounds hold."""
    first = await bob_wins_the_first_round(fake, clock, tmp_path, locale, 3)
    url, bot, marie, bob = first.url, first.bot, first.marie, first.bob
    table, game, seat, own = first.table, first.game, first.seat, first.own
    await next_round_then_leave(fake, clock, first)
    await play_until(fake, clock, [], lambda: game.phase is Phase.ROUND_OVER)
    total = game.total(seat)
    assert 0 < own < total  # his points, and the bot's on top
    await tick(fake, clock, 1)
    await marie.user.click(message(marie.user, table.table_message_id),
                           cid(table, "next", game.version))
    await play_until(fake, clock, [marie], lambda: game.phase is Phase.GAME_OVER)
    await tick(fake, clock, 1)
    assert seat not in dict(game.standings())
    board = message(marie.user, table.table_message_id).content.split("\n")
    title = board.index(t(locale, "table.standings"))
    shown = board[title + 1 + len(game.standings())]
    assert shown == t(locale, "table.standing_left_bot", name="bob",
                      total=plural(locale, "n.points", own),
                      bot=plural(locale, "n.points", total - own),
                      seat=plural(locale, "n.points", total))
    assert "🤖 bob" not in shown  # bob is named, and the bot beside
    assert table.game_row_id is not None
    stored = await stored_game(url, table.game_row_id)
    bobs = [r for r in stored.results if r.user_id == bob.user.id]
    assert [r.round_no for r in bobs] == [1, 2]  # his round, then his stand-in's
    assert bobs[0].points == own and bobs[1].points == total - own
    assert sum(r.points for r in bobs) == total
    older = table.to_dict()  # a snapshot from before the table kept each round's gains
    del older["round_gained"]
    restored = Table.from_dict(older)
    back = restored.game
    assert back is not None and standing_splits(restored, back, back.standings()).left == []
    fake.assert_no_errors()
    await fake.disconnect(bot)


@pytest.mark.parametrize("locale", ["fr", "en"])
async def test_a_leaver_between_rounds_is_named_below_the_standings_too(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """bob plays the first round and leaves as it ends (no bot finishes anything for
    him): stop 55 named only the stand-ins, so he was missing from the final standings
    with the points his round showed. He is named, with those points alone."""
    first = await bob_wins_the_first_round(fake, clock, tmp_path, locale, 2)
    url, bot, marie, bob = first.url, first.bot, first.marie, first.bob
    table, game, own = first.table, first.game, first.own
    assert own > 0
    await tick(fake, clock, 1)
    await leave_game(bob.user)
    await tick(fake, clock, 1)
    assert table.seat_of(bob.user.id) is None
    await marie.user.click(message(marie.user, table.table_message_id),
                           cid(table, "next", game.version))
    await play_until(fake, clock, [marie], lambda: game.phase is Phase.GAME_OVER)
    await tick(fake, clock, 1)
    board = message(marie.user, table.table_message_id).content.split("\n")
    title = board.index(t(locale, "table.standings"))
    assert board[title + 1 + len(game.standings())] == t(
        locale, "table.standing_left", name="bob", total=plural(locale, "n.points", own))
    assert table.game_row_id is not None
    stored = await stored_game(url, table.game_row_id)
    assert sum(r.points for r in stored.results if r.user_id == bob.user.id) == own
    fake.assert_no_errors()
    await fake.disconnect(bot)


@pytest.mark.parametrize("locale", ["fr", "en"])
async def test_a_stand_in_ranked_at_the_end_says_whose_points_are_whose(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """bob wins the first of two rounds and leaves in the last: the bot finishing it
    holds his seat as the game ends, so the standings rank it (the engine's), named
    « 🤖 bob » with the seat's total, his points and the bot's together. The line now says
    how much of it is bob's and how much the bot's, which add up to it and to what the
    stored rounds hold."""
    first = await bob_wins_the_first_round(fake, clock, tmp_path, locale, 2)
    url, bot, marie, bob = first.url, first.bot, first.marie, first.bob
    table, game, seat, own = first.table, first.game, first.seat, first.own
    await next_round_then_leave(fake, clock, first)
    await play_until(fake, clock, [marie], lambda: game.phase is Phase.GAME_OVER)
    await tick(fake, clock, 1)
    total = game.total(seat)
    assert own > 0
    place = dict(game.standings())[seat]
    board = message(marie.user, table.table_message_id).content.split("\n")
    title = board.index(t(locale, "table.standings"))
    assert t(locale, "table.standing_line_bot", place=place, name="🤖 bob",
             total=plural(locale, "n.points", total), leaver="bob",
             own=plural(locale, "n.points", own),
             bot=plural(locale, "n.points", total - own)) in board[title + 1:]
    assert table.game_row_id is not None
    stored = await stored_game(url, table.game_row_id)
    bobs = [r for r in stored.results if r.user_id == bob.user.id]
    assert [(r.round_no, r.points) for r in bobs] == [(1, own), (2, total - own)]
    fake.assert_no_errors()
    await fake.disconnect(bot)
