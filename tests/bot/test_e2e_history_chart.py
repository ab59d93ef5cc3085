"""`/president history` opens a past game's points chart, rebuilt from its stored rounds:
the same series the table showed when the game ended, answered only to the one who asked,
in their language."""

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.client import PresidentBot
from bot.i18n import t
from bot.names import shortened
from bot.packages.game import chart
from bot.packages.text import player_name, unescaped
from bot.storage import Storage
from bot.storage.records import SeatRef
from fakediscord import FakeDiscord
from fakediscord.forge import Forger
from fakediscord.limits import BUTTON
from fakediscord.state import MESSAGE_COMPONENT

from .conftest import LinkedClock
from .e2e import (
    alice_and_bob_stored,
    connect_bot,
    database_url,
    message,
    play_every_round,
    record_charts,
    tick,
)


async def ana_s_channel_stored(fake: FakeDiscord, clock: LinkedClock, tmp_path: Path
                               ) -> tuple[PresidentBot, Storage,
                                          Callable[[int, int], Awaitable[int]]]:
    """A bot on a database file, whose storage holds a classic table of the fake's channel
    where Ana (member 1) plays a bot; with what stores a finished one-round game of it,
    Ana first: its number and Ana's points in, its id out."""
    bot = await connect_bot(fake, clock, database_url(tmp_path))
    storage = bot.storage
    assert storage is not None
    seats = [SeatRef(1, False, "Ana"), SeatRef(None, True, "Bot")]
    table_id = await storage.create_table(fake.guild.id, fake.channel.id, 1,
                                          {"preset": "classic", "set": {}})

    async def finished_game(number: int, points: int) -> int:
        game_id = await storage.start_game(table_id, game_no=number, preset="classic",
                                           rules={"preset": "classic", "set": {}}, seats=seats)
        await storage.record_round(game_id, 1, ranking=[0, 1], roles=["P", "L"],
                                   points=[points, 0], seats=seats)
        await storage.finish_game(game_id, winners=[0], stopped_early=False)
        return game_id

    return bot, storage, finished_game


