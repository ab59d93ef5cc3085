"""End-to-end: play-test 23, « the adversary and the race »: friends whose clicks collide
(two devices of one player, a click at the instant the turn timer plays for them, the host
pressing « Lancer » twice while someone joins and someone leaves, a setting changed as the
game starts, the table closed as someone sits, « Rejouer » pressed by two people) and a
player who forges what the refusal matrix does not (`test_e2e_refusal_matrix.py`). The
interactions are delivered before the bot answers any (`settle=False`, then one settle),
with Discord's latency on, so the bot's awaits interleave them. Every race must apply one
thing, tell the other privately and clearly in its user's language, and leave the stored
snapshot equal to the live table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.i18n.typography import french
from bot.packages.lobby.display import lobby_screen
from bot.tables.hosting import HOST_IDLE_SECONDS
from bot.tables.table import Table
from engine import Phase
from fakediscord import FakeDiscord, LatencyConfig, Spread
from fakediscord.state import InteractionRecord
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    connect_bot,
    create_table,
    database_url,
    message,
    play_until,
    tick,
    to_the_next_exchange,
    two_humans_against_a_bot,
)
from .forgery import BOOKKEEPING

LOCALES = ["fr", "en-US"]
EPHEMERAL = 64


def sentence(locale: str, key: str, **params: object) -> str:
    """The catalogue's sentence as the player reads it (French typography in French)."""
    text = t(locale, key, **params)
    return french(text) if locale == "fr" else text


def answer(record: InteractionRecord) -> str:
    """What the interaction's first response said, privately: a new ephemeral message or
    the user's own ephemeral redrawn (type 7 on an ephemeral hand)."""
    assert record.acknowledged and not record.abandoned
    assert record.response_type in (4, 7), record.response_type
    data = record.response or {}
    if record.response_type == 4:
        assert data.get("flags", 0) & EPHEMERAL
    return str(data.get("content", ""))


async def stored_is_live(bot: PresidentBot, table: Table) -> None:
    """The table's snapshot in the database is the table as it is now (its `BOOKKEEPING`
    aside: the hands' links, message ids, and when anyone was last seen, which a refused
    click moves in memory without storing)."""
    storage = bot.storage
    assert storage is not None
    await bot.service.committed(table)
    snapshot = await storage.load_snapshot(table.id)
    assert snapshot is not None
    live = json.loads(json.dumps(table.to_dict(), default=str))
    stored = json.loads(json.dumps(dict(snapshot.state), default=str))
    for key in BOOKKEEPING:
        live.pop(key, None)
        stored.pop(key, None)
    assert stored == live


async def to_a_human_turn(fake: FakeDiscord, clock: LinkedClock, table: Table,
                          players: list[Player]) -> Player:
    """Time passes for the bot until one of the humans is to play; their hand, redrawn."""
    game = table.game
    assert game is not None
    for _ in range(30):
        mover = next((p for p in players if table.seat_of(p.user.id) == game.to_act), None)
        if mover is not None and game.phase is Phase.PLAY:
            await mover.user.click(mover.hand, cid(table, "refresh"))
            return mover
        await tick(fake, clock, 1)
    raise AssertionError("no human turn came")


