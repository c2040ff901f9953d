"""benchmarks/bench_calibrate.py's report and --write-docs (issue 36: docs/calibration.md
section 8 quotes only what the benchmark printed)."""
from __future__ import annotations

import argparse
import importlib.util
import sys
from types import ModuleType
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _bench() -> ModuleType:
    sys.path.insert(0, str(ROOT / "benchmarks"))  # its `childproc` import
    spec = importlib.util.spec_from_file_location("bench_calibrate", ROOT / "benchmarks" / "bench_calibrate.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _result(code: str, season: str, base_cpu: float, new_cpu: float) -> dict:
    kind = {"cards": 59, "main_within": 59, "rate_within": 56, "median_main_error": 0.0012,
            "median_rate_error": 0.0041}
    league = {"runs_per_ball": -0.0012, "wides_per_ball": 0.0, "no_balls_per_ball": 0.0026,
              "leg_byes_per_ball": 0.0128, "share_bowled": 0.004, "share_caught": 0.0,
              "share_lbw": -0.016, "share_run_out": -0.002, "share_stumped": 0.002}
    return {"code": code, "season": season, "base": {"cpu": base_cpu, "wall": 2 * base_cpu},
            "new": {"cpu": new_cpu, "wall": 2 * new_cpu}, "same": False, "cards": 238,
            "summary": {"striker": kind, "bowler": kind, "league": league}}


def test_report_states_the_ratio_the_target_and_the_load() -> None:
    bench = _bench()
    args = argparse.Namespace(jobs=1, repeat=2, baseline=bench.BASELINE_REV)
    lines = bench.report(args, [_result("BBL", "2024-25", 2.5, 3.5),
                                _result("HUNDRED", "2024", 2.0, 2.0)], "7", (3.0,), (4.0,))
    text = "\n".join(lines)
    assert "2.50 s -> 3.50 s (**1.40x**)" in text
    assert "2.00 s -> 2.00 s (**1.00x**)" in text
    assert "load average 3.0 before, 4.0 after" in text and "--jobs 1: one process" in text
    assert "| | BBL 2024-25 | HUNDRED 2024 |" in text and "| cards | 238 | 238 |" in text
    assert "7 commits have changed the calibration" in text
    # the bar: BBL 2024-25 at most 1.2x a10837f's CPU; 1.40x misses it
    assert "BBL 2024-25 at most 1.2x a10837f's CPU: 1.40x, missed." in text
    met = bench.report(args, [_result("BBL", "2024-25", 2.5, 2.9)], "7", (1.0,), (1.0,))
    assert met[-1].endswith("1.16x, met.")


def test_write_docs_replaces_only_its_block(tmp_path: Path) -> None:
    bench = _bench()
    doc = tmp_path / "calibration.md"
    doc.write_text(f"# Page\n\nbefore\n\n{bench.BEGIN}\nold figures\n{bench.END}\n\nafter\n",
                   encoding="utf-8")
    bench.write_docs(["new figures"], "python3 benchmarks/bench_calibrate.py --write-docs", doc)
    text = doc.read_text(encoding="utf-8")
    assert "old figures" not in text and "new figures" in text
    assert text.startswith("# Page\n\nbefore\n\n") and text.endswith(f"{bench.END}\n\nafter\n")
    assert text.count(bench.BEGIN) == 1 and "Measured with `python3 benchmarks/" in text
    bare = tmp_path / "bare.md"
    bare.write_text("# Page\n", encoding="utf-8")
    bench.write_docs(["figures"], "cmd", bare)  # no markers yet: the block goes at the end
    assert bare.read_text(encoding="utf-8") == f"# Page\n\n{bench.BEGIN}\nMeasured with `cmd`:\n\nfigures\n{bench.END}\n"


def test_the_page_has_the_block() -> None:
    text = (ROOT / "docs" / "calibration.md").read_text(encoding="utf-8")
    bench = _bench()
    section = text.split("## 8.", 1)[1].split("\n## ", 1)[0]
    assert bench.BEGIN in section and bench.END in section
