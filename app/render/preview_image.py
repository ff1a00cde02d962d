"""The picture a chat app shows beside a permalink (Open Graph ``og:image``, issue 27): the
verdict and the counts of what must be verified first, drawn on a 1200×630 card.

It is drawn from the same fixed words as the preview's description (`app.render.tracker`),
never from document text, so a picture can leak nothing a title would not. Pillow draws it,
with the font Pillow carries (``ImageFont.load_default``), so the wheel ships no font and the
card looks the same on every machine. Pillow is imported when the first card is drawn: the
CLI never pays for it.
"""

from __future__ import annotations

import io
from functools import cache, lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL.ImageFont import FreeTypeFont

WIDTH, HEIGHT = 1200, 630  # what Open Graph consumers crop least (1.91:1)
MARGIN = 64
LINES_SHOWN = 5
INK = (27, 31, 35)
MUTED = (88, 96, 105)
PAPER = (255, 255, 255)
# The verdict's band: the badge's colours (app/render/tracker.py badge_message)
BANDS = {"invalid": (182, 2, 5), "verify": (179, 89, 0), "clear": (47, 125, 50)}


@cache
def _font(size: int) -> FreeTypeFont:
    from PIL import ImageFont

    font = ImageFont.load_default(size=size)
    assert isinstance(font, ImageFont.FreeTypeFont), "Pillow was built without FreeType"
    return font


# Cards are made of fixed words and counts, so most documents share one: each is drawn once.
@lru_cache(maxsize=256)
def preview_png(verdict: str, headline: str, lines: tuple[str, ...], band: str) -> bytes:
    """The card as PNG bytes: ``verdict`` large, ``headline`` under it, then up to
    LINES_SHOWN of ``lines`` and how many more; ``band`` is a key of BANDS."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 24, HEIGHT), fill=BANDS[band])
    x = MARGIN
    draw.text((x, 44), "OpenCheckpoint", font=_font(34), fill=MUTED)
    draw.text((x, 100), _fit(verdict, 64), font=_font(64), fill=INK)
    draw.text((x, 190), _fit(headline, 40), font=_font(40), fill=INK)
    y = 262
    for line in lines[:LINES_SHOWN]:
        draw.ellipse((x + 6, y + 14, x + 16, y + 24), fill=INK)  # the font has no bullet
        draw.text((x + 30, y), _fit(line, 32), font=_font(32), fill=INK)
        y += 46
    if len(lines) > LINES_SHOWN:
        more = len(lines) - LINES_SHOWN
        draw.text(
            (x + 30, y), f"and {more} more kind{'s' * (more != 1)}", font=_font(32), fill=MUTED
        )
    draw.text(
        (x, HEIGHT - 60),
        _fit("Checked at levels 1–2 only: valid never means authorized.", 26),
        font=_font(26),
        fill=MUTED,
    )
    out = io.BytesIO()
    # A palette of 32 colours keeps the anti-aliased text and makes a small file fast (an
    # optimized true-colour PNG takes a second to encode and is four times the size).
    image.quantize(colors=32, method=Image.Quantize.FASTOCTREE).save(
        out, format="PNG", compress_level=6
    )
    return out.getvalue()


# Pillow's own font is Latin without typographic punctuation: these would be drawn as boxes.
_PLAIN = str.maketrans({"–": "-", "—": "-", "·": "-", "…": "...", "’": "'"})


def _fit(text: str, size: int) -> str:
    """``text`` in the font's characters, cut to the card's width (fixed words rarely need
    it)."""
    text = text.translate(_PLAIN)
    font, room = _font(size), WIDTH - 2 * MARGIN
    if font.getlength(text) <= room:
        return text
    while text and font.getlength(text + "...") > room:
        text = text[:-1]
    return text + "..."
