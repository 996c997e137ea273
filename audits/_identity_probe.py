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
        return (
            f"{self.decisions} decisions, {len(self.families)} families, {self.groups} rounds ({self.folds}-fold "
            f"cross-validation grouped by round): accuracy {self.accuracy:.1%} (95% CI {lo:.1%}-{hi:.1%}) vs "
            f"{self.majority_rate:.1%} always guessing {self.majority_family}; binomial p = {self.p_value:.3g}. "
            f"{self.verdict}"
        )


def _wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return float(max(0.0, centre - half)), float(min(1.0, centre + half))


def stylometric_probe(
    texts: Sequence[str],
    families: Sequence[str],
    groups: Sequence[str],
    *,
    folds: int = 5,
    seed: int = 0,
    alpha: float = 0.05,
) -> IdentityProbe | None:
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
            FeatureUnion(
                [
                    ("words", TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True)),
                    ("chars", TfidfVectorizer(analyzer="char_wb", ngram_range=(3, 5), min_df=2, sublinear_tf=True)),
                ]
            ),
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
        verdict = (
            "Style identifies the family well above chance: anonymization hides names, not authorship; "
            "read the self-preference audit with that in mind."
        )
    else:
        verdict = (
            "No evidence that style identifies the family beyond guessing the most common one (which does "
            "not prove a judge cannot)."
        )
    return IdentityProbe(
        decisions=n,
        families=dict(counts),
        groups=n_groups,
        folds=k,
        accuracy=accuracy,
        accuracy_ci=_wilson(correct, n),
        majority_family=majority,
        majority_rate=rate,
        p_value=p_value,
        recall=recall,
        confusion=confusion,
        verdict=verdict,
    )


class JudgeGuesses(BaseModel):
    """One judge's identity-guess probe: asked in calls of its own which family wrote each anonymized item."""

    judge_id: str
    judge_family: str | None
    items: int  # items with a valid guess
    unanswered: int  # items whose reply was off the schema or the candidates, or never came
    correct: int
    leak_rate: float  # correct / items
    leak_rate_ci: tuple[float, float]
    chance: float  # the best a guess independent of the text can do on these items (the most common family's share)
    p_value: float  # one-sided binomial test: leak rate > chance
    p_value_holm: float
    own_items: int  # items written by the judge's own family
    own_named: int  # ... that it attributed to its own family
    own_claimed_on_others: int  # items of other families it attributed to its own family
    flagged: bool
    note: str


def judge_guess_stats(
    rows: Sequence[dict], judge_families: dict[str, str | None] | None = None, *, alpha: float = 0.05
) -> list[JudgeGuesses]:
    """Per judge, from each item's final probe answer (``judge_id``, ``true_family``, ``status``, ``guess``):
    leak rate with a Wilson 95% interval against chance (the answered items' most common family share; 1/K on a
    balanced sample), a one-sided binomial test, Holm-adjusted over the judges; and how often it named its own
    family when it was, and was not, the author."""
    from statsmodels.stats.multitest import multipletests

    judge_families = dict(judge_families or {})
    for r in rows:
        judge_families.setdefault(r["judge_id"], r.get("judge_family"))
    by_judge: dict[str, list[dict]] = {}
    for r in rows:
        by_judge.setdefault(r["judge_id"], []).append(r)
    drafts = []
    for jid in sorted(by_judge):
        answered = [r for r in by_judge[jid] if r["status"] == "ok" and r.get("guess")]
        n = len(answered)
        if n == 0:
            continue
        correct = sum(r["guess"] == r["true_family"] for r in answered)
        counts = Counter(r["true_family"] for r in answered)
        chance = counts.most_common(1)[0][1] / n
        p = float(binomtest(correct, n, chance, alternative="greater").pvalue)
        fam = judge_families.get(jid)
        own = [r for r in answered if r["true_family"] == fam]
        others = [r for r in answered if r["true_family"] != fam]
        drafts.append(
            dict(
                judge_id=jid,
                judge_family=fam,
                items=n,
                unanswered=len(by_judge[jid]) - n,
                correct=correct,
                leak_rate=correct / n,
                leak_rate_ci=_wilson(correct, n),
                chance=chance,
                p_value=p,
                own_items=len(own),
                own_named=sum(r["guess"] == fam for r in own),
                own_claimed_on_others=sum(r["guess"] == fam for r in others),
            )
        )
    if not drafts:
        return []
    adjusted = multipletests([d["p_value"] for d in drafts], method="holm")[1]
    out = []
    for d, p_holm in zip(drafts, adjusted, strict=True):
        flagged = bool(p_holm < alpha)
        own_note = (
            f"; of its own family's {d['own_items']} items it named its own family for {d['own_named']}"
            if d["own_items"]
            else ""
        )
        note = (
            f"named the author's family for {d['correct']} of {d['items']} items ({d['leak_rate']:.0%}; chance "
            f"{d['chance']:.0%}; one-sided p = {d['p_value']:.3g}, Holm {p_holm:.3g}){own_note}: "
            + ("it can tell who wrote a record." if flagged else "no evidence it can tell who wrote a record.")
        )
        out.append(JudgeGuesses(**d, p_value_holm=float(p_holm), flagged=flagged, note=note))
    return out
