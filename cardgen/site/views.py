"""What a page shows of each card (`CardView`, `Versus`), built from a kit's card set: its
ratings, chart, real figures against the card's expected ones and the simulator's verdict, in the
order the printed decks stack; and the lists made from them (a set's player index, the stand-in
strikers, the highest Defence ratings).

Layer: site. Reads the kit (`site.kit`) and the words of `site.texts`; writes nothing.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from cardgen import slugs
from cardgen.cardset import Card, CardSet, RealFigures
from cardgen.errors import CardgenError, CardSetError
from cardgen.site.kit import KitSet
from cardgen.site.texts import (
    plays_attack_die,
    boundary_note,
    consolidate_note,
    expected_figures,
    out_note,
    qualify_balls,
    real_rate,
    wicket_note,
)

KIND_LABEL = {"striker": "Striker", "bowler": "Bowler"}


KIND_PLURAL = {"striker": "Strikers", "bowler": "Bowlers"}


RESULT_LABEL = {
    "B": "Bowled", "W": "Caught", "F": "Fielding chart", "0": "Dot ball (no run)",  # W: as the quick reference
    "1": "1 run", "2": "2 runs", "3": "3 runs", "4": "Four", "6": "Six",
}


REAL_ORDER = ("innings", "balls", "overs", "runs", "dismissals", "strike_rate", "economy", "high_score",
              "fours", "sixes", "dots", "wides", "no_balls")


REAL_LABEL = {
    "innings": "Innings", "balls": "Balls", "runs": "Runs", "fours": "4s", "sixes": "6s",
    "high_score": "High score", "wides": "Wides", "no_balls": "No-balls", "overs": "Overs",
    "economy": "Economy", "strike_rate": "Strike rate", "dots": "Dot balls", "no_ball_runs": "No-ball runs",
}


def _unique_slugs(names: Iterable[str]) -> dict[str, str]:
    seen: dict[str, int] = {}
    out: dict[str, str] = {}
    for name in names:
        base = slugs.slug(name)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out[name] = base if n == 0 else f"{base}-{n + 1}"
    return out


def _number(value: Any, places: int = 2) -> str:
    if isinstance(value, bool) or value is None:
        return "—"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"{value:.{places}f}"
    return str(value)


def _csv_float(text: str | None) -> float | None:
    try:
        return float(text) if text not in (None, "") else None
    except ValueError:
        return None


PER_BALL = ("fours", "sixes", "dots", "wides", "no_balls", "wicket_rate", "dismissal_rate")


def _scale(key: str) -> tuple[float, int]:
    """How a figure is shown: per-ball rates as per 100 balls (1 place), rates with 2 places."""
    if key in ("strike_rate", "economy"):
        return 1.0, 2
    if key.removesuffix("_per_ball") in PER_BALL:
        return 100.0, 1
    return 1.0, 3


# the real-against-card table's rows, in this order (the real figures' order above it): the rate,
# wickets or outs, boundaries, dots, then a bowler's extras; a key not named here goes last
EXPECTED_LABEL = {"strike_rate": "Strike rate", "economy": "Economy",
                  "wicket_rate": "Wickets /100 balls", "dismissal_rate": "Outs /100 balls",
                  "fours": "4s /100 balls", "sixes": "6s /100 balls", "dots": "Dots /100 balls",
                  "wides": "Wides /100 balls", "no_balls": "No-balls /100 balls"}


EXPECTED_ORDER = tuple(EXPECTED_LABEL)


# the figures a card's scoring sets (what the attack band's d20 adds to)
SCORING_LABELS = {EXPECTED_LABEL[k] for k in ("strike_rate", "economy", "fours", "sixes")}


# 100-ball economy is still runs per 6 balls (as the quick reference and the card's Econ say), not per set
PER_SIX_BALLS = " (runs per 6 balls)"


def _humanise(key: str) -> str:
    return key.replace("_", " ").capitalize()


@dataclass
class Versus:
    """One figure of a card: the real season, the card's expectation, and the simulator's check."""
    label: str
    real: str
    expected: str
    simulated: str = "—"
    interval: str = "—"
    verdict: str = "—"  # "inside", "outside" or "—" (not checked)


@dataclass
class CardView:
    """What a page needs to show one card."""
    card: Card
    index: int
    player_id: str
    name: str
    full_name: str
    team: str
    team_slug: str
    kind: str
    kind_label: str
    position: int | None
    player_page: str  # relative to the set folder
    png: str | None  # relative to the set folder
    thumb: str | None
    thumb_size: tuple[int, int] | None
    alt: str
    ratings: list[tuple[str, str]] = field(default_factory=list)
    ratings_note: str = ""  # what a bowler's Usage letter/number means, as the team sheets print it
    defence: int | None = None  # a striker card's Defence rating (docs/rules.md R13), else None
    boundary_note: str = ""  # where a striker card with no 4 or 6 face gets its player's boundaries
    consolidate_note: str = ""  # why a striker card batted mostly while consolidating has many W faces
    wicket_note: str = ""  # where a bowler card with no W or B face gets its player's wickets
    out_note: str = ""  # why a striker card is out more often than its batter was (its floor)
    chart: list[tuple[str, str, str]] = field(default_factory=list)  # range, code, meaning
    real: list[tuple[str, str]] = field(default_factory=list)
    versus: list[Versus] = field(default_factory=list)
    checked: bool = False  # the simulator's validation checked this card
    verdict: str = ""  # the simulator's verdict on the card, in words
    verdict_ok: bool | None = None
    anchor: str = ""  # the id of this card's section on the player page
    link: str = ""  # the player page, at this card's section unless it is the page's first card


DEFENCE_NAMED = 3  # rated cards the how-to-play page names per kit: an IPL season rates 22


def highest_defence(views: list[CardView]) -> list[CardView]:
    """The kit's highest Defence ratings (R13), the few the how-to-play page names for the kit
    (every one is on the kit's team sheets): highest first, and among equal ratings (a season has
    several 20s) the batter who faced most balls, the name a reader knows, then card order."""
    def balls(view: CardView) -> int:
        return view.card.real.balls or 0
    return sorted((v for v in views if v.defence), key=lambda v: (-int(v.defence or 0), -balls(v)))[:DEFENCE_NAMED]


def _card_ratings(card: Card, hundred: bool) -> tuple[list[tuple[str, str]], str, int | None]:
    """A card's ratings as it prints them (R9, R13), what its Usage means, its Defence rating."""
    from cardgen.render.card import defence_rating, printed_keeper_rating
    player = card.player
    ratings: list[tuple[str, str]] = []
    ratings_note = ""
    defence = None
    if card.kind == "striker":
        for rating, label in ((player.catch, "Catching C"), (player.run_out, "Run-out RO")):
            if rating is not None:
                ratings.append((label, str(rating)))
        keeper = printed_keeper_rating(player)  # as the card prints it (R9's 10 for one who kept in no match)
        if keeper:
            ratings.append(("Keeper", str(keeper)))
        try:
            defence = defence_rating(card)
        except CardSetError:  # a hand-edited set the kit could not print: leave it out, as a bad rating above
            defence = None
        if defence:
            ratings.append(("Defence", str(defence)))
    usage = usage_words(card)
    if usage:
        ratings.append(("Usage", usage))
        from cardgen.render.teamsheets import usage_legend
        # a band never breaks at its hyphen either ("B = 10-" at a line's end, "15" on the next)
        ratings_note = re.sub(r"(\d)-(\d)", "\\1\u2011\\2", usage_legend(hundred=hundred))
    return ratings, ratings_note, defence


