"""Preflight: check a kit's PDFs the way a printer would, before anyone wastes paper.

Every page of every PDF is read back with pdfium (pypdfium2, a wheel: no system binary) and
checked for what goes wrong on a home printer or at the cutting mat:

- the page is A4 or US Letter (either way up);
- nothing but fills (backgrounds, bleed) within 5 mm of the paper edge, the zone home printers
  leave blank: no text, no line, no crop mark there;
- no text over another text, and no line (crop mark, cell border, rule) through a text: that is
  also how text spilling out of its box shows up, because it runs across the box's border;
- every font embedded, the ones a page lists but never uses too (reportlab's Helvetica);
- no text smaller than MIN_TEXT_PT.

The library returns Problems; only the CLI prints them (one line each).
"""
from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from cardgen.errors import CardgenError
from cardgen.render.layout import MM, load_layout

NO_PRINT_MM = 5.0  # what most home inkjets and lasers leave blank at every edge
MIN_TEXT_PT = 4.0  # smaller than this a home printer smudges; only credit lines go below 5 pt
# Text boxes come from the glyph outlines; lines of a block touch but must not overlap by more
# than this (a descender over the next line's cap height is an overlap a reader sees).
OVERLAP_TOLERANCE_MM = 0.25
PAGE_TOLERANCE_MM = 0.5
NO_PRINT_TOLERANCE_MM = 0.05  # a hair of tolerance for rounding in the PDF's numbers
# pdfium's bounds of a stroked path hold its segments (and half the stroke); this margin on top
# makes the bounds only a way to skip reading paths far from the edge and from every text
PATH_MARGIN_MM = 1.0


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

    @classmethod
    def of(cls, row: Any, text: str = "") -> _Box:
        """A box from a row of four edges (a tuple, or a row of an array of boxes)."""
        left, top, right, bottom = (float(v) for v in row)
        return cls(left, top, right, bottom, text)

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
            try:
                problems += _check_page(raw, page, name, index + 1, sizes)
            finally:
                page.close()
    finally:
        pdf.close()
    reported = {p.what for p in problems}
    return problems + [p for p in _listed_fonts_not_embedded(data, name) if p.what not in reported]


def _embedded(font) -> bool:  # type: ignore[no-untyped-def]
    """A PDF font dictionary whose glyphs travel with the file (a Type0 font: its descendant's)."""
    if font.get("/Subtype") == "/Type0":
        descendants = font.get("/DescendantFonts")
        font = descendants.get_object()[0].get_object() if descendants is not None else {}
    descriptor = font.get("/FontDescriptor")
    descriptor = descriptor.get_object() if descriptor is not None else {}
    return any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))


def _listed_fonts_not_embedded(data: bytes, name: str) -> list[Problem]:
    """Fonts a page lists in its resources without embedding them, once per PDF at the first page
    listing each: a print shop's preflight flags them though no text uses them (reportlab's
    opening Helvetica, issue 42). pypdf reads the resources, which pdfium does not expose."""
    import io

    import pypdf
    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        pages = list(reader.pages)
    except (pypdf.errors.PyPdfError, ValueError) as exc:
        raise PreflightError(f"{name}: not a readable PDF ({exc})") from None
    problems: list[Problem] = []
    seen: set[str] = set()
    for number, page in enumerate(pages, 1):
        resources = page.get("/Resources")
        fonts = resources.get_object().get("/Font") if resources is not None else None
        for ref in (fonts.get_object().values() if fonts is not None else ()):
            font = ref.get_object()
            base = str(font.get("/BaseFont", "?")).lstrip("/")
            if base not in seen and not _embedded(font):
                seen.add(base)
                problems.append(Problem(name, number, f"font {base} not embedded",
                                        "the page's font list (no text uses it)"))
    return problems


class _PageTexts:
    """The strings of a page's text objects, read only when a problem is to be reported: reading
    them is most of a page's time, and all but a few are never shown. A text object whose string
    is blank is no text (its box counts for nothing)."""

    def __init__(self, raw, page) -> None:  # type: ignore[no-untyped-def]
        self.raw, self.page = raw, page
        self.objects: list = []  # the page's text objects, in the order of their boxes
        self._textpage = None
        self._labels: dict[int, str] = {}

    def label(self, k: int) -> str:
        """The text of object k, stripped and cut to 40 characters ("" when it is blank)."""
        if k not in self._labels:
            if self._textpage is None:
                self._textpage = self.page.get_textpage()
            self._labels[k] = _text_of(self.raw, self.objects[k], self._textpage).strip()[:40]
        return self._labels[k]

    def drop_last(self) -> None:
        """Forget the last object (a blank one): the next object takes its place."""
        self._labels.pop(len(self.objects) - 1, None)
        self.objects.pop()

    def close(self) -> None:
        if self._textpage is not None:
            self._textpage.close()


