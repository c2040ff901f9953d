"""A striker card's Defence rating (docs/rules.md R13) as the card prints it: "Defence N" on the
ratings line, at the fielding ratings' size, inside the card, on every paper and style; a card
without one prints exactly what it printed before."""
from __future__ import annotations

import copy
import io

import numpy as np
import pypdf
import pytest

from cardgen.cardset import Card
from cardgen.errors import CardSetError
from cardgen.render.card import card_views, defence_rating, draw_card
from cardgen.render.fonts import text_width_mm
from cardgen.render.layout import load_layout
from cardgen.render.preflight import check_pdf
from cardgen.render.sheets import render_cards_pdf
from cardgen.rule_sets import rules_of_set
from conftest import as_model

PT = 25.4 / 72  # mm per point


def _rated(card_set: dict) -> list:
    return [v for v in card_views(as_model(card_set)) if v.defence]


def _texts(data: bytes) -> list[tuple[int, str, float, float, float]]:
    """(page, text, font size, x, y) of every string drawn, as a PDF reader finds them."""
    found: list[tuple[int, str, float, float, float]] = []
    for n, page in enumerate(pypdf.PdfReader(io.BytesIO(data)).pages):
        page.extract_text(visitor_text=lambda text, cm, tm, font, size, n=n: found.append(
            (n, text.strip(), float(size), float(tm[4]), float(tm[5]))) if text.strip() else None)
    return found


@pytest.mark.parametrize("fmt", ["T20", "100-ball"])
@pytest.mark.parametrize("paper, bleed, ink_saver", [("a4", False, False), ("letter", False, False),
                                                     ("a4", True, True), ("letter", True, False)])
def test_a_rated_striker_card_prints_defence_n_beside_its_fielding_ratings(defence_card_sets, fmt, paper,
                                                                              bleed, ink_saver):
    card_set = defence_card_sets[fmt]
    views = _rated(card_set)
    ratings = {c["player"]["name"].upper(): c["defence"] for c in card_set["cards"] if c.get("defence")}
    assert sorted(ratings.values()) == [1, 7, 20] and len(views) == 3
    data = render_cards_pdf(views, paper, "Defence", "credit", bleed=bleed, ink_saver=ink_saver)
    texts = _texts(data)
    spec = load_layout("card")["ratings"]
    for view in views:
        [(page, _, size, x, y)] = [t for t in texts if t[1] == view.defence]
        assert view.defence == f"Defence {ratings[view.name]}"
        # the fielding ratings on the same baseline of the same card, at the same size
        [(_, _, fielding_size, fx, _)] = [t for t in texts if t[0] == page and t[1] == view.ratings
                                          and abs(t[4] - y) < 0.01 and t[3] < x]
        assert size == fielding_size and size >= spec["min_pt"]
        right_of_fielding = fx + text_width_mm(view.ratings, spec["font"], size) / PT
        assert x - right_of_fielding >= 3.0 / PT - 0.01  # they never run into each other
        # right-aligned on the card's right margin (the fielding ratings start on its left one):
        # inside the card, nothing cut
        L = load_layout("card")
        right = x + text_width_mm(view.defence, spec["font"], size) / PT
        assert abs(right - (fx + (L["width_mm"] - 2 * L["margin_mm"]) / PT)) < 0.05
    # the two narrow lines keep the full size; only the widest (C(20) / RO(20) / WK(20)-like)
    # line may shrink, and then both halves together
    full = [t for t in texts if t[1].startswith("Defence ") and t[2] == spec["max_pt"]]
    assert len(full) >= 2
    assert check_pdf(data, "cards.pdf") == []  # preflight: margins, overlaps, fonts


