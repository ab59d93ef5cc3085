"""End-to-end, the posts a crash can lose besides the bring-down's (docs/bot.md,
« Play-test 28, lost posts »): a new round's table message, a lobby, and the fresh message
that replaces a deleted or nearly hour-old one. Each is posted, Discord creates it with the
table's buttons, and the process dies before any snapshot holds its id. The restart finds
it in the channel (`Recount.read`) and makes it the table's again, rather than leave two
messages with working buttons.

Each crash is rebuilt in-process, as in test_e2e_playtest28_leftovers.py: the database holds
the state the table had at one instant of the redraw, written back after the stop, and
nothing the bot sends after the post's answer reaches Discord. Two instants: as the redraw
began to retire the message the table leaves (its id still held), and as the post's answer
came (that id dropped, the new one not yet known)."""

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, Literal

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.packages.publisher import messages, recount
from bot.packages.publisher.recount import PAGES, RECOUNTED
from bot.packages.screen import Screen
from bot.tables.snapshot import TableSnapshot
from bot.tables.table import Table
from engine import Phase
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    connect_bot,
    create_table,
    database_url,
    message,
    play_until,
    snapshot_followed,
    started_on,
    table_of,
    tick,
)
from .test_e2e_playtest7_restarts import marie_and_leo_stored, with_buttons
from .test_e2e_playtest28 import chat

INSTANTS = ["as_the_redraw_began", "as_the_post_came_back"]


def showing(needle: str) -> Callable[[Screen], bool]:
    """Whether a screen carries a control whose custom id holds `needle`."""
    def has(screen: Screen) -> bool:
        return screen.view is not None and any(
            needle in (getattr(item, "custom_id", None) or "") for item in screen.view.children)
    return has


class Crash:
    """The process dies as Discord answers the first post of a screen `posting` picks: the
    message exists, and nothing the bot sends afterwards does. `state` is what the database
    is to hold: the table as the edit of message `leaving` went out (the redraw retiring
    it), or, without it, as the post's answer came."""

    def __init__(self, bot: PresidentBot, monkeypatch: pytest.MonkeyPatch,
                 posting: Callable[[Screen], bool], leaving: int | None = None) -> None:
        self.posted: int | None = None
        self.state: TableSnapshot | None = None
        self.began: list[TableSnapshot] = []
        began = self.began
        send, edit = bot.publisher._send, bot.publisher._edit

        async def dies_once_posted(table: Table, screen: Screen, *args: Any,
                                   **kwargs: Any) -> int | None:
            if self.posted is not None:
                return None  # never sent: the process is gone
            posted = await send(table, screen, *args, **kwargs)
            if posting(screen):
                self.posted = posted
                self.state = began[0] if began else table.to_dict()
            return posted

        async def dead(table: Table, message_id: int, screen: Screen | None,
                       asleep: str | None, *args: Any) -> bool:
            if self.posted is not None:
                return True
            if message_id == leaving and not began:
                began.append(table.to_dict())
            return await edit(table, message_id, screen, asleep, *args)

        monkeypatch.setattr(bot.publisher, "_send", dies_once_posted)
        monkeypatch.setattr(bot.publisher, "_edit", dead)

    async def restart(self, fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                      url: str, table: Table,
                      meanwhile: Callable[[], Awaitable[None]] | None = None) -> PresidentBot:
        """The dead process stops; the database gets the state the crash left; a new one
        starts on it."""
        assert self.posted is not None and self.state is not None
        return await restart_with(fake, clock, bot, url, table, self.state, meanwhile)


async def restart_with(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot, url: str,
                       table: Table, state: TableSnapshot,
                       meanwhile: Callable[[], Awaitable[None]] | None = None
                       ) -> PresidentBot:
    """`bot` stops; the database holds `state` as the table's last snapshot; `meanwhile`
    happens in the channel; a new process starts on it."""
    await bot.service.drain()
    await fake.disconnect(bot)
    if meanwhile is not None:
        await meanwhile()
    await snapshot_followed(url, table.id, state)
    return await started_on(fake, clock, url)


