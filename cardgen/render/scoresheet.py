"""The scoresheet of rules 1.4, one portrait page per innings, sized to write on.

The rules' sheet splits an innings into 50- or 60-ball grids; at a writable size (ball boxes at
least 5 mm wide, labels at least 7 pt) an innings fills a page, so each innings has its own page
of four grids: T20 four grids of 5 overs x 6 balls, 100-ball four grids of 5 sets x 5. Each grid:
the bowler row on top, 11 batting rows, solid over dividers over dashed ball boxes and an R(B)
column. The balls bowled (first innings) or remaining (second innings) at the end of each over
stand in the bowler row against its divider, not in a row of their own: the rows get that room.
"""
from __future__ import annotations

from typing import Any

from cardgen.render.common import new_canvas, set_title
from cardgen.render.fonts import fit_text, text_width_mm
from cardgen.render.layout import load_layout
from cardgen.render.painter import PdfPainter
from cardgen.render.teamsheets import has_defence
from cardgen.wickets_in_hand import face_range

GRIDS_PER_INNINGS = 4
OVERS_PER_GRID = 5
BATTING_ROWS = 11


def innings_shape(card_set: dict[str, Any]) -> tuple[int, int]:
    """(balls per over, balls per innings) for the card set's format."""
    return (5, 100) if card_set.get("format") == "100-ball" else (6, 120)


def footer_numbers(innings: int, grid: int, balls_per_over: int, balls_per_innings: int) -> list[int]:
    """Numbers at the over dividers: balls bowled (innings 1) or balls remaining (innings 2)."""
    ends = [(grid * OVERS_PER_GRID + o + 1) * balls_per_over for o in range(OVERS_PER_GRID)]
    return ends if innings == 1 else [balls_per_innings - e for e in ends]


BAND_LABEL_MM, BAND_COL_MM = 21.0, 4.9


ATTACK_MARKS = {"bowled": "B", "caught": "W", "four": "four", "six": "six", "dot": "•"}


CONSOLIDATE_SAVES = {("caught",): "catch", ("caught", "bowled", "lbw"): "catch, B or LBW"}


# R13 as the quick reference says it: the scorer rolls the Defence die mid-ball, so the sheet says
# it too, on a line of its own under the grids, only for a set with a rated card
DEFENCE_LABEL = "Defence N"
DEFENCE_RULE = (" (R13, some striker cards): on a W off the bowler's card roll a d20: 1-N not out "
                "(a \u2022, played as any dot), above N out.")


def defence_line(p: PdfPainter, x: float, baseline: float, width: float, pt: float) -> None:
    """The R13 line: "Defence N" in bold, then the rule, one size for both, fitted to the width."""
    natural = text_width_mm(DEFENCE_LABEL, "bold", 1.0) + text_width_mm(DEFENCE_RULE, "regular", 1.0)
    size = max(6.0, min(pt, width / natural))
    p.text(x, baseline, DEFENCE_LABEL, "bold", size, "#202020")
    p.text(x + text_width_mm(DEFENCE_LABEL, "bold", size), baseline, DEFENCE_RULE, "regular", size, "#202020")


def band_table(p: PdfPainter, card_set: dict[str, Any], right: float, top: float, pt: float,
               spec: dict[str, Any]) -> None:
    """The wickets-in-hand rule's table (docs/rules.md R12), right-aligned in the title block:
    per wickets down, attack while balls left <= a, consolidate while balls left >= c; and
    the d20 of each band. Drawn only for a set calibrated for the rule."""
    from cardgen.wickets_in_hand import rule_of_set
    rule = rule_of_set(card_set)
    if rule is None:
        return
    _, bpi = innings_shape(card_set)
    rows = rule.thresholds(bpi)
    size = min(pt, 6.5)
    x = right - BAND_LABEL_MM - BAND_COL_MM * len(rows)
    step = spec["band_row_mm"]
    p.text(x, top, "Wickets in hand (balls left before the ball)", "bold", size)
    lines = (("wkts down", [str(d) for d, _, _ in rows]),
             ("attack if ≤", [str(a) for _, a, _ in rows]),
             ("consolidate if ≥", [str(c) for _, _, c in rows]))
    for r, (label, cells) in enumerate(lines):
        yy = top + 1.0 + (r + 1) * step
        p.text(x, yy, label, "bold" if r == 0 else "regular", size)
        for c, cell in enumerate(cells):
            p.text(x + BAND_LABEL_MM + (c + 0.5) * BAND_COL_MM, yy, cell,
                   "bold" if r == 0 else "regular", size, align="centre")
        p.line(x, yy + 0.9, right, yy + 0.9, width=0.1)
    # every face of each d20 said (what 11-20 and 13-20 do too): a line each, as the quick reference
    attack = f"Attack, on a •: d20 {rule.attack_words(ATTACK_MARKS)}."
    consolidate = (f"Consolidate, on a {CONSOLIDATE_SAVES.get(rule.consolidate_saves, 'catch')}: d20 "
                   f"1-{rule.consolidate_safe} • (not out), {face_range(rule.consolidate_safe + 1, 20)} out.")
    said = [attack, consolidate] + ([rule.chase_words()] if rule.chase_words() else [])
    # 6 pt on a band_face_step_mm step: three lines clear of each other and of the grid below
    line_pt = min(fit_text(line, "regular", right - x, min(size, 6.0), 5.0).size_pt for line in said)
    for k, line in enumerate(said):   # one size for all the lines
        fitted = fit_text(line, "regular", right - x, line_pt, 5.0)
        p.text(x, top + 1.0 + 4 * step + 0.4 + k * spec["band_face_step_mm"], fitted.lines[0], "regular",
               fitted.size_pt)


