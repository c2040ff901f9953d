"""The simulator's PDF reports (validate.pdf, simulate.pdf, compare-games): tables that fit the page."""
from __future__ import annotations

import pandas as pd
from pypdf import PdfReader

from cardgen.render.preflight import check_pdf
from cardgen.sim.report import histogram, write_pdf


def test_a_wide_table_fits_the_page_with_headers_in_words(tmp_path):
    """Review of the season replay's PDF: the ladder and team-totals tables (12-16 columns named
    like the CSV's) ran off both sides of A4 and headers broke inside words. Now every column of a
    16-column table fits, no text overlaps or reaches the paper's edge (the kit's preflight), and
    the headers read as words."""
    columns = [f"{side}_{what}" for what in ("strike_rate", "dismissal_rate", "fours", "sixes",
                                            "economy", "wicket_rate", "first_innings_total")
               for side in ("sim", "real")] + ["name", "team"]
    df = pd.DataFrame([{c: ("Royal Challengers Bangalore" if c == "team" else "Deepti Sharma" if c == "name"
                            else 123.456) for c in columns} for _ in range(4)])
    path = tmp_path / "report.pdf"
    write_pdf(path, "A wide table", ["one line"], [("Cards outside", df)],
              [histogram("runs", [150, 160, 170], [155, 165])])
    # (reports are read on screen, in the base-14 fonts: only the layout checks apply)
    layout = [p for p in check_pdf(path.read_bytes(), "report.pdf") if "not embedded" not in p.what]
    assert layout == []
    text = PdfReader(path).pages[0].extract_text()
    words = text.split()
    assert {"real", "first", "innings", "total", "dismissal"} <= set(words) and "first_innings_total" not in text
    assert "Royal Challengers Bangalore" in text