def usage_words(card: Card) -> str:
    """A bowler card's Usage as the pages show it, letter / innings bowled ('B/11'); '' without one."""
    usage = card.usage
    if usage is None or not usage.letter:
        return ""
    return f"{usage.letter}/{'' if usage.innings is None else usage.innings}"


def _chart_rows(card: Card) -> list[tuple[str, str, str]]:
    """The card's chart as the page lists it: range, code (a dot for 0), meaning."""
    chart = []
    for row in card.chart:
        lo, hi, code = row.lo, row.hi, row.result
        chart.append((f"{lo}" if lo == hi else f"{lo}–{hi}", "•" if code == "0" else code,
                      RESULT_LABEL.get(code, code)))
    return chart


def _real_figures(card: Card, hundred: bool) -> dict[str, Any]:
    """The card's real-season figures as the page shows them: every figure the set gives,
    its own fields and any a newer writer added (the document's `real`, as the model keeps it)."""
    real = card.real.to_json()
    if hundred:
        real.pop("overs", None)  # 100-ball: balls (shown), not 5-ball sets beside Econ per 6
    if real.pop("high_score_not_out", False) and card.real.high_score is not None:
        real["high_score"] = f"{real['high_score']}*"  # not out, as scorecards print it
    return real


def _real_rows(real: dict[str, Any], figures: RealFigures, kind: str, hundred: bool) -> list[tuple[str, str]]:
    """The real season's rows (label, value), in a cricket order, then when a bowler bowled."""
    rows = [(REAL_LABEL.get(k, ("Wickets" if kind == "bowler" else "Times out")
                            if k == "dismissals" else _humanise(k)), _number(v))
            for k, v in sorted(real.items(), key=lambda kv: (REAL_ORDER.index(kv[0]) if kv[0] in REAL_ORDER
                                                        else len(REAL_ORDER), kv[0]))
            if not isinstance(v, (dict, list))]
    if hundred:
        rows = [(label + PER_SIX_BALLS if label == REAL_LABEL["economy"] else label, value)
                for label, value in rows]
    # as the team sheet's PP / Mid / Death (whole numbers of balls: the model's loader checks them)
    if figures.phase_balls is not None:
        from cardgen.render.teamsheets import phase_shares
        from cardgen.stats.phases import PHASES
        shares = phase_shares(figures)
        if all(shares):
            rows.append(("When bowled", " · ".join(f"{p} {s}" for p, s in zip(PHASES, shares))))
    return rows


