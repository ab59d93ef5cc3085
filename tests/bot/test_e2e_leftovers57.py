"""End-to-end and unit: small leftovers a player or a maintainer noticed (stop 57,
docs/bot.md « Small leftovers (stop 57) »)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest

from bot.i18n import t
from bot.packages.game import chart, unranked
from bot.packages.game.table_message import round_result_lines, standings
from bot.packages.privacy.views import detail
from bot.packages.rules_text import NAMED_AS, pooled_name
from bot.people import Person, Round, people
from bot.storage.records import KeptDetail, RatingKept, ServerKept
from engine import PRESETS, Game, Phase, Who
from fakediscord import FakeDiscord

from .conftest import LinkedClock
from .e2e import (
    Player,
    connect_bot,
    database_url,
    play_every_round,
    play_until,
    record_charts,
    tick,
    two_humans_against_a_bot,
)
from .test_e2e_playtest38_leftovers import bob_wins_the_first_round, next_round_then_leave


@pytest.mark.parametrize("locale", ["fr", "en-US"])
async def test_the_ratings_of_a_game_at_six_are_not_titled_four_seats(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    locale: str,
) -> None:
    """alice and bob play proletario opened to six (four bots fill it). Its history line
    reads « Proletario » (play-test 40), but `/president stats`, its rating chart, the
    leaderboard and `/privacy` titled the rating « Proletario (4 places, jokers) »: a
    rating that pools every proletario game of the server, whatever its seats. They now
    name what they pool, « Proletario »."""
    drawn = record_charts(monkeypatch)
    bot = await connect_bot(fake, clock, database_url(tmp_path), bot_pause=1.0)
    alice = Player(fake.add_user("alice", locale=locale))
    bob = Player(fake.add_user("bob", locale=locale))
    table, game = await two_humans_against_a_bot(fake, clock, bot, alice, bob, "proletario",
                                                 bots=0, max_players=6, game_end="rounds:1")
    assert game.seats == 6
    await play_every_round(fake, clock, table, [alice, bob])
    await bot.service.drain()
    pooled = t(locale, "preset_pooled.proletario")
    full = t(locale, "preset.proletario")
    drawn.clear()  # the game's points chart

    await alice.user.slash("president stats")
    [stats] = alice.user.last_ephemeral().embeds
    assert stats.description is not None
    assert f"**{pooled}** · " in stats.description, stats.description
    assert full not in stats.description
    assert [c.names for c in drawn] == [(pooled,)]

    await alice.user.slash("president leaderboard")  # the channel's table: proletario
    [board] = alice.user.last_ephemeral().embeds
    assert board.title == t(locale, "leaderboard.title", preset=pooled)
    assert f"<@{alice.user.id}>" in (board.description or "")

    await alice.user.slash("president privacy")
    shown = alice.user.last_ephemeral().text
    rated = t(locale, "privacy.rating", preset=pooled, rating="", rounds="").split(" · ")[0]
    assert rated in shown, shown
    assert full not in shown
    fake.assert_no_errors()
    await fake.disconnect(bot)


@pytest.mark.parametrize("locale", ["fr", "en-US"])
async def test_an_empty_leaderboard_names_what_it_would_rate(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, locale: str,
) -> None:
    """Asked for wild7's board before anyone is rated: neither « Les 7 remplacent » (a
    wild7 game whose host turned the 7s off counts there) nor its plain name « Président »
    (which names no preset: classic's is « Président classique »)."""
    bot = await connect_bot(fake, clock, database_url(tmp_path))
    alice = fake.add_user("alice", locale=locale)
    await alice.slash("president leaderboard", preset="wild7")
    [board] = alice.last_ephemeral().embeds
    pooled = t(locale, "preset_pooled.wild7")
    assert board.title == t(locale, "leaderboard.title", preset=pooled)
    assert board.description == t(locale, "leaderboard.empty", preset=pooled)
    fake.assert_no_errors()
    await fake.disconnect(bot)


@pytest.mark.parametrize("locale", ["fr", "en"])
def test_each_preset_s_pooled_name_is_true_of_all_its_games(locale: str) -> None:
    """A preset whose own name says something its host may change (`NAMED_AS`) pools its
    games under another name; no two presets share one, and none is a plain name another
    preset's own could be mistaken for (wild7's plain « Président »)."""
    names = {preset: pooled_name(locale, preset) for preset in PRESETS}
    assert len(set(names.values())) == len(names)
    for preset, name in names.items():
        if preset in NAMED_AS:
            assert name != t(locale, f"preset.{preset}"), preset
    assert names["wild7"] != t(locale, "preset_plain.wild7")
    assert pooled_name(locale, "tarot") == "tarot"  # a preset this version does not know


@pytest.mark.parametrize("locale", ["fr", "en"])
def test_the_rating_chart_and_privacy_name_the_pool(locale: str) -> None:
    """The rating chart's lines and `/privacy`'s ratings, one per preset, as the stats."""
    shown = chart.rating_chart(locale, "alice", {"proletario": [1], "wild7": [2]})
    assert shown is not None
    assert shown.names == (pooled_name(locale, "proletario"), pooled_name(locale, "wild7"))
    kept = KeptDetail(name=None, language=None, seat_names=(), servers=(ServerKept(
        guild_id=1, games=1, rounds=1, ratings=(RatingKept("presi", 1500, 3),)),))
    assert t(locale, "privacy.rating", preset=t(locale, "preset_pooled.presi"),
             rating=1500, rounds=t(locale, "n.rated.many", n=3)) in detail(locale, kept, {})


async def test_the_standings_find_the_people_and_read_the_standings_once(
    fake: FakeDiscord, clock: LinkedClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Classic to two rounds: bob wins the first and leaves the second, which a bot
    finishes; the final standings rank his seat « 🤖 bob », split. Drawing them found the
    kept rounds' people (`bot.people.people`) again for each stand-in seat, and read
    `Game.standings` a second time for the unranked lines; the round's lines found the
    people again per stand-in seat (stop 56's review). Once each now, the lines the same."""
    first = await bob_wins_the_first_round(fake, clock, tmp_path, "fr", 2)
    table, game = first.table, first.game
    await next_round_then_leave(fake, clock, first)
    await play_until(fake, clock, [], lambda: game.phase is Phase.GAME_OVER)
    await tick(fake, clock, 1)
    lines, rounds = standings("fr", table, game), round_result_lines("fr", table, game)
    share = "🤖 le bot qui a fini la manche à sa place"  # a stand-in's split, drawn
    assert any(line.startswith("1. **🤖 bob** · ") and share in line for line in lines), lines
    assert any("**🤖 bob** · " in line and share in line for line in rounds), rounds
    calls: Counter[str] = Counter()

    def counted_people(rounds: Sequence[Round]) -> list[Person]:
        calls["people"] += 1
        return people(rounds)

    read = Game.standings

    def counted_standings(self: Game) -> list[tuple[Who, int]]:
        calls["standings"] += 1
        return read(self)

    monkeypatch.setattr(unranked, "people", counted_people)
    monkeypatch.setattr(Game, "standings", counted_standings)
    assert standings("fr", table, game) == lines
    assert calls == {"people": 1, "standings": 1}
    calls.clear()
    assert round_result_lines("fr", table, game) == rounds
    assert calls == {"people": 1}
    fake.assert_no_errors()
    await fake.disconnect(first.bot)
