"""The whole printable kit for one card set, written atomically to <out>/<CODE>_<season>/."""
from __future__ import annotations

import dataclasses
import functools
import gc
import multiprocessing
import os
import shutil
import sys
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from collections.abc import Callable

from tqdm import tqdm

from cardgen import ATTRIBUTION, __version__
from cardgen.cache import atomic_write_bytes, sha256
from cardgen.cardset import FILE_NAME, CardSet, dumps
from cardgen.errors import CardgenError
from cardgen.manifest import CardSheets, Manifest, TeamFiles, read_manifest, write_manifest
from cardgen.staging import (make_staging, publish_folder, quiet_worker, relative_files, remove_stale_staging,
                             signals_deferred, stop_workers)
from cardgen.render.card import CardView, card_views
from cardgen.render.common import set_title
from cardgen.render.fielding import render_fielding_pdf
from cardgen.render.images import (TTS_DECKS, TTS_README, card_image, png_bytes, png_name, slug, tts_decks,
                                   tts_decks_json, tts_readme, tts_sheets)
from cardgen.render.layout import load_layout
from cardgen.render.league_sheets import render_draft_sheet_pdf, render_fixtures_pdf
from cardgen.render.preflight import REPORT_FOLDERS, Problem, check_pdf
from cardgen.render.scoresheet import render_scoresheet_pdf
from cardgen.render.season_tracker import Fixture, render_season_tracker_pdf
from cardgen.render.sheets import render_cards_pdf, sheet_geometry
from cardgen.render.start_here import START_HERE, pdf_page_counts, start_here_text
from cardgen.render.teamfiles import TeamPages, team_file_renders, team_page_ranges
from cardgen.render.teamsheets import (has_defence, render_quick_reference_pdf, render_rules_sheet_pdf,
                                      render_team_sheets_pdf)
from cardgen.rule_sets import ADVANCED, rules_of_set

PAPERS = ("a4", "letter")
# REPORT_FOLDERS: what other commands write into a kit (`validate`, `compare-games`): they describe
# its cards, so a rebuild keeps them while the cards stay the same and drops them when they change


class UnknownTeam(CardgenError):
    """A --team that matches no team (or several) in the card set."""


@dataclass(frozen=True)
class KitOptions:
    papers: tuple[str, ...] = PAPERS
    team: str | None = None
    bleed: bool = False
    bleed_mm: float | None = None  # --bleed-mm: this bleed (implies bleed) on the layout it fits
    ink_saver: bool = False
    backs: bool = False
    team_per_sheet: bool = False  # every team starts a new card sheet (else packed onto full sheets)
    solid_backs: bool = False  # solid team-colour backs instead of the light (low-ink) ones
    # the whole set's card sheets three more ways beside the plain ones (cards-a4-ink-saver.pdf,
    # -bleed, -backs; CARD_VARIANTS), so one kit offers every printing; a way the plain sheets
    # already print is not written twice
    variants: bool = False
    images: bool = True  # card PNGs and TTS sheets
    progress: bool = True
    workers: int = min(2, os.cpu_count() or 1)  # processes for the PDFs and images (1 = no pool)
    preflight: bool = False  # check every PDF as it is written (KitResult.problems)
    # the real season's matches: a full kit with them prints the season tracker
    fixtures: tuple[Fixture, ...] = ()
    missing_matches: tuple[int, ...] = ()  # league match numbers the source lacks (the tracker says so)
    # files a layer above adds to a full kit, as (path in the kit, bytes): the match page
    # (cardgen.play.page.kit_files, which the CLI hands down so this layer imports nothing above it),
    # a league's league.toml
    extra_files: tuple[tuple[str, bytes], ...] = ()
    # the fingerprint of the kit's inputs, recorded in its manifest (a catalogue run's kits:
    # `cardgen.catalogue.season`); None for a kit built on its own
    inputs_sha256: str | None = None
    sources_sha256: str | None = None  # and what they were read from (`Manifest.sources_sha256`)


