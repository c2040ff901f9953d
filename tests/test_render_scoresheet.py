"""The scoresheet's scorecard pages (pages 3 and 4), read back from the PDF: a hand-played match
summed up as a scorebook does it (the grid pages are tested in test_render_sheets.py)."""
from __future__ import annotations

import gzip
import io
import json
import math

import pypdf
import pytest
from pypdf.generic import ContentStream

from cardgen.render.fonts import text_width_mm
from cardgen.render.layout import MM, load_layout
from cardgen.render.scoresheet import render_scoresheet_pdf
from conftest import as_model

pytestmark = pytest.mark.needs_data

CREDIT = "Ball-by-ball data from Cricsheet (cricsheet.org), used under ODC-By 1.0."
WIDTH = {"a4": 210.0, "letter": 215.9}
# a name pencilled into a 5-8 mm row is about as wide as the printed name at 10 pt (capitals
# about 2.5 mm tall); the columns are measured against that
HANDWRITING_PT = 10.0
CELL_PAD_MM = 1.0  # room either side of the pencilled text, inside the rules


@pytest.fixture(scope="module")
def card_sets(render_card_sets: dict) -> dict[str, dict]:
    return {"T20": render_card_sets["BBL"], "100-ball": render_card_sets["HUNDRED"]}


def _segments(page: pypdf.PageObject) -> list[tuple[float, float, float, float]]:
    """Every straight line drawn on the page as (x1, y1, x2, y2) in mm, y from the top."""
    height = float(page.mediabox[3]) / MM
    start, found = None, []
    for operands, op in ContentStream(page.get_contents(), page.pdf).operations:
        if op == b"m":
            start = [float(v) for v in operands]
        elif op == b"l" and start is not None:
            x2, y2 = (float(v) for v in operands)
            found.append((start[0] / MM, height - start[1] / MM, x2 / MM, height - y2 / MM))
    return found


def _texts(pdf: bytes, index: int) -> list[tuple[str, float, tuple[float, float, float, float]]]:
    from test_render_layout import pdf_texts
    return [(text.strip(), size, box) for text, size, box in pdf_texts(pdf, index)]


def _tables(pdf: bytes, index: int, paper: str) -> dict[str, list[float]]:
    """The full-width rules (y in mm, top to bottom) of each table of a scorecard page, by the
    title printed over it."""
    page = list(pypdf.PdfReader(io.BytesIO(pdf)).pages)[index]
    rules = sorted({round(y1, 3) for x1, y1, x2, y2 in _segments(page)
                    if math.isclose(y1, y2, abs_tol=1e-3) and abs(x2 - x1) > WIDTH[paper] / 2})
    titles = sorted((box[3], text) for text, _, box in _texts(pdf, index)
                    if text in ("Batting", "Fall of wickets", "Bowling"))
    assert [t for _, t in titles] == ["Batting", "Fall of wickets", "Bowling"], (paper, index)
    ends = [y for y, _ in titles[1:]] + [math.inf]
    return {title: [y for y in rules if top < y < end] for (top, title), end in zip(titles, ends)}


def _verticals(pdf: bytes, index: int, top: float, bottom: float) -> list[float]:
    """The x (mm) of the vertical lines running down a table's heading row (top to bottom)."""
    page = list(pypdf.PdfReader(io.BytesIO(pdf)).pages)[index]
    return sorted({round(x1, 3) for x1, y1, x2, y2 in _segments(page)
                   if math.isclose(x1, x2, abs_tol=1e-3) and min(y1, y2) <= top + 0.01
                   and max(y1, y2) >= bottom - 0.01})


def _column(texts: list, heading: str, edges: list[float], top: float, bottom: float) -> float:
    """The width (mm) of the column whose heading (inside the heading row) reads `heading`."""
    [box] = [box for text, _, box in texts if text == heading and top < box[1] < bottom]
    left = max(x for x in edges if x <= box[0] + 0.01)
    right = min(x for x in edges if x >= box[2] - 0.01)
    return right - left


