"""What a season's tables are read from, as one key known without reading it: the source, the
names, sizes and times of its files, the players folder, the scraping setting and the
competition's definition (`source_fingerprint`), and the name of the source its cache entry is
kept under (`source_id`).

Apart from `stats.load` (which builds the tables) and without pandas: a catalogue run that keeps
every kit compares these keys only (`catalogue.season.sources_key`), so it imports no table code.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

from cardgen.competitions import Competition
from cardgen.errors import SourceError
from cardgen.fingerprint import Fingerprint, listing
from cardgen.sources.fetch import is_url, mirror_paths
from cardgen.sources.locations import default_players_dir, scraping_base_url

# bump when the derived tables change shape, so stale caches are rebuilt
TABLES_VERSION = 7


def source_id(src: str) -> str:
    """A source as its tables' cache entry is named by: a URL as given, a folder resolved."""
    return src if is_url(src) else str(Path(src).expanduser().resolve())


def source_fingerprint(comp: Competition, src: str) -> str:
    """The key of what the tables depend on besides the code: the source; for a local folder the
    name, size and time of every file the competition is read from (so a changed, emptied or
    different mirror is noticed without reading it); the players folder; whether scraping was
    allowed; the competition's definition."""
    fp = Fingerprint("tables-source").add("source", source_id(src)).value("tables_version", TABLES_VERSION)
    fp.value("cricinfo", scraping_base_url())
    # which matches are the competition's (events, sex, seasons): an entry of the user's
    # competitions file corrected, or the built-in table grown, rebuilds the tables instead of
    # serving those read under the old definition
    fp.value("competition", dataclasses.asdict(comp))
    if not is_url(src):
        root = Path(src).expanduser()
        if not root.exists():
            raise SourceError(f"source folder {root} does not exist; pass --source DIR or URL")
        fp.value("files", listing(mirror_paths(root, comp), root) if root.is_dir() else None)
    players = default_players_dir(src)
    if players is not None and players.is_dir():
        fp.add("players", str(players.resolve()))
        fp.value("player-files", listing([p for p in players.iterdir() if p.is_file()], players))
    return fp.hexdigest()