def _versus_rows(card: Card, checks: dict[str, str], hundred: bool) -> list[Versus]:
    """Each figure the card expects, beside the real one and the simulator's check of it."""
    versus: list[Versus] = []
    expected = expected_figures(card)
    for key, exp in sorted(expected.items(), key=lambda kv: (
            EXPECTED_ORDER.index(kv[0]) if kv[0] in EXPECTED_ORDER else len(EXPECTED_ORDER), kv[0])):
        got = real_rate(key, card.real)
        factor, places = _scale(key)

        def shown(value: float | None, factor: float = factor, places: int = places) -> str:
            return "—" if value is None else f"{value * factor:.{places}f}"

        sim, lo, hi = (_csv_float(checks.get(f"{part}_{key}")) for part in ("sim", "lo", "hi"))
        # a rate cannot be negative: the normal interval's lower end is clipped at 0
        interval = f"{shown(max(0.0, lo))} – {shown(hi)}" if lo is not None and hi is not None else "—"
        inside = {"True": "inside", "False": "outside"}.get(checks.get(f"ok_{key}", ""), "—")
        label = EXPECTED_LABEL.get(key, _humanise(key))
        if key == "economy" and hundred:
            label += PER_SIX_BALLS
        versus.append(Versus(label, shown(got), shown(float(exp)), shown(sim), interval, inside))
    return versus


def _page_slugs(card_set: CardSet) -> tuple[dict[str, str], dict[str, str]]:
    """Each team's slug (the declared teams first) and each player's page slug, unique in the set."""
    return (_unique_slugs(card_set.team_names()),
            _unique_slugs(sorted({c.player.id or c.player.name for c in card_set.cards})))


