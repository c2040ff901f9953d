"""Competitive Patience's printable kit: a scoresheet and a rules sheet (the cards are a standard
52-card pack). All wording is this project's own."""
from __future__ import annotations

from typing import Any

from reportlab.platypus import Spacer

from cardgen.games.competitive_patience.engine import VARIANTS
from cardgen.games.printing import page_pdf, rules_pdf
from cardgen.render.layout import MM, load_layout
from cardgen.render.painter import PdfPainter

CODE = "competitive-patience"
NAME = "Cricket Competitive Patience"
CREDIT = "Traditional card game (after Peter Lewin, Kerry Allemann, Derek Hill, Russell Parkinson); sheets by cardgen"


def _layout() -> dict[str, Any]:
    return load_layout(f"games/{CODE}/layout")


def _innings_block(p: PdfPainter, y: float, W: float, number: int) -> float:
    s = _layout()["scoresheet"]
    m, row = s["margin_mm"], s["row_mm"]
    pt = s["text_pt"]
    p.text(m, y + 4, f"Innings {number}:  innings of ______________________  bowled at by "
           "______________________", "bold", s["head_pt"])
    y += 6.5
    width = W - 2 * m
    runs_w = width - s["number_w_mm"] - s["name_w_mm"] - s["how_w_mm"] - s["score_w_mm"]
    cols = [("No.", s["number_w_mm"]), ("Batsman", s["name_w_mm"]),
            ("Runs (tally each batting turn)", runs_w), ("How out", s["how_w_mm"]),
            ("Score", s["score_w_mm"])]
    p.rect(m, y, width, row, fill=s["tint"])
    x = m
    for label, w in cols:
        p.text(x + 1, y + row * 0.7, label, "bold", pt)
        x += w
    for batsman in range(1, 12):
        y += row
        p.rect(m, y, width, row, stroke=s["line"], width=0.2)
        x = m
        for i, (_, w) in enumerate(cols):
            if i:
                p.line(x, y, x, y + row, "#999999", 0.15)
            x += w
        p.text(m + 1.5, y + row * 0.7, str(batsman), "regular", pt)
    y += row + 2.5
    boxes = s["turn_boxes"]
    label_w = 36.0
    cell = (width - label_w) / boxes
    for label in ("Bowling turn: cards", "Wickets that turn", "Batting turn: cards",
                  "Runs that turn (+ bonus)"):
        p.text(m, y + row * 0.7, label, "bold" if "turn:" in label else "regular", pt - 0.5)
        for b in range(boxes):
            p.rect(m + label_w + b * cell, y, cell, row, stroke=s["line"], width=0.15)
            if label.startswith("Bowling"):
                p.text(m + label_w + b * cell + 0.6, y + 2.4, str(b + 1), "regular", s["turn_number_pt"], "#888888")
        y += row
    y += 2
    # eleven wickets if the players agree (the rules card); a blank of 6.6 mm takes a 3-figure score
    falls = " ".join(f"{w}-_____" for w in range(1, 12))
    p.text(m, y + 4, f"Extras (wides ____  byes ____)      Fall of wickets: {falls}", "regular", pt)
    p.text(W - m, y + 10, "Total ________ for ______", "bold", s["head_pt"], align="right")
    return y + 14


def _draw_scoresheet(p: PdfPainter, W: float, H: float) -> None:
    s = _layout()["scoresheet"]
    m = s["margin_mm"]
    p.text(m, m + 4, f"{NAME} scoresheet", "bold", s["title_pt"])
    variants = "   ".join(f"[  ] {v.label}" for v in VARIANTS.values())
    p.text(m, m + 10, f"Rules: {variants}", "regular", s["text_pt"] - 0.5)
    p.text(m, m + 15, "Cards per wicket: British and Derek Hill 21, New Zealand 20, South African 11."
           "   Match ______________   Date __________", "regular", s["text_pt"] - 0.5)
    y = m + 19
    for number in (1, 2):
        y = _innings_block(p, y, W, number)
    p.text(W / 2, H - 7, CREDIT, "italic", s["small_pt"], "#555555", align="centre")


