"""Benchmark: the full BBL 2024-25 printable kit, both papers (target: under 10 s on this machine).

    python3 benchmarks/bench_build.py [--source DIR] [--repeat N]

Prints the time of each stage (card set, kit with both papers and all images, PDFs alone), the
CPU time used (this process and the image workers) and the kit's page counts and file sizes.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import tempfile
import time
from pathlib import Path

import pypdf

from cardgen.competitions import get_competition
from cardgen.render.kit import KitOptions, build_kit

TARGET_S = 10.0


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(fn):  # type: ignore[no-untyped-def]
    wall, cpu = time.perf_counter(), cpu_seconds()
    result = fn()
    return result, time.perf_counter() - wall, cpu_seconds() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", default=os.environ.get("CARDGEN_SOURCE"),
                        help="Cricsheet mirror (default: the committed stats cache / cricsheet.org)")
    parser.add_argument("--repeat", type=int, default=3, help="kit builds to time (median reported)")
    args = parser.parse_args()
    from cardgen.calibrate.cardset import build_card_set

    comp = get_competition("BBL")
    card_set, card_set_s, cpu = timed(lambda: build_card_set(comp, "2024-25", args.source))
    print(f"card set (calibration)      {card_set_s:6.2f} s wall  {cpu:6.2f} s cpu  ({len(card_set['cards'])} cards)")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        kit_walls = []
        for _ in range(args.repeat):
            result, wall, cpu = timed(lambda: build_kit(card_set, out, KitOptions(progress=False)))
            kit_walls.append(wall)
            print(f"kit, both papers + images   {wall:6.2f} s wall  {cpu:6.2f} s cpu")
        _, wall, cpu = timed(lambda: build_kit(card_set, out / "pdf-only",
                                               KitOptions(progress=False, images=False)))
        print(f"kit, PDFs only              {wall:6.2f} s wall  {cpu:6.2f} s cpu")
        kit_s = statistics.median(kit_walls)
        folder = result.folder
        total = card_set_s + kit_s
        print(f"\nkit median {kit_s:.2f} s; card set + kit {total:.2f} s "
              f"(target < {TARGET_S:.0f} s): {'OK' if total < TARGET_S else 'SLOW'}")
        print(f"load average now: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores\n")
        for pdf in sorted(folder.glob("*.pdf")):
            pages = len(pypdf.PdfReader(pdf).pages)
            print(f"{pdf.name:22} {pages:3d} pages  {pdf.stat().st_size / 1024:8.1f} KiB")
        for sub in ("png", "tts"):
            files = list((folder / sub).glob("*.png"))
            size = sum(f.stat().st_size for f in files)
            print(f"{sub + '/':22} {len(files):3d} files  {size / 1024 / 1024:8.1f} MiB")
        print(f"{'card-set.json':22}            {(folder / 'card-set.json').stat().st_size / 1024:8.1f} KiB")


if __name__ == "__main__":
    main()
