"""`cardgen build --rules advanced --chase-line SPEC` (issue 41): a kit whose cards are calibrated
for a chase line, which its card set records and its scoresheet and rules sheet print.
Built from the synthetic mirror (tests/fixtures/synthetic), so no ../shared is needed."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cache import CACHE_ENV
from cardgen.cli import main
from cardgen.sources.fetch import SOURCE_ENV
from cardgen.wickets_in_hand import chase_line_of_words

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
