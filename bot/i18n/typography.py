"""French no-break spaces, set once on the French catalogue as it loads.

The catalogue is written with ordinary spaces (« Règles : {summary} »), as anyone can type
and review them; this turns the ones French typography binds to their neighbour into
no-break spaces, so Discord never starts a line with a lone « ? », « : » or « » ». Code
spans are left exactly as written: a player types them (`/president règles`).
"""

from __future__ import annotations

import re

#: Espace insécable, a word space that does not break: before « : », between a number and
#: its unit.
NBSP = "\u00a0"
#: Espace fine insécable, a thin one that does not break: before « ; ! ? », inside « ».
NNBSP = "\u202f"

_CODE_SPAN = re.compile(r"(`[^`]*`)")
# Punctuation, not the ":" of a shortcode, a timestamp or a URL: nothing word-like after it.
_BEFORE_COLON = re.compile(r" (?=:(?![\w/{]))")
_BEFORE_THIN = re.compile(r" (?=[;!?](?![\w/{]))")
_AFTER_OPENING = re.compile(r"« ")
_BEFORE_CLOSING = re.compile(r" »")
#: Units a number is never parted from: seconds and minutes, and the points of a score as
#: the table abbreviates them. Whole words (« 5 manches », « 11 points ») are left free: the
#: settings form reads them back as typed.
UNITS = r"(?:s|min|pts?|secondes?|minutes?)(?![\w’'])"
_BEFORE_UNIT = re.compile(r"(\d|\{\w+\}) (?=" + UNITS + ")")


def _outside_code(text: str) -> str:
    text = _BEFORE_COLON.sub(NBSP, text)
    text = _BEFORE_THIN.sub(NNBSP, text)
    text = _AFTER_OPENING.sub("«" + NNBSP, text)
    text = _BEFORE_CLOSING.sub(NNBSP + "»", text)
    return _BEFORE_UNIT.sub(r"\1" + NBSP, text)


def french(text: str) -> str:
    """``text`` with French no-break spaces, its code spans untouched."""
    return "".join(part if part.startswith("`") else _outside_code(part)
                   for part in _CODE_SPAN.split(text))
