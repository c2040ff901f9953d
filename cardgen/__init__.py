"""cardgen: print-and-play Quicket Cricket kits from real cricket seasons."""
from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("cardgen")
except PackageNotFoundError:  # running from a source tree without install
    __version__ = "0.0.0"

ATTRIBUTION = "Ball-by-ball data from Cricsheet (cricsheet.org), used under ODC-By 1.0."
