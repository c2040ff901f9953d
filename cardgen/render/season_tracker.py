"""The season tracker: every real fixture with its real result, a box for the result of the game
played with the cards, and a ladder to keep, so a season can be replayed by hand and compared.

`fixtures_from_tables` reads the stats layer's `matches` and `innings` tables (pure, no I/O);
`render_season_tracker_pdf` prints them. The layout is data: templates/sheets.json "season_tracker".
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

import pandas as pd
from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import KeepTogether, Paragraph, Spacer, Table, TableStyle

from cardgen.calibrate.model import ALL_OUT
from cardgen.cardset import CardSet
from cardgen.render.common import (credit_fits_footer, flowing_document, page_size_mm, season_name,
                                   set_title)
from cardgen.render.fonts import PDF_NAMES, register_fonts
from cardgen.render.layout import MM, load_layout
from cardgen.stats.replays import replayed_no_results as replayed_in_full

LEAGUE_STAGE = ""  # a match whose Cricsheet stage is empty is a league (group) match
PADDING_PT = 2.0  # a table cell's padding, each side


@dataclass(frozen=True)
class Innings:
    team: str
    runs: int
    wickets: int
    balls: int


@dataclass(frozen=True)
class Fixture:
    """One real match as the tracker prints it."""
    match_id: str  # Cricsheet's
    number: int | None  # a league match's number (Cricsheet's, else its place in date order); None: a play-off
    date: str  # ISO date
    stage: str  # "" for a league match, else Cricsheet's stage ("Final", "Qualifier 1", ...)
    team1: str
    team2: str
    venue: str
    innings: tuple[Innings, ...]  # the main innings, in batting order (super overs left out)
    result: str  # "win", "tie", "no result"
    winner: str  # "" when none
    method: str  # "D/L" or ""

    @property
    def league_match(self) -> bool:
        return self.stage == LEAGUE_STAGE


def _text(value: Any) -> str:
    return "" if value is None or (isinstance(value, float) and pd.isna(value)) or value is pd.NA else str(value)


def fixtures_from_tables(matches: pd.DataFrame, innings: pd.DataFrame) -> tuple[Fixture, ...]:
    """The season's matches in date order (then Cricsheet's match number), each with its main
    innings' scores and its league match number (None for a play-off)."""
    main = innings[~innings["super_over"].astype(bool)] if len(innings) else innings
    by_match: dict[str, list[Innings]] = {}
    for row in main.sort_values(["match_id", "innings"]).itertuples():
        by_match.setdefault(str(row.match_id), []).append(
            Innings(str(row.batting_team), int(row.runs), int(row.wickets), int(row.legal_balls)))
    order = matches.assign(_n=matches["match_number"].fillna(1e9)).sort_values(["date", "_n", "match_id"])
    league = order["stage"].map(_text) == LEAGUE_STAGE  # (an all-empty column reads as float NaN)
    numbers = pd.to_numeric(order["match_number"], errors="coerce")
    # the league's own numbers, so the matches the source lacks show as gaps (the tracker names
    # them); a source without numbers: the league matches counted in date order
    if numbers[league].isna().any():
        numbers = league.cumsum().where(league)
    return tuple(Fixture(match_id=str(row.match_id), number=int(n) if is_league and pd.notna(n) else None,
                         date=_text(row.date), stage=_text(row.stage), team1=_text(row.team1),
                         team2=_text(row.team2), venue=_text(row.venue),
                         innings=tuple(by_match.get(str(row.match_id), ())), result=_text(row.result),
                         winner=_text(row.winner), method=_text(row.method))
                 for row, n, is_league in zip(order.itertuples(), numbers, league))


NBSP = "\u00a0"  # a space the line may not break at


def score_text(inn: Innings, balls_per_over: int) -> str:
    """'147/6 (18.3)' in a six-ball game, '147/6 (98 b)' in the Hundred; all out: '120 (19.2)'.
    Its spaces are non-breaking: a long fixture row wraps before the score, never inside it (the
    Hundred 2024 Eliminator's second '(100 b)' fell onto a line of its own on A4)."""
    score = f"{inn.runs}" if inn.wickets >= ALL_OUT else f"{inn.runs}/{inn.wickets}"
    if balls_per_over == 6:
        overs = f"{inn.balls // 6}" + (f".{inn.balls % 6}" if inn.balls % 6 else "")
        return f"{score}{NBSP}({overs})"
    return f"{score}{NBSP}({inn.balls}{NBSP}b)"


