"""START-HERE.txt: the first file a kit's reader opens, before printing anything.

What each file of this kit is, with its page count, how to print and cut, and the dice. The
text is data (templates/start-here.txt.j2); this module supplies the kit's facts.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cardgen.cardset import CardSet
from cardgen.render.common import PAPER_LABELS, season_name
from cardgen.render.layout import text_template
from cardgen.render.sheets import sheet_geometry

START_HERE = "START-HERE.txt"
START_HERE_LABEL = "Start here: what each file is (text)"  # as the site and a game kit's manifest list it
# the kit's PDFs in the order a reader prints them (a name's stem without its paper suffix)
PRINT_ORDER = ("cards", "fielding-chart", "scoresheet", "team-sheets", "quick-reference", "rules",
               "season-tracker", "draft-sheet", "fixtures")


@dataclass(frozen=True)
class KitFile:
    name: str
    kind: str        # a PRINT_ORDER entry
    paper_code: str  # "a4" | "letter"
    pages: str       # "27 sheets", "1 page"

    @property
    def paper(self) -> str:
        """As people name it ("A4", "US Letter")."""
        return PAPER_LABELS[self.paper_code]


def count_text(count: int, unit: str) -> str:
    """'1 page', '27 sheets'."""
    return f"{count} {unit}{'s' if count != 1 else ''}"


def kit_files(pages: dict[str, int], papers: tuple[str, ...], backs: bool) -> list[KitFile]:
    """The top-level PDFs (`pages`: file name -> page count) in print order, each with its paper:
    every file names its own (cards-a4.pdf, scoresheet-letter.pdf)."""
    found = []
    for name, count in pages.items():
        stem = name.removesuffix(".pdf")
        kind, paper = stem, papers[0]
        for p in PAPER_LABELS:
            if stem.endswith(f"-{p}"):
                kind, paper = stem.removesuffix(f"-{p}"), p
        if kind not in PRINT_ORDER:
            continue
        if kind == "cards":  # with backs a sheet is printed on both sides: two pages, one sheet
            amount = count_text(count // 2 if backs else count, "sheet") + (", two-sided" if backs else "")
        else:
            amount = count_text(count, "page")
        found.append(KitFile(name, kind, paper, amount))
    return sorted(found, key=lambda f: (PRINT_ORDER.index(f.kind), papers.index(f.paper_code)))


def start_here_text(card_set: CardSet, pages: dict[str, int], papers: tuple[str, ...], credit: str,
                    backs: bool = False, bleed: bool = False, team_folders: bool = True,
                    images: bool = True, match_page: bool = False, bleed_mm: float | None = None) -> str:
    """The kit's START-HERE.txt. `pages`: each top-level PDF's page count; `team_folders`: the kit
    has teams/ (a full kit); `images`: png/ and tts/; `match_page`: play.html."""
    from cardgen.render.common import build_command, rules_title
    from cardgen.rule_sets import other_rules, rules_of_set
    from cardgen.wickets_in_hand import rule_of_set
    files = kit_files(pages, papers, backs)
    teams = {c.team for c in card_set.cards}
    groups: dict[str, list[KitFile]] = {}
    for f in files:
        groups.setdefault(f.kind, []).append(f)
    plural = "s" if len(teams) != 1 else ""
    return text_template("start-here.txt.j2").render(
        heading=f"Quicket Cricket kit ({rules_title(card_set)}): {season_name(card_set)} ({card_set.format if 'format' in card_set.present else 'T20'}), {len(teams)} team{plural}, "
                f"{len(card_set.cards)} cards",
        groups=list(groups.items()), several_papers=len(papers) > 1, per_sheet=_per_sheet(papers, bleed, bleed_mm),
        rule=rule_of_set(card_set) is not None, backs=backs, bleed=bleed or bleed_mm is not None, team_folders=team_folders, images=images,
        match_page=match_page,
        other_command=build_command(card_set.competition.code, str(card_set.season),
                                    other_rules(rules_of_set(card_set))),
        credit=credit)


def _per_sheet(papers: tuple[str, ...], bleed: bool, bleed_mm: float | None) -> str:
    """Cards a sheet, as START-HERE says it: "9", or per paper where they differ (--bleed-mm 3.2:
    "8 (A4), 6 (US Letter)")."""
    counts = {paper: sheet_geometry(paper, bleed, bleed_mm).per_sheet for paper in papers}
    if len(set(counts.values())) == 1:
        return str(counts[papers[0]])
    return ", ".join(f"{n} ({PAPER_LABELS[paper]})" for paper, n in counts.items())


def pdf_page_counts(folder: Path) -> dict[str, int]:
    """Page counts of the PDFs at the top of a kit folder being written."""
    import pypdfium2
    counts = {}
    for path in sorted(folder.glob("*.pdf")):
        pdf = pypdfium2.PdfDocument(str(path))
        try:
            counts[path.name] = len(pdf)
        finally:
            pdf.close()
    return counts