def card_views(kit: KitSet) -> list[CardView]:
    card_set = kit.card_set
    hundred = card_set.hundred
    attack_die = plays_attack_die(card_set)
    team_slugs, player_slugs = _page_slugs(card_set)
    views: list[CardView] = []
    for index, card in enumerate(card_set.cards):
        player = card.player
        pid = player.id or player.name
        kind = card.kind
        name = player.name
        team = card.team
        ratings, ratings_note, defence = _card_ratings(card, hundred)
        real = _real_figures(card, hundred)
        checks = kit.validation.card_checks.get((kind, pid, team), {})
        versus = _versus_rows(card, checks, hundred)
        verdict, verdict_ok = card_verdict(checks, versus, card)
        png = kit.card_pngs.get(index)
        kind_label = KIND_LABEL[kind]
        views.append(CardView(
            card=card, index=index, player_id=pid, name=name, full_name=str(player.full_name or name),
            team=team, team_slug=team_slugs[team], kind=kind, kind_label=kind_label,
            position=card.place, player_page=f"players/{player_slugs[pid]}.html",
            png=f"files/{png}" if png else None, thumb=None, thumb_size=None,
            alt=f"{kind_label} card: {name}, {team}", ratings=ratings, ratings_note=ratings_note, defence=defence,
            chart=_chart_rows(card), real=_real_rows(real, card.real, kind, hundred), versus=versus,
            checked=bool(checks), verdict=verdict, verdict_ok=verdict_ok,
            boundary_note=boundary_note(card, attack_die),
            consolidate_note=consolidate_note(card, card_set),
            wicket_note=wicket_note(card, attack_die),
            out_note=out_note(card, attack_die)))
    _set_anchors(views)
    return views


def _attack_band_scoring(card: Card) -> float | None:
    """`report.attack_band_scoring` of a card (None: a hand-edited card it cannot read)."""
    from cardgen.calibrate.report import attack_band_scoring
    try:
        return attack_band_scoring(card)
    except (CardgenError, AttributeError, TypeError):
        return None


def card_verdict(checks: dict[str, str], versus: list[Versus],
             card: Card | None = None) -> tuple[str, bool | None]:
    """The simulator's verdict on one card in a sentence (empty when it did not check the card)."""
    if not checks:
        return "", None
    balls = checks.get("real_balls", "")
    if checks.get("qualified") == "False":
        return (f"Not judged: {balls or 'too few'} real balls this season, and a card is only judged "
                f"(qualified) from {qualify_balls()} real balls up."), None
    missed = [v.label for v in versus if v.verdict == "outside"]
    if checks.get("ok") == "True" or (checks.get("ok") is None and not missed):
        return ("Plays like the real season: every real figure lies inside the range this card gives "
                "95% of the time over the same number of balls."), True
    attack = _attack_band_scoring(card) if card else None
    in_attack = (f"{100 * attack:.0f}% of the real balls were in the attack band, where the "
                 "wickets-in-hand rule rolls a d20 on a dot off either card, whoever bowled it, "
                 "and some of its faces are fours and sixes") if attack is not None else ""
    if checks.get("at_limit") == "True":
        why = in_attack or "the league-average opponent's half of each ball alone gives more"
        return ("At the game's limit on: " + ", ".join(missed or ["the overall check"]) + ". No printed "
                f"card could reach the real figure: {why}. The set's check leaves this card out."), None
    text = "Plays differently from the real season on: " + ", ".join(missed or ["the overall check"]) + "."
    if in_attack and {label.removesuffix(PER_SIX_BALLS) for label in missed} & SCORING_LABELS:
        text += f" Why: {in_attack}."
    return text, False


