"""The scoresheet of rules 1.4, one portrait page per innings, sized to write on.

The rules' sheet splits an innings into 50- or 60-ball grids; at a writable size (ball boxes at
least 5 mm wide, labels at least 7 pt) an innings fills a page, so each innings has its own page
of four grids: T20 four grids of 5 overs x 6 balls, 100-ball four grids of 5 sets x 5. Each grid:
the bowler row on top, 11 batting rows, solid over dividers over dashed ball boxes and an R(B)
column. The balls bowled (first innings) or remaining (second innings) at the end of each over
stand in the bowler row against its divider, not in a row of their own: the rows get that room.

After the two grid pages come two scorecard pages, one per innings, for what a scorebook sums up
and the grid cannot hold: each batter's how out, bowler, runs, balls, 4s and 6s; extras and the
total; the fall of wickets; the bowling figures (layout: templates/sheets.json "scorecard").
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from cardgen.cardset import CardSet
from cardgen.render.common import DEFENCE_LABEL, DEFENCE_RULE, new_canvas, season_name, set_title
from cardgen.render.fonts import fit_text, text_width_mm
from cardgen.render.layout import load_layout
from cardgen.render.painter import PdfPainter
from cardgen.render.teamsheets import has_defence
from cardgen.render.common import rules_title
from cardgen.wickets_in_hand import face_range

GRIDS_PER_INNINGS = 4
OVERS_PER_GRID = 5
BATTING_ROWS = 11
WICKETS = 10
PAGES = 4  # the two innings' grid pages, then their two scorecard pages


@dataclass(frozen=True)
class GridPage:
    """Where an innings' grid page put its boxes and blanks (mm from the page's top left), for
    a sheet written on (`cardgen.render.filled_scoresheet`)."""
    innings: int                 # 1 or 2
    margin: float
    text_pt: float
    x0: float                    # the first ball box's left edge
    cell_w: float
    row_h: float
    tops: tuple[float, ...]      # each grid's top edge (its bowler row)
    balls: int                   # ball boxes in a grid
    rb_w: float                  # the R(B) column, right of the boxes
    lines: tuple[tuple[float, str], ...]   # the header's blank lines: (baseline, text as printed)


@dataclass(frozen=True)
class ScorecardPage:
    """Where an innings' scorecard page put its tables' cells (mm), for a sheet written on."""
    innings: int
    text_pt: float
    row_h: float
    team_line: tuple[float, str]   # baseline and text of the "Batting ___ Bowling ___" line
    batting: tuple[float, ...]     # column edges of the batting table
    batting_top: float             # the first writing row's top
    fall: tuple[float, ...]        # column edges of the fall of wickets
    fall_top: float
    bowling: tuple[float, ...]
    bowling_top: float


class SheetFill(Protocol):
    """What a filled-in sheet writes on each page once the blank page is drawn."""

    def grid_page(self, p: PdfPainter, page: GridPage) -> None: ...

    def scorecard_page(self, p: PdfPainter, page: ScorecardPage) -> None: ...


def innings_shape(card_set: CardSet) -> tuple[int, int]:
    """(balls per over, balls per innings) for the card set's format."""
    return (5, 100) if card_set.hundred else (6, 120)


def footer_numbers(innings: int, grid: int, balls_per_over: int, balls_per_innings: int) -> list[int]:
    """Numbers at the over dividers: balls bowled (innings 1) or balls remaining (innings 2)."""
    ends = [(grid * OVERS_PER_GRID + o + 1) * balls_per_over for o in range(OVERS_PER_GRID)]
    return ends if innings == 1 else [balls_per_innings - e for e in ends]


ATTACK_MARKS = {"bowled": "B", "caught": "W", "four": "four", "six": "six", "dot": "•"}


CONSOLIDATE_SAVES = {("caught",): "catch", ("caught", "bowled", "lbw"): "catch, B or LBW"}


def defence_line(p: PdfPainter, x: float, baseline: float, width: float, pt: float) -> None:
    """The R13 line: "Defence N" in bold, then the rule in the quick reference's words
    (common.DEFENCE_RULE), one size for both, fitted to the width. The scorer rolls the Defence
    die mid-ball, so the sheet says it too, under the grids, only for a set with a rated card."""
    natural = text_width_mm(DEFENCE_LABEL, "bold", 1.0) + text_width_mm(DEFENCE_RULE, "regular", 1.0)
    size = max(6.0, min(pt, width / natural))
    p.text(x, baseline, DEFENCE_LABEL, "bold", size, "#202020")
    p.text(x + text_width_mm(DEFENCE_LABEL, "bold", size), baseline, DEFENCE_RULE, "regular", size, "#202020")


