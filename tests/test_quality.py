"""The quality gate: ruff and mypy, configured in pyproject.toml, find nothing (CI runs this file).

Both tools are test extras (pyproject.toml), run as modules of the interpreter that runs the
tests, so a clone's venv needs nothing else. mypy keeps a ratchet (pyproject's
[[tool.mypy.overrides]] list of modules that still have errors): the test checks the list both
ways, so a new error anywhere else fails, and so does a listed module that has become clean.
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cardgen.readfile import toml_module

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=900)  # caps a hung run only; mypy takes ~20 s on a quiet machine


def test_ruff_finds_nothing() -> None:
    done = _run("ruff", "check", "--no-cache", "--output-format", "concise", ".")
    assert done.returncode == 0, f"ruff check . found:\n{done.stdout}{done.stderr}"


def _mypy_config() -> dict[str, Any]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return dict(toml_module().load(f)["tool"]["mypy"])


def _ini_value(value: Any) -> str:
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return str(value)


def _module(error: str) -> str:
    """'cardgen.cli' of "cardgen/cli/__init__.py:101: error: ..." """
    return re.sub(r"(\.__init__)?\.py$", "", error.split(":")[0].replace("/", "."))


@pytest.mark.slow
def test_mypy_finds_nothing_outside_the_ratchet_and_every_listed_module_still_has_errors(
        tmp_path: Path) -> None:
    config = _mypy_config()
    ratchet = {m for o in config.pop("overrides", []) if o.get("ignore_errors") for m in o["module"]}
    # the same settings without the ratchet: every module's errors are reported
    ini = tmp_path / "mypy.ini"
    ini.write_text("[mypy]\n" + "".join(f"{k} = {_ini_value(v)}\n" for k, v in config.items()))
    done = _run("mypy", "--config-file", str(ini), "--cache-dir", str(ROOT / ".mypy_cache" / "gate"))
    assert done.returncode in (0, 1), done.stdout + done.stderr  # 2: mypy itself failed
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    with_errors = {_module(line) for line in errors}
    new = sorted(line for line in errors if _module(line) not in ratchet)
    assert not new, "mypy finds errors in modules it checks (fix them):\n" + "\n".join(new)
    clean = sorted(ratchet - with_errors)
    assert not clean, f"these modules are clean now: take them off pyproject's mypy ratchet: {clean}"
