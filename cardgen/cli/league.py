"""`cardgen league`: a league of your own from a league file, or drafted by the computer."""
from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from cardgen.cli import _check_source, friendly_errors, out_option
from cardgen.errors import CardgenError

if TYPE_CHECKING:
    from cardgen.cardset import CardSet

LEAGUE_FILE_IN_KIT = "league.toml"


@click.command("league")
@click.argument("file", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--draft", "pool", default=None, metavar="SEASONS",
              help='Let the computer draft the sides from these seasons by a snake draft on points, '
                   'e.g. "BBL 2023-24..2024-25", or several joined by commas, "BBL 2023-24..2024-25, '
                   'IPL 2025" (instead of a league file).')
@click.option("--teams", type=click.IntRange(2, 20), default=8, show_default=True,
              help="With --draft: how many sides.")
@click.option("--baseline", default=None, metavar="SEASON",
              help='With --draft: the league the cards play in, a season or "mean" (the mean of the '
                   "pool's seasons; default: the pool's last season).")
@click.option("--name", "league_name", default=None, help="With --draft: the league's name.")
@click.option("--cap", type=float, default=None, help="With --draft: the most points a side may have.")
@click.option("--rules", type=click.Choice(["quicket", "advanced"]), default=None,
              help="The rules the cards are made for (default: the file's, else quicket, as printed).")
@click.option("--source", envvar="CARDGEN_SOURCE", default=None, metavar="DIR|URL", callback=_check_source,
              help="Cricsheet mirror for the seasons (default: cricsheet.org; env CARDGEN_SOURCE).")
@out_option(help_text="Output folder; the kit is written under OUT/<CODE>_<baseline season>/.")
@click.option("--paper", type=click.Choice(["a4", "letter", "both"]), default="both", show_default=True,
              help="Paper size of the kit's PDFs.")
@click.option("--no-images", is_flag=True, help="Skip the card PNGs and Tabletop Simulator sheets.")
@friendly_errors
def league(file: Path | None, pool: str | None, teams: int, baseline: str | None,
           league_name: str | None, cap: float | None, rules: str | None, source: str | None,
           out_dir: Path, paper: str, no_images: bool) -> None:
    """Build a league of your own from FILE (TOML: its sides, each player named by season, and
    the baseline league the cards play in; README "Your own league"), or draft one with --draft:
    the same kit as a season's (cards with each player's points, fielding chart, scoresheets,
    team sheets, quick reference, PNG and TTS images, card-set.json) plus a draft sheet, the
    league's fixtures and league.toml, in OUT/<CODE>_<baseline season>/. Every card is solved on
    the baseline: the player is as much better or worse than that league as he was than his own.
    A bad file is one line naming its line (exit 2), and nothing is written."""
    from cardgen.league.make import make_league, read_league_file
    from cardgen.league.build import over_cap
    from cardgen.cardset import CardSet
    from cardgen.render.kit import KitOptions, build_kit
    started = time.perf_counter()
    if (file is None) == (pool is None):
        raise click.UsageError("give a league file, or --draft SEASONS (not both)")
    if file is not None and any(x is not None for x in (baseline, league_name, cap)):
        raise click.UsageError("--baseline, --name and --cap go with --draft; a league file says them itself")
    if pool is not None:
        from cardgen.league.draft import draft_spec
        spec, text = draft_spec(pool, teams, baseline, league_name, cap, rules)
    else:
        spec = read_league_file(file)  # type: ignore[arg-type]
        text = Path(file).read_text(encoding="utf-8-sig")  # type: ignore[arg-type]
    made = make_league(spec, text, source, rules)
    card_set = made.card_set
    over = over_cap(card_set)
    if over:
        cap_value = card_set["own_league"]["cap"]
        where = f"{spec.path}, line {spec.lines['cap']}" if "cap" in spec.lines else spec.path
        raise CardgenError(f"{where}: {len(over)} side{'s are' if len(over) > 1 else ' is'} over the cap of "
                           f"{cap_value:g} points: " + ", ".join(f"{n} ({p:+.1f})" for n, p in over)
                           + "; change their players or raise the cap")
    papers = ("a4", "letter") if paper == "both" else (paper,)
    from cardgen.play.page import kit_files as match_page_files
    model = CardSet.from_json(card_set)  # the league's set read once, here, for the kit and the lines below
    extra = ((LEAGUE_FILE_IN_KIT, made.text.encode("utf-8")),) + tuple(match_page_files(model).items())
    result = build_kit(model, out_dir, KitOptions(papers=papers, images=not no_images, preflight=True,
                                                  extra_files=extra))
    own = model.own_league
    assert own is not None  # the league builder's set
    click.echo(f"{own.name}: {len(model.teams)} sides on {own.baseline}, "
               f"{len(model.cards)} cards, {len(own.fixtures)} fixtures")
    for t in model.teams:
        click.echo(f"  {t.name}: {t.points:+.1f} points")
    click.echo(f"wrote {result.cards} cards, {len(result.files)} files to {result.folder} "
               f"in {time.perf_counter() - started:.1f} s")
    if pool is not None:
        click.echo(f"the league file of this draft: {result.folder / LEAGUE_FILE_IN_KIT} "
                   f"(edit it and build it again with `cardgen league FILE`)")
    from cardgen.cli.build import _report_preflight
    _report_preflight(result.folder, (result.pdfs, result.problems) if result.problems is not None else None)
    from cardgen.render.start_here import START_HERE
    click.echo(f"what to print, and how: {result.folder / START_HERE}")


