"""End-to-end: play-test 36 (stop 52), two servers and a restart mid-tournament: « Le
Cercle » (French) and « The Club » (English) each hold a tournament night, several tables
at once on each, when the bot is redeployed; everyone plays on (docs/bot.md « Play-test
36: two servers and a restart (stop 52) »)."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import discord
import pytest

from bot.client import PresidentBot
from bot.i18n import LocaleLike, t
from bot.packages.cards.emojis import CardFaces
from bot.packages.game import chart
from bot.packages.publisher.hands import FACES_WAIT
from bot.tables.budget import CallBudget
from bot.tables.persistence import StorageStore
from bot.tables.players import Player as TablePlayer
from bot.tables.table import Table
from engine import Card, Phase
from engine.events import RoundOver
from fakediscord import CallRecord, Channel, FakeDiscord, Guild, TestUser
from fakediscord.forge import MANAGE_GUILD, Forger
from fakediscord.limits import BUTTON
from fakediscord.state import APPLICATION_COMMAND, MESSAGE_COMPONENT

from .conftest import LinkedClock
from .e2e import after_restart, cid, connect_bot, database_url, record_charts, restart, tick
from .stored import stored_game
from .test_e2e_playtest7_restarts import dies_between_changes, marie_and_leo_stored
from .test_e2e_playtest34 import Night, SeatedAt, play_out, seat_and_start, shown


@dataclass
class Servers:
    """The two servers of the night, their channels, their people and their tables."""

    bot: PresidentBot
    url: str
    cercle: Guild
    club: Guild
    channels: dict[str, Channel]
    users: dict[str, TestUser]
    tables: dict[str, tuple[Table, Channel, list[SeatedAt]]] = field(default_factory=dict)

    def table(self, name: str) -> Table:
        return self.tables[name][0]

    def players(self, name: str) -> list[SeatedAt]:
        return self.tables[name][2]


# Who plays where: (server, channel, preset, humans, bots, rules). marie plays on both.
FRENCH = ("marie", "bob", "chloe", "dave", "emma", "gael", "hana")
ENGLISH = ("alice", "ben", "cara", "dan", "eve", "fred", "gina")


async def two_servers(fake: FakeDiscord, clock: LinkedClock, tmp_path: Path) -> Servers:
    """The two servers, their channels and members; the bot connected, storing."""
    url = database_url(tmp_path)
    bot = await connect_bot(fake, clock, url, bot_pause=1.0)
    cercle = fake.add_guild("Le Cercle", locale="fr")
    club = fake.add_guild("The Club")
    channels = {name: fake.add_channel(cercle, name) for name in ("cartes", "pause", "fini")}
    channels.update({name: fake.add_channel(club, name) for name in ("cards", "quick")})
    await fake.settle()
    users = {name: fake.add_user(name, locale="fr", guilds=[cercle])
             for name in FRENCH if name != "marie"}
    users["marie"] = fake.add_user("marie", locale="fr", guilds=[cercle, club])
    users.update({name: fake.add_user(name, guilds=[club]) for name in ENGLISH})
    channels["finale"] = fake.add_thread(channels["cartes"], "finale", users["chloe"])
    await fake.settle()
    return Servers(bot, url, cercle, club, channels, users)


def night_of(servers: Servers, *names: str) -> Night:
    return Night(servers.bot, [servers.tables[name] for name in names])


async def tournament(fake: FakeDiscord, clock: LinkedClock, tmp_path: Path) -> Servers:
    """Every table of the night, each where the restart finds it:
    - Cercle #cartes: classic, marie, bob and a bot, mid-round;
    - Cercle thread « finale » under #cartes: presi, chloe against two bots, in round 2's
      exchange;
    - Cercle #pause: wild7, dave hosting emma and a bot, emma on her own break;
    - Cercle #fini: classic to one round, gael, hana and a bot, finished just before;
    - Club #cards: proletario (no set end), alice, ben, cara and dan, eve in its queue;
    - Club #quick: classic to one round, fred, gina and marie, finished just before."""
    servers = await two_servers(fake, clock, tmp_path)
    bot, u, ch = servers.bot, servers.users, servers.channels
    servers.tables["fini"] = await seat_and_start(
        fake, clock, bot, ch["fini"], "classic", [u["gael"], u["hana"]], 1)
    servers.tables["quick"] = await seat_and_start(
        fake, clock, bot, ch["quick"], "classic", [u["fred"], u["gina"], u["marie"]], 0)
    servers.tables["cartes"] = await seat_and_start(
        fake, clock, bot, ch["cartes"], "classic", [u["marie"], u["bob"]], 1,
        game_end="rounds:3")
    servers.tables["finale"] = await seat_and_start(
        fake, clock, bot, ch["finale"], "presi", [u["chloe"]], 2, game_end="rounds:3")
    servers.tables["pause"] = await seat_and_start(
        fake, clock, bot, ch["pause"], "wild7", [u["dave"], u["emma"]], 1,
        game_end="rounds:3")
    servers.tables["cards"] = await seat_and_start(
        fake, clock, bot, ch["cards"], "proletario",
        [u["alice"], u["ben"], u["cara"], u["dan"]], 0, game_end="unlimited")
    cards = servers.table("cards")
    await u["eve"].click(shown(u["eve"], ch["cards"], cards.table_message_id),
                         cid(cards, "join"))
    assert cards.queued(u["eve"].id)
    # The two short games are played out first.
    await play_out(fake, clock, night_of(servers, "fini", "quick"))
    # chloe's presi: round 1 played, round 2 dealt, its exchange under way.
    finale = servers.table("finale")
    game = finale.game
    assert game is not None
    chloe = servers.players("finale")
    for _ in range(600):
        if game.phase is Phase.ROUND_OVER:
            break
        if not await chloe[0].act():
            await tick(fake, clock, 1)
    await tick(fake, clock, 1)
    await u["chloe"].click(shown(u["chloe"], ch["finale"], finale.table_message_id),
                           cid(finale, "next", game.version))
    await tick(fake, clock, 1)
    # A few moves at classic and proletario, by hand.
    for name in ("cartes", "cards"):
        for _ in range(3):
            for player in servers.players(name):
                if await player.act():
                    break
        await tick(fake, clock, 1)
    # emma takes her own break at wild7.
    pause = servers.table("pause")
    await u["emma"].click(shown(u["emma"], ch["pause"], pause.table_message_id),
                          cid(pause, "pause"))
    await tick(fake, clock, 1)
    assert pause.pause is not None and pause.pause.own
    return servers


