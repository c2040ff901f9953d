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
@click.option("--classic", is_flag=True, default=False,
              help="Make the cards for the rules as printed, without the wickets-in-hand rule "
                   "(docs/rules.md R12) they are made for by default.")
@friendly_errors
def calibrate_cmd(competition: str, season: str, source: str | None, out_dir: Path,
                  report: bool, classic: bool) -> None:
    """Calibrate a season's cards and write OUT/<CODE>_<season>/card-set.json.

    The cards are made for the wickets-in-hand rule, the kit's recommended way to play: each
    card reproduces its player's real season over the situations he really batted or bowled in.
    """
    from cardgen.calibrate.cardset import build_card_set, write_card_set
    comp, season = resolve(competition, season)
    card_set = build_card_set(comp, season, source, classic=classic)
    path = write_card_set(card_set, out_dir)
    if report:
        from cardgen.calibrate.report import format_report
        click.echo(format_report(card_set))
    n_s = sum(c["kind"] == "striker" for c in card_set["cards"])
    n_b = sum(c["kind"] == "bowler" for c in card_set["cards"])
    click.echo(f"wrote {path} ({n_s} striker cards, {n_b} bowler cards)")


COMMANDS = [calibrate_cmd]
