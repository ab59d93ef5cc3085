"""Text the bot shortens is cut where a reader sees a break: between grapheme clusters
(UAX #29), never inside an emoji sequence, a flag, an emoji and its skin tone, or a letter
and its combining accent."""

import pytest
import regex

from bot.graphemes import cut
from bot.names import NAME_LENGTH, numbered
from bot.packages.text import clipped, player_name

FAMILY = "👨\u200d👩\u200d👧\u200d👦"  # four emoji joined by zero-width joiners
FRANCE = "🇫🇷"  # two regional indicators
THUMB = "👍🏽"  # an emoji and its skin-tone modifier
ACCENT = "e\u0301"  # « é » as a letter and a combining acute accent
# Each name overruns the room the mark « (2) » leaves (28) by cutting inside a cluster.
NAMES = ["a" * 26 + FAMILY, "a" + FRANCE * 15, "a" + THUMB * 15, "a" + ACCENT * 15,
         "ab" + FAMILY * 4]


def clusters(text: str) -> list[str]:
    return regex.findall(r"\X", text)


def whole_start(part: str, text: str) -> bool:
    """Whether ``part`` is ``text``'s first clusters, each whole."""
    shown = clusters(part)
    return shown == clusters(text)[:len(shown)]


@pytest.mark.parametrize("name", NAMES,
                         ids=["family", "flags", "tones", "accents", "families"])
def test_a_numbered_name_gives_way_by_whole_characters(name: str) -> None:
    second = numbered(player_name(name), 2)
    kept = second.removesuffix(" (2)")
    assert second.endswith(" (2)") and len(second) <= NAME_LENGTH
    assert kept and whole_start(kept, name)


def test_a_name_past_discords_length_is_cut_between_characters() -> None:
    name = "a" + FAMILY * 5  # 36 code points
    shown = player_name(name)
    assert len(shown) <= NAME_LENGTH and whole_start(shown, name)
    assert shown == "a" + FAMILY * 4


@pytest.mark.parametrize("piece", [FAMILY, FRANCE, THUMB, ACCENT],
                         ids=["family", "flag", "tone", "accent"])
def test_a_clipped_line_ends_with_whole_characters(piece: str) -> None:
    line = "Gagnants : " + piece * 30
    for limit in range(12, 40):
        shown = clipped(line, limit)
        assert shown.endswith("…") and len(shown) <= limit
        assert whole_start(shown.removesuffix("…"), line)


def test_cut_keeps_every_cluster_that_fits_whole() -> None:
    assert cut("ab" + FAMILY, 8) == "ab"
    assert cut("ab" + FAMILY, 9) == "ab" + FAMILY
    assert cut(FRANCE * 3, 5) == FRANCE * 2
    assert cut("한국어", 2) == "한국"  # precomposed syllables: one code point each
    assert cut("\u1112\u1161\u11ab" * 2, 4) == "\u1112\u1161\u11ab"  # conjoining jamo
    assert cut("short", 10) == "short"
