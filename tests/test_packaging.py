"""`pip install` gives a working cardgen: the sdist and wheel, installed outside the checkout.

Issue 13's sequence, run for real: `python -m build` makes the sdist and (from it) the wheel,
offline (`--no-isolation`: the build backend already installed); the wheel is installed,
non-editable, into a fresh venv; then `cardgen` runs from an empty temporary folder with the
network blocked (a startup hook in the venv refuses every non-loopback connection), the checkout
off sys.path and a throwaway home and cache. The bundled seasons, layouts, site templates and
schema must come from the installed package, previews must need no system binary, and nothing
may be written to the working directory except `output/`.

The venv sees the already-installed dependencies through a plain path entry (not a site dir, so
the shared environment's editable cardgen is not activated), and pip installs with `--no-index`,
so every declared dependency must already be installed and none is downloaded.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import jsonschema
import pytest
from PIL import Image

from cardgen.stats.load import BUNDLED_SEASONS

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
# what the build needs from the checkout; tests, docs and benchmarks are not part of the package
IGNORE = shutil.ignore_patterns(".git", "output", "build", "dist", "*.egg-info", "__pycache__",
                                ".pytest_cache", ".hypothesis", ".benchmarks", "tests", "docs",
                                "benchmarks", "stats_cache")
OFFLINE_GUARD = '''\
"""Test hook: this interpreter may not reach the network (loopback only)."""
import socket

_connect = socket.socket.connect
_connect_ex = socket.socket.connect_ex


def _allowed(address):
    if not isinstance(address, tuple):
        return True  # a Unix socket
    host = str(address[0])
    return host in ("localhost", "::1") or host.startswith("127.")


def _guarded(method):
    def connect(self, address):
        if not _allowed(address):
            raise OSError(101, f"network disabled in this test (tried {address!r})")
        return method(self, address)
    return connect


socket.socket.connect = _guarded(_connect)
socket.socket.connect_ex = _guarded(_connect_ex)
'''


def _run(args: list[str], cwd: Path, env: dict[str, str], timeout: float = 1200) -> str:
    # the timeout only stops a hung command: a build from the wheel on a loaded CI machine
    # (load 8-20 on two cores) takes many times its usual 20 s
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, f"{' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def _tree(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*")}


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and the wheel built from it, from a copy of the checkout (which stays clean)."""
    for module in ("build", "setuptools"):
        if subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True).returncode:
            pytest.fail(f"`{module}` is not installed: run ./test.sh (it installs the test extras)")
    src = tmp_path_factory.mktemp("src") / "cardgen"
    shutil.copytree(ROOT, src, ignore=IGNORE)
    # the committed tables only (a developer's checkout may hold leftovers of older versions),
    # plus what an old cache left there, which the package data patterns must keep out
    (src / "stats_cache").mkdir()
    shutil.copy2(ROOT / "stats_cache" / "README.md", src / "stats_cache")
    for code, season in BUNDLED_SEASONS:
        shutil.copytree(ROOT / "stats_cache" / f"{code}_{season}", src / "stats_cache" / f"{code}_{season}")
    shutil.copytree(ROOT / "stats_cache" / "card-sets", src / "stats_cache" / "card-sets")
    for leftover in ("raw/cricsheet-0123456789abcdef0123", "deliveries/BBL_2024-25.csv"):
        (src / "stats_cache" / leftover).parent.mkdir()
        (src / "stats_cache" / leftover).write_text("not for the wheel\n")
    out = tmp_path_factory.mktemp("dist")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CARDGEN_", "PYTHONPATH"))}
    _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(src)],
         cwd=src, env=env)
    return out


def test_wheel_and_sdist_carry_the_data(dist: Path):
    (wheel,) = dist.glob("cardgen-*.whl")
    (sdist,) = dist.glob("cardgen-*.tar.gz")
    names = set(zipfile.ZipFile(wheel).namelist())
    seasons = {n.split("/")[2] for n in names if n.startswith("cardgen/stats_cache/") and n.count("/") == 3
               and "/card-sets/" not in n}
    assert seasons == {f"{code}_{season}" for code, season in BUNDLED_SEASONS}
    for code, season in BUNDLED_SEASONS:
        assert f"cardgen/stats_cache/{code}_{season}/manifest.json" in names
        # the calibrated sets (with the rule and --classic) ship too, so a first build reuses them
        assert len([n for n in names if n.startswith(f"cardgen/stats_cache/card-sets/{code}_{season}-")
                    and n.endswith(".json.gz")]) == 2, (code, season)
    for template in sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "templates").rglob("*")
                           if p.is_file()):
        assert f"cardgen/{template}" in names, template
    assert "cardgen/schemas/card-set.schema.json" in names
    assert not any("/raw/" in n or "/deliveries/" in n or n.startswith(("templates/", "stats_cache/"))
                   for n in names)  # nothing at the top of site-packages, no downloads
    import tarfile
    with tarfile.open(sdist) as tar:
        members = {m.name.split("/", 1)[1] for m in tar.getmembers() if "/" in m.name}
    assert {"setup.py", "pyproject.toml", "templates/teams.json", "stats_cache/BBL_2024-25/batting.csv",
            "cardgen/schemas/card-set.schema.json"} <= members
    assert not any(m.startswith(("stats_cache/raw", "stats_cache/deliveries")) for m in members)


