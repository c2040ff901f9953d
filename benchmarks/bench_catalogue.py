"""Benchmark: `cardgen catalogue` over every season of a mirror (default: the nine of
../shared/data/cricsheet) against a shell loop of single `cardgen build` calls, in one run.

    python3 benchmarks/bench_catalogue.py [--source DIR] [--jobs N] [--write-docs]

Five runs, each a fresh process with its own CARDGEN_CACHE, on a copy of the mirror (so a
match file can be changed) and with CARDGEN_SHIPPED_SETS=0 (every season calibrates, the
bundled ones too: the cost of a catalogue nobody built before):

1. loop: `for each season: cardgen build -c CODE -s SEASON --source COPY`: what a user does
   today (a process, and one core, per season);
2. cold: `cardgen catalogue --source COPY --no-site` (the seasons in parallel);
3. warm: the same again, nothing changed (every kit kept);
4. one changed: a ball of one match file of the smallest season changed, then the same again
   (that season only is built);
5. site: `cardgen site` over the nine kits (what `catalogue` without --no-site adds to each run,
   the site generator's own cost: timed apart so the engine's figures are its own).

Prints wall and CPU seconds, the share of the cores each run kept busy (CPU / (wall x cores))
and the peak memory of the largest process of each, the ratios cold/loop, wall (target <= 0.5)
and CPU, the floor of the cold run's wall (its CPU spread over every core) against the loop's
wall, the warm run (target <= 10 s) and what each catalogue run said of each season. A single
`cardgen build` calibrates over the cores too (`calibrate_jobs`), so the loop is partly
parallel itself: on two cores, a catalogue can beat its wall by no more than its CPU ratio and
the loop's idle share. The machine is shared: run it with `nice`, and read the load averages.
`--write-docs` puts the table into docs/catalogue.md between its markers.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from childproc import Measured, clean_env, write_marked_block

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SOURCE = ROOT.parent / "shared" / "data" / "cricsheet"
COLD_TARGET = 0.5
WARM_TARGET_S = 10.0
SEASON_LINE = re.compile(r"^(?:\[\d+/\d+\] )?(?P<state>built|kept|failed)\s+(?P<label>\S+ \S+):", re.M)
DOC = ROOT / "docs" / "catalogue.md"
BEGIN = "<!-- bench_catalogue: begin (written by benchmarks/bench_catalogue.py --write-docs) -->"
END = "<!-- bench_catalogue: end -->"


def seasons(source: Path, env: dict[str, str]) -> list[tuple[str, str]]:
    """(code, season) of every season `cardgen competitions --source` offers to build."""
    out = subprocess.run([sys.executable, "-m", "cardgen", "competitions", "--source", str(source)],
                         cwd=ROOT, env=env, capture_output=True, text=True, check=True).stdout
    return re.findall(r"cardgen build -c (\S+) -s (\S+) --source", out)


def measure_shell(script: str, env: dict[str, str]) -> Measured:
    """`sh -c script`: wall, CPU of every process it ran (wait4 counts the reaped descendants)
    and the largest of their peak resident sets."""
    start = time.perf_counter()
    proc = subprocess.Popen(["sh", "-c", script], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    err = proc.stderr.read() if proc.stderr else b""
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"the loop failed:\n{err.decode(errors='replace')[-2000:]}")
    return Measured(time.perf_counter() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)


def catalogue(source: Path, out: Path, env: dict[str, str], jobs: int | None) -> tuple[Measured, dict[str, str]]:
    """A catalogue run, and what it said of each season (built / kept / failed)."""
    log = out.parent / f"{out.name}-{time.monotonic_ns()}.log"
    args = ["catalogue", "--source", str(source), "--out", str(out), "--no-site"]
    args += ["--jobs", str(jobs)] if jobs else []
    measured = measure_shell(f"exec {sys.executable} -m cardgen {' '.join(args)} > {log} 2>&1", env)
    states = {m["label"]: m["state"] for m in SEASON_LINE.finditer(log.read_text(encoding="utf-8"))}
    return measured, states


def change_one_ball(folder: Path) -> Path:
    """The first ball of the first match file in `folder`: a four where it was not, else a one."""
    path = sorted(folder.glob("*.json"))[0]
    doc = json.loads(path.read_text(encoding="utf-8"))
    ball = doc["innings"][0]["overs"][0]["deliveries"][0]
    ball["runs"]["batter"] = 1 if ball["runs"]["batter"] == 4 else 4
    ball["runs"]["total"] = ball["runs"]["batter"] + ball["runs"].get("extras", 0)
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", default=str(DEFAULT_SOURCE), help="Cricsheet mirror folder")
    ap.add_argument("--jobs", type=int, default=None, help="catalogue --jobs (default: the cores)")
    ap.add_argument("--write-docs", action="store_true", help="write the table into docs/catalogue.md")
    args = ap.parse_args()
    load_before = os.getloadavg()
    tmp = Path(tempfile.mkdtemp(prefix="bench-catalogue-"))
    try:
        mirror = tmp / "cricsheet"
        shutil.copytree(args.source, mirror)
        players = Path(args.source).parent / "players"
        if players.is_dir():  # the players folder sits beside the mirror: the copy's too
            os.symlink(players, tmp / "players")
        env_of = lambda name: clean_env(ROOT, CARDGEN_CACHE=str(tmp / f"cache-{name}"),  # noqa: E731
                                        CARDGEN_SHIPPED_SETS="0")
        found = seasons(mirror, env_of("list"))
        loop = "".join(f"{sys.executable} -m cardgen build -c {code} -s {season} --source {mirror} "
                       f"--out {tmp / 'out-loop'} || exit 1\n" for code, season in found)
        runs: dict[str, Measured] = {}
        said: dict[str, dict[str, str]] = {}
        runs["loop"] = measure_shell(loop, env_of("loop"))
        runs["cold"], said["cold"] = catalogue(mirror, tmp / "out-cat", env_of("cat"), args.jobs)
        runs["warm"], said["warm"] = catalogue(mirror, tmp / "out-cat", env_of("cat"), args.jobs)
        smallest = min(found, key=lambda cs: len(list((mirror / _folder(mirror, *cs)).glob("*.json"))))
        change_one_ball(mirror / _folder(mirror, *smallest))
        runs["changed"], said["changed"] = catalogue(mirror, tmp / "out-cat", env_of("cat"), args.jobs)
        runs["site"] = measure_shell(f"exec {sys.executable} -m cardgen site --out {tmp / 'out-cat'} "
                                     f"> /dev/null", env_of("cat"))
        load_after = os.getloadavg()
        lines = report(runs, said, found, smallest, args.source, load_before, load_after)
        print("\n".join(lines))
        if args.write_docs:
            write_docs(lines, "nice -n 10 python3 benchmarks/bench_catalogue.py --write-docs"
                       + (f" --jobs {args.jobs}" if args.jobs else ""))
        rebuilt = [k for k, v in said["changed"].items() if v == "built"]
        return 0 if rebuilt == [" ".join(smallest)] else 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def report(runs: dict[str, Measured], said: dict[str, dict[str, str]], found: list[tuple[str, str]],
           smallest: tuple[str, str], source: str, load_before: tuple[float, ...],
           load_after: tuple[float, ...]) -> list[str]:
    """The figures, as lines of Markdown (the docs' block) that read as plain text too."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    lines = [f"{len(found)} seasons of `{Path(source).name}` (every one calibrated: CARDGEN_SHIPPED_SETS=0), "
             f"full kits (both papers, images); {cores} cores; load average {load_before[0]:.1f} before, "
             f"{load_after[0]:.1f} after.", "",
             "| run | wall | CPU | cores kept busy | largest process |", "|---|---:|---:|---:|---:|"]
    labels = {"loop": f"shell loop of {len(found)} `cardgen build`",
              "cold": "`catalogue --no-site`, cold", "warm": "`catalogue --no-site`, nothing changed",
              "changed": f"`catalogue --no-site`, one ball of {' '.join(smallest)} changed",
              "site": f"`cardgen site`, the {len(found)} kits, whole"}
    for key, label in labels.items():
        m = runs[key]
        lines.append(f"| {label} | {m.wall:.1f} s | {m.cpu:.1f} s | {m.cpu / (m.wall * cores):.0%} | "
                     f"{m.peak_mb:.0f} MB |")
    loop, cold, warm = runs["loop"], runs["cold"], runs["warm"]
    ratio = cold.wall / loop.wall
    floor = cold.cpu / cores
    lines += ["",
              f"- cold catalogue / loop, wall: **{ratio:.2f}x** (target <= {COLD_TARGET}x: "
              f"{'met' if ratio <= COLD_TARGET else 'missed'}); CPU: {cold.cpu / loop.cpu:.2f}x.",
              f"- the floor of the cold run's wall, its {cold.cpu:.1f} s of CPU over every one of the "
              f"{cores} cores: {floor:.1f} s, {floor / loop.wall:.2f}x the loop's wall; the loop kept "
              f"{loop.cpu / (loop.wall * cores):.0%} of the cores busy (a single build calibrates over "
              f"{min(cores, 2)} cores), so on these cores no catalogue gets below "
              f"{floor / loop.wall:.2f}x of this loop.",
              f"- nothing changed: **{warm.wall:.1f} s** of wall, {warm.cpu:.1f} s of CPU (target <= "
              f"{WARM_TARGET_S:.0f} s: {'met' if warm.wall <= WARM_TARGET_S else 'missed'})."]
    for key in ("cold", "warm", "changed"):
        counts = {s: sum(v == s for v in said[key].values()) for s in ("built", "kept", "failed")}
        lines.append(f"- {key}: " + ", ".join(f"{n} {s}" for s, n in counts.items())
                     + (f" (built: {', '.join(k for k, v in said[key].items() if v == 'built') or 'none'})"
                        if key == "changed" else "") + ".")
    return lines


def write_docs(lines: list[str], command: str) -> None:
    """The figures into docs/catalogue.md between its bench_catalogue markers (added at the end
    of the page the first time), so the page quotes only what this benchmark printed."""
    write_marked_block(DOC, BEGIN, END, lines, command)
    print(f"wrote the figures into {DOC.relative_to(ROOT)}")


def _folder(mirror: Path, code: str, season: str) -> str:
    """The mirror folder a season's files are in (its per-season folder, `<folder>_<season>`)."""
    sys.path.insert(0, str(ROOT))
    from cardgen.competitions import get_competition
    return f"{get_competition(code).mirror_folder}_{season}"


if __name__ == "__main__":
    sys.exit(main())
