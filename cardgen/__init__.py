"""cardgen: print-and-play Quicket Cricket kits from real cricket seasons."""
from __future__ import annotations

ATTRIBUTION = "Ball-by-ball data from Cricsheet (cricsheet.org), used under ODC-By 1.0."


def __getattr__(name: str) -> str:
    # __version__ is looked up when asked for: importlib.metadata costs some 40 ms, and the
    # `cardgen` command imports this package before it can take Ctrl+C quietly (cardgen.launch)
    if name != "__version__":
        raise AttributeError(f"module 'cardgen' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version
    try:
        found = version("cardgen")
    except PackageNotFoundError:  # running from a source tree without install
        found = "0.0.0"
    globals()["__version__"] = found
    return found