def per_table(calls: list[CallRecord], servers: Servers) -> Counter[str]:
    """Calls counted by the table they were made for: a channel route names its channel, a
    hand's edit its token; the others (the process's own, a member's check) by route."""
    where = {str(channel.id): name for name, channel in servers.channels.items()}
    tokens = {link.token: name for name, (table, _, _) in servers.tables.items()
              for link in table.hands.values()}
    counts: Counter[str] = Counter()
    for call in calls:
        parts = call.path.split("/")
        if parts[1] == "channels":
            counts[where[parts[2]]] += 1
        elif parts[1] == "webhooks":
            counts[tokens[parts[3]]] += 1
        else:
            counts[call.route] += 1
    return counts


HAND_EDIT = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
# The restart's calls (`per_table`), each changing what a message shows.
RESTART_CALLS = {
    "cartes": 3, "finale": 3, "pause": 2, "cards": 3, "fini": 1, "quick": 1,
    "/guilds/{guild_id}/members/{user_id}": 15, "/users/@me": 1,
    "/oauth2/applications/@me": 1, "/applications/{application_id}/commands": 1,
    "/applications/{application_id}/emojis": 1}
# Where nothing was kept by the stop (a crash), every lobby, hand and chart is drawn again.
REDRAWN_CALLS = {
    **RESTART_CALLS, "cartes": 5, "finale": 4, "pause": 5, "cards": 7, "fini": 5, "quick": 6}


def what_shows(fake: FakeDiscord) -> dict[int, tuple[object, ...]]:
    """Each message as Discord shows it: its text, controls and attachments' names."""
    return {m.id: (m.content, repr(m.components), [a["filename"] for a in m.attachments])
            for m in fake.world.messages.values()}


async def close_table(fake: FakeDiscord, clock: LinkedClock, host: TestUser,
                      channel: Channel, bot: PresidentBot) -> None:
    """The host closes their table for the night: a game under way stopped (asked
    first), then back to the lobby, then the lobby closed."""
    for _ in range(3):
        if bot.service.registry.in_channel(channel.id) is None:
            return
        await host.slash("president end", channel=channel)
        asked = host.last_ephemeral(channel)
        stop = t(host.user.locale, "btn.stop_game")
        if any(b.label == stop for b in asked.buttons):
            await host.click(asked, stop)
        await tick(fake, clock, 1)
    assert bot.service.registry.in_channel(channel.id) is None


