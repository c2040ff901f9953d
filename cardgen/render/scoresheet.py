"""The scoresheet of rules 1.4, one landscape page for the competition's format.

T20: each innings is two 60-ball grids (10 overs x 6 balls); 100-ball: two 50-ball grids (10 sets
x 5). Each grid: the bowler row on top, 11 batting rows, solid over dividers over dashed ball
boxes, balls bowled (first innings) or remaining (second innings) under each divider, and an R(B)
column. The first batting side uses the top two grids, the first bowling side the bottom two.
"""
from __future__ import annotations

from typing import Any

from cardgen.render.common import new_canvas, set_title
from cardgen.render.layout import load_layout
from cardgen.render.painter import PdfPainter

GRIDS_PER_INNINGS = 2
OVERS_PER_GRID = 10
BATTING_ROWS = 11


def innings_shape(card_set: dict[str, Any]) -> tuple[int, int]:
    """(balls per over, balls per innings) for the card set's format."""
    return (5, 100) if card_set.get("format") == "100-ball" else (6, 120)


def footer_numbers(innings: int, grid: int, balls_per_over: int, balls_per_innings: int) -> list[int]:
    """Numbers under the over dividers: balls bowled (innings 1) or balls remaining (innings 2)."""
    ends = [(grid * OVERS_PER_GRID + o + 1) * balls_per_over for o in range(OVERS_PER_GRID)]
    return ends if innings == 1 else [balls_per_innings - e for e in ends]


def render_scoresheet_pdf(card_set: dict[str, Any], paper: str, credit: str) -> bytes:
    spec = load_layout("sheets")["scoresheet"]
    bpo, bpi = innings_shape(card_set)
    title = f"{set_title(card_set)} scoresheet"
    canvas, buf, W, H = new_canvas(paper, title, credit, landscape=True)
    p = PdfPainter(canvas, 0, H * 72 / 25.4)
    m = spec["margin_mm"]
    fmt = "T20: 20 overs of 6 balls" if bpo == 6 else "100-ball: 20 sets of 5 balls"
    p.text(m, m + 3.2, f"Quicket Cricket scoresheet \u2014 {card_set['competition'].get('name', '')} "
           f"{card_set['season']} ({fmt})", "bold", spec["title_pt"])
    p.text(W - m, m + 3.2, "Match ____________________   Date ____________   Result __________________",
           "regular", 7.5, align="right")
    title_h = 6.0
    label_h = 4.6
    footer_h = spec["footer_row_mm"]
    gap = spec["grid_gap_mm"]
    credit_h = 3.0
    rows = 1 + BATTING_ROWS
    free = H - 2 * m - title_h - credit_h - 2 * label_h - 4 * footer_h - 3 * gap
    row_h = min(spec["row_mm"], free / (4 * rows))
    balls = OVERS_PER_GRID * bpo
    name_w, rb_w = spec["name_column_mm"], spec["rb_column_mm"]
    cell_w = (W - 2 * m - name_w - rb_w) / balls
    pt = spec["text_pt"]
    y = m + title_h
    for innings in (1, 2):
        side = "First batting side" if innings == 1 else "First bowling side (bats second)"
        p.text(m, y + 3.4, f"Innings {innings}: {side}", "bold", 8.5)
        p.text(m + 92, y + 3.4, "Team ______________________   Wicketkeeper (\u2020) ______________   "
               "Extras ______   Total ______ / ______   Balls ______", "regular", 7.5)
        if innings == 2:
            p.text(W - m, y + 3.4, "Target ______", "bold", 7.5, align="right")
        y += label_h
        for grid in range(GRIDS_PER_INNINGS):
            top = y
            x0 = m + name_w
            # row labels
            p.text(m + 1, top + row_h * 0.75, "Bowler (overs)" if bpo == 6 else "Bowler (sets)",
                   "bold", pt)
            p.text(x0 + balls * cell_w + rb_w / 2, top + row_h * 0.75, "R(B)", "bold", pt, align="centre")
            for r in range(1, rows):
                p.text(m + 1, top + (r + 0.75) * row_h, f"{r}", "bold", pt)
            # horizontal rules
            for r in range(rows + 1):
                yy = top + r * row_h
                p.line(m, yy, W - m, yy, width=0.35 if r in (0, 1, rows) else spec["cell_line_mm"])
            # ball boxes: dashed inside an over, solid at the end of each over
            for b in range(balls + 1):
                xx = x0 + b * cell_w
                if b % bpo == 0:
                    p.line(xx, top, xx, top + rows * row_h, width=spec["over_line_mm"])
                else:
                    p.line(xx, top + row_h, xx, top + rows * row_h, width=spec["cell_line_mm"],
                           dash=spec["dash"])
            p.line(m, top, m, top + rows * row_h, width=0.35)
            p.line(W - m, top, W - m, top + rows * row_h, width=0.35)
            # balls bowled / remaining under each divider
            for o, number in enumerate(footer_numbers(innings, grid, bpo, bpi)):
                xx = x0 + (o + 1) * bpo * cell_w
                p.text(xx, top + rows * row_h + footer_h * 0.85, str(number), "bold", pt, align="centre")
            p.text(m + 1, top + rows * row_h + footer_h * 0.85,
                   "balls bowled" if innings == 1 else "balls remaining", "italic", pt)
            y = top + rows * row_h + footer_h + gap
    p.text(W / 2, H - m + 1.5, f"Mark the wicketkeeper \u2020 in each line-up. W = wicket (outline the box), "
           f"\u2022 = dot. \u00b7 {credit}", "regular", 6, "#404040", "centre")
    canvas.showPage()
    canvas.save()
    return buf.getvalue()
