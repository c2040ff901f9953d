"""A hostile environment gets one line saying what to do and a documented exit code, never a traceback.

Exit codes: 1 = a check failed (validate), 2 = usage or input error, 3 = environment
(disk, permissions, network), 130 / 143 = interrupted (Ctrl+C / SIGTERM), 141 = the reader of
the output went away (`| head`).

Each case reproduces the failure for real where the machine allows it: an unwritable folder is
`chmod 555` for an ordinary user and `chattr +i` (immutable: even root cannot write) for root; a
full disk is a tiny tmpfs when the tests run as root. Only where neither is possible does a test
fall back to raising the same OSError from the write call.
"""
from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from cardgen.cache import CACHE_ENV, Cache
from cardgen.cli import DEBUG_ENV, describe_error, main, user_path
from cardgen.errors import (EXIT_BROKEN_PIPE, EXIT_BUG, EXIT_ENVIRONMENT, EXIT_INTERRUPTED, EXIT_USAGE,
                            DownloadTimeout, UnknownSeason)
from cardgen.sources.fetch import SOURCE_ENV

ROOT = Path(__file__).resolve().parent.parent
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


@contextlib.contextmanager
def unwritable(folder: Path) -> Iterator[Path]:
    """`folder` made truly unwritable for this process, and writable again afterwards."""
    folder.mkdir(parents=True, exist_ok=True)
    if not IS_ROOT:
        folder.chmod(0o555)
        try:
            yield folder
        finally:
            folder.chmod(0o755)
        return
    chattr = shutil.which("chattr")
    if chattr is None or subprocess.run([chattr, "+i", str(folder)], capture_output=True).returncode:
        pytest.skip("running as root without chattr +i: cannot make a folder unwritable")
    try:
        yield folder
    finally:
        subprocess.run([chattr, "-i", str(folder)], check=True)


@contextlib.contextmanager
def tiny_disk(folder: Path, size_kb: int) -> Iterator[Path]:
    """A real file system of `size_kb` KiB at `folder` (tmpfs; needs root and mount)."""
    folder.mkdir(parents=True, exist_ok=True)
    mount = shutil.which("mount")
    if not IS_ROOT or mount is None or subprocess.run(
            [mount, "-t", "tmpfs", "-o", f"size={size_kb}k", "tmpfs", str(folder)],
            capture_output=True).returncode:
        yield None  # type: ignore[misc]  # the caller falls back to a simulated ENOSPC
        return
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def one_line_error(result, code: int) -> str:
    """The single line a failed command printed, after checking the exit code and no traceback."""
    assert result.exit_code == code, (result.exit_code, result.output, result.exception)
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    assert lines[0].startswith("Error: ")
    return lines[0]


@pytest.fixture
def env(tmp_path: Path, mirror: Path) -> dict[str, str | None]:
    return {CACHE_ENV: str(tmp_path / "cache"), SOURCE_ENV: str(mirror), "CARDGEN_CRICINFO": None}


def writing_commands(card_set: Path, out: Path) -> dict[str, list[str]]:
    season = ["-c", "BBL", "-s", "2024-25"]
    return {
        "build": ["build", *season, "--card-set", str(card_set), "--no-images", "--out", str(out)],
        "build --game": ["build", "--game", "quick-cricket", "--out", str(out)],
        "calibrate": ["calibrate", *season, "--out", str(out)],
        "validate": ["validate", *season, "--cards", str(card_set), "--balls", "200", "--out", str(out)],
        "simulate": ["simulate", *season, "--cards", str(card_set), "--seasons", "1", "--out", str(out)],
        "compare-games": ["compare-games", *season, "--innings", "20", "--out", str(out)],
    }


@pytest.mark.needs_data
@pytest.mark.parametrize("command", ["build", "build --game", "calibrate", "validate", "simulate",
                                     "compare-games"])
