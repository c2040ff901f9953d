"""A league's card set: its sides' players from their own seasons, on one baseline.

The set is a season's set in form (valid against the card-set schema, printed, played and
published by the same code), with these differences:

* `competition` is the league (its code names the kit's folder, `<CODE>_<baseline season>`),
  `season` and the fielding chart, ratings scale, rule and `league` table are the baseline's
  (for `baseline = "mean"`: the `league` table is the mean of the seasons used, `league.mean`,
  and `season`, chart, scales and rule are those of the season it takes them from);
* every card keeps its player's real season (`real`, and `source`: the season and real side
  it comes from) and is solved on the baseline (`calibrate.baseline`); a player of the baseline
  season keeps his season card;
* `own_league` records the league: its name, baseline, cap, fixtures, the baseline's average
  opponent (`average`: what each card's `expected` block and every later check play against)
  and each source season's own figures (`sources`: the indices' denominators);
* each card carries its `points` and each side its total (`sim.points`).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from cardgen import ATTRIBUTION, __version__
from cardgen.calibrate.baseline import Baseline, guest_calibration, index_errors, index_rates
from cardgen.calibrate.cardset import SCHEMA_VERSION, card_sets_from_calibration
from cardgen.calibrate.model import (CARD_RESULTS, DEFAULT_CATCH, DEFAULT_KEEPER, DEFAULT_RUN_OUT,
                                     card_defence, chart_to_slots)
from cardgen.calibrate.people import short_names, team_sheets
from cardgen.league.fixtures import round_robin
from cardgen.league.players import Pick, Season, Seasons, Side
from cardgen.league.spec import LeagueFileError, LeagueSpec
from cardgen.sim.points import (AverageSide, CardPoints, average_side, batting_points,
                                bowler_units, bowling_points, fielding_points, side_points)

if TYPE_CHECKING:
    from cardgen.sim.model import Format

XI = 11
MIN_BOWLERS = 5   # bowler cards a side needs to bowl its 20 overs at four each
REGULAR_UNITS = 2.0   # a regular bowler's usual overs (or 5-ball sets) an innings, at least


def season_card_set(comp, season: str, source: str | None, rules: str) -> dict:  # type: ignore[no-untyped-def]
    """The season's own card set for `rules` ("quicket": as printed; "advanced"), kept or
    calibrated as `cardgen build` does."""
    from cardgen.calibrate import cardset
    return cardset.build_card_set(comp, season, source, reuse=True, rules=rules)


def _source_block(season: Season, team: str, shorts: dict[str, str], position: int) -> dict:
    return {"competition": season.comp.code, "season": season.season, "team": team,
            "team_short": shorts.get(team, team), "format": season.comp.format,
            "position": int(position)}


def season_cards(season: Season, picks: list[Pick], baseline: Baseline,
                 baseline_set: dict | None) -> list[dict]:
    """The cards of `picks` (players of one season): the season's own cards when it is the
    baseline (`baseline_set`), else solved on the baseline. Each card gets its `source`."""
    wanted = {(p.player_id, p.team) for p in picks}
    if baseline_set is not None:
        cards = [copy.deepcopy(c) for c in baseline_set["cards"]
                 if (c["player"]["id"], c["team"]) in wanted]
    else:
        keys = {(kind, pid, team) for pid, team in wanted for kind in ("striker", "bowler")}
        cal = guest_calibration(season.stats, baseline, keys)
        cards = card_sets_from_calibration(cal, season.comp, season.season)["cards"]
    teams = sorted({str(t) for t in season.stats.batting["team"]} | {str(t) for t in season.stats.bowling["team"]})
    shorts = short_names(teams)
    for c in cards:
        c["source"] = _source_block(season, c["team"], shorts, int(c.get("position") or 12))
    return cards


@dataclass
class Valued:
    """A player's cards in the league with his points."""
    pick: Pick
    cards: list[dict]
    points: CardPoints

    @property
    def striker(self) -> dict | None:
        return next((c for c in self.cards if c["kind"] == "striker"), None)

    @property
    def bowler(self) -> dict | None:
        return next((c for c in self.cards if c["kind"] == "bowler"), None)

    @property
    def keeper(self) -> bool:
        block = self.cards[0]["player"]
        return block.get("batting_role") == "Wicketkeeper" and bool(block.get("keeper"))

    @property
    def usual_position(self) -> int:
        s = self.striker
        return int((s or {}).get("source", {}).get("position") or 12) if s else 13

    def units(self, league_balls_per_over: int = 6) -> float:
        b = self.bowler
        if b is None:
            return 0.0
        per_over = 5 if b["source"]["format"] == "100-ball" else 6
        return bowler_units(b, per_over)


