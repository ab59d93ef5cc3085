"""End-to-end: play-test 40 (stop 57), big tables and mixed bots. In one server at the
same time: marie (fr) hosts an 8-seat wild7 table in #general with claire (fr), bob
(en-US), dave (en-GB) and four bots of three levels; alice (en-US) hosts a 6-seat
proletario table in #autre with emile (fr), fred (en-GB), an easy bot and two bots filling
the table. « Conseil » on at wild7; fred goes absent (the autopilot plays for him); dave
leaves mid-round (a bot finishes it); the bot process restarts mid-round; both games are
played out and `/president stats`, `leaderboard` and `history` are read against them
(docs/bot.md « Play-test 40: big tables, mixed bots (stop 57) »)."""

from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import plural, t
from bot.packages.rules_text import played_name
from bot.storage import jsoncodec
from bot.tables import thinking
from bot.tables.table import Table
from engine import Phase, Rules
from fakediscord import FakeDiscord, TestUser
from fakediscord.calls import CallRecord

from .conftest import LinkedClock
from .e2e import (
    Player,
    cid,
    connect_bot,
    create_table,
    database_url,
    host_against_bots,
    leave_game,
    message,
    play_every_round,
    record_charts,
    restart,
    tick,
)
from .reading import read, well_written
from .test_e2e_settings import open_form

DUMP = os.environ.get("PT40_DUMP")
SAMPLES = 2
ROLES = ("P", "VP", "N", "VL", "L")


def out(*words: object) -> None:
    if DUMP:
        with open(DUMP, "a", encoding="utf-8") as f:
            print(*words, file=f)


