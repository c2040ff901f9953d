"""Render layer, fast checks: text fitting, sheet geometry, crop marks, card strings."""
from __future__ import annotations

import math

import pytest

from cardgen.render.card import card_views, overs_printed
from cardgen.render.fonts import fit_text, text_width_mm
from cardgen.render.layout import load_layout
from cardgen.render.sample import rules_example_card_set
from cardgen.render.scoresheet import GRIDS_PER_INNINGS, footer_numbers
from cardgen.render.sheets import crop_marks, pages_for, sheet_geometry
from conftest import as_model

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


def test_rules_example_cards_print_as_in_the_rules():
    views = {v.name: v for v in card_views(as_model(rules_example_card_set()))}
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
def test_cards_are_poker_size_centred_inside_the_printable_area(paper, bleed):
    geo = sheet_geometry(paper, bleed)
    page_w, page_h = PAPERS[paper] if not geo.landscape else PAPERS[paper][::-1]
    assert (geo.page_w, geo.page_h) == (page_w, page_h)
    # 9-up without bleed; with bleed 9 do not fit with marks inside the printable area: 8-up
    assert geo.per_sheet == (8 if bleed else 9)
    xs, ys = geo.cut_lines()
    assert math.isclose(xs[0] + xs[-1], page_w, abs_tol=1e-9)  # centred
    assert math.isclose(ys[0] + ys[-1], page_h, abs_tol=1e-9)
    # the cards themselves lie inside the printable area; only bleed may run into the 5 mm zone
    assert xs[0] >= 5 and ys[0] >= 5 and xs[-1] <= page_w - 5 and ys[-1] <= page_h - 5
    if bleed:
        # each card has its own bleed on every side: the gutter holds both neighbours' bleed
        assert geo.bleed >= 1.5 and geo.gap_x >= 2 * geo.bleed and geo.gap_y >= 2 * geo.bleed
        assert len(xs) == 2 * geo.columns and len(ys) == 2 * geo.rows
    else:
        assert len(xs) == geo.columns + 1 and len(ys) == geo.rows + 1


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("bleed", [False, True])
def test_every_cut_line_has_a_crop_mark_at_each_end_outside_the_cards_inside_the_printable_area(paper, bleed):
    geo = sheet_geometry(paper, bleed)
    spec = load_layout("sheets")["card_sheet"]
    xs, ys = geo.cut_lines()
    marks = crop_marks(geo)
    cards = [(x - geo.bleed, y - geo.bleed, x + 63 + geo.bleed, y + 88 + geo.bleed)
             for x, y in (geo.card_origin(r, c) for r in range(geo.rows) for c in range(geo.columns))]
    for x1, y1, x2, y2 in marks:
        assert min(x1, x2) >= 5 and max(x1, x2) <= geo.page_w - 5  # printable
        assert min(y1, y2) >= 5 and max(y1, y2) <= geo.page_h - 5
        assert math.hypot(x2 - x1, y2 - y1) >= spec["crop_min_mm"] - 1e-9  # long enough to see
        for left, top, right, bottom in cards:  # never on a card or its bleed
            assert max(x1, x2) <= left or min(x1, x2) >= right or max(y1, y2) <= top or min(y1, y2) >= bottom
    for x in xs:  # a vertical cut line: a mark above the block and one below it
        ends = [(y1 + y2) / 2 for x1, y1, x2, y2 in marks if x1 == x2 == x]
        assert len(ends) == 2 and min(ends) < ys[0] and max(ends) > ys[-1]
    for y in ys:
        ends = [(x1 + x2) / 2 for x1, y1, x2, y2 in marks if y1 == y2 == y]
        assert len(ends) == 2 and min(ends) < xs[0] and max(ends) > xs[-1]


def test_cards_pack_full_sheets_in_team_order_unless_a_sheet_per_team_is_asked_for():
    views = card_views(as_model(rules_example_card_set()))
    many = sorted(views * 6, key=lambda v: v.sort_key)  # 12 Perth-or-Thunder cards, teams in order
    packed = pages_for(many, 9)
    assert [len(p) for p in packed] == [9, 3]
    assert [v.team for page in packed for v in page] == [v.team for v in many]
    per_team = pages_for(many, 9, team_per_sheet=True)
    assert [len(p) for p in per_team] == [6, 6]
    for page in per_team:
        assert len({v.team for v in page}) == 1


