"""End-to-end: play-test 43 (stop 59), presi against two bots, then wild7 at six, with a
redeploy in the middle of an exchange. marie (fr) hosts in a server that chose no language
(the public messages speak French): presi « contre des bots », two rounds; between the
tables she turns the bots' level to hard and « Conseil » on; wild7 at six seats in the same
channel with paul (a French device, English chosen with `/president my-language`), bob
(en-US), claire (fr) and two hard bots. paul asks « Conseil » and plays what it says; claire
goes idle and the autopilot plays for her; the bot process restarts mid-exchange; both games
are played out and each reads `/president stats`, `leaderboard` and `history`. Every
message each one sees is read each time it changes (docs/bot.md « Play-test 43: presi, then
wild7, a redeploy mid-exchange (stop 59) »)."""

from __future__ import annotations

import os
import time
from collections import Counter
from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import plural, t
from bot.tables.table import Table
from engine import Phase
from engine.bots.normal import decided
from engine.view import player_view
from fakediscord import FakeDiscord, TestUser
from tests.fresh import fresh

from .conftest import LinkedClock
from .e2e import (
    Player,
    act_or_wait,
    cid,
    connect_bot,
    create_table,
    database_url,
    leave_game,
    message,
    play_until,
    restart,
    tick,
)
from .reading import Reader, well_written
from .test_e2e_playtest40 import sampled
from .test_e2e_settings import open_form

DUMP = os.environ.get("PT43_DUMP")  # a file to write every message read to, to read it through
DEVICES = {"marie": "fr", "paul": "fr", "bob": "en-US", "claire": "fr"}
CHOSEN = {"paul": "en"}
HERE = {"marie": "fr", "paul": "en", "bob": "en-US", "claire": "fr"}  # what each one reads


def table_in(bot: PresidentBot, user: TestUser) -> Table:
    table = bot.service.registry.in_channel(user.channel.id)
    assert table is not None
    return table


def refused(user: TestUser, text: str) -> None:
    answer = user.last_ephemeral()
    assert answer.ephemeral and answer.content.startswith("⚠️ " + text), answer.content


async def follow_hint(table: Table, player: Player, reader: Reader) -> str:
    """``player`` presses « Conseil » on their turn and plays what it advises: the advice."""
    game = table.game
    assert game is not None
    seat = table.seat_of(player.user.id)
    assert seat is not None and game.to_act == seat
    await player.user.click(player.hand, cid(table, "hint", game.version))
    advice = player.hand.content
    reader("paul's hint")
    action, _ = decided(player_view(game, seat))
    option = action.option
    if option is None:
        button = next(b.custom_id for b in player.hand.buttons
                      if b.custom_id and ":pass:" in b.custom_id)
        await player.user.click(player.hand, button)
        return advice
    wanted = sorted(str(c) for c in option.cards)
    for menu in player.hand.selects:
        for choice in menu.options:
            shown, _, said = choice.value.partition("|")
            if ":play:" in menu.custom_id and sorted(shown.split(".")) == wanted \
                    and said == (option.announce or ""):
                await player.user.select(player.hand, [choice.value], select=menu.custom_id)
                return advice
    raise AssertionError(f"{wanted} is not offered to {player.user.name}")


def waiting_on(table: Table) -> set[int]:
    """The people whose gift the exchange waits for."""
    game = table.game
    assert game is not None
    return {uid for seat, player in enumerate(table.seats)
            if (uid := player.user_id) is not None and game.exchange_due(seat) is not None}