def _check_page(raw, page, name: str, number: int,  # type: ignore[no-untyped-def]
                sizes: list[tuple[float, float]]) -> list[Problem]:
    """Every problem on one page (`number`, 1-based) of the PDF `name`."""
    scan = _PageScan(raw, page, name, number)
    W, H = scan.W, scan.H
    if not any(abs(W - a) <= PAGE_TOLERANCE_MM and abs(H - b) <= PAGE_TOLERANCE_MM for a, b in sizes):
        scan.add("page size is neither A4 nor US Letter", f"{W:.1f} x {H:.1f} mm")
    get_object, get_type = raw.FPDFPage_GetObject, raw.FPDFPageObj_GetType
    TEXT, PATH = raw.FPDF_PAGEOBJ_TEXT, raw.FPDF_PAGEOBJ_PATH
    try:
        for i in range(raw.FPDFPage_CountObjects(page.raw)):
            obj = get_object(page.raw, i)
            kind = get_type(obj)
            # images, shadings and forms are neither: backgrounds as far as printing goes
            if kind == TEXT:
                scan.text(obj)
            elif kind == PATH:
                scan.path(obj)
        scan.read_inland_paths()
        scan.problems += [Problem(name, number, what, where)
                          for what, where in _collisions(scan.texts, scan.lines, scan.strings.label)]
    finally:
        scan.strings.close()
    return scan.problems