def restored(bot: PresidentBot, table: Table) -> Table:
    found = bot.service.registry.by_id(table.id)
    assert found is not None
    return found


def stored_as_it_opens(bot: PresidentBot, monkeypatch: pytest.MonkeyPatch,
                       dies: bool = False) -> list[TableSnapshot]:
    """The snapshots of the tables `bot` opens from now on, as `Storage.open_table` wrote
    them, before the lobby's id is known; ``dies``: the process dies right after that
    write (no follow-up, the command's « thinking… » left loading)."""
    opened: list[TableSnapshot] = []
    create = bot.service.create

    async def recorded(*args: Any, **kwargs: Any) -> Table:
        table = await create(*args, **kwargs)
        opened.append(table.to_dict())
        if dies:
            raise asyncio.CancelledError
        return table

    monkeypatch.setattr(bot.service, "create", recorded)
    return opened


async def results_left_and_the_post_lost(
        fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, instant: str, until: Phase, button: str,
        posting: str, pending: Literal["post_table", "post_lobby"], game_end: str = "rounds:2"
) -> tuple[PresidentBot, Table, Player, int, int]:
    """marie and léo against two bots play until `until`; marie clicks `button` on the
    results, and the process dies as the post it brings (a screen holding `posting`)
    lands, the crash's state still `pending` that post. Checked: only that post has
    buttons. Returned: the restarted bot, its table, marie, the results' message and the
    lost post's."""
    url, bot, marie, leo, table = await marie_and_leo_stored(fake, clock, tmp_path,
                                                             game_end=game_end, bots=2)
    game = table.game
    assert game is not None
    await play_until(fake, clock, [marie, leo], lambda: game.phase is until)
    await tick(fake, clock, 1)
    results = table.table_message_id
    assert results is not None
    crash = Crash(bot, monkeypatch, showing(posting),
                  results if instant == "as_the_redraw_began" else None)
    await marie.user.click(message(marie.user, results), cid(table, button, game.version))
    await tick(fake, clock, 1)
    lost = crash.posted
    assert lost is not None and crash.state is not None and crash.state[pending]
    assert [m.id for m in with_buttons(fake)] == [lost]
    again = await crash.restart(fake, clock, bot, url, table)
    return again, restored(again, table), marie, results, lost


@pytest.mark.parametrize("instant", INSTANTS)
async def test_a_new_round_s_table_message_lost_to_a_crash_is_taken_over_at_restart(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    instant: str
) -> None:
    """marie deals round 2: its table message is posted below round 1's results, and the
    process dies as it lands. The restart finds it and draws the round there: one message
    with buttons (before: it posted round 2 again, both with working buttons)."""
    again, table, marie, results, lost = await results_left_and_the_post_lost(
        fake, clock, tmp_path, monkeypatch, instant, Phase.ROUND_OVER, "next", ":hand:",
        "post_table")
    assert table.table_message_id == lost and not table.post_table
    assert [m.id for m in with_buttons(fake)] == [lost]
    assert t("fr", "table.moved_on") in message(marie.user, results).content
    await again.close()
    fake.assert_no_errors()


@pytest.mark.parametrize("instant", INSTANTS)
async def test_a_lobby_lost_to_a_crash_is_taken_over_at_restart(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    instant: str
) -> None:
    """marie ends a finished game: the lobby is posted below the results, and the process
    dies as it lands. The restart finds it and makes it the table's lobby: one « Rejoindre »
    in the channel (before: a second lobby was posted below it, both seating)."""
    again, table, marie, results, lost = await results_left_and_the_post_lost(
        fake, clock, tmp_path, monkeypatch, instant, Phase.GAME_OVER, "end", ":join:",
        "post_lobby", game_end="rounds:1")
    assert table.lobby_message_id == lost and not table.post_lobby
    assert [m.id for m in with_buttons(fake)] == [lost]
    assert t("fr", "table.finished") in message(marie.user, lost).content
    await again.close()
    fake.assert_no_errors()