def value_players(cards_by_player: dict[str, tuple[Pick, list[dict]]], avg: AverageSide
                  ) -> dict[str, Valued]:
    """Each player's points: his striker card at his usual place, his bowler card over his
    usual overs, his fielding (and keeping) ratings."""
    base = avg.runs()
    valued = {pid: Valued(pick, cards, CardPoints()) for pid, (pick, cards) in cards_by_player.items()}
    hitters = [v for v in valued.values() if v.striker is not None]
    bowlers = [v for v in valued.values() if v.bowler is not None]
    everyone = list(valued.values())
    striker_cards = [v.striker for v in hitters if v.striker is not None]  # every hitter's
    bowler_cards = [v.bowler for v in bowlers if v.bowler is not None]
    bat = batting_points(avg, np.array([chart_to_slots(c["chart"]) for c in striker_cards],
                                       dtype=np.float64).reshape(-1, len(CARD_RESULTS)),
                         np.array([card_defence(c) / 20 for c in striker_cards]),
                         np.array([min(v.usual_position, XI) for v in hitters]), base)
    bowl = bowling_points(avg, np.array([chart_to_slots(c["chart"]) for c in bowler_cards],
                                        dtype=np.float64).reshape(-1, len(CARD_RESULTS)),
                          np.array([v.units() for v in bowlers]), base)
    field = fielding_points(avg, np.array([int(v.cards[0]["player"].get("catch") or 10) for v in everyone]),
                            np.array([int(v.cards[0]["player"].get("run_out") or 10) for v in everyone]),
                            np.array([int(v.cards[0]["player"]["keeper"]) if v.keeper else 0 for v in everyone]),
                            base)
    parts: dict[str, dict[str, float]] = {pid: {} for pid in valued}
    for v, x in zip(hitters, bat):
        parts[v.pick.player_id]["batting"] = float(x)
    for v, x in zip(bowlers, bowl):
        parts[v.pick.player_id]["bowling"] = float(x)
    for v, x in zip(everyone, field):
        parts[v.pick.player_id]["fielding"] = float(x)
    for pid, v in valued.items():
        v.points = CardPoints(**parts[pid])
    return valued


def card_points_block(v: Valued, card: dict) -> dict:
    """What a card prints and records: its own points (the fielding once, on the striker card,
    or on the bowler card of a player with no striker card) and its player's in all."""
    p = v.points
    if card["kind"] == "striker":
        own = p.batting + p.fielding
    else:
        own = p.bowling + (p.fielding if v.striker is None else 0.0)
    return {"card": round(own, 1), "player": round(p.total, 1), "batting": round(p.batting, 2),
            "bowling": round(p.bowling, 2), "fielding": round(p.fielding, 2)}


def role_text(v: Valued) -> str:
    """A player's role in a word or two: his batting role, and his bowling if he has a card."""
    block = v.cards[0]["player"]
    batting = block.get("batting_role") or ""
    bowling = block.get("bowling_role") or ""
    role = "Bowler" if batting in ("", "*") else batting
    if v.bowler is not None and bowling not in ("", "*") and role != "Bowler":
        return f"{role} \u00b7 {bowling}"
    return f"Bowler \u00b7 {bowling}" if role == "Bowler" and bowling not in ("", "*") else role


def player_rows(valued: list[Valued], side_of: dict[str, str]) -> list[dict]:
    """The draft sheet's rows: every eligible player by points, with the side that has him."""
    rows = []
    for v in sorted(valued, key=lambda v: (-v.points.total, v.pick.name, v.pick.player_id)):
        src = v.cards[0]["source"]
        rows.append({"id": v.pick.player_id, "name": v.cards[0]["player"]["name"],
                     "season": v.pick.season.label, "team": src["team"], "team_short": src["team_short"],
                     "role": role_text(v), "batting": round(v.points.batting, 2) if v.striker else None,
                     "bowling": round(v.points.bowling, 2) if v.bowler else None,
                     "fielding": round(v.points.fielding, 2), "points": round(v.points.total, 2),
                     "side": side_of.get(v.pick.player_id)})
    return rows