class _PageScan:
    """One page's text and path objects, read one by one with the raw pdfium calls, not the
    object helpers (a kit has thousands of objects a page): the problems they have on their
    own, and the text boxes and line segments `_collisions` compares."""

    def __init__(self, raw, page, name: str, number: int) -> None:  # type: ignore[no-untyped-def]
        self.raw, self.page, self.name, self.number = raw, page, name, number
        w_pt, h_pt = page.get_size()
        self.W, self.H = w_pt / MM, h_pt / MM
        self.problems: list[Problem] = []
        self.strings = _PageTexts(raw, page)
        # (left, top, right, bottom) in mm of each text; its string is strings.label(k) (_PageTexts)
        self.texts: list[tuple[float, float, float, float]] = []
        self.lines: list[tuple[float, float, float, float]] = []
        self.fonts_seen: set[int] = set()
        self.x0, self.b, self.r, self.t = ctypes.c_float(), ctypes.c_float(), ctypes.c_float(), ctypes.c_float()
        self.matrix = raw.FS_MATRIX()
        self.size = ctypes.c_float()
        self.fill_mode, self.stroke = ctypes.c_int(), ctypes.c_int()
        self.refs = (ctypes.byref(self.x0), ctypes.byref(self.b), ctypes.byref(self.r), ctypes.byref(self.t))
        self.matrix_ref, self.size_ref = ctypes.byref(self.matrix), ctypes.byref(self.size)
        self.draw_mode_refs = (ctypes.byref(self.fill_mode), ctypes.byref(self.stroke))
        self.z = NO_PRINT_MM - NO_PRINT_TOLERANCE_MM  # nearer the edge than this is in the no-print zone
        self.inland: list = []  # stroked paths clear of the paper edge, and their bounds (mm, with margin)
        self.inland_bounds: list[tuple[float, float, float, float]] = []

    def add(self, what: str, where: str) -> None:
        self.problems.append(Problem(self.name, self.number, what, where))

    def _at_edge(self, left: float, top: float, right: float, bottom: float) -> bool:
        z = self.z
        return left < z or top < z or right > self.W - z or bottom > self.H - z

    def text(self, obj) -> None:  # type: ignore[no-untyped-def]
        """A text object: its box, and whether it is too small, in a font not embedded or at the edge."""
        raw, H = self.raw, self.H
        raw.FPDFPageObj_GetBounds(obj, *self.refs)
        raw.FPDFPageObj_GetMatrix(obj, self.matrix_ref)
        box = (self.x0.value / MM, H - self.t.value / MM, self.r.value / MM, H - self.b.value / MM)
        raw.FPDFTextObj_GetFontSize(obj, self.size_ref)
        matrix = self.matrix
        effective = self.size.value * math.sqrt(abs(matrix.a * matrix.d - matrix.b * matrix.c))
        small = effective < MIN_TEXT_PT - 0.01
        font = raw.FPDFTextObj_GetFont(obj)
        font_id = ctypes.cast(font, ctypes.c_void_p).value if font else None
        new_font = font_id is not None and font_id not in self.fonts_seen
        if new_font and font_id is not None and raw.FPDFFont_GetIsEmbedded(font):
            self.fonts_seen.add(font_id)  # nothing to report for this font, whichever text it is
            new_font = False
        edge = self._at_edge(*box)
        k = len(self.texts)
        self.strings.objects.append(obj)
        if small or new_font or edge:  # something to report or to note: the string decides
            label = self.strings.label(k)
            if not label:
                self.strings.drop_last()
                return  # a blank string: no text
            self._report_text(_Box(*box, label).where(), effective if small else None,
                              font if new_font else None, edge)
            if new_font and font_id is not None:
                self.fonts_seen.add(font_id)
        self.texts.append(box)

    def _report_text(self, where: str, small: float | None, font, edge: bool) -> None:  # type: ignore[no-untyped-def]
        """A text's problems: its size when it is `small`, its `font` when it is not embedded
        (the first non-blank text in this font is named), its place at the `edge`."""
        if small is not None:
            self.add(f"text of {small:.1f} pt (smallest allowed {MIN_TEXT_PT:g} pt)", where)
        if font is not None:
            buf = ctypes.create_string_buffer(256)
            self.raw.FPDFFont_GetBaseFontName(font, buf, 256)
            self.add(f"font {buf.value.decode(errors='replace')} not embedded", where)
        if edge:
            self.add(f"text within {NO_PRINT_MM:g} mm of the paper edge", where)

    def path(self, obj) -> None:  # type: ignore[no-untyped-def]
        """A path object: a stroked one near the paper edge has its segments read (a line in the
        no-print zone is a problem); one clear of it is kept for `read_inland_paths`."""
        raw, H = self.raw, self.H
        raw.FPDFPath_GetDrawMode(obj, *self.draw_mode_refs)
        if not self.stroke.value:
            return  # fills: backgrounds and bleed may run to the edge
        raw.FPDFPageObj_GetBounds(obj, *self.refs)
        # a path's segments are read only where they can matter: near the paper edge
        # (here) or near a text (read_inland_paths); its bounds, with a margin, enclose them all
        left, right = self.x0.value / MM - PATH_MARGIN_MM, self.r.value / MM + PATH_MARGIN_MM
        top, bottom = H - self.t.value / MM - PATH_MARGIN_MM, H - self.b.value / MM + PATH_MARGIN_MM
        if not self._at_edge(left, top, right, bottom):
            self.inland.append(obj)
            self.inland_bounds.append((left, top, right, bottom))
            return
        raw.FPDFPageObj_GetMatrix(obj, self.matrix_ref)
        segments = _segments(raw, obj, self.matrix, H)
        self.lines += segments
        for x1, y1, x2, y2 in segments:
            if self._at_edge(min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)):
                seg = _Box(min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2))
                self.add(f"line within {NO_PRINT_MM:g} mm of the paper edge", seg.where())
                break

    def read_inland_paths(self) -> None:
        """The segments of the stroked paths clear of the edge whose bounds meet a text."""
        if self.inland and self.texts:
            for k in _meeting(np.array(self.inland_bounds, dtype=float), np.array(self.texts, dtype=float)):
                self.raw.FPDFPageObj_GetMatrix(self.inland[k], self.matrix_ref)
                self.lines += _segments(self.raw, self.inland[k], self.matrix, self.H)