@pytest.mark.parametrize("instant", INSTANTS)
async def test_the_fresh_message_replacing_an_hour_old_one_lost_to_a_crash_is_adopted(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    instant: str
) -> None:
    """The table message is nearly an hour old: marie's move retires it (its buttons gone,
    its text kept) and posts a fresh one, and the process dies as that lands. The restart
    adopts the fresh one, and the old one keeps its retired text (before: it became the
    pointer of a bring-down, where the redraw began; a third message was posted, where the
    post came back)."""
    url, bot, marie, leo, table = await marie_and_leo_stored(fake, clock, tmp_path, bots=2)
    game = table.game
    assert game is not None
    await play_until(fake, clock, [marie, leo], lambda: game.to_act == 0)
    await tick(fake, clock, 1)
    old = table.table_message_id
    assert old is not None
    fresh_age = messages.FRESH_TABLE_AGE
    monkeypatch.setattr(messages, "FRESH_TABLE_AGE", 0.0)  # the next redraw finds it aged
    crash = Crash(bot, monkeypatch, showing(":hand:"),
                  old if instant == "as_the_redraw_began" else None)
    assert await marie.act()
    await tick(fake, clock, 1)
    lost = crash.posted
    assert lost is not None and crash.state is not None
    retired = message(marie.user, old).content
    assert retired.endswith(t("fr", "table.moved_on"))
    monkeypatch.setattr(messages, "FRESH_TABLE_AGE", fresh_age)
    again = await crash.restart(fake, clock, bot, url, table)
    table = restored(again, table)
    assert table.table_message_id == lost and table.pointers_owed == []
    assert [m.id for m in with_buttons(fake)] == [lost]
    assert message(marie.user, old).content == retired
    await again.close()
    fake.assert_no_errors()


@pytest.mark.parametrize("instant", ["before_the_deletion", "as_the_post_came_back"])
async def test_the_fresh_message_replacing_a_deleted_one_lost_to_a_crash_is_adopted(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    instant: str
) -> None:
    """A moderator deletes the table message; the bot posts a fresh one at once, and the
    process dies as that lands. The restart adopts the fresh one, and sends nothing to the
    deleted message (before: where the database still held the deleted id, the pointer
    owed it, an edit Discord refused; where it held none, the restart posted a third
    message, two with buttons)."""
    url, bot, marie, leo, table = await marie_and_leo_stored(fake, clock, tmp_path, bots=2)
    game = table.game
    assert game is not None
    await play_until(fake, clock, [marie, leo], lambda: game.to_act == 0)
    await tick(fake, clock, 1)
    deleted = table.table_message_id
    assert deleted is not None
    crash = Crash(bot, monkeypatch, showing(":hand:"))
    if instant == "before_the_deletion":
        crash.began.append(table.to_dict())
    fake.delete_message(deleted)
    await tick(fake, clock, 1)
    lost = crash.posted
    assert lost is not None and crash.state is not None
    assert crash.state["table_message_id"] == (
        deleted if instant == "before_the_deletion" else None)
    mark = fake.mark()
    again = await crash.restart(fake, clock, bot, url, table)
    table = restored(again, table)
    assert table.table_message_id == lost and table.pointers_owed == []
    assert [m.id for m in with_buttons(fake)] == [lost]
    assert [c for c in fake.calls_since(mark) if str(deleted) in c.path] == []
    await again.close()
    fake.assert_no_errors()


