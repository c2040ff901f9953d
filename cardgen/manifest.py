"""The kit manifest: one versioned file in every folder cardgen writes, saying what it wrote.

Layer: beside `staging`, below render, games and site, which all write one (a season kit, a
one-team kit, another game's kit, the download site) and read it back: the rebuild logic to know
which files of a folder are cardgen's (a rebuild replaces those and keeps everything else, and a
folder without a manifest is refused rather than replaced), the site to list a kit's files (the
labels of a game kit's downloads, each team's own files, how the card sheets print) without
reading the PDFs.

`.cardgen-kit.json` is written last, so a folder holding it is finished. Its `manifest_version`
says which shape it is; `read_manifest` also reads the markers cardgen wrote before the manifest
(version 0: the season kit's `.cardgen-kit.json` without a version, the site's `.cardgen-site`
and the other games' `kit.json`), so a folder built by that version is still known for ours.
"""
from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from cardgen.cache import atomic_write_bytes
from cardgen.readfile import read_json_file

MANIFEST_VERSION = 1
FILE_NAME = ".cardgen-kit.json"

Kind = Literal["season-kit", "team-kit", "game-kit", "site"]
KINDS: tuple[Kind, ...] = ("season-kit", "team-kit", "game-kit", "site")
WRITTEN_BY: dict[Kind, str] = {"season-kit": "cardgen build", "team-kit": "cardgen build",
                               "game-kit": "cardgen build --game", "site": "cardgen site"}
NOTE = "files cardgen replaces when it writes this folder again; anything else in it is kept"

# what cardgen wrote before the manifest (version 0), each the marker of one kind of folder
_PREVIOUS_SITE_MARKER = ".cardgen-site"
PREVIOUS_GAME_MARKER = "kit.json"
_PREVIOUS_TEAMS_FILE = "teams/teams.json"


@dataclass(frozen=True)
class Download:
    """A file offered for download, in the order a page lists them (game kits)."""

    path: str  # relative to the kit folder
    label: str
    kind: str  # pdf | png | json | txt


@dataclass(frozen=True)
class CardSheets:
    """How a card PDF prints: a back page after each sheet of fronts or not, the duplex flip its
    back pages ask for, and whether the sheets are landscape."""

    backs: bool
    flip: str  # "long" (portrait sheets) | "short" (landscape sheets, e.g. --bleed)
    landscape: bool


@dataclass(frozen=True)
class TeamFiles:
    """One team's own files in a full season kit (`teams/<team>/`), and where its cards are in
    the whole-set card PDFs."""

    name: str
    short_name: str = ""
    folder: str = ""
    cards: int = 0
    strikers: int = 0
    bowlers: int = 0
    files: Mapping[str, str] = field(default_factory=dict)  # "cards-a4" -> relpath
    pages_in_whole_set: Mapping[str, tuple[int, int]] = field(default_factory=dict)  # PDF -> (first, last)


@dataclass(frozen=True)
class Manifest:
    """What cardgen wrote into one folder."""

    kind: Kind
    files: tuple[str, ...]  # every file written, relative POSIX paths (the manifest itself aside)
    generator: str = ""  # "cardgen 0.1.0"
    version: int = MANIFEST_VERSION
    card_set_sha256: str | None = None  # season and team kits: the card set they print
    # a season kit a catalogue run built: the fingerprint of its inputs (`catalogue.season`), so
    # the next run keeps the kit while they are unchanged
    inputs_sha256: str | None = None
    # ... and the fingerprint of what those inputs were read from, known without reading them (the
    # cached tables' digests, the code, the options: `catalogue.season.sources_key`), so that run
    # keeps a current kit without loading its season
    sources_sha256: str | None = None
    card_sheets: Mapping[str, CardSheets] = field(default_factory=dict)  # "cards-a4.pdf" -> ...
    teams: tuple[TeamFiles, ...] = ()  # a full season kit's teams
    game: str | None = None  # game kits: the system, its name, the season it prints
    name: str | None = None
    competition: str | None = None
    season: str | None = None
    attribution: str | None = None
    downloads: tuple[Download, ...] = ()
    # a site's set folder rendered again: files of its previous render (among `files`) kept
    # until the pages above the sets, which may link them, are replaced (site/incremental.py)
    superseded: tuple[str, ...] = ()

    @property
    def written_by(self) -> str:
        return WRITTEN_BY[self.kind]

    def owns(self, rel: str) -> bool:
        """Whether cardgen wrote the file at `rel` (the manifest included)."""
        return rel == FILE_NAME or rel in self._owned

    @functools.cached_property
    def _owned(self) -> frozenset[str]:
        # once per manifest: a site of 300 sets lists 200,000 files, and owns() asks of each
        return frozenset(self.files)

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"manifest_version": self.version, "kind": self.kind,
                               "written_by": self.written_by, "generator": self.generator, "note": NOTE}
        if self.card_set_sha256 is not None:
            doc["card_set_sha256"] = self.card_set_sha256
        if self.inputs_sha256 is not None:
            doc["inputs_sha256"] = self.inputs_sha256
        if self.sources_sha256 is not None:
            doc["sources_sha256"] = self.sources_sha256
        if self.card_sheets:
            doc["card_sheets"] = {name: {"backs": s.backs, "flip": s.flip, "landscape": s.landscape}
                                  for name, s in self.card_sheets.items()}
        if self.teams:
            doc["teams"] = [_team_json(t) for t in self.teams]
        if self.kind == "game-kit":
            doc.update({"game": self.game, "name": self.name, "competition": self.competition,
                        "season": self.season, "attribution": self.attribution,
                        "downloads": [{"path": d.path, "label": d.label, "kind": d.kind}
                                      for d in self.downloads]})
        if self.superseded:
            doc["superseded"] = list(self.superseded)
        doc["files"] = list(self.files)
        return doc


