"""Team sheets (the "decks" of rules 1.5) and the quick-reference page, with reportlab platypus."""
from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, KeepInFrame, PageBreak, Paragraph, Spacer, Table, TableStyle
from xml.sax.saxutils import escape

from cardgen.cardset import Card, CardSet, Kind, PhaseBalls, Player, RealFigures, Team, Usage
from cardgen.render.card import card_views, defence_rating, points_text, printed_keeper_rating, source_line
from cardgen.render.common import (DEFENCE_LABEL, DEFENCE_RULE, DEFENCE_RULE_MARKUP, credit_fits_footer,
                                   flowing_document, printed_season, season_name, set_title)
from cardgen.render.fonts import PDF_NAMES, fit_text, register_fonts, text_width_mm, upper
from cardgen.render.layout import MM, load_layout, text_template
from cardgen.render.common import rules_title
from cardgen.stats.phases import PHASES, phase_ranges


BULLET_INDENT_PT = 2.0
FRAME_PADDING_PT = 6.0  # reportlab's default Frame padding, each side
CELL_PADDING_PT = 6.0  # reportlab's default table cell padding, left and right
NAME_MIN_PT = 6.0  # a name too long for its column is set down to this size, on two lines if need be


def _styles(spec: dict) -> dict[str, ParagraphStyle]:
    register_fonts()
    base = ParagraphStyle("body", fontName=PDF_NAMES["regular"], fontSize=spec["text_pt"],
                          leading=spec["text_pt"] * 1.3)
    return {
        "body": base,
        "title": ParagraphStyle("title", parent=base, fontName=PDF_NAMES["bold"],
                                fontSize=spec["title_pt"], leading=spec["title_pt"] * 1.3, spaceAfter=4),
        "heading": ParagraphStyle("heading", parent=base, fontName=PDF_NAMES["bold"],
                                  fontSize=spec["heading_pt"], leading=spec["heading_pt"] * 1.3,
                                  spaceBefore=7, spaceAfter=3),
        # reportlab starts a bullet's first line 0.6 em after the bullet: the same left indent
        # for the lines it wraps onto keeps them under the text, not under the bullet
        "bullet": ParagraphStyle("bullet", parent=base, bulletIndent=BULLET_INDENT_PT,
                                 leftIndent=BULLET_INDENT_PT + stringWidth("\u2022", PDF_NAMES["regular"],
                                                                           spec["text_pt"]) + 0.6 * spec["text_pt"],
                                 bulletFontName=PDF_NAMES["regular"],  # embedded, not Helvetica
                                 bulletFontSize=spec["text_pt"]),
        "small": ParagraphStyle("small", parent=base, fontSize=spec["text_pt"] - 1.5,
                                leading=(spec["text_pt"] - 1.5) * 1.3, textColor=colors.HexColor("#404040")),
    }


def _table(rows: list[list[Any]], widths: Sequence[float], font_pt: float, padding: float = 1.5) -> Table:
    table = Table(rows, colWidths=[w * MM for w in widths], repeatRows=1, hAlign="LEFT")
    table.setStyle(TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), PDF_NAMES["regular"]),
        ("FONTNAME", (0, 0), (-1, 0), PDF_NAMES["bold"]),
        ("FONTSIZE", (0, 0), (-1, -1), font_pt),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
        ("LINEBELOW", (0, 1), (-1, -1), 0.25, colors.HexColor("#999999")),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), padding),
        ("BOTTOMPADDING", (0, 0), (-1, -1), padding),
    ]))
    return table


def _name_cell(name: str, width_mm: float, font_pt: float) -> str | Paragraph:
    """A player's name as its table cell: the text itself when it fits the column at the table's
    size (every name of the bundled seasons), else a paragraph at the largest size down to
    NAME_MIN_PT that fits, on two lines if need be: a long name, or a --names correction, ran
    on into the next column ("MOHAMMAD NABI ØRSTED-ŁUKASIŃSKI" over "All-Rounder")."""
    room = width_mm - 2 * CELL_PADDING_PT / MM
    if text_width_mm(name, "regular", font_pt) <= room:
        return name
    # a hair narrower than the cell, so the paragraph never wraps a fitted line again
    fitted = fit_text(name, "regular", room - 0.2, font_pt, NAME_MIN_PT, max_lines=2, wrap_below_pt=font_pt - 1.0)
    style = ParagraphStyle("name", fontName=PDF_NAMES["regular"], fontSize=fitted.size_pt,
                           leading=fitted.size_pt * 1.15)
    return Paragraph("<br/>".join(escape(line) for line in fitted.lines), style)


