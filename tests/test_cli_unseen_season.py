"""A season the project never saw, as a user with their own Cricsheet files meets it (helper-49's
audit, notes/helper-49.md): real PSL 2021 match files, edited the way another competition's
files differ, under a competition of the user's own. Each test failed before its fix."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cache import CACHE_ENV
from cardgen.cli import main
from cardgen.competitions import get_competition
from cardgen.errors import EXIT_USAGE
from cardgen.sources.fetch import SOURCE_ENV
from tests.conftest import MIRROR
from tests.test_cli_errors import one_line_error
from conftest import as_model

PSL = MIRROR / "psl_2021"


def user_mirror(folder: Path, event: str, count: int = 6, overs: int = 20, match_type: str = "T20",
                washed_out: tuple[int, ...] = ()) -> Path:
    """The first `count` PSL 2021 files as `event`'s, scheduled for `overs` overs and each innings
    cut to that many (a T10 league's files); the `washed_out` ones (indices) a no result without
    a ball (the file Cricsheet keeps of such a match: no innings)."""
    folder.mkdir(parents=True, exist_ok=True)
    for path in sorted(PSL.glob("*.json"))[:count]:
        doc = json.loads(path.read_text(encoding="utf-8"))
        doc["info"]["event"]["name"] = event
        doc["info"]["overs"] = overs
        doc["info"]["match_type"] = match_type
        for innings in doc["innings"]:
            innings["overs"] = innings["overs"][:overs]
            innings.pop("target", None)
        if len(list(folder.glob("*.json"))) in washed_out:
            doc["innings"] = []
            doc["info"]["outcome"] = {"result": "no result"}
            doc["info"].pop("player_of_match", None)
        (folder / path.name).write_text(json.dumps(doc), encoding="utf-8")
    return folder


def competitions_file(tmp_path: Path, code: str, event: str, fmt: str = "T20") -> Path:
    path = tmp_path / "competitions.toml"
    path.write_text(f'[[competition]]\ncode = "{code}"\nname = "{event}"\nsex = "men"\nformat = "{fmt}"\n'
                    f'seasons = "calendar"\nevent_names = ["{event}"]\n', encoding="utf-8")
    return path


def env_for(tmp_path: Path, source: Path, competitions: Path) -> dict[str, str | None]:
    return {CACHE_ENV: str(tmp_path / "cache"), SOURCE_ENV: str(source), "CARDGEN_CRICINFO": None,
            "CARDGEN_NAMES": None, "CARDGEN_COMPETITIONS": str(competitions)}


COMMANDS = [["build"], ["build", "--game", "roll-and-play"], ["calibrate"], ["validate"], ["simulate"],
            ["compare-games"]]


@pytest.mark.needs_data
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c))
@pytest.mark.parametrize("overs,match_type", [(10, "T20"), (50, "ODI")], ids=["T10", "ODI"])
def test_a_season_of_another_length_is_refused_in_one_line(tmp_path: Path, command: list[str], overs: int,
                                                           match_type: str):
    """A user's competition of 10-over (or 50-over) matches built a T20 kit without a word: 120-ball
    scoresheets, usage letters out of 4 overs, and replays of 20 overs from cards made of 10
    (first-innings total 160 against the real 77). Now every command that makes or plays cards
    stops first, in one line, and writes nothing."""
    source = user_mirror(tmp_path / "mirror", "Indus T10", overs=overs, match_type=match_type)
    env = env_for(tmp_path, source, competitions_file(tmp_path, "IT", "Indus T10"))
    out = tmp_path / "out"
    result = CliRunner().invoke(main, command + ["-c", "IT", "-s", "2021", "--out", str(out)], env=env)
    line = one_line_error(result, EXIT_USAGE)
    assert f"IT 2021: 6 of 6 match files are {overs}-over matches" in line
    assert "20-over T20 and 100-ball seasons only" in line
    assert not out.exists() or not any(out.rglob("*.*"))


@pytest.mark.needs_data
def test_a_competition_declared_100_ball_for_6_ball_overs_is_refused(tmp_path: Path):
    """format = "100-ball" on a T20 league's files calibrated 100-ball cards out of six-ball overs."""
    source = user_mirror(tmp_path / "mirror", "Indus Cup")
    env = env_for(tmp_path, source, competitions_file(tmp_path, "IC", "Indus Cup", fmt="100-ball"))
    result = CliRunner().invoke(main, ["calibrate", "-c", "IC", "-s", "2021", "--out", str(tmp_path / "out")],
                                env=env)
    line = one_line_error(result, EXIT_USAGE)
    assert "6-ball overs, but IC is a 100-ball competition" in line and 'format = "T20"' in line


@pytest.mark.needs_data
@pytest.mark.parametrize("code,season", [("PSL", "2021"), ("HUNDRED", "2024"), ("BBL", "2024-25"),
                                         ("WPL", "2023")])
def test_the_real_seasons_pass_the_format_check(tmp_path: Path, monkeypatch, code: str, season: str):
    from cardgen.cli import check_season_format, resolve
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    comp, season = resolve(code, season)
    check_season_format(comp, season, str(MIRROR))  # no error


LONG_NAME = "Mohammad Nabi Ørsted-Łukasiński"  # 31 letters, accents and a hyphen


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_long_name_fits_its_team_sheet_columns(paper: str):
    """A long player name (a user's --names correction, or a league's long surnames) ran on into
    the Role column of the deck and into Usage in the bowlers table: preflight counted 8 text
    overlaps in the kit. It is now set smaller, on two lines when it must, inside its column:
    BBL 2024-25's shipped set, one all-rounder renamed as the kit's --names would."""
    import copy
    import io

    import pypdf

    from cardgen.render.preflight import check_pdf
    from cardgen.render.teamsheets import render_team_sheets_pdf
    from tests.conftest import _shipped_rule_set
    card_set = copy.deepcopy(_shipped_rule_set("BBL_2024-25"))
    team = card_set["teams"][0]
    bowling = {c["player"]["id"] for c in card_set["cards"] if c["kind"] == "bowler" and c["team"] == team["name"]}
    pid = next(p for p in team["batting_order"] if p in bowling)  # in the XI and the bowlers table
    for card in card_set["cards"]:
        if card["player"]["id"] == pid:
            card["player"]["name"] = LONG_NAME
    pdf = render_team_sheets_pdf(as_model(card_set), paper, "credit")
    assert check_pdf(pdf, "team-sheets-a4.pdf") == []
    text = " ".join(pypdf.PdfReader(io.BytesIO(pdf)).pages[0].extract_text().split())
    assert "ØRSTED-ŁUKASIŃSKI" in text and "MOHAMMAD NABI" in text and "\u2026" not in text


@pytest.mark.slow
@pytest.mark.needs_data
def test_a_one_match_season_simulates_without_nan(tmp_path: Path):
    """A season of one match (a user's first file of a new league) has one first innings, so no
    standard deviation: `simulate` printed "its SD  nan" and wrote NaN into simulate_summary.json,
    which is not JSON (a browser's JSON.parse refuses it). It prints "-" and writes null."""
    source = user_mirror(tmp_path / "mirror", "Indus Cup", count=1)
    env = env_for(tmp_path, source, competitions_file(tmp_path, "IC", "Indus Cup"))
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["simulate", "-c", "IC", "-s", "2021", "--seasons", "20", "--out", str(out)],
                                env=env)
    assert result.exit_code == 0, result.output
    assert "nan" not in result.output.lower()
    [sd_line] = [line for line in result.output.splitlines() if line.strip().startswith("its SD")]
    assert sd_line.split()[2] == "-"

    def no_constants(name: str):
        raise AssertionError(f"{name} in simulate_summary.json")
    summary = json.loads((out / "IC_2021" / "validation" / "simulate_summary.json").read_text(encoding="utf-8"),
                         parse_constant=no_constants)
    assert summary["match_figures"]["real"]["first_innings_sd"] is None


