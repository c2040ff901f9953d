"""Read what `cardgen build` left in an output folder: every built set and the files of its kit.

The site only reads; it never changes the output folder. Every optional piece (PNGs, TTS sheets,
the simulator's `validation/` folder) may be missing, and the pages say so instead of failing.
"""
from __future__ import annotations

import csv
import datetime as dt
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardgen.cardset import BUILD_STAMPS, CardSet, schema_problem
from cardgen.cardset_limits import read_document
from cardgen.errors import CardgenError, CardSetError
from cardgen.manifest import FILE_NAME as MANIFEST_FILE
from cardgen.manifest import PREVIOUS_GAME_MARKER, CardSheets, Manifest, read_manifest
from cardgen.readfile import read_json_file
from cardgen.render.common import printed_season_of
from cardgen.render.start_here import START_HERE, START_HERE_LABEL

CARD_SET_FILE = "card-set.json"
TTS_FOLDER = "tts"
# <CODE>_<season>, as build names a set's folder (an advanced kit's: <CODE>_<season>-advanced)
_SET_NAME = r"[A-Z0-9-]+_[0-9]{4}(-[0-9]{2})?(-advanced)?"
SET_FOLDER = re.compile(f"^{_SET_NAME}$")
TEAM_KIT_FOLDER = re.compile(f"^{_SET_NAME}_.+$")  # build --team: <CODE>_<season>_<team>

