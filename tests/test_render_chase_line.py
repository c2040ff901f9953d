"""The chase line (issue 41) as the kit prints it: the scoresheet's second-innings page, the
advanced rules sheet and the quick reference, each read back from its PDF."""
from __future__ import annotations

import copy

import pytest

from cardgen import ATTRIBUTION
from cardgen.cardset import CardSet
from cardgen.render.preflight import check_pdf
from cardgen.render.scoresheet import render_scoresheet_pdf
from cardgen.render.teamsheets import render_quick_reference_pdf, render_rules_sheet_pdf
from cardgen.wickets_in_hand import CELL_WORDS, ChaseLine, chase_line_of_words
from test_render_layout import pdf_texts
from tests.conftest import as_model, shipped_set

pytestmark = pytest.mark.slow   # every test renders whole sheets of a shipped set

# the line the chase helper found best so far, and a larger one (4 rows, 3 columns, every band)
LINES = ("2,2.5/6/TT,AC,AA", "1,2,2.5/3,6/TTC,TTT,ANC,AAA")


def with_line(card_set: dict, line: ChaseLine) -> CardSet:
    """The set's model, its rule with `line` (what a set calibrated for the line records)."""
    out = copy.deepcopy(card_set)
    out["rule_parameters"] = {**out["rule_parameters"], "chase_line": line.describe()}
    return as_model(out)


def printed_rows(pdf: bytes, page: int, min_left: float = 0.0) -> list[list[tuple[str, float, float]]]:
    """The page's text objects (those starting at `min_left` mm or right of it) grouped by
    text bottom (to 1 mm: a descender), top to bottom, each row's (text, left, right) from left to right."""
    rows: dict[float, list[tuple[str, float, float]]] = {}
    for text, _, (left, _, right, bottom) in pdf_texts(pdf, page):
        if text.strip() and left >= min_left - 1.0:
            key = next((k for k in rows if abs(k - bottom) < 1.0), bottom)
            rows.setdefault(key, []).append((text.strip(), left, right))
    return [sorted(rows[k], key=lambda t: t[1]) for k in sorted(rows)]


def expected_runs(line: ChaseLine, row: int) -> list[tuple[str, int, int]]:
    """Row `row` of the line as the scoresheet's wickets-down columns 0-9 hold it: (band word,
    first, last wickets down) of each run of equal cells, from the line's own edges (column j:
    hand_edges[j - 1] < wickets in hand <= hand_edges[j])."""
    runs: list[tuple[str, int, int]] = []
    for down in range(10):
        hand = 10 - down
        column = sum(hand > edge for edge in line.hand_edges)
        word = CELL_WORDS[line.cells[row][column]]
        if runs and runs[-1][0] == word:
            runs[-1] = (word, runs[-1][1], down)
        else:
            runs.append((word, down, down))
    return runs


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("season", ["BBL_2024-25", "HUNDRED_2024"])
@pytest.mark.parametrize("spec", LINES)
def test_the_second_innings_page_prints_every_cell_of_the_chase_line_under_its_wickets_down(spec, season,
                                                                                            paper):
    """Read back from the PDF: under the wickets-in-hand table's three rows, a row per row of the
    line ("need <= 2xleft", ..., "need > 2.5xleft"), its band words left to right as the line's
    cells fall on the wickets-down columns 0-9 (neighbours with one band as one word, centred
    over its columns); "table" cells point up at the table. Page 1 says where the line is and
    prints no row of it; preflight finds nothing; the grids keep their 4 x 13 rules, on the page."""
    line = chase_line_of_words(spec)
    card_set = with_line(shipped_set(season, "advanced"), line)
    pdf = render_scoresheet_pdf(card_set, paper, ATTRIBUTION)
    assert check_pdf(pdf, f"scoresheet-{paper}.pdf") == []
    table_left = next(box[0] for text, _, box in pdf_texts(pdf, 1) if text.strip() == "wkts down")
    rows = printed_rows(pdf, 1, table_left)     # the table's side of the header, and under it
    head = next(k for k, row in enumerate(rows) if row[0][0] == "wkts down")
    columns = rows[head][1:]
    assert [t for t, _, _ in columns] == [str(d) for d in range(10)]
    centre = [(left + right) / 2 for _, left, right in columns]
    edges = [f"{e:g}" for e in line.rate_edges]
    labels = [f"need \u2264 {e}\u00d7left" for e in edges] + [f"need > {edges[-1]}\u00d7left"]
    chase = rows[head + 3:head + 3 + len(labels)]
    assert [row[0][0] for row in chase] == labels
    for k, row in enumerate(chase):
        runs = expected_runs(line, k)
        words = row[1:]
        assert [t for t, _, _ in words] == [w + (" \u2191" if w == "table" else "") for w, _, _ in runs], (k, row)
        for (_, left, right), (_, first, last) in zip(words, runs):
            assert centre[first] - 0.5 <= (left + right) / 2 <= centre[last] + 0.5
    assert rows[head + 3 + len(labels)][0][0].startswith("Wickets in hand. Attack")
    assert any(t.startswith("Chasing: the first chase row that holds") for row in rows for t, _, _ in row)
    # the grids start under the header's last line, with their 4 x 13 rules (none pushed off)
    from test_render_sheets import _horizontal_rules
    page = pdf_pages(pdf)[1]
    ys = sorted(y for y, _ in _horizontal_rules(page, 210.0 if paper == "a4" else 215.9))
    assert len(ys) == 4 * 13
    header = [box for text, _, box in pdf_texts(pdf, 1) if text.strip() and box[3] < ys[0] + 1.0]
    assert max(box[3] for box in header) < ys[0]
    first_page = [t for row in printed_rows(pdf, 0) for t, _, _ in row]
    assert "Chasing (innings 2): the band from the chase rows on page 2." in first_page
    assert not [t for t in first_page if t.startswith("need ")]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_set_without_a_line_prints_the_chase_clause_and_no_chase_rows(paper):
    """Today's rule (the chase clause, no line): no chase row on either page, the clause's own
    line, and the grid page of the second innings the same height of header as the first."""
    card_set = shipped_set("BBL_2024-25", "advanced")
    assert "chase_line" not in card_set["rule_parameters"]
    pdf = render_scoresheet_pdf(as_model(card_set), paper, ATTRIBUTION)
    for page in (0, 1):
        texts = [t for row in printed_rows(pdf, page) for t, _, _ in row]
        assert not [t for t in texts if t.startswith(("need ", "Chasing:", "Chasing ("))
                    and not t.startswith("Chasing, needing over 2")]
        assert "Chasing, needing over 2 a ball: always attack." in texts