@pytest.mark.slow
@pytest.mark.needs_data
def test_a_team_whose_only_match_had_no_ball_is_named_and_left_out_of_the_replays(tmp_path: Path):
    """Two matches, the second (Peshawar Zalmi v Lahore Qalandars) a no result without a ball: the
    kit printed no deck for those two teams and said nothing (its tracker still lists their
    fixture), and `simulate` stopped with "team 'Peshawar Zalmi' has no striker cards". Build now
    names them; simulate replays the fixtures it can and names the one it left out."""
    source = user_mirror(tmp_path / "mirror", "Indus Cup", count=2, washed_out=(1,))
    env = env_for(tmp_path, source, competitions_file(tmp_path, "IC", "Indus Cup"))
    out = tmp_path / "out"
    built = CliRunner().invoke(main, ["build", "-c", "IC", "-s", "2021", "--paper", "a4", "--no-images",
                                      "--out", str(out)], env=env)
    assert built.exit_code == 0, built.output
    for team in ("Peshawar Zalmi", "Lahore Qalandars"):
        assert f"note: {team} has no cards: it neither batted nor bowled" in built.output
    assert "Karachi Kings has no" not in built.output
    result = CliRunner().invoke(main, ["simulate", "-c", "IC", "-s", "2021", "--seasons", "20", "--out", str(out)],
                                env=env)
    assert result.exit_code == 0, result.output
    assert ("left out 1 of the fixture list's matches, a side with no striker or no bowler card in the set: "
            "Peshawar Zalmi v Lahore Qalandars") in result.output
    summary = json.loads((out / "IC_2021" / "validation" / "simulate_summary.json").read_text(encoding="utf-8"))
    assert summary["matches_simulated"] == 20


