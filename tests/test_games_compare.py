"""`cardgen compare-games`: every system's innings beside the real BBL 2024-25 first innings."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from cardgen import games
from cardgen.cli import main
from cardgen.competitions import get_competition
from cardgen.games.compare import compare_games, distances, real_first_innings

BBL = get_competition("BBL")
OURS = ("quicket", "quick-cricket", "competitive-patience")


@pytest.fixture(scope="module")
def comparison(mirror: Path):
    notes: list[str] = []
    result = compare_games(BBL, "2024-25", str(mirror), innings=400, seed=7, note=notes.append,
                           codes=OURS)
    return result, notes


@pytest.mark.needs_data
def test_real_first_innings_from_the_ball_by_ball_data(mirror: Path) -> None:
    real = real_first_innings(BBL, "2024-25", str(mirror))
    assert real.boundaries_from == "ball-by-ball data"
    t = real.table
    assert len(t) == 40 and t["runs"].mean() == pytest.approx(169.0, abs=0.01)   # = league table
    assert (t["fours"] * 4 + t["sixes"] * 6 <= t["runs"]).all()
    # from the default source (the bundled tables, no ball-by-ball data) the season's batting
    # totals are shared by runs: the same season, so the first-innings boundary totals agree
    # within 10% (first innings score a little faster)
    from cardgen.sources.fetch import DEFAULT_SOURCE
    shared_innings = real_first_innings(BBL, "2024-25", DEFAULT_SOURCE)
    assert shared_innings.boundaries_from == "season totals (shared by runs)"
    shared = shared_innings.table
    assert shared["fours"].sum() == pytest.approx(t["fours"].sum(), rel=0.10)
    assert shared["sixes"].sum() == pytest.approx(t["sixes"].sum(), rel=0.10)


@pytest.mark.needs_data
def test_quicket_plays_most_like_the_real_season(comparison) -> None:
    result, notes = comparison
    s = result.summary
    assert s.iloc[0]["code"] == "real" and s.iloc[0]["distance"] == 0
    assert set(s["code"]) == {"real", "quicket", "quick-cricket", "competitive-patience:british",
                              "competitive-patience:derek-hill", "competitive-patience:south-african",
                              "competitive-patience:new-zealand"}
    assert result.closest == "quicket"
    assert list(s["distance"].iloc[1:]) == sorted(s["distance"].iloc[1:])
    quicket = s[s["code"] == "quicket"].iloc[0]
    # the calibrated set: within 10% of the real mean first-innings total (400 innings: the
    # standard error of the mean is ~1.6 runs, so 10% = ~17 runs leaves room for model error)
    assert quicket["runs_mean"] == pytest.approx(169.0, rel=0.10)
    assert not notes


def test_distance_is_zero_for_identical_and_grows_with_a_shift() -> None:
    rng = np.random.default_rng(0)
    real = pd.DataFrame({"runs": rng.normal(160, 30, 500), "wickets": rng.integers(2, 11, 500),
                         "fours": rng.integers(5, 20, 500), "sixes": rng.integers(0, 12, 500),
                         "legal_balls": rng.integers(90, 121, 500)}).astype(float)
    assert distances(real, real)["distance"] == 0
    shifted = real.assign(runs=real["runs"] + 30)          # one real SD on one of four measures
    assert distances(shifted, real)["distance"] == pytest.approx(0.25, abs=0.02)


def test_one_real_innings_still_gives_a_finite_distance() -> None:
    """Review finding: a one-match source has no real spread (NaN SD), every distance was NaN and
    the "closest" system was the first name in sort order. Raw units then, still comparable."""
    real = pd.DataFrame({"runs": [150.0], "wickets": [6.0], "fours": [12.0], "sixes": [5.0],
                         "legal_balls": [120.0]})
    near = real.assign(runs=[152.0])
    far = real.assign(runs=[190.0])
    assert np.isfinite(distances(near, real)["distance"])
    assert distances(near, real)["distance"] < distances(far, real)["distance"]


def test_missing_system_is_skipped_with_a_note(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(games.GAME_MODULES, "not-yet", "cardgen.games.not_yet_written")
    notes: list[str] = []
    result = compare_games(BBL, "2024-25", None, innings=50, seed=1, note=notes.append,
                           codes=("quick-cricket",))
    assert [e.code for e in result.entries] == ["quick-cricket"]
    assert any(n.startswith("not-yet: not compared") for n in notes)


@pytest.mark.slow
@pytest.mark.needs_data
def test_cli_writes_table_and_plots_deterministically(tmp_path: Path, mirror: Path) -> None:
    args = ["compare-games", "-c", "BBL", "-s", "2024-25", "--source", str(mirror), "--innings", "100",
            "--seed", "3", "--out", str(tmp_path)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "closest to real BBL 2024-25 cricket: quicket" in result.output
    folder = tmp_path / "BBL_2024-25" / "compare-games"
    table = pd.read_csv(folder / "compare-games.csv")
    assert {"quicket", "quick-cricket", "competitive-patience:british"} <= set(table["code"])
    first = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert set(first) == {"compare-games.csv", "compare-games.pdf", "compare-games-runs.pdf"}
    assert CliRunner().invoke(main, args).exit_code == 0
    assert first == {p.name: p.read_bytes() for p in folder.iterdir()}
