"""End-to-end: play-test 34 (stop 51), a tournament night: eight friends on one server, a
table in each of three channels (classic, presi, wild7), players moving between them and
one seated at two at once, the leaderboard read between games to decide the final
(docs/bot.md « Play-test 34: a tournament night (stop 51) »)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.packages.stats.display import STORED_WAIT
from bot.tables.persistence import StorageStore
from bot.tables.players import Player as TablePlayer
from bot.tables.table import Table
from engine import Phase
from engine.events import RoundOver
from fakediscord import Channel, FakeDiscord, Message, TestUser

from .conftest import LinkedClock
from .e2e import Player, cid, connect_bot, database_url, record_charts, tick

MEMBER = "/guilds/{guild_id}/members/{user_id}"


class SeatedAt(Player):
    """A player whose hand is at the table of ``channel``, wherever else they sit."""

    def __init__(self, user: TestUser, channel: Channel) -> None:
        super().__init__(user)
        self.channel = channel

    @property
    def hand(self) -> Message:
        return shown(self.user, self.channel, self.hand_id)


def shown(user: TestUser, channel: Channel, message_id: int | None) -> Message:
    found = [m for m in user.visible(channel) if m.id == message_id]
    assert found, f"{user.name} cannot see message {message_id} in #{channel.name}"
    return found[0]


@dataclass
class Night:
    """The tables of the night, each in its channel, with the humans seated there."""

    bot: PresidentBot
    tables: list[tuple[Table, Channel, list[SeatedAt]]]


async def seat_and_start(fake: FakeDiscord, clock: LinkedClock, bot: PresidentBot,
                         channel: Channel, preset: str, users: list[TestUser],
                         bots: int, **rules: Any) -> tuple[Table, Channel, list[SeatedAt]]:
    """The first of ``users`` opens a ``preset`` table to one round (with ``rules``
    changed, its end among them if said) in ``channel``, the others join, ``bots`` bots fill seats, the game starts and every
    human opens their hand."""
    host = users[0]
    await host.slash("president create", channel=channel, preset=preset)
    table = bot.service.registry.in_channel(channel.id)
    assert table is not None
    await bot.service.set_rules(table, host.id,
                                table.rules.replace(**{"game_end": "rounds:1", **rules}))
    for user in users[1:]:
        await user.click(shown(user, channel, table.lobby_message_id), cid(table, "join"))
    for _ in range(bots):
        await host.click(shown(host, channel, table.lobby_message_id), cid(table, "addbot"))
    await host.click(shown(host, channel, table.lobby_message_id), cid(table, "start"))
    await tick(fake, clock, 1)
    players = [SeatedAt(user, channel) for user in users]
    for player in players:
        await player.user.click(shown(player.user, channel, table.table_message_id),
                                cid(table, "hand"))
        player.hand_id = player.user.last_ephemeral(channel).id
    return table, channel, players


async def play_out(fake: FakeDiscord, clock: LinkedClock, night: Night) -> None:
    """Every table's humans play through their own hands, one move at a time across the
    tables, time passing for the bots when no human can move, until every game is over."""
    for _ in range(3000):
        live = [(table, players) for table, _, players in night.tables
                if table.game is not None and table.game.phase is not Phase.GAME_OVER]
        if not live:
            await tick(fake, clock, 2)  # the last results drawn
            return
        moved = False
        for _, players in live:
            for player in players:
                if moved := await player.act():
                    break
            if moved:
                break
        if not moved:
            await tick(fake, clock, 1)
    raise AssertionError("the night's games did not end")


async def presi_night_closed(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    locale: str,
) -> tuple[PresidentBot, Channel, TestUser, TestUser]:
    """dave and emma (in ``locale``) play their presi game in #presi against a bot, then
    dave closes the table for the night (« Terminer », then again in the lobby): the
    channel keeps its stored games and has no table."""
    record_charts(monkeypatch)
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    presi = fake.add_channel(fake.guild, "presi")
    await fake.settle()
    dave, emma = fake.add_user("dave", locale=locale), fake.add_user("emma", locale=locale)
    night = Night(bot, [await seat_and_start(fake, clock, bot, presi, "presi", [dave, emma], 1)])
    await play_out(fake, clock, night)
    await dave.slash("president end", channel=presi)  # back to the lobby
    await dave.slash("president end", channel=presi)  # the table closes
    assert bot.service.registry.in_channel(presi.id) is None
    return bot, presi, dave, emma


async def tournament(fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
                     locale: str) -> tuple[Night, dict[str, TestUser]]:
    """Eight friends (speaking ``locale``, but bob and farid in the other language): marie
    hosts classic in the fake's channel with bob and a bot, dave presi in #presi with emma
    and a bot, farid wild7 in #wild7 with gael, hana, marie (her second table) and a bot;
    chloe watches. Every game is played out."""
    other = "en-US" if locale == "fr" else "fr"
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    presi = fake.add_channel(fake.guild, "presi")
    wild7 = fake.add_channel(fake.guild, "wild7")
    await fake.settle()
    users = {name: fake.add_user(name, locale=other if name in ("bob", "farid") else locale)
             for name in ("marie", "bob", "chloe", "dave", "emma", "farid", "gael", "hana")}
    night = Night(bot, [
        await seat_and_start(fake, clock, bot, fake.channel, "classic",
                             [users["marie"], users["bob"]], 1),
        await seat_and_start(fake, clock, bot, presi, "presi",
                             [users["dave"], users["emma"]], 1),
        await seat_and_start(fake, clock, bot, wild7, "wild7",
                             [users[n] for n in ("farid", "gael", "hana", "marie")], 1),
    ])
    await play_out(fake, clock, night)
    return night, users


@pytest.mark.parametrize("locale", ["fr", "en-US"])
async def test_the_leaderboard_asks_discord_nothing_about_the_night_s_players(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    locale: str,
) -> None:
    """Between games chloe reads each table's leaderboard to see who goes to the final.
    Each of its rows is someone who played a game here minutes ago, clicking all evening,
    yet the bot asked Discord whether each was still a member of the server (Get Guild
    Member, one call a row, `stats.members`): two calls at classic, three at wild7, seven
    a night of eight players. Whoever acts on a server is noted as a member
    (`PresidentBot.on_interaction`): the boards cost no call beyond their answer."""
    record_charts(monkeypatch)
    night, users = await tournament(fake, clock, tmp_path, locale)
    chloe = users["chloe"]
    expected = {"classic": {"marie", "bob"}, "presi": {"dave", "emma"},
                "wild7": {"farid", "gael", "hana", "marie"}}
    for table, channel, _ in night.tables:
        preset = table.rules.preset_id
        mark = fake.mark()
        await chloe.slash("president leaderboard", channel=channel)
        await tick(fake, clock, 1)
        answer = chloe.last_ephemeral(channel)
        title = t(locale, "leaderboard.title", preset=t(locale, f"preset_pooled.{preset}"))
        assert answer.text.startswith(title), answer.text
        named = {user.name for user in users.values() if f"<@{user.id}>" in answer.text}
        assert named == expected[preset], answer.text
        assert fake.calls_since(mark, MEMBER) == [], preset
    await fake.disconnect(night.bot)
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", ["fr", "en-US"])
async def test_the_leaderboard_in_a_thread_under_a_table_is_that_table_s(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    locale: str,
) -> None:
    """The players talk in a thread « tournoi » under #presi between games and ask for
    « the » leaderboard there: they read classic's, « nobody is rated yet », though the
    game they had just played under it was presi's. A thread under a table's channel now
    takes that table's preset, as the channel does; an option still chooses another. Its
    `/president history`, « no game has been played here yet », read as if the evening's
    games were lost: it now says they are the channel's, and where."""
    record_charts(monkeypatch)
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    presi = fake.add_channel(fake.guild, "presi")
    await fake.settle()
    dave, emma = fake.add_user("dave", locale=locale), fake.add_user("emma", locale=locale)
    night = Night(bot, [await seat_and_start(fake, clock, bot, presi, "presi", [dave, emma], 1)])
    await play_out(fake, clock, night)
    thread = fake.add_thread(presi, "tournoi", emma)
    await fake.settle()

    await emma.slash("president leaderboard", channel=thread)
    answer = emma.last_ephemeral(thread).text
    assert answer.startswith(t(locale, "leaderboard.title", preset=t(locale, "preset_pooled.presi")))
    assert f"<@{dave.id}>" in answer and f"<@{emma.id}>" in answer, answer
    await emma.slash("president leaderboard", channel=thread, preset="classic")
    assert emma.last_ephemeral(thread).text.startswith(
        t(locale, "leaderboard.title", preset=t(locale, "preset_pooled.classic")))
    await emma.slash("president history", channel=thread)
    assert emma.last_ephemeral(thread).text.endswith(
        t(locale, "history.empty.parent", channel=f"<#{presi.id}>"))
    await emma.slash("president history", channel=presi)  # the game, where it was played
    assert t(locale, "preset.presi") in emma.last_ephemeral(presi).text
    await fake.disconnect(bot)
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", ["fr", "en-US"])
async def test_figures_asked_right_after_a_game_wait_for_its_results_to_be_stored(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    locale: str,
) -> None:
    """The table announces a game's results before its round is in the database (the
    tables' storage work runs beside the game, `bot.tables.outbox`). With the database slow
    that evening, bob read his result on the table and asked `/president stats` at once:
    « bob has not played on this server yet », and the leaderboard « nobody is ranked »,
    the figures that were to decide the final. Statistics now wait for the server's
    results not yet stored, `STORED_WAIT` seconds at most, then read what is."""
    record_charts(monkeypatch)
    gate = asyncio.Event()
    stored = StorageStore.round_over

    async def slow_round_over(self: StorageStore, table: Table, game_id: int,
                              seats: Sequence[TablePlayer], event: RoundOver) -> None:
        await gate.wait()
        await stored(self, table, game_id, seats, event)

    monkeypatch.setattr(StorageStore, "round_over", slow_round_over)
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    marie, bob = fake.add_user("marie", locale=locale), fake.add_user("bob", locale=locale)
    night = Night(bot, [await seat_and_start(fake, clock, bot, fake.channel, "classic",
                                             [marie, bob], 1)])
    await play_out(fake, clock, night)

    # The database slower than the bound: the board comes after it, as stored by then.
    await bob.slash("president leaderboard")
    assert bob.last_ephemeral().loading
    await tick(fake, clock, STORED_WAIT)
    assert t(locale, "leaderboard.empty", preset=t(locale, "preset_pooled.classic")) in \
        bob.last_ephemeral().text
    # Within it: the stats wait for the round, and count it.
    await bob.slash("president stats")
    assert bob.last_ephemeral().loading
    gate.set()
    await fake.settle()
    answer = bob.last_ephemeral().text
    assert t(locale, "stats.none", name="bob") not in answer
    assert f"**{t(locale, 'preset_pooled.classic')}**" in answer, answer  # his round, rated
    await bob.slash("president leaderboard")
    assert f"<@{bob.id}>" in bob.last_ephemeral().text
    await fake.disconnect(bot)
    fake.assert_no_errors()



