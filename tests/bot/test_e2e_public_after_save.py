"""The table's public messages after the save (docs/bot.md « Public messages after the save
(stop 62) »): the refresh draws the lobby and the table message only once the state it
shows is committed (`saving.PublicSaves`), as a click's own answer waits (stop 61). Each
test holds the commit back (`slow_commits`): before stop 62 the lobby listed bob, the
table message showed alice's card, at once, the commit still waiting, and a crash then
took back what everyone had been shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.packages.saving import STORE_BUDGET
from bot.storage import Storage
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import (
    RESTART_UP,
    Player,
    connect_bot,
    create_table,
    database_url,
    host_against_bots,
    message,
    tick,
)
from .test_e2e_slow_store import _play, slow_commits

EDIT = "/channels/{channel_id}/messages/{message_id}"


@pytest.mark.parametrize("locale", ["fr", "en-US"])
async def test_a_seat_taken_by_command_is_shown_in_the_lobby_once_saved(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch, locale: str,
) -> None:
    """bob types `/president join` while the database is slow: his own answer waits for
    the commit (stop 61), and now the lobby does too, past the budget and the refresh's
    beat; once the seat is stored the lobby lists him, in one edit."""
    alice, bob = fake.add_user("alice", locale=locale), fake.add_user("bob", locale=locale)
    table = await create_table(president, alice)
    lobby = table.lobby_message_id
    release, waited = slow_commits(president, monkeypatch)
    await bob.slash("president join", settle=False)
    await fake.settle(require_answers=False)
    await tick(fake, clock, STORE_BUDGET)
    await tick(fake, clock, 2)  # two refresh beats
    assert table.player(bob.id) is not None and waited  # seated, not yet stored
    assert "bob" not in message(alice, lobby).text  # before: listed at once
    mark = fake.mark()
    release.set()
    await fake.settle()
    await tick(fake, clock, 1)
    assert "bob" in message(alice, lobby).text
    edits = [c for c in fake.calls_since(mark, EDIT)
             if c.method == "PATCH" and c.path.endswith(f"/{lobby}")]
    assert len(edits) == 1
    assert not fake.hub.unanswered()
    fake.assert_no_errors()


async def test_a_move_is_shown_at_the_table_once_saved(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """marie plays from her hand while the commit is held: the table message said her
    card at once (the hand's answer waited, stop 47); now it waits for the commit too."""
    marie = Player(fake.add_user("marie", locale="fr"))
    table = await host_against_bots(president, marie.user, "classic", 2)
    for _ in range(30):  # to marie's turn, the table message up
        game = table.game
        if game is not None and game.to_act == 0 and table.table_message_id is not None:
            break
        await tick(fake, clock, 1)
    await marie.open_hand(president)
    game = table.game
    assert game is not None and game.to_act == 0
    board = message(marie.user, table.table_message_id).text
    version = game.version
    release, waited = slow_commits(president, monkeypatch)
    await _play(fake, marie)
    await tick(fake, clock, STORE_BUDGET)
    await tick(fake, clock, 1)
    assert waited and game.version > version  # played, not yet stored
    assert message(marie.user, table.table_message_id).text == board
    release.set()
    await fake.settle()
    await tick(fake, clock, 1)
    assert message(marie.user, table.table_message_id).text != board
    assert not fake.hub.unanswered()
    fake.assert_no_errors()


async def test_a_crash_before_a_seat_is_saved_leaves_the_lobby_without_it(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The process dies while bob's seat waits for its commit: rebuilt as a crash leaves
    things, the database holds the table as it was before (written back after the stop).
    The lobby never listed him, and the restart has him unseated: before stop 62 the lobby
    listed him from the click on, a seat the restart did not bring back."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url)
    alice, bob = fake.add_user("alice", locale="fr"), fake.add_user("bob", locale="fr")
    table = await create_table(bot, alice)
    lobby = table.lobby_message_id
    await bot.service.drain()
    await bot.service.committed(table)
    before = table.to_dict()
    slow_commits(bot, monkeypatch)  # never committed, as far as the bot knows
    await bob.slash("president join", settle=False)
    await fake.settle(require_answers=False)
    await tick(fake, clock, STORE_BUDGET)
    await tick(fake, clock, 2)
    assert table.player(bob.id) is not None
    assert "bob" not in message(alice, lobby).text
    await fake.disconnect(bot)  # the crash, rebuilt below
    storage = await Storage.open(url)
    stored = await storage.load_snapshot(table.id)
    assert stored is not None
    assert await storage.save_snapshot(table.id, stored.seq + 1, before)
    await storage.close()
    again = await connect_bot(fake, clock, url, bot_pause=1.0)
    await fake.settle()
    await tick(fake, clock, RESTART_UP)
    restored = again.service.registry.by_id(table.id)
    assert restored is not None and restored.player(bob.id) is None
    assert "bob" not in message(alice, restored.lobby_message_id).text
    await again.close()
    fake.assert_no_errors()
