"""Selection like a real captain: XIs, batting orders and bowling plans from the real season.

The bowling plan of an innings is fixed before the first ball (rules decision R10): each bowler's
number of overs (T20) or 5-ball sets (100-ball) follows his real share of the team's balls,
capped at the format's limit, rounded at random so the shares hold on average, then ordered so
that no T20 bowler bowls two overs in a row and no 100-ball bowler bowls more than 10 balls in a
row.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from cardgen.cardset import stand_in_striker
from cardgen.sim.model import CardSetError, CompiledSet, Format, Side

if TYPE_CHECKING:  # pandas is imported where a season's tables are read (`real_xi`): the site's
    import pandas as pd  # first-match page plays a match with this captain and reads no table


class QuotaDraw:
    """A side's bowling shares turned into units (overs or sets): the capped real shares are
    worked out once, and each plan only rounds them at random (one uniform draw)."""

    def __init__(self, weights: np.ndarray, fmt: Format) -> None:
        units, cap = fmt.units, fmt.max_units_per_bowler
        w = np.asarray(weights, dtype=float)
        if len(w) * cap < units:
            raise CardSetError(f"{len(w)} bowlers cannot bowl {units} units at {cap} each")
        w = np.where(w > 0, w, 1e-6)  # everyone listed may be needed; zero-share bowlers last
        target = np.zeros(len(w))
        free = np.ones(len(w), dtype=bool)
        left = float(units)
        while True:  # water-filling: cap the heavy bowlers, share the rest out again
            target[free] = left * w[free] / w[free].sum()
            over = free & (target > cap)
            if not over.any():
                break
            target[over] = cap
            free &= ~over
            left = units - target[~free].sum()
        self.target = target  # each bowler's expected units (league points count them)
        self.floor = np.floor(target + 1e-9).astype(int)
        self.short = units - int(self.floor.sum())
        self.edges = np.zeros(0)
        if self.short:
            # systematic sampling: bowler i gets his extra unit with probability exactly frac[i]
            frac = np.where(self.floor < cap, np.clip(target - self.floor, 0, 1), 0)
            frac *= self.short / frac.sum()
            self.edges = np.concatenate([[0.0], np.cumsum(frac)])

    def draw(self, rng: np.random.Generator) -> np.ndarray:
        if not self.short:
            return self.floor.copy()
        points = rng.random() + np.arange(self.short)
        return self.floor + np.histogram(points, bins=self.edges)[0]


def bowling_quotas(weights: np.ndarray, fmt: Format, rng: np.random.Generator) -> np.ndarray:
    """Units (overs or sets) per bowler: real shares, capped, randomly rounded to sum exactly."""
    return QuotaDraw(weights, fmt).draw(rng)


def order_plan(quota: np.ndarray, fmt: Format) -> list[int]:
    """Bowler index for each unit, obeying the format's consecutive-ball rules.

    T20: never two overs in a row. 100-ball: spells of one or two 5-ball sets (5 or 10
    consecutive balls); a bowler who opens a 10-ball block from one end carries on for its
    second set if he has one left, so 10-ball spells sit between changes of end. Greedy on most
    units remaining (the first such bowler on a tie), which always succeeds when no bowler has
    more than half the units (the cap of 4 of 20 ensures it).
    """
    remaining = [int(q) for q in quota]
    plan: list[int] = []
    spell = 0
    hundred = fmt.name == "100-ball"
    for _ in range(sum(remaining)):
        last = plan[-1] if plan else -1
        # 100-ball: a second set completes a 10-ball block from one end (sets 1-2, 3-4, ...)
        if hundred and spell == 1 and len(plan) % 2 == 1 and remaining[last] > 0:
            pick = last
        else:
            allowed = remaining.copy()
            if last >= 0:
                allowed[last] = -1
            pick = allowed.index(max(allowed))
            if allowed[pick] <= 0:
                raise CardSetError("no bowler can take the next over within the limits")
        spell = spell + 1 if pick == last else 1
        remaining[pick] -= 1
        plan.append(pick)
    return plan


def plan_pool(bowler_cards: list[int], weights: Iterable[float], fmt: Format,
              rng: np.random.Generator, size: int) -> list[list[int]]:
    """`size` bowling plans (bowler-card rows per unit) drawn from the real shares."""
    quotas = QuotaDraw(np.array(list(weights), dtype=float), fmt)
    orders: dict[tuple[int, ...], list[int]] = {}  # a plan depends only on its quota
    plans = []
    for _ in range(size):
        quota = tuple(int(q) for q in quotas.draw(rng))
        if quota not in orders:
            orders[quota] = [bowler_cards[i] for i in order_plan(np.array(quota), fmt)]
        plans.append(list(orders[quota]))
    return plans


def check_plan(plan: list[int], fmt: Format) -> None:
    """Raise if a plan breaks a limit (used by tests and as a guard)."""
    if len(plan) != fmt.units:
        raise CardSetError(f"plan has {len(plan)} units, expected {fmt.units}")
    counts = Counter(plan)
    if max(counts.values()) > fmt.max_units_per_bowler:
        raise CardSetError("a bowler exceeds his limit")
    run = 1
    for a, b in zip(plan, plan[1:]):
        run = run + 1 if a == b else 1
        if fmt.name == "T20" and run > 1:
            raise CardSetError("a T20 bowler bowls two overs in a row")
        if fmt.name == "100-ball" and run > 2:
            raise CardSetError("a 100-ball bowler bowls more than 10 balls in a row")
    if fmt.name == "100-ball":
        for u in range(1, len(plan) - 1, 2):  # a 10-ball spell may not straddle a change of end
            if plan[u] == plan[u + 1]:
                raise CardSetError("a 100-ball bowler's 10 balls straddle a change of ends")


def real_xi(rows: pd.DataFrame) -> tuple[list[str], str | None]:
    """The eleven who really played, in the real batting order, and the real keeper.

    A team sheet may list more than eleven (IPL's impact player, a concussion substitute): the
    players who took part -- batted, bowled, kept or took part in a dismissal -- are the XI,
    topped up from the sheet in its order when fewer than eleven took part; when more than
    eleven did (a substitute and the player he replaced both played), the keeper, then the
    bowlers by balls bowled, then the batters in order are kept (the game needs the overs
    bowled more than a tail-ender who was not needed). Raises CardSetError when the sheet has
    fewer than eleven names.
    """
    import pandas as pd
    if len(rows) < 11:
        raise CardSetError(f"line-up has {len(rows)} players")
    rows = rows.sort_values("batting_position")
    fielded = rows["fielded"] if "fielded" in rows else pd.Series(0, index=rows.index)
    took_part = (rows["batted"].astype(bool) | (rows["balls_bowled"] > 0)
                 | rows["keeper"].astype(bool) | (fielded > 0))
    if len(rows) > 11:
        priority = pd.DataFrame({
            "part": ~took_part, "keeper": ~rows["keeper"].astype(bool),
            "balls": -rows["balls_bowled"], "batted": ~rows["batted"].astype(bool),
            "pos": rows["batting_position"]}, index=rows.index)
        keep = priority.sort_values(["part", "keeper", "balls", "batted", "pos"]).index[:11]
        rows = rows.loc[rows.index.isin(keep)]
    keeper = rows.loc[rows["keeper"].astype(bool), "player_id"]
    return [str(x) for x in rows["player_id"]], (str(keeper.iloc[0]) if len(keeper) else None)


class Captain:
    """Picks sides for a card set from the real season's line-ups and bowling usage."""

    def __init__(self, cs: CompiledSet, lineups: pd.DataFrame, bowling: pd.DataFrame,
                 rng: np.random.Generator, plans_per_side: int = 16) -> None:
        self.cs = cs
        self.lineups = lineups
        self.rng = rng
        self.plans_per_side = plans_per_side
        # each bowler's share of his team's legal balls over the season
        b = bowling[bowling["legal_balls"] > 0]
        totals = b.groupby("team")["legal_balls"].transform("sum")
        self.share = {(str(p), str(t)): float(x) for p, t, x in
                      zip(b["player_id"], b["team"], b["legal_balls"] / totals)}
        self._sheets: dict[tuple[str, str], pd.DataFrame] | None = None
        self.appearances = Counter(zip(lineups["player_id"].astype(str), lineups["team"].astype(str)))

    # striker cards -------------------------------------------------------------------------
    def _fallback_striker(self, team: str) -> int:
        """A player with no striker card bats with his team's lowest-placed striker card."""
        index = stand_in_striker(self.cs.striker_cards, team)
        if index is None:
            raise CardSetError(f"team {team!r} has no striker cards")
        return index

    def side(self, team: str, xi: list[str], keeper_id: str | None,
             match_balls: dict[str, float] | None = None) -> Side:
        """A side from 11 player ids in batting order.

        Bowling weights: the real balls each bowled in this match when given (a replayed
        fixture), with the season share as a small tie-breaker for the overs a shortened real
        innings leaves over; else the season share.
        """
        cs = self.cs
        if len(xi) != 11:
            raise CardSetError(f"{team}: XI has {len(xi)} players")
        players, batters = [], []
        for pid in xi:
            key = (pid, team)
            if key not in cs.player_of:  # a player with no card at all: fielder with defaults
                cs.player_of[key] = len(cs.player_ids)
                cs.player_ids.append(pid)
                cs.player_names.append(pid)
                cs.player_teams.append(team)
                cs.catch = np.append(cs.catch, np.int16(10))
                cs.run_out = np.append(cs.run_out, np.int16(10))
                cs.keeper = np.append(cs.keeper, np.int16(0))
            players.append(cs.player_of[key])
            batters.append(cs.striker_card_of[key] if key in cs.striker_card_of
                           else self._fallback_striker(team))
        if keeper_id in xi:
            keeper_slot = xi.index(keeper_id)
        else:  # the best keeping rating in the XI, else the best catcher
            keeper_slot = int(np.argmax([cs.keeper[p] * 100 + cs.catch[p] for p in players]))
        cards = [cs.bowler_card_of[(pid, team)] for pid in xi if (pid, team) in cs.bowler_card_of]
        weights = [self.share.get((pid, team), 0.0) for pid in xi
                   if (pid, team) in cs.bowler_card_of]
        if match_balls and sum(match_balls.values()) > 0:
            weights = [match_balls.get(pid, 0.0) + 0.01 * w for pid, w in
                       zip([p for p in xi if (p, team) in cs.bowler_card_of], weights)]
        cap = self.cs.fmt.max_units_per_bowler
        if len(cards) * cap < self.cs.fmt.units:
            # too few card-holding bowlers in this XI (rare): squad bowlers by usage step in
            extra = sorted(((s, pid) for (pid, t), s in self.share.items()
                            if t == team and pid not in xi and (pid, t) in cs.bowler_card_of),
                           reverse=True)
            for s, pid in extra:
                if len(cards) * cap >= self.cs.fmt.units:
                    break
                cards.append(cs.bowler_card_of[(pid, team)])
                weights.append(s)
        if len(cards) * cap < self.cs.fmt.units:
            # still short (a team that used four bowlers all season): the rules cap a bowler's
            # overs, they do not stop the match, so the XI's next-most-likely bowlers step in
            for pid in self._stand_in_order(team, xi, cards):
                if len(cards) * cap >= self.cs.fmt.units:
                    break
                cards.append(self._stand_in_card(team, pid, cards, weights))
                weights.append(0.0)  # after every real bowler's share
        try:
            plans = plan_pool(cards, weights, self.cs.fmt, self.rng, self.plans_per_side)
        except CardSetError as exc:
            raise CardSetError(f"{team}: {exc}") from None
        top = cards[int(np.argmax(weights))]
        return Side(team=team, players=players, batters=batters, keeper_slot=keeper_slot,
                    plans=plans, super_over_bowler=top)

    def _stand_in_order(self, team: str, xi: list[str], cards: list[int]) -> list[str]:
        """XI players without a bowler card in this side, most likely bowler first: a bowling
        type on his striker card, then his share of the team's balls, then lowest in the order."""
        cs = self.cs
        holders = {cs.player_ids[int(cs.bowler_player[c])] for c in cards}
        ranked = []
        for slot, pid in enumerate(xi):
            if pid in holders:
                continue
            card = cs.striker_cards[cs.striker_card_of[(pid, team)]] if (pid, team) in cs.striker_card_of else None
            bowls = card is not None and card.player.bowling_role in ("Spin", "Medium", "Pace")
            ranked.append((not bowls, -self.share.get((pid, team), 0.0), -slot, pid))
        return [pid for *_, pid in sorted(ranked)]

    def _stand_in_card(self, team: str, pid: str, cards: list[int], weights: list[float]) -> int:
        """A bowler-card row for a stand-in: the chart of the side's least-used bowler (the
        team's own part-time bowling), under the stand-in's name so the overs cap is his."""
        cs = self.cs
        key = (pid, team)
        if key in cs.bowler_card_of:
            return cs.bowler_card_of[key]
        if cards:
            template = cards[int(np.argmin(weights))] if weights else cards[-1]
        else:  # no bowler card in the side at all: the set's least-used bowler
            template = int(np.argmin([int(c.real.balls or 0) for c in cs.bowler_cards]))
        row = len(cs.bowler_lut)
        cs.bowler_lut = np.concatenate([cs.bowler_lut, cs.bowler_lut[template:template + 1]])
        cs.bowler_player = np.append(cs.bowler_player, np.int32(cs.player_of[key]))
        cs.bowler_card_of[key] = row
        return row

    def match_side(self, match_id: str, team: str) -> Side:
        """The side a team really fielded in one match, in its real batting order."""
        if self._sheets is None:  # each match's team sheets, split once (rows keep their order)
            keys = self.lineups["match_id"].astype(str)
            self._sheets = {(str(m), str(t)): rows for (m, t), rows in
                            self.lineups.groupby([keys, self.lineups["team"]], sort=False)}
        rows = self._sheets.get((str(match_id), str(team)), self.lineups.iloc[:0])
        xi, keeper = real_xi(rows)
        balls = {str(p): float(b) for p, b in zip(rows["player_id"], rows["balls_bowled"])}
        return self.side(team, xi, keeper, balls)

    def usual_xi(self, team: str) -> tuple[list[str], str | None]:
        """The most-used XI in its usual order (the set's `batting_order` when it has one)."""
        entry = self.cs.teams.get(team)
        order = [str(x) for x in entry.batting_order] if entry else []
        keeper = entry.wicketkeeper if entry else None
        if len(order) == 11:
            return order, keeper
        rows = self.lineups[self.lineups["team"] == team]
        if rows.empty:
            raise CardSetError(f"no line-ups for team {team!r}")
        counts = rows.groupby("player_id").agg(n=("match_id", "size"),
                                               pos=("batting_position", "median"),
                                               kept=("keeper", "sum"))
        xi = counts.sort_values(["n", "pos"], ascending=[False, True]).head(11)
        xi = xi.sort_values(["pos", "n"], ascending=[True, False])
        if keeper is None and xi["kept"].max() > 0:
            keeper = str(xi["kept"].idxmax())
        return [str(x) for x in xi.index], keeper

    def usual_side(self, team: str) -> Side:
        xi, keeper = self.usual_xi(team)
        return self.side(team, xi, keeper)
