"""Print helpers shared by the tabletop systems in cardgen/games: wrapped text, n-up card sheets
with crop marks, one-page and rules PDFs, page-1 previews and the kit manifest (cardgen.manifest).

They reuse cardgen/render (fonts, painter, page sizes, invariant canvas, crop marks) without
changing it: a system's card size comes from its own template, so the Quicket card layout is
never touched.
"""
from __future__ import annotations

import io
import shutil
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate, Paragraph, Spacer

from cardgen import ATTRIBUTION, __version__
from cardgen.cache import atomic_write_bytes, atomic_write_text
from cardgen.errors import CardgenError
from cardgen.manifest import FILE_NAME as MANIFEST_FILE
from cardgen.manifest import Download, Manifest, read_manifest, write_manifest
from cardgen.render.common import PAPER_LABELS, new_canvas, page_size_mm  # noqa: F401 (PAPER_LABELS: games' kits)
from cardgen.render.fonts import PDF_NAMES, register_fonts, text_width_mm
from cardgen.render.layout import MM
from cardgen.render.painter import Painter, PdfPainter
from cardgen.render.sheets import SheetGeometry, draw_sheet_furniture, positions_text
from cardgen.staging import make_staging, publish_folder, relative_files, remove_stale_staging

T = TypeVar("T")
PAPERS = ("a4", "letter")


class PreviewError(CardgenError):
    """A page-1 preview PNG could not be made (the PDF could not be rendered)."""


def counted(n: int, word: str, plural: str | None = None) -> str:
    """'1 run', '236 runs', '0 wkts': a count with its word in the number it needs."""
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def bowled(legal_balls: int, balls_per_over: int = 6) -> str:
    """What a bowler bowled, as the format counts it: '27.3 ov' in T20; '164 balls' in The Hundred,
    whose 5-ball sets beside an economy per 6 balls would not agree (as on the Quicket cards)."""
    if balls_per_over != 6:
        return counted(legal_balls, "ball")
    from cardgen.stats.tables import overs_text
    return f"{overs_text(legal_balls, 6)} ov"


def check_papers(papers: Sequence[str]) -> None:
    if not papers:
        raise CardgenError("no paper size asked for; choose a4 and/or letter")
    for paper in papers:
        if paper not in PAPERS:
            raise CardgenError(f"unknown paper {paper!r}; choose a4 or letter")


# --- text ---------------------------------------------------------------------------------------

def wrap(text: str, style: str, size_pt: float, width_mm: float) -> list[str]:
    """Greedy word wrap to `width_mm` at `size_pt`; "\\n" starts a new paragraph."""
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
    """The largest size (0.25 pt steps) at which the wrapped text fits the box.

    (`cardgen.render.fonts.fit_text` fits one or two lines; this fills a box with as many.)
    """
    size = max_pt
    while True:
        lines = wrap(text, style, size, width_mm)
        if len(lines) * size * leading / MM <= height_mm or size <= min_pt:
            return size, lines
        size -= 0.25


def text_block(p: Painter, x: float, y: float, text: str, style: str, size_pt: float,
               width_mm: float, leading: float = 1.2, colour: str = "#000000",
               align: str = "left") -> float:
    """Wrapped text with its first baseline at y; returns the y after the last line."""
    step = size_pt * leading / MM
    for line in wrap(text, style, size_pt, width_mm):
        tx = x + width_mm / 2 if align == "centre" else x
        p.text(tx, y, line, style, size_pt, colour, align=align)
        y += step
    return y


# --- card sheets --------------------------------------------------------------------------------

