"""Helpers shared by the one-page sheets: a canvas in invariant mode and page sizes."""
from __future__ import annotations

import html
import io
import re
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from cardgen.competitions import get_competition, season_label
from cardgen.errors import CardgenError
from cardgen.render.fonts import register_fonts
from cardgen.render.layout import MM, load_layout


# R13 (docs/rules.md) in the one wording every printed sheet uses (quick reference, scoresheet, team
# sheets): a player reading two of them mid-ball must not wonder whether they mean two rules.
# "the W stands" rather than "out": in the consolidate band a standing W still gets R12's catch die
DEFENCE_LABEL = "Defence N"
# written once, with the quick reference's bold on what the player looks for (its Paragraph
# markup); the scoresheet and team sheets print it plain
DEFENCE_RULE_MARKUP = (" (R13, some striker cards): on a <b>W</b> off the <b>bowler's</b> card roll a "
                       "d20: 1-N not out, played as a <b>&#8226;</b>; above N the W stands.")
DEFENCE_RULE = html.unescape(re.sub(r"</?b>", "", DEFENCE_RULE_MARKUP))

PAPER_LABELS = {"a4": "A4", "letter": "US Letter"}  # the papers (templates/sheets.json) as people name them


def page_size_mm(paper: str, landscape: bool = False) -> tuple[float, float]:
    page = load_layout("sheets")["papers"][paper]
    w, h = page["width_mm"], page["height_mm"]
    return (h, w) if landscape else (w, h)


def new_canvas(paper: str, title: str, credit: str, landscape: bool = False) -> tuple[Canvas, io.BytesIO, float, float]:
    """A reportlab canvas in invariant mode (byte-identical output for identical drawing)."""
    register_fonts()
    w, h = page_size_mm(paper, landscape)
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=(w * MM, h * MM), invariant=1, pageCompression=1)
    canvas.setTitle(title)
    canvas.setAuthor("cardgen")
    canvas.setCreator("cardgen")
    canvas.setSubject(credit)
    # the print dialog opens at actual size, not "fit to page" (which shrinks 63 x 88 mm cards
    # by some 3-6% and the scoresheet's boxes with them)
    canvas.setViewerPreference("PrintScaling", "None")
    return canvas, buf, w, h


def printed_season_of(code: str, season: str) -> str:
    """A season as every printed page and the site show it: the rules' example cards' form
    ('2024-2025', a calendar-year league '2024'), so a kit never prints one season two ways.
    Folder names and CLI arguments keep the short form ('BBL_2024-25'). A competition or season
    this install does not know is printed as given."""
    try:
        return season_label(get_competition(code), season)
    except CardgenError:
        return season


def printed_season(card_set: dict[str, Any]) -> str:
    """The card set's season as printed (printed_season_of)."""
    return printed_season_of(str(card_set["competition"].get("code", "")), str(card_set["season"]))


def set_title(card_set: dict[str, Any]) -> str:
    """'BBL 2024-2025' for page titles and footers."""
    return f"{card_set['competition']['code']} {printed_season(card_set)}"
