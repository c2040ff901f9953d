"""`baseline = "mean"` (league.mean) on real data: the mean league's figures, its average
opponent moved to them, and cards that keep their players' indices on it."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from cardgen.calibrate.baseline import Baseline
from cardgen.cardset import card_set_from_document, dumps
from cardgen.cli import main
from cardgen.errors import EXIT_USAGE
from cardgen.league.build import league_index_errors, mean_of_seasons, season_card_set
from cardgen.league.make import make_league
from cardgen.league.mean import level_check, mean_league, runs_per_delivery
from cardgen.league.players import Seasons, stats_loader
from cardgen.league.spec import parse_league

pytestmark = pytest.mark.slow   # league card sets solved from the mirror

# three competitions, men's T20, women's T20 and 100-ball, and a second men's T20 league
MIXED = ('name = "Mean mix"\nbaseline = "mean"\n'
         '[[team]]\nfrom = "BBL 2024-25: Sydney Sixers"\n'
         '[[team]]\nfrom = "IPL 2025: Mumbai Indians"\n'
         '[[team]]\nname = "MI women"\nfrom = "WPL 2023: Mumbai Indians"\n'
         '[[team]]\nfrom = "HUNDRED 2024: Trent Rockets"\n')
# the bars (as tests/test_league_build.py): strike rate and economy indices 0.5%,
# dismissal and wicket-rate indices 2%, medians over qualified cards
BARS = {"strike_rate": 0.005, "dismissal_rate": 0.02, "economy": 0.005, "wicket_rate": 0.02}


@pytest.fixture(scope="module")
def mixed(mirror: Path) -> dict:
    spec = parse_league(MIXED, "mean.toml")
    return make_league(spec, MIXED, str(mirror)).card_set


def test_the_mean_league_weighs_each_season_the_same(mirror: Path) -> None:
    seasons = Seasons("t", stats_loader(str(mirror)))
    spec = parse_league(MIXED, "mean.toml")
    tables = [seasons.get(t.whole_side[0]).stats.league for t in spec.teams]  # type: ignore[index]
    host = tables[0]
    mean = mean_league(tables, host)
    # runs, dismissals and sixes per delivery: the seasons' plain mean (whole-number counts on
    # the host's 9,776 deliveries round by at most half a run in each)
    for key in ("runs_total", "dismissals", "wide_balls"):
        want = np.mean([t[key] / t["deliveries"] for t in tables])
        assert mean[key] / mean["deliveries"] == pytest.approx(want, abs=1 / mean["deliveries"]), key
    want6 = np.mean([t["outcomes_faced"]["6"] / t["deliveries"] for t in tables])
    assert mean["outcomes_faced"]["6"] / mean["deliveries"] == pytest.approx(want6, abs=1 / mean["deliveries"])
    assert mean["deliveries"] == host["deliveries"] and mean["format"] == host["format"]
    assert mean["strike_rate"] == pytest.approx(100 * mean["runs_batter"] / mean["balls_faced"], abs=1e-3)
    levels = [runs_per_delivery(t) for t in tables]
    assert min(levels) < runs_per_delivery(mean) < max(levels)


def test_a_mean_league_kit_plays_on_the_mean(mixed: dict) -> None:
    own = mixed["own_league"]
    assert own["baseline"] == "the mean of 4 seasons"
    assert own["baseline_seasons"] == ["BBL 2024-25", "HUNDRED 2024", "IPL 2025", "WPL 2023"]
    # the chart comes from a T20 season of those used; the set is a valid card set
    assert own["chart_from"] in ("BBL 2024-25", "IPL 2025", "WPL 2023")
    assert mixed["league"]["competition"] == "MEAN"
    # valid against the contract and cardgen's league extension of it; the typed model reads it
    typed = card_set_from_document(json.loads(dumps(mixed)), "the mean set")
    assert typed.own_league is not None and typed.own_league.chart_from == own["chart_from"]
    assert all(c.source is not None and c.points is not None for c in typed.cards)
    assert dumps(typed) == dumps(mixed)
    # no season is the baseline: every card is solved on the mean, so each player's index
    # holds against the mean league's figures (the medians)
    errors = league_index_errors(mixed)
    for k, bar in BARS.items():
        assert len(errors[k]) >= 20, (k, len(errors[k]))
        assert float(np.median(np.abs(errors[k]))) <= bar, (k, float(np.median(np.abs(errors[k]))))


@pytest.mark.parametrize("rules", ["quicket", "advanced"])
def test_the_mean_opponent_moves_as_far_as_the_league(rules: str, mirror: Path) -> None:
    """The average pairing on the mean, beside the host's, moves by the mean league's own
    ratio: within 1% for runs and 2% for dismissals (the shift is measured on real-valued
    cards, the host's are whole slots; 1-2% is what the measured leagues show)."""
    spec = parse_league(MIXED, "mean.toml")
    seasons = Seasons("t", stats_loader(str(mirror)))
    used = [seasons.get(t.whole_side[0]) for t in spec.teams]  # type: ignore[index]
    on = mean_of_seasons(spec, used, rules, str(mirror))
    host_set = season_card_set(on.chart_season.comp, on.chart_season.season, str(mirror), rules)
    gap = level_check(on.baseline, Baseline.from_card_set(host_set, on.chart_season.label))
    assert abs(gap["runs"]) <= 0.01 and abs(gap["dismissal_rate"]) <= 0.02, gap


def test_a_mean_without_a_season_of_the_league_s_format_is_one_line(tmp_path: Path, mirror: Path) -> None:
    f = tmp_path / "l.toml"
    f.write_text('name = "Only hundred"\nbaseline = "mean"\nformat = "T20"\n'
                 '[[team]]\nfrom = "HUNDRED 2024: Trent Rockets"\n'
                 '[[team]]\nfrom = "HUNDRED 2024: Oval Invincibles"\n', encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["league", str(f), "--out", str(out), "--source", str(mirror), "--no-images"])
    assert result.exit_code == EXIT_USAGE, result.output
    assert result.output.count("\n") == 1, result.output
    assert result.output.startswith(f"Error: {f}, line 2: baseline = \"mean\" takes its fielding chart "
                                    f"from a T20 season"), result.output
    assert not out.exists() or not any(out.iterdir())


def test_a_draft_on_the_mean_writes_a_file_that_builds_the_same_cards(tmp_path: Path, mirror: Path) -> None:
    """The drafted league file says which seasons the mean is of (mean_of: the pool), so built
    again it plays on the same mean, card for card."""
    out = tmp_path / "out"
    args = ["--source", str(mirror), "--paper", "a4", "--no-images"]
    result = CliRunner().invoke(main, ["league", "--draft", "BBL 2024-25, HUNDRED 2024", "--baseline", "mean",
                                       "--teams", "4", "--out", str(out), *args])
    assert result.exit_code == 0, result.output
    assert "4 sides on the mean of 2 seasons" in result.output
    kit = next(out.iterdir())
    text = (kit / "league.toml").read_text(encoding="utf-8")
    assert 'baseline = "mean"\nmean_of = ["BBL 2024-25", "HUNDRED 2024"]\n' in text
    card_set = json.loads((kit / "card-set.json").read_text(encoding="utf-8"))
    assert card_set["own_league"]["baseline_seasons"] == ["BBL 2024-25", "HUNDRED 2024"]
    again = CliRunner().invoke(main, ["league", str(kit / "league.toml"), "--out", str(tmp_path / "again"), *args])
    assert again.exit_code == 0, again.output
    rebuilt = json.loads((tmp_path / "again" / kit.name / "card-set.json").read_text(encoding="utf-8"))
    assert rebuilt["cards"] == card_set["cards"] and rebuilt["teams"] == card_set["teams"]
    assert rebuilt["league"] == card_set["league"]
