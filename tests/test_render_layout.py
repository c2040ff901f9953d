"""Render layer, fast checks: text fitting, sheet geometry, crop marks, card strings."""
from __future__ import annotations

import math

import pytest

from cardgen.render.card import card_views, overs_printed
from cardgen.render.fonts import fit_text, text_width_mm
from cardgen.render.layout import load_layout
from cardgen.render.sample import rules_example_card_set
from cardgen.render.scoresheet import footer_numbers
from cardgen.render.sheets import crop_marks, pages_for, sheet_geometry

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


def test_rules_example_cards_print_as_in_the_rules():
    views = {v.name: v for v in card_views(rules_example_card_set())}
    green, connolly = views["CHRIS GREEN"], views["COOPER CONNOLLY"]
    assert green.role_bar == "BOWLER" and green.usage == "A/11"
    assert green.stats == (("Econ: 7.34",), ("Overs: 41",), ("Wickets: 12",))
    assert green.season_team == "2024-2025 Sydney (T)"
    assert green.competition_line == "Australia Men's Pro T20 Cricket"
    assert green.chart[3] == ("7-41", "\u2022") and green.chart[0] == ("1", "B")
    assert connolly.ratings == "C(3) / RO(4)"
    assert connolly.stats == (("SR: 131.46", "Balls: 267"), ("High: 66", "4s: 20", "6s: 19"))


@pytest.mark.parametrize("text, expected", [("41.0", "41"), ("20.1", "20.1"), ("3.5", "3.5"), ("10.0", "10")])
def test_overs_drop_a_trailing_zero_ball_only(text, expected):
    assert overs_printed(text) == expected


def test_fit_text_shrinks_then_wraps_but_never_below_minimum():
    width = 63 - 2 * load_layout("card")["margin_mm"]
    short = fit_text("CHRIS GREEN", "bold", width, 13, 6, max_lines=2, wrap_below_pt=9.5)
    assert short.size_pt == 13 and short.lines == ("CHRIS GREEN",)
    name40 = "MAXIMILIAN-ALEXANDER WOLFESCHLEGELSTEINH"  # 40 characters, one space
    assert len(name40) == 40
    fitted = fit_text(name40, "bold", width, 13, 6, max_lines=2, wrap_below_pt=9.5)
    assert not fitted.truncated and len(fitted.lines) == 2
    assert fitted.size_pt >= 6
    assert " ".join(fitted.lines) == name40
    assert all(text_width_mm(line, "bold", fitted.size_pt) <= width for line in fitted.lines)
    # a single 40-letter word cannot wrap: it shrinks to the minimum, then is cut with an ellipsis
    word = "W" * 40
    cut = fit_text(word, "bold", width, 13, 6, max_lines=2)
    assert cut.truncated and cut.size_pt == 6 and cut.lines[0].endswith("\u2026")
    assert text_width_mm(cut.lines[0], "bold", 6) <= width


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("bleed", [False, True])
def test_cards_are_poker_size_centred_and_on_the_page(paper, bleed):
    geo = sheet_geometry(paper, bleed)
    xs, ys = geo.cut_lines()
    assert len(xs) == 2 * 3 - (0 if bleed else 2) and len(ys) == 2 * 3 - (0 if bleed else 2)
    assert math.isclose(xs[0] + xs[-1], PAPERS[paper][0], abs_tol=1e-9)  # centred
    assert math.isclose(ys[0] + ys[-1], PAPERS[paper][1], abs_tol=1e-9)
    for row in range(3):
        for col in range(3):
            x, y = geo.card_origin(row, col)
            assert x - geo.bleed >= 0 and x + 63 + geo.bleed <= PAPERS[paper][0]
            assert y >= 0 and y + 88 <= PAPERS[paper][1]
    for x1, y1, x2, y2 in crop_marks(geo):
        assert 0 <= min(x1, x2) and max(x1, x2) <= PAPERS[paper][0]
        assert 0 <= min(y1, y2) and max(y1, y2) <= PAPERS[paper][1]


def test_each_team_starts_a_new_sheet():
    views = card_views(rules_example_card_set())
    pages = pages_for(views * 6, 9)  # 6 copies: Perth, Thunder, Perth, ... interleaved per copy
    for page in pages:
        assert len({v.team for v in page}) == 1 and 1 <= len(page) <= 9


@pytest.mark.parametrize("bpo, bpi", [(6, 120), (5, 100)])
def test_scoresheet_counts_balls_bowled_then_remaining(bpo, bpi):
    assert footer_numbers(1, 0, bpo, bpi)[0] == bpo
    assert footer_numbers(1, 1, bpo, bpi)[-1] == bpi
    assert footer_numbers(2, 0, bpo, bpi)[0] == bpi - bpo
    assert footer_numbers(2, 1, bpo, bpi)[-1] == 0


def test_team_badges_are_unique_initials():
    from cardgen.render.card import team_codes
    names = ["Perth Scorchers", "Sydney Sixers", "Sydney Thunder", "Southern Brave", "Sydney Strikers"]
    codes = team_codes(names)
    assert codes["Perth Scorchers"] == "PS" and codes["Sydney Thunder"] == "ST"
    assert codes["Sydney Sixers"] == "SS" and codes["Sydney Strikers"] == "SS2"  # clash numbered
    assert len(set(codes.values())) == len(names)