@pytest.mark.parametrize("locale", LOCALES)
async def test_two_devices_moving_at_once_apply_one_move_and_say_the_other_was_theirs(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """bob's hand is open on his phone and his computer; he picks a card on one and, the
    phone being slow, a card (or « Passer ») on the other. One move is his; the other was
    told « The table has moved on since this was shown », as if someone else had moved: he
    could not tell whether his move counted. It now says his earlier move went through and
    this one does not count, as fast mode already did (play-test 14)."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    fake.enable_latency(LatencyConfig())
    host = Player(fake.add_user("marie", locale=locale))
    guest = Player(fake.add_user("bob", locale=locale))
    table, game = await two_humans_against_a_bot(fake, clock, bot, host, guest)
    mover = await to_a_human_turn(fake, clock, table, [host, guest])
    seat = table.seat_of(mover.user.id)
    assert seat is not None
    shown = mover.hand
    menu = next(s for s in shown.selects if ":play:" in s.custom_id)
    passing = next((b.custom_id for b in shown.buttons
                    if b.custom_id is not None and ":pass:" in b.custom_id), None)
    held, version = len(game.hand(seat)), game.version
    first = await mover.user.select_shown(shown, [menu.options[0].value],
                                          select=menu.custom_id, settle=False)
    second = await (mover.user.click_shown(shown, passing, settle=False) if passing else
                    mover.user.select_shown(shown, [menu.options[-1].value],
                                            select=menu.custom_id, settle=False))
    await fake.settle()
    assert game.version == version + 1  # one move, the first
    assert len(game.hand(seat)) == held - len(menu.options[0].value.split("|")[0].split("."))
    assert not answer(first).startswith("⚠️")
    assert answer(second).startswith("⚠️ " + sentence(locale, "err.already_played"))
    await stored_is_live(bot, table)
    fake.assert_no_errors()
    await fake.disconnect(bot)


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_play_arriving_as_the_timer_plays_for_them_says_the_timer_played(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """Twenty seconds a turn: bob picks his card as his time runs out, and the timer plays
    for him first. He was told the table had moved on, not that his time was up and his
    turn played for him; now he is, and nothing of his choice is played."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    fake.enable_latency(LatencyConfig())
    host = Player(fake.add_user("marie", locale=locale))
    guest = Player(fake.add_user("bob", locale=locale))
    table, game = await two_humans_against_a_bot(fake, clock, bot, host, guest,
                                                 turn_seconds=20)
    mover = await to_a_human_turn(fake, clock, table, [host, guest])
    deadline = bot.service.scheduler.deadline((table.id, "timer"))
    assert deadline is not None
    clock.advance(deadline - clock.now() - 0.001)
    await fake.settle()
    version = game.version
    shown = mover.hand
    menu = next(s for s in shown.selects if ":play:" in s.custom_id)
    late = await mover.user.select_shown(shown, [menu.options[-1].value],
                                         select=menu.custom_id, settle=False)
    clock.advance(0.002)  # the timer fires while the click is on its way
    await fake.settle()
    assert game.version == version + 1  # the timer's move only
    assert table.log[-1].key == "ev.played_late"
    assert answer(late).startswith("⚠️ " + sentence(locale, "err.timer_played"))
    await stored_is_live(bot, table)
    fake.assert_no_errors()
    await fake.disconnect(bot)


async def clicks(fake: FakeDiscord, *sent: InteractionRecord) -> list[str]:
    """Let the bot answer interactions sent without settling; what each said."""
    await fake.settle()
    return [answer(record) for record in sent]


@pytest.mark.parametrize("locale", LOCALES)
async def test_lobby_races_leave_one_consistent_table(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """The host presses « Lancer » on two devices while otto joins and gus leaves; then,
    at another table, a setting is changed as the game starts, in both orders; then the
    host closes a lobby as someone sits. One start, one table; the rest told privately in
    their language, the snapshot the table as it is."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    fake.enable_latency(LatencyConfig())
    hana = fake.add_user("hana", locale=locale)
    gus = fake.add_user("gus", locale=locale)
    otto = fake.add_user("otto", locale=locale)

    async def opened(name: str) -> tuple[Table, int]:
        channel = fake.add_channel(fake.guild, name)
        await fake.settle()
        for user in (hana, gus, otto):
            user.channel = channel
        await hana.slash("president create", preset="classic")
        table = bot.service.registry.in_channel(channel.id)
        assert table is not None and table.lobby_message_id is not None
        return table, table.lobby_message_id

    table, lobby = await opened("lancer")
    await gus.click(lobby, cid(table, "join"))
    await hana.click(lobby, cid(table, "addbot"))
    said = await clicks(fake, await hana.click(lobby, cid(table, "start"), settle=False),
                        await hana.click(lobby, cid(table, "start"), settle=False),
                        await otto.click(lobby, cid(table, "join"), settle=False),
                        await gus.click(lobby, cid(table, "leave"), settle=False))
    assert table.game is not None and table.game_no == 1
    assert said[1].startswith("⚠️ " + sentence(locale, "err.already_started",
                                                      hand=t(locale, "btn.my_hand")))
    assert [p.name for p in table.queue] == ["otto"]  # waits for the next game
    assert table.seat_of(gus.id) is not None  # asked first: the game had started
    await stored_is_live(bot, table)

    for start_first in (False, True):
        table, lobby = await opened(f"reglages-{start_first}")
        await gus.click(lobby, cid(table, "join"))
        await hana.click(lobby, cid(table, "addbot"))
        await hana.click(lobby, cid(table, "settings"))
        panel = hana.last_ephemeral()
        menu = next(s for s in panel.selects if any(o.value == "revolution" for o in s.options))
        start = hana.click(lobby, cid(table, "start"), settle=False)
        pick = hana.select(panel, ["revolution"], select=menu.custom_id, settle=False)
        sent = [await start, await pick] if start_first else [await pick, await start]
        said = await clicks(fake, *sent)
        assert table.game is not None
        if start_first:
            assert table.rules.revolution is True  # as it was: the game had started
            assert "⚠️ " + sentence(locale, "err.settings_locked") in said[1]
        else:
            assert table.rules.revolution is False and table.game.rules.revolution is False
        await stored_is_live(bot, table)

    table, lobby = await opened("fermee")
    said = await clicks(fake, await hana.slash("president end", settle=False),
                        await gus.click(lobby, cid(table, "join"), settle=False))
    assert table.closed and table.seat_of(gus.id) is None
    assert said[1].startswith("⚠️ " + sentence(locale, "err.table_gone"))
    await tick(fake, clock, 1)
    fake.assert_no_errors()
    await fake.disconnect(bot)


async def test_a_removal_is_in_the_snapshot_it_stores(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """The host removes bob mid-game: the snapshot the removal stored was taken before the
    table noted him as removed (`Table.kicked`), and held the table as it was live in
    every field but that one until the next change. A crash meanwhile (a container
    killed) restored a table where bob could sit again at once. Now the removal's
    snapshot is the table as it is, so he stays refused until the next game."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    host = Player(fake.add_user("marie", locale="fr"))
    guest = Player(fake.add_user("bob"))
    table, _ = await two_humans_against_a_bot(fake, clock, bot, host, guest, bots=2)
    await host.user.slash("president kick", member=guest.user)
    assert table.seat_of(guest.user.id) is None and guest.user.id in table.kicked
    await stored_is_live(bot, table)
    await fake.disconnect(bot)


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_gift_sent_from_two_devices_goes_once_and_the_other_says_so(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """In the exchange the giver presses « Confirmer » on one device and picks cards in
    the menu on the other. The first gift goes; the second was told « Ce n’est pas
    possible à ce moment de la partie » (the exchange was over) or « Tu n’as rien à donner
    dans cet échange », which she had: now that her cards were already given and this
    choice does not count."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    host = Player(fake.add_user("marie", locale=locale))
    guest = Player(fake.add_user("bob", locale=locale))
    table, game = await two_humans_against_a_bot(fake, clock, bot, host, guest, bots=2)
    await to_the_next_exchange(fake, clock, table, [host, guest], host.user)
    assert game.phase is Phase.EXCHANGE
    fake.enable_latency(LatencyConfig())
    givers = []
    for player in (host, guest):
        await player.user.click(player.hand, cid(table, "refresh"))
        shown = player.hand
        menus = [s for s in shown.selects if ":give:" in s.custom_id]
        confirms = [b.custom_id for b in shown.buttons
                    if b.custom_id is not None and ":give_ok:" in b.custom_id]
        if menus and confirms:
            givers.append((player, shown, menus[0], confirms[0]))
    assert givers, "no human gives pre-checked cards in this exchange"
    player, shown, menu, confirm = givers[0]
    seat = table.seat_of(player.user.id)
    assert seat is not None
    held = sorted(map(str, game.hand(seat)))
    other = [o.value for o in menu.options if not o.default][:menu.min_values]
    said = await clicks(fake, await player.user.click_shown(shown, confirm, settle=False),
                        await player.user.select_shown(shown, other, select=menu.custom_id,
                                                       settle=False))
    assert not said[0].startswith("⚠️")
    assert said[1].startswith("⚠️ " + sentence(locale, "err.already_given")), said[1]
    given = [cards for giver, _, cards, _ in game.swaps if giver == seat]
    assert len(given) == 1 and not set(map(str, given[0])) & set(other)
    assert all(str(card) in held for card in given[0])
    await stored_is_live(bot, table)
    fake.assert_no_errors()
    await fake.disconnect(bot)


@pytest.mark.parametrize("locale", LOCALES)
async def test_rejouer_pressed_by_two_players_replays_once_and_says_the_button_is_past(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """The host has gone quiet past the time any seated player may take the role over;
    bob and zoé both press « Rejouer » at the end of the game. bob's click replays and
    makes him host; zoé was told only the host (bob) may do that, and that she could take
    the role over if he stays quiet: her wish was granted, and the button she pressed is
    the finished game's. She is now told that button belongs to an earlier moment."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    host = Player(fake.add_user("marie", locale=locale))
    bob = Player(fake.add_user("bob", locale=locale))
    zoe = Player(fake.add_user("zoé", locale=locale))
    table = await create_table(bot, host.user)
    await bot.service.set_rules(table, host.user.id,
                                table.rules.replace(game_end="rounds:1", turn_seconds=600))
    lobby = message(host.user, table.lobby_message_id)
    for player in (bob, zoe):
        await player.user.click(lobby, cid(table, "join"))
    await host.user.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    for player in (host, bob, zoe):
        await player.open_hand(bot)
    game = table.game
    assert game is not None
    await play_until(fake, clock, [host, bob, zoe], lambda: game.phase is Phase.GAME_OVER)
    await tick(fake, clock, HOST_IDLE_SECONDS + 5)  # the host went quiet
    fake.enable_latency(LatencyConfig())
    board = table.table_message_id
    assert board is not None
    replay = cid(table, "replay", game.version)
    first = await bob.user.click(board, replay, settle=False)
    (said,) = await clicks(fake, await zoe.user.click(board, replay, settle=False))
    assert first.response_type == 6  # the new game's message answers it
    assert table.game_no == 2 and table.host_id == bob.user.id
    assert said == "⚠️ " + sentence(locale, "err.stale_button")
    await stored_is_live(bot, table)
    fake.assert_no_errors()
    await fake.disconnect(bot)


async def test_a_lobby_answered_by_clicks_at_once_ends_showing_the_table_as_it_is(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """Four friends press « Rejoindre » at once, then « Quitter » at once. Each click is
    answered by redrawing the lobby message (type 7) as the table was when it was handled;
    on Discord's way those answers can land in another order than they were made, and the
    bot recorded the last answer it heard back as what the lobby shows. The lobby then
    listed as seated friends who had left (or missed some who had sat) until the next
    change. Answers that overlap now leave the lobby to the next refresh, which draws it
    as the table is."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    host = fake.add_user("marie", locale="fr")
    table = await create_table(bot, host)
    lobby = table.lobby_message_id
    assert lobby is not None
    friends = [fake.add_user(f"ami{i}", locale="fr") for i in range(4)]
    fake.enable_latency(LatencyConfig())
    for action in ("join", "leave") * 3:
        for friend in friends:
            await friend.click(lobby, cid(table, action), settle=False)
        await fake.settle()
        await tick(fake, clock, 2)  # the refresh
        assert message(host, lobby).content == lobby_screen(table).content, action
    fake.assert_no_errors()
    await fake.disconnect(bot)


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_play_arriving_as_the_host_stops_the_game_says_the_host_stopped_it(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str
) -> None:
    """bob picks his card as marie stops the game (`/president terminer`, confirmed). He
    was told « The table has moved on since this was shown; here is your current hand »,
    as if someone had played; now he is told the host stopped the game, and nothing of his
    choice is played."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    host = Player(fake.add_user("marie", locale=locale))
    guest = Player(fake.add_user("bob", locale=locale))
    table, game = await two_humans_against_a_bot(fake, clock, bot, host, guest)
    mover = await to_a_human_turn(fake, clock, table, [host, guest])
    seat = table.seat_of(mover.user.id)
    assert seat is not None
    shown = mover.hand
    menu = next(s for s in shown.selects if ":play:" in s.custom_id)
    held = len(game.hand(seat))
    await bot.service.games.end(table, host.user.id)
    assert game.phase is Phase.GAME_OVER and game.stopped_early
    late = await mover.user.select_shown(shown, [menu.options[0].value],
                                         select=menu.custom_id)
    assert answer(late).startswith("⚠️ " + sentence(locale, "err.game_stopped")), \
        answer(late)
    assert len(game.hand(seat)) == held
    await stored_is_live(bot, table)
    fake.assert_no_errors()
    await fake.disconnect(bot)


async def test_a_lobby_no_longer_says_a_leaver_took_a_bots_seat(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """A full lobby where bots sit: u2 joins and a bot gives way (« u2 prend la place de
    Bot 3 »), then u2 leaves. The lobby kept saying u2 took the bot's seat, about someone
    no longer there; the notice now goes with them."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    host = fake.add_user("marie", locale="fr")
    table = await create_table(bot, host)
    lobby = table.lobby_message_id
    assert lobby is not None
    while len(table.seats) < table.capacity():
        await host.click(lobby, cid(table, "addbot"))
    u2 = fake.add_user("u2", locale="fr")
    await u2.click(lobby, cid(table, "join"))
    await tick(fake, clock, 2)
    assert table.notice is not None and table.notice.key == "lobby.bot_gave_way"
    assert "prend la place" in message(host, lobby).content
    await u2.click(lobby, cid(table, "leave"))
    await tick(fake, clock, 2)
    assert fresh(table).notice is None
    assert "prend la place" not in message(host, lobby).content
    assert message(host, lobby).content == lobby_screen(table).content
    await stored_is_live(bot, table)
    fake.assert_no_errors()
    await fake.disconnect(bot)


async def test_a_lobby_answer_on_its_way_as_the_table_closes_lands_before_the_closing(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """A friend presses « Quitter » as the host, the last one left, does too. The friend's
    click is answered by redrawing the lobby (type 7) as the table then was, with its
    buttons; the host's leaving closes the table, and the closing's edit went out at once,
    without waiting for that answer: slower on its way, the answer landed over « Cette
    table est fermée », and the closed table's lobby kept its buttons for good. The
    closing now waits for the redraws on their way (`Publisher.drawing`), so it lands
    last."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    host = fake.add_user("marie", locale="fr")
    table = await create_table(bot, host)
    lobby = table.lobby_message_id
    assert lobby is not None
    friend = fake.add_user("ami", locale="fr")
    await friend.click(lobby, cid(table, "join"))
    for _ in range(10):  # the bot's start-up calls (its emojis) made, a window at a time
        await tick(fake, clock, 2)
    # An answer slow on its way, the channel's edits quick.
    fake.enable_latency(LatencyConfig(mean=0.01, jitter=0.0,
                                      routes={"/interactions/": Spread(2.9)}))
    left = await friend.click(lobby, cid(table, "leave"), settle=False)
    await host.click(lobby, cid(table, "leave"), settle=False)
    await fake.settle()
    await tick(fake, clock, 2)
    assert table.closed
    assert left.response_type == 7  # the lobby, redrawn as the table was
    shown = message(host, lobby)
    assert shown.content == t("fr", "lobby.closed"), shown.content
    assert not shown.components
    fake.assert_no_errors()
    await fake.disconnect(bot)


async def test_a_lobby_click_costs_its_answer_and_no_channel_edit(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """One friend at a time presses « Rejoindre »: the click's answer redraws the lobby
    (type 7). The refresh the change asks for ran while that answer was on its way and
    edited the lobby as well, and the two having overlapped (`Publisher.drawing`), a third
    drawing followed: two channel edits per click besides its answer, against the
    channel's limit of edits. The refresh now leaves the lobby to the answer on its way,
    and draws only what the answer did not show."""
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    host = fake.add_user("marie", locale="fr")
    table = await create_table(bot, host)
    lobby = table.lobby_message_id
    assert lobby is not None
    for _ in range(10):  # the bot's start-up calls (its emojis) made, a window at a time
        await tick(fake, clock, 2)
    fake.enable_latency(LatencyConfig())
    for i in range(3):
        friend = fake.add_user(f"ami{i}", locale="fr")
        mark = len(fake.calls)
        record = await friend.click(lobby, cid(table, "join"))
        for _ in range(3):
            await tick(fake, clock, 2)
        assert record.response_type == 7
        edits = [c for c in fake.calls[mark:] if c.method == "PATCH"
                 and c.path.endswith(f"/messages/{lobby}")]
        assert edits == [], edits
        assert message(host, lobby).content == lobby_screen(table).content
    fake.assert_no_errors()
    await fake.disconnect(bot)
