"""Preflight: check a kit's PDFs the way a printer would, before anyone wastes paper.

Every page of every PDF is read back with pdfium (pypdfium2, a wheel: no system binary) and
checked for what goes wrong on a home printer or at the cutting mat:

- the page is A4 or US Letter (either way up);
- nothing but fills (backgrounds, bleed) within 5 mm of the paper edge, the zone home printers
  leave blank: no text, no line, no crop mark there;
- no text over another text, and no line (crop mark, cell border, rule) through a text: that is
  also how text spilling out of its box shows up, because it runs across the box's border;
- every font embedded;
- no text smaller than MIN_TEXT_PT.

The library returns Problems; only the CLI prints them (one line each).
"""
from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import numpy as np

from cardgen.errors import CardgenError
from cardgen.render.layout import MM, load_layout

NO_PRINT_MM = 5.0  # what most home inkjets and lasers leave blank at every edge
MIN_TEXT_PT = 4.0  # smaller than this a home printer smudges; only credit lines go below 5 pt
# Text boxes come from the glyph outlines; lines of a block touch but must not overlap by more
# than this (a descender over the next line's cap height is an overlap a reader sees).
OVERLAP_TOLERANCE_MM = 0.25
PAGE_TOLERANCE_MM = 0.5


class PreflightError(CardgenError):
    """A file that cannot be preflighted (unreadable or not a PDF)."""


@dataclass(frozen=True)
class Problem:
    file: str
    page: int  # 1-based
    what: str
    where: str  # "x 12.3 mm, y 4.5 mm from top-left" and the text concerned

    def __str__(self) -> str:
        return f"{self.file} page {self.page}: {self.what} at {self.where}"


@dataclass(frozen=True)
class _Box:
    left: float  # mm from the page's left edge
    top: float  # mm from the page's top edge
    right: float
    bottom: float
    text: str = ""

    def shrunk(self, by: float) -> "_Box":
        return _Box(self.left + by, self.top + by, self.right - by, self.bottom - by, self.text)

    def overlaps(self, other: "_Box") -> bool:
        return (self.left < other.right and other.left < self.right and self.top < other.bottom
                and other.top < self.bottom)

    def where(self) -> str:
        label = f" {self.text!r}" if self.text else ""
        return f"x {self.left:.1f} mm, y {self.top:.1f} mm{label}"


def _paper_sizes() -> list[tuple[float, float]]:
    sizes = []
    for page in load_layout("sheets")["papers"].values():
        w, h = page["width_mm"], page["height_mm"]
        sizes += [(w, h), (h, w)]
    return sizes


def _segment_crosses(box: _Box, x1: float, y1: float, x2: float, y2: float) -> bool:
    """Whether the segment enters the box's interior (Liang-Barsky clipping)."""
    t0, t1 = 0.0, 1.0
    dx, dy = x2 - x1, y2 - y1
    for p, q in ((-dx, x1 - box.left), (dx, box.right - x1), (-dy, y1 - box.top), (dy, box.bottom - y1)):
        if abs(p) < 1e-12:
            if q <= 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 >= t1:
            return False
    return True


_TEXT_BUFFER = ctypes.create_string_buffer(1024)
_TEXT_POINTER = ctypes.cast(_TEXT_BUFFER, ctypes.POINTER(ctypes.c_ushort))


def _text_of(raw, obj, textpage) -> str:  # type: ignore[no-untyped-def]
    """The text object's string (UTF-16 from pdfium, into one reused buffer)."""
    n = raw.FPDFTextObj_GetText(obj, textpage.raw, _TEXT_POINTER, len(_TEXT_BUFFER))
    if n <= 2:
        return ""
    if n > len(_TEXT_BUFFER):
        buffer = ctypes.create_string_buffer(n)
        raw.FPDFTextObj_GetText(obj, textpage.raw, ctypes.cast(buffer, ctypes.POINTER(ctypes.c_ushort)), n)
        return buffer.raw[:n - 2].decode("utf-16-le", errors="replace")
    return _TEXT_BUFFER.raw[:n - 2].decode("utf-16-le", errors="replace")


