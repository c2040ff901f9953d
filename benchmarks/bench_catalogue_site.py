"""The catalogue site at 300 seasons (issue 36): render time, CPU, peak memory and size (prints figures).

Builds one real kit (BBL 2024-25) with `cardgen build`, renders its site cold (the cost of one
set's pages), then makes a synthetic catalogue of COMPETITIONS x SEASONS kits: the real kit's
files hard-linked under other labels, each with its own card-set.json (competition and season
changed). Their set pages are seeded from the real set's (hard links, with a record and a
manifest naming the clone), as a site that rendered them before would hold them; then, each in a
fresh process:

- warm: `site.generate` over every kit, nothing changed (every set carried; the home page, the
  competition pages, the search index and the how-to pages made from the records);
- one changed: one kit's card set rewritten, so that set alone is rendered again.

After each, what a gamer sees is checked (not timed): every set's pages are there, every file a
set page offers is the kit's own file (the same inode, or the same bytes), every link of the
pages above the sets (and of the set rendered again) resolves, and the search index finds a
player of each season at his page.

Targets (issue 36): <= 60 s and <= 500 MB at 300 seasons. A cold render of every set costs
the one-set time per set (printed as an estimate, not measured: 300 x ~16 s is over an hour).
CPU time is printed beside wall time: on a machine shared with other work the wall time says
how much of it this run was given. `--write-docs` puts the table into docs/catalogue.md.
Usage: python3 benchmarks/bench_catalogue_site.py [--competitions 30] [--seasons 10] [--write-docs]
"""
from __future__ import annotations

import argparse
import filecmp
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from click.testing import CliRunner

from childproc import write_marked_block

REPO = Path(__file__).resolve().parent.parent
MIRROR = REPO.parent / "shared" / "data" / "cricsheet"
REAL = "BBL_2024-25"

DOC = REPO / "docs" / "catalogue.md"
BEGIN = "<!-- bench_catalogue_site: begin (written by benchmarks/bench_catalogue_site.py --write-docs) -->"
END = "<!-- bench_catalogue_site: end -->"

CHILD = """
import json, resource, sys, time
from pathlib import Path
from cardgen.site.generate import generate
kits = [Path(p) for p in json.loads(Path(sys.argv[1]).read_text())]
started, cpu = time.perf_counter(), time.process_time()
report = generate(kits, Path(sys.argv[2]))
print(json.dumps({"seconds": time.perf_counter() - started, "cpu": time.process_time() - cpu,
                  "rendered": len(report.rendered), "carried": len(report.carried), "pages": report.pages,
                  "files": report.files, "search_bytes": report.search_bytes,
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
    from the clone's kit (what a site that rendered the clone before holds); the clone's own
    card-set.json where the set offers it."""
    from cardgen.manifest import kit_fingerprint
    from cardgen.render.common import printed_season_of
    from cardgen.site import catalogue
    card_set = json.loads((clone / "card-set.json").read_text(encoding="utf-8"))
    comp = card_set["competition"]
    folder = site / "sets" / clone.name
    _link_tree(site / "sets" / REAL, folder)
    for rel, name in real_record["named"].items():
        if rel == "card-set.json":
            for target in (folder / "files" / rel, folder / "downloads" / name):
                target.unlink()
                os.link(clone / rel, target)
    title = f"{comp['name']} {printed_season_of(comp['code'], card_set['season'])}"
    text = json.dumps(real_record).replace(f"sets/{REAL}/", f"sets/{clone.name}/") \
        .replace(f"set-{REAL}", f"set-{clone.name}").replace(real_record["title"], title)
    record = json.loads(text)
    record.update({"name": clone.name, "title": title, "season_key": card_set["season"],
                   "season": printed_season_of(comp["code"], card_set["season"]),
                   "competition": {**record["competition"], "code": comp["code"], "name": comp["name"]},
                   "fingerprint": kit_fingerprint(clone)})
    path = folder / catalogue.RECORD_FILE
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


