"""Every card shows the right person (issue 42): attribute rows checked against the season itself,
roles from what the player did this season, and a nation on every card, on the real data."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from cardgen.cache import CACHE_ENV
from cardgen.calibrate.people import FRONT_LINE_USAGE, card_people, usage_letter, usual_positions
from cardgen.cli import main
from cardgen.competitions import USER_FILE_ENV, get_competition
from cardgen.sources.fetch import SOURCE_ENV
from cardgen.sources.given_names import name_sex
from cardgen.sources.players import PLAYERS_ENV, load_attributes, load_shipped_attributes
from cardgen.stats.identity import SeasonFacts, choose_row, contradictions, fitting_rows
from cardgen.stats.load import build_season_stats
from tests.conftest import MIRROR, PLAYERS

# the mirror's nine seasons: (code, season, folder)
SEASONS = [("BBL", "2023-24", "bbl_2023-24"), ("BBL", "2024-25", "bbl_2024-25"),
           ("HUNDRED", "2024", "hundred_men_2024"), ("SMASH", "2024-25", "super_smash_men_2024-25"),
           ("SMASH-W", "2022-23", "super_smash_women_2022-23"), ("IPL", "2024", "ipl_2024"),
           ("IPL", "2025", "ipl_2025"), ("WPL", "2023", "wpl_2023"), ("PSL", "2021", "psl_2021")]
# Cricsheet register id c160db98 "C Smith" carries ESPNcricinfo keys 932573 and 1340010; the
# attribute table joins it to 932573, Connor Smith (Isle of Man, born 1991): the WBBL
# 2022-23 Melbourne Stars No. 2 printed as him
C_SMITH = "c160db98"


@pytest.fixture(scope="module")
def mirror_seasons() -> dict[tuple[str, str], object]:
    """Every season of the mirror, its tables built with the shared players folder."""
    if not MIRROR.is_dir():
        pytest.fail(f"the Cricsheet mirror is missing at {MIRROR}")
    return {(code, season): build_season_stats(get_competition(code), season, str(MIRROR / folder),
                                               players_dir=PLAYERS)
            for code, season, folder in SEASONS}


def _season_sexes() -> dict[str, set[str]]:
    """Register id -> the sexes of the matches the player played in, over the whole mirror."""
    sexes: dict[str, set[str]] = {}
    for path in sorted(MIRROR.glob("*/*.json")):
        info = json.loads(path.read_text(encoding="utf-8"))["info"]
        for names in info["players"].values():
            for name in names:
                sexes.setdefault(info["registry"]["people"][name], set()).add(info["gender"])
    return sexes


def test_the_name_judgement_is_never_wrong_on_the_mirror_s_players():
    """Whoever played in the mirror's men's or women's matches: the shipped full name, where it
    gives a judgement at all, gives the sex of those matches (596 of 830 judged, 0 wrong; a wrong one
    would set a real player's row aside)."""
    sexes = _season_sexes()
    rows = load_shipped_attributes(sorted(sexes))
    judged = wrong = 0
    for pid, full_name in zip(rows["player_id"], rows["full_name"].fillna("")):
        sex = name_sex(full_name)
        if sex is None or len(sexes[pid]) != 1:
            continue
        judged += 1
        wrong += sex not in sexes[pid]
    assert judged >= 500 and wrong == 0, (judged, wrong)
    # father's given name second ("Harish"), family name first ("Dayalan"), initials only
    assert [name_sex(n) for n in ("Yastika Harish Bhatia", "Dayalan Hemalatha", "MW Downes")] == [None] * 3
    assert name_sex("Connor Smith") == "male" and name_sex("Smriti Shriniwas Mandhana") == "female"


def test_a_man_s_row_is_set_aside_in_a_women_s_season_and_kept_in_a_men_s():
    [connor] = load_attributes(PLAYERS, [C_SMITH]).to_dict("records")
    assert (connor["full_name"], connor["country"], connor["key_cricinfo"]) == ("Connor Smith", "Isle of Man", "932573")
    assert connor["cricinfo_keys"] == "932573;1340010" and connor["birth_year"] == "1991"
    women, men = SeasonFacts(sex="female", year=2022), SeasonFacts(sex="male", year=2022)
    assert contradictions(connor, women) == ["Connor Smith is a man's name, in a women's competition"]
    assert contradictions(connor, men) == []
    # born 1991: no one's row in a season of 1960 or 2060
    assert contradictions(connor, SeasonFacts(sex="male", year=1960))[0].endswith("would be -31 in 1960")
    row, note = choose_row([connor], women)
    assert row is None and note.startswith("set aside ESPNcricinfo 932573: Connor Smith is a man's")


def test_a_register_id_with_two_keys_takes_the_row_that_fits():
    """Two candidate rows for c160db98 (its two ESPNcricinfo keys): Connor Smith's real row, and
    for key 1340010 a woman's real row (Kate Ebrahim's, Smash-W 2022-23) under that key: the
    women's season takes the second and says why; a men's season the register's own first."""
    [connor] = load_attributes(PLAYERS, [C_SMITH]).to_dict("records")
    [kate] = load_attributes(PLAYERS, ["7c0055c1"]).to_dict("records")
    other = {**kate, "player_id": C_SMITH, "key_cricinfo": "1340010"}
    table = pd.DataFrame([connor, other])
    chosen = fitting_rows(table, SeasonFacts(sex="female", year=2022)).set_index("player_id")
    assert chosen.loc[C_SMITH, "key_cricinfo"] == "1340010"
    assert chosen.loc[C_SMITH, "identity_note"] == ("set aside ESPNcricinfo 932573: Connor Smith is a "
                                                    "man's name, in a women's competition; used ESPNcricinfo 1340010")
    chosen = fitting_rows(table, SeasonFacts(sex="male", year=2022)).set_index("player_id")
    assert chosen.loc[C_SMITH, "key_cricinfo"] == "932573" and pd.isna(chosen.loc[C_SMITH, "identity_note"])


def _smash_women_with_c_smith(tmp_path: Path) -> Path:
    """The real Smash-W 2022-23 files with Wellington's opener Thamsyn Newton (register id
    93fe473e, 155 balls at No. 1) under the register id and name of c160db98 "C Smith": the WBBL
    case in a season the mirror has (no women's season here joins a man's row by itself)."""
    root = tmp_path / "mirror"
    folder = root / "super_smash_women_2022-23"
    folder.mkdir(parents=True)
    for path in sorted((MIRROR / "super_smash_women_2022-23").glob("*.json")):
        text = path.read_text(encoding="utf-8")
        assert "C Smith" not in text and C_SMITH not in text
        (folder / path.name).write_text(text.replace('"TMM Newton"', '"C Smith"').replace("93fe473e", C_SMITH),
                                        encoding="utf-8")
    return root


def test_the_wbbl_case_prints_cricsheet_s_name_never_the_other_person(tmp_path):
    root = _smash_women_with_c_smith(tmp_path)
    env = {CACHE_ENV: str(tmp_path / "cache"), SOURCE_ENV: None, PLAYERS_ENV: str(PLAYERS),
           "CARDGEN_CRICINFO": None, USER_FILE_ENV: None, "CARDGEN_NAMES": None}
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", "-c", "SMASH-W", "-s", "2022-23", "--source", str(root),
                                       "--out", str(out), "--no-images", "--paper", "a4"], env=env)
    assert result.exit_code == 0, result.output
    card_set = json.loads((out / "SMASH-W_2022-23" / "card-set.json").read_text(encoding="utf-8"))
    [card] = [c for c in card_set["cards"] if c["player"]["id"] == C_SMITH]
    player = card["player"]
    assert player["name"] == "C Smith" and player["full_name"] == "C Smith"
    assert player["country"] == "New Zealand"            # her team's country, not the Isle of Man
    assert player["batting_role"] == "Opening"           # what she did: opened, 155 balls (his row: "Bowler")
    assert player["identity"] == "season" and "932573" in player["identity_note"]
    printed = {k: v for k, v in player.items() if k != "identity_note"}
    assert "Connor" not in json.dumps(printed) and "Isle of Man" not in json.dumps(card_set)
    # build counts and lists the card; every other player's row fitted the season
    lines = result.output.splitlines()
    count = next(line for line in lines if line.startswith("identity from the season alone:"))
    assert count.startswith(f"identity from the season alone: 1 of {len(card_set['cards'])} cards, 1 player")
    listed = lines[lines.index(count) + 1]
    assert listed == ("  C Smith (Wellington, New Zealand): set aside ESPNcricinfo 932573: Connor Smith "
                      "is a man's name, in a women's competition")


