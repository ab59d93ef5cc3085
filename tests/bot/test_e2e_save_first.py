"""Save first, answer after (docs/bot.md « Saving before answering (stop 61) »): a host's
button, a settings change, a split exchange's pick and the host's commands are answered once
the table's new state is committed, as a move is (`bot.packages.saving`). Each test holds
the commit back (`slow_commits`): that is the moment a crash (a kill, the database lost)
would take the change back, and nobody must have been told of it then. Past STORE_BUDGET
the interaction is deferred, well inside Discord's 3 seconds, and answered once stored.
Before stop 61 each of them answered at once, the commit still waiting."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.packages.saving import STORE_BUDGET
from bot.storage import Storage
from bot.tables.hosting import HOST_IDLE_SECONDS
from engine import Phase
from fakediscord import FakeDiscord, InteractionRecord
from fakediscord.client import TestUser
from fakediscord.forge import MANAGE_GUILD, Forger
from fakediscord.snapshots import Message
from fakediscord.state import APPLICATION_COMMAND
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    connect_bot,
    create_table,
    database_url,
    deal,
    host_against_bots,
    message,
    snapshot_followed,
    started_on,
    tick,
)
from .test_e2e_slow_store import (
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE,
    alice_s_table_shown,
    slow_commits,
)

UPDATE_MESSAGE = 7  # (interactions/receiving-and-responding, Interaction Callback Type)
# Discord's deadline for an interaction's first response (same page, Responding to an
# Interaction).
DEADLINE = 3.0


async def held(fake: FakeDiscord, clock: LinkedClock, record: InteractionRecord) -> None:
    """The click waits for its commit, unanswered; past STORE_BUDGET it is deferred, within
    Discord's deadline, and nothing it changed has been told through it."""
    await fake.settle(require_answers=False)
    assert record.response_type is None  # waiting for the database
    await tick(fake, clock, STORE_BUDGET)
    assert fresh(record).response_type in (DEFERRED_UPDATE, DEFERRED_CHANNEL_MESSAGE)
    assert record.answered_at is not None
    assert record.answered_at - record.created_at < DEADLINE
    assert record.response is None or not record.response.get("content")


@pytest.mark.parametrize("locale", ["fr", "en"])
async def test_a_settings_change_is_said_saved_once_it_is(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch, locale: str,
) -> None:
    """marie turns the hints on from her settings panel while the database is slow. The
    panel said « ✅ Conseils activés » at once: a crash before the commit restored the
    table without them, after she was told they were on."""
    marie = fake.add_user("marie", locale=locale)
    table = await create_table(president, marie)
    await marie.slash("president settings")
    panel = marie.last_ephemeral()
    release, waited = slow_commits(president, monkeypatch)
    record = await marie.click(panel, cid(table, "hints"), settle=False)
    await held(fake, clock, record)
    assert waited == [table] and table.hints  # changed, not yet stored
    said = t(locale, "settings.hints_on")
    assert said not in message(marie, panel.id).text  # not told while unsaved
    release.set()
    await fake.settle()
    assert said in message(marie, panel.id).text  # the same panel, once saved
    assert not fake.hub.unanswered()
    fake.assert_no_errors()