def test_unwritable_out_is_one_line_and_exit_3(card_set_file: Path, tmp_path: Path, env, command: str):
    with unwritable(tmp_path / "locked") as locked:
        args = writing_commands(card_set_file, locked / "out")[command]
        line = one_line_error(CliRunner().invoke(main, args, env=env), EXIT_ENVIRONMENT)
        assert str(locked / "out") in line and ("permission" in line or "not permitted" in line)
        assert list(locked.iterdir()) == []


@pytest.mark.needs_data
def test_unwritable_site_dir_and_serve_are_one_line_and_exit_3(tmp_path: Path, env):
    out = tmp_path / "out"
    out.mkdir()
    with unwritable(tmp_path / "locked") as locked:
        for args in (["site", "--out", str(out), "--site-dir", str(locked / "site")],
                     ["serve", "--out", str(out), "--site-dir", str(locked / "site"), "--port", "0"]):
            line = one_line_error(CliRunner().invoke(main, args, env=env), EXIT_ENVIRONMENT)
            assert str(locked) in line, line
        assert list(locked.iterdir()) == []


@pytest.mark.needs_data
def test_read_only_cache_is_one_line_and_exit_3(tmp_path: Path, env):
    with unwritable(tmp_path / "cache") as cache:
        result = CliRunner().invoke(main, ["stats", "-c", "BBL", "-s", "2024-25", "--refresh",
                                           "--table", "league"], env={**env, CACHE_ENV: str(cache)})
        line = one_line_error(result, EXIT_ENVIRONMENT)
        assert str(cache) in line and "CARDGEN_CACHE" in line


@pytest.mark.needs_data
@pytest.mark.parametrize("command", ["build", "calibrate", "validate"])
def test_out_below_a_regular_file(card_set_file: Path, tmp_path: Path, env, command: str):
    afile = tmp_path / "a-file.txt"
    afile.write_text("the user's file")
    args = writing_commands(card_set_file, afile / "out")[command]
    line = one_line_error(CliRunner().invoke(main, args, env=env), EXIT_ENVIRONMENT)
    assert "is a file, not a folder" in line
    assert afile.read_text() == "the user's file"


