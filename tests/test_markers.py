"""The needs_data marker of tests/conftest.py: tests that ask for the mirror are marked by
themselves, and an unmarked test that reads ../shared some other way fails, naming the path.
Run in a child pytest on throwaway test files, so it needs no ../shared itself."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

# the throwaway run uses the suite's own marker hooks and `mirror` fixture (not its autouse
# fixtures, which cost seconds); SHARED is the real ../shared path, whether it exists or not
SUITE_CONFTEST = Path(__file__).resolve().parent / "conftest.py"
CONFTEST = f"""
import importlib.util
spec = importlib.util.spec_from_file_location("suite_conftest", {str(SUITE_CONFTEST)!r})
suite = importlib.util.module_from_spec(spec)
spec.loader.exec_module(suite)
SHARED = suite.SHARED
mirror = suite.mirror
pytest_configure = suite.pytest_configure
pytest_collection_modifyitems = suite.pytest_collection_modifyitems
pytest_runtest_protocol = suite.pytest_runtest_protocol
pytest_runtest_makereport = suite.pytest_runtest_makereport
"""

TESTS = """
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import SHARED

DATA = SHARED / "data"


def _hidden():  # ../shared reached in a way no name shows
    return Path(os.environ["HIDDEN_SHARED"])


@pytest.fixture
def built_on_the_mirror(mirror):
    return mirror


@pytest.fixture
def a_players_path():
    return DATA / "players"


def _helper():
    return DATA / "SOURCES.md"


def test_through_a_fixture(built_on_the_mirror):
    pass


def test_through_a_fixture_naming_it(a_players_path):
    pass


def test_through_a_helper_naming_it():
    assert _helper().name == "SOURCES.md"


def test_names_it_in_its_body():
    assert SHARED.name == "shared"


@pytest.mark.needs_data
def test_marked_by_hand():
    try:
        os.listdir(_hidden() / "data")
    except OSError:
        pass


def test_opens_a_file_there():
    try:
        open(_hidden() / "data" / "SOURCES.md").close()
    except OSError:  # a clone alone: the open was still seen
        pass


def test_lists_it():
    try:
        os.listdir(_hidden() / "data")
    except OSError:
        pass


def test_hands_it_to_a_subprocess():
    subprocess.run([sys.executable, "-c", "pass", str(_hidden() / "data")], check=True)


def test_reads_nothing_there(tmp_path):
    (tmp_path / "shared.txt").write_text("a file named shared, elsewhere")
    assert (tmp_path / "shared.txt").read_text()
"""

AUTO_MARKED = {"test_through_a_fixture", "test_through_a_fixture_naming_it",
               "test_through_a_helper_naming_it", "test_names_it_in_its_body"}


@pytest.fixture
def suite(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.setenv("HIDDEN_SHARED", str(SUITE_CONFTEST.parent.parent.parent / "shared"))
    pytester.makeini("[pytest]\nmarkers =\n    needs_data: reads ../shared\n"
                     "addopts = --strict-markers -p no:cacheprovider\n")
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_reads=TESTS)
    return pytester


def test_tests_reaching_shared_are_marked_and_unmarked_readers_fail(suite: pytest.Pytester):
    result = suite.runpytest_subprocess("-m", "not needs_data", "-v")
    ran = {line.split("::")[1].split()[0]: line.split()[1] for line in result.outlines
           if line.startswith("test_reads.py::")
           and line.split()[1] in ("PASSED", "FAILED")}
    # every test but those run was deselected: marked by hand or at collection
    assert ran == {"test_reads_nothing_there": "PASSED", "test_opens_a_file_there": "FAILED",
                   "test_lists_it": "FAILED", "test_hands_it_to_a_subprocess": "FAILED"}, ran
    result.assert_outcomes(passed=1, failed=3, deselected=len(AUTO_MARKED) + 1)
    for name, what in (("test_opens_a_file_there", "SOURCES.md"), ("test_lists_it", "data"),
                       ("test_hands_it_to_a_subprocess", "data")):
        result.stdout.fnmatch_lines([f"*{name} read *shared*{what}* but is not marked: add "
                                     f"@pytest.mark.needs_data*"])