async def test_a_bot_added_from_the_lobby_is_shown_by_its_click_once_saved(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """« Ajouter un bot » answered by redrawing the lobby with the bot seated, the commit
    still waiting. Now the click is acknowledged (deferred) and the lobby redrawn through
    it once the seat is stored."""
    alice = fake.add_user("alice")
    table = await create_table(president, alice)
    lobby = message(alice, table.lobby_message_id)
    release, waited = slow_commits(president, monkeypatch)
    record = await alice.click(lobby, cid(table, "addbot"), settle=False)
    await held(fake, clock, record)
    assert waited == [table] and len(table.seats) == 2
    release.set()
    await fake.settle()
    assert "Bot 1" in message(alice, table.lobby_message_id).text
    assert not fake.hub.unanswered()
    fake.assert_no_errors()


async def test_a_host_s_pause_is_answered_and_its_reason_offered_once_saved(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """alice pauses her game from the table message: the redraw and the offer of a reason
    wait for the break's commit."""
    player, table = await alice_s_table_shown(fake, clock, president)
    alice = player.user
    board = message(alice, table.table_message_id)
    ephemerals = len([m for m in alice.visible() if m.ephemeral])
    release, waited = slow_commits(president, monkeypatch)
    record = await alice.click(board, cid(table, "pause"), settle=False)
    await held(fake, clock, record)
    assert waited and table.pause is not None
    assert len([m for m in alice.visible() if m.ephemeral]) == ephemerals  # no offer yet
    release.set()
    await fake.settle()
    offer = alice.last_ephemeral()
    assert t("en", "btn.pause_reason") in [b.label for b in offer.buttons]
    assert not fake.hub.unanswered()
    fake.assert_no_errors()


async def test_a_split_exchange_pick_is_shown_taken_once_saved(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """marie gives back two cards from a hand spread over several menus: the cards picked
    in one menu live with the table (`Moves.pick_gift`) and are stored in its snapshot.
    The hand said « Choisies : … » at once; a crash before the commit lost the picks she
    was shown taken."""
    marie = Player(fake.add_user("marie", locale="fr"))
    table = await host_against_bots(president, marie.user, "wild7", 1)
    await tick(fake, clock, 1)
    deck = sorted(table.rules.deck_kind.cards(), key=str)
    game = deal(president, table, [deck[0::2], deck[1::2]], previous_ranking=[0, 1])
    assert game.phase is Phase.EXCHANGE
    await marie.open_hand(president)
    before = marie.hand.text
    first = next(s for s in marie.hand.selects if ":give:" in s.custom_id)
    release, waited = slow_commits(president, monkeypatch)
    record = await marie.user.select(marie.hand, [first.options[0].value],
                                     select=first.custom_id, settle=False)
    await held(fake, clock, record)
    assert waited == [table] and table.gift_picks.get(marie.user.id)
    assert marie.hand.text == before  # not shown taken while unsaved
    release.set()
    await fake.settle()
    assert "Choisies" in marie.hand.text and marie.hand.text != before
    assert not fake.hub.unanswered()
    fake.assert_no_errors()


async def test_a_game_stopped_from_its_prompt_is_said_stopped_once_saved(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """alice stops her game from the prompt `/president end` offers mid-game: the prompt
    said « stopped » in place of its button at once, the commit still waiting."""
    alice = fake.add_user("alice")
    table = await host_against_bots(president, alice, "classic", 2)
    await tick(fake, clock, 1)
    await alice.slash("president end")
    prompt = alice.last_ephemeral()
    asked = prompt.text
    release, waited = slow_commits(president, monkeypatch)
    record = await alice.click(prompt, cid(table, "stop", 0, str(table.game_no)), settle=False)
    await held(fake, clock, record)
    assert waited and not table.under_way
    assert message(alice, prompt.id).text == asked  # not told while unsaved
    release.set()
    await fake.settle()
    assert message(alice, prompt.id).text == t("en", "end.stopped")
    assert not fake.hub.unanswered()
    fake.assert_no_errors()

async def test_a_bot_added_by_command_is_said_added_once_saved(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`/president addbot` answered « Bot 1 joins the table » at once; now it thinks
    (privately) past the budget, and the loading message says it once the seat is stored."""
    alice = fake.add_user("alice")
    table = await create_table(president, alice)
    release, waited = slow_commits(president, monkeypatch)
    record = await alice.slash("president addbot", settle=False)
    await held(fake, clock, record)
    assert fresh(record).response_type == DEFERRED_CHANNEL_MESSAGE
    thinking = alice.last_ephemeral()
    assert thinking.loading and waited == [table]
    release.set()
    await fake.settle()
    said = alice.last_ephemeral()
    assert said.id == thinking.id and not said.loading and "Bot 1" in said.text
    assert not fake.hub.unanswered()
    fake.assert_no_errors()


async def test_an_unslowed_change_is_answered_at_once(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
) -> None:
    """A commit within the budget costs no deferral: the click's one answer redraws."""
    alice = fake.add_user("alice")
    table = await create_table(president, alice)
    record = await alice.click(message(alice, table.lobby_message_id), cid(table, "addbot"))
    assert record.response_type == UPDATE_MESSAGE
    fake.assert_no_errors()



async def test_a_crash_before_a_settings_change_is_saved_leaves_marie_told_nothing(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The process dies while marie's « Conseils » change waits for its commit: rebuilt as
    a crash leaves things, the database holds the table as it was before the click (written
    back after the stop). The restart brings the hints back off, and her panel, never
    answered, never said they were on: before stop 61 it said « ✅ Conseils activés »."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url)
    marie = fake.add_user("marie", locale="fr")
    table = await create_table(bot, marie)
    await marie.slash("president settings")
    panel = marie.last_ephemeral()
    await bot.service.drain()
    await bot.service.committed(table)
    before = table.to_dict()
    slow_commits(bot, monkeypatch)  # never committed, as far as the click knows
    record = await marie.click(panel, cid(table, "hints"), settle=False)
    await held(fake, clock, record)
    assert table.hints
    await fake.disconnect(bot)  # the crash, rebuilt below
    await snapshot_followed(url, table.id, before)
    again = await started_on(fake, clock, url)
    restored = again.service.registry.by_id(table.id)
    assert restored is not None and not restored.hints
    assert t("fr", "settings.hints_on") not in message(marie, panel.id).text
    await again.close()
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", ["fr", "en"])
async def test_a_host_role_taken_over_by_the_settings_button_is_saved_and_shown(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str,
) -> None:
    """alice, hosting, went quiet for over ten minutes; bob took the role over by opening
    the settings (`hosting.claim`). His panel came once « saved », but nothing had been
    submitted to save: the role lived in memory alone (a crash gave it back to alice) and
    the lobby went on marking alice 👑 (stop 61's review)."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url)
    alice, bob = fake.add_user("alice", locale=locale), fake.add_user("bob", locale=locale)
    table = await create_table(bot, alice)
    await bob.click(message(bob, table.lobby_message_id), cid(table, "join"))
    await tick(fake, clock, HOST_IDLE_SECONDS + 1)
    await bob.click(message(bob, table.lobby_message_id), cid(table, "settings"))
    assert table.is_host(bob.id)
    await tick(fake, clock, 1)
    assert f"**bob** (👑 {t(table.locale, 'host.mark')})" in \
        message(bob, table.lobby_message_id).text
    await bot.service.drain()
    await bot.service.committed(table)
    storage = await Storage.open(url)
    stored = await storage.load_snapshot(table.id)
    await storage.close()
    assert stored is not None and stored.state["host_id"] == bob.id
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def told_once_saved(fake: FakeDiscord, clock: LinkedClock, user: TestUser,
                          release: asyncio.Event) -> Message:
    """The answer to ``user``'s command, sent with its commit held: a « thinking » message
    past the budget, then, the commit released, the answer in that same message."""
    await fake.settle(require_answers=False)
    await tick(fake, clock, STORE_BUDGET + 1)
    thinking = user.last_ephemeral()
    assert thinking.loading
    release.set()
    await fake.settle()
    said = user.last_ephemeral()
    assert said.id == thinking.id
    return said


async def test_a_host_s_table_language_is_said_set_once_saved(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """john, hosting, types `/president language fr`: « This table now speaks French »
    came with the commit still waiting, and a restart takes a table's language from its
    snapshot. Now the loading message says it once the table is stored (stop 62)."""
    john = fake.add_user("john")
    table = await create_table(president, john)
    release, waited = slow_commits(president, monkeypatch)
    record = await john.slash("president language", language="fr", settle=False)
    said = await told_once_saved(fake, clock, john, release)
    assert fresh(record).response_type == DEFERRED_CHANNEL_MESSAGE
    assert table in waited and table.locale == "fr"
    assert said.text.startswith("This table now speaks French.")
    assert not fake.hub.unanswered()
    fake.assert_no_errors()


async def test_the_server_s_language_is_said_set_once_its_tables_are_saved(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An admin sets the server's language: the server's row was written before the
    answer, but the open tables' new language only queued, so a crash after « Tables on
    this server now speak French » brought them back in English. Now the answer waits for
    every open table's commit too (stop 62)."""
    bot = await connect_bot(fake, clock, database_url(tmp_path))
    john, admin = fake.add_user("john"), fake.add_user("admin")
    table = await create_table(bot, john)
    release, waited = slow_commits(bot, monkeypatch)
    data = Forger(fake).command(admin, "president language", language="fr")
    await Forger(fake).send(admin, APPLICATION_COMMAND, data, permissions=MANAGE_GUILD,
                            settle=False)
    said = await told_once_saved(fake, clock, admin, release)
    assert table in waited and table.locale == "fr"
    assert said.content == "Tables on this server now speak French."
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_table_s_lobby_is_posted_once_its_first_state_is_saved(
    fake: FakeDiscord, president: PresidentBot, clock: LinkedClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`/president create` posted the lobby, its buttons under « Rejoindre », with the
    table's first snapshot still waiting: a crash then left that lobby over a table the
    restart closed, having nothing of it to restore. Now the command's « thinking »
    message becomes the lobby once the table is stored (stop 62)."""
    alice = fake.add_user("alice")
    release, waited = slow_commits(president, monkeypatch)
    await alice.slash("president create", preset="classic", settle=False)
    await fake.settle(require_answers=False)
    await tick(fake, clock, STORE_BUDGET + 1)
    [table] = president.service.registry.tables()
    assert waited and waited[0] is table and table.lobby_message_id is None
    thinking = [m for m in alice.visible() if m.loading]
    assert len(thinking) == 1 and not thinking[0].buttons
    release.set()
    await fake.settle()
    lobby = message(alice, table.lobby_message_id)
    assert lobby.id == thinking[0].id and not lobby.loading and lobby.buttons
    assert not fake.hub.unanswered()
    fake.assert_no_errors()
