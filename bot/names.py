"""Players' names as tables show them: their length, their direction, and two players of
one name, or of names that look alike (`bot.lookalike`), told apart.

Apart from the markdown escaping (`bot.packages.text`, which needs discord.py), so that the
table runtime, which knows nothing of Discord, can number a second « Twin » itself.
"""

from __future__ import annotations

import unicodedata

import regex

from bot.lookalike import likeness

NAME_LENGTH = 32  # Discord's longest display name
# First strong isolate and pop directional isolate (UAX #9, section 2.7): what stands
# between them is laid out apart from the line around it.
ISOLATE, POP = "\u2068", "\u2069"
# One character of an escaped name as a reader sees it: a grapheme cluster (UAX #29, see
# `bot.graphemes`), with the backslash escaping it if any (group 1 is what is shown).
_TYPED = regex.compile(r"\\?(\X)")


def isolated(name: str) -> str:
    """``name`` between isolates when it holds right-to-left letters (Arabic, Hebrew…).
    Without them, the numbers and signs after such a name in a line join its run and are
    drawn before it: « **مرحبا** · 6 cartes » reads « 6 · مرحبا cartes ». Left-to-right
    names are left as they are: nothing around them moves."""
    if any(unicodedata.bidirectional(c) in ("R", "AL") for c in name):
        return f"{ISOLATE}{name}{POP}"
    return name


def numbered(shown: str, number: int) -> str:
    """A name as messages show it (escaped, maybe isolated), marked « (2) », « (3) »… for
    the second, third player of that name at a table. The name gives way to the mark so it
    stays within Discord's length (its shown code points: escapes are not shown), cut
    between grapheme clusters, never inside an escape, an emoji sequence or an accent."""
    mark = f" ({number})"
    return isolated("".join(_within(_typed(shown), NAME_LENGTH - len(mark))).rstrip() + mark)


def shortened(shown: str, length: int) -> str:
    """A name as messages show it, within ``length`` shown characters (at least 1): past
    it, its start and its end either side of « … », cut as `numbered` cuts. The end stays
    so that names alike but for it, twins numbered « (2) » first, are still told apart."""
    typed = _typed(shown)
    if sum(len(visible) for _, visible in typed) <= length:
        return shown
    room = length - 1
    end = "".join(reversed(_within(typed[::-1], room // 3))).lstrip()
    start = "".join(_within(typed, room - room // 3)).rstrip()
    return isolated(f"{start}…{end}")


def _typed(shown: str) -> list[tuple[str, str]]:
    """An escaped name's typed characters (its isolates left out), each as written and as
    shown (the escaped cluster)."""
    bare = shown.removeprefix(ISOLATE).removesuffix(POP)
    return [(typed[0], typed[1]) for typed in _TYPED.finditer(bare)]


def _within(typed: list[tuple[str, str]], room: int) -> list[str]:
    """The first of ``typed`` that fit in ``room`` shown code points, as written."""
    kept = []
    for written, visible in typed:
        room -= len(visible)
        if room < 0:
            break
        kept.append(written)
    return kept


def unique(name: str, taken: set[str]) -> str:
    """``name``, numbered from 2 when one of ``taken`` already goes by it or by a name that
    looks like it (`alike`): members may share a display name, or take one to pass for
    another player, and the table message, the history, the results and the chart would
    then mix the two up."""
    number, shown = 1, name
    while alike(shown, taken):
        number += 1
        shown = numbered(name, number)
    return shown


def alike(name: str, taken: set[str]) -> bool:
    """Whether one of ``taken`` goes by ``name`` or by a name that looks like it
    (`bot.lookalike`: « Тwin » with a Cyrillic Т, « twin », « Tw\u200bin »…), all of
    them as messages show them: escapes and isolates do not count."""
    key = likeness(_plain(name))
    return name in taken or any(key & likeness(_plain(other)) for other in taken)


def _plain(shown: str) -> str:
    """An escaped name as a reader sees it."""
    return "".join(visible for _, visible in _typed(shown))