def test_light_backs_use_under_15_percent_ink_and_solid_backs_far_more():
    from PIL import Image, ImageStat
    from cardgen.render.card import draw_back
    from cardgen.render.images import card_pixels
    from cardgen.render.painter import PilPainter
    from dataclasses import replace
    view = card_views(as_model(rules_example_card_set()))[0]
    for colour in load_layout("teams")["palette"] + ["#000000"]:  # the darkest team colour too
        coloured = replace(view, team_colour=colour)
        ink = {}
        for solid in (False, True):
            image = Image.new("RGB", card_pixels(100), "white")
            draw_back(PilPainter(image, 100), coloured, solid=solid)
            # ink coverage as the mean darkness of the page (0 = paper white, 1 = solid black)
            ink[solid] = 1 - ImageStat.Stat(image.convert("L")).mean[0] / 255
        assert ink[False] < 0.15, (colour, ink)
        assert ink[True] > 2 * ink[False]


@pytest.mark.parametrize("bpo, bpi", [(6, 120), (5, 100)])
def test_scoresheet_counts_balls_bowled_then_remaining(bpo, bpi):
    assert footer_numbers(1, 0, bpo, bpi)[0] == bpo
    assert footer_numbers(1, GRIDS_PER_INNINGS - 1, bpo, bpi)[-1] == bpi
    assert footer_numbers(2, 0, bpo, bpi)[0] == bpi - bpo
    assert footer_numbers(2, GRIDS_PER_INNINGS - 1, bpo, bpi)[-1] == 0


def test_team_badges_are_unique_initials():
    from cardgen.render.card import team_codes
    names = ["Perth Scorchers", "Sydney Sixers", "Sydney Thunder", "Southern Brave", "Sydney Strikers"]
    codes = team_codes(names)
    assert codes["Perth Scorchers"] == "PS" and codes["Sydney Thunder"] == "ST"
    assert codes["Sydney Sixers"] == "SS" and codes["Sydney Strikers"] == "SS2"  # clash numbered
    assert len(set(codes.values())) == len(names)


def test_every_result_keeps_its_fixed_place_on_every_card_in_10_pt_or_larger(recording_painter):
    from dataclasses import replace
    from cardgen.render.card import chart_slots, draw_card
    views = card_views(as_model(rules_example_card_set()))
    green = next(v for v in views if v.kind == "bowler")
    connolly = next(v for v in views if v.kind == "striker")
    # the rules' layout: B W F dot down the left, 1 2 4 6 down the right
    order = [(col, row, result) for col, row, _, result in chart_slots(green)]
    assert order == [(0, 0, "B"), (0, 1, "W"), (0, 2, "F"), (0, 3, "\u2022"),
                     (1, 0, "1"), (1, 1, "2"), (1, 2, "4"), (1, 3, "6")]
    assert {r: s for _, _, s, r in chart_slots(connolly)}["B"] == ""  # strikers have no B: left blank
    # a card with fewer results and one with a different chart put each result in the same spot
    sparse = replace(green, chart=(("1-40", "W"), ("41-99", "1"), ("100", "6")))
    places = []
    for view in (green, connolly, sparse):
        painter = recording_painter()
        draw_card(painter, view)
        glyphs = {t[2]: (t[0], t[1]) for t in painter.texts if t[2] in "BWF\u20221246" and t[3] == "bold"}
        places.append(glyphs)
        for span, _ in view.chart:
            drawn = [t for t in painter.texts if t[2] == span]
            assert drawn and all(t[4] >= 10 for t in drawn), span
    assert places[0] == places[1] == places[2]


def test_a_long_nation_is_not_cut_when_the_line_has_room(recording_painter):
    from dataclasses import replace
    from cardgen.render.card import draw_card
    view = replace(card_views(as_model(rules_example_card_set()))[0], nation="United States of America")
    painter = recording_painter()
    draw_card(painter, view)
    assert any(t[2] == "United States of America" for t in painter.texts)
    assert not any(t[2].endswith("\u2026") for t in painter.texts)


def test_a_three_gets_an_extra_row_and_the_quick_reference_lists_only_results_cards_have(recording_painter):
    import copy
    from dataclasses import replace
    from cardgen.render.card import chart_slots, draw_card
    from cardgen.render.teamsheets import quick_reference_text
    card_set = rules_example_card_set()
    green = next(v for v in card_views(as_model(card_set)) if v.kind == "bowler")
    with_three = replace(green, chart=green.chart[:-1] + (("97-99", "3"), ("100", "6")))
    slots = chart_slots(with_three)
    # the eight fixed places stay where they are; the 3 goes in a fifth row
    assert [(c, r, res) for c, r, _, res in slots[:8]] == [(c, r, res) for c, r, _, res in chart_slots(green)]
    assert (0, 4, "97-99", "3") in slots
    draw_card(recording_painter(), with_three)  # draws without error
    assert "Three runs" not in quick_reference_text(as_model(card_set))  # no card of the set has a 3
    three = copy.deepcopy(card_set)
    chart = three["cards"][0]["chart"]
    chart[-1] = {**chart[-1], "result": "3"}
    assert "Three runs" in quick_reference_text(as_model(three))


