"""`cardgen build --rules advanced --chase-line SPEC` (issue 41): a kit whose cards are calibrated
for a chase line, which its card set records and its scoresheet, rules sheet and match page play.
Built from the synthetic mirror (tests/fixtures/synthetic), so no ../shared is needed."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from accessibility import assert_accessible, page_errors

from cardgen.cache import CACHE_ENV
from cardgen.cli import main
from cardgen.sources.fetch import SOURCE_ENV
from cardgen.wickets_in_hand import BANDS, CELL_WORDS, TABLE, band_table, chase_line_of_words, rule_of_set

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "synthetic" / "cricsheet"
LINE = "2,2.5/6/TT,AC,AA"


@pytest.mark.parametrize("args, says", [
    (["--rules", "advanced", "--chase-line", "2/6/TT"], "Invalid value for '--chase-line': chase line cells"),
    (["--rules", "advanced", "--chase-line", "2/6/TX,AA"], "chase line cell 'X': expected A, N, C or T"),
    (["--rules", "advanced", "--chase-line", "fast"], "expected rate edges/hand edges/rows"),
    (["--chase-line", LINE], "give --rules advanced"),
    (["--rules", "quicket", "--chase-line", LINE], "give --rules advanced"),
    (["--game", "quick-cricket", "--chase-line", LINE], "--chase-line: for the quicket kit only"),
    (["--all", "--chase-line", LINE], "--chase-line: for one season's kit"),
    (["--league", "league.toml", "--chase-line", LINE], "--chase-line: for a season's kit"),
])
def test_build_refuses_a_chase_line_it_cannot_build_in_one_line(args, says, tmp_path):
    """Each refused before a table is read: exit 2, one line saying what to change."""
    result = CliRunner().invoke(main, ["build", "-c", "BBL", "-s", "2030-31", "--out", str(tmp_path), *args],
                                env={SOURCE_ENV: str(FIXTURE), CACHE_ENV: str(tmp_path / "cache")})
    assert result.exit_code == 2, result.output
    assert says in result.output and "Traceback" not in result.output, result.output
    assert not list(tmp_path.glob("BBL_*"))


def test_a_card_set_file_keeps_its_own_rules(tmp_path):
    card_set = tmp_path / "card-set.json"
    card_set.write_text("{}")
    result = CliRunner().invoke(main, ["build", "-c", "BBL", "-s", "2030-31", "--card-set", str(card_set),
                                       "--rules", "advanced", "--chase-line", LINE, "--out", str(tmp_path)])
    assert result.exit_code == 2 and "a --card-set is printed by the rules it records" in result.output


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The synthetic T20 season's advanced kit with the chase line, as `cardgen build` writes it
    (the calibration included), and what the command said."""
    out = tmp_path_factory.mktemp("kit")
    env = {CACHE_ENV: str(tmp_path_factory.mktemp("cache")), SOURCE_ENV: str(FIXTURE),
           "CARDGEN_CRICINFO": None, "CARDGEN_PLAYERS": None}
    result = CliRunner().invoke(main, ["build", "-c", "BBL", "-s", "2030-31", "--rules", "advanced",
                                       "--chase-line", " 2,2.5/6/tt,ac,aa", "--no-images", "--out", str(out)],
                                env=env)
    assert result.exit_code == 0, result.output
    return out / "BBL_2030-31-advanced", result.output