def test_unknown_players_get_roles_from_the_season_and_a_nation(mirror_seasons):
    """IPL 2025's eight debutants no table knows: the team's country, and the roles of their
    season; Digvesh Rathi (LSG, 52 overs, A+) is no "mainly a batter"."""
    stats = mirror_seasons[("IPL", "2025")]
    people = card_people(stats, 6)
    unknown = {key: p for key, p in people.items() if p.get("identity") == "season"}
    assert len({pid for pid, _ in unknown}) == 8
    assert all(p["country"] == "India" for p in unknown.values())
    rathi = next(p for (pid, team), p in unknown.items() if p["cricsheet_name"] == "DS Rathi")
    assert rathi["bowling_role"] is None                  # printed "Bowler": no source gives his type
    vaibhav = next(p for p in unknown.values() if p["cricsheet_name"] == "V Suryavanshi")
    assert vaibhav["batting_role"] == "Opening" and vaibhav["country"] == "India"


def test_no_impossible_role_or_blank_nation_in_any_season_of_the_mirror(mirror_seasons):
    """Over every season: no "*" (mainly a bowler) on a top-six batter with 100 balls or more,
    no "*" (mainly a batter) on a bowler of usage B or better, a nation on every player."""
    checked = {"batters": 0, "bowlers": 0}
    for (code, season), stats in mirror_seasons.items():
        bpo = get_competition(code).balls_per_over
        people = card_people(stats, bpo)
        positions = usual_positions(stats.lineups)
        for r in stats.batting.itertuples():
            if positions.get((r.player_id, r.team), 12) <= 6 and r.balls >= 100:
                checked["batters"] += 1
                assert people[(r.player_id, r.team)]["batting_role"] != "*", (code, season, r.player)
        for r in stats.bowling.itertuples():
            if usage_letter(int(r.legal_balls), int(r.innings), bpo) in FRONT_LINE_USAGE:
                checked["bowlers"] += 1
                assert people[(r.player_id, r.team)]["bowling_role"] != "*", (code, season, r.player)
        blank = [p["name"] for p in people.values() if not p.get("country")]
        assert blank == [], (code, season, blank)
    assert checked["batters"] >= 300 and checked["bowlers"] >= 500, checked


