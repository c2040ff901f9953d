"""`cardgen calibrate`: build a season's card set (and optionally report expected vs real)."""
from __future__ import annotations

from pathlib import Path

import click

from cardgen.cli import check_season_format, competition_options, friendly_errors, out_option, resolve, rules_option


@click.command("calibrate")
@competition_options
@out_option
@click.option("--report", is_flag=True,
              help="Also print each card's real vs expected figures and the cards outside tolerance.")
@rules_option
@friendly_errors
def calibrate_cmd(competition: str, season: str, source: str | None, out_dir: Path,
                  report: bool, rules: str | None) -> None:
    """Calibrate a season's cards and write OUT/<CODE>_<season>/card-set.json.

    The cards are made for the Quicket rules as printed: each card reproduces its player's real
    season against the league-average opponent. With --rules advanced they are made for the
    advanced rules (wickets in hand and Defence, over the situations each player really batted
    or bowled in) and written to OUT/<CODE>_<season>-advanced/card-set.json.
    """
    from cardgen.calibrate.cardset import build_card_set, card_set_path, write_card_set
    from cardgen.cardset import FILE_NAME, dumps
    from cardgen.rule_sets import DEFAULT_RULES, kit_folder_name
    comp, season = resolve(competition, season)
    rules = rules or DEFAULT_RULES
    _refuse_a_file_cardgen_did_not_write(Path(out_dir) / kit_folder_name(comp.code, season, rules) / FILE_NAME)
    check_season_format(comp, season, source)
    card_set = build_card_set(comp, season, source, rules=rules)
    from cardgen.sources.names import apply_overrides
    apply_overrides(card_set)  # its names are corrected already; this warns of ids matching no card
    _refuse_to_unsettle_a_kit(card_set_path(card_set, out_dir), dumps(card_set), comp.code, season, rules)
    path = write_card_set(card_set, out_dir)
    if report:
        from cardgen.calibrate.report import format_report
        click.echo(format_report(card_set))
    n_s = sum(c["kind"] == "striker" for c in card_set["cards"])
    n_b = sum(c["kind"] == "bowler" for c in card_set["cards"])
    from cardgen.rule_sets import DESCRIPTIONS
    click.echo(f"wrote {path} ({n_s} striker cards, {n_b} bowler cards, made for {DESCRIPTIONS[rules]})")


def _refuse_a_file_cardgen_did_not_write(path: Path) -> None:
    """Before any work: a card-set.json that is not a card set (any version) is the user's own
    file, which the new set would replace; `build` refuses the same file in a kit folder."""
    import json
    import os

    from cardgen.staging import FolderInUse
    if not os.path.lexists(path):
        return
    doc = None
    if path.is_file() and not path.is_symlink():
        try:
            doc = json.loads(path.read_bytes())
        except (OSError, ValueError, RecursionError):  # RecursionError: nested 100,000 deep
            doc = None
    if not (isinstance(doc, dict) and "schema_version" in doc and "cards" in doc):
        raise FolderInUse(f"{path} is not a card set cardgen wrote, and calibrate would replace it; "
                          f"move it away or give calibrate another --out")


def _refuse_to_unsettle_a_kit(path: Path, new_text: str, code: str, season: str, rules: str) -> None:
    """A built kit's card-set.json is the set its PDFs were printed from (the site, `validate`
    and `simulate` read it): calibrating other cards into it would leave the kit saying one thing
    and printing another, so `build` is the way to change a kit's cards."""
    from cardgen.errors import CardgenError
    from cardgen.manifest import read_manifest
    kit = read_manifest(path.parent)
    if kit is None or kit.kind not in ("season-kit", "team-kit"):
        return
    try:
        same = path.read_text(encoding="utf-8") == new_text
    except (OSError, UnicodeDecodeError):
        same = False
    if not same:
        raise CardgenError(f"{path.parent} holds a kit printed from other cards; run `cardgen build "
                           f"-c {code} -s {season}{' --rules advanced' if rules == 'advanced' else ''}` "
                           f"to recalibrate "
                           f"and reprint it, or give calibrate another --out")


COMMANDS = [calibrate_cmd]
