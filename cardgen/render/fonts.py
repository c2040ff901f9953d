"""Fonts and fitting text into boxes.

The cards use DejaVu Sans, shipped with the package (cardgen/render/fontfiles/, a subset with
Latin and all its accents, Greek and Cyrillic; licence beside it), so the PDF (embedded subset)
and the PNGs (Pillow) draw with the same outlines and metrics on every machine, and a player
named in Greek or Cyrillic prints as named. DejaVu Sans is Bitstream Vera extended: Vera's
characters keep their outlines and widths. A character the font lacks (CJK, Arabic ...) is
printed as its transliteration (`printable`), never as a box or nothing.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import registerFontFamily
from reportlab.pdfbase.ttfonts import TTFont

from cardgen.render.layout import MM

FONT_DIR = Path(__file__).resolve().parent / "fontfiles"
FONT_FILES = {"regular": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf",
              "italic": "DejaVuSans-Oblique.ttf", "bolditalic": "DejaVuSans-BoldOblique.ttf"}
PDF_NAMES = {style: f"CardgenSans-{style}" for style in FONT_FILES}
ELLIPSIS = "\u2026"


def font_path(style: str) -> str:
    return str(FONT_DIR / FONT_FILES[style])


@functools.cache
def register_fonts() -> None:
    """Register the DejaVu Sans faces with reportlab (once per process)."""
    for style, pdf_name in PDF_NAMES.items():
        pdfmetrics.registerFont(TTFont(pdf_name, font_path(style)))
    # so <b> and <i> in platypus paragraphs pick the matching faces
    registerFontFamily(PDF_NAMES["regular"], normal=PDF_NAMES["regular"], bold=PDF_NAMES["bold"],
                       italic=PDF_NAMES["italic"], boldItalic=PDF_NAMES["bolditalic"])


@functools.cache
def covered() -> frozenset[int]:
    """The code points every face draws (the faces are subset alike)."""
    register_fonts()
    faces = [pdfmetrics.getFont(name).face for name in PDF_NAMES.values()]
    return frozenset.intersection(*(frozenset(face.charToGlyph) for face in faces))


@functools.lru_cache(maxsize=4096)
def printable(text: str) -> str:
    """`text` with every character the font lacks replaced by its transliteration.

    Greek, Cyrillic and accented Latin print as they are; "王小明" prints as "Wang Xiao Ming".
    """
    chars = covered()
    if all(ord(ch) in chars for ch in text):
        return text
    import re

    from anyascii import anyascii
    out: list[str] = []
    run: list[str] = []  # consecutive characters the font lacks, transliterated together

    def flush() -> None:
        if run:
            # CJK comes back as capitalised syllables run together: one word per syllable
            out.append(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", anyascii("".join(run))))
            run.clear()
    for ch in text:
        if ord(ch) in chars:
            flush()
            out.append(ch)
        else:
            run.append(ch)
    flush()
    return "".join(out)


_GREEK_ACCENTS = {"\u0301", "\u0300", "\u0342", "\u0313", "\u0314", "\u0345", "\u0344"}


def upper(text: str) -> str:
    """Capitals as a printer sets them: printable, and Greek capitals without accents
    ("Δημήτρης" -> "ΔΗΜΗΤΡΗΣ", not "ΔΗΜΉΤΡΗΣ"); other scripts keep theirs ("Côté" -> "CÔTÉ")."""
    import unicodedata
    out = []
    greek = False
    for ch in unicodedata.normalize("NFD", printable(text).upper()):
        if not unicodedata.combining(ch):
            greek = "GREEK" in unicodedata.name(ch, "")
        elif greek and ch in _GREEK_ACCENTS:
            continue
        out.append(ch)
    return unicodedata.normalize("NFC", "".join(out))


def text_width_mm(text: str, style: str, size_pt: float) -> float:
    register_fonts()
    return pdfmetrics.stringWidth(printable(text), PDF_NAMES[style], size_pt) / MM


@dataclass(frozen=True)
class Fitted:
    """Text laid out to fit: the font size and the lines to draw."""
    size_pt: float
    lines: tuple[str, ...]
    truncated: bool = False


def _sizes(max_pt: float, min_pt: float, step: float = 0.25) -> list[float]:
    sizes, size = [], max_pt
    while size >= min_pt - 1e-9:
        sizes.append(round(size, 2))
        size -= step
    return sizes


def _balanced_split(text: str, style: str) -> tuple[str, ...] | None:
    """The two-line split at a space that makes the longer line shortest."""
    words = text.split(" ")
    if len(words) < 2:
        return None
    best, best_width = None, float("inf")
    for i in range(1, len(words)):
        first, second = " ".join(words[:i]), " ".join(words[i:])
        width = max(text_width_mm(first, style, 10), text_width_mm(second, style, 10))
        if width < best_width:
            best, best_width = (first, second), width
    return best


def _largest_fitting(lines: tuple[str, ...], style: str, max_pt: float, min_pt: float,
                     width_mm: float) -> float | None:
    widest = max(text_width_mm(line, style, 1.0) for line in lines)
    for size in _sizes(max_pt, min_pt):
        if widest * size <= width_mm + 1e-6:
            return size
    return None


@functools.lru_cache(maxsize=8192)  # pure; a kit fits each card's texts six times (PDFs, PNG, TTS)
def fit_text(text: str, style: str, width_mm: float, max_pt: float, min_pt: float,
             max_lines: int = 1, wrap_below_pt: float | None = None) -> Fitted:
    """Largest size in [min_pt, max_pt] at which `text` fits `width_mm`.

    One line is preferred; with `max_lines` = 2 the text wraps at a space when one line would
    need a size below `wrap_below_pt` (or would not fit at all) and two lines allow a larger size.
    Only when nothing fits at `min_pt` is the last line cut with an ellipsis, never below min_pt.
    """
    text = printable(text)
    one_line = (text,)
    single = _largest_fitting(one_line, style, max_pt, min_pt, width_mm)
    threshold = wrap_below_pt if wrap_below_pt is not None else max_pt
    if single is not None and (max_lines < 2 or single >= threshold):
        return Fitted(single, one_line)
    if max_lines >= 2:
        split = _balanced_split(text, style)
        if split is not None:
            double = _largest_fitting(split, style, max_pt, min_pt, width_mm)
            if double is not None and (single is None or double > single):
                return Fitted(double, split)
    if single is not None:
        return Fitted(single, one_line)
    lines = list(_balanced_split(text, style) or one_line) if max_lines >= 2 else [text]
    for i, line in enumerate(lines):
        if text_width_mm(line, style, min_pt) > width_mm:
            while line and text_width_mm(line + ELLIPSIS, style, min_pt) > width_mm:
                line = line[:-1]
            lines[i] = line.rstrip() + ELLIPSIS
    return Fitted(min_pt, tuple(lines), truncated=True)
