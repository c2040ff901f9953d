"""The Roll & Play Cricket print-and-play kit: decks, scoresheets and (team edition) squad decks."""
from __future__ import annotations

from typing import Any

from cardgen.games.printing import bowled, card_sheets_pdf, counted, fitted_lines, wrap
from cardgen.games.roll_and_play.engine import (
    ChanceCard,
    chance_deck,
    classic_player_deck,
    decks_spec,
)
from cardgen.games.roll_and_play.team import TeamCard
from cardgen.render.common import new_canvas
from cardgen.render.fonts import fit_text, text_width_mm
from cardgen.render.layout import MM, load_layout, mix
from cardgen.render.painter import Painter, PdfPainter

GAME_TITLE = "ROLL & PLAY CRICKET"


def layout() -> dict[str, Any]:
    return load_layout("games/roll-and-play/cards")


def signed(value: int) -> str:
    """+3, \u22123 (a true minus sign), 0."""
    return f"+{value}" if value > 0 else str(value).replace("-", "\u2212")


def value_colour(value: int) -> str:
    c = layout()["colours"]
    return c["negative"] if value < 0 else (c["positive"] if value > 0 else c["zero"])


def _frame(p: Painter, header: str, colour: str) -> None:
    L = layout()
    p.rect(0, 0, L["width_mm"], L["height_mm"], stroke=L["outline"]["colour"], width=L["outline"]["width_mm"])
    p.text(L["width_mm"] / 2, L["header"]["baseline_mm"], header, L["header"]["font"], L["header"]["pt"],
           colour, align="centre")


def _corners(p: Painter, text: str, colour: str) -> None:
    L = layout()
    c = L["corner"]
    p.text(c["inset_mm"], c["inset_mm"] + 9, text, "bold", c["pt"], colour)
    p.text(L["width_mm"] - c["inset_mm"], L["height_mm"] - c["inset_mm"], text, "bold", c["pt"], colour,
           align="right")


def draw_player_card(p: Painter, value: int) -> None:
    L = layout()
    colour = value_colour(value)
    _frame(p, GAME_TITLE, colour)
    _corners(p, signed(value), colour)
    p.text(L["width_mm"] / 2, L["value"]["baseline_mm"], signed(value), "bold", L["value"]["pt"], colour,
           align="centre")
    p.text(L["width_mm"] / 2, L["label"]["baseline_mm"], "PLAYER CARD", "bold", L["label"]["pt"], colour,
           align="centre")
    hint = "black helps the bat" if value > 0 else "red helps the ball"
    p.text(L["width_mm"] / 2, L["hint"]["baseline_mm"], f"Bat or bowl \u00b7 {hint}", "italic",
           L["hint"]["pt"], L["colours"]["muted"], align="centre")


def draw_pitch_card(p: Painter, value: int) -> None:
    L = layout()
    names = decks_spec()["pitch_deck"]["names"]
    green = L["colours"]["pitch"]
    p.rect(0, 0, L["width_mm"], L["height_mm"], fill=mix(green, 0.88))
    _frame(p, GAME_TITLE, green)
    _corners(p, signed(value), value_colour(value))
    p.text(L["width_mm"] / 2, L["value"]["baseline_mm"], signed(value), "bold", L["value"]["pt"],
           value_colour(value), align="centre")
    p.text(L["width_mm"] / 2, L["label"]["baseline_mm"], f"PITCH: {names[str(value)].upper()}", "bold",
           L["label"]["pt"], green, align="centre")
    p.text(L["width_mm"] / 2, L["hint"]["baseline_mm"], "Added to this over's total", "italic",
           L["hint"]["pt"], L["colours"]["muted"], align="centre")