MATCH_PAGE = "play.html"  # an extra file START-HERE.txt names (the match page)


@dataclass
class KitResult:
    folder: Path
    files: list[Path] = field(default_factory=list)
    cards: int = 0
    pdfs: list[Path] = field(default_factory=list)  # sorted, as `preflight.check_folder` lists them
    problems: list[Problem] | None = None  # the preflight's, in check_folder's order (with preflight)
    kept: list[str] = field(default_factory=list)  # files of the previous kit that it kept
    dropped_reports: list[str] = field(default_factory=list)  # report folders of other cards


def set_folder_name(card_set: CardSet) -> str:
    """The kit's folder: `BBL_2024-25` (Quicket rules), `BBL_2024-25-advanced` (rule_sets)."""
    from cardgen.rule_sets import kit_folder_name, rules_of_set
    return kit_folder_name(card_set.competition.code, card_set.season, rules_of_set(card_set))


def team_kit_folder_name(card_set: CardSet, team: str) -> str:
    """A one-team kit's folder, beside the full kit and never inside it: `BBL_2024-25_perth-scorchers`
    (`BBL_2024-25-advanced_perth-scorchers`)."""
    return f"{set_folder_name(card_set)}_{slug(team)}"


def select_team(card_set: CardSet, wanted: str) -> CardSet:
    """The card set restricted to one team, matched by name or printed short name (any case)."""
    names = card_set.team_names()
    key = wanted.strip().casefold()
    exact = [n for n in names if key in (n.casefold(), card_set.short_name(n).casefold())]
    found = exact or [n for n in names if key in n.casefold()]
    if len(found) != 1:
        what = "matches several teams" if found else "matches no team"
        raise UnknownTeam(f"--team {wanted!r} {what}; choose one of: {', '.join(names)}")
    return card_set.only_team(found[0])


def _publish_permissions(folder: Path) -> None:
    """Temp files are created private (0600/0700); the finished kit gets ordinary permissions."""
    umask = os.umask(0)
    os.umask(umask)
    folder.chmod(0o777 & ~umask)
    for path in folder.rglob("*"):
        path.chmod((0o777 if path.is_dir() else 0o666) & ~umask)


def _sha256(path: Path) -> str | None:
    try:
        return sha256(path.read_bytes())
    except OSError:
        return None


def _swap_in(new: Path, final: Path, manifest: Manifest) -> tuple[list[str], list[str]]:
    """Replace `final` with the finished `new` folder (renames, so readers never see a half kit);
    returns (files of the old kit kept, report folders dropped because the cards changed).

    Only what a build wrote (the old kit's manifest lists it) is replaced: anything else in the
    old folder (a user's notes, the reports of `validate` and `compare-games` while the cards are
    the same) moves to the new kit, and a folder that is not a kit is refused rather than
    replaced (FolderInUse). `manifest` is the new kit's, less its files (listed here)."""
    manifest = dataclasses.replace(manifest, files=tuple(relative_files(new)))
    write_manifest(new, manifest)
    _publish_permissions(new)
    old = read_manifest(final) if final.is_dir() and not final.is_symlink() else None
    stale_reports = old is not None and old.card_set_sha256 != manifest.card_set_sha256
    dropped = set()

    def written_by_cardgen(rel: str) -> bool:
        report = rel.split("/", 1)[0] in REPORT_FOLDERS
        if report and stale_reports:
            dropped.add(rel.split("/", 1)[0])
        return (old is not None and old.owns(rel)) or (report and stale_reports)

    kept = publish_folder(new, final, written_by_cardgen)
    return kept, sorted(dropped)


# --variants: file suffix -> what that printing changes from the plain card sheets
CARD_VARIANTS: dict[str, dict[str, Any]] = {"ink-saver": {"ink_saver": True}, "bleed": {"bleed": True},
                                             "backs": {"backs": True}}


