"""The fielding chart (d6 x d20) on one landscape page, with a legend and the run-out rows."""
from __future__ import annotations


from cardgen.cardset import CardSet
from cardgen.errors import CardSetError
from cardgen.render.common import new_canvas, season_name, set_title
from cardgen.render.fonts import fit_text, text_width_mm
from cardgen.render.layout import load_layout
from cardgen.render.painter import PdfPainter

OUTS = {"bowled", "lbw", "run_out", "caught", "stumped"}
CHANCES = {"catch_chance", "run_out_chance", "stumping_chance"}


def render_fielding_pdf(card_set: CardSet, paper: str, credit: str, ink_saver: bool = False) -> bytes:
    spec = load_layout("sheets")["fielding"]
    words = load_layout("fielding")
    cells = card_set.game_cells()
    if len(cells) != 6 or any(len(row) != 20 for row in cells):
        raise CardSetError("the fielding chart must be 6 rows (d6) of 20 cells (d20)")
    title = f"{set_title(card_set)} fielding chart"
    canvas, buf, W, H = new_canvas(paper, title, credit, landscape=True)
    p = PdfPainter(canvas, 0, H * 72 / 25.4)
    m = spec["margin_mm"]
    # a user's long competition name ran off the paper ("... Twenty20 Championship Trophy Series
    # Presented by Sponsors 2021"): the heading is set smaller to fit the width, then cut with
    # an ellipsis, as the scoresheet's is; a name that fits prints as before
    heading = fit_text(f"Fielding chart \u2014 {season_name(card_set)}", "bold", W - 2 * m, spec["title_pt"],
                       spec["title_min_pt"])
    p.text(m, m + 2, heading.lines[0], "bold", heading.size_pt)
    p.text(m, m + 8, "On an F result roll one d6 (row) and one d20 (column). "
           "Outs in bold, chances in italics; for a chance roll the d20 again, against C(x), RO(y) or "
           "the keeper's rating.",
           "regular", 8.5)
    d6w = spec["d6_column_mm"]
    grid_top = m + 13
    cell_w = (W - 2 * m - d6w) / 20
    row_h = spec["row_mm"]
    header_h = 6.0
    # header row: d20 values
    p.text(m + d6w / 2, grid_top + 4.3, "d6", "bold", spec["header_pt"], align="centre")
    for c in range(20):
        x = m + d6w + c * cell_w
        if not ink_saver:
            p.rect(x, grid_top, cell_w, header_h, fill="#e6e6e6")
        p.text(x + cell_w / 2, grid_top + 4.3, str(c + 1), "bold", spec["header_pt"], align="centre")
    for r in range(6):
        y = grid_top + header_h + r * row_h
        if not ink_saver:
            p.rect(m, y, d6w, row_h, fill="#e6e6e6")
        p.text(m + d6w / 2, y + row_h / 2 + 1.6, str(r + 1), "bold", 12, align="centre")
        for c in range(20):
            x = m + d6w + c * cell_w
            result = cells[r][c]
            if result in OUTS and not ink_saver:
                p.rect(x, y, cell_w, row_h, fill="#d4d4d4")
            style = "bold" if result in OUTS else "italic" if result in CHANCES else "regular"
            label = words["results"].get(result, {"short": result})["short"]
            fitted = fit_text(label, style, cell_w - spec["cell_pad_mm"], spec["cell_pt"], spec["cell_min_pt"],
                              max_lines=2, wrap_below_pt=spec["cell_pt"])
            step = fitted.size_pt * 1.1 / 72 * 25.4
            base = y + row_h / 2 + fitted.size_pt * 0.36 / 72 * 25.4 - step * (len(fitted.lines) - 1) / 2
            for i, line in enumerate(fitted.lines):
                p.text(x + cell_w / 2, base + i * step, line, style, fitted.size_pt, align="centre")
    grid_bottom = grid_top + header_h + 6 * row_h
    for r in range(8):
        y = grid_top if r == 0 else grid_top + header_h + (r - 1) * row_h
        p.line(m, y, W - m, y, width=0.5 if r in (0, 1, 7) else 0.2)
    for c in range(22):
        x = m if c == 0 else m + d6w + (c - 1) * cell_w
        p.line(x, grid_top, x, grid_bottom, width=0.5 if c in (0, 1, 21) or (c - 1) % 5 == 0 else 0.2)

    # legend: every result on the chart, then the run-out rows
    used = {res for row in cells for res in row}
    legend_top = grid_bottom + 8
    p.text(m, legend_top, "Legend", "bold", 10)
    # the chart's words say "over"; The Hundred's sheets say "set" throughout
    unit = "set" if card_set.hundred else "over"
    entries = [(words["results"][k]["short"], words["results"][k]["legend"].replace("the over", f"the {unit}"))
               for k in words["results"] if k in used]
    entries += [(k, f"(unknown result {k})") for k in sorted(used - set(words["results"]))]
    col_w = (W - 2 * m) / 2
    line_h = 4.3
    per_col = -(-len(entries) // 2)
    # the words start past the widest bold name ("4 leg byes"), at least 18 mm in
    indent = max([18.0] + [text_width_mm(short, "bold", spec["legend_pt"]) + 2.5 for short, _ in entries])
    for i, (short, text) in enumerate(entries):
        col, row = divmod(i, per_col)
        x = m + col * col_w
        y = legend_top + 5 + row * line_h
        p.text(x, y, short, "bold", spec["legend_pt"])
        fitted = fit_text(text, "regular", col_w - indent - 4, spec["legend_pt"], 6.0)
        p.text(x + indent, y, fitted.lines[0], "regular", fitted.size_pt)
    rx = m
    legend_top += 5 + per_col * line_h + 6
    p.text(rx, legend_top, "Run-outs: who is out, by d6 row (rules 4.3.3)", "bold", 10)
    for i, (row, text) in enumerate(sorted(words["run_out_rows"].items())):
        p.text(rx, legend_top + 5 + i * line_h, f"d6 = {row}:", "bold", spec["legend_pt"])
        p.text(rx + 14, legend_top + 5 + i * line_h, text, "regular", spec["legend_pt"])
    p.text(rx + col_w, legend_top + 5, "Fielder and wicketkeeper: out only if the d20 is within both", "italic", 8)
    p.text(rx + col_w, legend_top + 5 + line_h, "the fielder's and the wicketkeeper's RO rating; else 1 run to the striker.", "italic", 8)
    # what the rules leave open and the engines decide (docs/rules.md R3, R5, R6): a player at
    # the table met each of these in one match
    p.text(rx + col_w, legend_top + 5 + 2.5 * line_h, "The fielder with the keeper is another player: draw again "
           "if you draw the keeper.", "italic", 8)
    p.text(rx + col_w, legend_top + 5 + 3.5 * line_h, "After a wicket the new batter takes the out batter's end.",
           "italic", 8)
    p.text(rx + col_w, legend_top + 5 + 4.5 * line_h,
           "Free hit: the striker can be out only run out (any other out is a dot).", "italic", 8)
    p.text(W / 2, H - 7, credit, "regular", 6.5, "#404040", "centre")
    canvas.showPage()
    canvas.save()
    return buf.getvalue()
