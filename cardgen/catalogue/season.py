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
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardgen import __version__
from cardgen.competitions import INNINGS_OVERS, Competition
from cardgen.errors import CardgenError
from cardgen.fingerprint import Fingerprint, library_versions, package_files
from cardgen.rule_sets import DEFAULT_RULES, kit_folder_name

if TYPE_CHECKING:
    from cardgen.cardset import CardSet
    from cardgen.render.kit import KitOptions, KitResult
    from cardgen.render.season_tracker import Fixture
    from cardgen.stats.tables import SeasonStats


@dataclass(frozen=True)
class KitSettings:
    """What a kit is printed with: a catalogue run asks the defaults of `cardgen build` but for
    the rules, papers and images; a single build may ask any of them."""

    rules: str = DEFAULT_RULES
    papers: tuple[str, ...] = ("a4", "letter")
    images: bool = True
    team: str | None = None  # one team's kit only
    bleed: bool = False
    bleed_mm: float | None = None
    ink_saver: bool = False
    backs: bool = False
    solid_backs: bool = False
    team_per_sheet: bool = False
    variants: bool = False  # the card sheets' other printings too (KitOptions.variants)
    # `cardgen build --chase-line`: the advanced rules with this chase line (issue 41), the cards
    # calibrated for it ("" none: the rule as it is)
    chase_line: str = ""


@dataclass(frozen=True)
class BuildRequest:
    """How `build_season` goes about it, beyond what the kit is (`KitSettings`): a catalogue run's
    season keeps a current kit, quietly, in one process; `cardgen build` always builds, with its
    progress bar, the kit's own workers, perhaps from a --card-set file, and says what the tables
    hold (`on_tables`) before it calibrates.

    Not a `games.base.BuildRequest` (another system's kit): this one asks for a season kit."""

    force: bool = False  # build even when the kit there is current
    progress: bool = False
    workers: int | None = 1  # the kit's processes (None: the kit's default); one a catalogue season
    card_set: dict | None = None  # print this set (a --card-set file) instead of the season's
    on_tables: Callable[[SeasonStats], Any] | None = None


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
    # a built kit's details and its card set, for `cardgen build`'s report (never sent between
    # processes: `without_details`)
    kit: KitResult | None = None
    card_set: CardSet | None = None

    @property
    def label(self) -> str:
        return f"{self.code} {self.season}"

    def without_details(self) -> SeasonResult:
        return replace(self, kit=None, card_set=None)


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


def calibration_options(rules: str, chase_line: str = "") -> dict[str, Any]:
    """The options the card set is calibrated and kept under (as `build_card_set(reuse=True)`;
    a chase line's set under its line as the card set records it, so one spelling or another of
    the same line is the same set, and a set without one under the options it always had)."""
    from cardgen.sources.names import active_overrides
    if not chase_line:
        return {"names": active_overrides(), "rules": rules}
    from cardgen.wickets_in_hand import chase_line_of_words
    return {"names": active_overrides(), "rules": rules, "chase_line": chase_line_of_words(chase_line).describe()}


def chase_line_card_set(comp: Competition, season: str, source: str | None, stats: SeasonStats,
                        chase_line: str) -> dict:
    """The season's advanced card set with the chase line `chase_line` (EDGES/HANDS/ROWS, as
    `cardgen simulate --chase-line`): the league's rule with the line, each real ball counted in
    the band the line gives it, the cards calibrated for that (what `cardgen simulate` replays
    as "+ line"); kept in the cache under its options like any set. The set records the line
    (`rule_parameters.chase_line`), so the printed sheets and the match page play it."""
    from cardgen.calibrate.calibrate import calibrate, league_rule
    from cardgen.calibrate.cardset import card_sets_from_calibration
    from cardgen.calibrate.reuse import reuse_or_build
    from cardgen.rule_sets import ADVANCED
    from cardgen.stats.load import with_rule_situations
    from cardgen.wickets_in_hand import chase_line_of_words
    rule = replace(league_rule(stats), chase_line=chase_line_of_words(chase_line))

    def calibrated() -> dict:
        line_stats = with_rule_situations(stats, comp, season, source, rule)
        return card_sets_from_calibration(calibrate(line_stats, rule=rule), comp, season)
    return reuse_or_build(stats, comp, season, None, calibrated,
                          options=calibration_options(ADVANCED, chase_line))[0]