@pytest.mark.needs_data
def test_a_team_without_cards_asked_for_by_name_is_named_in_the_error(tmp_path: Path):
    """`build --team Peshawar` for that washed-out team said only "the card set has no cards to
    print", as if the season had none."""
    source = user_mirror(tmp_path / "mirror", "Indus Cup", count=2, washed_out=(1,))
    env = env_for(tmp_path, source, competitions_file(tmp_path, "IC", "Indus Cup"))
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", "-c", "IC", "-s", "2021", "--team", "Peshawar", "--paper", "a4",
                                       "--no-images", "--out", str(out)], env=env)
    assert result.exit_code == EXIT_USAGE, result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error: ")]
    assert errors == ["Error: Peshawar Zalmi has no cards to print: it neither batted nor bowled in the "
                      "season's files (no ball in its matches); choose another --team"]
    assert "Traceback" not in result.output
    assert not out.exists() or not any(out.rglob("*.pdf"))


@pytest.mark.slow
@pytest.mark.needs_data
def test_a_team_renamed_mid_season_is_pointed_out(tmp_path: Path, monkeypatch):
    """Peshawar Zalmi under a sponsor's name from its second match: cardgen keys a team on its
    name, so the kit printed two half-season decks and two ladder rows, and said nothing (the
    ladder's note blamed missing matches). Build now names the pair and how to make them one."""
    from cardgen.cli import resolve
    from cardgen.cli.build import renamed_team_lines
    from cardgen.stats.load import season_stats
    source = user_mirror(tmp_path / "mirror", "Indus Cup")
    for path in sorted(source.glob("*.json"))[3:]:
        path.write_text(path.read_text(encoding="utf-8").replace("Peshawar Zalmi", "Haier Peshawar Zalmi"),
                        encoding="utf-8")
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setenv("CARDGEN_COMPETITIONS", str(competitions_file(tmp_path, "IC", "Indus Cup")))
    comp, season = resolve("IC", "2021")
    assert renamed_team_lines(season_stats(comp, season, str(source)).matches) == [
        "note: 'Peshawar Zalmi' (to 2021-02-21) and 'Haier Peshawar Zalmi' (from 2021-02-23) look like one "
        "team renamed: the kit prints them as two teams; to make them one, give the competition's entry in "
        'your competitions file team_aliases = {"Haier Peshawar Zalmi" = "Peshawar Zalmi"}']
    for code, real in (("BBL", "2024-25"), ("HUNDRED", "2024"), ("IPL", "2025"), ("PSL", "2021")):  # no false alarm
        comp, real = resolve(code, real)
        assert renamed_team_lines(season_stats(comp, real, str(MIRROR)).matches) == []


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_long_competition_name_stays_on_the_fielding_chart(paper: str):
    """A user's competition named at length ran the fielding chart's heading off the landscape
    page (preflight: text within 5 mm of the paper edge); it is now set smaller, then cut with an
    ellipsis, as the scoresheet's heading is."""
    import copy

    import pypdfium2

    from cardgen.render.fielding import render_fielding_pdf
    from cardgen.render.preflight import check_pdf
    from tests.conftest import _shipped_rule_set
    card_set = copy.deepcopy(_shipped_rule_set("BBL_2024-25"))
    card_set["competition"]["name"] = ("The Very Long Named Regional Inter-Provincial Twenty20 Championship "
                                       "Trophy Series Presented by Sponsors")
    pdf = render_fielding_pdf(as_model(card_set), paper, "credit")
    assert check_pdf(pdf, "fielding-chart-a4.pdf") == []
    text = pypdfium2.PdfDocument(pdf)[0].get_textpage().get_text_range()
    assert "Fielding chart \u2014 The Very Long Named Regional" in text and "\u2026" in text.splitlines()[0]