def chance_badge(card: ChanceCard) -> str:
    e, a = card.effect, card.amount
    if card.keep:
        return "KEEP \u00b7 RE-ROLL"
    return {"runs": f"{signed(a)} RUN{'S' if abs(a) != 1 else ''}", "six": "+6 RUNS",
            "runs_die": "+1 DIE" if a > 0 else "\u22121 DIE", "penalty_runs": "+1 TO +3 RUNS",
            "outs": f"{a} OUT{'S' if a != 1 else ''}", "penalty_outs": "2 TO 4 OUTS",
            "reroll": "RE-ROLL", "redeal": "RE-DEAL", "batter_first_next": "BAT FIRST",
            "bowler_first_next": "BOWL FIRST", "draw_keep": "DRAW & KEEP", "clear_kept": "DISCARD ALL",
            "extra_player_card": "+1 CARD", "swap_hands": "SWAP HANDS",
            "negate_cards": "FLIP SIGNS"}[e]


def draw_chance_card(p: Painter, card: ChanceCard) -> None:
    L = layout()
    C = L["chance"]
    purple = L["colours"]["chance"]
    W = L["width_mm"]
    m = L["margin_mm"]
    p.rect(0, 0, W, C["band_mm"], fill=purple)
    p.rect(0, 0, W, L["height_mm"], stroke=L["outline"]["colour"], width=L["outline"]["width_mm"])
    p.text(W / 2, 8.5, "CHANCE", "bold", 11, "#ffffff", align="centre")
    fitted = fit_text(card.title, "bold", W - 2 * m, C["title_max_pt"], C["title_min_pt"], max_lines=2,
                      wrap_below_pt=11)
    for k, line in enumerate(fitted.lines):
        p.text(W / 2, C["title_top_mm"] + 5 + k * fitted.size_pt * 1.2 / MM, line, "bold", fitted.size_pt,
               purple, align="centre")
    size, lines = fitted_lines(card.text, "regular", W - 2 * m - 2, C["text_height_mm"], C["text_max_pt"],
                               C["text_min_pt"])
    for k, line in enumerate(lines):
        p.text(W / 2, C["text_top_mm"] + (k + 1) * size * 1.2 / MM, line, "regular", size, align="centre")
    p.rect(m + 4, C["badge_top_mm"], W - 2 * m - 8, C["badge_h_mm"], fill=mix(purple, 0.85), stroke=purple,
           width=0.4)
    p.text(W / 2, C["badge_top_mm"] + C["badge_h_mm"] * 0.68, chance_badge(card), "bold", C["badge_pt"],
           purple, align="centre")
    p.text(W / 2, L["height_mm"] - 3.0, "Play at once unless the card says keep", "italic", C["note_pt"],
           L["colours"]["muted"], align="centre")


def _stat_lines(card: TeamCard, balls_per_over: int = 6) -> list[str]:
    pl = card.player
    # one who never came in 'did not bat this season', as one who never bowled (not '0 runs off 0 balls');
    # one who came in and faced no ball keeps his 0 off 0
    bat = f"Bat: {counted(pl.runs, 'run')} off {counted(pl.balls, 'ball')}" if pl.innings else \
        "Bat: did not bat this season"
    if pl.strike_rate is not None:
        bat += f", SR {pl.strike_rate:.0f}"
    if pl.average is not None:
        bat += f", avg {pl.average:.1f}"
    if pl.legal_balls:
        bowl = f"Bowl: {counted(pl.wickets, 'wkt')} in {bowled(pl.legal_balls, balls_per_over)}, econ {pl.economy:.2f}"
    else:
        bowl = "Bowl: did not bowl this season"
    return [bat, bowl]


