"""Players' names as tables show them: their length, their direction, and two players of
one name told apart.

Apart from the markdown escaping (`bot.packages.text`, which needs discord.py), so that the
table runtime, which knows nothing of Discord, can number a second « Twin » itself.
"""

from __future__ import annotations

import re
import unicodedata

NAME_LENGTH = 32  # Discord's longest display name
# First strong isolate and pop directional isolate (UAX #9, section 2.7): what stands
# between them is laid out apart from the line around it.
ISOLATE, POP = "\u2068", "\u2069"
# One typed character of an escaped name: a backslash with the character it escapes, or
# any other single character.
_TYPED = re.compile(r"\\.|.", re.DOTALL)


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
    stays within Discord's length, cut between typed characters, never inside an escape."""
    mark = f" ({number})"
    typed = _TYPED.findall(shown.removeprefix(ISOLATE).removesuffix(POP))
    return isolated("".join(typed[:NAME_LENGTH - len(mark)]).rstrip() + mark)


def unique(name: str, taken: set[str]) -> str:
    """``name``, numbered from 2 when one of ``taken`` already goes by it: members may share
    a display name, and the table message, the history, the results and the chart would
    then mix the two players up."""
    number, shown = 1, name
    while shown in taken:
        number += 1
        shown = numbered(name, number)
    return shown