def check_pdf(data: bytes, name: str) -> list[Problem]:
    """Every problem on every page of one PDF (bytes), in page order."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        raise PreflightError(f"{name}: not a readable PDF ({exc})") from None
    problems: list[Problem] = []
    sizes = _paper_sizes()
    try:
        for index in range(len(pdf)):
            page = pdf[index]
            number = index + 1
            w_pt, h_pt = page.get_size()
            W, H = w_pt / MM, h_pt / MM

            def add(what: str, where: str) -> None:
                problems.append(Problem(name, number, what, where))

            if not any(abs(W - a) <= PAGE_TOLERANCE_MM and abs(H - b) <= PAGE_TOLERANCE_MM for a, b in sizes):
                add("page size is neither A4 nor US Letter", f"{W:.1f} x {H:.1f} mm")
            textpage = page.get_textpage()
            texts: list[_Box] = []
            lines: list[tuple[float, float, float, float]] = []
            fonts_seen: set[int] = set()
            # the raw pdfium calls, not the object helpers: a kit has thousands of objects a page
            l, b, r, t = ctypes.c_float(), ctypes.c_float(), ctypes.c_float(), ctypes.c_float()
            matrix = raw.FS_MATRIX()
            size = ctypes.c_float()
            fill_mode, stroke = ctypes.c_int(), ctypes.c_int()
            refs = (ctypes.byref(l), ctypes.byref(b), ctypes.byref(r), ctypes.byref(t))
            matrix_ref = ctypes.byref(matrix)
            get_object, get_type, get_bounds, get_matrix = (
                raw.FPDFPage_GetObject, raw.FPDFPageObj_GetType, raw.FPDFPageObj_GetBounds,
                raw.FPDFPageObj_GetMatrix)
            wanted = (raw.FPDF_PAGEOBJ_TEXT, raw.FPDF_PAGEOBJ_PATH)
            for i in range(raw.FPDFPage_CountObjects(page.raw)):
                obj = get_object(page.raw, i)
                kind = get_type(obj)
                if kind not in wanted:
                    continue  # images, shadings and forms: backgrounds as far as printing goes
                get_bounds(obj, *refs)
                get_matrix(obj, matrix_ref)
                if kind == raw.FPDF_PAGEOBJ_TEXT:
                    text = _text_of(raw, obj, textpage).strip()
                    if not text:
                        continue
                    box = _Box(l.value / MM, H - t.value / MM, r.value / MM, H - b.value / MM, text[:40])
                    texts.append(box)
                    raw.FPDFTextObj_GetFontSize(obj, ctypes.byref(size))
                    effective = size.value * math.sqrt(abs(matrix.a * matrix.d - matrix.b * matrix.c))
                    if effective < MIN_TEXT_PT - 0.01:
                        add(f"text of {effective:.1f} pt (smallest allowed {MIN_TEXT_PT:g} pt)", box.where())
                    font = raw.FPDFTextObj_GetFont(obj)
                    if font and ctypes.addressof(font.contents) not in fonts_seen:
                        fonts_seen.add(ctypes.addressof(font.contents))
                        if not raw.FPDFFont_GetIsEmbedded(font):
                            buf = ctypes.create_string_buffer(256)
                            raw.FPDFFont_GetBaseFontName(font, buf, 256)
                            add(f"font {buf.value.decode(errors='replace')} not embedded", box.where())
                    if _in_no_print_zone(box, W, H):
                        add(f"text within {NO_PRINT_MM:g} mm of the paper edge", box.where())
                else:
                    raw.FPDFPath_GetDrawMode(obj, ctypes.byref(fill_mode), ctypes.byref(stroke))
                    if not stroke.value:
                        continue  # fills: backgrounds and bleed may run to the edge
                    segments = _segments(raw, obj, matrix, H)
                    lines += segments
                    for x1, y1, x2, y2 in segments:
                        seg = _Box(min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2))
                        if _in_no_print_zone(seg, W, H):
                            add(f"line within {NO_PRINT_MM:g} mm of the paper edge", seg.where())
                            break
            problems += [Problem(name, number, what, where) for what, where in _collisions(texts, lines)]
            textpage.close()
            page.close()
    finally:
        pdf.close()
    return problems


def _in_no_print_zone(box: _Box, W: float, H: float) -> bool:
    z = NO_PRINT_MM - 0.05  # a hair of tolerance for rounding in the PDF's numbers
    return box.left < z or box.top < z or box.right > W - z or box.bottom > H - z


def _segments(raw, obj, m, H: float) -> list[tuple[float, float, float, float]]:  # type: ignore[no-untyped-def]
    """A stroked path as straight segments in mm from the page's top-left (curves as chords);
    `m` is the object's matrix (path space to page space)."""
    out = []
    start = current = None
    x, y = ctypes.c_float(), ctypes.c_float()
    for i in range(raw.FPDFPath_CountSegments(obj)):
        seg = raw.FPDFPath_GetPathSegment(obj, i)
        raw.FPDFPathSegment_GetPoint(seg, ctypes.byref(x), ctypes.byref(y))
        px = m.a * x.value + m.c * y.value + m.e
        py = m.b * x.value + m.d * y.value + m.f
        point = (px / MM, H - py / MM)
        kind = raw.FPDFPathSegment_GetType(seg)
        if kind == raw.FPDF_SEGMENT_MOVETO:
            start = current = point
        elif current is not None:
            out.append((*current, *point))
            current = point
        if raw.FPDFPathSegment_GetClose(seg) and start is not None and current is not None:
            out.append((*current, *start))
            current = start
    return out


