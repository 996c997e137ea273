"""The labelled claim set: every rule, both polarities, dead bands, rounding, units, lookahead, approx.

Prints precision and recall per status (run with ``pytest -s`` to see them).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
import yaml

from ledgers import STATUSES, Claim, Verifier, VerifierConfig

LABELS = Path(__file__).parent / "fixtures" / "labelled_claims.yaml"
CONFIG = VerifierConfig(benchmark="SP500")


def load_labelled() -> list[dict]:
    doc = yaml.safe_load(LABELS.read_text())
    moments = doc["defaults"]
    items = []
    for raw in doc["claims"]:
        when = moments.get(raw["at"], raw["at"])
        raw = {**raw, "decided_at": datetime.fromisoformat(when)}
        items.append(raw)
    return items


def _claim(item: dict) -> Claim:
    return Claim(
        id=item["id"],
        text=item["text"],
        decided_at=item["decided_at"],
        symbol=item.get("symbol"),
        cited_fields=item.get("fields", []),
    )


def precision_recall(pairs: list[tuple[str, str]]) -> dict[str, tuple[float | None, float | None, int]]:
    """status -> (precision, recall, support) of predicted vs expected statuses."""
    out = {}
    for status in STATUSES:
        tp = sum(1 for exp, got in pairs if exp == status and got == status)
        predicted = sum(1 for _, got in pairs if got == status)
        support = sum(1 for exp, _ in pairs if exp == status)
        out[status] = (tp / predicted if predicted else None, tp / support if support else None, support)
    return out


def test_labelled_set_covers_every_rule_and_status():
    items = load_labelled()
    rules = {i["rule"] for i in items if "rule" in i}
    assert {
        "exact_numeric",
        "threshold",
        "derived_return",
        "relative_return",
        "return_or_relative",
        "distance_52w_high",
        "distance_52w_low",
        "distance_sma",
        "analyst_upside",
        "sma_position",
        "ma_cross",
        "macd_signal",
        "momentum",
        "relative_momentum",
        "rsi_state",
        "near_52w_extreme",
        "profitability",
        "valuation",
        "growth",
        "dividend_yield",
        "beta_level",
        "volatility_level",
        "upside_direction",
        "consensus",
        "categorical",
        "forecast",
        "briefing",
        "unrecognised",
    } <= rules
    assert {i["expect"] for i in items} == set(STATUSES)
    assert any(i.get("lookahead") for i in items)
    assert len({i["id"] for i in items}) == len(items)


def test_every_label_and_print_precision_recall(store):
    verifier = Verifier(store, CONFIG)
    failures = []
    pairs = []
    for item in load_labelled():
        v = verifier.verify(_claim(item))
        pairs.append((item["expect"], v.status))
        problems = []
        if v.status != item["expect"]:
            problems.append(f"status {v.status} != {item['expect']}")
        if "lookahead" in item and v.lookahead != item["lookahead"]:
            problems.append(f"lookahead {v.lookahead} != {item['lookahead']}")
        if "rule" in item and item["rule"] not in v.rule.split("+"):
            problems.append(f"rule {v.rule} lacks {item['rule']}")
        if not v.reason or "\n" in v.reason:
            problems.append("reason must be one non-empty line")
        if v.status != "not_verifiable" and not v.evidence:
            problems.append("a checked claim must carry evidence")
        for e in v.evidence:
            if e.observed_at > item["decided_at"] and not v.lookahead:
                problems.append(f"evidence observed after the decision: {e}")
        if problems:
            failures.append(f"{item['id']} ({item['text']!r}): {'; '.join(problems)} | {v.reason}")
    stats = precision_recall(pairs)
    print(f"\nlabelled claims: {len(pairs)}")
    for status, (precision, recall, support) in stats.items():
        p = "n/a" if precision is None else f"{precision:.3f}"
        r = "n/a" if recall is None else f"{recall:.3f}"
        print(f"  {status:15s} precision {p}  recall {r}  (n={support})")
    assert not failures, "\n" + "\n".join(failures)


@pytest.mark.parametrize("status", STATUSES)
def test_precision_recall_helper_counts(status):
    pairs = [("supported", "supported"), ("contradicted", "supported"), ("not_verifiable", "not_verifiable")]
    precision, recall, support = precision_recall(pairs)[status]
    expected = {"supported": (0.5, 1.0, 1), "contradicted": (None, 0.0, 1), "not_verifiable": (1.0, 1.0, 1)}
    assert (precision, recall, support) == expected[status]
