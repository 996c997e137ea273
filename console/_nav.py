"""A contestant's NAV against the benchmark, replayed from its stored decisions.

The portfolio replay (``grader.replay.replay_season``) needs the season's closes, which live in the
bundle, not in the database. Rather than re-validate the whole bundle (slow on a 50 x 250 season), the
console reads only ``market/prices.csv`` from ``SeasonRow.source_path``, checks its SHA-256 against the
hash recorded at import, and replays the one contestant from the decisions stored in the database.
"""

from __future__ import annotations

import hashlib
import html
import math
from collections.abc import Sequence
from datetime import date
from pathlib import Path

import pandas as pd
from pydantic import BaseModel, ConfigDict
from sqlalchemy import select

from grader.reporting import contestant_risk_table, round_outcomes  # noqa: F401  (re-exported for the pages)
from grader.storage import ContestantRow, DecisionRow, SeasonRow, session_scope

PRICES = "market/prices.csv"


class NavResult(BaseModel):
    """NAV and benchmark NAV per trading day (``frame``), or why they are unavailable (``reason``)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    available: bool
    reason: str = ""
    frame: pd.DataFrame | None = None
    outcome: dict | None = None
    benchmark: str | None = None


def season_prices(source_path: str, expected_sha256: str | None) -> pd.DataFrame:
    """The season's closes (date as ``datetime.date``) after checking the file against the import hash."""
    path = Path(source_path) / PRICES
    if not path.is_file():
        raise FileNotFoundError(f"{path} not found (the season bundle moved or was deleted)")
    data = path.read_bytes()
    if expected_sha256 and hashlib.sha256(data).hexdigest() != expected_sha256:
        raise ValueError(f"{path} changed since the season was imported (SHA-256 differs)")
    frame = pd.read_csv(path, usecols=["date", "symbol", "close"], dtype={"symbol": str, "close": float})
    frame["date"] = pd.to_datetime(frame["date"], format="%Y-%m-%d").dt.date
    return frame


def contestant_nav(contestant_row_id: int, db_url: str | None = None, prices: pd.DataFrame | None = None) -> NavResult:
    """Replay one contestant (``prices`` may be passed in when already loaded and checked)."""
    from grader.replay import replay_season
    from grader.season import Contestant, Decision, SeasonBundle, SeasonInfo

    with session_scope(db_url) as s:
        c = s.get(ContestantRow, contestant_row_id)
        if c is None:
            raise KeyError(f"no contestant row {contestant_row_id}")
        season = s.get_one(SeasonRow, c.season_id)
        info = SeasonInfo.model_validate(season.info)
        decisions_rows = (
            s.execute(
                select(DecisionRow)
                .where(DecisionRow.season_id == c.season_id, DecisionRow.contestant_id == c.id)
                .order_by(DecisionRow.decided_at)
            )
            .scalars()
            .all()
        )
        contestant = Contestant(
            id=c.contestant_key, display_name=c.display_name, provider_family=c.provider_family, model=c.model
        )
        decisions = [
            Decision(
                contestant_id=c.contestant_key,
                decided_at=d.decided_at,
                trades=d.trades or [],
                allocation=d.allocation,
                rationale=d.rationale,
                decision_seconds=d.decision_seconds,
                confidence=d.confidence,
                context=d.context,
                round_id=d.round_id,
                line=d.line,
            )
            for d in decisions_rows
        ]
        source, hashes, content_hash = season.source_path, dict(season.file_hashes or {}), season.content_hash
    if info.format != "trading":
        return NavResult(
            available=False,
            benchmark=info.benchmark,
            reason="a rounds season has no daily NAV; see the outcome per round in the score",
        )
    if prices is None:
        try:
            prices = season_prices(source, hashes.get(PRICES))
        except (OSError, ValueError) as exc:
            return NavResult(available=False, reason=str(exc), benchmark=info.benchmark)
    bundle = SeasonBundle(Path(source), info, [contestant], decisions, prices, [], hashes, content_hash)
    replay = replay_season(bundle).get(c.contestant_key)
    if replay is None:
        return NavResult(available=False, reason="no trading days inside the season", benchmark=info.benchmark)
    frame = pd.DataFrame(
        {
            "date": pd.to_datetime(list(replay.nav.index)),
            "NAV": replay.nav.to_numpy(float),
            f"benchmark ({info.benchmark})": replay.benchmark_nav.to_numpy(float),
        }
    )
    return NavResult(available=True, frame=frame, outcome=replay.outcome.as_dict(), benchmark=info.benchmark)


#: The NAV chart's size in pixels (its viewBox): drawn at the page's 820 px width at 1280
CHART_WIDTH, CHART_HEIGHT = 984, 384
#: The series' colours (the first is the NAV's), as matplotlib's first two
SERIES_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728")
_LEFT, _RIGHT, _TOP, _BOTTOM = 78, 16, 34, 28


