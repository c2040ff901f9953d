"""Cards laid out 9-up on A4 / US Letter: centred, true scale, crop marks, optional bleed and
duplex backs (columns mirrored so each back lands behind its face on a long-edge flip)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from reportlab.pdfgen.canvas import Canvas

from cardgen.render.card import CardView, draw_back, draw_card
from cardgen.render.common import new_canvas
from cardgen.render.fonts import PDF_NAMES
from cardgen.render.layout import MM, load_layout
from cardgen.render.painter import PdfPainter


@dataclass(frozen=True)
class SheetGeometry:
    """Where the cards sit on one paper size (mm, from the page's top-left corner)."""
    paper: str
    page_w: float
    page_h: float
    card_w: float
    card_h: float
    columns: int
    rows: int
    left: float  # x of the first column's cut line
    top: float  # y of the first row's cut line
    gap_x: float  # space between neighbouring cards' cut lines
    gap_y: float
    bleed: float

    def card_origin(self, row: int, col: int) -> tuple[float, float]:
        return (self.left + col * (self.card_w + self.gap_x), self.top + row * (self.card_h + self.gap_y))

    def cut_lines(self) -> tuple[list[float], list[float]]:
        """x of every vertical cut line and y of every horizontal one (mm from top-left)."""
        xs, ys = [], []
        for col in range(self.columns):
            x, _ = self.card_origin(0, col)
            xs += [x, x + self.card_w]
        for row in range(self.rows):
            _, y = self.card_origin(row, 0)
            ys += [y, y + self.card_h]
        return sorted(set(xs)), sorted(set(ys))

    @property
    def per_sheet(self) -> int:
        return self.columns * self.rows


def sheet_geometry(paper: str, bleed: bool = False) -> SheetGeometry:
    sheet = load_layout("sheets")
    card = load_layout("card")
    page = sheet["papers"][paper]
    cs = sheet["card_sheet"]
    b = cs["bleed_mm"] if bleed else 0.0
    W, H = card["width_mm"], card["height_mm"]
    cols, rows = cs["columns"], cs["rows"]
    gap_x = 2 * b
    gap_y = 2 * b
    room_for_marks = 2 * (b + cs["crop_offset_mm"] + 2.0)
    if page["height_mm"] - (rows * H + (rows - 1) * gap_y) < room_for_marks:
        # Letter is too short for a full bleed between rows: neighbours share one bleed there
        # (only the band at a card's top is painted into the bleed, never its bottom edge)
        gap_y = b
    block_w = cols * W + (cols - 1) * gap_x
    block_h = rows * H + (rows - 1) * gap_y
    return SheetGeometry(paper, page["width_mm"], page["height_mm"], W, H, cols, rows,
                         (page["width_mm"] - block_w) / 2, (page["height_mm"] - block_h) / 2,
                         gap_x, gap_y, b)


def pages_for(views: list[CardView], per_sheet: int) -> list[list[CardView]]:
    """Chunks of at most `per_sheet` cards; every team starts on a new sheet."""
    pages: list[list[CardView]] = []
    current_team = None
    for view in views:
        if view.team != current_team or len(pages[-1]) == per_sheet:
            pages.append([])
            current_team = view.team
        pages[-1].append(view)
    return pages


def crop_marks(geo: SheetGeometry) -> list[tuple[float, float, float, float]]:
    """Crop-mark segments (x1, y1, x2, y2 in mm from top-left) in the margins around the block."""
    cs = load_layout("sheets")["card_sheet"]
    xs, ys = geo.cut_lines()
    off = geo.bleed + cs["crop_offset_mm"]
    length = cs["crop_length_mm"]
    block_top, block_bottom = ys[0], ys[-1]
    block_left, block_right = xs[0], xs[-1]
    top_end = max(0.0, block_top - off - length)
    bottom_end = min(geo.page_h, block_bottom + off + length)
    left_end = max(0.0, block_left - off - length)
    right_end = min(geo.page_w, block_right + off + length)
    segments = []
    for x in xs:
        segments.append((x, top_end, x, block_top - off))
        segments.append((x, block_bottom + off, x, bottom_end))
    for y in ys:
        segments.append((left_end, y, block_left - off, y))
        segments.append((block_right + off, y, right_end, y))
    return segments


def _footer(canvas: Canvas, geo: SheetGeometry, text: str) -> None:
    cs = load_layout("sheets")["card_sheet"]
    canvas.setFillColorRGB(0.25, 0.25, 0.25)
    canvas.setFont(PDF_NAMES["regular"], cs["footer_pt"])
    canvas.drawCentredString(geo.page_w / 2 * MM, cs["footer_from_bottom_mm"] * MM, text)


def render_cards_pdf(views: list[CardView], paper: str, title: str, credit: str, bleed: bool = False,
                     ink_saver: bool = False, backs: bool = False,
                     progress: Callable[[int], None] | None = None) -> bytes:
    """The card sheets as PDF bytes (byte-identical for identical input: invariant mode)."""
    geo = sheet_geometry(paper, bleed)
    cs = load_layout("sheets")["card_sheet"]
    canvas, buf, _, _ = new_canvas(paper, title, credit)
    pages = pages_for(views, geo.per_sheet)
    for number, page in enumerate(pages, 1):
        sides = [("front", page)] + ([("back", page)] if backs else [])
        for side, cards in sides:
            # crop marks first, at page level (no transform), so they read back as drawn
            canvas.setStrokeColorRGB(0, 0, 0)
            canvas.setLineWidth(cs["crop_width_mm"] * MM)
            for x1, y1, x2, y2 in crop_marks(geo):
                canvas.line(x1 * MM, (geo.page_h - y1) * MM, x2 * MM, (geo.page_h - y2) * MM)
            for i, view in enumerate(cards):
                row, col = divmod(i, geo.columns)
                if side == "back":
                    col = geo.columns - 1 - col
                x, y = geo.card_origin(row, col)
                painter = PdfPainter(canvas, x * MM, (geo.page_h - y) * MM)
                canvas.saveState()
                (draw_card if side == "front" else draw_back)(painter, view, ink_saver, geo.bleed)
                canvas.restoreState()
            label = f"{title} \u00b7 sheet {number} of {len(pages)}" + (" (backs)" if side == "back" else "")
            _footer(canvas, geo, f"{label} \u00b7 print at 100% (actual size) \u00b7 {credit}")
            canvas.showPage()
        if progress:
            progress(len(page))
    canvas.save()
    return buf.getvalue()