def _set_anchors(views: list[CardView]) -> None:
    """Each card's id on its player page: "striker" / "bowler", with the team if a player has two."""
    by_page: dict[str, list[CardView]] = {}
    for view in views:
        by_page.setdefault(view.player_page, []).append(view)
    for cards in by_page.values():
        teams = {v.team for v in cards}
        for view in cards:
            view.anchor = view.kind if len(teams) == 1 else f"{view.kind}-{view.team_slug}"
            view.link = view.player_page


def set_links(views: list[CardView]) -> None:
    """Link each thumbnail to its own card: the page's first card at the top, the others at their section."""
    seen: set[str] = set()
    for view in views:  # in the order the player page lists them
        view.link = view.player_page if view.player_page not in seen else f"{view.player_page}#{view.anchor}"
        seen.add(view.player_page)


def team_order(kit: KitSet, views: list[CardView]) -> list[tuple[str, str]]:
    order: list[tuple[str, str]] = []
    for view in views:
        if (view.team, view.team_slug) not in order:
            order.append((view.team, view.team_slug))
    declared = [t.name for t in kit.card_set.teams]
    return sorted(order, key=lambda t: declared.index(t[0]) if t[0] in declared else len(declared))


def sorted_cards(views: list[CardView], teams: list[tuple[str, str]], card_set: CardSet) -> list[CardView]:
    """By team, then as the printed card sheets stack into the decks (render.card.card_views): the
    usual XI in batting order, then the reserves, a player's striker card before his bowler card;
    a card whose player is in neither deck follows, by batting position."""
    from cardgen.render.card import deck_order
    decks = deck_order(card_set.teams)
    team_rank = {name: i for i, (name, _) in enumerate(teams)}
    return sorted(views, key=lambda v: (team_rank[v.team], decks.get((v.team, v.player_id), (2, 0)),
                                        v.position if v.position is not None else 99,
                                        v.kind != "striker", v.name, v.index))


PLAYER_INDEX = "players.html"  # every player of a set, A to Z: the search box's target


def _surname_key(name: str) -> tuple[str, str]:
    parts = name.split()
    return ((parts[-1] if parts else name).casefold(), name.casefold())


def search_example(views: list[CardView]) -> str:
    """The search box's hint names a player of this set (its first card's surname): a fixed
    "e.g. Short" (BBL's Matt Short) matched nobody in IPL 2025 or the Hundred."""
    for view in views:
        surname = view.name.split()[-1] if view.name.split() else ""
        if re.fullmatch(r"[^\W\d_][\w'-]*", surname):
            return surname
    return ""


def player_index(views: list[CardView]) -> list[dict[str, Any]]:
    """One entry per player page, sorted by surname: name, teams, card kinds and words to search."""
    by_page: dict[str, list[CardView]] = {}
    for view in views:
        by_page.setdefault(view.player_page, []).append(view)
    players = []
    for page, cards in by_page.items():
        first = cards[0]
        teams = list(dict.fromkeys(c.team for c in cards))
        kinds = " and ".join(dict.fromkeys(c.kind_label.lower() for c in cards))
        players.append({"name": first.name, "full_name": first.full_name, "page": page,
                        "teams": teams, "kinds": kinds,
                        "search": " ".join([first.name, first.full_name, *teams]).casefold()})
    return sorted(players, key=lambda p: _surname_key(p["name"]))


def stand_in_strikers(kit: KitSet, cards: list[CardView], views: list[CardView]) -> list[CardView]:
    """For each team a player has a bowler card but no striker card for: the striker card he bats
    with, as the team sheet names it (render.teamsheets.stand_in_card, docs/rules.md R9)."""
    from cardgen.render.teamsheets import stand_in_card
    strikers = {(v.team, v.player_id): v for v in views if v.kind == "striker"}
    found = []
    for team in dict.fromkeys(c.team for c in cards):
        if (team, cards[0].player_id) in strikers:
            continue
        card = stand_in_card(kit.card_set, team)
        if card is not None:
            view = strikers.get((team, card.player.id or card.player.name))
            if view is not None:
                found.append(view)
    return found