def _nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """About ``count`` round values spanning ``low``..``high`` (steps of 1, 2, 2.5 or 5 times a power of ten)."""
    if not math.isfinite(low) or not math.isfinite(high) or high <= low:
        return [low] if math.isfinite(low) else []
    raw = (high - low) / count
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    first = math.ceil(low / step) * step
    return [first + k * step for k in range(int((high - first) / step + 1e-9) + 1)]


def _month_ticks(first: date, last: date) -> list[date]:
    """The first day of each month (of every second, third... month on a long season: at most 12 labels)."""
    months = [date(y, m, 1) for y in range(first.year, last.year + 1) for m in range(1, 13)]
    months = [d for d in months if first <= d <= last]
    every = max(1, math.ceil(len(months) / 12))
    return months[::every]


def nav_chart_svg(frame: pd.DataFrame, trade_dates: Sequence[date]) -> str:
    """The NAV against the benchmark as an SVG drawn here (no plotting library: a few milliseconds where matplotlib
    took 0.15 to 0.4 s of a contestant's first view): a line per series of ``frame`` (``date`` and one column per
    series, ``NAV`` among them), a black point on the NAV at each date with trades, a grid, the values on the left,
    the months below and a legend above. The browser draws an image at once; a chart library's canvas cost the page
    most of its drawing."""
    dates = [d.date() for d in pd.to_datetime(frame["date"])]
    series = [c for c in frame.columns if c != "date"]
    values = {c: [float(v) for v in frame[c]] for c in series}
    finite = [v for c in series for v in values[c] if math.isfinite(v)]
    width, height = CHART_WIDTH, CHART_HEIGHT
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        'font-family="sans-serif" font-size="11" fill="#262730">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
    ]
    if not dates or not finite:
        return "".join([*out, "</svg>"])
    low, high = min(finite), max(finite)
    pad = (high - low) * 0.05 or abs(high) * 0.05 or 1.0
    low, high = low - pad, high + pad
    x0, x1, y0, y1 = _LEFT, width - _RIGHT, height - _BOTTOM, _TOP
    start, span = dates[0].toordinal(), max(1, dates[-1].toordinal() - dates[0].toordinal())

    def x(d: date) -> float:
        return x0 + (x1 - x0) * (d.toordinal() - start) / span

    def y(v: float) -> float:
        return y0 - (y0 - y1) * (v - low) / (high - low)

    for v in _nice_ticks(low, high):
        out.append(f'<line x1="{x0}" x2="{x1}" y1="{y(v):.1f}" y2="{y(v):.1f}" stroke="#e6e6e6" stroke-width="0.8"/>')
        out.append(f'<text x="{x0 - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v:,.0f}</text>')
    for d in _month_ticks(dates[0], dates[-1]):
        out.append(f'<line x1="{x(d):.1f}" x2="{x(d):.1f}" y1="{y1}" y2="{y0}" stroke="#e6e6e6" stroke-width="0.8"/>')
        out.append(f'<text x="{x(d):.1f}" y="{y0 + 16}" text-anchor="middle">{d:%Y-%m}</text>')
    out.append(f'<path d="M{x0},{y1}V{y0}H{x1}" fill="none" stroke="#808495" stroke-width="1"/>')
    out.append(f'<text transform="translate(14,{(y0 + y1) / 2:.0f}) rotate(-90)" text-anchor="middle">value</text>')
    for k, c in enumerate(series):
        points = " ".join(f"{x(d):.1f},{y(v):.1f}" for d, v in zip(dates, values[c], strict=True) if math.isfinite(v))
        colour = SERIES_COLOURS[k % len(SERIES_COLOURS)]
        out.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="1.6"/>')
    traded = set(trade_dates)
    if "NAV" in values and traded:
        out.extend(
            f'<circle cx="{x(d):.1f}" cy="{y(v):.1f}" r="2.3" fill="black"/>'
            for d, v in zip(dates, values["NAV"], strict=True)
            if d in traded and math.isfinite(v)
        )
    legend_x = x0
    for k, c in enumerate(series):  # above the plot, left: as matplotlib's legend was
        colour = SERIES_COLOURS[k % len(SERIES_COLOURS)]
        out.append(f'<line x1="{legend_x}" x2="{legend_x + 22}" y1="14" y2="14" stroke="{colour}" stroke-width="2"/>')
        out.append(f'<text x="{legend_x + 28}" y="18">{html.escape(c)}</text>')
        legend_x += 40 + 7 * len(c)
    if "NAV" in values and traded:
        out.append(f'<circle cx="{legend_x + 11}" cy="14" r="2.8" fill="black"/>')
        out.append(f'<text x="{legend_x + 20}" y="18">trades</text>')
    out.append("</svg>")
    return "".join(out)
