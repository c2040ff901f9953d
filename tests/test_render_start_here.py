"""START-HERE.txt's list of files (render.start_here.kit_files): which paper each file is for and
in what order a reader prints them, whatever papers the kit was built for."""
from __future__ import annotations

from cardgen.render.start_here import kit_files


def test_every_file_names_its_paper_and_the_first_paper_asked_for_prints_first():
    """`--paper letter` then A4: each sheet's paper is read from its name, the Letter ones listed
    first; files that are not printed kit sheets are left out."""
    pages = {"scoresheet-a4.pdf": 4, "scoresheet-letter.pdf": 4, "cards-a4.pdf": 27, "cards-letter.pdf": 28,
             "season-tracker-letter.pdf": 3, "compare.pdf": 2}
    files = kit_files(pages, ("letter", "a4"), backs=False)
    assert [(f.name, f.paper, f.pages) for f in files] == [
        ("cards-letter.pdf", "US Letter", "28 sheets"), ("cards-a4.pdf", "A4", "27 sheets"),
        ("scoresheet-letter.pdf", "US Letter", "4 pages"), ("scoresheet-a4.pdf", "A4", "4 pages"),
        ("season-tracker-letter.pdf", "US Letter", "3 pages")]


def test_card_sheets_with_backs_count_each_sheet_once():
    files = kit_files({"cards-a4.pdf": 8, "fielding-chart-a4.pdf": 1}, ("a4",), backs=True)
    assert [(f.kind, f.pages) for f in files] == [("cards", "4 sheets, two-sided"),
                                                   ("fielding-chart", "1 page")]