def card_variants(options: KitOptions) -> dict[str, KitOptions]:
    """The card sheets a kit prints: `cards-<paper>.pdf`'s options under "" and, with
    `options.variants`, each variant's (the plain options with its change) under its suffix,
    unless the plain sheets already print that way. A one-team kit prints its plain sheets only."""
    out = {"": options}
    if options.variants and not options.team:
        for suffix, change in CARD_VARIANTS.items():
            if not all(getattr(options, k) == v for k, v in change.items()):
                out[suffix] = dataclasses.replace(options, **change)
    return out


def card_sheets(options: KitOptions) -> dict[str, CardSheets]:
    """How each whole-set card PDF prints (the manifest says it, so the site need not read the PDF)."""
    out = {}
    for suffix, way in card_variants(options).items():
        for paper in options.papers:
            geo = sheet_geometry(paper, way.bleed, way.bleed_mm)
            out[f"cards-{paper}{'-' + suffix if suffix else ''}.pdf"] = CardSheets(way.backs, geo.duplex_flip,
                                                                                    geo.landscape)
    return out


def _image_jobs(views: list[CardView]) -> list[list[tuple[int, CardView]]]:
    """Cards grouped by team, with their index in the printed order (for the PNG names)."""
    by_team: dict[str, list[tuple[int, CardView]]] = {}
    for index, view in enumerate(views, 1):
        by_team.setdefault(view.team, []).append((index, view))
    return list(by_team.values())


def _team_images(job: list[tuple[int, CardView]], work: Path, ink_saver: bool) -> list[str]:
    """One team's card PNGs (300 dpi), TTS face sheets and TTS back; returns the names written."""
    dpi = load_layout("sheets")["png_dpi"]
    names = []
    for index, view in job:
        name = f"png/{png_name(index, view)}"
        atomic_write_bytes(work / name, png_bytes(card_image(view, dpi, ink_saver), view.team_colour, dpi))
        names.append(name)
    team_views = [view for _, view in job]
    decks = tts_decks(team_views)
    for deck, sheet in zip(decks, tts_sheets(team_views, ink_saver, team_colour=team_views[0].team_colour)):
        names.append(deck.face)
        atomic_write_bytes(work / names[-1], png_bytes(sheet, team_views[0].team_colour))
    back = card_image(team_views[0], dpi, ink_saver, back=True, show_kind=False)
    names.append(decks[0].back)
    atomic_write_bytes(work / names[-1], png_bytes(back, team_views[0].team_colour, dpi))
    return names


@dataclass
class _Done:
    """What one job wrote (names relative to the kit) and the preflight problems of its PDFs."""
    names: list[str]
    problems: dict[str, list[Problem]] = field(default_factory=dict)


def _pdf_job(name: str, render: Callable[[], bytes], work: Path, preflight: bool) -> _Done:
    """Render one PDF, preflight the bytes (in the worker, while the others render) and write it."""
    data = render()
    problems = {name: check_pdf(data, name)} if preflight else {}
    atomic_write_bytes(work / name, data)
    return _Done([name], problems)


def _images_job(job: list[tuple[int, CardView]], work: Path, ink_saver: bool) -> _Done:
    return _Done(_team_images(job, work, ink_saver))


# The jobs of the build in progress. Workers are forked after this is filled in and run jobs by
# their index, so nothing but an index and the (small) result crosses between processes.
_JOBS: list[Callable[[], _Done]] = []
_JOBS_LOCK = threading.Lock()


def _run_job(index: int) -> _Done:
    return _JOBS[index]()


class _InlinePool:
    """The executor interface without processes (workers = 1, or no fork on this platform)."""

    def submit(self, fn, *args):  # type: ignore[no-untyped-def]
        future: Future = Future()
        future.set_result(fn(*args))
        return future

    def shutdown(self, cancel_futures: bool = False) -> None:
        pass