def _shard(path: Path) -> object:
    """The data one file of the search index hands to CardgenSearch."""
    found = re.fullmatch(r"CardgenSearch\.\w+\((.*)\);\n", path.read_text(encoding="utf-8"), re.S)
    if not found:
        raise SystemExit(f"not a search shard: {path}")
    return json.loads(found.group(1).replace("<\\/", "</"))


def _check(site: Path, kits: list[Path], rendered: list[str]) -> str:
    """What a gamer sees, checked (SystemExit on the first fault); returns what was checked."""
    from cardgen.site import catalogue
    from cardgen.site.linkcheck import check_links
    folder = site / catalogue.SEARCH_FOLDER
    names = [s[0] for s in _shard(folder / "sets.js")]  # type: ignore[union-attr]
    shards: dict[str, dict] = {}
    offered = 0
    for kit in kits:
        set_dir = site / "sets" / kit.name
        record = json.loads((set_dir / catalogue.RECORD_FILE).read_text(encoding="utf-8"))
        for page in ("index.html", "players.html", "compare.html"):
            if not (set_dir / page).is_file():
                raise SystemExit(f"{kit.name}: no {page}")
        # every file the set offers is its kit's own, byte for byte
        pairs = [(set_dir / "files" / rel, kit / rel) for rel in
                 (p.relative_to(set_dir / "files").as_posix() for p in (set_dir / "files").rglob("*") if p.is_file())]
        pairs += [(set_dir / "downloads" / name, kit / rel) for rel, name in record["named"].items()]
        for offered_file, kit_file in pairs:
            if not (os.path.samefile(offered_file, kit_file) or filecmp.cmp(offered_file, kit_file, shallow=False)):
                raise SystemExit(f"{offered_file} is not {kit_file}")
        offered += len(pairs)
        # the search finds a player of the season, at his page of that season
        player = record["players"][0]
        word = catalogue.words(player["name"])[-1]
        key = catalogue.shard_of(word)
        if key not in shards:
            shards[key] = _shard(folder / f"{key}.js")[1]  # type: ignore[index]
        pages = {names[i]: page for entry in shards[key]["p"] if entry[0] == player["name"] for i, _, page in entry[2]}
        if pages.get(kit.name) != player["page"] or not (site / player["page"]).is_file():
            raise SystemExit(f"the search does not find {player['name']} of {kit.name}")
    above = [p for p in site.glob("*.html")] + list((site / "competitions").glob("*.html"))
    again = [p for name in rendered for p in (site / "sets" / name).rglob("*.html")]
    links = check_links(site, above + again)
    if links.broken:
        raise SystemExit(f"broken links: {links.broken[:3]}")
    return (f"{len(kits)} sets' pages there, {offered} offered files the kits' own, a player of each "
            f"season found by the search, {links.checked} links of {len(above) + len(again)} pages resolve")


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


def _load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def write_docs(lines: list[str], command: str) -> None:
    """Put the table into docs/catalogue.md between its markers, so the page quotes only what
    this benchmark printed."""
    write_marked_block(DOC, BEGIN, END, lines, command)
    print(f"wrote the table into {DOC.relative_to(REPO)}")


