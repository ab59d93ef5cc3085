"""Where a line breaks the spacing of its language: French wants a no-break space before
« : ; ! ? », inside « » and between a number and its unit (bot/i18n/fr.py says which),
English no space at all before « : ; ! ? ».

Written apart from `bot.i18n.typography`, which sets the French spaces, so that a mistake
there shows here. Code spans are what a player types: they are not prose and are skipped.
"""

from __future__ import annotations

import re

NBSP = "\u00a0"
NNBSP = "\u202f"

_CODE_SPAN = re.compile(r"`[^`]*`")
# Punctuation, not the ":" of <t:{deadline}:R>, <:emoji:id>, https:// or 12:30: nothing
# word-like after it.
_PUNCTUATION = r"(?![\w/{])"

FRENCH = {
    "« : » without its no-break space": re.compile(rf"(?<!{NBSP}):{_PUNCTUATION}"),
    "« ; ! ? » without its thin no-break space": re.compile(rf"(?<!{NNBSP})[;!?]{_PUNCTUATION}"),
    "« without its thin no-break space": re.compile(rf"«(?!{NNBSP})"),
    "» without its thin no-break space": re.compile(rf"(?<!{NNBSP})»"),
    "a unit parted from its number": re.compile(
        rf"(\d|\{{\w+\}})[^{NBSP}\S](s|min|pts?|secondes?|minutes?)(?![\w’'])"),
    "thousands parted by a breaking space": re.compile(r"\d[^\u202f\S]\d{3}(?!\d)"),
}

ENGLISH = {
    "a space before « : ; ! ? »": re.compile(rf"\s[:;!?]{_PUNCTUATION}"),
    "a French no-break space": re.compile(f"[{NBSP}{NNBSP}]"),
}


def faults(text: str, language: str) -> list[str]:
    """What is wrong with ``text``'s spacing, by name: [] when nothing is."""
    prose = _CODE_SPAN.sub("`…`", text)
    checks = FRENCH if language == "fr" else ENGLISH
    return [name for name, pattern in checks.items() if pattern.search(prose)]