@pytest.mark.needs_data
def test_team_aliases_make_a_renamed_team_one(tmp_path: Path, monkeypatch):
    """The note's remedy works: with team_aliases in the competition's entry, the sponsor's name
    is read as the team's own everywhere (matches, innings, wickets, XIs), so the season has one
    Peshawar Zalmi with one deck and every one of its matches, and no note."""
    from cardgen.cli import resolve
    from cardgen.cli.build import renamed_team_lines
    from cardgen.stats.load import season_stats
    source = user_mirror(tmp_path / "mirror", "Indus Cup")
    for path in sorted(source.glob("*.json"))[3:]:
        path.write_text(path.read_text(encoding="utf-8").replace("Peshawar Zalmi", "Haier Peshawar Zalmi"),
                        encoding="utf-8")
    comps = competitions_file(tmp_path, "IC", "Indus Cup")
    comps.write_text(comps.read_text(encoding="utf-8")
                     + 'team_aliases = { "Haier Peshawar Zalmi" = "Peshawar Zalmi" }\n', encoding="utf-8")
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setenv("CARDGEN_COMPETITIONS", str(comps))
    comp, season = resolve("IC", "2021")
    stats = season_stats(comp, season, str(source))
    teams = set(stats.matches["team1"]) | set(stats.matches["team2"])
    assert "Haier Peshawar Zalmi" not in teams and "Peshawar Zalmi" in teams
    for table, column in ((stats.innings, "batting_team"), (stats.lineups, "team"), (stats.batting, "team")):
        assert "Haier Peshawar Zalmi" not in set(table[column]), column
    real = season_stats(get_competition("PSL"), "2021", str(MIRROR))  # the same files, never renamed
    ids = set(stats.matches["match_id"].astype(str))
    real_matches = real.matches[real.matches["match_id"].astype(str).isin(ids)]
    assert sorted(stats.matches["winner"].fillna("")) == sorted(real_matches["winner"].fillna(""))
    assert renamed_team_lines(stats.matches) == []