def _simulated_full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fallback without root: every atomic write fails the way a full disk makes it fail."""
    import cardgen.cache

    real = cardgen.cache.atomic_write_bytes

    def full(path: Path, data: bytes) -> None:
        if len(data) > 4096:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        real(path, data)
    monkeypatch.setattr(cardgen.cache, "atomic_write_bytes", full)
    for module in ("cardgen.render.kit", "cardgen.site.pages", "cardgen.site.media", "cardgen.site.downloads",
                   "cardgen.calibrate.cardset", "cardgen.sim.report"):
        mod = sys.modules.get(module) or __import__(module, fromlist=["x"])
        if hasattr(mod, "atomic_write_bytes"):
            monkeypatch.setattr(mod, "atomic_write_bytes", full)


@pytest.mark.needs_data
@pytest.mark.parametrize("command", ["build", "site", "stats"])
def test_full_disk_is_one_line_exit_3_and_leaves_nothing_half_written(
        card_set_file: Path, tmp_path: Path, env, monkeypatch: pytest.MonkeyPatch, command: str):
    # room for the folders and a few small files, not for a kit, a site (~600 KiB) or the tables
    # (~200 KiB)
    with tiny_disk(tmp_path / "disk", 64 if command == "stats" else 192) as disk:
        if disk is None:
            _simulated_full_disk(monkeypatch)
            disk = tmp_path / "disk"
        out = disk / "out"
        if command == "build":
            args = ["build", "-c", "BBL", "-s", "2024-25", "--card-set", str(card_set_file),
                    "--paper", "a4", "--no-images", "--out", str(out)]
        elif command == "site":
            kit = tmp_path / "out" / "BBL_2024-25"  # the set on the big disk, the site on the full one
            kit.mkdir(parents=True)
            (kit / "card-set.json").write_bytes(card_set_file.read_bytes())
            args = ["site", "--out", str(kit.parent), "--site-dir", str(disk / "site")]
        else:
            args = ["stats", "-c", "BBL", "-s", "2024-25", "--refresh", "--table", "league"]
            env = {**env, CACHE_ENV: str(disk / "cache")}
        before = sorted(p.relative_to(disk) for p in disk.rglob("*") if p.is_file())
        line = one_line_error(CliRunner().invoke(main, args, env=env), EXIT_ENVIRONMENT)
        assert "no space left" in line and "free some space" in line, line
        staging = [p for p in disk.rglob(".*") if p.is_dir() or p.name.endswith(".tmp")]
        assert staging == [], staging  # no staging folder, no temporary file
        if command != "stats":
            left = sorted(p.relative_to(disk) for p in disk.rglob("*") if p.is_file())
            assert left == before  # the failed kit or site is not there at all, not half there


@pytest.mark.needs_data
@pytest.mark.parametrize("command", ["simulate", "validate", "compare-games", "build"])
def test_negative_seed_is_a_usage_error(command: str, env):
    args = [command, "-c", "BBL", "-s", "2024-25", "--seed", "-1"]
    result = CliRunner().invoke(main, args, env=env)
    assert result.exit_code == EXIT_USAGE and "Traceback" not in result.output
    assert "Invalid value for '--seed': -1 is not in the range x>=0" in result.output


@pytest.mark.slow
@pytest.mark.needs_data
@pytest.mark.parametrize("manifest", [[], {"files": ["batting.csv"]}, {"files": {"a.csv": 1}}])
def test_manifest_of_the_wrong_shape_is_rebuilt(tmp_path: Path, env, manifest):
    args = ["stats", "-c", "BBL", "-s", "2024-25", "--table", "league", "--format", "json"]
    assert CliRunner().invoke(main, args, env=env).exit_code == 0
    cache = Cache(tmp_path / "cache")
    (entry, _), = cache.entries()
    (cache.table_dir(entry) / "manifest.json").write_text(json.dumps(manifest))  # valid JSON, wrong shape
    assert not cache.is_complete(entry)
    for other in (["cache"], ["competitions"]):
        result = CliRunner().invoke(main, other, env=env)
        assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    result = CliRunner().invoke(main, args, env=env)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["league"]["format"] == "T20"
    assert cache.is_complete(entry)  # repaired: the next run reads the cache


def _run_cardgen(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cardgen", *args], capture_output=True, text=True,
                          encoding="utf-8", errors="replace", cwd=ROOT, timeout=600,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **env})


@pytest.mark.slow
@pytest.mark.needs_data
def test_latin1_terminal_never_crashes_on_a_name_it_cannot_show(tmp_path: Path, mirror: Path,
                                                                card_set_file: Path):
    env = {"PYTHONIOENCODING": "latin-1", CACHE_ENV: str(tmp_path / "cache"), SOURCE_ENV: str(mirror)}
    bad = _run_cardgen("stats", "-c", "\u03a9mega", "-s", "2024", **env)
    assert bad.returncode == EXIT_USAGE and "Traceback" not in bad.stderr
    assert bad.stderr.strip().splitlines() == [bad.stderr.strip()]
    assert "unknown competition '?mega'" in bad.stderr
    out = tmp_path / "\u0394\u03b5\u03bb\u03c4\u03b1"  # a Greek folder name
    good = _run_cardgen("validate", "-c", "BBL", "-s", "2024-25", "--cards", str(card_set_file),
                        "--balls", "200", "--out", str(out), **env)
    assert good.returncode in (0, 1), good.stderr  # 1: a card outside at 200 balls, still reported
    assert "report: " in good.stdout and (out / "BBL_2024-25" / "validation").is_dir()


@pytest.mark.needs_data
def test_ctrl_c_is_exit_130_in_one_line(env, monkeypatch: pytest.MonkeyPatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr("cardgen.stats.load.season_stats", interrupted)
    result = CliRunner().invoke(main, ["stats", "-c", "BBL", "-s", "2024-25"], env=env)
    assert "interrupted" in one_line_error(result, EXIT_INTERRUPTED)


@pytest.mark.needs_data
def test_a_bug_is_one_line_exit_70_and_its_traceback_is_saved_to_report(
        env, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A gamer who meets a bug reads one line and gets a file to send; a developer who sets
    CARDGEN_DEBUG sees the traceback as before."""
    def broken(*args, **kwargs):
        return 1 / 0
    monkeypatch.setattr("cardgen.stats.load.season_stats", broken)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    result = CliRunner().invoke(main, ["stats", "-c", "BBL", "-s", "2024-25"], env=env)
    line = one_line_error(result, EXIT_BUG)
    assert "cardgen hit a bug (ZeroDivisionError: division by zero)" in line and "report" in line
    [saved] = tmp_path.glob("cardgen-bug-*.txt")
    assert str(saved) in line
    report = saved.read_text(encoding="utf-8")
    assert "Traceback" in report and "in broken" in report and "ZeroDivisionError" in report
    debug = CliRunner().invoke(main, ["stats", "-c", "BBL", "-s", "2024-25"],
                               env={**env, DEBUG_ENV: "1"})
    assert isinstance(debug.exception, ZeroDivisionError)