def sampled(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every process's hard bots search SAMPLES deals, in a thread."""
    build = thinking.Thinker.__init__

    def fixed(self: thinking.Thinker, workers: int | None = None) -> None:
        build(self, workers)
        self.samples = SAMPLES
        self.in_processes = False

    monkeypatch.setattr(thinking.Thinker, "__init__", fixed)


def snapshot_size(table: Table) -> int:
    return len(jsoncodec.dumps(table.to_dict()))


def table_in(bot: PresidentBot, user: TestUser) -> Table:
    table = bot.service.registry.in_channel(user.channel.id)
    assert table is not None
    return table


async def reopen(bot: PresidentBot, players: list[Player]) -> None:
    for player in players:
        await player.open_hand(bot)


# A round's result line, in either language: « 1. **🤖 Bot 3** · Président · +3 à cette
# manche, total 3 pts », "1. **emile** · President · +3 this round, total 3 pts".
RESULT = re.compile(r"^\d+\. \*\*([^*]+)\*\* · ([^·]+) · \+(\d+) ")
HUMANS = {"marie": "fr", "claire": "fr", "bob": "en-US", "dave": "en-GB",
          "alice": "en-US", "emile": "fr", "fred": "en-GB"}


class Evening:
    """What the two tables showed, to check the end against, and the figures measured."""

    def __init__(self) -> None:
        self.roles: dict[str, Counter[str]] = {name: Counter() for name in HUMANS}
        self.boards: dict[str, list[int]] = {"wild7": [], "proletario": []}
        self.snapshots: dict[str, list[int]] = {"wild7": [], "proletario": []}
        self.calls: list[int] = []   # calls after each wild7 bot move (one move, a tick)
        self.hands: list[int] = []   # hands open at wild7 then

    def round_over(self, preset: str, board: str, table: Table) -> None:
        self.boards[preset].append(len(board))
        self.snapshots[preset].append(snapshot_size(table))
        start = board.index("🏁 **")
        for line in board[start:].split("\n"):
            found = RESULT.match(line)
            if found and found[1] in HUMANS:  # a leaver's line reads « 🤖 dave »: not theirs
                self.roles[found[1]][found[2]] += 1


async def test_big_tables_mixed_bots(fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The two tables at once, as the module says; every table message, hand, panel,
    lobby and answer read within Discord's limits and in its reader's language; the
    figures (table message, calls per bot move, snapshot) kept; at the end each one's
    stats count the roles the round lines gave them, and the history names each game as
    its table did."""
    sampled(monkeypatch)
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    autre = fake.add_channel(fake.guild, "autre")
    users = {name: fake.add_user(name, locale=locale) for name, locale in HUMANS.items()}
    for name in ("alice", "emile", "fred"):
        users[name].channel = autre
    marie, alice = users["marie"], users["alice"]
    # -- #general: wild7 at eight, bots of three levels, « Conseil » on, two rounds --------
    await marie.slash("president create", preset="wild7")
    wild = table_in(bot, marie)
    for name in ("claire", "bob", "dave"):
        await users[name].click(message(users[name], wild.lobby_message_id), cid(wild, "join"))
    await marie.select(message(marie, wild.lobby_message_id), ["easy"],
                       select=cid(wild, "addbot_level"))
    await marie.slash("president addbot", level="hard")
    await marie.slash("president addbot", level="normal")
    await marie.slash("president settings")
    await marie.click(marie.last_ephemeral(), cid(wild, "bot_level"))
    assert t("fr", "settings.bot_level_saved", level=t("fr", "level.hard")) \
        in marie.last_ephemeral().content
    await marie.click(marie.last_ephemeral(), cid(wild, "hints"))
    await open_form(marie, "game_end")
    await marie.modal_submit({"Nouvelle valeur": "2 manches"})
    well_written(marie.last_ephemeral(), "fr")
    await marie.click(marie.last_ephemeral(), cid(wild, "done"))
    await marie.click(message(marie, wild.lobby_message_id), cid(wild, "addbot"))
    assert [(p.name, p.level) for p in wild.seats if p.is_bot] == [
        ("Bot 1", "easy"), ("Bot 2", "hard"), ("Bot 3", "normal"), ("Bot 4", "hard")]
    lobby = message(marie, wild.lobby_message_id)
    well_written(lobby, "fr")
    assert "À la table (8/8)\u00a0:" in lobby.content and wild.hints
    # -- #autre: proletario opened to six, two rounds; an easy bot, the rest filled --------
    await alice.slash("president create", preset="proletario")
    prole = table_in(bot, alice)
    await alice.slash("president settings")
    await open_form(alice, "max_players")
    await alice.modal_submit({"New value": "6"})
    await open_form(alice, "game_end")
    await alice.modal_submit({"New value": "2 rounds"})
    well_written(alice.last_ephemeral(), "en-US")
    await alice.click(alice.last_ephemeral(), cid(prole, "done"))
    for name in ("emile", "fred"):
        await users[name].click(message(users[name], prole.lobby_message_id),
                                cid(prole, "join"))
    await alice.slash("president addbot", level="easy")
    await tick(fake, clock, 1)
    lobby = message(alice, prole.lobby_message_id)
    well_written(lobby, "en-US")
    assert "Players (4/6):" in lobby.content
    assert plural("en-US", "lobby.hint_fill", 2) in lobby.content.split("\n")
    # -- both start ------------------------------------------------------------------------
    await marie.click(message(marie, wild.lobby_message_id), cid(wild, "start"))
    await alice.click(message(alice, prole.lobby_message_id), cid(prole, "start"))
    await tick(fake, clock, 1)
    assert [(p.name, p.level) for p in prole.seats if p.is_bot] == [
        ("Bot 1", "easy"), ("Bot 2", "normal"), ("Bot 3", "normal")]
    wg, pg = wild.game, prole.game
    assert wg is not None and pg is not None and wg.seats == 8 and pg.seats == 6
    # An eight-seat wild7 hand holds six or seven cards: one menu per count, no second page.
    assert sorted(len(h) for h in wg.hands) == [6, 6, 6, 6, 7, 7, 7, 7]
    wp = [Player(users[n]) for n in ("marie", "claire", "bob", "dave")]
    pp = [Player(users[n]) for n in ("alice", "emile")]  # fred stays away: timers, autopilot
    fred = Player(users["fred"])
    await reopen(bot, wp + pp + [fred])
    for player in wp + pp + [fred]:
        well_written(player.hand, HUMANS[player.user.name])
    board = message(marie, wild.table_message_id)
    well_written(board, "fr")
    assert "**🤖 Bot 2** · 6 cartes · 0\u00a0pt · niveau difficile" in board.content
    seen = Evening()
    everyone = wp + pp
    general = str(fake.channel.id)
    wild7_names = {"marie", "claire", "bob", "dave"}

    def at_wild7(call: CallRecord) -> bool:
        """A call for the wild7 table: its channel's, or on one of its players' tokens."""
        return general in call.path or call.user in wild7_names

    begun, moves = fake.mark(), wg.version
    dumped: dict[str, str] = {}
    hinted = left = restarted = False
    for _ in range(3000):
        if wg.phase is Phase.GAME_OVER and pg.phase is Phase.GAME_OVER:
            break
        claire = wp[1]
        if not hinted and any(":hint:" in (b.custom_id or "") for b in claire.hand.buttons):
            await claire.user.click(claire.hand, cid(wild, "hint", wg.version))
            advice = claire.user.last_ephemeral()
            well_written(advice, "fr")
            assert advice.content.startswith("💡 ")
            hinted = True
        if not left and wg.phase is Phase.PLAY and wg.version > 20:
            await leave_game(users["dave"])
            wp = [p for p in wp if p.user.name != "dave"]
            everyone = wp + pp
            left = True
            await tick(fake, clock, 1)
            board = message(marie, wild.table_message_id)
            well_written(board, "fr")
            assert "**🤖 dave** · 7 cartes · 0\u00a0pt · niveau normal" in board.content
            assert "• " + t("fr", "ev.left", name="dave") in board.content
        if left and not restarted and wg.phase is Phase.PLAY and wg.version > 40:
            versions = (wg.version, pg.version)
            seen.snapshots["restart"] = [snapshot_size(wild), snapshot_size(prole)]
            bot = await restart(fake, clock, bot, url)
            wild, prole = table_in(bot, marie), table_in(bot, alice)
            wg, pg = wild.game, prole.game
            assert wg is not None and pg is not None
            # Each game back where it stood, but for a bot's move due in the new process's
            # first second (`RESTART_UP`).
            assert 0 <= wg.version - versions[0] <= 1 and 0 <= pg.version - versions[1] <= 1
            assert wild.hints and [p.level for p in wild.seats if p.is_bot] == [
                "normal", "easy", "hard", "normal", "hard"]  # dave's stand-in, then the four
            for player in everyone:  # the hands open before go on, redrawn by the new process
                well_written(player.hand, HUMANS[player.user.name])
                table = table_in(bot, player.user)
                game = wg if table is wild else pg
                seat = table.seat_of(player.user.id)
                assert seat is not None
                assert f"** ({len(game.hands[seat])})" in player.hand.content
            restarted = True
        for table, game, host in ((wild, wg, marie), (prole, pg, alice)):
            if game.phase is Phase.ROUND_OVER:
                await tick(fake, clock, 1)
                board = message(host, table.table_message_id)
                well_written(board, "fr" if host is marie else "en-US")
                seen.round_over(table.rules.preset_id, board.content, table)
                await host.click(board, cid(table, "next", game.version))
                await tick(fake, clock, 1)
                await reopen(bot, [p for p in everyone if table_in(bot, p.user) is table])
        if DUMP:
            for player in everyone + [fred]:
                shown = read(player.hand)
                if shown != dumped.get(player.user.name):
                    dumped[player.user.name] = shown
                    out("HAND", player.user.name, len(player.hand.content), shown)
        mark, version = fake.mark(), wg.version
        for player in everyone:
            if await player.act():
                break
        else:
            await tick(fake, clock, 1)
            if wg.version == version + 1 and wg.phase is Phase.PLAY:  # a bot's or a timer's
                seen.calls.append(len([c for c in fake.calls_since(mark) if at_wild7(c)]))
    assert hinted and left and restarted
    assert wg.phase is Phase.GAME_OVER and pg.phase is Phase.GAME_OVER
    spent = len([c for c in fake.calls_since(begun) if at_wild7(c)])
    out("CALLS wild7", spent, "moves", wg.version - moves, "per bot move", Counter(seen.calls))
    # A bot's move at eight seats costs the table message's edit and one per open hand:
    # four once dave left (marie's, claire's, bob's), five before.
    assert Counter(seen.calls).most_common(1)[0][0] == 4 and max(seen.calls) <= 7, seen.calls
    assert max(seen.boards["wild7"]) <= 1500, seen.boards
    for table, host, locale in ((wild, marie, "fr"), (prole, alice, "en-US")):
        await tick(fake, clock, 1)
        board = message(host, table.table_message_id)
        well_written(board, locale)
        seen.round_over(table.rules.preset_id, board.content, table)
        out("GAME OVER", table.rules.preset_id, len(board.content), board.content)
    out("BOARDS", seen.boards, "SNAPSHOTS", seen.snapshots)
    # -- what each one reads afterwards -----------------------------------------------------
    counted = {"marie": 2, "claire": 2, "bob": 2, "dave": 1, "alice": 2, "emile": 2, "fred": 2}
    for name, user in users.items():
        locale = HUMANS[name]
        preset = "wild7" if name in wild7_names else "proletario"
        await user.slash("president stats")
        well_written(user.last_ephemeral(), locale)
        [stats] = user.last_ephemeral().embeds
        assert stats.description is not None
        rows = stats.description.split("\n")
        out("STATS", name, rows)
        assert plural(locale, "n.rounds", counted[name]) in rows[0]
        roles = Counter({t(locale, f"role.{preset}.{code}"): seen.roles[name][
            t("fr" if preset == "wild7" else "en", f"role.{preset}.{code}")] for code in ROLES})
        shown = " · ".join(t(locale, "stats.role_count", n=n, role=role)
                           for role, n in roles.items() if n)
        assert (rows[-1] if shown else "") == shown, (rows, roles)
        await user.slash("president leaderboard")
        well_written(user.last_ephemeral(), locale)
        await user.slash("president history")
        page = user.last_ephemeral()
        well_written(page, locale)
        [past] = page.embeds
        assert past.description is not None
        out("HISTORY", name, past.description)
        # The game as its table titled it: the proletario at six is « Proletario ».
        title = t(locale, "preset.wild7") if preset == "wild7" \
            else t(locale, "preset_plain.proletario")
        assert f" · {title} · {plural(locale, 'n.rounds', 2)} · " in past.description
    fake.assert_no_errors()
    await fake.disconnect(bot)


@pytest.mark.parametrize("locale", ["fr", "en-US"])
async def test_a_past_game_is_named_as_its_table_titled_it(
        fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, locale: str) -> None:
    """alice plays a round of proletario opened to six against five bots, then one at its
    four seats. The history listed both as « Proletario (4 places, jokers) », the game at
    six too, whose lobby and table message had read « Proletario » (play-test 19's
    `table_preset_name`); its chart's title as well. Each is named now as its table was."""
    drawn = record_charts(monkeypatch)
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    alice = Player(fake.add_user("alice", locale=locale))
    for seats in (6, 4):
        table = await host_against_bots(bot, alice.user, "proletario", 0,
                                        max_players=seats, game_end="rounds:1")
        await tick(fake, clock, 1)
        assert table.game is not None and table.game.seats == seats
        await alice.open_hand(bot)
        await play_every_round(fake, clock, table, [alice])
        await alice.user.slash("president end")
        await tick(fake, clock, 1)
    await alice.user.slash("president history")
    page = alice.user.last_ephemeral()
    [listed] = page.embeds
    assert listed.description is not None
    names = [line.split(" · ")[1] for line in listed.description.split("\n")]
    assert names == [t(locale, "preset.proletario"), t(locale, "preset_plain.proletario")]
    [menu] = page.selects
    await alice.user.select(page, [menu.options[1].value], select=menu.custom_id)
    [chart] = alice.user.last_ephemeral().embeds
    assert chart.title == t(locale, "history.chart_title",
                            preset=t(locale, "preset_plain.proletario"))
    assert len(drawn[-1].names) == 6  # the game at six
    fake.assert_no_errors()
    await fake.disconnect(bot)


def test_a_past_game_s_rules_unread_name_its_preset() -> None:
    """Rules a version cannot read (a knob it does not know, a preset it does not have)
    name the game by its preset, or by the id stored."""
    six = Rules.preset("proletario", max_players=6).to_dict()
    assert played_name("fr", "proletario", six) == "Proletario"
    assert played_name("fr", "proletario", {"preset": "proletario"}) == \
        "Proletario (4 places, jokers)"
    assert played_name("fr", "proletario", {"preset": "proletario",
                                            "set": {"warp": 9}}) == \
        "Proletario (4 places, jokers)"
    assert played_name("en", "proletario", None) == "Proletario (4 seats, jokers)"
    assert played_name("en", "wild7", six) == "Wild 7s"  # another preset's rules: not these
    assert played_name("en", "tarot", six) == "tarot"


@pytest.mark.parametrize("locale", ["fr", "en-US"])
async def test_a_lobby_whose_bots_fill_it_says_how_many_the_start_seats(
        fake: FakeDiscord, president: PresidentBot, clock: LinkedClock, locale: str) -> None:
    """alice opens proletario to six and emile joins: the lobby read « Joueurs (2/6) » and
    « L’hôte … appuie sur Lancer », and the start dealt four bots nobody had asked for. It
    says now that bots take the empty seats, how many, until none is left."""
    alice = fake.add_user("alice", locale=locale)
    table = await create_table(president, alice, "proletario")
    await president.service.set_rules(table, alice.id, table.rules.replace(max_players=6))
    await tick(fake, clock, 1)
    seen = []
    for name in ("emile", "fred", "gil", "hal", "ivo"):
        user = fake.add_user(name)
        await user.click(message(user, table.lobby_message_id), cid(table, "join"))
        await tick(fake, clock, 1)
        lobby = message(alice, table.lobby_message_id)
        well_written(lobby, locale)
        seen.append(lobby.content.split("\n")[-2])
    assert seen == [plural(locale, "lobby.hint_fill", n) for n in (4, 3, 2, 1)] + [
        t(locale, "lobby.hint")]
    assert seen[-2] == t(locale, "lobby.hint_fill.one")
    await alice.click(message(alice, table.lobby_message_id), cid(table, "start"))
    assert table.game is not None and table.game.seats == 6
    fake.assert_no_errors()
