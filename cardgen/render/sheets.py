"""Cards n-up on A4 / US Letter: centred, true scale, crop marks inside the printable area at
every cut line a card on the sheet has (none along an empty row of the last sheet), optional
bleed (8-up landscape) and duplex backs (columns mirrored so each back lands behind its face).
Cards are packed onto full sheets, teams in order; `team_per_sheet` starts every team on a new
sheet instead."""
from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Callable, Iterable, Sequence

from reportlab.pdfgen.canvas import Canvas

from cardgen.errors import CardgenError
from cardgen.render.card import CardView, draw_back, draw_card
from cardgen.render.common import new_canvas
from cardgen.render.fonts import PDF_NAMES, fit_text
from cardgen.render.layout import MM, load_layout
from cardgen.render.painter import PdfPainter

# DejaVu Sans (= Vera) ascender and descender (em): the text's full height, for keeping it off the edge
ASCENT_EM, DESCENT_EM = 0.93, 0.24


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
    landscape: bool = False

    @property
    def duplex_flip(self) -> str:
        """The edge a two-sided print of these sheets flips on, so each back lands behind its face."""
        return "short" if self.landscape else "long"

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
        return sorted(set(round(x, 6) for x in xs)), sorted(set(round(y, 6) for y in ys))

    @property
    def per_sheet(self) -> int:
        return self.columns * self.rows

    def block(self) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of the printed area: the cards and their bleed."""
        xs, ys = self.cut_lines()
        return xs[0] - self.bleed, ys[0] - self.bleed, xs[-1] + self.bleed, ys[-1] + self.bleed


class BleedTooWide(CardgenError):
    """A --bleed-mm no card layout of the paper leaves room for (crop marks, no-print zone)."""


def sheet_geometry(paper: str, bleed: bool = False, bleed_mm: float | None = None) -> SheetGeometry:
    """Where the cards sit: the paper's layout (templates/sheets.json card_sheet), with `bleed`
    its bleed layout; `bleed_mm` (--bleed-mm, implies bleed) a bleed of that width on the first
    of the bleed_layouts that leaves room for the crop marks (`BleedTooWide` if none does)."""
    sheet = load_layout("sheets")
    card = load_layout("card")
    cs = sheet["card_sheet"]
    page = sheet["papers"][paper]
    W, H = card["width_mm"], card["height_mm"]
    if bleed_mm is not None:
        for cols, rows, landscape in cs["bleed_layouts"]:
            geo = _geometry(paper, page, W, H, cols, rows, landscape, 2 * bleed_mm, bleed_mm)
            left, top, right, bottom = geo.block()
            room = cs["no_print_mm"] + cs["crop_offset_mm"] + cs["crop_min_mm"]
            if min(left, top, geo.page_w - right, geo.page_h - bottom) >= room - 1e-9:
                return geo
        raise BleedTooWide(f"a bleed of {bleed_mm:g} mm leaves no room for crop marks on "
                           f"{page['label']} paper; give a smaller --bleed-mm")
    spec = cs["layouts"][f"{paper}-bleed" if bleed else paper]
    return _geometry(paper, page, W, H, spec["columns"], spec["rows"], spec["landscape"], spec["gutter_mm"],
                     spec["bleed_mm"])


def _geometry(paper: str, page: dict, W: float, H: float, cols: int, rows: int, landscape: bool, gap: float,
              bleed: float) -> SheetGeometry:
    page_w, page_h = page["width_mm"], page["height_mm"]
    if landscape:
        page_w, page_h = page_h, page_w
    block_w = cols * W + (cols - 1) * gap
    block_h = rows * H + (rows - 1) * gap
    return SheetGeometry(paper, page_w, page_h, W, H, cols, rows, (page_w - block_w) / 2,
                         (page_h - block_h) / 2, gap, gap, bleed, landscape)


def pages_for(views: Sequence[CardView], per_sheet: int, team_per_sheet: bool = False) -> list[list[CardView]]:
    """Chunks of at most `per_sheet` cards in printed order (teams in order, packed onto full
    sheets); with `team_per_sheet` every team starts on a new sheet."""
    pages: list[list[CardView]] = []
    current_team = None
    for view in views:
        if not pages or len(pages[-1]) == per_sheet or (team_per_sheet and view.team != current_team):
            pages.append([])
        current_team = view.team
        pages[-1].append(view)
    return pages


def team_positions(cards: Sequence[CardView]) -> str:
    """Where each team's cards sit on a sheet, in reading order: "AS 1-3, BH 4-9"."""
    return positions_text([view.team_code for view in cards])


