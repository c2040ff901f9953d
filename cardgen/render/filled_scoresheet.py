"""The kit's scoresheet with a match written on it: the blank sheet (`render.scoresheet`, the
same layout from templates/sheets.json) and, over it, what a scorer pencils in, in blue.

The marks come as plain data (`FilledInnings`), made by the layer that played the match
(`cardgen.site.first_match` from a reference-engine replay), so this module draws and decides
nothing about cricket. A mark goes where the sheet's notes say: the striker's row under the
ball's box (a wide or no-ball in the next legal ball's box, before its mark), W outlined, the
bowler and his over count above each over, each batter's runs (balls) so far in R(B).
"""
from __future__ import annotations

from dataclasses import dataclass

from cardgen.cardset import CardSet
from cardgen.render.fonts import fit_text, text_width_mm
from cardgen.render.painter import PdfPainter
from cardgen.render.scoresheet import GridPage, ScorecardPage, render_scoresheet_pdf

PENCIL = "#1f3f9f"   # a blue biro, told apart from the black print at a glance


@dataclass(frozen=True)
class BoxMark:
    box: int           # legal-ball box in the innings, 0-based (the grid is box // balls a grid)
    row: int           # batting slot, 0-based
    text: str
    out: bool = False  # a wicket: the box is outlined


@dataclass(frozen=True)
class FilledInnings:
    team: str
    keeper: str
    batters: tuple[str, ...]                 # in batting order, as far as they came in
    bowlers: tuple[tuple[int, str], ...]     # (unit, "Name (2)") above each over or set
    boxes: tuple[BoxMark, ...]
    runs_balls: tuple[tuple[int, int, str], ...]   # (grid, row, "23(17)"): R(B) at each grid's end
    extras: str
    total: str
    wickets: str
    balls: str
    target: str = ""
    # the scorecard page: rows of the sheet's columns, as written
    batting: tuple[tuple[str, ...], ...] = ()     # No., batter, how out, bowler, runs, balls, 4s, 6s
    extras_cells: tuple[str, ...] = ()            # byes, leg byes, wides, no-balls
    total_cells: tuple[str, ...] = ()             # the total's wickets and overs (balls)
    extras_total: str = ""
    runs_total: str = ""
    fall: tuple[tuple[str, ...], ...] = ()        # a column per wicket: score, over (ball), batter No.
    bowling: tuple[tuple[str, ...], ...] = ()     # the sheet's bowling columns, in order


@dataclass(frozen=True)
class FilledSheet:
    match: str
    date: str
    result: str
    innings: tuple[FilledInnings, FilledInnings]


def _after(line: str, label: str, pt: float) -> float:
    """x (mm from the line's start) where the blank after `label` begins in a printed line."""
    at = line.index(label) + len(label) + 1
    return text_width_mm(line[:at], "regular", pt) + 0.8


