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


# The complexity ratchet (issue 39): no function ranks E or F (cyclomatic complexity > 30) by
# radon, except the numba kernel, whose per-delivery bookkeeping is one compiled function on
# purpose (splitting it costs calls in the hot loop), and the functions listed here. The list
# was issue 39's offenders and is empty now; it may only shrink: a new offender is split into
# helpers of rank D or better, not listed. The test checks it both ways, like mypy's ratchet.
COMPLEXITY_EXEMPT = {"cardgen/sim/fast_compiled.py"}
COMPLEXITY_ALLOWED: set[str] = set()  # empty since issue 39: keep it so


def _complex_blocks() -> dict[str, str]:
    """{qualified name: 'E (35)'} of every function or class radon ranks E or F, outside the exempt."""
    from radon.complexity import cc_rank, cc_visit

    found: dict[str, str] = {}
    for path in sorted((ROOT / "cardgen").rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if relative in COMPLEXITY_EXEMPT:
            continue
        module = re.sub(r"(/__init__)?\.py$", "", relative).replace("/", ".")
        for block in cc_visit(path.read_text(encoding="utf-8")):
            rank = cc_rank(block.complexity)
            if rank in ("E", "F"):
                found[f"{module}.{block.fullname}"] = f"{rank} ({block.complexity})"
    return found


def test_radon_ranks_no_function_e_or_f_outside_the_ratchet_and_every_listed_one_still_is() -> None:
    found = _complex_blocks()
    new = sorted(f"{name}: {rank}" for name, rank in found.items() if name not in COMPLEXITY_ALLOWED)
    assert not new, "radon ranks these E or F (split them into helpers):\n" + "\n".join(new)
    simpler = sorted(COMPLEXITY_ALLOWED - found.keys())
    assert not simpler, f"these rank D or better now: take them off COMPLEXITY_ALLOWED: {simpler}"


def test_the_complexity_ratchet_sees_a_new_offender_and_the_exempt_kernel() -> None:
    # the gate's own check: radon's API ranks the numba kernel F (so the exemption is real) and a
    # function of 31 branches E (so a new offender would be caught, not silently ranked lower)
    from radon.complexity import cc_rank, cc_visit

    kernel = (ROOT / "cardgen/sim/fast_compiled.py").read_text(encoding="utf-8")
    assert max(cc_rank(b.complexity) for b in cc_visit(kernel)) == "F"
    branches = "".join(f"    if x == {i}:\n        return {i}\n" for i in range(30))
    (block,) = cc_visit(f"def f(x):\n{branches}    return -1\n")
    assert (block.complexity, cc_rank(block.complexity)) == (31, "E")
