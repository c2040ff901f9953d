"""`cardgen catalogue` (issue 36) on a small test mirror made from the synthetic fixture: its two
seasons, the T20 one copied under two more labels (one of them a single match), and a damaged
season whose match files cannot be read. What each test expects is counted from that mirror."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cache import CACHE_ENV
from cardgen.cli import main
from cardgen.manifest import read_manifest
from cardgen.sources.fetch import SOURCE_ENV
from cardgen.staging import MARKER

pytestmark = pytest.mark.slow  # every test builds kits

SYNTHETIC = Path(__file__).resolve().parent / "fixtures" / "synthetic"
GOOD = ("BBL 2030-31", "BBL 2031-32", "BBL 2032-33", "HUNDRED 2030")
DAMAGED = "BBL 2033-34"
FAST = ("--paper", "a4", "--no-images")  # the kits' fewest files: the tests are about the runs


def _relabel(root: Path, folder: str, label: str, years: int, ids: int, keep: int | None = None,
             damaged: bool = False) -> None:
    """A copy of the synthetic BBL season under another Cricsheet label (dates moved on by
    `years`, match ids by `ids`): `keep` matches of it; `damaged`: innings no parser can read."""
    (root / folder).mkdir()
    for path in sorted((root / "bbl_2030-31").glob("*.json"))[:keep]:
        doc = json.loads(path.read_text(encoding="utf-8"))
        doc["info"]["season"] = label
        doc["info"]["dates"] = [f"{int(d[:4]) + years}{d[4:]}" for d in doc["info"]["dates"]]
        if damaged:
            doc["innings"] = [{"team": "nobody", "overs": []}]
        match_id = int(path.stem.split("-")[1]) + ids
        (root / folder / f"synthetic-{match_id}.json").write_text(json.dumps(doc), encoding="utf-8")


def make_mirror(where: Path) -> Path:
    """The test mirror (and its players folder beside it, as the synthetic fixture has it)."""
    shutil.copytree(SYNTHETIC / "cricsheet", where / "cricsheet")
    shutil.copytree(SYNTHETIC / "players", where / "players")
    root = where / "cricsheet"
    _relabel(root, "bbl_2031-32", "2031/32", 1, 100)
    _relabel(root, "bbl_2032-33", "2032/33", 2, 200, keep=1)  # a season of one match
    _relabel(root, "bbl_2033-34", "2033/34", 3, 300, keep=2, damaged=True)
    return root


def _env(cache: Path) -> dict[str, str | None]:
    return {CACHE_ENV: str(cache), SOURCE_ENV: None, "CARDGEN_CRICINFO": None, "CARDGEN_PLAYERS": None,
            "CARDGEN_NAMES": None, "CARDGEN_STRICT": None}


def run(source: Path, out: Path, cache: Path, *args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, ["catalogue", "--source", str(source), "--out", str(out), *FAST,
                                     "--jobs", "2", *args], env=_env(cache))


def states(output: str) -> dict[str, str]:
    """Season -> built / kept / failed, from the summary table that ends the run."""
    found = {}
    for line in output.splitlines():
        for label in (*GOOD, DAMAGED):
            if line.startswith(label + " "):
                found[label] = line.split()[2]
    return found


def kit(out: Path, label: str) -> Path:
    return out / label.replace(" ", "_")


@pytest.fixture(scope="module")
def first(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """One cold run over the test mirror: its mirror, cache, output folder and result."""
    where = tmp_path_factory.mktemp("catalogue")
    source, out, cache = make_mirror(where), where / "out", where / "cache"
    result = run(source, out, cache)
    return {"where": where, "source": source, "out": out, "cache": cache, "result": result}


def _copy(first: dict, tmp_path: Path) -> tuple[Path, Path]:
    """A test's own mirror and output folder, as the first run left them (the cache is shared:
    it only saves a test recalibrating what the first run calibrated)."""
    shutil.copytree(first["where"] / "players", tmp_path / "players")
    shutil.copytree(first["source"], tmp_path / "cricsheet")
    shutil.copytree(first["out"], tmp_path / "out", symlinks=True)
    return tmp_path / "cricsheet", tmp_path / "out"


def test_a_damaged_season_fails_alone_and_is_named(first: dict) -> None:
    result, out = first["result"], first["out"]
    assert result.exit_code == 1, result.output
    assert states(result.output) == {**{label: "built" for label in GOOD}, DAMAGED: "failed"}
    # its reason, in one line: what the reader said of its files
    assert f"failed {DAMAGED}: none of the 2 match files of {DAMAGED} could be read" in result.output
    assert "Traceback" not in result.output
    for label in GOOD:
        manifest = read_manifest(kit(out, label), "season-kit")
        assert manifest is not None and manifest.inputs_sha256, label
    assert not kit(out, DAMAGED).exists()
    # one site of the seasons that were built
    home = (out / "site" / "index.html").read_text(encoding="utf-8")
    for label in GOOD:
        assert label.split()[1] in home
    assert "4 built, 0 kept, 1 failed" in result.output


def _inodes(folder: Path) -> dict[str, int]:
    return {p.relative_to(folder).as_posix(): p.stat().st_ino for p in folder.rglob("*") if p.is_file()}


def test_a_second_run_rebuilds_nothing(first: dict, tmp_path: Path) -> None:
    source, out = _copy(first, tmp_path)
    before = {label: _inodes(kit(out, label)) for label in GOOD}
    again = run(source, out, first["cache"])
    assert states(again.output) == {**{label: "kept" for label in GOOD}, DAMAGED: "failed"}, again.output
    # the kits are the very files of the first run: not one rewritten
    assert {label: _inodes(kit(out, label)) for label in GOOD} == before


def test_a_changed_match_file_rebuilds_its_season_only(first: dict, tmp_path: Path) -> None:
    source, out = _copy(first, tmp_path)
    path = sorted((source / "bbl_2031-32").glob("*.json"))[0]
    doc = json.loads(path.read_text(encoding="utf-8"))
    ball = doc["innings"][0]["overs"][0]["deliveries"][0]
    ball["runs"]["batter"] = 1 if ball["runs"]["batter"] == 4 else 4  # a four scored, or not
    ball["runs"]["total"] = ball["runs"]["batter"] + ball["runs"]["extras"]
    path.write_text(json.dumps(doc), encoding="utf-8")
    before = _inodes(kit(out, "BBL 2030-31"))
    again = run(source, out, first["cache"])
    assert states(again.output) == {"BBL 2031-32": "built", "BBL 2030-31": "kept", "BBL 2032-33": "kept",
                                    "HUNDRED 2030": "kept", DAMAGED: "failed"}, again.output
    # the other seasons of the same competition read the changed folder too, and stay as they were
    assert _inodes(kit(out, "BBL 2030-31")) == before


def test_one_competition_from_one_year(first: dict, tmp_path: Path) -> None:
    source, out = _copy(first, tmp_path)
    again = run(source, out, first["cache"], "--competition", "bbl", "--since", "2031", "--no-site")
    assert again.exit_code == 1, again.output  # the damaged season is among them
    assert set(states(again.output)) == {"BBL 2031-32", "BBL 2032-33", DAMAGED}


def test_nothing_to_build_is_one_line(first: dict, tmp_path: Path) -> None:
    result = run(first["source"], tmp_path / "out", first["cache"], "--since", "2100")
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "no T20 or 100-ball season from 2100 on" in result.output
    result = run(first["source"], tmp_path / "out", first["cache"], "--competition", "NOPE")
    assert result.exit_code == 2 and result.output.count("\n") == 1, result.output


def test_a_season_whose_process_dies_is_a_failure_of_its_own(first: dict, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A season's process killed (as the OOM killer does) fails that season; the rest are built."""
    import cardgen.catalogue.engine as engine
    real = engine.build_season

    def killed_in_one(comp, season, *args, **kwargs):  # type: ignore[no-untyped-def]
        if season == "2032-33":
            os.kill(os.getpid(), signal.SIGKILL)
        return real(comp, season, *args, **kwargs)
    monkeypatch.setattr(engine, "build_season", killed_in_one)
    source, out = _copy(first, tmp_path)
    shutil.rmtree(out / "BBL_2031-32")
    result = run(source, out, first["cache"], "--no-site")
    assert states(result.output) == {"BBL 2030-31": "kept", "BBL 2031-32": "built", "BBL 2032-33": "failed",
                                     "HUNDRED 2030": "kept", DAMAGED: "failed"}, result.output
    assert "failed BBL 2032-33: its process was killed (SIGKILL)" in result.output


