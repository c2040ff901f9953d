"""Print helpers for the tabletop systems in cardgen/games: n-up card sheets with crop marks,
wrapped text, page-1 previews and the kit.json manifest.

They reuse cardgen/render (fonts, painter, invariant canvas, crop marks) without changing it: a
system's card size comes from its own template, so the Quicket card layout is never touched.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from reportlab.pdfgen.canvas import Canvas

from cardgen import ATTRIBUTION, __version__
from cardgen.cache import atomic_write_bytes, atomic_write_text
from cardgen.errors import CardgenError
from cardgen.render.common import new_canvas
from cardgen.render.fonts import PDF_NAMES, text_width_mm
from cardgen.render.layout import MM, load_layout
from cardgen.render.painter import Painter, PdfPainter
from cardgen.render.sheets import SheetGeometry, crop_marks

T = TypeVar("T")
PAPERS = ("a4", "letter")
PAPER_LABELS = {"a4": "A4", "letter": "US Letter"}


class PreviewError(CardgenError):
    """A page-1 preview PNG could not be made (pdftoppm missing or failing)."""


def check_papers(papers: Sequence[str]) -> None:
    if not papers:
        raise CardgenError("no paper size asked for; choose a4 and/or letter")
    for paper in papers:
        if paper not in PAPERS:
            raise CardgenError(f"unknown paper {paper!r}; choose a4 or letter")


def card_geometry(paper: str, card_w: float, card_h: float) -> SheetGeometry:
    """Cards of the given size centred on the page, as many columns and rows as fit (no bleed)."""
    page = load_layout("sheets")["papers"][paper]
    margin = 5.5  # room for the crop marks and the footer line (3 x 3 poker cards on Letter too)
    cols = int((page["width_mm"] - 2 * margin) // card_w)
    rows = int((page["height_mm"] - 2 * margin) // card_h)
    return SheetGeometry(paper, page["width_mm"], page["height_mm"], card_w, card_h, cols, rows,
                         (page["width_mm"] - cols * card_w) / 2, (page["height_mm"] - rows * card_h) / 2,
                         0.0, 0.0, 0.0)


def _footer(canvas: Canvas, geo: SheetGeometry, text: str) -> None:
    canvas.setFillColorRGB(0.25, 0.25, 0.25)
    canvas.setFont(PDF_NAMES["regular"], 6.0)
    canvas.drawCentredString(geo.page_w / 2 * MM, 2.5 * MM, text)


class InkSaverPainter:
    """Outlines only: a filled area becomes its outline in the fill colour, and white text that
    sat on a filled band takes the band's colour (the --ink-saver print mode)."""

    def __init__(self, inner: PdfPainter) -> None:
        self.inner = inner
        self.band = "#000000"

    def rect(self, x: float, y: float, w: float, h: float, fill: str | None = None,
             stroke: str | None = None, width: float = 0.2) -> None:
        if fill and not stroke:
            self.band = fill
            self.inner.rect(x, y, w, h, stroke=fill, width=0.5)
        elif stroke:
            self.inner.rect(x, y, w, h, stroke=stroke, width=width)

    def line(self, x1: float, y1: float, x2: float, y2: float, colour: str = "#000000",
             width: float = 0.2, dash: Sequence[float] | None = None) -> None:
        self.inner.line(x1, y1, x2, y2, colour, width, dash)

    def text(self, x: float, y: float, text: str, style: str, size_pt: float,
             colour: str = "#000000", align: str = "left") -> None:
        self.inner.text(x, y, text, style, size_pt, self.band if colour.lower() == "#ffffff" else colour,
                        align)


