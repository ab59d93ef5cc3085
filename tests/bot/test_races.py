"""Issue 11, part 3: simultaneous clicks. Where only one may apply, exactly one does.

Each race sends its clicks to the bot before it handles any (the test users click without
settling, then the bot settles once): several joins for the last seat, the same play
clicked twice, Next and End on a finished round in either order, and in fast mode two
players playing on the same trick or one player's double click. 110 races in all.
"""

from __future__ import annotations

import random

from bot.client import PresidentBot
from bot.tables.table import Table
from engine import Phase
from fakediscord import FakeDiscord, InteractionRecord, TestUser

from .conftest import LinkedClock
from .e2e import Player, cid, hand, message, table_of, tick

JOIN_RACES = 30
DOUBLE_PLAYS = 25
NEXT_END_RACES = 25
FAST_RACES = 30


# A click: who, on which message, which control, and a select's values (None: a button).
Click = tuple[TestUser, int, str, list[str] | None]


async def race(fake: FakeDiscord, *clicks: Click,
               ) -> list[InteractionRecord]:
    """Send every click (user, message, custom_id, select values) before the bot answers
    any, then let it answer them all; each must be answered."""
    records = []
    for user, message_id, custom, values in clicks:
        if values is None:
            records.append(await user.click(message_id, custom, settle=False))
        else:
            records.append(await user.select(message_id, values, select=custom, settle=False))
    await fake.settle()
    assert all(r.acknowledged for r in records)
    return records


async def seated_table(bot: PresidentBot, fake: FakeDiscord, host: TestUser, channel_name: str,
                       ) -> Table:
    channel = fake.add_channel(fake.guild, channel_name)
    await fake.settle()
    host.channel = channel
    await host.slash("president create", preset="classic")
    return table_of(bot, host)