def league_set_or_none(cards: Path | None) -> CardSet | None:
    """The card set at `cards` when it is a league's (`own_league`, with its fixtures), else
    None (a season's set, or no --cards: `simulate` goes on as for a season)."""
    if cards is None:
        return None
    from cardgen.cardset import load_card_set
    card_set = load_card_set(cards)
    own = card_set.own_league
    return card_set if own is not None and "fixtures" in own.present else None


def simulate_league(card_set: CardSet, cards: Path, seasons: int, seed: int, out_dir: Path,
                    rules: str | None = None) -> None:
    """`cardgen simulate --cards LEAGUE/card-set.json`: replay the league's round robin `seasons`
    times and print the ladder beside each side's points; the report goes beside the set
    (LEAGUE/validation/: simulate_ladder.csv, simulate_summary.json, simulate.pdf). The cards
    play the rules they were made for (`--rules` naming the other set is refused)."""
    import numpy as np

    from cardgen.rule_sets import rules_of_set
    from cardgen.sim import report
    from cardgen.sim.league import ladder, replay_league
    from cardgen.sim.model import compile_card_set
    from cardgen.wickets_in_hand import rule_of_set
    own = card_set.own_league
    assert own is not None  # league_set_or_none: a league's set
    made_for = rules_of_set(card_set)
    if rules is not None and rules != made_for:
        raise click.UsageError(f"{cards} is a league made for the {made_for} rules; its cards play "
                               f"those (build it with `cardgen league FILE --rules {rules}` for the "
                               f"{rules} rules)")
    rules = made_for
    started = time.perf_counter()
    cs = compile_card_set(card_set)
    rep = replay_league(cs, card_set, seasons, np.random.default_rng(seed), rule=rule_of_set(card_set))
    elapsed = time.perf_counter() - started
    table = ladder(rep, card_set)
    runs = {n: (float(rep.home_runs[rep.home == i].mean()) + float(rep.away_runs[rep.away == i].mean())) / 2
            for i, n in enumerate(rep.teams)}
    table["mean_runs"] = [round(runs[t], 1) for t in table["team"]]
    with report.written_together():
        folder = Path(cards).resolve().parent / "validation"
        report.write_csv(folder / "simulate_ladder.csv", table)
        report.write_json(folder / "simulate_summary.json",
                          {"league": own.name, "baseline": own.baseline, "rules": rules,
                           "seed": seed, "seasons": seasons, "matches_simulated": int(len(rep.winners)),
                           "ladder": table.to_dict("records")})
        report.write_pdf(folder / "simulate.pdf", f"League replay: {own.name}",
                         [f"{seasons} replays of the {len(own.fixtures)}-match round robin "
                          f"({len(rep.winners)} matches), seed {seed}, the {rules} rules; every card "
                          f"on {own.baseline}.",
                          "Points: what a side adds a match over an average side of the baseline, "
                          "its XI together (cardgen league)."],
                         [("Ladder (wins per season)", table)], [])
    click.echo(f"{own.name}: {len(rep.winners)} matches in {elapsed:.1f}s "
               f"({seasons} replays of the {len(own.fixtures)}-match round robin, the {rules} rules)")
    click.echo("ladder: simulated wins per season, win share, share of seasons on top; the side's points")
    width = max([len(str(t)) for t in table["team"]] + [24])
    for r in table.itertuples():
        points = f"{r.points:+.1f}" if r.points is not None else "-"
        click.echo(f"  {r.rank:>2}. {r.team:<{width}} {r.won:5.2f} of {r.played}  "
                   f"{100 * r.win_share:4.1f}%  top {100 * r.top_share:4.1f}%  points {points}")
    click.echo(f"report: {folder}")


from cardgen.cli.site import with_site_option  # noqa: E402

COMMANDS = [with_site_option(league)]