@dataclass(frozen=True)
class DeckPlayer:
    """A player of the set and his cards, by (team, kind)."""
    player: Player
    cards: dict[tuple[str, Kind], Card]


@dataclass(frozen=True)
class Deck:
    """One team's sheet: the batting deck (usual XI), its keeper, the reserves deck and the
    bowlers by usage (player ids), and every player of the set (`players`, by id)."""
    team: Team
    xi: list[str]
    keeper: str | None
    reserves: list[str]
    bowlers: list[str]
    players: dict[str, DeckPlayer]


def team_decks(card_set: CardSet) -> list[Deck]:
    """Per team: the batting deck (usual XI), the reserves deck and the bowlers by usage."""
    by_id: dict[str, DeckPlayer] = {}
    for card in card_set.cards:
        entry = by_id.setdefault(card.player.id, DeckPlayer(card.player, {}))
        entry.cards[(card.team, card.kind)] = card
    # a set without its teams' line-ups: the teams in printed order (the cards' views are built
    # only then: they cost more than the rest of the decks)
    teams = card_set.teams or tuple(Team(name=name) for name in dict.fromkeys(v.team for v in card_views(card_set)))
    # no line-up in the set: the team's strikers (bowlers) in the set's order (CardSet.usual_xi)
    return [Deck(team=team, xi=card_set.usual_xi(team.name), keeper=card_set.keeper(team.name),
                 reserves=list(team.reserves), bowlers=card_set.team_bowlers(team.name), players=by_id)
            for team in teams]


def stand_in_card(card_set: CardSet, team: str) -> Card | None:
    """The striker card a batter without one bats with, as the engines choose it
    (`CardSet.stand_in`); None when the team has no striker card."""
    return card_set.stand_in(team)


def _without_striker_card(deck: Deck, pids: list[str]) -> list[str]:
    """The printed names of these players of the deck with no striker card of its team
    ("Cards: B"): they bat with the team's stand-in card (docs/rules.md R9)."""
    team = deck.team.name
    return [upper(deck.players[pid].player.name) for pid in pids
            if pid in deck.players and (team, "striker") not in deck.players[pid].cards]


def no_striker_card_lines(card_set: CardSet, deck: Deck) -> list[str]:
    """One line per XI player with no striker card of his team ("Cards: B"), naming the card he
    bats with: without it the kit printed no way for him to bat (Sydney Thunder's No. 11)."""
    stand_in = stand_in_card(card_set, deck.team.name)  # the same card for every such batter
    if stand_in is None:
        return []
    return [f"{name} has no striker card: bats with {upper(stand_in.player.name)}'s striker card "
            "(the team's last-placed batter)." for name in _without_striker_card(deck, deck.xi)]


def reserves_without_striker_card_line(card_set: CardSet, deck: Deck) -> str | None:
    """One line naming the reserves with no striker card of their team ("Cards: B") and the card
    they bat with if picked (the same stand-in as the XI's, docs/rules.md R9): the quick reference
    sends such a batter to the team sheet, which named the card only for the XI (gamer's audit,
    PSL 2021: Peshawar Zalmi's Abrar Ahmed and Waqar Salamkheil). None when there is none."""
    stand_in = stand_in_card(card_set, deck.team.name)
    names = _without_striker_card(deck, deck.reserves) if stand_in is not None else []
    if not names or stand_in is None:
        return None
    who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return (f"{who} {'has' if len(names) == 1 else 'have'} no striker card: picked for the XI, "
            f"{'bats' if len(names) == 1 else 'they bat'} with {upper(stand_in.player.name)}'s striker card "
            "(the team's last-placed batter).")


def has_defence(card_set: CardSet) -> bool:
    """Whether any striker card of the set carries a Defence rating (docs/rules.md R13)."""
    return any(defence_rating(card) for card in card_set.cards)


def _fit_names(rows: list[list[Any]], widths: Sequence[float], font_pt: float,
               also: tuple[int, ...] = ()) -> list[list[Any]]:
    """The table's rows with each name (column 1, under the header) fitted to its column, and
    the text of the columns `also` (a league's "From")."""
    fit = (1,) + also
    return rows[:1] + [[_name_cell(cell, widths[i], font_pt) if i in fit and isinstance(cell, str) else cell
                        for i, cell in enumerate(row)] for row in rows[1:]]


