"""One round's card solves spread over worker processes.

Every card of a round is solved against the same league model and on its own (`solve.
continuous_card`, `solve.exact_card`), so the round can be shared out: `solving_in(jobs)` forks
jobs - 1 workers for the length of a calibration, and `solve_all` hands each a share of the
cards (every jobs-th card, so the costly out-of-reach solves spread evenly), solves the
parent's share itself and puts the results back in order. A solve is a pure function of its
target and model, and the workers run the very same code on the very same numbers (pickling
floats is exact), so the cards are byte for byte those of one process.

Workers are forked: where there is no fork (Windows), inside a daemon process (which may not
have children) or for one job, everything is solved in this process. A round of fewer than
MIN_PARALLEL cards is solved here too: shipping it would cost more than it saves.
"""
from __future__ import annotations

import contextvars
import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from multiprocessing.pool import Pool

import numpy as np

from cardgen.calibrate.expect import LeagueModel
from cardgen.calibrate.solve import Target
from cardgen.staging import quiet_worker, signals_deferred

MIN_PARALLEL = 16

Solve = Callable[[Target, LeagueModel], np.ndarray]

_POOL: contextvars.ContextVar[tuple[Pool, int] | None] = contextvars.ContextVar(
    "cardgen_calibrate_pool", default=None)
# who hears of each round's solves (a progress bar: `calibrate.progress`), if anyone
_ON_SOLVED: contextvars.ContextVar[Callable[[int], object] | None] = contextvars.ContextVar(
    "cardgen_calibrate_on_solved", default=None)


def _can_fork() -> bool:
    return ("fork" in multiprocessing.get_all_start_methods()
            and not multiprocessing.current_process().daemon)


@contextmanager
def solving_in(jobs: int) -> Iterator[int]:
    """Solve rounds in `jobs` processes (this one and jobs - 1 forked workers) within the block;
    yields the number actually used. Nested blocks use the outer one's workers."""
    outer = _POOL.get()
    if outer is not None or jobs <= 1 or not _can_fork():
        yield 1 if outer is None else outer[1]
        return
    with signals_deferred():  # a signal inside a fork would be swallowed there
        pool = multiprocessing.get_context("fork").Pool(jobs - 1, initializer=quiet_worker)
    token = _POOL.set((pool, jobs))
    try:
        yield jobs
    finally:
        _POOL.reset(token)
        pool.terminate()
        pool.join()


@contextmanager
def reporting_to(on_solved: Callable[[int], object]) -> Iterator[None]:
    """Within the block, `on_solved(n)` is called after every round of `n` card solves."""
    token = _ON_SOLVED.set(on_solved)
    try:
        yield
    finally:
        _ON_SOLVED.reset(token)


def _solve_share(solve: Solve, targets: Sequence[Target], model: LeagueModel) -> list[np.ndarray]:
    return [solve(t, model) for t in targets]


def solve_all(solve: Solve, targets: Sequence[Target], model: LeagueModel) -> list[np.ndarray]:
    """`[solve(t, model) for t in targets]`, shared out over the block's workers if any."""
    solved = _solve_round(solve, targets, model)
    on_solved = _ON_SOLVED.get()
    if on_solved is not None:
        on_solved(len(targets))
    return solved


def _solve_round(solve: Solve, targets: Sequence[Target], model: LeagueModel) -> list[np.ndarray]:
    running = _POOL.get()
    if running is None or len(targets) < MIN_PARALLEL:
        return _solve_share(solve, targets, model)
    pool, jobs = running
    shares = [list(targets[j::jobs]) for j in range(jobs)]
    pending = [pool.apply_async(_solve_share, (solve, share, model)) for share in shares[1:]]
    solved = [_solve_share(solve, shares[0], model)] + [p.get() for p in pending]
    out: list[np.ndarray] = [np.empty(0)] * len(targets)
    for j, share in enumerate(solved):
        out[j::jobs] = share
    return out
