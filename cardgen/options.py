"""The switches one command runs under, as one value: `--strict`, `--names`, `--refresh`, the
simulation engine and the processes a calibration may use.

Layer: the bottom, beside `cache` and `errors` (sources, stats, calibrate and sim read it). The
CLI makes one `RunOptions` per command (`command_options`) and its option callbacks fill it in;
the layers below ask `current()`. It lives in a context variable, not a module global: it ends
with the command (a caller of `main`, the next test, starts from the defaults without any
cleanup), and code run outside a command (a test, a library caller) can set its own with
`running_with`.
"""
from __future__ import annotations

import contextvars
import dataclasses
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

STRICT_ENV = "CARDGEN_STRICT"
ENGINE_ENV = "CARDGEN_ENGINE"   # "numpy": never compiled; "numba": from the first ball
ENGINES = ("numpy", "numba")
CALIBRATE_JOBS_ENV = "CARDGEN_CALIBRATE_JOBS"
# A calibration spreads its card solves over at most this many processes by default: the solves
# of one round are independent, so two processes take ~0.55x the wall time of one; more pay less
# (each round waits for its slowest share), and the machine may be running other work.
MAX_DEFAULT_CALIBRATE_JOBS = 4


@dataclass(frozen=True)
class RunOptions:
    """What a command was asked to do differently from the defaults."""

    strict: bool | None = None  # --strict: an unreadable match file stops the run (None: $CARDGEN_STRICT)
    names: Mapping[str, str] = field(default_factory=dict)  # --names: register id -> printed name
    names_file: Path | None = None  # the file `names` was read from (for the messages)
    refresh: bool = False  # --refresh: the first read of each season rebuilds it from its source
    engine: str | None = None  # "numpy" | "numba" | None: $CARDGEN_ENGINE, else numpy then compiled
    # processes one season's calibration may use (None: $CARDGEN_CALIBRATE_JOBS, else the cores
    # up to MAX_DEFAULT_CALIBRATE_JOBS, or 1 in a worker process: `build --all` runs seasons in
    # parallel already). The cards are the same whatever it is (calibrate.parallel)
    calibrate_jobs: int | None = None
    # the seasons (and sources) this command has refreshed already: later reads use the fresh tables
    refreshed: set[str] = field(default_factory=set, compare=False, repr=False)

    @property
    def is_strict(self) -> bool:
        if self.strict is not None:
            return self.strict
        return os.environ.get(STRICT_ENV, "").strip().lower() not in ("", "0", "false", "no")

    @property
    def engine_choice(self) -> str:
        """"numpy", "numba" or "" (numpy until the kernel pays for its compile, then compiled)."""
        choice = self.engine if self.engine is not None else os.environ.get(ENGINE_ENV, "")
        return choice.strip().lower()

    @property
    def calibrate_workers(self) -> int:
        """Processes a calibration may use: `calibrate_jobs`, else $CARDGEN_CALIBRATE_JOBS (a
        whole number; anything else is ignored), else the default: 1 inside a worker process
        of a parallel run (seasons are its unit of parallel work), else the cores this process
        may run on, at most MAX_DEFAULT_CALIBRATE_JOBS."""
        if self.calibrate_jobs is not None:
            return max(int(self.calibrate_jobs), 1)
        text = os.environ.get(CALIBRATE_JOBS_ENV, "").strip()
        if text.isdigit():
            return max(int(text), 1)
        import multiprocessing
        if multiprocessing.parent_process() is not None:
            return 1
        try:
            cores = len(os.sched_getaffinity(0))
        except AttributeError:  # not on Linux
            cores = os.cpu_count() or 1
        return max(min(cores, MAX_DEFAULT_CALIBRATE_JOBS), 1)


_CURRENT: contextvars.ContextVar[RunOptions] = contextvars.ContextVar("cardgen_run_options",
                                                                      default=RunOptions())


def current() -> RunOptions:
    """The options of the command running now (the defaults outside one)."""
    return _CURRENT.get()


@contextmanager
def running_with(options: RunOptions) -> Iterator[RunOptions]:
    """Run the block under `options`; the previous ones are back after it."""
    token = _CURRENT.set(options)
    try:
        yield options
    finally:
        _CURRENT.reset(token)


@contextmanager
def command_options() -> Iterator[None]:
    """One command's options: fresh defaults, filled in by `update` as its options are parsed."""
    with running_with(RunOptions()):
        yield


def update(**changes: Any) -> RunOptions:
    """The running command's options with `changes` (the CLI's option callbacks call it)."""
    options = dataclasses.replace(current(), **changes)
    _CURRENT.set(options)
    return options
