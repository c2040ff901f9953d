"""Which tabletop system plays most like the real season? Every registered system's simulated
first innings beside the real first innings of a competition season.

Distance (stated on every report): for each measure m in runs, wickets, boundaries (fours +
sixes) and innings length (legal balls), the 1-Wasserstein distance between the simulated and
the real per-innings distributions, divided by the real standard deviation of m; the system's
distance is the mean of the four. 0 means identical distributions; 1 means the distributions are
on average one real standard deviation apart. It punishes a wrong spread as well as a wrong mean.
"""
from __future__ import annotations

import importlib
import math
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import wasserstein_distance

from cardgen.competitions import Competition, season_label, set_name
from cardgen.errors import CardgenError
from cardgen.games import GAME_MODULES
from cardgen.games.base import INNINGS_COLUMNS, SimContext

MEASURES = ("runs", "wickets", "boundaries", "legal_balls")
DISTANCE_NOTE = ("distance = mean over runs, wickets, boundaries (4s + 6s) and innings length "
                 "(legal balls) of the 1-Wasserstein distance between simulated and real "
                 "first innings, in units of the real standard deviation (0 = identical)")


@dataclass
class RealInnings:
    table: pd.DataFrame          # INNINGS_COLUMNS, one row per real first innings
    boundaries_from: str         # "ball-by-ball data" or "season totals (shared by runs)"


def real_first_innings(comp: Competition, season: str, source: str | None) -> RealInnings:
    """Real first innings of the full-length matches (`sim.season.full_length_innings`).

    Per-innings fours and sixes come from the ball-by-ball data when a local mirror is given;
    otherwise the season's batting totals are shared among the innings in proportion to the
    batters' runs (the committed stats tables hold no per-innings boundary counts)."""
    from cardgen.sim.season import real_first_innings as first_innings
    from cardgen.sources.fetch import is_url, resolve_source
    from cardgen.stats.load import load_season_data, season_stats
    stats = season_stats(comp, season, source)
    first = first_innings(stats).copy()
    first["match_id"] = first["match_id"].astype(str)
    src = resolve_source(source)
    how = "season totals (shared by runs)"
    counts = None
    if not is_url(src) and Path(src).is_dir():
        try:
            d = load_season_data(comp, season, src).deliveries
        except CardgenError:
            d = None
        if d is not None and len(d):
            d = d[(d["innings"] == 1) & ~d["super_over"].astype(bool) & ~d["non_boundary"].astype(bool)]
            d = d.assign(match_id=d["match_id"].astype(str),
                         four=(d["runs_batter"] == 4).astype(int), six=(d["runs_batter"] == 6).astype(int))
            counts = d.groupby("match_id")[["four", "six"]].sum()
            how = "ball-by-ball data"
    if counts is not None:
        first = first.join(counts, on="match_id")
        fours, sixes = first["four"].fillna(0), first["six"].fillna(0)
    else:
        share = first["runs_batter"] / max(1, stats.innings["runs_batter"].sum())
        fours = share * stats.batting["fours"].sum()
        sixes = share * stats.batting["sixes"].sum()
    table = pd.DataFrame({"runs": first["runs"], "wickets": first["wickets"], "fours": fours,
                          "sixes": sixes, "legal_balls": first["legal_balls"]}).reset_index(drop=True)
    return RealInnings(table.astype(float), how)


def system_rng(seed: int, code: str) -> np.random.Generator:
    """Each system its own stream, so adding a system never changes another's figures."""
    return np.random.default_rng([seed, zlib.crc32(code.encode())])


@dataclass
class Entry:
    code: str
    name: str
    table: pd.DataFrame


@dataclass
class Comparison:
    real: RealInnings
    entries: list[Entry]
    skipped: list[str] = field(default_factory=list)   # notes for systems not compared
    summary: pd.DataFrame = field(default_factory=pd.DataFrame)

    @property
    def closest(self) -> str:
        return str(self.summary.loc[self.summary["code"] != "real", "code"].iloc[0])


def _with_boundaries(df: pd.DataFrame) -> pd.DataFrame:
    return df.assign(boundaries=df["fours"] + df["sixes"])


def distances(sim: pd.DataFrame, real: pd.DataFrame) -> dict[str, float]:
    sim, real = _with_boundaries(sim), _with_boundaries(real)
    out = {}
    for m in MEASURES:
        scale = float(real[m].std(ddof=1))
        if not math.isfinite(scale) or scale == 0:  # one real innings (NaN) or all alike: raw units
            scale = 1.0
        out[m] = wasserstein_distance(sim[m].to_numpy(float), real[m].to_numpy(float)) / scale
    out["distance"] = float(np.mean([out[m] for m in MEASURES]))
    return out


def summarise(real: RealInnings, entries: list[Entry]) -> pd.DataFrame:
    rows = []
    for code, name, df in [("real", "Real season", real.table)] + [(e.code, e.name, e.table) for e in entries]:
        df = _with_boundaries(df.astype(float))
        row: dict[str, Any] = {"code": code, "name": name, "innings": len(df)}
        for col in ("runs", "wickets", "fours", "sixes", "boundaries", "legal_balls"):
            row[f"{col}_mean"] = round(float(df[col].mean()), 2)
        row["runs_sd"] = round(float(df["runs"].std(ddof=1)), 2)
        d = distances(df, real.table) if code != "real" else {m: 0.0 for m in (*MEASURES, "distance")}
        row.update({f"d_{m}": round(d[m], 3) for m in MEASURES})
        row["distance"] = round(d["distance"], 3)
        rows.append(row)
    table = pd.DataFrame(rows)
    real_row, others = table.iloc[:1], table.iloc[1:].sort_values(["distance", "code"], kind="stable")
    return pd.concat([real_row, others], ignore_index=True)