def test_a_card_without_defence_prints_exactly_what_it_printed_before(defence_card_sets):
    card_set = defence_card_sets["T20"]
    unrated = copy.deepcopy(card_set)
    for card in unrated["cards"]:
        card.pop("defence", None)
    zero = copy.deepcopy(unrated)
    for card in zero["cards"]:
        if card["kind"] == "striker":
            card["defence"] = 0  # the spec's "no rating"
    views = card_views(as_model(unrated))
    assert card_views(as_model(zero)) == views and not any(v.defence for v in views)
    data = render_cards_pdf(views[:9], "a4", "t", "c")
    assert render_cards_pdf(card_views(as_model(zero))[:9], "a4", "t", "c") == data
    assert "Defence" not in " ".join(t[1] for t in _texts(data))
    # a rated card differs from its unrated self by the rating only (and a reader of the PDF
    # must find it); its fielding ratings close up ("C(20)/RO(20)/Wicketkeeper (20)") only where
    # they would not fit beside it at the smallest size
    from dataclasses import replace
    closed = 0
    for rated in _rated(card_set):
        plain = next(v for v in views if v.sort_key == rated.sort_key)
        assert rated.ratings in (plain.ratings, plain.ratings.replace(" / ", "/"))
        closed += rated.ratings != plain.ratings
        assert replace(rated, defence="", ratings=plain.ratings) == plain
        assert [t for t in rated.all_text() if t != rated.defence] == [
            rated.ratings if t == plain.ratings else t for t in plain.all_text()]
        assert rated.defence in rated.all_text()
    assert closed <= 1  # the fixture's widest line with its Defence 20 at most


def test_on_the_card_image_the_rating_changes_only_the_ratings_line(defence_card_sets):
    # the PNG and Tabletop Simulator images draw through Pillow: the rating appears there too,
    # and nothing else on the card moves
    from cardgen.render.images import card_image
    card_set = defence_card_sets["100-ball"]
    L = load_layout("card")
    dpi = 150
    for rated in _rated(card_set):
        unrated_card_set = copy.deepcopy(card_set)
        for card in unrated_card_set["cards"]:
            card.pop("defence", None)
        plain = next(v for v in card_views(as_model(unrated_card_set)) if v.sort_key == rated.sort_key)
        for ink_saver in (False, True):
            a = np.asarray(card_image(plain, dpi, ink_saver).convert("L"), dtype=int)
            b = np.asarray(card_image(rated, dpi, ink_saver).convert("L"), dtype=int)
            rows = np.where((a != b).any(axis=1))[0] / dpi * 25.4
            assert rows.size, rated.name  # the rating is drawn
            # between the role bar's foot and the chart's first rule
            assert rows.min() >= L["role_bar"]["top_mm"] + L["role_bar"]["height_mm"]
            assert rows.max() <= L["chart"]["top_mm"]
            columns = np.where((a != b).any(axis=0))[0] / dpi * 25.4
            assert columns.max() <= L["width_mm"] - L["margin_mm"] + 0.2  # inside the margin


@pytest.mark.parametrize("value, words", [(25, "defence 25"), (-1, "defence -1"), ("7", "defence '7'"),
                                          (True, "defence True"), (7.5, "defence 7.5")])
def test_a_defence_rating_that_is_not_1_to_20_is_a_clear_card_set_error(defence_card_sets, value, words):
    card = copy.deepcopy(next(c for c in defence_card_sets["T20"]["cards"] if c.get("defence")))
    card["defence"] = value
    with pytest.raises(CardSetError, match=words) as caught:
        defence_rating(Card.from_json(card))
    assert card["player"]["name"] in str(caught.value) and "1 to 20" in str(caught.value)


def test_a_bowler_card_never_carries_defence(defence_card_sets):
    bowler = copy.deepcopy(next(c for c in defence_card_sets["T20"]["cards"] if c["kind"] == "bowler"))
    assert defence_rating(Card.from_json(bowler)) is None
    bowler["defence"] = 5
    with pytest.raises(CardSetError, match="only striker cards"):
        defence_rating(Card.from_json(bowler))


