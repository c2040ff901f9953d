"""The quality gate: ruff and mypy, configured in pyproject.toml, find nothing (CI runs this file).

Both tools are test extras (pyproject.toml), run as modules of the interpreter that runs the
tests, so a clone's venv needs nothing else. mypy checks all of cardgen/ with the same settings:
the ratchet it once kept (an override ignoring the errors of the modules that had some, issue
39) is gone, and the test fails if an override checking a module for less comes back.
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


# what an override could say to check a module for less than the rest (issue 39 ended the
# ratchet, an `ignore_errors` list of the modules with errors: none may come back)
SILENCING = {"ignore_errors": True, "check_untyped_defs": False, "disallow_untyped_defs": False,
             "follow_imports": ("skip", "silent")}


def _silencing_overrides(config: dict[str, Any]) -> list[str]:
    """'module: setting' for every [[tool.mypy.overrides]] setting that checks a module for less
    (a setting of SILENCING, or any `disable_error_code`)."""
    found = []
    for override in config.get("overrides", []):
        modules = override.get("module", [])
        for name, value in override.items():
            bad = SILENCING.get(name)
            if name == "disable_error_code" or value == bad or (
                    isinstance(bad, tuple) and value in bad):
                found += [f"{m}: {name} = {value!r}" for m in (
                    [modules] if isinstance(modules, str) else modules)]
    return found


def _mypy(*args: str) -> subprocess.CompletedProcess[str]:
    return _run("mypy", "--cache-dir", str(ROOT / ".mypy_cache" / "gate"), *args)


@pytest.mark.slow
def test_mypy_finds_nothing_in_all_of_cardgen_and_no_override_silences_a_module() -> None:
    config = _mypy_config()
    assert config["files"] == ["cardgen"] and config["check_untyped_defs"] \
        and config["disallow_untyped_defs"] and "exclude" not in config, config
    silenced = _silencing_overrides(config)
    assert not silenced, "pyproject's [tool.mypy] checks these for less (fix them):\n" + \
        "\n".join(silenced)
    done = _mypy()
    assert done.returncode == 0, "mypy finds (fix them):\n" + done.stdout + done.stderr
    # every module of cardgen/ was checked, none left out some other way
    modules = len(list((ROOT / "cardgen").rglob("*.py")))
    assert f"no issues found in {modules} source files" in done.stdout, done.stdout


@pytest.mark.slow
def test_the_type_gate_sees_an_error_and_a_silencing_override(tmp_path: Path) -> None:
    # the gate's own check: mypy under pyproject's settings reports an untyped function, and
    # an override like the old ratchet's is found
    bad = tmp_path / "untyped.py"
    bad.write_text("def double(x):\n    return 2 * x\n", encoding="utf-8")
    done = _mypy("--config-file", str(ROOT / "pyproject.toml"), str(bad))
    assert done.returncode == 1 and "[no-untyped-def]" in done.stdout, done.stdout + done.stderr
    ratchet = {"overrides": [{"module": ["cardgen.a", "cardgen.b"], "ignore_errors": True},
                             {"module": "cardgen.c", "disable_error_code": ["arg-type"]},
                             {"module": "cardgen.d", "follow_imports": "skip"},
                             {"module": "cardgen.e", "ignore_missing_imports": True}]}
    assert _silencing_overrides(ratchet) == [
        "cardgen.a: ignore_errors = True", "cardgen.b: ignore_errors = True",
        "cardgen.c: disable_error_code = ['arg-type']", "cardgen.d: follow_imports = 'skip'"]


# The complexity ratchet (issue 39): no function ranks E or F (cyclomatic complexity > 30) by
# radon, except the numba kernel, whose per-delivery bookkeeping is one compiled function on
# purpose (splitting it costs calls in the hot loop), and the functions listed here. The list
# was issue 39's offenders and is empty now; it may only shrink: a new offender is split into
# helpers of rank D or better, not listed. The test checks it both ways.
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
