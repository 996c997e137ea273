"""Number formatters of the audit report: scores, statistics, p-values, shares, percents and intervals; a dash
for a missing value."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

DASH = "—"


def fmt_score(value: float | None) -> str:
    return DASH if value is None else f"{value:.1f}"


def fmt_signed(value: float | None) -> str:
    return DASH if value is None else f"{value:+.1f}"


def fmt_stat(value: float | None) -> str:
    return DASH if value is None else f"{value:.3f}"


def fmt_ci(value: float | None) -> str:
    """An ICC interval end: pingouin computes its F-based intervals rounded to 2 decimals, so 2 are shown."""
    return DASH if value is None else f"{value:.2f}"


def fmt_p(value: float | None) -> str:
    if value is None:
        return DASH
    return "< 0.001" if value < 0.001 else f"{value:.3f}"


def fmt_share(value: float | None) -> str:
    return DASH if value is None else f"{value:.0%}"


def fmt_percent(value: float | None) -> str:
    return DASH if value is None else f"{value * 100:.2f}%"


def fmt_ratio(value: float | None) -> str:
    return DASH if value is None else f"{value:.2f}"


def fmt_interval(low: float | None, high: float | None, fmt: Callable[[float | None], str] = fmt_stat) -> str:
    if low is None or high is None:
        return DASH
    return f"[{fmt(low)}, {fmt(high)}]"


def fmt_value(value: Any) -> str:
    if value is None:
        return DASH
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.3g}" if abs(value) < 1 else f"{value:,.1f}"
    return str(value)