def test_the_widest_line_a_card_can_have_shrinks_as_one_and_stays_on_the_card(defence_card_sets,
                                                                             recording_painter):
    # every rating at 20 and a WK beside C / RO: 62 mm at full size on a 56.6 mm line. Both
    # halves shrink to one size (never under the layout's minimum) rather than run off the card
    from dataclasses import replace
    L = load_layout("card")
    spec, W, m = L["ratings"], L["width_mm"], L["margin_mm"]
    view = replace(_rated(defence_card_sets["T20"])[0], ratings="C(20) / RO(20) / WK(20)", defence="Defence 20")
    painter = recording_painter()
    draw_card(painter, view)
    [fielding] = [t for t in painter.texts if t.text == view.ratings]
    [defence] = [t for t in painter.texts if t.text == view.defence]
    size = fielding.size_pt
    assert defence.size_pt == size and spec["min_pt"] <= size < spec["max_pt"]
    assert (fielding.x, fielding.align) == (m, "left") and (defence.x, defence.align) == (W - m, "right")
    assert fielding.y == defence.y == spec["baseline_mm"]
    gap = (W - m - text_width_mm(view.defence, spec["font"], size)) - (m + text_width_mm(view.ratings, spec["font"], size))
    assert gap >= 3.0 - 1e-9


def test_a_rating_on_a_card_without_fielding_ratings_is_centred_as_the_line_was(defence_card_sets,
                                                                              recording_painter):
    # a hand-made set may leave C and RO out (docs/rules.md R9): the rating alone takes the line's
    # usual place, centred at full size
    from dataclasses import replace
    L = load_layout("card")
    view = replace(_rated(defence_card_sets["T20"])[0], ratings="", defence="Defence 12")
    painter = recording_painter()
    draw_card(painter, view)
    [defence] = [t for t in painter.texts if t.text == "Defence 12"]
    assert (defence.x, defence.y, defence.size_pt, defence.align) == (L["width_mm"] / 2, L["ratings"]["baseline_mm"],
                                                                L["ratings"]["max_pt"], "centre")


def _bundled_seasons() -> list[str]:
    """Every season whose calibrated card sets ship (stats_cache/card-sets/), e.g. "IPL_2025"."""
    from cardgen.calibrate.reuse import FOLDER
    from cardgen.paths import bundled_tables_dir
    # <season>-<code fingerprint>-<tables fingerprint>.json.gz
    return sorted({path.name.rsplit("-", 2)[0] for path in (bundled_tables_dir() / FOLDER).glob("*.json.gz")})


# each season on one paper, the papers in turn: a card is drawn the same on both, only its place
# on the sheet differs (and every paper holds three of them)
@pytest.mark.slow
@pytest.mark.parametrize("season, paper", [(season, ("a4", "letter")[i % 2])
                                           for i, season in enumerate(_bundled_seasons())])
def test_the_card_credit_prints_whole_at_5_5_pt_or_more_under_the_stats_box_on_every_bundled_season(
        season: str, paper: str):
    """Print audit: the credit under each card's stats box printed at 4.6 pt, too small to read
    on paper. Read back from the PDF, on every card of every bundled season: the credit's lines
    are 5.5 pt or more and together say the whole credit (nothing cut with an ellipsis), they
    stay under the stats box and 2.5 mm inside the cut, and the stats box, made 0.6 mm shorter
    to give them room, still holds every line of its text."""
    from cardgen import ATTRIBUTION
    from cardgen.render.sheets import sheet_geometry
    from tests.conftest import _shipped_rule_set
    from tests.test_render_layout import pdf_texts

    layout = load_layout("card")
    stats = layout["stats"]
    box_bottom = stats["bottom_mm"] + stats["box_width_mm"] / 2
    views = card_views(as_model(_shipped_rule_set(season)))
    pdf = render_cards_pdf(views, paper, f"{season} cards", ATTRIBUTION)
    xs, ys = sheet_geometry(paper).cut_lines()
    credits_read: list[str] = []
    for page in range(len(pypdf.PdfReader(io.BytesIO(pdf)).pages)):
        cards: dict[tuple[float, float], list] = {}
        for text, size, (left, top, right, bottom) in pdf_texts(pdf, page):
            cx, cy = (left + right) / 2, (top + bottom) / 2
            if not (xs[0] < cx < xs[-1] and ys[0] < cy < ys[-1]) or not text.strip():
                continue  # the sheet's header and footer
            x0, y0 = max(x for x in xs if x <= cx), max(y for y in ys if y <= cy)
            cards.setdefault((x0, y0), []).append((text.strip(), size, top - y0, bottom - y0))
        for texts in cards.values():
            # centred below the box, right of the rules mark (its own test below)
            credit = [t for t in texts if (t[2] + t[3]) / 2 > box_bottom and t[0] not in RULES_MARK_WORDS]
            assert credit and min(size for _, size, _, _ in credit) >= 5.5, (page, credit)
            assert min(top for _, _, top, _ in credit) > box_bottom, (page, credit)
            assert max(bottom for _, _, _, bottom in credit) <= layout["height_mm"] - 2.5, (page, credit)
            credits_read.append(" ".join(text for text, _, _, _ in credit))
            in_box = [t for t in texts if stats["top_mm"] < (t[2] + t[3]) / 2 < box_bottom]
            assert in_box and max(bottom for _, _, _, bottom in in_box) < stats["bottom_mm"], (page, in_box)
    assert credits_read == [ATTRIBUTION] * len(views), set(credits_read)


