"""Can a judge tell who wrote a record? An offline stylometric probe of the anonymized texts.

Scrubbing names does not remove style. The probe trains a classifier (TF-IDF of word 1-2-grams and character
3-5-grams, logistic regression; scikit-learn) to predict the author's provider family from the anonymized
rationale of one decision, and tests it with cross-validation grouped by round (a round's decisions are never
split between training and testing: the same briefing would otherwise give the answer away). Accuracy is
compared with always guessing the most common family, with a Wilson 95% interval and a one-sided binomial
test. A probe well above that rate means a judge *could* tell families apart from style alone, so the
self-preference audit must not rely on anonymization alone; a probe at the majority rate is evidence (not
proof) that it cannot.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np
from pydantic import BaseModel
from scipy.stats import binomtest


class IdentityProbe(BaseModel):
    """The stylometric probe's figures."""

    decisions: int
    families: dict[str, int]
    groups: int
    folds: int
    accuracy: float
    accuracy_ci: tuple[float, float]
    majority_family: str
    majority_rate: float
    p_value: float  # one-sided binomial test: accuracy > majority rate
    recall: dict[str, float]
    confusion: dict[str, dict[str, int]]  # true family -> predicted family -> count
    verdict: str

    def summary(self) -> str:
        lo, hi = self.accuracy_ci
        return (f"{self.decisions} decisions, {len(self.families)} families, {self.groups} rounds ({self.folds}-fold "
                f"cross-validation grouped by round): accuracy {self.accuracy:.1%} (95% CI {lo:.1%}-{hi:.1%}) vs "
                f"{self.majority_rate:.1%} always guessing {self.majority_family}; binomial p = {self.p_value:.3g}. "
                f"{self.verdict}")


def _wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return float(max(0.0, centre - half)), float(min(1.0, centre + half))


def stylometric_probe(texts: Sequence[str], families: Sequence[str], groups: Sequence[str], *,
                      folds: int = 5, seed: int = 0, alpha: float = 0.05) -> IdentityProbe | None:
    """Cross-validated family prediction from anonymized texts; None when there is too little to test (fewer
    than 2 families, 20 texts or 3 groups)."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GroupKFold
    from sklearn.pipeline import FeatureUnion, make_pipeline

    counts = Counter(families)
    n_groups = len(set(groups))
    if len(counts) < 2 or len(texts) < 20 or n_groups < 3:
        return None
    k = min(folds, n_groups)
    x = np.array(list(texts), dtype=object)
    y = np.array(list(families))
    g = np.array(list(groups))
    predicted = np.empty(len(y), dtype=object)
    for train, test in GroupKFold(n_splits=k).split(x, y, g):
        if len(set(y[train])) < 2:
            predicted[test] = Counter(y[train]).most_common(1)[0][0]
            continue
        model = make_pipeline(
            FeatureUnion([
                ("words", TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True)),
                ("chars", TfidfVectorizer(analyzer="char_wb", ngram_range=(3, 5), min_df=2, sublinear_tf=True)),
            ]),
            LogisticRegression(max_iter=2000, C=4.0, random_state=seed),
        )
        model.fit(x[train], y[train])
        predicted[test] = model.predict(x[test])
    correct = int(sum(p == t for p, t in zip(predicted, y, strict=True)))
    n = len(y)
    majority, majority_n = counts.most_common(1)[0]
    rate = majority_n / n
    p_value = float(binomtest(correct, n, rate, alternative="greater").pvalue)
    labels = sorted(counts)
    confusion = {t: {p: int(sum((y == t) & (predicted == p))) for p in labels} for t in labels}
    recall = {t: confusion[t][t] / counts[t] for t in labels}
    accuracy = correct / n
    if p_value < alpha:
        verdict = ("Style identifies the family well above chance: anonymization hides names, not authorship; "
                   "read the self-preference audit with that in mind.")
    else:
        verdict = ("No evidence that style identifies the family beyond guessing the most common one (which does "
                   "not prove a judge cannot).")
    return IdentityProbe(decisions=n, families=dict(counts), groups=n_groups, folds=k, accuracy=accuracy,
                         accuracy_ci=_wilson(correct, n), majority_family=majority, majority_rate=rate,
                         p_value=p_value, recall=recall, confusion=confusion, verdict=verdict)
