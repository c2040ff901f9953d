"""A hand-edited or hostile card set is a usage error naming the field (issue 40, cases 6 and 8).

A 100,000-deep nesting in `--card-set` was exit 70 "cardgen hit a bug (RecursionError ...)", and
a 5,000-character team name exit 3 "the path is too long; choose a shorter folder name", blaming
the output folder. Both are now exit 2, one line naming the field and the limit, before any file
is written; a FIFO named card-set.json is that line too, not a hang. Control and bidirectional-
formatting characters are taken out of its strings, as out of match files and names files.
"""
from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cache import CACHE_ENV
from cardgen.cardset import FILE_NAME, dumps, load_card_set
from cardgen.cardset_limits import MAX_DEPTH, MAX_ITEMS, document_problem, nesting_problem
from cardgen.cli import main
from cardgen.errors import EXIT_USAGE, CardSetError
from cardgen.render.sample import rules_example_card_set
from cardgen.sources.fetch import SOURCE_ENV
from cardgen.text import MOST_TEAM_NAME_CHARS, MOST_TEXT_CHARS

ROOT = Path(__file__).resolve().parent.parent
SEASON = ["-c", "BBL", "-s", "2024-25"]


@pytest.fixture
def env(tmp_path: Path, mirror: Path) -> dict[str, str | None]:
    return {CACHE_ENV: str(tmp_path / "cache"), SOURCE_ENV: str(mirror), "CARDGEN_CRICINFO": None}


def _commands(card_set: Path, out: Path) -> dict[str, list[str]]:
    return {"build": ["build", *SEASON, "--card-set", str(card_set), "--no-images", "--paper", "a4",
                      "--out", str(out)],
            "validate": ["validate", *SEASON, "--cards", str(card_set), "--balls", "200", "--out", str(out)],
            "simulate": ["simulate", *SEASON, "--cards", str(card_set), "--seasons", "1", "--out", str(out)]}


def _one_line(result, code: int) -> str:
    assert result.exit_code == code, (result.exit_code, result.output, result.exception)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert "Traceback" not in result.output and len(lines) == 1 and lines[0].startswith("Error: "), result.output
    return lines[0]


def _with_team_name(doc: dict, name: str) -> dict:
    doc = copy.deepcopy(doc)
    old = doc["teams"][0]["name"]
    doc["teams"][0]["name"] = name
    for card in doc["cards"]:
        if card["team"] == old:
            card["team"] = name
    return doc


@pytest.mark.parametrize("command", ["build", "validate", "simulate"])
def test_a_100000_deep_card_set_is_a_usage_error_naming_the_field(card_set_file: Path, tmp_path: Path,
                                                                  env, command: str):
    text = card_set_file.read_text(encoding="utf-8")
    deep = text.replace('"attribution": ', '"attribution": ' + "[" * 100_000 + "]" * 100_000 + ", \"x\": ", 1)
    assert deep != text
    bad = tmp_path / FILE_NAME
    bad.write_text(deep, encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, _commands(bad, out)[command], env=env)
    line = _one_line(result, EXIT_USAGE)
    assert f"attribution{'[0]' * MAX_DEPTH} is nested deeper than the limit of {MAX_DEPTH} levels" in line
    assert str(bad) in line and "cardgen hit a bug" not in line
    assert not out.exists() or not any(p.is_file() for p in out.rglob("*"))


def test_a_5000_character_team_name_is_a_usage_error_naming_the_field(card_set_file: Path, tmp_path: Path, env):
    doc = _with_team_name(json.loads(card_set_file.read_text(encoding="utf-8")), "Adelaide " * 555)
    bad = tmp_path / FILE_NAME
    bad.write_text(dumps(doc), encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, _commands(bad, out)["build"], env=env)
    line = _one_line(result, EXIT_USAGE)
    # the first field in the file's (sorted) order that holds it: a card's team
    assert "cards[" in line and (f"].team is 4,995 characters long, over the limit of "
                                 f"{MOST_TEAM_NAME_CHARS}") in line, line
    assert "path is too long" not in line and not out.exists()


def test_a_team_name_at_the_limit_still_builds(tmp_path: Path, env):
    """The limit is where a team's name still fits its folder and file names (255 bytes)."""
    name = ("Sydney Thunder " * 10)[:MOST_TEAM_NAME_CHARS]
    doc = _with_team_name(rules_example_card_set(), name)
    path = tmp_path / FILE_NAME
    path.write_text(dumps(doc), encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", *SEASON, "--card-set", str(path), "--paper", "a4",
                                       "--team", name, "--out", str(out)], env=env)
    assert result.exit_code == 0, result.output
    kit = next(out.glob("BBL_2024-25_sydney-thunder-*"))
    assert (kit / FILE_NAME).is_file() and list((kit / "png").glob("*.png"))