def _pool(workers: int):  # type: ignore[no-untyped-def]
    """Worker processes forked from this one (they inherit the jobs); inline where there is no
    fork (Windows) or only one worker is asked for: the files are the same either way."""
    if workers <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return _InlinePool()
    try:
        return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"),
                                   initializer=quiet_worker)
    except (OSError, NotImplementedError, ImportError):  # no semaphores (some sandboxes): serial
        return _InlinePool()


def build_kit(card_set: CardSet, out_dir: Path, options: KitOptions = KitOptions()) -> KitResult:
    """Write every PDF, the card PNGs, TTS sheets and card-set.json to <out>/<CODE>_<season>/.

    A full kit also holds each team's own card PDFs and team sheet (teams/<team>/) and bookmarks
    one page per team in the whole-set card PDFs. With `options.team` only that team is printed,
    to its own folder <out>/<CODE>_<season>_<team>/ (card-set.json holding that team only), so the
    full kit is never replaced by a partial one.

    Everything goes to a staging folder beside it first and is renamed into place at the end, so
    an interrupted build leaves the previous kit intact and a finished one replaces it whole.
    """
    printed, views = _printed_views(card_set, options)
    credit = card_set.attribution or ATTRIBUTION
    title = set_title(card_set)  # printed in the card sheets' footers: the season as the cards print it
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    final = out_dir / (team_kit_folder_name(card_set, views[0].team) if options.team else set_folder_name(card_set))
    remove_stale_staging(out_dir)  # what a killed run left behind
    staging = make_staging(out_dir, final.name, "build")
    build = _Build(card_set, printed, views, options, credit, title, final, staging, staging / final.name)
    build.work.mkdir()
    sheets = _sheet_renders(card_set, printed, options, credit)
    # each team's pages in the whole-set card sheets: their bookmarks and the manifest's teams
    ranges = {} if options.team else {
        paper: team_page_ranges(views, paper, options.bleed, options.backs, options.team_per_sheet,
                                options.bleed_mm)
        for paper in options.papers}
    renders = _card_renders(views, options, title, credit, ranges)
    image_jobs = _image_jobs(views) if options.images else []
    team_renders: dict[str, Callable[[], bytes]] = {}
    teams: tuple[TeamFiles, ...] = ()
    if not options.team:
        team_renders, teams = team_file_renders(card_set, views, options, title, credit, ranges)
    problems, kept, dropped = _write_kit(build, renders, image_jobs, {**sheets, **team_renders}, teams)
    pdfs = sorted(p for p in build.written if p.suffix == ".pdf")
    found = ([problem for path in pdfs for problem in problems.get(path.relative_to(final).as_posix(), [])]
             if options.preflight else None)
    return KitResult(final, build.written, len(views), pdfs, found, kept, dropped)


def _printed_views(card_set: CardSet, options: KitOptions) -> tuple[CardSet, list[CardView]]:
    """The card set as the kit prints it (one team's with `options.team`) and its cards; a paper
    not known, or nothing to print, is refused."""
    for paper in options.papers:
        if paper not in PAPERS:
            raise CardgenError(f"unknown paper {paper!r}; choose a4 or letter")
    printed = select_team(card_set, options.team) if options.team else card_set
    views: list[CardView] = card_views(printed)
    if not views and options.team and printed.teams:  # the team is in the season, without a card
        raise CardgenError(f"{printed.teams[0].name} has no cards to print: it neither batted nor bowled "
                           f"in the season's files (no ball in its matches); choose another --team")
    if not views:
        raise CardgenError("the card set has no cards to print")
    return printed, views


