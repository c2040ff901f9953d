"""From a competition season to its stats tables: the committed/cached tables, else fetch and build."""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from cardgen import __version__
from cardgen.cache import Cache
from cardgen.competitions import Competition, normalise_season, set_name
from cardgen.sources.cricsheet import SeasonData, combine, parse_match
from cardgen.sources.fetch import match_files, resolve_source
from cardgen.sources.players import cricinfo_keys, default_players_dir, load_attributes
from cardgen.stats.tables import SeasonStats, build_stats

TABLES = ("batting", "bowling", "fielding", "lineups", "innings", "matches", "attributes",
          "situations")
# bump when the derived tables change shape, so stale caches are rebuilt
TABLES_VERSION = 3


def load_season_data(comp: Competition, season: str, source: str | None = None,
                     cache: Cache | None = None, refresh: bool = False) -> SeasonData:
    files = match_files(comp, season, source, cache=cache, refresh=refresh)
    return combine(parse_match(f.raw, f.match_id) for f in files)


def build_season_stats(comp: Competition, season: str, source: str | None = None,
                       cache: Cache | None = None, refresh: bool = False,
                       players_dir: Path | None = None) -> SeasonStats:
    data = load_season_data(comp, season, source, cache=cache, refresh=refresh)
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


def _read_cached(cache: Cache, name: str) -> SeasonStats:
    t = {tbl: cache.read_table(name, tbl) for tbl in TABLES}
    return SeasonStats(batting=t["batting"], bowling=t["bowling"], fielding=t["fielding"],
                       lineups=t["lineups"], innings=t["innings"], matches=t["matches"],
                       league=cache.read_json(name, "league"), attributes=t["attributes"],
                       situations=t["situations"])


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
    text = f"used {cov['matches']} matches of {comp.code} {season}"
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
    words = {"player_meta": "the players folder", "season_squads": "the players folder",
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


def _describe(source: str | None) -> str:
    src = resolve_source(source)
    return src if src.startswith(("http://", "https://")) else "local mirror"


# The seasons whose derived tables are committed in stats_cache/ (the mirror in ../shared holds them)
BUNDLED_SEASONS: tuple[tuple[str, str], ...] = (
    ("BBL", "2023-24"), ("BBL", "2024-25"), ("HUNDRED", "2024"), ("IPL", "2024"),
    ("IPL", "2025"), ("SMASH", "2024-25"),
)


def rebuild_bundled(source: str, cache: Cache | None = None) -> list[Path]:
    """Rebuild the committed tables of every bundled season from a Cricsheet mirror.

    Deterministic: the same mirror and players folder give byte-identical files, so
    `python -m cardgen.stats.load ../shared/data/cricsheet` followed by `git status` shows
    whether the committed tables are current.
    """
    from cardgen.competitions import get_competition
    cache = cache or Cache()
    folders = []
    for code, season in BUNDLED_SEASONS:
        comp = get_competition(code)
        season_stats(comp, season, source, cache=cache, refresh=True)
        folders.append(cache.table_dir(set_name(comp, season)))
    return folders


if __name__ == "__main__":  # pragma: no cover - maintenance entry point
    import sys
    for folder in rebuild_bundled(sys.argv[1] if len(sys.argv) > 1 else "../shared/data/cricsheet"):
        print(folder)
