"""The whole pipeline on the synthetic mirror in tests/fixtures/synthetic (no ../shared needed):
match files -> tables -> cards -> kit -> engines -> CLI, for a tiny T20 and a tiny 100-ball
season. Every expected figure is counted here from the fixture's own JSON, not pinned."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from cardgen.cache import CACHE_ENV, Cache
from cardgen.calibrate.cardset import load_card_set
from cardgen.cli import main
from cardgen.competitions import get_competition
from cardgen.render.preflight import check_folder
from cardgen.sim.captain import Captain
from cardgen.sim.model import compile_card_set
from cardgen.sim.reference import play_match
from cardgen.sim.season import replay_season
from cardgen.sources.cricsheet import parse_match
from cardgen.sources.fetch import SOURCE_ENV
from cardgen.stats.load import season_stats
from cardgen.wickets_in_hand import RULE
from conftest import as_model

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "synthetic"
SOURCE = FIXTURE / "cricsheet"
# format -> (competition, season, mirror folder, legal balls a full innings)
SEASONS = {"T20": ("BBL", "2030-31", "bbl_2030-31", 120),
           "100-ball": ("HUNDRED", "2030", "hundred_men_2030", 100)}
MATCH_FILES = sorted(SOURCE.glob("*/*.json"))


def _deliveries(match: dict):
    for innings in match["innings"]:
        for over in innings["overs"]:
            for delivery in over["deliveries"]:
                yield innings["team"], delivery


def _raw(fmt: str) -> list[dict]:
    folder = SOURCE / SEASONS[fmt][2]
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))]


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str | None]:
    """The commands' environment: the fixture mirror as the source, a cache of the module's own."""
    return {CACHE_ENV: str(tmp_path_factory.mktemp("cache")), SOURCE_ENV: str(SOURCE),
            "CARDGEN_CRICINFO": None, "CARDGEN_PLAYERS": None}


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> dict:
    cache = Cache(tmp_path_factory.mktemp("tables"))
    return {fmt: season_stats(get_competition(code), season, str(SOURCE), cache=cache)
            for fmt, (code, season, _, _) in SEASONS.items()}


@pytest.fixture(scope="module")
def kit(env, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The T20 season's Quicket kit, as `cardgen build` writes it (calibration included)."""
    out = tmp_path_factory.mktemp("kit")
    result = CliRunner().invoke(main, ["build", "-c", "BBL", "-s", "2030-31", "--out", str(out)],
                                env=env)
    assert result.exit_code == 0, result.output
    assert "preflight: 0 problems" in result.output
    return out / "BBL_2030-31"