@dataclass
class _Build:
    """One kit in the making: what it prints, and the staging folder it is written to first."""
    card_set: CardSet
    printed: CardSet  # the card set as printed (one team's, with options.team)
    views: list[CardView]
    options: KitOptions
    credit: str
    title: str
    final: Path  # the kit's folder, once it is swapped in
    staging: Path  # removed at the end, whatever happens
    work: Path  # the kit as it is written: staging/<final's name>
    written: list[Path] = field(default_factory=list)  # each file written, under its final path

    def put(self, name: str, data: bytes) -> None:
        atomic_write_bytes(self.work / name, data)
        self.written.append(self.final / name)

    def put_own_files(self, images: bool) -> None:
        """What this process writes while the workers render: card-set.json, the extra files of
        a full kit and (with images) the TTS readme and decks."""
        if self.options.team:
            self.put(FILE_NAME, dumps(self.printed).encode("utf-8"))
        else:
            self.put(FILE_NAME, dumps(self.card_set).encode("utf-8"))   # (a league's set names no competition)
            for name, data in self.options.extra_files:
                (self.work / name).parent.mkdir(parents=True, exist_ok=True)
                self.put(name, data)
        if images:
            decks = tts_decks(self.views)
            self.put(TTS_README, tts_readme(decks, self.title).encode("utf-8"))
            self.put(TTS_DECKS, tts_decks_json(decks).encode("utf-8"))

    def put_start_here(self, images: bool) -> None:
        """START-HERE.txt: what each file is and how many pages it prints on, read from the
        finished PDFs."""
        options = self.options
        self.put(START_HERE, start_here_text(self.printed, pdf_page_counts(self.work), options.papers, self.credit,
                                             backs=options.backs, bleed=options.bleed, bleed_mm=options.bleed_mm,
                                             team_folders=not options.team, images=images,
                                             match_page=MATCH_PAGE in dict(options.extra_files)).encode("utf-8"))


def _sheet_renders(card_set: CardSet, printed: CardSet, options: KitOptions,
                   credit: str) -> dict[str, Callable[..., bytes]]:
    """The sheets in every paper asked for, by file name, each naming its paper as the card
    sheets do (scoresheet-a4.pdf, scoresheet-letter.pdf): the same name whatever --paper was."""
    sheets = {}
    # a match sheet says R13 when the season has rated strikers, even in a one-team kit whose
    # own side has none: its opponents' cards (another team's kit) may carry one
    season_defence = has_defence(card_set)
    for paper in options.papers:
        suffix = f"-{paper}"
        sheets.update({
            f"fielding-chart{suffix}.pdf":
                lambda paper=paper: render_fielding_pdf(printed, paper, credit, options.ink_saver),
            f"scoresheet{suffix}.pdf":
                lambda paper=paper: render_scoresheet_pdf(printed, paper, credit, season_defence),
            f"team-sheets{suffix}.pdf": lambda paper=paper: render_team_sheets_pdf(printed, paper, credit),
            f"quick-reference{suffix}.pdf":
                lambda paper=paper: render_quick_reference_pdf(printed, paper, credit, season_defence),
        })
        if card_set.own_league and not options.team:   # a league of your own (docs/league.md)
            sheets[f"draft-sheet{suffix}.pdf"] = lambda paper=paper: render_draft_sheet_pdf(card_set, paper, credit)
            if card_set.own_league.fixtures:
                sheets[f"fixtures{suffix}.pdf"] = lambda paper=paper: render_fixtures_pdf(card_set, paper, credit)
        if rules_of_set(card_set) == ADVANCED:   # the kit carries the rules its cards are made for
            sheets[f"rules{suffix}.pdf"] = lambda paper=paper: render_rules_sheet_pdf(printed, paper, credit)
        if options.fixtures and not options.team:
            sheets[f"season-tracker{suffix}.pdf"] = (
                lambda paper=paper: render_season_tracker_pdf(card_set, options.fixtures, paper, credit,
                                                            options.missing_matches))
    return sheets


