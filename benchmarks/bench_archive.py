"""Benchmark: reading BBL 2024-25 from a Cricsheet zip, with the read limits against without.

The zip is built from the mirror's files in a temporary folder, laid out as Cricsheet's
`bbl_male_json.zip` (flat <match_id>.json members, deflated). Both sides read it with
`cardgen.sources.fetch.from_folder` in this process, runs alternating: "limits" is the code as
it is (the directory checked against `ReadLimits`, each entry unpacked a chunk at a time and
held to the limits, loose files opened as regular files only); "baseline" is the same reader
with the zip members read as they were before the limits (`zf.read(name)`, issue 40). The
downloaded-zip check (`_valid_zip`: the limits, then every CRC) is timed the same way.
Target: the limits cost nothing measurable (ratio <= 1.05, this shared machine's noise).

Usage: python3 benchmarks/bench_archive.py [--runs 15] [--mirror DIR]
"""
from __future__ import annotations

import argparse
import io
import os
import shutil
import statistics
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from collections.abc import Callable, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardgen.competitions import get_competition  # noqa: E402
from cardgen.sources import fetch  # noqa: E402
from cardgen.sources.archive import ReadLimits  # noqa: E402

TARGET_RATIO = 1.05
BBL = get_competition("BBL")


def unbounded_members(path: Path, limits: ReadLimits) -> Iterator[tuple[str, str, bytes]]:
    """The mirror zip's members as read before the limits (the baseline), in the reader's shape:
    (match id, where, bytes)."""
    with zipfile.ZipFile(path) as zf:
        for name in zf.namelist():
            if name.endswith(".json"):
                yield fetch._match_id(name), f"{name} in {path}", zf.read(name)


def unbounded_valid(data: bytes, limits: ReadLimits) -> bool:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return zf.testzip() is None


def timed(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--mirror", default=str(ROOT.parent / "shared" / "data" / "cricsheet"))
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-archive-"))
    try:
        files = sorted((Path(args.mirror) / "bbl_2024-25").glob("*.json"))
        with zipfile.ZipFile(tmp / BBL.download_file, "w", zipfile.ZIP_DEFLATED) as zf:
            for path in files:
                zf.write(path, path.name)
        data = (tmp / BBL.download_file).read_bytes()
        unpacked = sum(p.stat().st_size for p in files)
        with zipfile.ZipFile(tmp / BBL.download_file) as zf:
            ratios = [i.file_size / i.compress_size for i in zf.infolist()]
        print(f"BBL 2024-25: {len(files)} match files, {unpacked / 1e6:.1f} MB unpacked, "
              f"zip {len(data) / 1e6:.2f} MB (entries compressed {min(ratios):.0f}-{max(ratios):.0f}:1, "
              f"the limit {ReadLimits().ratio:.0f}:1); {args.runs} runs each, alternating")
        limits = ReadLimits()
        bounded_members, bounded_valid = fetch._mirror_zip_members, fetch._valid_zip

        def read(members: Callable) -> Callable[[], object]:
            def run() -> object:
                fetch._mirror_zip_members = members
                try:
                    got = fetch.from_folder(tmp, BBL, "2024-25", limits)
                finally:
                    fetch._mirror_zip_members = bounded_members
                assert len(got) == len(files), len(got)
                return got
            return run

        cases = {"mirror zip read": (read(unbounded_members), read(bounded_members)),
                 "download check": (lambda: unbounded_valid(data, limits),
                                    lambda: bounded_valid(data, limits))}
        ok = True
        for label, (baseline, bounded) in cases.items():
            baseline(), bounded()  # warm: imports, the page cache
            times: dict[str, list[float]] = {"baseline": [], "limits": []}
            for _ in range(args.runs):
                times["baseline"].append(timed(baseline))
                times["limits"].append(timed(bounded))
            med = {k: statistics.median(v) for k, v in times.items()}
            best = {k: min(v) for k, v in times.items()}
            ratio = med["limits"] / med["baseline"]
            ok &= ratio <= TARGET_RATIO
            print(f"{label}: median {med['baseline'] * 1e3:.1f} ms baseline, {med['limits'] * 1e3:.1f} ms "
                  f"with the limits: ratio {ratio:.3f} (best of {args.runs}: "
                  f"{best['limits'] / best['baseline']:.3f}); target <= {TARGET_RATIO}")
        print(f"load average {os.getloadavg()[0]:.1f}")
        return 0 if ok else 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
