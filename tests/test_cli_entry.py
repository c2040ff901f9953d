"""The command can be started every way a user or a test starts it."""
from __future__ import annotations

import subprocess
import sys

import pytest

from cardgen.cli import LAYER_CLI_MODULES, main


@pytest.mark.parametrize("module", ["cardgen", "cardgen.cli"])
def test_python_dash_m_lists_every_layer_command(module: str) -> None:
    # `python -m cardgen.cli` once failed on a circular import that CliRunner cannot see
    done = subprocess.run([sys.executable, "-m", module, "--help"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    for command in ("build", "calibrate", "validate", "simulate", "site", "serve", "compare-games"):
        assert f"  {command} " in done.stdout


def test_every_layer_registers_commands() -> None:
    assert len(LAYER_CLI_MODULES) == 5
    assert {"build", "calibrate", "validate", "simulate", "site", "serve", "compare-games",
            "competitions", "stats", "cache"} <= set(main.commands)
