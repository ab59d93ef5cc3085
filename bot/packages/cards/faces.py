"""Card faces drawn with Pillow: one 128×128 PNG per card of the presets' decks.

``python -m bot.packages.cards.faces`` redraws every face into ``bot/assets/cards/`` (the
files are committed, so the bot never draws at start-up). The faces are made to be read at
emoji size (about 22 pixels inline): a white card, the rank in large bold type on top and
the suit as a large plain shape below. French red suits are red and black suits black (the
coloured joker's star solid, the black joker's hollow: a shape as well as a colour); each
Spanish suit has its own colour and shape (gold coin, red cup, blue sword, green club) so
that oros, copas, espadas and bastos never look alike. Drawn at 4× and scaled down for
smooth edges.

French and Spanish decks reuse suit letters (``C`` is clubs and copas), so a face is named
by its deck family too: ``fr_10H``, ``es_KC``, ``fr_RJ``. A court a French reader writes
with another letter has a second face with that letter (``fr_DH`` beside ``fr_QH``), so a
face always shows what the text line above it says.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from functools import cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from engine import Card, Deck

SIZE = 128
_SCALE = 4
_S = SIZE * _SCALE
ASSETS = Path(__file__).resolve().parents[2] / "assets" / "cards"

#: Discord's cap on an emoji image (resources/emoji.md, "Create Application Emoji").
MAX_BYTES = 256 * 1024

_RED = (200, 30, 40)
_BLACK = (20, 20, 24)
_GOLD = (214, 150, 0)
_CUP_RED = (190, 30, 60)
_SWORD_BLUE = (25, 90, 190)
_CLUB_GREEN = (30, 130, 50)
_PAPER = (255, 255, 255)
_EDGE = (120, 120, 130)

#: Rank as printed on the face: international indices, Spanish courts by their initials
#: (Sota, Caballo, Rey, As), the words the bot writes for them.
_FRENCH_INDEX = {"J": "J", "Q": "Q", "K": "K", "A": "A"}
_SPANISH_INDEX = {"J": "S", "N": "C", "K": "R", "A": "A"}
#: The courts a French reader writes with another letter (V, D, R; a Spanish Sota is a
#: Valet: bot/i18n's « short.* »). Each has a second face, named by that letter (``fr_DH``,
#: ``es_VO``: no card's code), shown to French readers, so that the face under « D♥ » reads
#: D, not Q.
_FRENCH_READER = {False: {"J": "V", "Q": "D", "K": "R"}, True: {"J": "V"}}

Point = tuple[float, float]
# A suit's drawing: on `d`, centred on (cx, cy), of radius r, in a colour.
Shape = Callable[[ImageDraw.ImageDraw, float, float, float, tuple[int, int, int]], None]


def face_index(card: Card, spanish: bool, french: bool = False) -> str:
    """The rank as the face prints it, for a French reader or any other."""
    french_letter = _FRENCH_READER[spanish].get(card.rank) if french else None
    return french_letter or (_SPANISH_INDEX if spanish else _FRENCH_INDEX).get(card.rank,
                                                                               card.rank)


def face_key(card: Card, spanish: bool, french: bool = False) -> str:
    """The face's name: deck family and card code (``es_KC`` is the Rey de copas), or for
    a French reader's court its own letter (``fr_DH``, the Dame de cœur)."""
    if card.is_joker:
        return "fr_" + card.rank
    family = "es_" if spanish else "fr_"
    if french and card.rank in _FRENCH_READER[spanish]:
        return family + face_index(card, spanish, french) + card.suit
    return family + card.text


def card_of_face(key: str) -> tuple[Card, bool]:
    """The card a face shows, and whether it is Spanish: ``fr_DH`` is the Dame de cœur, as
    ``fr_QH`` is (for what prints faces as text, the sandbox)."""
    return _faces_by_key()[key]


@cache
def _faces_by_key() -> dict[str, tuple[Card, bool]]:
    return {face_key(*face): (face[0], face[1]) for face in face_cards()}


def face_cards() -> list[tuple[Card, bool, bool]]:
    """Every face: each card the presets deal, with whether it is Spanish (52 + 2 jokers +
    48), and the French readers' courts (12 French, 4 Spanish), marked French."""
    decks = [(c, False) for c in Deck.FRENCH54.cards()] + \
        [(c, True) for c in Deck.SPANISH48.cards()]
    return [(c, spanish, False) for c, spanish in decks] + \
        [(c, spanish, True) for c, spanish in decks if c.rank in _FRENCH_READER[spanish]]