def band_width(card_set: CardSet, spec: dict[str, Any]) -> float:
    """The width (mm) the wickets-in-hand table takes at the header's right; 0 for a set
    without the rule."""
    from cardgen.wickets_in_hand import rule_of_set
    rule = rule_of_set(card_set)
    if rule is None:
        return 0.0
    return spec["band_label_mm"] + spec["band_col_mm"] * len(rule.thresholds(innings_shape(card_set)[1]))


def chase_rows(rule: Any) -> list[tuple[str, list[tuple[int, int, int]]]]:
    """The chase line's rows as the scoresheet prints them under the wickets-in-hand table
    (issue 41), one per row of `rule.chase_line` in its order: (label, spans), the label the
    runs needed against the balls left ("need ≤ 2×left", the last "need > 2.5×left": the first
    row that holds is the chase's), each span (first, last wickets down, cell) a run of the
    table's wickets-down columns 0-9 with one cell, neighbours with the same cell as one. []:
    no line (the rule's own chase clause, or none)."""
    line = getattr(rule, "chase_line", None)
    if line is None:
        return []
    edges = [f"{e:g}" for e in line.rate_edges]
    labels = ([f"need ≤ {e}×left" for e in edges] + [f"need > {edges[-1]}×left"]) if edges else ["any need"]
    column = line.column_of_down()
    rows = []
    for label, cells in zip(labels, line.cells):
        spans: list[tuple[int, int, int]] = []
        for down in range(10):
            cell = cells[int(column[down])]
            if spans and spans[-1][2] == cell:
                spans[-1] = (spans[-1][0], down, cell)
            else:
                spans.append((down, down, cell))
        rows.append((label, spans))
    return rows


def band_block_mm(card_set: CardSet, spec: dict[str, Any], innings: int) -> float:
    """The header's height (mm below the top margin, where the first grid starts) on an
    innings' grid page: title_block_mm, and on the second innings' page of a set whose rule has
    a chase line, a chase_row_mm more for each of its rows (the table grows down; the grid rows
    share what is left)."""
    from cardgen.wickets_in_hand import rule_of_set
    if innings != 2:
        return spec["title_block_mm"]
    return spec["title_block_mm"] + len(chase_rows(rule_of_set(card_set))) * spec["chase_row_mm"]


