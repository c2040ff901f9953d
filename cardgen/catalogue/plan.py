"""Which seasons a catalogue run builds: every T20 and 100-ball competition season the source
holds, as `cardgen competitions --source` lists them, less what `--competition` and `--since`
leave out.

A local folder is listed by `sources.mirror.mirror_events` (the reader's own definitions, so a
listed season builds). A URL serves one Cricsheet zip per competition: each competition's zip is
fetched (or taken from the cache, as a build would) and its matches counted by season.
"""
from __future__ import annotations

import io
import json
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from cardgen.cache import Cache
from cardgen.competitions import INNINGS_OVERS, Competition, all_competitions, get_competition, match_season
from cardgen.errors import CardgenError, UnknownSeason


@dataclass(frozen=True)
class Planned:
    """One competition season to build, and how many matches the source holds of it."""

    code: str
    season: str
    matches: int

    @property
    def label(self) -> str:
        return f"{self.code} {self.season}"


@dataclass(frozen=True)
class Plan:
    seasons: tuple[Planned, ...]
    notes: tuple[str, ...] = field(default_factory=tuple)  # what was found and left out, and why


def first_year(season: str) -> int:
    """2024 for "2024" and "2024-25"."""
    return int(season[:4])


def wanted_competitions(codes: tuple[str, ...]) -> tuple[Competition, ...] | None:
    """The competitions asked for by code or alias (UnknownCompetition names a wrong one), or
    None for every one."""
    if not codes:
        return None
    found: dict[str, Competition] = {}
    for code in codes:
        comp = get_competition(code)
        found.setdefault(comp.code, comp)
    return tuple(found.values())


def _folder_seasons(root: Path) -> tuple[list[tuple[Competition, str, int]], list[str]]:
    from cardgen.sources.mirror import mirror_events
    seasons: list[tuple[Competition, str, int]] = []
    notes: list[str] = []
    for ev in mirror_events(root):
        if ev.competition is None:
            notes.append(f"{ev.event} ({ev.sex}): not in the competitions table, so not built; "
                         f"`cardgen competitions --source {root}` shows the entry to add")
        elif ev.overs != INNINGS_OVERS:
            notes.append(f"{ev.competition.code}: {ev.overs}-over matches, not built (cardgen makes "
                         f"kits for 20-over T20 and 100-ball seasons only)")
        else:
            seasons += [(ev.competition, season, n) for season, n in ev.seasons.items()]
    return seasons, notes


def _zip_seasons(url: str, comps: tuple[Competition, ...], asked: bool,
                 cache: Cache) -> tuple[list[tuple[Competition, str, int]], list[str]]:
    from cardgen.errors import SourceError
    from cardgen.sources.archive import ZIP_ERRORS
    from cardgen.sources.fetch import download_zip, is_event_of
    seasons: list[tuple[Competition, str, int]] = []
    notes: list[str] = []
    for comp in comps:
        try:
            data = download_zip(url, comp, cache)
        except SourceError as exc:
            if asked:
                raise
            notes.append(f"{comp.code}: not listed ({exc})")
            continue
        infos: list[dict] = []
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as zf:
                for name in zf.namelist():
                    if name.endswith(".json"):
                        try:
                            info = json.loads(zf.read(name)).get("info")
                        except (ValueError, AttributeError, RecursionError):
                            continue
                        if isinstance(info, dict) and is_event_of(info, comp):
                            infos.append(info)
        except ZIP_ERRORS:
            notes.append(f"{comp.code}: its zip at {url} cannot be read; not listed")
            continue
        dates: dict[str, list[str]] = {}
        for info in infos:
            dates.setdefault(str(info.get("season", "")), []).append(str((info.get("dates") or [""])[0]))
        counts: dict[str, int] = {}
        for info in infos:
            label = str(info.get("season", ""))
            season = match_season(comp, label, str((info.get("dates") or [""])[0]), dates[label])
            if season is not None:
                counts[season] = counts.get(season, 0) + 1
        seasons += [(comp, season, n) for season, n in sorted(counts.items())]
    return seasons, notes


def find_seasons(source: str, codes: tuple[str, ...] = (), since: int | None = None,
                 cache: Cache | None = None) -> Plan:
    """The seasons to build from `source` (a folder or a URL), the biggest first (they take the
    longest: started first, they end with the others)."""
    from cardgen.sources.fetch import is_url
    comps = wanted_competitions(codes)
    if is_url(source):
        found, notes = _zip_seasons(source, comps or all_competitions(), comps is not None, cache or Cache())
    else:
        root = Path(source).expanduser()
        if not root.is_dir():
            raise CardgenError(f"source folder {root} does not exist; pass --source with a Cricsheet "
                               f"mirror folder or URL")
        found, notes = _folder_seasons(root)
        if comps is not None:
            codes_asked = {c.code for c in comps}
            found = [f for f in found if f[0].code in codes_asked]
            notes = [n for n in notes if n.split(":", 1)[0] in codes_asked]
    if comps is not None:
        for comp in comps:
            if not any(c.code == comp.code for c, _, _ in found):
                notes.append(f"{comp.code}: no season of it in {source}")
    chosen = [Planned(comp.code, season, n) for comp, season, n in found
              if since is None or first_year(season) >= since]
    if not chosen:
        what = f" from {since} on" if since is not None else ""
        raise UnknownSeason(f"no T20 or 100-ball season{what} of "
                            f"{', '.join(c.code for c in comps) if comps else 'any known competition'} "
                            f"in {source}; `cardgen competitions --source {source}` lists what is there")
    chosen.sort(key=lambda p: (-p.matches, p.code, p.season))
    return Plan(tuple(chosen), tuple(notes))
