"""`cardgen competitions`, `cardgen stats` and `cardgen cache`: what the sources hold, a
season's tables and the cache they are kept in (the sources and stats layers' commands)."""
from __future__ import annotations

import json
from pathlib import Path

import click

from cardgen.cache import Cache
from cardgen.cli import competition_options, friendly_errors, resolve
from cardgen.competitions import INNINGS_OVERS
from cardgen.errors import CardgenError


@click.command()
@click.option("--source", envvar="CARDGEN_SOURCE", default=None, metavar="DIR|URL",
              help="Local mirror to look in: lists every event in it, with the command to build "
                   "each season (env CARDGEN_SOURCE).")
@friendly_errors
def competitions(source: str | None) -> None:
    """List the competitions (built in, plus your own from ./cardgen-competitions.toml or
    $CARDGEN_COMPETITIONS) and the seasons available offline; with --source DIR, every event
    found in that mirror and the command that builds it."""
    from cardgen.competitions import all_competitions
    from cardgen.sources.fetch import is_url
    from cardgen.sources.mirror import mirror_events, toml_entry
    from cardgen.stats.load import offline_sets
    cached_names = offline_sets(Cache())
    root = Path(source).expanduser() if source and not is_url(source) else None
    if root is not None and not root.is_dir():
        raise CardgenError(f"source folder {root} does not exist; pass --source with a Cricsheet mirror")
    events = mirror_events(root) if root is not None else []
    found = {ev.competition.code: ev for ev in events if ev.competition is not None}
    comps = all_competitions()
    click.echo(f"{'code':<10} {'format':<9} {'sex':<6} {'name':<32} offline seasons")
    for comp in comps:
        seasons = set(found[comp.code].seasons) if comp.code in found else set()
        seasons |= {n.split("_", 1)[1] for n in cached_names if n.split("_", 1)[0] == comp.code}
        listed = ", ".join(sorted(seasons)) or "-"
        click.echo(f"{comp.code:<10} {comp.format:<9} {comp.sex:<6} {comp.name:<32} {listed}")
    click.echo("\n- : nothing offline yet. Any season Cricsheet holds is downloaded on first use and "
               "cached, e.g. cardgen build -c WBBL -s 2024-25")
    if root is None:
        return
    click.echo(f"\nEvents in {root}:")
    if not events:
        click.echo("  (no T20 or 100-ball match files found)")
    for ev in events:
        for season, n in ev.seasons.items():
            labels = sorted(ev.labels.get(season, ()))
            note = f", Cricsheet labels {' + '.join(labels)}" if labels != [season.replace("-", "/")] else ""
            head = f"  {ev.event} ({ev.sex}) {season}: {n} match{'es' if n != 1 else ''}{note}"
            if ev.overs != INNINGS_OVERS:  # what `build` refuses (check_season_format): no command to offer
                click.echo(f"{head}; {ev.overs}-over matches: cardgen makes kits for 20-over T20 "
                           f"and 100-ball seasons only")
            elif ev.competition is not None:
                click.echo(f"{head}\n      cardgen build -c {ev.code} -s {season} --source {root}")
            else:
                click.echo(f"{head}; not in the table: add to cardgen-competitions.toml\n"
                           + "".join(f"        {line}\n" for line in toml_entry(ev, ev.code).splitlines())
                           + f"      then: cardgen build -c {ev.code} -s {season} --source {root}")


@click.command()
@competition_options
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table",
              show_default=True, help="How to print the tables.")
@click.option("--table", "which",
              type=click.Choice(["batting", "bowling", "fielding", "league", "attributes", "lineups",
                                 "innings", "matches", "all"]),
              default="all", show_default=True,
              help="Which table to print (all = batting, bowling, fielding and league).")
