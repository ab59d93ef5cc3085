"""End-to-end, play-test 28's leftovers: a restart reads what buries a table from its
channel (`Recount.read`), the chatter said before it and while the bot was down, and
adopts the message a bring-down posted but a crash kept from being stored (docs/bot.md,
« Play-test 28, leftovers »)."""

import asyncio
import json
import random
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.packages.publisher.buried import BURIED_AFTER, QUIET
from bot.packages.screen import Screen
from bot.storage import Storage
from bot.storage.db import upgrade_to_head
from bot.tables.snapshot import TableSnapshot
from bot.tables.table import Table
from fakediscord import FakeClock, FakeDiscord, TestUser

from .conftest import LinkedClock
from .e2e import (
    connect_bot,
    database_url,
    message,
    restart,
    snapshot_followed,
    started_on,
    tick,
)
from .test_crash import ANSWER_TIMEOUT, Run, board, custom_ids, host_click
from .test_e2e_playtest28 import chat, stored_at_her_turn

HISTORY = "/channels/{channel_id}/messages"


def pointer_to(table: Table, new: int) -> str:
    return t("fr", "table.brought_down", link=(
        f"https://discord.com/channels/{table.guild_id}/{table.channel_id}/{new}"))


async def test_a_restart_counts_the_chatter_said_before_it_and_while_down(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """bob says five things below marie's table, the bot restarts, and he says three more
    while it is down: eight below the table, which comes back at the restart's first
    redraw, one read of the channel's messages besides (before: counted from zero, it
    waited for eight more)."""
    url, bot, marie, bob, table = await stored_at_her_turn(fake, clock, tmp_path)
    old = table.table_message_id
    await chat(fake, bob, BURIED_AFTER - 3)
    mark = fake.mark()
    again = await restart(fake, clock, bot, url,
                          meanwhile=lambda: [bob.say(f"ptdr {n}") for n in range(3)])
    restored = again.service.registry.by_id(table.id)
    assert restored is not None and restored.table_message_id not in (None, old)
    assert [c.method for c in fake.calls_since(mark, HISTORY)] == ["GET", "POST"]
    assert message(marie, old).content == pointer_to(restored, restored.table_message_id)
    assert not message(marie, old).components
    assert marie.last_message().id == restored.table_message_id
    await again.close()
    fake.assert_no_errors()


async def test_the_chatter_read_back_at_a_restart_counts_once(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """Seven below the table at the restart, read back: it stays; the eighth comes after,
    and the table comes back after its quiet moment. Read back and heard are one set of
    ids (`_Pile.heard`): adding the two counts, the seven counted twice, and the restart
    brought the table back at once."""
    url, bot, marie, bob, table = await stored_at_her_turn(fake, clock, tmp_path)
    old = table.table_message_id
    await chat(fake, bob, BURIED_AFTER - 1)
    again = await restart(fake, clock, bot, url)
    restored = again.service.registry.by_id(table.id)
    assert restored is not None and restored.table_message_id == old
    assert again.publisher.buried.returns == 0
    await chat(fake, bob, 1)
    await tick(fake, clock, QUIET + 1)
    assert restored.table_message_id != old
    await again.close()
    fake.assert_no_errors()


async def test_without_read_message_history_a_restart_counts_from_zero_without_asking(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """The channel denies the bot Read Message History (an overwrite; the invite asks for it):
    the restart makes no read Discord would answer with nothing, and counts from zero, as
    before: eight more bring the table back."""
    url, bot, marie, bob, table = await stored_at_her_turn(fake, clock, tmp_path)
    old = table.table_message_id
    fake.set_bot_permissions(fake.channel, read_message_history=False)
    await fake.settle()
    await chat(fake, bob, BURIED_AFTER)
    await tick(fake, clock, QUIET + 1)
    new = table.table_message_id
    assert new != old
    await chat(fake, bob, BURIED_AFTER - 1)
    mark = fake.mark()
    again = await restart(fake, clock, bot, url)
    assert fake.calls_since(mark, HISTORY) == []
    restored = again.service.registry.by_id(table.id)
    assert restored is not None and restored.table_message_id == new
    await chat(fake, bob, BURIED_AFTER - 1)
    await tick(fake, clock, QUIET + 1)
    assert restored.table_message_id == new
    await chat(fake, bob, 1)
    await tick(fake, clock, QUIET + 1)
    assert restored.table_message_id != new
    await again.close()
    fake.assert_no_errors()


async def test_a_crash_between_the_bring_downs_post_and_its_snapshot_is_settled_at_restart(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process dies as the bring-down's post is answered: the new message is on
    Discord, with the table's buttons, and nothing after it happened (no snapshot with its
    id, no pointer). Rebuilt as a crash leaves things: the database holds the state the
    table had as the post went out, written back after the stop, and the old message is as
    it was. The restart finds the new message below the old one, adopts it and turns the
    old one into the pointer: one message with buttons, at the bottom (before: the restart
    went on with the old message, and both kept live buttons)."""
    url, bot, marie, bob, table = await stored_at_her_turn(fake, clock, tmp_path)
    old = table.table_message_id
    assert old is not None
    send, edit = bot.publisher._send, bot.publisher._edit
    died: list[tuple[int, TableSnapshot]] = []

    async def dies_once_posted(table: Table, screen: Screen, *args: Any,
                               **kwargs: Any) -> int | None:
        posted = await send(table, screen, *args, **kwargs)
        if not died:
            died.append((table.seq, table.to_dict()))  # the last state it could store
        return posted

    async def dead(table: Table, message_id: int, screen: Screen | None,
                   asleep: str | None, *args: Any) -> bool:
        if died:
            return True  # never sent: the process is gone
        return await edit(table, message_id, screen, asleep, *args)

    monkeypatch.setattr(bot.publisher, "_send", dies_once_posted)
    monkeypatch.setattr(bot.publisher, "_edit", dead)
    await chat(fake, bob, BURIED_AFTER)
    await tick(fake, clock, QUIET + 1)
    new = table.table_message_id
    [(seq, state)] = died
    assert new not in (None, old) and state["table_message_id"] == old
    assert "pointers_owed" not in state
    assert message(marie, old).components and message(marie, new).components
    await bot.service.drain()
    await fake.disconnect(bot)
    assert await snapshot_followed(url, table.id, state) >= seq
    again = await started_on(fake, clock, url)
    restored = again.service.registry.by_id(table.id)
    assert restored is not None and restored.table_message_id == new
    assert restored.pointers_owed == []
    pointer = message(marie, old)
    assert pointer.content == pointer_to(restored, new)
    assert not pointer.components
    assert message(marie, new).components
    assert [m.id for m in fake.messages(fake.channel) if m.components and not m.ephemeral] \
        == [new]
    assert marie.last_message().id == new
    await again.close()
    storage = await Storage.open(url)  # adopted for good: a second start keeps it
    stored = await storage.load_snapshot(table.id)
    assert stored is not None and stored.state["table_message_id"] == new
    await storage.close()
    fake.assert_no_errors()


def with_hand(fake: FakeDiscord) -> list[int]:
    """The channel's public messages carrying a « Ma main » button: the live table's."""
    return [m.id for m in fake.messages() if not m.ephemeral
            and any(":hand:" in cid for cid in custom_ids(m))]


async def test_a_sigkill_as_the_bring_downs_post_lands_is_settled_at_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real process (tests/bot/crashbot.py), killed with SIGKILL at the instant Discord
    creates the bring-down's post, before its answer leaves: the bot never learns the new
    message's id, so no snapshot holds it, and the old message is as it was. The next
    start adopts the new one and turns the old one into the pointer (before: both kept
    their buttons, the restart redrawing the old one, until the next round)."""
    url = database_url(tmp_path)
    await upgrade_to_head(url)
    storage = await Storage.open(url)
    async with FakeDiscord.running(patch=False, clock=FakeClock(datetime.now(UTC))) as fake:
        run = Run(fake, url, tmp_path / "bot.log", {}, random.Random(0), 1, storage)
        try:
            alice, bob = fake.add_user("alice"), fake.add_user("bob")
            await run.start_bot()
            record = await alice.slash("president create", preset="classic", settle=False)
            await run.answered(record)
            await run.until(lambda: board(fake, ":start:") is not None, "the lobby")
            for _ in range(2):
                assert await host_click(run, alice, ":addbot:", chance=0.0)
            assert await host_click(run, alice, ":start:", chance=0.0)
            await run.until(lambda: board(fake, ":hand:") is not None, "the table message")
            old = with_hand(fake)[0]
            run.table_id = int(custom_ids(message(alice, old))[0].split(":")[1])

            async def stored_with_old() -> bool:
                stored = await run.stored_table()
                return stored is not None and stored.table_message_id == old

            for _ in range(int(ANSWER_TIMEOUT / 0.05)):
                if await stored_with_old():
                    break
                await asyncio.sleep(0.05)
            assert await stored_with_old()
            create = fake.writer.create
            killed: list[int] = []

            def dies_as_it_lands(channel: Any, payload: dict[str, Any], *args: Any,
                                 **kwargs: Any) -> Any:
                created = create(channel, payload, *args, **kwargs)
                if not killed and ":hand:" in json.dumps(payload.get("components")):
                    assert run.process is not None
                    run.process.kill()  # before the fake answers the post
                    killed.append(created.id)
                return created

            monkeypatch.setattr(fake.writer, "create", dies_as_it_lands)
            for n in range(BURIED_AFTER):
                bob.say(f"mdr {n}")
            await run.until(lambda: killed, "the bring-down's post")
            [new] = killed
            assert run.process is not None
            await run.process.wait()
            await run.until(lambda: not fake.gateway.connected
                            and not fake.gateway.closing(), "the socket to close")
            table = await run.stored_table()
            assert table is not None and table.table_message_id == old
            assert with_hand(fake) == [old, new]  # as the kill left them
            await run.start_bot()
            await run.until(lambda: with_hand(fake) == [new], "one table message")
            assert message(alice, old).content.startswith("⬇️ ")
            assert not message(alice, old).components
        finally:
            if run.process is not None and run.process.returncode is None:
                run.process.kill()
                await run.process.wait()
            await storage.close()


async def recounted(fake: FakeDiscord, clock: LinkedClock, mark: int) -> None:
    """The restarted bot's clock moves on until its recount has read the channel, once;
    by then the table, had it counted eight, would be back or due (`Buried.due`)."""
    for _ in range(50):
        if fake.calls_since(mark, HISTORY):
            break
        await tick(fake, clock, 0.1)
    await fake.settle()
    assert [c.method for c in fake.calls_since(mark, HISTORY)] == ["GET"]


async def restarted_seven_below(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> tuple[Table, int | None, TestUser, int, PresidentBot]:
    """marie's table with seven of bob's messages below it, the bot restarted on its
    database and its recount's read yet to come: the table, its message, bob, the mark
    taken before the restart and the restarted bot."""
    url, bot, marie, bob, table = await stored_at_her_turn(fake, clock, tmp_path)
    old = table.table_message_id
    await chat(fake, bob, BURIED_AFTER - 1)
    await asyncio.gather(*bot.service.outbox.pending(), return_exceptions=True)
    await fake.disconnect(bot)
    mark = fake.mark()
    again = await connect_bot(fake, clock, url, bot_pause=1.0)
    assert fake.calls_since(mark, HISTORY) == []  # the recount's read is yet to come
    return table, old, bob, mark, again


async def test_a_message_deleted_before_the_restart_s_read_does_not_count(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """Seven below the table at the restart. The new process hears bob's « ptdr » before
    its first redraw's read, and a moderator deletes it before the read too: the read no
    longer returns it, but the ids heard meanwhile (`_Pile.heard`) kept it, and the recount
    made it eight: the table came back for a message nobody sees. Deleted, it is taken off
    what was heard: seven, the table stays; the next one brings it back."""
    table, old, bob, mark, again = await restarted_seven_below(fake, clock, tmp_path)
    said = bob.say("ptdr")
    await fake.settle()
    fake.delete_message(said)
    await fake.settle()
    await recounted(fake, clock, mark)
    restored = again.service.registry.by_id(table.id)
    assert restored is not None and restored.table_message_id == old
    assert again.publisher.buried.returns == 0
    assert not again.publisher.buried.due(restored, "table")  # seven below, not buried
    await chat(fake, bob, 1)
    await tick(fake, clock, QUIET + 1)
    assert restored.table_message_id != old
    await again.close()
    fake.assert_no_errors()


async def test_a_message_deleted_as_the_restart_s_read_returns_does_not_count(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As above, but the deletion reaches the bot after the read returned bob's « ptdr »,
    before the recount counts what it read: it is taken off all the same
    (`_Pile.unsaid`), where the read's copy put it back among the eight."""
    table, old, bob, mark, again = await restarted_seven_below(fake, clock, tmp_path)
    said = bob.say("ptdr")
    await fake.settle()
    buried, recount = again.publisher.buried, again.publisher.recount
    read = recount._below

    async def read_then_deleted(table: Table, message_id: int) -> list[discord.Message] | None:
        below = await read(table, message_id)
        assert below is not None and said.id in [m.id for m in below]
        fake.delete_message(said)
        await fake.settle()
        return below

    monkeypatch.setattr(recount, "_below", read_then_deleted)
    await recounted(fake, clock, mark)
    restored = again.service.registry.by_id(table.id)
    assert restored is not None and restored.table_message_id == old
    assert buried.returns == 0 and not buried.due(restored, "table")
    await again.close()
    fake.assert_no_errors()