def tie_breaker(balls_per_over: int) -> str:
    """What the format calls the tie-break: the Hundred's is the Super Five (5 balls)."""
    return "Super Five" if balls_per_over == 5 else "Super Over"


def result_text(fixture: Fixture, tie_break: str = "Super Over") -> str:
    """'Perth Scorchers won by 4 wickets', '... by 21 runs', 'X won (DLS)', 'Tied: X won the Super
    Over' (the Hundred: 'the Super Five', `tie_break`), 'No result'. The margin is the scores'
    (penalty runs are not in them); none under DLS."""
    if fixture.result == "no result" or not fixture.winner and fixture.result != "tie":
        return "No result"
    if fixture.result == "tie":
        return f"Tied: {fixture.winner} won the {tie_break}" if fixture.winner else "Tied"
    if fixture.method == "D/L":  # a revised target: the margin is not in the scores
        return f"{fixture.winner} won (DLS)"
    inns = fixture.innings
    if len(inns) == 2 and inns[1].team == fixture.winner:
        left = ALL_OUT - inns[1].wickets
        return f"{fixture.winner} won by {left} wicket{'s' if left != 1 else ''}"
    if len(inns) == 2 and inns[0].team == fixture.winner:
        margin = inns[0].runs - inns[1].runs
        return f"{fixture.winner} won by {margin} run{'s' if margin != 1 else ''}"
    return f"{fixture.winner} won"


def replayed_no_results(fixtures: tuple[Fixture, ...]) -> dict[str, Fixture]:
    """League no-results the league played again in full and left off its table, each mapped to
    its replay (`cardgen.stats.replays`: IPL 2025's match 58, replayed as match 66)."""
    league = [f for f in fixtures if f.league_match]
    by_id = {f.match_id: f for f in league}
    return {voided: by_id[replay] for voided, replay in
            replayed_in_full([(f.match_id, f.team1, f.team2, f.result) for f in league]).items()}


def replay_note(replay: Fixture) -> str:
    """What the tracker prints after 'No result' for a match played again in full."""
    again = f"match {replay.number}" if replay.number is not None else f"on {replay.date}"
    return f"played again in full as {again}; the ladder counts that one"


@dataclass(frozen=True)
class LadderRow:
    team: str
    played: int
    won: int
    lost: int
    no_decision: int  # no result, or a tie no Super Over decided


def real_ladder(fixtures: tuple[Fixture, ...], teams: list[str],
                voided: dict[str, Fixture] | None = None) -> list[LadderRow]:
    """The league stage's real record, teams in `teams` order (then any other team that played).
    A tie the Super Over decided is the winner's win, as the leagues' tables count it; a no result
    played again in full counts only as its replay (`voided`: `replayed_no_results`, found here
    when not given)."""
    names = list(dict.fromkeys(teams + [t for f in fixtures for t in (f.team1, f.team2)]))
    voided = replayed_no_results(fixtures) if voided is None else voided
    rows = []
    for team in names:
        games = [f for f in fixtures if f.league_match and team in (f.team1, f.team2) and f.match_id not in voided]
        if not games:
            continue
        decided = [f for f in games if f.winner and f.result in ("win", "tie")]
        won = sum(f.winner == team for f in decided)
        rows.append(LadderRow(team, len(games), won, len(decided) - won, len(games) - len(decided)))
    return rows


def _styles(spec: dict[str, Any]) -> dict[str, ParagraphStyle]:
    register_fonts()
    body = ParagraphStyle("body", fontName=PDF_NAMES["regular"], fontSize=spec["text_pt"],
                          leading=spec["text_pt"] * 1.25)
    return {
        "body": body,
        "small": ParagraphStyle("small", parent=body, fontSize=spec["small_pt"], leading=spec["small_pt"] * 1.25,
                                textColor=colors.HexColor("#404040")),
        "title": ParagraphStyle("title", parent=body, fontName=PDF_NAMES["bold"], fontSize=spec["title_pt"],
                                leading=spec["title_pt"] * 1.25, spaceAfter=2 * MM),
        "heading": ParagraphStyle("heading", parent=body, fontName=PDF_NAMES["bold"],
                                  fontSize=spec["heading_pt"], leading=spec["heading_pt"] * 1.25,
                                  spaceBefore=3 * MM, spaceAfter=1.5 * MM),
    }


