"""SIGTERM is handled like Ctrl+C, and staging folders left by killed runs are removed by the next run.

The build runs as a real subprocess (`python -m cardgen build`, with its image workers) and is
sent SIGTERM / SIGKILL while it writes its staging folder.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cache import CACHE_ENV
from cardgen.cli import main
from cardgen.errors import EXIT_TERMINATED
from cardgen.sources.fetch import SOURCE_ENV
from cardgen.staging import make_staging, remove_stale_staging, stale_staging

ROOT = Path(__file__).resolve().parent.parent


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(x) for x in text.split()]


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")  # a zombie has stopped running; only its exit status is left


def _start_build(card_set: Path, out: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "cardgen", "build", "-c", "BBL", "-s", "2024-25", "--card-set", str(card_set),
         "--out", str(out), "--paper", "a4"],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)


def _wait_for_workers(proc: subprocess.Popen, out: Path, timeout: float = 60.0) -> list[int]:
    """Wait until the build has its staging folder and its image workers; their pids."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        workers = _children(proc.pid)
        if workers and list(out.glob(".BBL_2024-25.build-*/BBL_2024-25/card-set.json")):
            return workers
        time.sleep(0.05)
    proc.kill()
    pytest.fail("the build never started its workers")


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs /proc to see the workers")
def test_sigterm_during_build_removes_staging_and_stops_workers(card_set_file: Path, tmp_path: Path):
    out = tmp_path / "out"
    proc = _start_build(card_set_file, out)
    workers = _wait_for_workers(proc, out)
    proc.send_signal(signal.SIGTERM)
    try:
        _, stderr = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == EXIT_TERMINATED, stderr
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert "Traceback" not in stderr and lines[-1].startswith("Error: terminated (SIGTERM)"), stderr
    assert list(out.iterdir()) == []  # no staging folder, and no half kit
    time.sleep(0.5)
    assert not [pid for pid in workers if _running(pid)], "pool workers outlived the build"


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs /proc to see the workers")
def test_a_killed_builds_staging_is_removed_by_the_next_run(card_set_file: Path, tmp_path: Path):
    out = tmp_path / "out"
    proc = _start_build(card_set_file, out)
    workers = _wait_for_workers(proc, out)
    proc.kill()  # SIGKILL: nothing can clean up
    for pid in workers:  # the orphaned workers (they hold the pipes open): not ours to leave running
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.communicate(timeout=30)
    left = list(out.glob(".BBL_2024-25.build-*"))
    assert len(left) == 1  # what SIGKILL leaves behind
    result = CliRunner().invoke(main, ["build", "-c", "BBL", "-s", "2024-25", "--card-set",
                                       str(card_set_file), "--out", str(out), "--no-images", "--paper", "a4"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == ["BBL_2024-25"]


def test_only_staging_of_finished_processes_is_removed(tmp_path: Path):
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                                  capture_output=True, text=True, check=True)
        dead_pid = int(finished.stdout)
        dead = tmp_path / f".BBL_2024-25.build-{dead_pid}-abc"
        live = tmp_path / f".BBL_2024-25.build-{sleeper.pid}-def"  # a concurrent build
        mine = make_staging(tmp_path, "site", "new")
        old_legacy = tmp_path / ".site.new.x1y2"  # named before staging names carried the pid
        new_legacy = tmp_path / ".BBL_2024-25.build-q7r8"
        user = tmp_path / ".config"  # the user's own hidden folder
        for folder in (dead, live, old_legacy, new_legacy, user):
            folder.mkdir()
            (folder / "file").write_text("x")
        week_ago = time.time() - 7 * 24 * 3600
        os.utime(old_legacy, (week_ago, week_ago))
        os.utime(user, (week_ago, week_ago))
        assert stale_staging(tmp_path) == sorted([dead, old_legacy])
        assert sorted(remove_stale_staging(tmp_path)) == sorted([dead, old_legacy])
        assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
            [live.name, mine.name, new_legacy.name, user.name])
    finally:
        sleeper.kill()
        sleeper.wait()


def test_a_killed_site_refresh_is_cleaned_by_the_next(tmp_path: Path):
    from cardgen.site.generate import generate_site
    out = tmp_path / "out"
    out.mkdir()
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                              capture_output=True, text=True, check=True)
    stale = out / f".site.new-{int(finished.stdout)}-zz"
    (stale / "assets").mkdir(parents=True)
    generate_site(out)
    assert sorted(p.name for p in out.iterdir()) == ["site"]
