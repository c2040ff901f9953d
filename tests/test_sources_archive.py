"""Bounded reads of a mirror (issue 40, cases 2 and 3): zip bombs and non-regular match files.

A 4 MB `bbl_male_json.zip` with one 4 GiB member ran until killed (180 s from a mirror, 240 s
from a server), and a FIFO named `*.json` in a mirror hung the read forever. The bombs here are
small (a few MB of zeros, compressed about 1,000:1) or meet a tiny limit set in the test, so
each case takes well under a second; the FIFO is made by os.mkfifo, the links by os.symlink.
"""
from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cache import CACHE_ENV
from cardgen.cli import main
from cardgen.competitions import get_competition
from cardgen.errors import EXIT_USAGE, ParseError, ReadLimitExceeded
from cardgen.sources.archive import (ARCHIVE_ENV, ENTRIES_ENV, MATCH_FILE_ENV, RATIO_ENV, ReadLimits,
                                     check_zip, read_match_file, zip_members)
from test_sources_http import LoopbackServer, build_zip

BBL = get_competition("BBL")
ROOT = Path(__file__).resolve().parent.parent


def bomb(mirror: Path, megabytes: int = 8) -> bytes:
    """BBL 2024-25's zip as Cricsheet lays it out, with one more member: `megabytes` MB of zeros
    named like a match file (about 8 KB compressed)."""
    buf = io.BytesIO(build_zip(mirror, ["bbl_2024-25"]))
    with zipfile.ZipFile(buf, "a", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("1443999.json", bytes(megabytes * 1_000_000))
    return buf.getvalue()


def _stats(source: str, tmp_path: Path, **env: str) -> tuple[int, list[str]]:
    args = ["stats", "-c", "BBL", "-s", "2024-25", "--source", source, "--table", "league"]
    result = CliRunner().invoke(main, args, env={CACHE_ENV: str(tmp_path / "cache"),
                                                 "CARDGEN_CRICINFO": None, **env})
    return result.exit_code, result.output.strip().splitlines()


@pytest.fixture
def bomb_mirror(mirror: Path, tmp_path: Path) -> Path:
    root = tmp_path / "mirror"
    root.mkdir()
    (root / BBL.download_file).write_bytes(bomb(mirror))
    return root


@pytest.mark.needs_data
def test_a_zip_bomb_in_a_mirror_is_refused_in_one_line(bomb_mirror: Path, tmp_path: Path):
    started = time.process_time()  # this process's CPU (the command runs in it): not the load
    code, lines = _stats(str(bomb_mirror), tmp_path)
    assert code == EXIT_USAGE and len(lines) == 1, lines
    assert lines[0] == (f"Error: {bomb_mirror / BBL.download_file}: 1443999.json is compressed "
                        f"{_ratio(bomb_mirror / BBL.download_file)}:1, over the limit of 200:1 (a zip "
                        f"bomb?); not read (if it is a real Cricsheet archive, raise {RATIO_ENV})")
    assert time.process_time() - started < 30  # it was killed at 180 s; this takes about a second


def _ratio(path: Path) -> str:
    with zipfile.ZipFile(path) as zf:
        info = zf.getinfo("1443999.json")
    return f"{info.file_size / info.compress_size:,.0f}"


@pytest.mark.needs_data
def test_each_limit_is_named_with_the_variable_that_raises_it(bomb_mirror: Path, mirror: Path,
                                                              tmp_path: Path):
    archive = bomb_mirror / BBL.download_file
    # one entry's size: the bomb's 8 MB against a 1 MB limit (the ratio allowed)
    code, lines = _stats(str(bomb_mirror), tmp_path, **{MATCH_FILE_ENV: "1", RATIO_ENV: "5000"})
    assert (code, lines) == (EXIT_USAGE, [
        f"Error: {archive}: 1443999.json unpacks to over 1.0 MB, the limit for one match file; not read "
        f"(if it is a real Cricsheet archive, raise {MATCH_FILE_ENV})"])
    # the whole archive: the real season alone is 3.1 MB unpacked
    real = tmp_path / "real"
    real.mkdir()
    (real / BBL.download_file).write_bytes(build_zip(mirror, ["bbl_2024-25"]))
    code, lines = _stats(str(real), tmp_path, **{ARCHIVE_ENV: "2"})
    assert code == EXIT_USAGE and len(lines) == 1
    assert lines[0].startswith(f"Error: {real / BBL.download_file}: its match files would unpack to 3.1 MB, "
                               f"over the limit of 2.0 MB; not read") and lines[0].endswith(f"raise {ARCHIVE_ENV})")
    # the number of entries: 42 matches and a README
    code, lines = _stats(str(real), tmp_path, **{ENTRIES_ENV: "40"})
    assert (code, lines) == (EXIT_USAGE, [
        f"Error: {real / BBL.download_file}: 43 entries, over the limit of 40; not read "
        f"(if it is a real Cricsheet archive, raise {ENTRIES_ENV})"])
    # and raised, the same archive reads
    code, lines = _stats(str(real), tmp_path, **{ENTRIES_ENV: "43", ARCHIVE_ENV: "3.2"})
    assert code == 0, lines
    code, lines = _stats(str(real), tmp_path, **{ARCHIVE_ENV: "lots", CACHE_ENV: str(tmp_path / "c2")})
    assert (code, lines) == (EXIT_USAGE, [f"Error: {ARCHIVE_ENV}='lots' is not a positive number; "
                                          f"e.g. {ARCHIVE_ENV}=2000"])


@pytest.mark.needs_data
def test_a_zip_bomb_from_a_server_is_refused_before_it_is_unpacked_or_cached(mirror: Path, tmp_path: Path):
    with LoopbackServer({BBL.download_file: bomb(mirror)}) as server:
        url = f"{server.url}/good"
        code, lines = _stats(url, tmp_path)
        assert code == EXIT_USAGE and len(lines) == 1, lines
        assert lines[0].startswith(f"Error: {url}/{BBL.download_file}: 1443999.json is compressed ")
        assert lines[0].endswith(f"raise {RATIO_ENV})")
        assert not list((tmp_path / "cache" / "raw").glob("*"))  # not kept for the next run


def test_an_entry_that_lies_about_its_size_is_held_to_the_limit_as_it_unpacks(tmp_path: Path):
    """The central directory may promise little: the limits hold on the bytes unpacked."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("1.json", bytes(3_000_000))
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as zf:
        zf.getinfo("1.json").file_size = 100  # what a forged directory says
        zf.getinfo("1.json").compress_size = 10**9
        limits = ReadLimits(match_file=2_000_000)
        check_zip(zf, "forged.zip", limits)  # the directory itself is within the limits
        with pytest.raises((ReadLimitExceeded, zipfile.BadZipFile)):
            list(zip_members(zf, "forged.zip", limits))


@pytest.mark.needs_data
def test_only_regular_files_are_read_from_a_mirror(mirror: Path, tmp_path: Path):
    """Case 3: a FIFO named *.json hung the read forever; a folder, a symlink loop and a link to
    /etc/passwd with that name were each skipped with a warning, and still are. The run is a
    child process with a time limit, so a hang fails the test instead of hanging the suite."""
    root = tmp_path / "mirror"
    season = root / "bbl_2024-25"
    shutil.copytree(mirror / "bbl_2024-25", season)
    os.mkfifo(season / "fifo.json")
    (season / "folder.json").mkdir()
    os.symlink(season / "loop-b.json", season / "loop-a.json")
    os.symlink(season / "loop-a.json", season / "loop-b.json")
    os.symlink("/etc/passwd", season / "passwd.json")
    env = {**os.environ, CACHE_ENV: str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}
    env.pop("CARDGEN_CRICINFO", None)
    run = subprocess.run([sys.executable, "-m", "cardgen.cli", "stats", "-c", "BBL", "-s", "2024-25",
                          "--source", str(root), "--table", "matches", "--format", "csv"],
                         capture_output=True, text=True, timeout=600, env=env, stdin=subprocess.DEVNULL)
    assert run.returncode == 0, run.stderr
    warned = run.stderr.strip().splitlines()
    assert len(warned) == 5 and all(w.startswith("warning: ") for w in warned), warned
    assert f"warning: match file {season / 'fifo.json'} cannot be read (it is a FIFO, not a regular file); " \
           f"skipped (--strict stops instead)" in warned
    for name in ("folder.json", "loop-a.json", "loop-b.json"):
        assert any(f"{season / name} cannot be read" in w for w in warned), (name, warned)
    assert any("passwd.json: not valid JSON" in w for w in warned), warned
    assert len(run.stdout.strip().splitlines()) == 2 + 42  # '# matches', the header, every match


def test_read_match_file_refuses_what_is_not_a_regular_match_file(tmp_path: Path):
    os.mkfifo(tmp_path / "fifo.json")
    with pytest.raises(ParseError, match="it is a FIFO, not a regular file"):
        read_match_file(tmp_path / "fifo.json", ReadLimits())
    (tmp_path / "big.json").write_bytes(b" " * 2001)
    with pytest.raises(ParseError, match=f"over 0.0 MB, the limit for one match file .raise {MATCH_FILE_ENV}"):
        read_match_file(tmp_path / "big.json", ReadLimits(match_file=2000))
    assert read_match_file(tmp_path / "big.json", ReadLimits(match_file=2001)) == b" " * 2001
    os.symlink(tmp_path / "big.json", tmp_path / "link.json")  # a link to a regular file is read
    assert read_match_file(tmp_path / "link.json", ReadLimits()) == b" " * 2001


@pytest.mark.needs_data
def test_competitions_lists_a_mirror_with_a_bomb_in_it_with_a_warning(bomb_mirror: Path, mirror: Path,
                                                                       tmp_path: Path):
    shutil.copytree(mirror / "bbl_2023-24", bomb_mirror / "bbl_2023-24")
    result = CliRunner().invoke(main, ["competitions", "--source", str(bomb_mirror)],
                                env={CACHE_ENV: str(tmp_path / "cache")})
    assert result.exit_code == 0, result.output
    warned = [line for line in result.output.splitlines() if line.startswith("warning: ")]
    assert warned == [f"warning: {bomb_mirror / BBL.download_file}: 1443999.json is compressed "
                      f"{_ratio(bomb_mirror / BBL.download_file)}:1, over the limit of 200:1 (a zip bomb?); "
                      f"not read (if it is a real Cricsheet archive, raise {RATIO_ENV}); its matches are not listed"]
    assert "Big Bash League (men) 2023-24: 41 matches" in result.output
