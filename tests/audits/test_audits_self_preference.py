"""Self-preference: planted own-family bias is flagged for that judge only; honest small-sample caveats."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from audits_synthetic import JUDGES, panel_scores

from audits import self_preference


def _by_judge(result):
    return {j.judge_id: j for j in result.judges}


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_planted_plus_ten_own_family_bias_is_flagged_for_that_judge_and_no_other(seed: int) -> None:
    scores = panel_scores(seed=seed, bias={"judge-xai": 10.0})  # 12 contestants, 4 families, 3 judges
    result = self_preference(scores, seed=seed)
    judges = _by_judge(result)
    assert judges["judge-xai"].flagged
    assert judges["judge-xai"].loo_gap == pytest.approx(10.0, abs=4.0)
    assert judges["judge-xai"].permutation_method == "exact"  # C(12, 3) = 220 assignments
    assert judges["judge-xai"].p_value == pytest.approx(1 / 220)
    assert not judges["judge-openai"].flagged
    assert not judges["judge-anthropic"].flagged


def test_bias_is_found_by_whichever_judge_carries_it() -> None:
    result = self_preference(panel_scores(seed=7, bias={"judge-anthropic": 10.0}))
    assert [j.judge_id for j in result.judges if j.flagged] == ["judge-anthropic"]


def test_unbiased_panel_flags_nobody() -> None:
    result = self_preference(panel_scores(seed=11))
    assert not any(j.flagged for j in result.judges)


def test_another_judges_bias_does_not_pose_as_self_preference() -> None:
    """With the xAI judge inflating xAI models by 20, the other judges' leave-one-out gaps stay near zero."""
    result = self_preference(panel_scores(seed=3, noise_sd=0.5, bias={"judge-xai": 20.0}))
    judges = _by_judge(result)
    assert abs(judges["judge-openai"].loo_gap) < 1.5
    assert abs(judges["judge-anthropic"].loo_gap) < 1.5
    assert judges["judge-xai"].loo_gap == pytest.approx(20.0, abs=2.0)


def _three_contestant_panel() -> pd.DataFrame:
    """Seed 002's shape: one contestant per judge family, hand-checkable numbers."""
    grid = {  # contestant -> judge -> composite
        "gpt": {"j-openai": 83, "j-anthropic": 81, "j-xai": 57},
        "claude": {"j-openai": 76, "j-anthropic": 59, "j-xai": 83},
        "grok": {"j-openai": 63, "j-anthropic": 59, "j-xai": 82},
    }
    family = {
        "gpt": "openai",
        "claude": "anthropic",
        "grok": "xai",
        "j-openai": "openai",
        "j-anthropic": "anthropic",
        "j-xai": "xai",
    }
    rows = []
    for contestant, by_judge in grid.items():
        for judge, score in by_judge.items():
            rows.append(
                {
                    "contestant_id": contestant,
                    "contestant_label": contestant.upper(),
                    "contestant_family": family[contestant],
                    "judge_id": judge,
                    "judge_family": family[judge],
                    "repeat": 0,
                    "composite": score,
                    "reasoning": score,
                    "evidence": score,
                    "process": score,
                    "outcome": None,
                    "data_reliability": 80,
                }
            )
    return pd.DataFrame(rows)


def test_seed_002_table_is_judge_minus_panel_median() -> None:
    result = self_preference(_three_contestant_panel())
    judges = _by_judge(result)
    # medians: gpt 81, claude 76, grok 63
    openai = judges["j-openai"]
    assert openai.own_vs_consensus == pytest.approx(83 - 81)
    assert openai.others_vs_consensus == pytest.approx(((76 - 76) + (63 - 63)) / 2)
    assert openai.gap == pytest.approx(2.0)
    xai = judges["j-xai"]
    assert xai.own_vs_consensus == pytest.approx(82 - 63)
    assert xai.others_vs_consensus == pytest.approx(((57 - 81) + (83 - 76)) / 2)
    assert xai.gap == pytest.approx(19 - (-8.5))
    # leave-one-out for xai: own grok 82 - mean(63, 59) = 21; gpt: neutral reference excludes j-openai -> 57 - 81;
    # claude: excludes j-anthropic -> 83 - 76
    assert xai.loo_own == pytest.approx(21.0)
    assert xai.loo_others == pytest.approx(((57 - 81) + (83 - 76)) / 2)