def draw_team_card(p: Painter, card: TeamCard, season_label: str, credit: str, balls_per_over: int = 6) -> None:
    L = layout()
    T = L["team"]
    W, H, m = L["width_mm"], L["height_mm"], L["margin_mm"]
    blue = L["colours"]["team"]
    p.rect(0, 0, W, T["band_mm"], fill=blue)
    p.rect(0, 0, W, H, stroke=L["outline"]["colour"], width=L["outline"]["width_mm"])
    p.text(W / 2, 5.0, f"{GAME_TITLE} \u00b7 {season_label}", "bold", 6.0, "#ffffff", align="centre")
    fitted = fit_text(card.player.name.upper(), "bold", W - 2 * m, T["name_max_pt"], T["name_min_pt"])
    p.text(W / 2, 12.5, fitted.lines[0], "bold", fitted.size_pt, "#ffffff", align="centre")
    p.text(W / 2, 18.2, card.player.short_team, "regular", T["team_pt"], "#ffffff", align="centre")
    role = card.player.batting_role if card.player.batting_role != "*" else "Bowler"
    if card.player.bowling_type != "*":
        role += f" \u00b7 bowls: {card.player.bowling_type}"
    elif not card.player.legal_balls:  # type unrecorded: the dash (read "does not bowl") only if so
        role += " \u00b7 bowls: \u2014"
    p.text(W / 2, T["role_baseline_mm"], role, "regular", T["role_pt"], align="centre")
    box_w = (W - 2 * m - T["box_gap_mm"]) / 2
    for k, (label, value) in enumerate((("BAT", card.bat), ("BOWL", card.bowl))):
        x = m + k * (box_w + T["box_gap_mm"])
        colour = value_colour(value)
        p.rect(x, T["box_top_mm"], box_w, T["box_h_mm"], stroke=colour, width=0.5)
        p.text(x + box_w / 2, T["box_top_mm"] + 5.0, label, "bold", T["box_label_pt"], colour, align="centre")
        p.text(x + box_w / 2, T["box_top_mm"] + 19.5, signed(value), "bold", T["box_value_pt"], colour,
               align="centre")
        hint = "when batting" if label == "BAT" else "when bowling"
        p.text(x + box_w / 2, T["box_top_mm"] + T["box_h_mm"] - 2.2, hint, "italic", T["box_hint_pt"],
               L["colours"]["muted"], align="centre")
    y = T["stats_top_mm"]
    for line in _stat_lines(card, balls_per_over):
        fitted = fit_text(line, "regular", W - 2 * m, T["stats_pt"], 5.0)
        p.text(m, y + 3, fitted.lines[0], "regular", fitted.size_pt)
        y += 4.2
    size, lines = fitted_lines(credit, "italic", W - 2 * m, T["credit_height_mm"], T["credit_pt"], T["credit_pt"])
    step = size * 1.2 / MM
    for k, line in enumerate(lines):  # the last line's descenders 2.5 mm clear of the cut line
        p.text(W / 2, H - T["credit_baseline_from_bottom_mm"] - (len(lines) - 1 - k) * step, line, "italic", size, L["colours"]["muted"],
               align="centre")


# --- PDFs ---------------------------------------------------------------------------------

def player_deck_pdf(paper: str, credit: str, ink_saver: bool = False) -> bytes:
    L = layout()
    return card_sheets_pdf([c.bat for c in classic_player_deck()], draw_player_card, L["width_mm"],
                           L["height_mm"], paper, "Roll & Play Cricket player deck", credit, ink_saver=ink_saver)


def pitch_deck_pdf(paper: str, credit: str, ink_saver: bool = False) -> bytes:
    L = layout()
    spec = decks_spec()["pitch_deck"]
    values = [v for v in spec["values"] for _ in range(spec["copies"])]
    return card_sheets_pdf(values, draw_pitch_card, L["width_mm"], L["height_mm"], paper,
                           "Roll & Play Cricket pitch deck", credit, ink_saver=ink_saver)


def chance_deck_pdf(paper: str, credit: str, ink_saver: bool = False) -> bytes:
    L = layout()
    return card_sheets_pdf(chance_deck(), draw_chance_card, L["width_mm"], L["height_mm"], paper,
                           "Roll & Play Cricket chance cards", credit, ink_saver=ink_saver)