# The kit's fixed downloads, in the order the pages list them, with a label for people.
KIT_DOWNLOADS: tuple[tuple[str, str], ...] = (
    (START_HERE, START_HERE_LABEL),
    ("cards-a4.pdf", "Player cards (A4)"),
    ("cards-letter.pdf", "Player cards (US Letter)"),
    # build --variants: the same cards printed other ways, each a file of its own
    ("cards-a4-ink-saver.pdf", "Player cards, low ink (A4)"),
    ("cards-letter-ink-saver.pdf", "Player cards, low ink (US Letter)"),
    ("cards-a4-bleed.pdf", "Player cards with bleed, for a print shop (A4)"),
    ("cards-letter-bleed.pdf", "Player cards with bleed, for a print shop (US Letter)"),
    ("cards-a4-backs.pdf", "Player cards with backs, two-sided (A4)"),
    ("cards-letter-backs.pdf", "Player cards with backs, two-sided (US Letter)"),
    ("fielding-chart-a4.pdf", "Fielding chart (A4)"),
    ("fielding-chart-letter.pdf", "Fielding chart (US Letter)"),
    ("scoresheet-a4.pdf", "Scoresheet (A4)"),
    ("scoresheet-letter.pdf", "Scoresheet (US Letter)"),
    ("team-sheets-a4.pdf", "Team sheets (A4)"),
    ("team-sheets-letter.pdf", "Team sheets (US Letter)"),
    ("quick-reference-a4.pdf", "Quick reference (A4)"),
    ("quick-reference-letter.pdf", "Quick reference (US Letter)"),
    ("rules-a4.pdf", "Advanced rules sheet (A4)"),   # an advanced kit's (rule_sets)
    ("rules-letter.pdf", "Advanced rules sheet (US Letter)"),
    ("season-tracker-a4.pdf", "Season tracker (A4)"),
    ("season-tracker-letter.pdf", "Season tracker (US Letter)"),
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


SMALL_TABLE_ROWS = 20  # CSVs up to this many rows are shown as tables; longer ones are linked
CARD_CHECK_KEYS = ("kind", "player_id", "team")


@dataclass
class Table:
    source: str  # relpath inside the set folder
    header: list[str]
    rows: list[list[str]]


@dataclass
class Validation:
    """What the simulator's `validation/` folder holds, if anything."""
    files: list[Download] = field(default_factory=list)
    plots: list[str] = field(default_factory=list)  # relpaths of PNG/SVG plots
    pdfs: list[str] = field(default_factory=list)  # relpaths of PDF reports (previewed as images)
    headline: str = ""
    passed: bool | None = None
    summaries: list[tuple[str, list[tuple[str, str]]]] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    report_text: str = ""
    report_source: str = ""
    # per card (kind, player id, team): the simulator's check of each figure
    card_checks: dict[tuple[str, str, str], dict[str, str]] = field(default_factory=dict)

    @property
    def present(self) -> bool:
        return bool(self.files)


TEAM_FILE_LABEL = {"cards-a4": "cards (A4)", "cards-letter": "cards (US Letter)",
                   "team-sheet-a4": "team sheet (A4)", "team-sheet-letter": "team sheet (US Letter)"}


@dataclass
class TeamDownloads:
    """One team's own files in the kit, and where its cards are in the whole-set card PDFs."""
    name: str
    downloads: list[Download]
    pages: dict[str, tuple[int, int]]  # whole-set PDF relpath -> (first, last) page, 1-based
    page_counts: dict[str, int]  # the team's own PDF relpath -> pages


def _pdf_pages(path: Path) -> int | None:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError
    try:
        return len(PdfReader(str(path)).pages)
    except (PdfReadError, OSError, ValueError):
        return None


def _read_teams(folder: Path, manifest: Manifest | None) -> dict[str, TeamDownloads]:
    """Each team's own files, as the kit's manifest lists them; files that are missing or
    outside the kit are left out."""
    root = folder.resolve()
    teams: dict[str, TeamDownloads] = {}
    for entry in manifest.teams if manifest is not None else ():
        downloads, counts = [], {}
        for key, rel in entry.files.items():
            target = (folder / rel).resolve()
            if root not in target.parents or not target.is_file():
                continue
            # target is resolved (to refuse paths outside the kit), so relative to the resolved root
            download = _download(root, target, f"{entry.name} {TEAM_FILE_LABEL.get(key, key)}")
            downloads.append(download)
            pages = _pdf_pages(target) if target.suffix == ".pdf" else None
            if pages:
                counts[download.relpath] = pages
        teams[entry.name] = TeamDownloads(entry.name, downloads, dict(entry.pages_in_whole_set), counts)
    return teams


@dataclass
class KitSet:
    """One built set: `<out>/<CODE>_<season>/` and its card set."""
    folder: Path
    card_set: CardSet
    downloads: list[Download]
    tts_sheets: list[Download]
    other_files: list[Download]
    card_pngs: dict[int, str]  # card index -> relpath of its PNG inside the set folder
    validation: Validation
    build_date: str
    teams: dict[str, TeamDownloads] = field(default_factory=dict)  # by team name
    page_counts: dict[str, int] = field(default_factory=dict)  # PDF relpath -> pages
    card_sheets: dict[str, CardSheets] = field(default_factory=dict)  # cards-<paper>.pdf -> how it prints
    tts_readme: Download | None = None
    tts_decks: TtsDecks | None = None

    @property
    def name(self) -> str:
        return self.folder.name

    @property
    def title(self) -> str:
        comp = self.card_set.competition
        return f"{comp.name or comp.code or self.name} {self.season}".strip()

    @property
    def season(self) -> str:
        """The season as the kit's cards and sheets print it ('2024-2025')."""
        season = self.card_set.season
        return printed_season_of(self.card_set.competition.code, season) if season else ""

    def all_files(self) -> list[Path]:
        """Every regular file of the kit, sorted, for the zip (hidden temp files left out)."""
        return sorted(p for p in self.folder.rglob("*")
                      if p.is_file() and not any(part.startswith(".") for part in p.relative_to(self.folder).parts))


def _download(folder: Path, path: Path, label: str) -> Download:
    return Download(path.relative_to(folder).as_posix(), label, path.stat().st_size)


def load_card_set_file(path: Path) -> CardSet:
    """Read and check a card-set.json (within the card set's limits, then the shared schema)
    into the model every page reads; a set that cannot be read is a SiteError naming the file.

    The kit's own checks of what it prints (the rule's faces, a Defence rating in a Quicket
    rules set) are not made here: the pages show a hand-edited set without what they cannot read."""
    try:   # within the card set's limits (a 100,000-deep nesting was a RecursionError), strings cleaned
        doc = read_document(path)
    except (OSError, UnicodeDecodeError, ValueError) as exc:  # DocumentTooLarge is a ValueError
        raise SiteError(f"cannot read {path}: {exc}") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("cards"), list):
        raise SiteError(f"{path} is not a card set (no list of cards)")
    problem = schema_problem(doc)
    if problem:
        raise SiteError(f"{path} is not a valid card set: {problem}")
    try:
        return CardSet.from_json(doc)
    except CardSetError as exc:
        raise SiteError(f"{path}: {exc}") from None