def choose_xi(players: list[Valued], real_xi: list[str] | None = None) -> tuple[list[Valued], list[Valued]]:
    """A side's XI in batting order and its reserves: a whole real side's usual XI, else the
    eleven with the most points that still bowl the innings (MIN_BOWLERS bowler cards, the best
    bowlers kept in) and keep wicket (its best keeper kept in); the order by usual places."""
    by_id = {v.pick.player_id: v for v in players}
    if real_xi and len([p for p in real_xi if p in by_id]) == XI:
        xi = [by_id[p] for p in real_xi if p in by_id]
    else:
        ranked = sorted(players, key=lambda v: (-v.points.total, v.pick.player_id))
        must = [v for v in ranked if v.keeper][:1]
        bowlers = sorted([v for v in ranked if v.bowler is not None],
                         key=lambda v: (v.units() < REGULAR_UNITS, -v.points.bowling, v.pick.player_id))
        for v in bowlers:
            if sum(b.bowler is not None for b in must) >= MIN_BOWLERS:
                break
            if v not in must:
                must.append(v)
        xi = must + [v for v in ranked if v not in must][:XI - len(must)]
        xi = sorted(xi, key=lambda v: (v.usual_position, -v.points.batting, v.pick.player_id))
    rest = sorted([v for v in players if v not in xi],
                  key=lambda v: (-v.points.total, v.pick.player_id))
    return xi, rest


def side_entry(name: str, short: str, xi: list[Valued], reserves: list[Valued]) -> dict:
    bowlers = sorted([v for v in xi + reserves if v.bowler is not None],
                     key=lambda v: (-v.units(), -v.points.bowling, v.pick.player_id))
    keeper = next((v for v in xi if v.keeper), None)
    entry = {"name": name, "short_name": short,
             "batting_order": [v.pick.player_id for v in xi],
             "reserves": [v.pick.player_id for v in reserves],
             "bowlers": [v.pick.player_id for v in bowlers],
             "bowling_units": {v.pick.player_id: round(v.units(), 3) for v in bowlers}}
    if keeper is not None:
        entry["wicketkeeper"] = keeper.pick.player_id
    return entry


def average_block(avg: AverageSide, baseline: Baseline) -> dict:
    return {"bowler": [round(float(x), 6) for x in baseline.model.mean_bowler],
            "striker": [round(float(x), 6) for x in baseline.model.mean_striker],
            "defence": round(float(baseline.model.mean_defence), 6),
            "batters": [[round(float(x), 6) for x in row] for row in avg.batters],
            "batter_defences": [round(float(x), 6) for x in avg.defences]}


@dataclass
class OnBaseline:
    """What a league's cards play against: its baseline (a season, or the mean of the seasons
    used), the season card set its chart, scales and rule come from, its average side, and the
    season whose players keep their season cards (None for a mean)."""
    baseline: Baseline
    chart_set: dict
    avg: AverageSide
    season: Season | None
    chart_season: Season
    label: str
    own: dict              # what own_league says of the baseline beyond its name


def season_baseline(spec: LeagueSpec, seasons: Seasons, rules: str, source: str | None) -> OnBaseline:
    assert spec.baseline is not None
    base_season = seasons.get(spec.baseline)
    if base_season.comp.format != spec.format:
        raise LeagueFileError(f"{spec.where(spec.baseline.line)}: the baseline {base_season.label} "
                              f"is a {base_season.comp.format} season and the league is {spec.format}; "
                              f"the cards play in the baseline's format (format = "
                              f"\"{base_season.comp.format}\", or another baseline)")
    base_set = season_card_set(base_season.comp, base_season.season, source, rules)
    return OnBaseline(Baseline.from_card_set(base_set, base_season.label), base_set, average_side(base_set),
                      base_season, base_season, base_season.label, {})


