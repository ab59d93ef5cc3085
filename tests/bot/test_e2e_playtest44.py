"""End-to-end: play-test 44 (stop 60), a three-seat table emptied by leaving. marie (fr)
hosts classic in a server that chose no language (the public messages speak French), with
bob (en-US) and claire (fr): three seats, classic's minimum. claire leaves mid-round (a bot
finishes it, then the table goes back to its lobby); marie and bob wait there a quarter of
an hour, marie presses « Lancer » at two, adds a bot and starts again; after a round bob
leaves mid-round, then marie, the last one there, and the table closes. Each reads
`/president stats` and `history` afterwards. Every message each one sees (table, hands,
prompts, DMs) is read each time it changes (docs/bot.md « Play-test 44: three seats emptied
by leaving (stop 60) »)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from engine import Phase
from fakediscord import FakeDiscord, TestUser
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import (
    LOCALES,
    Player,
    act_or_wait,
    cid,
    connect_bot,
    create_table,
    database_url,
    message,
    play_until,
    round_one_played,
    three_at_classic,
    tick,
)
from .reading import Reader, well_written

DUMP = os.environ.get("PT44_DUMP")  # a file to write every message read to, to read it through
DEVICES = {"marie": "fr", "bob": "en-US", "claire": "fr"}


async def asked_to_leave(user: TestUser, reader: Reader) -> str:
    """``user`` types `/president leave`: the prompt's words, then they confirm."""
    await user.slash("president leave")
    reader(f"{user.name} asks to leave")
    asked = user.last_ephemeral().content
    await user.click(user.last_ephemeral(), t(user.user.locale, "btn.quit_game"))
    reader(f"{user.name} leaves")
    return asked


def lines_of(user: TestUser, message_id: int | None) -> list[str]:
    return message(user, message_id).content.split("\n")


