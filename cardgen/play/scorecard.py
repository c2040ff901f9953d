"""The scorecard of a page match, from the reference engine's innings: the rows the page shows
(`static/scorecard.js` builds them by the same rules; the tests compare the two) and the text
`cardgen replay` prints.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardgen.cardset import CardSet
from cardgen.play.sides import PageSide
from cardgen.rule_sets import TITLES
from cardgen.sim.model import CompiledSet, Format
from cardgen.sim.reference import Ball, Innings, Match


def fixed2(num: int, den: int) -> str:
    """num / den to two decimals, halves rounded up, in whole numbers ("-" when den is 0), as
    the page prints it (floats would round exact halves differently in the two languages)."""
    if not den:
        return "-"
    q = (num * 200 + den) // (2 * den)
    return f"{q // 100}.{q % 100:02d}"


def overs(legal: int, per_over: int) -> str:
    return f"{legal // per_over}.{legal % per_over}"


def overs_words(fmt: Format, legal: int) -> str:
    if fmt.name != "T20":
        return f"{legal} ball{'' if legal == 1 else 's'}"
    o = overs(legal, fmt.balls_per_over) if legal % fmt.balls_per_over else str(legal // fmt.balls_per_over)
    return o + (" over" if o == "1" else " overs")


@dataclass
class InningsCard:
    heading: str
    batting_header: list[str]
    batting: list[list[str]]
    did_not_bat: list[str]
    extras: str
    total: str
    fall_of_wickets: list[str]
    bowling_header: list[str]
    bowling: list[list[str]]


@dataclass
class Scorecard:
    title: str
    result: str
    innings: list[InningsCard] = field(default_factory=list)

    def text(self) -> str:
        lines = [self.title, self.result]
        for inn in self.innings:
            lines += ["", inn.heading, *_table(inn.batting_header, inn.batting)]
            if inn.did_not_bat:
                lines.append("Did not bat: " + ", ".join(inn.did_not_bat))
            lines += [inn.extras, inn.total]
            if inn.fall_of_wickets:
                lines.append("Fall of wickets: " + ", ".join(inn.fall_of_wickets))
            lines += _table(inn.bowling_header, inn.bowling)
        return "\n".join(lines) + "\n"

    def as_json(self) -> dict[str, Any]:
        """The page's field names (static/scorecard.js), for comparing the two."""
        return {"title": self.title, "result": self.result, "innings": [
            {"heading": i.heading, "battingHeader": i.batting_header, "batting": i.batting,
             "didNotBat": i.did_not_bat, "extras": i.extras, "total": i.total,
             "fallOfWickets": i.fall_of_wickets, "bowlingHeader": i.bowling_header, "bowling": i.bowling}
            for i in self.innings]}


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    every = [header, *rows]
    widths = [max(len(r[c]) for r in every) for c in range(len(header))]
    return ["  ".join(cell.ljust(widths[c]) if c < 2 else cell.rjust(widths[c])
                      for c, cell in enumerate(r)).rstrip() for r in every]


def _how_out(cs: CompiledSet, batting: PageSide, bowling: PageSide, ball: Ball) -> str:
    bowler = cs.player_names[int(cs.bowler_player[ball.bowler])]
    name = lambda slot: cs.player_names[bowling.players[slot]]  # noqa: E731
    if ball.how_out == "bowled":
        return f"b {bowler}"
    if ball.how_out == "lbw":
        return f"lbw b {bowler}"
    if ball.how_out == "stumped":
        return f"st {name(ball.fielders[0])} b {bowler}"
    if ball.how_out == "caught":
        if bowling.players[ball.fielders[0]] == int(cs.bowler_player[ball.bowler]):
            return f"c & b {bowler}"
        return f"c {name(ball.fielders[0])} b {bowler}"
    if ball.how_out == "run out":
        return "run out (" + " / ".join(name(f) for f in ball.fielders) + ")"
    return ball.how_out


