"""Reuse a card set whose inputs are unchanged: calibrating takes seconds, a kept set loads at once.

A card set is a pure function of its inputs: the season's stats tables, the competition, the
calibration code (every module upstream of the render layer, and the templates it reads), the
calibration options and the numpy/scipy versions the solver runs on. `fingerprint` hashes all of
them; the set is kept in the user cache (`card-sets/<CODE>_<season>-<options>-<fingerprint>.json`,
one per set of options, so `build` and `build --rules advanced` do not evict each other's set) and
used again only when a new fingerprint matches. Any change of input is a miss and a recalibration,
and a kept file that does not load is ignored, so a kept set only saves time, never changes a kit.

The bundled seasons' sets also ship with cardgen (`stats_cache/card-sets/`, written by the
maintainer command `python -m cardgen.calibrate.reuse`), named by the same fingerprint without
the library versions: a first build on a fresh install reuses them while code and tables are
those they were calibrated from (`tests/test_calibrate_reuse.py` checks they are current and are
byte for byte what calibrating gives). So every install prints the same cards for a bundled
season, whatever its numpy or scipy; a recalibration under other versions (a kept set made with
`CARDGEN_SHIPPED_SETS=0`, which ignores the shipped sets) could differ by a slot where two cards
fit a player almost equally well.
"""
from __future__ import annotations

import gzip
import json
import os
import re
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Any
from collections.abc import Callable

from cardgen.cache import Cache, atomic_write_bytes, atomic_write_text, sha256
from cardgen.cardset import dumps, load_card_set
from cardgen.errors import CacheError, CardSetError
from cardgen.fingerprint import Fingerprint, key, library_versions, package_files
from cardgen.paths import bundled_tables_dir, maintainer_tables_dir, run_maintainer_command, templates_dir
from cardgen.competitions import Competition, normalise_season, set_name

if TYPE_CHECKING:  # the tables' module imports pandas; a catalogue run that keeps every kit
    from cardgen.stats.tables import SeasonStats  # reads PACKAGE_DIR here without it

PACKAGE_DIR = Path(__file__).resolve().parent.parent
# layers downstream of the card set cannot change it (data flows one way); staging.py only
# assembles and publishes the kits, sites and game kits made from a set, manifest.py says what
# they hold (league: a league of your own, made from the seasons' sets; catalogue: every season's kit)
DOWNSTREAM = ("render", "site", "sim", "games", "play", "league", "catalogue", "cli", "staging.py", "manifest.py",
              "__pycache__")
# data folders an installed wheel keeps inside the package (a checkout keeps them beside it):
# the tables are hashed as tables, and of the templates only teams.json is read upstream
DATA_FOLDERS = ("stats_cache", "templates")
FOLDER = "card-sets"
SUFFIX_LEN = 20
OPTIONS_LEN = 8
SHIPPED_ENV = "CARDGEN_SHIPPED_SETS"
# the options of the sets that ship: `build` (the Quicket rules) and `build --rules advanced`
SHIPPED_OPTIONS: tuple[dict[str, Any], ...] = ({"names": {}, "rules": "quicket"},
                                               {"names": {}, "rules": "advanced"})


# the kinds of file the wheel installs in the package (setup.py's package_data, and the code):
# a checkout's other files (an editor's backup, a note) are not hashed, so a set shipped from a
# checkout is named as the wheel will find it
PACKAGED_SUFFIXES = (".py", ".json", ".csv", ".gz", ".ttf", ".otf", ".j2", ".txt", ".css", ".js",
                     ".svg", ".typed")


def _code_files() -> list[tuple[str, Path]]:
    """(label, path) of every file upstream of the card set; labels are the same in a checkout
    and an installed wheel, so a shipped set's fingerprint holds in both."""
    labelled = package_files(PACKAGE_DIR, PACKAGE_DIR.parent, PACKAGED_SUFFIXES, DOWNSTREAM + DATA_FOLDERS)
    teams = templates_dir() / "teams.json"
    return labelled + ([("templates/teams.json", teams)] if teams.is_file() else [])