def run(competitions: int, seasons: int) -> list[str]:
    from cardgen.cli import main
    from cardgen.manifest import Manifest, read_manifest, write_manifest
    from cardgen.site import catalogue
    from cardgen.site.generate import generate
    from cardgen.site.incremental import set_manifest_path
    with tempfile.TemporaryDirectory(prefix="bench-catalogue-site-") as tmp_name:
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
        load_before = _load()
        started, cpu = time.perf_counter(), time.process_time()
        generate([real], site)
        one_set, one_cpu = time.perf_counter() - started, time.process_time() - cpu
        print(f"one set cold ({REAL}): {one_set:.1f} s, CPU {one_cpu:.1f} s")
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
        # the site's manifest as a render of every set leaves it: its pages and each set's manifest
        first = read_manifest(site, "site")
        assert first is not None
        write_manifest(site, Manifest(kind="site", files=tuple(sorted(
            {*first.files, *(set_manifest_path(k.name) for k in kits)})), generator="bench"))
        total = len(kits)
        warm = _run(kits, site, tmp)
        print(f"{total} seasons, nothing changed: {warm['seconds']:.1f} s (target <= 60), CPU {warm['cpu']:.1f} s, "
              f"peak {warm['peak_mb']:.0f} MB (target <= 500); {warm['carried']} carried, {warm['rendered']} rendered")
        print("checked:", _check(site, kits, []))
        changed = kits[len(kits) // 2]
        card_set = json.loads((changed / "card-set.json").read_text(encoding="utf-8"))
        card_set["built"] = "changed"
        (changed / "card-set.json").unlink()   # a new file, as a build writes it (the clones share inodes)
        (changed / "card-set.json").write_text(json.dumps(card_set), encoding="utf-8")
        one = _run(kits, site, tmp)
        print(f"{total} seasons, one changed ({changed.name}): {one['seconds']:.1f} s, CPU {one['cpu']:.1f} s, "
              f"peak {one['peak_mb']:.0f} MB; {one['rendered']} rendered, {one['carried']} carried")
        checked = _check(site, kits, [changed.name])
        print("checked:", checked)
        load_after = _load()
        own, linked = _size(site)
        search = sorted((p.stat().st_size, p.name) for p in (site / catalogue.SEARCH_FOLDER).glob("*.js"))
        home = (site / "index.html").stat().st_size
        print(f"site: {own / 2**20:.0f} MB of its own files + {linked / 2**20:.0f} MB of kit files linked; "
              f"{one['files']} files; home page {home / 1024:.0f} KB; search index {one['search_bytes'] / 2**20:.2f} MB "
              f"in {len(search)} files, the largest {search[-1][1]} {search[-1][0] / 1024:.0f} KB")
        print(f"a cold render of all {total} sets (estimate, not measured): {total} x {one_set:.1f} s = "
              f"{total * one_set / 60:.0f} min")
        print(f"load average (1/5/15 min) before {load_before}, after {load_after}")
        shutil.rmtree(site, ignore_errors=True)
    return [
        f"Load average (1, 5, 15 min) {load_before} before, {load_after} after, on {os.cpu_count()} cores.",
        "",
        "| run | wall | CPU | largest process |",
        "|---|---:|---:|---:|",
        f"| one set, cold (thumbnails, zip, previews, pages) | {one_set:.1f} s | {one_cpu:.1f} s | |",
        f"| {total} seasons, nothing changed ({warm['carried']} sets carried) | {warm['seconds']:.1f} s | "
        f"{warm['cpu']:.1f} s | {warm['peak_mb']:.0f} MB |",
        f"| {total} seasons, one changed ({one['rendered']} set rendered) | {one['seconds']:.1f} s | "
        f"{one['cpu']:.1f} s | {one['peak_mb']:.0f} MB |",
        "",
        f"Targets: 60 s and 500 MB. The site holds {one['files']:,} files ({own / 2**20:.0f} MB of its own, "
        f"{linked / 2**20:.0f} MB of the kits' files linked); the home page is {home / 1024:.0f} KB and the search "
        f"index {one['search_bytes'] / 2**20:.1f} MB in {len(search)} files, the largest {search[-1][0] / 1024:.0f} KB. "
        f"Checked after each run: {checked}.",
    ]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--competitions", type=int, default=30)
    parser.add_argument("--seasons", type=int, default=10)
    parser.add_argument("--write-docs", action="store_true",
                        help="also write the table into docs/catalogue.md (between its markers)")
    ns = parser.parse_args()
    table = run(ns.competitions, ns.seasons)
    print("\n".join(table))
    if ns.write_docs:
        write_docs(table, f"python3 benchmarks/bench_catalogue_site.py --competitions {ns.competitions} "
                          f"--seasons {ns.seasons} --write-docs")