def team_deck_pdf(decks: dict[str, list[TeamCard]], season_label: str, paper: str, credit: str,
                  ink_saver: bool = False, balls_per_over: int = 6) -> bytes:
    L = layout()
    cards = [c for team in sorted(decks) for c in decks[team]]
    return card_sheets_pdf(cards, lambda p, c: draw_team_card(p, c, season_label, credit, balls_per_over), L["width_mm"],
                           L["height_mm"], paper, f"Roll & Play Cricket team edition {season_label}",
                           credit, label=lambda c: c.player.short_team, ink_saver=ink_saver)


def scoresheet_pdf(overs: int, paper: str, credit: str, team_edition: bool = False) -> bytes:
    """One page per innings: a row per over (who turned the pitch card, the three cards, the
    dice, chance cards, runs or out, running totals)."""
    redeal = ("Thick line: every 10 overs each side shuffles its squad deck and deals itself 11 again."
              if team_edition else
              "Thick line: every 10 overs shuffle the player cards and deal 11 to each side again.")
    L = layout()["scoresheet"]
    canvas, buf, W, H = new_canvas(paper, f"Roll & Play Cricket scoresheet ({overs} overs)", credit)
    m = L["margin_mm"]
    widths = [w for _, w in L["columns"]]
    scale = (W - 2 * m) / sum(widths)
    for innings in (1, 2):
        p = PdfPainter(canvas, 0, H * MM)
        p.text(m, m + 4, f"Roll & Play Cricket \u00b7 {overs}-over game \u00b7 innings {innings}", "bold",
               L["title_pt"])
        p.text(m, m + 10, "Batting ____________________   Bowling ____________________   Date __________"
               + ("" if innings == 1 else "   Target ______"), "regular", 8)
        top = m + 14
        head_h = 6.0
        # the notes (20 mm below the grid) and the credit must stay above the 5 mm no-print zone
        row_h = min(9.0, (H - top - head_h - 34) / overs)
        x = m
        for (name, _), w in zip(L["columns"], widths):
            p.rect(x, top, w * scale, head_h, fill="#e8e8e8", stroke="#000000", width=0.2)
            p.text(x + w * scale / 2, top + 4.2, name, "bold", L["head_pt"], align="centre")
            x += w * scale
        for r in range(overs):
            y = top + head_h + r * row_h
            x = m
            for k, w in enumerate(widths):
                p.rect(x, y, w * scale, row_h, stroke="#000000", width=0.15)
                if k == 0:
                    p.text(x + w * scale / 2, y + row_h * 0.68, str(r + 1), "bold", L["text_pt"], align="centre")
                elif k == 1:
                    p.text(x + w * scale / 2, y + row_h * 0.68, "bat / bowl", "regular", L["hint_pt"], "#777777",
                           align="centre")
                x += w * scale
            if (r + 1) % 10 == 0 and r + 1 < overs:
                p.line(m, y + row_h, W - m, y + row_h, width=0.7)
        y = top + head_h + overs * row_h + 6
        p.text(m, y, "Runs for the over = dice + batter card + bowler card + pitch card (+ chance). "
               "0 or less: out. Double one: out. Other doubles: draw a chance card.", "italic", 6.5)
        p.text(m, y + 8.5, redeal, "italic", 6.5)
        p.text(m, y + 14, "Innings total ______  Outs ______  (ends at 10 outs or the last over)", "bold", 8)
        p.text(W / 2, H - 7, credit, "regular", 5.5, "#555555", align="centre")
        canvas.showPage()
    canvas.save()
    return buf.getvalue()