def positions_text(labels: Sequence[str]) -> str:
    """Runs of equal labels in reading order, numbered from 1: "AS 1-3, BH 4-9" (a sheet of
    packed cards says where one team's end and the next one's begin)."""
    runs: list[list] = []
    for i, label in enumerate(labels, 1):
        if runs and runs[-1][0] == label:
            runs[-1][2] = i
        else:
            runs.append([label, i, i])
    return ", ".join(f"{code} {lo}" if lo == hi else f"{code} {lo}-{hi}" for code, lo, hi in runs)


def crop_marks(geo: SheetGeometry, filled: Iterable[tuple[int, int]] | None = None
               ) -> list[tuple[float, float, float, float]]:
    """Crop-mark segments (x1, y1, x2, y2 in mm from top-left): one at each end of every cut line,
    outside the cards and their bleed, inside the printable area (never within the no-print
    zone at the paper edge).

    `filled`: the (row, column) slots that hold a card, None for all of them. On a part-filled
    sheet a cut line that is no filled card's edge (one along an empty row or column only) gets
    no marks; one that is keeps both its ends, as a ruler across the sheet needs them."""
    cs = load_layout("sheets")["card_sheet"]
    xs, ys = geo.cut_lines()
    if filled is not None:
        edges_x, edges_y = set(), set()
        for row, col in filled:
            x, y = geo.card_origin(row, col)
            edges_x |= {round(x, 6), round(x + geo.card_w, 6)}
            edges_y |= {round(y, 6), round(y + geo.card_h, 6)}
        xs = [x for x in xs if round(x, 6) in edges_x]  # both sides rounded alike
        ys = [y for y in ys if round(y, 6) in edges_y]
    off = cs["crop_offset_mm"]
    length = cs["crop_length_mm"]
    safe = cs["no_print_mm"]
    left, top, right, bottom = geo.block()
    top_end = max(safe, top - off - length)
    bottom_end = min(geo.page_h - safe, bottom + off + length)
    left_end = max(safe, left - off - length)
    right_end = min(geo.page_w - safe, right + off + length)
    segments = []
    for x in xs:
        segments.append((x, top_end, x, top - off))
        segments.append((x, bottom + off, x, bottom_end))
    for y in ys:
        segments.append((left_end, y, left - off, y))
        segments.append((right + off, y, right_end, y))
    return segments


def footer_slot(geo: SheetGeometry) -> tuple[float, float]:
    """The x range (mm) the sheet's header and footer lines may use: the column nearest the
    page centre, clear of the crop marks at its cut lines."""
    clear = load_layout("sheets")["card_sheet"]["footer_clear_mm"]
    col = (geo.columns - 1) // 2
    x, _ = geo.card_origin(0, col)
    return x + clear, x + geo.card_w - clear