def _widest_printed_name() -> str:
    """The widest player name (as the cards and team sheets spell it) of every bundled season."""
    from cardgen.calibrate.reuse import FOLDER
    from cardgen.paths import bundled_tables_dir
    names = set()
    for path in sorted((bundled_tables_dir() / FOLDER).glob("*.json.gz")):
        names |= {card["player"]["name"] for card in json.loads(gzip.decompress(path.read_bytes()))["cards"]}
    assert len(names) > 500  # six seasons' players, not an empty folder
    # the widest name of the three bundled seasons that do not ship a set (WPL 2023, PSL 2021,
    # Super Smash women 2022-23), read from their built card-set.json: wider than any shipped one
    names.add("Amanda-Jade Wellington")
    return max(sorted(names), key=lambda name: text_width_mm(name, "regular", HANDWRITING_PT))


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("fmt", ["T20", "100-ball"])
def test_each_innings_has_a_scorecard_page_after_the_grids(card_sets, fmt, paper):
    """A hand-played WPL game had nowhere to write each batter's how out, runs and balls, the
    fall of wickets or the bowling figures. Pages 3 and 4 are the two innings' scorecards, with
    the set's title line, every page of the four says "page N of 4" and the Cricsheet credit, and
    each grid page names its innings' scorecard page."""
    pdf = render_scoresheet_pdf(as_model(card_sets[fmt]), paper, CREDIT)
    pages = list(pypdf.PdfReader(io.BytesIO(pdf)).pages)
    assert len(pages) == 4
    name = card_sets[fmt]["competition"]["name"]
    season = {"T20": "2024-2025", "100-ball": "2024"}[fmt]  # BBL 2024-25, The Hundred 2024: as the cards print it
    for number, page in enumerate(pages, 1):
        text = " ".join(page.extract_text().split())
        assert f"page {number} of 4 · {CREDIT}" in text, (paper, number)
        assert ("Quicket Cricket scorecard" in text) == (number > 2)
        if number <= 2:  # each grid page says where its innings is summed up
            assert f"its scorecard: page {number + 2}" in text
    for innings in (1, 2):
        texts = {text for text, _, _ in _texts(pdf, innings + 1)}
        assert f"Quicket Cricket scorecard \u2014 {name} {season} ({fmt})" in texts
        assert any(t.startswith(f"Innings {innings} scorecard: ") and f"its grids: page {innings}" in t
                   for t in texts)
        assert {"Batting", "Fall of wickets", "Bowling"} <= texts
        assert {"No.", "Batter (keeper \u2020)", "How out", "Bowler", "Runs", "Balls", "4s", "6s",
                "Extras", "Total", "byes", "leg byes", "wides", "no-balls", "Wicket", "Score",
                "Batter out (No.)", "Wkts", "Wides", "No-balls"} <= texts
        if fmt == "T20":
            assert {"Over 1", "Over 4", "Overs", "Maidens", "Over (as 7.3)", "overs"} <= texts
            assert not {"Set 1", "Dots"} & texts
        else:   # the Hundred counts balls and has no maiden: balls and dot balls instead
            assert {"Set 1", "Set 4", "Balls", "Dots", "Ball (1-100)", "balls"} <= texts
            assert not {"Over 1", "Overs", "Maidens"} & texts
            assert any(t.startswith("Set 1-4:") and "(no maidens)" in t for t in texts)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("fmt", ["T20", "100-ball"])
def test_scorecard_rows_are_handwriting_rows_11_batters_and_9_bowlers(card_sets, fmt, paper):
    """Read back from the drawn rules: the batting table is a heading row, 11 numbered batters,
    Extras and Total; fall of wickets a heading row (wickets 1-10) and 3 rows; bowling a heading
    row and 9 bowlers (templates/sheets.json: the most a real innings of the nine bundled seasons
    used is 8). Every writing row is at least 5.0 mm tall (the grid pages' rows are 5.01 / 4.65),
    on A4 and on Letter, and the notes under the tables stay clear of the last one."""
    pdf = render_scoresheet_pdf(as_model(card_sets[fmt]), paper, CREDIT)
    for index in (2, 3):
        tables = _tables(pdf, index, paper)
        rows = {title: [b - a for a, b in zip(ys, ys[1:])] for title, ys in tables.items()}
        assert [len(rows[t]) for t in ("Batting", "Fall of wickets", "Bowling")] == [1 + 11 + 2, 1 + 3, 1 + 9]
        for title, heights in rows.items():
            assert heights[0] >= 5.0 - 1e-6, (title, heights[0])  # the column headings
            assert min(heights[1:]) >= 5.0, (fmt, paper, title, min(heights[1:]))
            # the rows share the page up to 8 mm: the README quotes 8.0 on A4 and 7.7 on Letter
            assert round(min(heights[1:]), 1) == (8.0 if paper == "a4" else 7.7), (paper, title)
        texts = _texts(pdf, index)
        batting = tables["Batting"]
        for r in range(11):  # the batters' numbers, each inside its own row, in order
            top, bottom = batting[r + 1], batting[r + 2]
            assert [t for t, _, box in texts if t == str(r + 1) and top < box[1] and box[3] < bottom
                    and box[0] < 20], (paper, index, r)
        for label, row in (("Extras", 12), ("Total", 13)):
            assert [t for t, _, box in texts if t == label and batting[row] < box[1] and box[3] < batting[row + 1]]
        wickets = tables["Fall of wickets"]
        heads = [t for t, _, box in texts if wickets[0] < box[1] and box[3] < wickets[1]]
        assert heads == ["Wicket"] + [str(k) for k in range(1, 11)]
        last_rule = tables["Bowling"][-1]
        notes_top = min(box[1] for t, _, box in texts if t.startswith("How out:"))
        assert notes_top > last_rule + 1.0