def scoresheet_pdf(paper: str) -> bytes:
    return page_pdf(paper, f"{NAME} scoresheet", CREDIT, _draw_scoresheet)


RULES: list[tuple[str, list[str]]] = [
    ("The game", [
        ("Two players, one ordinary pack of 52 cards (no jokers). Aces count 1, pictures 10. Shuffle "
        "and cut: the higher cut chooses to bat or bowl. One player bowls and the other bats; they take turns until the batting side is all out (ten "
        "wickets, or eleven if you agree beforehand), then swap. Play one innings each, or two "
        "each as a Test match (follow-on, declarations and a time limit for a draw as in cricket).")]),
    ("A turn", [
        ("Deal cards face up into a 3 x 3 grid, row by row from the top left. Whenever two cards "
        "showing add up to 11, three cards of one rank lie in a straight line (across, down or "
        "corner to corner), or a jack, queen and king are all showing, you may cover that pair or "
        "set with fresh cards from the pack, one on each, finishing one covering before starting "
        "another. The turn ends when all nine places are filled and nothing can be covered. If the "
        "pack runs out, gather all 52, shuffle, cut and carry on with an empty grid. Count the "
        "cards you play. The grid fills in this order:")]),
    ("British rules", [
        ("The bowler goes first. Bowling: every 21st card of a turn takes a wicket. A jack, queen "
        "and king showing gives a wide (1 run); three of a kind in a line gives 4 byes."),
        ("Batting: 1 run for every card played. A jack, queen and king showing adds 1 run (3 runs "
        "if all one suit), so 4 (or 6) for the three cards. Three of a kind in a line runs the "
        "batsman out when the bowler claims it; the next batsman goes on with the same turn.")]),
    ("Derek Hill's version", [
        ("The batter goes first. Three of a kind or a run of three in any order (such as 4-5-6, "
        "6-4-5 or Q-K-A; suits do not matter) in a line is a wicket whoever is dealing. A jack, queen and king may be covered but score "
        "nothing. The batter covers whenever allowed; the bowler deals on and hopes for a line.")]),
    ("South African", [
        ("A pair making 11 must be covered before any other card is dealt: a batter who forgets "
        "is out and scores nothing that turn; a bowler who forgets takes no wicket. A wicket for "
        "every 11 cards. Only a king, queen and jack in a straight line counts: it must be covered, "
        "and it is worth 50 extra runs to the batter (a half century, besides a run a card) or 5 wickets to the bowler. Triples and runs do "
        "nothing. Decide what to cover before looking at the next card.")]),
    ("New Zealand", [
        ("Cover the lower card of a pair first (the 3 before the 8). No wides or byes: a jack, queen "
        "and king are simply covered. A wicket for every 20 cards. Covering three of a kind in a "
        "line is worth 60 extra runs to the batter (besides a run a card) or a hat trick (3 wickets) to the bowler. For a "
        "one-day game give each side ten batting turns.")]),
]


def grid_diagram() -> Any:
    """The 3 x 3 grid numbered in dealing order, row by row from the top left (the published
    rules show this diagram; the engine's LINES number the cells the same way)."""
    from reportlab.lib import colors
    from reportlab.platypus import Table, TableStyle

    from cardgen.render.fonts import PDF_NAMES
    g = _layout()["grid_diagram"]
    cell = g["cell_mm"] * MM
    table = Table([[str(3 * r + c + 1) for c in range(3)] for r in range(3)], colWidths=[cell] * 3,
                  rowHeights=[cell] * 3, hAlign="LEFT")
    table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.6, colors.HexColor("#333333")),
                               ("FONT", (0, 0), (-1, -1), PDF_NAMES["bold"], g["pt"]),
                               ("ALIGN", (0, 0), (-1, -1), "CENTER"),
                               ("VALIGN", (0, 0), (-1, -1), "MIDDLE")]))
    return table


def rules_sheet_pdf(paper: str) -> bytes:
    return rules_pdf(paper, f"{NAME}: rules card", CREDIT, RULES, size_pt=9.0,
                     figures={"A turn": [Spacer(1, 1.5 * MM), grid_diagram()]})