def match_card_pngs(folder: Path, card_set: CardSet) -> dict[int, str]:
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
    cards = card_set.cards

    def take(index: int, path: Path) -> None:
        taken.add(path)
        found[index] = path.relative_to(folder).as_posix()

    for index, card in enumerate(cards):
        if card.png and (folder / card.png).is_file():
            take(index, folder / card.png)
    # same team, name and kind twice is possible (two players called J Smith): the print order
    # (the team's decks, XI then reserves, then batting position, then id) decides, as it does
    # for the renderer's numbering (cardgen.render.card.card_views)
    from cardgen.render.card import deck_order
    decks: dict[tuple[Any, Any], tuple[int, int]] = dict(deck_order(card_set.teams))
    order = sorted(range(len(cards)), key=lambda i: (
        decks.get((cards[i].team, cards[i].player.id), (2, 0)),
        99 if cards[i].place is None else cards[i].place, cards[i].player.id))
    for index in order:
        if index in found:
            continue
        card = cards[index]
        suffix = f"-{_slug(card.team)}-{_slug(card.player.name)}-{card.kind}.png"
        player_id, kind = card.player.id, card.kind
        match = next((p for p in files if p not in taken and re.fullmatch(r"\d+", p.name[:-len(suffix)] or "-")
                      and p.name.endswith(suffix)), None)
        if match is None and player_id:
            match = next((p for p in files if p not in taken and player_id in p.stem
                          and kind in p.stem.lower()), None)
        if match is not None:
            take(index, match)
    return found


def _slug(text: str) -> str:
    from cardgen.render.images import name_part  # the same names as the kit's PNGs
    return name_part(text)


def _read_csv(path: Path) -> list[list[str]]:
    try:
        with path.open(newline="", encoding="utf-8") as fh:
            return list(csv.reader(fh))
    except (OSError, UnicodeDecodeError, csv.Error):
        return []


METRIC_WORDS = {"strike_rate": "Strike rate", "economy": "Economy", "dismissal_rate": "Batters' times out",
                "wicket_rate": "Bowlers' wickets", "fours": "4s", "sixes": "6s", "dots": "Dot balls"}


