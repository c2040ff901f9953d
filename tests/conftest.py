"""Shared fixtures: the local Cricsheet mirror in ../shared and a throwaway cache."""
from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis.configuration import set_hypothesis_home_dir

from cardgen.cache import Cache

# property tests draw the same examples every run (a failure reproduces) and keep no example
# database in the checkout (.hypothesis/); CI=true already does this, now every run does
settings.register_profile("cardgen", derandomize=True, database=None)
settings.load_profile("cardgen")
set_hypothesis_home_dir(Path(tempfile.gettempdir()) / "cardgen-tests-hypothesis")  # its own caches

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
MIRROR = SHARED / "data" / "cricsheet"
PLAYERS = SHARED / "data" / "players"


@pytest.fixture(scope="session", autouse=True)
def _private_user_cache(tmp_path_factory: pytest.TempPathFactory):
    """The suite never reads or writes the user's own cardgen cache (tests that need another
    cache set CARDGEN_CACHE themselves, which overrides this)."""
    patch = pytest.MonkeyPatch()
    patch.setenv("CARDGEN_CACHE", str(tmp_path_factory.mktemp("user-cache")))
    yield
    patch.undo()


@pytest.fixture(autouse=True)
def _no_process_settings_left_over():
    """`--refresh`, `--names` and `--strict` set process-wide switches for one command; a test
    never starts with another test's (a left-over --refresh would make later reads download)."""
    from cardgen.cli import _end_of_command_switches
    _end_of_command_switches()
    yield


@pytest.fixture(scope="session")
def mirror() -> Path:
    if not MIRROR.is_dir():
        pytest.fail(f"the Cricsheet mirror is missing at {MIRROR} (clone beside ../shared)")
    return MIRROR


@pytest.fixture
def tmp_cache(tmp_path: Path) -> Cache:
    return Cache(tmp_path / "stats_cache")


@pytest.fixture(scope="session")
def bbl_stats(mirror: Path, tmp_path_factory: pytest.TempPathFactory):
    """BBL 2024-25 tables built from the mirror (not the committed cache)."""
    from cardgen.competitions import get_competition
    from cardgen.stats.load import season_stats
    cache = Cache(tmp_path_factory.mktemp("cache"))
    return season_stats(get_competition("BBL"), "2024-25", str(mirror), cache=cache)


@pytest.fixture(scope="session")
def hundred_stats(mirror: Path, tmp_path_factory: pytest.TempPathFactory):
    from cardgen.competitions import get_competition
    from cardgen.stats.load import season_stats
    cache = Cache(tmp_path_factory.mktemp("cache"))
    return season_stats(get_competition("HUNDRED"), "2024", str(mirror), cache=cache)


@pytest.fixture(scope="session")
def render_card_sets(bbl_stats, hundred_stats) -> dict[str, dict]:
    """The BBL 2024-25 (T20) and The Hundred 2024 (100-ball) card sets with the rule, calibrated
    once per session from the mirror's tables: the suite's only calibration of these two seasons
    (a calibration takes 10-12 s; tests that change a set take a deep copy)."""
    from cardgen.calibrate.cardset import card_set_from_stats
    from cardgen.competitions import get_competition
    return {"BBL": card_set_from_stats(bbl_stats, get_competition("BBL"), "2024-25"),
            "HUNDRED": card_set_from_stats(hundred_stats, get_competition("HUNDRED"), "2024")}


@pytest.fixture(scope="session")
def card_set_file(render_card_sets: dict[str, dict], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """BBL 2024-25's card-set.json as `cardgen calibrate` writes it (the session's calibrated set,
    written once), for the tests that feed a card set to other commands."""
    from cardgen.calibrate.cardset import write_card_set
    return write_card_set(render_card_sets["BBL"], tmp_path_factory.mktemp("bbl-card-set"))