def test_error_table():
    staged = "/home/u/out/.BBL_2024-25.build-4242-abcd/BBL_2024-25/.cards-a4.pdf.x1.tmp"
    assert user_path(staged) == "/home/u/out"
    assert user_path("/home/u/.cache/cardgen/raw/key") == "/home/u/.cache/cardgen/raw/key"
    assert user_path("/srv/.site.new.abc/index.html") == "/srv"
    assert user_path("/srv/.site.new-4242-abc/assets/site.css") == "/srv"  # cardgen.staging's names
    full = describe_error(OSError(errno.ENOSPC, "No space left on device", staged))
    assert full == ("cannot use /home/u/out: no space left on the disk; free some space or choose a "
                    "folder on another disk; nothing half-written was kept", EXIT_ENVIRONMENT)
    assert describe_error(PermissionError(errno.EACCES, "Permission denied", "/x"))[1] == EXIT_ENVIRONMENT
    assert describe_error(UnknownSeason("no such season")) == ("no such season", EXIT_USAGE)
    assert describe_error(DownloadTimeout("slow"))[1] == EXIT_ENVIRONMENT
    assert describe_error(UnicodeEncodeError("ascii", "\u03a3", 0, 1, "no"))[1] == EXIT_ENVIRONMENT
    assert describe_error(ZeroDivisionError()) is None  # a bug, not an expected error


@pytest.mark.needs_data
@pytest.mark.parametrize("source", ["http://[::1", "http://127.0.0.1:99999/x"])
def test_a_source_that_is_not_a_url_is_an_input_error(source: str, env):
    result = CliRunner().invoke(main, ["stats", "-c", "BBL", "-s", "2024-25", "--refresh", "--source", source],
                                env=env)
    line = one_line_error(result, EXIT_USAGE)
    assert "check --source" in line and "URL" in line


@pytest.mark.needs_data
def test_a_cache_path_that_is_a_file_is_one_line_and_exit_3(tmp_path: Path, env):
    afile = tmp_path / "cache-file"
    afile.write_text("the user's file")
    result = CliRunner().invoke(main, ["stats", "-c", "BBL", "-s", "2024-25", "--refresh", "--table", "league"],
                                env={**env, CACHE_ENV: str(afile)})
    line = one_line_error(result, EXIT_ENVIRONMENT)
    assert str(afile) in line and "a file is where a folder is needed" in line
    assert afile.read_text() == "the user's file"


