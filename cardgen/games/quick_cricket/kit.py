"""Quick Cricket's printable kit: the 18 cards, the partnership scoresheet and a rules sheet.

Card texts are this project's own wording; the numbers come from `rules.py`, which the engine
plays, so a printed card and the simulator never disagree.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from cardgen.games.printing import card_sheets_pdf, page_pdf, rules_pdf, text_block
from cardgen.games.quick_cricket import rules as R
from cardgen.render.fonts import fit_text
from cardgen.render.layout import load_layout, mix
from cardgen.render.painter import Painter

CODE = "quick-cricket"
NAME = "Quick Cricket"
CREDIT = "Quick Cricket rules \u00a9 S.P. Stenton; cards drawn by cardgen"
MIN_PT = 6.0  # what a card's game text may shrink to: smaller, a home print is hard to read

CardFace = Callable[[Painter], None]


def _draw_face(p: Painter, face: CardFace) -> None:
    face(p)


def _layout() -> dict[str, Any]:
    return load_layout(f"games/{CODE}/layout")


# --- card pieces --------------------------------------------------------------------------------

def _frame(p: Painter, colour: str, kind: str, title: str) -> dict[str, Any]:
    L = _layout()
    c = L["card"]
    w, h = c["width_mm"], c["height_mm"]
    p.rect(0, 0, w, h, fill="#ffffff", stroke=c["outline"], width=c["outline_mm"])
    p.rect(0, 0, w, c["header_mm"], fill=colour)
    p.text(c["margin_mm"], 4.4, kind.upper(), "bold", c["kind_pt"], "#ffffff")
    p.text(c["margin_mm"], 10.0, title, "bold", c["title_pt"], "#ffffff")
    p.text(w / 2, h - c["footer_from_bottom_mm"], f"{NAME} \u00b7 18-card game \u00b7 cardgen", "italic", c["footer_pt"],
           "#666666", align="centre")
    return L


def _quadrants(p: Painter, x: float, y: float, size: float, labels: dict[int, str],
               fills: dict[int, str] | None = None, value_pt: float = 20.0, letter_pt: float = 7.0,
               grid: str = "#555555") -> None:
    """The four quadrants as on the table: B C on the short row, A D on the full row."""
    half = size / 2
    at = {R.B: (x, y), R.C: (x + half, y), R.A: (x, y + half), R.D: (x + half, y + half)}
    for q, (qx, qy) in at.items():
        p.rect(qx, qy, half, half, fill=(fills or {}).get(q), stroke=grid, width=0.3)
        p.text(qx + 1.2, qy + 3.2, R.QUADRANTS[q], "bold", letter_pt, grid)
        if q in labels:
            # inside its quadrant with a little air each side ("P+Path" ran 0.03 mm past an 11 mm one)
            fitted = fit_text(labels[q], "bold", half - 1.5, value_pt, min(value_pt, MIN_PT))
            p.text(qx + half / 2, qy + half / 2 + value_pt * 0.35 / 2.83, fitted.lines[0], "bold",
                   fitted.size_pt, align="centre")


def _outcome_table(p: Painter, style: str, top: float, colour: str) -> None:
    L = _layout()
    c, t = L["card"], L["outcome_table"]
    x0 = c["margin_mm"]
    width = c["width_mm"] - 2 * x0
    col_w = (width - t["label_w_mm"]) / 3
    row = t["row_mm"]
    p.text(x0, top - 1.2, "rows: Stroke quadrant \u00b7 columns: Move quadrant", "italic", t["head_pt"], "#444444")
    y = top
    p.rect(x0, y, width, row, fill=mix(colour, 0.8))
    for j, name in enumerate(R.CLASS_NAMES):
        p.text(x0 + t["label_w_mm"] + (j + 0.5) * col_w, y + row * 0.65, name, "bold", t["head_pt"],
               align="centre")
    for i, name in enumerate(R.CLASS_NAMES):
        y += row
        p.rect(x0, y, t["label_w_mm"], row, fill=mix(colour, 0.8))
        p.text(x0 + 1.0, y + row * 0.65, name, "bold", t["head_pt"])
        for j in range(3):
            code = R.OUTCOME[style][i][j]
            out = code in (R.BOWLED, R.LBW_OUT)
            label = R.OUTCOME_LABELS[code]
            cx = x0 + t["label_w_mm"] + j * col_w
            p.rect(cx, y, col_w, row, stroke="#777777", width=0.15,
                   fill="#fbe3e1" if out else None)
            weight = "bold" if out else "regular"
            fitted = fit_text(label, weight, col_w - 0.8, t["cell_pt"], MIN_PT)  # "Out bowled" fits its cell
            p.text(cx + col_w / 2, y + row * 0.65, fitted.lines[0], weight, fitted.size_pt, align="centre")
    p.rect(x0, top, width, 4 * row, stroke="#333333", width=0.3)


def pitch_card(style: str) -> CardFace:
    def draw(p: Painter) -> None:
        colour = _layout()["colours"][style]
        L = _frame(p, colour, f"Bowler \u00b7 {style}", f"{style.title()} pitch")
        c = L["card"]
        m, w = c["margin_mm"], c["width_mm"] - 2 * c["margin_mm"]
        p.rect(m, 14.5, 11, 11, fill=mix(colour, 0.75), stroke=colour, width=0.4)
        p.text(m + 5.5, 21.8, "P", "bold", 14, colour, align="centre")
        notes = {"pace": "Lay it face up in the quadrant where the ball pitches. Pitch and Path "
                         "in the same quadrant: a yorker (A or D) or a bouncer (B or C); that "
                         "quadrant counts as Pitch.",
                 "spin": "Lay it face up in the quadrant where the ball pitches. Pitch and Path "
                         "in the same quadrant: a yorker, and that quadrant counts as Pitch. Spin "
                         "never bowls bouncers."}
        text_block(p, m + 13, 17.0, notes[style], "regular", c["body_pt"] - 0.6, w - 13)
        _outcome_table(p, style, L["outcome_table"]["top_mm"], colour)
        text_block(p, m, 71.5, "Runs: the Runs chart value of the Stroke quadrant + the Path "
                   "risk. 4: four + risk, or 0 into the fielder. ? = ask the umpire.", "regular",
                   c["body_pt"] - 0.6, w)
    return draw


def _mini_path(p: Painter, x: float, y: float, size: float, move: str, green: bool,
               colours: dict[str, str]) -> None:
    """One orientation drawn from a ball pitched in A (turn the card for the other)."""
    target = R.moved(R.A, move)
    fills = {R.A: colours["pitch_fill"]}
    fills[target] = colours["green"] if green else colours["path_fill"]
    labels = {R.A: "P"} if target != R.A else {R.A: "P+Path"}
    if target != R.A:
        labels[target] = "NB" if green else "Path"
    s = _layout()["path"]
    _quadrants(p, x, y, size, labels, fills, value_pt=s["mini_value_pt"], letter_pt=s["mini_letter_pt"],
               grid=colours["grid"])


def path_card(index: int) -> CardFace:
    card = R.PATH_CARDS[index]

    def draw(p: Painter) -> None:
        colours = _layout()["colours"]
        L = _frame(p, colours["path"], "Bowler \u00b7 path", card.name)
        c, s = L["card"], L["path"]
        m, w = c["margin_mm"], c["width_mm"] - 2 * c["margin_mm"]
        p.text(m, 26.0, f"+{card.risk}", "bold", s["risk_pt"], colours["path"])
        text_block(p, m + 20, 17.5, f"Risk {card.risk}: runs added when the batter scores off this "
                   "ball. Play each Path card once per four-over spell.", "regular",
                   c["body_pt"] - 0.4, w - 20)
        size = s["mini_size_mm"]
        for o in range(2):
            x = m + o * (w - size)
            _mini_path(p, x, s["mini_top_mm"], size, card.orientations[o], card.green[o], colours)
            p.text(x + size / 2, s["mini_top_mm"] - 1.2, "upright" if o == 0 else "turned 180\u00b0",
                   "italic", s["orientation_pt"], align="centre")
        what = {R.SAME: "stays in the pitch quadrant", R.ALONG: "changes length",
                R.ACROSS: "changes line", R.DIAGONAL: "changes line and length"}
        lines = [f"{'Upright' if o == 0 else 'Turned'}: the ball {what[card.orientations[o]]}"
                 + (" \u2014 the NB (green) quadrant: NO BALL (5 runs, over again)" if card.green[o] else "")
                 for o in range(2)]
        y = s["mini_top_mm"] + size + 4.5
        for line in lines:
            y = text_block(p, m, y, line, "regular", c["body_pt"] - 0.4, w)
    return draw


def batter_card(kind: str) -> CardFace:
    texts = {"Move": "Lay face down in the quadrant you step into. A Move to the Path quadrant "
                     "gets you to the ball.",
             "Stroke": "Lay face down in the quadrant you hit through. Two Strokes and no Move: "
                       "a Big Hit (Runs chart at the Pitch quadrant + risk + 6; out to a yorker; "
                       "the umpire decides a catch)."}

    def draw(p: Painter) -> None:
        colour = _layout()["colours"]["batter"]
        L = _frame(p, colour, "Batter", kind)
        c = L["card"]
        m, w = c["margin_mm"], c["width_mm"] - 2 * c["margin_mm"]
        p.rect(m, 16, w, 30, fill=mix(colour, 0.85))
        p.text(c["width_mm"] / 2, 35.5, kind.upper(), "bold", 26, colour, align="centre")
        text_block(p, m, 53, texts[kind], "regular", c["body_pt"] + 0.6, w)
    return draw


def runs_card(index: int) -> CardFace:
    chart = R.RUNS_CHARTS[index]

    def draw(p: Painter) -> None:
        colour = _layout()["colours"]["runs"]
        L = _frame(p, colour, "Runs chart", f"Wickets {chart.label}")
        c, q = L["card"], L["quadrants"]
        x = (c["width_mm"] - q["size_mm"]) / 2
        _quadrants(p, x, q["top_mm"], q["size_mm"], {k: str(v) for k, v in enumerate(chart.runs)},
                   value_pt=q["value_pt"], letter_pt=q["letter_pt"])
        m, w = c["margin_mm"], c["width_mm"] - 2 * c["margin_mm"]
        text_block(p, m, q["top_mm"] + q["size_mm"] + 6, "Runs for the quadrant the Stroke goes "
                   "through, plus the Path risk. The fielder's quadrant gives 4 fewer. Turn to the "
                   "next chart as wickets fall.", "regular", c["body_pt"], w)
    return draw


def umpire_card(decision: str) -> CardFace:
    def draw(p: Painter) -> None:
        colour = _layout()["colours"]["umpire"]
        L = _frame(p, colour, "Umpire", "Umpire's decision")
        c = L["card"]
        m, w = c["margin_mm"], c["width_mm"] - 2 * c["margin_mm"]
        out = decision == "OUT"
        p.rect(m, 16, w, 28, fill="#fbe3e1" if out else "#e4f2e4")
        p.text(c["width_mm"] / 2, 34.5, decision, "bold", 24 if out else 19, colour, align="centre")
        text_block(p, m, 51, "Three umpire cards, one OUT, lie face down. An appeal turns one (two "
                   "for an edge with the fielder beside A or D). Turned NOT OUTs stay up until a "
                   "wicket or an OUT reshuffles all three. Reviews: three a side.", "regular",
                   c["body_pt"], w)
    return draw


def fielder_card() -> CardFace:
    def draw(p: Painter) -> None:
        colour = _layout()["colours"]["fielder"]
        L = _frame(p, colour, "Bowler", "Fielder")
        c = L["card"]
        m, w = c["margin_mm"], c["width_mm"] - 2 * c["margin_mm"]
        p.rect(m, 16, w, 22, fill=mix(colour, 0.85))
        p.text(c["width_mm"] / 2, 31, "\u22124", "bold", 26, colour, align="centre")
        text_block(p, m, 45, "Put beside one quadrant at the start of each spell. A stroke into "
                   "it scores 4 fewer runs and a 4 becomes a dot. Beside A or D an edge appeal "
                   "turns two umpire cards. A Big Hit clears it.", "regular", c["body_pt"] + 0.3, w)
    return draw


def all_cards() -> list[tuple[str, CardFace]]:
    """The 18 cards in printed order, with a short name each."""
    cards: list[tuple[str, CardFace]] = [("pitch-pace", pitch_card("pace")),
                                         ("pitch-spin", pitch_card("spin"))]
    cards += [(f"path-{i + 1}", path_card(i)) for i in range(len(R.PATH_CARDS))]
    cards += [("move-1", batter_card("Move")), ("move-2", batter_card("Move")),
              ("stroke-1", batter_card("Stroke")), ("stroke-2", batter_card("Stroke"))]
    cards += [(f"runs-{i + 1}", runs_card(i)) for i in range(len(R.RUNS_CHARTS))]
    cards += [(f"umpire-{i + 1}", umpire_card(d)) for i, d in enumerate(R.UMPIRE_CARDS)]
    cards.append(("fielder", fielder_card()))
    return cards


# --- sheets ---------------------------------------------------------------------------------------

def cards_pdf(paper: str, ink_saver: bool = False) -> bytes:
    L = _layout()
    return card_sheets_pdf([face for _, face in all_cards()], _draw_face, L["card"]["width_mm"],
                           L["card"]["height_mm"], paper, f"{NAME} cards", CREDIT, ink_saver=ink_saver,
                           grid=(L["sheet"]["columns"], L["sheet"]["rows"]))


def _draw_scoresheet(p: Painter, W: float, H: float, overs: int) -> None:
    s = _layout()["scoresheet"]
    m = s["margin_mm"]
    p.text(m, m + 4, f"{NAME} scoresheet", "bold",
           s["title_pt"])
    p.text(W - m, m + 4, "Match ________________  Date ________", "regular", s["text_pt"], align="right")
    block_h = (H - 2 * m - 10) / 2
    row = s["row_mm"]
    # a box for every over of the innings: one partnership can last it all (12 boxes ran out in a
    # fifth of the engine's 20-over innings)
    boxes = overs
    box_w = (W - 2 * m - s["name_w_mm"] - s["total_w_mm"]) / boxes
    for k in range(2):
        y = m + 10 + k * block_h
        p.text(m, y + 3, f"Innings {k + 1}:  innings of ________________________   "
               f"v ________________________   overs: {overs}", "bold", s["head_pt"])
        y += 5
        p.rect(m, y, W - 2 * m, row, fill="#e8e8e8")
        p.text(m + 1, y + row * 0.68, "Partnership", "bold", s["text_pt"])
        p.text(m + s["name_w_mm"] + 1, y + row * 0.68, "Runs each over (a dot for none, W for the "
               "wicket, 5nb for a no-ball)", "bold", s["text_pt"])
        p.text(W - m - s["total_w_mm"] / 2, y + row * 0.68, "Total", "bold", s["text_pt"], align="centre")
        for wicket in range(1, 11):
            y += row
            suffix = {1: "st", 2: "nd", 3: "rd"}.get(wicket, "th")
            p.rect(m, y, W - 2 * m, row, stroke="#555555", width=0.2)
            p.text(m + 1, y + row * 0.68, f"{wicket}{suffix} wicket", "regular", s["text_pt"])
            for b in range(boxes + 1):
                x = m + s["name_w_mm"] + b * box_w
                p.line(x, y, x, y + row, "#999999", 0.15)
        y += row + 2
        p.text(m, y + 4, "Fall of wickets", "bold", s["text_pt"])
        cell = (W - 2 * m - s["name_w_mm"]) / 10
        for wicket in range(10):
            x = m + s["name_w_mm"] + wicket * cell
            p.rect(x, y, cell, row, stroke="#555555", width=0.2)
            p.text(x + 1, y + row * 0.68, f"{wicket + 1}/", "regular", s["text_pt"])
        y += row + 3
        p.text(m, y + 4, "Overs", "bold", s["text_pt"])
        cell = (W - 2 * m - s["name_w_mm"]) / overs
        for o in range(overs):
            x = m + s["name_w_mm"] + o * cell
            style = "P" if (o // R.SPELL_OVERS) % 2 == 0 else "S"
            p.rect(x, y, cell, row, stroke="#555555", width=0.2,
                   fill="#fbe3e1" if style == "P" else "#e1ebf7")
            p.text(x + cell / 2, y + row * 0.68, f"{o + 1}{style}", "regular", s["text_pt"] - 1.5,
                   align="centre")
        y += row + 3
        p.text(m, y + 4, "Reviews left", "bold", s["text_pt"])
        for side, x0 in (("batting", m + s["name_w_mm"]), ("bowling", m + s["name_w_mm"] + 60)):
            p.text(x0, y + 4, side, "regular", s["text_pt"])
            for r in range(R.REVIEWS_PER_INNINGS):
                p.rect(x0 + 14 + r * 7, y + 0.5, 5, 5, stroke="#333333", width=0.25)
        p.text(W - m, y + 4, "Total ______ for ______", "bold", s["head_pt"], align="right")
    p.text(W / 2, H - 11, "A no-ball is bowled again: write 5nb and the over's runs in the same box "
           "(5nb 8). Pace (P) and spin (S) bowl alternate four-over spells.", "italic", 6.5, "#333333",
           align="centre")
    p.text(W / 2, H - 7, CREDIT,
           "italic", 6, "#555555", align="centre")


def scoresheet_pdf(paper: str, overs: int = 20) -> bytes:
    return page_pdf(paper, f"{NAME} scoresheet", CREDIT, partial(_draw_scoresheet, overs=overs))


RULES: list[tuple[str, list[str]]] = [
    ("What you need", [
        ("The 18 cards: Pace and Spin Pitch cards (each with its own outcome table), four Path "
        "cards, two Move and two Stroke cards, four Runs charts (0, 1-2, 3-4 and 5-9 wickets "
        "down), three Umpire cards (one OUT) and the Fielder. Lay the four quadrants out as "
        "B C above A D (B and C short of a length, A and D full)."),
        "Toss a coin: the winner chooses to bat or bowl first."]),
    ("An over", [
        ("One turn is one over. The bowler lays a Pitch card face up in a quadrant. The batter "
        "lays a Move and a Stroke card face down, each in the quadrant chosen. The bowler lays a "
        "Path card in one of its two orientations; the quadrant it points to is the Path. The "
        "batter turns both cards up and the Pitch card's table gives the result: the row is what "
        "the Stroke quadrant holds (Pitch, Path or nothing), the column what the Move quadrant holds."),
        ("Runs: the Runs chart for the wickets down, at the Stroke quadrant, plus the Path card's "
        "risk number. 4: four runs plus the risk. A stroke into the fielder's quadrant scores 4 "
        "fewer and a 4 there is a dot. A wicket scores nothing; write the over's runs (or W) in "
        "the current partnership's row.")]),
    ("Spells", [
        ("Bowlers bowl four-over spells, pace first, then spin, and so on. Each Path card is "
        "played once per spell; at a new spell the bowler takes all four back and may move the "
        "fielder beside any quadrant.")]),
    ("Special balls", [
        ("Yorker: Pitch and Path in the same quadrant (pace: A or D). It is out bowled if the batter "
         "tried a Big Hit. In the outcome table the shared quadrant counts as Pitch, never as Path; "
         "so does a bouncer's."),
        ("Bouncer (pace only): Pitch and Path together in B or C. A batter who moved to B or C "
        "fends it off: the umpire decides a catch, otherwise 2 runs plus the risk. One who moved "
        "to A or D ducks (a dot) or hooks it as a Big Hit."),
        ("Big Hit: play both Stroke cards and no Move. Out to a yorker; otherwise the umpire "
        "decides a catch in the deep, and if not out the runs are the chart value of the Pitch "
        "quadrant plus the risk plus 6 (a six; the fielder cannot stop it)."),
        ("No ball: a Path laid in a green quadrant gives 5 runs; every card goes back and the "
        "over is bowled again.")]),
    ("Umpires and reviews", [
        ("Appeals (an edge, a pad) are decided by turning one face-down umpire card, two for an "
        "edge when the fielder is beside A or D. A NOT OUT stays face up, so the next appeal "
        "has fewer cards to choose from; an OUT, or any wicket, shuffles all three face down again."),
        ("Each side has three reviews an innings. A review shuffles the cards that were face "
        "down for the appeal and turns one; a review that does not change the decision is lost.")]),
    ("End of the innings", [
        "After the agreed overs (20 for a T20 game) or the tenth wicket. The side with more runs wins."]),
    # issue 34: what the kit decided where the published rules are silent, marked as such on
    # the sheet a player holds (docs/games.md, "Rule readings", has every one)
    ("Where the published rules are silent: this kit's readings", [
        ("Runs charts: the rules print 0 down (B12 C10 A8 D5) and 3-4 down (B7 C5 A8 D10); the "
         "1-2 down (B10 C8 A9 D6) and 5-9 down (B5 C4 A6 D7) charts are this kit's. Path cards: "
         "each once per four-over spell (the rules' \"once per over\" cannot hold when an over "
         "uses one card). Umpire cards: one OUT, two NOT OUT. A NOT OUT to an edge or LBW appeal "
         "scores nothing that over; to a bouncer's or Big Hit's catch the over scores its runs.")]),
]


def rules_sheet_pdf(paper: str) -> bytes:
    return rules_pdf(paper, f"{NAME}: how to play", CREDIT, RULES)
