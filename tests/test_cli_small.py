"""The smaller hostile-user cases: --team misuse, file modes, serve's backlog and busy port."""
from __future__ import annotations

import json
import os
import socket
import stat
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cache import CACHE_ENV
from cardgen.cli import main
from cardgen.errors import EXIT_ENVIRONMENT, EXIT_USAGE
from cardgen.sources.fetch import SOURCE_ENV


@pytest.fixture
def env(tmp_path: Path, mirror: Path) -> dict[str, str | None]:
    return {CACHE_ENV: str(tmp_path / "cache"), SOURCE_ENV: str(mirror), "CARDGEN_CRICINFO": None}


@pytest.mark.needs_data
@pytest.mark.parametrize("args, words", [
    (["-c", "BBL", "-s", "2024-25", "--team", ""], "give a team's name"),
    (["-c", "BBL", "-s", "2024-25", "--team", "   "], "give a team's name"),
    (["--game", "quick-cricket", "--team", "Adelaide Strikers"], "printed whole"),
])
def test_team_misuse_is_a_usage_error_before_any_work(args, words, tmp_path: Path, env):
    result = CliRunner().invoke(main, ["build", *args, "--out", str(tmp_path / "out")], env=env)
    assert result.exit_code == EXIT_USAGE and "Traceback" not in result.output
    assert "Invalid value for '--team'" in result.output and words in result.output
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


@pytest.mark.needs_data
@pytest.mark.parametrize("options, named", [(["--backs"], "--backs"),
                                            (["--bleed", "--solid-backs"], "--bleed, --solid-backs"),
                                            (["--team-per-sheet"], "--team-per-sheet"),
                                            (["--variants"], "--variants"),
                                            (["--card-set", "{set}"], "--card-set")])
def test_quicket_options_with_another_game_are_a_usage_error(options, named, tmp_path: Path, env):
    """The other games' kits have their own cards and layouts: these options were ignored without
    a word."""
    card_set = tmp_path / "card-set.json"
    card_set.write_text("{}")
    args = [o.replace("{set}", str(card_set)) for o in options]
    result = CliRunner().invoke(main, ["build", "--game", "roll-and-play", "-c", "BBL", "-s", "2024-25",
                                       *args, "--out", str(tmp_path / "out")], env=env)
    assert result.exit_code == EXIT_USAGE and "Traceback" not in result.output
    assert f"{named}: for the quicket kit only" in result.output
    assert not (tmp_path / "out").exists()


def _modes(folder: Path) -> dict[str, int]:
    return {p.relative_to(folder).as_posix(): stat.S_IMODE(p.stat().st_mode) for p in folder.rglob("*")}


@pytest.mark.slow
@pytest.mark.needs_data
def test_files_outside_the_quicket_kit_get_ordinary_modes(tmp_path: Path, env, monkeypatch):
    """Reports, other games' kits and the cache: 0644 files and 0755 folders (umask 022), not 0600."""
    old = os.umask(0o022)
    try:
        out = tmp_path / "out"
        runs = [["build", "--game", "quick-cricket", "--paper", "a4", "--out", str(out)],
                ["stats", "-c", "BBL", "-s", "2024-25", "--refresh", "--table", "league"],
                ["compare-games", "-c", "BBL", "-s", "2024-25", "--innings", "20", "--out", str(out)]]
        for args in runs:
            result = CliRunner().invoke(main, args, env=env)
            assert result.exit_code == 0, (args, result.output)
        for folder in (out, tmp_path / "cache"):
            modes = _modes(folder)
            assert modes, folder
            wrong = {name: oct(mode) for name, mode in modes.items()
                     if mode != (0o755 if (folder / name).is_dir() else 0o644)}
            assert not wrong, wrong
    finally:
        os.umask(old)


def _connected(client: socket.socket) -> bool:
    try:
        client.getpeername()
    except OSError:  # ENOTCONN: the handshake has not completed
        return False
    return True


def test_serve_listens_with_a_deep_backlog(tmp_path: Path):
    """100 clients connecting at once all get through the handshake before any is accepted
    (with Python's default backlog of 5 most would wait for SYN retries, ~1-3 s each)."""
    from cardgen.site.serve import make_server
    server = make_server(tmp_path, 0, quiet=True)
    clients = []
    try:
        address = server.server_address
        for _ in range(100):
            client = socket.socket()
            client.setblocking(False)
            client.connect_ex(address)
            clients.append(client)
        # Poll rather than sleep a fixed time: on a loaded machine the handshakes may take a while,
        # but with a short backlog nobody accepts, so the clients past it never get through
        # however long we wait (a listen(5) socket stays at 6 for good): the deadline only caps
        # how long a failure takes.
        deadline = time.monotonic() + 120
        while (connected := sum(map(_connected, clients))) < 100 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert connected == 100
    finally:
        for client in clients:
            client.close()
        server.server_close()


def test_serve_finds_its_port_taken_before_rendering_the_site(tmp_path: Path):
    out = tmp_path / "out"
    out.mkdir()
    busy = socket.create_server(("127.0.0.1", 0))
    try:
        port = busy.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "--out", str(out), "--port", str(port)])
        assert result.exit_code == EXIT_ENVIRONMENT and "Traceback" not in result.output
        assert f"cannot listen on 127.0.0.1:{port}" in result.output and "--port" in result.output
        assert not (out / "site").exists()  # nothing was rendered first
    finally:
        busy.close()


