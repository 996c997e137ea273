"""The stylometric identity probe: known answers on planted styles, and no false alarm on identical texts."""

from __future__ import annotations

import random

from audits import stylometric_probe


def _corpus(distinct: bool, n_rounds: int = 10, seed: int = 1):
    rng = random.Random(seed)
    words = "energy semis momentum rates breadth value defensive oil yields dollar earnings gold".split()
    styles = {
        "openai": "The portfolio allocates to {a} because {b} could improve; risks include {c}.",
        "anthropic": "{a} +{n}% 7d, strong momentum; {b} low beta; tilt defensive into {c}.",
        "google": "Broader market conditions favour {a}, while {b} and {c} remain uncertain overall.",
    }
    texts, families, groups = [], [], []
    for r in range(n_rounds):
        for fam, style in styles.items():
            a, b, c = rng.sample(words, 3)
            template = style if distinct else styles["openai"]
            texts.append(template.format(a=a, b=b, c=c, n=rng.randint(1, 9)))
            families.append(fam)
            groups.append(f"round-{r}")
    return texts, families, groups


def test_planted_styles_are_recognised_far_above_chance():
    probe = stylometric_probe(*_corpus(distinct=True))
    assert probe is not None and probe.accuracy > 0.9 and probe.p_value < 1e-6
    assert abs(probe.majority_rate - 1 / 3) < 1e-9 and probe.groups == 10 and probe.folds == 5
    assert probe.accuracy_ci[0] <= probe.accuracy <= probe.accuracy_ci[1]
    assert "well above chance" in probe.verdict


def test_identical_texts_give_no_evidence():
    probe = stylometric_probe(*_corpus(distinct=False))
    assert probe is not None and probe.p_value > 0.05 and "No evidence" in probe.verdict


def test_too_little_to_test_is_none():
    texts, families, groups = _corpus(distinct=True, n_rounds=2)
    assert stylometric_probe(texts, families, groups) is None  # 2 groups: no held-out round to speak of
    assert stylometric_probe(texts, ["openai"] * len(texts), groups) is None
