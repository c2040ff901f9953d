"""From a competition season to its stats tables: cached or bundled tables that match the source, else built."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from typing import TYPE_CHECKING

import pandas as pd

from cardgen import __version__
from cardgen.cache import Cache, TableStore, bundled_tables, refresh_due, refreshed
from cardgen.competitions import Competition, normalise_season, set_name
from cardgen.errors import SourceError
from cardgen.paths import maintainer_tables_dir, run_maintainer_command
from cardgen.sources.cricsheet import SeasonData, combine, parse_match, rename_teams
from cardgen.sources.fetch import (DEFAULT_SOURCE, MatchFile, is_url, match_files, resolve_source, strict)
from cardgen.sources.players import cricinfo_keys, default_players_dir, load_attributes
from cardgen.stats.source import TABLES_VERSION, source_fingerprint, source_id
from cardgen.stats.tables import SeasonStats, build_stats

if TYPE_CHECKING:
    from cardgen.wickets_in_hand import WicketsInHand

TABLES = ("batting", "bowling", "fielding", "lineups", "innings", "matches", "attributes",
          "situations")


def load_season_data(comp: Competition, season: str, source: str | None = None,
                     cache: Cache | None = None, refresh: bool = False,
                     files: list[MatchFile] | None = None) -> SeasonData:
    if files is None:
        files = match_files(comp, season, source, cache=cache, refresh=refresh)
    parsed = list(_parsed(files))
    if files and not parsed:
        from cardgen.errors import ParseError
        raise ParseError(f"none of the {len(files)} match files of {comp.code} {season} could be read")
    return rename_teams(combine(parsed), dict(comp.team_aliases))


def _parsed(files: list[MatchFile]):  # type: ignore[no-untyped-def]
    """Each match parsed; a damaged one is skipped with a warning (or stops the run with --strict)."""
    from cardgen.errors import ParseError
    from cardgen.sources.fetch import skip_or_raise
    for f in files:
        try:
            yield parse_match(f.raw, f.match_id)
        except ParseError as exc:
            skip_or_raise(exc)


def build_season_stats(comp: Competition, season: str, source: str | None = None,
                       cache: Cache | None = None, refresh: bool = False,
                       players_dir: Path | None = None,
                       files: list[MatchFile] | None = None) -> SeasonStats:
    data = load_season_data(comp, season, source, cache=cache, refresh=refresh, files=files)
    ids = sorted(set(data.players["player_id"]))
    folder = players_dir or default_players_dir(resolve_source(source))
    attrs = load_attributes(folder, ids)
    attrs = _add_scraped(attrs, folder, ids, cache)
    attrs = _add_register_keys(attrs, folder, ids)
    return build_stats(data, comp, attrs)


def _add_scraped(attrs: pd.DataFrame, players_dir: Path | None, ids: list[str],
                 cache: Cache | None) -> pd.DataFrame:
    """ESPNcricinfo attributes for players the tables lack, only when scraping is allowed."""
    from cardgen.sources.cricinfo import scrape_attributes, scraping_base_url
    base_url = scraping_base_url()
    if base_url is None:
        return attrs
    missing = sorted(set(ids) - set(attrs["player_id"]))
    keys = cricinfo_keys(players_dir, missing)
    if not keys:
        return attrs
    scraped = scrape_attributes(sorted(keys.items()), base_url, cache=cache)
    if not len(scraped):
        return attrs
    return pd.concat([attrs, scraped], ignore_index=True) if len(attrs) else scraped


def _add_register_keys(attrs: pd.DataFrame, players_dir: Path | None, ids: list[str]) -> pd.DataFrame:
    """Players no source describes still get their ESPNcricinfo id (the rest is inferred later)."""
    missing = sorted(set(ids) - set(attrs["player_id"]))
    keys = cricinfo_keys(players_dir, missing)
    if not keys:
        return attrs
    stubs = pd.DataFrame([{"player_id": pid, "key_cricinfo": key} for pid, key in sorted(keys.items())],
                         columns=attrs.columns)
    return pd.concat([attrs, stubs], ignore_index=True) if len(attrs) else stubs


def _read_cached(cache: TableStore, name: str) -> SeasonStats:
    t = {tbl: cache.read_table(name, tbl) for tbl in TABLES}
    return SeasonStats(batting=t["batting"], bowling=t["bowling"], fielding=t["fielding"],
                       lineups=t["lineups"], innings=t["innings"], matches=t["matches"],
                       league=cache.read_json(name, "league"), attributes=t["attributes"],
                       situations=t["situations"])


def _current(store: TableStore, name: str, fingerprint: str | None = None) -> bool:
    """Complete tables of this version and, when a fingerprint is given, built from that source."""
    manifest = store.read_manifest(name)
    if not manifest or manifest.get("tables_version") != TABLES_VERSION:
        return False
    if fingerprint is not None and manifest.get("fingerprint") != fingerprint:
        return False
    return store.is_complete(name)


def season_stats(comp: Competition, season: str, source: str | None = None,
                 cache: Cache | None = None, refresh: bool = False) -> SeasonStats:
    """The season's stats. The tables follow the source:

    - a local folder (`--source DIR` or $CARDGEN_SOURCE) is looked at every time: a missing folder
      is an error, and tables cached from it are used only while the files the competition is
      read from are unchanged (names, sizes, times);
    - a URL's tables are cached per URL (its download too) until `refresh`;
    - the default source (cricsheet.org) answers the bundled seasons from the tables shipped with
      cardgen, offline, unless `refresh` (or an earlier refresh) put newer tables in the cache.

    `refresh` (or the CLI's `--refresh`) rebuilds from the source and re-downloads. Built tables go
    to the user's cache only; the bundled tables are never written here.
    """
    cache = cache or Cache()
    season = normalise_season(comp, season)
    name = set_name(comp, season)
    src = resolve_source(source)
    refresh_key = f"{name}\x1f{src}"
    refresh = refresh or refresh_due(refresh_key)
    fingerprint = source_fingerprint(comp, src)  # a missing source folder is an error here
    entry = cache.entry_name(name, source_id(src))
    if not refresh:
        # a strict run trusts only tables a strict run built: a lenient one may have left out a
        # damaged match file, which the cache does not remember (so it reads the files again)
        if _current(cache, entry, fingerprint) and (not strict() or (cache.read_manifest(entry) or {}).get("strict")):
            return _read_cached(cache, entry)
        bundled = bundled_tables()
        if src == DEFAULT_SOURCE and _current(bundled, name):
            return _read_cached(bundled, name)
    files = match_files(comp, season, src, cache=cache, refresh=refresh)
    stats = build_season_stats(comp, season, src, cache=cache, files=files)
    cache.write_tables(entry, stats.tables(), extra={"league": stats.league},
                       meta={"tables_version": TABLES_VERSION, "competition": comp.code,
                             "season": season, "source": source_id(src), "strict": strict(),
                             "fingerprint": fingerprint, "generator": f"cardgen {__version__}"})
    refreshed(refresh_key)
    return _read_cached(cache, entry)


def coverage(matches: pd.DataFrame) -> dict:
    """How much of a season the tables hold: matches used, their Cricsheet labels, and the league
    match numbers missing from the sequence (usually washouts with no ball bowled)."""
    numbers = sorted({int(n) for n in pd.to_numeric(matches.get("match_number"), errors="coerce").dropna()})
    missing = sorted(set(range(1, numbers[-1] + 1)) - set(numbers)) if numbers else []
    labels = sorted({str(s) for s in matches.get("season", []) if str(s) and str(s) != "nan"})
    return {"matches": int(len(matches)), "labels": labels, "missing_match_numbers": missing}


def coverage_text(comp: Competition, season: str, cov: dict) -> str:
    """One line for the build output."""
    labels = " + ".join(cov["labels"])
    text = f"used {cov['matches']} match{'es' if cov['matches'] != 1 else ''} of {comp.code} {season}"
    text += f" (Cricsheet label{'s' if len(cov['labels']) > 1 else ''} {labels})" if labels else ""
    if cov["missing_match_numbers"]:
        text += (f"; not found: league match{'es' if len(cov['missing_match_numbers']) > 1 else ''} "
                 f"{', '.join(map(str, cov['missing_match_numbers']))} (washed out, or missing from the source)")
    return text


def attributes_text(attributes: pd.DataFrame) -> str:
    """One line for the build output: where the players' attributes came from, and how many
    players no source knows (their roles are inferred from the ball-by-ball data)."""
    if attributes is None or not len(attributes):
        return "player attributes: none (no players in the tables)"
    # where the attributes were first read, true whether this machine read the players folder or
    # the tables came built with cardgen (a fresh install has no players folder)
    words = {"player_meta": "cricketdata's player table", "season_squads": "the season's squad lists",
             "shipped": "cardgen's attributes table", "cricinfo": "ESPNcricinfo"}
    sources = attributes["attribute_source"].fillna("inferred").astype(str)
    counts: dict[str, int] = {}
    for s in sources:
        if s != "inferred":
            counts[words.get(s, s)] = counts.get(words.get(s, s), 0) + 1
    none = int((sources == "inferred").sum())
    known = ", ".join(f"{n} from {w}" for w, n in sorted(counts.items())) or "none from a source"
    return (f"player attributes: {known}; {none} of {len(attributes)} players had none "
            f"(roles inferred from the ball-by-ball data)")


def offline_sets(cache: Cache) -> set[str]:
    """`<CODE>_<season>` of every season answered without a source: bundled or cached from cricsheet.org."""
    names = set(bundled_tables().complete_sets())
    for entry, manifest in cache.entries():
        if manifest and manifest.get("source") == DEFAULT_SOURCE and _current(cache, entry):
            names.add(f"{manifest.get('competition')}_{manifest.get('season')}")
    return names


# The seasons whose derived tables are committed in stats_cache/ (the mirror in ../shared holds them)
BUNDLED_SEASONS: tuple[tuple[str, str], ...] = (
    ("BBL", "2023-24"), ("BBL", "2024-25"), ("HUNDRED", "2024"), ("IPL", "2024"),
    ("IPL", "2025"), ("SMASH", "2024-25"),
)


def write_bundled(comp: Competition, season: str, mirror: str, into: Path) -> Path:
    """Build one bundled season's tables from a local mirror into `into` (the maintainer's step).

    The manifest names no machine-specific path, so the same mirror gives byte-identical files.
    """
    if is_url(mirror):
        raise SourceError("the bundled tables are rebuilt from a local mirror folder, not a URL")
    season = normalise_season(comp, season)
    name = set_name(comp, season)
    files = match_files(comp, season, mirror)
    stats = build_season_stats(comp, season, mirror, files=files)
    return TableStore(into).write_tables(
        name, stats.tables(), extra={"league": stats.league},
        meta={"tables_version": TABLES_VERSION, "competition": comp.code, "season": season,
              "source": "local mirror", "generator": f"cardgen {__version__}"})


def rebuild_bundled(mirror: str, into: Path | None = None) -> list[Path]:
    """Rebuild the committed tables of every bundled season from a Cricsheet mirror.

    The only code that writes the repository's `stats_cache/`; run it explicitly in a checkout:
    `python -m cardgen.stats.load ../shared/data/cricsheet`, then `git status` shows whether the
    committed tables were current (the same mirror and players folder give byte-identical files).
    """
    from cardgen.competitions import get_competition
    target = into if into is not None else maintainer_tables_dir("the bundled tables")
    return [write_bundled(get_competition(code), season, mirror, target)
            for code, season in BUNDLED_SEASONS]


if __name__ == "__main__":  # pragma: no cover - the maintainer command
    import sys
    run_maintainer_command(sys.argv, "cardgen.stats.load",
                           "the bundled tables in this checkout's stats_cache/", rebuild_bundled)


def with_rule_situations(stats: SeasonStats, comp: Competition, season: str, source: str | None,
                         rule: WicketsInHand, cache: Cache | None = None) -> SeasonStats:
    """The season's stats with each real ball's band read by `rule` (a wickets-in-hand rule
    with its own chase line, issue 41): the tables count them by the rules' own chase clause,
    and calibration solves each card over the bands his real balls were in."""
    from cardgen.stats.tables import _season_only, situations_table
    d, w = _season_only(load_season_data(comp, season, source, cache=cache))
    return dataclasses.replace(stats, situations=situations_table(d, w, comp.balls_per_innings, rule=rule))