def test_every_limit_names_its_field():
    doc = rules_example_card_set()
    assert document_problem(doc) is None
    long_name = copy.deepcopy(doc)
    long_name["cards"][1]["player"]["name"] = "x" * (MOST_TEXT_CHARS + 1)
    assert document_problem(long_name) == (f"cards[1].player.name is {MOST_TEXT_CHARS + 1:,} characters "
                                           f"long, over the limit of {MOST_TEXT_CHARS:,}")
    many = copy.deepcopy(doc)
    many["teams"][0]["reserves"] = ["a"] * (MAX_ITEMS + 1)
    assert document_problem(many) == f"teams[0].reserves has {MAX_ITEMS + 1:,} items, over the limit of {MAX_ITEMS:,}"
    keyed = copy.deepcopy(doc)
    keyed["fielding_chart"]["k" * (MOST_TEXT_CHARS + 1)] = 1
    assert document_problem(keyed).startswith("a key in fielding_chart is ")
    nested = copy.deepcopy(doc)
    nested["cards"][0]["real"]["x"] = [[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]  # 16 lists below a depth of 3
    assert document_problem(nested) == f"cards[0].real.x{'[0]' * 13} is nested deeper than the limit of {MAX_DEPTH} levels"
    # too deep for the parser: the text itself says where, strings (with their brackets) skipped
    text = '{"a": "[[[[\\"{{", "cards": [{}, {"chart": [1, ' + "[" * 30 + "]" * 30 + "]}]}"
    assert nesting_problem(text) == f"cards[1].chart[1]{'[0]' * 13} is nested deeper than the limit of 16 levels"


def test_control_and_bidi_characters_are_taken_out_of_a_card_set(tmp_path: Path):
    """A right-to-left override in a hand-edited name was honoured on the printed card."""
    doc = rules_example_card_set()
    name = doc["cards"][0]["player"]["name"]
    doc["cards"][0]["player"]["name"] = f"\u202e{name[::-1]}\u202c"
    doc["teams"][0]["short_name"] = "Thunder\t\u200f"
    (tmp_path / FILE_NAME).write_text(dumps(doc), encoding="utf-8")
    card_set = load_card_set(tmp_path)
    assert card_set.cards[0].player.name == name[::-1]
    assert card_set.teams[0].short_name == "Thunder"


def test_a_card_set_that_is_a_fifo_is_one_line_not_a_hang(tmp_path: Path, mirror: Path):
    fifo = tmp_path / FILE_NAME
    os.mkfifo(fifo)
    # the command in a process of its own first, so a hang fails the test instead of the suite
    run = subprocess.run([sys.executable, "-m", "cardgen", "validate", *SEASON, "--cards", str(fifo),
                          "--out", str(tmp_path / "out")], capture_output=True, text=True, timeout=120,
                         cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), CACHE_ENV: str(tmp_path / "c"),
                                        SOURCE_ENV: str(mirror)})
    assert run.returncode == EXIT_USAGE and run.stderr.strip().count("\n") == 0, run.stderr
    assert "is not a regular file" in run.stderr
    with pytest.raises(CardSetError, match="is not a regular file"):
        load_card_set(fifo)


def test_the_site_skips_a_deep_card_set_with_a_warning(tmp_path: Path, env):
    """`cardgen site` read card-set.json itself: a 100,000-deep one was exit 70."""
    out = tmp_path / "out"
    kit = out / "BBL_2024-25"
    kit.mkdir(parents=True)
    (kit / FILE_NAME).write_text('{"schema_version": 1, "cards": ' + "[" * 100_000 + "]" * 100_000 + "}")
    result = CliRunner().invoke(main, ["site", "--out", str(out)], env=env)
    assert "Traceback" not in result.output and "hit a bug" not in result.output, result.output
    assert f"cannot read {kit / FILE_NAME}: cards{'[0]' * MAX_DEPTH} is nested deeper" in result.output


def test_a_names_file_name_over_the_limit_is_one_line(tmp_path: Path, env):
    """A longer correction would write a card-set.json its own loader refuses."""
    names = tmp_path / "names.csv"
    names.write_text(f"id,name\n218d4d78,MT Renshaw\nb0946605,{'x' * (MOST_TEXT_CHARS + 1)}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["stats", *SEASON, "--table", "batting", "--names", str(names)], env=env)
    line = _one_line(result, EXIT_USAGE)
    assert f"names file {names}, line 3: a name of {MOST_TEXT_CHARS + 1:,} characters" in line


def test_calibrate_refuses_a_deep_card_set_in_its_way_in_one_line(tmp_path: Path, env):
    """calibrate reads a card-set.json it would replace, to see whether cardgen wrote it: a
    100,000-deep one was a RecursionError there too."""
    kit = tmp_path / "out" / "BBL_2024-25"
    kit.mkdir(parents=True)
    (kit / FILE_NAME).write_text('{"schema_version": 1, "cards": ' + "[" * 100_000 + "]" * 100_000 + "}")
    result = CliRunner().invoke(main, ["calibrate", *SEASON, "--out", str(tmp_path / "out")], env=env)
    assert result.exit_code != 0 and "hit a bug" not in result.output and "Traceback" not in result.output
    assert f"{kit / FILE_NAME} is not a card set cardgen wrote" in result.output, result.output