def load_systems(note: Callable[[str], None]) -> list[Any]:
    """Every registered system whose module imports; the others are skipped with a note."""
    systems = []
    for code, module in GAME_MODULES.items():
        try:
            systems.append(importlib.import_module(module).SYSTEM)
        except ModuleNotFoundError as exc:
            if exc.name is None or not module.startswith(exc.name):
                raise
            note(f"{code}: not compared (module {module} is not there yet)")
        except (ImportError, AttributeError) as exc:
            note(f"{code}: not compared ({exc})")
    return systems


def compare_games(comp: Competition, season: str, source: str | None, innings: int, seed: int,
                  note: Callable[[str], None] = lambda text: None,
                  codes: tuple[str, ...] | None = None,
                  progress: Callable[[str], None] = lambda code: None) -> Comparison:
    real = real_first_innings(comp, season, source)
    if not len(real.table):
        raise CardgenError(f"{comp.code} {season} has no full-length first innings to compare with")
    ctx = SimContext(comp=comp, season=season, source=source,
                     overs=max(1, round(comp.balls_per_innings / 6)))
    entries: list[Entry] = []
    skipped: list[str] = []

    def skip(text: str) -> None:
        skipped.append(text)
        note(text)

    for system in load_systems(skip):
        if codes is not None and system.code not in codes:
            continue
        variants = getattr(system, "variants", None)
        runs = [(None, system.code, system.name)] if not variants else [
            (v, f"{system.code}:{v}", f"{system.name} ({v})") for v in variants]
        for variant, code, name in runs:
            progress(code)  # about to play this system's innings
            rng = system_rng(seed, code)
            try:
                if variant is None:
                    df = system.simulate_innings(rng, innings, ctx)
                else:
                    df = system.simulate_innings(rng, innings, ctx, variant=variant)
            except NotImplementedError as exc:
                skip(f"{code}: not compared (no engine yet: {exc})")
                continue
            except CardgenError as exc:
                skip(f"{code}: not compared ({exc})")
                continue
            missing = [c for c in INNINGS_COLUMNS if c not in df.columns]
            if missing:
                skip(f"{code}: not compared (innings table lacks {', '.join(missing)})")
                continue
            entries.append(Entry(code, name, df[list(INNINGS_COLUMNS)].astype(float)))
    if not entries:
        raise CardgenError("no game system could be simulated")
    result = Comparison(real, entries, skipped)
    result.summary = summarise(real, entries)
    return result


def _distance_chart(summary: pd.DataFrame) -> Any:
    from reportlab.graphics.shapes import Drawing, Rect, String
    from reportlab.lib import colors
    from reportlab.lib.units import mm
    rows = summary[summary["code"] != "real"]
    width, bar_h = 180 * mm, 5 * mm
    height = (len(rows) + 2) * bar_h + 12
    d = Drawing(width, height)
    d.add(String(4, height - 10, "Distance from the real season (lower = closer; see the note)",
                 fontSize=8))
    top = max(float(rows["distance"].max()), 1e-9)
    left, span = 60 * mm, width - 62 * mm - 20
    for k, r in enumerate(rows.itertuples()):
        y = height - 18 - (k + 1) * bar_h
        d.add(String(left - 4, y + 3, str(r.code), fontSize=6.5, textAnchor="end"))
        d.add(Rect(left, y, span * r.distance / top, bar_h * 0.75,
                   fillColor=colors.HexColor("#1f6fb2" if k else "#2e7d32"), strokeColor=None))
        d.add(String(left + span * r.distance / top + 3, y + 3, f"{r.distance:.3f}", fontSize=6.5))
    return d


def write_report(result: Comparison, comp: Competition, season: str, out_dir: Path, seed: int,
                 innings: int) -> Path:
    from cardgen.sim import report
    folder = Path(out_dir) / set_name(comp, season) / "compare-games"
    with report.written_together():  # all of the report, or none of it
        printed = season_label(comp, season)  # as the Quicket kit prints it
        report.write_csv(folder / "compare-games.csv", result.summary)
        drawings = [_distance_chart(result.summary)]
        real_runs = result.real.table["runs"].to_numpy()
        for e in result.entries:
            drawings.append(report.histogram(f"{e.code}: first-innings runs", e.table["runs"].to_numpy(),
                                             real_runs))
        lines = [(f"{comp.name} {printed}: {len(result.real.table)} real uninterrupted first innings "
                 f"(boundaries from {result.real.boundaries_from}); {innings} simulated innings per "
                 f"system, seed {seed}."), DISTANCE_NOTE + ".",
                 f"Closest to real {comp.name} {printed} cricket: {result.closest}."] + [f"Skipped: {s}" for s in result.skipped]
        cols = ["code", "runs_mean", "runs_sd", "wickets_mean", "fours_mean", "sixes_mean",
                "legal_balls_mean", "distance"]
        report.write_pdf(folder / "compare-games.pdf", f"Tabletop systems against {comp.code} {printed}",
                         lines, [("Per-innings means and distance", result.summary[cols])], drawings[:1])
        report.write_pdf(folder / "compare-games-runs.pdf", f"First-innings runs: systems against {comp.code} {printed}",
                         lines[:1], [], drawings[1:])
    return folder
