"""cardgen/options.py: one command's switches as one value, ending with the command."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen import options
from cardgen.cli import main
from cardgen.options import RunOptions, current, running_with
from cardgen.sources.fetch import strict


def test_the_defaults_and_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(options.STRICT_ENV, raising=False)
    monkeypatch.delenv(options.ENGINE_ENV, raising=False)
    assert current() == RunOptions() and not strict() and current().engine_choice == ""
    monkeypatch.setenv(options.STRICT_ENV, "yes")
    monkeypatch.setenv(options.ENGINE_ENV, " NumPy ")
    assert strict() and current().engine_choice == "numpy"
    with running_with(RunOptions(strict=False, engine="numba")):  # the command's own choice first
        assert not strict() and current().engine_choice == "numba"
    monkeypatch.setenv(options.STRICT_ENV, "0")
    assert not strict()


def test_options_end_with_their_block_and_nest() -> None:
    with running_with(RunOptions(refresh=True, names={"1": "A"})):
        assert current().refresh
        with running_with(RunOptions(strict=True)):
            assert current().strict and not current().refresh
        assert current().names == {"1": "A"}
        options.update(strict=True)
        assert current().strict and current().refresh
    assert current() == RunOptions()


def test_a_commands_switches_end_with_it(tmp_path: Path) -> None:
    """--strict, --names and --refresh hold for one command: nothing resets them afterwards, and
    the next caller of main (or the next test) starts from the defaults."""
    names = tmp_path / "names.csv"
    names.write_text("id,name\nabc,Someone\n", encoding="utf-8")
    seen: list[RunOptions] = []

    def spy(competition: str) -> None:
        seen.append(current())
        raise SystemExit(5)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("cardgen.cli.get_competition", spy)
        result = CliRunner().invoke(main, ["validate", "-c", "BBL", "-s", "2024-25", "--strict", "--refresh",
                                           "--names", str(names), "--out", str(tmp_path)])
    assert result.exit_code == 5, result.output
    assert [(o.strict, o.refresh, dict(o.names)) for o in seen] == [(True, True, {"abc": "Someone"})]
    assert current() == RunOptions()


def _workers_in_child(queue) -> None:
    queue.put(current().calibrate_workers)


def test_calibrate_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    """The processes a calibration may use: the option, else $CARDGEN_CALIBRATE_JOBS, else the
    cores (at most MAX_DEFAULT_CALIBRATE_JOBS), and 1 in a worker of a parallel run."""
    import multiprocessing
    import os
    monkeypatch.delenv(options.CALIBRATE_JOBS_ENV, raising=False)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert current().calibrate_workers == max(min(cores, options.MAX_DEFAULT_CALIBRATE_JOBS), 1)
    monkeypatch.setenv(options.CALIBRATE_JOBS_ENV, "3")
    assert current().calibrate_workers == 3
    with running_with(RunOptions(calibrate_jobs=0)):  # the option wins; at least one
        assert current().calibrate_workers == 1
    monkeypatch.setenv(options.CALIBRATE_JOBS_ENV, "many")  # not a number: ignored
    assert current().calibrate_workers >= 1
    if "fork" in multiprocessing.get_all_start_methods():
        monkeypatch.delenv(options.CALIBRATE_JOBS_ENV)
        context = multiprocessing.get_context("fork")
        queue = context.Queue()
        child = context.Process(target=_workers_in_child, args=(queue,))
        child.start()
        assert queue.get(timeout=60) == 1  # build --all's seasons are its parallel work
        child.join(60)