def _dtype_name(dtype: Any) -> str:
    """A column's type as the fingerprint sees it: text is text, whether pandas 2 calls it
    "object" or pandas 3 "str" (the values are hashed as CSV text anyway)."""
    name = str(dtype)
    return "text" if name in ("object", "str", "string") or name.startswith("string") else name


def fingerprint(stats: SeasonStats, comp: Competition, season: str, options: dict[str, Any],
                versions: bool = True) -> str:
    """The key of everything a card set is computed from (see the module docstring); without
    `versions`, not the numpy / scipy / pandas versions (a shipped set's name)."""
    fp = Fingerprint("card-set")
    for name, df in sorted(stats.tables().items()):
        fp.add(f"table:{name}", df.to_csv(index=False, lineterminator="\n").encode("utf-8")
               + repr([_dtype_name(t) for t in df.dtypes]).encode())
    fp.value("league", stats.league).add("competition", repr(comp)).add("season", season)
    fp.value("options", options)
    for path in (Path(v) for v in options.values() if isinstance(v, (str, Path))):
        if path.is_file():  # an options file (e.g. name overrides): its content counts
            fp.file(f"option-file:{path.name}", path)
    if versions:
        fp.add("versions", library_versions())
    return fp.files("code:", _code_files()).hexdigest()


def options_key(options: dict[str, Any]) -> str:
    """A short key of the calibration options alone: one kept set per season and options."""
    return key("calibration-options", options, length=OPTIONS_LEN)


def kept_path(cache: Cache, comp: Competition, season: str, digest: str,
              options: dict[str, Any] | None = None) -> Path:
    return cache.root / FOLDER / (f"{set_name(comp, season)}-{options_key(options or {})}-"
                                  f"{digest[:SUFFIX_LEN]}.json")


def _superseded(path: Path, comp: Competition, season: str, options: dict[str, Any]) -> list[Path]:
    """Kept sets that `path` replaces: older ones of the same season and options, and any in the
    layout before options had their own key (`<CODE>_<season>-<fingerprint>.json`)."""
    name, digest = re.escape(set_name(comp, season)), f"[0-9a-f]{{{SUFFIX_LEN}}}"
    pattern = re.compile(rf"{name}-(?:{options_key(options)}-)?{digest}\.json")
    return [p for p in sorted(path.parent.iterdir()) if p != path and pattern.fullmatch(p.name)]


def _digest_path(kept: Path) -> Path:
    """Beside a kept set, the SHA-256 of the bytes written (`<name>.json.sha256`)."""
    return kept.with_name(kept.name + ".sha256")


def _load_kept(path: Path, load_card_set: Callable[[Path], dict]) -> dict:
    """A kept set. When its bytes are the ones this code calibrated and wrote (the digest beside
    it matches), it is read without the schema check, which costs more than the rest of the
    reuse (the calibrated set it was written from was not schema-checked either); anything else
    (no digest, edited or damaged bytes) goes through `load_card_set`'s full check."""
    try:
        data = path.read_bytes()
        expected = _digest_path(path).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return load_card_set(path)
    if sha256(data) == expected:
        try:
            doc = json.loads(data)
        except ValueError:
            doc = None
        if isinstance(doc, dict) and isinstance(doc.get("cards"), list):
            return doc
    return load_card_set(path)


def shipped_path(comp: Competition, season: str, digest: str, options: dict[str, Any],
                 folder: Path | None = None) -> Path:
    """Where the set of these inputs ships (`stats_cache/card-sets/<set>-<options>-<digest>.json.gz`)."""
    folder = folder if folder is not None else bundled_tables_dir() / FOLDER
    return folder / (f"{set_name(comp, season)}-{options_key(options)}-{digest[:SUFFIX_LEN]}.json.gz")