@pytest.mark.parametrize("locale", ["fr", "en-US"])
async def test_the_leaderboard_where_a_table_closed_is_its_last_game_s(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    locale: str,
) -> None:
    """dave closes the presi table for the night (« Terminer », then again in the lobby)
    and the players, still in #presi, ask who leads: classic's board, « nobody is ranked
    yet ». With no table there, the channel's last game's preset is « the » board's."""
    bot, presi, dave, emma = await presi_night_closed(fake, clock, tmp_path, monkeypatch,
                                                      locale)
    await emma.slash("president leaderboard", channel=presi)
    answer = emma.last_ephemeral(presi).text
    assert answer.startswith(t(locale, "leaderboard.title", preset=t(locale, "preset_pooled.presi")))
    assert f"<@{dave.id}>" in answer and f"<@{emma.id}>" in answer, answer
    await emma.slash("president leaderboard", channel=fake.channel)  # no game there: classic
    assert emma.last_ephemeral().text.startswith(
        t(locale, "leaderboard.title", preset=t(locale, "preset_pooled.classic")))
    await fake.disconnect(bot)
    fake.assert_no_errors()


@pytest.mark.parametrize("locale", ["fr", "en-US"])
async def test_resume_at_one_table_names_the_other_where_the_autopilot_plays(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    locale: str,
) -> None:
    """marie plays classic in #general by hand and wild7 in #wild7, where her turns ran out
    and the autopilot took her seat. Back in #general she types `/president resume`:
    « Nobody is playing for you: your seat is yours », about the table she was playing,
    while the autopilot went on at the other. The refusal now names where it plays; there,
    the command takes the seat back. Nothing changes at either table meanwhile."""
    record_charts(monkeypatch)
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    wild7 = fake.add_channel(fake.guild, "wild7")
    await fake.settle()
    marie, bob = fake.add_user("marie", locale=locale), fake.add_user("bob")
    farid = fake.add_user("farid", locale="fr")
    classic, _, _ = await seat_and_start(fake, clock, bot, fake.channel, "classic",
                                         [marie, bob], 1)
    wild, _, _ = await seat_and_start(fake, clock, bot, wild7, "wild7", [farid, marie], 1,
                                      turn_seconds=5, autopilot_after_timeouts=1)
    game, seat = wild.game, wild.seat_of(marie.id)
    assert game is not None and seat is not None
    for _ in range(60):
        if game.automated(seat):
            break
        await tick(fake, clock, 1)
    assert game.automated(seat) and classic.game is not None
    assert not classic.game.automated(classic.seat_of(marie.id) or 0)

    versions = (classic.game.version, game.version)
    await marie.slash("president resume")
    assert marie.last_ephemeral().text == "⚠️ " + t(
        locale, "err.not_automated_elsewhere", channels=f"<#{wild7.id}>")
    assert (classic.game.version, game.version) == versions and game.automated(seat)
    await marie.slash("president resume", channel=wild7)
    assert not game.automated(seat)
    await fake.disconnect(bot)
    fake.assert_no_errors()
