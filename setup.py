"""Ship the repository's top-level data folders inside the package.

`templates/` and `stats_cache/` stay at the top of the repository (the design keeps layouts and
the bundled seasons' tables there), and are installed as `cardgen/templates/` and
`cardgen/stats_cache/`, where `cardgen.paths` finds them. Everything else is in pyproject.toml.
"""
from setuptools import find_packages, setup

DATA_FOLDERS = {"cardgen.templates": "templates", "cardgen.stats_cache": "stats_cache"}

setup(
    packages=find_packages(include=["cardgen", "cardgen.*"]) + list(DATA_FOLDERS),
    package_dir=DATA_FOLDERS,
    package_data={
        # data files kept beside the code (the schema, fonts, small tables), at any depth
        "cardgen": ["py.typed", "**/*.json", "**/*.csv", "**/*.csv.gz", "**/*.ttf", "**/*.otf",
                    "**/*.j2", "**/*.txt", "**/*.css", "**/*.js", "**/*.svg"],
        "cardgen.templates": ["**/*"],
        # only the bundled seasons' derived tables: never raw downloads or per-delivery tables
        "cardgen.stats_cache": ["README.md", "*/manifest.json", "*/*.csv", "*/league.json",
                                "card-sets/*.json.gz"],
    },
    exclude_package_data={"cardgen.stats_cache": ["raw/*", "deliveries/*"]},
)