def innings_card(cs: CompiledSet, inn: Innings, batting: PageSide, bowling: PageSide,
                 super_over: int, max_wickets: int) -> InningsCard:
    fmt, bpo = cs.fmt, cs.fmt.balls_per_over
    slots = 3 if super_over else 11
    bat_name = lambda slot: cs.player_names[batting.players[slot]] + (  # noqa: E731
        " †" if slot == batting.keeper_slot else "")
    lines = {0: [0, 0, 0, 0], 1: [0, 0, 0, 0]}   # runs, balls, fours, sixes
    order, out, fow = [0, 1], {}, []
    bowlers: list[int] = []
    figures: dict[int, dict[str, Any]] = {}
    unit_runs: dict[int, int] = {}
    unit_balls: dict[int, int] = {}
    runs = wickets = legal = byes = leg_byes = wides = no_balls = 0
    next_in = 2
    for b in inn.balls:
        unit = legal // bpo
        line = lines[b.striker]
        line[1] += b.extra_kind != "wide"
        line[0] += b.bat_runs
        line[2] += b.bat_runs == 4
        line[3] += b.bat_runs == 6
        if b.bowler not in figures:
            bowlers.append(b.bowler)
            figures[b.bowler] = {"legal": 0, "runs": 0, "wickets": 0, "wides": 0, "no_balls": 0,
                                 "dots": 0, "units": []}
        f = figures[b.bowler]
        charged = b.bat_runs + (b.extras if b.extra_kind in ("wide", "no_ball") else 0)
        f["runs"] += charged
        if unit not in f["units"]:
            f["units"].append(unit)
        unit_runs[unit] = unit_runs.get(unit, 0) + charged
        if b.legal:
            legal += 1
            f["legal"] += 1
            unit_balls[unit] = unit_balls.get(unit, 0) + 1
            f["dots"] += charged == 0
        if b.extra_kind == "wide":
            wides += b.extras
            f["wides"] += b.extras
        elif b.extra_kind == "no_ball":
            no_balls += b.extras
            f["no_balls"] += b.extras
        elif b.extra_kind == "bye":
            byes += b.extras
        elif b.extra_kind == "leg_bye":
            leg_byes += b.extras
        runs += b.bat_runs + b.extras
        if b.out_slot is not None:
            wickets += 1
            out[b.out_slot] = b
            if b.how_out != "run out":
                f["wickets"] += 1
            at = overs(legal, bpo) if fmt.name == "T20" else f"ball {legal}"
            fow.append(f"{wickets}-{runs} ({cs.player_names[batting.players[b.out_slot]]}, {at})")
            if wickets < max_wickets and next_in < slots:
                lines[next_in] = [0, 0, 0, 0]
                order.append(next_in)
                next_in += 1
    batting_rows = [[bat_name(slot), _how_out(cs, batting, bowling, out[slot]) if slot in out else "not out",
                     str(lines[slot][0]), str(lines[slot][1]), str(lines[slot][2]), str(lines[slot][3]),
                     fixed2(lines[slot][0] * 100, lines[slot][1])] for slot in order]
    bowling_rows = []
    for card in bowlers:
        f = figures[card]
        name = cs.player_names[int(cs.bowler_player[card])]
        if fmt.name == "T20":
            maidens = sum(1 for u in f["units"] if unit_balls.get(u) == bpo and unit_runs.get(u) == 0)
            bowling_rows.append([name, overs(f["legal"], bpo), str(maidens), str(f["runs"]), str(f["wickets"]),
                                 str(f["wides"]), str(f["no_balls"]), fixed2(f["runs"] * 6, f["legal"])])
        else:
            bowling_rows.append([name, str(f["legal"]), str(f["dots"]), str(f["runs"]), str(f["wickets"]),
                                 str(f["wides"]), str(f["no_balls"])])
    extras = byes + leg_byes + wides + no_balls
    return InningsCard(
        heading=f"{batting.team}: super over {super_over}" if super_over else f"{batting.team} innings",
        batting_header=["Batter", "How out", "R", "B", "4s", "6s", "SR"], batting=batting_rows,
        did_not_bat=[bat_name(s) for s in range(next_in, slots)],
        extras=f"Extras {extras} (b {byes}, lb {leg_byes}, w {wides}, nb {no_balls})",
        total=f"Total {runs}{' all out' if wickets == 10 else f'/{wickets}'} ({overs_words(fmt, legal)})",
        fall_of_wickets=fow,
        bowling_header=(["Bowler", "O", "M", "R", "W", "Wd", "NB", "Econ"] if fmt.name == "T20"
                        else ["Bowler", "Balls", "Dots", "R", "W", "Wd", "NB"]),
        bowling=bowling_rows)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _ordinal(n: int) -> str:
    return f"{n}{'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


def result_text(cs: CompiledSet, match: Match, bat_first: PageSide, bat_second: PageSide) -> str:
    """The page's words for the result (static/match.js resultText)."""
    if match.winner is None:
        return f"Match tied ({len(match.super_overs)} super overs tied)"
    if match.super_overs:
        k = len(match.super_overs)
        return f"Match tied; {match.winner} won the {'' if k == 1 else _ordinal(k) + ' '}super over"
    if match.winner == bat_second.team:
        left = cs.fmt.balls_per_innings - match.second.legal_balls
        return (f"{bat_second.team} won by {_plural(10 - match.second.wickets, 'wicket')} "
                f"({_plural(left, 'ball')} left)")
    return f"{bat_first.team} won by {_plural(match.first.runs - match.second.runs, 'run')}"


def scorecard(cs: CompiledSet, card_set: CardSet, rules: str, match: Match,
              bat_first: PageSide, bat_second: PageSide) -> Scorecard:
    comp = card_set.competition
    title = (f"{comp.name or comp.code or ''} {card_set.season or ''}: "
             f"{bat_first.team} v {bat_second.team} ({cs.fmt.name}, {TITLES[rules]})")
    cards = [innings_card(cs, match.first, bat_first, bat_second, 0, 10),
             innings_card(cs, match.second, bat_second, bat_first, 0, 10)]
    a_side, b_side = bat_second, bat_first
    for k, (a, b) in enumerate(match.super_overs, 1):
        cards.append(innings_card(cs, a, a_side, b_side, k, 2))
        cards.append(innings_card(cs, b, b_side, a_side, k, 2))
        a_side, b_side = b_side, a_side
    return Scorecard(title=title, result=result_text(cs, match, bat_first, bat_second), innings=cards)
