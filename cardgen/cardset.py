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
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from cardgen.errors import CardgenError, CardSetError
from cardgen.wickets_in_hand import rule_of_set

SCHEMA_VERSION = 1
FILE_NAME = "card-set.json"

Kind = Literal["striker", "bowler"]
KINDS: tuple[Kind, ...] = ("striker", "bowler")


@dataclass(frozen=True)
class _Document:
    """What every part of the card set shares: the keys its JSON object had (so writing it
    again writes the same keys, explicit nulls included) and the keys the model does not know."""

    extra: Mapping[str, Any] = field(default_factory=dict, kw_only=True, compare=False, repr=False)
    present: frozenset[str] = field(default=frozenset(), kw_only=True, compare=False, repr=False)

    @classmethod
    def _known(cls) -> tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(cls) if f.name not in ("extra", "present"))

    @classmethod
    def _split(cls, doc: Mapping[str, Any]) -> tuple[dict[str, Any], frozenset[str]]:
        """(the keys the model does not know, the keys the document has)."""
        known = set(cls._known())
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
    def from_json(cls, doc: Mapping[str, Any]) -> Player:
        extra, present = cls._split(doc)
        return cls(**{k: doc.get(k) for k in cls._known()}, extra=extra, present=present)


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
    phase_balls: Mapping[str, int] | None = None

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> RealFigures:
        extra, present = cls._split(doc)
        return cls(**{k: doc.get(k) for k in cls._known()}, extra=extra, present=present)


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
    expected: Mapping[str, float] | None = None  # what the card gives in play (the calibration's)
    situations: Mapping[str, float] | None = None  # the player's real balls by rule band
    small_sample: bool | None = None

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Card:
        extra, present = cls._split(doc)
        chart = doc.get("chart")
        usage, real = doc.get("usage"), doc.get("real")
        return cls(
            player=Player.from_json(_mapping(doc.get("player"), "a card's player")),
            team=doc.get("team"),  # type: ignore[arg-type]
            kind=doc.get("kind"),  # type: ignore[arg-type]
            chart=tuple(ChartRange.from_json(r) if isinstance(r, Mapping) else r  # type: ignore[misc]
                        for r in chart) if isinstance(chart, list) else chart,  # type: ignore[arg-type]
            team_short=doc.get("team_short"), position=doc.get("position"), defence=doc.get("defence"),
            usage=Usage.from_json(usage) if isinstance(usage, Mapping) else usage,
            real=RealFigures.from_json(real) if isinstance(real, Mapping) else
            (RealFigures() if real is None and "real" not in doc else real),  # type: ignore[arg-type]
            expected=doc.get("expected"), situations=doc.get("situations"),
            small_sample=doc.get("small_sample"), extra=extra, present=present)

    @property
    def key(self) -> tuple[str, str]:
        """(player id, team): a player's cards for one team, striker and bowler, share it."""
        return (self.player.id, self.team)

    @property
    def where(self) -> str:
        """How an error names the card: player, team and kind."""
        return f"card {self.player.name or self.player.id or '?'} ({self.team or '?'}, {self.kind or '?'})"


@dataclass(frozen=True)
class Team(_Document):
    """A team of the set: its usual XI in batting order, reserves, bowlers by usage, keeper."""

    name: str
    short_name: str | None = None
    batting_order: tuple[str, ...] = ()
    reserves: tuple[str, ...] = ()
    bowlers: tuple[str, ...] = ()
    wicketkeeper: str | None = None

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Team:
        extra, present = cls._split(doc)
        return cls(name=doc.get("name"), short_name=doc.get("short_name"),  # type: ignore[arg-type]
                   batting_order=_strings(doc.get("batting_order")), reserves=_strings(doc.get("reserves")),
                   bowlers=_strings(doc.get("bowlers")), wicketkeeper=doc.get("wicketkeeper"),
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
        return cls(cells=tuple(tuple(row) if isinstance(row, list) else row for row in cells)  # type: ignore[misc]
                   if isinstance(cells, list) else cells,  # type: ignore[arg-type]
                   fours=tuple(tuple(w) if isinstance(w, list) else w for w in fours)  # type: ignore[misc]
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
    rule: str | None = None  # "wickets-in-hand" or "classic" (older readers' field)
    rule_parameters: Mapping[str, Any] | None = None
    generator: str | None = None
    attribution: str | None = None
    fielding: Mapping[str, float] | None = None  # the league's fielding skill the chart was solved for
    league: Mapping[str, Any] | None = None  # the real league's figures (the stats layer's)
    expected_league: Mapping[str, Any] | None = None  # ... and what the cards give in play

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> CardSet:
        """The model of a card-set document (checked by `load_card_set`, or built by cardgen)."""
        doc = _mapping(doc, "the document")
        extra, present = cls._split(doc)
        cards, teams = doc.get("cards"), doc.get("teams")
        if not isinstance(cards, list):
            raise CardSetError("card set is missing 'cards'")
        chart = doc.get("fielding_chart")
        return cls(
            schema_version=doc.get("schema_version"),  # type: ignore[arg-type]
            competition=CompetitionInfo.from_json(_mapping(doc.get("competition", {}), "competition")),
            season=doc.get("season"), format=doc.get("format"),  # type: ignore[arg-type]
            fielding_chart=FieldingChart.from_json(chart) if isinstance(chart, Mapping) else chart,  # type: ignore[arg-type]
            cards=tuple(Card.from_json(_mapping(c, "a card")) for c in cards),
            teams=tuple(Team.from_json(_mapping(t, "a team")) for t in teams) if isinstance(teams, list) else (),
            rule=doc.get("rule"), rule_parameters=doc.get("rule_parameters"),
            generator=doc.get("generator"), attribution=doc.get("attribution"),
            fielding=doc.get("fielding"), league=doc.get("league"),
            expected_league=doc.get("expected_league"), extra=extra, present=present)

    # --- the set's own facts ---------------------------------------------------------------

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
        # utf-8-sig: a set saved by Notepad and the like starts with a byte-order mark
        doc = json.loads(p.read_text(encoding="utf-8-sig"))
    except FileNotFoundError:
        raise CardSetError(f"no card set at {p}") from None
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
    try:   # the rule's faces are read before anything plays or prints them
        rule_of_set(card_set)
    except CardgenError as exc:
        raise CardSetError(f"{where}: {exc}") from None
    return card_set


def schema_problem(doc: Mapping[str, Any]) -> str | None:
    """The most relevant way `doc` breaks the card-set schema shipped with cardgen, or None."""
    import jsonschema

    from cardgen.paths import schema_path
    schema = json.loads(schema_path().read_text(encoding="utf-8"))
    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema).iter_errors(doc))
    if error is None:
        return None
    where = "/".join(str(part) for part in error.absolute_path) or "the top level"
    message = error.message if len(error.message) <= 160 else error.message[:157] + "..."
    return f"{where}: {message}"


def as_card_set(card_set: CardSet | Mapping[str, Any]) -> CardSet:
    """The model of a set given either way (a document cardgen built in memory, not a file)."""
    return card_set if isinstance(card_set, CardSet) else CardSet.from_json(card_set)