def test_the_bowling_rows_cover_every_bowler_a_real_innings_used(bbl_stats, hundred_stats):
    """The count of bowling rows (9) holds the most bowlers any real innings used: 7 in BBL
    2024-25 and 8 in The Hundred 2024 (lineups table: who bowled a legal ball, per match and
    side), and the brief's 8 at least."""
    most = 0
    for stats in (bbl_stats, hundred_stats):
        lineups = stats.lineups
        used = lineups[lineups["balls_bowled"] > 0].groupby(["match_id", "team"]).size()
        assert len(used) > 60  # every innings of the season
        most = max(most, int(used.max()))
    assert most == 8
    assert load_layout("sheets")["scorecard"]["bowling_rows"] == 9 >= max(most, 8)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_scorecard_columns_hold_the_widest_name_and_a_how_out(card_sets, paper):
    """Each name column is as wide as the widest player name of the bundled seasons pencilled at
    about 10 pt (plus a millimetre each side); How out holds "c " and that name, and How out
    with Bowler holds "c Sciver-Brunt b Ecclestone" (a WPL dismissal) many times over. The
    figures' columns are wide enough for three digits at that size."""
    widest = _widest_printed_name()
    name_mm = text_width_mm(widest, "regular", HANDWRITING_PT) + 2 * CELL_PAD_MM
    figures_mm = text_width_mm("188", "regular", HANDWRITING_PT) + 2 * CELL_PAD_MM
    for fmt in ("T20", "100-ball"):
        pdf = render_scoresheet_pdf(as_model(card_sets[fmt]), paper, CREDIT)
        tables = _tables(pdf, 2, paper)
        texts = _texts(pdf, 2)
        top, bottom = tables["Batting"][:2]
        edges = _verticals(pdf, 2, top, bottom)
        assert len(edges) == 9  # 8 columns
        batter, how_out, bowler = (_column(texts, h, edges, top, bottom)
                                   for h in ("Batter (keeper \u2020)", "How out", "Bowler"))
        assert batter >= name_mm and bowler >= name_mm, (paper, widest, batter, bowler)
        assert how_out >= text_width_mm(f"c {widest}", "regular", HANDWRITING_PT) + 2 * CELL_PAD_MM
        assert how_out + bowler >= text_width_mm("c Sciver-Brunt b Ecclestone", "regular", HANDWRITING_PT)
        assert min(_column(texts, h, edges, top, bottom) for h in ("Runs", "Balls", "4s", "6s")) >= \
            text_width_mm("18", "regular", HANDWRITING_PT) + 2 * CELL_PAD_MM
        top, bottom = tables["Bowling"][:2]
        edges = _verticals(pdf, 2, top, bottom)
        assert len(edges) == 12  # Bowler, 4 overs (sets), 6 figures
        assert _column(texts, "Bowler", edges, top, bottom) >= name_mm
        assert min(b - a for a, b in zip(edges[1:], edges[2:])) >= figures_mm


def test_the_scorecard_pages_are_byte_identical_when_built_again(card_sets):
    """Same card set, same PDF (the kit's rebuild test checks the files; this is the renderer)."""
    for fmt in ("T20", "100-ball"):
        for paper in ("a4", "letter"):
            assert render_scoresheet_pdf(as_model(card_sets[fmt]), paper, CREDIT) == \
                render_scoresheet_pdf(as_model(card_sets[fmt]), paper, CREDIT)
