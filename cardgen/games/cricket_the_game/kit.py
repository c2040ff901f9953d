"""Compatible player cards for Cricket: The Game and a squad sheet with the publisher note."""
from __future__ import annotations

from typing import Any

from cardgen.games.cricket_the_game.squads import ROLE_LABELS, SquadPlayer
from cardgen.games.printing import bowled, card_sheets_pdf, counted, fitted_lines, wrap
from cardgen.render.common import new_canvas
from cardgen.render.fonts import fit_text
from cardgen.render.layout import MM, load_layout, mix
from cardgen.render.painter import Painter, PdfPainter


def layout() -> dict[str, Any]:
    return load_layout("games/cricket-the-game/cards")


def dice_line(card: SquadPlayer) -> str:
    bat = "D6" if card.specialist_bowler else "D8"
    deck = {"pace": "Pace", "spin": "Spin", "allrounder": "Medium"}.get(card.role)
    return f"Bats with the {bat}" + (f" \u00b7 bowls: {deck} deck" if deck else " \u00b7 no bowling in the game")


def stat_lines(card: SquadPlayer, balls_per_over: int = 6) -> list[str]:
    p = card.player
    if p is None:
        return []
    # one who never came in 'did not bat', as one who never bowled 'did not bowl' (not '0 runs in 0 inns')
    bat = f"{counted(p.runs, 'run')} in {p.innings} inns" if p.innings else "did not bat"
    if p.strike_rate is not None:
        bat += f", SR {p.strike_rate:.0f}"
    if p.average is not None:
        bat += f", avg {p.average:.1f}"
    lines = [f"Batting: {bat}"]
    if p.legal_balls:
        lines.append(f"Bowling: {counted(p.wickets, 'wkt')}, {bowled(p.legal_balls, balls_per_over)}, "
                     f"econ {p.economy:.2f}")
    else:
        lines.append("Bowling: did not bowl")
    real = p.bowling_type if p.bowling_type != "*" else "unknown type"
    # an all-rounder of unrecorded type: nothing to tell (every all-rounder bowls the Medium deck);
    # a specialist slot filled by one still says so
    if card.role in ("pace", "spin", "allrounder") and p.bowling_type.lower() != (
            "medium" if card.role == "allrounder" else card.role) and not (
            card.role == "allrounder" and p.bowling_type == "*"):
        lines.append(f"Really bowls: {real}")
    return lines


def compact_stats(card: SquadPlayer) -> str:
    p = card.player
    if p is None:
        return ""
    text = (counted(p.runs, "run") if p.innings else "did not bat") + (
        f", SR {p.strike_rate:.0f}" if p.strike_rate is not None else "")
    if p.legal_balls:
        text += f" \u00b7 {counted(p.wickets, 'wkt')}, econ {p.economy:.2f}"
    return text


def draw_card(p: Painter, card: SquadPlayer, season_label: str, credit: str, balls_per_over: int = 6) -> None:
    L = layout()
    W, H, m = L["width_mm"], L["height_mm"], L["margin_mm"]
    colour = L["role_colours"][card.role]
    pl = card.player
    p.rect(0, 0, W, L["band_mm"], fill=colour)
    p.rect(0, 0, W, H, stroke=L["outline"]["colour"], width=L["outline"]["width_mm"])
    # the season goes on the team's line: "BBL 2024-2025" (as the Quicket cards print it) beside the
    # game's name left the 6 pt header 2.49 mm from the cut, and a longer code (SMASH-W) over it
    p.text(W / 2, 5.0, "CRICKET: THE GAME compatible", "bold", L["header_pt"], "#ffffff", align="centre")
    fitted = fit_text(card.label.upper(), "bold", W - 2 * m, L["name"]["max_pt"], L["name"]["min_pt"])
    p.text(W / 2, L["name"]["baseline_mm"], fitted.lines[0], "bold", fitted.size_pt, "#ffffff", align="centre")
    team_line = " \u00b7 ".join(t for t in (pl.short_team if pl is not None else "", season_label) if t)
    if team_line:
        team = fit_text(team_line, "regular", W - 2 * m, L["team_pt"], 6.0)
        p.text(W / 2, 19.0, team.lines[0], "regular", team.size_pt, "#ffffff", align="centre")
    rb = L["role_bar"]
    p.rect(m, rb["top_mm"], W - 2 * m, rb["height_mm"], fill=mix(colour, 0.82), stroke=colour, width=0.4)
    p.text(W / 2, rb["top_mm"] + rb["height_mm"] * 0.7, ROLE_LABELS[card.role].upper(), "bold", rb["pt"],
           colour, align="centre")
    p.text(W / 2, L["dice"]["top_mm"] + 4, dice_line(card), "regular", L["dice"]["pt"], align="centre")
    A = L["ability"]
    size, lines = fitted_lines(L["abilities"][card.role], "italic", W - 2 * m, A["height_mm"], A["max_pt"],
                               A["min_pt"])
    for k, line in enumerate(lines):
        p.text(m, A["top_mm"] + k * size * 1.2 / MM, line, "italic", size)
    S = L["stats"]
    C = L["confidence"]
    for k, line in enumerate(stat_lines(card, balls_per_over)):
        # the first two lines sit above the Confidence box and may use the full width
        width = W - 2 * m if k < 2 else W - 2 * m - C["size_mm"] - 1.5
        fitted = fit_text(line, "regular", width, S["pt"], 4.6)
        p.text(m, S["top_mm"] + k * S["line_mm"], fitted.lines[0], "regular", fitted.size_pt)
    # Confidence, bottom right as on the publisher's cards
    x, y = W - m - C["size_mm"], H - m - C["size_mm"] - 1.0
    p.rect(x, y, C["size_mm"], C["size_mm"], fill=mix(colour, 0.88), stroke=colour, width=0.5)
    p.text(x + C["size_mm"] / 2, y + 3.2, "CONFIDENCE", "bold", C["label_pt"], colour, align="centre")
    p.text(x + C["size_mm"] / 2, y + C["size_mm"] - 2.5, confidence_text(card.confidence), "bold", C["value_pt"],
           colour, align="centre")
    # beside the Confidence box, its last line on the box's bottom (never below the credit's size)
    cr = L["credit"]
    size, lines = fitted_lines(credit, "italic", W - 2 * m - C["size_mm"] - 1.5, cr["height_mm"], cr["pt"], cr["pt"])
    step = size * cr["leading"] / MM
    for k, line in enumerate(lines):
        p.text(m, y + C["size_mm"] - (len(lines) - 1 - k) * step, line, "italic", size, "#555555")


