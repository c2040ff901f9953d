"""Render the download site: a static folder of HTML pages built from everything in `output/`.

Layout of the site folder (all links relative, so it works from any static host or from disk):

    index.html                      every built set with its downloads
    how-to-print.html               printing, cutting and dice
    assets/site.css, assets/search.js, assets/compare.js
    sets/<SET>/index.html           every card, team by team (+ a static page per filter beside it:
                                    plain links, so an address always shows the page it names)
    sets/<SET>/players/<id>.html    one player's card(s), real stats, real vs expected
    sets/<SET>/files/...            the kit's files (hard links to output/, or copies)
    sets/<SET>/thumbs/...           card thumbnails
    sets/<SET>/<SET>-kit.zip        the whole kit in one zip

Pages are rendered into a temporary folder beside the target and put in place by renames, a set
folder whole, then the pages above the sets (`incremental`), so a running `cardgen serve` never
sees half a page or half a set. Output is deterministic: no clocks, sorted listings, fixed zip
timestamps.

This module is the entry point (`generate`, `generate_site`, `refresh_site`); the work is split
by concept: `views` (what a page shows of a card), `texts` (the game's words: card notes, roles,
rules), `example` (the worked ball), `media` (thumbnails, previews, share cards), `downloads`
(download names, zips), `publishing` (links, permissions, the site folder), `incremental`
(what a render keeps, replaces and drops of the site folder) and `pages` (templates and every
page).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardgen import __version__
from cardgen.cardset import CardSet
from cardgen.manifest import read_manifest
from cardgen.site.kit import (
    SiteError,
    find_game_kits,
    find_sets,
    find_team_kits,
    read_game_kit,
    read_set,
)
from cardgen.site.pages import (
    FIRST_MATCH,
    HOW_TO_PLAY,
    TEMPLATE_DIR,
    Writer,
    environment,
    render_catalogue,
    render_game,
    render_set,
    set_record,
    write_assets,
)
from cardgen.site import incremental
from cardgen.site.publishing import check_site_dir, publish_permissions
from cardgen.site.texts import (
    RULES_SOURCE,
    default_rule,
    fielding_words,
    rule_of,
    scoresheet_shape,
)
from cardgen.staging import make_staging, remove_stale_staging, remove_tree


def default_site_dir(out_dir: Path) -> Path:
    return out_dir / "site"


@dataclass
class SiteReport:
    site_dir: Path
    sets: list[str]
    games: list[str]  # other game systems' kits, as folders under OUT
    pages: int
    files: int
    skipped: list[str]  # set folders left out
    problems: list[str] = field(default_factory=list)  # why, and anything else left out
    kept: list[str] = field(default_factory=list)  # files of the old site cardgen did not write
    team_kits: list[str] = field(default_factory=list)  # build --team folders, not listed
    rendered: list[str] = field(default_factory=list)  # sets whose pages were rendered this time
    carried: list[str] = field(default_factory=list)  # sets carried over unchanged from the old site
    search_bytes: int = 0  # the search index, every shard


NOT_FOUND_PAGE = "404.html"  # `cardgen serve` and most static hosts show it for a missing address


def site_root(base_url: str) -> str:
    """The address the site is served from, as the 404 page's links start: '/' at a domain's
    root, '/cardgen/' for a project site (user.github.io/cardgen/), or a whole URL."""
    url = base_url.strip()
    if "://" not in url and not url.startswith("/"):
        url = "/" + url
    return url if url.endswith("/") else url + "/"


@dataclass(frozen=True)
class SiteOptions:
    """How `generate` renders a site, beside the kits it is given."""
    base_url: str = "/"  # where the site is served from (`site_root`): the 404 page's links
    games_from: Path | None = None  # an output folder whose other-game kits are listed too
    team_kits: tuple[str, ...] = ()  # one-team kits found beside the sets (named, not listed)
    full: bool = False  # render every set page again, even of a kit that has not changed


def generate_site(out_dir: Path, site_dir: Path | None = None, base_url: str = "/") -> SiteReport:
    """Render the site for every set built under `out_dir` into `site_dir` (default OUT/site).

    A set whose card-set.json cannot be read is skipped and named in the report; the other sets
    are still published. `base_url` is where the site will be served from (`site_root`): only
    the 404 page needs it, every other page links relatively.
    """
    out_dir = Path(out_dir)
    site_dir = Path(site_dir) if site_dir is not None else default_site_dir(out_dir)
    folders = find_sets(out_dir, skip=site_dir)
    site, out = site_dir.resolve(), out_dir.resolve()
    if site == out or site in out.parents:
        raise SiteError(f"the site folder {site_dir} would replace the output folder {out_dir}; "
                        "choose another --site-dir")
    return generate(folders, site_dir, SiteOptions(base_url=base_url, games_from=out_dir,
                                                   team_kits=tuple(find_team_kits(out_dir))))


@dataclass
class _Build:
    """One render of the site: where it is built, what the old site had, and what it made."""
    writer: Writer
    build_root: Path
    site_dir: Path
    options: SiteOptions
    old: incremental.OldSite
    code: str  # the site code's fingerprint (catalogue.site_code_fingerprint)
    generator: str
    records: list[dict[str, Any]] = field(default_factory=list)
    rules: dict[str, Any] = field(default_factory=dict)   # a rendered set's rule object, for how-to-play
    skipped: list[str] = field(default_factory=list)
    rendered: list[str] = field(default_factory=list)
    carried: list[str] = field(default_factory=list)
    theirs: list[str] = field(default_factory=list)   # files cardgen did not write in the carried sets' folders
    pending: list[str] = field(default_factory=list)  # carried sets holding a killed run's superseded files
    set_files: int = 0
    games: list[dict[str, Any]] = field(default_factory=list)


def _render_sets(build: _Build, folders: list[Path]) -> None:
    """Each set: left in place when its kit and the site code are unchanged, else read and
    rendered; a second set of one name, or one that cannot be read, is skipped."""
    from cardgen.manifest import kit_fingerprint
    from cardgen.site import catalogue
    seen: set[str] = set()
    for folder in folders:
        if folder.name in seen:
            build.writer.problems.append(f"{folder}: a second set named {folder.name}; only the first is published")
            build.skipped.append(folder.name)
            continue
        seen.add(folder.name)
        fingerprint = kit_fingerprint(folder)
        rel = f"sets/{folder.name}"
        record = None if build.options.full or build.old.manifest is None else catalogue.read_record(
            build.site_dir / rel / catalogue.RECORD_FILE, fingerprint, build.code)
        kept_set = incremental.carried(build.site_dir, folder.name) if record is not None else None
        if record is not None and kept_set is not None:   # left in place as it is
            build.records.append(record)
            build.carried.append(folder.name)
            build.set_files += kept_set.files
            build.theirs += [f"{rel}/{name}" for name in kept_set.theirs]
            build.pending += [folder.name] if kept_set.pending else []
            continue
        try:
            kit = read_set(folder)
        except SiteError as exc:
            build.writer.problems.append(str(exc))
            build.skipped.append(folder.name)
            continue
        summary = render_set(build.writer, kit, build.build_root)
        build.rules[kit.name] = summary["rule"]
        build.records.append(catalogue.write_record(build.build_root / rel / catalogue.RECORD_FILE,
                                                    set_record(build.writer, summary, fingerprint, build.code)))
        build.set_files += incremental.seal_set(build.build_root / rel, build.generator)
        build.rendered.append(kit.name)


def _render_games(build: _Build) -> None:
    """A page for each other game system's kit under `options.games_from`."""
    games_from = build.options.games_from
    if games_from is None:
        return
    for game_folder in find_game_kits(games_from, skip=build.site_dir):
        try:
            game = read_game_kit(game_folder, games_from)
        except SiteError as exc:
            build.writer.problems.append(str(exc))
            build.skipped.append(game_folder.relative_to(games_from).as_posix())
            continue
        build.games.append(render_game(build.writer, game, build.build_root))