def named(text: str, users: dict[str, TestUser]) -> set[str]:
    return {name for name, user in users.items() if f"<@{user.id}>" in text}


async def test_two_servers_play_on_after_a_restart_mid_tournament(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Both servers' nights are under way (`tournament`) when the bot is redeployed, a
    minute down. Every table comes back where it was: its game, its history with one
    « the bot restarted » line where a game is under way, its clocks moved on by the minute
    nobody could play (emma's break held, its minute not counted), its hands followed
    through their tokens, each edited once (no card faces lost meanwhile), its old hands
    playing. The two games finished just before are stored once. Each server's figures
    name its own players only, and one server's erasure leaves the other's."""
    record_charts(monkeypatch)
    servers = await tournament(fake, clock, tmp_path)
    u, ch = servers.users, servers.channels
    live = ("cartes", "finale", "pause", "cards")
    before = {name: (table.game.to_dict() if table.game else None, table.timer_deadline)
              for name, (table, _, _) in servers.tables.items()}
    storage = servers.bot.storage
    assert storage is not None
    guilds = (servers.cercle, servers.club)
    held = [await storage.held_by_guild(g.id) for g in guilds]
    faces = {p.user.name: "<:" in p.hand.content for name in live
             for p in servers.players(name)}
    assert all(faces.values()), faces  # every hand under way shows its cards' faces

    shown_before = what_shows(fake)
    mark = fake.mark()
    stopped = clock.now()
    bot = await restart(fake, clock, servers.bot, servers.url, down=60)
    for name, (table, channel, players) in servers.tables.items():
        restored = bot.service.registry.by_id(table.id)
        assert restored is not None and restored.game is not None, name
        state, deadline = before[name]
        assert restored.game.to_dict() == state, name
        keys = [e.key for e in restored.log]
        assert (keys[-1] == "ev.restarted") == (name in ("cartes", "finale", "cards")), keys
        if name == "pause":  # the break holds every clock: nothing moved, the minute not held
            assert restored.pause is not None and restored.pause.own
            assert restored.timer_deadline == deadline and restored.pause.held == 60
        elif deadline is not None:
            assert restored.timer_deadline == pytest.approx(
                after_restart(deadline, stopped, clock)), name
        servers.tables[name] = (restored, channel, players)
    assert servers.table("cards").queued(u["eve"].id)
    # The restart's calls, table by table: the channel's last messages read where a game
    # is under way (`Recount.read`), and only what changed: the table message where a game
    # goes on (« the bot restarted ») or waits for its host (its deadline moved), the three
    # hands whose clock moved. Each lobby, each other hand and each finished game's chart
    # already show what the restart draws (what the stop kept, `bot.tables.landed`): 32
    # calls before stop 53. Besides: one Get Guild Member per seated person and server,
    # and the process's own four.
    assert per_table(fake.calls_since(mark), servers) == RESTART_CALLS
    for name in ("fini", "quick"):  # their results still carry the chart
        finished = servers.table(name)
        results = shown(servers.players(name)[0].user, ch[name], finished.table_message_id)
        assert results.attachments == (chart.FILENAME,), name
    edits = Counter(c.path for c in fake.calls_since(mark, HAND_EDIT))  # a path a token
    assert len(edits) == 3 and max(edits.values()) == 1, edits
    # Each edit changed what its message shows: 6 table messages and 3 hands.
    patched = [c for c in fake.calls_since(mark) if c.method == "PATCH"]
    changed = [i for i, shows in what_shows(fake).items() if shown_before.get(i) != shows]
    assert len(patched) == len(changed) == 9, (patched, changed)
    for name in live:
        for player in servers.players(name):
            assert "<:" in player.hand.content, player.hand.content
    assert [await storage.held_by_guild(g.id) for g in guilds] == held
    for name in ("fini", "quick"):  # finished just before: stored once, rated once
        game_id = servers.table(name).game_row_id
        assert game_id is not None
        stored = await stored_game(servers.url, game_id)
        assert stored.round_nos == [1] and stored.ended == 1 and stored.table_games == 1
        seated = [p.user.id for p in servers.players(name)]
        assert [stored.rated_rounds[user] for user in seated] == [1] * len(seated), name

    # Everyone goes on, from the hands they had: emma's break ends, a move at each table.
    pause = servers.table("pause")
    await u["emma"].click(shown(u["emma"], ch["pause"], pause.table_message_id),
                          cid(pause, "play_on"))
    assert pause.pause is None
    for name in live:
        table = servers.table(name)
        game = table.game
        assert game is not None
        version = game.version
        for _ in range(120):
            if game.version > version:
                break
            if not any([await p.act() for p in servers.players(name)]):
                await tick(fake, clock, 1)
        assert game.version > version, name

    # Each server's figures are its own.
    await u["chloe"].slash("president leaderboard", channel=ch["fini"])
    assert named(u["chloe"].last_ephemeral(ch["fini"]).text, u) == {"gael", "hana"}
    await u["alice"].slash("president leaderboard", channel=ch["quick"])
    assert named(u["alice"].last_ephemeral(ch["quick"]).text, u) == {"fred", "gina", "marie"}
    await u["marie"].slash("president stats", channel=ch["cartes"])
    assert t("fr", "stats.none", name="marie") in u["marie"].last_ephemeral(ch["cartes"]).text
    await u["marie"].slash("president stats", channel=ch["quick"])
    assert t("fr", "preset_pooled.classic") in u["marie"].last_ephemeral(ch["quick"]).text
    for name, reader in (("fini", "hana"), ("quick", "gina")):  # one game each, once
        await u[reader].slash("president history", channel=ch[name])
        lines = u[reader].last_ephemeral(ch[name]).text.splitlines()
        assert [line[:3] for line in lines if line[:1].isdigit()] == ["1. "], lines

    # The Cercle closes its night and its admin erases it: the Club plays on, its own kept.
    for name, host in (("cartes", "marie"), ("finale", "chloe"), ("pause", "dave"),
                       ("fini", "gael")):
        await close_table(fake, clock, u[host], ch[name], bot)
    club = await storage.held_by_guild(servers.club.id)
    admin = fake.add_user("admin", locale="fr", guilds=[servers.cercle])
    forger = Forger(fake)
    await forger.send(admin, APPLICATION_COMMAND,
                      forger.command(admin, "president forget-server"),
                      permissions=MANAGE_GUILD)
    question = admin.last_ephemeral()
    click = {"custom_id": question.button(t("fr", "btn.forget")).custom_id,
             "component_type": BUTTON}
    await forger.send(admin, MESSAGE_COMPONENT, click, message=question,
                      permissions=MANAGE_GUILD)
    assert (await storage.held_by_guild(servers.cercle.id)).empty
    assert await storage.held_by_guild(servers.club.id) == club
    cards = servers.table("cards")
    assert not cards.closed and cards.game is not None
    await u["alice"].slash("president leaderboard", channel=ch["quick"])
    assert named(u["alice"].last_ephemeral(ch["quick"]).text, u) == {"fred", "gina", "marie"}
    await bot.service.drain()
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_crash_before_what_is_shown_is_kept_draws_everything_again(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What the messages show is kept by a stop only once nothing more can reach Discord
    (`PresidentBot.keep_shown`); the process dying after its last edits and before that
    write (killed as it stops) keeps nothing, and the restart draws every lobby, hand and
    chart again, as before stop 53: the safe side. A start forgets what it read before it
    draws anything: a crash after its first edits finds nothing known shown."""
    record_charts(monkeypatch)
    servers = await tournament(fake, clock, tmp_path)
    storage = servers.bot.storage
    assert storage is not None

    async def killed(stored: dict[int, int]) -> None:
        """The process dies here, its edits acknowledged, nothing of them written."""

    monkeypatch.setattr(servers.bot, "keep_shown", killed)
    mark = fake.mark()
    bot = await restart(fake, clock, servers.bot, servers.url, down=60)
    assert per_table(fake.calls_since(mark), servers) == REDRAWN_CALLS
    assert len(Counter(c.path for c in fake.calls_since(mark, HAND_EDIT))) == 14

    # A stop keeps it (each table's, for the state it stored last); the next start reads
    # it once, and leaves nothing behind for a crash of its own.
    again = await restart(fake, clock, bot, servers.url, down=60)
    storage = again.storage
    assert storage is not None
    for table, _, _ in servers.tables.values():
        snapshot = await storage.load_snapshot(table.id)
        assert snapshot is not None and snapshot.shown is None, table.id
    await fake.disconnect(again)
    fake.assert_no_errors()


async def test_a_stop_keeps_what_is_shown_for_the_state_it_stored_only(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What a stop kept is for the state it stored then: a table whose stored state changed
    since (a later save, say by a process rolled back to stop 52, which knows nothing of
    it) is drawn again whole, its lobby and hands too."""
    record_charts(monkeypatch)
    servers = await tournament(fake, clock, tmp_path)
    cards = servers.table("cards")

    async def moved_on(stored: dict[int, int]) -> None:
        await PresidentBot.keep_shown(servers.bot, stored)
        assert servers.bot.storage is not None
        snapshot = await servers.bot.storage.load_snapshot(cards.id)
        assert snapshot is not None and snapshot.shown is not None
        await servers.bot.storage.save_snapshot(cards.id, snapshot.seq + 1, snapshot.state)

    monkeypatch.setattr(servers.bot, "keep_shown", moved_on)
    mark = fake.mark()
    bot = await restart(fake, clock, servers.bot, servers.url, down=60)
    assert per_table(fake.calls_since(mark), servers) == {
        **RESTART_CALLS, "cards": REDRAWN_CALLS["cards"]}
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_restart_edits_a_hand_whose_options_faces_alone_changed(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What a stop keeps is a digest of everything a message displays
    (`Screen.fingerprint`). The play options' faces drawn otherwise while the bot was down
    (here each option's emoji alone, its text unchanged): the restart edits each hand
    offering plays. The digest read an option's label, value, default and description,
    not its emoji: the restart found every hand drawn the same and left the old faces on
    its options (stop 53's review)."""
    record_charts(monkeypatch)
    servers = await tournament(fake, clock, tmp_path)
    joker = discord.PartialEmoji(name="\N{PLAYING CARD BLACK JOKER}")

    def other_faces(self: CardFaces, cards: Sequence[Card], value: str, spanish: bool,
                    locale: LocaleLike) -> discord.PartialEmoji | None:
        return joker if cards else None

    async def kept_then_redrawn(stored: dict[int, int]) -> None:
        await PresidentBot.keep_shown(servers.bot, stored)  # kept with the old faces
        monkeypatch.setattr(CardFaces, "option_emoji", other_faces)

    monkeypatch.setattr(servers.bot, "keep_shown", kept_then_redrawn)
    bot = await restart(fake, clock, servers.bot, servers.url, down=60)
    # The hands offering plays (the presi final's, in its exchange, offers gifts).
    offering = [p.hand for name in ("cartes", "pause", "cards") for p in servers.players(name)
                if any(o.emoji is not None for s in p.hand.selects for o in s.options)]
    assert len(offering) == 3  # bob's, dave's and cara's
    for hand in offering:
        emojis = {o.emoji for s in hand.selects for o in s.options if o.emoji is not None}
        assert emojis == {joker.name}, hand.content
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_restart_s_hands_wait_for_the_card_faces_a_few_seconds_at_most(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The restarted bot draws its restored tables' hands once it knows the card faces:
    drawn before, each lost its faces until the faces' own redraw, an edit later. Discord
    slow to list the application's emojis holds them `FACES_WAIT` seconds, no longer: then
    they are drawn with text cards, and with their faces once these are known."""
    url, bot, marie, leo, table = await marie_and_leo_stored(fake, clock, tmp_path)
    while bot.faces_sync is not None and not bot.faces_sync.done():
        await tick(fake, clock, 0.1)
    await marie.open_hand(bot)  # opened before the faces were known: with them now
    await leo.open_hand(bot)
    assert "<:" in leo.hand.content and "<:" in marie.hand.content
    listed = asyncio.Event()
    sync = CardFaces._sync

    async def slow(self: CardFaces, client: discord.Client, budget: CallBudget,
                   uploading: Callable[[], None] | None = None,
                   ) -> dict[str, discord.PartialEmoji]:
        await listed.wait()
        return await sync(self, client, budget, uploading)

    monkeypatch.setattr(CardFaces, "_sync", slow)
    await bot.service.drain()
    await fake.disconnect(bot)
    clock.advance(60)
    mark = fake.mark()
    again = await connect_bot(fake, clock, url, bot_pause=1.0)
    await fake.settle()
    await tick(fake, clock, FACES_WAIT - 1)
    assert fake.calls_since(mark, HAND_EDIT) == []
    await tick(fake, clock, 1)
    assert len(fake.calls_since(mark, HAND_EDIT)) == 2  # marie's and léo's
    assert "<:" not in leo.hand.content and "<:" not in marie.hand.content
    listed.set()
    await tick(fake, clock, 1)
    assert "<:" in leo.hand.content and "<:" in marie.hand.content
    await again.service.drain()
    await fake.disconnect(again)
    fake.assert_no_errors()


async def test_after_a_restart_longer_than_a_token_s_life_the_hands_reopen_from_the_table(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The redeploy takes twenty minutes: every hand's token is past its 15 minutes
    (« Interaction tokens are valid for 15 minutes », discord-api-docs, Receiving and
    Responding, Followup Messages), so no hand can be edited, and none is tried (Discord
    would answer 401 Invalid Webhook Token, each an invalid request toward Cloudflare's
    ban). The table messages are brought up to date; each player's « Ma main » there opens
    a hand that plays, their clocks moved on by the twenty minutes."""
    record_charts(monkeypatch)
    servers = await tournament(fake, clock, tmp_path)
    deadlines = {name: servers.table(name).timer_deadline for name in ("cartes", "cards")}
    mark = fake.mark()
    stopped = clock.now()
    bot = await restart(fake, clock, servers.bot, servers.url, down=20 * 60)
    assert fake.calls_since(mark, HAND_EDIT) == []
    for name, (table, channel, players) in servers.tables.items():
        restored = bot.service.registry.by_id(table.id)
        assert restored is not None and restored.game is not None
        servers.tables[name] = (restored, channel, players)
    for name, deadline in deadlines.items():
        assert deadline is not None
        assert servers.table(name).timer_deadline == pytest.approx(
            after_restart(deadline, stopped, clock)), name
    for name in ("cartes", "finale", "cards"):
        table, channel, players = servers.tables[name]
        game = table.game
        assert game is not None
        for player in players:
            await player.user.click(shown(player.user, channel, table.table_message_id),
                                    cid(table, "hand"))
            player.hand_id = player.user.last_ephemeral(channel).id
            assert "<:" in player.hand.content
        version = game.version
        for _ in range(120):
            if game.version > version:
                break
            if not any([await p.act() for p in players]):
                await tick(fake, clock, 1)
        assert game.version > version, name
    await bot.service.drain()
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_crash_while_a_game_s_results_are_written_stores_them_once(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The Cercle's classic game and the Club's end together; the database is slow to take
    the Cercle's results, and the process dies while writing them (nothing of them
    committed, the table's state announcing them committed). The restart writes them, once;
    the Club's, written before the crash, are not written again; each server's figures
    name its own players."""
    record_charts(monkeypatch)
    servers = await two_servers(fake, clock, tmp_path)
    bot, u, ch = servers.bot, servers.users, servers.channels
    servers.tables["fini"] = await seat_and_start(
        fake, clock, bot, ch["fini"], "classic", [u["gael"], u["hana"]], 1)
    servers.tables["quick"] = await seat_and_start(
        fake, clock, bot, ch["quick"], "classic", [u["fred"], u["gina"], u["marie"]], 0)
    fini = servers.table("fini")
    writing: list[Table] = []
    stored = StorageStore.round_over

    async def dies_writing(self: StorageStore, table: Table, game_id: int,
                           seats: Sequence[TablePlayer], event: RoundOver) -> None:
        if table.id == fini.id and not writing:
            writing.append(table)
            await asyncio.Event().wait()  # the process dies in this write
        await stored(self, table, game_id, seats, event)

    monkeypatch.setattr(StorageStore, "round_over", dies_writing)
    await play_out(fake, clock, night_of(servers, "fini", "quick"))
    assert writing and fini.unstored and not servers.table("quick").unstored
    for task in bot.service.outbox.pending():
        task.cancel()
    await dies_between_changes(bot)

    again = await restart(fake, clock, bot, servers.url, down=5)
    await again.service.drain()
    for name in ("fini", "quick"):
        restored = again.service.registry.by_id(servers.table(name).id)
        assert restored is not None and not restored.unstored
        assert restored.game is not None and restored.game.phase is Phase.GAME_OVER
        game_id = restored.game_row_id
        assert game_id is not None
        kept = await stored_game(servers.url, game_id)
        assert kept.round_nos == [1] and kept.ended == 1 and kept.table_games == 1, name
        seated = [p.user.id for p in servers.players(name)]
        assert [kept.rated_rounds[user] for user in seated] == [1] * len(seated), name
    await u["hana"].slash("president leaderboard", channel=ch["fini"])
    assert named(u["hana"].last_ephemeral(ch["fini"]).text, u) == {"gael", "hana"}
    await u["gina"].slash("president leaderboard", channel=ch["quick"])
    assert named(u["gina"].last_ephemeral(ch["quick"]).text, u) == {"fred", "gina", "marie"}
    await fake.disconnect(again)
    fake.assert_no_errors()