async def test_three_seats_emptied_by_leaving(fake: FakeDiscord, clock: LinkedClock,
                                              tmp_path: Path) -> None:
    began = time.monotonic()
    bot = await connect_bot(fake, clock, database_url(tmp_path))
    users = {name: fake.add_user(name, locale=locale) for name, locale in DEVICES.items()}
    marie, bob, claire = users.values()
    reader = Reader(users, DEVICES, dump=DUMP)
    table = await create_table(bot, marie)
    reader("lobby")
    under = t("fr", "lobby.hint_min", min=3, addbot=t("fr", "btn.addbot"))
    assert under in lines_of(marie, table.lobby_message_id)
    lobby = message(marie, table.lobby_message_id)
    for user in (bob, claire):
        await user.click(lobby, cid(table, "join"))
    reader("bob and claire join")
    assert t("fr", "lobby.hint") in lines_of(marie, table.lobby_message_id)
    await marie.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    reader("dealt")
    players = [Player(u) for u in users.values()]
    for player in players:
        await player.open_hand(bot)
    reader("hands open")
    for _ in range(4):
        await act_or_wait(fake, clock, players)
        reader()
    # -- claire leaves mid-round: a bot finishes it, then the lobby ---------------------
    asked = await asked_to_leave(claire, reader)
    assert asked.startswith(t("fr", "leave.confirm.round_lobby")[:40]), asked
    await tick(fake, clock, 1)
    reader("after claire")
    said = t("fr", "ev.left_lobby", name="claire")
    assert f"• {said}" in lines_of(bob, table.table_message_id)
    await play_until(fake, clock, players[:2], lambda: fresh(table).game is None, reader=reader)
    await tick(fake, clock, 1)
    reader("back in the lobby")
    assert under in lines_of(marie, table.lobby_message_id)
    for _ in range(90):  # the hands outlive their tokens in the lobby
        await tick(fake, clock, 10)
        reader()
    reader("a quarter of an hour in the lobby")
    lapsed = t("en", "hand.lapsing_lobby", hand=t("fr", "btn.my_hand"))
    assert players[1].hand.content.startswith(lapsed), players[1].hand.content
    lobby = message(marie, table.lobby_message_id)
    await marie.click(lobby, cid(table, "start"))  # two of three: refused
    reader("marie starts at two")
    await marie.click(lobby, cid(table, "addbot"))
    await marie.click(message(marie, table.lobby_message_id), cid(table, "start"))
    await tick(fake, clock, 1)
    reader("dealt again, with a bot")
    players = [Player(marie), Player(bob)]
    for player in players:
        await player.open_hand(bot)
    reader("hands open again")
    game = fresh(table).game
    assert game is not None
    await play_until(fake, clock, players, lambda: game.phase is Phase.ROUND_OVER, reader=reader)
    await tick(fake, clock, 1)
    reader("round 1 over")
    await marie.click(message(marie, table.table_message_id), cid(table, "next", game.version))
    await tick(fake, clock, 1)
    reader("round 2")
    await play_until(fake, clock, players, lambda: game.phase is Phase.PLAY, reader=reader)
    for _ in range(2):
        await act_or_wait(fake, clock, players)
        reader()
    # -- bob leaves mid-round, then marie, the last one there --------------------------
    await asked_to_leave(bob, reader)
    await tick(fake, clock, 1)
    reader("after bob")
    shown = table.table_message_id
    asked = await asked_to_leave(marie, reader)
    assert asked == t("fr", "leave.confirm.close"), asked
    await tick(fake, clock, 1)
    reader("after marie")
    closing = lines_of(claire, shown)
    assert t("fr", "table.emptied", name="marie") in closing, closing
    await claire.slash("president join")
    reader("claire, too late")
    # -- afterwards ----------------------------------------------------------------------
    histories = {}
    for user in users.values():
        for command in ("president stats", "president history"):
            await user.slash(command)
            reader(f"{user.name} {command}")
        histories[user.name] = user.last_ephemeral().embeds[0].description or ""
    # Both games are in the channel's history: the second's end was stored as it closed.
    assert len(histories["bob"].split("\n")) == 2, histories["bob"]
    reader.close(time.monotonic() - began)
    fake.assert_no_errors()
    await fake.disconnect(bot)


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_others_read_that_a_leaver_leaving_too_few_stops_the_game(
        fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str) -> None:
    """From the play-test: claire left classic's third seat mid-round and her prompt said
    the game would stop at the round's end; marie and bob read « claire quitte la partie ;
    un bot finit la manche », played the round out, then found the lobby. Back there at
    two, the lobby said « appuie sur **Lancer** », which refused them: three are needed.
    The line now says the game stops, and the lobby says the minimum and « Ajouter un bot »."""
    players, table = await three_at_classic(fake, president, clock, locale)
    marie, bob, claire = (p.user for p in players)
    await claire.slash("president leave")
    await claire.click(claire.last_ephemeral(), t(locale, "btn.quit_game"))
    await tick(fake, clock, 1)
    said = "• " + t("fr" if locale == "fr" else "en", "ev.left_lobby", name="claire")
    board = message(bob, table.table_message_id)
    assert said in board.content.split("\n"), board.content
    well_written(board, locale[:2])
    await play_until(fake, clock, players[:2], lambda: fresh(table).game is None)
    await tick(fake, clock, 1)
    lobby = message(marie, table.lobby_message_id)
    under = t(locale, "lobby.hint_min", min=3, addbot=t(locale, "btn.addbot"))
    assert under in lobby.content.split("\n"), lobby.content
    well_written(lobby, locale[:2])
    await marie.click(lobby, cid(table, "addbot"))
    assert t(locale, "lobby.hint") in message(marie, table.lobby_message_id).content
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_hand_lapsing_in_the_lobby_names_no_button_it_lacks(
        fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str) -> None:
    """From the play-test: bob's hand, back in the lobby, read after a quarter of an hour
    « ⏸️ This hand no longer follows the game: **Refresh**, below, or **Ma main** on the
    table message brings it up to date. »: no game, and no « Refresh » below. It now says
    where his cards will be once the game starts."""
    marie = fake.add_user("marie", locale="fr")
    bob = fake.add_user("bob", locale=locale)
    table = await create_table(president, marie)
    await bob.click(message(bob, table.lobby_message_id), cid(table, "join"))
    await bob.slash("president hand")
    shown = bob.last_ephemeral().id
    for _ in range(90):
        await tick(fake, clock, 10)
    hand = message(bob, shown)
    assert hand.content.startswith(t(locale, "hand.lapsing_lobby",
                                     hand=t("fr", "btn.my_hand"))), hand.content
    assert not hand.buttons and not hand.selects
    well_written(hand, locale[:2])
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", LOCALES)
async def test_the_last_one_to_leave_mid_game_is_told_it_closes_the_table_and_its_game_is_kept(
        fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str) -> None:
    """From the play-test: bob left in round 2, then marie, the last one there. Her prompt
    said a bot would finish the round, that the table would go back to its lobby and that
    `/president rejoindre` before the round's end would give her seat back: the table
    closed at once, its messages reading « Cette table est fermée. » alone, and the game,
    a round of it counted, was never stored as ended (the channel's history left it out).
    Now the prompt says the table closes, its messages say who left last, and the game is
    stored as a host's stop stores it."""
    bot = await connect_bot(fake, clock, database_url(tmp_path))
    players, table = await three_at_classic(fake, bot, clock, locale, bots=1)
    game = await round_one_played(fake, clock, players, table)
    await tick(fake, clock, 1)
    marie = players[0].user
    await marie.click(message(marie, table.table_message_id), cid(table, "next", game.version))
    for player in players[1:]:
        await player.user.slash("president leave")
        asked = player.user.last_ephemeral()
        assert asked.content != t(locale, "leave.confirm.close")
        await player.user.click(asked, t(locale, "btn.quit_game"))
    shown = table.table_message_id
    await marie.slash("president leave")
    asked = marie.last_ephemeral()
    assert asked.content == t(locale, "leave.confirm.close"), asked.content
    well_written(asked, locale[:2])
    await marie.click(asked, t(locale, "btn.quit_game"))
    await tick(fake, clock, 1)
    closing = message(marie, shown).content.split("\n")
    assert t(locale, "table.emptied", name="marie") in closing, closing
    await marie.slash("president history")
    history = marie.last_ephemeral().embeds[0].description or ""
    assert len(history.split("\n")) == 1 and t(locale, "history.no_winner") in history, history
    fake.assert_no_errors()
    await fake.disconnect(bot)