async def test_presi_against_bots_then_wild7_at_six_with_a_redeploy_mid_exchange(
        fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    began = time.monotonic()
    sampled(monkeypatch)
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    users = {name: fake.add_user(name, locale=locale) for name, locale in DEVICES.items()}
    marie, paul, bob, claire = users.values()
    reader = Reader(users, DEVICES, dump=DUMP)
    reader.chosen.update(CHOSEN)
    await paul.slash("president my-language", language="en")
    reader("paul chooses English")
    # -- presi against two bots, two rounds ------------------------------------------------
    await marie.slash("president create", preset="presi")
    presi = table_in(bot, marie)
    await marie.slash("president settings")
    await open_form(marie, "game_end")
    await marie.modal_submit({"Nouvelle valeur": "2 manches"})
    await marie.click(marie.last_ephemeral(), cid(presi, "done"))
    reader("presi lobby")
    lobby = message(marie, presi.lobby_message_id)
    await paul.click(lobby, cid(presi, "vsbots"))  # the host's
    reader("paul presses vs bots")
    await marie.click(lobby, cid(presi, "vsbots"))
    await tick(fake, clock, 1)
    game = fresh(presi).game
    assert game is not None and game.seats == 3
    host = Player(marie)
    await host.open_hand(bot)
    reader("presi dealt")
    await marie.slash("president settings")  # mid-game: refused
    reader("marie's settings mid-game")
    assert "**Conseil**" in marie.last_ephemeral().content  # what she wanted, and when
    await paul.click(message(paul, presi.table_message_id), cid(presi, "hand"))  # watching
    reader("paul's hand, watching presi")
    calls: list[int] = []  # Discord calls after each step of the play (a move, or a second)
    while fresh(game).phase is not Phase.GAME_OVER:
        if game.phase is Phase.ROUND_OVER:
            await tick(fake, clock, 1)
            reader("presi round over")
            await marie.click(message(marie, presi.table_message_id),
                              cid(presi, "next", game.version))
            await tick(fake, clock, 1)
            reader("presi next round")
            continue
        mark = fake.mark()
        await act_or_wait(fake, clock, [host])
        calls.append(len(fake.calls_since(mark)))
        reader()
    await tick(fake, clock, 1)
    reader("presi game over")
    at_presi = len(calls)
    board = message(marie, presi.table_message_id).content
    assert "Culo" in board and "Trou du cul" not in board, board
    # -- between tables: the bots' level and « Conseil » ------------------------------------
    await marie.click(message(marie, presi.table_message_id), cid(presi, "end", fresh(game).version))
    await tick(fake, clock, 1)
    reader("presi back to lobby")
    await marie.slash("president settings")
    panel = marie.last_ephemeral()
    await marie.click(panel, cid(presi, "bot_level"))  # normal → hard
    await marie.click(marie.last_ephemeral(), cid(presi, "hints"))
    reader("panel: hard, hints")
    await marie.click(marie.last_ephemeral(), cid(presi, "done"))
    await marie.slash("president end")  # the lobby closes
    await tick(fake, clock, 1)
    reader("presi closed")
    # -- wild7 at six ------------------------------------------------------------------------
    await marie.slash("president create", preset="wild7")
    wild = table_in(bot, marie)
    reader("wild7 lobby")
    for user in (paul, bob, claire):
        await user.click(message(user, wild.lobby_message_id), cid(wild, "join"))
    for _ in range(2):
        await marie.click(message(marie, wild.lobby_message_id), cid(wild, "addbot"))
    await marie.slash("president settings")
    await open_form(marie, "game_end")
    await marie.modal_submit({"Nouvelle valeur": "2 manches"})
    await open_form(marie, "autopilot_after_timeouts")
    await marie.modal_submit({"Nouvelle valeur": "2"})
    reader("wild7 panel")
    await marie.click(marie.last_ephemeral(), cid(wild, "done"))
    reader("wild7 lobby full")
    assert [(p.name, p.level) for p in wild.seats if p.is_bot] == [
        ("Bot 1", "hard"), ("Bot 2", "hard")] and wild.hints
    await marie.click(message(marie, wild.lobby_message_id), cid(wild, "start"))
    await tick(fake, clock, 1)
    wg = fresh(wild).game
    assert wg is not None and wg.seats == 6
    people = [Player(users[n]) for n in ("marie", "paul", "bob")]
    idle = Player(claire)
    for player in people + [idle]:
        await player.open_hand(bot)
    reader("wild7 dealt")
    hinted = restarted = False
    while True:
        wild = table_in(bot, marie)
        wg = wild.game
        assert wg is not None
        if wg.phase is Phase.GAME_OVER:
            break
        if wg.phase is Phase.ROUND_OVER:
            await tick(fake, clock, 1)
            reader("wild7 round over")
            if not restarted:  # claire is back: she resumes from her hand
                shown = wg.version
                resume = next(b.custom_id for b in idle.hand.buttons
                              if b.custom_id and ":resume:" in b.custom_id)
                await claire.click(idle.hand, resume)
                people.append(idle)
                reader("claire resumes")
                # marie presses « Manche suivante » as she sees it, drawn before that
                await marie.click_shown(message(marie, wild.table_message_id),
                                        cid(wild, "next", shown))
                reader("marie's next, drawn before claire resumed")
                assert fresh(wg).phase is Phase.EXCHANGE  # dealt, not refused as late
                await tick(fake, clock, 1)
                reader()
            if fresh(wg).phase is Phase.ROUND_OVER:
                await marie.click(message(marie, wild.table_message_id),
                                  cid(wild, "next", wg.version))
            if restarted:
                await tick(fake, clock, 1)
                reader("wild7 next round")
                continue
            # The low roles' best cards went at once; the high roles' returns are due: the
            # bot stops as a redeploy stops it, before anyone gave back.
            reader("wild7 exchange")
            due = [p.user.name for p in people if p.user.id in waiting_on(wild)]
            bot = await restart(fake, clock, bot, url)
            restarted = True
            reader("after the redeploy")
            assert [(p.name, p.level) for p in table_in(bot, marie).seats if p.is_bot] == [
                ("Bot 1", "hard"), ("Bot 2", "hard")] and table_in(bot, marie).hints
            wild = table_in(bot, marie)
            restored = fresh(wild).game
            assert restored is not None and restored.phase is Phase.EXCHANGE
            assert due, "nobody at the table owed a gift at the redeploy"
            # claire asks « Conseil » from the hand she opened before the redeploy.
            hint = next(b.custom_id for b in idle.hand.buttons
                        if b.custom_id and ":hint:" in b.custom_id)
            await claire.click(idle.hand, hint)
            reader("claire's hint in the exchange, after the redeploy")
            assert idle.hand.content.startswith("💡 " + t("fr", "hint.give", cards="",
                                                          reason="")[2:12]), idle.hand.content
            await bob.slash("president settings")
            reader("bob's settings")
            continue
        if not hinted and wg.phase is Phase.PLAY and wg.to_act == wild.seat_of(paul.id):
            advice = await follow_hint(wild, people[1], reader)
            reader("paul follows it")
            assert advice.startswith("💡 The normal bot would"), advice
            hinted = True
            await tick(fake, clock, 1)
            reader()
            continue
        mark = fake.mark()
        await act_or_wait(fake, clock, people)
        calls.append(len(fake.calls_since(mark)))
        reader()
    await tick(fake, clock, 1)
    reader("wild7 game over")
    board = message(marie, wild.table_message_id).content
    assert "Trou du cul" in board and "Culo" not in board, board
    assert hinted and restarted
    # -- afterwards --------------------------------------------------------------------------
    for user in users.values():
        answers = []
        for command in ("president stats", "president leaderboard", "president history"):
            await user.slash(command)
            answers.append(user.last_ephemeral().embeds[0].description or "")
            reader(f"{user.name} {command}")
        stats, ranked, history = answers
        rounds = 4 if user is marie else 2  # marie: presi's two and wild7's
        assert plural(HERE[user.name], "n.rounds", rounds) in stats.split("\n")[0], stats
        assert len(ranked.split("\n")) == 4 and len(history.split("\n")) == 2, history
    if DUMP:
        with open(DUMP, "a", encoding="utf-8") as f:
            print("FIGURES", reader.read, Counter(calls[:at_presi]), Counter(calls[at_presi:]),
                  dict(reader.longest),
                  time.monotonic() - began, file=f)
    assert Counter(calls).most_common(1)[0][0] <= 5, Counter(calls)
    assert reader.longest["public"] <= 1500 and reader.longest["private"] <= 1500
    fake.assert_no_errors()
    await fake.disconnect(bot)


@pytest.mark.parametrize("redrawn", [False, True])
async def test_the_host_s_next_round_holds_when_a_seat_changes_at_the_round_s_end(
        fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, redrawn: bool) -> None:
    """From the play-test: at round 1's end claire pressed « Reprendre » as marie pressed
    « Manche suivante » on the table message she saw, and marie was told « Ce bouton date
    d’un moment antérieur de la partie ; utilise le message le plus récent de la table »,
    on the table's latest message: a seat's change between rounds (a resume, a leave)
    moves the game's version, and every host button drawn before it was refused. The
    choice they offer is the same until the next round is dealt: it holds, whether the
    click reaches the bot before the table message's redraw or after it."""
    marie = Player(fake.add_user("marie", locale="fr"))
    bob = Player(fake.add_user("bob", locale="en-US"))
    table = await create_table(president, marie.user)
    lobby = message(marie.user, table.lobby_message_id)
    await bob.user.click(lobby, cid(table, "join"))
    for _ in range(2):
        await marie.user.click(lobby, cid(table, "addbot"))
    await marie.user.click(lobby, cid(table, "start"))
    await tick(fake, clock, 1)
    await marie.open_hand(president)
    await bob.open_hand(president)
    game = fresh(table).game
    assert game is not None
    await play_until(fake, clock, [marie, bob], lambda: game.phase is Phase.ROUND_OVER)
    await tick(fake, clock, 1)
    board = message(marie.user, table.table_message_id)
    shown = game.version
    await leave_game(bob.user)  # between rounds: his seat is freed, the version moves
    assert fresh(game).version > shown
    if redrawn:
        await tick(fake, clock, 1)
        assert cid(table, "next", shown) not in [b.custom_id for b in
                                                  message(marie.user, board.id).buttons]
    await marie.user.click_shown(board, cid(table, "next", shown))
    assert fresh(game).phase is not Phase.ROUND_OVER and game.round_no == 2
    assert not marie.user.last_ephemeral().content.startswith("⚠️"), \
        marie.user.last_ephemeral().content
    # Once the round is dealt, the same button is late again.
    await marie.user.click_shown(board, cid(table, "next", shown))
    assert marie.user.last_ephemeral().content.startswith("⚠️ " + t("fr", "err.stale_button"))
    assert game.round_no == 2
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", ["fr", "en-US"])
async def test_settings_refused_mid_game_say_the_bots_level_and_hints_wait_for_the_lobby(
        fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str) -> None:
    """From the play-test: marie, against two bots, typed `/president settings` to turn
    « Conseil » on and read only « Les règles sont figées une fois la partie lancée :
    `/president règles` les affiche. », which answered a question she had not asked. The
    refusal now says the table's settings are fixed too, and where they change."""
    host = fake.add_user("marie", locale=locale)
    table = await create_table(president, host, "presi")
    await host.click(message(host, table.lobby_message_id), cid(table, "vsbots"))
    await tick(fake, clock, 1)
    assert fresh(table).game is not None
    await host.slash("president settings")
    answer = host.last_ephemeral()
    well_written(answer, locale)
    hints = "**Conseil**" if locale == "fr" else "**Hint**"
    lobby = "salon d’attente" if locale == "fr" else "lobby"
    assert answer.ephemeral and answer.content.startswith("⚠️ ") and hints in answer.content \
        and lobby in answer.content, answer.content
    fake.assert_no_errors()