def band_table(p: PdfPainter, card_set: CardSet, right: float, top: float,
               spec: dict[str, Any], innings: int = 1) -> None:
    """The wickets-in-hand rule's table (docs/rules.md R12), right-aligned in the title block at
    the quick reference's text size (the scorer reads it every ball): per wickets down, attack
    while balls left <= a, consolidate while balls left >= c; on the second innings' page of a
    rule with a chase line, its rows under them (`chase_rows`); under it all the d20 of each
    band. Drawn only for a set calibrated for the rule; `top` is the top margin."""
    from cardgen.wickets_in_hand import CELL_LETTERS, CELL_WORDS, TABLE, rule_of_set
    rule = rule_of_set(card_set)
    if rule is None:
        return
    _, bpi = innings_shape(card_set)
    rows = rule.thresholds(bpi)
    size = load_layout("sheets")["quick_reference"]["text_pt"]
    label_w, col_w = spec["band_label_mm"], spec["band_col_mm"]
    x = right - band_width(card_set, spec)
    lines = (("wkts down", [str(d) for d, _, _ in rows]),
             ("attack if ≤", [str(a) for _, a, _ in rows]),
             ("consolidate if ≥", [str(c) for _, _, c in rows]))
    for r, (label, cells) in enumerate(lines):
        yy = top + spec["band_top_mm"] + r * spec["band_row_mm"]
        style = "bold" if r == 0 else "regular"
        p.text(x, yy, fit_text(label, style, label_w - 1.0, size, 7.0).lines[0], style,
               fit_text(label, style, label_w - 1.0, size, 7.0).size_pt)
        for c, cell in enumerate(cells):
            p.text(x + label_w + (c + 0.5) * col_w, yy, cell, style, size, align="centre")
        p.line(x, yy + 1.0, right, yy + 1.0, width=0.35 if r == 0 else 0.1)
    chase = chase_rows(rule) if innings == 2 else []
    lettered = False
    last = top + spec["band_top_mm"] + 2 * spec["band_row_mm"]
    for k, (label, spans) in enumerate(chase):   # the chase line, under the columns of its wickets down
        yy = last + (k + 1) * spec["chase_row_mm"]
        fitted = fit_text(label, "regular", label_w - 1.0, size, 7.0)
        p.text(x, yy, fitted.lines[0], "regular", fitted.size_pt)
        for first, end, band in spans:
            left, span_right = x + label_w + first * col_w, x + label_w + (end + 1) * col_w
            # "table ↑": read the rows above (the first innings' band)
            word = fit_text(CELL_WORDS[band] + (" ↑" if band == TABLE else ""), "bold",
                            span_right - left - 1.0, size, 6.0)
            if word.truncated:     # a span of one column is too narrow for a word: its letter
                word, lettered = fit_text(CELL_LETTERS[band], "bold", span_right - left - 1.0, size, 6.0), True
            p.text((left + span_right) / 2, yy, word.lines[0], "bold", word.size_pt, align="centre")
            if first:
                p.line(left, yy - spec["chase_row_mm"] + 1.0, left, yy + 1.0, width=0.1)
        p.line(x, yy + 1.0, right, yy + 1.0, width=0.35 if k == len(chase) - 1 else 0.1)
    # every face of each d20 said (what 11-20 and 13-20 do too): a line each, as the quick reference
    attack = f"Wickets in hand. Attack, on a •: d20 {rule.attack_words(ATTACK_MARKS)}."
    consolidate = (f"Consolidate, on a {CONSOLIDATE_SAVES.get(rule.consolidate_saves, 'catch')}: d20 "
                   f"1-{rule.consolidate_safe} • (not out), {face_range(rule.consolidate_safe + 1, 20)} out.")
    said = [attack, consolidate] + ([chase_words(rule, innings, lettered)] if rule.chase_words() else [])
    face_pt = spec["band_face_pt"]
    # the first baseline a cap height (and a little) under the last row's rule
    first = (last + len(chase) * spec["chase_row_mm"] + 1.0 + face_pt * 0.73 / 72 * 25.4 + 0.6)
    line_pt = min(fit_text(line, "regular", right - x, face_pt, 6.0).size_pt for line in said)
    for k, line in enumerate(said):   # one size for all the lines
        p.text(x, first + k * spec["band_face_step_mm"], fit_text(line, "regular", right - x, line_pt, 6.0).lines[0],
               "regular", line_pt)


def chase_words(rule: Any, innings: int, lettered: bool = False) -> str:
    """The chase's line under the table: the rule's own clause; with a chase line, on the first
    innings' page where to find it, on the second's how to read its rows (`lettered`: some cell
    printed as its letter)."""
    if rule.chase_line is None:
        return str(rule.chase_words())
    if innings != 2:
        return "Chasing (innings 2): the band from the chase rows on page 2."
    if lettered:
        return "Chasing: first chase row that holds (need = target − total); A/N/C/T."
    return "Chasing: the first chase row that holds (need = target − total)."


def blanks(parts: list[tuple[str, int]], width: float, pt: float) -> str:
    """A header line of labels and write-in blanks ("Match ____   Date ____"): each blank its
    `parts` count of underscores, all shortened alike until the line fits `width` (the room the
    wickets-in-hand table leaves)."""
    for share in [1.0 - k / 40 for k in range(30)]:
        text = "   ".join(f"{label} {'_' * max(4, round(n * share))}" if n else label for label, n in parts)
        if text_width_mm(text, "regular", pt) <= width:
            return text
    return text