@friendly_errors
def stats(competition: str, season: str, source: str | None, fmt: str, which: str) -> None:
    """Print a season's batting, bowling, fielding and league tables."""
    import pandas as pd
    from cardgen.sources.names import active_overrides, corrected_names, warn_unmatched
    from cardgen.stats.load import season_stats
    comp, season = resolve(competition, season)
    st = season_stats(comp, season, source)
    names = ["batting", "bowling", "fielding", "league"] if which == "all" else [which]
    if active_overrides():  # --names: the corrected names, as the cards print them
        warn_unmatched(set(st.lineups["player_id"].astype(str)), f"{comp.code} {season}")

    def table(name: str) -> pd.DataFrame:
        return corrected_names(getattr(st, name))

    if fmt == "json":
        doc = {n: (st.league if n == "league" else json.loads(table(n).to_json(orient="records")))
               for n in names}
        click.echo(json.dumps(doc, indent=1))
        return
    for n in names:
        if n == "league":
            # one figure a row: the league table is a few dozen named figures, not records
            flat = {}
            for key, value in st.league.items():
                if isinstance(value, dict):
                    flat.update({f"{key}.{k}": v for k, v in value.items()})
                else:
                    flat[key] = value
            df = pd.DataFrame({"figure": list(flat), "value": [str(v) for v in flat.values()]})
        else:
            df = table(n)
        if fmt == "csv":
            click.echo(f"# {n}")
            click.echo(df.to_csv(index=False, lineterminator="\n"), nl=False)
        else:
            click.echo(f"== {comp.code} {season} {n} ==")
            with pd.option_context("display.max_rows", None, "display.max_columns", None,
                                   "display.width", 250):
                click.echo(df.to_string(index=False))
            click.echo()


@click.command()
@click.option("--clear", is_flag=True,
              help="Remove the downloads, tables and kept card sets cardgen wrote in the cache "
                   "(nothing else).")
@click.option("--raw-only", is_flag=True, help="With --clear: remove only raw downloads.")
@friendly_errors
def cache(clear: bool, raw_only: bool) -> None:
    """Show or clear the cache of downloads, derived tables and kept card sets (CARDGEN_CACHE moves it).

    The cache is a folder marked as cardgen's (.cardgen-cache); --clear refuses any other folder
    and removes only what cardgen wrote there. The bundled seasons' tables ship with cardgen and
    are never removed.
    """
    from cardgen.cache import bundled_tables
    if raw_only and not clear:  # it did nothing at all, and said nothing
        raise click.UsageError("--raw-only goes with --clear: `cardgen cache --clear --raw-only` "
                               "removes only the raw downloads")
    c = Cache()
    if clear:
        removed = c.clear(raw_only=raw_only)
        click.echo(f"removed {len(removed)} cache entr{'y' if len(removed) == 1 else 'ies'} from {c.root}")
        return
    lines = []
    for folder, what in (("raw", "raw downloads"), ("card-sets", "kept card sets")):
        if (c.root / folder).is_dir():
            files = [p for p in (c.root / folder).iterdir() if p.is_file()]
            size = sum(p.stat().st_size for p in files)
            if files:
                lines.append(f"  {what}: {len(files)} ({size / 1e6:.1f} MB)")
    for name, manifest in c.entries():
        if manifest is None:
            lines.append(f"  {name:<36} damaged (rebuilt when next read)")
            continue
        state = "complete" if c.is_complete(name) else "incomplete"
        label = f"{manifest.get('competition', '?')}_{manifest.get('season', '?')}"
        lines.append(f"  {label:<16} {state:<10} from {manifest.get('source', '?')}")
    # "(empty)" also after `cache --clear`, which leaves the folder and its marker
    click.echo(f"cache: {c.root}" + ("" if lines else " (empty)"))
    for line in lines:
        click.echo(line)
    bundled = bundled_tables()
    click.echo(f"bundled (read-only): {bundled.root}")
    click.echo("  " + (", ".join(bundled.complete_sets()) or "none"))


COMMANDS = [competitions, stats, cache]
