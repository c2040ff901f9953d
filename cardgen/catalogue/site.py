"""The catalogue's one site, from the kits a run built or kept."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardgen.site.generate import SiteReport


def catalogue_site(kits: list[Path], out_dir: Path, site_dir: Path | None = None) -> SiteReport:
    """The site of `kits` (the season kit folders of the run, each under `out_dir`) in `site_dir`
    (default OUT/site). The generator publishes every set in OUT, so a kit built on its own
    beside the catalogue's is published too; the ones a run failed to build keep their previous kit,
    if any, and that is what the site shows."""
    from cardgen.site.generate import generate_site
    return generate_site(Path(out_dir), site_dir)
