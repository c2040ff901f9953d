"""An audit of the commands against bad input and a hostile environment (notes/h-robust.md): each
test here failed before its fix. One clear line and exit 2 for bad input, and never the loss of a
file cardgen did not write."""
from __future__ import annotations

import errno
import http.server
import json
import os
import threading
from pathlib import Path
from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from cardgen.cache import CACHE_ENV
from cardgen.cli import main
from cardgen.errors import EXIT_ENVIRONMENT, EXIT_USAGE
from cardgen.sources.fetch import SOURCE_ENV
from tests.test_cli_errors import one_line_error

pytestmark = pytest.mark.needs_data


@pytest.fixture
def env(tmp_path: Path, mirror: Path) -> dict[str, str | None]:
    return {CACHE_ENV: str(tmp_path / "cache"), SOURCE_ENV: str(mirror), "CARDGEN_CRICINFO": None,
            "CARDGEN_NAMES": None}


@pytest.mark.parametrize("mine", [b"my own notes, not JSON\n", b'{"players": ["my", "list"]}\n', b""])
def test_calibrate_never_replaces_a_card_set_json_it_did_not_write(tmp_path: Path, env, mine: bytes):
    """`calibrate` replaced any OUT/<set>/card-set.json with its cards (build refuses the same
    file); now it stops before calibrating, and the user's file is as it was."""
    target = tmp_path / "out" / "BBL_2024-25" / "card-set.json"
    target.parent.mkdir(parents=True)
    target.write_bytes(mine)
    result = CliRunner().invoke(main, ["calibrate", "-c", "BBL", "-s", "2024-25", "--out",
                                       str(tmp_path / "out")], env=env)
    line = one_line_error(result, EXIT_USAGE)
    assert str(target) in line and "not a card set cardgen wrote" in line and "--out" in line
    assert target.read_bytes() == mine
    assert sorted(p.name for p in target.parent.iterdir()) == ["card-set.json"]


def test_calibrate_may_replace_a_card_set_it_wrote(card_set_file: Path, tmp_path: Path):
    """The refusal above is only for a file that is not a card set: calibrate's own set, of
    any version (a stale one included), is still recalibrated in place."""
    from cardgen.cli.calibrate import _refuse_a_file_cardgen_did_not_write
    target = tmp_path / "card-set.json"
    target.write_text(card_set_file.read_text(encoding="utf-8").replace(
        '"schema_version": ', '"schema_version": 9', 1), encoding="utf-8")
    _refuse_a_file_cardgen_did_not_write(target)  # no error
    _refuse_a_file_cardgen_did_not_write(tmp_path / "none-yet" / "card-set.json")


@pytest.mark.parametrize("content", [None, b"\xff\xfe not UTF-8", b"a,b\n1,2\n", b""])
def test_a_bad_names_file_is_exit_2(tmp_path: Path, env, content: bytes | None):
    """A names file that is missing or unreadable is bad input: exit 2 (it was 1, the code
    `validate` uses for a failed check)."""
    names = tmp_path / "names.csv"
    if content is not None:
        names.write_bytes(content)
    result = CliRunner().invoke(main, ["stats", "-c", "BBL", "-s", "2024-25", "--table", "league",
                                       "--names", str(names)], env=env)
    assert "names file" in one_line_error(result, EXIT_USAGE)


@pytest.mark.parametrize("how", ["option", "env"])
def test_a_source_that_is_a_file_is_an_input_error(tmp_path: Path, env, how: str):
    """--source naming a file failed as a disk error (exit 3, 'choose another folder'); it is
    the wrong input: exit 2, saying a folder or URL is wanted, and the file is untouched."""
    afile = tmp_path / "matches.json"
    afile.write_text("{}")
    args = ["stats", "-c", "BBL", "-s", "2024-25", "--table", "league", "--refresh"]
    result = CliRunner().invoke(main, args + (["--source", str(afile)] if how == "option" else []),
                                env={**env, SOURCE_ENV: str(afile) if how == "env" else env[SOURCE_ENV]})
    line = one_line_error(result, EXIT_USAGE)
    assert str(afile) in line and "is a file, not a folder" in line
    assert afile.read_text() == "{}"


