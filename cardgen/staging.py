"""Staging folders: where a kit or a site is assembled before it is renamed into place.

A staging folder is named `.<final>.<kind>-<pid>-<random>` beside its final folder and holds a
marker file, so a run that was killed (SIGKILL, power cut) leaves a folder that the next run
recognises and removes: one with the marker whose process is gone. A live run's folder, a
concurrent build's for example, is never touched, and neither is any folder cardgen did not make
(a user's `.notes.old-1234` has no marker). A killed run that had already moved the previous
kit aside is undone: the kit goes back to its place.

`publish_folder` puts a finished folder in place of the old one with renames, keeping every file
of the old folder that cardgen did not write.
"""
from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from collections.abc import Callable, Iterator

from cardgen.errors import CardgenError

KINDS = ("build", "new", "old")
_STAGING = re.compile(r"^\.(?P<final>.+)\.(?P<kind>build|new|old)-(?P<pid>\d+)-[^/]*$")
MARKER = ".cardgen-staging"
_MARKER_TEXT = b"a cardgen run's staging folder; removed by the next run once that run has ended\n"
# threads unlinking a finished kit's files at once: an unlink waits on the disk (with online
# discard, ~3 ms a file once the file is on disk: a kit of 300 files took 1 s one by one, 0.1 s so)
_REMOVERS = 16


class FolderInUse(CardgenError):
    """The place for a kit holds something cardgen did not make, which a new kit would replace."""


def make_staging(parent: Path, final_name: str, kind: str) -> Path:
    """A new private staging folder in `parent` for the folder `final_name`."""
    if kind not in KINDS:
        raise ValueError(kind)
    folder = Path(tempfile.mkdtemp(dir=parent, prefix=f".{final_name}.{kind}-{os.getpid()}-"))
    (folder / MARKER).write_bytes(_MARKER_TEXT)
    return folder


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
    for child in sorted(parent.iterdir()):
        if not child.name.startswith(".") or child.is_symlink() or not child.is_dir():
            continue
        match = _STAGING.match(child.name)
        if match and (child / MARKER).is_file() and not _alive(int(match["pid"])):
            stale.append(child)
    return stale


def remove_stale_staging(parent: Path) -> list[Path]:
    """Remove what `stale_staging` finds; returns the folders removed. A previous kit that a
    killed run had moved aside (and not yet replaced) is first put back in its place."""
    removed = []
    for folder in stale_staging(parent):
        match = _STAGING.match(folder.name)
        if match is None:   # (stale_staging lists only folders the pattern names)
            continue
        aside, final = folder / match["final"], parent / match["final"]
        if match["kind"] == "old" and aside.exists() and not os.path.lexists(final):
            try:
                os.replace(aside, final)
            except OSError:
                continue  # cannot put it back: leave everything as it is
        remove_tree(folder)
        if not folder.exists():
            removed.append(folder)
    return removed


def relative_files(folder: Path) -> list[str]:
    """Every file (and symlink) under `folder`, as sorted relative POSIX paths."""
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*")
                  if p.is_file() or p.is_symlink())


def _carry(source: Path, target: Path) -> None:
    """`source` into `target` (a hard link where the file system allows, else a copy), so the
    old folder keeps its file until the swap: an interrupted run loses nothing."""
    target.parent.mkdir(parents=True, exist_ok=True)
    if source.is_symlink():
        os.symlink(os.readlink(source), target)
        return
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def publish_folder(new: Path, final: Path, ours: Callable[[str], bool] = lambda rel: True) -> list[str]:
    """Put the finished folder `new` at `final` (renames: readers see the old or the new folder,
    never half of one) and return the relative paths of the old files it kept.

    `ours(relative path)` says whether cardgen wrote a file of the old folder (it is replaced or
    dropped); every other file is carried into the new folder. If the new folder has a file of
    the same name as one cardgen did not write, or `final` is not a folder, FolderInUse is raised
    before anything changes. If the last rename fails, the old folder goes back in its place."""
    (new / MARKER).unlink(missing_ok=True)  # the site is built in the staging folder itself
    kept: list[str] = []
    if os.path.lexists(final):
        if final.is_symlink() or not final.is_dir():
            raise FolderInUse(f"{final} is a file, not a cardgen folder; move it away or choose "
                              f"another output folder")
        theirs = [rel for rel in relative_files(final) if not ours(rel)]
        clash = [rel for rel in theirs if os.path.lexists(new / rel)]
        if clash:
            raise FolderInUse(f"{final} holds {clash[0]}, which cardgen did not write and would "
                              f"replace; move it away or choose another output folder")
        for rel in theirs:
            _carry(final / rel, new / rel)
        kept = theirs
    old = None
    if os.path.lexists(final):
        old = make_staging(final.parent, final.name, "old")
        os.replace(final, old / final.name)
    try:
        os.replace(new, final)
    except BaseException:  # noqa: B036 - Ctrl+C or SIGTERM between the renames: undo the first
        if old is not None and not os.path.lexists(final):
            os.replace(old / final.name, final)
        raise
    if old is not None:
        remove_tree(old)
    return kept


def remove_tree(folder: Path) -> None:
    """`shutil.rmtree(folder, ignore_errors=True)`, with the files unlinked by several threads
    first (a symlink is unlinked, never followed)."""
    files: list[str] = []
    if not os.path.islink(folder):
        for root, dirs, names in os.walk(folder):  # lists symlinks to folders, never enters them
            files += [os.path.join(root, name) for name in names]
            files += [os.path.join(root, d) for d in dirs if os.path.islink(os.path.join(root, d))]
    if len(files) > 1:
        with ThreadPoolExecutor(min(_REMOVERS, len(files))) as pool:
            list(pool.map(_unlink_quietly, files))
    shutil.rmtree(folder, ignore_errors=True)


def _unlink_quietly(path: str) -> None:
    with contextlib.suppress(OSError):  # as rmtree(ignore_errors=True): what cannot be removed stays
        os.unlink(path)


def quiet_worker() -> None:
    """Initializer of pool workers: the parent handles Ctrl+C and SIGTERM and stops its workers.

    Workers forked from the CLI would otherwise inherit its SIGTERM handler and linger.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # forked inside `signals_deferred`, the worker starts with both blocked: one sent meanwhile
    # is delivered now, with the default action
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})


@contextlib.contextmanager
def signals_deferred(signums: tuple[int, ...] = (signal.SIGINT, signal.SIGTERM)) -> Iterator[None]:
    """Ctrl+C and SIGTERM that arrive inside the block are noted and raised again as it ends.

    A fork runs Python at-fork hooks (logging's lock release); a handler that raises inside one is
    swallowed there ("Exception ignored in ... _releaseLock") and the run would go on. So within
    the block the handler only notes the signal (another thread may take it from the kernel and
    the main thread still runs the handler), and the signals are blocked: a child forked here
    starts with them blocked, so one sent before it has set its own handling waits, pending,
    until `quiet_worker` sets the default and unblocks them (a Python handler would lose it in
    the child's after-fork reset, and a pool's terminate() would hang on a worker that lives on).
    """
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread handles signals
        return
    noted: list[int] = []
    previous = {signum: signal.signal(signum, lambda number, frame: noted.append(number))
                for signum in signums}
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, signums)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # a signal held by the mask is noted now
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        for signum in dict.fromkeys(noted):
            signal.raise_signal(signum)  # the handler now in place (the CLI's raises)


def stop_workers(pool: object) -> None:
    """Stop a ProcessPoolExecutor's workers now (after a failure or an interrupt)."""
    processes = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        with contextlib.suppress(OSError, AttributeError):
            process.terminate()