def render_scoresheet_pdf(card_set: CardSet, paper: str, credit: str, defence: bool | None = None,
                          fill: SheetFill | None = None) -> bytes:
    """Both innings' grid pages, then their scorecard pages. `defence`: whether to print R13's
    line on the grid pages (a one-team kit's season may rate the other sides' strikers); None:
    whether this set has a rated card. `fill`: what to write on each page (a match scored on
    the sheet; None: the blank sheet the kit prints)."""
    spec = load_layout("sheets")["scoresheet"]
    bpo, bpi = innings_shape(card_set)
    title = f"{set_title(card_set)} scoresheet"
    canvas, buf, W, H = new_canvas(paper, title, credit)
    m = spec["margin_mm"]
    pt, head_pt = spec["text_pt"], spec["heading_pt"]
    name_w, rb_w = spec["name_column_mm"], spec["rb_column_mm"]
    balls = OVERS_PER_GRID * bpo
    cell_w = (W - 2 * m - name_w - rb_w) / balls
    unit = "overs" if bpo == 6 else "sets"
    fmt = "T20: 20 overs of 6 balls" if bpo == 6 else "100-ball: 20 sets of 5 balls"
    heading = f"Quicket Cricket scoresheet \u2014 {season_name(card_set)} ({fmt}) \u00b7 {rules_title(card_set)}"
    rows = 1 + BATTING_ROWS
    if defence is None:
        defence = has_defence(card_set)  # R13's line over the notes takes its room from the rows
    step = spec["line_step_mm"]
    # under the grids, up from the credit line: two lines of notes (and the R13 line)
    bottom_lines = 2 + (1 if defence else 0)
    bottom_block = bottom_lines * step + spec["bottom_clear_mm"]
    gap = spec["grid_gap_mm"]
    title_y, match_y, innings_y, team_y, extras_y = (m + b for b in spec["header_baselines_mm"])
    for innings in (1, 2):
        # the rows share what the header (on page 2 perhaps with the chase line), the gaps and
        # the notes leave
        top_block = band_block_mm(card_set, spec, innings)
        free = H - 2 * m - top_block - bottom_block - (GRIDS_PER_INNINGS - 1) * gap
        row_h = min(spec["row_max_mm"], free / (GRIDS_PER_INNINGS * rows))
        p = PdfPainter(canvas, 0, H * 72 / 25.4)
        fitted = fit_text(heading, "bold", W - 2 * m, spec["title_pt"], head_pt)
        p.text(m, title_y, fitted.lines[0], "bold", fitted.size_pt)
        # the header's left, clear of the wickets-in-hand table (the whole width without one)
        left_w = W - 2 * m - (band_width(card_set, spec) + spec["band_clear_mm"] if band_width(card_set, spec) else 0)
        match_line = blanks([("Match", 30), ("Date", 14), ("Result", 24)], left_w, pt)
        p.text(m, match_y, match_line, "regular", pt)
        side = "First batting side" if innings == 1 else "First bowling side (bats second)"
        # where this innings is summed up: its scorecard comes after both grid pages, not overleaf
        pointer = f"its scorecard: page {2 + innings}"
        room = left_w - spec["scorecard_pointer_gap_mm"] - text_width_mm(pointer, "regular", pt)
        heading_pt = fit_text(f"Innings {innings}: {side}", "bold", room, head_pt, 8.0).size_pt
        p.text(m, innings_y, f"Innings {innings}: {side}", "bold", heading_pt)
        p.text(m + text_width_mm(f"Innings {innings}: {side}", "bold", heading_pt) + spec["scorecard_pointer_gap_mm"],
               innings_y, pointer, "regular", pt)
        team_line = blanks([("Team", 28), ("Wicketkeeper (\u2020)", 20)], left_w, pt)
        p.text(m, team_y, team_line, "regular", pt)
        # the chase counts from the target, the first innings' total + 1 (the engines' target and
        # the wickets-in-hand chase line); a blank "Target" was filled with the total by hand
        extras_line = blanks([("Extras", 8), ("Total", 8), ("/", 8), ("Balls", 8)]
                             + ([("Target (1st total + 1)", 6)] if innings == 2 else []), left_w, pt
                             ).replace("   / ", " / ")
        p.text(m, extras_y, extras_line, "regular", pt)
        band_table(p, card_set, W - m, m, spec, innings)
        y = m + top_block
        x0 = m + name_w
        tops = []
        for grid in range(GRIDS_PER_INNINGS):
            top = y
            tops.append(top)
            p.text(m + 1, top + row_h * 0.72, f"Bowler ({unit})", "bold", pt)
            p.text(x0 + balls * cell_w + rb_w / 2, top + row_h * 0.72, "R(B)", "bold", pt, align="centre")
            for r in range(1, rows):
                p.text(m + 1, top + (r + 0.72) * row_h, f"{r}", "bold", pt)
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
            # balls bowled / remaining at each over's end: in the bowler row, against the divider
            # (the bowler's name is written from the row's left)
            for o, number in enumerate(footer_numbers(innings, grid, bpo, bpi)):
                xx = x0 + (o + 1) * bpo * cell_w - spec["count_pad_mm"]
                p.text(xx, top + row_h * 0.72, str(number), "bold", spec["count_pt"], align="right")
            y = top + rows * row_h + gap
        # an over has a box per legal ball: a played match put 2 wides and a no-ball into 6
        # boxes, so the sheet says where an extra goes
        # the name column is headed by the bowler row's "Bowler (overs)": a played match asked
        # where the batters go (helper-41), so the note says it
        # a leg bye or bye is a legal ball the striker faced whose run is not his: the most common
        # extra on the chart after wides (BBL 2024-25: 33 and 6 of 120 cells), written as a "1" it
        # would be added to his runs (helper-44), so the note gives it a mark of its own
        notes = [("Batters in order down the left (keeper \u2020). W = wicket (outline the box), \u2022 = dot, lb = leg bye, "
                  "b = bye; wide (wd) or no-ball (nb): in the next ball's box."),
                 (f"Write the bowler and their {unit[:-1]} count above each {unit[:-1]}; the printed number "
                  f"at its end: balls {'bowled' if innings == 1 else 'remaining'} after it"
                  # The Hundred changes ends every 10 balls, not at each set's line (a hand-played
                  # innings changed after 5 by T20 habit, helper-50): 10, 20, ... balls bowled
                  # is a printed number ending in 0 in either innings (remaining = 100 - bowled)
                  f"{'; change ends at each one ending in 0' if bpo == 5 else ''}.")]
        notes_pt = min(fit_text(line, "regular", W - 2 * m, pt, 6.0).size_pt for line in notes)
        for k, line in enumerate(notes):  # one size for both lines
            p.text(m, H - m - (len(notes) - k) * step, line, "regular", notes_pt, "#202020")
        if defence:
            # at the notes' size: one block with them
            defence_line(p, m, H - m - bottom_lines * step, W - 2 * m, notes_pt)
        footer(p, title, innings, credit, W, H, m)
        if fill is not None:
            fill.grid_page(p, GridPage(innings, m, pt, x0, cell_w, row_h, tuple(tops), balls, rb_w,
                                       ((match_y, match_line), (team_y, team_line), (extras_y, extras_line))))
        canvas.showPage()
    for innings in (1, 2):
        p = PdfPainter(canvas, 0, H * 72 / 25.4)
        page = scorecard_page(p, card_set, innings, title, credit, W, H)
        if fill is not None:
            fill.scorecard_page(p, page)
        canvas.showPage()
    canvas.save()
    return buf.getvalue()