def mean_of_seasons(spec: LeagueSpec, used: list[Season], rules: str, source: str | None) -> OnBaseline:
    """baseline = "mean": the mean league of the seasons `used` (`league.mean`), its chart from
    the one of them of the league's format nearest its level."""
    from cardgen.league.mean import host_of, mean_baseline, mean_league, striker_positions
    used = sorted(used, key=lambda s: s.label)
    hosts = [s for s in used if s.comp.format == spec.format]
    if not hosts:
        raise LeagueFileError(f"{spec.where(spec.baseline_line)}: baseline = \"mean\" takes its "
                              f"fielding chart from a {spec.format} season among those the league "
                              f"uses, and it uses none (add a player of one, or name a baseline season)")
    tables = [s.stats.league for s in used]
    # the level (runs per delivery) is the same on any host's deliveries: the first one's finds the host
    chosen = host_of([(h.label, h.stats.league) for h in hosts], mean_league(tables, hosts[0].stats.league))
    host = next(s for s in hosts if s.label == chosen)
    mean = mean_league(tables, host.stats.league)
    host_set = season_card_set(host.comp, host.season, source, rules)
    host_avg = average_side(host_set)
    label = f"the mean of {len(used)} season{'s' if len(used) > 1 else ''}"
    baseline, batters = mean_baseline(Baseline.from_card_set(host_set, host.label), host.stats, mean, label,
                                      host_avg.batters, striker_positions(host_set))
    avg = AverageSide(batters, host_avg.defences, baseline.model.mean_bowler, host_avg.skill,
                      host_avg.cells, host_avg.fmt, host_avg.rule)
    chart_set = dict(host_set, league=mean, expected_league={})
    return OnBaseline(baseline, chart_set, avg, None, host, label,
                      {"baseline_seasons": [s.label for s in used], "chart_from": host.label})


def _picks_by_season(sides: list[Side]) -> dict[tuple[str, str], list[Pick]]:
    """The sides' players grouped by the season they come from (its key), in pick order."""
    by_season: dict[tuple[str, str], list[Pick]] = {}
    for side in sides:
        for pick in side.picks:
            by_season.setdefault(pick.season.key, []).append(pick)
    return by_season


def _league_baseline(spec: LeagueSpec, seasons: Seasons, by_season: dict[tuple[str, str], list[Pick]],
                     used: list[Season] | None, rules: str, source: str | None) -> OnBaseline:
    """The file's baseline season, or the mean of the seasons `mean_of` names, else of `used`,
    else of the seasons the players come from."""
    if spec.baseline is not None:
        return season_baseline(spec, seasons, rules, source)
    if spec.mean_of:
        used = [seasons.get(ref) for ref in spec.mean_of]
    return mean_of_seasons(spec, used or [picks[0].season for picks in by_season.values()], rules, source)


def _cards_by_player(spec: LeagueSpec, by_season: dict[tuple[str, str], list[Pick]], on: OnBaseline
                     ) -> tuple[dict[str, tuple[Pick, list[dict]]], dict[str, dict]]:
    """Every player's cards on the baseline, season by season, and each source season's own
    figures (`own_league.sources`, the indices' denominators), by its label."""
    cards_by_player: dict[str, tuple[Pick, list[dict]]] = {}
    sources: dict[str, dict] = {}
    for key, picks in sorted(by_season.items()):
        season = picks[0].season
        sources[season.label] = index_rates(season.stats.league)
        own_cards = on.chart_set if on.season is not None and key == on.season.key else None
        cards = season_cards(season, picks, on.baseline, own_cards)
        for pick in picks:
            mine = [c for c in cards if c["player"]["id"] == pick.player_id and c["team"] == pick.team]
            if not mine:
                raise LeagueFileError(f"{spec.where(pick.line)}: {pick.name} has no card in "
                                      f"{season.label} (he neither batted nor bowled)")
            cards_by_player[pick.player_id] = (pick, mine)
    return cards_by_player, sources


def _side_teams_and_cards(spec: LeagueSpec, sides: list[Side], valued: dict[str, Valued]
                          ) -> tuple[list[dict], list[dict]]:
    """Each side's team entry (its XI, reserves and bowlers) and its players' cards, each card
    on the side with its place in the order and its points; the cards sorted as a set's are."""
    shorts = short_names([s.name for s in sides])
    team_list, cards_out = [], []
    for side in sides:
        players = [valued[p.player_id] for p in side.picks]
        if len(players) < XI:
            raise LeagueFileError(f"{spec.where(side.line)}: {side.name!r} has {len(players)} "
                                  f"players with a card; a side needs at least {XI}")
        xi, reserves = choose_xi(players, _real_xi(side))
        entry = side_entry(side.name, shorts[side.name], xi, reserves)
        team_list.append(entry)
        order = {pid: i + 1 for i, pid in enumerate(entry["batting_order"] + entry["reserves"])}
        for v in players:
            for c in v.cards:
                card = dict(c, team=side.name, team_short=shorts[side.name],
                            position=order[v.pick.player_id], points=card_points_block(v, c))
                cards_out.append(card)
    cards_out.sort(key=lambda c: (c["team"], c["kind"], c["position"], c["player"]["id"]))
    return team_list, cards_out