def _wait_for(condition, what: str, bound: float = 300.0) -> None:  # type: ignore[no-untyped-def]
    """Wait for `condition()`; the bound only caps how long a failure takes."""
    end = time.monotonic() + bound
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.05)


def test_an_interrupted_run_resumes(first: dict, tmp_path: Path) -> None:
    """SIGTERM in the middle of a cold run: the kits finished are whole, no staging folder is
    left for good, and the next run builds only the seasons that were not finished."""
    shutil.copytree(first["where"] / "players", tmp_path / "players")
    source = shutil.copytree(first["source"], tmp_path / "cricsheet")
    out, cache = tmp_path / "out", tmp_path / "cache"
    env = {**os.environ, **{k: v for k, v in _env(cache).items() if v is not None}}
    for key in (k for k, v in _env(cache).items() if v is None):
        env.pop(key, None)
    proc = subprocess.Popen([sys.executable, "-m", "cardgen", "catalogue", "--source", str(source),
                             "--out", str(out), *FAST, "--jobs", "2", "--no-site"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # the first kit in place (its manifest is written last), and a second being assembled
        _wait_for(lambda: any(read_manifest(kit(out, label)) for label in GOOD), "a first kit")
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 143, err
    assert "terminated" in err and "Traceback" not in err
    finished = [label for label in GOOD if read_manifest(kit(out, label), "season-kit")]
    assert finished and len(finished) < len(GOOD)
    for label in GOOD:  # a kit is there whole (its manifest lists every file) or not at all
        folder = kit(out, label)
        manifest = read_manifest(folder, "season-kit")
        assert (manifest is None and not folder.exists()) or all((folder / f).is_file() for f in manifest.files)
    again = run(source, out, cache, "--no-site")
    assert states(again.output) == {**{label: "kept" if label in finished else "built" for label in GOOD},
                                    DAMAGED: "failed"}, again.output
    leftovers = [p for p in out.iterdir() if (p / MARKER).exists()]
    assert leftovers == []