def footer(p: PdfPainter, title: str, page: int, credit: str, W: float, H: float, m: float) -> None:
    """The set's title, "page N of PAGES" and the Cricsheet credit, centred on the bottom margin."""
    foot = fit_text(f"{title} \u00b7 page {page} of {PAGES} \u00b7 {credit}", "regular", W - 2 * m, 6.5, 5.0)
    p.text(W / 2, H - m, foot.lines[0], "regular", foot.size_pt, "#404040", "centre")


def column_edges(columns: list[list[Any]], left: float, right: float) -> list[float]:
    """The x of each column's left edge and of the last one's right edge: the columns' widths in
    mm, the one without a width (None) takes what the others leave."""
    fixed = sum(width for _, width in columns if width is not None)
    edges = [left]
    for _, width in columns:
        edges.append(edges[-1] + (right - left - fixed if width is None else width))
    return edges


def ruled_table(p: PdfPainter, edges: list[float], top: float, headings: list[str], rows: int,
                row_h: float, spec: dict[str, Any], short: frozenset[int] = frozenset(), short_rows: int = 0) -> float:
    """A heading row of `headings` (bold; a figure's column's centred) over `rows`
    blank writing rows, ruled across and down; the dividers at the edges in `short` run down the
    first `short_rows` writing rows only. Returns the table's bottom."""
    head_h = spec["column_row_mm"]
    bottom = top + head_h + rows * row_h
    pad, size = spec["cell_pad_mm"], spec["column_pt"]
    for k, heading in enumerate(headings):
        left, right = edges[k], edges[k + 1]
        fitted = fit_text(heading, "bold", right - left - 2 * pad, size, 6.0)
        if right - left < spec["number_column_mm"]:   # a figure's column: its heading over the figure
            p.text((left + right) / 2, top + head_h * 0.7, fitted.lines[0], "bold", fitted.size_pt, align="centre")
        else:
            p.text(left + pad, top + head_h * 0.7, fitted.lines[0], "bold", fitted.size_pt)
    ys = [top, top + head_h] + [top + head_h + r * row_h for r in range(1, rows + 1)]
    for k, y in enumerate(ys):
        p.line(edges[0], y, edges[-1], y, width=0.35 if k in (0, 1, len(ys) - 1) else spec["cell_line_mm"])
    for k, x in enumerate(edges):
        end = top + head_h + short_rows * row_h if k in short else bottom
        p.line(x, top, x, end, width=0.35 if k in (0, len(edges) - 1) else spec["cell_line_mm"])
    return bottom