def draw_sheet_furniture(canvas: Canvas, geo: SheetGeometry, head: Sequence[str], foot: Sequence[str],
                         crop_width_mm: float | None = None,
                         filled: Iterable[tuple[int, int]] | None = None) -> None:
    """Crop marks, a header line in the top margin and a footer line in the bottom one, both
    between the crop marks and out of the no-print zone. `head`/`foot` are alternatives, longest
    first: the first that fits at the footer size or larger (down to footer_min_pt) is drawn.

    A line keeps `cut_clear_mm` off the cut line, so a cut a little outside it leaves no grey
    text on a card. Where the top or bottom margin is too shallow for that (US Letter: 7.7 mm
    above and below three 88 mm rows, 5 mm of it no-print), the header goes up the left margin
    and the footer up the right one instead, beside the middle row and clear of its marks.

    `filled`: the slots holding a card (`crop_marks`); the header and footer keep their places
    as on a full sheet."""
    cs = load_layout("sheets")["card_sheet"]
    # at page level (no q/Q, no transform), so the marks read back exactly as drawn
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.setLineWidth((crop_width_mm or cs["crop_width_mm"]) * MM)
    for x1, y1, x2, y2 in crop_marks(geo, filled):
        canvas.line(x1 * MM, (geo.page_h - y1) * MM, x2 * MM, (geo.page_h - y2) * MM)
    canvas.setFillColorRGB(0.25, 0.25, 0.25)
    for options, at_top in ((head, True), (foot, False)):
        if not _line_across_margin(canvas, geo, options, at_top, cs):
            _line_up_side_margin(canvas, geo, options, at_top, cs)


def _pick_line(options: Sequence[str], width_mm: float, cs: dict) -> tuple[str, float]:
    """The first alternative that fits `width_mm` at footer_pt..footer_min_pt (else the last,
    cut to fit), and its size in points."""
    for i, text in enumerate(options):
        fitted = fit_text(text, "regular", width_mm, cs["footer_pt"], cs["footer_min_pt"])
        if not fitted.truncated or i == len(options) - 1:
            return fitted.lines[0], fitted.size_pt
    raise ValueError("no header or footer text")


def _line_across_margin(canvas: Canvas, geo: SheetGeometry, options: Sequence[str], at_top: bool,
                        cs: dict) -> bool:
    """Header above / footer below the cards, centred on the page; False if the margin cannot
    hold it cut_clear_mm off the cut line.

    The line may use the whole printable width when it sits wholly above (below) the crop marks,
    as on A4; else only the middle column, between the marks of its cut lines. (The middle
    column alone squeezed a team's header to 5.25 pt, or cut it down to "sheet 1 of 4".)"""
    safe = cs["no_print_mm"] + 0.15
    _, block_top, _, block_bottom = geo.block()
    # the line's full height at the largest size it may take: [safe, safe + height] from the edge
    tallest = (ASCENT_EM + DESCENT_EM) * cs["footer_pt"] / 72 * 25.4
    band = (safe, safe + tallest) if at_top else (geo.page_h - safe - tallest, geo.page_h - safe)
    clear = cs["footer_clear_mm"]
    marks_clear = all(min(y1, y2) > band[1] + clear or max(y1, y2) < band[0] - clear
                      for _, y1, _, y2 in crop_marks(geo))
    x0, x1 = (safe, geo.page_w - safe) if marks_clear else footer_slot(geo)
    text, size_pt = _pick_line(options, x1 - x0, cs)
    size_mm = size_pt / 72 * 25.4
    if at_top:
        baseline = safe + ASCENT_EM * size_mm
        room = block_top - baseline - DESCENT_EM * size_mm
    else:
        baseline = geo.page_h - safe - DESCENT_EM * size_mm
        room = baseline - ASCENT_EM * size_mm - block_bottom
    if room < cs["cut_clear_mm"]:
        return False
    canvas.setFont(PDF_NAMES["regular"], size_pt)
    canvas.drawCentredString((x0 + x1) / 2 * MM, (geo.page_h - baseline) * MM, text)
    return True