def _own_league_block(spec: LeagueSpec, sides: list[Side], on: OnBaseline, sources: dict[str, dict],
                      pool: list[Valued]) -> dict:
    """The card set's `own_league`: the league's name, baseline, cap, fixtures, average
    opponent, source seasons and the draft sheet's rows."""
    return {"name": spec.name, "baseline": on.label, **on.own,
            **({"cap": spec.cap} if spec.cap is not None else {}),
            "rounds": spec.rounds,
            "fixtures": [list(f) for f in round_robin([s.name for s in sides], spec.rounds)],
            "average": average_block(on.avg, on.baseline),
            "average_innings": round(on.avg.runs(), 2),
            "sources": sources,
            "players": player_rows(pool, {p.player_id: s.name for s in sides for p in s.picks})}


def build_league(spec: LeagueSpec, sides: list[Side], seasons: Seasons, rules: str,
                 source: str | None, pool: list[Valued] | None = None,
                 used: list[Season] | None = None) -> dict:
    """The league's card set (a dict valid against the card-set schema); `pool`: everyone the
    draft sheet lists (default: the sides' players); `used`: the seasons a mean baseline is the
    mean of (default: the sides' players')."""
    by_season = _picks_by_season(sides)
    on = _league_baseline(spec, seasons, by_season, used, rules, source)
    avg, base_set = on.avg, on.chart_set
    cards_by_player, sources = _cards_by_player(spec, by_season, on)
    valued = value_players(cards_by_player, avg)
    team_list, cards_out = _side_teams_and_cards(spec, sides, valued)
    for entry in team_list:   # what the side adds, its XI together as it takes the field
        entry["points"] = round(side_prediction({"teams": team_list, "cards": cards_out,
                                                 "format": spec.format}, entry["name"], avg)["total"], 1)
        entry["xi_points"] = round(sum(valued[p].points.total for p in entry["batting_order"]), 1)
    comp = on.chart_season.comp
    rules_block = {k: base_set[k] for k in ("rules", "rule", "rule_parameters") if k in base_set}
    sexes = {s.comp.sex for s in seasons.all() if s.key in by_season}
    return {
        "schema_version": SCHEMA_VERSION,
        "competition": {"code": spec.code, "name": spec.name, "nation": comp.nation,
                        **({"sex": next(iter(sexes))} if len(sexes) == 1 else {})},
        "season": on.chart_season.season,
        "format": spec.format,
        **rules_block,
        "generator": f"cardgen {__version__}",
        "attribution": ATTRIBUTION,
        "fielding_chart": base_set["fielding_chart"],
        "fielding": base_set["fielding"],
        "teams": team_list,
        "league": base_set["league"],
        "expected_league": base_set.get("expected_league", {}),
        "own_league": _own_league_block(spec, sides, on, sources,
                                        pool if pool is not None else list(valued.values())),
        "cards": cards_out,
    }


@dataclass
class League:
    """A league made: its file parsed, its card set and the file's text as used (a draft's,
    written out). Here, not in `league.make`, so that `league.draft` (which makes one) and
    `league.make` (which calls the draft) need not import each other."""
    spec: LeagueSpec
    card_set: dict
    text: str


def _real_xi(side: Side) -> list[str] | None:
    """A whole real side's usual XI in its season (None for a side made up of players)."""
    seasons = {p.season.key for p in side.picks}
    teams = {p.team for p in side.picks}
    if len(seasons) != 1 or len(teams) != 1 or not side.picks:
        return None
    season = side.picks[0].season
    sheet = team_sheets(season.stats.lineups, season.stats.bowling).get(next(iter(teams)))
    return list(sheet["batting_order"]) if sheet else None


def _xi_batting(card_set: dict, team: str, xi: list[str], cards: dict[tuple[str, str], dict],
                avg: AverageSide) -> tuple[np.ndarray, np.ndarray]:
    """The XI's batting, in order: each batter's chart (as slots) and defence, a batter with no
    striker card of his own batting on the stand-in card (docs/rules.md R9), or as the average
    side's batter at his place when the set has none."""
    from cardgen.cardset import Card, stand_in_striker
    strikers = [c for c in card_set["cards"] if c["kind"] == "striker"]
    stand_in = stand_in_striker([Card.from_json(c) for c in strikers], team)
    batting = [cards.get((p, "striker")) or (strikers[stand_in] if stand_in is not None else None) for p in xi]
    bat = np.array([chart_to_slots(c["chart"]) if c else avg.batters[i] for i, c in enumerate(batting)], float)
    defences = np.array([card_defence(c) / 20 if c else 0.0 for c in batting])
    return bat, defences