@functools.lru_cache(maxsize=1)
def kit_code_digest() -> str:
    """The key of every packaged file of cardgen and its templates: the code from the card set
    to the kit (the card set's fingerprint already holds the code upstream of it). Once a process:
    the code does not change while it runs."""
    from cardgen.calibrate.reuse import PACKAGE_DIR, PACKAGED_SUFFIXES
    from cardgen.paths import templates_dir
    templates = templates_dir()
    return (Fingerprint("kit-code").files("", package_files(PACKAGE_DIR, PACKAGE_DIR.parent, PACKAGED_SUFFIXES))
            .files("", package_files(templates, templates.parent, PACKAGED_SUFFIXES)).hexdigest())


def kit_inputs(stats: SeasonStats, comp: Competition, season: str, settings: KitSettings) -> str:
    """The key of everything a season's kit is made from (see the module docstring)."""
    from cardgen.calibrate.reuse import fingerprint
    return (Fingerprint("kit-inputs")
            .add("card-set", fingerprint(stats, comp, season, calibration_options(settings.rules, settings.chase_line)))
            .add("kit-code", kit_code_digest()).value("kit-settings", asdict(settings))
            .add("version", __version__).hexdigest())


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


def sources_key(comp: Competition, season: str, source: str, settings: KitSettings,
                fingerprints: dict[str, str] | None = None) -> str | None:
    """A fingerprint of a season kit's inputs known without reading them: the digests of the
    season's cached tables (which `stats.load.season_stats` would serve as they are: of this
    version, read from the source's files as they are now), the competition, the calibration
    options, every file of the package, the library versions, the kit settings and cardgen's
    version. Equal keys mean equal `kit_inputs`, so a kit whose manifest records this key is
    current without its tables being loaded. None when that cannot be known so (a --refresh run,
    tables not cached or not current, a source that cannot be listed): the season is then read.
    `fingerprints`: the source fingerprints of a run, by competition (one listing each)."""
    from cardgen import options
    from cardgen.cache import Cache
    from cardgen.competitions import set_name
    from cardgen.sources.fetch import strict
    from cardgen.stats.source import TABLES_VERSION, source_fingerprint, source_id
    if options.current().refresh:
        return None
    cache = Cache()
    try:
        if fingerprints is not None and comp.code in fingerprints:
            fingerprint = fingerprints[comp.code]
        else:
            fingerprint = source_fingerprint(comp, source)
            if fingerprints is not None:
                fingerprints[comp.code] = fingerprint
    except (CardgenError, OSError):
        return None
    entry = cache.entry_name(set_name(comp, season), source_id(source))
    manifest = cache.read_manifest(entry)
    if (not manifest or manifest.get("tables_version") != TABLES_VERSION
            or manifest.get("fingerprint") != fingerprint or not cache.is_complete(entry)
            or (strict() and not manifest.get("strict"))):
        return None  # what season_stats would read again (a strict run trusts strict tables only)
    return (Fingerprint("kit-sources").value("tables", manifest["files"]).add("competition", repr(comp))
            .add("season", season).value("options", calibration_options(settings.rules, settings.chase_line))
            .add("code", kit_code_digest()).add("versions", library_versions())
            .value("settings", asdict(settings)).add("version", __version__).hexdigest())


def kept_as_is(comp: Competition, season: str, source: str, out_dir: Path, settings: KitSettings,
               fingerprints: dict[str, str] | None = None) -> SeasonResult | None:
    """The season "kept" when its kit records the `sources_key` its inputs give now and still holds
    every file its manifest lists; else None (`build_season` reads the season and decides)."""
    from cardgen.manifest import read_manifest
    started = time.perf_counter()
    folder = kit_folder(out_dir, comp, season, settings)
    manifest = read_manifest(folder, "season-kit")
    if manifest is None or manifest.sources_sha256 is None:
        return None
    key = sources_key(comp, season, source, settings, fingerprints)
    if key is None or key != manifest.sources_sha256 or not all((folder / rel).is_file() for rel in manifest.files):
        return None
    cards = sum(team.cards for team in manifest.teams)
    return SeasonResult(comp.code, season, "kept", time.perf_counter() - started, cards=cards,
                        files=len(manifest.files), folder=str(folder))