def sheet_table(pdf: bytes, first_cell: str) -> list[list[str]]:
    """The rows of the sheet's table whose first cell is `first_cell` (a table's rows are
    consecutive baselines starting at its first column's left edge), as text."""
    rows = printed_rows(pdf, 0)
    start = next(k for k, row in enumerate(rows) if row[0][0] == first_cell)
    left = rows[start][0][1]
    table = []
    for row in rows[start:]:
        if abs(row[0][1] - left) > 0.5:
            break
        table.append([t for t, _, _ in row])
    return table


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("spec", LINES)
def test_the_rules_sheet_and_quick_reference_print_the_line_from_its_cells(spec, paper):
    """Both sheets: the chase table's heading (the runs needed, then each column's wickets in
    hand, the line's column_words) and a row per row of the line, its runs needed against the
    balls left and its band words in the line's order; the rules sheet no longer says the clause
    the line replaces, and neither sheet spills off its page."""
    line = chase_line_of_words(spec)
    card_set = with_line(shipped_set("BBL_2024-25", "advanced"), line)
    edges = [f"{e:g}" for e in line.rate_edges]
    labels = ([f"\u2264 {edges[0]} \u00d7 balls left"]
              + [f"> {lo}, \u2264 {hi} \u00d7 balls left" for lo, hi in zip(edges, edges[1:])]
              + [f"> {edges[-1]} \u00d7 balls left"])
    expected = ([["Runs needed (target \u2212 total)"] + [f"{w} in hand" for w in line.column_words()]]
                + [[label] + [CELL_WORDS[c] for c in cells] for label, cells in zip(labels, line.cells)])
    for render in (render_rules_sheet_pdf, render_quick_reference_pdf):
        pdf = render(card_set, paper, ATTRIBUTION)
        assert check_pdf(pdf, f"sheet-{paper}.pdf") == []
        assert len(pdf_pages(pdf)) == 1
        assert sheet_table(pdf, "Runs needed (target \u2212 total)") == expected, render.__name__
        text = " ".join(" ".join(p.extract_text().split()) for p in pdf_pages(pdf))
        assert "always attack" not in text and "while the runs needed are more than" not in text


def test_sheets_without_a_line_print_no_chase_table():
    card_set = as_model(shipped_set("BBL_2024-25", "advanced"))
    for render in (render_rules_sheet_pdf, render_quick_reference_pdf):
        text = " ".join(" ".join(p.extract_text().split()) for p in pdf_pages(render(card_set, "a4", ATTRIBUTION)))
        assert "Runs needed (target" not in text and "chase line" not in text
        assert "always attack" in text or "attacks whatever the table says" in text


def pdf_pages(pdf: bytes) -> list:
    import pdf_text
    return pdf_text.pages(pdf)