async def test_a_new_table_s_lobby_reposted_after_its_deletion_and_lost_is_adopted(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A moderator deletes a new table's first lobby, its only message; the bot posts a
    fresh one, and the process dies as that lands. The deleted id, let go of, says where
    to look (`Table.retired_below`): the restart adopts the fresh lobby (before: knowing
    no message, it read nothing and posted a second lobby)."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = fake.add_user("marie", locale="fr")
    table = await create_table(bot, marie)
    await tick(fake, clock, 1)
    deleted = table.lobby_message_id
    assert deleted is not None
    crash = Crash(bot, monkeypatch, showing(":join:"))
    fake.delete_message(deleted)
    await tick(fake, clock, 1)
    lost = crash.posted
    assert lost is not None and crash.state is not None
    assert crash.state["lobby_message_id"] is None
    again = await crash.restart(fake, clock, bot, url, table)
    table = restored(again, table)
    assert table.lobby_message_id == lost
    assert [m.id for m in with_buttons(fake)] == [lost]
    await again.close()
    fake.assert_no_errors()


async def test_a_new_table_s_first_lobby_lost_to_a_crash_is_adopted(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """marie opens a table: the table is stored as it opens, then `/president create`'s
    follow-up fills its deferral in with the lobby, and the process dies before a snapshot
    holds that message's id. The restart finds it below the command's interaction (stored
    as the table opened, `Table.retired_below`) and makes it the table's lobby (before:
    knowing no message, it read nothing and posted a second lobby, both seating)."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = fake.add_user("marie", locale="fr")
    opened = stored_as_it_opens(bot, monkeypatch)
    table = await create_table(bot, marie)
    lost = table.lobby_message_id
    assert lost is not None and opened and opened[0]["lobby_message_id"] is None
    assert message(marie, lost).interaction_user == "marie"  # the deferral's own
    mark = fake.mark()
    again = await restart_with(fake, clock, bot, url, table, opened[0])
    table = restored(again, table)
    assert table.lobby_message_id == lost
    assert [m.id for m in with_buttons(fake)] == [lost]
    calls = Counter(f"{c.method} {c.route}" for c in fake.calls_since(mark)
                    if "/channels/" in c.route)
    assert calls["POST /channels/{channel_id}/messages"] == 0
    await again.close()
    fake.assert_no_errors()


@pytest.mark.parametrize("lobby", ["never_posted", "posted_not_stored"])
@pytest.mark.parametrize("later", [60.0, 15 * 60.0])
async def test_the_create_command_s_response_becomes_the_lobby_at_a_restart(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    lobby: str, later: float
) -> None:
    """marie's `/president create` is deferred (« … réfléchit… ») and the table stored as it
    opens, with the command's token (`Table.opening`); the process dies before the lobby is
    posted, or after, before its id is stored. A restart `later` seconds on, within the
    token's 15 minutes, edits the command's response into the lobby through that token:
    one webhook call, no channel read, the loading message gone (before: it stayed loading
    for good beside a second lobby posted below it, or, the lobby posted, one channel read
    and edit). Past the token's life the restart does as before, and no refused call is
    made (the fake answers an older token with 401, 50027, as Discord does: `tests/
    fakediscord/test_rules.py::test_edit_with_an_expired_token`): a lobby posted below the
    loading message, which stays; a landed follow-up found by the read and taken over."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie = fake.add_user("marie", locale="fr")
    opened = stored_as_it_opens(bot, monkeypatch, dies=lobby == "never_posted")
    command = await marie.slash("president create", preset="classic")
    table = table_of(bot, marie)
    response = command.original_message_id
    assert response is not None and opened and opened[0]["lobby_message_id"] is None
    assert "opening" in opened[0]
    assert message(marie, response).loading is (lobby == "never_posted")
    if lobby == "posted_not_stored":
        assert table.lobby_message_id == response and table.opening is None
        assert "opening" not in table.to_dict()  # the token goes with the next snapshot
    fake.clock.advance(later)
    mark = fake.mark()
    again = await restart_with(fake, clock, bot, url, table, opened[0])
    table = restored(again, table)
    calls = Counter(f"{c.method} {c.route}" for c in fake.calls_since(mark)
                    if "/channels/{channel_id}/messages" in c.route or "/webhooks/" in c.route)
    if later < 15 * 60.0:
        assert table.lobby_message_id == response
        assert not message(marie, response).loading
        assert [m.id for m in with_buttons(fake)] == [response]
        assert calls == Counter({
            "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original": 1})
    elif lobby == "never_posted":
        assert table.lobby_message_id != response
        assert message(marie, response).loading  # left: its token is spent
        assert [m.id for m in with_buttons(fake)] == [table.lobby_message_id]
    else:
        assert table.lobby_message_id == response
        assert [m.id for m in with_buttons(fake)] == [response]
        assert not any("/webhooks/" in key for key in calls)
    assert table.opening is None and "opening" not in table.to_dict()
    await again.close()
    fake.assert_no_errors()


async def test_a_first_lobby_lost_below_more_than_the_read_s_pages_is_found_at_restart(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """marie's lobby is posted and the process dies before its id is stored; léo then says
    more than the restart's read goes through (`PAGES` × `RECOUNTED`). The restart, four
    minutes on, reaches the lobby through the command's token (`Table.opening`): one call,
    none to the channel's history, whatever lies below (before: five pages read, the
    lobby not among them, a second lobby posted beside it, both seating)."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    marie, leo = fake.add_user("marie", locale="fr"), fake.add_user("leo", locale="fr")
    opened = stored_as_it_opens(bot, monkeypatch)
    table = await create_table(bot, marie)
    lost = table.lobby_message_id
    assert lost is not None and opened and opened[0]["lobby_message_id"] is None
    await chat(fake, leo, PAGES * RECOUNTED + 50)
    fake.clock.advance(4 * 60.0)
    mark = fake.mark()
    again = await restart_with(fake, clock, bot, url, table, opened[0])
    table = restored(again, table)
    assert table.lobby_message_id == lost
    assert [m.id for m in with_buttons(fake)] == [lost]
    reads = [c for c in fake.calls_since(mark, "/channels/{channel_id}/messages")
             if c.method == "GET"]
    assert reads == []
    await again.close()
    fake.assert_no_errors()


@pytest.mark.parametrize(("pages", "before", "after", "reads", "found"), [
    (PAGES, RECOUNTED + 50, 0, 2, True),  # the second page
    (1, RECOUNTED + 50, 0, 2, True),  # past the pages: the newest page (stop 52)
    (PAGES, PAGES * RECOUNTED + 50, 0, PAGES + 1, True),  # the same, however deep
    (1, RECOUNTED + 50, RECOUNTED + 50, 2, False),  # neither: the bound
])
async def test_a_post_lost_below_more_than_a_page_of_chatter_is_taken_over(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    pages: int, before: int, after: int, reads: int, found: bool
) -> None:
    """Round 1's results show while léo says `before` things; marie deals round 2, and the
    process dies as its table message lands, below the chatter; léo says `after` things
    while the bot is down. The restart reads the channel below the results a page of
    `RECOUNTED` at a time, `after` the newest of the page before, up to `PAGES` reads
    (stop 51: before, one page, all chatter; round 2 was posted again, two messages with
    buttons); past them, the channel's newest page, where a post lost just before the crash
    lies however deep (stop 52: before, a post lost below `PAGES` × `RECOUNTED` messages
    stayed beside a new one). Lost below both, it stays, as before."""
    monkeypatch.setattr(recount, "PAGES", pages)
    url, bot, marie, leo, table = await marie_and_leo_stored(fake, clock, tmp_path, bots=2)
    game = table.game
    assert game is not None
    await play_until(fake, clock, [marie, leo], lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    results = table.table_message_id
    assert results is not None
    await chat(fake, leo.user, before)
    crash = Crash(bot, monkeypatch, showing(":hand:"))
    await marie.user.click(message(marie.user, results), cid(table, "next", game.version))
    await tick(fake, clock, 1)
    lost = crash.posted
    assert lost is not None
    mark = fake.mark()
    again = await crash.restart(fake, clock, bot, url, table,
                                meanwhile=lambda: chat(fake, leo.user, after))
    table = restored(again, table)
    calls = [c for c in fake.calls_since(mark, "/channels/{channel_id}/messages")
             if c.method == "GET"]
    assert len(calls) == reads
    if found:
        assert table.table_message_id == lost and not table.post_table
        assert [m.id for m in with_buttons(fake)] == [lost]
    else:
        assert table.table_message_id != lost
        assert [m.id for m in with_buttons(fake)] == [lost, table.table_message_id]
    await again.close()
    fake.assert_no_errors()