def build_season(comp: Competition, season: str, source: str | None, out_dir: Path,
                 settings: KitSettings = KitSettings(), request: BuildRequest = BuildRequest()) -> SeasonResult:
    """The season's kit in OUT/<CODE>_<season>/ (as `cardgen build` and every season of
    `cardgen catalogue` make it), unless the one there is current ("kept"; never with
    `request.force`).

    Raises what `cardgen build` says (CardgenError and its kin) for a season that cannot be
    built; the kit is assembled in a staging folder and renamed into place, so an interrupted
    build leaves the previous kit, never half of one. A kit of the season's own set records
    the fingerprints of its inputs, so a catalogue run keeps it while they are unchanged."""
    started = time.perf_counter()
    if request.card_set is not None:
        stats, inputs, quick = None, None, None
        card_set = request.card_set
    else:
        from cardgen.sources.fetch import resolve_source
        from cardgen.stats.load import season_stats
        stats = season_stats(comp, season, source)
        check_season_format(comp, season, source, stats)
        inputs = kit_inputs(stats, comp, season, settings)
        quick = sources_key(comp, season, resolve_source(source), settings)  # the tables are cached now
        folder = kit_folder(out_dir, comp, season, settings)
        if not request.force and current_kit(folder, inputs):
            return SeasonResult(comp.code, season, "kept", time.perf_counter() - started, folder=str(folder))
        if request.on_tables is not None:
            request.on_tables(stats)
        from cardgen.calibrate.cardset import build_card_set
        from cardgen.calibrate.progress import calibration_progress
        with calibration_progress(f"{comp.code} {season}", enabled=request.progress):
            card_set = (chase_line_card_set(comp, season, source, stats, settings.chase_line)
                        if settings.chase_line else
                        build_card_set(comp, season, source, reuse=True, rules=settings.rules))
    from cardgen.cardset import CardSet
    from cardgen.render.kit import build_kit
    from cardgen.sources.names import apply_overrides
    card_set = apply_overrides(card_set)  # --names: also on a set loaded or built earlier
    model = CardSet.from_json(card_set)  # the set read once, here: the kit and the report read the model
    check_card_set_season(model, comp, season)
    result = build_kit(model, out_dir, _kit_options(model, stats, settings, request, inputs, quick))
    return SeasonResult(comp.code, season, "built", time.perf_counter() - started, cards=result.cards,
                        files=len(result.files), problems=len(result.problems or ()),
                        folder=str(result.folder), kit=result, card_set=model)


def check_card_set_season(card_set: CardSet, comp: Competition, season: str) -> None:
    found = card_set.competition.code, card_set.season
    if found != (comp.code, season):
        raise CardgenError(f"the card set is for {found[0]} {found[1]}, not {comp.code} {season}")


def _kit_options(card_set: CardSet, stats: SeasonStats | None, settings: KitSettings, request: BuildRequest,
                 inputs: str | None, quick: str | None) -> KitOptions:
    """The render layer's options for this kit: the settings, the season's fixtures and the
    match page (a whole kit's), the fingerprints its manifest records."""
    from cardgen.play.page import kit_files as match_page_files
    from cardgen.render.kit import KitOptions
    fixtures: tuple[Fixture, ...] = ()
    missing: tuple[int, ...] = ()
    if stats is not None:  # the tracker's fixtures, and how much of the season Cricsheet had (issue 11)
        from cardgen.render.season_tracker import fixtures_from_tables
        from cardgen.stats.load import coverage
        fixtures = tuple(fixtures_from_tables(stats.matches, stats.innings))
        missing = tuple(coverage(stats.matches)["missing_match_numbers"])
    extra = () if settings.team else tuple(match_page_files(card_set, fixtures).items())  # play.html
    workers = {} if request.workers is None else {"workers": request.workers}
    return KitOptions(papers=settings.papers, team=settings.team, bleed=settings.bleed or settings.bleed_mm is not None,
                      bleed_mm=settings.bleed_mm, ink_saver=settings.ink_saver, backs=settings.backs,
                      solid_backs=settings.solid_backs, team_per_sheet=settings.team_per_sheet,
                      variants=settings.variants, images=settings.images, progress=request.progress, preflight=True, fixtures=fixtures,
                      missing_matches=missing, extra_files=extra, inputs_sha256=inputs, sources_sha256=quick,
                      **workers)