def card_sheets_pdf(cards: Sequence[T], draw: Callable[[Painter, T], None], card_w: float,
                    card_h: float, paper: str, title: str, credit: str,
                    group: Callable[[T], str] | None = None, ink_saver: bool = False) -> bytes:
    """Cards n-up at true size with crop marks; a new `group` (e.g. a team) starts a new sheet.
    Invariant mode: identical input gives identical bytes."""
    geo = card_geometry(paper, card_w, card_h)
    pages: list[list[T]] = []
    current = object()
    for card in cards:
        key = group(card) if group else None
        if not pages or len(pages[-1]) == geo.per_sheet or key != current:
            pages.append([])
            current = key
        pages[-1].append(card)
    canvas, buf, _, _ = new_canvas(paper, title, credit)
    for number, page in enumerate(pages, 1):
        canvas.setStrokeColorRGB(0, 0, 0)
        canvas.setLineWidth(0.2 * MM)
        for x1, y1, x2, y2 in crop_marks(geo):
            canvas.line(x1 * MM, (geo.page_h - y1) * MM, x2 * MM, (geo.page_h - y2) * MM)
        for i, card in enumerate(page):
            row, col = divmod(i, geo.columns)
            x, y = geo.card_origin(row, col)
            canvas.saveState()
            painter = PdfPainter(canvas, x * MM, (geo.page_h - y) * MM)
            draw(InkSaverPainter(painter) if ink_saver else painter, card)
            canvas.restoreState()
        _footer(canvas, geo, f"{title} \u00b7 sheet {number} of {len(pages)} \u00b7 print at 100% "
                f"(actual size) \u00b7 {credit}")
        canvas.showPage()
    canvas.save()
    return buf.getvalue()


def wrap(text: str, style: str, size_pt: float, width_mm: float) -> list[str]:
    """Greedy word wrap to `width_mm` at `size_pt`."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split():
            trial = f"{line} {word}".strip()
            if line and text_width_mm(trial, style, size_pt) > width_mm:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines


def fitted_lines(text: str, style: str, width_mm: float, height_mm: float, max_pt: float,
                 min_pt: float, leading: float = 1.2) -> tuple[float, list[str]]:
    """The largest size (0.25 pt steps) at which the wrapped text fits the box."""
    size = max_pt
    while True:
        lines = wrap(text, style, size, width_mm)
        if len(lines) * size * leading / MM <= height_mm or size <= min_pt:
            return size, lines
        size -= 0.25


def page_one_png(pdf: bytes, png_path: Path, dpi: int = 60) -> None:
    """Page 1 of a PDF as a PNG (pdftoppm), written atomically."""
    exe = shutil.which("pdftoppm")
    if exe is None:
        raise PreviewError("pdftoppm (poppler-utils) is needed for the page-1 previews")
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "in.pdf"
        src.write_bytes(pdf)
        result = subprocess.run([exe, "-png", "-r", str(dpi), "-f", "1", "-l", "1", "-singlefile",
                                 str(src), str(Path(tmp) / "out")], capture_output=True, check=False)
        if result.returncode != 0:
            raise PreviewError(f"pdftoppm failed: {result.stderr.decode(errors='replace').strip()}")
        atomic_write_bytes(png_path, (Path(tmp) / "out.png").read_bytes())


@dataclass(frozen=True)
class KitFile:
    path: Path
    label: str
    kind: str  # pdf | png | json


class KitWriter:
    """Collects a kit's files and writes kit.json (the manifest the download site reads)."""

    def __init__(self, folder: Path, game: str, name: str, competition: str | None,
                 season: str | None, credit: str = ATTRIBUTION) -> None:
        self.folder = folder
        self.game, self.name = game, name
        self.competition, self.season = competition, season
        self.credit = credit
        self.files: list[KitFile] = []

    def pdf(self, filename: str, label: str, data: bytes, preview: bool) -> None:
        path = self.folder / filename
        atomic_write_bytes(path, data)
        self.files.append(KitFile(path, label, "pdf"))
        if preview:
            png = path.with_suffix(".png")
            page_one_png(data, png)
            self.files.append(KitFile(png, f"{label}, page 1 preview", "png"))

    def manifest(self) -> Path:
        doc = {"game": self.game, "name": self.name, "competition": self.competition,
               "season": self.season, "attribution": self.credit,
               "generator": f"cardgen {__version__}",
               "files": [{"path": f.path.relative_to(self.folder).as_posix(), "label": f.label,
                          "kind": f.kind} for f in self.files]}
        path = self.folder / "kit.json"
        atomic_write_text(path, json.dumps(doc, sort_keys=True, indent=1) + "\n")
        return path

    def paths(self) -> list[Path]:
        return [f.path for f in self.files]
