"""One season's kit, as `cardgen build -c CODE -s SEASON` makes it, and whether a kit on disk is
still current.

A kit is current when the fingerprint of its inputs, recorded in its manifest
(`Manifest.inputs_sha256`), is the one its inputs give now. The fingerprint is the card set's
own (`calibrate.reuse.fingerprint`: the season's tables, the calibration code, the options, the
library versions) extended with what lies between the card set and the kit: every other file of
the package (render, play, the templates and fonts), the kit's settings and cardgen's version.
The tables follow the season's match files (`stats.load.season_stats`), so a changed match file
changes its season's fingerprint only.
"""
from __future__ import annotations

import functools
import hashlib
import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardgen import __version__
from cardgen.competitions import INNINGS_OVERS, Competition
from cardgen.errors import CardgenError
from cardgen.rule_sets import DEFAULT_RULES, kit_folder_name

if TYPE_CHECKING:
    from cardgen.stats.tables import SeasonStats


@dataclass(frozen=True)
class KitSettings:
    """What a catalogue run asks of every kit (the rest is `cardgen build`'s defaults)."""

    rules: str = DEFAULT_RULES
    papers: tuple[str, ...] = ("a4", "letter")
    images: bool = True


@dataclass(frozen=True)
class SeasonResult:
    """What became of one season: "built", "kept" (its kit was current) or "failed"."""

    code: str
    season: str
    state: str
    seconds: float = 0.0
    reason: str = ""  # a failed season's one line
    cards: int = 0
    files: int = 0
    problems: int = 0  # the preflight's, in a built kit
    folder: str = ""  # the kit's folder ("" for a failed season)
    warnings: tuple[str, ...] = field(default_factory=tuple)  # e.g. a skipped match file

    @property
    def label(self) -> str:
        return f"{self.code} {self.season}"


def check_season_format(comp: Competition, season: str, source: str | None, stats: Any = None) -> None:
    """Refuse, in one line, a season whose match files are not the game's format: the cards, the
    scoresheet and the replays are 20 overs of 6 balls (T20) or 20 sets of 5 (The Hundred), and
    a user's competition of 10-over or 50-over matches, or one whose `format` says 100-ball for
    6-ball overs, built a kit that played twice its real totals (T10: 160 runs against 77).
    Judged by the most common scheduled length (`info.overs`, `info.balls_per_over`), so one odd
    file in a T20 season does not stop it. `stats`: the season's tables when the caller has them."""
    from cardgen.stats.load import season_stats
    matches = (stats if stats is not None else season_stats(comp, season, source)).matches
    if not len(matches):
        return
    import pandas as pd
    shape = matches[["overs", "balls_per_over"]].apply(pd.to_numeric, errors="coerce").value_counts()
    if not len(shape):
        return
    (overs, per_over), count = shape.index[0], int(shape.iloc[0])
    if (overs, per_over) == (INNINGS_OVERS, comp.balls_per_over):
        return
    files = f"{count} of {len(matches)} match files"
    if overs != INNINGS_OVERS:
        raise CardgenError(f"{comp.code} {season}: {files} are {overs:g}-over matches (info.overs); "
                           f"cardgen makes kits for 20-over T20 and 100-ball seasons only")
    if per_over not in (5, 6):
        raise CardgenError(f"{comp.code} {season}: {files} have {per_over:g}-ball overs "
                           f"(info.balls_per_over); cardgen makes kits for T20 and 100-ball seasons only")
    wanted = "100-ball" if per_over == 5 else "T20"
    raise CardgenError(f"{comp.code} {season}: {files} have {per_over:g}-ball overs, but {comp.code} "
                       f"is a {comp.format} competition; give it format = \"{wanted}\" in your "
                       f"competitions file")


def calibration_options(rules: str) -> dict[str, Any]:
    """The options the card set is calibrated and kept under (as `build_card_set(reuse=True)`)."""
    from cardgen.sources.names import active_overrides
    return {"names": active_overrides(), "rules": rules}


