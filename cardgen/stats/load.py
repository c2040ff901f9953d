"""From a competition season to its stats tables: the committed/cached tables, else fetch and build."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from cardgen import __version__
from cardgen.cache import Cache
from cardgen.competitions import Competition, normalise_season, set_name
from cardgen.sources.cricsheet import SeasonData, combine, parse_match
from cardgen.sources.fetch import match_files, resolve_source
from cardgen.sources.players import default_players_dir, load_attributes
from cardgen.stats.tables import SeasonStats, build_stats

TABLES = ("batting", "bowling", "fielding", "lineups", "innings", "matches", "attributes")
# bump when the derived tables change shape, so stale caches are rebuilt
TABLES_VERSION = 1


def load_season_data(comp: Competition, season: str, source: str | None = None,
                     cache: Cache | None = None, refresh: bool = False) -> SeasonData:
    files = match_files(comp, season, source, cache=cache, refresh=refresh)
    return combine(parse_match(f.raw, f.match_id) for f in files)


def build_season_stats(comp: Competition, season: str, source: str | None = None,
                       cache: Cache | None = None, refresh: bool = False,
                       players_dir: Path | None = None) -> SeasonStats:
    data = load_season_data(comp, season, source, cache=cache, refresh=refresh)
    ids = sorted(set(data.players["player_id"]))
    attrs = load_attributes(players_dir or default_players_dir(resolve_source(source)), ids)
    return build_stats(data, comp, attrs)


def _read_cached(cache: Cache, name: str) -> SeasonStats:
    t = {tbl: cache.read_table(name, tbl) for tbl in TABLES}
    return SeasonStats(batting=t["batting"], bowling=t["bowling"], fielding=t["fielding"],
                       lineups=t["lineups"], innings=t["innings"], matches=t["matches"],
                       league=cache.read_json(name, "league"), attributes=t["attributes"])


def season_stats(comp: Competition, season: str, source: str | None = None,
                 cache: Cache | None = None, refresh: bool = False) -> SeasonStats:
    """The season's stats: from the cache when complete and current, else built and cached."""
    cache = cache or Cache()
    season = normalise_season(comp, season)
    name = set_name(comp, season)
    manifest = cache.read_manifest(name)
    if (not refresh and manifest and manifest.get("tables_version") == TABLES_VERSION
            and cache.is_complete(name)):
        return _read_cached(cache, name)
    stats = build_season_stats(comp, season, source, cache=cache, refresh=refresh)
    cache.write_tables(name, stats.tables(), extra={"league": stats.league},
                       meta={"tables_version": TABLES_VERSION, "competition": comp.code,
                             "season": season, "source": _describe(source),
                             "generator": f"cardgen {__version__}"})
    return _read_cached(cache, name)


def _describe(source: str | None) -> str:
    src = resolve_source(source)
    return src if src.startswith(("http://", "https://")) else "local mirror"
