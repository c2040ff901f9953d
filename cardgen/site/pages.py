"""The site's pages: the Jinja environment and the page writer, each set's pages (every card,
filters, teams, players, compare pages), another game's page, the home and competition pages, and
the record a set leaves for the pages above it (catalogue.py).

Layer: site. Uses views, texts, example, media, downloads and publishing; called by `generate`.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import jinja2
from PIL import UnidentifiedImageError
from pypdf import PdfReader
from pypdf.errors import PdfReadError

from cardgen import ATTRIBUTION, slugs
from cardgen.cache import atomic_write_bytes
from cardgen.paths import templates_dir
from cardgen.site.compare import COMPARE_PAGE, card_rows, pair_context, pair_page
from cardgen.site.example import example_ball, fielding_table
from cardgen.site.kit import KIT_DOWNLOADS, TTS_FOLDER, GameKit, KitSet, SiteError
from cardgen.site.media import kit_previews, pdf_previews, share_of, write_thumb
from cardgen.site.downloads import DOWNLOADS, PAGE_SUFFIXES, download_names, write_named_zip, write_zip
from cardgen.site.publishing import link_or_copy
from cardgen.site.texts import (
    components,
    human_size,
    qualify_balls,
    role_words,
    rule_of,
    rules_summary,
    table_caption,
)
from cardgen.site.views import (
    KIND_PLURAL,
    PLAYER_INDEX,
    CardView,
    card_views,
    highest_defence,
    player_index,
    search_example,
    set_links,
    sorted_cards,
    stand_in_strikers,
    team_order,
)

TEMPLATE_DIR = templates_dir() / "site"  # shipped with the package (cardgen.paths)


# the compare page's table of every card: (key, heading, sorts as a number)
RATING_COLUMNS = (("name", "Card", False), ("team", "Team", False), ("kind", "Kind", False),
                  ("rate", "Strike rate or economy", True), ("out", "Outs or wickets /100 balls", True),
                  ("fours", "4s /100 balls", True), ("sixes", "6s /100 balls", True),
                  ("defence", "Defence", True), ("catch", "Catch", True), ("usage", "Usage", False),
                  ("balls", "Real balls", True))


def environment() -> jinja2.Environment:
    if not TEMPLATE_DIR.is_dir():
        raise SiteError(f"site templates are missing at {TEMPLATE_DIR}")
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATE_DIR)),
                             autoescape=True, trim_blocks=True, lstrip_blocks=True,
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    env.filters["size"] = human_size
    env.globals["role_words"] = role_words
    env.globals["table_caption"] = table_caption
    return env


class Writer:
    """Writes pages into the site being built and counts them."""

    def __init__(self, root: Path, env: jinja2.Environment) -> None:
        self.root, self.env, self.pages = root, env, 0
        self.problems: list[str] = []  # what was left out, for the report

    def page(self, relpath: str, template: str, root: str | None = None, **context: Any) -> None:
        depth = relpath.count("/")
        html = self.env.get_template(template).render(root="../" * depth if root is None else root,
                                                      page_path=relpath,
                                                      attribution=ATTRIBUTION, **context)
        atomic_write_bytes(self.root / relpath, html.encode("utf-8"))
        self.pages += 1


def _filter_pages(teams: list[tuple[str, str]]) -> list[tuple[str | None, str | None, str]]:
    """Every (team slug, kind, file name) combination, each one a static page (works without JS)."""
    pages: list[tuple[str | None, str | None, str]] = [(None, None, "index.html")]
    pages += [(None, kind, f"{kind}s.html") for kind in ("striker", "bowler")]
    for _, team_slug in teams:
        pages.append((team_slug, None, f"team-{team_slug}.html"))
        pages += [(team_slug, kind, f"team-{team_slug}-{kind}s.html") for kind in ("striker", "bowler")]
    return pages


def filter_page_name(team_slug: str | None, kind: str | None) -> str:
    if team_slug is None:
        return "index.html" if kind is None else f"{kind}s.html"
    return f"team-{team_slug}.html" if kind is None else f"team-{team_slug}-{kind}s.html"


def _set_summary(kit: KitSet, views: list[CardView], teams: list[tuple[str, str]]) -> dict[str, Any]:
    raw = kit.card_set.competition
    comp = {"code": raw.code, "name": raw.name or raw.code or kit.name, "nation": raw.nation or ""}
    return {
        "name": kit.name, "title": kit.title, "competition": comp,
        "season": kit.season, "season_key": kit.card_set.season, "format": kit.card_set.format,
        "teams": teams, "cards": len(views),
        "strikers": sum(v.kind == "striker" for v in views),
        "bowlers": sum(v.kind == "bowler" for v in views),
        "build_date": kit.build_date,
        "credit": kit.card_set.attribution or ATTRIBUTION,
        "generator": kit.card_set.generator or "",
        "downloads": kit.downloads, "tts": kit.tts_sheets, "other": kit.other_files,
        "tts_readme": kit.tts_readme, "tts_decks": kit.tts_decks,
        "zip": f"{kit.name}-kit.zip", "validation": kit.validation,
        "qualify_balls": qualify_balls() if kit.validation.present else None,
        "pages": dict(kit.page_counts),
        "rule": rule_of(kit.card_set),
        "play": _match_page(kit),
        **rules_summary(kit.card_set),
    }


def season_groups(sets: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The kits in page order, those of one season together: a season built both ways (the
    Quicket rules kit and the advanced kit) is one group of two, shown side by side."""
    groups: list[list[dict[str, Any]]] = []
    for kit in sets:
        key = (kit["competition"]["code"], kit["season_key"])
        if groups and (groups[-1][0]["competition"]["code"], groups[-1][0]["season_key"]) == key \
                and kit.get("rules") and all(k.get("rules") not in (None, kit["rules"]) for k in groups[-1]):
            groups[-1].append(kit)
        else:
            groups.append([kit])
    for group in groups:   # the Quicket rules kit first, as `cardgen build` makes it by default
        group.sort(key=lambda k: k.get("rules") != "quicket")
    return groups


