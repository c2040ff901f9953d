"""test.sh on Debian's own Python (issue 39): `./test.sh --fast`, as the README says, ran
`python3 -m pip install -e '.[test]'`, which Debian's and Ubuntu's python3 refuse outside a
virtualenv ("externally-managed-environment", PEP 668). It now installs into the clone's .venv.

The script runs for real, in a folder of its own, with `python3` on PATH a stand-in that hands
every `-c` check (the one that asks whether the Python is externally managed, the core count) to
Debian's real /usr/bin/python3 and writes down the `-m` commands (venv, pip, pytest) instead of
running them, so nothing is installed and no suite runs.
"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEBIAN_PYTHON = Path("/usr/bin/python3")
pytestmark = pytest.mark.slow   # test.sh run five times, each starting Python a few times

STAND_IN = """#!/bin/sh
# `-c CHECK`: the real Debian Python answers; `-m ...`: written down (a venv is made empty)
if [ "$1" = "-c" ]; then exec {debian} "$@"; fi
echo "$0 $*" >> "$TEST_SH_LOG"
if [ "$1 $2" = "-m venv" ]; then mkdir -p "$3/bin" && cp "$TEST_SH_STAND_IN" "$3/bin/python"; fi
exit 0
"""


def _externally_managed(python: Path) -> bool:
    if not python.is_file():
        return False
    found = subprocess.run([str(python), "-c", "import sys, sysconfig; print(sysconfig.get_path('stdlib'), "
                            "sys.prefix == sys.base_prefix)"], capture_output=True, text=True, timeout=60)
    stdlib, plain = found.stdout.split()
    return plain == "True" and (Path(stdlib) / "EXTERNALLY-MANAGED").is_file()


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    if not _externally_managed(DEBIAN_PYTHON):
        pytest.skip("no externally managed /usr/bin/python3 here (Debian, Ubuntu) to run test.sh on")
    folder = tmp_path / "cardgen"
    folder.mkdir()
    shutil.copy(ROOT / "test.sh", folder / "test.sh")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    stand_in = bin_dir / "python3"
    stand_in.write_text(STAND_IN.format(debian=DEBIAN_PYTHON))
    stand_in.chmod(0o755)
    return folder


def _run(clone: Path, **env: str) -> list[str]:
    log = clone.parent / "log"
    log.unlink(missing_ok=True)
    base = {"PATH": f"{clone.parent / 'bin'}:/usr/bin:/bin", "HOME": str(clone.parent), "CARDGEN_NO_APT": "1",
            "TEST_SH_LOG": str(log), "TEST_SH_STAND_IN": str(clone.parent / "bin" / "python3")}
    done = subprocess.run(["bash", str(clone / "test.sh"), "--fast"], capture_output=True, text=True,
                          env={**base, **env}, timeout=600)
    assert done.returncode == 0, done.stderr
    lines = log.read_text().splitlines()
    return [line.replace(f"{clone}/", "").replace(str(clone.parent), "TMP") for line in lines] + [f"stderr: {done.stderr.strip()}"]


def test_debians_python_installs_into_the_clones_venv_and_runs_from_it(clone: Path):
    first = _run(clone)
    assert first[:3] == ["TMP/bin/python3 -m venv .venv",
                         ".venv/bin/python -m pip install -q --disable-pip-version-check -e .[test]",
                         ".venv/bin/python -m pytest -q -m not slow and not needs_data"], first
    assert "is externally managed (Debian): installing into .venv" in first[3]
    # the next run takes the .venv it made
    assert _run(clone)[:2] == [".venv/bin/python -m pip install -q --disable-pip-version-check -e .[test]",
                               ".venv/bin/python -m pytest -q -m not slow and not needs_data"]


def test_a_given_python_or_no_install_is_left_as_it_is(clone: Path):
    given = clone.parent / "bin" / "python3"
    assert _run(clone, PYTHON=str(given))[:2] == [
        "TMP/bin/python3 -m pip install -q --disable-pip-version-check -e .[test]",
        "TMP/bin/python3 -m pytest -q -m not slow and not needs_data"]
    assert _run(clone, CARDGEN_NO_INSTALL="1")[:1] == ["TMP/bin/python3 -m pytest -q -m not slow and not needs_data"]
    assert not (clone / ".venv").exists()