RULES_MARK_WORDS = {word for lines in load_layout("card")["rules_mark"]["lines"].values() for word in lines}


def _card_texts(pdf: bytes, paper: str, bleed: bool = False) -> list[list[tuple[str, float, tuple]]]:
    """Every card's texts, in sheet order, as (string, size, (left, top, right, bottom) in mm from
    the card's top-left corner), read back from the PDF with pdfium."""
    from cardgen.render.sheets import sheet_geometry
    from tests.test_render_layout import pdf_texts
    geo = sheet_geometry(paper, bleed)
    found = []
    for page in range(len(pypdf.PdfReader(io.BytesIO(pdf)).pages)):
        slots: dict[int, list] = {}
        for text, size, (left, top, right, bottom) in pdf_texts(pdf, page):
            cx, cy = (left + right) / 2, (top + bottom) / 2
            for row in range(geo.rows):
                for col in range(geo.columns):
                    x0, y0 = geo.card_origin(row, col)
                    if text.strip() and x0 < cx < x0 + geo.card_w and y0 < cy < y0 + geo.card_h:
                        slots.setdefault(row * geo.columns + col, []).append(
                            (text.strip(), size, (left - x0, top - y0, right - x0, bottom - y0)))
        found += [slots[i] for i in sorted(slots)]
    return found


@pytest.mark.parametrize("paper, bleed", [("a4", False), ("letter", False), ("letter", True)])
def test_every_card_names_its_rules_by_the_credit_line_inside_the_cut(paper, bleed):
    """Issue 34: a card on the table says which rules it is made for. Read back from the PDF of
    both shipped BBL 2024-25 sets: each card prints its set's words ("Quicket" / "Advanced",
    "rules") at 6 pt or more, left of the credit line and on its baselines' band, never over the
    credit or the stats box, 2.5 mm inside the cut; the credit beside it still prints whole at
    6 pt in two lines; and preflight finds nothing on the sheets (overlaps, lines through text)."""
    from cardgen import ATTRIBUTION
    from tests.conftest import shipped_set
    layout = load_layout("card")
    stats_bottom = layout["stats"]["bottom_mm"] + layout["stats"]["box_width_mm"] / 2
    for rules, words in (("quicket", ["Quicket", "rules"]), ("advanced", ["Advanced", "rules"])):
        card_set = shipped_set("BBL_2024-25", rules)
        views = card_views(as_model(card_set))
        # every card kind and team colour on two sheets: strikers and bowlers, dark and light bands
        sample = views[:9] + [v for v in views if v.kind == "bowler"][-9:]
        pdf = render_cards_pdf(sample, paper, "t", ATTRIBUTION, bleed=bleed)
        assert check_pdf(pdf, f"{rules}.pdf") == []
        cards = _card_texts(pdf, paper, bleed)
        assert len(cards) == len(sample)
        for texts in cards:
            below = [t for t in texts if t[2][1] > stats_bottom]
            mark = [t for t in below if t[0] in RULES_MARK_WORDS]
            credit = [t for t in below if t[0] not in RULES_MARK_WORDS]
            assert [t[0] for t in mark] == words, texts
            assert " ".join(t[0] for t in credit) == ATTRIBUTION and len(credit) == 2
            assert min(t[1] for t in below) >= 6.0 - 0.01
            mark_right = max(t[2][2] for t in mark)
            assert mark_right < min(t[2][0] for t in credit)  # the mark left of the credit, apart
            for _, _, (left, _top, right, bottom) in below:  # 2.5 mm inside the cut on every side
                assert left >= 2.5 and right <= layout["width_mm"] - 2.5 and bottom <= layout["height_mm"] - 2.5
            # the two on one band: the mark's lines beside the credit's
            assert abs(mark[-1][2][3] - credit[-1][2][3]) < 1.0


