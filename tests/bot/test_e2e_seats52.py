"""End-to-end: seats, breaks and the leaderboard (docs/bot.md « Seats, breaks and the
leaderboard (stop 52) »).

- At a game with no end, a latecomer took only bots' seats: a seat a classic leaver freed
  (removed from the game at the round's end) was never given again, so one asking for a
  seat waited for the host's « Terminer ». The list now takes such a seat at the next deal,
  where the engine deals it again (`Game.reopen_seat`).
- « Prolonger la pause » was only on the host's open hand: it is on the table message too,
  during a player's own break, the host's alone (anyone else is told so, privately).
- The leaderboard's « ≈ » said a caller's number might be better, not by how much: it
  gives the range.

Time is the fake's: nothing sleeps."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import button_names, plural, t
from bot.tables.deadlines import pause_ends
from engine import Phase
from fakediscord import FakeDiscord
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import cid, connect_bot, database_url, humans_only, leave_game, message, play_until, tick
from .test_e2e_leaderboard_members import rated, shown_board
from .test_e2e_playtest29 import a_humans_turn, pause

LOCALES = ["fr", "en-US"]

#: (the table's language, the latecomers'): each reads the other's.
PAIRS = [("fr", "en-US"), ("en-US", "fr")]


@pytest.mark.parametrize(("locale", "theirs"), PAIRS)
async def test_a_latecomer_at_a_game_with_no_end_takes_a_seat_a_leaver_freed(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str, theirs: str
) -> None:
    """marie, bob, carol and zoe play classic with no bot and no end. zoe leaves in round
    1 (a bot finishes it, her seat goes at its end). dave asks for a seat: he was told that
    he took a bot's seat (her stand-in counted as one) and then sat at none, or, once her
    seat had gone, that he waited for the next game, hours away. He now reads that he takes
    a seat someone left, the table says he waits for the next round, and at « Manche
    suivante » he sits at zoe's seat with 0 points and her rank, his hand open to him;
    erin, asking next, is on the list for the next game (no seat is left)."""
    users = [fake.add_user(name, locale=locale) for name in ("marie", "bob", "carol", "zoe")]
    dave = fake.add_user("dave", locale=theirs)
    erin = fake.add_user("erin", locale=theirs)
    table, players = await humans_only(fake, clock, president, users, "classic",
                                       game_end="unlimited")
    game = table.game
    assert game is not None
    zoe_seat = table.seat_of(users[3].id)
    assert zoe_seat is not None
    await leave_game(users[3])
    await tick(fake, clock, 1)
    names = button_names(locale)
    board = message(dave, table.table_message_id)
    await dave.click(board, cid(table, "hand"))
    assert t(theirs, "hand.join_no_end", **names) in dave.last_ephemeral().content
    await dave.click(board, cid(table, "join"))
    assert dave.last_ephemeral().content == t(theirs, "lobby.queued_no_end_freed", **names)
    await erin.click(board, cid(table, "join"))
    assert erin.last_ephemeral().content == t(theirs, "lobby.listed_no_end", **names)
    await tick(fake, clock, 1)
    shown = message(users[0], table.table_message_id).content
    assert t(locale, "table.waiting_round", names="dave") in shown
    assert t(locale, "table.waiting_next", names="erin") in shown

    await play_until(fake, clock, players[:3], lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    assert not fresh(game).active[zoe_seat]  # her seat is gone from the game
    ranking = fresh(game).ranking
    assert ranking is not None and zoe_seat in ranking  # (where her stand-in finished)
    rank = ranking.index(zoe_seat)
    shown = message(users[0], table.table_message_id).content
    assert t(locale, "table.waiting_round", names="dave") in shown  # still his, between rounds
    await users[0].click(message(users[0], table.table_message_id),
                         cid(table, "next", game.version))
    await tick(fake, clock, 1)
    assert table.seat_of(dave.id) == zoe_seat and fresh(game).active[zoe_seat]
    assert zoe_seat in fresh(game).players and fresh(game).points[zoe_seat] == 0
    ranking = fresh(game).ranking
    assert ranking is not None and ranking.index(zoe_seat) == rank  # her rank, his now
    assert [p.user_id for p in table.queue] == [erin.id]
    shown = message(users[0], table.table_message_id).content
    assert "dave" in shown and t(locale, "table.waiting_next", names="erin") in shown
    await dave.click(message(dave, table.table_message_id), cid(table, "hand"))
    assert t(theirs, "hand.not_seated") not in dave.last_ephemeral().content  # his hand
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_host_extends_a_player_s_break_from_the_table_message(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str
) -> None:
    """Between two rounds bob presses « Pause »; marie, the host, could make the break hers
    only from her hand when open, or by `/president pause`. The table message now shows
    « Prolonger la pause » during bob's break, on a second row (the first holds Discord's
    five buttons): bob and a spectator pressing it are told, privately, that it is the
    host's, and nothing changes; marie's click makes the break hers, and the button goes.
    Her second click (the message her phone still shows) is refused as late."""
    marie, bob, table, game = await a_humans_turn(fake, clock, president, locale)
    otto = fake.add_user("otto", locale=locale)
    await play_until(fake, clock, [marie, bob], lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    await pause(fake, clock, bob.user, table)
    started = fresh(table).pause
    assert started is not None and started.own
    since = str(int(started.since))
    board = message(marie.user, table.table_message_id)
    label = t(locale, "btn.lengthen")
    rows = [[c.get("label") for c in row["components"]] for row in board.components]
    assert len(rows) == 2 and rows[1] == [label] and len(rows[0]) == 5
    for who in (bob.user, otto):
        await who.click(message(who, table.table_message_id), cid(table, "extend", 0, since))
        ends = f"<t:{int(pause_ends(started, clock.now()))}:R>"
        assert t(locale, "err.lengthen_host_only", host=marie.user.id, name="bob", at=ends,
                 button=t(locale, "btn.play_on")) in who.last_ephemeral().content
        assert fresh(table).pause == started  # nothing changed
    await marie.user.click(board, cid(table, "extend", 0, since))
    await tick(fake, clock, 1)
    now = fresh(table).pause
    assert now is not None and not now.own and now.by == marie.user.id
    assert label not in [b.label for b in message(marie.user, table.table_message_id).buttons]
    await marie.user.click_shown(board, label)  # her phone, still showing it
    assert t(locale, "err.lengthen_late") in marie.user.last_ephemeral().content
    assert fresh(table).pause == now
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_caller_far_below_the_top_is_told_the_range_of_their_number(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """Forty rated members, p39 asking: the twenty-nine ranked between the top ten and
    p39 are more than the board may ask about, so none is, and p39's « ≈ 40. » said their
    number might be better without saying how much. It now gives the range, from what is
    known: five of them (p20 to p24) known to be members, the best is 16th (the ten rows
    shown, the five, then p39: each of the twenty-four others gone), the worst as counted
    (none gone). fr and en."""
    bot = await connect_bot(fake, clock, database_url(tmp_path))
    assert bot.storage is not None
    players = [fake.add_user(f"p{i}", locale=locale) for i in range(40)]
    await rated(bot.storage, fake.guild.id, players)
    p39 = players[39]
    board = await bot.storage.leaderboard(fake.guild.id, "classic", caller_id=p39.id)
    assert board.caller is not None
    rank = board.caller.rank
    rating = board.caller.rating
    rounds = plural(locale, "n.rated", board.caller.rounds)

    for player in players[20:25]:  # known members (a board asked of them an hour ago)
        bot.members.present(fake.guild.id, player.id)
    lines, calls = await shown_board(fake, clock, p39)
    assert calls == 10  # the rows shown; the twenty-four unknown between would not fit
    assert lines[-1] == t(locale, "leaderboard.line_about", best=16, rank=rank, user=p39.id,
                          rating=rating, rounds=rounds)
    assert lines[-1].startswith(f"≈ 16–{rank}. <@{p39.id}>")
    await fake.disconnect(bot)
    fake.assert_no_errors()


@pytest.mark.parametrize(("locale", "theirs"), PAIRS)
async def test_a_latecomer_is_promised_no_seat_at_a_round_whose_end_stops_the_game(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str, theirs: str
) -> None:
    """Stop 52's review: marie, bob and zoe play classic with no end (three, its fewest);
    bob and zoe leave mid-round, so the round's end stops the game and the table goes back
    to its lobby (RULES §10: fewer than min_players left; since stop 53 a list that makes
    up the count keeps the game, dave alone does not). dave, asking for a seat, was told he took a
    seat someone left at « Manche suivante », a round nobody deals: he is told the game
    stops and he takes a seat in the lobby, and the table says he waits for the next game.
    At the round's end he sits in the lobby."""
    users = [fake.add_user(name, locale=locale) for name in ("marie", "bob", "zoe")]
    dave = fake.add_user("dave", locale=theirs)
    table, players = await humans_only(fake, clock, president, users, "classic",
                                       game_end="unlimited")
    game = table.game
    assert game is not None
    await leave_game(users[2])
    await leave_game(users[1])
    await tick(fake, clock, 1)
    board = message(dave, table.table_message_id)
    names = button_names(locale)
    await dave.click(board, cid(table, "join"))
    assert dave.last_ephemeral().content == t(theirs, "lobby.listed_to_lobby")
    await tick(fake, clock, 1)
    shown = message(users[0], table.table_message_id).content
    assert t(locale, "table.waiting_round", names="dave") not in shown
    assert t(locale, "table.waiting_next", names="dave") in shown
    await dave.click(board, cid(table, "hand"))
    assert t(theirs, "hand.join_no_end", **names) not in dave.last_ephemeral().content
    await play_until(fake, clock, players[:1], lambda: table.game is None)
    await tick(fake, clock, 1)
    assert table.seat_of(dave.id) is not None  # the lobby seated him
    fake.assert_no_errors()
