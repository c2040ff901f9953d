"""Where cardgen's own read-only files are, and where it may write.

The repository keeps `templates/` and `stats_cache/` at its top level; the wheel installs them
inside the package (`cardgen/templates/`, `cardgen/stats_cache/`, see setup.py), beside the
card-set schema (`cardgen/schemas/`). They are found from the package, never from the working
directory, so `cardgen` runs the same from a wheel, an sdist, an editable install or a checkout
on PYTHONPATH. The only place cardgen writes by default is the user's cache directory (downloads
and derived tables; `CARDGEN_CACHE` moves it) and the `--out` folder.
"""
from __future__ import annotations

import os
from importlib import resources
from pathlib import Path
from collections.abc import Callable

CACHE_ENV = "CARDGEN_CACHE"
APP_NAME = "cardgen"
_PACKAGE = Path(__file__).resolve().parent


def _installed(name: str) -> Path:
    """`name` inside the installed package (importlib.resources; a plain folder once installed)."""
    try:
        return Path(str(resources.files("cardgen") / name))
    except (ModuleNotFoundError, TypeError):  # pragma: no cover - an unusual loader
        return _PACKAGE / name


def package_data_dir(name: str) -> Path:
    """The folder `name` (templates, stats_cache, schemas) shipped with cardgen.

    Inside the package when installed from a wheel or sdist; else the source checkout's top-level
    folder (running from a clone, or an editable install made before the mapping existed). Returns
    the package location when neither exists, so the caller's error names where it looked.
    """
    installed = _installed(name)
    if installed.is_dir():
        return installed
    checkout = _PACKAGE.parent
    if (checkout / name).is_dir() and (checkout / "pyproject.toml").is_file():
        return checkout / name
    return installed


def templates_dir() -> Path:
    """Layouts (JSON, mm), text and site templates."""
    return package_data_dir("templates")


def bundled_tables_dir() -> Path:
    """The derived tables of the bundled seasons (read-only; rewritten only by the maintainer command)."""
    return package_data_dir("stats_cache")


def checkout_tables_dir() -> Path | None:
    """The repository's `stats_cache/` when running from a source checkout (maintainers only)."""
    checkout = _PACKAGE.parent
    if (checkout / "stats_cache").is_dir() and (checkout / "pyproject.toml").is_file():
        return checkout / "stats_cache"
    return None


def schema_path() -> Path:
    """The card-set JSON schema shipped with the package."""
    return package_data_dir("schemas") / "card-set.schema.json"


def league_schema_path() -> Path:
    """cardgen's extension of the card-set schema for league sets (own_league, cards' points
    and source, sides' points): checked after the contract."""
    return package_data_dir("schemas") / "league-set.schema.json"


def user_cache_dir() -> Path:
    """Downloads and derived tables: $CARDGEN_CACHE, else the platform's user cache folder."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env).expanduser()
    import platformdirs
    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))


def maintainer_tables_dir(what: str) -> Path:
    """The checkout's `stats_cache/` for a maintainer command that rewrites `what` there
    (CacheError outside a source checkout: an installed package is never rewritten)."""
    from cardgen.errors import CacheError
    folder = checkout_tables_dir()
    if folder is None:
        raise CacheError(f"{what} are rewritten in a source checkout (its stats_cache/ folder); "
                         "run this from a clone of the repository")
    return folder


def run_maintainer_command(argv: list[str], module: str, rewrites: str,
                           rewrite: Callable[[str], list[Path]]) -> None:
    """`python -m <module> MIRROR_DIR`: run `rewrite(MIRROR_DIR)` and print what it wrote."""
    import sys
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        sys.exit(f"usage: python -m {module} MIRROR_DIR   (rewrites {rewrites})")
    for path in rewrite(argv[1]):
        print(path)
