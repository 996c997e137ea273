"""The bundle fuzzer at scale (issue 36): 10,000 generated bundles (tests/season/_fuzz.py) and 2,000 generated
rubric files. Prints how many were refused cleanly, how many validated (those drawn from the gentle strategy are
also graded by the reference panel and reported), and every traceback (none is the bar).
Run ``python benchmarks/bench_fuzz_bundles.py [N_BUNDLES]``."""

from __future__ import annotations

import sys
import time
import traceback
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402

from tests.season._fuzz import (  # noqa: E402
    bundles,
    check_bundle,
    check_rubric,
    gentle_bundles,
    rubric_mutations,
)


def _run(strategy, n: int, check, counts: Counter, failures: list) -> None:  # noqa: ANN001
    @settings(
        max_examples=n, deadline=None, database=None, phases=[Phase.generate], suppress_health_check=list(HealthCheck)
    )
    @given(strategy)
    def one(example) -> None:  # noqa: ANN001
        try:
            counts[check(example)] += 1
        except Exception:  # noqa: BLE001 - counted and printed: a traceback is the failure this bench looks for
            counts["traceback"] += 1
            failures.append((example, traceback.format_exc()))

    one()


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    graded = max(1, n // 50)
    rubric_text = (REPO / "rubric" / "versions" / "v0.4.yaml").read_text(encoding="utf-8")
    results: dict[str, Counter] = {}
    failures: list = []
    start = time.perf_counter()
    for name, strategy, count, check in (
        ("bundles (any mutation)", bundles, n - graded, lambda b: check_bundle(*b)),
        (
            "bundles (gentle mutations, graded and reported when valid)",
            gentle_bundles,
            graded,
            lambda b: check_bundle(*b, grade=True),
        ),
        ("rubric files", rubric_mutations(), max(1, n // 5), lambda ops: check_rubric(rubric_text, ops)),
    ):
        t0 = time.perf_counter()
        results[name] = Counter()
        _run(strategy, count, check, results[name], failures)
        c = results[name]
        print(
            f"{name}: {sum(c.values()):,} generated — {c['refused']:,} refused cleanly, {c['valid']:,} valid, "
            f"{c['traceback']:,} tracebacks ({time.perf_counter() - t0:.0f} s)",
            flush=True,
        )
    bundles_total = sum(sum(results[k].values()) for k in results if k.startswith("bundles"))
    tracebacks = sum(c["traceback"] for c in results.values())
    print(
        f"total: {bundles_total:,} bundles and {sum(results['rubric files'].values()):,} rubric files, "
        f"{tracebacks} tracebacks, {time.perf_counter() - start:.0f} s"
    )
    seen: set[str] = set()
    for example, tb in failures:
        last = tb.strip().splitlines()[-1]
        if last not in seen:
            seen.add(last)
            print("---- traceback for", repr(example)[:800])
            print(tb)
    if tracebacks:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