def _shipped_sets(season: str) -> dict[str, dict]:
    """Both shipped card sets of a season (stats_cache/card-sets/), by the words their notes use:
    "advanced" (made for the wickets-in-hand rule) and "quicket" (the rules as printed)."""
    import gzip
    import json
    from pathlib import Path
    sets = {}
    for path in sorted((Path(__file__).resolve().parent.parent / "stats_cache" / "card-sets").glob(f"{season}-*.json.gz")):
        card_set = json.loads(gzip.decompress(path.read_bytes()))
        sets[rules_of_set(card_set)] = card_set
    assert set(sets) == {"advanced", "quicket"}, season
    return sets


def _lacking(card: dict) -> set[str]:
    """What the card's printed stats show that its chart has no face for (the test's own reading
    of the card: runs, 4s, 6s on a striker card; wickets and runs on a bowler card)."""
    faces = {r["result"] for r in card["chart"]}
    real = card.get("real") or {}
    runs = bool(faces & set("12346"))
    if card["kind"] == "striker":
        lacking = {"runs"} if real.get("runs", 0) > 0 and not runs else set()
        if not lacking:
            lacking |= {"4"} if real.get("fours", 0) > 0 and "4" not in faces else set()
            lacking |= {"6"} if real.get("sixes", 0) > 0 and "6" not in faces else set()
        return lacking
    return ({"wickets"} if real.get("dismissals", 0) > 0 and not faces & {"W", "B"} else set()) | (
        {"runs"} if real.get("runs", 0) > 0 and not runs else set())


NOTE_FOR = {("striker", frozenset({"runs"})): ("striker_no_runs",),
            ("striker", frozenset({"4", "6"})): ("striker_no_boundaries",),
            ("striker", frozenset({"4"})): ("striker_no_4",), ("striker", frozenset({"6"})): ("striker_no_6",),
            ("bowler", frozenset({"wickets"})): ("bowler_no_wickets",), ("bowler", frozenset({"runs"})): ("bowler_no_runs",),
            ("bowler", frozenset({"wickets", "runs"})): ("bowler_no_wickets", "bowler_no_runs")}


