"""Files cardgen wrote and reads back, damaged or replaced (issue 40: a damaged cache, a hostile
environment). A 100,000-deep `[[[...` in the cache's manifest.json was exit 70, "cardgen hit a
bug (RecursionError ...)", in `stats` and in `cache --clear`; the same in a kit's manifest (or a
marker from before it) or a kit's other lists was the same crash in `build`, `site` and the
games' kits; a FIFO in the place of a manifest blocked the read forever. Each is now a file that is damaged:
rebuilt, skipped or cleared as a truncated one is.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from collections.abc import Callable

import pytest
from click.testing import CliRunner

from cardgen.cache import CACHE_ENV, Cache
from cardgen.cli import main
from cardgen.readfile import (FileTooLarge, NestedTooDeeply, NotARegularFile, read_bounded,
                              read_json_file)

ROOT = Path(__file__).resolve().parent.parent
DEEP = "[" * 100_000 + "]" * 100_000  # deeper than Python's JSON parser goes (RecursionError)


def test_json_nested_too_deeply_is_damage_not_a_crash(tmp_path: Path):
    (tmp_path / "deep.json").write_text(DEEP)
    with pytest.raises(NestedTooDeeply):
        read_json_file(tmp_path / "deep.json")
    assert issubclass(NestedTooDeeply, ValueError)  # what every caller already takes as damaged
    (tmp_path / "fine.json").write_text('{"files": {"a.csv": "0f"}}')
    assert read_json_file(tmp_path / "fine.json") == {"files": {"a.csv": "0f"}}


def test_only_a_regular_file_within_the_limit_is_read(tmp_path: Path):
    os.mkfifo(tmp_path / "fifo.json")  # no writer: a plain open would block forever
    with pytest.raises(NotARegularFile, match="is a FIFO, not a regular file"):
        read_bounded(tmp_path / "fifo.json", 100)
    (tmp_path / "folder.json").mkdir()
    with pytest.raises(NotARegularFile, match="is a folder"):
        read_json_file(tmp_path / "folder.json")
    (tmp_path / "big.json").write_bytes(b"1" * 101)
    with pytest.raises(FileTooLarge):
        read_bounded(tmp_path / "big.json", 100)
    assert read_bounded(tmp_path / "big.json", 101) == b"1" * 101
    os.symlink(tmp_path / "big.json", tmp_path / "link.json")  # a link to a regular file is read
    assert read_json_file(tmp_path / "link.json") == int("1" * 101)


SEASON = ["-c", "WPL", "-s", "2023"]  # the mirror's smallest season (22 matches): quick to rebuild


def _stats(cache: Path, mirror: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["stats", *SEASON, "--source", str(mirror), "--table", "league",
                                       "--format", "json"],
                                env={CACHE_ENV: str(cache), "CARDGEN_CRICINFO": None})
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def warm_cache(mirror: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A cache holding the season's tables, and what `stats` printed from them."""
    cache = tmp_path_factory.mktemp("warm") / "cache"
    code, printed = _stats(cache, mirror)
    assert code == 0, printed
    return cache, printed


def _entry(cache: Path) -> Path:
    [folder] = (cache / "tables").glob("WPL_2023-*")
    return folder


@pytest.mark.slow
def test_a_deep_cache_manifest_is_rebuilt_and_cleared_not_a_bug(warm_cache: tuple[Path, str],
                                                                 tmp_path: Path, mirror: Path):
    """The cached tables of a season are rebuilt from the mirror when their manifest is nested
    too deeply, as when it is truncated; `cache --clear` still knows the entry as cardgen's."""
    cache = tmp_path / "cache"
    shutil.copytree(warm_cache[0], cache)
    folder = _entry(cache)
    (folder / "manifest.json").write_text(DEEP)
    assert not Cache(folder.parent).is_complete(folder.name)
    assert _stats(cache, mirror) == (0, warm_cache[1])  # was 70, "cardgen hit a bug (RecursionError ...)"
    assert Cache(folder.parent).is_complete(folder.name)  # rebuilt whole

    (folder / "manifest.json").write_text(DEEP)
    result = CliRunner().invoke(main, ["cache", "--clear"], env={CACHE_ENV: str(cache)})
    assert result.exit_code == 0, result.output
    assert not folder.exists()