@pytest.mark.slow
def test_the_kit_records_the_line_and_prints_it_where_the_chase_is_read(kit):
    """The card set's rule records the line (as ChaseLine.describe writes it: the printed sheets
    and the match page read it there); build says so; the second-innings page of both papers'
    scoresheets prints every cell of it in order, the rules sheet its table, preflight clean."""
    from test_render_chase_line import expected_runs, printed_rows, sheet_table
    from test_render_layout import pdf_texts
    folder, said = kit
    card_set = json.loads((folder / "card-set.json").read_text())
    line = chase_line_of_words(LINE)
    assert card_set["rules"] == "advanced"
    assert card_set["rule_parameters"]["chase_line"] == line.describe()
    assert f"with the chase line {LINE}" in said and "preflight: 0 problems" in said
    data = json.loads(re.sub(r"^globalThis\.QUICKET_DATA = |;\s*$", "", (folder / "play" / "set-data.js").read_text()))
    assert data["cardSet"]["rule_parameters"]["chase_line"] == line.describe()   # what the match page plays
    for paper in ("a4", "letter"):
        pdf = (folder / f"scoresheet-{paper}.pdf").read_bytes()
        left = next(box[0] for text, _, box in pdf_texts(pdf, 1) if text.strip() == "wkts down")
        rows = printed_rows(pdf, 1, left)
        head = next(k for k, row in enumerate(rows) if row[0][0] == "wkts down")
        chase = rows[head + 3:head + 6]
        assert [row[0][0] for row in chase] == ["need \u2264 2\u00d7left", "need \u2264 2.5\u00d7left", "need > 2.5\u00d7left"]
        for k, row in enumerate(chase):
            assert [t for t, _, _ in row[1:]] == [w + (" \u2191" if w == "table" else "")
                                                  for w, _, _ in expected_runs(line, k)]
        rules = (folder / f"rules-{paper}.pdf").read_bytes()
        assert sheet_table(rules, "Runs needed (target \u2212 total)")[1:] == [
            ["\u2264 2 \u00d7 balls left", "table", "table"], ["> 2, \u2264 2.5 \u00d7 balls left", "attack", "consolidate"],
            ["> 2.5 \u00d7 balls left", "attack", "attack"]]


def expected_flag(card_set: dict, wickets: int, need: int, left: int) -> str:
    """What the match page should say before a chasing ball, from the line itself and the
    wickets-in-hand table (the engines' reading: runs needed > edge x balls left)."""
    rule = rule_of_set(card_set)
    line = rule.chase_line
    row = sum(need > edge * left for edge in line.rate_edges)
    col = sum(10 - wickets > edge for edge in line.hand_edges)
    cell = line.cells[row][col]
    band = (f"the table's {BANDS[int(band_table(rule, 120)[wickets, left])]}" if cell == TABLE
            else CELL_WORDS[cell])
    edges = [f"{e:g}" for e in line.rate_edges]
    rows = [f"need \u2264 {e}\u00d7left" for e in edges] + [f"need > {edges[-1]}\u00d7left"]
    return f"Chase line: {band} ({rows[row]}, {line.column_words()[col]} in hand)"


@pytest.mark.slow
@pytest.mark.parametrize("width", [390, 1366])
def test_the_match_page_says_the_chase_lines_cell_before_every_chasing_ball(kit, chromium, width):
    """The kit's play.html in headless Chromium, a whole match by the keyboard (Space), both
    sides the computer's: before every ball of the chase the band flag names the line's cell
    (its band, or the table's band where the cell says table) and its row and column, as the
    line and the table give them for the score shown; the first innings says the table's band;
    its help prints the line. axe-core finds no serious violation mid-chase; no page error."""
    folder, _ = kit
    card_set = json.loads((folder / "card-set.json").read_text())
    ctx = chromium.new_context(viewport={"width": width, "height": 900})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.goto((folder / "play.html").as_uri())
    page.wait_for_selector("#setup:not([hidden])")
    teams = page.eval_on_selector_all("#team-0-name option", "os => os.map(o => o.textContent)")
    for k in (0, 1):
        page.select_option(f"#team-{k}-name", label=teams[k])
        page.check(f"input[name=captain-{k}][value=computer]")
    page.fill("#seed", "41")
    page.click("#toss")
    if page.locator("#start").count():
        page.click("#start")
    page.wait_for_selector("#play:not([hidden])")
    page.locator("#score-h").focus()
    chasing = first = 0
    for _ in range(2000):
        if page.locator("#roll").is_disabled():
            break
        flags, line, head = (page.text_content(s) for s in ("#flags", "#score-line", "#score-h"))
        found = re.search(r"need (\d+) from (\d+) balls?", line)
        if "super over" in head:
            assert "Chase line" not in flags
        elif found:
            wickets = int(re.search(r" \d+/(\d+)", head).group(1))
            assert expected_flag(card_set, wickets, int(found.group(1)), int(found.group(2))) in flags, (head, line, flags)
            chasing += 1
            if chasing == 1:   # the chase's flag and the help's line table, read by axe-core
                assert_accessible(page, f"the chase at {width} px")
                page.locator("#score-h").focus()
        elif "target" not in line:
            assert "Chase line" not in flags and "(wickets in hand)" in flags, flags
            first += 1
        page.keyboard.press("Space")
    assert page.locator("#roll").is_disabled() and chasing > 30 and first > 30, (chasing, first)
    assert "The chase line (second innings)" in page.text_content("#help-body")
    assert page_errors(errors) == []   # but axe-core's own lines on file://
    ctx.close()