def test_a_source_url_of_another_scheme_is_named_as_given(env):
    """`--source ftp://host/x` said 'source folder ftp:/host/x does not exist' (the URL read as
    a path, one slash lost)."""
    result = CliRunner().invoke(main, ["stats", "-c", "BBL", "-s", "2024-25", "--table", "league",
                                       "--refresh", "--source", "ftp://host/x"], env=env)
    line = one_line_error(result, EXIT_USAGE)
    assert "ftp://host/x" in line and "http://" in line


def test_a_site_refresh_keeps_the_files_the_user_added(tmp_path: Path, env):
    """`cardgen site` replaced the site folder whole: a CNAME or a page the user had put in it
    (to publish the site) was deleted on the next refresh. The marker now lists what cardgen
    wrote; everything else is carried into the new site and named."""
    out = tmp_path / "out"
    out.mkdir()
    runner = CliRunner()
    assert runner.invoke(main, ["site", "--out", str(out)], env=env).exit_code == 0
    site = out / "site"
    (site / "CNAME").write_text("cards.example.org\n")
    (site / "mine").mkdir()
    (site / "mine" / "notes.txt").write_text("print on 160 gsm\n")
    result = runner.invoke(main, ["site", "--out", str(out)], env=env)
    assert result.exit_code == 0, result.output
    assert (site / "CNAME").read_text() == "cards.example.org\n"
    assert (site / "mine" / "notes.txt").read_text() == "print on 160 gsm\n"
    assert "kept 2 file(s)" in result.output and "CNAME" in result.output
    assert (site / "index.html").is_file()