def rules_card_lines(team_edition: bool = False) -> list[str]:
    """The laws in cardgen's own short wording, for the quick-reference page. The team edition's
    kit has no shared player deck: each side deals from its own squad deck (BAT and BOWL numbers),
    which only that kit explains: the classic kit's player cards carry one number."""
    if team_edition:
        setup = ["SETUP  Choose 20 or 50 overs. Each side shuffles its own squad deck (12 cards) and deals itself 11 (hidden); shuffle the pitch deck and chance cards apart.",
                 "TOSS  The winner bats or bowls."]
        redeal = "RE-DEAL  After every 10 overs each side shuffles its squad deck and deals itself 11 again (one card sits out; a chance card's extra player card is that one)."
    else:
        setup = ["SETUP  Choose 20 or 50 overs. Shuffle the player deck, pitch deck and chance cards apart; deal each side 11 player cards (hidden).",
                 "TOSS  The winner bats or bowls. More black (+) cards suggests batting first."]
        redeal = "RE-DEAL  After every 10 overs shuffle all player cards and deal 11 to each side again (one card is left over)."
    return setup + [
        "EACH OVER  Both roll a die. High roller turns the top pitch card and lays a player card face up; the other answers with one.",
        "TIED ROLL  1, 2 or 3: the over is an out. 4, 5 or 6: the batter gets +1 this over (roll again for who goes first).",
        "RUN DICE  The batter rolls two dice. Double one: out, the over ends. Any other double: draw a chance card and play it now.",
        "SCORE  Runs = dice + batter card + bowler card + pitch card + chance cards. 0 or less is an out.",
        "CHANCE FIRST  A chance card that gives runs stands even when the rest totals 0 or less.",
        redeal,
        "END  An innings ends after 10 outs or the last over; then swap. Most runs wins.",
        "VARIATION  Each side starts with 3 (20 overs) or 5 (50 overs) chance cards to play on its own turn, one per over.",
        # issue 34: the laws give ranges, not counts, and are silent on a chance card's OUT
        # against a positive total; the sheet says these are this kit's readings
        "READINGS  Where the laws are silent this kit reads: "
        + ("" if team_edition else "player deck 4 x (-6..-1, +1..+6) = 48 cards, ")
        + "pitch deck 2 x (-3..+3) = 14; a chance card that gives outs makes the over worth those outs and no runs, whatever the total.",
    ] + (["TEAM EDITION  Each side plays its own squad deck: use a card's BAT number when batting and its BOWL number when bowling."]
         if team_edition else [])


def rules_pdf(paper: str, credit: str, team_edition: bool = False) -> bytes:
    canvas, buf, W, H = new_canvas(paper, "Roll & Play Cricket quick reference", credit)
    p = PdfPainter(canvas, 0, H * MM)
    m = 15.0
    p.text(m, m + 5, "Roll & Play Cricket \u2014 quick reference", "bold", 16)
    y = m + 14
    rules = [line.partition("  ")[::2] for line in rules_card_lines(team_edition)]
    # the text column starts a clear 4 mm past the widest heading ("CHANCE FIRST" ran up to it)
    column = max(text_width_mm(head, "bold", 10) for head, _ in rules) + 4.0
    for head, body in rules:
        p.text(m, y, head, "bold", 10)
        lines = wrap(body, "regular", 9.5, W - 2 * m - column)
        for k, wrapped in enumerate(lines):
            p.text(m + column, y + k * 4.6, wrapped, "regular", 9.5)
        y += 4.6 * max(1, len(lines)) + 3.5
    p.text(W / 2, H - 7, credit, "regular", 6, "#555555", align="centre")
    canvas.showPage()
    p = PdfPainter(canvas, 0, H * MM)
    cards = chance_deck()
    p.text(m, m + 5, f"The {len(cards)} chance cards", "bold", 14)
    y = m + 14
    for card in cards:
        lines = wrap(f"{card.title} [{chance_badge(card)}]: {card.text}", "regular", 8.4, W - 2 * m)
        for k, line in enumerate(lines):
            p.text(m, y + k * 3.7, line, "regular", 8.4)
        y += 3.7 * len(lines) + 1.6
    p.text(W / 2, H - 7, credit, "regular", 6, "#555555", align="centre")
    canvas.showPage()
    canvas.save()
    return buf.getvalue()
