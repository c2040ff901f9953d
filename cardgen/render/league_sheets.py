"""The sheets only a league of your own has (docs/league.md): the draft sheet, every eligible
player by points, and the fixtures tracker, the league's round robin with a ladder to keep.

Both are flowing documents like the team sheets (templates/sheets.json "draft_sheet" and
"season_tracker" for the tracker's row heights); a league's card set carries what they print
in `own_league` (`players`: everyone who could be picked, with his points and his side;
`fixtures`)."""
from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from reportlab.platypus import KeepTogether, Paragraph, Spacer, Table

from cardgen.cardset import CardSet, OwnLeague
from cardgen.errors import CardgenError
from cardgen.render.card import points_text
from cardgen.render.common import credit_fits_footer, flowing_document, page_size_mm, set_title
from cardgen.render.layout import MM, load_layout
from cardgen.render.season_tracker import _grid_style, _styles, tie_breaker
from cardgen.render.teamsheets import _name_cell

SHEET = "draft_sheet"
TIMES = {1: "once", 2: "twice"}


def league_line(card_set: CardSet) -> str:
    """What the points are measured against, for every sheet's introduction."""
    own = card_set.own_league
    return (f"Points: the runs a match a player adds batting in his usual place, and saves bowling his "
            f"usual overs and fielding, over an average player of {own.baseline if own else 'the baseline'}. "
            f"A side's points are its XI's together, as it takes the field: less than its players' "
            f"points added up when they share a place in the order or have more than the innings' overs.")


def render_draft_sheet_pdf(card_set: CardSet, paper: str, credit: str) -> bytes:
    """Every player who could be picked, by points, with the side that has him."""
    spec = load_layout("sheets")[SHEET]
    styles = _styles(spec)
    own = _own_league(card_set)
    title = f"{set_title(card_set)}: draft sheet"
    w, _ = page_size_mm(paper)
    margin = spec["margin_mm"]
    doc, buf = flowing_document(paper, title, credit, margin, frame_padding_pt=0)
    width_mm = w - 2 * margin
    draft = own.extra.get("draft")
    intro = (f"The computer's snake draft of {draft['teams']} sides from {escape(draft['pool'])} "
             f"({draft['players']} players): each side in turn took the player with the most points "
             f"left, the order reversing each round, keeping a wicketkeeper and five regular bowlers in "
             f"each side." if draft else
             "Every player of the league, by points: pick your own sides from it, or check the ones you have.")
    cap = own.cap
    story: list[Any] = [
        Paragraph(f"Draft sheet \u2014 {escape(own.name)}, on {escape(own.baseline)}", styles["title"]),
        Paragraph(escape(league_line(card_set)) + " " + intro
                  + (f" A side may have at most {cap:g} points." if cap is not None else ""), styles["body"]),
        Spacer(1, 2 * MM),
    ]
    cols = spec["columns_mm"]
    player_mm = width_mm - sum(cols)
    header = ["#", "Player", "From", "Role", "Bat", "Bowl", "Field", "Points", "Side"]
    widths = [cols[0], player_mm] + list(cols[1:])
    rows: list[list[Any]] = [header]
    for n, p in enumerate(own.extra.get("players") or [], 1):
        rows.append([str(n), _name_cell(p["name"], widths[1], spec["text_pt"]),
                     _name_cell(f"{p['season']} {p['team_short']}", widths[2], spec["text_pt"]),
                     _name_cell(p["role"], widths[3], spec["text_pt"]),
                     points_text(p.get("batting")), points_text(p.get("bowling")),
                     points_text(p.get("fielding")), points_text(p["points"]),
                     _name_cell(p.get("side") or "", widths[8], spec["text_pt"])])
    table = Table(rows, colWidths=[x * MM for x in widths], repeatRows=1)
    style = _grid_style()
    style.add("FONTSIZE", (0, 0), (-1, -1), spec["text_pt"])
    style.add("ALIGN", (4, 0), (7, -1), "RIGHT")
    table.setStyle(style)
    story.append(table)
    if not credit_fits_footer(paper, title, credit, margin):
        story += [Spacer(1, 4 * MM), Paragraph(escape(credit), styles["small"])]
    doc.build(story)
    return buf.getvalue()


