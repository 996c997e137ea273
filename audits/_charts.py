"""Report charts drawn with matplotlib's Agg canvas and embedded as base64 PNG (no file, no URL).

The figures are built with ``matplotlib.figure.Figure`` and ``FigureCanvasAgg`` directly, so no global
pyplot state or display backend is involved, and the PNG metadata is stripped so output is reproducible.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from pydantic import BaseModel

from audits._agreement import BlandAltmanPair, ContestantSpread
from audits._calibration import PANEL_MEDIAN, CalibrationPoint
from audits._inputs import Band, band_edges
from audits._self_preference import ConsensusPoint

_PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")


class Chart(BaseModel):
    """A rendered chart: title, alt text for readers who cannot see it, and the PNG as base64."""

    key: str
    title: str
    alt: str
    png_base64: str

    @property
    def drawn(self) -> bool:
        """False in a document built with :func:`charts_left_undrawn`."""
        return bool(self.png_base64)


_DRAW = ContextVar("audits_draw_charts", default=True)


@contextmanager
def charts_left_undrawn() -> Iterator[None]:
    """Within: charts are laid out but not drawn (``png_base64`` empty, :attr:`Chart.drawn` false), for a first
    version of a document shown while the charts are drawn (drawing them is most of a document's time)."""
    token = _DRAW.set(False)
    try:
        yield
    finally:
        _DRAW.reset(token)


def _encode(figure: Figure) -> str:
    if not _DRAW.get():
        return ""
    FigureCanvasAgg(figure)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110, bbox_inches="tight", metadata={"Software": None})
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _band_lines(axes, bands: Sequence[Band]) -> None:
    for edge in band_edges(bands):
        axes.axhline(edge, color="#999999", linestyle="--", linewidth=0.8, zorder=0)


def spread_chart(spreads: Sequence[ContestantSpread], bands: Sequence[Band]) -> Chart | None:
    """Per contestant, the judges' lowest-to-highest composite as a bar and the median as a dot."""
    if not spreads:
        return None
    ordered = sorted(spreads, key=lambda s: s.median, reverse=True)
    width = min(14.0, max(6.0, 0.45 * len(ordered) + 2))
    figure = Figure(figsize=(width, 4.2))
    axes = figure.add_subplot()
    x = list(range(len(ordered)))
    axes.vlines(x, [s.low for s in ordered], [s.high for s in ordered], color="#1f77b4", linewidth=4, alpha=0.45)
    axes.scatter(
        x + x,
        [s.low for s in ordered] + [s.high for s in ordered],
        color="#1f77b4",
        marker="_",
        s=90,
        label="lowest / highest judge",
    )
    axes.scatter(x, [s.median for s in ordered], color="#1f2d3d", zorder=3, s=22, label="panel median")
    _band_lines(axes, bands)
    axes.set_xticks(x, [s.contestant_label for s in ordered], rotation=45, ha="right", fontsize=8)
    axes.set_ylabel("judge composite (0-100)")
    axes.set_ylim(0, 100)
    axes.set_title("Score spread per contestant: lowest to highest judge, dot = median")
    axes.legend(loc="lower left", fontsize=8)
    return Chart(
        key="spread",
        title="Score spread per contestant",
        alt="For each contestant a bar from the lowest to the highest judge composite with the median marked; "
        "dashed lines are band edges.",
        png_base64=_encode(figure),
    )


def consensus_chart(points: Sequence[ConsensusPoint], bands: Sequence[Band]) -> Chart | None:
    """Each judge's composite against the panel median; own-family contestants drawn as stars."""
    if not points:
        return None
    figure = Figure(figsize=(6.4, 5.2))
    axes = figure.add_subplot()
    judges = sorted({p.judge_id for p in points})
    for i, judge in enumerate(judges):
        color = _PALETTE[i % len(_PALETTE)]
        mine = [p for p in points if p.judge_id == judge]
        others = [p for p in mine if not p.own_family]
        own = [p for p in mine if p.own_family]
        axes.scatter(
            [p.consensus for p in others],
            [p.score for p in others],
            color=color,
            s=24,
            alpha=0.8,
            label=judge,
        )
        if own:
            axes.scatter(
                [p.consensus for p in own],
                [p.score for p in own],
                color=color,
                marker="*",
                s=140,
                edgecolors="black",
                linewidths=0.6,
                label=f"{judge} (own family)",
            )
    axes.plot([0, 100], [0, 100], color="#555555", linewidth=0.8)
    _band_lines(axes, bands)
    axes.set_xlim(0, 100)
    axes.set_ylim(0, 100)
    axes.set_xlabel("panel consensus (median composite)")
    axes.set_ylabel("judge composite")
    axes.set_title("Judge vs consensus (stars: the judge's own provider family)")
    axes.legend(fontsize=7, loc="upper left")
    return Chart(
        key="consensus",
        title="Judge vs consensus",
        alt="Scatter of each judge's composite against the panel median per contestant; points above the "
        "diagonal are graded higher than the consensus; stars mark the judge's own provider family.",
        png_base64=_encode(figure),
    )


