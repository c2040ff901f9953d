"""Read what `cardgen build` left in an output folder: every built set and the files of its kit.

The site only reads; it never changes the output folder. Every optional piece (PNGs, TTS sheets,
the simulator's `validation/` folder) may be missing, and the pages say so instead of failing.
"""
from __future__ import annotations

import csv
import datetime as dt
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardgen.errors import CardgenError

CARD_SET_FILE = "card-set.json"
SET_FOLDER = re.compile(r"^[A-Z0-9-]+_[0-9]{4}(-[0-9]{2})?$")

# The kit's fixed downloads, in the order the pages list them, with a label for people.
KIT_DOWNLOADS: tuple[tuple[str, str], ...] = (
    ("cards-a4.pdf", "Player cards (A4)"),
    ("cards-letter.pdf", "Player cards (US Letter)"),
    ("fielding-chart.pdf", "Fielding chart"),
    ("scoresheet.pdf", "Scoresheet"),
    ("team-sheets.pdf", "Team sheets"),
    ("quick-reference.pdf", "Quick reference"),
    (CARD_SET_FILE, "Card set data (JSON)"),
)


class SiteError(CardgenError):
    """The output folder cannot be turned into a site (missing, or a set that cannot be read)."""


@dataclass(frozen=True)
class Download:
    """One file offered for download: its path inside the set folder and a label."""
    relpath: str
    label: str
    size: int


@dataclass
class Validation:
    """What the simulator's `validation/` folder holds, if anything."""
    files: list[Download] = field(default_factory=list)
    plots: list[str] = field(default_factory=list)  # relpaths of PNG/SVG plots
    summary_header: list[str] = field(default_factory=list)
    summary_rows: list[list[str]] = field(default_factory=list)
    summary_source: str = ""
    report_text: str = ""
    report_source: str = ""

    @property
    def present(self) -> bool:
        return bool(self.files)


@dataclass
class KitSet:
    """One built set: `<out>/<CODE>_<season>/` and its card set."""
    folder: Path
    card_set: dict[str, Any]
    downloads: list[Download]
    tts_sheets: list[Download]
    other_files: list[Download]
    card_pngs: dict[int, str]  # card index -> relpath of its PNG inside the set folder
    validation: Validation
    build_date: str

    @property
    def name(self) -> str:
        return self.folder.name

    @property
    def title(self) -> str:
        comp = self.card_set.get("competition", {})
        return f"{comp.get('name') or comp.get('code') or self.name} {self.card_set.get('season', '')}".strip()

    def all_files(self) -> list[Path]:
        """Every regular file of the kit, sorted, for the zip (hidden temp files left out)."""
        return sorted(p for p in self.folder.rglob("*")
                      if p.is_file() and not any(part.startswith(".") for part in p.relative_to(self.folder).parts))


def _download(folder: Path, path: Path, label: str) -> Download:
    return Download(path.relative_to(folder).as_posix(), label, path.stat().st_size)


