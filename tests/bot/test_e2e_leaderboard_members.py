"""End-to-end: the leaderboard shows the server's members only (stop 50, docs/bot.md
« Privacy and leftovers (stop 50) »). The bot has no privileged intent, so it is told of
no member leaving: it asks Discord about the rows it shows (Get Guild Member), remembers
the answers for an hour, and leaves out those gone (`bot.packages.stats.members`)."""

from __future__ import annotations

import re
from pathlib import Path

from bot.packages.stats.display import board_lines
from bot.packages.stats.members import FRESH
from bot.storage import SeatRef, Storage
from engine.rules import RulesDict
from fakediscord import FakeDiscord, TestUser, errors

from .conftest import LinkedClock
from .e2e import connect_bot, database_url, tick
from .test_e2e_playtest9_moderation import audit_log_only

MEMBER = "/guilds/{guild_id}/members/{user_id}"
CLASSIC: RulesDict = {"preset": "classic", "set": {}}
ROLES = ("P", "VP", "VL", "L")
POINTS = (3, 2, 0, 0)


async def rated(storage: Storage, guild_id: int, players: list[TestUser]) -> None:
    """Rounds of four neighbours in the list, the first of each finishing first: the
    earlier a player in the list, the better their rating, roughly."""
    table_id = await storage.create_table(guild_id, 10, players[0].id, CLASSIC)
    for first in range(len(players) - 3):
        four = players[first:first + 4]
        seats = [SeatRef(p.id, False, p.name) for p in four]
        game_id = await storage.start_game(table_id, game_no=first + 1, preset="classic",
                                           rules=CLASSIC, seats=seats)
        await storage.record_round(game_id, 1, ranking=[0, 1, 2, 3], roles=list(ROLES),
                                   points=list(POINTS), seats=seats)
    await storage.update_table(table_id, status="closed")


def mentioned(lines: list[str]) -> list[int]:
    """The members a board's lines name, in order."""
    return [int(found[1]) for line in lines if (found := re.search(r"<@(\d+)>", line))]


async def shown_board(fake: FakeDiscord, clock: LinkedClock, user: TestUser) -> tuple[
        list[str], int]:
    """The lines of `/president leaderboard` as ``user`` sees it, and the Get Guild Member
    calls it cost."""
    mark = fake.mark()
    await user.slash("president leaderboard")
    await tick(fake, clock, 1)  # the calls' travel on the fake's clock
    (embed,) = user.last_ephemeral().embeds
    assert embed.description is not None
    return embed.description.split("\n"), len(fake.calls_since(mark, MEMBER))


async def test_the_leaderboard_leaves_out_members_gone_and_asks_once_an_hour(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
) -> None:
    """Thirteen rated members; p0 and p3, among the best, leave the server of their own
    accord (which the bot is not told: GUILD_MEMBER_REMOVE is the privileged intent's).
    The board showed them, by mention, as before they left. It now shows the eleven left
    ranked among themselves: it asked about the ten rows it read (p12, who asked, is known
    to be a member), found two gone and asked about the two who came up: 12 calls. Asked
    again by p5 within the hour: none. p4 banned meanwhile, the ban heard: off at once,
    without a call. An hour on: the ten rows asked again, once."""
    bot = await connect_bot(fake, clock, database_url(tmp_path))
    assert bot.storage is not None
    players = [fake.add_user(f"p{i}") for i in range(13)]
    await rated(bot.storage, fake.guild.id, players)
    p0, p3, p4, p5, p12 = (players[i] for i in (0, 3, 4, 5, 12))
    fake.leave(fake.guild, p0)
    fake.leave(fake.guild, p3)
    await fake.settle()

    lines, calls = await shown_board(fake, clock, p12)
    expected = await bot.storage.leaderboard(fake.guild.id, "classic", caller_id=p12.id,
                                             absent={p0.id, p3.id})
    assert lines == board_lines("en", expected)
    assert not any(f"<@{gone.id}>" in line for line in lines for gone in (p0, p3))
    assert lines[0].startswith("1. ") and len(lines) == 11  # the top ten, and p12
    assert calls == 12 == bot.members.asked

    top, calls = await shown_board(fake, clock, p5)
    assert (top, calls) == (lines[:10], 0)

    audit_log_only(fake)
    fake.ban(fake.guild, p4)
    await fake.settle()
    lines, calls = await shown_board(fake, clock, p5)
    assert not any(f"<@{p4.id}>" in line for line in lines)
    assert mentioned(lines) == [user for user in mentioned(top) if user != p4.id] + [p12.id]
    assert lines[2].startswith("3. ") and calls == 0  # p12 came up: the caller, known
    await tick(fake, clock, FRESH + 1)
    again, calls = await shown_board(fake, clock, p5)
    assert again == lines and calls == 12  # ten rows, p5 known; the three gone, asked again
    await fake.disconnect(bot)
    for _ in range(2 + 3):  # p0 and p3 at the first board; them and p4 an hour on
        fake.expect_error(errors.UNKNOWN_MEMBER)
    fake.assert_no_errors()


