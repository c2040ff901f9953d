"""The card set: one competition season's cards, as typed values (`card-set.json`).

Layer: beside `competitions` and `wickets_in_hand`, below every package (sources ... cli), so
each of them can read it. A card set is parsed and checked once, at the edge (`load_card_set`:
the shared schema, then the project's own checks), into a `CardSet`; every layer reads that,
never the JSON. `CardSet.to_json` gives the document back: a key the file had is written again
(an explicit null too) and a key it lacked is not, and keys the model does not know (a newer
writer's) are kept as they were, so `dumps(load_card_set(p))` is the file's own text for every
set cardgen writes.

Team facts (does the team have both decks? its usual XI, its keeper) are answered here, once.
"""
from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np

from cardgen.cardset_limits import DocumentTooLarge, read_document
from cardgen.errors import CardgenError, CardSetError
from cardgen.wickets_in_hand import rule_of_set

SCHEMA_VERSION = 1
FILE_NAME = "card-set.json"

Kind = Literal["striker", "bowler"]
KINDS: tuple[Kind, ...] = ("striker", "bowler")

# The contract's vocabulary. A card's chart tiles the 2d10 rolls 1..SLOTS with CARD_RESULTS, in
# this order on a printed card (B only on bowler cards; 3 is never used, docs/calibration.md).
CARD_RESULTS: tuple[str, ...] = ("B", "W", "F", "0", "1", "2", "3", "4", "6")
CARD_INDEX = {r: i for i, r in enumerate(CARD_RESULTS)}
SLOTS = 100
FIELD_ROWS, FIELD_COLS = 6, 20  # the fielding chart: d6 rows of d20 cells
MAX_DEFENCE = 20
# The chart's boundary extras (docs/rules.md R14) are an extension of the card-set contract,
# whose cell names are fixed: a four of leg byes is stored as a "leg_bye" cell whose position
# (d6, d20) is listed in the chart's "fours", so a reader that knows only the contract still
# finds a leg bye there.
FOUR_OF = {"leg_bye": "leg_bye_4", "bye": "bye_4"}


BUILD_STAMPS = ("built", "build_date", "generated_at", "created")  # CardSet's, in the order read
_KNOWN: dict[type, tuple[str, ...]] = {}  # _Document._known(), class by class
_KNOWN_SETS: dict[type, frozenset[str]] = {}


