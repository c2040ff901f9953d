"""The catalogue's one site, from the kits a run built or kept."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardgen.site.generate import SiteReport


def catalogue_site(kits: list[Path], out_dir: Path, site_dir: Path | None = None) -> SiteReport:
    """The site of `kits` (the season kit folders the run built or kept, under `out_dir`) in
    `site_dir` (default OUT/site): the generator carries over the pages of every kit that has
    not changed since the last site and renders the rest. A season that failed is not on it;
    other kits in OUT (built on their own, other games) are not either: the site is the run's."""
    from cardgen.site.generate import default_site_dir, generate
    return generate(kits, Path(site_dir) if site_dir is not None else default_site_dir(Path(out_dir)))