def test_a_bare_unicode_error_is_one_line_not_a_crash_of_the_handler():
    from cardgen.cli import describe_error
    message, code = describe_error(UnicodeError("x"))  # no .reason, unlike its subclasses
    assert code == EXIT_ENVIRONMENT and "\n" not in message and "UnicodeError: x" in message
    message, _ = describe_error(UnicodeEncodeError("ascii", "\u03a3", 0, 1, "ordinal not in range"))
    assert "UnicodeEncodeError: ordinal not in range" in message


def test_help_says_what_paper_both_and_cache_clear_do():
    paper = " ".join(CliRunner().invoke(main, ["build", "--help"]).output.split())
    assert "both (every sheet in both sizes" in paper and "use A4" not in paper
    # the kit's first file and the season tracker are named with the rest (helper-51)
    assert "START-HERE.txt" in paper and "season tracker" in paper and "OUT/<system>/" in paper
    clear = " ".join(CliRunner().invoke(main, ["cache", "--help"]).output.split())
    assert "kept card sets cardgen wrote" in clear


def test_help_says_the_bleed_each_paper_gets_and_what_site_reads_from_out():
    """The --bleed widths are the sheet layouts' own (templates/sheets.json); site and serve read
    the kits in --out, they write no set there (the help said 'the set is written under')."""
    import json
    from cardgen.paths import templates_dir
    bleeds = {name: spec["bleed_mm"] for name, spec in
              json.loads((templates_dir() / "sheets.json").read_text())["card_sheet"]["layouts"].items()}
    bleed = " ".join(CliRunner().invoke(main, ["build", "--help"]).output.split())
    assert (bleeds["a4-bleed"], bleeds["letter-bleed"]) == (3.0, 1.5)
    assert "3 mm on A4, 1.5 mm on Letter" in bleed
    for command in ("site", "serve"):
        text = " ".join(CliRunner().invoke(main, [command, "--help"]).output.split())
        assert "Folder of built kits the site is made from" in text
        assert "the set is written under" not in text



@pytest.fixture(scope="module")
def early_season(tmp_path_factory: pytest.TempPathFactory, mirror: Path) -> dict[str, str | None]:
    """A mirror of IPL 2025's first two matches, as a fan building an ongoing season has it, and
    a cache of its own."""
    root = tmp_path_factory.mktemp("early")
    early = root / "mirror" / "ipl_2025"
    early.mkdir(parents=True)
    for match in sorted((mirror / "ipl_2025").glob("*.json"))[:2]:
        (early / match.name).write_bytes(match.read_bytes())
    return {CACHE_ENV: str(root / "cache"), SOURCE_ENV: str(root / "mirror"), "CARDGEN_CRICINFO": None}


@pytest.mark.slow
@pytest.mark.needs_data
def test_an_early_season_of_two_matches_builds(tmp_path: Path, early_season):
    """The first two matches of IPL 2025 saw no stumping, LBW or run out: the league's rate of
    them is 0, which divided by zero in the card solve (a traceback) until the error scales got a
    floor."""
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", "-c", "IPL", "-s", "2025", "--paper", "a4",
                                       "--no-images", "--out", str(out)], env=early_season)
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    assert "used 2 matches" in result.output.lower()
    card_set = json.loads((out / "IPL_2025" / "card-set.json").read_text())
    assert len({c["team"] for c in card_set["cards"]}) == 4
    assert (out / "IPL_2025" / "cards-a4.pdf").stat().st_size > 0


@pytest.mark.needs_data
def test_validate_on_an_early_season_says_no_card_was_judged(tmp_path: Path, early_season):
    """No player has 60 real balls after two matches: validate says so instead of '0/0 qualified
    cards within their 95% interval (100.0%)', and passes on the engine checks alone."""
    result = CliRunner().invoke(main, ["validate", "-c", "IPL", "-s", "2025", "--balls", "2000",
                                       "--out", str(tmp_path)], env=early_season)
    assert result.exit_code == 0, result.output
    assert "no card to judge: none has 60 real balls yet (too few matches)" in result.output
    assert "0/0" not in result.output and "metric pass shares" not in result.output
    summary = json.loads((tmp_path / "IPL_2025" / "validation" / "validate_summary.json").read_text())
    assert summary["judged_cards"] == 0 and summary["engine_checks"] > 0


@pytest.mark.needs_data
def test_progress_bars_only_on_a_terminal(tmp_path: Path, env):
    """validate and simulate drew their bars into a log or a pipe (carriage-return lines in every
    redirected run) where build and the download draw theirs only on a terminal; now all alike.
    CliRunner's stderr is no terminal (helper-51)."""
    out = str(tmp_path / "out")
    for args, unit in ((["validate", "--balls", "200"], "ball/card"), (["simulate", "--seasons", "1"], "match")):
        result = CliRunner().invoke(main, [*args, "-c", "BBL", "-s", "2024-25", "--out", out], env=env)
        assert result.exit_code in (0, 1), result.output
        assert f"{unit}/s" not in result.output and "\r" not in result.output, result.output[:500]
