"""The catalogue site at 300 seasons (issue 36): render time, peak memory and size (prints figures).

Builds one real kit (BBL 2024-25) with `cardgen build`, renders its site cold (the cost of one
set's pages), then makes a synthetic catalogue of COMPETITIONS x SEASONS kits: the real kit's
files hard-linked under other labels, each with its own card-set.json (competition and season
changed). Their set pages are seeded from the real set's (hard links, with a record naming the
clone), as a site that rendered them before would hold them; then, each in a fresh process:

- warm: `site.generate` over every kit, nothing changed (every set carried; the home page, the
  competition pages, the search index and the how-to pages made from the records);
- one changed: one kit's card set rewritten, so that set alone is rendered again.

Targets (issue 36): <= 60 s and <= 500 MB at 300 seasons. A cold render of every set costs
the one-set time per set (printed as an estimate, not measured: 300 x ~16 s is over an hour).
Usage: python3 benchmarks/bench_catalogue_site.py [--competitions 30] [--seasons 10]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from click.testing import CliRunner

REPO = Path(__file__).resolve().parent.parent
MIRROR = REPO.parent / "shared" / "data" / "cricsheet"
REAL = "BBL_2024-25"

CHILD = """
import json, resource, sys, time
from pathlib import Path
from cardgen.site.generate import generate
kits = [Path(p) for p in json.loads(Path(sys.argv[1]).read_text())]
started = time.perf_counter()
report = generate(kits, Path(sys.argv[2]))
print(json.dumps({"seconds": time.perf_counter() - started, "rendered": len(report.rendered),
                  "carried": len(report.carried), "pages": report.pages, "files": report.files,
                  "search_bytes": report.search_bytes,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def _link_tree(src: Path, dst: Path) -> None:
    for path in sorted(src.rglob("*")):
        target = dst / path.relative_to(src)
        if path.is_dir():
            target.mkdir(parents=True, exist_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            os.link(path, target)


def _clone_kit(real: Path, out: Path, code: str, name: str, season: str) -> Path:
    folder = out / f"{code}_{season}"
    _link_tree(real, folder)
    card_set = json.loads((real / "card-set.json").read_text(encoding="utf-8"))
    card_set["competition"].update({"code": code, "name": name})
    card_set["season"] = season
    (folder / "card-set.json").unlink()
    (folder / "card-set.json").write_text(json.dumps(card_set), encoding="utf-8")
    return folder


def _seed_set(site: Path, real_record: dict, clone: Path) -> None:
    """The real set's pages under the clone's name, with a record saying they were rendered
    from the clone's kit (what a site that rendered the clone before holds)."""
    from cardgen.manifest import kit_fingerprint
    from cardgen.render.common import printed_season_of
    from cardgen.site import catalogue
    card_set = json.loads((clone / "card-set.json").read_text(encoding="utf-8"))
    comp = card_set["competition"]
    _link_tree(site / "sets" / REAL, site / "sets" / clone.name)
    title = f"{comp['name']} {printed_season_of(comp['code'], card_set['season'])}"
    text = json.dumps(real_record).replace(f"sets/{REAL}/", f"sets/{clone.name}/") \
        .replace(f"set-{REAL}", f"set-{clone.name}").replace(real_record["title"], title)
    record = json.loads(text)
    record.update({"name": clone.name, "title": title, "season_key": card_set["season"],
                   "season": printed_season_of(comp["code"], card_set["season"]),
                   "competition": {**record["competition"], "code": comp["code"], "name": comp["name"]},
                   "fingerprint": kit_fingerprint(clone)})
    path = site / "sets" / clone.name / catalogue.RECORD_FILE
    path.unlink()
    catalogue.write_record(path, record)


def _run(kits: list[Path], site: Path, tmp: Path) -> dict:
    listing = tmp / "kits.json"
    listing.write_text(json.dumps([str(k) for k in kits]))
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", CHILD, str(listing), str(site)], env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(done.stderr)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _size(site: Path) -> tuple[int, int]:
    """Bytes of the site's own files (written by the site), and of the kit files it links."""
    own = linked = 0
    seen: set[int] = set()
    for path in site.rglob("*"):
        if path.is_file():
            info = path.stat()
            if info.st_ino in seen:
                continue
            seen.add(info.st_ino)
            if "/files/" in path.as_posix() or "/downloads/" in path.as_posix():
                linked += info.st_size
            else:
                own += info.st_size
    return own, linked


def run(competitions: int, seasons: int) -> None:
    from cardgen.cli import main
    from cardgen.manifest import Manifest, write_manifest
    from cardgen.site import catalogue
    from cardgen.site.generate import generate
    from cardgen.staging import relative_files
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        out = tmp / "out"
        args = ["build", "-c", "BBL", "-s", "2024-25", "--out", str(out)]
        if MIRROR.is_dir():
            args += ["--source", str(MIRROR)]
        result = CliRunner().invoke(main, args)
        if result.exit_code != 0:
            raise SystemExit(result.output)
        real = out / REAL
        site = tmp / "site"
        started = time.perf_counter()
        generate([real], site)
        one_set = time.perf_counter() - started
        print(f"one set cold ({REAL}): {one_set:.1f} s")
        real_record = json.loads((site / "sets" / REAL / catalogue.RECORD_FILE).read_text(encoding="utf-8"))
        kits = [real]
        for c in range(competitions):
            code, name = f"L{c:02d}", f"League {c:02d}"
            for s in range(seasons):
                year = 2024 - s
                season = f"{year}-{(year + 1) % 100:02d}" if c % 2 else str(year)
                clone = _clone_kit(real, out, code, name, season)
                _seed_set(site, real_record, clone)
                kits.append(clone)
        written = [rel for rel in relative_files(site) if rel != ".cardgen-kit.json"]
        write_manifest(site, Manifest(kind="site", files=tuple(written), generator="bench"))
        total = len(kits)
        warm = _run(kits, site, tmp)
        print(f"{total} seasons, nothing changed: {warm['seconds']:.1f} s (target <= 60), peak "
              f"{warm['peak_mb']:.0f} MB (target <= 500); {warm['carried']} carried, {warm['rendered']} rendered")
        changed = kits[len(kits) // 2]
        card_set = json.loads((changed / "card-set.json").read_text(encoding="utf-8"))
        card_set["built"] = "changed"
        (changed / "card-set.json").write_text(json.dumps(card_set), encoding="utf-8")
        one = _run(kits, site, tmp)
        print(f"{total} seasons, one changed ({changed.name}): {one['seconds']:.1f} s, peak {one['peak_mb']:.0f} MB; "
              f"{one['rendered']} rendered, {one['carried']} carried")
        own, linked = _size(site)
        search = sorted((p.stat().st_size, p.name) for p in (site / catalogue.SEARCH_FOLDER).glob("*.js"))
        home = (site / "index.html").stat().st_size
        print(f"site: {own / 2**20:.0f} MB of its own files + {linked / 2**20:.0f} MB of kit files linked; "
              f"{one['files']} files; home page {home / 1024:.0f} KB; search index {one['search_bytes'] / 2**20:.2f} MB "
              f"in {len(search)} files, the largest {search[-1][1]} {search[-1][0] / 1024:.0f} KB")
        print(f"a cold render of all {total} sets (estimate, not measured): {total} x {one_set:.1f} s = "
              f"{total * one_set / 60:.0f} min")
        shutil.rmtree(site, ignore_errors=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--competitions", type=int, default=30)
    parser.add_argument("--seasons", type=int, default=10)
    ns = parser.parse_args()
    run(ns.competitions, ns.seasons)