def _team_json(team: TeamFiles) -> dict[str, Any]:
    return {"name": team.name, "short_name": team.short_name, "folder": team.folder, "cards": team.cards,
            "strikers": team.strikers, "bowlers": team.bowlers, "files": dict(team.files),
            "pages_in_whole_set": {pdf: list(span) for pdf, span in team.pages_in_whole_set.items()}}


def manifest_bytes(manifest: Manifest) -> bytes:
    return (json.dumps(manifest.to_json(), indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def write_manifest(folder: Path, manifest: Manifest) -> Path:
    """Write the folder's manifest (atomically; last, so a folder holding one is finished)."""
    path = Path(folder) / FILE_NAME
    atomic_write_bytes(path, manifest_bytes(manifest))
    return path


def read_manifest(folder: Path, kind: Kind | None = None) -> Manifest | None:
    """The manifest of a folder cardgen wrote (of `kind`, when given); None for any other folder
    (no manifest, or one that cannot be read: nothing in it is taken for cardgen's)."""
    folder = Path(folder)
    doc = _json(folder / FILE_NAME)
    found = _from_json(doc, folder) if doc is not None else _previous(folder)
    return found if found is not None and (kind is None or found.kind == kind) else None


def _json(path: Path) -> Any:
    try:
        return read_json_file(path)  # nested too deeply, a FIFO: damaged, as a cut file is
    except (OSError, ValueError):
        return None


def _strings(value: Any) -> tuple[str, ...] | None:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return None
    return tuple(value)


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _from_json(doc: Any, folder: Path) -> Manifest | None:
    if not isinstance(doc, dict):
        return None
    if "manifest_version" not in doc:
        return _previous_kit(doc, folder)
    files = _strings(doc.get("files"))
    if doc.get("manifest_version") != MANIFEST_VERSION or doc.get("kind") not in KINDS or files is None:
        return None
    sheets = _object(doc.get("card_sheets"))
    teams = _array(doc.get("teams"))
    downloads = _array(doc.get("downloads"))
    return Manifest(
        kind=doc["kind"], files=files, generator=str(doc.get("generator") or ""),
        card_set_sha256=_text(doc.get("card_set_sha256")), inputs_sha256=_text(doc.get("inputs_sha256")),
        sources_sha256=_text(doc.get("sources_sha256")),
        card_sheets={str(name): CardSheets(bool(s.get("backs")), "short" if s.get("flip") == "short" else "long",
                                           bool(s.get("landscape")))
                     for name, s in sheets.items() if isinstance(s, dict)},
        teams=tuple(t for t in (_team(entry) for entry in teams) if t is not None),
        game=_text(doc.get("game")), name=_text(doc.get("name")), competition=_text(doc.get("competition")),
        season=_text(doc.get("season")), attribution=_text(doc.get("attribution")),
        downloads=tuple(d for d in (_download(entry) for entry in downloads) if d is not None),
        superseded=tuple(rel for rel in _strings(doc.get("superseded")) or () if rel in files))


def _object(value: Any) -> dict[str, Any]:
    """A JSON object of the manifest, {} for anything else (a hand-edited or damaged file)."""
    return value if isinstance(value, dict) else {}


def _array(value: Any) -> list[Any]:
    """A JSON array of the manifest, [] for anything else."""
    return value if isinstance(value, list) else []


def _team(entry: Any) -> TeamFiles | None:
    """A team's entry; files that are not paths and page ranges that are not two page numbers
    are left out (the site checks that each path is inside the kit)."""
    if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
        return None
    files = _object(entry.get("files"))
    pages = _object(entry.get("pages_in_whole_set"))

    def count(key: str) -> int:
        value = entry.get(key)
        return value if type(value) is int else 0
    return TeamFiles(
        name=entry["name"], short_name=str(entry.get("short_name") or ""), folder=str(entry.get("folder") or ""),
        cards=count("cards"), strikers=count("strikers"), bowlers=count("bowlers"),
        files={str(k): v for k, v in files.items() if isinstance(v, str)},
        pages_in_whole_set={str(pdf): (span[0], span[1]) for pdf, span in pages.items()
                            if isinstance(span, list) and len(span) == 2 and all(type(n) is int for n in span)})


def _download(entry: Any) -> Download | None:
    if not isinstance(entry, dict) or not isinstance(entry.get("path"), str):
        return None
    return Download(entry["path"], str(entry.get("label") or entry["path"]), str(entry.get("kind") or ""))


# --- version 0: the markers before the manifest ------------------------------------------------

def _previous(folder: Path) -> Manifest | None:
    """A site's `.cardgen-site` or a game kit's `kit.json`, as cardgen wrote them before the
    manifest (the season kit's marker had the manifest's name: `_previous_kit`)."""
    doc = _json(folder / _PREVIOUS_SITE_MARKER)
    if isinstance(doc, dict) and doc.get("written_by") == "cardgen site" and _strings(doc.get("files")) is not None:
        return Manifest(kind="site", files=_strings(doc["files"]) + (_PREVIOUS_SITE_MARKER,), version=0)  # type: ignore[operator]
    doc = _json(folder / PREVIOUS_GAME_MARKER)
    if isinstance(doc, dict) and isinstance(doc.get("files"), list) and doc.get("name") \
            and str(doc.get("generator") or "").startswith("cardgen"):
        downloads = tuple(d for d in (_download(entry) for entry in doc["files"]) if d is not None)
        return Manifest(kind="game-kit", files=tuple(d.path for d in downloads) + (PREVIOUS_GAME_MARKER,),
                        generator=str(doc["generator"]), version=0, game=_text(doc.get("game")),
                        name=str(doc["name"]), competition=_text(doc.get("competition")),
                        season=_text(doc.get("season")), attribution=_text(doc.get("attribution")),
                        downloads=downloads)
    return None


def _previous_kit(doc: dict[str, Any], folder: Path) -> Manifest | None:
    """A season kit's `.cardgen-kit.json` before the manifest: the files and the card set's
    hash; its teams were in teams/teams.json, one of those files."""
    files = _strings(doc.get("files"))
    if doc.get("written_by") != "cardgen build" or files is None:
        return None
    teams = _json(folder / _PREVIOUS_TEAMS_FILE) if _PREVIOUS_TEAMS_FILE in files else None
    entries = _array(teams.get("teams")) if isinstance(teams, dict) else []
    return Manifest(kind="season-kit", files=files, version=0, card_set_sha256=_text(doc.get("card_set_sha256")),
                    teams=tuple(t for t in (_team(entry) for entry in entries) if t is not None))


# --- a kit's fingerprint ----------------------------------------------------------------------

def kit_fingerprint(folder: Path) -> str | None:
    """The key of what a finished kit folder holds now: its manifest's bytes and, for every
    file in it (what `simulate` added to validation/ after the build too), the path, size and
    modification time. Reading every PDF's bytes would cost more than the site render it lets
    us skip; a rebuild that rewrites a file changes its time, so this errs towards "changed",
    and an incremental build that keeps a kit keeps its fingerprint. None: no readable
    manifest (unfinished, or not cardgen's), which is never taken as unchanged."""
    from cardgen.fingerprint import Fingerprint, tree_listing
    folder = Path(folder)
    try:
        raw = (folder / FILE_NAME).read_bytes()
    except OSError:
        return None
    if read_manifest(folder) is None:
        return None
    return Fingerprint("kit").add("manifest", raw).value("files", tree_listing(folder)).hexdigest()
