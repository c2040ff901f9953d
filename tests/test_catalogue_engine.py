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


def _recording_builds(monkeypatch: pytest.MonkeyPatch, log: Path) -> None:
    """Every season a process is started for appends its label to `log` (the season's process is
    forked: it inherits the patch, and a file is what it can tell the test through)."""
    import cardgen.catalogue.engine as engine
    real = engine.build_season

    def recorded(comp, season, *args, **kwargs):  # type: ignore[no-untyped-def]
        with log.open("a", encoding="utf-8") as f:
            f.write(f"{comp.code} {season}\n")
        return real(comp, season, *args, **kwargs)
    monkeypatch.setattr(engine, "build_season", recorded)


def test_current_kits_are_kept_without_a_process(first: dict, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The same mirror again: the kits' manifests record their inputs' sources key, so the run
    keeps every current kit in its own process; only the damaged season (no kit) gets one."""
    out = shutil.copytree(first["out"], tmp_path / "out", symlinks=True)
    log = tmp_path / "started.txt"
    _recording_builds(monkeypatch, log)
    again = run(first["source"], out, first["cache"], "--no-site")
    assert states(again.output) == {**{label: "kept" for label in GOOD}, DAMAGED: "failed"}, again.output
    assert log.read_text(encoding="utf-8").splitlines() == [DAMAGED]
    # a line per season as it ends, counted: the run's progress where no bar is drawn
    total = len(GOOD) + 1
    assert [line.split("]")[0] + "]" for line in again.output.splitlines() if line.startswith("[")] \
        == [f"[{n}/{total}]" for n in range(1, total + 1)]


def test_a_thinned_kit_is_not_kept_by_its_key(first: dict, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A kit missing a file its manifest lists goes to a process (which builds it again)."""
    out = shutil.copytree(first["out"], tmp_path / "out", symlinks=True)
    (kit(out, "HUNDRED 2030") / "START-HERE.txt").unlink()
    log = tmp_path / "started.txt"
    _recording_builds(monkeypatch, log)
    again = run(first["source"], out, first["cache"], "--no-site", "--competition", "hundred")
    assert states(again.output) == {"HUNDRED 2030": "built"}, again.output
    assert log.read_text(encoding="utf-8").splitlines() == ["HUNDRED 2030"]
    assert (kit(out, "HUNDRED 2030") / "START-HERE.txt").is_file()


def test_build_all_is_the_catalogue(first: dict, tmp_path: Path) -> None:
    """`cardgen build --all` runs `cardgen catalogue` (here over kits already current); a single
    season's options are refused with it in one line, and --all's own without it."""
    out = shutil.copytree(first["out"], tmp_path / "out", symlinks=True)
    result = CliRunner().invoke(main, ["build", "--all", "--source", str(first["source"]), "--out", str(out),
                                       *FAST, "-c", "hundred", "-c", "bbl", "--since", "2031"],
                                env=_env(first["cache"]))
    assert states(result.output) == {"BBL 2031-32": "kept", "BBL 2032-33": "kept", DAMAGED: "failed"}, result.output
    assert result.exit_code == 1
    for args, refused in ((["--all", "--team", "X", "--season", "2024"], "--season, --team"),
                          (["--all", "--game", "roll-and-play"], "--game"),
                          (["-c", "BBL", "-s", "2024-25", "--jobs", "2"], "--jobs"),
                          (["-c", "BBL", "-c", "IPL", "-s", "2024"], "several --competition")):
        refusal = CliRunner().invoke(main, ["build", *args, "--out", str(tmp_path / "none")],
                                     env=_env(first["cache"]))
        assert refusal.exit_code == 2, refusal.output
        assert refusal.output.startswith(f"Error: {refused}: ") and refusal.output.count("\n") == 1, refusal.output
    assert not (tmp_path / "none").exists()


def test_a_single_build_is_kept_by_the_catalogue(first: dict, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """`cardgen build` and the catalogue build a season by the one function: a kit built on its
    own records its inputs, and a catalogue run with the same settings keeps it unopened."""
    out = tmp_path / "out"
    built = CliRunner().invoke(main, ["build", "-c", "HUNDRED", "-s", "2030", "--source", str(first["source"]),
                                      "--out", str(out), *FAST], env=_env(first["cache"]))
    assert built.exit_code == 0, built.output
    manifest = read_manifest(kit(out, "HUNDRED 2030"), "season-kit")
    assert manifest is not None and manifest.inputs_sha256 and manifest.sources_sha256
    log = tmp_path / "started.txt"
    _recording_builds(monkeypatch, log)
    again = run(first["source"], out, first["cache"], "--no-site", "--competition", "hundred")
    assert states(again.output) == {"HUNDRED 2030": "kept"}, again.output
    assert not log.exists()


def test_the_progress_bar_draws_on_a_terminal(first: dict, tmp_path: Path) -> None:
    """On a terminal (a pty of 100 columns) the run draws one bar over its seasons on stderr."""
    import fcntl
    import pty
    import struct
    import termios
    out = shutil.copytree(first["out"], tmp_path / "out", symlinks=True)
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
    env = {**os.environ, **{k: v for k, v in _env(first["cache"]).items() if v is not None}}
    for key in (k for k, v in _env(first["cache"]).items() if v is None):
        env.pop(key, None)
    proc = subprocess.Popen([sys.executable, "-m", "cardgen", "catalogue", "--source", str(first["source"]),
                             "--out", str(out), *FAST, "--no-site", "-c", "hundred"], env=env,
                            stdout=subprocess.DEVNULL, stderr=follower)
    os.close(follower)
    drawn = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the other end closed: the process has ended
            break
        if not chunk:
            break
        drawn += chunk
    os.close(leader)
    assert proc.wait(timeout=300) == 0
    text = drawn.decode("utf-8", errors="replace")
    assert "catalogue: 100%" in text and "1/1" in text, text


def test_a_run_that_keeps_every_kit_imports_no_pandas(first: dict, tmp_path: Path) -> None:
    """Nothing changed: the run compares keys (`season.sources_key`) and carries every set of the
    site, reading no table, so it never imports pandas (half a second of a warm run's start-up,
    measured with `python -X importtime`). Its own process: this one has pandas already."""
    out = shutil.copytree(first["out"], tmp_path / "out", symlinks=True)
    env = {**os.environ, **{k: v for k, v in _env(first["cache"]).items() if v is not None}}
    for key in (k for k, v in _env(first["cache"]).items() if v is None):
        env.pop(key, None)
    said = tmp_path / "modules.txt"
    code = ("import atexit, runpy, sys\n"
            f"atexit.register(lambda: open({str(said)!r}, 'w').write(' '.join(sorted(sys.modules))))\n"
            "runpy.run_module('cardgen', run_name='__main__')\n")
    proc = subprocess.run([sys.executable, "-c", code, "catalogue", "--source", str(first["source"]),
                           "--out", str(out), *FAST, "-c", "hundred"], env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 built, 1 kept, 0 failed" in proc.stdout, proc.stdout
    modules = set(said.read_text(encoding="utf-8").split())
    assert "cardgen.site.generate" in modules  # the site was rendered (its sets carried)
    assert not {"pandas", "cardgen.stats.load", "cardgen.stats.tables"} & modules