def _grid_style(header_rows: int = 1) -> TableStyle:
    return TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), PDF_NAMES["regular"]),
        ("FONTNAME", (0, 0), (-1, header_rows - 1), PDF_NAMES["bold"]),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LINEBELOW", (0, header_rows - 1), (-1, header_rows - 1), 0.8, colors.black),
        ("LINEBELOW", (0, header_rows), (-1, -1), 0.3, colors.HexColor("#888888")),
        ("TOPPADDING", (0, 0), (-1, -1), PADDING_PT),
        ("BOTTOMPADDING", (0, 0), (-1, -1), PADDING_PT),
        ("LEFTPADDING", (0, 0), (-1, -1), PADDING_PT),
        ("RIGHTPADDING", (0, 0), (-1, -1), PADDING_PT),
    ])


def _fixture_table(fixtures: tuple[Fixture, ...], balls_per_over: int, spec: dict[str, Any],
                   styles: dict[str, ParagraphStyle], width_mm: float,
                   replays: dict[str, Fixture] | None = None) -> Table:
    body, small = styles["body"], styles["small"]
    rows: list[list[Any]] = [["No.", "Date", "Real match (batting first v chasing) and result",
                              "Your game: winner, scores"]]
    replays = replayed_no_results(fixtures) if replays is None else replays
    for f in fixtures:
        number = Paragraph("" if f.number is None else f"{f.number}", small)
        if f.innings:
            first, *rest = f.innings
            sides = [f"{escape(first.team)} {score_text(first, balls_per_over)}"]
            sides.append(f"{escape(rest[0].team)} {score_text(rest[0], balls_per_over)}" if rest
                         else escape(f.team2 if first.team == f.team1 else f.team1))
            match = " v ".join(sides)
        else:
            match = f"{escape(f.team1)} v {escape(f.team2)}"
        if f.stage:  # a final or play-off: said first, in bold
            match = f"<b>{escape(f.stage)}:</b> {match}"
        result = escape(result_text(f, tie_breaker(balls_per_over)))
        detail = f"<b>{result}</b> \u00b7 {escape(f.venue)}"
        if f.match_id in replays:
            detail = f"<b>{result}</b>, {escape(replay_note(replays[f.match_id]))} \u00b7 {escape(f.venue)}"
        rows.append([number, Paragraph(f.date, small), Paragraph(f"{match}<br/>{detail}", body), ""])
    widths = spec["fixture_columns_mm"]
    col_widths = [widths[0] * MM, widths[1] * MM, (width_mm - sum(widths)) * MM, widths[2] * MM]
    # at least the room to write in; more where a long name wraps the text onto a third line
    heights = [max(spec["fixture_row_mm"] * MM, 2 * PADDING_PT + max(
        cell.wrap(cw - 2 * PADDING_PT, 1e6)[1] for cell, cw in zip(row[:3], col_widths)))
        for row in rows[1:]]
    table = Table(rows, colWidths=col_widths, rowHeights=[None] + heights, repeatRows=1)
    style = _grid_style()
    style.add("FONTSIZE", (0, 0), (-1, 0), spec["text_pt"])
    style.add("LINEBEFORE", (3, 0), (3, -1), 0.8, colors.black)  # the write-in column
    table.setStyle(style)
    return table


LADDER_HEADER = (["Team", "Real league stage", "", "", "", "Your replay", "", "", "", ""],
                 ["", "P", "W", "L", "NR", "P", "W", "L", "NR", "Points"])
REAL_COLUMNS = 4  # P W L NR


def _ladder_table(ladder: list[LadderRow], spec: dict[str, Any], width_mm: float) -> Table:
    rows: list[list[Any]] = [list(LADDER_HEADER[0]), list(LADDER_HEADER[1])]
    for r in ladder:
        rows.append([r.team, r.played, r.won, r.lost, r.no_decision] + [""] * (REAL_COLUMNS + 1))
    cell = spec["ladder_cell_mm"]
    team_mm = width_mm - cell * 2 * REAL_COLUMNS - spec["ladder_points_mm"]
    table = Table(rows, colWidths=[team_mm * MM] + [cell * MM] * (2 * REAL_COLUMNS) + [spec["ladder_points_mm"] * MM],
                  rowHeights=[None, None] + [spec["ladder_row_mm"] * MM] * len(ladder), repeatRows=2)
    style = _grid_style(header_rows=2)
    style.add("FONTSIZE", (0, 0), (-1, -1), spec["text_pt"])
    mine = 1 + REAL_COLUMNS  # the first column of the replay's
    style.add("SPAN", (1, 0), (REAL_COLUMNS, 0))
    style.add("SPAN", (mine, 0), (-1, 0))
    style.add("ALIGN", (1, 0), (-1, -1), "CENTER")
    style.add("LINEBEFORE", (mine, 0), (mine, -1), 0.8, colors.black)
    style.add("GRID", (mine, 2), (-1, -1), 0.3, colors.HexColor("#888888"))  # boxes to write in
    table.setStyle(style)
    return table


