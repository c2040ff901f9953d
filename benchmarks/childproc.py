"""Run one `python -m cardgen ...` process and measure it: the benchmarks' shared timer.

`measure(args, tree, env)` starts the command as a fresh process with `tree` first on PYTHONPATH
(and none of the caller's CARDGEN_* settings unless given), waits for it with wait4 and returns:

- wall seconds;
- CPU seconds (user + system) of the process and of the children it waited for (its workers);
- peak_mb: the largest resident set of any one of those processes (ru_maxrss);
- tree_rss_mb / tree_pss_mb: the largest total over the whole process tree (the process and its
  live workers), sampled every 50 ms from /proc. RSS counts pages that forked workers share with
  their parent once per process; PSS splits each shared page between its sharers, so its total
  is the memory the tree really holds. Both are None where /proc is missing.
"""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Iterator

REPO = Path(__file__).resolve().parent.parent
SAMPLE_S = 0.05  # often enough for a build of seconds, rarely enough to cost it nothing


@dataclass
class Measured:
    wall: float
    cpu: float
    peak_mb: float
    tree_rss_mb: float | None = None
    tree_pss_mb: float | None = None


def _children(pid: int) -> list[int]:
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    out: list[int] = []
    for task in tasks:
        with suppress(OSError):
            out += [int(x) for x in Path(f"/proc/{pid}/task/{task}/children").read_text().split()]
    return out


def _tree(pid: int) -> list[int]:
    pids, todo = [], [pid]
    while todo:
        p = todo.pop()
        pids.append(p)
        todo += _children(p)
    return pids


def _memory_kb(pid: int) -> tuple[int, int]:
    """(RSS, PSS) of one process in KiB; (0, 0) once it is gone."""
    rss = pss = 0
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Rss:"):
                rss = int(line.split()[1])
            elif line.startswith("Pss:"):
                pss = int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return rss, pss


class _TreeSampler(threading.Thread):
    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.stop = threading.Event()
        self.rss = self.pss = 0

    def run(self) -> None:
        while not self.stop.is_set():
            totals = [_memory_kb(p) for p in _tree(self.pid)]
            self.rss = max(self.rss, sum(r for r, _ in totals))
            self.pss = max(self.pss, sum(p for _, p in totals))
            self.stop.wait(SAMPLE_S)


def clean_env(tree: Path, **cardgen_env: str) -> dict[str, str]:
    """The environment for a cardgen process from `tree`: PYTHONPATH=tree, only the given CARDGEN_*."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARDGEN_")}
    env["PYTHONPATH"] = str(tree)
    env.update(cardgen_env)
    return env


def measure(args: list[str], tree: Path, env: dict[str, str]) -> Measured:
    """Run `python -m cardgen *args` in `tree`; SystemExit with its output if it fails."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "cardgen", *args], cwd=tree, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    sampler = _TreeSampler(proc.pid) if Path("/proc/self/smaps_rollup").exists() else None
    if sampler is not None:
        sampler.start()
    output = proc.stdout.read() if proc.stdout else b""
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if sampler is not None:
        sampler.stop.set()
        sampler.join()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"cardgen {' '.join(args)} in {tree} failed:\n{output.decode(errors='replace')}")
    # wait4's usage covers the process and the children it waited for; ru_maxrss is in KiB
    tree_rss = sampler.rss / 1024 if sampler is not None and sampler.rss else None
    tree_pss = sampler.pss / 1024 if sampler is not None and sampler.pss else None
    return Measured(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, tree_rss, tree_pss)


@contextmanager
def baseline_tree(rev: str, parent: Path) -> Iterator[Path]:
    """The project at git revision `rev`, checked out into a temporary worktree under `parent`
    (the benchmarks' fixed baseline, run in the same session as this tree); removed afterwards."""
    tree = parent / "baseline"
    subprocess.run(["git", "worktree", "add", "--detach", "-q", str(tree), rev], cwd=REPO, check=True)
    try:
        yield tree
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=REPO)


def write_marked_block(doc: Path, begin: str, end: str, lines: list[str], command: str) -> None:
    """A benchmark's figures into `doc` between its `begin` / `end` markers (at the end of the
    page the first time), so the page quotes only what the benchmark printed."""
    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root))
    from cardgen.cache import atomic_write_text
    text = doc.read_text(encoding="utf-8")
    block = "\n".join([begin, f"Measured with `{command}`:", "", *lines, end])
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        text = head + block + rest.split(end, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    atomic_write_text(doc, text)