def _font(size: int) -> ImageFont.FreeTypeFont:
    """DejaVu Sans Bold as shipped inside matplotlib (a dependency), so every machine draws
    the same faces without system fonts."""
    import matplotlib

    path = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans-Bold.ttf"
    return ImageFont.truetype(str(path), size)


def _heart(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: tuple[int, int, int]
           ) -> None:
    lobe = r * 0.52
    d.ellipse((cx - 2 * lobe + r * 0.04, cy - r * 0.75, cx + r * 0.04, cy - r * 0.75 + 2 * lobe),
              fill=fill)
    d.ellipse((cx - r * 0.04, cy - r * 0.75, cx + 2 * lobe - r * 0.04, cy - r * 0.75 + 2 * lobe),
              fill=fill)
    d.polygon([(cx - r * 0.98, cy - r * 0.1), (cx + r * 0.98, cy - r * 0.1), (cx, cy + r)],
              fill=fill)


def _spade(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: tuple[int, int, int]
           ) -> None:
    lobe = r * 0.5
    top = cy + r * 0.05
    d.ellipse((cx - 2 * lobe + r * 0.04, top - lobe, cx + r * 0.04, top + lobe), fill=fill)
    d.ellipse((cx - r * 0.04, top - lobe, cx + 2 * lobe - r * 0.04, top + lobe), fill=fill)
    d.polygon([(cx - r * 0.97, top + r * 0.05), (cx + r * 0.97, top + r * 0.05), (cx, cy - r)],
              fill=fill)
    d.polygon([(cx, cy + r * 0.2), (cx - r * 0.35, cy + r), (cx + r * 0.35, cy + r)], fill=fill)


def _diamond(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: tuple[int, int, int]
             ) -> None:
    d.polygon([(cx, cy - r), (cx + r * 0.75, cy), (cx, cy + r), (cx - r * 0.75, cy)], fill=fill)


def _club(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: tuple[int, int, int]
          ) -> None:
    lobe = r * 0.42
    for dx, dy in ((0.0, -0.5), (-0.5, 0.08), (0.5, 0.08)):
        x, y = cx + dx * r, cy + dy * r
        d.ellipse((x - lobe, y - lobe, x + lobe, y + lobe), fill=fill)
    d.polygon([(cx, cy - r * 0.1), (cx - r * 0.35, cy + r), (cx + r * 0.35, cy + r)], fill=fill)


def _oros(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: tuple[int, int, int]
          ) -> None:
    """A gold coin: a disc, a dark ring and a sun in the middle."""
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
    ring = r * 0.72
    d.ellipse((cx - ring, cy - ring, cx + ring, cy + ring), outline=(120, 80, 0), width=int(r * 0.1))
    star: list[Point] = []
    for i in range(16):
        rad = r * (0.45 if i % 2 == 0 else 0.22)
        angle = math.pi * i / 8
        star.append((cx + rad * math.cos(angle), cy + rad * math.sin(angle)))
    d.polygon(star, fill=(120, 80, 0))


def _copas(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: tuple[int, int, int]
           ) -> None:
    """A chalice: a wide bowl, a stem and a foot."""
    d.chord((cx - r, cy - r * 1.3, cx + r, cy + r * 0.3), 0, 180, fill=fill)
    d.rectangle((cx - r, cy - r * 0.55, cx + r, cy - r * 0.45), fill=fill)
    d.rectangle((cx - r * 0.12, cy + r * 0.2, cx + r * 0.12, cy + r * 0.75), fill=fill)
    d.ellipse((cx - r * 0.6, cy + r * 0.65, cx + r * 0.6, cy + r), fill=fill)


def _espadas(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: tuple[int, int, int]
             ) -> None:
    """A sword pointing up: a long blade, a wide crossguard, a grip and a pommel."""
    d.polygon([(cx, cy - r * 1.05), (cx + r * 0.24, cy - r * 0.8), (cx + r * 0.24, cy + r * 0.4),
               (cx - r * 0.24, cy + r * 0.4), (cx - r * 0.24, cy - r * 0.8)], fill=fill)
    d.rectangle((cx - r * 0.6, cy + r * 0.4, cx + r * 0.6, cy + r * 0.55), fill=fill)
    d.rectangle((cx - r * 0.1, cy + r * 0.55, cx + r * 0.1, cy + r * 0.85), fill=fill)
    d.ellipse((cx - r * 0.17, cy + r * 0.8, cx + r * 0.24, cy + r * 1.1), fill=fill)


