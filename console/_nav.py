"""A contestant's NAV against the benchmark, replayed from its stored decisions.

The portfolio replay (``grader.replay.replay_season``) needs the season's closes, which live in the
bundle, not in the database. Rather than re-validate the whole bundle (slow on a 50 x 250 season), the
console reads only ``market/prices.csv`` from ``SeasonRow.source_path``, checks its SHA-256 against the
hash recorded at import, and replays the one contestant from the decisions stored in the database.
"""

from __future__ import annotations

import hashlib
import io
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


#: The NAV chart's size in inches at CHART_DPI: 984 x 384 pixels, drawn at the page's 820 px width at 1280
CHART_SIZE, CHART_DPI = (8.2, 3.2), 120


def nav_chart_png(frame: pd.DataFrame, trade_dates: Sequence[date]) -> bytes:
    """The NAV against the benchmark as a PNG (matplotlib's Agg canvas, no pyplot state): a line per series of
    ``frame`` (``date`` and one column per series, ``NAV`` among them) and a black point on the NAV at each date with
    trades. An image is drawn at once by the browser; a chart library's canvas cost the page most of its drawing."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=CHART_SIZE, dpi=CHART_DPI)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    dates = pd.to_datetime(frame["date"])
    for series in [c for c in frame.columns if c != "date"]:
        axes.plot(dates, frame[series], label=series, linewidth=1.3)
    traded = dates.isin(pd.to_datetime(list(trade_dates)))
    if traded.any():
        axes.scatter(dates[traded], frame.loc[traded, "NAV"], color="black", s=9, zorder=3, label="trades")
    axes.set_ylabel("value")
    axes.grid(color="#e6e6e6", linewidth=0.6)
    axes.spines[["top", "right"]].set_visible(False)
    axes.legend(frameon=False, fontsize=8, loc="lower left", bbox_to_anchor=(0, 1), ncol=3)
    axes.tick_params(labelsize=8)
    figure.subplots_adjust(left=0.09, right=0.97, top=0.9, bottom=0.08)  # fixed margins: no layout pass to pay for
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", metadata={"Software": None})
    return buffer.getvalue()