def test_one_own_family_contestant_gets_a_plain_words_caveat_and_no_flag() -> None:
    result = self_preference(_three_contestant_panel())
    assert not any(j.flagged for j in result.judges)
    text = " ".join(result.caveats)
    assert "single observation" in text
    assert "cannot reach significance" in text
    for judge in result.judges:
        assert judge.min_attainable_p == pytest.approx(1 / 3)
        assert judge.note.startswith("Cannot be tested at this size")


def test_power_is_judged_after_the_holm_adjustment() -> None:
    """7 contestants (openai 2, anthropic 2, xai 1, google 2): a raw p of 1/21 < 0.05 is attainable for the openai
    and anthropic judges, but Holm over 3 judges of (1/21, 1/21, 1/7) is at least 1/7 for every judge, so even a
    +20 planted bias cannot be flagged, and the report must not say "no significant self-preference"."""
    families = {
        "o1": "openai",
        "o2": "openai",
        "a1": "anthropic",
        "a2": "anthropic",
        "x1": "xai",
        "g1": "google",
        "g2": "google",
    }
    judges = {"j-openai": "openai", "j-anthropic": "anthropic", "j-xai": "xai"}
    rng = np.random.default_rng(0)
    rows = []
    for c, fam in families.items():
        base = 60 + rng.normal(0, 3)
        for j, jf in judges.items():
            score = base + (20 if j == "j-openai" and fam == "openai" else 0)
            rows.append(
                {
                    "contestant_id": c,
                    "contestant_label": c,
                    "contestant_family": fam,
                    "judge_id": j,
                    "judge_family": jf,
                    "repeat": 0,
                    "composite": score,
                    "reasoning": score,
                    "evidence": score,
                    "process": score,
                    "outcome": None,
                    "data_reliability": 80,
                }
            )
    result = self_preference(pd.DataFrame(rows))
    by = _by_judge(result)
    assert by["j-openai"].p_value == pytest.approx(1 / 21)  # the most extreme assignment
    assert by["j-openai"].p_value_holm == pytest.approx(1 / 7)
    assert not by["j-openai"].flagged
    for judge in result.judges:
        assert judge.note.startswith("Cannot be tested at this size"), judge.note
        assert "No significant" not in judge.note
    assert any("after the Holm adjustment over 3 judge(s) at least 0.14" in c for c in result.caveats)


def test_judge_without_own_family_contestants_is_reported_as_such() -> None:
    scores = panel_scores(families=("openai", "anthropic", "google"), seed=2)
    judges = _by_judge(self_preference(scores))
    xai = judges["judge-xai"]
    assert xai.n_own == 0
    assert xai.p_value is None and xai.gap is None and not xai.flagged
    assert "cannot be measured" in xai.note


def test_monte_carlo_test_is_seeded_and_agrees_with_exact_enumeration() -> None:
    scores = panel_scores(seed=4, n_per_family=5, bias={"judge-openai": 4.0})  # C(20, 5) = 15504 assignments
    exact = _by_judge(self_preference(scores, n_permutations=20_000))["judge-openai"]
    mc_a = _by_judge(self_preference(scores, n_permutations=5_000, seed=9))["judge-openai"]
    mc_b = _by_judge(self_preference(scores, n_permutations=5_000, seed=9))["judge-openai"]
    assert exact.permutation_method == "exact"
    assert mc_a.permutation_method == "monte-carlo"
    assert mc_a.p_value == mc_b.p_value
    assert mc_a.p_value == pytest.approx(exact.p_value, abs=0.01)


def test_single_judge_and_empty_run_do_not_crash() -> None:
    one = panel_scores(judges=(JUDGES[0],))
    result = self_preference(one)
    assert any("Only one judge" in c for c in result.caveats)
    assert all(j.p_value is None for j in result.judges)
    empty = self_preference(panel_scores().iloc[0:0])
    assert empty.judges == [] and empty.caveats


def test_consensus_points_cover_every_main_run_grade() -> None:
    scores = panel_scores(repeats=3)
    result = self_preference(scores)
    assert len(result.points) == 12 * 3
    own = [p for p in result.points if p.own_family]
    assert len(own) == 9  # 3 judges x 3 own-family contestants
    assert np.isfinite([p.consensus for p in result.points]).all()