def _bastos(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: tuple[int, int, int]
            ) -> None:
    """A knotted cudgel, slanted: thick at the top, thin at the handle."""
    top, bottom = (cx + r * 0.45, cy - r * 0.65), (cx - r * 0.45, cy + r * 0.95)
    dx, dy = top[0] - bottom[0], top[1] - bottom[1]
    length = math.hypot(dx, dy)
    nx, ny = -dy / length, dx / length
    wide, thin = r * 0.38, r * 0.16
    d.polygon([(top[0] + nx * wide, top[1] + ny * wide), (top[0] - nx * wide, top[1] - ny * wide),
               (bottom[0] - nx * thin, bottom[1] - ny * thin),
               (bottom[0] + nx * thin, bottom[1] + ny * thin)], fill=fill)
    d.ellipse((top[0] - wide, top[1] - wide, top[0] + wide, top[1] + wide), fill=fill)
    for t, side in ((0.35, 1), (0.6, -1)):
        x, y = bottom[0] + dx * t, bottom[1] + dy * t
        w = thin + (wide - thin) * t
        kx, ky = x + side * nx * w, y + side * ny * w
        knot = r * 0.16
        d.ellipse((kx - knot, ky - knot, kx + knot, ky + knot), fill=fill)


def _star_points(cx: float, cy: float, r: float) -> list[Point]:
    points: list[Point] = []
    for i in range(10):
        rad = r if i % 2 == 0 else r * 0.45
        angle = -math.pi / 2 + math.pi * i / 5
        points.append((cx + rad * math.cos(angle), cy + rad * math.sin(angle)))
    return points


def _star(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: tuple[int, int, int]
          ) -> None:
    d.polygon(_star_points(cx, cy, r), fill=fill)


def _hollow_star(d: ImageDraw.ImageDraw, cx: float, cy: float, r: float,
                 fill: tuple[int, int, int]) -> None:
    """The black joker's star: an outline, where the coloured joker's is solid."""
    d.polygon(_star_points(cx, cy, r), outline=fill, width=int(r * 0.2))


_SUITS: dict[tuple[bool, str], tuple[Shape, tuple[int, int, int]]] = {
    (False, "S"): (_spade, _BLACK),
    (False, "H"): (_heart, _RED),
    (False, "D"): (_diamond, _RED),
    (False, "C"): (_club, _BLACK),
    (True, "O"): (_oros, _GOLD),
    (True, "C"): (_copas, _CUP_RED),
    (True, "E"): (_espadas, _SWORD_BLUE),
    (True, "B"): (_bastos, _CLUB_GREEN),
}


def draw_face(card: Card, spanish: bool, french: bool = False) -> Image.Image:
    """One face at 128×128: rank on top, suit below, on a white card with a grey edge."""
    image = Image.new("RGBA", (_S, _S), (0, 0, 0, 0))
    d = ImageDraw.Draw(image)
    margin = 6 * _SCALE
    d.rounded_rectangle((margin, 0, _S - margin, _S - 1), radius=14 * _SCALE, fill=_PAPER,
                        outline=_EDGE, width=2 * _SCALE)
    if card.is_joker:
        # The coloured joker outranks the black one (RULES.md, jokers): their stars differ
        # in shape, solid or hollow, not only in colour, for players who cannot tell red
        # from black.
        colour, star = (_RED, _star) if card.rank == "RJ" else (_BLACK, _hollow_star)
        star(d, _S / 2, _S * 0.4, _S * 0.3, colour)
        d.text((_S / 2, _S * 0.86), "JOKER", font=_font(25 * _SCALE), fill=colour, anchor="mm")
    else:
        shape, colour = _SUITS[(spanish, card.suit)]
        index = face_index(card, spanish, french)
        size = 58 if len(index) == 1 else 50
        d.text((_S / 2, _S * 0.27), index, font=_font(size * _SCALE), fill=colour, anchor="mm")
        shape(d, _S / 2, _S * 0.75, _S * 0.2, colour)
    return image.resize((SIZE, SIZE), Image.Resampling.LANCZOS)


def write_faces(directory: Path = ASSETS) -> list[Path]:
    """Draw every face into ``directory`` as ``<key>.png`` and return the paths."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for card, spanish, french in face_cards():
        path = directory / f"{face_key(card, spanish, french)}.png"
        draw_face(card, spanish, french).save(path, format="PNG", optimize=True)
        if path.stat().st_size > MAX_BYTES:
            raise ValueError(f"{path.name} is over Discord's 256 KiB emoji limit")
        paths.append(path)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ASSETS, help="directory for the PNGs")
    out = parser.parse_args().out
    paths = write_faces(out)
    largest = max(p.stat().st_size for p in paths)
    print(f"{len(paths)} faces in {out}, largest {largest} bytes")


if __name__ == "__main__":
    main()