def load_card_set_file(path: Path) -> dict[str, Any]:
    """Read a card-set.json; a set that cannot be read is a SiteError naming the file."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise SiteError(f"cannot read {path}: {exc}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("cards"), list):
        raise SiteError(f"{path} is not a card set (no list of cards)")
    for i, card in enumerate(doc["cards"]):
        if not isinstance(card, dict) or not isinstance(card.get("player"), dict) \
                or card.get("kind") not in ("striker", "bowler"):
            raise SiteError(f"{path}: card {i} has no player or an unknown kind")
    return doc


def _card_key(card: dict[str, Any]) -> tuple[str, str]:
    return str(card["player"].get("id", "")), str(card["kind"])


def match_card_pngs(folder: Path, cards: list[dict[str, Any]]) -> dict[int, str]:
    """Find each card's PNG under `png/`.

    A card may name its file (`png` field). Otherwise the renderer's name is matched:
    `NNN-<team>-<name>-<kind>.png` (NNN = print order). A file name holding the player id and the
    kind is accepted too. Files are never given to two cards.
    """
    png_dir = folder / "png"
    if not png_dir.is_dir():
        return {}
    files = sorted(p for p in png_dir.rglob("*.png") if p.is_file())
    taken: set[Path] = set()
    found: dict[int, str] = {}

    def take(index: int, path: Path) -> None:
        taken.add(path)
        found[index] = path.relative_to(folder).as_posix()

    for index, card in enumerate(cards):
        named = card.get("png")
        if isinstance(named, str) and (folder / named).is_file():
            take(index, folder / named)
    # same team, name and kind twice is possible (two players called J Smith): the print order
    # (batting position, then id) decides, as it does for the renderer's numbering
    order = sorted(range(len(cards)), key=lambda i: (cards[i].get("position") if isinstance(
        cards[i].get("position"), int) else 99, str(cards[i]["player"].get("id", ""))))
    for index in order:
        if index in found:
            continue
        card = cards[index]
        suffix = f"-{_slug(str(card.get('team', '')))}-{_slug(str(card['player'].get('name', '')))}-{card['kind']}.png"
        player_id, kind = _card_key(card)
        match = next((p for p in files if p not in taken and re.fullmatch(r"\d+", p.name[:-len(suffix)] or "-")
                      and p.name.endswith(suffix)), None)
        if match is None and player_id:
            match = next((p for p in files if p not in taken and player_id in p.stem
                          and kind in p.stem.lower()), None)
        if match is not None:
            take(index, match)
    return found


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _read_validation(folder: Path) -> Validation:
    vdir = folder / "validation"
    result = Validation()
    if not vdir.is_dir():
        return result
    files = sorted(p for p in vdir.rglob("*") if p.is_file() and not p.name.startswith("."))
    for path in files:
        result.files.append(_download(folder, path, path.name))
        if path.suffix.lower() in (".png", ".svg"):
            result.plots.append(path.relative_to(folder).as_posix())
    csvs = [p for p in files if p.suffix.lower() == ".csv"]
    # the summary table: a CSV called *summary* if there is one, else the first CSV
    summary = next((p for p in csvs if "summary" in p.stem.lower()), csvs[0] if csvs else None)
    if summary is not None:
        try:
            with summary.open(newline="", encoding="utf-8") as fh:
                rows = list(csv.reader(fh))
        except (OSError, UnicodeDecodeError, csv.Error):
            rows = []
        if rows:
            result.summary_header, result.summary_rows = rows[0], rows[1:41]
            result.summary_source = summary.relative_to(folder).as_posix()
    reports = [p for p in files if p.suffix.lower() in (".md", ".txt")]
    report = next((p for p in reports if "report" in p.stem.lower()), reports[0] if reports else None)
    if report is not None:
        try:
            result.report_text = report.read_text(encoding="utf-8")[:20000]
            result.report_source = report.relative_to(folder).as_posix()
        except (OSError, UnicodeDecodeError):
            pass
    return result


def _build_date(path: Path, card_set: dict[str, Any]) -> str:
    """The day the set was built: the card set's own stamp if it has one, else the file's date."""
    for key in ("built", "build_date", "generated_at", "created"):
        value = card_set.get(key)
        if isinstance(value, str) and re.match(r"^\d{4}-\d{2}-\d{2}", value):
            return value[:10]
    stamp = dt.datetime.fromtimestamp(path.stat().st_mtime, tz=dt.timezone.utc)
    return stamp.strftime("%Y-%m-%d")


def read_set(folder: Path) -> KitSet:
    """Read one set folder (it must hold card-set.json)."""
    card_set_path = folder / CARD_SET_FILE
    card_set = load_card_set_file(card_set_path)
    downloads = [_download(folder, folder / name, label)
                 for name, label in KIT_DOWNLOADS if (folder / name).is_file()]
    known = {name for name, _ in KIT_DOWNLOADS}
    tts = sorted(p for p in folder.rglob("*")
                 if p.is_file() and "tts" in p.relative_to(folder).as_posix().lower()
                 and not p.name.startswith("."))
    tts_sheets = [_download(folder, p, p.name) for p in tts]
    tts_set = {p.relative_to(folder).as_posix() for p in tts}
    other = [_download(folder, p, p.name) for p in sorted(folder.iterdir())
             if p.is_file() and p.name not in known and not p.name.startswith(".")
             and p.relative_to(folder).as_posix() not in tts_set]
    return KitSet(folder=folder, card_set=card_set, downloads=downloads, tts_sheets=tts_sheets,
                  other_files=other, card_pngs=match_card_pngs(folder, card_set["cards"]),
                  validation=_read_validation(folder), build_date=_build_date(card_set_path, card_set))


def find_sets(out_dir: Path, skip: Path | None = None) -> list[Path]:
    """Every `<CODE>_<season>/` folder under `out_dir` that holds a card-set.json, sorted."""
    if not out_dir.is_dir():
        raise SiteError(f"no output folder at {out_dir}: run `cardgen build` first")
    skip_resolved = skip.resolve() if skip is not None else None
    return sorted(p for p in out_dir.iterdir()
                  if p.is_dir() and SET_FOLDER.match(p.name) and (p / CARD_SET_FILE).is_file()
                  and p.resolve() != skip_resolved)