def _meeting(bounds: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Indices of the rows of `bounds` (left, top, right, bottom) that meet a row of `boxes`."""
    hit = np.zeros(len(bounds), dtype=bool)
    for i0 in range(0, len(bounds), _BLOCK):
        p = bounds[i0:i0 + _BLOCK]
        hit[i0:i0 + _BLOCK] = ((p[:, None, 0] <= boxes[None, :, 2]) & (boxes[None, :, 0] <= p[:, None, 2])
                               & (p[:, None, 1] <= boxes[None, :, 3]) & (boxes[None, :, 1] <= p[:, None, 3])
                               ).any(axis=1)
    return np.flatnonzero(hit)


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


def _collisions(texts: list[tuple[float, float, float, float]], lines: list[tuple[float, float, float, float]],
                label: Callable[[int], str]) -> Iterable[tuple[str, str]]:
    """Texts overlapping texts, and lines through texts (all pairs of a page compared at once).
    `texts` are (left, top, right, bottom) in mm; `label(k)` is the string of texts[k] ("" when it
    is blank: that box is no text)."""
    if not texts:
        return
    e = np.array(texts, dtype=float)
    tol = OVERLAP_TOLERANCE_MM
    if len(texts) > 1:
        shrunk = e + (tol, tol, -tol, -tol)
        left, top, right, bottom = (shrunk[:, k] for k in range(4))
        # pair (i, j), i < j: the boxes' interiors meet, in the order i then j
        for i0 in range(0, len(texts), _BLOCK):  # a block of rows at a time: memory stays small
            rows = slice(i0, i0 + _BLOCK)
            hits = ((left[None, :] < right[rows, None]) & (left[rows, None] < right[None, :])
                    & (top[None, :] < bottom[rows, None]) & (top[rows, None] < bottom[None, :]))
            for i, j in zip(*np.nonzero(np.triu(hits, k=1 + i0))):
                first, other = label(i0 + i), label(j)
                if first and other:
                    yield f"text overlaps text {other!r}", _Box.of(shrunk[i0 + i], first).where()
    if not lines:
        return
    segs = np.asarray(lines, dtype=float)
    lo_x, hi_x = np.minimum(segs[:, 0], segs[:, 2]), np.maximum(segs[:, 0], segs[:, 2])
    lo_y, hi_y = np.minimum(segs[:, 1], segs[:, 3]), np.maximum(segs[:, 1], segs[:, 3])
    # against lines, only a hair of tolerance across the text: a label that runs 0.2 mm over
    # its cell's border shows at once on paper
    inner = e + (0.05, tol, -0.05, -tol)
    for t0 in range(0, len(texts), _BLOCK):
        b = inner[t0:t0 + _BLOCK]
        # only segments whose extent meets a box can cross it: texts x segments at once
        near = ((hi_x[None, :] > b[:, 0:1]) & (lo_x[None, :] < b[:, 2:3]) & (hi_y[None, :] > b[:, 1:2])
                & (lo_y[None, :] < b[:, 3:4]))
        near &= ((b[:, 2] > b[:, 0]) & (b[:, 3] > b[:, 1]))[:, None]  # boxes too thin to hold a line
        for t in np.flatnonzero(near.any(axis=1)):
            box = _Box.of(b[t])
            if any(_segment_crosses(box, *segs[i]) for i in np.flatnonzero(near[t])) and label(t0 + t):
                yield "a line runs through text", _Box.of(b[t], label(t0 + t)).where()


# what other commands write into a kit (`validate`, `compare-games`): reports to read on screen,
# in reportlab's standard fonts, never printed, so a kit's preflight leaves them out
REPORT_FOLDERS = ("validation", "compare-games")


def is_report(path: Path) -> bool:
    """A PDF in a kit's report folder (beside the kit's card-set.json)."""
    return path.parent.name in REPORT_FOLDERS and (path.parent.parent / "card-set.json").is_file()


def check_folder(folder: Path) -> tuple[list[Path], list[Problem]]:
    """Every PDF under `folder` (sorted) but a kit's reports, and all their problems."""
    folder = Path(folder)
    if not folder.is_dir():
        if not folder.exists():
            raise PreflightError(f"{folder} does not exist; give the kit folder that `cardgen build` wrote "
                                 f"(e.g. output/BBL_2024-25)")
        raise PreflightError(f"{folder} is a file, not a folder; give the kit folder that `cardgen build` wrote")
    files = sorted(p for p in folder.rglob("*.pdf") if p.is_file() and not is_report(p))
    problems: list[Problem] = []
    for path in files:
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise PreflightError(f"cannot read {path}: {exc.strerror or exc}") from None
        problems += check_pdf(data, path.relative_to(folder).as_posix())
    return files, problems


@dataclass(frozen=True)
class Bleed:
    """How far a card sheet's colour runs past its cut lines (the crop marks'), in mm: what a
    print shop's preflight reports. `least` is the smallest of left, top and right (the cards'
    bands run to those edges; their white bottoms need none)."""
    file: str
    left: float
    top: float
    right: float
    per_sheet: int  # cards on the first sheet (cut lines' cells)

    @property
    def least(self) -> float:
        return max(0.0, min(self.left, self.top, self.right))


