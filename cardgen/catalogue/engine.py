"""Run a catalogue's seasons in parallel: a forked process per season, at most `jobs` at once.

Why a process per season (not a pool of long-lived workers): a season's memory (its tables, the
calibration, the renderers' caches) goes back to the system when its process ends, so a worker
never holds more than one season (bounded memory at 300 seasons as at 3), and one season that
crashes its process (a bug, the kernel's OOM killer) is that season's failure, not the run's.
The parent imports the heavy modules before it forks, so every season starts with them loaded
(what a shell loop of `cardgen build` pays again each time).

Each season's kit is built in a staging folder and renamed into place (`render.kit.build_kit`),
and its manifest records its inputs' fingerprint (`season.kit_inputs`), so an interrupted run
leaves whole kits only and the next run keeps them and builds the rest.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
import time
import warnings
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any, cast

from cardgen import options
from cardgen.catalogue.plan import Planned
from cardgen.catalogue.season import KitSettings, SeasonResult, build_season
from cardgen.errors import CardgenError
from cardgen.options import RunOptions
from cardgen.staging import signals_deferred



@dataclass(frozen=True)
class SeasonJob:
    """Everything one season's process needs (it is forked: nothing is pickled on the way in)."""

    planned: Planned
    source: str
    out_dir: Path
    settings: KitSettings
    run_options: RunOptions


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def one_line(exc: BaseException) -> str:
    """A season's failure as one line: a CardgenError says what to do; anything else is named."""
    text = " ".join(str(exc).split())
    if isinstance(exc, CardgenError):
        return text
    if isinstance(exc, OSError):
        where = f" ({exc.filename})" if exc.filename else ""
        return f"{exc.strerror or text}{where}"
    if isinstance(exc, MemoryError):
        return "out of memory; run with fewer --jobs"
    return f"{type(exc).__name__}: {text}"[:300] + " (a bug in cardgen: please report it)"


def run_season(job: SeasonJob) -> SeasonResult:
    """One season, its failure caught: the result says what became of it."""
    from cardgen.competitions import get_competition
    started = time.perf_counter()
    code, season = job.planned.code, job.planned.season
    with options.running_with(job.run_options), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = build_season(get_competition(code), season, job.source, job.out_dir, job.settings)
        except Exception as exc:  # noqa: BLE001 - a season's failure is reported, the others go on
            result = SeasonResult(code, season, "failed", reason=one_line(exc))
    from cardgen.errors import CardgenWarning
    notes = tuple(dict.fromkeys(str(w.message) for w in caught if issubclass(w.category, CardgenWarning)))
    return replace(result.without_details(), seconds=time.perf_counter() - started, warnings=notes)


def _child(job: SeasonJob, conn: Connection) -> None:
    """A season's process: build, send the result, end (the parent handles Ctrl+C and SIGTERM)."""
    from cardgen.staging import quiet_worker
    quiet_worker()
    try:
        conn.send(run_season(job))
    finally:
        conn.close()


def preload() -> None:
    """What every season's process would import on its own, imported once before forking."""
    import cardgen.calibrate.calibrate  # noqa: F401
    import cardgen.calibrate.cardset  # noqa: F401
    import cardgen.play.page  # noqa: F401
    import cardgen.render.kit  # noqa: F401
    import cardgen.render.season_tracker  # noqa: F401
    import cardgen.stats.load  # noqa: F401
    from cardgen.catalogue.season import kit_code_digest
    kit_code_digest()  # the same for every season: hashed once


# how often the parent wakes while seasons build, to call `on_tick` (a progress bar's clock)
TICK_S = 1.0