@dataclass(frozen=True)
class _Document:
    """What every part of the card set shares: the keys its JSON object had (so writing it
    again writes the same keys, explicit nulls included) and the keys the model does not know."""

    extra: Mapping[str, Any] = field(default_factory=dict, kw_only=True, compare=False, repr=False)
    present: frozenset[str] = field(default=frozenset(), kw_only=True, compare=False, repr=False)

    @classmethod
    def _known(cls) -> tuple[str, ...]:
        # kept per class: dataclasses.fields() walks every field each call, and a set is read
        # card by card, chart range by chart range (415,000 calls in the render tests)
        known = _KNOWN.get(cls)
        if known is None:
            known = _KNOWN[cls] = tuple(f.name for f in dataclasses.fields(cls)
                                        if f.name not in ("extra", "present"))
        return known

    @classmethod
    def _fields(cls, doc: Mapping[str, Any]) -> dict[str, Any]:
        """The model's fields as the document gives them (None for a key it lacks), unchecked:
        `load_card_set` checks the document against the schema before it is read."""
        return {k: doc.get(k) for k in cls._known()}

    @classmethod
    def _split(cls, doc: Mapping[str, Any]) -> tuple[dict[str, Any], frozenset[str]]:
        """(the keys the model does not know, the keys the document has)."""
        known = _KNOWN_SETS.get(cls)
        if known is None:
            known = _KNOWN_SETS[cls] = frozenset(cls._known())
        return {k: v for k, v in doc.items() if k not in known}, frozenset(doc)

    def to_json(self) -> dict[str, Any]:
        """The JSON object: every field that is set or that the document read had, then the
        keys the model does not know."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if f.name in ("extra", "present"):
                continue
            value = getattr(self, f.name)
            default = f.default if f.default is not dataclasses.MISSING else (
                f.default_factory() if f.default_factory is not dataclasses.MISSING else dataclasses.MISSING)
            if f.name in self.present or default is dataclasses.MISSING or value != default:
                out[f.name] = _json_value(value)
        out.update(self.extra)
        return out


def _json_value(value: Any) -> Any:
    if isinstance(value, _Document):
        return value.to_json()
    if isinstance(value, tuple):
        return [_json_value(v) for v in value]
    return value


def _mapping(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise CardSetError(f"card set: {where} is not an object")
    return value


def _strings(value: Any) -> tuple[str, ...]:
    return tuple(value) if isinstance(value, (list, tuple)) else ()


def _number(value: Any) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)


def _bad(where: str, value: Any, wanted: str) -> CardSetError:
    shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
    return CardSetError(f"card set: {where} is {shown}, not {wanted}")


@dataclass(frozen=True, eq=False)
class _Figures(_Document, Mapping[str, Any]):
    """A block of named numbers (cardgen's schema extension describes it): each a typed attribute,
    and the block read as a mapping too (figure -> value, the set's keys only), as the readers
    that go through it by name do."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "_values", self.to_json())

    def __eq__(self, other: object) -> bool:   # as a mapping: equal to a dict of the same figures
        return isinstance(other, Mapping) and dict(self.items()) == dict(other.items())

    __hash__ = None  # type: ignore[assignment]

    def __getitem__(self, key: str) -> Any:
        return self._values[key]  # type: ignore[attr-defined]

    def __iter__(self) -> Any:
        return iter(self._values)  # type: ignore[attr-defined]

    def __len__(self) -> int:
        return len(self._values)  # type: ignore[attr-defined]

    @classmethod
    def parse(cls, value: Any, where: str, whole: bool = False) -> Any:
        """The block of a document (None when absent); CardSetError names the first value that
        is not a number (a whole number >= 0 when `whole`), or a block that is not an object."""
        if value is None:
            return None
        if not isinstance(value, Mapping):
            raise _bad(where, value, "an object")
        for key, v in value.items():
            if not _number(v) or (whole and (not float(v).is_integer() or v < 0)):
                raise _bad(f"{where}.{key}", v, "a whole number of balls" if whole else "a number")
        extra, present = cls._split(value)
        return cls(**cls._fields(value), extra=extra, present=present)


@dataclass(frozen=True, eq=False)
class Expected(_Figures):
    """What a card gives in play (the calibration's): rates a ball, strike rate and economy."""

    strike_rate: float | None = None
    dismissal_rate: float | None = None
    economy: float | None = None
    wicket_rate: float | None = None
    dots: float | None = None
    fours: float | None = None
    sixes: float | None = None
    wides: float | None = None
    no_balls: float | None = None


@dataclass(frozen=True, eq=False)
class Situations(_Figures):
    """The share of a player's real balls in each band of the wickets-in-hand rule."""

    attack: float | None = None
    normal: float | None = None
    consolidate: float | None = None


@dataclass(frozen=True, eq=False)
class PhaseBalls(_Figures):
    """A bowler's real legal balls by phase."""

    powerplay: int | None = None
    middle: int | None = None
    death: int | None = None


@dataclass(frozen=True, eq=False)
class RuleParameters(_Figures):
    """The wickets-in-hand rule's parameters as the rule describes itself (`wickets_in_hand.
    from_description` reads them, the attack die's faces included); the site reads the
    consolidate die's here."""

    name: str | None = None
    attack_below_balls_per_wicket: float | None = None
    consolidate_from_balls_per_wicket: float | None = None
    chase_attack_above_runs_per_ball: float | None = None
    consolidate_d20_safe: tuple[int, int] | None = None
    consolidate_applies_to: tuple[str, ...] | None = None
    attack_d20: Any = None   # checked by the rule

    @classmethod
    def parse(cls, value: Any, where: str, whole: bool = False) -> Any:
        if value is None:
            return None
        if not isinstance(value, Mapping):
            raise _bad(where, value, "an object")
        doc = dict(value)
        for key in ("attack_below_balls_per_wicket", "consolidate_from_balls_per_wicket",
                    "chase_attack_above_runs_per_ball"):
            if key in doc and not _number(doc[key]):
                raise _bad(f"{where}.{key}", doc[key], "a number")
        if "name" in doc and not isinstance(doc["name"], str):
            raise _bad(f"{where}.name", doc["name"], "a string")
        safe = doc.get("consolidate_d20_safe")
        if "consolidate_d20_safe" in doc:
            if not (isinstance(safe, (list, tuple)) and len(safe) == 2
                    and all(_number(x) and float(x).is_integer() and 1 <= x <= 20 for x in safe)):
                raise _bad(f"{where}.consolidate_d20_safe", safe, "a pair of d20 faces")
            doc["consolidate_d20_safe"] = tuple(safe)
        if "consolidate_applies_to" in doc:
            applies = doc["consolidate_applies_to"]
            if not isinstance(applies, (list, tuple)) or not all(isinstance(x, str) for x in applies):
                raise _bad(f"{where}.consolidate_applies_to", applies, "a list of results")
            doc["consolidate_applies_to"] = tuple(applies)
        extra, present = cls._split(doc)
        return cls(**cls._fields(doc), extra=extra, present=present)


def _text(value: Any, where: str) -> Any:
    if value is not None and not isinstance(value, str):
        raise _bad(where, value, "a string")
    return value


def _ids(value: Any, where: str) -> tuple[str, ...]:
    """A list of player ids (() when absent)."""
    if value is None:
        return ()
    if not isinstance(value, (list, tuple)) or not all(isinstance(x, str) for x in value):
        raise _bad(where, value, "a list of player ids")
    return tuple(value)


@dataclass(frozen=True)
class ChartRange(_Document):
    """One range of a card's 2d10 chart, read as a percentile roll 1..100."""

    lo: int
    hi: int
    result: str

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> ChartRange:
        extra, present = cls._split(doc)
        return cls(lo=doc.get("lo"), hi=doc.get("hi"), result=doc.get("result"),  # type: ignore[arg-type]
                   extra=extra, present=present)


@dataclass(frozen=True)
class Player(_Document):
    """Who a card is: as printed, and the fielding ratings (1..20; None: not rated)."""

    id: str
    name: str
    full_name: str | None = None
    cricsheet_name: str | None = None
    country: str | None = None
    batting_role: str | None = None
    bowling_role: str | None = None
    catch: int | None = None
    run_out: int | None = None
    keeper: int | None = None

    @classmethod
    def from_json(cls, doc: Mapping[str, Any], where: str = "player") -> Player:
        extra, present = cls._split(doc)
        fields = cls._fields(doc)
        for key in ("full_name", "cricsheet_name"):
            _text(fields[key], f"{where}.{key}")
        return cls(**fields, extra=extra, present=present)


@dataclass(frozen=True)
class Usage(_Document):
    """Bowler cards: the usage letter (overs or balls per innings bowled) and innings bowled."""

    letter: str | None = None
    innings: int | None = None

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Usage:
        extra, present = cls._split(doc)
        return cls(letter=doc.get("letter"), innings=doc.get("innings"), extra=extra, present=present)


@dataclass(frozen=True)
class RealFigures(_Document):
    """The real season a card was calibrated from and prints (counts; a few printed rates).

    Striker cards: balls faced (wides excluded), runs off the bat, times out, high score and
    strike rate. Bowler cards: legal balls, runs conceded, the bowler's wickets, extras, overs,
    economy and balls by phase."""

    innings: int | None = None
    balls: int | None = None
    runs: int | None = None
    dismissals: int | None = None
    fours: int | None = None
    sixes: int | None = None
    dots: int | None = None
    high_score: int | None = None
    high_score_not_out: bool | None = None
    strike_rate: float | None = None
    wides: int | None = None
    no_balls: int | None = None
    no_ball_runs: int | None = None
    overs: str | None = None
    economy: float | None = None
    phase_balls: PhaseBalls | None = None

    @classmethod
    def from_json(cls, doc: Mapping[str, Any], where: str = "real") -> RealFigures:
        extra, present = cls._split(doc)
        fields = cls._fields(doc)
        fields["phase_balls"] = PhaseBalls.parse(doc.get("phase_balls"), f"{where}.phase_balls", whole=True)
        return cls(**fields, extra=extra, present=present)


@dataclass(frozen=True)
class CardPoints(_Document):
    """A league card's points (docs/league.md): runs a match over an average player of the
    baseline, the card's own and its player's in all, by batting, bowling and fielding."""

    card: float
    player: float
    batting: float | None = None
    bowling: float | None = None
    fielding: float | None = None

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> CardPoints:
        extra, present = cls._split(doc)
        return cls(**cls._fields(doc), extra=extra, present=present)


@dataclass(frozen=True)
class CardSource(_Document):
    """Where a league card's player comes from: his real season and side."""

    competition: str
    season: str
    team: str
    team_short: str | None = None
    format: str | None = None
    position: int | None = None  # his usual place in that side's order (12: not in its XI)

    @property
    def label(self) -> str:
        """The season as a league names it: 'BBL 2024-25'."""
        return f"{self.competition} {self.season}"

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> CardSource:
        extra, present = cls._split(doc)
        return cls(**cls._fields(doc), extra=extra, present=present)


@dataclass(frozen=True)
class Card(_Document):
    """One card: a player's striker or bowler card for one team."""

    player: Player
    team: str
    kind: Kind
    chart: tuple[ChartRange, ...]
    team_short: str | None = None
    position: int | None = None  # the usual batting position (12: not in the usual XI)
    defence: int | None = None  # striker cards of advanced sets: the Defence rating (rules R13)
    usage: Usage | None = None
    real: RealFigures = field(default_factory=RealFigures)
    expected: Expected | None = None  # what the card gives in play (the calibration's)
    situations: Situations | None = None  # the player's real balls by rule band
    small_sample: bool | None = None
    points: CardPoints | None = None  # league sets only
    source: CardSource | None = None  # league sets only
    png: str | None = None  # the card's image in the kit folder, when the set names it

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Card:
        extra, present = cls._split(doc)
        chart = doc.get("chart")
        usage, real = doc.get("usage"), doc.get("real")
        points, source = doc.get("points"), doc.get("source")
        player = doc.get("player")
        name = player.get("name") if isinstance(player, Mapping) else None
        where = f"card {name if isinstance(name, str) else '?'} ({doc.get('team')}, {doc.get('kind')})"
        position = doc.get("position")
        if position is not None and (not _number(position) or not float(position).is_integer() or position < 1):
            raise _bad(f"{where}: position", position, "a batting position (a whole number from 1)")
        return cls(
            player=Player.from_json(_mapping(player, "a card's player"), f"{where}: player"),
            team=doc.get("team"),  # type: ignore[arg-type]
            kind=doc.get("kind"),  # type: ignore[arg-type]
            chart=tuple(ChartRange.from_json(r) if isinstance(r, Mapping) else r
                        for r in chart) if isinstance(chart, list) else chart,  # type: ignore[arg-type]
            team_short=doc.get("team_short"), position=doc.get("position"), defence=doc.get("defence"),
            usage=Usage.from_json(usage) if isinstance(usage, Mapping) else usage,
            real=RealFigures.from_json(real, f"{where}: real") if isinstance(real, Mapping) else
            (RealFigures() if real is None and "real" not in doc else real),  # type: ignore[arg-type]
            expected=Expected.parse(doc.get("expected"), f"{where}: expected"),
            situations=Situations.parse(doc.get("situations"), f"{where}: situations"),
            small_sample=doc.get("small_sample"),
            points=CardPoints.from_json(points) if isinstance(points, Mapping) else points,
            source=CardSource.from_json(source) if isinstance(source, Mapping) else source,
            png=_text(doc.get("png"), f"{where}: png"),
            extra=extra, present=present)

    @property
    def key(self) -> tuple[str, str]:
        """(player id, team): a player's cards for one team, striker and bowler, share it."""
        return (self.player.id, self.team)

    @property
    def place(self) -> int | None:
        """The usual batting position (a whole number from 1: the model's loader checks it)."""
        return None if self.position is None else int(self.position)

    @property
    def where(self) -> str:
        """How an error names the card: player, team and kind."""
        name = self.player.name if self.player.name is not None else (
            self.player.id if self.player.id is not None else "?")
        return (f"card {name} ({self.team if self.team is not None else '?'}, "
                f"{self.kind if self.kind is not None else '?'})")

    @property
    def defence_rating(self) -> int:
        """The card's Defence rating (docs/rules.md R13): 1..20 on a striker card, 0 when it has
        none (absent, null or 0). Anything else, or a rating on a bowler card, is a broken card
        set: the printed card would say what the engines do not play. The one reading of the
        field, for the expectation, the engines and the printed kit."""
        value = self.defence
        if value is None or (value == 0 and not isinstance(value, bool)):
            return 0
        name = self.player.name if self.player.name is not None else "?"
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
                or not 1 <= int(value) <= MAX_DEFENCE:
            raise CardSetError(f"{name}'s {self.kind or ''} card has defence {value!r}: a Defence "
                               f"rating is a whole number from 1 to {MAX_DEFENCE}")
        if self.kind != "striker":
            raise CardSetError(f"{name}'s bowler card has a defence rating: only striker cards carry one")
        return int(value)

    def slots(self) -> np.ndarray:
        """The chart as slot counts over CARD_RESULTS (checked: 1..100 exactly once)."""
        return chart_to_slots(self.chart, self.where)


@dataclass(frozen=True)
class Team(_Document):
    """A team of the set: its usual XI in batting order, reserves, bowlers by usage, keeper."""

    name: str
    short_name: str | None = None
    batting_order: tuple[str, ...] = ()
    reserves: tuple[str, ...] = ()
    bowlers: tuple[str, ...] = ()
    wicketkeeper: str | None = None
    points: float | None = None  # a league's side: runs a match its XI adds over the average side

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Team:
        extra, present = cls._split(doc)
        return cls(name=doc.get("name"), short_name=doc.get("short_name"),  # type: ignore[arg-type]
                   batting_order=_strings(doc.get("batting_order")),
                   reserves=_ids(doc.get("reserves"), f"team {doc.get('name')}: reserves"),
                   bowlers=_ids(doc.get("bowlers"), f"team {doc.get('name')}: bowlers"),
                   wicketkeeper=doc.get("wicketkeeper"),
                   points=doc.get("points"), extra=extra, present=present)


@dataclass(frozen=True)
class OwnLeague(_Document):
    """A league of your own (`cardgen league`, docs/league.md): its name, the baseline its cards
    play in, its fixtures; the rest (its average opponent, the draft sheet's players, the source
    seasons' figures) as the writer put it."""

    name: str
    baseline: str
    fixtures: tuple[tuple[str, ...], ...] = ()
    rounds: int | None = None
    cap: float | None = None
    baseline_seasons: tuple[str, ...] = ()   # baseline = "mean": the seasons it is the mean of
    chart_from: str | None = None            # ... and the season its chart comes from
    average: Mapping[str, Any] | None = None  # the baseline's average opponent

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> OwnLeague:
        extra, present = cls._split(doc)
        fixtures = doc.get("fixtures")
        return cls(name=doc.get("name"), baseline=doc.get("baseline"),  # type: ignore[arg-type]
                   fixtures=tuple(tuple(f) if isinstance(f, list) else f for f in fixtures)
                   if isinstance(fixtures, list) else (fixtures if fixtures is not None else ()),
                   rounds=doc.get("rounds"), cap=doc.get("cap"),
                   baseline_seasons=_strings(doc.get("baseline_seasons")),
                   chart_from=doc.get("chart_from"), average=doc.get("average"),
                   extra=extra, present=present)


@dataclass(frozen=True)
class CompetitionInfo(_Document):
    """The competition as the set names it."""

    code: str
    name: str
    nation: str | None = None
    sex: str | None = None

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> CompetitionInfo:
        extra, present = cls._split(doc)
        return cls(code=doc.get("code"), name=doc.get("name"),  # type: ignore[arg-type]
                   nation=doc.get("nation"), sex=doc.get("sex"), extra=extra, present=present)


@dataclass(frozen=True)
class FieldingChart(_Document):
    """The d6 x d20 fielding chart: cells[r][c] for d6 = r + 1, d20 = c + 1, in the contract's
    cell names; `fours` lists the (d6, d20) cells whose leg bye or bye runs four (rules R14)."""

    cells: tuple[tuple[str, ...], ...]
    fours: tuple[tuple[int, ...], ...] = ()

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> FieldingChart:
        extra, present = cls._split(doc)
        cells, fours = doc.get("cells"), doc.get("fours")
        return cls(cells=tuple(tuple(row) if isinstance(row, list) else row for row in cells)
                   if isinstance(cells, list) else cells,  # type: ignore[arg-type]
                   fours=tuple(tuple(w) if isinstance(w, list) else w for w in fours)
                   if isinstance(fours, list) else (fours if fours is not None else ()),
                   extra=extra, present=present)


@dataclass(frozen=True)
class CardSet(_Document):
    """One competition season's card set."""

    schema_version: int
    competition: CompetitionInfo
    season: str
    format: str  # "T20" or "100-ball"
    fielding_chart: FieldingChart
    cards: tuple[Card, ...]
    teams: tuple[Team, ...] = ()
    rules: str | None = None  # the rule set: "quicket" (as printed) or "advanced" (rule_sets)
    rule: str | None = None  # "wickets-in-hand" or "classic" (older readers' field)
    rule_parameters: RuleParameters | None = None
    generator: str | None = None
    attribution: str | None = None
    fielding: Mapping[str, float] | None = None  # the league's fielding skill the chart was solved for
    league: Mapping[str, Any] | None = None  # the real league's figures (the stats layer's)
    expected_league: Mapping[str, Any] | None = None  # ... and what the cards give in play
    own_league: OwnLeague | None = None  # a league's set (`cardgen league`), not a season's
    # the day the set was built, when a writer stamps it (the site's build date; none of cardgen's does)
    built: str | None = None
    build_date: str | None = None
    generated_at: str | None = None
    created: str | None = None

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> CardSet:
        """The model of a card-set document (checked by `load_card_set`, or built by cardgen)."""
        doc = _mapping(doc, "the document")
        extra, present = cls._split(doc)
        cards, teams = doc.get("cards"), doc.get("teams")
        if not isinstance(cards, list):
            raise CardSetError("card set is missing 'cards'")
        chart, own = doc.get("fielding_chart"), doc.get("own_league")
        return cls(
            schema_version=doc.get("schema_version"),  # type: ignore[arg-type]
            competition=CompetitionInfo.from_json(_mapping(doc.get("competition", {}), "competition")),
            season=doc.get("season"), format=doc.get("format"),  # type: ignore[arg-type]
            fielding_chart=FieldingChart.from_json(chart) if isinstance(chart, Mapping) else chart,  # type: ignore[arg-type]
            cards=tuple(Card.from_json(_mapping(c, "a card")) for c in cards),
            teams=tuple(Team.from_json(_mapping(t, "a team")) for t in teams) if isinstance(teams, list) else (),
            rules=doc.get("rules"), rule=doc.get("rule"), rule_parameters=RuleParameters.parse(doc.get("rule_parameters"), "rule_parameters"),
            generator=doc.get("generator"), attribution=doc.get("attribution"),
            fielding=doc.get("fielding"), league=doc.get("league"),
            expected_league=doc.get("expected_league"),
            own_league=OwnLeague.from_json(own) if isinstance(own, Mapping) else own,
            **{k: _text(doc.get(k), k) for k in BUILD_STAMPS},
            extra=extra, present=present)

    # --- the set's own facts ---------------------------------------------------------------

    def game_cells(self) -> list[list[str]]:
        """The fielding chart as the game plays it (6 rows of 20 cell names, fours included).
        The one reading of the chart, for the expectation, the engines, the printed kit and the site."""
        chart = self.fielding_chart
        if not isinstance(chart, FieldingChart) or not isinstance(chart.cells, tuple):
            raise CardSetError("the card set has no fielding chart (fielding_chart.cells)")
        cells = [list(row) if isinstance(row, tuple) else row for row in chart.cells]
        for where in chart.fours:
            shown = list(where) if isinstance(where, tuple) else where
            try:
                d6, d20 = (int(x) for x in where)
                if not (1 <= d6 <= FIELD_ROWS and 1 <= d20 <= FIELD_COLS):
                    raise IndexError
                cell = cells[d6 - 1][d20 - 1]
            except (TypeError, ValueError, IndexError):
                raise CardSetError(f"fielding_chart.fours: {shown!r} is not a (d6, d20) cell of the chart") from None
            if cell not in FOUR_OF:
                raise CardSetError(f"fielding_chart.fours: cell {shown!r} is {cell!r}, not a leg bye or bye")
            cells[d6 - 1][d20 - 1] = FOUR_OF[cell]
        return cells

    def stand_in(self, team: str) -> Card | None:
        """The striker card a batter without one bats with (`stand_in_striker`); None when the
        team has no striker card."""
        strikers = self.strikers
        index = stand_in_striker(strikers, team)
        return None if index is None else strikers[index]

    @property
    def hundred(self) -> bool:
        """A 100-ball set (5-ball sets, balls not overs)."""
        return self.format == "100-ball"

    @property
    def balls_per_over(self) -> int:
        return 5 if self.hundred else 6

    def kind_cards(self, kind: Kind) -> tuple[Card, ...]:
        """The set's cards of one kind, in the set's order."""
        return tuple(c for c in self.cards if c.kind == kind)

    @property
    def strikers(self) -> tuple[Card, ...]:
        return self.kind_cards("striker")

    @property
    def bowlers(self) -> tuple[Card, ...]:
        return self.kind_cards("bowler")

    # --- team facts: asked here, once --------------------------------------------------------

    def team_names(self) -> list[str]:
        """The set's teams: those it lists, then any others its cards name, in order."""
        return list(dict.fromkeys([t.name for t in self.teams] + [c.team for c in self.cards]))

    def team(self, name: str) -> Team | None:
        """The team's entry in the set's list (None: a team only its cards name)."""
        return next((t for t in self.teams if t.name == name), None)

    def short_name(self, name: str) -> str:
        """The team's printed short name ('' when the set gives none)."""
        team = self.team(name)
        return (team.short_name or "") if team else ""

    def team_cards(self, name: str, kind: Kind | None = None) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.team == name and (kind is None or c.kind == kind))

    def playable_teams(self) -> set[str]:
        """The teams that can take the field: a striker card and a bowler card of their own (a
        team without one had every match of its season washed out before it batted or bowled)."""
        return {c.team for c in self.strikers} & {c.team for c in self.bowlers}

    def has_both_decks(self, name: str) -> bool:
        return name in self.playable_teams()

    def lacking_decks(self, name: str) -> list[Kind]:
        """The kinds of card the team has none of (striker, bowler), in that order."""
        kinds = {c.kind for c in self.cards if c.team == name}
        return [k for k in KINDS if k not in kinds]

    def usual_xi(self, name: str) -> list[str]:
        """The team's usual XI, player ids in batting order: the set's line-up, or without one
        the team's striker cards in the set's order."""
        team = self.team(name)
        if team and team.batting_order:
            return list(team.batting_order)
        return [c.player.id for c in self.team_cards(name, "striker")]

    def team_bowlers(self, name: str) -> list[str]:
        """The team's bowlers by usage: the set's list, or its bowler cards in the set's order."""
        team = self.team(name)
        if team and team.bowlers:
            return list(team.bowlers)
        return [c.player.id for c in self.team_cards(name, "bowler")]

    def keeper(self, name: str) -> str | None:
        """The team's wicketkeeper (player id), when the set names one."""
        team = self.team(name)
        return team.wicketkeeper if team else None

    def only_team(self, name: str) -> CardSet:
        """The set cut to one team (its entry and its cards)."""
        return dataclasses.replace(self, teams=tuple(t for t in self.teams if t.name == name),
                                   cards=self.team_cards(name))


def _roll(value: object) -> int | None:
    """A chart bound as an int (JSON may spell 40 as 40.0); None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def _range_parts(cell: Any) -> tuple[Any, Any, Any]:
    """(lo, hi, result) of a chart range; KeyError or TypeError when it lacks one."""
    if isinstance(cell, ChartRange):
        if not {"lo", "hi", "result"} <= cell.present and cell.present:
            raise KeyError("lo")
        return cell.lo, cell.hi, cell.result
    return cell["lo"], cell["hi"], cell["result"]


def _shown(cell: Any) -> Any:
    return cell.to_json() if isinstance(cell, ChartRange) else cell


def chart_results(chart: Any, where: str = "chart") -> np.ndarray:
    """A card's ranges -> the CARD_RESULTS index each 2d10 roll 1..100 gives (100 int8 entries).

    The one parser of printed charts: calibration (`chart_to_slots`) and the engines
    (`cardgen.sim.model.chart_table`) both read charts through it, so they cannot disagree. Each
    range must be whole numbers 1 <= lo <= hi <= 100 naming a card result, and the ranges must cover
    1..100 exactly once; otherwise CardSetError names `where` and the fault.
    """
    if not isinstance(chart, (list, tuple)):
        raise CardSetError(f"{where}: the chart is not a list of ranges")
    table = np.full(SLOTS, -1, dtype=np.int8)
    for cell in chart:
        try:
            raw_lo, raw_hi, result = _range_parts(cell)
        except (KeyError, TypeError):
            raise CardSetError(f"{where}: chart range {_shown(cell)!r} needs lo, hi and result") from None
        lo, hi = _roll(raw_lo), _roll(raw_hi)
        if not isinstance(result, str) or result not in CARD_INDEX:
            raise CardSetError(f"{where}: unknown chart result {result!r}")
        if lo is None or hi is None or not 1 <= lo <= hi <= SLOTS:
            raise CardSetError(f"{where}: bad range {raw_lo!r}-{raw_hi!r} "
                               f"(rolls run 1 to {SLOTS}, low end first)")
        if (table[lo - 1:hi] != -1).any():
            raise CardSetError(f"{where}: range {lo}-{hi} overlaps another")
        table[lo - 1:hi] = CARD_INDEX[result]
    if (table == -1).any():
        missing = int(np.flatnonzero(table == -1)[0]) + 1
        raise CardSetError(f"{where}: chart leaves roll {missing} uncovered")
    return table


def chart_to_slots(chart: Any, where: str = "chart") -> np.ndarray:
    """Ranges -> slot counts (CARD_RESULTS order); CardSetError unless 1..100 is tiled exactly."""
    return np.bincount(chart_results(chart, where), minlength=len(CARD_RESULTS))


def stand_in_striker(striker_cards: Sequence[Card], team: str) -> int | None:
    """Index in `striker_cards` of the card a batter with none of his own bats with
    (docs/rules.md R9): his team's last-placed striker card, the highest position, the first such
    card on a tie; None when the team has no striker card. A reserve's card, usually: the XI's own
    No. 10 would be at the crease with him. The engines and the team sheets both ask here."""
    rows = [(int(c.position or 99), -i, i) for i, c in enumerate(striker_cards) if c.team == team]
    return max(rows)[2] if rows else None


def dumps(card_set: CardSet | Mapping[str, Any]) -> str:
    """card-set.json's text: sorted keys, one space a level, UTF-8 as it is."""
    doc = card_set.to_json() if isinstance(card_set, CardSet) else card_set
    return json.dumps(doc, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def load_card_set(path: Path | str) -> CardSet:
    """Read and check a card set (a card-set.json file, or a set folder containing one): the
    shared schema, then the project's own checks. CardSetError says what is wrong."""
    p = Path(path)
    if p.is_dir():
        p = p / FILE_NAME
    try:
        doc = read_document(p)  # a regular file within the size and depth limits, strings cleaned
    except FileNotFoundError:
        raise CardSetError(f"no card set at {p}") from None
    except DocumentTooLarge as exc:  # hand-edited or hostile: no set cardgen writes comes near
        raise CardSetError(f"card set {p}: {exc}; correct it, or write the set again with "
                           f"`cardgen calibrate`") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:  # not UTF-8: cut, or not ours
        raise CardSetError(f"{p} is not a readable card set: {exc}") from None
    return card_set_from_document(doc, str(p))


def card_set_from_document(doc: Any, where: str) -> CardSet:
    """A parsed card-set document, checked (as `load_card_set`), as the model; `where` names it
    in the error."""
    if not isinstance(doc, dict) or doc.get("schema_version") != SCHEMA_VERSION or "cards" not in doc:
        raise CardSetError(f"{where} is not a version-{SCHEMA_VERSION} card set")
    problem = schema_problem(doc)
    if problem:
        raise CardSetError(f"{where} is not a valid card set: {problem}")
    card_set = CardSet.from_json(doc)
    try:   # the rule set and its faces are read before anything plays or prints them
        rule_of_set(card_set)
        check_defence_belongs(card_set)
    except CardgenError as exc:
        raise CardSetError(f"{where}: {exc}") from None
    return card_set


def check_defence_belongs(card_set: CardSet) -> None:
    """A set made for the Quicket rules carries no Defence rating (R13 is an advanced rule): a
    card printing one would offer a rule the game it is made for does not have."""
    from cardgen.rule_sets import ADVANCED, rules_of_set
    if rules_of_set(card_set) == ADVANCED:
        return
    for card in card_set.cards:
        if card.defence not in (None, 0) or isinstance(card.defence, bool):
            raise CardSetError(f"{card.player.name or '?'}'s striker card has a Defence rating, which "
                               f"only the advanced rules play, in a set made for the Quicket rules; "
                               f"remove it or make the set \"rules\": \"advanced\"")


def schema_problem(doc: Mapping[str, Any]) -> str | None:
    """The most relevant way `doc` breaks the card-set schema shipped with cardgen (the shared
    contract, then cardgen's league extension of it), or None."""
    import jsonschema

    from cardgen.paths import league_schema_path, schema_path
    error = None
    for path in (schema_path(), league_schema_path()):
        schema = json.loads(path.read_text(encoding="utf-8"))
        error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema).iter_errors(doc))
        if error is not None:
            break
    if error is None:
        return None
    where = "/".join(str(part) for part in error.absolute_path) or "the top level"
    message = error.message if len(error.message) <= 160 else error.message[:157] + "..."
    return f"{where}: {message}"


def as_card_set(card_set: CardSet | Mapping[str, Any]) -> CardSet:
    """The model of a set given either way (a document cardgen built in memory, not a file)."""
    return card_set if isinstance(card_set, CardSet) else CardSet.from_json(card_set)


def as_card(card: Card | Mapping[str, Any]) -> Card:
    """The model of a card given either way."""
    return card if isinstance(card, Card) else Card.from_json(card)