@functools.lru_cache(maxsize=1)
def kit_code_digest() -> str:
    """SHA-256 over every packaged file of cardgen and its templates: the code from the card set
    to the kit (the card set's fingerprint already holds the code upstream of it). Once a process:
    the code does not change while it runs."""
    from cardgen.calibrate.reuse import PACKAGE_DIR, PACKAGED_SUFFIXES
    from cardgen.paths import templates_dir
    h = hashlib.sha256()
    roots = [("cardgen", PACKAGE_DIR), ("templates", templates_dir())]
    for label, root in roots:
        if not root.is_dir():
            continue
        for path in sorted(p for p in root.rglob("*") if p.is_file() and p.suffix in PACKAGED_SUFFIXES
                           and "__pycache__" not in p.parts):
            data = path.read_bytes()
            h.update(f"{label}/{path.relative_to(root).as_posix()}\x00{len(data)}\x00".encode())
            h.update(data)
    return h.hexdigest()


def kit_inputs(stats: SeasonStats, comp: Competition, season: str, settings: KitSettings) -> str:
    """The fingerprint of everything a season's kit is made from (see the module docstring), in
    the card set fingerprint's framing: labelled, length-prefixed parts under one SHA-256."""
    from cardgen.calibrate.reuse import fingerprint
    h = hashlib.sha256()

    def part(label: str, data: bytes) -> None:
        h.update(f"{label}\x00{len(data)}\x00".encode())
        h.update(data)

    part("card-set", fingerprint(stats, comp, season, calibration_options(settings.rules)).encode())
    part("kit-code", kit_code_digest().encode())
    part("kit-settings", json.dumps(asdict(settings), sort_keys=True).encode())
    part("version", __version__.encode())
    return h.hexdigest()


def kit_folder(out_dir: Path, comp: Competition, season: str, settings: KitSettings) -> Path:
    return Path(out_dir) / kit_folder_name(comp.code, season, settings.rules)


def current_kit(folder: Path, inputs: str) -> bool:
    """Whether `folder` holds a whole season kit made from these inputs (every file its manifest
    lists still there: a kit a user thinned out is built again)."""
    from cardgen.manifest import read_manifest
    manifest = read_manifest(folder, "season-kit")
    if manifest is None or manifest.inputs_sha256 != inputs:
        return False
    return all((folder / rel).is_file() for rel in manifest.files)


def build_season(comp: Competition, season: str, source: str | None, out_dir: Path,
                 settings: KitSettings = KitSettings(), workers: int = 1) -> SeasonResult:
    """The season's kit in OUT/<CODE>_<season>/ unless the one there is current ("kept").

    Raises what `cardgen build` would (CardgenError and its kin) for a season that cannot be
    built; the kit is assembled in a staging folder and renamed into place, so an interrupted
    build leaves the previous kit, never half of one."""
    from cardgen.stats.load import season_stats
    started = time.perf_counter()
    stats = season_stats(comp, season, source)
    check_season_format(comp, season, source, stats)
    inputs = kit_inputs(stats, comp, season, settings)
    folder = kit_folder(out_dir, comp, season, settings)
    if current_kit(folder, inputs):
        return SeasonResult(comp.code, season, "kept", time.perf_counter() - started, folder=str(folder))
    from cardgen.calibrate.cardset import build_card_set
    from cardgen.play.page import kit_files as match_page_files
    from cardgen.render.kit import KitOptions, build_kit
    from cardgen.render.season_tracker import fixtures_from_tables
    from cardgen.sources.names import apply_overrides
    from cardgen.stats.load import coverage
    card_set = apply_overrides(build_card_set(comp, season, source, reuse=True, rules=settings.rules))
    fixtures = tuple(fixtures_from_tables(stats.matches, stats.innings))
    result = build_kit(card_set, out_dir, KitOptions(
        papers=settings.papers, images=settings.images, progress=False, workers=workers, preflight=True,
        fixtures=fixtures, missing_matches=tuple(coverage(stats.matches)["missing_match_numbers"]),
        extra_files=tuple(match_page_files(card_set, fixtures).items()), inputs_sha256=inputs))
    return SeasonResult(comp.code, season, "built", time.perf_counter() - started, cards=result.cards,
                        files=len(result.files), problems=len(result.problems or ()),
                        folder=str(result.folder))