def test_the_sheet_header_says_where_each_team_starts():
    from dataclasses import replace
    from cardgen.render.sheets import team_positions
    views = card_views(as_model(rules_example_card_set()))
    a = replace(views[0], team_code="AS")
    b = replace(views[0], team_code="BH")
    assert team_positions([a, a, a, b, b, b, b, b, b]) == "AS 1-3, BH 4-9"
    assert team_positions([b]) == "BH 1"


def test_the_quick_reference_prints_a_competition_name_as_written():
    """Review finding: names from a user's competitions file went into reportlab markup raw, so
    "League <Women> X" printed as "League X" and "A&amp;B" as "A&B"."""
    import copy
    from pypdf import PdfReader
    import io
    from cardgen.render.teamsheets import render_quick_reference_pdf
    card_set = copy.deepcopy(rules_example_card_set())
    card_set["competition"]["name"] = "League <Women> A&amp;B"
    pdf = render_quick_reference_pdf(as_model(card_set), "a4", "credit")
    text = PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    assert "Quick reference \u2014 League <Women> A&amp;B 2024-2025" in text  # the cards' season form


def _glyph_boxes_mm(pdf: bytes, text: str) -> list[list[tuple[float, float, float, float]]]:
    """For every occurrence of `text` on page 1: each visible glyph's tight box (left, top, right,
    bottom) in mm from the page's top-left corner (descenders included)."""
    import pypdfium2
    page = pypdfium2.PdfDocument(pdf)[0]
    height_pt = page.get_height()
    textpage = page.get_textpage()
    whole = textpage.get_text_range()
    found, start = [], whole.find(text)
    while start >= 0:
        boxes = []
        for k in range(start, start + len(text)):
            if not text[k - start].strip():
                continue
            left, bottom, right, top = textpage.get_charbox(k, loose=False)
            boxes.append((left / 72 * 25.4, (height_pt - top) / 72 * 25.4,
                          right / 72 * 25.4, (height_pt - bottom) / 72 * 25.4))
        found.append(boxes)
        start = whole.find(text, start + 1)
    return found


def test_season_and_team_line_clears_the_striker_cards_team_colour_rule():
    # "2024-2025 Sydney (T)": the y and the brackets reach below the baseline; on a striker card
    # the team-colour rule closes the band just under this line and must not cut through them
    from dataclasses import replace
    from cardgen.render.sheets import render_cards_pdf
    # the rules' two cards (a striker and a bowler), both as Sydney Thunder's
    views = [replace(v, season_team="2024-2025 Sydney (T)") for v in card_views(as_model(rules_example_card_set()))]
    assert {v.kind for v in views} == {"striker", "bowler"}
    pdf = render_cards_pdf(views, "a4", "test", "credit")
    geo = sheet_geometry("a4")
    band = load_layout("card")["band"]
    rule_top = geo.top + band["height_mm"] - band["striker_rule_mm"]  # first row of cards
    lines = _glyph_boxes_mm(pdf, "2024-2025 Sydney (T)")
    assert len(lines) == len(views)
    for boxes in lines:
        lowest = max(bottom for _, _, _, bottom in boxes)
        assert lowest <= rule_top - 0.2, (lowest, rule_top)  # a visible gap, not a touch


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("bleed", [False, True])
def test_sheet_header_and_footer_keep_off_the_cut_lines_and_the_no_print_zone(paper, bleed):
    # a gamer cuts along the crop marks; grey header text within a hair of the cut line ends up
    # on the card. US Letter's margin above three rows is 7.7 mm, 5 of them no-print: there the
    # lines move to the side margins
    from cardgen.render.sheets import render_cards_pdf
    views = card_views(as_model(rules_example_card_set()))
    pdf = render_cards_pdf(views, paper, "BBL 2024-25 cards", "credit", bleed=bleed)
    geo = sheet_geometry(paper, bleed)
    spec = load_layout("sheets")["card_sheet"]
    left, top, right, bottom = geo.block()
    for text in ("sheet 1 of 1", "Print at 100% (actual size)"):
        [boxes] = _glyph_boxes_mm(pdf, text)
        for x0, y0, x1, y1 in boxes:
            assert x0 >= spec["no_print_mm"] and y0 >= spec["no_print_mm"]
            assert x1 <= geo.page_w - spec["no_print_mm"] and y1 <= geo.page_h - spec["no_print_mm"]
            gap = max(left - x1, x0 - right, top - y1, y0 - bottom)  # > 0: outside the cards
            assert gap >= spec["cut_clear_mm"] - 0.05, (text, paper, gap)  # 0.05: glyph outlines
            for mx1, my1, mx2, my2 in crop_marks(geo):  # and off every crop mark
                assert (max(mx1, mx2) < x0 or min(mx1, mx2) > x1 or max(my1, my2) < y0
                        or min(my1, my2) > y1), (text, paper, (mx1, my1, mx2, my2))


