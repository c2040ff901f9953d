"""`cardgen calibrate`: build a season's card set (and optionally report expected vs real)."""
from __future__ import annotations

from pathlib import Path

import click

from cardgen.cli import competition_options, friendly_errors, out_option, resolve


@click.command("calibrate")
@competition_options
@out_option
@click.option("--report", is_flag=True,
              help="Also print each card's real vs expected figures and the cards outside tolerance.")
@friendly_errors
def calibrate_cmd(competition: str, season: str, source: str | None, out_dir: Path,
                  report: bool) -> None:
    """Calibrate a season's cards and write OUT/<CODE>_<season>/card-set.json."""
    from cardgen.calibrate.cardset import build_card_set, write_card_set
    comp, season = resolve(competition, season)
    card_set = build_card_set(comp, season, source)
    path = write_card_set(card_set, out_dir)
    if report:
        from cardgen.calibrate.report import format_report
        click.echo(format_report(card_set))
    n_s = sum(c["kind"] == "striker" for c in card_set["cards"])
    n_b = sum(c["kind"] == "bowler" for c in card_set["cards"])
    click.echo(f"wrote {path} ({n_s} striker cards, {n_b} bowler cards)")


COMMANDS = [calibrate_cmd]