async def test_only_one_of_simultaneous_clicks_applies_where_only_one_may(
    fake: FakeDiscord, instant: PresidentBot, clock: LinkedClock
) -> None:
    bot = instant
    rng = random.Random(5)
    host = Player(fake.add_user("host"))
    guest = Player(fake.add_user("guest", locale="fr"))
    joiners = [fake.add_user(f"joiner{i}") for i in range(4)]
    races = 0

    # --- several joins for one seat ---------------------------------------------------------
    table = await seated_table(bot, fake, host.user, "joins")
    await bot.service.set_rules(table, host.user.id, table.rules.replace(bots_fill=False))
    while len(table.seats) < table.capacity() - 1:  # people: a bot would give way
        filler = fake.add_user(f"filler{len(table.seats)}")
        filler.channel = host.user.channel
        await filler.click(message(filler, table.lobby_message_id), cid(table, "join"))
    for user in joiners:
        user.channel = host.user.channel
    for _ in range(JOIN_RACES):
        lobby = table.lobby_message_id
        assert lobby is not None
        group = rng.sample(joiners, rng.randint(2, len(joiners)))
        await race(fake, *[(u, lobby, cid(table, "join"), None) for u in group])
        seated = [u for u in group if table.seat_of(u.id) is not None]
        assert len(seated) == 1, [u.name for u in seated]
        assert len(table.seats) == table.capacity()
        races += 1
        await seated[0].click(table.lobby_message_id or 0, cid(table, "leave"))

    # --- double plays, then Next and End at once on each finished round ------------------------
    table = await seated_table(bot, fake, host.user, "turns")
    for _ in range(2):
        await host.user.click(message(host.user, table.lobby_message_id), cid(table, "addbot"))
    await bot.service.set_rules(table, host.user.id, table.rules.replace(game_end="unlimited"))
    await host.user.click(message(host.user, table.lobby_message_id), cid(table, "start"))
    await tick(fake, clock, 1)
    await host.open_hand(bot)
    doubles = next_ends = 0
    for _ in range(5000):
        if doubles >= DOUBLE_PLAYS and next_ends >= NEXT_END_RACES:
            break
        game = table.game
        assert game is not None
        seat = table.seat_of(host.user.id)
        assert seat is not None
        if game.phase is Phase.ROUND_OVER:
            await tick(fake, clock, 1)
            board = table.table_message_id
            assert board is not None
            clicks: list[Click] = [(host.user, board, cid(table, "next", game.version), None),
                                   (host.user, board, cid(table, "end", game.version), None)]
            rng.shuffle(clicks)
            round_no = game.round_no
            await race(fake, *clicks)
            dealt = table.game is not None and table.game.round_no == round_no + 1
            stopped = table.game is None or table.game.phase is Phase.GAME_OVER
            assert dealt != stopped, (dealt, stopped)
            next_ends += 1
            races += 1
            await tick(fake, clock, 1)
            if dealt:
                await host.open_hand(bot)
        elif game.phase is Phase.GAME_OVER:
            await tick(fake, clock, 1)
            await host.user.click(message(host.user, table.table_message_id),
                                  cid(table, "replay", game.version))
            await tick(fake, clock, 1)
            await host.open_hand(bot)
        elif game.phase is Phase.PLAY and game.to_act == seat and game.legal_plays(seat) \
                and doubles < DOUBLE_PLAYS:
            await host.user.click(host.hand, cid(table, "refresh"))  # the current hand
            shown = host.hand
            menu = next(m for m in shown.selects if ":play:" in m.custom_id)
            value = menu.options[0].value
            before = len(game.hand(seat))
            await race(fake, (host.user, shown.id, menu.custom_id, [value]),
                       (host.user, shown.id, menu.custom_id, [value]))
            assert len(game.hand(seat)) == before - len(value.split("|")[0].split("."))
            doubles += 1
            races += 1
        elif not await host.act():
            await tick(fake, clock, 1)
    assert doubles == DOUBLE_PLAYS and next_ends == NEXT_END_RACES

    # --- fast mode: two players on one trick, or one player's double click -------------------
    table = await seated_table(bot, fake, host.user, "fast")
    guest.user.channel = host.user.channel
    await guest.user.click(message(guest.user, table.lobby_message_id), cid(table, "join"))
    await host.user.click(message(host.user, table.lobby_message_id), cid(table, "addbot"))
    await bot.service.set_rules(table, host.user.id,
                                table.rules.replace(fast=True, game_end="unlimited"))
    await host.user.click(message(host.user, table.lobby_message_id), cid(table, "start"))
    await tick(fake, clock, 1)
    await host.open_hand(bot)
    await guest.open_hand(bot)
    players = [host, guest]
    fast = 0
    for _ in range(5000):
        if fast >= FAST_RACES:
            break
        game = table.game
        assert game is not None
        seats = [table.seat_of(p.user.id) for p in players]
        if game.phase is Phase.ROUND_OVER:
            await tick(fake, clock, 1)
            await host.user.click(message(host.user, table.table_message_id),
                                  cid(table, "next", game.version))
            await tick(fake, clock, 1)
            continue
        both = game.phase is Phase.PLAY and all(
            s is not None and game.legal_plays(s) for s in seats)
        if not both:
            if not any([await p.act() for p in players]):
                await tick(fake, clock, 1)
            continue
        for player in players:  # both hands show the current trick
            await player.user.click(player.hand, cid(table, "refresh"))
        sizes = [len(game.hand(s)) for s in seats if s is not None]
        clicks = []
        racers = players if fast % 3 else [host, host]
        for player in racers:
            shown = hand(player.user)
            menu = next(m for m in shown.selects if ":play:" in m.custom_id)
            clicks.append((player.user, shown.id, menu.custom_id, [menu.options[0].value]))
        await race(fake, *clicks)
        played = sum(len(game.hand(s)) < size for s, size in zip(seats, sizes, strict=True)
                     if s is not None)
        assert played == 1
        fast += 1
        races += 1
    assert fast == FAST_RACES
    assert races >= 100
    print(f"\nraces: {races} ({JOIN_RACES} joins for one seat, {DOUBLE_PLAYS} double plays, "
          f"{NEXT_END_RACES} Next + End, {FAST_RACES} fast-mode clicks), each with exactly "
          "one accepted")
    fake.assert_no_errors()