def _player_row(pid: str, deck: Deck, position: int | None, defence: bool = False,
                league: bool = False) -> list[str]:
    """One deck row; `defence`: the set has Defence ratings, so a last column gives this player's
    (his striker card's for this team, blank without one); `league`: a league's set, whose
    rows end with the player's season and his points (docs/league.md)."""
    info = deck.players.get(pid)
    if info is None:
        return [str(position or ""), pid, "", "", "", ""] + ([""] if defence else []) + (["", ""] if league else [])
    player = info.player
    name = upper(player.name)
    # the rating under the "Wicketkeeper" heading (the cards' one spelling: "Wicketkeeper (20)");
    # a keeper who kept in no match prints the 10 he keeps at (R9), as his card does
    keeps = pid == deck.keeper
    rating = printed_keeper_rating(player, keeps=keeps)
    mark = str(rating) if rating else ""
    if keeps:
        name += " \u2020"  # the usual XI's keeper; a reserve keeper still shows the rating
    team = deck.team.name
    kinds = "+".join(k[0].upper() for (t, k) in sorted(info.cards) if t == team)
    row = [str(position or ""), name, player.batting_role or "", mark,
           f"C({_or_dash(player.catch)}) / RO({_or_dash(player.run_out)})", kinds]
    if defence:
        striker = info.cards.get((team, "striker"))
        rating = defence_rating(striker) if striker else None
        row.append(str(rating) if rating else "")
    if league:
        card = next(iter(c for (t, _), c in sorted(info.cards.items()) if t == team), None)
        row += [source_line(card, compact=True) if card else "",
                points_text(card.points.player if card and card.points else None)]
    return row


def _or_dash(rating: int | None) -> str:
    """A fielding rating as a team sheet prints it, '-' for none."""
    return "-" if rating is None else str(rating)


# R13 as the quick reference and the scoresheet word it; N is the Defence column
DEFENCE_LEGEND = f" {DEFENCE_LABEL}{DEFENCE_RULE}"


XI_COLUMN_LEGEND = "# = place in the XI (blank: a reserve, who bowls only if picked)."


def usage_legend(hundred: bool) -> str:
    """What a bowler's Usage "letter/number" means (calibrate.people.usage_letter's bands): the
    Hundred counts balls, not 5-ball sets, as its bowler cards do."""
    if hundred:
        legend = ("Usage: letter = average balls an innings bowled (A+ = 20, the most allowed; A = 15-20, "
                  "B = 10-15, C = 5-10, D = under 5); number = innings bowled.")
    else:
        legend = ("Usage: letter = average overs an innings bowled (A+ = 4, the most allowed; A = 3-4, "
                  "B = 2-3, C = 1-2, D = under 1); number = innings bowled.")
    # a band never breaks across lines ("D =" at a line's end, "under 5" on the next)
    return legend.replace(" = ", "\u00a0=\u00a0").replace("under ", "under\u00a0")


def phase_legend(hundred: bool) -> str:
    """What the bowlers' PP / Mid / Death columns mean, with the format's own phases."""
    ranges = phase_ranges(100 if hundred else 120)
    unit, per = ("balls", 1) if hundred else ("overs", 6)
    spans = [f"{(lo - 1) // per + 1}-{hi // per}" for lo, hi in ranges]
    return (f"PP / Mid / Death: the share of the bowler's balls this season in the powerplay "
            f"({unit} {spans[0]}), the middle ({spans[1]}) and the death ({spans[2]}): bowl them "
            "there to play like the real side.")


def phase_shares(real: RealFigures) -> list[str]:
    """A bowler's PP / Mid / Death shares as printed ("26%"); blanks when the set has none."""
    balls = real.phase_balls or PhaseBalls()
    total = sum(int(balls.get(p, 0)) for p in PHASES)
    return [f"{round(100 * int(balls.get(p, 0)) / total)}%" if total else "" for p in PHASES]


def _fits(flowables: list[Flowable], width: float, height: float) -> bool:
    """Whether the flowables fit a width x height frame at full size: KeepInFrame's "error" mode
    measures them as a frame would and raises when they do not fit."""
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.platypus.doctemplate import LayoutError
    try:
        KeepInFrame(width, height, flowables, mode="error").wrapOn(Canvas(io.BytesIO()), width, height)
    except LayoutError:
        return False
    return True


