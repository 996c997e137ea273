"""PortBench's two-layer correlation score of an allocation (seed 004, section 3 and Appendix C.1).

With ``w_c`` the weight in class ``c``, ``rho_c`` the mean off-diagonal Pearson correlation of the class's assets
and ``rho(ci, cj)`` the mean correlation over every pair of assets across two classes:

- intra-class concentration penalty ``s_intra = clip(1 - sum_c w_c * max(rho_c, 0), 0, 1)``;
- weight-averaged cross-class correlation ``rho_cross = sum_{i != j} w_i w_j rho(ci, cj) / sum_{i != j} w_i w_j``
  over the classes held, and inter-class hedging credit ``s_inter = clip((1 - rho_cross) / 2, 0, 1)``;
- ``s_corr = s_intra / 2 + s_inter / 2``.

Where the paper is silent we say what we do (docs/scoring.md): the class statistics come from the trailing
daily returns of every universe asset of the class known at the decision; a class with a single asset has no
pair and no intra penalty; a series with no variance in the window (cash) correlates 0 with everything, and
uninvested cash is weight in the cash class; an allocation inside one class has no cross-class pair, so no
hedging credit (``s_inter = 0``, ``rho_cross`` undefined).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

import numpy as np
import pandas as pd

from grader.risk._classes import UNINVESTED_CASH
from grader.risk._var import MIN_RETURNS


@dataclass(frozen=True)
class ClassCorrelations:
    """Class-level correlation statistics. ``known``: classes with at least one asset that has ``MIN_RETURNS``
    trailing returns; ``intra[c]`` (None: fewer than two such assets); ``cross[(a, b)]`` with ``a < b``."""

    known: frozenset[str]
    intra: dict[str, float | None]
    cross: dict[tuple[str, str], float] = field(default_factory=dict)

    def between(self, a: str, b: str) -> float | None:
        if a == b:
            raise ValueError("between() takes two different classes")
        if UNINVESTED_CASH in (a, b) and UNINVESTED_CASH not in self.known:
            return 0.0  # cash held outside any symbol: no returns, correlates 0 with everything
        return self.cross.get((a, b) if a < b else (b, a))


class CorrelationUnavailable(ValueError):
    """A held class has no trailing returns known at the decision."""


@dataclass(frozen=True)
class CorrelationScore:
    s_intra: float
    s_inter: float
    s_corr: float
    rho_cross: float | None
    class_weights: dict[str, float]

    def describe(self) -> str:
        cross = "one class: no cross-class pair" if self.rho_cross is None else f"cross-class rho {self.rho_cross:+.2f}"
        return (
            f"two-layer correlation score {self.s_corr:.2f} (intra {self.s_intra:.2f}, inter "
            f"{self.s_inter:.2f}; {cross})"
        )


def class_correlations(returns: pd.DataFrame, class_of: dict[str, str]) -> ClassCorrelations:
    """Class statistics from daily returns (rows: sessions, columns: symbols). An asset with fewer than
    ``MIN_RETURNS`` returns is left out; pairs are pairwise complete with at least that many common sessions."""
    counts = returns.notna().sum()
    cols = [c for c in returns.columns if c in class_of and counts[c] >= MIN_RETURNS]
    frame = returns[cols]
    corr = np.array(frame.corr(min_periods=MIN_RETURNS), dtype=float)
    flat = ~(frame.std().to_numpy(float) > 1e-12)  # no variance (cash): correlates 0 with everything
    corr[flat, :] = 0.0
    corr[:, flat] = 0.0
    members: dict[str, list[int]] = {}
    for i, c in enumerate(cols):
        members.setdefault(class_of[c], []).append(i)

    def mean_of(block: np.ndarray) -> float | None:
        block = block[np.isfinite(block)]
        return float(block.mean()) if block.size else None

    intra: dict[str, float | None] = {}
    for cls, idx in members.items():
        upper = np.triu_indices(len(idx), k=1)
        intra[cls] = mean_of(corr[np.ix_(idx, idx)][upper]) if len(idx) > 1 else None
    cross: dict[tuple[str, str], float] = {}
    for ca, cb in combinations(sorted(members), 2):
        value = mean_of(corr[np.ix_(members[ca], members[cb])].ravel())
        if value is not None:
            cross[(ca, cb)] = value
    return ClassCorrelations(known=frozenset(members), intra=intra, cross=cross)


def two_layer_score(class_weights: dict[str, float], stats: ClassCorrelations) -> CorrelationScore:
    """The score of an allocation given as weight per class. Raises ``CorrelationUnavailable`` when a held class
    (other than uninvested cash) has no statistics known at the decision."""
    held = {c: float(w) for c, w in class_weights.items() if w > 1e-12}
    missing = sorted(c for c in held if c not in stats.known and c != UNINVESTED_CASH)
    if missing:
        raise CorrelationUnavailable(f"no {MIN_RETURNS} trailing returns for the {', '.join(missing)} class")
    penalty = sum(w * max(stats.intra.get(c) or 0.0, 0.0) for c, w in held.items())
    s_intra = float(np.clip(1.0 - penalty, 0.0, 1.0))
    num = den = 0.0
    for a, b in combinations(sorted(held), 2):
        rho = stats.between(a, b)
        if rho is None:
            raise CorrelationUnavailable(f"no common trailing returns between the {a} and {b} classes")
        pair = 2.0 * held[a] * held[b]  # i != j counts (a, b) and (b, a)
        num += pair * rho
        den += pair
    rho_cross: float | None
    if den > 0:
        rho_cross = num / den
        s_inter = float(np.clip((1.0 - rho_cross) / 2.0, 0.0, 1.0))
    else:
        rho_cross, s_inter = None, 0.0
    return CorrelationScore(
        s_intra=s_intra, s_inter=s_inter, s_corr=0.5 * s_intra + 0.5 * s_inter, rho_cross=rho_cross, class_weights=held
    )