def confidence_text(confidence: int) -> str:
    """'+2', '0', '\u22121': as the card and the squad sheet print it (a true minus, not a hyphen)."""
    return f"+{confidence}" if confidence > 0 else str(confidence).replace("-", "\u2212")


def cards_pdf(squads: dict[str, list[SquadPlayer]], season_label: str, paper: str, credit: str,
              ink_saver: bool = False, balls_per_over: int = 6) -> bytes:
    L = layout()
    cards = [c for team in sorted(squads) for c in squads[team]]
    card_credit = "Not an official card. Board and decks: Zero Point Games. " + credit
    return card_sheets_pdf(cards, lambda p, c: draw_card(p, c, season_label, card_credit, balls_per_over), L["width_mm"],
                           L["height_mm"], paper, f"Cricket: The Game compatible player cards, {season_label}",
                           credit, label=lambda c: c.player.short_team if c.player else "", ink_saver=ink_saver)


def squads_pdf(squads: dict[str, list[SquadPlayer]], season_label: str, paper: str, credit: str) -> bytes:
    """The publisher note, then one table per team: role, name, confidence, dice, real figures."""
    canvas, buf, W, H = new_canvas(paper, f"Cricket: The Game squads, {season_label}", credit)
    m = 12.0
    note = layout()["note"]
    teams = sorted(squads)
    per_page = 3
    for start in range(0, len(teams), per_page):
        p = PdfPainter(canvas, 0, H * MM)
        p.text(m, m + 4, f"Cricket: The Game \u2014 compatible squads, {season_label}", "bold", 14)
        y = m + 10
        for line in wrap(note, "italic", 7.5, W - 2 * m):
            p.text(m, y, line, "italic", 7.5)
            y += 3.4
        y += 1.5
        p.text(m, y, "Drop one pace or one spin specialist to make the XI before the pitch card is drawn "
               "(the engine drops the one with the lowest Confidence).", "regular", 7.0)
        y += 6
        for team in teams[start:start + per_page]:
            squad = squads[team]
            p.text(m, y, team, "bold", 11)
            y += 2
            cols = [("Role", 0), ("Player", 30), ("Conf.", 80), ("Dice / deck", 94), ("Real season", 132)]
            for name, dx in cols:
                p.text(m + dx, y + 3.6, name, "bold", 7.2)
            p.line(m, y + 5, W - m, y + 5, width=0.3)
            y += 5
            for card in squad:
                p.text(m, y + 3.4, ROLE_LABELS[card.role], "regular", 7.0)
                p.text(m + 30, y + 3.4, card.label, "bold", 7.0)
                p.text(m + 88, y + 3.4, confidence_text(card.confidence), "bold", 7.0, align="right")
                p.text(m + 94, y + 3.4, dice_line(card).replace("Bats with the ", "bat "), "regular", 6.4)
                fitted = fit_text(compact_stats(card), "regular", W - 2 * m - 132, 6.6, 4.6)
                p.text(m + 132, y + 3.4, fitted.lines[0], "regular", fitted.size_pt)
                p.line(m, y + 4.6, W - m, y + 4.6, colour="#bbbbbb", width=0.1)
                y += 4.6
            y += 6
        p.text(W / 2, H - 7, credit, "regular", 6, "#555555", align="centre")
        canvas.showPage()
    canvas.save()
    return buf.getvalue()