def render_team_sheets_pdf(card_set: CardSet, paper: str, credit: str) -> bytes:
    spec = load_layout("sheets")["team_sheet"]
    st = _styles(spec)
    title = f"{set_title(card_set)} team sheets"
    doc, buf = flowing_document(paper, title, credit, spec["margin_mm"])
    season = printed_season(card_set)
    story: list[Flowable] = []
    defence = has_defence(card_set)
    own = card_set.own_league
    rules = rules_title(card_set)   # every team's legend names the rules its cards are made for
    # a set with Defence ratings (R13) gets their column; the player column gives it the room
    widths: list[float] = [8, 52, 28, 26, 28, 14, 18] if defence else [8, 56, 28, 26, 28, 14]
    header = ["Player", "Role", "Wicketkeeper", "Fielding", "Cards"] + (["Defence"] if defence else [])
    if own:   # a league's: each player's season and real side, and his points
        # the Wicketkeeper heading needs its 26 mm, as on a season's sheet (names are fitted)
        widths = ([8, 27, 21, 26, 24, 11, 16, 30, 13] if defence else [8, 33, 23, 26, 24, 11, 35, 14])
        header += ["From", "Pts"]
    from_column = (len(header) - 1,) if own else ()   # the "From" column, fitted like names
    decks = team_decks(card_set)

    def team_parts(deck: Deck, last: bool, padding: float) -> tuple[list[Flowable], list[Flowable]]:
        """A team's sheet: its decks, and its bowlers by usage (tables with `padding` above and
        below each row's text)."""
        team = deck.team
        part: list[Flowable] = []
        short = team.short_name
        heading = (f"{team.name} \u2014 {own.name}" if own else f"{team.name} \u2014 {season}")
        part.append(Paragraph(escape(heading + (f" (cards: {short})" if short and short != team.name else "")),
                              st["title"]))
        if own:
            cap = own.cap
            over = cap is not None and float(team.points or 0) > float(cap)
            part.append(Paragraph(escape(
                f"Side's points: {points_text(team.points)}"
                + (f" (cap {cap:g}{': OVER THE CAP' if over else ''})" if cap is not None else "")
                + f", its XI together as it takes the field (its XI's own points add up to "
                  f"{points_text(team.extra.get('xi_points'))}). Pts = runs a match the player adds over an "
                  f"average player of {own.baseline} (batting in his usual place, bowling his usual "
                  "overs, fielding); in the bowlers' table, his bowling's part."), st["body"]))
        part.append(Paragraph("Deck 1: batting order (usual XI)", st["heading"]))
        # the marks in the tables below, "*" as the rules' player roles use it
        part.append(Paragraph("\u2020 = the XI's wicketkeeper. Role * = mainly a bowler. Cards: S = striker, "
                              "B = bowler." + (DEFENCE_LEGEND if defence else "") + f" Cards made for the {rules}.",
                              st["body"]))
        part.append(Spacer(1, 1.5 * MM))
        rows = [["#"] + header]
        rows += [_player_row(pid, deck, n, defence, own is not None) for n, pid in enumerate(deck.xi, 1)]
        part.append(_table(_fit_names(rows, widths, spec["text_pt"], from_column), widths, spec["text_pt"], padding))
        for n, line in enumerate(no_striker_card_lines(card_set, deck)):
            if not n:
                part.append(Spacer(1, 1 * MM))
            part.append(Paragraph(escape(line), st["body"]))
        part.append(Paragraph("Deck 2: reserves", st["heading"]))
        # a squad member who neither batted nor bowled has no card, so cannot join a deck
        reserves = [pid for pid in deck.reserves if pid in deck.players]
        if reserves:
            rows = [[""] + header]
            rows += [_player_row(pid, deck, None, defence, own is not None) for pid in reserves]
            part.append(_table(_fit_names(rows, widths, spec["text_pt"], from_column), widths, spec["text_pt"], padding))
        else:
            part.append(Paragraph("(none in this set)", st["body"]))
        reserve_line = reserves_without_striker_card_line(card_set, deck)
        if reserve_line:
            part.append(Spacer(1, 1 * MM))
            part.append(Paragraph(escape(reserve_line), st["body"]))
        if len(reserves) < len(deck.reserves):
            missing = len(deck.reserves) - len(reserves)
            part.append(Paragraph(f"{missing} more squad player{'s' if missing > 1 else ''} without a card "
                                  "(no ball batted or bowled this season).", st["small"]))
        hundred = card_set.hundred  # balls, not 5-ball overs, beside Econ per 6
        bowlers_start = len(part)
        part.append(Paragraph("Bowlers by usage", st["heading"]))
        # the table mixes the XI's bowlers and the reserves', who bowl only if picked: the first
        # column gives an XI bowler's batting place (the deck's number), a reserve's is blank
        part.append(Paragraph(escape(usage_legend(hundred) + " " + XI_COLUMN_LEGEND), st["body"]))
        phases = any(c.real.phase_balls for c in card_set.cards)
        if phases:
            part.append(Paragraph(escape(phase_legend(hundred)), st["body"]))
        part.append(Spacer(1, 1.5 * MM))
        rows = [["#", "Bowler", "Usage", "Balls" if hundred else "Overs", "Econ", "Wickets"]
                + (["PP", "Mid", "Death"] if phases else []) + (["Pts"] if own else [])]
        for pid in deck.bowlers:
            info = deck.players.get(pid)
            card = info.cards.get((team.name, "bowler")) if info else None
            if card is None:
                continue
            usage = card.usage or Usage()
            real = card.real
            overs = _blank(real.overs)
            econ = real.economy
            place = str(deck.xi.index(pid) + 1) if pid in deck.xi else ""
            rows.append([place, upper(card.player.name), f"{_blank(usage.letter)}/{_blank(usage.innings)}",
                         _blank(real.balls) if hundred else
                         f"{_blank(real.balls)} b" if card.source and card.source.format == "100-ball" else
                         (overs[:-2] if overs.endswith(".0") else overs),
                         f"{econ:.2f}" if isinstance(econ, (int, float)) else "",
                         _blank(real.dismissals)] + (phase_shares(real) if phases else [])
                        + ([points_text(card.points.bowling if card.points else None)] if own else []))
        bowler_widths: list[float] = [8, 56, 16, 15, 15, 17, 16, 16, 17] if phases else [8, 62, 20, 20, 20, 20]
        if own:
            bowler_widths = [8, 42, 16, 15, 15, 17, 15, 15, 16, 15] if phases else [8, 52, 20, 20, 20, 20, 16]
        part.append(_table(_fit_names(rows, bowler_widths, spec["text_pt"]), bowler_widths, spec["text_pt"], padding))
        # every page's footer carries the credit: the last page printed it again under the
        # bowlers, and that line made the last team's page the one KeepInFrame shrank (BBL
        # 2024-25's Sydney Thunder to 90% on Letter, 97% on A4; helper-44)
        if last and not credit_fits_footer(paper, title, credit, spec["margin_mm"]):
            part.append(Spacer(1, 6 * MM))
            part.append(Paragraph(escape(credit), st["small"]))
        return part[:bowlers_start], part[bowlers_start:]

    for i, deck in enumerate(decks):
        if i:
            story.append(PageBreak())
        # every team's sheet prints at full size (KeepInFrame shrank a big squad's page to fit: an
        # IPL side on US Letter to 83%): one page when it fits, with tighter table rows if need be
        # (the text keeps its size), else its bowlers continue on a second page of their own; each
        # part still shrinks rather than spill should a user's squad outgrow a page
        width, height = doc.width - 2 * FRAME_PADDING_PT, doc.height - 2 * FRAME_PADDING_PT
        last = i == len(decks) - 1
        usual = team_parts(deck, last, spec["row_padding_pt"])
        fitting = usual if _fits(usual[0] + usual[1], width, height) else None
        if fitting is None:
            compact = team_parts(deck, last, spec["compact_row_padding_pt"])
            fitting = compact if _fits(compact[0] + compact[1], width, height) else None
        if fitting is not None:
            story.append(KeepInFrame(width, height, fitting[0] + fitting[1], mode="shrink"))
        else:  # the usual rows, the bowlers on a page of their own
            decks_part, bowlers_part = usual
            decks_part.append(Paragraph("Bowlers by usage: on the next page.", st["body"]))
            story += [KeepInFrame(width, height, decks_part, mode="shrink"), PageBreak(),
                      KeepInFrame(width, height, [Paragraph(escape(f"{deck.team.name} \u2014 {season} (continued)"),
                                                            st["title"])] + bowlers_part, mode="shrink")]
    if not decks:
        story.append(Paragraph(escape(credit), st["small"]))
    doc.build(story)
    return buf.getvalue()