def sheet_bleed(data: bytes, name: str) -> Bleed | None:
    """The bleed of a card sheet PDF, read from its first page: the cut lines from its crop marks
    (short straight strokes beyond all the page's fills), the bleed from how far the fills run
    past the outermost cut lines. None for a PDF without crop marks (not a card sheet)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw
    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        raise PreflightError(f"{name}: not a readable PDF ({exc})") from None
    try:
        page = pdf[0]
        H = page.get_height() / MM
        crop = load_layout("sheets")["card_sheet"]["crop_length_mm"] + 0.05
        fills: list[tuple[float, float, float, float]] = []
        strokes: list[tuple[float, float, float, float]] = []
        x0, b, r, t = ctypes.c_float(), ctypes.c_float(), ctypes.c_float(), ctypes.c_float()
        fill_mode, stroke = ctypes.c_int(), ctypes.c_int()
        matrix = raw.FS_MATRIX()
        for i in range(raw.FPDFPage_CountObjects(page.raw)):
            obj = raw.FPDFPage_GetObject(page.raw, i)
            if raw.FPDFPageObj_GetType(obj) != raw.FPDF_PAGEOBJ_PATH:
                continue
            raw.FPDFPath_GetDrawMode(obj, ctypes.byref(fill_mode), ctypes.byref(stroke))
            if stroke.value:
                raw.FPDFPageObj_GetMatrix(obj, ctypes.byref(matrix))
                segments = _segments(raw, obj, matrix, H)
                if len(segments) == 1:
                    x1, y1, x2, y2 = segments[0]
                    if (abs(x1 - x2) < 1e-3 or abs(y1 - y2) < 1e-3) and math.hypot(x2 - x1, y2 - y1) <= crop:
                        strokes.append(segments[0])
            elif fill_mode.value:
                raw.FPDFPageObj_GetBounds(obj, ctypes.byref(x0), ctypes.byref(b), ctypes.byref(r), ctypes.byref(t))
                fills.append((x0.value / MM, H - t.value / MM, r.value / MM, H - b.value / MM))
        page.close()
    finally:
        pdf.close()
    if not fills:
        return None
    left, top = min(f[0] for f in fills), min(f[1] for f in fills)
    right, bottom = max(f[2] for f in fills), max(f[3] for f in fills)
    xs = sorted({round(x1, 3) for x1, y1, x2, y2 in strokes
                 if abs(x1 - x2) < 1e-3 and (max(y1, y2) <= top or min(y1, y2) >= bottom)})
    ys = sorted({round(y1, 3) for x1, y1, x2, y2 in strokes
                 if abs(y1 - y2) < 1e-3 and (max(x1, x2) <= left or min(x1, x2) >= right)})
    if len(xs) < 2 or len(ys) < 2:
        return None
    return Bleed(name, round(xs[0] - left, 2), round(ys[0] - top, 2), round(right - xs[-1], 2),
                 _cells(xs) * _cells(ys))


def _cells(cuts: list[float]) -> int:
    """Cards across a row (or down a column) from its cut lines: neighbours share a cut line
    (no gutter) or each has its own (a gutter between them)."""
    gaps = [b - a for a, b in zip(cuts, cuts[1:])]
    card = max(gaps)
    return sum(1 for g in gaps if g > card - 0.5)


# what US print shops ask for: 1/8 in
US_SHOP_BLEED_MM = 3.175


def bleed_lines(folder: Path, files: Iterable[Path]) -> list[str]:
    """A line per card sheet PDF at the top of `folder` (a team's own sheets under teams/ are
    laid out alike) saying its bleed, read back from the PDF (and, for a Letter sheet with less
    than a US shop's 1/8 in, how to get it)."""
    lines = []
    for path in (p for p in files if Path(p).parent == Path(folder)):
        bleed = sheet_bleed(Path(path).read_bytes(), Path(path).relative_to(folder).as_posix())
        if bleed is None:
            continue
        if bleed.least < 0.05:
            lines.append(f"{bleed.file}: no bleed ({bleed.per_sheet} cards a sheet; --bleed or --bleed-mm for a print shop)")
            continue
        line = f"{bleed.file}: bleed {bleed.least:.1f} mm past the cut lines ({bleed.per_sheet} cards a sheet)"
        if "letter" in bleed.file and bleed.least < US_SHOP_BLEED_MM - 0.05:
            line += "; US print shops ask for 3.2 mm (1/8 in): --bleed-mm 3.2"
        lines.append(line)
    return lines