def test_installed_wheel_runs_offline_from_any_folder(dist: Path, tmp_path: Path):
    (wheel,) = dist.glob("cardgen-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=600)
    python = venv / "bin" / "python"
    site = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                     cwd=tmp_path, env={"PATH": os.environ.get("PATH", "")}).strip())
    # the installed dependencies as a plain path (their .pth files, such as an editable
    # cardgen's, are not run), after the venv's own site-packages
    outer = sorted({sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]})
    (site / "zz_outer_deps.pth").write_text("\n".join(outer) + "\n")
    (site / "cardgen_offline_guard.py").write_text(OFFLINE_GUARD)
    (site / "zz_offline.pth").write_text("import cardgen_offline_guard\n")
    home, cwd = tmp_path / "home", tmp_path / "work"
    home.mkdir()
    cwd.mkdir()
    env = {"PATH": f"{venv / 'bin'}:{os.environ.get('PATH', '')}", "HOME": str(home),
           "XDG_CACHE_HOME": str(home / ".cache"), "LC_ALL": "C.UTF-8", "CI": "true"}
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-index",
          "--disable-pip-version-check", "--no-warn-script-location", str(wheel)],
         cwd=cwd, env={**env, "PIP_NO_INPUT": "1"})
    package = Path(_run([str(python), "-c", "import cardgen; print(cardgen.__file__)"], cwd=cwd,
                        env=env).strip()).parent
    assert package == site / "cardgen", package  # the wheel, not the checkout
    installed_before = _tree(package)
    blocked = subprocess.run([str(python), "-c", "import socket; socket.create_connection(('192.0.2.1', 80), 1)"],
                             capture_output=True, text=True, env=env, timeout=600)
    assert "network disabled" in blocked.stderr  # the guard is live

    cardgen = str(venv / "bin" / "cardgen")
    listing = _run([cardgen, "competitions"], cwd=cwd, env=env)
    rows = {line.split()[0]: line for line in listing.splitlines()[1:] if line.strip()}
    for code, season in BUNDLED_SEASONS:
        assert season in rows[code], listing

    built = _run([cardgen, "build", "-c", "BBL", "-s", "2024-25"], cwd=cwd, env=env)
    kit = cwd / "output" / "BBL_2024-25"
    card_set = json.loads((kit / "card-set.json").read_text())
    assert f"wrote {len(card_set['cards'])} cards" in built and len(card_set["cards"]) > 200, built
    assert len(list(kit.glob("*.pdf"))) >= 4
    # the installed wheel's shipped set was used: nothing calibrated, so nothing kept in the cache
    assert not list((home / ".cache" / "cardgen" / "card-sets").glob("*.json")), built
    jsonschema.validate(card_set, json.loads((package / "schemas" / "card-set.schema.json").read_text()))

    _run([cardgen, "build", "-c", "BBL", "-s", "2024-25", "--game", "roll-and-play"], cwd=cwd, env=env)
    previews = sorted((cwd / "output" / "roll-and-play" / "BBL_2024-25").glob("*.png"))
    assert len(previews) >= 5
    for png in previews:
        with Image.open(png) as image:
            assert image.format == "PNG" and image.width > 300

    _run([cardgen, "site"], cwd=cwd, env=env)
    assert "BBL_2024-25" in (cwd / "output" / "site" / "index.html").read_text()

    assert {p.name for p in cwd.iterdir()} == {"output"}  # nothing else in the working directory
    assert _tree(package) - installed_before <= {p for p in _tree(package) if "__pycache__" in p}
    # the bundled season needed no download and no calibration: the user's cache, if made, is marked
    cache = home / ".cache" / "cardgen"
    assert not cache.exists() or (cache / ".cardgen-cache").is_file()