def quick_reference_text(card_set: CardSet, defence: bool | None = None) -> str:
    words = load_layout("fielding")
    hundred = card_set.hundred
    # only the results some card of this set prints (no "3" when no card has one)
    used = {r.result for card in card_set.cards for r in card.chart}
    card_results = {code: text for code, text in words["card_results"].items() if code in used or not used}
    # the text is reportlab markup (the template's <b>): names from a user's competitions file
    # ("League <Women>", "A&B") are escaped so they print as written
    competition = _competition(card_set)
    # the six run-out rows in one line, rows that say the same thing together ("1, 3 striker, ...")
    groups: dict[str, list[str]] = {}
    for row, text in words["run_out_rows"].items():
        groups.setdefault(text, []).append(row)
    run_out_groups = [(", ".join(rows), text) for text, rows in groups.items()]
    return text_template("quick-reference.txt.j2").render(
        competition=competition, season=escape(printed_season(card_set)), format=_format(card_set),
        heading=escape(season_name(card_set)),
        league={k: escape(str(v)) for k, v in card_set.own_league.to_json().items() if k in ("name", "baseline")}
        if card_set.own_league else None,
        hundred=hundred, balls_per_over=5 if hundred else 6, balls_per_innings=100 if hundred else 120,
        card_results=card_results, fielding=words["results"], run_out_groups=run_out_groups,
        defence=has_defence(card_set) if defence is None else defence, defence_label=DEFENCE_LABEL,
        defence_rule=DEFENCE_RULE_MARKUP, **rules_context(card_set),
        **wickets_in_hand_context(card_set))