def missing_matches_text(missing: tuple[int, ...]) -> str:
    """The line under the intro naming the league matches the data lacks ('' when none)."""
    if not missing:
        return ""
    numbers = ", ".join(str(n) for n in missing)
    return (f"Not in the data: league match{'es' if len(missing) > 1 else ''} {numbers} (washed out "
            f"before a ball, or missing from the source), so some sides' ladder rows count fewer games.")


def short_sides_text(ladder: list[LadderRow]) -> str:
    """The line under the ladder when some sides played fewer league games than the others and
    the data shows no gap in the match numbers ('' when every side played as many): IPL 2025's
    washout of 17 May left no file and no gap, so KKR and RCB count 13 games to the others' 14."""
    most = max((r.played for r in ladder), default=0)
    short = [r for r in ladder if r.played < most]
    if not short:
        return ""
    if len(short) == 2 and all(r.played == most - 1 for r in short):
        return (f"{short[0].team} and {short[1].team} count one game fewer than the other sides: a league "
                f"match between them is likely not in the data (usually one washed out before a ball).")
    names = ", ".join(r.team for r in short[:-1]) + f" and {short[-1].team}" if len(short) > 1 else short[0].team
    return (f"{names} count fewer league games than the most any side played ({most}): the data lacks "
            f"some matches (usually washed out before a ball), or the fixture list was uneven.")


def render_season_tracker_pdf(card_set: CardSet, fixtures: tuple[Fixture, ...], paper: str,
                              credit: str, missing: tuple[int, ...] = ()) -> bytes:
    """The tracker: the fixtures (as many pages as they take, the header repeated), then the
    ladder: the league stage's real record and blank columns for the replay. `missing`: the
    league match numbers the source lacks (`stats.load.coverage`), said under the intro."""
    spec = load_layout("sheets")["season_tracker"]
    styles = _styles(spec)
    w, _ = page_size_mm(paper)
    margin = spec["margin_mm"]
    # the fixtures table runs to the frame's edges: no padding inside it
    doc, buf = flowing_document(paper, f"{set_title(card_set)} season tracker", credit, margin, frame_padding_pt=0)
    width_mm = w - 2 * margin
    balls_per_over = card_set.balls_per_over
    teams = [t.name for t in card_set.teams] or list(dict.fromkeys(c.team for c in card_set.cards))
    replays = replayed_no_results(fixtures)
    ladder = real_ladder(fixtures, teams, replays)
    short = "" if missing else short_sides_text(ladder)
    story: list[Any] = [
        Paragraph(f"Season tracker \u2014 {escape(season_name(card_set))}", styles["title"]),
        Paragraph(escape(spec["intro"]), styles["body"]),
        *([Paragraph(f"<b>{escape(missing_matches_text(missing))}</b>", styles["body"])] if missing else []),
        Spacer(1, 2 * MM),
        _fixture_table(fixtures, balls_per_over, spec, styles, width_mm, replays),
        # the ladder is one table on one page (a new one if the fixtures left too little room)
        KeepTogether([Paragraph("Ladder", styles["heading"]),
                      Paragraph(escape(spec["ladder_intro"].format(tie_break=tie_breaker(balls_per_over))),
                                styles["small"]),
                      Spacer(1, 1.5 * MM),
                      _ladder_table(ladder, spec, width_mm),
                      # the intro names the matches a gap in the numbers shows; else the uneven
                      # rows are explained here
                      *([Spacer(1, 1.5 * MM), Paragraph(escape(short), styles["small"])] if short else [])]),
    ]
    # the footer holds the credit in one line; one too long for it (a custom attribution) is
    # printed whole under the ladder as well, as the team sheets and quick reference do
    if not credit_fits_footer(paper, doc.title, credit, margin):
        story += [Spacer(1, 4 * MM), Paragraph(escape(credit), styles["small"])]
    doc.build(story)
    return buf.getvalue()