@pytest.mark.slow
@pytest.mark.parametrize("name", ["manifest.json", "batting.csv"])
def test_a_fifo_in_the_cache_is_rebuilt_not_a_hang(name: str, warm_cache: tuple[Path, str],
                                                    tmp_path: Path, mirror: Path):
    """A FIFO in the place of the manifest, or of a table it lists: the entry is incomplete and
    rebuilt. The run is a child process with a time limit, so a hang fails the test instead of
    hanging the suite."""
    cache = tmp_path / "cache"
    shutil.copytree(warm_cache[0], cache)
    folder = _entry(cache)
    (folder / name).unlink()
    os.mkfifo(folder / name)
    env = {**os.environ, CACHE_ENV: str(cache), "PYTHONPATH": str(ROOT)}
    env.pop("CARDGEN_CRICINFO", None)
    run = subprocess.run([sys.executable, "-m", "cardgen", "stats", *SEASON, "--source", str(mirror),
                          "--table", "league", "--format", "json"], capture_output=True, text=True,
                         timeout=120, env=env, stdin=subprocess.DEVNULL)
    assert (run.returncode, run.stdout) == (0, warm_cache[1]), run.stderr
    assert (folder / name).is_file()  # the FIFO replaced by the rebuilt file


def _kit_manifest(folder: Path) -> bool:
    from cardgen.manifest import FILE_NAME, read_manifest
    (folder / FILE_NAME).write_text(DEEP)
    return read_manifest(folder) is None  # not a kit: nothing of the folder taken for cardgen's


def _site_marker(folder: Path) -> bool:
    from cardgen.manifest import read_manifest
    (folder / ".cardgen-site").write_text(DEEP)  # a site's marker before the manifest
    return read_manifest(folder) is None


def _previous_game_kit(folder: Path) -> bool:
    from cardgen.manifest import PREVIOUS_GAME_MARKER, read_manifest
    (folder / PREVIOUS_GAME_MARKER).write_text(DEEP)
    return read_manifest(folder) is None


def _previous_teams(folder: Path) -> bool:
    from cardgen.manifest import FILE_NAME, read_manifest
    (folder / FILE_NAME).write_text('{"written_by": "cardgen build", "files": ["teams/teams.json"]}')
    (folder / "teams").mkdir()
    (folder / "teams" / "teams.json").write_text(DEEP)
    manifest = read_manifest(folder)
    return manifest is not None and manifest.teams == ()  # the kit, without its damaged team list


def _tts_decks(folder: Path) -> bool:
    from cardgen.render.images import TTS_DECKS
    from cardgen.site.kit import _read_tts_decks
    (folder / TTS_DECKS).parent.mkdir()
    (folder / TTS_DECKS).write_text(DEEP)
    return _read_tts_decks(folder) is None


def _validation_summary(folder: Path) -> bool:
    from cardgen.site.kit import _read_validation
    (folder / "validation").mkdir()
    (folder / "validation" / "summary.json").write_text(DEEP)
    return _read_validation(folder).files != []  # listed for download, its figures left out


def _game_kit(folder: Path) -> bool:
    from cardgen.manifest import FILE_NAME
    from cardgen.site.kit import SiteError, read_game_kit
    (folder / "kit").mkdir()
    (folder / "kit" / FILE_NAME).write_text(DEEP)
    with pytest.raises(SiteError, match="is not a game kit's manifest"):
        read_game_kit(folder / "kit", folder)
    return True


@pytest.mark.parametrize("damaged", [_kit_manifest, _site_marker, _previous_game_kit, _previous_teams,
                                     _tts_decks, _validation_summary, _game_kit],
                         ids=lambda f: f.__name__.strip("_"))
def test_every_reader_of_cardgens_own_json_takes_a_deep_file_as_damaged(
        damaged: Callable[[Path], bool], tmp_path: Path):
    """Each reader answers as for a truncated file (was RecursionError: exit 70)."""
    assert damaged(tmp_path)
