"""Each team's own downloads inside a full kit, and one PDF bookmark per team in the whole-set sheets.

A full kit gets, for every team, `teams/<team>/cards-<paper>.pdf` (that team's cards only) and its
team sheet (`team-sheet-<paper>.pdf`: every file names its paper), plus
in the kit's manifest, the folder, files and the team's page range in each whole-set card PDF. The
ranges come from the paging rule the sheets use (`pages_for`: packed sheets, so two teams may
share a sheet), and the bookmarks the card renderer writes into the whole-set PDFs (its `outline`)
point at each team's first page.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any
from collections.abc import Callable

from cardgen.cardset import CardSet
from cardgen.manifest import TeamFiles
from cardgen.render.card import CardView
from cardgen.render.images import slug
from cardgen.render.sheets import pages_for, render_cards_pdf, sheet_geometry
from cardgen.render.teamsheets import render_team_sheets_pdf

TEAMS_FOLDER = "teams"
TEAM_SHEET = "team-sheet"  # + -<paper>.pdf


@dataclass(frozen=True)
class TeamPages:
    team: str
    first: int  # 1-based page numbers in the whole-set card PDF, inclusive
    last: int


def team_page_ranges(views: list[CardView], paper: str, bleed: bool = False, backs: bool = False,
                     team_per_sheet: bool = False, bleed_mm: float | None = None) -> list[TeamPages]:
    """Where each team's cards are in the whole-set card PDF, in team order (backs follow each sheet
    of fronts; on packed sheets a team's last page may be the next team's first)."""
    sides = 2 if backs else 1
    first: dict[str, int] = {}
    last: dict[str, int] = {}
    for number, sheet in enumerate(pages_for(views, sheet_geometry(paper, bleed, bleed_mm).per_sheet, team_per_sheet)):
        for view in sheet:
            first.setdefault(view.team, number * sides + 1)
            last[view.team] = number * sides + sides
    return [TeamPages(team, first[team], last[team]) for team in first]


def team_folders(views: list[CardView]) -> dict[str, str]:
    """Each team's folder name under teams/ (unique even if two names give the same slug)."""
    folders: dict[str, str] = {}
    for view in views:
        if view.team not in folders:
            base = slug(view.team) or "team"
            name, n = base, 2
            while name in folders.values():
                name, n = f"{base}-{n}", n + 1
            folders[view.team] = name
    return folders


def team_file_renders(card_set: CardSet, views: list[CardView], options: Any, title: str, credit: str,
                      ranges: dict[str, list[TeamPages]]) -> tuple[dict[str, Callable[[], bytes]], tuple[TeamFiles, ...]]:
    """Every team's own files, each as a name and a function that renders it (so the kit can
    render them in any process), and what the kit's manifest says of each team.

    `options` is the kit's KitOptions (papers, bleed, ink_saver, backs, team_per_sheet, solid_backs);
    `ranges` each paper's `team_page_ranges` (the kit's bookmarks come from the same ones).
    """
    papers: tuple[str, ...] = options.papers
    folders = team_folders(views)
    shorts = {t.name: t.short_name or "" for t in card_set.teams}
    renders: dict[str, Callable[[], bytes]] = {}
    entries = []
    for team, folder in folders.items():
        team_views = [v for v in views if v.team == team]
        files = {}
        for paper in papers:
            name = f"{TEAMS_FOLDER}/{folder}/cards-{paper}.pdf"
            renders[name] = functools.partial(
                render_cards_pdf, team_views, paper, f"{title} {team} cards", credit, bleed=options.bleed,
                bleed_mm=options.bleed_mm,
                ink_saver=options.ink_saver, backs=options.backs, solid_backs=options.solid_backs)
            files[f"cards-{paper}"] = name
        one_team = card_set.only_team(team)
        for paper in papers:  # named with its paper, as the kit's own sheets are
            name = f"{TEAMS_FOLDER}/{folder}/{TEAM_SHEET}-{paper}.pdf"
            renders[name] = functools.partial(render_team_sheets_pdf, one_team, paper, credit)
            files[f"{TEAM_SHEET}-{paper}"] = name
        # 1-based, inclusive; on packed sheets a team's first or last page may hold another team's cards
        pages = {f"cards-{paper}.pdf": next((r.first, r.last) for r in ranges[paper] if r.team == team)
                 for paper in papers}
        entries.append(TeamFiles(
            name=team, short_name=shorts.get(team, ""), folder=f"{TEAMS_FOLDER}/{folder}", cards=len(team_views),
            strikers=sum(v.kind == "striker" for v in team_views), bowlers=sum(v.kind == "bowler" for v in team_views),
            files=files, pages_in_whole_set=pages))
    return renders, tuple(entries)
