"""Text cut to a length where a reader sees a break: between grapheme clusters (UAX #29,
« Unicode Text Segmentation »). Cut by code points, 👨‍👩‍👧‍👦 (four emoji joined by zero-width
joiners) would show as 👨‍👩, the flag 🇫🇷 (two regional indicators) as a lone letter in a
box, 👍🏽 as 👍 beside a stray skin-tone swatch, and « é » written with a combining accent
as « e » with the accent lost or floating on what follows.

The rules for emoji sequences change with each Unicode version, so the clusters come from
the `regex` package's ``\\X``, kept current with Unicode, rather than a copy of the rules
here; the standard `re` has no such pattern.
"""

from __future__ import annotations

import regex

CLUSTER = regex.compile(r"\X")


def cut(text: str, limit: int) -> str:
    """The longest start of ``text`` within ``limit`` code points (how Discord counts its
    lengths) that ends between two clusters: a cluster that would not fit goes whole."""
    if len(text) <= limit:
        return text
    end = 0
    for cluster in CLUSTER.finditer(text):
        if cluster.end() > limit:
            break
        end = cluster.end()
    return text[:end]