def _own_league(card_set: CardSet) -> OwnLeague:
    if card_set.own_league is None:
        raise CardgenError("the card set is no league of your own (no own_league)")
    return card_set.own_league


def render_fixtures_pdf(card_set: CardSet, paper: str, credit: str) -> bytes:
    """The league's fixtures round by round with a column to write each result in, then a
    ladder to keep, each side with its points."""
    spec = load_layout("sheets")["season_tracker"]
    styles = _styles(spec)
    own = _own_league(card_set)
    title = f"{set_title(card_set)}: fixtures"
    w, _ = page_size_mm(paper)
    margin = spec["margin_mm"]
    doc, buf = flowing_document(paper, title, credit, margin, frame_padding_pt=0)
    width_mm = w - 2 * margin
    teams = card_set.teams
    per_round = max(len(teams) // 2, 1)
    fixtures = own.fixtures
    balls_per_over = card_set.balls_per_over
    rounds = own.rounds if own.rounds is not None else 1
    story: list[Any] = [
        Paragraph(f"Fixtures \u2014 {escape(own.name)}", styles["title"]),
        Paragraph(escape(f"Every side meets every other {TIMES.get(rounds, str(rounds) + ' times')}; "
                         f"the first named bats first. "
                         f"Play a fixture with the two sides' decks (the team sheets), write the result "
                         f"in, and keep the ladder at the end (Side pts: the side's points, what it "
                         f"adds a match over an average side). The computer replays the whole list "
                         f"many times with: cardgen simulate --cards card-set.json"), styles["body"]),
        Spacer(1, 2 * MM),
    ]
    cols = spec["fixture_columns_mm"]
    rows: list[list[Any]] = [["No.", "Round", "Match (batting first v second)", "Your game: winner, scores"]]
    for n, (a, b) in enumerate(fixtures, 1):
        rows.append([Paragraph(str(n), styles["small"]), Paragraph(str((n - 1) // per_round + 1), styles["small"]),
                     Paragraph(f"{escape(a)} v {escape(b)}", styles["body"]), ""])
    col_widths = [cols[0] * MM, cols[1] * MM, (width_mm - sum(cols)) * MM, cols[2] * MM]
    table = Table(rows, colWidths=col_widths, rowHeights=[None] + [spec["fixture_row_mm"] * MM] * len(fixtures),
                  repeatRows=1)
    style = _grid_style()
    style.add("FONTSIZE", (0, 0), (-1, -1), spec["text_pt"])
    style.add("LINEBEFORE", (3, 0), (3, -1), 0.8, _black())
    table.setStyle(style)
    story.append(table)
    cell = spec["ladder_cell_mm"]
    ladder_rows: list[list[Any]] = [["Side", "Side pts", "P", "W", "L", "NR", "Ladder"]]
    for t in teams:
        ladder_rows.append([t.name, points_text(t.points), "", "", "", "", ""])
    team_mm = width_mm - 4 * cell - 2 * spec["ladder_points_mm"]
    ladder = Table(ladder_rows, colWidths=[team_mm * MM, spec["ladder_points_mm"] * MM] + [cell * MM] * 4
                   + [spec["ladder_points_mm"] * MM],
                   rowHeights=[None] + [spec["ladder_row_mm"] * MM] * len(teams), repeatRows=1)
    lstyle = _grid_style()
    lstyle.add("FONTSIZE", (0, 0), (-1, -1), spec["text_pt"])
    lstyle.add("ALIGN", (1, 0), (-1, -1), "CENTER")
    lstyle.add("GRID", (2, 1), (-1, -1), 0.3, _grey())
    ladder.setStyle(lstyle)
    story.append(KeepTogether([Paragraph("Ladder", styles["heading"]),
                               Paragraph(escape(f"A tie goes to the {tie_breaker(balls_per_over)}. "
                                                + league_line(card_set)), styles["small"]),
                               Spacer(1, 1.5 * MM), ladder]))
    if not credit_fits_footer(paper, title, credit, margin):
        story += [Spacer(1, 4 * MM), Paragraph(escape(credit), styles["small"])]
    doc.build(story)
    return buf.getvalue()


def _black():  # type: ignore[no-untyped-def]
    from reportlab.lib import colors
    return colors.black


def _grey():  # type: ignore[no-untyped-def]
    from reportlab.lib import colors
    return colors.HexColor("#888888")
