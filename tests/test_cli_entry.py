"""The command can be started every way a user or a test starts it."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from cardgen.cli import COMMAND_MODULES, main


@pytest.mark.parametrize("module", ["cardgen", "cardgen.cli"])
def test_python_dash_m_lists_every_layer_command(module: str) -> None:
    # `python -m cardgen.cli` once failed on a circular import that CliRunner cannot see
    done = subprocess.run([sys.executable, "-m", module, "--help"], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    for command in ("build", "calibrate", "validate", "simulate", "site", "serve", "compare-games", "league"):
        assert f"  {command} " in done.stdout


def test_every_layer_registers_commands() -> None:
    assert len(COMMAND_MODULES) == 9
    assert {"build", "calibrate", "validate", "simulate", "site", "serve", "compare-games",
            "competitions", "stats", "cache", "replay", "league", "catalogue"} <= set(main.commands)


@pytest.mark.slow
def test_no_layer_imports_the_command_line() -> None:
    """Data flows one way: sources, stats, calibrate, render, sim, site and games never import
    cardgen.cli (its command modules import them)."""
    package = Path(__file__).resolve().parent.parent / "cardgen"
    offenders = []
    for path in sorted(package.rglob("*.py")):
        if path.relative_to(package).parts[0] in ("cli", "__main__.py", "launch.py"):  # the command line itself
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(n == "cardgen.cli" or n.startswith("cardgen.cli.") for n in names):
                offenders.append(f"{path.relative_to(package)}:{node.lineno}")
    assert not offenders, offenders
