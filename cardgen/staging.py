"""Staging folders: where a kit or a site is assembled before it is renamed into place.

A staging folder is named `.<final>.<kind>-<pid>-<random>` beside its final folder, so a run that
was killed (SIGKILL, power cut) leaves a folder that the next run recognises and removes: one
whose process is gone. A live run's folder, a concurrent build's for example, is never touched.
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import tempfile
import time
from pathlib import Path

KINDS = ("build", "new", "old")
_STAGING = re.compile(r"^\.(?P<final>.+)\.(?P<kind>build|new|old)-(?P<pid>\d+)-[^/]*$")
# before staging names carried the pid (".BBL_2024-25.build-abc", ".site.new.abc",
# ".BBL_2024-25.old-123", ".site.old.abc"): removed once they are clearly abandoned
_LEGACY = re.compile(r"^\..+(\.build-[^-]+|\.(new|old)\.[^.]+|\.old-\d+)$")
LEGACY_AGE = 6 * 3600  # s: no build or site takes this long


def make_staging(parent: Path, final_name: str, kind: str) -> Path:
    """A new private staging folder in `parent` for the folder `final_name`."""
    if kind not in KINDS:
        raise ValueError(kind)
    return Path(tempfile.mkdtemp(dir=parent, prefix=f".{final_name}.{kind}-{os.getpid()}-"))


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # another user's process, or cannot tell: leave it alone
    return True


def stale_staging(parent: Path) -> list[Path]:
    """Staging folders in `parent` left behind by runs that are no longer running."""
    if not parent.is_dir():
        return []
    stale = []
    now = time.time()
    for child in sorted(parent.iterdir()):
        if not child.name.startswith(".") or child.is_symlink() or not child.is_dir():
            continue
        match = _STAGING.match(child.name)
        if match:
            if not _alive(int(match["pid"])):
                stale.append(child)
        elif _LEGACY.match(child.name):
            try:
                if now - child.stat().st_mtime > LEGACY_AGE:
                    stale.append(child)
            except OSError:
                pass
    return stale


def remove_stale_staging(parent: Path) -> list[Path]:
    """Remove what `stale_staging` finds; returns the folders removed."""
    removed = []
    for folder in stale_staging(parent):
        shutil.rmtree(folder, ignore_errors=True)
        if not folder.exists():
            removed.append(folder)
    return removed


def quiet_worker() -> None:
    """Initializer of pool workers: the parent handles Ctrl+C and SIGTERM and stops its workers.

    Workers forked from the CLI would otherwise inherit its SIGTERM handler and linger.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def stop_workers(pool: object) -> None:
    """Stop a ProcessPoolExecutor's workers now (after a failure or an interrupt)."""
    processes = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        try:
            process.terminate()
        except (OSError, AttributeError):
            pass
