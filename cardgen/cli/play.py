"""`cardgen replay`: a match played on a kit's play.html, replayed by the reference engine."""
from __future__ import annotations

from pathlib import Path

import click

from cardgen.cli import friendly_errors, out_option
from cardgen.errors import CardSetError

REPLAY_OUT_HELP = "Folder of built kits, where the match's card set is looked for (as `cardgen build --out`)."


def _find_card_set(out_dir: Path, competition: str, season: str, rules: str) -> Path:
    """The card-set.json of the kit the match was played with, the one made for the match's
    rules: OUT/<CODE>_<season>/ (Quicket rules) or OUT/<CODE>_<season>-advanced/; a kit built
    before the rule sets had folders of their own may hold either set in the first."""
    import json
    from cardgen.rule_sets import QUICKET, kit_folder_name, rules_of_set
    for name in dict.fromkeys((kit_folder_name(competition, season, rules),
                               kit_folder_name(competition, season, QUICKET))):
        path = out_dir / name / "card-set.json"
        try:
            doc = json.loads(path.read_text(encoding="utf-8-sig"))
            if isinstance(doc, dict) and rules_of_set(doc) == rules:
                return path
        except (OSError, ValueError, CardSetError):
            continue
    raise CardSetError(f"no {competition} {season} kit for the {rules} rules in {out_dir}/: build it, "
                       f"or pass its card-set.json with --cards")


@click.command("replay")
@click.argument("match_file", type=click.Path(path_type=Path))
@click.option("--cards", "--card-set", "cards", type=click.Path(path_type=Path), default=None,
              help="The card-set.json (or kit folder) the match was played with (default: the kit "
                   "in OUT named by the match file).")
@out_option(must_write=False, help_text=REPLAY_OUT_HELP)
@friendly_errors
def replay(match_file: Path, cards: Path | None, out_dir: Path) -> None:
    """Replay a match file saved by a kit's play.html through the rules engine and print its
    scorecard (the page's, ball for ball: the same dice give the same match)."""
    from cardgen.cardset import load_card_set
    from cardgen.play.matchfile import read_match_file
    from cardgen.play.replay import replay as replay_match
    record = read_match_file(match_file)
    path = cards if cards is not None else _find_card_set(out_dir, record.competition, record.season,
                                                           record.rules)
    played = replay_match(load_card_set(path), record, str(match_file))
    click.echo(played.scorecard.text(), nl=False)


COMMANDS = [replay]