def _line_up_side_margin(canvas: Canvas, geo: SheetGeometry, options: Sequence[str], at_top: bool,
                         cs: dict) -> None:
    """Header up the left margin / footer up the right one (reading bottom to top), beside the
    middle row of cards, clear of its cut lines' marks; nothing if the margin is too narrow."""
    clear, safe = cs["cut_clear_mm"], cs["no_print_mm"] + 0.15
    left, _, right, _ = geo.block()
    near, far = (safe, left - clear) if at_top else (right + clear, geo.page_w - safe)
    _, row_top = geo.card_origin((geo.rows - 1) // 2, 0)
    length = geo.card_h - 2 * cs["footer_clear_mm"]
    text, size_pt = _pick_line(options, length, cs)
    size_mm = size_pt / 72 * 25.4
    if (ASCENT_EM + DESCENT_EM) * size_mm > far - near:
        return
    # turned 90 degrees anticlockwise the ascenders point left: centre the line's full height
    baseline_x = (near + far) / 2 + (ASCENT_EM - DESCENT_EM) / 2 * size_mm
    centre_y = row_top + geo.card_h / 2
    canvas.saveState()
    canvas.translate(baseline_x * MM, (geo.page_h - centre_y) * MM)
    canvas.rotate(90)
    canvas.setFont(PDF_NAMES["regular"], size_pt)
    canvas.drawCentredString(0, 0, text)
    canvas.restoreState()


def render_cards_pdf(views: list[CardView], paper: str, title: str, credit: str, bleed: bool = False,
                     ink_saver: bool = False, backs: bool = False,
                     progress: Callable[[int], None] | None = None, team_per_sheet: bool = False,
                     solid_backs: bool = False, outline: list[tuple[str, int]] | None = None,
                     bleed_mm: float | None = None) -> bytes:
    """The card sheets as PDF bytes (byte-identical for identical input: invariant mode).

    `outline`: bookmarks as (title, 1-based page) in page order; the PDF then opens with them shown.
    `bleed_mm`: the --bleed-mm width (`sheet_geometry`).
    """
    geo = sheet_geometry(paper, bleed, bleed_mm)
    canvas, buf, _, _ = new_canvas(paper, title, credit)
    canvas.setPageSize((geo.page_w * MM, geo.page_h * MM))
    pages = pages_for(views, geo.per_sheet, team_per_sheet)
    flip = geo.duplex_flip
    if backs:  # the print dialog opens on two-sided, flipped the way the backs are laid out
        canvas.setViewerPreference("Duplex", "DuplexFlipShortEdge" if geo.landscape else "DuplexFlipLongEdge")
    marks = sorted(enumerate(outline or []), key=lambda item: item[1][1])
    page_no = 0
    for number, page in enumerate(pages, 1):
        sides = [("front", page)] + ([("back", page)] if backs else [])
        codes = " \u00b7 ".join(dict.fromkeys(v.team_code for v in page))
        where = team_positions(page)
        for side, cards in sides:
            page_no += 1
            while marks and marks[0][1][1] == page_no:
                index, (mark, _) = marks.pop(0)
                canvas.bookmarkPage(f"mark{index}")
                canvas.addOutlineEntry(mark, f"mark{index}", level=0)
            filled = []
            for i, view in enumerate(cards):
                row, col = divmod(i, geo.columns)
                if side == "back":
                    col = geo.columns - 1 - col
                filled.append((row, col))
                x, y = geo.card_origin(row, col)
                painter = PdfPainter(canvas, x * MM, (geo.page_h - y) * MM)
                canvas.saveState()
                if side == "front":
                    draw_card(painter, view, ink_saver, geo.bleed)
                else:
                    draw_back(painter, view, ink_saver, geo.bleed, solid=solid_backs)
                canvas.restoreState()
            sheet = f"{title} \u00b7 sheet {number} of {len(pages)}" + (" (backs)" if side == "back" else "")
            # which cards belong to which team, in reading order of the fronts (backs mirror them)
            head = ([f"{sheet} \u00b7 {where}"] if side == "front" else []) + [f"{sheet} \u00b7 {codes}", sheet]
            actual = "Print at 100% (actual size)"
            foot = ([f"{actual}, duplex: flip on {flip} edge", f"Duplex: flip on {flip} edge"] if side == "back"
                    else [f"{actual} \u00b7 {credit}", f"{actual} \u00b7 data: Cricsheet, ODC-By", actual])
            draw_sheet_furniture(canvas, geo, head, foot, filled=filled)
            canvas.showPage()
        if progress:
            progress(len(page))
    if marks:
        raise ValueError(f"bookmarks past the last page ({page_no}): {[m for _, (m, _) in marks]}")
    if outline:
        canvas.showOutline()  # viewers open with the bookmarks shown
    canvas.save()
    return buf.getvalue()