def _percent(value: Any) -> str:
    return _share(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else "—"


def _runs(value: Any, places: int = 1) -> str:
    return f"{value:.{places}f}" if isinstance(value, (int, float)) and not isinstance(value, bool) else "—"


def _validate_items(doc: dict[str, Any]) -> list[tuple[str, str]]:
    """The card check's summary as labelled rows in plain words."""
    items: list[tuple[str, str]] = []
    if isinstance(doc.get("qualified_cards"), int):
        items.append(("Cards judged (qualified)", str(doc["qualified_cards"])))
    if isinstance(doc.get("passed"), int):
        items.append(("Cards that play like the real season", str(doc["passed"])))
    limit = _at_limit_names(doc)
    if limit:
        items.append(("At the game's limit, left out of the share (no printed card could reach "
                      "their real figure)", ", ".join(limit)))
    if "pass_share" in doc:
        # the exact share, as the headline says it: the summary's pass_share is rounded to 4
        # places, and rounded again it read 99.2% under a headline of 116 of 117 (99.1%)
        exact = _exact_share(doc)
        items.append(("Share that play like the real season",
                      _share(exact) if exact is not None else _percent(doc.get("pass_share"))))
    shares = doc.get("metric_pass_share")
    if isinstance(shares, dict):
        for key, share in sorted(shares.items(), key=lambda kv: METRIC_WORDS.get(kv[0], str(kv[0]))):
            items.append((f"{METRIC_WORDS.get(key, key.replace('_', ' ').capitalize())}: cards inside the range",
                          _percent(share)))
    if isinstance(doc.get("outside_99_9"), int):
        items.append(("Cards far off (outside even the 99.9% range)", str(doc["outside_99_9"])))
    if isinstance(doc.get("outside_family_gate"), int):   # validate's family-wise gate (issue 17)
        items.append(("Cards far off (beyond the all-cards chance bound)",
                      str(doc["outside_family_gate"])))
    if isinstance(doc.get("balls_per_card"), int):
        items.append(("Balls simulated per card", f"{doc['balls_per_card']:,}"))
    if isinstance(doc.get("ok"), bool):
        items.append(("Result", "passed" if doc["ok"] else "did not pass"))
    return items


def _simulate_items(doc: dict[str, Any]) -> list[tuple[str, str]]:
    """The season replay's summary as labelled rows: real against simulated."""
    items: list[tuple[str, str]] = []
    if isinstance(doc.get("seasons"), int):
        matches = f" ({doc['matches_simulated']:,} matches)" if isinstance(doc.get("matches_simulated"), int) else ""
        items.append(("Seasons replayed", f"{doc['seasons']:,}{matches}"))
    for key, label, places in (("first_innings_total", "First-innings total", 1),
                               ("second_innings_total", "Second-innings total", 1),
                               ("wickets_per_innings", "Wickets per innings", 2),
                               ("run_rate_powerplay", "Run rate, powerplay", 2),
                               ("run_rate_middle", "Run rate, middle overs", 2),
                               ("run_rate_death", "Run rate, death overs", 2)):
        real, sim = doc.get(f"real_{key}"), doc.get(f"sim_{key}")
        if real is not None or sim is not None:
            items.append((f"{label}: real / simulated", f"{_runs(real, places)} / {_runs(sim, places)}"))
    if isinstance(doc.get("within_5_runs"), bool):
        items.append(("Simulated first innings within 5 runs of the real average",
                      "yes" if doc["within_5_runs"] else "no"))
    if isinstance(doc.get("sim_super_over_share"), (int, float)):
        items.append(("Ties decided by a super over", f"{100 * doc['sim_super_over_share']:.1f}% of matches"))
    return items


def _summary_items(name: str, doc: dict[str, Any]) -> tuple[str, list[tuple[str, str]]]:
    """A caption and plain-words rows for a validation summary JSON (unknown summaries by key)."""
    lower = name.lower()
    if "validat" in lower:
        return "Card check: each card played alone", _validate_items(doc)
    if "simulat" in lower:
        return "Season replay: every match played again with the cards", _simulate_items(doc)
    items = [(key.replace("_", " ").capitalize(), str(value)) for key, value in sorted(doc.items())
             if isinstance(value, (int, float, str)) and not isinstance(value, bool)]
    return Path(name).stem.replace("_", " ").capitalize(), items


def _share(fraction: float) -> str:
    """A share as a percentage with at most one decimal ("100%", "95.7%")."""
    return f"{100 * fraction:.1f}".removesuffix(".0") + "%"


def _judged_cards(doc: dict[str, Any]) -> int | None:
    """The cards validate's share counts: the qualified ones, less any at the game's limit."""
    qualified = doc.get("qualified_cards")
    if not isinstance(qualified, int):
        return None
    return doc["judged_cards"] if _at_limit_names(doc) and isinstance(doc.get("judged_cards"), int) else qualified


def _exact_share(doc: dict[str, Any]) -> float | None:
    """passed / judged, as the simulator prints it; None when the summary lacks the counts."""
    judged, passed = _judged_cards(doc), doc.get("passed")
    return passed / judged if isinstance(passed, int) and judged else None


def _headline(doc: dict[str, Any]) -> tuple[str, bool | None]:
    """The card check in one sentence, from the simulator's validate summary."""
    qualified, passed, share = doc.get("qualified_cards"), doc.get("passed"), doc.get("pass_share")
    if not isinstance(qualified, int) or not isinstance(passed, int):
        return "", None
    limit = _at_limit_names(doc)
    judged = _judged_cards(doc) or 0
    text = f"{passed} of {judged} qualified cards"
    exact = _exact_share(doc)
    if exact is not None:  # the exact share, as the simulator prints it
        text += f" ({_share(exact)})"
    elif isinstance(share, (int, float)):
        text += f" ({_share(share)})"
    text += " play like the real season"
    if limit:
        text += (f", and {len(limit)} more {'is' if len(limit) == 1 else 'are'} at the game's limit "
                 "(no printed card could reach their real figure)")
    ok = doc.get("ok") if isinstance(doc.get("ok"), bool) else None
    if ok is not None:
        text += ": passed." if ok else ": did not pass."
    if ok is False:  # say which rule failed
        reasons = [f"{doc[key]} {label}" for key, label in (
            ("outside_99_9", "outside the 99.9% interval"),
            ("outside_family_gate", "outside the family-wise chance bound"),
            ("engine_disagreements", "disagreement(s) between the simulator and the analytic expectation"))
            if isinstance(doc.get(key), int) and doc[key] > 0]
        if reasons:
            text += " " + "; ".join(reasons).capitalize() + "."
    return text, ok


def _at_limit_names(doc: dict[str, Any]) -> list[str]:
    """The cards validate left out of its share as at the game's limit, by name."""
    cards = doc.get("at_its_limit")
    if not isinstance(cards, list):
        return []
    return [str(c.get("name")) for c in cards if isinstance(c, dict) and c.get("name")]


def _card_checks(rows: list[list[str]]) -> dict[tuple[str, str, str], dict[str, str]]:
    if not rows or not all(k in rows[0] for k in CARD_CHECK_KEYS):
        return {}
    header = rows[0]
    records = [dict(zip(header, row, strict=True)) for row in rows[1:] if len(row) == len(header)]
    return {(record["kind"], record["player_id"], record["team"]): record for record in records}


def _read_validation(folder: Path) -> Validation:
    vdir = folder / "validation"
    result = Validation()
    if not vdir.is_dir():
        return result
    # the card check (validate*) before the season replay (simulate*), then by name
    files = sorted((p for p in vdir.rglob("*") if p.is_file() and not p.name.startswith(".")),
                   key=lambda p: ("validat" not in p.name.lower(), p.relative_to(vdir).as_posix()))
    for path in files:
        rel = path.relative_to(folder).as_posix()
        result.files.append(_download(folder, path, path.name))
        suffix = path.suffix.lower()
        if suffix in (".png", ".svg"):
            result.plots.append(rel)
        elif suffix == ".pdf":
            result.pdfs.append(rel)
        elif suffix == ".json" and "summary" in path.stem.lower():
            try:
                doc = read_json_file(path)
            except (OSError, UnicodeDecodeError, ValueError):
                continue
            if isinstance(doc, dict):
                caption, items = _summary_items(path.name, doc)
                if items:
                    result.summaries.append((caption, items))
                if not result.headline:
                    result.headline, result.passed = _headline(doc)
        elif suffix == ".csv":
            rows = _read_csv(path)
            checks = _card_checks(rows)
            if checks:
                result.card_checks.update(checks)
            elif rows and len(rows) - 1 <= SMALL_TABLE_ROWS:
                result.tables.append(Table(rel, rows[0], rows[1:]))
        elif suffix in (".md", ".txt") and not result.report_text:
            try:
                result.report_text = path.read_text(encoding="utf-8")[:20000]
                result.report_source = rel
            except (OSError, UnicodeDecodeError):
                pass
    return result


def _build_date(path: Path, card_set: CardSet) -> str:
    """The day the set was built: the card set's own stamp if it has one, else the file's date."""
    for key in BUILD_STAMPS:
        value = getattr(card_set, key)   # a string, when the set has it (the model's loader checks)
        if value and re.match(r"^\d{4}-\d{2}-\d{2}", value):
            return value[:10]
    stamp = dt.datetime.fromtimestamp(path.stat().st_mtime, tz=dt.timezone.utc)
    return stamp.strftime("%Y-%m-%d")


@dataclass(frozen=True)
class TtsDecks:
    """What the kit's tts/decks.json says: the sheets' grid and the cards on each face sheet."""
    columns: int
    rows: int
    cards: dict[str, int]  # face sheet relpath -> cards on it
    teams: dict[str, str] = field(default_factory=dict)  # face or back sheet relpath -> its team

    def sheets_of(self, team: str) -> list[str]:
        """One team's own sheets (faces, then its back), as decks.json names them."""
        faces = [rel for rel, name in self.teams.items() if name == team and rel in self.cards]
        return faces + [rel for rel, name in self.teams.items() if name == team and rel not in self.cards]


def _read_tts_decks(folder: Path) -> TtsDecks | None:
    """The kit's tts/decks.json; None if it is missing, damaged or names no deck."""
    from cardgen.render.images import TTS_DECKS
    try:
        doc = read_json_file(folder / TTS_DECKS)
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    decks = doc.get("decks") if isinstance(doc, dict) else None
    good = [d for d in decks if isinstance(d, dict) and isinstance(d.get("face"), str)
            and all(type(d.get(k)) is int and d[k] > 0 for k in ("cards", "columns", "rows"))] \
        if isinstance(decks, list) else []
    if not good:
        return None
    teams: dict[str, str] = {}
    for deck in good:
        if isinstance(deck.get("team"), str):
            teams[deck["face"]] = deck["team"]
            if isinstance(deck.get("back"), str):
                teams.setdefault(deck["back"], deck["team"])
    return TtsDecks(good[0]["columns"], good[0]["rows"], {d["face"]: d["cards"] for d in good}, teams)


def read_set(folder: Path) -> KitSet:
    """Read one set folder (it must hold card-set.json; its manifest, if any, says what each
    team's own files are and how the card sheets print)."""
    manifest = read_manifest(folder)
    card_set_path = folder / CARD_SET_FILE
    card_set = load_card_set_file(card_set_path)
    downloads = [_download(folder, folder / name, label)
                 for name, label in KIT_DOWNLOADS if (folder / name).is_file()]
    known = {name for name, _ in KIT_DOWNLOADS}
    # only the deck sheets build writes to tts/ (a player called Potts is not a TTS sheet)
    tts = sorted(p for p in (folder / TTS_FOLDER).rglob("*.png")
                 if p.is_file() and not p.name.startswith(".")) if (folder / TTS_FOLDER).is_dir() else []
    tts_sheets = [_download(folder, p, p.name) for p in tts]
    from cardgen.render.images import TTS_DECKS, TTS_README  # the files beside the sheets
    tts_readme = _download(folder, folder / TTS_README, "How to load them (README.txt)") \
        if tts and (folder / TTS_README).is_file() else None
    tts_set = {p.relative_to(folder).as_posix() for p in tts} | {TTS_README, TTS_DECKS}
    # anything else the build left (e.g. compare-games/), but not the card PNGs or validation
    shown_elsewhere = {"png", "validation", "teams"}
    other = [_download(folder, p, p.relative_to(folder).as_posix()) for p in sorted(folder.rglob("*"))
             if p.is_file() and p.relative_to(folder).as_posix() not in known | tts_set
             and not any(part.startswith(".") for part in p.relative_to(folder).parts)
             and p.relative_to(folder).parts[0] not in shown_elsewhere]
    return KitSet(folder=folder, card_set=card_set, downloads=downloads, tts_sheets=tts_sheets,
                  tts_readme=tts_readme, tts_decks=_read_tts_decks(folder),
                  other_files=other, card_pngs=match_card_pngs(folder, card_set),
                  validation=_read_validation(folder), build_date=_build_date(card_set_path, card_set),
                  teams=_read_teams(folder, manifest),
                  page_counts={d.relpath: n for d in downloads if d.relpath.endswith(".pdf")
                               and (n := _pdf_pages(folder / d.relpath))},
                  card_sheets={name: sheets for name, sheets in manifest.card_sheets.items()
                               if (folder / name).is_file()} if manifest is not None else {})


def find_sets(out_dir: Path, skip: Path | None = None) -> list[Path]:
    """Every `<CODE>_<season>/` folder under `out_dir` that holds a card-set.json, sorted."""
    if not out_dir.is_dir():
        raise SiteError(f"no output folder at {out_dir}: run `cardgen build` first")
    skip_resolved = skip.resolve() if skip is not None else None
    return [p for p in _kit_folders(out_dir, SET_FOLDER) if p.resolve() != skip_resolved]


def find_team_kits(out_dir: Path) -> list[str]:
    """The one-team kits under `out_dir` (`build --team`), which the site does not list: it
    publishes whole sets."""
    return [p.name for p in _kit_folders(out_dir, TEAM_KIT_FOLDER)] if out_dir.is_dir() else []


def _kit_folders(out_dir: Path, name: re.Pattern[str]) -> list[Path]:
    """The folders under `out_dir` named like `name` that hold a card-set.json, sorted."""
    return sorted(p for p in out_dir.iterdir()
                  if p.is_dir() and name.match(p.name) and (p / CARD_SET_FILE).is_file())


@dataclass
class GameKit:
    """Another tabletop system's kit: `<out>/<game>/` or `<out>/<game>/<CODE>_<season>/`."""
    folder: Path
    relname: str  # path under OUT, e.g. "quick-cricket" or "roll-and-play/BBL_2024-25"
    game: str
    name: str
    competition: str | None
    season: str | None
    attribution: str
    downloads: list[Download]  # the PDFs, in the manifest's order
    previews: list[tuple[str, str]]  # (png relpath, label) page images
    files: list[Path]  # every file of the kit the manifest lists, for the zip

    @property
    def printed_season(self) -> str:
        """The season as that competition's Quicket kit prints it (the manifest keeps the CLI's
        '2024-25')."""
        return printed_season_of(self.competition or "", self.season) if self.season else ""

    @property
    def title(self) -> str:
        edition = f" {self.competition} {self.printed_season}" if self.competition and self.season else ""
        return f"{self.name}{edition}"


def read_game_kit(folder: Path, out_dir: Path) -> GameKit:
    """Read a game kit's manifest; downloads naming missing files or paths outside the kit are left out."""
    manifest = read_manifest(folder, "game-kit")
    if manifest is None or not manifest.name:
        raise SiteError(f"{folder / MANIFEST_FILE} is not a game kit's manifest (no name or files)")
    downloads: list[Download] = []
    previews: list[tuple[str, str]] = []
    files: list[Path] = []
    root = folder.resolve()
    for entry in manifest.downloads:
        path = (folder / entry.path).resolve()
        if root not in path.parents or not path.is_file():
            continue
        rel = path.relative_to(root).as_posix()
        files.append(folder / rel)
        if entry.kind == "png" or rel.lower().endswith(".png"):
            previews.append((rel, entry.label))
        else:
            downloads.append(_download(folder, folder / rel, entry.label))
    return GameKit(folder=folder, relname=folder.relative_to(out_dir).as_posix(),
                   game=manifest.game or folder.name,
                   name=manifest.name, competition=manifest.competition or None,
                   season=manifest.season or None, attribution=manifest.attribution or "",
                   downloads=downloads, previews=previews, files=sorted(set(files)))


def find_game_kits(out_dir: Path, skip: Path | None = None) -> list[Path]:
    """Every folder one or two below `out_dir` that holds a game kit's manifest, or a manifest
    that cannot be read (not inside Quicket sets or the site; a one-team kit is no game kit)."""
    skip_resolved = skip.resolve() if skip is not None else None
    found = []
    for folder in sorted({p.parent for p in [*out_dir.glob(f"*/{MANIFEST_FILE}"), *out_dir.glob(f"*/*/{MANIFEST_FILE}"),
                                             *out_dir.glob(f"*/{PREVIOUS_GAME_MARKER}"),
                                             *out_dir.glob(f"*/*/{PREVIOUS_GAME_MARKER}")]}):
        parts = folder.relative_to(out_dir).parts
        if any(part.startswith(".") for part in parts) or SET_FOLDER.match(parts[0]):
            continue
        if skip_resolved is not None and (folder.resolve() == skip_resolved or skip_resolved in folder.resolve().parents):
            continue
        manifest = read_manifest(folder)
        if manifest is not None and manifest.kind != "game-kit":
            continue
        found.append(folder)
    return found
