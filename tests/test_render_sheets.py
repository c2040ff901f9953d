"""Fielding chart, scoresheets (T20 and 100-ball), team sheets and quick reference, read back."""
from __future__ import annotations

import math
import re

import pytest
from pypdf.generic import ContentStream

import pdf_text
from pdf_text import CachedPage

from cardgen.calibrate.model import chart_cells
from cardgen.cardset import CardSet
from cardgen.render.fielding import render_fielding_pdf
from cardgen.render.layout import MM, load_layout
from cardgen.render.scoresheet import footer_numbers, render_scoresheet_pdf
from cardgen.render.preflight import check_pdf
from cardgen.render.teamsheets import render_quick_reference_pdf, render_team_sheets_pdf
from cardgen.render.sheets import render_cards_pdf
from conftest import as_model

CREDIT = "Ball-by-ball data from Cricsheet (cricsheet.org), used under ODC-By 1.0."


@pytest.fixture(scope="session")
def card_sets(render_card_sets: dict) -> dict[str, dict]:
    return {"T20": render_card_sets["BBL"], "100-ball": render_card_sets["HUNDRED"]}


def _pages(data: bytes) -> list[CachedPage]:
    """The document's pages, read once per distinct document (tests/pdf_text.py: many tests
    render the same sheet from the same set)."""
    return pdf_text.pages(data)


def _team_page_groups(texts: list[str]) -> list[list[int]]:
    """The team sheets' page indices, team by team: a team too long for one page at full size
    says "on the next page" and continues its bowlers there (helper-45)."""
    groups: list[list[int]] = []
    for index, _text in enumerate(texts):
        if groups and "Bowlers by usage: on the next page." in " ".join(texts[index - 1].split()):
            groups[-1].append(index)
        else:
            groups.append([index])
    return groups


def _team_sheet_groups(pdf: bytes) -> list[list[int]]:
    return _team_page_groups([page.extract_text() for page in _pages(pdf)])


def _vertical_lines(page: CachedPage) -> list[tuple[float, float, bool]]:
    """Vertical segments as (x in mm, line width in mm, dashed)."""
    width, dashed, start, found = 0.0, False, None, []
    for operands, op in ContentStream(page.get_contents(), page.pdf).operations:
        if op == b"w":
            width = float(operands[0]) / MM
        elif op == b"d":
            dashed = len(operands[0]) > 0
        elif op == b"m":
            start = [float(v) for v in operands]
        elif op == b"l" and start is not None:
            x2, y2 = (float(v) for v in operands)
            if math.isclose(start[0], x2) and not math.isclose(start[1], y2):
                found.append((x2 / MM, width, dashed))
    return found


def _horizontal_rules(page: CachedPage, width_mm: float) -> list[tuple[float, float]]:
    """The page's full-width horizontal lines (a grid's row rules) as (y from the top in mm, line width in mm)."""
    height = float(page.mediabox[3]) / MM
    width, start, found = 0.0, None, []
    for operands, op in ContentStream(page.get_contents(), page.pdf).operations:
        if op == b"w":
            width = float(operands[0]) / MM
        elif op == b"m":
            start = [float(v) for v in operands]
        elif op == b"l" and start is not None:
            x2, y2 = (float(v) for v in operands)
            if math.isclose(start[1], y2) and abs(x2 - start[0]) / MM > width_mm / 2:
                found.append((height - y2 / MM, width))
    return found


@pytest.mark.parametrize("paper, least_mm", [("a4", 5.0), ("letter", 4.6)])
@pytest.mark.parametrize("fmt", ["T20", "100-ball"])
def test_scoresheet_rows_are_tall_enough_to_write_in_with_a_pencil(defence_card_sets, fmt, paper, least_mm):
    """Print audit: the rows were 4.49 mm on A4 and 4.13 on Letter (a set with Defence ratings),
    small for a pencilled 4, W or dot. Read back from the drawn rules: every row of the 4 grids
    (bowler row and 11 batters) at least 5.0 mm on A4 and 4.6 on Letter, with and without the R13
    line, and every printed text above the first grid's top or below the last grid's bottom
    (apart from the grids' own labels and counts) so the room was not taken from the header."""
    from test_render_layout import pdf_texts
    width = 210.0 if paper == "a4" else 215.9
    for card_set in (defence_card_sets[fmt], _without_defence(defence_card_sets[fmt])):
        pdf = render_scoresheet_pdf(as_model(card_set), paper, CREDIT)
        for index, page in enumerate(_pages(pdf)[:2]):  # the grid pages (3-4: the scorecard)
            ys = sorted(y for y, _ in _horizontal_rules(page, width))
            assert len(ys) == 4 * 13, (paper, index)  # 4 grids of 13 rules: bowler row + 11 batters
            rows = [b - a for g in range(4) for a, b in zip(ys[13 * g:13 * g + 12], ys[13 * g + 1:13 * g + 13])]
            assert min(rows) >= least_mm, (fmt, paper, index, min(rows))
            texts = pdf_texts(pdf, index)
            grid_texts = [box for text, _, box in texts if ys[0] < box[1] < ys[-1]]
            assert len(grid_texts) == 4 * (1 + 11 + 1 + 5)  # Bowler, 1-11, R(B), the 5 counts
            # the balls bowled (remaining) at each over's end stand inside its grid's bowler row
            for grid in range(4):
                top, bottom = ys[13 * grid], ys[13 * grid + 1]
                counts = [int(text) for text, _, box in texts
                          if text.strip().isdigit() and top < box[1] and box[3] < bottom]
                bpo, bpi = (6, 120) if fmt == "T20" else (5, 100)
                assert counts == footer_numbers(index + 1, grid, bpo, bpi), (paper, index, grid)


@pytest.mark.needs_data
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("fmt, balls_per_over, grid_balls, innings_balls", [
    ("T20", 6, 30, 120), ("100-ball", 5, 25, 100)])
