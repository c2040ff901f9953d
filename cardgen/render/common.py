"""Helpers shared by the one-page sheets: a canvas in invariant mode and page sizes."""
from __future__ import annotations

import html
import io
import re

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate

from cardgen.cardset import CardSet
from cardgen.competitions import get_competition, season_label
from cardgen.errors import CardgenError
from cardgen.render.fonts import PDF_NAMES, register_fonts
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
    # the page's opening font is an embedded face: reportlab's default Helvetica would sit, unused
    # and not embedded, in every page's font list (a print shop's preflight flags it)
    canvas = Canvas(buf, pagesize=(w * MM, h * MM), invariant=1, pageCompression=1,
                    initialFontName=PDF_NAMES["regular"])
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


def printed_season(card_set: CardSet) -> str:
    """The card set's season as printed (printed_season_of)."""
    return printed_season_of(str(card_set.competition.code or ""), str(card_set.season))


def season_name(card_set: CardSet) -> str:
    """'Big Bash League 2024-2025' for the sheets' headings: the competition's name, the season
    as printed (a league of your own: 'Big Bash all-stars, on BBL 2024-25')."""
    own = card_set.own_league
    if own:
        return f"{own.name}, on {own.baseline}"
    return f"{card_set.competition.name or ''} {printed_season(card_set)}"


def set_title(card_set: CardSet) -> str:
    """'BBL 2024-2025' for page titles and footers (a league of your own: its name)."""
    own = card_set.own_league
    if own:
        return str(own.name)
    return f"{card_set.competition.code} {printed_season(card_set)}"


# the flowing sheets' footer (team sheets, quick reference, season tracker): title, page, credit
FOOTER_PT = 6.5
FOOTER_BASELINE_MM = 6.0


LONG_CREDIT_NOTE = "data credit in full at the end"  # the footer's words for a credit too long for it


def footer_line(title: str, page: int, credit: str) -> str:
    return f"{title} \u00b7 page {page} \u00b7 {credit}"


def credit_fits_footer(paper: str, title: str, credit: str, margin: float) -> bool:
    """Whether the footer line (title, page, credit) holds the whole credit inside the margins;
    a credit too long for it (a custom attribution) is printed under the text as well."""
    page_w, _ = page_size_mm(paper)
    footer_mm = stringWidth(footer_line(title, 1, credit), PDF_NAMES["regular"], FOOTER_PT) / MM
    return footer_mm <= page_w - 2 * margin


def flowing_document(paper: str, title: str, credit: str, margin: float,
                     frame_padding_pt: float | None = None) -> tuple[BaseDocTemplate, io.BytesIO]:
    """A platypus document in invariant mode whose every page carries the footer line;
    `frame_padding_pt`: the body frame's padding each side (None: reportlab's 6 pt)."""
    register_fonts()  # the pages open in the embedded face
    buf = io.BytesIO()
    w, h = page_size_mm(paper)
    doc = BaseDocTemplate(buf, pagesize=(w * MM, h * MM), invariant=1, title=title, author="cardgen",
                          creator="cardgen", subject=credit, initialFontName=PDF_NAMES["regular"],
                          leftMargin=margin * MM,
                          rightMargin=margin * MM, topMargin=margin * MM, bottomMargin=margin * MM)

    # a credit too long for the line would run off the paper: the documents print it whole after
    # their text (credit_fits_footer), and the footer points there
    said = credit if credit_fits_footer(paper, title, credit, margin) else LONG_CREDIT_NOTE

    def footer(canvas, _doc) -> None:  # type: ignore[no-untyped-def]
        canvas.saveState()
        canvas.setFont(PDF_NAMES["regular"], FOOTER_PT)
        canvas.setFillColorRGB(0.25, 0.25, 0.25)
        canvas.drawCentredString(w * MM / 2, FOOTER_BASELINE_MM * MM,
                                 footer_line(title, canvas.getPageNumber(), said))
        canvas.restoreState()

    padding = {} if frame_padding_pt is None else {
        side: frame_padding_pt for side in ("leftPadding", "rightPadding", "topPadding", "bottomPadding")}
    frame = Frame(doc.leftMargin, doc.bottomMargin, doc.width, doc.height, id="body", **padding)
    doc.addPageTemplates([PageTemplate(id="page", frames=[frame], onPage=footer)])
    return doc, buf


def rules_title(card_set: CardSet) -> str:
    """"Quicket rules" or "Advanced rules" (`cardgen.rule_sets`): the name every printed piece of
    the set's kit gives the rules its cards are made for."""
    from cardgen.rule_sets import TITLES, rules_of_set
    return TITLES[rules_of_set(card_set)]


def build_command(code: str, season: str, rules: str) -> str:
    """The command that prints the kit made for `rules`: what a sheet tells a player who wants
    the other kit (`cardgen build -c BBL -s 2024-25`, `... --rules advanced`)."""
    from cardgen.rule_sets import ADVANCED, check_rules
    return f"cardgen build -c {code} -s {season}" + (" --rules advanced" if check_rules(rules) == ADVANCED else "")