def test_a_site_from_before_the_manifest_keeps_the_users_files_and_drops_its_own(tmp_path: Path, env):
    """A site written before the kit manifest has a `.cardgen-site` listing its files (manifest
    version 0): they are known for cardgen's (a page of a set no longer built goes), anything
    else stays, and the refreshed site has the manifest instead."""
    out = tmp_path / "out"
    out.mkdir()
    runner = CliRunner()
    assert runner.invoke(main, ["site", "--out", str(out)], env=env).exit_code == 0
    site = out / "site"
    files = json.loads((site / ".cardgen-kit.json").read_text())["files"]
    (site / ".cardgen-kit.json").unlink()
    (site / "sets" / "OLD_2020").mkdir(parents=True)
    (site / "sets" / "OLD_2020" / "index.html").write_text("<p>an old set</p>")
    (site / ".cardgen-site").write_text(json.dumps(
        {"written_by": "cardgen site", "files": [*files, "sets/OLD_2020/index.html"]}))
    (site / "CNAME").write_text("cards.example.org\n")
    result = runner.invoke(main, ["site", "--out", str(out)], env=env)
    assert result.exit_code == 0, result.output
    assert (site / "CNAME").read_text() == "cards.example.org\n"
    assert not (site / "sets" / "OLD_2020").exists() and not (site / ".cardgen-site").exists()
    assert json.loads((site / ".cardgen-kit.json").read_text())["kind"] == "site"


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.slow
@pytest.mark.parametrize("command", [
    ["validate", "--balls", "200"],
    ["simulate", "--seasons", "1"],
])
def test_a_report_stopped_while_its_pdf_is_drawn_leaves_the_last_report_whole(
        card_set_file: Path, tmp_path: Path, env, monkeypatch: pytest.MonkeyPatch, command: list[str]):
    """Ctrl+C (or a full disk) while the report's PDF was drawn left this run's CSV and JSON
    beside the last run's PDF: a summary saying seed 1 next to a PDF of seed 0. The report's
    files are now written together, after all of them are made."""
    out = tmp_path / "out"
    args = [command[0], "-c", "BBL", "-s", "2024-25", "--cards", str(card_set_file), *command[1:],
            "--out", str(out)]
    runner = CliRunner()
    first = runner.invoke(main, args + ["--seed", "0"], env=env)
    assert first.exit_code in (0, 1), first.output  # validate: 1 is a verdict, not an error
    folder = out / "BBL_2024-25" / "validation"
    before = _files(folder)
    assert len(before) >= 3

    def interrupted(self, *a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr("cardgen.sim.report.SimpleDocTemplate.build", interrupted)
    second = runner.invoke(main, args + ["--seed", "1"], env=env)
    assert second.exit_code == 130 and "interrupted" in second.output, second.output
    assert _files(folder) == before  # the same files, byte for byte, and no temporary one


class _FullDiskFile:
    """A file whose every write fails as a full disk's does (ENOSPC, naming no file)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def write(self, data: bytes) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def __enter__(self) -> _FullDiskFile:
        return self

    def __exit__(self, *exc: object) -> None:
        os.close(self.fd)


@pytest.mark.parametrize("command", ["build", "stats"])
def test_a_full_disk_names_the_folder_that_needs_the_space(card_set_file: Path, tmp_path: Path, env,
                                                         monkeypatch: pytest.MonkeyPatch, command: str):
    """A full disk said only 'no space left on the disk; ... choose a folder on another disk':
    with the cache and the output on different disks the user could not tell which was full
    (the failing write names no file). The message now names it."""
    from test_cli_errors import tiny_disk
    with tiny_disk(tmp_path / "disk", 64) as disk:
        if disk is None:  # not root: the real write fails as a full disk's would
            monkeypatch.setattr("cardgen.cache.os.fdopen", lambda fd, mode: _FullDiskFile(fd))
            disk = tmp_path / "disk"
        if command == "build":
            args = ["build", "-c", "BBL", "-s", "2024-25", "--card-set", str(card_set_file),
                    "--paper", "a4", "--no-images", "--out", str(disk / "out")]
            named = str(disk / "out")
        else:
            args = ["stats", "-c", "BBL", "-s", "2024-25", "--refresh", "--table", "league"]
            env = {**env, CACHE_ENV: str(disk / "cache")}
            named = str(disk / "cache")
        line = one_line_error(CliRunner().invoke(main, args, env=env), EXIT_ENVIRONMENT)
        assert "no space left" in line and f"cannot use {named}" in line, line
        assert not [p for p in disk.rglob("*") if p.name.endswith(".tmp") or ".build-" in p.name]


@pytest.fixture
def login_page_server() -> Iterator[str]:
    """A loopback server answering every request with a web page, as a Wi-Fi login page does."""
    class LoginPage(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the http.server name
            body = b"<!doctype html><html><body>Log in to use the Wi-Fi</body></html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), LoginPage)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_a_login_page_instead_of_the_zip_is_a_network_error(login_page_server: str, tmp_path: Path, env):
    """A captive portal answers 200 with a web page: that said 'did not return a complete zip
    (download cut short?); try again' (exit 2), which no retry mends. It is the network: exit 3,
    and the line says what came back. Nothing is cached."""
    result = CliRunner().invoke(main, ["stats", "-c", "PSL", "-s", "2021", "--table", "league",
                                       "--source", login_page_server], env=env)
    line = one_line_error(result, EXIT_ENVIRONMENT)
    assert "answered with a web page, not a zip" in line and "--source" in line
    assert not (tmp_path / "cache" / "raw").exists() or not any((tmp_path / "cache" / "raw").iterdir())


def test_a_season_folder_with_no_readable_file_says_so(tmp_path: Path, mirror: Path, env):
    """Every match file of the season damaged: the error said 'BBL 2024-25 is not in MIRROR
    (available here: 2024-25 ...)', contradicting itself. It now says no file of the season's
    folder could be read."""
    season = tmp_path / "mirror" / "bbl_2024-25"
    season.mkdir(parents=True)
    for path in sorted((mirror / "bbl_2024-25").glob("*.json"))[:2]:
        (season / path.name).write_bytes(path.read_bytes()[:100])
    result = CliRunner().invoke(main, ["stats", "-c", "BBL", "-s", "2024-25", "--table", "league",
                                       "--source", str(tmp_path / "mirror")], env=env)
    assert result.exit_code == EXIT_USAGE and "Traceback" not in result.output
    last = result.output.strip().splitlines()[-1]
    assert f"no match file in {season} could be read" in last and "available here" not in last


def test_a_name_longer_than_a_file_name_still_builds(card_set_file: Path, tmp_path: Path, env):
    """A --names correction 300 characters long (a pasted paragraph) failed the whole build with
    'the path is too long; choose a shorter folder name' (the card PNG is named after the
    player). The name's part of the file name is cut; the card still prints the name."""
    import json
    card_set = json.loads(card_set_file.read_text(encoding="utf-8"))
    card = next(c for c in card_set["cards"] if c["team"] == "Adelaide Strikers")
    long_name = "Adelaide Strikers' new overseas signing, " * 8
    names = tmp_path / "names.csv"
    names.write_text(f'id,name\n{card["player"]["id"]},"{long_name.strip()}"\n', encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", "-c", "BBL", "-s", "2024-25", "--card-set", str(card_set_file),
                                       "--names", str(names), "--team", "Adelaide", "--paper", "a4",
                                       "--out", str(out)], env=env)
    assert result.exit_code == 0, result.output
    pngs = sorted((out / "BBL_2024-25_adelaide-strikers" / "png").glob("*-new-overseas-signing-*.png"))
    assert pngs and all(len(p.name.encode()) < 255 for p in pngs)