def render_scoresheet_pdf(card_set: dict[str, Any], paper: str, credit: str, defence: bool | None = None) -> bytes:
    """Both innings' pages. `defence`: whether to print R13's line (a one-team kit's season may
    rate the other sides' strikers); None: whether this set has a rated card."""
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
    heading = (f"Quicket Cricket scoresheet \u2014 {card_set['competition'].get('name', '')} "
               f"{card_set['season']} ({fmt})")
    rows = 1 + BATTING_ROWS
    if defence is None:
        defence = has_defence(card_set)  # R13's line over the notes takes its room from the rows
    step = spec["line_step_mm"]
    # under the grids, up from the credit line: two lines of notes (and the R13 line)
    bottom_lines = 2 + (1 if defence else 0)
    bottom_block = bottom_lines * step + spec["bottom_clear_mm"]
    top_block, gap = spec["title_block_mm"], spec["grid_gap_mm"]
    free = H - 2 * m - top_block - bottom_block - (GRIDS_PER_INNINGS - 1) * gap
    row_h = min(spec["row_max_mm"], free / (GRIDS_PER_INNINGS * rows))
    title_y, match_y, innings_y, team_y, extras_y = (m + b for b in spec["header_baselines_mm"])
    for innings in (1, 2):
        p = PdfPainter(canvas, 0, H * 72 / 25.4)
        fitted = fit_text(heading, "bold", W - 2 * m, spec["title_pt"], head_pt)
        p.text(m, title_y, fitted.lines[0], "bold", fitted.size_pt)
        p.text(m, match_y, "Match ______________________________   Date ______________   "
               "Result ________________________", "regular", pt)
        side = "First batting side" if innings == 1 else "First bowling side (bats second)"
        p.text(m, innings_y, f"Innings {innings}: {side}", "bold", head_pt)
        p.text(m, team_y, "Team ____________________________   Wicketkeeper (\u2020) ____________________",
               "regular", pt)
        # the chase counts from the target, the first innings' total + 1 (the engines' target and
        # the wickets-in-hand chase line); a blank "Target" was filled with the total by hand
        p.text(m, extras_y, "Extras ________   Total ________ / ________   Balls ________"
               + ("   Target (1st total + 1) ______" if innings == 2 else ""), "regular", pt)
        band_table(p, card_set, W - m, m + spec["band_title_mm"], pt, spec)
        y = m + top_block
        x0 = m + name_w
        for grid in range(GRIDS_PER_INNINGS):
            top = y
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
        notes = [("Batters in order down the left (keeper \u2020). W = wicket (outline the box), \u2022 = dot; wide (wd) or "
                  "no-ball (nb): in the next ball's box."),
                 (f"Write the bowler and their {unit[:-1]} count above each {unit[:-1]}; the printed number "
                  f"at its end: balls {'bowled' if innings == 1 else 'remaining'} after it.")]
        notes_pt = min(fit_text(line, "regular", W - 2 * m, pt, 6.0).size_pt for line in notes)
        for k, line in enumerate(notes):  # one size for both lines
            p.text(m, H - m - (len(notes) - k) * step, line, "regular", notes_pt, "#202020")
        if defence:
            # at the notes' size: one block with them
            defence_line(p, m, H - m - bottom_lines * step, W - 2 * m, notes_pt)
        foot = fit_text(f"{title} \u00b7 page {innings} of 2 \u00b7 {credit}", "regular", W - 2 * m, 6.5, 5.0)
        p.text(W / 2, H - m, foot.lines[0], "regular", foot.size_pt, "#404040", "centre")
        canvas.showPage()
    canvas.save()
    return buf.getvalue()
