"""Names that look alike, by Unicode's own measure: the skeletons of UTS #39 (« Unicode
Security Mechanisms », section 4, Confusable Detection). Two strings whose skeletons are
equal are confusable: « Тwin » with a Cyrillic Т, « Ｔｗｉｎ » in fullwidth letters,
« Twin » with a zero-width space inside, « Alice » and « AIice » or « A1ice » (l, I and 1
draw alike in Discord's font), « B0B » and « BOB », « Zoé » typed as one character or as
« e » and an accent.

The data is Unicode's own ``confusables.txt``, as published (18.0.0; its header, with
Unicode's copyright and the version, kept: the Unicode License v3 lets it be passed on so),
in ``bot/assets/unicode/``: no package on the registry keeps it current with a skeleton to
compute. ``confusable_homoglyphs`` lists each character's look-alikes both ways, which
loses the prototype a skeleton maps to; ``confusables`` ships the 13.0 table of 2020;
ICU's spoof checker (PyICU) brings 170 MB of libraries; ``disarm`` builds a key of its own
(case folded, 0 and 1 kept apart from O and l), not UTS #39's. The algorithm itself is
four steps, below.

Case is a separate question: UTS #39's data is case-sensitive (« A » and « a » are not
confusable), but players read names at a glance and say them aloud, where « alice » is
« Alice ». `likeness` folds case too, as a second key. Accents are kept: « Léa » and
« Lea » are two names, and a skeleton keeps the accent (only an accent drawn alike, such
as a combining one for a precomposed one, is the same).
"""

from __future__ import annotations

import unicodedata
from functools import cache
from pathlib import Path

import regex

DATA = Path(__file__).parent / "assets" / "unicode" / "confusables.txt"
_IGNORABLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")


@cache
def prototypes() -> dict[str, str]:
    """Each confusable character's prototype: what ``confusables.txt`` maps it to (« 0 » →
    « O », « m » → « rn », the Cyrillic « Т » → « T »)."""
    mapped = {}
    for line in DATA.read_text(encoding="utf-8-sig").splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 2:
            continue
        source, target = fields[0].strip(), fields[1].split()
        mapped[chr(int(source, 16))] = "".join(chr(int(c, 16)) for c in target)
    return mapped


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, default-ignorable code points removed (zero-width spaces
    and joiners, variation selectors, isolates…), each character replaced by its
    prototype, NFD again."""
    mapped = prototypes()
    bare = _IGNORABLE.sub("", unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", "".join(mapped.get(c, c) for c in bare))


def likeness(text: str) -> frozenset[str]:
    """What ``text`` is compared by: its skeleton as typed and once case is folded. Two
    texts look alike when they share one: the first alone would miss « Alice » and
    « alice », the second « Iris » and « lris » (folded first, « I » is « i », no longer
    « l »)."""
    return frozenset((skeleton(text), skeleton(text.casefold())))
