"""/president stats and leaderboard within an embed's 4,096 characters, in the worst case:
their text is cut there (between graphemes) as a last resort, which would stop a line
mid-word. Unlike a history page (ten games of up to eight joint winners, whose names are
shortened to fit), their length is bounded: it is measured here, in both languages, with
counts, ranks, ratings and ids far past anything a server reaches, every preset and role
played, the longest name of markdown characters, and the rating chart's alt text in place
of the chart."""

import pytest

from bot.packages.game import chart
from bot.packages.screen import EMBED_DESCRIPTION
from bot.packages.stats.display import board_lines, record_lines
from bot.packages.text import player_name
from bot.storage.records import (
    Leaderboard,
    LeaderboardRow,
    PlayerStats,
    PresetRating,
    PresetRoles,
)
from engine import PRESETS
from engine.rules import ROLE_CODES

from .test_e2e_playtest5_stats import MARKDOWN_NAMES

HUGE = 10**12  # rounds, games, wins, ranks: past any server's lifetime
RATING = -(10**7)  # a display rating far out of its range, with a sign
USER_ID = 2**64 - 1  # the longest snowflake
LOCALES = ["fr", "en"]


def worst_record(rated: bool) -> PlayerStats:
    ratings = tuple(PresetRating(preset, RATING, 0.0, 0.0, HUGE) for preset in PRESETS)
    return PlayerStats(
        guild_id=USER_ID, user_id=USER_ID, name=MARKDOWN_NAMES[0], preset=None,
        rounds=HUGE, games=HUGE, cancelled=HUGE, wins=HUGE, points=HUGE,
        ratings=ratings if rated else (),
        roles=tuple(PresetRoles(preset, HUGE, {code: HUGE for code in ROLE_CODES})
                    for preset in PRESETS))


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("rated", [True, False])
def test_stats_fit_whole_in_the_worst_case(locale: str, rated: bool) -> None:
    name = player_name(MARKDOWN_NAMES[0])  # escaped: twice as long
    history = {preset: [RATING] * 10_000 for preset in PRESETS}
    shown = chart.rating_chart(locale, name, history)
    assert shown is not None and len(shown.alt) > chart.MAX_ALT * 9 // 10  # near its limit
    lines = record_lines(locale, worst_record(rated), shown.alt)
    assert len(lines) == 2 + 2 * len(PRESETS)
    assert len("\n".join(lines)) <= EMBED_DESCRIPTION


@pytest.mark.parametrize("locale", LOCALES)
def test_the_leaderboard_fits_whole_in_the_worst_case(locale: str) -> None:
    def row(rank: int) -> LeaderboardRow:
        return LeaderboardRow(rank=rank, user_id=USER_ID, name=MARKDOWN_NAMES[0],
                              rating=RATING, mu=0.0, sigma=0.0, rounds=HUGE)

    board = Leaderboard(guild_id=USER_ID, preset="proletario",
                        rows=tuple(row(HUGE - 10 + i) for i in range(10)),
                        caller=row(HUGE), total=HUGE)
    for best in (None, 11):  # the caller's number said to be approximate (stop 51, 52)
        lines = board_lines(locale, board, best=best)
        assert len(lines) == 11 and all(str(USER_ID) in line for line in lines)
        assert len("\n".join(lines)) <= EMBED_DESCRIPTION