_BLOCK = 256  # texts compared at once against the page's texts / segments


def _collisions(texts: list[_Box], lines: list[tuple[float, float, float, float]]) -> Iterable[tuple[str, str]]:
    """Texts overlapping texts, and lines through texts (all pairs of a page compared at once)."""
    boxes = [t.shrunk(OVERLAP_TOLERANCE_MM) for t in texts]
    if len(boxes) > 1:
        e = np.array([(b.left, b.top, b.right, b.bottom) for b in boxes], dtype=float)
        left, top, right, bottom = (e[:, k] for k in range(4))
        # pair (i, j), i < j: the same test as _Box.overlaps, in the order i then j
        for i0 in range(0, len(boxes), _BLOCK):  # a block of rows at a time: memory stays small
            rows = slice(i0, i0 + _BLOCK)
            hits = ((left[None, :] < right[rows, None]) & (left[rows, None] < right[None, :])
                    & (top[None, :] < bottom[rows, None]) & (top[rows, None] < bottom[None, :]))
            for i, j in zip(*np.nonzero(np.triu(hits, k=1 + i0))):
                yield f"text overlaps text {boxes[j].text!r}", boxes[i0 + i].where()
    if not lines or not texts:
        return
    segs = np.asarray(lines, dtype=float)
    lo_x, hi_x = np.minimum(segs[:, 0], segs[:, 2]), np.maximum(segs[:, 0], segs[:, 2])
    lo_y, hi_y = np.minimum(segs[:, 1], segs[:, 3]), np.maximum(segs[:, 1], segs[:, 3])
    # against lines, only a hair of tolerance across the text: a label that runs 0.2 mm over
    # its cell's border shows at once on paper
    inner = [_Box(t.left + 0.05, t.top + OVERLAP_TOLERANCE_MM, t.right - 0.05, t.bottom - OVERLAP_TOLERANCE_MM,
                  t.text) for t in texts]
    e = np.array([(b.left, b.top, b.right, b.bottom) for b in inner], dtype=float)
    for t0 in range(0, len(inner), _BLOCK):
        b = e[t0:t0 + _BLOCK]
        # only segments whose extent meets a box can cross it: texts x segments at once
        near = ((hi_x[None, :] > b[:, 0:1]) & (lo_x[None, :] < b[:, 2:3]) & (hi_y[None, :] > b[:, 1:2])
                & (lo_y[None, :] < b[:, 3:4]))
        near &= ((b[:, 2] > b[:, 0]) & (b[:, 3] > b[:, 1]))[:, None]  # boxes too thin to hold a line
        for t in np.flatnonzero(near.any(axis=1)):
            box = inner[t0 + t]
            if any(_segment_crosses(box, *segs[i]) for i in np.flatnonzero(near[t])):
                yield "a line runs through text", box.where()


def check_folder(folder: Path) -> tuple[list[Path], list[Problem]]:
    """Every PDF under `folder` (sorted) and all their problems."""
    folder = Path(folder)
    if not folder.is_dir():
        raise PreflightError(f"{folder} is not a folder; give the kit folder that `cardgen build` wrote")
    files = sorted(p for p in folder.rglob("*.pdf") if p.is_file())
    problems: list[Problem] = []
    for path in files:
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise PreflightError(f"cannot read {path}: {exc.strerror or exc}") from None
        problems += check_pdf(data, path.relative_to(folder).as_posix())
    return files, problems