def _match_page(kit: KitSet) -> str:
    """The kit's match page (play.html, cardgen.play), as the set's files hold it; "" if none."""
    from cardgen.play.page import PAGE
    return f"files/{PAGE}" if (kit.folder / PAGE).is_file() else ""


def _team_info(kit: KitSet, views: list[CardView], teams: list[tuple[str, str]]) -> dict[str, dict[str, Any]]:
    """Per team slug: its name, counts, own downloads (with page counts) and pages in the whole-set PDFs."""
    labels = dict(KIT_DOWNLOADS)
    info: dict[str, dict[str, Any]] = {}
    for name, tslug in teams:
        own = kit.teams.get(name)
        team_views = [v for v in views if v.team_slug == tslug]
        ranges = []
        if own is not None:
            for pdf, (first, last) in own.pages.items():
                label = labels.get(pdf, pdf).replace("Player cards", "whole-set cards")
                ranges.append((pdf, label, first, last))
        info[tslug] = {
            "name": name, "slug": tslug, "page": filter_page_name(tslug, None),
            "cards": len(team_views), "strikers": sum(v.kind == "striker" for v in team_views),
            "bowlers": sum(v.kind == "bowler" for v in team_views),
            "downloads": own.downloads if own else [], "pages": own.page_counts if own else {},
            "ranges": ranges, "tts": _team_tts(kit, name), "zip": None, "zip_size": 0,
        }
    return info


