"""`cardgen league`: a bad league file is one line naming its line, exit 2, and nothing written."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cli import main
from cardgen.errors import EXIT_USAGE

HEAD = 'name = "Bad"\nbaseline = "BBL 2024-25"\n'
SIDE = '[[team]]\nfrom = "BBL 2024-25: Sydney Sixers"\n'


@pytest.mark.parametrize("body, line, words", [
    # an unknown player, with the nearest names
    ('[[team]]\nname = "Mine"\nplayers = [\n  "BBL 2024-25: Steve Smit",\n]\n' + SIDE, 6,
     "no player 'Steve Smit' in BBL 2024-25; did you mean 'Steve Smith'"),
    # an unknown season and an unknown competition
    ('[[team]]\nfrom = "BBL 1999-00: Sydney Sixers"\n' + SIDE, 4, "season BBL 1999-00 cannot be read"),
    ('[[team]]\nfrom = "ZZZ 2024: Sydney Sixers"\n' + SIDE, 4, "unknown competition 'ZZZ'"),
    # an unknown side, with the season's sides
    ('[[team]]\nfrom = "BBL 2024-25: Sydney Nothing"\n' + SIDE, 4,
     "'Sydney Nothing' is no side of BBL 2024-25; its sides: Adelaide Strikers"),
    # a player in two sides
    (SIDE + '[[team]]\nname = "Mine"\nplayers = ["BBL 2024-25: SPD Smith"]\n', 7,
     "Steve Smith is in two sides ('Sydney Sixers', line 4, and 'Mine')"),
    # a name that fits several players: every one listed
    ('[[team]]\nname = "Mine"\nplayers = ["BBL 2024-25: Short"]\n' + SIDE, 5,
     "'Short' fits 2 players in BBL 2024-25: D'Arcy Short (DJM Short, Adelaide Strikers, id 1a156c88); "
     "Matt Short (MW Short, Adelaide Strikers, id a90e53ec)"),
    # a malformed file
    ('[[team]]\nfrom = "BBL 2024-25: Sydney Sixers\n', 4, "not a readable league file"),
])
def test_a_bad_league_file_is_one_line_exit_2_and_nothing_written(body: str, line: int, words: str,
                                                                  tmp_path: Path, mirror: Path) -> None:
    league = tmp_path / "my-league.toml"
    league.write_text(HEAD + body, encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["league", str(league), "--out", str(out), "--source", str(mirror),
                                       "--no-images"])
    assert result.exit_code == EXIT_USAGE, result.output
    lines = [x for x in result.output.splitlines() if x.strip()]
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    assert lines[0].startswith(f"Error: {league}, line {line}: "), lines[0]
    assert words in lines[0], lines[0]
    assert not out.exists() or not any(out.iterdir())


def test_no_file_at_all_and_both_a_file_and_a_draft_are_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["league", str(tmp_path / "none.toml"), "--out", str(tmp_path / "o")])
    assert result.exit_code == EXIT_USAGE and "no league file at" in result.output
    f = tmp_path / "l.toml"
    f.write_text(HEAD + SIDE, encoding="utf-8")
    result = CliRunner().invoke(main, ["league", str(f), "--draft", "BBL 2024-25", "--out", str(tmp_path / "o")])
    assert result.exit_code == EXIT_USAGE and "not both" in result.output
    assert not (tmp_path / "o").exists()


def test_a_side_over_the_cap_is_named_and_nothing_written(tmp_path: Path, mirror: Path) -> None:
    f = tmp_path / "l.toml"
    f.write_text('name = "Capped"\nbaseline = "BBL 2024-25"\ncap = -100\n' + SIDE
                 + '[[team]]\nfrom = "BBL 2024-25: Hobart Hurricanes"\n', encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["league", str(f), "--out", str(out), "--source", str(mirror), "--no-images"])
    assert result.exit_code == EXIT_USAGE, result.output
    lines = [x for x in result.output.splitlines() if x.strip()]
    assert len(lines) == 1 and f"{f}, line 3: 2 sides are over the cap of -100 points" in lines[0], lines
    assert "Sydney Sixers (" in lines[0] and "Hobart Hurricanes (" in lines[0]
    assert not out.exists() or not any(out.iterdir())


@pytest.mark.parametrize("body, line, words", [
    ('[[team]]\nfrom = "BBL 2024-25: Sydney Sixers\n', 4, "not a readable league file"),
    ('[[team]]\nname = "Mine"\nplayers = ["BBL 2024-25: Steve Smit"]\n' + SIDE, 5,
     "no player 'Steve Smit' in BBL 2024-25"),
])
def test_build_league_is_the_league_command(body: str, line: int, words: str, tmp_path: Path,
                                            mirror: Path) -> None:
    # `build --league FILE` reads the file as `league FILE` does: the same one line, exit 2
    f = tmp_path / "l.toml"
    f.write_text(HEAD + body, encoding="utf-8")
    out = tmp_path / "out"
    args = [str(f), "--out", str(out), "--source", str(mirror), "--no-images"]
    by_league = CliRunner().invoke(main, ["league", *args])
    by_build = CliRunner().invoke(main, ["build", "--league", *args])
    assert by_build.exit_code == by_league.exit_code == EXIT_USAGE, by_build.output
    assert by_build.output == by_league.output
    assert by_build.output.startswith(f"Error: {f}, line {line}: ") and words in by_build.output
    assert by_build.output.count("\n") == 1
    assert not out.exists() or not any(out.iterdir())


@pytest.mark.parametrize("extra, named", [
    (["-c", "BBL", "-s", "2024-25"], "--competition, --season"),
    (["--team", "Sydney Sixers", "--bleed"], "--team, --bleed"),
    (["--game", "roll-and-play"], "--game"),
])
def test_build_league_refuses_a_seasons_options(extra: list[str], named: str, tmp_path: Path) -> None:
    f = tmp_path / "l.toml"
    f.write_text(HEAD + SIDE, encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", "--league", str(f), "--out", str(out), *extra])
    assert result.exit_code == EXIT_USAGE, result.output
    assert f"{named}: for a season's kit" in result.output, result.output
    assert not out.exists() or not any(out.iterdir())


@pytest.mark.slow   # a whole kit
def test_build_league_writes_the_league_kit(tmp_path: Path, mirror: Path) -> None:
    f = tmp_path / "l.toml"
    f.write_text(HEAD + SIDE + '[[team]]\nfrom = "BBL 2024-25: Hobart Hurricanes"\n', encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", "--league", str(f), "--out", str(out), "--source", str(mirror),
                                       "--paper", "a4", "--no-images"])
    assert result.exit_code == 0, result.output
    assert "Bad: 2 sides on BBL 2024-25" in result.output
    folder = out / "BAD_2024-25"
    assert (folder / "league.toml").read_bytes() == f.read_bytes()
    for name in ("cards-a4.pdf", "draft-sheet-a4.pdf", "fixtures-a4.pdf", "play.html"):
        assert (folder / name).stat().st_size > 0, name
    # the league kit's manifest (issue 39: one manifest from every producer) owns its own files,
    # the league's sheets and its copy of the league file too, so a rebuild replaces them
    from cardgen.manifest import MANIFEST_VERSION, read_manifest
    manifest = read_manifest(folder, "season-kit")
    assert manifest is not None and manifest.version == MANIFEST_VERSION
    assert {"cards-a4.pdf", "draft-sheet-a4.pdf", "fixtures-a4.pdf", "play.html", "league.toml"} <= set(manifest.files)


def test_a_hand_edited_league_set_is_one_line(tmp_path: Path) -> None:
    # a league's card-set.json with a side's points edited to text: simulate says where, exit 2
    from cardgen.render.sample import rules_example_card_set
    doc = rules_example_card_set()
    names = [t["name"] for t in doc["teams"]]
    doc["own_league"] = {"name": "Mine", "baseline": "BBL 2024-25", "fixtures": [names[:2], names[1::-1]]}
    doc["teams"][0]["points"] = "lots"
    path = tmp_path / "card-set.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    result = CliRunner().invoke(main, ["simulate", "--cards", str(path), "--seasons", "2", "--out", str(tmp_path / "o")])
    assert result.exit_code == EXIT_USAGE, result.output
    assert result.output.count("\n") == 1 and "Traceback" not in result.output, result.output
    assert f"{path} is not a valid card set: teams/0/points: 'lots' is not of type 'number'" in result.output
    assert not (tmp_path / "o").exists() and not (tmp_path / "validation").exists()