@pytest.fixture(scope="module")
def card_sets(kit: Path, env, tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """Both seasons' card sets: the kit's, and the 100-ball one from `cardgen calibrate`."""
    out = tmp_path_factory.mktemp("calibrated")
    result = CliRunner().invoke(main, ["calibrate", "-c", "HUNDRED", "-s", "2030", "--out", str(out)],
                                env=env)
    assert result.exit_code == 0, result.output
    return {"T20": load_card_set(kit / "card-set.json"),
            "100-ball": load_card_set(out / "HUNDRED_2030" / "card-set.json")}


# --- sources --------------------------------------------------------------------------------

@pytest.mark.parametrize("path", MATCH_FILES, ids=lambda p: p.parent.name + "/" + p.name)
def test_every_fixture_match_parses_into_its_deliveries(path: Path):
    raw = json.loads(path.read_text(encoding="utf-8"))
    parsed = parse_match(path.read_bytes(), path.stem)
    balls = list(_deliveries(raw))
    assert len(parsed.deliveries) == len(balls)
    assert sum(d["runs_total"] for d in parsed.deliveries) == sum(b["runs"]["total"] for _, b in balls)
    assert len(parsed.wickets) == sum(len(b.get("wickets", [])) for _, b in balls)
    assert len(parsed.players) == 22
    registry = raw["info"]["registry"]["people"]
    assert {d["bowler_id"] for d in parsed.deliveries} <= set(registry.values())
    assert parsed.match["balls_per_over"] == raw["info"]["balls_per_over"]
    # the legal balls of each over are numbered 1.. as the scorer counts them
    per_over = raw["info"]["balls_per_over"]
    assert max(d["ball"] for d in parsed.deliveries) == per_over


# --- stats ----------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", list(SEASONS))
def test_the_season_tables_add_up_to_the_match_files(tables, fmt: str):
    stats, raw = tables[fmt], _raw(fmt)
    balls = [b for match in raw for _, b in _deliveries(match)]
    legal = [b for b in balls if not {"wides", "noballs"} & set(b.get("extras", {}))]
    wickets = [w for b in balls for w in b.get("wickets", [])]
    assert stats.league["matches"] == len(raw) == len(stats.matches)
    assert stats.league["format"] == fmt
    assert stats.league["legal_balls"] == len(legal) == stats.bowling["legal_balls"].sum()
    assert stats.batting["runs"].sum() == sum(b["runs"]["batter"] for b in balls)
    assert stats.batting["dismissals"].sum() == len(wickets)
    credited = [w for w in wickets if w["kind"] != "run out"]
    assert stats.bowling["wickets"].sum() == len(credited)
    assert stats.fielding["stumpings"].sum() == sum(w["kind"] == "stumped" for w in wickets)
    assert stats.league["runs_total"] == sum(b["runs"]["total"] for b in balls)
    # a full innings is 120 (T20) or 100 (100-ball) legal balls: none of the fixture's runs longer
    assert stats.innings["legal_balls"].max() <= SEASONS[fmt][3]


@pytest.mark.parametrize("fmt", list(SEASONS))
def test_attributes_come_from_the_fixture_players_folder(tables, fmt: str):
    """The players folder beside the mirror (fixtures/synthetic/players) describes most players;
    the few it lacks are inferred from the balls; each team's keeper is its wicketkeeper."""
    stats = tables[fmt]
    meta = (FIXTURE / "players" / "player_meta.csv").read_text(encoding="utf-8")
    described = {line.split(",")[1] for line in meta.splitlines()[1:]}
    attrs = stats.attributes.set_index("player_id")
    assert len(attrs) == 11 * len(set(stats.matches[["team1", "team2"]].to_numpy().ravel()))
    for pid, row in attrs.iterrows():
        assert row["attribute_source"] == ("player_meta" if pid in described else "inferred"), pid
    keepers = stats.lineups[stats.lineups["keeper"].astype(bool)]
    for team, rows in keepers.groupby("team"):
        [keeper] = set(rows["player_id"])
        assert attrs.loc[keeper, "playing_role"] in ("Wicketkeeper Batter", None) or \
            attrs.loc[keeper, "inferred_keeper"], team


# --- calibration ----------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", list(SEASONS))
def test_calibrated_sets_give_each_team_two_decks_of_whole_charts(card_sets, tables, fmt: str):
    card_set = card_sets[fmt]  # load_card_set validated it against the shipped schema
    assert card_set["format"] == fmt
    teams = {t["name"] for t in card_set["teams"]}
    assert teams == set(tables[fmt].matches[["team1", "team2"]].to_numpy().ravel())
    for team in teams:
        kinds = {c["kind"] for c in card_set["cards"] if c["team"] == team}
        assert kinds == {"striker", "bowler"}, team
    for card in card_set["cards"]:
        faces = sorted((f["lo"], f["hi"]) for f in card["chart"])
        assert faces[0][0] == 1 and faces[-1][1] == 100
        assert all(hi + 1 == lo for (_, hi), (lo, _) in zip(faces, faces[1:])), card["player"]["name"]


@pytest.mark.parametrize("fmt", list(SEASONS))
def test_the_cards_in_play_reproduce_the_leagues_runs(card_sets, fmt: str):
    """The calibration's promise (docs/calibration.md): against one another the cards score the
    league's real runs a ball. 4%: the league figure is solved to 2% on a real season; the
    fixture's tiny seasons (3 and 2 matches) shrink every card hard towards the mean, which
    leaves the league sum a little further from the real one."""
    card_set = card_sets[fmt]
    real = card_set["league"]["runs_total"] / card_set["league"]["legal_balls"]
    expected = card_set["expected_league"]["runs_per_ball"]  # per legal ball, extras in, as real
    assert abs(expected / real - 1) <= 0.04, (expected, real)


# --- render ---------------------------------------------------------------------------------

def test_the_kit_has_every_sheet_and_prints_every_card(kit: Path, card_sets, pdf_words):
    for name in ("cards-a4.pdf", "cards-letter.pdf", "team-sheets-a4.pdf", "scoresheet-a4.pdf",
                 "fielding-chart-a4.pdf", "quick-reference-a4.pdf", "season-tracker-a4.pdf",
                 "START-HERE.txt"):
        assert (kit / name).is_file(), name
    words = pdf_words(kit / "cards-a4.pdf").upper()  # names print in capitals
    for card in card_sets["T20"]["cards"]:
        assert card["player"]["name"].upper() in words, card["player"]["name"]
    files, problems = check_folder(kit)
    assert len(files) >= 14 and problems == []


# --- engines --------------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", list(SEASONS))
def test_reference_matches_on_the_fixture_cards_keep_the_laws(card_sets, tables, fmt: str):
    cs = compile_card_set(as_model(card_sets[fmt]))
    stats = tables[fmt]
    captain = Captain(cs, stats.lineups, stats.bowling, np.random.default_rng(1))
    home, away = (captain.usual_side(t["name"]) for t in card_sets[fmt]["teams"][:2])
    rng = np.random.default_rng(2)
    limit = SEASONS[fmt][3]
    for _ in range(40):
        match = play_match(cs, home, away, rng, rule=RULE)
        for inn in (match.first, match.second):
            assert inn.legal_balls <= limit and inn.wickets <= 10
            bat = sum(line.runs for line in inn.batters.values())
            assert inn.runs == bat + inn.wides + inn.no_balls + inn.byes + inn.leg_byes
            assert sum(line.wickets for line in inn.bowlers.values()) <= inn.wickets
            assert max(line.legal_balls for line in inn.bowlers.values()) <= limit // 5
        assert match.second.runs <= match.first.runs + 6 or match.winner == away.team


@pytest.mark.parametrize("fmt", list(SEASONS))
def test_season_replays_play_every_fixture_the_same_on_the_same_seed(card_sets, tables, fmt: str):
    cs = compile_card_set(as_model(card_sets[fmt]))
    stats = tables[fmt]
    one = replay_season(cs, stats, 30, np.random.default_rng(5), rule=RULE)
    two = replay_season(cs, stats, 30, np.random.default_rng(5), rule=RULE)
    assert len(one.team_rows) == len(two.team_rows) >= 30 * len(stats.matches) * 2
    assert one.team_rows.equals(two.team_rows)
    assert (one.team_rows["legal_balls"] <= SEASONS[fmt][3]).all()


# --- the command line -----------------------------------------------------------------------

def test_stats_validate_and_simulate_run_on_the_fixture(kit: Path, env, tmp_path: Path):
    runner = CliRunner()
    stats = runner.invoke(main, ["stats", "-c", "HUNDRED", "-s", "2030", "--table", "league"], env=env)
    assert stats.exit_code == 0, stats.output
    assert "100-ball" in stats.output
    card_set = str(kit / "card-set.json")
    validate = runner.invoke(main, ["validate", "-c", "BBL", "-s", "2030-31", "--card-set", card_set,
                                    "--balls", "2000", "--out", str(tmp_path)], env=env)
    assert validate.exit_code == 0, validate.output
    assert "qualified cards within their 95% interval" in validate.output
    simulate = runner.invoke(main, ["simulate", "-c", "BBL", "-s", "2030-31", "--card-set", card_set,
                                    "--seasons", "20", "--out", str(tmp_path)], env=env)
    assert simulate.exit_code == 0, simulate.output
    assert "Ashvale Owls" in simulate.output and "first-innings total" in simulate.output