def calibration_chart(points: Sequence[CalibrationPoint], axis: str = "composite") -> Chart | None:
    """Judges and the panel median against the human reference on one axis; None without human grades."""
    chosen = [p for p in points if p.axis == axis] or list(points)
    if not chosen:
        return None
    axis = chosen[0].axis
    figure = Figure(figsize=(6.4, 5.2))
    axes = figure.add_subplot()
    raters = sorted({p.rater for p in chosen}, key=lambda r: (r == PANEL_MEDIAN, r))
    for i, rater in enumerate(raters):
        mine = [p for p in chosen if p.rater == rater]
        style: dict[str, Any] = (
            {"marker": "D", "color": "black", "s": 36}
            if rater == PANEL_MEDIAN
            else {"color": _PALETTE[i % len(_PALETTE)], "s": 24, "alpha": 0.8}
        )
        axes.scatter([p.human for p in mine], [p.score for p in mine], label=rater, **style)
    axes.plot([0, 100], [0, 100], color="#555555", linewidth=0.8)
    axes.set_xlim(0, 100)
    axes.set_ylim(0, 100)
    axes.set_xlabel(f"human grade ({axis}, mean of annotators)")
    axes.set_ylabel(f"judge {axis}")
    axes.set_title("Calibration: judges vs human grades")
    axes.legend(fontsize=7, loc="upper left")
    return Chart(
        key="calibration",
        title="Calibration against human grades",
        alt=f"Scatter of judge scores against the human reference on the {axis} axis; the diagonal is "
        "perfect agreement.",
        png_base64=_encode(figure),
    )


def bland_altman_chart(pairs: Sequence[BlandAltmanPair]) -> Chart | None:
    """One panel per judge pair: the difference against the mean of the two, with the mean difference and the
    95% limits of agreement; None when no pair has points."""
    usable = [p for p in pairs if p.points and p.mean_difference is not None]
    if not usable:
        return None
    # at most two panels a row, so the figure is drawn near its own size on a page (its text readable at ~760 px)
    columns = min(2, len(usable))
    rows = -(-len(usable) // columns)
    figure = Figure(figsize=(4.0 * columns, 3.4 * rows))
    for k, pair in enumerate(usable):
        axes = figure.add_subplot(rows, columns, k + 1)
        axes.scatter([m for m, _ in pair.points], [d for _, d in pair.points], s=18, color=_PALETTE[k % len(_PALETTE)])
        if pair.mean_difference is None:
            continue  # never: usable keeps the pairs with a mean difference
        axes.axhline(pair.mean_difference, color="black", linewidth=1)
        for limit in (pair.loa_low, pair.loa_high):
            if limit is not None:
                axes.axhline(limit, color="#999999", linestyle="--", linewidth=0.9)
        axes.axhline(0, color="#cccccc", linewidth=0.6, zorder=0)
        axes.set_title(f"{pair.judge_a} - {pair.judge_b}", fontsize=10)
        axes.set_xlabel("mean of the two (composite)", fontsize=9)
        if k % columns == 0:
            axes.set_ylabel("difference", fontsize=9)
        axes.tick_params(labelsize=8)
    figure.tight_layout()
    return Chart(
        key="bland_altman",
        title="Bland-Altman per judge pair",
        alt="For each pair of judges, each contestant's composite difference against the pair's mean; solid line: "
        "mean difference (bias), dashed: 95% limits of agreement.",
        png_base64=_encode(figure),
    )


def rank_interval_chart(contestants: Sequence, bands: Sequence[Band]) -> Chart | None:
    """Every contestant's Total Score with its bootstrap interval (bars), ordered by rank, band edges dashed."""
    rows = list(contestants)
    if not rows:
        return None
    figure = Figure(figsize=(7.5, max(2.4, 0.32 * len(rows) + 1.2)))
    axes = figure.add_subplot()
    y = list(range(len(rows)))[::-1]
    axes.hlines(y, [c.score_low for c in rows], [c.score_high for c in rows], color="#1f77b4", linewidth=4, alpha=0.45)
    axes.scatter([c.total for c in rows], y, color="black", s=16, zorder=3)
    for edge in band_edges(bands):
        axes.axvline(edge, color="#999999", linestyle="--", linewidth=0.8, zorder=0)
    axes.set_yticks(y)
    axes.set_yticklabels(
        [
            f"{c.rank}. {c.contestant_label}"
            + (f" (ranks {c.rank_low}-{c.rank_high})" if c.rank_low != c.rank_high else "")
            for c in rows
        ],
        fontsize=7,
    )
    axes.set_xlim(0, 100)
    axes.set_xlabel("Total Score (bar: 95% bootstrap interval; dashed: band edges)", fontsize=8)
    figure.tight_layout()
    return Chart(
        key="rank_intervals",
        title="Score and rank intervals",
        alt="Each contestant's Total Score (dot) with its bootstrap interval (bar), ordered by rank; a bar that "
        "crosses a dashed band edge is borderline.",
        png_base64=_encode(figure),
    )