def _xi_bowlers(xi: list[str], units: dict[str, float], cards: dict[tuple[str, str], dict],
                fmt: Format) -> list[str]:
    """The XI's bowler cards, then reserves by usage while the XI cannot bowl the innings."""
    bowlers = [p for p in xi if (p, "bowler") in cards]
    for p in sorted((p for p in units if p not in xi and (p, "bowler") in cards), key=lambda p: -units[p]):
        if len(bowlers) * fmt.max_units_per_bowler >= fmt.units:
            break
        bowlers.append(p)
    return bowlers


def _keeper_slot(entry: dict, xi: list[str], blocks: list[dict]) -> int:
    """The keeper's place in the XI: the side's named keeper, else the best keeper (then
    catcher) among its player blocks."""
    keeper = entry.get("wicketkeeper")
    if keeper in xi:
        return xi.index(keeper)
    return int(np.argmax([int(b.get("keeper") or 0) * 100 + int(b.get("catch") or 0) for b in blocks]))


def side_prediction(card_set: dict, team: str, avg: AverageSide | None = None) -> dict[str, float]:
    """What a side's points say it adds a match over the average side (`sim.points.side_points`),
    its XI as the engines field it: the batting order with the stand-in card for a batter with
    none of his own (docs/rules.md R9), each bowler over the overs the captain shares out to
    him (his usual overs, capped and scaled to the innings: `sim.captain.QuotaDraw`; reserves
    step in by usage if the XI cannot bowl the innings), its keeper keeping."""
    from cardgen.sim.captain import QuotaDraw
    from cardgen.sim.model import format_named
    avg = avg or average_side(card_set)
    fmt = format_named(card_set.get("format", "T20"))
    entry = next(t for t in card_set["teams"] if t["name"] == team)
    cards = {(c["player"]["id"], c["kind"]): c for c in card_set["cards"] if c["team"] == team}
    xi = entry["batting_order"]
    bat, defences = _xi_batting(card_set, team, xi, cards, avg)
    units = entry.get("bowling_units") or {}
    bowlers = _xi_bowlers(xi, units, cards, fmt)
    shares = QuotaDraw(np.array([float(units.get(p, 0.0)) for p in bowlers]), fmt).target
    blocks = [next(c for k, c in cards.items() if k[0] == p)["player"] for p in xi]
    slot = _keeper_slot(entry, xi, blocks)
    points = side_points(avg, bat, defences,
                         np.array([chart_to_slots(cards[(p, "bowler")]["chart"]) for p in bowlers], float),
                         shares, np.array([int(b.get("catch") or DEFAULT_CATCH) for b in blocks]),
                         np.array([int(b.get("run_out") or DEFAULT_RUN_OUT) for b in blocks]), slot,
                         float(blocks[slot].get("keeper") or DEFAULT_KEEPER))
    return {"batting": points.batting, "bowling": points.bowling, "fielding": points.fielding,
            "total": points.total}


def over_cap(card_set: dict) -> list[tuple[str, float]]:
    """The sides whose points pass the league's cap: (name, points)."""
    cap = (card_set.get("own_league") or {}).get("cap")
    if cap is None:
        return []
    return [(t["name"], float(t["points"])) for t in card_set.get("teams") or []
            if float(t.get("points", 0)) > float(cap) + 1e-9]


def league_index_errors(card_set: dict) -> dict[str, list[float]]:
    """Per figure, each qualified card's index error on the league's baseline
    (`calibrate.baseline.index_errors`, each card against its own season's figures): what the
    issue's medians are over."""
    sources = card_set["own_league"]["sources"]
    return index_errors(card_set["cards"], index_rates(card_set["league"]),
                        lambda c: sources[f"{c['source']['competition']} {c['source']['season']}"])


def median_index_errors(card_set: dict) -> dict[str, float]:
    """Median |index error| per figure, in percent."""
    return {k: float(100 * np.median(np.abs(v))) if v else float("nan")
            for k, v in league_index_errors(card_set).items()}


def cards_by_id(card_set: dict[str, Any]) -> dict[tuple[str, str], dict]:
    return {(c["kind"], c["player"]["id"]): c for c in card_set["cards"]}