def kept_in_parent(seasons: tuple[Planned, ...], source: str, out_dir: Path,
                   settings: KitSettings) -> tuple[list[SeasonResult], list[Planned]]:
    """The seasons whose kits are current by their `sources_key` (kept here, without a process or
    their tables), and the rest, in the plan's order. Each competition's files are listed once."""
    from cardgen.catalogue.season import kept_as_is
    from cardgen.competitions import get_competition
    kept: list[SeasonResult] = []
    rest: list[Planned] = []
    fingerprints: dict[str, str] = {}
    for planned in seasons:
        try:
            result = kept_as_is(get_competition(planned.code), planned.season, source, out_dir, settings,
                                fingerprints)
        except CardgenError:
            result = None  # its process says what is wrong
        if result is None:
            rest.append(planned)
        else:
            kept.append(result)
    return kept, rest


def run_catalogue(seasons: tuple[Planned, ...], source: str, out_dir: Path, settings: KitSettings,
                  jobs: int | None = None, on_start: Callable[[Planned], Any] = lambda p: None,
                  on_done: Callable[[SeasonResult], Any] = lambda r: None,
                  on_tick: Callable[[], Any] = lambda: None) -> list[SeasonResult]:
    """Build every season (at most `jobs` at once; default the cores), calling `on_start` and
    `on_done` as each starts and ends and `on_tick` every TICK_S while they build; the results in
    the order they ended. A season whose kit is current by its manifest is kept first, in this
    process (`kept_in_parent`); the others each get a process. Ctrl+C or SIGTERM
    (KeyboardInterrupt) stops every season's process at once and is raised again: the kits
    finished so far are whole and kept."""
    jobs = jobs or default_jobs()
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    from cardgen.staging import remove_stale_staging
    remove_stale_staging(out_dir)  # what an interrupted run's seasons left behind
    results, rest = kept_in_parent(seasons, source, out_dir, settings)
    by_plan = {(p.code, p.season): p for p in seasons}
    for kept in results:
        on_start(by_plan[(kept.code, kept.season)])
        on_done(kept)
    run_options = options.current()
    queue = deque(SeasonJob(p, source, out_dir, settings, run_options) for p in rest)
    if not queue:
        return results
    if jobs == 1 or "fork" not in multiprocessing.get_all_start_methods():
        for job in queue:  # in this process, one after another (no fork: Windows)
            on_start(job.planned)
            results.append(run_season(job))
            on_done(results[-1])
        return results
    preload()
    context = multiprocessing.get_context("fork")
    running: dict[Connection, tuple[Any, SeasonJob, float]] = {}
    try:
        while queue or running:
            while queue and len(running) < jobs:
                job = queue.popleft()
                receive, send = context.Pipe(duplex=False)
                process = context.Process(target=_child, args=(job, send), daemon=True)
                on_start(job.planned)
                with signals_deferred():
                    process.start()
                    send.close()  # the child's end: a child that dies unheard closes it (EOF here)
                    running[receive] = (process, job, time.perf_counter())
            ready_now = wait(list(running), timeout=TICK_S)
            on_tick()
            for ready in ready_now:
                conn = cast(Connection, ready)  # wait() returns the objects it was given
                process, job, started = running.pop(conn)
                try:
                    result: SeasonResult = conn.recv()
                except (EOFError, OSError):
                    process.join()
                    result = SeasonResult(job.planned.code, job.planned.season, "failed",
                                          seconds=time.perf_counter() - started,
                                          reason=_died(process.exitcode))
                conn.close()
                process.join()
                results.append(result)
                on_done(result)
    except BaseException:  # noqa: B036 - Ctrl+C, SIGTERM: stop every season now
        for process, _, _ in running.values():
            process.terminate()
        for process, _, _ in running.values():
            process.join()
        raise
    return results


def _died(exitcode: int | None) -> str:
    if exitcode is not None and exitcode < 0:
        name = signal.Signals(-exitcode).name if -exitcode in signal.Signals._value2member_map_ else str(-exitcode)
        advice = "; out of memory? run with fewer --jobs" if name == "SIGKILL" else ""
        return f"its process was killed ({name}){advice}"
    return f"its process ended without a result (exit code {exitcode})"
