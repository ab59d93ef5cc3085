"""End-to-end: what the monkey play-test (`monkey.py`) found, replayed step by step."""

from __future__ import annotations

import asyncio
from pathlib import Path

from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import cid, connect_bot, create_table, database_url, message, restart, table_of

# Wall seconds a restart may take before the test calls it hung: no restart waits for the
# bot's clock, which stands still here, so this bounds a deadlock, not the machine's speed.
HUNG = 60


async def test_a_restart_just_after_a_table_closed_in_the_first_second(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
) -> None:
    """Monkey seed 11: alice opened a table and left it alone (it closed) while the card
    faces' uploads filled the call budget's first second; the closed table's last edit waits
    for the budget's window on the bot's clock, and a restart that waited for it before
    stopping waited for ever. The stop closes the budget (that edit is dropped, the next
    start posts afresh) and the new process serves the channel."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    alice = fake.add_user("alice")
    table = await create_table(bot, alice)
    await alice.click(message(alice, table.lobby_message_id), cid(table, "leave"))
    assert table.closed
    again = await asyncio.wait_for(restart(fake, clock, bot, url), HUNG)
    await alice.slash("president create", preset="classic")
    assert table_of(again, alice).id != table.id
    await fake.disconnect(again)
    fake.assert_no_errors()