def card_geometry(paper: str, card_w: float, card_h: float,
                  grid: tuple[int, int] | None = None) -> SheetGeometry:
    """Cards of the given size centred on the page without gaps or bleed: `grid` (columns, rows)
    when a layout fixes it, else as many columns and rows as fit."""
    page_w, page_h = page_size_mm(paper)
    if grid is not None:
        cols, rows = grid
    else:
        # 5 mm the printer leaves blank + 2.5 mm of crop mark + a little: 3 x 3 poker cards on Letter too
        margin = 7.65
        cols = int((page_w - 2 * margin) // card_w)
        rows = int((page_h - 2 * margin) // card_h)
    return SheetGeometry(paper, page_w, page_h, card_w, card_h, cols, rows,
                         (page_w - cols * card_w) / 2, (page_h - rows * card_h) / 2, 0.0, 0.0, 0.0)


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
                    label: Callable[[T], str] | None = None, ink_saver: bool = False,
                    grid: tuple[int, int] | None = None) -> bytes:
    """Cards n-up at true size (`card_geometry`) with crop marks and a footer on every sheet,
    packed onto full sheets in order (as the Quicket card sheets: a team's cards run on from the
    previous team's); with `label` (a card's team, say) the sheet's header says where each
    team's cards are ("ADL 1-4, BRI 5-9"). Invariant mode: identical input gives identical bytes."""
    geo = card_geometry(paper, card_w, card_h, grid)
    pages = [list(cards[i:i + geo.per_sheet]) for i in range(0, len(cards), geo.per_sheet)]
    canvas, buf, _, _ = new_canvas(paper, title, credit)
    for number, page in enumerate(pages, 1):
        for i, card in enumerate(page):
            row, col = divmod(i, geo.columns)
            x, y = geo.card_origin(row, col)
            canvas.saveState()
            painter = PdfPainter(canvas, x * MM, (geo.page_h - y) * MM)
            draw(InkSaverPainter(painter) if ink_saver else painter, card)
            canvas.restoreState()
        # crop marks at every cut line a card on the sheet has (none along an empty row) and the
        # sheet's header and footer, all inside the printable area and clear of the marks (the
        # same furniture as the Quicket card sheets)
        sheet = f"sheet {number} of {len(pages)}"
        where = positions_text([label(card) for card in page]) if label else ""
        heads = ([f"{title} \u00b7 {sheet} \u00b7 {where}", f"{sheet} \u00b7 {where}"] if where else []) + [
            f"{title} \u00b7 {sheet}", sheet]
        actual = "Print at 100% (actual size)"
        draw_sheet_furniture(canvas, geo, heads,
                             [f"{actual} \u00b7 {credit}", f"{actual} \u00b7 data: Cricsheet, ODC-By", actual],
                             filled=[divmod(i, geo.columns) for i in range(len(page))])
        canvas.showPage()
    canvas.save()
    return buf.getvalue()


# --- whole pages --------------------------------------------------------------------------------

def page_pdf(paper: str, title: str, credit: str, draw: Callable[[PdfPainter, float, float], None],
             landscape: bool = False) -> bytes:
    """One page drawn by `draw(painter, width_mm, height_mm)`."""
    canvas, buf, w, h = new_canvas(paper, title, credit, landscape=landscape)
    draw(PdfPainter(canvas, 0, h * MM), w, h)
    canvas.showPage()
    canvas.save()
    return buf.getvalue()


def rules_pdf(paper: str, title: str, credit: str, sections: Sequence[tuple[str, Sequence[str]]],
              size_pt: float = 9.0, figures: dict[str, Sequence[Any]] | None = None) -> bytes:
    """A rules sheet: a title, then headed sections of paragraphs (invariant PDF); `figures`
    adds flowables (a diagram) after the paragraphs of the section so headed."""
    register_fonts()
    w, h = page_size_mm(paper)
    buf = io.BytesIO()
    margin = 14 * MM
    doc = BaseDocTemplate(buf, pagesize=(w * MM, h * MM), invariant=1, title=title,
                          author="cardgen", creator="cardgen", subject=credit,
                          initialFontName=PDF_NAMES["regular"],  # not an unused Helvetica
                          leftMargin=margin, rightMargin=margin, topMargin=margin, bottomMargin=margin)

    def footer(canvas, _doc) -> None:  # type: ignore[no-untyped-def]
        canvas.setFont(PDF_NAMES["italic"], 6.5)
        canvas.setFillColor(colors.HexColor("#444444"))
        canvas.drawCentredString(w * MM / 2, 7.5 * MM, credit)  # clear of the 5 mm no-print zone

    frame = Frame(margin, margin, w * MM - 2 * margin, h * MM - 2 * margin, id="body")
    doc.addPageTemplates([PageTemplate(id="page", frames=[frame], onPage=footer)])
    head = ParagraphStyle("head", fontName=PDF_NAMES["bold"], fontSize=size_pt + 2,
                          leading=(size_pt + 2) * 1.25, spaceBefore=5, spaceAfter=2)
    body = ParagraphStyle("body", fontName=PDF_NAMES["regular"], fontSize=size_pt,
                          leading=size_pt * 1.3, spaceAfter=2.5)
    big = ParagraphStyle("title", fontName=PDF_NAMES["bold"], fontSize=17, leading=21, spaceAfter=6)
    story: list[Any] = [Paragraph(title, big)]
    for heading, paragraphs in sections:
        story.append(Paragraph(heading, head))
        story.extend(Paragraph(text, body) for text in paragraphs)
        story.extend((figures or {}).get(heading, ()))
        story.append(Spacer(1, 2))
    doc.build(story)
    return buf.getvalue()


# --- previews and the kit folder ----------------------------------------------------------------

def page_one_png(pdf: bytes, dpi: int) -> bytes:
    """Page 1 of a PDF as PNG bytes (pypdfium2: no system binary needed)."""
    from cardgen.render.raster import RasterError, pdf_page_png
    try:
        return pdf_page_png(pdf, dpi)
    except RasterError as exc:
        raise PreviewError(f"the page-1 preview could not be drawn: {exc}") from None


@dataclass(frozen=True)
class PreviewStyle:
    """How a kit names and labels its page-1 previews (each system keeps its published names)."""
    suffix: str  # replaces ".pdf": "cards-a4.pdf" -> "cards-a4" + suffix
    label: str  # format string with {label}, the PDF's label
    dpi: int


# "cards-a4-page1.png", "The 18 cards (A4): page 1"
PAGE1_PREVIEWS = PreviewStyle("-page1.png", "{label}: page 1", 80)
# "player-deck-a4.png", "Player deck, 48 cards (A4), page 1 preview"
PNG_PREVIEWS = PreviewStyle(".png", "{label}, page 1 preview", 60)


@dataclass(frozen=True)
class KitFile:
    path: Path
    label: str
    kind: str  # pdf | png | json | txt


class KitWriter:
    """Writes a kit's files and then its manifest (`cardgen.manifest`: what the download site
    lists and a rebuild replaces) to a staging
    folder beside `folder`, and puts it in place of the previous kit at `finish`: an interrupted
    build leaves the previous kit whole, files an earlier kit had and this one has not do not
    linger, and whatever else is in the folder (another season's kit, a user's file) stays."""

    def __init__(self, folder: Path, game: str, name: str, competition: str | None,
                 season: str | None, credit: str = ATTRIBUTION,
                 previews: PreviewStyle = PNG_PREVIEWS) -> None:
        self.final = Path(folder)
        self.game, self.name = game, name
        self.competition, self.season = competition, season
        self.credit = credit
        self.previews = previews
        self.files: list[KitFile] = []
        self.final.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_staging(self.final.parent)  # what a killed run left behind
        staging = make_staging(self.final.parent, self.final.name, "build")
        # the staging folder goes when the writer does, finished or not
        self._cleanup = weakref.finalize(self, shutil.rmtree, staging, True)
        self.folder = staging / self.final.name
        self.folder.mkdir()

    def pdf(self, filename: str, label: str, data: bytes, preview: bool = True) -> None:
        """The PDF, and with `preview` its page-1 PNG beside it."""
        try:
            self._pdf(filename, label, data, preview)
        except BaseException:  # noqa: B036 - a full disk, Ctrl+C: no staging folder left behind
            self._cleanup()
            raise

    def _pdf(self, filename: str, label: str, data: bytes, preview: bool) -> None:
        path = self.folder / filename
        atomic_write_bytes(path, data)
        self.files.append(KitFile(path, label, "pdf"))
        if preview:
            png = page_one_png(data, self.previews.dpi)
            png_path = self.folder / (filename.removesuffix(".pdf") + self.previews.suffix)
            atomic_write_bytes(png_path, png)
            self.files.append(KitFile(png_path, self.previews.label.format(label=label), "png"))

    def _relative(self) -> list[str]:
        return [f.path.relative_to(self.folder).as_posix() for f in self.files]

    def manifest(self) -> Path:
        downloads = tuple(Download(rel, f.label, f.kind) for rel, f in zip(self._relative(), self.files))
        return write_manifest(self.folder, Manifest(
            kind="game-kit", files=tuple(relative_files(self.folder)), generator=f"cardgen {__version__}",
            game=self.game, name=self.name, competition=self.competition, season=self.season,
            attribution=self.credit, downloads=downloads))

    def start_here(self) -> Path:
        """START-HERE.txt, first in the manifest: each PDF with its label and page count, and how
        to print (templates/games/start-here.txt.j2), as a Quicket kit opens with its own."""
        from cardgen.render.common import printed_season_of
        from cardgen.render.layout import text_template
        from cardgen.render.start_here import START_HERE, START_HERE_LABEL, count_text, pdf_page_counts
        pages = pdf_page_counts(self.folder)  # the kit's PDFs are all at its top
        pdfs = [{"label": f.label, "name": f.path.name, "pages": count_text(pages[f.path.name], "page")}
                for f in self.files if f.kind == "pdf"]
        season = (f"{self.competition} {printed_season_of(self.competition, self.season)}"
                  if self.competition and self.season else "")
        heading = f"{self.name} kit" + (f": {season}" if season else "")
        text = text_template("games/start-here.txt.j2").render(heading=heading, name=self.name,
                                                               files=pdfs, credit=self.credit)
        path = self.folder / START_HERE
        atomic_write_text(path, text)
        self.files.insert(0, KitFile(path, START_HERE_LABEL, "txt"))
        return path

    def finish(self) -> list[Path]:
        """Write START-HERE.txt and the manifest and put the kit in place (a rebuild replaces the
        files the kit in place says it wrote); every file of the kit, the manifest last."""
        try:
            self.start_here()
            self.manifest()
            previous = read_manifest(self.final)
            publish_folder(self.folder, self.final, lambda rel: previous is not None and previous.owns(rel))
        finally:
            self._cleanup()
        return [self.final / rel for rel in self._relative()] + [self.final / MANIFEST_FILE]


def write_generic_kit(folder: Path, game: str, name: str, credit: str,
                      files: Sequence[tuple[str, str, bytes]]) -> list[Path]:
    """A kit that uses no real players: (filename, label, PDF bytes) made first, then written."""
    writer = KitWriter(folder, game, name, None, None, credit=credit, previews=PAGE1_PREVIEWS)
    for filename, label, data in files:
        writer.pdf(filename, label, data)
    return writer.finish()