class _Pencil:
    """Writes a FilledSheet on the pages render_scoresheet_pdf draws (its SheetFill)."""

    def __init__(self, sheet: FilledSheet) -> None:
        self.sheet = sheet

    def _write(self, p: PdfPainter, x: float, y: float, text: str, width: float, pt: float,
               align: str = "left") -> None:
        fitted = fit_text(text, "regular", width, pt, 4.5)
        p.text(x, y, fitted.lines[0], "regular", fitted.size_pt, PENCIL, align)

    def grid_page(self, p: PdfPainter, page: GridPage) -> None:
        inn = self.sheet.innings[page.innings - 1]
        pt, m = page.text_pt, page.margin
        (match_y, match_line), (team_y, team_line), (extras_y, extras_line) = page.lines
        hand = pt + 0.5
        for y, line, label, text in (
                (match_y, match_line, "Match", self.sheet.match), (match_y, match_line, "Date", self.sheet.date),
                (match_y, match_line, "Result", self.sheet.result), (team_y, team_line, "Team", inn.team),
                (team_y, team_line, "Wicketkeeper (\u2020)", inn.keeper),
                (extras_y, extras_line, "Extras", inn.extras), (extras_y, extras_line, "Total", inn.total),
                (extras_y, extras_line, "/", inn.wickets), (extras_y, extras_line, "Balls", inn.balls),
                (extras_y, extras_line, "Target (1st total + 1)", inn.target)):
            if text and label in line:
                room = self._blank_room(line, label, pt)
                self._write(p, m + _after(line, label, pt), y - 0.6, text, room, hand)
        name_w = page.x0 - m - 5.5   # right of the printed row numbers (1-11)
        for top in page.tops:
            for row, name in enumerate(inn.batters):
                self._write(p, m + 5.0, top + (row + 1 + 0.72) * page.row_h, name, name_w, pt)
        per_unit = page.balls // 5
        for unit, text in inn.bowlers:
            grid, k = divmod(unit, 5)
            if grid >= len(page.tops):
                continue
            left = page.x0 + k * per_unit * page.cell_w + 0.6
            # the printed count stands at the over's right: the name takes the rest
            self._write(p, left, page.tops[grid] + page.row_h * 0.72, text, per_unit * page.cell_w - 6.5, pt - 0.5)
        for mark in inn.boxes:
            grid, col = divmod(mark.box, page.balls)
            if grid >= len(page.tops):
                continue
            x = page.x0 + col * page.cell_w
            y = page.tops[grid] + (mark.row + 1) * page.row_h
            self._write(p, x + page.cell_w / 2, y + page.row_h * 0.74, mark.text, page.cell_w - 0.6, pt,
                        "centre")
            if mark.out:
                p.rect(x + 0.35, y + 0.35, page.cell_w - 0.7, page.row_h - 0.7, stroke=PENCIL, width=0.3)
        for grid, row, text in inn.runs_balls:
            if grid < len(page.tops):
                x = page.x0 + page.balls * page.cell_w + page.rb_w / 2
                self._write(p, x, page.tops[grid] + (row + 1.72) * page.row_h, text, page.rb_w - 0.8, pt - 0.5,
                            "centre")

    @staticmethod
    def _blank_room(line: str, label: str, pt: float) -> float:
        """The width of the underscores after `label`."""
        start = line.index(label) + len(label) + 1
        end = start
        while end < len(line) and line[end] == "_":
            end += 1
        return text_width_mm(line[start:end], "regular", pt) - 1.0

    def scorecard_page(self, p: PdfPainter, page: ScorecardPage) -> None:
        inn = self.sheet.innings[page.innings - 1]
        pt = page.text_pt + 0.5
        pad = 1.2
        y_line, line = page.team_line
        m = page.batting[0]
        for label, text in (("Batting", inn.team), ("Bowling", self.sheet.innings[2 - page.innings].team),
                            ("Match", self.sheet.match)):
            self._write(p, m + _after(line, label, page.text_pt), y_line - 0.6, text,
                        self._blank_room(line, label, page.text_pt), pt)
        e = page.batting
        for r, row in enumerate(inn.batting):
            y = page.batting_top + (r + 0.7) * page.row_h
            for c, cell in enumerate(row):
                if c == 0 or not cell:
                    continue   # the No. is printed
                left, right = e[c], e[c + 1]
                if right - left < 20.0:
                    self._write(p, (left + right) / 2, y, cell, right - left - 2 * pad, pt, "centre")
                else:
                    self._write(p, left + pad, y, cell, right - left - 2 * pad, pt)
        runs_col = 4
        extras_top = page.batting_top + 11 * page.row_h
        span = (e[runs_col] - e[2]) / max(1, len(inn.extras_cells))
        for k, cell in enumerate(inn.extras_cells):
            self._write(p, e[2] + (k + 0.75) * span, extras_top + 0.72 * page.row_h, cell, span * 0.45, pt, "centre")
        span_t = (e[runs_col] - e[2]) / max(1, len(inn.total_cells))
        for k, cell in enumerate(inn.total_cells):
            self._write(p, e[2] + (k + 0.75) * span_t, extras_top + 1.72 * page.row_h, cell, span_t * 0.45, pt,
                        "centre")
        mid = (e[runs_col] + e[runs_col + 1]) / 2
        self._write(p, mid, extras_top + 0.72 * page.row_h, inn.extras_total, e[runs_col + 1] - e[runs_col], pt,
                    "centre")
        self._write(p, mid, extras_top + 1.72 * page.row_h, inn.runs_total, e[runs_col + 1] - e[runs_col], pt,
                    "centre")
        f = page.fall
        for k, column in enumerate(inn.fall[:10]):
            for r, cell in enumerate(column):
                self._write(p, (f[k + 1] + f[k + 2]) / 2, page.fall_top + (r + 0.7) * page.row_h, cell,
                            f[k + 2] - f[k + 1] - 1.0, pt, "centre")
        b = page.bowling
        for r, row in enumerate(inn.bowling):
            y = page.bowling_top + (r + 0.7) * page.row_h
            for c, cell in enumerate(row):
                if not cell:
                    continue
                if c == 0:
                    self._write(p, b[0] + pad, y, cell, b[1] - b[0] - 2 * pad, pt)
                else:
                    self._write(p, (b[c] + b[c + 1]) / 2, y, cell, b[c + 1] - b[c] - 1.0, pt, "centre")


def render_filled_scoresheet_pdf(card_set: CardSet, paper: str, credit: str, sheet: FilledSheet,
                                 defence: bool | None = None) -> bytes:
    """The kit's scoresheet for `card_set` on `paper`, with `sheet` written on it."""
    return render_scoresheet_pdf(card_set, paper, credit, defence, fill=_Pencil(sheet))
