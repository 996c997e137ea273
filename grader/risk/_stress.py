"""Named stress windows (``stress_windows.yaml``) and how a NAV path fared inside them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd
import yaml


@dataclass(frozen=True)
class StressWindow:
    id: str
    name: str
    start: date
    end: date
    source: str


@cache
def stress_windows() -> tuple[StressWindow, ...]:
    rows = yaml.safe_load(Path(__file__).with_name("stress_windows.yaml").read_text(encoding="utf-8"))
    return tuple(StressWindow(**r) for r in rows)


def max_drawdown(nav: np.ndarray) -> float:
    """max_t 1 - NAV_t / max_{s<=t} NAV_s (a positive fraction; 0 for a path that never falls)."""
    nav = np.asarray(nav, dtype=float)
    if len(nav) == 0:
        return 0.0
    return float((1.0 - nav / np.maximum.accumulate(nav)).max())


@dataclass(frozen=True)
class PathInWindow:
    """A path's return and drawdown over the sessions a window shares with the season (``first`` .. ``last``;
    the path is measured from the close before ``first`` when the season has one, so a fall on the window's
    first session counts)."""

    first: date
    last: date
    sessions: int
    path_return: float
    drawdown: float


def path_in_window(nav: pd.Series, window: StressWindow) -> PathInWindow | None:
    """``nav`` indexed by date (the season's closes, with its entry close first)."""
    inside = [d for d in nav.index if window.start <= d <= window.end]
    if len(inside) < 2 and not (inside and nav.index[0] < inside[0]):
        return None
    pos = list(nav.index).index(inside[0])
    start = pos - 1 if pos > 0 else pos
    path = nav.iloc[start : list(nav.index).index(inside[-1]) + 1].to_numpy(float)
    return PathInWindow(
        first=inside[0],
        last=inside[-1],
        sessions=len(inside),
        path_return=float(path[-1] / path[0] - 1.0),
        drawdown=max_drawdown(path),
    )
