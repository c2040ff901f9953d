"""Ctrl+C at any moment is one line and exit 130 (issue 40, case 7): in the first second, while
Python imports click and cardgen, it printed a KeyboardInterrupt traceback.

The interrupt is made to land at a known moment: a stand-in for a module cardgen imports sends
the process its own SIGINT while it is being imported, then waits (a Ctrl+C that nothing
handles would let the import carry on, and the test would see the stand-in's own exit code).
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardgen.cache import CACHE_ENV
from cardgen.cli import main
from cardgen.errors import EXIT_INTERRUPTED, INTERRUPTED
from cardgen.sources.fetch import SOURCE_ENV

ROOT = Path(__file__).resolve().parent.parent
STAND_IN = """import os, signal, time
os.kill(os.getpid(), signal.SIGINT)  # Ctrl+C, while {module} is being imported
time.sleep(5)
raise SystemExit(99)
"""


@pytest.mark.parametrize("module, when", [("click", "while the command line starts up"),
                                          ("pandas", "while a command imports its tables' library")])
def test_ctrl_c_while_importing_is_the_one_line_and_130(tmp_path: Path, mirror: Path, module: str, when: str):
    (tmp_path / "shadow" / module).mkdir(parents=True)
    (tmp_path / "shadow" / module / "__init__.py").write_text(STAND_IN.format(module=module))
    run = subprocess.run([sys.executable, "-m", "cardgen", "stats", "-c", "BBL", "-s", "2024-25"],
                         capture_output=True, text=True, timeout=120, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path / "shadow"), str(ROOT)]),
                              CACHE_ENV: str(tmp_path / "cache"), SOURCE_ENV: str(mirror)})
    assert (run.returncode, run.stderr) == (EXIT_INTERRUPTED, f"Error: {INTERRUPTED}\n"), (when, run.stderr)
    assert run.stdout == ""


def test_the_command_is_the_launcher():
    """The installed `cardgen` (and `python -m cardgen`) start in cardgen.launch, which takes
    Ctrl+C before anything else is imported."""
    from cardgen.readfile import toml_module
    scripts = toml_module().loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    assert scripts == {"cardgen": "cardgen.launch:main"}
    assert "from cardgen.launch import main" in (ROOT / "cardgen" / "__main__.py").read_text(encoding="utf-8")


def test_a_command_puts_the_ctrl_c_handler_back(tmp_path: Path, mirror: Path):
    """While a command runs, Ctrl+C is a KeyboardInterrupt (its clean-up runs); after it, the
    handler is the caller's again (the launcher's, or a program's that calls cardgen's main)."""
    def mine(signum, frame):
        raise AssertionError("not called")
    previous = signal.signal(signal.SIGINT, mine)
    try:
        result = CliRunner().invoke(main, ["competitions"], env={CACHE_ENV: str(tmp_path / "c"),
                                                                 SOURCE_ENV: str(mirror)})
        assert result.exit_code == 0, result.output
        assert signal.getsignal(signal.SIGINT) is mine
    finally:
        signal.signal(signal.SIGINT, previous)