async def test_history_opens_a_past_games_chart_from_the_stored_rounds(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = record_charts(monkeypatch)
    bot, alice, bob, table, _ = await alice_and_bob_stored(fake, clock, tmp_path, "rounds:2", bob_locale="fr")
    await play_every_round(fake, clock, table, [alice, bob])
    await bot.service.drain()
    await tick(fake, clock, 1)
    (at_the_end,) = drawn  # the chart the results message got when the game ended
    drawn.clear()

    await bob.user.slash("president history")
    listed = bob.user.last_ephemeral()
    assert "2 manches" in listed.text
    menu = listed.select()
    assert len(menu.options) == 1
    label = menu.options[0].label
    assert label == "1. Président classique · 2 manches", label  # the line gives the date
    await bob.user.select(listed, [menu.options[0].value])
    shown = bob.user.last_ephemeral()
    assert shown.id != listed.id and shown.ephemeral
    assert shown.attachments == (chart.FILENAME,)
    assert "Points de la partie" in shown.text
    (rebuilt,) = drawn
    # The same lines, a bot's marked without its level, which storage does not keep.
    assert rebuilt.names == tuple(name.replace(" (normal)", " (bot)")
                                  for name in at_the_end.names)
    assert rebuilt.series == at_the_end.series and len(rebuilt.series[0]) == 2
    assert rebuilt.title == "Points par manche"  # in bob's language, not the table's
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_stored_dates_are_the_bots_clock_not_the_machines(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
) -> None:
    """The bot's clock (here the fake Discord's, in January 2025) dates every stored row:
    /president history once showed the machine's date beside the game's."""
    before = fake.clock.now()
    bot, alice, bob, table, _ = await alice_and_bob_stored(fake, clock, tmp_path, "rounds:1",
                                                           bob_locale="fr")
    await play_every_round(fake, clock, table, [alice, bob])
    await bot.service.drain()
    await tick(fake, clock, 1)
    after = fake.clock.now()
    storage = bot.storage
    assert storage is not None and abs(after - datetime.now(UTC)) > timedelta(days=1)
    (game,) = await storage.game_history(channel_id=fake.channel.id)
    assert game.ended_at is not None and before <= game.started_at <= game.ended_at <= after
    record = await storage.get_table(table.id)
    assert record is not None and before <= record.created_at <= record.updated_at <= after
    snapshot = await storage.load_snapshot(table.id)
    assert snapshot is not None and before <= snapshot.saved_at <= after

    await bob.user.slash("president history")
    (line,) = (bob.user.last_ephemeral().embeds[0].description or "").splitlines()
    assert line.startswith(f"1. <t:{int(game.ended_at.timestamp())}:f> · "), line
    await fake.disconnect(bot)
    fake.assert_no_errors()


@pytest.mark.both_databases  # on PostgreSQL in `make test` too
async def test_history_pages_through_older_games_in_place(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
) -> None:
    """Past the ten newest games, « Older games » replaces the page on the same ephemeral
    message, and « Newer games » comes back; each page's menu offers its own games."""
    bot, _, finished_game = await ana_s_channel_stored(fake, clock, tmp_path)
    games = []
    for number in range(1, 13):  # 12 games, the 12th the newest
        games.append(await finished_game(number, number))
    ana = fake.add_user("ana", locale="en-US")

    await ana.slash("president history")
    page = ana.last_ephemeral()
    assert [o.value for o in page.select().options] == [str(g) for g in games[:1:-1]]
    assert "Page 1" in page.text
    assert [b.label for b in page.buttons] == ["Older games ▶"]

    await ana.click(page, "Older games ▶")
    older = ana.last_ephemeral()
    assert older.id == page.id  # the same message, not a new one
    assert [o.value for o in older.select().options] == [str(g) for g in games[1::-1]]
    assert "Page 2" in older.text
    assert [b.label for b in older.buttons] == ["◀ Newer games"]

    await ana.select(older, [str(games[0])])  # the oldest game's chart, from page 2
    assert "Game points" in ana.last_ephemeral().text

    await ana.click(older, "◀ Newer games")
    assert len(message(ana, page.id).select().options) == 10
    await fake.disconnect(bot)
    fake.assert_no_errors()


async def test_a_forged_history_page_is_refused_and_changes_nothing(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path,
) -> None:
    bot = await connect_bot(fake, clock, database_url(tmp_path))
    ana = fake.add_user("ana", locale="fr")
    await ana.slash("president history")
    shown = ana.last_ephemeral()
    assert "Aucune partie" in shown.text and not shown.buttons
    for arg in ("100", "-1", "x", ""):
        forged = {"custom_id": f"pz:0:history_page:0:{arg}", "component_type": BUTTON}
        await Forger(fake).send(ana, MESSAGE_COMPONENT, forged, message=shown)
        refusal = ana.last_ephemeral()
        assert refusal.id != shown.id and refusal.content == "⚠️ " + t("fr", "err.unknown_control")
    assert message(ana, shown.id).text == shown.text
    await fake.disconnect(bot)


@pytest.mark.parametrize("locale", ["fr", "en-US"])
async def test_a_history_page_of_long_named_joint_winners_fits_without_losing_a_game(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str,
) -> None:
    """The worst page: ten games of eight joint winners, each a 32-character name that
    escaping doubles, isolates or fills with emoji sequences. Cut at Discord's 4,096
    characters, the page stopped mid-name and its last games were gone. Every game keeps
    its line and every winner their place, the names shortened alike around « … »."""
    bot = await connect_bot(fake, clock, database_url(tmp_path))
    storage = bot.storage
    assert storage is not None
    typed = [f"{'_*' * 15}{i}" for i in range(4)] + [f"{'שלום_' * 6}#{i}" for i in range(2)] \
        + [f"{'👨‍👩‍👧‍👦' * 4}{i}" for i in range(2)]
    names = [player_name(name) for name in typed]
    seats = [SeatRef(100 + i, False, name) for i, name in enumerate(names)]
    table_id = await storage.create_table(fake.guild.id, fake.channel.id, 100,
                                          {"preset": "wild7", "set": {}})
    for number in range(1, 12):  # a full page, and an older game beyond it
        game_id = await storage.start_game(table_id, game_no=number, preset="wild7",
                                           rules={"preset": "wild7", "set": {}}, seats=seats)
        await storage.record_round(game_id, 1, ranking=list(range(8)),
                                   roles=["P", "VP", "N", "N", "N", "N", "VL", "L"],
                                   points=[0] * 8, seats=seats)
        await storage.finish_game(game_id, winners=list(range(8)), stopped_early=False)
    ana = fake.add_user("ana", locale=locale)

    await ana.slash("president history")
    (embed,) = ana.last_ephemeral().embeds
    page = embed.description or ""
    assert len(page) <= 4096
    lines = page.split("\n")
    assert len(lines) == 10  # the newest first, each by its number in the channel
    assert all(line.startswith(f"{n}. <t:") for n, line in zip(range(11, 1, -1), lines,
                                                                strict=True))
    for line in lines:
        at, winners = 0, []
        for name in names:  # each winner, in order, whole or shortened around « … »
            shown = next(s for s in [name, *(shortened(name, k) for k in range(40, 0, -1))]
                         if s in line[at:])
            assert shown == name or len(unescaped(shown)) >= 20
            at = line.index(shown, at) + len(shown)
            winners.append(shown)
        assert at == len(line)  # nothing after the last winner: the line is whole
        assert len(set(winners)) == len(names)  # names alike but for their end still differ
    await fake.disconnect(bot)
    fake.assert_no_errors()