def _load_shipped(stats: SeasonStats, comp: Competition, season: str,
                  options: dict[str, Any]) -> dict | None:
    """The shipped set made from exactly these inputs, or None (none ships, or it is unreadable:
    gzip's checksum catches a damaged file, so what it yields is the bytes that were written)."""
    if os.environ.get(SHIPPED_ENV, "1").strip() == "0":
        return None
    path = shipped_path(comp, season, fingerprint(stats, comp, season, options, versions=False), options)
    try:
        doc = json.loads(gzip.decompress(path.read_bytes()))
    except (OSError, EOFError, ValueError, zlib.error):
        return None
    return doc if isinstance(doc, dict) and isinstance(doc.get("cards"), list) else None


def reuse_or_build(stats: SeasonStats, comp: Competition, season: str, cache: Cache | None,
                   build: Callable[[], dict], options: dict[str, Any] | None = None) -> tuple[dict, bool]:
    """(card set, reused?): the kept set when the inputs match, else `build()` kept for next time."""
    cache = cache or Cache()
    season = normalise_season(comp, season)
    options = options or {}
    path = kept_path(cache, comp, season, fingerprint(stats, comp, season, options), options)
    if path.is_file():
        try:
            return _load_kept(path, _load_document), True
        except CardSetError:
            pass  # damaged: calibrate again and replace it
    shipped = _load_shipped(stats, comp, season, options)
    if shipped is not None:
        return shipped, True
    card_set = build()
    try:
        cache.prepare()  # marks the folder as a cardgen cache, so `cache --clear` may remove the set
        text = dumps(card_set)
        _digest_path(path).unlink(missing_ok=True)  # never a digest beside other bytes
        atomic_write_text(path, text)
        atomic_write_text(_digest_path(path), sha256(text.encode("utf-8")) + "\n")
        for stale in _superseded(path, comp, season, options):
            stale.unlink(missing_ok=True)
            _digest_path(stale).unlink(missing_ok=True)
    except (OSError, CacheError):
        pass  # an unwritable cache only costs the next build its reuse
    return card_set, False


def _load_document(path: Path) -> dict:
    """A kept set read and checked (`cardgen.cardset.load_card_set`), as its document."""
    return load_card_set(path).to_json()


# calibrates a season's tables into a card set (calibrate.cardset.card_set_from_stats, which
# calls this module: it is passed in, so the two do not import each other)
SetBuilder = Callable[["SeasonStats", Competition, str, str], dict]


def write_shipped_sets(mirror: str, build: SetBuilder, folder: Path | None = None) -> list[Path]:
    """Calibrate every bundled season with each shipped set of options (`build`) and write the
    sets that ship (gzip with a fixed timestamp: the same inputs, the same bytes); older ones are
    removed. The maintainer command, run in a checkout after the calibration or the tables change."""
    from cardgen.competitions import get_competition
    from cardgen.stats.load import BUNDLED_SEASONS, season_stats
    if folder is None:
        folder = maintainer_tables_dir("the shipped card sets") / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for code, season in BUNDLED_SEASONS:
        comp = get_competition(code)
        stats = season_stats(comp, season, mirror)
        for options in SHIPPED_OPTIONS:
            card_set = build(stats, comp, season, options["rules"])
            digest = fingerprint(stats, comp, season, options, versions=False)
            path = shipped_path(comp, season, digest, options, folder)
            data = gzip.compress(dumps(card_set).encode("utf-8"), compresslevel=9, mtime=0)
            atomic_write_bytes(path, data)
            written.append(path)
    for old in sorted(folder.glob("*.json.gz")):
        if old not in written:
            old.unlink()
    return written


if __name__ == "__main__":  # pragma: no cover - the maintainer command
    import sys

    from cardgen.calibrate.cardset import card_set_from_stats
    run_maintainer_command(sys.argv, "cardgen.calibrate.reuse", "the card sets shipped in this "
                           "checkout's stats_cache/card-sets/, recalibrated",
                           lambda mirror: write_shipped_sets(mirror, card_set_from_stats))
