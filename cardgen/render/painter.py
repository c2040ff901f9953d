"""One drawing vocabulary, two back ends: reportlab (PDF) and Pillow (PNG).

Coordinates are millimetres from the top-left corner of a frame (a card or a page), y downwards,
so a layout in templates/ reads the same in both. Text is placed by its baseline.
"""
from __future__ import annotations

import functools
import math
from typing import Protocol
from collections.abc import Sequence

from PIL import Image, ImageDraw, ImageFont
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from cardgen.render.fonts import PDF_NAMES, font_path, printable, register_fonts
from cardgen.render.layout import MM, hex_to_rgb


class Painter(Protocol):
    def rect(self, x: float, y: float, w: float, h: float, fill: str | None = None,
             stroke: str | None = None, width: float = 0.2) -> None: ...

    def line(self, x1: float, y1: float, x2: float, y2: float, colour: str = "#000000",
             width: float = 0.2, dash: Sequence[float] | None = None) -> None: ...

    def text(self, x: float, y: float, text: str, style: str, size_pt: float,
             colour: str = "#000000", align: str = "left") -> None: ...


class PdfPainter:
    """Draws on a reportlab canvas; the frame's top-left corner is at (left_pt, top_pt)."""

    def __init__(self, canvas: Canvas, left_pt: float, top_pt: float) -> None:
        register_fonts()
        self.canvas = canvas
        self.left = left_pt
        self.top = top_pt

    def _x(self, x: float) -> float:
        return self.left + x * MM

    def _y(self, y: float) -> float:
        return self.top - y * MM

    def rect(self, x: float, y: float, w: float, h: float, fill: str | None = None,
             stroke: str | None = None, width: float = 0.2) -> None:
        c = self.canvas
        if fill:
            c.setFillColorRGB(*hex_to_rgb(fill))
        if stroke:
            c.setStrokeColorRGB(*hex_to_rgb(stroke))
            c.setLineWidth(width * MM)
        c.rect(self._x(x), self._y(y + h), w * MM, h * MM, stroke=1 if stroke else 0,
               fill=1 if fill else 0)

    def line(self, x1: float, y1: float, x2: float, y2: float, colour: str = "#000000",
             width: float = 0.2, dash: Sequence[float] | None = None) -> None:
        c = self.canvas
        c.setStrokeColorRGB(*hex_to_rgb(colour))
        c.setLineWidth(width * MM)
        if dash:
            c.setDash([d * MM for d in dash])
        c.line(self._x(x1), self._y(y1), self._x(x2), self._y(y2))
        if dash:
            c.setDash([])

    def text(self, x: float, y: float, text: str, style: str, size_pt: float,
             colour: str = "#000000", align: str = "left") -> None:
        c = self.canvas
        c.setFillColorRGB(*hex_to_rgb(colour))
        name = PDF_NAMES[style]
        c.setFont(name, size_pt)
        text = printable(text)
        x_pt = self._x(x)
        if align != "left":
            width = _string_width(text, name, size_pt)
            x_pt -= width if align == "right" else 0.5 * width
        # the operators canvas.drawString writes for a TrueType font, without its text object
        # (a card draws ~30 texts: this is most of a card sheet's time); the same bytes
        c._code.append(f"BT 1 0 0 1 {fp_str(x_pt, self._y(y))} Tm {_shown(c, name, size_pt, text)} T* ET")


def _shown(c: Canvas, name: str, size_pt: float, text: str) -> str:
    """The font selection and show operators of `text` on canvas `c`, kept for the canvas's
    document: a font assigns each character to a subset of the document the first time it is
    seen there and never moves it, so the operators of a text repeated on a page or card (labels,
    chart results) are the same every time."""
    try:
        cache = c._cardgen_shown
    except AttributeError:
        cache = c._cardgen_shown = {}
    key = (name, size_pt, c._leading, text)
    shown = cache.get(key)
    if shown is None:
        font = _pdf_font(name)
        doc = c._doc
        head = f"{fp_str(size_pt)} Tf {fp_str(c._leading)} TL"
        parts = []
        current = -1
        for subset, chunk in font.splitString(text, doc):
            if subset != current:
                parts.append(f"{font.getSubsetInternalName(subset, doc)} {head}")
                current = subset
            parts.append(f"({c._escape(chunk)}) Tj")
        shown = cache[key] = " ".join(parts)
    return shown


@functools.cache
def _pdf_font(name: str):  # type: ignore[no-untyped-def]
    return pdfmetrics.getFont(name)


@functools.lru_cache(maxsize=8192)
def _string_width(text: str, name: str, size_pt: float) -> float:
    return pdfmetrics.stringWidth(text, name, size_pt)


@functools.lru_cache(maxsize=256)
def _pil_font(style: str, size_px: float) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(font_path(style), size=size_px)


class PilPainter:
    """Draws on a Pillow RGB image at `dpi`; the frame's top-left corner is pixel (0, 0)."""

    def __init__(self, image: Image.Image, dpi: float) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)
        self.px_per_mm = dpi / 25.4
        self.px_per_pt = dpi / 72.0

    def _p(self, v: float) -> float:
        return v * self.px_per_mm

    def _w(self, width_mm: float) -> int:
        return max(1, round(width_mm * self.px_per_mm))

    def rect(self, x: float, y: float, w: float, h: float, fill: str | None = None,
             stroke: str | None = None, width: float = 0.2) -> None:
        box = [self._p(x), self._p(y), self._p(x + w) - 1, self._p(y + h) - 1]
        self.draw.rectangle(box, fill=fill, outline=stroke, width=self._w(width) if stroke else 0)

    def line(self, x1: float, y1: float, x2: float, y2: float, colour: str = "#000000",
             width: float = 0.2, dash: Sequence[float] | None = None) -> None:
        self.draw.line([self._p(x1), self._p(y1), self._p(x2), self._p(y2)], fill=colour,
                       width=self._w(width))

    def text(self, x: float, y: float, text: str, style: str, size_pt: float,
             colour: str = "#000000", align: str = "left") -> None:
        anchor = {"left": "ls", "centre": "ms", "right": "rs"}[align]
        text = printable(text)
        font = _pil_font(style, round(size_pt * self.px_per_pt, 1))
        px, py = self._p(x), self._p(y)
        if "\n" in text or self.draw.fontmode != "L":
            self.draw.text((px, py), text, fill=colour, anchor=anchor, font=font)
            return
        # what ImageDraw.text does for one line, with the glyph mask cached: every card repeats
        # most of its labels at the same sub-pixel offsets (tests/test_render_images.py checks
        # that the pixels are the same as ImageDraw.text's)
        fx, fy = math.modf(px)[0], math.modf(py)[0]
        mask, (ox, oy) = _glyph_mask(font, text, anchor, fx, fy)
        self.draw.draw.draw_bitmap((int(px) + ox, int(py) + oy), mask, self.draw._getink(colour)[0])


@functools.lru_cache(maxsize=2048)  # a card's labels stay cached; names come and go
def _glyph_mask(font: ImageFont.FreeTypeFont, text: str, anchor: str, fx: float,
                fy: float) -> tuple[object, tuple[int, int]]:
    return font.getmask2(text, "L", anchor=anchor, start=(fx, fy))