def test_scoresheet_grids_follow_the_format_one_writable_page_per_innings(card_sets, paper, fmt, balls_per_over,
                                                                           grid_balls, innings_balls):
    pages = _pages(render_scoresheet_pdf(as_model(card_sets[fmt]), paper, CREDIT))
    assert len(pages) == 4  # one grid page per innings, then each innings' scorecard
    pages = pages[:2]
    spec = load_layout("sheets")["scoresheet"]
    assert spec["text_pt"] >= 7  # labels a reader can see at arm's length
    for innings, page in enumerate(pages, 1):
        width, height = (float(v) / MM for v in page.mediabox[2:])
        assert width < height  # portrait
        text = page.extract_text()
        assert "R(B)" in text and f"Innings {innings}:" in text
        words = text.split()
        if innings == 1:  # under each over divider: balls bowled in innings 1 ...
            assert "balls bowled" in text
            numbers = range(balls_per_over, innings_balls + 1, balls_per_over)
        else:  # ... and balls remaining in innings 2
            assert "balls remaining" in text and "Target" in text
            numbers = range(0, innings_balls, balls_per_over)
        for n in numbers:
            assert str(n) in words
        lines = _vertical_lines(page)
        over_lines = sorted(x for x, w, dashed in lines
                            if math.isclose(w, spec["over_line_mm"], abs_tol=1e-3) and not dashed)
        ball_lines = sorted(x for x, w, dashed in lines if dashed)
        grids = 4
        assert len(over_lines) == grids * (grid_balls // balls_per_over + 1)
        assert len(ball_lines) == grids * (grid_balls - grid_balls // balls_per_over)
        # every ball box at least 5 mm wide (a pencilled 4, W or dot fits)
        xs = sorted(set(round(x, 3) for x in over_lines + ball_lines))
        assert min(b - a for a, b in zip(xs, xs[1:])) >= 5.0


@pytest.mark.needs_data
def test_fielding_chart_prints_every_cell_and_explains_every_result(card_sets):
    card_set = card_sets["T20"]
    words = load_layout("fielding")["results"]
    page = _pages(render_fielding_pdf(as_model(card_set), "a4", CREDIT))[0]
    cells = chart_cells(card_set)   # with the four leg byes / byes (R14), printed as such
    assert {"leg_bye_4", "bye_4"} <= {r for row in cells for r in row}
    texts: list[str] = []
    page.extract_text(visitor_text=lambda t, *_: texts.append(t.strip()) if t.strip() else None)
    joined = " ".join(texts)
    for result in {r for row in cells for r in row}:
        short = words[result]["short"]
        assert short in joined, result
        assert words[result]["legend"][:20] in joined, result
    # a short label can wrap onto two lines; count whole labels through their first line ("4
    # leg" of "4 leg byes") or first word (not a bare number: the d20 header prints those)
    for result in {r for row in cells for r in row}:
        expected = sum(row.count(result) for row in cells)
        short = words[result]["short"]
        first_word = short.split()[0]
        drawn = sum(1 for t in texts if t == short or (t == first_word and not t.isdigit())
                    or (short.startswith(t + " ") and not t.isdigit()))
        assert drawn >= expected, result
    for row in range(1, 7):
        assert f"d6 = {row}:" in texts
    assert CREDIT in joined


@pytest.mark.needs_data
def test_team_sheets_list_the_usual_xi_in_order_with_the_keeper(card_sets):
    card_set = card_sets["T20"]
    pages = _pages(render_team_sheets_pdf(as_model(card_set), "a4", CREDIT))
    assert len(pages) == len(card_set["teams"])  # one page per team
    names = {c["player"]["id"]: c["player"]["name"].upper() for c in card_set["cards"]}
    for team, page in zip(card_set["teams"], pages):
        text = page.extract_text()
        assert team["name"] in text
        positions = [text.index(names[pid]) for pid in team["batting_order"]]
        assert positions == sorted(positions)
        assert f"{names[team['wicketkeeper']]} \u2020" in text
        reserves = [pid for pid in team.get("reserves", []) if pid in names]
        assert reserves
        for pid in reserves:
            assert names[pid] in text
        if len(reserves) < len(team["reserves"]):  # squad players without a card are counted
            assert "without a card" in text
        bowler_cards = {c["player"]["id"]: c for c in card_set["cards"]
                        if c["team"] == team["name"] and c["kind"] == "bowler"}
        for pid in team.get("bowlers", []):
            usage = bowler_cards[pid]["usage"]
            assert f"{usage['letter']}/{usage['innings']}" in text


@pytest.mark.needs_data
@pytest.mark.parametrize("fmt", ["T20", "100-ball"])
def test_quick_reference_is_one_page_for_the_format(card_sets, fmt):
    pages = _pages(render_quick_reference_pdf(as_model(card_sets[fmt]), "letter", CREDIT))
    assert len(pages) == 1
    assert [float(v) for v in pages[0].mediabox[2:]] == [612.0, 792.0]
    text = " ".join(pages[0].extract_text().split())
    assert "d6 1-3: read the bowler's card; d6 4-6: read the striker's card" in text
    if fmt == "T20":
        assert "20 overs of 6 balls" in text and "30-ball grids" in text
    else:
        assert "100 balls an innings, in sets of 5 balls" in text and "25-ball grids" in text


@pytest.mark.needs_data
def test_every_keeper_on_the_team_sheets_shows_the_rating_their_card_shows(card_sets):
    # under the "Wicketkeeper" heading, the cards' one spelling (the sheet said "WK(20)")
    card_set = card_sets["T20"]
    pages = _pages(render_team_sheets_pdf(as_model(card_set), "a4", CREDIT))
    keepers = 0
    for team, page in zip(card_set["teams"], pages):
        text = " ".join(page.extract_text().split())
        for card in card_set["cards"]:
            rating = card["player"].get("keeper")
            if card["team"] == team["name"] and rating:
                # "OLLIE POPE \u2020 Wicketkeeper 20 C(20) / RO(4)": name, role, rating, fielding
                row = rf"{re.escape(card['player']['name'].upper())}(?: \u2020)? [A-Za-z*-]+ {rating} C\("
                assert re.search(row, text), card["player"]["name"]
                keepers += 1
    assert keepers > len(card_set["teams"])  # reserve keepers too, not only each XI's keeper


def test_quick_reference_bullets_wrap_under_their_own_text_not_under_the_bullet():
    # a wrapped bullet's second line starts where its first line's text starts (a hanging
    # indent), the way a gamer's eye expects a list to read
    import html
    import re

    import pypdfium2

    from cardgen.render.sample import rules_example_card_set
    from cardgen.render.teamsheets import quick_reference_text
    card_set = rules_example_card_set()
    page = pypdfium2.PdfDocument(render_quick_reference_pdf(as_model(card_set), "a4", CREDIT))[0]
    textpage = page.get_textpage()
    raw = textpage.get_text_range()
    flat = [(k, ch) for k, ch in enumerate(raw) if ch not in "\r\n"]  # wraps dropped
    joined = "".join(ch for _, ch in flat)
    wrapped = 0
    for line in quick_reference_text(as_model(card_set)).splitlines():
        if not line.startswith("- "):
            continue
        words = html.unescape(re.sub(r"<[^>]+>", "", line[2:])).split()
        start = joined.find(words[0])
        while start >= 0 and joined[start:].replace(" ", "")[:len("".join(words))] != "".join(words):
            start = joined.find(words[0], start + 1)
        assert start >= 0, line
        text_x = textpage.get_charbox(flat[start][0])[0]
        end, letters = start, 0
        while letters < len("".join(words)):  # the paragraph's characters, spaces aside
            letters += joined[end] != " "
            end += 1
        for i in range(start + 1, end):
            k = flat[i][0]
            if raw[k - 1] == "\n" and joined[i] != " ":  # a line this paragraph wrapped onto
                wrapped += 1
                assert abs(textpage.get_charbox(k)[0] - text_x) < 1.0, (line, joined[i:i + 20])
    assert wrapped >= 3  # the page has several wrapped bullets to check


def test_quick_reference_names_the_fielders_deck_one_way_and_says_what_a_dot_scores():
    # the W result and the catch chance both send the player to the same deck: one name for it
    # (the rules' "defensive team's deck" is "the fielding side's deck" throughout the kit)
    from cardgen.render.sample import rules_example_card_set
    from cardgen.render.teamsheets import quick_reference_text
    lines = quick_reference_text(as_model(rules_example_card_set())).splitlines()
    caught = next(line for line in lines if line.startswith("- <b>W</b>"))
    catch_chance = next(line for line in lines if "Catch chance" in line)
    dot = next(line for line in lines if line.startswith("- <b>&#8226;</b>"))
    assert "the fielding side's deck" in caught and "the fielding side's deck" in catch_chance
    # a player holding a striker and a bowler card is one fielder, as the engines draw (uniform
    # over the XI, docs/rules.md "Dice"): both lines say so
    assert "one card a player" in caught and "one card a player" in catch_chance
    assert "defensive" not in " ".join(lines)
    assert "no run" in dot and "printed" not in dot  # says what it scores, not how it looks


@pytest.mark.needs_data
@pytest.mark.parametrize("fmt", ["T20", "100-ball"])
def test_the_quick_reference_says_no_he_or_his(card_sets, fmt):
    """One quick reference serves the women's leagues too (WPL, the women's Super Smash): the
    stand-in line said 'the card his team sheet names' (helper-34)."""
    import re

    from cardgen.render.teamsheets import quick_reference_text
    text = quick_reference_text(as_model(card_sets[fmt]))
    assert not re.findall(r"\b(he|his|him|himself|batsman|batsmen)\b", text, re.IGNORECASE)
    assert "bats with the card the team sheet names" in text


@pytest.mark.needs_data
def test_team_sheets_explain_every_mark_their_tables_use(card_sets):
    # a gamer reading "*" in the Role column (the rules' "primarily used as a bowler") or the
    # dagger finds what it means on the same page
    pages = _pages(render_team_sheets_pdf(as_model(card_sets["T20"]), "a4", CREDIT))
    starred = 0
    for page in pages:
        text = page.extract_text()
        assert "\u2020 = the XI's wicketkeeper" in text and "S = striker, B = bowler" in text
        if " * " in " ".join(text.split()):
            starred += 1
            assert "Role * = mainly a bowler" in text
    assert starred >= 4  # most BBL sides list tail-enders marked *


@pytest.mark.needs_data
@pytest.mark.parametrize("fmt, unit, spans", [("T20", "overs", ("1-6", "7-15", "16-20")),
                                               ("100-ball", "balls", ("1-25", "26-75", "76-100"))])
def test_team_sheets_print_when_each_bowler_bowled(card_sets, bbl_stats, hundred_stats, fmt, unit, spans):
    """Each bowler's PP / Mid / Death shares on the team sheet are his real balls in the
    format's phases (the stats tables' counts, not the card set's), and the legend names them."""
    import re

    from cardgen.render.fonts import upper
    card_set, stats = card_sets[fmt], {"T20": bbl_stats, "100-ball": hundred_stats}[fmt]
    pages = _pages(render_team_sheets_pdf(as_model(card_set), "a4", CREDIT))
    table = stats.bowling.set_index(["player_id", "team"])
    names = {c["player"]["id"]: upper(c["player"]["name"]) for c in card_set["cards"]}
    checked = 0
    for page, team in zip(pages, card_set["teams"]):
        text = " ".join(page.extract_text().split())
        assert (f"powerplay ({unit} {spans[0]}), the middle ({spans[1]}) and the death ({spans[2]})"
                in text)
        bowlers = text[text.index("Wickets PP Mid Death"):]
        carded = {c["player"]["id"] for c in card_set["cards"] if c["team"] == team["name"] and c["kind"] == "bowler"}
        for pid in [pid for pid in team["bowlers"] if pid in carded]:
            row = table.loc[(pid, team["name"])]
            shares = [round(100 * row[f"balls_{p}"] / row["legal_balls"]) for p in ("powerplay", "middle", "death")]
            printed = re.search(re.escape(names[pid]) + r" \S+ \S+ \S+ \d+ (\d+)% (\d+)% (\d+)%", bowlers)
            assert printed, (names[pid], bowlers[:300])
            assert [int(x) for x in printed.groups()] == shares
            checked += 1
    assert checked > 40


@pytest.mark.slow
@pytest.mark.parametrize("season", ["IPL_2024", "IPL_2025"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_ipl_sides_team_sheet_prints_at_full_size(season, paper):
    """IPL squads are the biggest of the bundled seasons (up to 11 reserves and 17 bowlers): their
    team sheets were shrunk to one page by KeepInFrame, IPL 2025's on US Letter to 83-98%, IPL
    2024's A4 to 90% (helper-45). Every side now prints at full size: on one page, its table rows
    a little tighter if need be, else with its bowlers on a second page of its own that says whose
    it is; every bowler of the side on its pages."""
    import copy

    from conftest import _shipped_rule_set
    from test_render_layout import pdf_texts
    card_set = _shipped_rule_set(season)
    pdf = render_team_sheets_pdf(as_model(card_set), paper, CREDIT)
    pages = _pages(pdf)
    groups = _team_sheet_groups(pdf)
    assert len(groups) == len(card_set["teams"]) and all(len(group) <= 2 for group in groups)
    assert any(len(group) == 2 for group in groups)  # these squads do not all fit one page
    # a page at full size: its headings as wide as on a short page (one side, no reserves or bowlers)
    small = copy.deepcopy(card_set)
    small["teams"] = [{**small["teams"][0], "reserves": [], "bowlers": []}]
    small_pdf = render_team_sheets_pdf(as_model(small), paper, CREDIT)

    def widths(data: bytes, index: int) -> dict[str, float]:
        return {text.strip(): right - left for text, _, (left, _, right, _) in pdf_texts(data, index)
                if text.strip() in ("Deck 1: batting order (usual XI)", "Bowlers by usage")}
    full = widths(small_pdf, 0)
    for team, group in zip(card_set["teams"], groups):
        text = " ".join(" ".join(pages[i].extract_text() for i in group).split())
        assert f"{team['name']} \u2014" in pages[group[0]].extract_text()  # each page is its own side's
        for name in _bowler_names(card_set, team):  # with every bowler of the side on it
            assert name in text
        if len(group) == 2:
            assert f"{team['name']} \u2014 {card_set['season']} (continued)" in pages[group[1]].extract_text()
        for index in group:
            for heading, width in widths(pdf, index).items():
                assert width == pytest.approx(full[heading], abs=0.005), (team["name"], heading, paper)
        assert "Bowlers by usage" in widths(pdf, group[-1])


def _bowler_names(card_set: dict, team: dict) -> list[str]:
    from cardgen.render.fonts import upper
    names = {c["player"]["id"]: c["player"]["name"] for c in card_set["cards"] if c["team"] == team["name"]}
    return [upper(names[pid]) for pid in team.get("bowlers") or [] if pid in names]


def test_scoresheet_says_what_every_face_of_each_wickets_in_hand_d20_does():
    # the reminder under the band table gave attack's 1-10 and consolidate's 1-12 only; a gamer
    # rolling 15 had to guess. Each line now covers 1-20, one result per face
    import re

    from cardgen.render.sample import rules_example_card_set
    from cardgen.wickets_in_hand import RULE_NAME
    card_set = {**rules_example_card_set(), "rule": RULE_NAME}
    text = " ".join(_pages(render_scoresheet_pdf(as_model(card_set), "a4", CREDIT))[0].extract_text().split())
    for band in ("Attack", "Consolidate"):
        line = re.search(band + r", on a [^:]+: d20 (.*?)\.", text).group(1)
        faces = []
        for lo, hi in re.findall(r"\b(\d+)(?:-(\d+))? ", line + " "):
            faces += range(int(lo), int(hi or lo) + 1)
        assert sorted(faces) == list(range(1, 21)), (band, line)


@pytest.mark.needs_data
@pytest.mark.parametrize("fmt", ["T20", "100-ball"])
def test_the_card_sheets_print_each_team_in_the_order_of_its_two_decks(card_sets, fmt):
    """Print audit: rules 1.5 has the gamer sort each team into two decks, the usual XI in
    batting order and the reserves, as the team sheet lists them; the card sheets printed a team
    by each player's usual batting position instead, reserves mixed in (BBL 2024-25 Adelaide:
    Alex Carey, a reserve, third), so every sheet had to be sorted against the team sheet. Now
    the names on a team's card sheets come in the team sheet's order, and a player's striker
    card is next to his bowler card."""
    import pypdfium2
    from cardgen.render.card import card_views
    from cardgen.render.sheets import render_cards_pdf
    card_set = card_sets[fmt]
    views = card_views(as_model(card_set))
    sheet_pages = _pages(render_team_sheets_pdf(as_model(card_set), "a4", CREDIT))
    for team, sheet_page in zip(card_set["teams"], sheet_pages):
        team_views = [v for v in views if v.team == team["name"]]
        names = {v.name for v in team_views}
        # the team sheet's order: every deck name as it comes down the page, up to the bowlers' table
        text = sheet_page.extract_text().split("Bowlers by usage")[0]
        listed = sorted(names, key=lambda n: text.index(n))
        assert all(n in text for n in names)
        # the card sheets' order: the names as pdfium reads them from the PDF, sheet after sheet
        pdf = pypdfium2.PdfDocument(render_cards_pdf(team_views, "a4", "t", CREDIT))
        printed: list[str] = []
        for page in pdf:
            for line in page.get_textpage().get_text_range().splitlines():
                line = line.strip()
                if line in names and (not printed or printed[-1] != line):
                    printed.append(line)
        assert printed == listed, (team["name"], printed[:6], listed[:6])


@pytest.mark.needs_data
@pytest.mark.parametrize("fmt, unit", [("T20", "over"), ("100-ball", "set")])
def test_the_scoresheet_says_sets_on_the_hundred_throughout(card_sets, fmt, unit):
    """Print audit: The Hundred's scoresheet headed its rows "Bowler (sets)" but told the scorer to
    "write the bowler and their over count above each over"."""
    text = " ".join(page.extract_text() for page in _pages(render_scoresheet_pdf(as_model(card_sets[fmt]), "a4", CREDIT)))
    text = " ".join(text.split())
    assert f"Bowler ({unit}s)" in text
    assert f"Write the bowler and their {unit} count above each {unit};" in text
    other = "set" if unit == "over" else "over"
    assert f"each {other}" not in text and f"{other} count" not in text and f"Bowler ({other}s)" not in text


@pytest.mark.needs_data
@pytest.mark.parametrize("fmt, unit, bands", [
    ("T20", "over", ["A+ = 4 overs a match", "A = 3-4", "B = 2-3", "C = 1-2", "D = under 1"]),
    ("100-ball", "set", ["A+ = 20 balls a match", "A = 15-20", "B = 10-15", "C = 5-10", "D = under 5"])])
def test_the_quick_reference_keeps_each_usage_band_on_one_line_and_says_set_on_the_hundred(
        card_sets, fmt, unit, bands):
    """Print audit: The Hundred's quick reference (US Letter) broke "D = under 5" after "D =", and
    told the scorer to mark the ball "under the current over" beside sets of 5 balls."""
    import pypdfium2
    for paper in ("a4", "letter"):
        page = pypdfium2.PdfDocument(render_quick_reference_pdf(as_model(card_sets[fmt]), paper, CREDIT))[0]
        lines = [" ".join(line.replace("\u00a0", " ").split())
                 for line in page.get_textpage().get_text_range().splitlines()]
        for band in bands:
            assert any(band in line for line in lines), (paper, band)
        text = " ".join(lines)
        assert f"under the current {unit};" in text


@pytest.mark.needs_data
@pytest.mark.parametrize("fmt", ["T20", "100-ball"])
def test_a_batter_without_a_striker_card_is_told_which_card_he_bats_with(card_sets, bbl_stats, hundred_stats,
                                                                        fmt):
    """Sydney Thunder's No. 11 Wes Agar (BBL 2024-25) and Southern Brave's Tymal Mills (The Hundred
    2024) have only a bowler card: the team sheet printed "Cards: B" and nothing else, so a
    hand-played match stopped at 9 down (6 of 30 seeded matches). The sheet names the striker
    card the engines bat him with (docs/rules.md R9)."""
    import numpy as np

    from cardgen.sim.captain import Captain
    from cardgen.sim.model import compile_card_set
    card_set = card_sets[fmt]
    stats = bbl_stats if fmt == "T20" else hundred_stats
    captain = Captain(compile_card_set(as_model(card_set)), stats.lineups, stats.bowling, np.random.default_rng(0))
    pages = _pages(render_team_sheets_pdf(as_model(card_set), "a4", CREDIT))
    names = {c["player"]["id"]: c["player"]["name"].upper() for c in card_set["cards"]}
    strikers = {(c["player"]["id"], c["team"]) for c in card_set["cards"] if c["kind"] == "striker"}
    without = 0
    for team, page in zip(card_set["teams"], pages):
        text = " ".join(page.extract_text().split())
        side = captain.usual_side(team["name"])
        for slot, pid in enumerate(team["batting_order"]):
            if (pid, team["name"]) in strikers:
                continue
            without += 1
            card = captain.cs.striker_cards[side.batters[slot]]
            assert card.team == team["name"]
            assert (f"{names[pid]} has no striker card: bats with {card.player.name.upper()}'s striker card"
                    in text), (team["name"], names[pid])
    assert without >= 1  # Wes Agar; Tymal Mills and Chris Wood


@pytest.mark.needs_data
@pytest.mark.parametrize("fmt", ["T20", "100-ball"])
def test_the_quick_reference_settles_what_a_hand_played_match_met(card_sets, bbl_stats, hundred_stats, fmt):
    """A whole match played by hand from the printed kit (helper-32's log) met six moments the
    quick reference left open, each of which the engines settle one way (docs/rules.md R3-R6,
    R8, R12): who can be the fielder beside the keeper in a run-out, where the new batter
    stands, whether a run-out scores, the free hit after a no-ball, what the chase's "needing"
    counts from (the scoresheet has a Target box; the page said "passes the target"), and
    whether super overs read the band table (0 down with 6 balls left would be attack). Each is
    on the page now, which stays one page on A4 and Letter; and a missed stumping chance in the
    attack band is a dot the d20 rolls again, in the engine as on the page."""
    import pypdfium2

    import numpy as np

    from cardgen.sim.model import compile_card_set
    from cardgen.sim.reference import Dice, _deliver
    from cardgen.wickets_in_hand import ATTACK, rule_of_set
    card_set = card_sets[fmt]
    rule = rule_of_set(card_set)
    balls = 100 if fmt == "100-ball" else 120
    for paper in ("a4", "letter"):
        pdf = pypdfium2.PdfDocument(render_quick_reference_pdf(as_model(card_set), paper, CREDIT))
        assert len(pdf) == 1, paper
        text = " ".join(pdf[0].get_textpage().get_text_range().replace("\u00a0", " ").split())
        assert "on rows 1, 3, 4 and 6 not the keeper: draw again" in text
        assert "the new batter takes the out batter's end: on strike, unless the non-striker was run out" in text
        assert "A run-out scores no run." in text
        assert "After a no-ball the next ball is a free hit: the striker can be out only run out" in text
        assert "Target = the first innings' total + 1: the side batting second wins on reaching it" in text
        assert "passes the target" not in text
        assert f"needing over {rule.chase_attack_above:g} a ball: always attack (target \u2212 total > " \
               f"{rule.chase_attack_above:g} \u00d7 balls left)" in text
        # the Hundred's tie-break is the Super Five (5 balls); a T20 league's the super over
        tie = "a Super Five, 5 balls" if fmt == "100-ball" else "a super over, 6 balls"
        assert f"{'Super Fives' if fmt == '100-ball' else 'Super overs'}: cards as printed." in text
        # who bats first in it and what a tied one leads to (R8, rules 3.7.1): a player with the
        # kit alone meets a tie and must not need docs/rules.md to go on (helper-50)
        assert (f"A tie: {tie}, three batters a side, two wickets end it; the side that batted "
                f"second bats first. Tied again: another, the other side first; after five, a tie.") in text
        assert ("Super overs" in text) == (fmt == "T20")
        assert f"balls left = {balls} \u2212 legal balls bowled" in text
        assert "on a \u2022 (a missed stumping chance too) roll a d20" in text
        assert "(always out)" not in text  # a W in the consolidate band can be saved
    # the engine: a stumping chance the keeper misses, in the attack band, goes to the d20
    from test_sim_rules import ScriptedRng

    from cardgen.sim.model import FIELD, STUMPING_CHANCE
    cs = compile_card_set(as_model(card_set))
    row, col = (int(x[0]) for x in np.nonzero(cs.fielding == STUMPING_CHANCE))
    card, pct = (int(x[0]) for x in np.nonzero(cs.striker_lut == FIELD))
    four = next(lo for lo, hi, result in rule.attack_ranges() if result == "four")
    rolls = [4, pct + 1, row + 1, col + 1, 20, four]  # striker card, F, St chance, d20 20 > WK(5), attack d20
    ball = _deliver(cs, Dice(ScriptedRng(rolls)), 0, card, 0, 1, False, list(range(11)), 0, 5, rule, ATTACK)
    assert ball.bat_runs == 4 and ball.out_slot is None and "attack: four" in ball.result
    # a super over as the engine plays it (R8): one over or set, three batters, two wickets
    from cardgen.sim.captain import Captain
    from cardgen.sim.reference import play_super_over
    stats = bbl_stats if fmt == "T20" else hundred_stats
    captain = Captain(cs, stats.lineups, stats.bowling, np.random.default_rng(0))
    home, away = (captain.usual_side(t["name"]) for t in card_set["teams"][:2])
    for seed in range(20):
        for inn in play_super_over(cs, home, away, Dice(np.random.default_rng(seed))):
            assert inn.legal_balls <= cs.fmt.balls_per_over and inn.wickets <= 2 and len(inn.batters) <= 3
            assert not any(b.band for b in inn.balls)  # as printed: no wickets-in-hand die
    # the chase: runs needed count from the target (the first innings' total + 1). Needing 121
    # off 60 balls with no wicket down attacks; 120 (counted from the total) would read the table
    assert rule.band(0, 60, balls, runs_needed=121) == ATTACK
    assert rule.band(0, 60, balls, runs_needed=120) != ATTACK


@pytest.mark.needs_data
@pytest.mark.parametrize("fmt, unit", [("T20", "over"), ("100-ball", "set")])
def test_the_fielding_chart_says_what_the_table_needs_after_a_no_ball_and_a_run_out(card_sets, fmt, unit):
    """Played by hand, the fielding chart said "free hit where played" (both formats play them,
    docs/rules.md R6), left open which fielder stands beside the keeper in a run-out and where
    the new batter goes, and told The Hundred that a wide "does not count in the over". Nor did
    anything printed say which extras are balls faced, the B of a batter's R(B) (docs/rules.md R7)."""
    texts: list[str] = []
    page = _pages(render_fielding_pdf(as_model(card_sets[fmt]), "letter", CREDIT))[0]
    page.extract_text(visitor_text=lambda t, *_: texts.append(t.strip()) if t.strip() else None)
    joined = " ".join(" ".join(texts).split())
    assert "No-ball: 1 run, a ball faced, not counted; batters stay; next ball a free hit." in joined
    assert "where played" not in joined
    assert "Free hit: the striker can be out only run out (any other out is a dot)." in joined
    assert "The fielder with the keeper is another player: draw again if you draw the keeper." in joined
    assert "After a wicket the new batter takes the out batter's end." in joined
    assert "Run out: draw a fielder; the d6 row says who is out (below); no run." in joined
    assert "stumped if \u2264 the keeper's WK, else a dot." in joined
    if "wide" in {r for row in card_sets[fmt]["fielding_chart"]["cells"] for r in row}:
        assert f"Wide: 1 run, not counted in the {unit}, not a ball faced; batters stay." in joined
        assert f"in the {'over' if unit == 'set' else 'set'}" not in joined


@pytest.mark.needs_data
@pytest.mark.parametrize("fmt, unit", [("T20", "over"), ("100-ball", "set")])
def test_the_scoresheet_says_where_a_wide_or_no_ball_is_written(card_sets, fmt, unit):
    """An over has one box per legal ball; a hand-played BBL over of 2 wides, a bye and six
    legal balls had nowhere to write the wides. The note under the grids says where, whole, on
    one line at 6 pt or more, on A4 and Letter; the next line says what the numbers printed in
    the bowler row count (balls bowled, then remaining), at the same size. It starts by saying
    where the batters go: the name column's only heading is the bowler row's "Bowler (overs)"
    (gamer's audit, helper-41: a first-time scorer read it as the bowlers' column)."""
    from test_render_layout import pdf_texts
    for paper in ("a4", "letter"):
        pdf = render_scoresheet_pdf(as_model(card_sets[fmt]), paper, CREDIT)
        for page, counted in ((0, "bowled"), (1, "remaining")):
            texts = pdf_texts(pdf, page)
            notes = [(text, size) for text, size, _ in texts if "wide (wd)" in text]
            counts = [(text, size) for text, size, _ in texts if text.startswith("Write the bowler")]
            assert len(notes) == len(counts) == 1, (paper, page)
            text, size = notes[0]
            # lb / b: a leg bye is the striker's ball but not his run (helper-44)
            assert text == ("Batters in order down the left (keeper \u2020). W = wicket (outline the box), \u2022 = dot, "
                            "lb = leg bye, b = bye; wide (wd) or no-ball (nb): in the next ball's box.")
            assert size >= 7.0, (paper, size)
            # The Hundred changes ends every 10 balls, not at each set's line: the sheet says where
            # (played by hand, helper-50: the T20 habit changes ends after 5). A printed number
            # ending in 0 is 10, 20, ... balls bowled in either innings (remaining = 100 - bowled)
            ends = "; change ends at each one ending in 0" if fmt == "100-ball" else ""
            assert counts[0][0] == (f"Write the bowler and their {unit} count above each {unit}; the printed "
                                    f"number at its end: balls {counted} after it{ends}.")
            assert size == counts[0][1] >= 6.0


@pytest.mark.needs_data
def test_the_fielding_chart_says_a_leg_bye_is_an_extra_as_the_engine_scores_it(card_sets):
    """The rules (4.3.9) say the striker "scores one run" on a leg bye; the engines score it to
    the extras, not the batter (docs/rules.md R7), and the chart said only "1 run". A scorer
    filling R(B) needs to know which."""
    import numpy as np
    from test_sim_rules import ScriptedRng

    from cardgen.sim.model import FIELD, LEG_BYE, compile_card_set
    from cardgen.sim.reference import Dice, _deliver
    card_set = card_sets["T20"]
    texts: list[str] = []
    page = _pages(render_fielding_pdf(as_model(card_set), "a4", CREDIT))[0]
    page.extract_text(visitor_text=lambda t, *_: texts.append(t.strip()) if t.strip() else None)
    joined = " ".join(" ".join(texts).split())
    assert "Leg bye: 1 run to Extras, not the batter's; batters change ends." in joined
    cs = compile_card_set(as_model(card_set))
    row, col = (int(x[0]) for x in np.nonzero(cs.fielding == LEG_BYE))
    card, pct = (int(x[0]) for x in np.nonzero(cs.striker_lut == FIELD))
    ball = _deliver(cs, Dice(ScriptedRng([4, pct + 1, row + 1, col + 1])), 0, card, 0, 1, False,
                    list(range(11)), 0, 10)
    assert (ball.bat_runs, ball.extras, ball.extra_kind, ball.legal) == (0, 1, "leg_bye", True)


@pytest.mark.needs_data
@pytest.mark.parametrize("fmt", ["T20", "100-ball"])
def test_the_second_innings_target_box_says_the_total_plus_one(card_sets, fmt):
    """The chase line ("needing over 2 a ball") counts from the target, the first innings'
    total + 1, as the engines do (reference.play_match); a bare "Target ____" box was filled with
    the first innings' total by hand, one run off at the chase edge."""
    for paper in ("a4", "letter"):
        pages = [" ".join(p.extract_text().split()) for p in _pages(render_scoresheet_pdf(as_model(card_sets[fmt]), paper,
                                                                                         CREDIT))]
        assert "Target" not in pages[0]
        assert "Target (1st total + 1)" in pages[1]


def _without_defence(card_set: dict) -> dict:
    import copy
    plain = copy.deepcopy(card_set)
    for card in plain["cards"]:
        card.pop("defence", None)
    return plain


@pytest.mark.parametrize("fmt", ["T20", "100-ball"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_quick_reference_of_a_set_with_defence_ratings_explains_r13_on_one_page(defence_card_sets, fmt,
                                                                                  paper):
    import re
    from cardgen import ATTRIBUTION
    card_set = defence_card_sets[fmt]
    pages = _pages(render_quick_reference_pdf(as_model(card_set), paper, ATTRIBUTION))
    assert len(pages) == 1
    text = " ".join(pages[0].extract_text().split())
    assert ("Defence N (R13, some striker cards): on a W off the bowler's card roll a d20: 1-N not out, played as a "
            "\u2022; above N the W stands." in text)
    assert "ratings (1-20), some a Defence rating (above)" in text
    assert not re.findall(r"\b(he|his|him)\b", text, re.IGNORECASE)  # women's leagues read it too
    # a set none of whose cards has a rating prints the page as before, no word of it
    plain = " ".join(_pages(render_quick_reference_pdf(as_model(_without_defence(card_set)), paper, ATTRIBUTION))[0]
                     .extract_text().split())
    assert "Defence" not in plain and "R13" not in plain


def test_the_quick_reference_keeps_to_one_page_by_shrinking_rather_than_spilling(defence_card_sets):
    # a page that would run over (here: a competition name long enough to wrap the title into
    # four lines) shrinks a little rather than putting the credit alone on a second page
    import copy
    card_set = copy.deepcopy(defence_card_sets["100-ball"])
    card_set["competition"]["name"] = "The Hundred of a Very Long Name " * 6
    pages = _pages(render_quick_reference_pdf(as_model(card_set), "a4", CREDIT))
    assert len(pages) == 1
    text = " ".join(pages[0].extract_text().split())
    assert CREDIT in text and "Defence N (R13" in text


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_team_sheets_give_each_rated_striker_his_defence_and_say_what_it_is(defence_card_sets, paper):
    card_set = defence_card_sets["T20"]
    names = {c["player"]["name"].upper(): c for c in card_set["cards"]}
    pdf = render_team_sheets_pdf(as_model(card_set), paper, CREDIT)
    pages, groups = _pages(pdf), _team_sheet_groups(pdf)
    assert len(groups) == len(card_set["teams"])
    found = []
    for team, page in zip(card_set["teams"], [pages[group[0]] for group in groups]):  # the decks' page
        cells: list[tuple[str, float, float]] = []  # (text, x, y) of every string on the page

        def cell(text, cm, tm, font, size, cells=cells) -> None:  # type: ignore[no-untyped-def]
            if text.strip():  # the text's origin on the page (a table is drawn translated)
                x, y = float(tm[4]), float(tm[5])
                cells.append((text.strip(), cm[0] * x + cm[2] * y + cm[4], cm[1] * x + cm[3] * y + cm[5]))

        page.extract_text(visitor_text=cell)
        text = " ".join(" ".join(t for t, _, _ in cells).split())
        assert "Defence N (R13, some striker cards): on a W off the bowler's card roll a d20" in text
        headers = [(x, y) for t, x, y in cells if t == "Defence"]
        assert len(headers) == 2  # the column of both decks' tables
        # what stands in the Defence column, with the player's name on the same row
        for t, x, y in cells:
            if t != "Defence" and any(abs(x - hx) < 0.5 and y < hy for hx, hy in headers):
                [name] = [n.rstrip(" \u2020") for n, nx, ny in cells if abs(ny - y) < 0.5 and n.rstrip(" \u2020") in names]
                found.append((team["name"], name, t))
    expected = [(c["team"], c["player"]["name"].upper(), str(c["defence"])) for c in card_set["cards"] if c.get("defence")]
    assert sorted(found) == sorted(expected) and len(found) == 3
    plain = _pages(render_team_sheets_pdf(as_model(_without_defence(card_set)), paper, CREDIT))
    assert not any("Defence" in page.extract_text() for page in plain)


@pytest.mark.parametrize("fmt", ["T20", "100-ball"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_scoresheet_of_a_set_with_defence_ratings_says_r13_under_the_grids(defence_card_sets, fmt, paper):
    """The scorer rolls the Defence die mid-ball (R13): a set with rated cards says how on each
    scoresheet page, a line of its own between the last grid and the marks note, as big as that
    note, inside the margins; the grids give it the room (still 4 a page)."""
    from test_render_layout import pdf_texts
    spec = load_layout("sheets")["scoresheet"]
    card_set = defence_card_sets[fmt]
    pdf = render_scoresheet_pdf(as_model(card_set), paper, CREDIT)
    assert len(_pages(pdf)) == 4  # the grids, then the scorecards (no dice rolled there)
    width = 210.0 if paper == "a4" else 215.9
    for page in (0, 1):
        texts = [(text.strip(), size, box) for text, size, box in pdf_texts(pdf, page)]
        label = [t for t in texts if t[0] == "Defence N"]
        rule = [t for t in texts if t[0].startswith("(R13")]
        notes = [t for t in texts if "wide (wd)" in t[0]]
        assert len(label) == len(rule) == len(notes) == 1, (paper, page)
        assert f"{label[0][0]} {rule[0][0]}" == ("Defence N (R13, some striker cards): on a W off the bowler's card roll a "
                                            "d20: 1-N not out, played as a \u2022; above N the W stands.")
        (_, size, (left, top, _, bottom)), (_, rule_size, (rule_left, _, right, _)) = label[0], rule[0]
        assert size == rule_size == notes[0][1] >= 6.0  # one block with the note, at its size
        assert left == pytest.approx(spec["margin_mm"], abs=0.3) and right <= width - spec["margin_mm"]
        assert rule_left >= label[0][2][2] - 0.05  # the rule follows the bold label, not over it
        last_grid_bottom = max(y for y, _ in _horizontal_rules(_pages(pdf)[page], width))
        assert top > last_grid_bottom + 0.8  # clear of the last grid's bottom rule
        assert bottom < notes[0][2][1]  # and above the note, not touching it
    # no rating in the set: no line, and the rows keep the room they had
    plain = render_scoresheet_pdf(as_model(_without_defence(card_set)), paper, CREDIT)
    for page in (0, 1):
        assert not [t for t in pdf_texts(plain, page) if "Defence" in t[0] or "R13" in t[0]]
    rows = {name: sorted(box[1] for text, _, box in pdf_texts(pdf_, 0) if text.strip() == "11")
            for name, pdf_ in (("rated", pdf), ("plain", plain))}
    step_rated = (rows["rated"][-1] - rows["rated"][0]) / 3  # grid to grid
    step_plain = (rows["plain"][-1] - rows["plain"][0]) / 3
    # a grid is 12 rows: each gives a 48th of the line's step
    assert step_plain - step_rated == pytest.approx(spec["line_step_mm"] / 4, abs=0.01)


def _heading_width(pdf: bytes) -> float:
    """The quick reference's "Each ball" heading, in mm: a page KeepInFrame shrank draws every
    word narrower, so an unchanged width says the page is at full size."""
    from test_render_layout import pdf_texts
    [(left, _, right, _)] = [box for text, _, box in pdf_texts(pdf) if text.strip() == "Each ball"]
    return right - left


@pytest.mark.parametrize("season", ["BBL_2023-24", "BBL_2024-25", "HUNDRED_2024", "IPL_2024", "IPL_2025",
                                    "SMASH_2024-25"])
def test_every_shipped_seasons_quick_reference_fits_at_full_size_with_r13(season):
    """The calibration rates 6-22 strikers a season, so every shipped kit's quick reference
    carries the R13 line; the page must still fit unshrunk (its KeepInFrame would shrink the whole
    page to keep one: a longer R13 line tried on Letter wrapped and shrank IPL 2025's to 98%)."""
    from conftest import _shipped_rule_set
    from test_render_layout import pdf_texts

    from cardgen.render.teamsheets import has_defence
    card_set = _shipped_rule_set(season)

    for paper in ("a4", "letter"):
        pdf = render_quick_reference_pdf(as_model(card_set), paper, CREDIT)
        assert len(_pages(pdf)) == 1
        assert any(text.startswith("Defence N") for text, _, _ in pdf_texts(pdf)) == has_defence(CardSet.from_json(card_set))
        # the same page without the R13 line has 17-22 mm to spare (no shrinking): the same size
        without = render_quick_reference_pdf(as_model(card_set), paper, CREDIT, defence=False)
        assert _heading_width(pdf) == pytest.approx(_heading_width(without), abs=0.005), paper


@pytest.mark.needs_data
@pytest.mark.parametrize("fmt", ["T20", "100-ball"])
def test_the_quick_reference_says_what_a_printed_role_star_means(card_sets, fmt, monkeypatch):
    """Gamer's audit (helper-41, WPL 2023 on Letter): cards print the rules' role "*" in their
    role corner, on striker cards (Jess Jonassen, Pooja Vastrakar: mainly a bowler) and on bowler
    cards (Amanjot Kaur, a middle-order batter who bowled 3 overs: mainly a batter), and only the
    team sheets' batting column said what it meant. The quick reference says both meanings, in
    the spare end of its Decks line: the page stays one page at full size (no shrinking)."""
    from cardgen.render import teamsheets
    from cardgen.render.card import card_views
    card_set = card_sets[fmt]
    # the star is really printed: on striker cards in both seasons, on bowler cards too in BBL
    # 2024-25 (The Hundred 2024's bowling batters are all all-rounders, whose card hides it)
    stars = {view.kind for view in card_views(as_model(card_set)) if view.role == "*"}
    assert stars == ({"striker", "bowler"} if fmt == "T20" else {"striker"}), stars
    line = "Role *: mainly a bowler (on a bowler card: mainly a batter)."
    for paper in ("a4", "letter"):
        pdf = render_quick_reference_pdf(as_model(card_set), paper, CREDIT)
        assert len(_pages(pdf)) == 1
        text = " ".join(_pages(pdf)[0].extract_text().replace("\u00a0", " ").split())
        assert line in text, paper
        with monkeypatch.context() as m:  # the same page without the sentence
            plain = teamsheets.quick_reference_text
            m.setattr(teamsheets, "quick_reference_text",
                      lambda *a, plain=plain, **k: plain(*a, **k).replace(" Role <b>*</b>: mainly a bowler (on a bowler card: "
                                                             "mainly a batter).", ""))
            without = render_quick_reference_pdf(as_model(card_set), paper, CREDIT)
        assert line not in " ".join(_pages(without)[0].extract_text().split())
        assert _heading_width(pdf) == pytest.approx(_heading_width(without), abs=0.005), paper


@pytest.mark.needs_data
@pytest.mark.parametrize("fmt", ["T20", "100-ball"])
def test_a_reserve_without_a_striker_card_is_told_which_card_to_bat_with(card_sets, bbl_stats, hundred_stats,
                                                                        fmt):
    """Gamer's audit (helper-41, PSL 2021): the quick reference says a batter with no striker card
    "bats with the card the team sheet names", but the sheet named it only for the XI, and
    reserves with only a bowler card are common (Peshawar Zalmi's Abrar Ahmed and Waqar
    Salamkheil; Sydney Thunder's Tanveer Sangha and Mohammad Hasnain, BBL 2024-25). Each team's
    page names them under the reserves with the card the engines bat such a reserve with when
    picked (docs/rules.md R9), one page a team still."""
    import numpy as np

    from cardgen.render.teamsheets import team_decks
    from cardgen.sim.captain import Captain
    from cardgen.sim.model import compile_card_set
    card_set = card_sets[fmt]
    stats = bbl_stats if fmt == "T20" else hundred_stats
    captain = Captain(compile_card_set(as_model(card_set)), stats.lineups, stats.bowling, np.random.default_rng(0))
    strikers = {(c["player"]["id"], c["team"]) for c in card_set["cards"] if c["kind"] == "striker"}
    for paper in ("a4", "letter"):
        pdf = render_team_sheets_pdf(as_model(card_set), paper, CREDIT)
        pages, groups = _pages(pdf), _team_sheet_groups(pdf)
        assert len(groups) == len(card_set["teams"])
        named = 0
        for deck, group in zip(team_decks(CardSet.from_json(card_set)), groups):
            team = deck.team.name
            text = " ".join(" ".join(pages[i].extract_text() for i in group).split())
            xi, keeper = captain.usual_xi(team)
            for pid in deck.reserves:
                if pid not in deck.players or (pid, team) in strikers:
                    continue
                # the engine's card for this reserve, picked at No. 11
                side = captain.side(team, xi[:10] + [pid], keeper)
                card = captain.cs.striker_cards[side.batters[10]]
                name = deck.players[pid].player.name.upper()
                line = next(s for s in text.split("(the team's last-placed batter).") if name in s
                            and "no striker card" in s and "picked for the XI" in s)
                assert f" with {card.player.name.upper()}'s striker card" in line, (team, name)
                named += 1
        # BBL 2024-25: Whitney, Stow, Kellaway and two each at the Sixers and the Thunder; The
        # Hundred 2024: ten, four of them at the Northern Superchargers
        assert named >= (7 if fmt == "T20" else 10), paper


@pytest.mark.needs_data
@pytest.mark.parametrize("fmt", ["T20", "100-ball"])
def test_the_quick_reference_settles_what_two_hand_played_overs_met(card_sets, fmt):
    """Gamer's audit (helper-43: IPL 2025 on A4, The Hundred 2024 on Letter, two overs played
    from the printed kit alone) met four points the quick reference left to a guess, each of
    which the engines settle (docs/rules.md): who faces after the ends change (the other batter:
    the engines swap strike at each change of ends); a dismissal other than a run-out on a free
    hit (R6: a dot); a Defence save (R13: a dot and played as one, so the attack band's die
    follows); and a keeper with no printed rating (R9: 10; the reserve keepers of every bundled
    season, Adam Rossington of London Spirit among them, print none); and it did not know the
    scoresheet's scorecard pages, added meanwhile (pages 3-4). The page also printed the
    data credit twice, in its text and its footer: a credit the footer holds now prints there
    only, which makes the room; a long one still prints whole in the text, where it wraps."""
    from cardgen import ATTRIBUTION
    from cardgen.calibrate import model  # the rules vocabulary: R9's default ratings
    from cardgen.sim.model import compile_card_set
    card_set = card_sets[fmt]
    hundred = fmt == "100-ball"
    ends = "every 10 balls (2 sets)" if hundred else "every over"
    assert compile_card_set(as_model(card_set)).fmt.balls_per_end == (10 if hundred else 6)
    assert model.DEFAULT_KEEPER == 10
    for paper in ("a4", "letter"):
        pages = _pages(render_quick_reference_pdf(as_model(card_set), paper, ATTRIBUTION))
        assert len(pages) == 1
        text = " ".join(pages[0].extract_text().replace("\u00a0", " ").split())
        assert f"Change ends after {ends}: the other batter faces next." in text
        assert ("the striker can be out only run out (any other out is a dot; a wide in between keeps it)."
                in text)
        # the cards print a keeper's rating too now ("Wicketkeeper (10)" for one who kept in no
        # match, R9): the stumping line says where to read it, on one line (helper-45)
        assert "out if the d20 \u2264 the keeper's rating (striker card or team sheet), else a dot." in text
        assert "none: 10" not in text
        assert "Wicketkeepers show their keeping rating (10 if they kept in no match)." in text
        from test_render_layout import pdf_texts
        pdf = render_quick_reference_pdf(as_model(card_set), paper, ATTRIBUTION)
        assert any(t.strip().endswith("out if the d20 \u2264 the keeper's rating (striker card or team sheet), "
                                      "else a dot.") for t, _, _ in pdf_texts(pdf)), paper  # one line
        # the scoresheet's scorecard pages (6a3984e), as it prints them
        assert "each); pages 3-4: each innings' scorecard." in text
        sheet = [" ".join(p.extract_text().split()) for p in _pages(render_scoresheet_pdf(as_model(card_set), paper, CREDIT))]
        assert len(sheet) == 4
        assert [f"Innings {n} scorecard" in page for n, page in enumerate(sheet, -1)] == [False, False, True, True]
        assert text.count(ATTRIBUTION) == 1, paper  # the footer's
        long_credit = "Data: " + "a credit a league's own data source asks for, " * 6
        data = render_quick_reference_pdf(as_model(card_set), paper, long_credit)
        text = " ".join(_pages(data)[0].extract_text().split())
        assert text.count(" ".join(long_credit.split())) == 1  # whole under the text, not off the page
        assert "quick reference \u00b7 page 1 \u00b7 data credit in full at the end" in text
        assert check_pdf(data, f"quick-reference-{paper}.pdf") == []


@pytest.mark.needs_data
@pytest.mark.parametrize("fmt", ["T20", "100-ball"])
def test_the_bowlers_table_numbers_the_xis_bowlers_and_leaves_the_reserves_blank(card_sets, bbl_stats,
                                                                                hundred_stats, fmt):
    """Gamer's audit (helper-43, IPL 2025 on A4): picking each over's bowler from "Bowlers by
    usage", the table mixed the XI's bowlers with the reserves' (Chennai: Sam Curran, Jamie
    Overton, Mukesh Choudhary and Nathan Ellis among Noor Ahmad and Khaleel Ahmed), and a reserve
    bowls only if picked: the engines bowl the XI's. The first column now gives each XI bowler's
    place in the XI (as Deck 1 numbers it) and leaves a reserve's blank; the page stays one page."""
    import numpy as np

    from cardgen.render.teamsheets import XI_COLUMN_LEGEND, team_decks
    from cardgen.sim.captain import Captain
    from cardgen.sim.model import compile_card_set
    card_set = card_sets[fmt]
    stats = bbl_stats if fmt == "T20" else hundred_stats
    cs = compile_card_set(as_model(card_set))
    captain = Captain(cs, stats.lineups, stats.bowling, np.random.default_rng(0))
    from test_render_layout import pdf_texts
    names = {c["player"]["id"]: c["player"]["name"].upper() for c in card_set["cards"]}
    decks = team_decks(CardSet.from_json(card_set))
    pdf = render_team_sheets_pdf(as_model(card_set), "a4", CREDIT)
    assert len(_pages(pdf)) == len(decks)
    reserves_seen = 0
    for index, deck in enumerate(decks):
        texts = [(text.strip(), box) for text, _, box in pdf_texts(pdf, index) if text.strip()]
        assert XI_COLUMN_LEGEND in " ".join(" ".join(text for text, _ in texts).split())
        [heading_top] = [box[1] for text, box in texts if text == "Bowlers by usage"]
        for pid in deck.bowlers:
            if (deck.team.name, "bowler") not in deck.players[pid].cards:
                continue
            [name_box] = [box for text, box in texts if text == names[pid] and box[1] > heading_top]
            # what the row prints left of the name: the "#" column
            place = [text for text, box in texts if abs(box[1] - name_box[1]) < 0.5 and box[2] < name_box[0]]
            if pid in deck.xi:
                assert place == [str(deck.xi.index(pid) + 1)], (deck.team.name, names[pid], place)
            else:
                assert place == [], (deck.team.name, names[pid], place)
                reserves_seen += 1
        # the engines bowl the XI's bowlers only
        side = captain.usual_side(deck.team.name)
        bowled = {cs.bowler_cards[row].player.id for plan in side.plans for row in plan}
        assert bowled <= set(deck.xi), deck.team.name
    assert reserves_seen >= 1


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_quick_reference_scoresheet_and_team_sheets_word_defence_alike(defence_card_sets, paper):
    """A player with the quick reference and the scoresheet side by side read R13 in two wordings
    ("d20 1-N: not out, played as a •" and "1-N not out (a •, played as any dot), above N out"),
    and the team sheets in a third (helper-44): each sheet, read back, says it in the same words,
    which say what rules.md R13 says of a roll above N: the W stands (in the consolidate band
    R12's catch die still follows, so not "out")."""
    import re
    card_set = defence_card_sets["T20"]
    sentence = re.compile(r"Defence N \(R13.*?stands\.")
    said = {}
    for sheet, pdf in (("quick reference", render_quick_reference_pdf(as_model(card_set), paper, CREDIT)),
                       ("scoresheet", render_scoresheet_pdf(as_model(card_set), paper, CREDIT)),
                       ("team sheets", render_team_sheets_pdf(as_model(card_set), paper, CREDIT))):
        pages = _pages(pdf)[:1]  # the first page of each (every grid page and team page says it)
        text = " ".join(" ".join(page.extract_text().split()) for page in pages)
        said[sheet] = sentence.findall(text)
        assert len(said[sheet]) == 1, (sheet, text[:400])
    assert said["quick reference"] == said["scoresheet"] == said["team sheets"] == [
        "Defence N (R13, some striker cards): on a W off the bowler's card roll a d20: 1-N not out, played as a "
        "\u2022; above N the W stands."]


@pytest.mark.needs_data
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_wicketkeeper_prints_the_rating_he_keeps_at_on_his_card_and_team_sheet(card_sets, paper):
    """A keeper who kept in no match of the season has no keeping rating in the set: his card
    printed a bare "Wicketkeeper" and the team sheet a blank Keeper cell (BBL 2024-25: Shai Hope,
    Jake Doran, Matt Gilkes, Cameron Bancroft), while the quick reference says "Wicketkeepers show
    their keeping rating" (helper-44). Rules R9: such a keeper keeps at 10. Read back: every
    striker card whose role is Wicketkeeper prints "Wicketkeeper (N)" and its team page N under
    "Wicketkeeper", N his rating, else 10; the quick reference says what the 10 is."""
    import re

    import pypdfium2
    from cardgen.render.card import card_views
    from cardgen.render.sheets import render_cards_pdf
    from cardgen.calibrate.model import DEFAULT_KEEPER
    card_set = card_sets["T20"]
    keepers = {(c["team"], c["player"]["name"].upper()): c["player"].get("keeper") or DEFAULT_KEEPER
               for c in card_set["cards"]
               if c["kind"] == "striker" and c["player"].get("batting_role") == "Wicketkeeper"}
    unrated = [c for c in card_set["cards"] if c["kind"] == "striker"
               and c["player"].get("batting_role") == "Wicketkeeper" and not c["player"].get("keeper")]
    assert len(unrated) >= 3  # the data's own reserve keepers, not a made-up one
    views = [v for v in card_views(as_model(card_set)) if v.kind == "striker" and (v.team, v.name) in keepers]
    assert len(views) == len(keepers)
    cards = pypdfium2.PdfDocument(render_cards_pdf(views, paper, "keepers", CREDIT))
    text = " ".join(" ".join(cards[i].get_textpage().get_text_range().split()) for i in range(len(cards)))
    for view in views:  # "SHAI HOPE 2024-2025 Hobart Wicketkeeper (10)": name, band, role line
        assert f"{view.name} {view.season_team} Wicketkeeper ({keepers[(view.team, view.name)]})" in text, view.name
    assert text.count("Wicketkeeper (") == len(keepers)  # none bare
    sheet_pdf = render_team_sheets_pdf(as_model(card_set), paper, CREDIT)
    sheets = pypdfium2.PdfDocument(sheet_pdf)
    rows = {}
    for team, page in zip(card_set["teams"], [sheets[group[0]] for group in _team_sheet_groups(sheet_pdf)]):
        for line in page.get_textpage().get_text_range().splitlines():
            for (kteam, name), _rating in keepers.items():
                # "4 OLLIE POPE \u2020 Wicketkeeper 20 ..." (XI) or "ALEX CAREY Wicketkeeper ..." (reserves)
                if kteam == team["name"] and re.sub(r"^\d+ ", "", line.split(" Wicketkeeper")[0]).rstrip(" \u2020") == name:
                    rows[(kteam, name)] = line
    assert set(rows) == set(keepers)
    for key, line in rows.items():
        assert f" Wicketkeeper {keepers[key]} C(" in line, line
    qr = " ".join(_pages(render_quick_reference_pdf(as_model(card_set), paper, CREDIT))[0].extract_text().split())
    assert "Wicketkeepers show their keeping rating (10 if they kept in no match)." in qr


@pytest.mark.needs_data
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_last_team_sheet_prints_the_credit_once_at_its_teams_own_size(card_sets, paper):
    """Every team page's footer carries the credit, yet the last page printed it a second time
    under the bowlers, and that extra line made it the page KeepInFrame shrank: BBL 2024-25's
    Sydney Thunder, last in the kit, was drawn at 90% on Letter, 97% on A4 (helper-44). Read
    back: each page says the credit once, and the last team's page is as big as the same team's
    page when it is not last (the teams reversed); a credit too long for the footer is still
    printed whole on the last page."""
    import copy

    from test_render_layout import pdf_texts
    card_set = card_sets["T20"]
    pdf = render_team_sheets_pdf(as_model(card_set), paper, CREDIT)
    pages, groups = _pages(pdf), _team_sheet_groups(pdf)
    assert len(groups) == len(card_set["teams"])
    for page in pages:
        assert " ".join(page.extract_text().split()).count(CREDIT) == 1
    reversed_set = copy.deepcopy(card_set)
    reversed_set["teams"] = reversed_set["teams"][::-1]
    first = render_team_sheets_pdf(as_model(reversed_set), paper, CREDIT)

    def heading_width(data: bytes, index: int) -> float:
        [(left, _, right, _)] = [box for text, _, box in pdf_texts(data, index)
                                 if text.strip() == "Deck 1: batting order (usual XI)"]
        return right - left

    assert heading_width(pdf, groups[-1][0]) == pytest.approx(heading_width(first, 0), abs=0.005)
    long_credit = CREDIT + " Names corrected by the Very Long Named Cricket Club of Somewhere, 2026 edition."
    from cardgen.render.teamsheets import credit_fits_footer
    margin = load_layout("sheets")["team_sheet"]["margin_mm"]
    assert credit_fits_footer(paper, "BBL 2024-25 team sheets", CREDIT, margin)
    assert not credit_fits_footer(paper, "BBL 2024-25 team sheets", long_credit, margin)
    data = render_team_sheets_pdf(as_model(card_set), paper, long_credit)
    last = " ".join(_pages(data)[-1].extract_text().split())
    assert last.count(long_credit) == 1  # whole after the last team, and no footer runs off the page
    assert all("data credit in full at the end" in page.extract_text() for page in _pages(data))
    assert check_pdf(data, f"team-sheets-{paper}.pdf") == []


@pytest.mark.needs_data
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("fmt", ["T20", "100-ball"])
def test_the_sheets_say_a_chance_rolls_the_d20_again_and_the_batters_stay_on_a_wide(card_sets, fmt, paper):
    """Two overs played by hand from the BBL 2024-25 Letter kit (helper-44): an F read the chart
    at d6 5, d20 2, a run-out chance; the chart's header said "chances use the d20", the quick
    reference "out if the d20 <= their RO(y)", while the run-out row is "the d6 row" already
    rolled: was the chance decided by the d20 already showing 2 (out against any RO of 2 or more)?
    The engines roll it again (docs/rules.md, Dice). And a wide's run: "one run: the batters change
    ends", yet the engines keep them where they are (R7). Read back: the fielding chart's header
    and its three chance legends, and the quick reference's heading, say roll the d20 again; the
    wide and no-ball legends and the quick reference say the batters stay; every legend line of
    the chart at 7.5 pt or more."""
    from test_render_layout import pdf_texts
    card_set = card_sets[fmt]
    chart = render_fielding_pdf(as_model(card_set), paper, CREDIT)
    joined = " ".join(" ".join(_pages(chart)[0].extract_text().split()).split())
    assert "for a chance roll the d20 again, against C(x), RO(y) or the keeper's rating." in joined
    cells = {r for row in card_set["fielding_chart"]["cells"] for r in row}
    said = {"catch_chance": "Draw a fielder, roll the d20 again: caught if \u2264 C(x), else 1 run to the striker.",
            "run_out_chance": "Draw a fielder, roll the d20 again: run out if \u2264 RO(y), else 1 run to the striker.",
            "stumping_chance": "Roll the d20 again: stumped if \u2264 the keeper's WK, else a dot.",
            "wide": "not a ball faced; batters stay.",
            "no_ball": "No-ball: 1 run, a ball faced, not counted; batters stay; next ball a free hit."}
    assert {"catch_chance", "run_out_chance", "stumping_chance", "wide", "no_ball"} <= cells
    for result, words in said.items():
        assert words in joined, result
    assert "chances use the d20" not in joined
    legend = [(text, size) for text, size, _ in pdf_texts(chart) if "batters stay" in text or "d20 again" in text]
    assert len(legend) == 6 and min(size for _, size in legend) >= 7.5, legend
    qr = " ".join(_pages(render_quick_reference_pdf(as_model(card_set), paper, CREDIT))[0].extract_text().split())
    assert "Fielding chances (roll the d20 again)" in qr
    assert "Wides and no-balls add a run, batters stay; not one of the" in qr


@pytest.mark.slow
@pytest.mark.parametrize("season", ["BBL_2023-24", "BBL_2024-25", "HUNDRED_2024", "IPL_2024", "IPL_2025",
                                    "SMASH_2024-25"])
def test_a_failed_catch_or_run_out_chance_says_whose_run_it_is_at_full_size(season):
    """Review finding (helper-45): the fielding chart and the quick reference said a failed catch
    or run-out chance is "else 1 run", and a scorer could not tell whose: the striker's (rules
    4.3.7 / 4.3.8, docs/rules.md R4). Every sheet now says so, with the page at full size: the
    chart's legend lines at their size before (at least 7.5 pt: its chance legends no longer repeat
    their name, which the bold label left of them gives) and the quick reference unshrunk (its
    KeepInFrame shrinks the whole page when a line wraps once more on Letter: the run-out line
    says the keeper's RO in fewer words)."""
    from conftest import _shipped_rule_set
    from test_render_layout import pdf_texts

    card_set = _shipped_rule_set(season)
    for paper in ("a4", "letter"):
        chart = render_fielding_pdf(as_model(card_set), paper, CREDIT)
        joined = " ".join(_pages(chart)[0].extract_text().split())
        assert "caught if \u2264 C(x), else 1 run to the striker." in joined
        assert "run out if \u2264 RO(y), else 1 run to the striker." in joined
        assert "the fielder's and the wicketkeeper's RO rating; else 1 run to the striker." in joined
        assert "else 1 run." not in joined
        legend = [size for text, size, _ in pdf_texts(chart) if "to the striker" in text]
        assert len(legend) == 3 and min(legend) >= 7.5, (paper, legend)
        qr = render_quick_reference_pdf(as_model(card_set), paper, CREDIT)
        text = " ".join(_pages(qr)[0].extract_text().split())
        assert "their C(x) (striker card or team sheet), else 1 run to the striker." in text
        assert "(on those rows also \u2264 the keeper's RO), else 1 run to the striker." in text
        assert "else 1 run." not in text
        # unshrunk: the same heading as on the page without the R13 line, which has 17-22 mm to spare
        without = render_quick_reference_pdf(as_model(card_set), paper, CREDIT, defence=False)
        assert _heading_width(qr) == pytest.approx(_heading_width(without), abs=0.005), paper


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_advanced_quick_reference_says_its_rules_at_the_top_at_full_size_on_one_page(paper):
    """Issue 34: the advanced quick reference named its rules only in the wickets-in-hand table's
    heading, and the sentence saying so shrank the page. Read back from both shipped sets of each
    format: above the first heading the advanced page says it is for the Advanced rules, that the
    cards score too little without them and the command for the printed rules' kit (unbroken);
    every text of the page's body prints at its full size (9.4 pt, the table 8.9 pt: no shrink),
    on one page; the Quicket page says its own rules and nothing of these."""
    from cardgen import ATTRIBUTION
    from cardgen.render.common import build_command
    from tests.conftest import shipped_set
    from test_render_layout import pdf_texts
    spec = load_layout("sheets")["quick_reference"]
    for season, code, name in (("BBL_2024-25", "BBL", "2024-25"), ("HUNDRED_2024", "HUNDRED", "2024")):
        for rules in ("advanced", "quicket"):
            pdf = render_quick_reference_pdf(as_model(shipped_set(season, rules)), paper, ATTRIBUTION)
            assert len(_pages(pdf)) == 1
            texts = pdf_texts(pdf, 0)
            sizes = {round(size, 2) for text, size, _ in texts if text.strip()}
            assert sizes <= {spec["title_pt"], spec["heading_pt"], spec["text_pt"], spec["text_pt"] - 0.5, 6.5}, sizes
            first_heading = min(box[1] for text, size, box in texts
                                if round(size, 2) == spec["heading_pt"] and text.strip())
            top = " ".join(" ".join(t.split()) for t, size, box in texts
                           if box[1] < first_heading and round(size, 2) == spec["text_pt"])
            if rules == "advanced":
                assert "made for the Advanced rules" in top and "they score too little" in top, top
                assert build_command(code, name, "quicket") in " ".join(top.replace("\u00a0", " ").split()), top
                # on one line: a command broken over two is copied wrong
                lines = {round(box[3], 1) for t, size, box in texts if box[1] < first_heading
                         and round(size, 2) == spec["text_pt"] and t.strip() in build_command(code, name, "quicket")}
                assert max(lines) - min(lines) < 1.5, lines  # glyph bottoms of one line (g, j)
            else:
                assert "made for the Quicket rules" in top and "Advanced" not in top, top


@pytest.mark.parametrize("paper, bleed_mm", [("a4", 3.2), ("letter", 3.2), ("letter", 1.0), ("a4", 4.5), ("letter", 4.5)])
def test_bleed_mm_gives_that_bleed_on_the_fullest_sheet_whose_crop_marks_still_print(paper, bleed_mm):
    """Issue 42: Letter's bleed was 1.5 mm where US shops ask for 1/8 in (3.2 mm). With
    --bleed-mm the sheet takes the first layout (most cards first) whose cards, their bleed and
    marks of crop_min_mm fit outside the no-print zone; read back from the PDF: the colour runs
    bleed_mm past the cut lines, neighbouring cards' bleeds never overlap (gutter = 2 x bleed),
    every crop mark is printable and outside the bleed, and preflight finds nothing. No layout
    with more cards fits: each fuller one leaves its marks in the no-print zone."""
    from tests.conftest import shipped_set
    from cardgen.render.card import card_views
    from cardgen.render.preflight import sheet_bleed
    from cardgen.render.sheets import crop_marks, sheet_geometry
    cs = load_layout("sheets")["card_sheet"]
    geo = sheet_geometry(paper, bleed_mm=bleed_mm)
    assert geo.bleed == bleed_mm and geo.gap_x >= 2 * bleed_mm - 1e-9
    left, top, right, bottom = geo.block()
    for x1, y1, x2, y2 in crop_marks(geo):
        assert min(x1, x2, y1, y2) >= cs["no_print_mm"] - 1e-9
        assert max(x1, x2) <= geo.page_w - cs["no_print_mm"] + 1e-9 and max(y1, y2) <= geo.page_h - cs["no_print_mm"] + 1e-9
        assert math.hypot(x2 - x1, y2 - y1) >= cs["crop_min_mm"] - 1e-9
        assert not (left < (x1 + x2) / 2 < right and top < (y1 + y2) / 2 < bottom)  # outside the bleed
    room = cs["no_print_mm"] + cs["crop_offset_mm"] + cs["crop_min_mm"]
    for cols, rows, landscape in cs["bleed_layouts"]:
        if cols * rows <= geo.per_sheet:
            break
        W, H = ((297.0, 210.0) if paper == "a4" else (279.4, 215.9)) if landscape else (
            (210.0, 297.0) if paper == "a4" else (215.9, 279.4))
        need_w = cols * geo.card_w + (cols + 1) * 2 * bleed_mm - 2 * bleed_mm + 2 * room
        need_h = rows * geo.card_h + (rows + 1) * 2 * bleed_mm - 2 * bleed_mm + 2 * room
        assert need_w > W or need_h > H, (cols, rows, landscape)
    views = card_views(as_model(shipped_set("BBL_2024-25", "quicket")))[:geo.per_sheet]
    pdf = render_cards_pdf(views, paper, "t", "c", bleed_mm=bleed_mm, backs=True)
    assert check_pdf(pdf, "cards.pdf") == []
    read = sheet_bleed(pdf, "cards.pdf")
    assert read is not None and abs(read.least - bleed_mm) < 0.02 and read.per_sheet == geo.per_sheet


def test_a_bleed_no_layout_of_the_paper_leaves_room_for_is_one_clear_error(tmp_path):
    """The library says which paper and what to do; the CLI refuses a --bleed-mm outside the
    range every paper holds (A4's two rows of landscape cards leave marks up to 4.75 mm) before
    any work, in one line, exit 2."""
    from click.testing import CliRunner
    from cardgen.cli import main
    from cardgen.errors import CardgenError
    from cardgen.render.sheets import sheet_geometry
    with pytest.raises(CardgenError, match="no room for crop marks on A4 paper; give a smaller --bleed-mm"):
        sheet_geometry("a4", bleed_mm=5.0)
    result = CliRunner().invoke(main, ["build", "-c", "BBL", "-s", "2024-25", "--out", str(tmp_path), "--bleed-mm", "5"])
    assert result.exit_code == 2 and "--bleed-mm" in result.output and "Traceback" not in result.output
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_scoresheet_prints_the_wickets_in_hand_table_at_the_quick_references_size(paper):
    """Issue 42: the scoresheet's table was 6.5 pt against 9.4 pt on the quick reference. Read
    back from both grid pages of the advanced BBL and Hundred sheets: the table's three rows
    (wickets down, attack, consolidate: the numbers the quick reference prints) are at the
    quick reference's text size, all above the first grid, right of every header text on the
    left; preflight finds no overlap or line through text; the grid rows keep their height (the
    pencil test above) and a Quicket sheet prints no table."""
    from cardgen import ATTRIBUTION
    from cardgen.wickets_in_hand import rule_of_set
    from tests.conftest import shipped_set
    from test_render_layout import pdf_texts
    size = load_layout("sheets")["quick_reference"]["text_pt"]
    width = 210.0 if paper == "a4" else 215.9
    for season in ("BBL_2024-25", "HUNDRED_2024"):
        card_set = shipped_set(season, "advanced")
        rows = rule_of_set(card_set).thresholds(100 if card_set["format"] == "100-ball" else 120)
        pdf = render_scoresheet_pdf(as_model(card_set), paper, ATTRIBUTION)
        assert check_pdf(pdf, "scoresheet-a4.pdf") == []
        for index, page in enumerate(_pages(pdf)[:2]):
            grid_top = min(y for y, _ in _horizontal_rules(page, width))
            texts = [(t.strip(), round(s, 2), box) for t, s, box in pdf_texts(pdf, index) if t.strip()]
            table = [t for t in texts if t[1] == size]
            assert {t[0] for t in table} == ({"wkts down", "attack if \u2264", "consolidate if \u2265"}
                                             | {str(v) for row in rows for v in row})
            assert all(box[3] < grid_top for _, _, box in table)
            left_edge = min(box[0] for _, _, box in table)
            header = [t for t in texts if t[1] != size and t[2][3] < grid_top and not t[0].startswith(
                ("Quicket Cricket scoresheet", "Wickets in hand", "Consolidate", "Chasing"))]
            assert header and all(box[2] < left_edge for _, _, box in header), header
    plain = render_scoresheet_pdf(as_model(shipped_set("BBL_2024-25", "quicket")), paper, ATTRIBUTION)
    assert not [t for t, s, _ in pdf_texts(plain, 0) if round(s, 2) == size]
