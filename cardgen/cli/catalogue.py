"""`cardgen catalogue`: every season of a source built into its kit, in parallel, then one site."""
from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import click

from cardgen.cli import (FolderPath, _check_source, _request_refresh, _strict_callback, _use_names,
                         friendly_errors, out_option, rules_option)
from cardgen.errors import EXIT_FAILED

if TYPE_CHECKING:  # the command imports the catalogue package when it runs (start-up time)
    from cardgen.catalogue.plan import Planned
    from cardgen.catalogue.season import SeasonResult

STATES = ("built", "kept", "failed")


def _season_line(result: SeasonResult) -> str:
    if result.state == "failed":
        return f"failed {result.label}: {result.reason}"
    if result.state == "kept":
        return f"kept   {result.label}: inputs unchanged, kit kept ({result.folder})"
    problems = f", {result.problems} preflight problem(s): see `cardgen preflight`" if result.problems else ""
    return (f"built  {result.label}: {result.cards} cards, {result.files} files in "
            f"{result.seconds:.1f} s{problems}")


def summary_lines(results: list[SeasonResult], wall: float) -> list[str]:
    """The table that ends the run: each season, what became of it and its time, then the counts."""
    width = max([len(r.label) for r in results] + [6])
    lines = [f"{'season':<{width}}  {'result':<6}  {'time':>8}"]
    order = {state: i for i, state in enumerate(STATES)}
    for r in sorted(results, key=lambda r: (order[r.state], r.code, r.season)):
        lines.append(f"{r.label:<{width}}  {r.state:<6}  {r.seconds:>6.1f} s")
    counts = {state: sum(r.state == state for r in results) for state in STATES}
    lines.append(f"{len(results)} season{'s' if len(results) != 1 else ''}: "
                 + ", ".join(f"{counts[s]} {s}" for s in STATES) + f" in {wall:.1f} s")
    return lines


@click.command("catalogue")
@click.option("--source", envvar="CARDGEN_SOURCE", default=None, metavar="DIR|URL", callback=_check_source,
              help="Cricsheet mirror: a folder of match files or a base URL (default: cricsheet.org; "
                   "env CARDGEN_SOURCE).")
@click.option("--competition", "-c", "competitions", multiple=True, metavar="CODE",
              help="Only this competition (code or alias; repeat for more). Default: every one found.")
@click.option("--since", type=click.IntRange(1800, 2200), default=None, metavar="YEAR",
              help="Only the seasons that start in YEAR or later.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=None,
              help="Seasons built at once, each in a process of its own (default: the cores).")
@out_option
@click.option("--site-dir", type=FolderPath(), default=None, help="Where the site is written (default: OUT/site).")
@click.option("--no-site", is_flag=True, help="Build the kits only; no site.")
@click.option("--paper", type=click.Choice(["a4", "letter", "both"]), default="both", show_default=True,
              help="Paper size of every kit's PDFs (as `cardgen build --paper`).")
@click.option("--no-images", is_flag=True, help="Skip the card PNGs and Tabletop Simulator sheets.")
@click.option("--names", type=click.Path(dir_okay=False, path_type=Path), default=None, envvar="CARDGEN_NAMES",
              expose_value=False, callback=_use_names, metavar="FILE",
              help="Name corrections (as `cardgen build --names`; env CARDGEN_NAMES).")
@click.option("--strict", is_flag=True, expose_value=False, callback=_strict_callback,
              help="A season with an unreadable or damaged match file fails (default: the file is "
                   "skipped with a warning).")
@click.option("--refresh", is_flag=True, expose_value=False, callback=_request_refresh,
              help="Rebuild every season's tables from the source (downloading again), ignoring "
                   "cached tables; kits whose inputs come out the same are still kept.")
@rules_option
@friendly_errors
def catalogue(source: str | None, competitions: tuple[str, ...], since: int | None, jobs: int | None,
              out_dir: Path, site_dir: Path | None, no_site: bool, paper: str, no_images: bool,
              rules: str | None) -> None:
    """Build every T20 and 100-ball season of the source (as `cardgen competitions --source`
    lists them) into OUT/<CODE>_<season>/, several at once, then the site of them all.

    A season whose inputs (its match files, the code, the options) are unchanged since its kit was
    built is kept as it is; an interrupted run is continued by the next one; a season that cannot
    be built is named with its reason, the others are built, and the run exits 1."""
    from tqdm import tqdm

    from cardgen.catalogue.engine import default_jobs, run_catalogue
    from cardgen.catalogue.plan import find_seasons
    from cardgen.catalogue.season import KitSettings
    from cardgen.rule_sets import DEFAULT_RULES
    from cardgen.sources.fetch import resolve_source
    started = time.perf_counter()
    src = resolve_source(source)
    plan = find_seasons(src, competitions, since)
    for note in plan.notes:
        click.echo(f"note: {note}", err=True)
    jobs = jobs or default_jobs()
    click.echo(f"catalogue: {len(plan.seasons)} season{'s' if len(plan.seasons) != 1 else ''} "
               f"from {src}, {min(jobs, len(plan.seasons))} at a time -> {out_dir}")
    settings = KitSettings(rules=rules or DEFAULT_RULES, papers=("a4", "letter") if paper == "both" else (paper,),
                           images=not no_images)
    total = len(plan.seasons)
    # on a terminal, one bar for the whole run (the seasons building named beside it, its clock
    # kept going by the engine's ticks); elsewhere (a log, a pipe) the season lines alone
    bar = tqdm(total=total, desc="catalogue", unit="season", file=sys.stderr, dynamic_ncols=True,
               disable=not sys.stderr.isatty(), bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} "
                                                         "[{elapsed}<{remaining}]{postfix}")
    building: dict[str, None] = {}
    finished: list[SeasonResult] = []  # counted here: a disabled bar counts nothing

    def show_building() -> None:
        names = ", ".join(building)
        bar.set_postfix_str(f"building {names}" if names else "", refresh=False)
        bar.refresh()

    def start(planned: Planned) -> None:
        building[planned.label] = None

    def done(result: SeasonResult) -> None:
        building.pop(result.label, None)
        finished.append(result)
        bar.write(f"[{len(finished)}/{total}] {_season_line(result)}", file=sys.stdout)
        for warning in result.warnings:
            bar.write(f"  warning: {warning}", file=sys.stderr)
        bar.update(1)
        show_building()

    try:
        results = run_catalogue(plan.seasons, src, out_dir, settings, jobs, on_start=start, on_done=done,
                                on_tick=show_building)
    except BaseException:  # noqa: B036 - Ctrl+C: what was finished is kept, and the next run knows it
        bar.close()
        click.echo("stopped: the kits finished so far are whole and kept; run the same command "
                   "again to build the rest", err=True)
        raise
    bar.close()
    if not no_site:
        kits = [Path(r.folder) for r in results if r.state != "failed"]
        if kits:
            from cardgen.catalogue.site import catalogue_site
            from cardgen.cli.site import _report
            _report(catalogue_site(kits, out_dir, site_dir))
    click.echo("")
    for line in summary_lines(results, time.perf_counter() - started):
        click.echo(line)
    failed = [r for r in results if r.state == "failed"]
    if failed:
        raise click.exceptions.Exit(EXIT_FAILED)


COMMANDS = [catalogue]