def test_raw_only_without_clear_is_a_usage_error(tmp_path: Path, env):
    """`cardgen cache --raw-only` did nothing and said nothing (the user meant to clear)."""
    result = CliRunner().invoke(main, ["cache", "--raw-only"], env=env)
    assert result.exit_code == EXIT_USAGE and "Traceback" not in result.output
    assert "--raw-only goes with --clear" in result.output


def test_a_corrected_competition_entry_rebuilds_its_cached_tables(tmp_path: Path, env):
    """A user's competition read from the mirror, then its entry corrected (here: sex = women):
    the cached tables were keyed by the source only, so the men's matches read under the first
    entry were served again. The competition's definition is now part of the key, and a season
    folder none of whose matches is the competition's says so (it said 'not in the mirror
    (available here: 2021)')."""
    entry = '[[competition]]\ncode = "PAK"\nname = "Pakistan Super League"\nmirror_folder = "psl"\n'
    men, women = tmp_path / "men.toml", tmp_path / "women.toml"
    men.write_text(entry, encoding="utf-8")
    women.write_text(entry + 'sex = "women"\n', encoding="utf-8")
    args = ["stats", "-c", "PAK", "-s", "2021", "--table", "league", "--format", "json"]
    runner = CliRunner()
    first = runner.invoke(main, args, env={**env, "CARDGEN_COMPETITIONS": str(men)})
    assert first.exit_code == 0, first.output
    second = runner.invoke(main, args, env={**env, "CARDGEN_COMPETITIONS": str(women)})
    line = one_line_error(second, EXIT_USAGE)
    assert "none of the 34 match files" in line and "women's Pakistan Super League" in line


def test_a_deleted_working_folder_is_named_as_such(tmp_path: Path, mirror: Path):
    """Run from a folder deleted under the shell (a removed build tree): every command said only
    'no such file or folder; check the path', naming no path, even with an absolute --out."""
    import subprocess
    import sys
    gone = tmp_path / "gone"
    gone.mkdir()
    script = ("import os, sys; os.chdir(sys.argv[1]); os.rmdir(sys.argv[1]); "
              "from cardgen.cli import main; main(sys.argv[2:], prog_name='cardgen')")
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.run([sys.executable, "-c", script, str(gone), "stats", "-c", "BBL", "-s", "2024-25",
                           "--table", "league"], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PYTHONPATH": str(root), CACHE_ENV: str(tmp_path / "cache"),
                               SOURCE_ENV: str(mirror)})
    assert proc.returncode == EXIT_ENVIRONMENT, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip() == ("Error: the working folder no longer exists (deleted or moved); "
                                   "cd to a folder that exists and run again")


@pytest.mark.parametrize("args", [["build", "-c", "BBL", "-s", "2024-25", "--out", ""],
                                  ["calibrate", "-c", "BBL", "-s", "2024-25", "--out", " "],
                                  ["site", "--site-dir", ""],
                                  ["preflight", ""]])
def test_an_empty_folder_option_is_a_usage_error_not_the_working_folder(tmp_path: Path, env, monkeypatch, args):
    """`--out "$OUT"` with OUT unset: click read "" as ".", and the kit landed in the working
    folder unasked. Now a usage error (exit 2) that names the option, and nothing is written."""
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, args, env=env)
    assert result.exit_code == EXIT_USAGE, result.output
    assert "is empty: name a folder" in result.output and "Traceback" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == []
