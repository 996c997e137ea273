"""Benchmark: re-score a synthetic 50-contestant x 3-judge season from stored grades (bar: < 1 s).

Pure compute, no judge calls and no database: the grades are synthetic JSON dicts (never a judge's
output), each with a 20-claim ledger, and every contestant has 250 decision timings. Measured:
validating the stored JSON into grade models, and ``score_run`` under v0.4 and under a weights-only
variant of it (the ``grader rescore`` path when the judge-facing hash is unchanged).

Run: .venv/bin/python benchmarks/bench_rescore.py
"""

from __future__ import annotations

import random
import statistics
import time

from grader.scoring import score_run
from rubric import grade_model_for, load_rubric, rubric_from_mapping, synthetic_grade

CONTESTANTS = 50
JUDGES = ("openai", "anthropic", "xai")
DECISIONS = 250
REPEATS = 7
BAR_SECONDS = 1.0


def synthetic_season(rubric, seed: int = 7) -> tuple[dict, dict]:
    rng = random.Random(seed)
    grades: dict[str, dict[str, dict]] = {}
    timings: dict[str, list[float | None]] = {}
    for c in range(CONTESTANTS):
        contestant = f"contestant-{c:02d}"
        level = rng.randint(30, 90)
        grades[contestant] = {}
        for judge in JUDGES:

            def jitter(level: int = level) -> int:
                return max(0, min(100, level + rng.randint(-15, 15)))

            claims = [
                {
                    "claim": f"synthetic claim {k}",
                    "decision_date": f"2022-01-{1 + k % 28:02d}",
                    "symbol": "AAA",
                    "cited_fields": ["peRatio", "close"],
                    "status": rng.choice(["supported", "not_verifiable", "contradicted"]),
                    "note": "synthetic",
                }
                for k in range(20)
            ]
            grades[contestant][judge] = synthetic_grade(
                rubric,
                reasoning={i: jitter() for i in rubric.axes.reasoning.ids()},
                evidence={i: jitter() for i in rubric.axes.evidence.ids()},
                outcome=jitter(),
                data_reliability=jitter(),
                claims=claims,
            )
        if c % 10 == 9:  # every tenth contestant lost one judge's grade: 2 of 3, flagged
            grades[contestant]["xai"] = None
        timings[contestant] = (
            [] if c % 17 == 16 else [rng.uniform(2, 60) if rng.random() > 0.02 else None for _ in range(DECISIONS)]
        )
    return grades, timings


def timed(fn) -> tuple[float, object]:
    runs, result = [], None
    for _ in range(REPEATS):
        start = time.perf_counter()
        result = fn()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs), result


def main() -> None:
    v04 = load_rubric("v0.4")
    data = v04.model_dump(mode="json")
    data["id"] = "bench_weights_only_variant"
    data["composite"] = {"reasoning": 30, "evidence": 45, "process": 15, "outcome": 10}
    variant = rubric_from_mapping(data)
    assert variant.judge_facing_hash == v04.judge_facing_hash, "variant must be score-only"

    grades, timings = synthetic_season(v04)
    model = grade_model_for(v04)

    def validate() -> dict:
        return {
            c: {j: None if g is None else model.model_validate(g) for j, g in by.items()} for c, by in grades.items()
        }

    t_validate, _ = timed(validate)
    t_v04, base = timed(lambda: score_run(grades, v04, timings, outcome_available=True))
    t_variant, rescored = timed(lambda: score_run(grades, variant, timings, outcome_available=True))
    t_full, _ = timed(lambda: score_run(validate(), variant, timings, outcome_available=True))

    moved = sum(
        1
        for a, b in zip(
            sorted(base, key=lambda s: s.contestant_id), sorted(rescored, key=lambda s: s.contestant_id), strict=True
        )
        if a.rank != b.rank
    )
    print(
        f"season: {CONTESTANTS} contestants x {len(JUDGES)} judges, {DECISIONS} timed decisions each "
        f"(synthetic grades, 20 claims each); median of {REPEATS} runs"
    )
    print(f"validate stored grades into models:        {t_validate * 1000:8.1f} ms")
    print(f"score_run under v0.4:                      {t_v04 * 1000:8.1f} ms")
    print(
        f"score_run under weights-only variant:      {t_variant * 1000:8.1f} ms  (judge calls: 0, "
        f"{moved} contestants changed rank)"
    )
    print(f"validate + score_run (full rescore path):  {t_full * 1000:8.1f} ms")
    verdict = "PASS" if t_full < BAR_SECONDS else "FAIL"
    print(f"bar: re-score < {BAR_SECONDS:.0f} s of compute -> {verdict} ({t_full:.3f} s)")


if __name__ == "__main__":
    main()