def labelled_cells(p: PdfPainter, left: float, right: float, top: float, row_h: float, labels: list[str],
                   spec: dict[str, Any]) -> None:
    """One writing row's span split into equal cells, each with a small label at its top left
    (the figure is written after it)."""
    width = (right - left) / len(labels)
    for k, label in enumerate(labels):
        x = left + k * width
        if k:
            p.line(x, top, x, top + row_h, width=spec["cell_line_mm"])
        p.text(x + spec["cell_pad_mm"], top + min(row_h * 0.45, 3.2), label, "regular", spec["label_pt"], "#303030")


def section_title(p: PdfPainter, x: float, top: float, text: str, spec: dict[str, Any]) -> float:
    """A section's bold title; returns where its table starts."""
    p.text(x, top + spec["section_baseline_mm"], text, "bold", spec["heading_pt"])
    return top + spec["section_title_mm"]


def scorecard_page(p: PdfPainter, card_set: CardSet, innings: int, title: str, credit: str,
                   W: float, H: float) -> ScorecardPage:
    """One innings summed up as a scorebook does it: batting, fall of wickets, bowling; returns
    where its cells are."""
    # the grid pages' margin and line widths, with the scorecard's own sizes over them
    spec = {**load_layout("sheets")["scoresheet"], **load_layout("sheets")["scorecard"]}
    m = spec["margin_mm"]
    bpo, _ = innings_shape(card_set)
    fmt = "T20" if bpo == 6 else "100-ball"
    unit = "overs" if bpo == 6 else "balls"
    fall = spec["fall_of_wickets"]
    heading = f"Quicket Cricket scorecard \u2014 {season_name(card_set)} ({fmt})"
    title_y, innings_y, team_y = (m + b for b in spec["header_baselines_mm"])
    fitted = fit_text(heading, "bold", W - 2 * m, spec["title_pt"], spec["heading_pt"])
    p.text(m, title_y, fitted.lines[0], "bold", fitted.size_pt)
    side = "first batting side" if innings == 1 else "first bowling side (bats second)"
    p.text(m, innings_y, f"Innings {innings} scorecard: {side} (its grids: page {innings})", "bold",
           spec["heading_pt"])
    team_line = ("Batting ____________________________   Bowling ____________________________   "
                 "Match ______________")
    p.text(m, team_y, team_line, "regular", spec["text_pt"])
    left, right = m, W - m
    notes = [
        "How out: b (bowled), c Fielder (caught; c & b: caught by the bowler), lbw, run out (Fielder), st Keeper (stumped).",
        "Bowler: who took the wicket (none after a run out). Runs: the batter's, off the bat; byes, leg byes, wides, no-balls: Extras.",
        "Total = the batters' runs + extras. A bowler's Runs: off the bat, wides and no-balls (not byes or leg byes).",
    ]
    if bpo == 6:
        notes.append("Over 1-4: the runs off each of the bowler's overs (4 at most). Overs as 3.4 "
                     "(3 overs, 4 balls); a maiden: a 6-ball over of 0 runs to the bowler.")
    else:
        # The Hundred counts a bowler's work in balls (5 or 10 in a row, 20 at most), not overs, so
        # an over's maiden has nothing to stand on: a set of 5 is not an over, and a spell of 10
        # spans two sets. Dot balls say what maidens say (balls nobody scored off, to the bowler),
        # count the same for any spell, and the grid's • marks count straight into them.
        notes.append("Set 1-4: the runs off each of the bowler's 5-ball sets (20 balls at most). "
                     "Balls: legal balls bowled. Dots: balls of 0 runs to the bowler (no maidens).")
    # the writing rows share what the header, the three tables' titles and heading rows, the
    # gaps and the notes leave, up to row_max_mm (Letter is 17.6 mm shorter than A4)
    rows = BATTING_ROWS + 2 + len(fall[fmt]) + spec["bowling_rows"]
    fixed = spec["title_block_mm"] + 3 * (spec["section_title_mm"] + spec["column_row_mm"]) + 2 * spec["section_gap_mm"]
    free = H - 2 * m - fixed - len(notes) * spec["note_step_mm"] - spec["notes_clear_mm"]
    row_h = min(spec["row_max_mm"], free / rows)

    # batting: a row per batter in order, then extras and the total across the name columns
    y = section_title(p, left, m + spec["title_block_mm"], "Batting", spec)
    columns = spec["batting"]
    edges = column_edges(columns, left, right)
    names = [h for h, _ in columns]
    runs = names.index("Runs")
    # under the batters, the extras and total rows: their label across No. and Batter, the
    # breakdown across How out and Bowler, the figure under Runs; the dividers in those spans (and
    # between Balls, 4s and 6s, nothing to write there for extras) stop above them
    short = frozenset({1, 3, *range(runs + 2, len(columns))})
    bottom = ruled_table(p, edges, y, names, BATTING_ROWS + 2, row_h, spec, short, BATTING_ROWS)
    first = y + spec["column_row_mm"]
    batting_edges = tuple(edges)
    for r in range(BATTING_ROWS):
        p.text(edges[1] - spec["cell_pad_mm"], first + (r + 0.68) * row_h, str(r + 1), "bold", spec["text_pt"],
               align="right")
    extras_top, total_top = first + BATTING_ROWS * row_h, first + (BATTING_ROWS + 1) * row_h
    p.rect(edges[runs + 1] + 0.2, extras_top + 0.2, edges[-1] - edges[runs + 1] - 0.4, row_h - 0.4, fill="#e6e6e6")
    for top, label, cells in ((extras_top, "Extras", spec["extras"]), (total_top, "Total", ["wickets", unit])):
        p.text(edges[0] + spec["cell_pad_mm"], top + row_h * 0.68, label, "bold", spec["text_pt"])
        labelled_cells(p, edges[2], edges[runs], top, row_h, cells, spec)
    # the total row's balls, 4s and 6s: the batters' sums, a check on the grid's count
    for k in range(runs + 2, len(columns)):
        p.line(edges[k], total_top, edges[k], bottom, width=spec["cell_line_mm"])

    # fall of wickets: the score, the over (ball, in the Hundred) and who was out, wickets 1-10
    y = section_title(p, left, bottom + spec["section_gap_mm"], "Fall of wickets", spec)
    label_right = left + fall["label_mm"]
    edges = [left] + [label_right + k * (right - label_right) / WICKETS for k in range(WICKETS + 1)]
    bottom = ruled_table(p, edges, y, ["Wicket"] + [str(k) for k in range(1, WICKETS + 1)], len(fall[fmt]), row_h, spec)
    fall_edges, fall_top = tuple(edges), y + spec["column_row_mm"]
    for r, label in enumerate(fall[fmt]):
        p.text(left + spec["cell_pad_mm"], y + spec["column_row_mm"] + (r + 0.68) * row_h, label, "regular",
               spec["text_pt"])

    # bowling: a row per bowler, the runs off each of their overs (sets) then the figures
    y = section_title(p, left, bottom + spec["section_gap_mm"], "Bowling", spec)
    columns = spec["bowling"][fmt]
    edges = column_edges(columns, left, right)
    bottom = ruled_table(p, edges, y, [h for h, _ in columns], spec["bowling_rows"], row_h, spec)
    bowling_edges, bowling_top = tuple(edges), y + spec["column_row_mm"]

    step = spec["note_step_mm"]
    notes_pt = min(fit_text(line, "regular", W - 2 * m, spec["text_pt"], 6.0).size_pt for line in notes)
    for k, line in enumerate(notes):
        p.text(m, H - m - (len(notes) - k) * step, line, "regular", notes_pt, "#202020")
    footer(p, title, 2 + innings, credit, W, H, m)
    return ScorecardPage(innings, spec["text_pt"], row_h, (team_y, team_line), batting_edges, first,
                         fall_edges, fall_top, bowling_edges, bowling_top)
