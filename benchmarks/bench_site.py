"""How long `cardgen site` takes for the real BBL 2024-25 kit (prints figures; not a test).

Builds the kit once into a temporary OUT folder with `cardgen build`, then times the site
generation (thumbnails, zip, pages) a few times.  Usage: python3 benchmarks/bench_site.py [--runs N]
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from click.testing import CliRunner

from cardgen.cli import main
from cardgen.site.generate import generate_site


def run(runs: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        mirror = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "cricsheet"
        args = ["build", "-c", "BBL", "-s", "2024-25", "--out", str(out)]
        if mirror.is_dir():
            args += ["--source", str(mirror)]
        started = time.perf_counter()
        result = CliRunner().invoke(main, args)
        if result.exit_code != 0:
            raise SystemExit(result.output)
        print(f"cardgen build BBL 2024-25: {time.perf_counter() - started:.1f} s")
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            report = generate_site(out)
            times.append(time.perf_counter() - started)
        size = sum(p.stat().st_size for p in report.site_dir.rglob("*") if p.is_file())
        print(f"cardgen site: {report.pages} pages, {report.files} files, {size / 2**20:.1f} MB "
              f"(counting the hard-linked kit files); median {statistics.median(times):.2f} s, "
              f"min {min(times):.2f} s over {runs} runs")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    run(parser.parse_args().runs)