def _competition(card_set: CardSet) -> dict[str, Any]:
    """The competition as the templates read it, its name escaped: names from a user's
    competitions file ("League <Women>", "A&B") print as written."""
    doc = card_set.competition.to_json()
    return {**doc, "name": escape(str(doc.get("name", "")))}


def _format(card_set: CardSet) -> str:
    return card_set.format if "format" in card_set.present else "T20"


def _blank(value: object) -> str:
    """A figure as a table prints it: blank when the card has none."""
    return "" if value is None else str(value)


def rules_context(card_set: CardSet) -> dict[str, Any]:
    """The templates' view of the rule set the cards are made for (`cardgen.rule_sets`): its
    name as printed, and the command that prints the other rule set's kit of the season."""
    from cardgen.render.common import build_command
    from cardgen.rule_sets import other_rules, rules_of_set
    return {"rules_title": rules_title(card_set),
            "other_command": escape(build_command(str(card_set.competition.code or ""),
                                                  str(card_set.season or ""),
                                                  other_rules(rules_of_set(card_set))))}


def wickets_in_hand_context(card_set: CardSet) -> dict[str, Any]:
    """The template's view of the wickets-in-hand rule (docs/rules.md R12); rule None: as printed."""
    from cardgen.wickets_in_hand import rule_of_set
    rule = rule_of_set(card_set)
    return {"rule": rule, "band_rows": rule.thresholds(100 if card_set.hundred else 120) if rule else [],
            "chase_table": chase_table(rule)}


def chase_table(rule: Any) -> list[list[str]]:
    """The chase line as the rules sheet and the quick reference print it (issue 41), from the
    line itself: a heading row (the runs needed, then each column's wickets in hand), then a
    row per row of the line, its runs needed against the balls left ("> 2, \u2264 2.5 \u00d7 balls
    left") and each cell's band word ("table": read the wickets-in-hand table). []: no line."""
    from cardgen.wickets_in_hand import CELL_WORDS
    line = getattr(rule, "chase_line", None)
    if line is None:
        return []
    edges = [f"{e:g}" for e in line.rate_edges]
    bounds = [None, *edges, None]
    labels = []
    for lo, hi in zip(bounds, bounds[1:]):
        said = ([f"> {lo}"] if lo else []) + ([f"\u2264 {hi}"] if hi else [])
        labels.append(f"{', '.join(said)} \u00d7 balls left" if said else "any")
    head = ["Runs needed (target \u2212 total)"] + [f"{words} in hand" for words in line.column_words()]
    return [head] + [[label] + [CELL_WORDS[c] for c in cells] for label, cells in zip(labels, line.cells)]


