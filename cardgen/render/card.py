"""One player card: the printed strings (CardView) and the drawing (draw_card, draw_back).

The strings follow the rules' "How to read a card": competition line, name upper-cased, season
and team, role and home nation, BOWLER/STRIKER, C(x) / RO(y) on strikers (and "Defence N" on the
few that carry one, docs/rules.md R13), the 1-100 chart in two columns, usage and stats, and the
data credit.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from collections.abc import Sequence
from typing import Any

from cardgen import ATTRIBUTION
from cardgen.calibrate.model import DEFAULT_KEEPER
from cardgen.cardset import Card, CardSet, Player, Team
from cardgen.competitions import get_competition
from cardgen.errors import UnknownCompetition
from cardgen.fingerprint import content_digest
from cardgen.render.common import printed_season, printed_season_of
from cardgen.render.fonts import fit_text, text_width_mm, upper
from cardgen.render.layout import hex_to_rgb, load_layout, mix
from cardgen.render.painter import Painter
from cardgen.rule_sets import rules_of_set

RESULT_GLYPHS = {"0": "\u2022"}  # the rules print a dot ball as a bullet
RUN_RESULTS = frozenset({"1", "2", "3", "4", "6"})
WICKET_RESULTS = frozenset({"W", "B"})


def chart_faces(card: Card) -> set[str]:
    """The results a card's chart prints, for the notes that explain a missing one (the card's and
    the site's player page's)."""
    return {str(r.result) for r in card.chart}


def _count(value: int | None) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def column_notes(card: Card) -> tuple[str, ...]:
    """The notes a card prints where its chart lacks a result its own printed stats show (keys of
    templates/card.json column_note), so the card is not taken for a misprint: a striker card with
    runs but no run face (Lea Tahuhu; a tail-ender's short stay in the wickets-in-hand rule's
    attack band: Spencer Johnson, BBL 2024-25, all dots), with 4s but no 4 (Jamie Overton, BBL
    2024-25: "4s: 11") or 6s but no 6; a bowler card with wickets but no W or B (Matheesha
    Pathirana, IPL 2025: 13 wickets) or runs but no run face (Jasprit Bumrah, IPL 2025). Each
    note says where those results come from, in the rule set's words (`note_rules`). A result the
    stats do not show (a striker's missing B) needs none."""
    results = chart_faces(card)
    real = card.real
    if card.kind == "striker":
        if _count(real.runs) > 0 and not results & RUN_RESULTS:
            return ("striker_no_runs",)
        no_four = _count(real.fours) > 0 and "4" not in results
        no_six = _count(real.sixes) > 0 and "6" not in results
        if no_four and no_six:
            return ("striker_no_boundaries",)
        return ("striker_no_4",) if no_four else ("striker_no_6",) if no_six else ()
    return ((("bowler_no_wickets",) if _count(real.dismissals) > 0 and not results & WICKET_RESULTS else ())
            + (("bowler_no_runs",) if _count(real.runs) > 0 and not results & RUN_RESULTS else ()))


def note_rules(card_set: CardSet) -> str:
    """The rule set a card prints for (its rules mark, its notes' words: column_note texts):
    `cardgen.rule_sets.rules_of_set`, the one reading of a set's `rules` (and older `rule`)
    field: "advanced" (the attack die also scores) or "quicket" (the rules as printed)."""
    return rules_of_set(card_set)


BLACK, WHITE = "#000000", "#ffffff"


@dataclass(frozen=True)
class CardView:
    """Everything printed on one card, as text, plus how to colour it."""
    kind: str  # "striker" | "bowler"
    team: str
    team_colour: str
    team_code: str  # initials in the band's corner badge: teams differ without colour too
    competition_line: str
    name: str
    season_team: str
    role: str
    nation: str
    ratings: str  # striker: "C(3) / RO(4)"; bowler: ""
    chart: tuple[tuple[str, str], ...]  # (range, result) in order
    usage: str  # bowler: "A/11"; striker: ""
    stats: tuple[tuple[str, ...], ...]  # lines of items, e.g. (("SR: 131.46", "Balls: 267"), ...)
    small_sample: bool = False
    credit: str = ATTRIBUTION
    sort_key: tuple[Any, ...] = field(default=(), compare=False)
    defence: str = ""  # striker with a Defence rating (R13): "Defence 7"; else ""
    # a card whose chart lacks a result its stats show (no run face, no 4, a bowler's no W or B):
    # the notes saying where those come from, printed in the blank ranges (templates/card.json
    # column_note: their keys), in the words of the set's rules ("quicket" | "advanced")
    column_notes: tuple[str, ...] = ()
    # a league's card (docs/league.md): its points, as printed small in the stats box ("Pts +6.2")
    points: str = ""
    note_rules: str = "quicket"

    def all_text(self) -> list[str]:
        """Every figure printed on the card (what a reader of the PDF must find)."""
        items = [self.name, self.team_code, self.role_bar, self.usage, self.ratings, self.defence,
                 self.points]
        items += [i for line in self.stats for i in line]
        items += [r for r, _ in self.chart]
        return [i for i in items if i]

    @property
    def role_bar(self) -> str:
        return "BOWLER" if self.kind == "bowler" else "STRIKER"


def points_text(value: float | None) -> str:
    """Points as printed: '+6.2', '-1.4', '0.0'."""
    if value is None:
        return ""
    return f"{value:+.1f}" if round(value, 1) else "0.0"


def source_line(card: Card, compact: bool = False) -> str:
    """A league card's season and real side, as its line C prints them: 'BBL 2023-2024 Sydney (S)'
    (`compact`, for a table's narrow column: 'BBL 2023-24 Sydney (S)')."""
    src = card.source
    if src is None:
        return ""
    code, season = str(src.competition or ""), str(src.season or "")
    return (f"{code} {season if compact else printed_season_of(code, season)} "
            f"{src.team_short or src.team or ''}").strip()


def competition_line(card_set: CardSet) -> str:
    own = card_set.own_league
    if own:   # a league of your own: its name (each card's line C says its season)
        return str(own.name or card_set.competition.name or "")
    comp = card_set.competition
    try:
        return get_competition(comp.code).code_label
    except UnknownCompetition:
        sex = "Women's" if comp.sex == "women" else "Men's"
        code = "100-Ball" if card_set.hundred else "T20"
        return f"{comp.nation or ''} {sex} Pro {code} Cricket".strip()


def overs_printed(text: str) -> str:
    """'41.0' -> '41' (as the rules' example prints it); '20.1' stays."""
    return text[:-2] if text.endswith(".0") else text


def _range_text(lo: int, hi: int) -> str:
    return str(lo) if lo == hi else f"{lo}-{hi}"


def _known_teams() -> dict[str, dict[str, Any]]:
    """templates/teams.json's table of real teams: name -> colour, short name, badge code."""
    return {k: v for k, v in load_layout("teams")["teams"].items() if isinstance(v, dict)}


def team_colours(team_names: list[str]) -> dict[str, str]:
    """Colour per team: the team's own from the table of real teams, else the palette in order
    of first use."""
    spec = load_layout("teams")
    known = _known_teams()
    palette = list(spec["palette"])
    colours: dict[str, str] = {}
    for name in team_names:
        if known.get(name, {}).get("colour"):
            colours[name] = known[name]["colour"]
        else:
            # a stable pick (sha256, not hash()) so a team keeps its colour between runs
            index = int(content_digest(name.encode()), 16) % len(palette)
            while palette[index] in colours.values() and len(colours) < len(palette):
                index = (index + 1) % len(palette)
            colours[name] = palette[index]
    return colours


def _relative_luminance(colour: str) -> float:
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(c) for c in hex_to_rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""
    hi, lo = sorted((_relative_luminance(a), _relative_luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


WHITE_TEXT_CONTRAST = 4.0  # white stays on a band it reads on (Sydney Sixers' magenta: 4.4)


def text_on(colour: str) -> str:
    """The band's text colour: white where it reads (Mumbai's blue, Sixers' magenta), else black
    (Chennai's yellow, Perth's orange)."""
    white = contrast(WHITE, colour)
    return WHITE if white >= WHITE_TEXT_CONTRAST or white >= contrast(BLACK, colour) else BLACK


def ink_of(colour: str, on: str = WHITE, ratio: float = 4.5) -> str:
    """`colour` darkened just enough to read as text on `on` (WCAG AA): a team colour as text on
    a card back's pale band (Chennai's yellow becomes a dark gold); a dark colour stays itself."""
    r, g, b = hex_to_rgb(colour)
    for step in range(101):
        k = 1 - step / 100
        candidate = "#" + "".join(f"{round(255 * c * k):02x}" for c in (r, g, b))
        if contrast(candidate, on) >= ratio:
            return candidate
    return BLACK


def team_codes(team_names: list[str]) -> dict[str, str]:
    """The badge code per team: the table's where the real one is not the initials ("SRH",
    "PBKS"), else initials ("Perth Scorchers" -> "PS"), a one-word name's first three letters
    ("Wellington" -> "WEL", not a lone "W" that reads like the chart's wicket), made unique with
    a number if two clash."""
    known = _known_teams()
    codes: dict[str, str] = {}
    for name in team_names:
        words = [w for w in name.replace("(", " ").replace(")", " ").split() if w[:1].isalnum()]
        if isinstance(known.get(name, {}).get("code"), str):
            base = known[name]["code"]
        elif len(words) == 1:
            base = "".join(ch for ch in words[0] if ch.isalnum()).upper()[:3]
        else:
            base = "".join(w[0] for w in words).upper()[:3] or "?"
        code, n = base, 2
        while code in codes.values():
            code, n = f"{base}{n}", n + 1
        codes[name] = code
    return codes


def defence_rating(card: Card) -> int | None:
    """A striker card's Defence rating (docs/rules.md R13), None when it has none; a bad one is a
    CardSetError (`Card.defence_rating`, the one reading of the field)."""
    return card.defence_rating or None


def printed_keeper_rating(player: Player, keeps: bool = False) -> int | None:
    """The keeping rating a card, team sheet or player page prints: the player's own, or, for a
    wicketkeeper (by role, or `keeps`: the XI's keeper) who has none because he kept in no match
    of the season, the rating the engine keeps him at (docs/rules.md R9), so no sheet leaves a
    keeper's stumping chance to be guessed; None for anyone else without one."""
    rating = player.keeper
    if isinstance(rating, int) and not isinstance(rating, bool) and rating > 0:
        return rating
    if keeps or player.batting_role == "Wicketkeeper":
        return DEFAULT_KEEPER
    return None


def keeper_mark(rating: int) -> str:
    """A keeping rating as every printed piece writes it, the role line's "Wicketkeeper (8)"."""
    return f"Wicketkeeper ({rating})"


RATINGS_GAP_MM = 3.0  # at least this much space between the fielding ratings and Defence


def ratings_line(parts: list[str], defence: str) -> str:
    """The fielding ratings as the card prints them, "C(3) / RO(4)"; closed up to "C(3)/RO(4)"
    only when the line would not fit beside `defence` at the smallest size (a stand-in keeper's
    "C(20) / RO(20) / Wicketkeeper (20)" beside a "Defence 20")."""
    spaced = " / ".join(parts)
    if not defence:
        return spaced
    L = load_layout("card")
    inner, spec = L["width_mm"] - 2 * L["margin_mm"], L["ratings"]
    fits = (text_width_mm(spaced, spec["font"], spec["min_pt"]) + text_width_mm(defence, spec["font"], spec["min_pt"])
            + RATINGS_GAP_MM <= inner)
    return spaced if fits else "/".join(parts)


def _role(card: Card) -> str:
    player = card.player
    batting = player.batting_role or ""
    bowling = player.bowling_role or ""
    keeper = printed_keeper_rating(player)
    if card.kind == "striker":
        if batting == "Wicketkeeper" and keeper:
            return keeper_mark(keeper)
        return batting or "Batter"
    if batting == "All-Rounder":
        return "All-Rounder" if bowling in ("", "*") else f"All-Rounder \u00b7 {bowling}"
    return bowling or "Bowler"


def _stats(card: Card, balls_per_over: int) -> tuple[tuple[str, ...], ...]:
    real = card.real
    balls = int(real.balls or 0)
    runs = int(real.runs or 0)
    if card.kind == "bowler":
        economy = real.economy
        if economy is None:
            economy = runs / balls * 6 if balls else 0.0  # runs per six balls, as the stats table
        if balls_per_over != 6:
            # 100-ball: 5-ball "overs" beside an economy per 6 balls would not agree; print balls
            return ((f"Econ: {float(economy):.2f}",), (f"Balls: {balls}",),
                    (f"Wickets: {int(real.dismissals or 0)}",))
        overs = real.overs or f"{balls // balls_per_over}.{balls % balls_per_over}"
        return ((f"Econ: {float(economy):.2f}",), (f"Overs: {overs_printed(str(overs))}",),
                (f"Wickets: {int(real.dismissals or 0)}",))
    strike_rate = real.strike_rate
    if strike_rate is None:
        strike_rate = runs / balls * 100 if balls else 0.0
    high = f"{int(real.high_score or 0)}{'*' if real.high_score_not_out else ''}"
    return ((f"SR: {float(strike_rate):.2f}", f"Balls: {balls}"),
            (f"High: {high}", f"4s: {int(real.fours or 0)}",
             f"6s: {int(real.sixes or 0)}"))


def deck_order(teams: Sequence[Team]) -> dict[tuple[str, str], tuple[int, int]]:
    """(team, player id) -> (deck, place): deck 0 is the usual XI in batting order, deck 1 the
    reserves in the team sheet's order (rules 1.5). Players in neither are not listed."""
    order: dict[tuple[str, str], tuple[int, int]] = {}
    for team in teams:
        for deck, ids in enumerate((team.batting_order, team.reserves)):
            for place, pid in enumerate(ids):
                order.setdefault((team.name, pid), (deck, place))
    return order


def card_views(card_set: CardSet) -> list[CardView]:
    """Every card of the set as printed: by team, then in the order of the team's two decks (the
    usual XI in batting order, then the reserves, as the team sheet lists them), a player's
    striker card before his bowler card; so the cut sheets stack straight into the decks. A card
    whose player is in neither deck (a set without line-ups) follows, by batting position."""
    decks = deck_order(card_set.teams)
    team_order = card_set.team_names()
    short = {t.name: t.short_name or t.name for t in card_set.teams}
    colours = team_colours(team_order)
    codes = team_codes(team_order)
    balls_per_over = card_set.balls_per_over
    line_a = competition_line(card_set)
    season = printed_season(card_set)
    league = card_set.own_league is not None
    views = []
    for card in card_set.cards:
        player = card.player
        defence = defence_rating(card)
        ratings = ""
        if card.kind == "striker":
            parts = []
            if player.catch is not None:
                parts.append(f"C({player.catch})")
            if player.run_out is not None:
                parts.append(f"RO({player.run_out})")
            if player.keeper and player.batting_role != "Wicketkeeper":
                parts.append(keeper_mark(player.keeper))
            ratings = ratings_line(parts, f"Defence {defence}" if defence else "")
        usage = ""
        if card.kind == "bowler" and card.usage:
            usage = f"{card.usage.letter or ''}/{card.usage.innings or 0}"
        chart = tuple((_range_text(int(r.lo), int(r.hi)), RESULT_GLYPHS.get(r.result, r.result))
                      for r in card.chart)
        position = card.position if isinstance(card.position, int) else 99
        views.append(CardView(
            kind=card.kind, team=card.team, team_colour=colours[card.team],
            team_code=codes[card.team],
            competition_line=line_a, name=upper(player.name),
            season_team=(source_line(card) if league else f"{season} {short.get(card.team, card.team)}"),
            role=_role(card), nation=player.country or "",
            ratings=ratings, chart=chart, usage=usage,
            # a league's card prints its own season's figures: a 100-ball season's in balls
            stats=_stats(card, 5 if card.source and card.source.format == "100-ball" else balls_per_over),
            small_sample=bool(card.small_sample),
            credit=card_set.attribution or ATTRIBUTION,
            defence=f"Defence {defence}" if defence else "",
            column_notes=column_notes(card), note_rules=note_rules(card_set),
            points=f"Pts {points_text(card.points.card if card.points else None)}" if league else "",
            sort_key=(team_order.index(card.team), decks.get((card.team, player.id), (2, 0)), position,
                      0 if card.kind == "striker" else 1, player.name, player.id)))
    return sorted(views, key=lambda v: v.sort_key)


# ---------------------------------------------------------------------------------------- drawing

def _fitted_line(p: Painter, text: str, x: float, baseline: float, width: float, spec: dict,
                 colour: str, align: str = "left") -> None:
    fitted = fit_text(text, spec["font"], width, spec["max_pt"], spec["min_pt"])
    p.text(x, baseline, fitted.lines[0], spec["font"], fitted.size_pt, colour, align)


def draw_card(p: Painter, view: CardView, ink_saver: bool = False, bleed: float = 0.0) -> None:
    """Draw one card with its top-left corner at the painter's origin (bleed extends outside)."""
    L = load_layout("card")
    W, H, m = L["width_mm"], L["height_mm"], L["margin_mm"]
    inner = W - 2 * m
    bowler = view.kind == "bowler"
    band_h = L["band"]["height_mm"]

    # A: the band. Bowler: solid team colour, white text. Striker: a light tint, dark text.
    # In greyscale that is dark vs light; --ink-saver keeps only outlines (double for bowlers).
    if ink_saver:
        band_text = BLACK
        line = 0.9 if bowler else 0.3  # heavy frame for bowlers, light for strikers
        p.rect(line / 2, line / 2, W - line, band_h - line / 2, stroke=view.team_colour, width=line)
    else:
        fill = view.team_colour if bowler else mix(view.team_colour, 1 - L["band"]["striker_tint"])
        band_text = text_on(fill)  # white on a dark team colour, black on a light one (or the tint)
        p.rect(-bleed, -bleed, W + 2 * bleed, band_h + bleed, fill=fill)
        if not bowler:
            rule = L["band"]["striker_rule_mm"]
            p.rect(-bleed, band_h - rule, W + 2 * bleed, rule, fill=view.team_colour)
    if not bleed:
        p.rect(0, 0, W, H, stroke=L["outline"]["colour"], width=L["outline"]["width_mm"])

    badge = L["badge"]
    bx = W - m - badge["width_mm"]
    p.rect(bx, badge["top_mm"], badge["width_mm"], badge["height_mm"], stroke=band_text,
           width=badge["line_mm"])
    code = fit_text(view.team_code, "bold", badge["width_mm"] - 1, badge["pt"], 4.5)
    p.text(bx + badge["width_mm"] / 2, badge["top_mm"] + badge["height_mm"] / 2 + code.size_pt * 0.36 / 72 * 25.4,
           code.lines[0], "bold", code.size_pt, band_text, "centre")
    _fitted_line(p, view.competition_line, m, L["competition"]["baseline_mm"],
                 inner - badge["width_mm"] - 1.5, L["competition"], band_text)
    # B: the name, shrunk (and if need be wrapped) to fit
    ns = L["name"]
    name = fit_text(view.name, ns["font"], inner, ns["max_pt"], ns["min_pt"], ns["max_lines"],
                    ns["wrap_below_pt"])
    line_h = name.size_pt * 1.08 / 72 * 25.4
    block_h = line_h * (len(name.lines) - 1)
    centre = (ns["top_mm"] + ns["bottom_mm"]) / 2
    cap_h = name.size_pt * 0.73 / 72 * 25.4
    first_baseline = centre - block_h / 2 + cap_h / 2
    for i, text in enumerate(name.lines):
        p.text(m, first_baseline + i * line_h, text, ns["font"], name.size_pt, band_text)
    # C: season and team
    _fitted_line(p, view.season_team, m, L["season_team"]["baseline_mm"], inner,
                 L["season_team"], band_text)
    # D: role and home nation
    rs = L["role_line"]
    # role left, nation right; each keeps its full size when both fit the line, else they share
    # it in proportion to their lengths (nothing is cut that fits)
    gap = 2.0
    role_w = text_width_mm(view.role, rs["font"], rs["max_pt"])
    nation_w = text_width_mm(view.nation, rs["font"], rs["max_pt"]) if view.nation else 0.0
    if role_w + nation_w + gap > inner:
        share = (inner - gap) / (role_w + nation_w)
        role_w, nation_w = role_w * share, nation_w * share
    _fitted_line(p, view.role, m, rs["baseline_mm"], max(role_w, 1.0), rs, BLACK)
    if view.nation:
        _fitted_line(p, view.nation, W - m, rs["baseline_mm"], max(nation_w, 1.0), rs, BLACK, "right")
    # E: role bar. Bowler: solid black; striker: outlined (clear in greyscale and ink-saver).
    rb = L["role_bar"]
    bar_y, bar_h = rb["top_mm"], rb["height_mm"]
    baseline = bar_y + bar_h / 2 + rb["pt"] * 0.36 / 72 * 25.4
    if bowler and not ink_saver:
        p.rect(m, bar_y, inner, bar_h, fill=BLACK)
        p.text(W / 2, baseline, view.role_bar, rb["font"], rb["pt"], WHITE, "centre")
    else:
        p.rect(m, bar_y, inner, bar_h, stroke=BLACK, width=rb["border_mm"])
        if bowler:  # ink-saver bowler: a second, inner outline instead of the fill
            p.rect(m + 0.9, bar_y + 0.9, inner - 1.8, bar_h - 1.8, stroke=BLACK, width=0.25)
        p.text(W / 2, baseline, view.role_bar, rb["font"], rb["pt"], BLACK, "centre")
    # F (striker): fielding ratings, and the batter's Defence rating (R13) when the card has one
    _draw_ratings(p, view, L)
    _draw_chart(p, view, L, ink_saver)
    _draw_stats(p, view, L)
    # the rules mark, then the credit line in what the mark leaves of the width
    mark_right = _draw_rules_mark(p, view, L)
    cs = L["credit"]
    left = mark_right + L["rules_mark"]["gap_mm"]
    width = W - m - left
    credit = fit_text(view.credit, cs["font"], width, cs["max_pt"], cs["min_pt"], cs["max_lines"], cs["max_pt"])
    step = credit.size_pt * 1.15 / 72 * 25.4
    top = cs["bottom_mm"] - step * (len(credit.lines) - 1)
    for i, text in enumerate(credit.lines):
        p.text(left + width / 2, top + i * step, text, cs["font"], credit.size_pt, "#333333", "centre")


def rules_mark_lines(view: CardView) -> tuple[str, ...]:
    """The rules mark's lines, as the card prints them ("Quicket", "rules")."""
    return tuple(load_layout("card")["rules_mark"]["lines"][view.note_rules])


def _draw_rules_mark(p: Painter, view: CardView, L: dict) -> float:
    """The boxed two-line rules mark at the credit line's left (templates/card.json rules_mark);
    the x of its right edge."""
    rm = L["rules_mark"]
    x, w = rm["left_mm"], rm["width_mm"]
    p.rect(x, rm["top_mm"], w, rm["bottom_mm"] - rm["top_mm"], stroke=rm["colour"], width=rm["line_mm"])
    for line, baseline in zip(rules_mark_lines(view), rm["baselines_mm"]):
        p.text(x + w / 2, baseline, line, rm["font"], rm["pt"], rm["colour"], "centre")
    return x + w


def _draw_ratings(p: Painter, view: CardView, L: dict) -> None:
    """The ratings line: C / RO (/ WK) centred, as every card without a Defence rating prints it.
    With one, the fielding ratings go left and "Defence N" right (as the role and nation line
    above), both at one size: the line's full size unless the two do not fit, then shrunk together
    (a C(20) / RO(20) / WK(20) beside a Defence 20 is 62 mm at 8.5 pt on a 56.6 mm line)."""
    rs = L["ratings"]
    W, m = L["width_mm"], L["margin_mm"]
    inner = W - 2 * m
    if not view.defence or not view.ratings:
        text = view.ratings or view.defence
        if text:
            _fitted_line(p, text, W / 2, rs["baseline_mm"], inner, rs, BLACK, "centre")
        return
    gap = RATINGS_GAP_MM
    natural = text_width_mm(view.ratings, rs["font"], 1.0) + text_width_mm(view.defence, rs["font"], 1.0)
    size = max(rs["min_pt"], min(rs["max_pt"], (inner - gap) / natural))
    p.text(m, rs["baseline_mm"], view.ratings, rs["font"], size, BLACK)
    p.text(W - m, rs["baseline_mm"], view.defence, rs["font"], size, BLACK, "right")


def chart_slots(view: CardView) -> list[tuple[int, int, str, str]]:
    """(column, row, range, result) for every place on the chart: B W F \u2022 down the left
    column, 1 2 4 6 down the right (the rules' order), each always in the same place; a result the
    card lacks keeps its place with the range left blank. A result outside those eight (a "3" in
    a hand-made card set) goes in an extra row below, left column first."""
    slots = [[RESULT_GLYPHS.get(code, code) for code in column]
             for column in load_layout("card")["chart"]["slots"]]
    ranges = {result: span for span, result in view.chart}  # results as printed (dot = bullet)
    placed = [(col, row, ranges.get(result, ""), result)
              for col, column in enumerate(slots) for row, result in enumerate(column)]
    rows = max(len(column) for column in slots)
    known = {r for column in slots for r in column}
    extra = [(span, result) for span, result in view.chart if result not in known]
    for i, (span, result) in enumerate(extra):
        row, col = divmod(i, len(slots))
        placed.append((col, rows + row, span, result))
    return placed


def _draw_chart(p: Painter, view: CardView, L: dict, ink_saver: bool) -> None:
    cs = L["chart"]
    W, m = L["width_mm"], L["margin_mm"]
    half = (W - 2 * m) / 2
    slots = chart_slots(view)
    rows = max(row for _, row, _, _ in slots) + 1
    top = cs["top_mm"]
    # the usual four rows fill the space down to the stats box; extra rows squeeze into it
    row_h = min(cs["row_mm"], cs["row_mm"] * cs["rows"] / rows)
    for col, row, span, result in slots:
        x0 = m + col * half
        baseline = top + row * row_h + row_h / 2 + cs["range_pt"] * 0.36 / 72 * 25.4
        if span:
            fitted = fit_text(span, cs["range_font"], cs["range_right_mm"] - 1.0, cs["range_pt"], 7.0)
            p.text(x0 + cs["range_right_mm"], baseline, fitted.lines[0], cs["range_font"], fitted.size_pt,
                   BLACK, "right")
        p.text(x0 + cs["result_centre_mm"], baseline, result, cs["result_font"], cs["result_pt"],
               BLACK if span else cs["absent_colour"], "centre")
    notes = [L["column_note"][key] for key in view.column_notes]
    for note in notes:
        _draw_column_note(p, note["text"][view.note_rules], m + note["column"] * half,
                          top + note["first_row"] * row_h, note["rows"] * row_h, L["column_note"])
    for r in range(rows + 1):
        y = top + r * row_h
        for col in range(2):  # a rule stops short of the note its column prints across its rows
            x0 = m + col * half
            inside = any(col == note["column"] and note["first_row"] < r < note["first_row"] + note["rows"]
                         for note in notes)
            start = x0 + L["column_note"]["left_mm"] + L["column_note"]["width_mm"] + 0.5 if inside else x0
            p.line(start, y, x0 + half, y, cs["rule_colour"], cs["rule_width_mm"])
    p.line(W / 2, top, W / 2, top + rows * row_h, cs["rule_colour"], cs["rule_width_mm"])


def wrap_words(text: str, style: str, size_pt: float, width_mm: float) -> list[str]:
    """`text` in lines of whole words no wider than `width_mm` (a longer word keeps its own line)."""
    lines: list[str] = []
    for word in text.split():
        joined = f"{lines[-1]} {word}" if lines else word
        if lines and text_width_mm(joined, style, size_pt) <= width_mm:
            lines[-1] = joined
        else:
            lines.append(word)
    return lines


def _draw_column_note(p: Painter, text: str, x: float, top: float, height: float, spec: dict) -> None:
    """A column note's lines, centred down the rows it covers."""
    lines = wrap_words(text, spec["font"], spec["pt"], spec["width_mm"])
    step = spec["pt"] * spec["leading"] / 72 * 25.4
    first = top + (height - step * len(lines)) / 2 + spec["pt"] * 0.8 / 72 * 25.4  # the first baseline
    for i, line in enumerate(lines):
        p.text(x + spec["left_mm"], first + i * step, line, spec["font"], spec["pt"], spec["colour"])


def _draw_stats(p: Painter, view: CardView, L: dict) -> None:
    ss = L["stats"]
    W, m = L["width_mm"], L["margin_mm"]
    top, bottom = ss["top_mm"], ss["bottom_mm"]
    label_base = top + 2.6
    x = m
    if view.kind == "bowler":
        uw = ss["usage_width_mm"]
        p.rect(m, top, uw, bottom - top, stroke=BLACK, width=ss["box_width_mm"])
        p.text(m + uw / 2, label_base, "Usage", ss["label_font"], ss["label_pt"], BLACK, "centre")
        fitted = fit_text(view.usage, ss["usage_font"], uw - 2, ss["usage_pt"], ss["min_pt"])
        p.text(m + uw / 2, (label_base + bottom) / 2 + 2.0, fitted.lines[0], ss["usage_font"],
               fitted.size_pt, BLACK, "centre")
        x = m + uw + 1.5
    width = W - m - x
    p.rect(x, top, width, bottom - top, stroke=BLACK, width=ss["box_width_mm"])
    label = "Stats (small sample)" if view.small_sample else "Stats"
    if view.points:   # a league's card: its points, small, at the label's right
        room = width - 3 - text_width_mm(view.points, ss["points_font"], ss["label_pt"]) - 1.5
        if text_width_mm(label, ss["label_font"], ss["label_pt"]) > room:   # a bowler's narrower box
            label = "Stats (small)"
        p.text(W - m - 1.5, label_base, view.points, ss["points_font"], ss["label_pt"], BLACK, "right")
    p.text(x + 1.5, label_base, label, ss["label_font"], ss["label_pt"], BLACK)
    lines = view.stats
    area_top, area_bottom = label_base + 1.0, bottom - 1.0
    step = (area_bottom - area_top) / len(lines)
    gap = 2.0
    for i, items in enumerate(lines):
        text_width = width - 3 - gap * (len(items) - 1)
        # one size for the whole line: shrink until every item fits its share of the width
        size = ss["max_pt"]
        total = sum(text_width_mm(t, ss["font"], 1.0) for t in items)
        size = max(ss["min_pt"], min(size, text_width / total if total else size))
        baseline = area_top + (i + 0.5) * step + size * 0.36 / 72 * 25.4
        if len(items) == 1:
            p.text(x + 1.5, baseline, items[0], ss["font"], size, BLACK)
            continue
        slot = (width - 3) / len(items)
        for j, item in enumerate(items):
            align = "left" if j == 0 else "right" if j == len(items) - 1 else "centre"
            ax = {"left": x + 1.5, "centre": x + 1.5 + slot * (j + 0.5),
                  "right": x + width - 1.5}[align]
            p.text(ax, baseline, item, ss["font"], size, BLACK, align)


def draw_back(p: Painter, view: CardView, ink_saver: bool = False, bleed: float = 0.0,
              show_kind: bool = True, solid: bool = False) -> None:
    """The card back: game title, team and (unless a shared deck back) the card kind.

    Light (the default): a pale band of the team colour across the whole width (into the bleed)
    with team-colour text, well under 15% ink and nothing near the edges, so a duplex print that
    lands a millimetre or two off does not show. `solid`: the team colour all over (with bleed)
    inside a white frame; --ink-saver keeps outlines only.
    """
    L = load_layout("card")
    W, H = L["width_mm"], L["height_mm"]
    bs = L["back"]
    f = bs["frame_mm"]
    if ink_saver:
        p.rect(f, f, W - 2 * f, H - 2 * f, stroke=view.team_colour, width=0.8)
        colour = BLACK
    elif solid:
        colour = text_on(view.team_colour)
        p.rect(-bleed, -bleed, W + 2 * bleed, H + 2 * bleed, fill=view.team_colour)
        p.rect(f, f, W - 2 * f, H - 2 * f, stroke=colour, width=0.5)
    else:
        light = bs["light"]
        top, height = H / 2 - light["band_above_centre_mm"], light["band_mm"]
        band = mix(view.team_colour, light["band_white"])
        p.rect(-bleed, top, W + 2 * bleed, height, fill=band)
        for y in (top, top + height - light["rule_mm"]):
            p.rect(-bleed, y, W + 2 * bleed, light["rule_mm"], fill=view.team_colour)
        colour = ink_of(view.team_colour, on=band)  # a light team colour darkened to read
    p.text(W / 2, H / 2 - 6, bs["title"], "bold", bs["title_pt"], colour, "centre")
    fitted = fit_text(upper(view.team), "bold", W - 2 * f - 4, 9.0, 5.0)
    p.text(W / 2, H / 2 + 2, fitted.lines[0], "bold", fitted.size_pt, colour, "centre")
    if show_kind:
        p.text(W / 2, H / 2 + 9, view.role_bar, "regular", 8.0, colour, "centre")