def _render_guides(build: _Build, folders: list[Path]) -> None:
    """The pages above the sets that teach the game: how to print, how to play, the first
    match, and the 404 page."""
    records, writer = build.records, build.writer
    # the attack die's faces follow the league: shown as the example kit (or else the first kit
    # made for the rule) prints them
    example = next((s for s in records if s.get("example")), None)
    rule_kit = example if example and example.get("has_rule") else next(
        (s for s in records if s.get("has_rule")), None)
    rule = default_rule()
    if rule_kit is not None:
        rule = build.rules.get(rule_kit["name"]) or _carried_rule(folders, rule_kit["name"]) or rule
    # the Defence rating (R13): every kit with rated cards gets a line (how many, the highest)
    defence_kits = [s for s in records if s.get("defence")]
    writer.page("how-to-print.html", "how-to-print.html.j2", sets=records, scoresheet=scoresheet_shape())
    writer.page(HOW_TO_PLAY, "how-to-play.html.j2", sets=records, kit=example, rules_source=RULES_SOURCE,
                fielding=fielding_words(), rule=rule, rule_kit=rule_kit, defence_kits=defence_kits)
    # the first match: the first set with two teams (issue 38 item 7)
    first_kit = next((s for s in records if len(s.get("teams", [])) > 1 and "team_info" in s), None)
    from cardgen.site import first_match  # its replay, worked over and filled scoresheet
    replay = None if first_kit is None else first_match.for_site(
        first_kit, _carried_card_set(folders, first_kit["name"]), build.build_root)
    papers = [] if first_kit is None else first_match.what_to_print(first_kit)
    writer.page(FIRST_MATCH, "first-match.html.j2", kit=first_kit, replay=replay, papers=papers)
    # served for any missing address at any depth, so its links start at the site's root
    writer.page(NOT_FOUND_PAGE, "404.html.j2", root=site_root(build.options.base_url), sets=records)