def test_jack_wood_and_the_source_s_bowlers_who_open(mirror_seasons):
    """Issue 34: Jack Wood (Brisbane Heat's opener, "Bowler" in the attributes, 76 balls in four
    innings, no ball bowled) is an Opening batter; a "Bowler" who bats in the top six and bowls
    is an All-Rounder (Jess Jonassen, WPL 2023: No. 6, 210 balls bowled)."""
    bbl = card_people(mirror_seasons[("BBL", "2024-25")], 6)
    wood = next(p for p in bbl.values() if p["cricsheet_name"] == "JP Wood")
    assert wood["batting_role"] == "Opening"
    wpl = card_people(mirror_seasons[("WPL", "2023")], 6)
    jonassen = next(p for p in wpl.values() if p["cricsheet_name"] == "JL Jonassen")
    assert jonassen["batting_role"] == "All-Rounder"


def test_a_players_folder_copy_gives_the_same_identities(tmp_path, mirror_seasons):
    """The shipped table and the players folder agree on who is who (a fresh install has only
    the shipped table)."""
    shutil.copytree(MIRROR / "wpl_2023", tmp_path / "wpl_2023")  # no players folder beside it
    stats = build_season_stats(get_competition("WPL"), "2023", str(tmp_path / "wpl_2023"))
    folder = mirror_seasons[("WPL", "2023")].attributes.set_index("player_id")
    shipped = stats.attributes.set_index("player_id")
    assert (shipped["identity"] == "source").all()
    assert shipped.loc[folder.index, "full_name"].equals(folder["full_name"])
