"""`cardgen compare-games`: every tabletop system's simulated innings beside the real season's."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from cardgen.cli import check_season_format, competition_options, friendly_errors, out_option, resolve

# every system's innings are kept for the report; beyond this a run takes hours
MAX_INNINGS = 100_000


@click.command("compare-games")
@competition_options
@click.option("--innings", "innings", type=click.IntRange(min=20, max=MAX_INNINGS), default=2000,
              show_default=True,
              help=f"Innings each system plays (20 to {MAX_INNINGS:,}; time grows with the innings).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Random seed: the same seed gives identical reports.")
@out_option
@friendly_errors
def compare_games_cmd(competition: str, season: str, source: str | None, innings: int, seed: int,
                      out_dir: Path) -> None:
    """Play every game system's innings and rank them by closeness to the real season.

    Writes OUT/<CODE>_<season>/compare-games/: compare-games.csv (per-innings means of runs,
    wickets, fours, sixes and innings length, with each system's distance), compare-games.pdf
    (the table and a distance chart) and compare-games-runs.pdf (runs histograms)."""
    from cardgen.games.compare import DISTANCE_NOTE, compare_games, write_report
    comp, season = resolve(competition, season)
    check_season_format(comp, season, source)
    from tqdm import tqdm
    # a bar only on a terminal, as build's and the download's: a log or a pipe gets no \r lines
    with tqdm(desc=f"compare-games {comp.code} {season}", unit="system", leave=False,
              file=sys.stderr, disable=not sys.stderr.isatty()) as bar:
        def playing(code: str) -> None:
            bar.set_postfix_str(code)
            bar.update(1)
        result = compare_games(comp, season, source, innings, seed,
                               note=lambda text: click.echo(f"note: {text}", err=True),
                               progress=playing)
    folder = write_report(result, comp, season, out_dir, seed, innings)
    cols = ["code", "runs_mean", "wickets_mean", "fours_mean", "sixes_mean", "legal_balls_mean",
            "distance"]
    click.echo(result.summary[cols].to_string(index=False))
    click.echo(DISTANCE_NOTE)
    click.echo(f"closest to real {comp.code} {season} cricket: {result.closest}")
    click.echo(f"report: {folder}")


COMMANDS = [compare_games_cmd]