def generate(kit_dirs: Iterable[Path], site_dir: Path, options: SiteOptions = SiteOptions()) -> SiteReport:
    """Render one site for the season kits in `kit_dirs` (each a `<CODE>_<season>` folder as
    `cardgen build` writes it) into `site_dir`: the home page by competition, a page per
    competition, each set's pages and the search over every player (what `build --all` calls).

    Incremental: a set whose kit has the fingerprint (`manifest.kit_fingerprint`) its pages in
    the old site were rendered from, by the same site code, is left in place as it is; only the
    others, and the pages above the sets, are rendered, beside the site, and renamed into it
    (`incremental.publish`), so a reader never sees half a page or half a set.
    """
    from cardgen.site import catalogue
    site_dir = Path(site_dir)
    folders = [Path(f) for f in kit_dirs]
    env = environment()
    # Open Graph images must be whole addresses: known only when the site's is (--base-url)
    site_url = site_root(options.base_url) if "://" in options.base_url else ""
    env.globals["site_url"] = site_url
    check_site_dir(site_dir, folders)
    site_dir.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_staging(site_dir.parent)  # what a killed run left behind
    remove_stale_staging(site_dir / incremental.SETS)  # and a set folder it had moved aside goes back
    old = incremental.OldSite(read_manifest(site_dir, "site") if site_dir.is_dir() else None)
    build_root = make_staging(site_dir.parent, site_dir.name, "new")
    try:
        # a set page rendered for another address (its share cards) is not carried either
        build = _Build(Writer(build_root, env), build_root, site_dir, options, old,
                       catalogue.site_code_fingerprint(TEMPLATE_DIR, site_url), f"cardgen {__version__}")
        _render_sets(build, folders)
        _render_games(build)
        # by competition, the newest season first (two stable sorts)
        build.records.sort(key=lambda s: s["season_key"], reverse=True)
        build.records.sort(key=lambda s: str(s["competition"]["name"]))
        render_catalogue(build.writer, build.records, build.games, len(build.skipped))
        _render_guides(build, folders)
        write_assets(build_root)
        search_sizes = catalogue.write_search_index(build_root, build.records)
        publish_permissions(build_root)
        published = incremental.publish(build_root, site_dir, build.rendered, [s["name"] for s in build.records],
                                        old, build.generator, build.pending)
    finally:
        remove_tree(build_root)
    return SiteReport(site_dir=site_dir, sets=[s["name"] for s in build.records],
                      games=[g["path"].removeprefix("games/").removesuffix("/index.html") for g in build.games],
                      pages=build.writer.pages, files=published.root_files + build.set_files,
                      skipped=build.skipped, problems=build.writer.problems,
                      kept=sorted(published.kept + build.theirs), team_kits=list(options.team_kits),
                      rendered=build.rendered, carried=build.carried, search_bytes=sum(search_sizes.values()))


def _carried_card_set(folders: list[Path], name: str) -> CardSet | None:
    """The card set of a kit carried over (the rule it was made for is read from it); None
    when it cannot be read."""
    from cardgen.site.kit import CARD_SET_FILE, load_card_set_file
    folder = next(f for f in folders if f.name == name)
    try:
        return load_card_set_file(folder / CARD_SET_FILE)
    except SiteError:
        return None


def _carried_rule(folders: list[Path], name: str) -> Any:
    """The rule a carried kit's set was made for (None: none, or the set cannot be read)."""
    card_set = _carried_card_set(folders, name)
    return rule_of(card_set) if card_set is not None else None


def refresh_site(out_dir: Path, site_dir: Path | None = None) -> SiteReport:
    """Re-render the site after a build (what `cardgen build --site` calls)."""
    return generate_site(out_dir, site_dir)
