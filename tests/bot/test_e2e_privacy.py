"""End-to-end: /president privacy tells a player what the bot keeps about them, and
/president forget erases it on every server once they confirm (docs/privacy.md), while the
others' results and history stay whole."""

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import t
from bot.i18n.typography import french
from bot.packages.text import player_name
from bot.storage import HeldData, SeatRef, Storage
from engine import Phase
from fakediscord import FakeDiscord
from fakediscord.forge import MANAGE_GUILD, Forger
from fakediscord.limits import BUTTON
from fakediscord.state import APPLICATION_COMMAND, MESSAGE_COMPONENT

from .conftest import LinkedClock
from .e2e import (
    alice_and_bob_stored,
    connect_bot,
    database_url,
    leave_game,
    message,
    play_until,
    record_charts,
    tick,
)

NOTHING = HeldData(named=False, games=0, rounds=0, ratings=0, hosted=0, notices=0,
                   language=False)


def stall_rounds(storage: Storage, monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
    """Rounds' results wait to be stored, as on a stalled database, until the event is set."""
    stalled = asyncio.Event()
    record_round = storage.record_round

    async def stalling(*args: Any, **kwargs: Any) -> Any:
        await stalled.wait()
        return await record_round(*args, **kwargs)

    monkeypatch.setattr(storage, "record_round", stalling)
    return stalled


async def test_a_player_sees_what_is_kept_and_erases_it_while_the_others_keep_their_game(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Alice (English) plays a game with bob (French) and a bot, then erases herself: her
    stats and her place on the leaderboard go, bob's history still shows the game, her
    seat named « Personne effacée » in his language, and a second request finds nothing."""
    drawn = record_charts(monkeypatch)
    bot, alice, bob, table, game = await alice_and_bob_stored(fake, clock, tmp_path, "rounds:1",
                                                              bob_locale="fr")
    await play_until(fake, clock, [alice, bob], lambda: game.phase is Phase.GAME_OVER)
    await bot.service.drain()
    storage = bot.storage
    assert storage is not None
    bob_before = await storage.player_stats(fake.guild.id, bob.user.id)

    await alice.user.slash("president privacy")
    shown = alice.user.last_ephemeral().text
    assert shown.startswith("🔒 What this bot keeps about you\n")
    assert "Kept now, on every server: your name, 1 game, 1 round and 1 rating." in shown
    assert "`/president forget`" in shown and "“Erased player”" in shown

    # At her table still: she is asked to leave it first, and nothing is erased.
    await alice.user.slash("president forget")
    refusal = alice.user.last_ephemeral()
    assert refusal.content == "⚠️ " + t("en", "err.forget_seated",
                                        channels=f"<#{fake.channel.id}>")
    assert not refusal.buttons
    await alice.user.slash("president end")  # back to the lobby
    await alice.user.slash("president end")  # the table closes
    held = await storage.held_about(alice.user.id)
    assert held == HeldData(named=True, games=1, rounds=1, ratings=1, hosted=1, notices=0,
                            language=False)

    await alice.user.slash("president forget")
    question = alice.user.last_ephemeral()
    assert question.content == t("en", "forget.confirm",
                                 summary="your name, 1 game, 1 round, 1 rating and 1 table "
                                         "hosted", erased="Erased player")
    assert [b.label for b in question.buttons] == ["Cancel", "Erase everything"]
    confirm = question.button("Erase everything").custom_id
    assert confirm is not None

    # Bob's own question cannot carry alice's button: that click erases nobody.
    await bob.user.slash("president forget")
    his = bob.user.last_ephemeral()
    assert his.button("Tout effacer").custom_id != confirm
    await Forger(fake).send(bob.user, MESSAGE_COMPONENT,
                            {"custom_id": confirm, "component_type": BUTTON}, message=his)
    assert bob.user.last_ephemeral().content == "⚠️ " + t("fr", "err.unknown_control")
    assert await storage.held_about(alice.user.id) == held

    await alice.user.click(question, "Erase everything")
    answered = message(alice.user, question.id)
    assert answered.content == t("en", "forget.done", summary="your name, 1 game, 1 round, "
                                 "1 rating and 1 table hosted", erased="Erased player")
    assert not answered.buttons
    assert await storage.held_about(alice.user.id) == NOTHING

    await alice.user.slash("president stats")
    assert "alice has not played on this server yet." in alice.user.last_ephemeral().text
    await bob.user.slash("president stats", member=alice.user)
    assert "alice n’a pas encore joué sur ce serveur." in bob.user.last_ephemeral().text
    await bob.user.slash("president leaderboard")
    board = bob.user.last_ephemeral().text
    assert f"<@{alice.user.id}>" not in board and f"1. <@{bob.user.id}>" in board
    assert await storage.player_stats(fake.guild.id, bob.user.id) == bob_before

    await bob.user.slash("president history")
    listed = bob.user.last_ephemeral()
    assert "1 manche" in listed.text
    drawn.clear()
    await bob.user.select(listed, [listed.select().options[0].value])
    (rebuilt,) = drawn
    assert sorted(rebuilt.names) == sorted(["Personne effacée", "bob", "Bot 1 (bot)"])
    assert french("Personne effacée : 1.") in bob.user.last_ephemeral().text  # its alt text

    await alice.user.slash("president forget")
    assert alice.user.last_ephemeral().content == t("en", "forget.nothing")
    await alice.user.slash("president privacy")
    assert "Kept now: nothing about you." in alice.user.last_ephemeral().text
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_player_who_left_mid_round_is_erased_from_the_round_a_bot_finished(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """bob (French) leaves during round 1; a bot finishes it in his seat, under his name.
    While that round's result waits to be stored (the database stalled), /president forget
    is refused, since it would be stored again after; while the finished game shows his
    seat, it is refused too; once stored, the round is held for him, and erasing him, the
    table closed, takes his name from it too."""
    bot, alice, bob, table, game = await alice_and_bob_stored(fake, clock, tmp_path,
                                                              "rounds:1", bob_locale="fr")
    storage = bot.storage
    assert storage is not None and table.game_row_id is not None
    game_row = table.game_row_id
    stalled = stall_rounds(storage, monkeypatch)
    await leave_game(bob.user)
    await play_until(fake, clock, [alice], lambda: game.phase is Phase.GAME_OVER)
    assert table.holds_results_of(bob.user.id) and not table.closed
    await bob.user.slash("president forget")
    refusal = bob.user.last_ephemeral()
    assert refusal.content == "⚠️ " + t("fr", "err.forget_storing") and not refusal.buttons

    stalled.set()
    await bot.service.drain()
    assert (await storage.held_about(bob.user.id)).rounds == 1
    # The finished game's standings still show his seat, in the table's saved state.
    await bob.user.slash("president forget")
    held = bob.user.last_ephemeral()
    assert held.content == "⚠️ " + t("fr", "err.forget_held", channels=f"<#{fake.channel.id}>")
    assert not held.buttons
    await alice.user.slash("president end")  # back to the lobby
    await alice.user.slash("president end")  # the table closes
    await bob.user.slash("president forget")
    await bob.user.click(bob.user.last_ephemeral(), "Tout effacer")
    assert await storage.held_about(bob.user.id) == NOTHING
    points = await storage.game_points(game_row, fake.channel.id)
    assert points is not None and "bob" not in points.names
    await fake.disconnect(bot)
    fake.assert_no_errors()


@pytest.mark.both_databases  # on PostgreSQL in `make test` too
async def test_a_question_cancelled_or_answered_too_late_erases_nothing(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
) -> None:
    """Ana (French) won a game against Bruno: « Annuler » erases nothing, nor does
    « Tout effacer » clicked more than a quarter of an hour after the question; a fresh
    question then erases her, and the game her seat won reads « Personne effacée » in
    Bruno's history, « Erased player » in English."""
    bot = await connect_bot(fake, clock, database_url(tmp_path))
    storage = bot.storage
    assert storage is not None
    ana = fake.add_user("ana", locale="fr")
    bruno = fake.add_user("bruno", locale="fr")
    eve = fake.add_user("eve")
    seats = [SeatRef(ana.id, False, player_name("ana")), SeatRef(bruno.id, False, "bruno")]
    table_id = await storage.create_table(fake.guild.id, fake.channel.id, ana.id,
                                          {"preset": "classic", "set": {}})
    game_id = await storage.start_game(table_id, game_no=1, preset="classic",
                                       rules={"preset": "classic", "set": {}}, seats=seats)
    await storage.record_round(game_id, 1, ranking=[0, 1], roles=["P", "L"], points=[3, 0],
                               seats=seats)
    await storage.finish_game(game_id, winners=[0], stopped_early=False)
    await storage.update_table(table_id, status="closed")
    held = await storage.held_about(ana.id)

    await ana.slash("president privacy")
    assert french("Gardé en ce moment, sur tous les serveurs : ton nom, 1 partie, 1 manche, "
                  "1 cote et 1 table accueillie.") in ana.last_ephemeral().text
    await ana.slash("president forget")
    question = ana.last_ephemeral()
    await ana.click(question, "Annuler")
    assert message(ana, question.id).content == "Rien n’a été effacé."
    assert not message(ana, question.id).buttons
    await ana.click_shown(question, "Tout effacer")  # as her client still showed it
    assert ana.last_ephemeral().content == "⚠️ " + t("fr", "err.unknown_control")
    assert await storage.held_about(ana.id) == held

    await ana.slash("president forget")
    late = ana.last_ephemeral()
    await tick(fake, clock, 15 * 60 + 1)
    await ana.click(late, "Tout effacer")
    assert ana.last_ephemeral().content == "⚠️ " + t("fr", "err.forget_expired")
    assert await storage.held_about(ana.id) == held

    await ana.slash("president forget")
    await ana.click(ana.last_ephemeral(), "Tout effacer")
    assert await storage.held_about(ana.id) == NOTHING
    await bruno.slash("president history")
    assert french("victoire : Personne effacée") in bruno.last_ephemeral().text
    await eve.slash("president history")
    assert "winner: Erased player" in eve.last_ephemeral().text
    assert (await storage.held_about(bruno.id)).ratings == 1
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_server_admin_erases_the_server_and_no_other(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
) -> None:
    """Only Manage Server may erase a server, once its tables are closed, at the question
    and at the click; the server's history goes, another server's game stays."""
    bot = await connect_bot(fake, clock, database_url(tmp_path))
    storage = bot.storage
    assert storage is not None
    ana = fake.add_user("ana", locale="fr")
    admin = fake.add_user("admin")
    seats = [SeatRef(ana.id, False, "ana"), SeatRef(admin.id, False, "admin")]
    elsewhere = fake.guild.id + (1 << 22)
    for guild_id, channel_id in ((fake.guild.id, fake.channel.id), (elsewhere, 77)):
        table_id = await storage.create_table(guild_id, channel_id, ana.id,
                                              {"preset": "classic", "set": {}})
        game_id = await storage.start_game(table_id, game_no=1, preset="classic",
                                           rules={"preset": "classic", "set": {}}, seats=seats)
        await storage.record_round(game_id, 1, ranking=[0, 1], roles=["P", "L"],
                                   points=[3, 0], seats=seats)
        await storage.finish_game(game_id, winners=[0], stopped_early=False)
        await storage.update_table(table_id, status="closed")
    other_before = await storage.held_by_guild(elsewhere)
    forger = Forger(fake)

    async def as_admin(command: str) -> None:
        await forger.send(admin, APPLICATION_COMMAND, forger.command(admin, command),
                          permissions=MANAGE_GUILD)

    await ana.slash("president forget-server")
    assert ana.last_ephemeral().content == "⚠️ " + t("fr", "err.forget_server_forbidden")
    await ana.slash("president create")
    await as_admin("president forget-server")
    assert admin.last_ephemeral().content == "⚠️ " + t(
        "en", "err.forget_server_open", channels=f"<#{fake.channel.id}>")
    await ana.slash("president end")
    await as_admin("president forget-server")
    question = admin.last_ephemeral()
    assert question.content == t("en", "forget_server.confirm",
                                 summary="2 tables, 1 game and 2 ratings")
    confirm = question.button("Erase everything").custom_id
    assert confirm is not None
    click = {"custom_id": confirm, "component_type": BUTTON}
    await forger.send(admin, MESSAGE_COMPONENT, click, message=question, permissions=0)
    assert admin.last_ephemeral().content == "⚠️ " + t("en", "err.forget_server_forbidden")
    assert (await storage.held_by_guild(fake.guild.id)).games == 1

    await forger.send(admin, MESSAGE_COMPONENT, click, message=question,
                      permissions=MANAGE_GUILD)
    assert message(admin, question.id).content == t(
        "en", "forget_server.done", summary="2 tables, 1 game and 2 ratings")
    assert (await storage.held_by_guild(fake.guild.id)).empty
    assert await storage.held_by_guild(elsewhere) == other_before
    await ana.slash("president history")
    assert t("fr", "history.empty") in ana.last_ephemeral().text
    await ana.slash("president stats")
    assert "ana n’a pas encore joué sur ce serveur." in ana.last_ephemeral().text
    await as_admin("president forget-server")
    assert admin.last_ephemeral().content == t("en", "forget_server.nothing")
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_server_erased_just_after_its_table_closed_waits_for_its_last_results(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The table closes while its game's results are still being stored (the database
    stalled), and an admin at once confirms the server's erasure: it waits for them, then
    erases them with the rest, rather than finding the table still open in the database or
    leaving the results behind it."""
    bot, alice, bob, table, game = await alice_and_bob_stored(fake, clock, tmp_path, "rounds:1")
    storage = bot.storage
    assert storage is not None
    stalled = stall_rounds(storage, monkeypatch)
    await play_until(fake, clock, [alice, bob], lambda: game.phase is Phase.GAME_OVER)
    await alice.user.slash("president end")  # back to the lobby
    await alice.user.slash("president end")  # the table closes
    assert table.closed and bot.service.registry.tables() == []
    forger = Forger(fake)
    admin = fake.add_user("admin")
    await forger.send(admin, APPLICATION_COMMAND, forger.command(admin, "president forget-server"),
                      permissions=MANAGE_GUILD)
    question = admin.last_ephemeral()
    click = {"custom_id": question.button("Erase everything").custom_id,
             "component_type": BUTTON}
    answered = await forger.send(admin, MESSAGE_COMPONENT, click, message=question,
                                 permissions=MANAGE_GUILD, settle=False)
    await fake.settle()
    assert message(admin, question.id).content == question.content  # waiting for them
    stalled.set()
    await fake.settle()
    assert answered.acknowledged
    assert message(admin, question.id).content.startswith("Erased, for this server: ")
    await bot.service.drain()
    assert (await storage.held_by_guild(fake.guild.id)).empty
    await fake.disconnect(bot)
    fake.assert_no_errors()



async def test_an_erasure_confirmed_after_the_snapshot_writer_closed_is_refused_politely(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
) -> None:
    """Ana (French) confirms « Tout effacer » as the bot shuts down, its snapshot writer
    closed: she is told the bot is restarting and nothing is erased, as every click and
    command is refused then (docs/bot.md « Controls »). Controls of no table (the erasure's
    question, the history's pages) ran regardless, their storage closed under them by the
    stop (stop 60's review)."""
    bot = await connect_bot(fake, clock, database_url(tmp_path))
    storage = bot.storage
    assert storage is not None and bot.writer is not None
    ana = fake.add_user("ana", locale="fr")
    await storage.upsert_user(ana.id, player_name("ana"))
    held = await storage.held_about(ana.id)
    assert held.named
    await ana.slash("president forget")
    question = ana.last_ephemeral()
    await bot.writer.close()  # the first steps of a shutdown
    await ana.click(question, "Tout effacer")
    assert ana.last_ephemeral().content == "⚠️ " + t("fr", "err.restarting")
    assert await storage.held_about(ana.id) == held
    fake.assert_no_errors()
    await fake.disconnect(bot)