async def test_a_member_discord_could_not_tell_about_is_asked_once_per_board(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
) -> None:
    """Discord answers the first Get Guild Member with a 503 (the top row's: not known,
    shown as a member), and p1 has left. The board, read again without p1, asked about the top row
    a second time, and again after each member found gone, up to `ASKED_MOST`: in a 5xx
    storm every board cost three times its rows. It is asked once per board: ten rows and the
    one who came up, 11 calls (12 before); since stop 51 the one ranked between the top
    and p12 too (p12's number then counts members only), 12."""
    bot = await connect_bot(fake, clock, database_url(tmp_path))
    assert bot.storage is not None
    players = [fake.add_user(f"p{i}") for i in range(13)]
    await rated(bot.storage, fake.guild.id, players)
    p1, p12 = players[1], players[12]
    top = (await bot.storage.leaderboard(fake.guild.id, "classic")).rows[0].user_id
    assert top != p1.id
    fake.leave(fake.guild, p1)
    await fake.settle()
    fake.inject_error(MEMBER, 503, method="GET")

    lines, calls = await shown_board(fake, clock, p12)
    assert f"<@{top}>" in lines[0] and not any(f"<@{p1.id}>" in line for line in lines)
    assert calls == 12
    await fake.disconnect(bot)
    fake.expect_error(errors.UNKNOWN_MEMBER)
    fake.assert_no_errors()


async def test_thousands_of_members_gone_pass_no_driver_s_bound_parameters(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
) -> None:
    """A raid's bans heard: 260,000 users known gone, two of them rated here (p0 and p3).
    They went into SQL as one `NOT IN` of 260,000 bound parameters, past asyncpg's 32,767
    and SQLite's bound (32,766 by default, 250,000 as Debian builds it): the board failed. Those rated here are found in chunks and left out
    in Python: the board is the one of the two gone, ranks, caller and total alike."""
    bot = await connect_bot(fake, clock, database_url(tmp_path))
    assert bot.storage is not None
    players = [fake.add_user(f"p{i}") for i in range(13)]
    await rated(bot.storage, fake.guild.id, players)
    p0, p3, p12 = (players[i] for i in (0, 3, 12))
    raid = {10**15 + i for i in range(260_000)} | {p0.id, p3.id}
    board = await bot.storage.leaderboard(fake.guild.id, "classic", caller_id=p12.id,
                                          absent=raid)
    expected = await bot.storage.leaderboard(fake.guild.id, "classic", caller_id=p12.id,
                                             absent={p0.id, p3.id})
    assert board == expected
    # Ranked among the eleven left, as the whole board ranks its thirteen (ties shared).
    whole = await bot.storage.leaderboard(fake.guild.id, "classic", limit=13)
    left = [row for row in whole.rows if row.user_id not in (p0.id, p3.id)]
    ranks = [1 + sum((o.rating, o.rounds) > (row.rating, row.rounds) for o in left)
             for row in left]
    assert [(row.user_id, row.rank) for row in board.rows] == [
        (row.user_id, rank) for row, rank in zip(left[:10], ranks, strict=False)]
    assert board.caller is not None and board.caller.user_id == p12.id
    assert board.caller.rank == ranks[10] and board.total == 11
    assert ranks != list(range(1, 12))  # ties in the data: shared ranks are checked
    await fake.disconnect(bot)


async def test_a_caller_below_the_top_is_numbered_among_members_only(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
) -> None:
    """Twenty-five rated members; p11 and p14, ranked between the top ten and p24, have
    left. p24, who asks, was numbered counting them: only the rows shown were asked about,
    so two places too low. Those ranked ahead of the caller and not shown are asked too,
    when they fit in the board's asks (here the ten rows and the thirteen between):
    p24's number is the one among members, said plainly, and costs nothing more within
    the hour."""
    bot = await connect_bot(fake, clock, database_url(tmp_path))
    assert bot.storage is not None
    players = [fake.add_user(f"p{i}") for i in range(25)]
    await rated(bot.storage, fake.guild.id, players)
    p11, p14, p24 = players[11], players[14], players[24]
    fake.leave(fake.guild, p11)
    fake.leave(fake.guild, p14)
    await fake.settle()

    lines, calls = await shown_board(fake, clock, p24)
    expected = await bot.storage.leaderboard(fake.guild.id, "classic", caller_id=p24.id,
                                             absent={p11.id, p14.id})
    assert expected.caller is not None and lines[-1] == board_lines("en", expected)[-1]
    assert lines == board_lines("en", expected)
    unchecked = await bot.storage.leaderboard(fake.guild.id, "classic", caller_id=p24.id,
                                              ahead_most=30)
    assert unchecked.caller is not None and unchecked.caller.rank > expected.caller.rank
    assert {p11.id, p14.id} <= set(unchecked.ahead)
    assert calls == 10 + len(unchecked.ahead) == 24  # the ten rows, the fourteen between

    again, calls = await shown_board(fake, clock, p24)
    assert (again, calls) == (lines, 0)
    await fake.disconnect(bot)
    for _ in range(2):
        fake.expect_error(errors.UNKNOWN_MEMBER)
    fake.assert_no_errors()


async def test_a_caller_far_below_the_top_is_told_their_number_is_about_right(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
) -> None:
    """Forty rated members, p39 asking: twenty-nine are ranked ahead of them and not
    shown, more than the board may ask about after its ten rows (`ASKED_MOST`, 30). None
    of them is asked (some would not make the number right), and p39's line says its
    number is approximate instead of stating one that counts members who may have left."""
    bot = await connect_bot(fake, clock, database_url(tmp_path))
    assert bot.storage is not None
    players = [fake.add_user(f"p{i}") for i in range(40)]
    await rated(bot.storage, fake.guild.id, players)
    p39 = players[39]

    lines, calls = await shown_board(fake, clock, p39)
    board = await bot.storage.leaderboard(fake.guild.id, "classic", caller_id=p39.id)
    assert board.caller is not None and calls == 10
    assert lines == board_lines("en", board, best=11)  # the ten rows shown, then p39
    assert lines[-1].startswith(f"≈ 11–{board.caller.rank}. <@{p39.id}>")
    await fake.disconnect(bot)
    fake.assert_no_errors()