def _card_renders(views: list[CardView], options: KitOptions, title: str, credit: str,
                  ranges: dict[str, list[TeamPages]]) -> dict[str, Callable[[], bytes]]:
    """The whole-set card sheets (each variant, each paper) by file name, one bookmark per team
    in a full kit (`ranges`: each paper's team pages in the plain sheets)."""
    renders: dict[str, Callable[[], bytes]] = {}
    for suffix, way in card_variants(options).items():
        for paper in options.papers:
            outline = None if options.team else [(r.team, r.first) for r in (ranges[paper] if not suffix else
                                                  team_page_ranges(views, paper, way.bleed, way.backs,
                                                                   way.team_per_sheet, way.bleed_mm))]
            renders[f"cards-{paper}{'-' + suffix if suffix else ''}.pdf"] = functools.partial(
                render_cards_pdf, views, paper, f"{title} cards", credit, bleed=way.bleed, bleed_mm=way.bleed_mm,
                ink_saver=way.ink_saver, backs=way.backs, team_per_sheet=way.team_per_sheet,
                solid_backs=way.solid_backs, outline=outline)
    return renders


def _preload(preflight: bool, images: bool) -> None:
    """What the workers would each load on first use, loaded once here before they fork."""
    if preflight:
        import pypdfium2  # noqa: F401
    if images:
        from PIL import Image
        Image.preinit()  # the PNG writer's plugins


def _write_kit(build: _Build, renders: dict[str, Callable[[], bytes]], image_jobs: list[list[tuple[int, CardView]]],
               sheets: dict[str, Callable[[], bytes]], teams: tuple[TeamFiles, ...]
               ) -> tuple[dict[str, list[Problem]], list[str], list[str]]:
    """Render every file (the whole-set card sheets, the images, then `sheets`: the one-page
    sheets and the teams' files) in the workers, write the rest here, and swap the kit into
    place; returns (each PDF's preflight problems, files kept, report folders dropped)."""
    options, work = build.options, build.work
    pool = None
    bar = None
    problems: dict[str, list[Problem]] = {}
    _JOBS_LOCK.acquire()  # one build's jobs at a time in this process (threads)
    try:
        # biggest first, so two workers finish together: whole-set sheets, a team's images, the rest
        _JOBS[:] = ([functools.partial(_pdf_job, name, render, work, options.preflight)
                     for name, render in renders.items()]
                    + [functools.partial(_images_job, job, work, options.ink_saver) for job in image_jobs]
                    + [functools.partial(_pdf_job, name, render, work, options.preflight)
                       for name, render in sheets.items()])
        _preload(options.preflight, bool(image_jobs))
        # the workers are forked with every object of this process frozen: their garbage
        # collections then skip what they inherited (a third of their collection time, and no
        # copy-on-write of those pages); this process unfreezes once they are forked
        gc.freeze()
        try:
            pool = _pool(options.workers)
            # every file is written on its own by one job, so the kit is the same in any order
            # and with any number of workers (submitting forks the workers)
            with signals_deferred():  # a signal inside a fork would be swallowed there
                futures = [pool.submit(_run_job, index) for index in range(len(_JOBS))]
        finally:
            gc.unfreeze()
        bar = tqdm(total=len(futures), desc=f"build {build.title}", unit="file", file=sys.stderr,
                   disable=not options.progress or not sys.stderr.isatty())
        build.put_own_files(bool(image_jobs))
        for future in futures:
            done = future.result()
            build.written.extend(build.final / name for name in done.names)
            problems.update(done.problems)
            bar.update(1)
        bar.close()
        build.put_start_here(bool(image_jobs))
        kept, dropped = _swap_in(work, build.final, Manifest(
            kind="team-kit" if options.team else "season-kit", files=(), generator=f"cardgen {__version__}",
            card_set_sha256=_sha256(work / FILE_NAME), inputs_sha256=options.inputs_sha256,
            sources_sha256=options.sources_sha256,
            card_sheets=card_sheets(options), teams=teams))
    except BaseException:  # noqa: B036 - Ctrl+C and SIGTERM too: stop the workers at once
        if pool is not None:
            stop_workers(pool)
        raise
    finally:
        _JOBS.clear()
        _JOBS_LOCK.release()
        if bar is not None:
            bar.close()
        if pool is not None:
            pool.shutdown(cancel_futures=True)
        shutil.rmtree(build.staging, ignore_errors=True)
    return problems, kept, dropped