@pytest.mark.slow
@pytest.mark.parametrize("season", ["BBL_2024-25", "IPL_2025"])
def test_a_card_lacking_a_result_its_stats_show_says_where_it_comes_from(season):
    """Issue 42 (and helper-45's review before it): a card whose chart has no face for what its own
    stats print (Jamie Overton, BBL 2024-25: "4s: 11" and no 4; Colin Munro's printed-rules striker
    card: 46 runs and no run face; Matheesha Pathirana, IPL 2025: 13 wickets and no W or B) says
    where those come from, in the blank ranges at 6 pt, left of the greyed results, in its rule
    set's words (the printed rules: the other card and the fielding chart; the advanced rules: the
    attack die too). Every such card of both shipped sets does; no other card prints a note."""
    from cardgen.render.card import wrap_words
    from cardgen.render.layout import MM
    from cardgen.render.sheets import sheet_geometry
    card = load_layout("card")
    spec = card["column_note"]
    half = (card["width_mm"] - 2 * card["margin_mm"]) / 2
    named = {"BBL_2024-25": {("advanced", "JAMIE OVERTON", "striker", "striker_no_4"),
                             ("advanced", "SPENCER JOHNSON", "striker", "striker_no_runs"),
                             ("quicket", "COLIN MUNRO", "striker", "striker_no_runs"),
                             ("quicket", "JAMES PEIRSON", "striker", "striker_no_6")},
             "IPL_2025": {("advanced", "MATHEESHA PATHIRANA", "bowler", "bowler_no_wickets"),
                          ("advanced", "JASPRIT BUMRAH", "bowler", "bowler_no_runs"),
                          ("advanced", "SHERFANE RUTHERFORD", "striker", "striker_no_4"),
                          ("advanced", "MS DHONI", "striker", "striker_no_boundaries")}}[season]
    seen = set()
    for rules, card_set in _shipped_sets(season).items():
        views = card_views(as_model(card_set))
        cards = {(c["player"]["name"].upper(), c["kind"], c["team"]): c for c in card_set["cards"]}
        expected = {id(v): NOTE_FOR.get((v.kind, frozenset(_lacking(cards[(v.name, v.kind, v.team)]))), ())
                    for v in views}
        assert all(v.column_notes == expected[id(v)] and v.note_rules == rules for v in views)
        seen |= {(rules, v.name, v.kind, key) for v in views for key in v.column_notes}
        noted = [v for v in views if v.column_notes]
        assert len(noted) >= 10, (rules, len(noted))
        sample = noted + [v for v in views if not v.column_notes][:9]
        geo = sheet_geometry("a4")
        slots: list[list[tuple[str, float, float, float]]] = []  # (text, size, x, y from the card's corner)
        for page in pypdf.PdfReader(io.BytesIO(render_cards_pdf(sample, "a4", "t", "credit"))).pages:
            found: dict[int, list[tuple[str, float, float, float]]] = {}

            def visit(text, cm, tm, font, size, found=found, geo=geo):  # type: ignore[no-untyped-def]
                x, y = tm[4] / MM, geo.page_h - tm[5] / MM
                for row in range(geo.rows):
                    for col in range(geo.columns):
                        left, top = geo.card_origin(row, col)
                        if text.strip() and left <= x <= left + geo.card_w and top <= y <= top + geo.card_h:
                            found.setdefault(row * geo.columns + col, []).append(
                                (text.strip(), float(size), x - left, y - top))
            page.extract_text(visitor_text=visit)
            slots += [found[i] for i in sorted(found)]
        assert len(slots) == len(sample)
        chart_top = card["chart"]["top_mm"]
        for view, texts in zip(sample, slots):
            notes_printed = [(t, size, x, y) for t, size, x, y in texts if size == spec["pt"]
                             and chart_top < y < card["stats"]["top_mm"]]
            want = []
            for key in view.column_notes:
                note = spec[key]
                lines = wrap_words(note["text"][rules], spec["font"], spec["pt"], spec["width_mm"])
                left = card["margin_mm"] + note["column"] * half
                rows_top = chart_top + note["first_row"] * card["chart"]["row_mm"]
                rows_bottom = rows_top + note["rows"] * card["chart"]["row_mm"]
                mine = [(t, x) for t, _, x, y in notes_printed if left < x < left + half and rows_top < y < rows_bottom]
                assert [t for t, _ in mine] == lines, (rules, view.name, key, texts)
                assert all(x + spec["width_mm"] <= left + card["chart"]["result_centre_mm"] - 2.0 + spec["left_mm"]
                           for _, x in mine)  # clear of the greyed results
                want += lines
            assert [t for t, _, _, _ in notes_printed] == want, (rules, view.name)
    assert named <= seen, named - seen