def _team_tts(kit: KitSet, team: str) -> list[Any]:
    """A team's own Tabletop Simulator sheets (faces, then its back): as the kit's decks.json
    says, else by the sheets' names (tts/<team>-1.png, tts/<team>-back.png)."""
    by_rel = {d.relpath: d for d in kit.tts_sheets}
    if kit.tts_decks is not None and kit.tts_decks.teams:
        return [by_rel[rel] for rel in kit.tts_decks.sheets_of(team) if rel in by_rel]
    prefix = f"{TTS_FOLDER}/{slugs.slug(team)}-"
    return [d for d in kit.tts_sheets if d.relpath.startswith(prefix)
            and re.fullmatch(r"\d+|back", d.relpath[len(prefix):-len(".png")])]


def _sheet_counts(kit: KitSet, info: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Sheets of card for the whole set and for one team, per paper, from the kit's own PDFs: a
    kit with backs has a back page after each sheet, so two pages are one sheet printed two-sided."""
    counts: dict[str, Any] = {}
    for paper in ("a4", "letter"):
        whole = kit.page_counts.get(f"cards-{paper}.pdf")
        printing = kit.card_sheets.get(f"cards-{paper}.pdf")
        sides = 2 if printing is not None and printing.backs else 1
        # a team printed alone: its own PDF's pages (the whole set packs teams onto shared sheets),
        # built with the same options as the whole set's
        per_team = [n // sides for t in info.values() for rel, n in t["pages"].items()
                    if rel.endswith(f"/cards-{paper}.pdf")]
        if whole:
            counts[paper] = {"whole": whole // sides, "team_min": min(per_team) if per_team else None,
                             "team_max": max(per_team) if per_team else None,
                             "backs": sides == 2, "flip": printing.flip if printing else "long",
                             "landscape": bool(printing and printing.landscape)}
    return counts


HOW_TO_PLAY = "how-to-play.html"


FIRST_MATCH = "first-match.html"


def _thumbnails(writer: Writer, kit: KitSet, views: list[CardView], set_root: Path) -> None:
    """Each card's thumbnail; a card whose PNG cannot be read is shown as text, and named."""
    for view in views:
        if not view.png:
            continue
        thumb = f"thumbs/{Path(view.png).stem}.png"
        try:
            view.thumb_size = write_thumb(set_root / view.png, set_root / thumb)
        except OSError as exc:  # an unreadable PNG: the card is shown as text, the rest goes on
            reason = "not an image" if isinstance(exc, UnidentifiedImageError) else exc.strerror or str(exc)
            writer.problems.append(f"{kit.name}: cannot read {view.png[len('files/'):]} ({reason})")
            view.png = None
            continue
        view.thumb = thumb


def _report_previews(kit: KitSet, set_root: Path) -> list[tuple[str, list[tuple[str, int, int]]]]:
    """The validation reports' first pages: (report, [(preview, page number, pages)])."""
    previews = []
    for pdf in kit.validation.pdfs:
        pages = pdf_previews(kit.folder / pdf, set_root / "previews", slugs.slug(Path(pdf).stem))
        if pages:
            try:
                total = len(PdfReader(str(kit.folder / pdf)).pages)
            except (PdfReadError, OSError, ValueError):  # the page count is only a caption
                total = len(pages)
            previews.append((pdf, [(p.relative_to(set_root).as_posix(), n, total)
                                   for n, p in enumerate(pages, 1)]))
    return previews


def _offer_downloads(kit: KitSet, info: dict[str, dict[str, Any]], set_root: Path) -> dict[str, str]:
    """Every file offered for download, again under a name of its own (hard links: same bytes),
    and one zip of each team's own files; returns relpath -> download name."""
    offered = [d.relpath for d in [*kit.downloads, *kit.tts_sheets, *kit.other_files, *kit.validation.files]]
    offered += [d.relpath for t in info.values() for d in t["downloads"]]
    offered += [kit.tts_readme.relpath] if kit.tts_readme else []
    # a page and its scripts (the match page, play/) only work beside each other: linked in files/
    named = download_names(kit.name, [rel for rel in offered if Path(rel).suffix not in PAGE_SUFFIXES])
    for rel, name in named.items():
        link_or_copy(kit.folder / rel, set_root / DOWNLOADS / name)
    for team in info.values():   # one zip of a team's own files: its cards, team sheet, TTS sheets
        own = [d.relpath for d in [*team["downloads"], *team["tts"]]]
        if not own:
            continue
        team["zip"] = f"{slugs.slug(kit.name)}-{team['slug']}.zip"
        write_named_zip([(f"{team['zip'][:-4]}/{named[rel]}", kit.folder / rel) for rel in own],
                        set_root / DOWNLOADS / team["zip"])
        team["zip_size"] = (set_root / DOWNLOADS / team["zip"]).stat().st_size
    return named


def _compare_pages(writer: Writer, kit: KitSet, summary: dict[str, Any], views: list[CardView],
                   teams: list[tuple[str, str]], info: dict[str, dict[str, Any]], set_rel: str) -> None:
    """Two teams side by side (compare.py): a page per pair, and compare.html to pick one."""
    pairs = [{"a": a, "b": b, "a_name": an, "b_name": bn, "page": pair_page(a, b)}
             for i, (an, a) in enumerate(teams) for bn, b in teams[i + 1:]]
    summary["compare"] = COMPARE_PAGE if pairs else ""
    for tslug, team in info.items():
        team["pairs"] = [(p["b_name"] if p["a"] == tslug else p["a_name"], p["page"])
                         for p in pairs if tslug in (p["a"], p["b"])]
    rows = card_rows(views)
    for pair in pairs:
        writer.page(f"{set_rel}/{pair['page']}", "compare-pair.html.j2", kit=summary,
                    pair=pair_context(kit.folder, kit.card_set, rows, (pair["a_name"], pair["a"]),
                                      (pair["b_name"], pair["b"])))
    if pairs:
        writer.page(f"{set_rel}/{COMPARE_PAGE}", "compare.html.j2", kit=summary, pairs=pairs, rows=rows,
                    columns=RATING_COLUMNS)


def _card_pages(writer: Writer, kit: KitSet, summary: dict[str, Any], views: list[CardView],
                teams: list[tuple[str, str]], previews: list[Any], set_rel: str) -> None:
    """The set's card pages: one per filter (team, kind), the player index, one per player."""
    info = summary["team_info"]
    for team_slug, kind, filename in _filter_pages(teams):
        shown = [v for v in views if (team_slug is None or v.team_slug == team_slug)
                 and (kind is None or v.kind == kind)]
        groups = [(name, tslug, [v for v in shown if v.team_slug == tslug]) for name, tslug in teams]
        groups = [g for g in groups if g[2]]
        writer.page(f"{set_rel}/{filename}", "set.html.j2", kit=summary, groups=groups, previews=previews,
                    share=share_of(kit, set_rel, [v for g in groups for v in g[2]],
                                   info.get(team_slug) if team_slug else None, kind),
                    current_team=team_slug, current_kind=kind, shown=len(shown),
                    filter_page=filter_page_name, kind_plural=KIND_PLURAL,
                    team_names=dict((s, n) for n, s in teams), team=info.get(team_slug) if team_slug else None)
    writer.page(f"{set_rel}/{PLAYER_INDEX}", "players.html.j2", kit=summary, players=player_index(views))
    by_page: dict[str, list[CardView]] = {}
    for view in views:
        by_page.setdefault(view.player_page, []).append(view)
    for page, cards in sorted(by_page.items()):
        writer.page(f"{set_rel}/{page}", "player.html.j2", kit=summary, cards=cards, player=cards[0],
                    share=share_of(kit, set_rel, cards, None, None, player=cards[0]),
                    bats_with=stand_in_strikers(kit, cards, views))


def render_set(writer: Writer, kit: KitSet, site_root: Path) -> dict[str, Any]:
    """Every page and file of one set under sets/<SET>/; returns its summary (set_record's input)."""
    set_rel = f"sets/{kit.name}"
    set_root = site_root / set_rel
    for path in kit.all_files():
        link_or_copy(path, set_root / "files" / path.relative_to(kit.folder))
    zip_name = f"{kit.name}-kit.zip"
    write_zip(kit.all_files(), kit.folder, kit.name, set_root / zip_name)

    views = card_views(kit)
    teams = team_order(kit, views)
    views = sorted_cards(views, teams, kit.card_set)
    set_links(views)
    _thumbnails(writer, kit, views, set_root)
    summary = _set_summary(kit, views, teams)
    summary["zip_size"] = (set_root / zip_name).stat().st_size
    # the home page shows a few cards of the set: the first team's first striker and bowler cards
    summary["preview"] = [v for v in views if v.thumb][:4]
    summary["search_example"] = search_example(views)
    # the judged cards that played differently from their season, by name (the headline gave
    # only a count: "116 of 117 ... play like the real season")
    summary["outside"] = [v for v in views if v.verdict_ok is False]
    previews = _report_previews(kit, set_root)
    info = _team_info(kit, views, teams)
    summary["team_info"] = info
    summary["named"] = _offer_downloads(kit, info, set_root)
    summary["sheets"] = _sheet_counts(kit, info)
    summary["components"] = components(kit, summary["sheets"])
    summary["kit_previews"] = kit_previews(kit, set_root)
    summary["kit_preview_of"] = {link["href"]: pv for pv in summary["kit_previews"] for link in pv["links"]}
    summary["example"] = example_ball(kit, views, info)
    summary["fielding_table"] = fielding_table(kit)
    summary["defence"] = [v for v in views if v.defence]  # the rated striker cards (R13), in card order
    summary["defence_highest"] = highest_defence(views)
    summary["players"] = player_index(views)   # the catalogue's search (catalogue.search_index)
    _compare_pages(writer, kit, summary, views, teams, info, set_rel)
    _card_pages(writer, kit, summary, views, teams, previews, set_rel)
    return summary


def render_game(writer: Writer, kit: GameKit, site_root: Path) -> dict[str, Any]:
    """A page for another game system's kit: its PDFs, page previews and a zip."""
    rel = f"games/{kit.relname}"
    root = site_root / rel
    for path in kit.files:
        link_or_copy(path, root / "files" / path.relative_to(kit.folder))
    zip_name = f"{slugs.slug(kit.relname)}-kit.zip"
    write_zip(kit.files, kit.folder, slugs.slug(kit.relname), root / zip_name)
    pdfs = {Path(d.relpath).stem: d.relpath for d in kit.downloads}
    previews = []
    for png, label in kit.previews:
        stem = Path(png).stem
        target = pdfs.get(stem.removesuffix("-page1"), png)  # "cards-a4-page1.png" shows "cards-a4.pdf"
        previews.append({"src": f"files/{png}", "label": label, "href": f"files/{target}"})
    summary = {"path": f"{rel}/index.html", "title": kit.title, "name": kit.name,
               "competition": kit.competition, "season": kit.printed_season, "credit": kit.attribution,
               "downloads": kit.downloads, "previews": previews,
               "zip": zip_name, "zip_size": (root / zip_name).stat().st_size}
    writer.page(f"{rel}/index.html", "game.html.j2", game=summary)
    return summary


def write_assets(root: Path) -> None:
    for name in ("site.css", "search.js", "catalogue-search.js", "compare.js", "favicon.svg"):
        atomic_write_bytes(root / "assets" / name, (TEMPLATE_DIR / name).read_bytes())


def _plain_view(view: CardView | None) -> dict[str, Any] | None:
    """What the pages above a set show of one card (a thumbnail, its link and names)."""
    if view is None:
        return None
    return {"name": view.name, "team": view.team, "team_slug": view.team_slug, "link": view.link,
            "thumb": view.thumb, "thumb_size": list(view.thumb_size) if view.thumb_size else None,
            "alt": view.alt, "defence": view.defence}


def set_record(writer: Writer, summary: dict[str, Any], fingerprint: str | None, code: str) -> dict[str, Any]:
    """What the pages above a set need of it (catalogue.py): the facts, its article on the
    home and competition pages as HTML, the how-to pages' figures, and its players and teams
    for the search."""
    example = summary.get("example")
    article = writer.env.get_template("kit-article.html.j2")
    qr = (summary["kit_preview_of"].get("quick-reference-a4.pdf")
          or summary["kit_preview_of"].get("quick-reference-letter.pdf"))
    return {
        "record_version": 1, "fingerprint": fingerprint, "site_code": code,
        "name": summary["name"], "title": summary["title"], "competition": summary["competition"],
        "season": summary["season"], "season_key": summary["season_key"], "format": summary["format"],
        "rules": summary.get("rules"), "rules_title": summary.get("rules_title", ""),
        "rules_words": summary.get("rules_words", ""), "card_median": summary.get("card_median"),
        "cards": summary["cards"], "strikers": summary["strikers"], "bowlers": summary["bowlers"],
        "has_rule": summary.get("rule") is not None,
        "sheets": summary["sheets"],
        "downloads": [{"relpath": d.relpath, "label": d.label, "size": d.size} for d in summary["downloads"]],
        # the names the downloads save under (downloads/<set>-<file>), as the how-to pages link them
        "named": {rel: name for rel, name in summary.get("named", {}).items()
                  if rel in {d.relpath for d in summary["downloads"]}
                  | {d.relpath for t in summary["team_info"].values() for d in t["downloads"]}},
        # the first-match page's (first-match.html): each team's own files, page and pairs
        "teams": [list(t) for t in summary["teams"]], "pages": summary["pages"], "play": summary["play"],
        "team_info": {tslug: {"name": t["name"], "page": t["page"], "pages": t["pages"],
                              "pairs": [list(pair) for pair in t.get("pairs", [])],
                              "downloads": [{"relpath": d.relpath, "label": d.label} for d in t["downloads"]]}
                      for tslug, t in summary["team_info"].items()},
        "example": None if not example else {
            key: (_plain_view(value) if isinstance(value, CardView) or key in ("striker", "bowler", "fielder")
                  else value) for key, value in example.items()},
        "fielding_table": summary["fielding_table"],
        "format_hundred": summary["format"] == "100-ball",
        "kit_preview_of": {"quick-reference": {"src": qr["src"], "size": list(qr["size"]), "links": qr["links"]}}
        if qr else {},
        "defence": [{"defence": v.defence} for v in summary["defence"]],
        "defence_highest": [_plain_view(v) for v in summary["defence_highest"]],
        "search_example": summary.get("search_example", ""),
        "team_pages": [{"name": info["name"], "page": f"sets/{summary['name']}/{info['page']}"}
                       for info in summary["team_info"].values()],
        "players": [{"id": Path(p["page"]).stem, "name": p["name"], "full_name": p["full_name"],
                     "teams": p["teams"], "page": f"sets/{summary['name']}/{p['page']}"}
                    for p in summary["players"]],
        # the set's article as the home page (root "") and a competition page ("../") show it
        "article": {depth: article.render(kit=summary, root=prefix, h="h3", sub="h4")
                    for depth, prefix in (("0", ""), ("1", "../"))},
    }


def render_catalogue(writer: Writer, records: list[dict[str, Any]], games: list[dict[str, Any]],
                      skipped: int) -> None:
    """The home page (every competition, its newest season in full, the search) and one page
    per competition (every season)."""
    from cardgen.site import catalogue
    comps = catalogue.competitions(records, slugs.slug)
    example = next((r["search_example"] for r in records if r.get("search_example")), "")
    writer.page("index.html", "home.html.j2", competitions=comps, sets=records, games=games, skipped=skipped,
                season_groups=season_groups, search_example=example)
    for comp in comps:
        writer.page(comp.page, "competition.html.j2", competition=comp, season_groups=season_groups(comp.sets),
                    search_example=next((r["search_example"] for r in comp.sets if r.get("search_example")), ""))