def render_quick_reference_pdf(card_set: CardSet, paper: str, credit: str,
                               defence: bool | None = None) -> bytes:
    """One page: dice procedure, card and chart codes, format rules. Text from a jinja2 template:
    lines starting '# ' are headings, '- ' bullets, anything else a paragraph. `defence`: whether
    to say R13 (a one-team kit plays a season whose other cards may be rated); None: whether
    this set has a rated card."""
    return _text_sheet_pdf(quick_reference_text(card_set, defence), f"{set_title(card_set)} quick reference",
                           paper, credit)


def rules_sheet_text(card_set: CardSet) -> str:
    """The advanced kit's rules sheet (templates/rules-sheet.txt.j2): wickets in hand (R12) and
    Defence (R13) in full, in the words of the quick reference, with this set's own table and
    faces, and the readings of the printed rules these cards are played by (docs/rules.md)."""
    hundred = card_set.hundred
    return text_template("rules-sheet.txt.j2").render(
        competition=_competition(card_set), season=escape(printed_season(card_set)), format=_format(card_set),
        hundred=hundred, balls_per_over=5 if hundred else 6, balls_per_innings=100 if hundred else 120,
        defence_label=DEFENCE_LABEL, **rules_context(card_set), **wickets_in_hand_context(card_set))


def render_rules_sheet_pdf(card_set: CardSet, paper: str, credit: str) -> bytes:
    """The advanced rules on one page (`rules_sheet_text`), laid out as the quick reference."""
    return _text_sheet_pdf(rules_sheet_text(card_set), f"{set_title(card_set)} advanced rules", paper, credit)


def _sheet_table_widths(rows: list[list[str]], font_pt: float) -> list[float]:
    """A text sheet's table columns (mm): the label column 46, the others 12 (a number each, the
    wickets-in-hand table), either wider where a cell needs it (the chase line's band words)."""
    pad = 2 * CELL_PADDING_PT / MM
    widest = [max(text_width_mm(str(row[k]), "bold", font_pt) for row in rows if k < len(row)) + pad
              for k in range(max(len(row) for row in rows))]
    return [max(46.0 if k == 0 else 12.0, round(w + 0.5, 1)) for k, w in enumerate(widest)]


def _text_sheet_pdf(sheet: str, title: str, paper: str, credit: str) -> bytes:
    """A one-page sheet from template text: the first line its title, lines starting '# '
    headings, '- ' bullets, '|' table rows (consecutive rows one table), anything else a
    paragraph (reportlab markup: the templates' <b>, everything else escaped)."""
    spec = load_layout("sheets")["quick_reference"]
    st = _styles(spec)
    doc, buf = flowing_document(paper, title, credit, spec["margin_mm"])
    story: list = []
    for n, line in enumerate(sheet.splitlines()):
        text = line.rstrip()
        if not text:
            continue
        if n == 0:
            story.append(Paragraph(text, st["title"]))
        elif text.startswith("# "):
            story.append(Paragraph(text[2:], st["heading"]))
        elif text.startswith("- "):
            story.append(Paragraph(text[2:], st["bullet"], bulletText="\u2022"))
        elif text.startswith("|"):   # table rows | a | b |: consecutive rows make one table
            cells = [c.strip() for c in text.strip("|").split("|")]
            rows = (story.pop()._cardgen_rows if story and hasattr(story[-1], "_cardgen_rows")
                    else []) + [cells]
            table = _table(rows, _sheet_table_widths(rows, spec["text_pt"] - 0.5), spec["text_pt"] - 0.5)
            table.setStyle(TableStyle([("TOPPADDING", (0, 0), (-1, -1), 0.6),
                                       ("BOTTOMPADDING", (0, 0), (-1, -1), 0.6)]))
            table._cardgen_rows = rows
            story.append(table)
        else:
            story.append(Paragraph(text, st["body"]))
    # the footer prints the credit in one line; a credit too long for it (a custom attribution)
    # is printed whole under the text as well, where it wraps
    if not credit_fits_footer(paper, title, credit, spec["margin_mm"]):
        story.append(Spacer(1, 4 * MM))
        story.append(Paragraph(escape(credit), st["small"]))
    # one page whatever the set prints (a set with Defence ratings has a line more, R13): a page
    # that would spill shrinks a little instead; one that fits is drawn as before
    doc.build([KeepInFrame(doc.width - 2 * FRAME_PADDING_PT, doc.height - 2 * FRAME_PADDING_PT, story,
                           mode="shrink")])
    return buf.getvalue()