def pdf_texts(pdf: bytes, page_index: int = 0) -> list[tuple[str, float, tuple[float, float, float, float]]]:
    """(string, size in points, (left, top, right, bottom) in mm from the top-left) of every text
    object on a page, read back with pdfium (the print-audit tests share it)."""
    import ctypes

    import pypdfium2
    import pypdfium2.raw as raw

    from cardgen.render.layout import MM
    page = pypdfium2.PdfDocument(pdf)[page_index]
    height = page.get_height() / MM
    textpage = page.get_textpage()
    out = []
    for obj in page.get_objects():
        if obj.type != raw.FPDF_PAGEOBJ_TEXT:
            continue
        size = ctypes.c_float()
        raw.FPDFTextObj_GetFontSize(obj.raw, ctypes.byref(size))
        m = obj.get_matrix()
        n = raw.FPDFTextObj_GetText(obj.raw, textpage.raw, None, 0)
        buffer = ctypes.create_string_buffer(n)
        raw.FPDFTextObj_GetText(obj.raw, textpage.raw, ctypes.cast(buffer, ctypes.POINTER(ctypes.c_ushort)), n)
        left, bottom, right, top = obj.get_bounds()
        out.append((buffer.raw[:n - 2].decode("utf-16-le"), size.value * math.sqrt(abs(m.a * m.d - m.b * m.c)),
                    (left / MM, height - top / MM, right / MM, height - bottom / MM)))
    return out


@pytest.mark.needs_data
def test_a_team_file_sheet_header_prints_whole_at_full_size(render_card_sets):
    """Print audit: a team's own card sheets (teams/<team>/cards-a4.pdf) squeezed their header into
    the middle card's width, 5.25 pt for "BBL 2024-25 Melbourne Renegades cards · sheet 1 of 4 ·
    MR 1-9" (under 6 pt a home print is hard to read); on A4 the header sits wholly above the crop
    marks, so it may use the printable width. Cricket: The Game's sheets lost their title the
    same way ("sheet 1 of 16")."""
    from cardgen.render.sheets import render_cards_pdf
    spec = load_layout("sheets")["card_sheet"]
    views = [v for v in card_views(as_model(render_card_sets["BBL"])) if v.team == "Melbourne Renegades"]
    pdf = render_cards_pdf(views, "a4", "BBL 2024-25 Melbourne Renegades cards", "credit")
    texts = pdf_texts(pdf)
    header = [(t, s) for t, s, _ in texts if t.startswith("BBL 2024-25 Melbourne Renegades cards")]
    assert header == [(f"BBL 2024-25 Melbourne Renegades cards \u00b7 sheet 1 of {math.ceil(len(views) / 9)} "
                       f"\u00b7 {views[0].team_code} 1-9", pytest.approx(spec["footer_pt"]))]
    # and the line stays off every crop mark and out of the no-print zone
    [boxes] = _glyph_boxes_mm(pdf, header[0][0])
    geo = sheet_geometry("a4")
    for x0, y0, x1, y1 in boxes:
        assert x0 >= spec["no_print_mm"] and y0 >= spec["no_print_mm"] and x1 <= geo.page_w - spec["no_print_mm"]
        for _mx1, my1, _mx2, my2 in crop_marks(geo):
            assert max(my1, my2) < y0 - spec["footer_clear_mm"] or min(my1, my2) > y1 + spec["footer_clear_mm"]


@pytest.mark.needs_data
def test_a_one_word_team_badge_is_not_a_lone_letter(mirror):
    """Print audit: Super Smash's one-word teams printed badges "A", "C", "O" and "W" (Wellington's
    "W" beside the chart's W for a wicket). Every team of the real Super Smash seasons (men's
    2024-25, women's 2022-23, from the Cricsheet mirror) gets a badge of two or three characters,
    none a chart result, all different."""
    import json
    from cardgen.render.card import team_codes
    for folder in ("super_smash_men_2024-25", "super_smash_women_2022-23"):
        names = sorted({team for path in (mirror / folder).glob("*.json")
                        for team in json.loads(path.read_text(encoding="utf-8"))["info"]["teams"]})
        assert len(names) == 6
        codes = team_codes(names)
        assert codes["Wellington"] == "WEL" and codes["Central Districts"] == "CD"
        assert all(2 <= len(code) <= 3 for code in codes.values()), codes
        assert len(set(codes.values())) == len(names)