@pytest.mark.needs_data
def test_a_closed_pipe_ends_quietly(tmp_path: Path, mirror: Path):
    """`cardgen stats ... | head -1`: no traceback and no error line once the reader has gone,
    and exit 141 as the README says (it was 1, "a check failed", with no word; issue 40 case 9)."""
    proc = subprocess.Popen([sys.executable, "-m", "cardgen", "stats", "-c", "BBL", "-s", "2024-25",
                             "--table", "batting", "--format", "csv"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": str(ROOT), CACHE_ENV: str(tmp_path / "cache"),
                                 SOURCE_ENV: str(mirror)})
    proc.stdout.close()  # the reader goes away before the table is printed, as `head` does
    stderr = proc.stderr.read().decode()
    proc.wait(timeout=600)
    assert "Traceback" not in stderr and "Error" not in stderr, stderr
    assert proc.returncode == EXIT_BROKEN_PIPE and stderr == "", (proc.returncode, stderr)


@pytest.mark.parametrize("args", [["stats", "-c", "BBL", "-s", "2024-25", "--table", "league"],
                                  ["competitions"], ["--help"], ["--version"], ["build", "--help"]],
                         ids=" ".join)
def test_a_reader_gone_before_the_first_line_is_141_and_silent(tmp_path: Path, mirror: Path, args: list[str]):
    """The pipe's reading end is closed before cardgen starts, so the first write breaks
    whatever the timing: the command's own output, and click's help and version alike."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        run = subprocess.run([sys.executable, "-m", "cardgen", *args], stdout=writer, stderr=subprocess.PIPE,
                             cwd=ROOT, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT),
                                                         CACHE_ENV: str(tmp_path / "cache"), SOURCE_ENV: str(mirror)})
    finally:
        os.close(writer)
    assert (run.returncode, run.stderr.decode()) == (EXIT_BROKEN_PIPE, "")


@pytest.mark.needs_data
@pytest.mark.parametrize("edit, words", [
    (lambda doc: doc.update(rules="house"), "rules are 'house'; expected 'quicket' or 'advanced'"),
    (lambda doc: doc.update(rules="advanced"), "says rules 'advanced' but rule 'classic'"),
    (lambda doc: doc["cards"][next(k for k, c in enumerate(doc["cards"]) if c["kind"] == "striker")]
     .update(defence=12), "Defence rating, which only the advanced rules play")])
@pytest.mark.parametrize("command", ["build", "validate"])
def test_a_card_set_whose_rules_do_not_hold_together_is_one_line_and_writes_nothing(
        card_set_file: Path, tmp_path: Path, env, command: str, edit, words: str):
    """Issue 34: a set names the rules it is made for ("rules"), agreeing with its older "rule";
    a Quicket set carries no Defence rating (R13 is an advanced rule: its cards would print a
    die the game never rolls). A hand edit that breaks this stops every command that reads it."""
    doc = json.loads(card_set_file.read_text())
    assert doc["rules"] == "quicket"
    edit(doc)
    bad = tmp_path / "card-set.json"
    bad.write_text(json.dumps(doc))
    out = tmp_path / "out"
    result = CliRunner().invoke(main, writing_commands(bad, out)[command], env=env)
    assert words in one_line_error(result, EXIT_USAGE)
    assert not any(p.is_file() for p in out.rglob("*")) if out.exists() else True


@pytest.mark.needs_data
@pytest.mark.parametrize("command", ["build", "validate", "simulate"])
def test_a_card_set_with_damaged_rule_faces_is_one_line_and_writes_nothing(
        advanced_card_set_file: Path, tmp_path: Path, env, command: str):
    """A card set whose wickets-in-hand faces are damaged (hand-edited, half-copied) would play and
    print a rule nobody calibrated for: every command that reads one stops before writing."""
    damaged = json.loads(advanced_card_set_file.read_text())
    damaged["rule_parameters"]["attack_d20"]["four"] = [4, 8]   # face 3 belongs to nothing
    bad = tmp_path / "card-set.json"
    bad.write_text(json.dumps(damaged))
    out = tmp_path / "out"
    result = CliRunner().invoke(main, writing_commands(bad, out)[command], env=env)
    assert "rule_parameters are damaged" in one_line_error(result, EXIT_USAGE)
    assert not any(p.is_file() for p in out.rglob("*")) if out.exists() else True
