"""cardgen/calibrate/parallel.py: a round's solves shared over forked workers give the very
cards one process gives, in the same order."""
from __future__ import annotations

import multiprocessing
import os

import numpy as np
import pytest

from cardgen.calibrate import parallel
from cardgen.calibrate.calibrate import _start
from cardgen.calibrate.fielding import plan_counts
from cardgen.calibrate.solve import continuous_card, exact_card

pytestmark = pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(),
                                reason="workers are forked")


def _pid(target, model) -> np.ndarray:
    return np.array([os.getpid()])


@pytest.fixture(scope="module")
def bbl_round(bbl_stats):
    """BBL 2024-25's fits and league model after a printed-rules pass's continuous rounds."""
    start = _start(bbl_stats, plan_counts(bbl_stats.league))
    return [f.target for f in start.strikers + start.bowlers], start.model


def test_shared_solves_are_the_serial_ones(bbl_round) -> None:
    targets, model = bbl_round
    serial = {solve: [solve(t, model) for t in targets] for solve in (continuous_card, exact_card)}
    with parallel.solving_in(2) as jobs:
        assert jobs == 2
        pids = {int(p[0]) for p in parallel.solve_all(_pid, targets, model)}
        shared = {solve: parallel.solve_all(solve, targets, model) for solve in serial}
    assert len(pids) == 2 and os.getpid() in pids  # this process and one worker each took a share
    for solve, cards in serial.items():
        assert len(shared[solve]) == len(cards)
        # bit for bit (the continuous cards are floats): the same code on the same numbers
        assert all(a.tobytes() == b.tobytes() for a, b in zip(cards, shared[solve])), solve.__name__


def test_one_job_a_small_round_and_no_block_solve_here(bbl_round) -> None:
    targets, model = bbl_round
    assert {int(p[0]) for p in parallel.solve_all(_pid, targets, model)} == {os.getpid()}
    with parallel.solving_in(1) as jobs:
        assert jobs == 1
        assert {int(p[0]) for p in parallel.solve_all(_pid, targets, model)} == {os.getpid()}
    with parallel.solving_in(2):
        few = targets[:parallel.MIN_PARALLEL - 1]
        assert {int(p[0]) for p in parallel.solve_all(_pid, few, model)} == {os.getpid()}
        with parallel.solving_in(3) as inner:  # a nested block keeps the outer block's workers
            assert inner == 2


def _jobs_in_daemon(queue) -> None:
    with parallel.solving_in(4) as jobs:  # a daemon process may not have children
        queue.put(jobs)


def test_a_daemon_process_solves_alone() -> None:
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    child = context.Process(target=_jobs_in_daemon, args=(queue,), daemon=True)
    child.start()
    assert queue.get(timeout=60) == 1
    child.join(60)
