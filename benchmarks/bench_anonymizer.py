"""The anonymizer and the leak guard: the sentence battery (written by sessions that never saw the rules; dev, dev2
and the held-out half) and the speed of scrubbing real rationales at scale. Run ``python benchmarks/bench_anonymizer.py``."""

from __future__ import annotations

import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from grader.anonymizer import Anonymizer, LeakGuard  # noqa: E402
from grader.season import load_bundle  # noqa: E402
from tests.anonymizer._battery import UNIVERSE, load, score  # noqa: E402


def main() -> None:
    symbols = [s for s, _ in UNIVERSE]
    for name in (
        "dev",
        "dev2",
        "dev3",
        "dev4",
        "holdout2",
        "holdout",
        "holdout3",
        "holdout4",
        "holdout5",
        "holdout6",
        "holdout7",
        "holdout8",
    ):
        result = score(load(name), lambda out, a: LeakGuard(a.provider_family, a.model, symbols).find(out))
        past = len(set(result.leaking) - set(result.refused))
        print(result.line(name) + f"; naming the author past both scrubber and guard {past}")
    bundle = load_bundle(REPO / "seasons" / "cb-2026-06-1w")
    anon = Anonymizer.for_season(bundle.info, bundle.contestants, "bench")
    texts = [d.rationale for d in bundle.decisions]
    n = 12_500
    batch = (texts * (n // len(texts) + 1))[:n]
    start = time.perf_counter()
    for t in batch:
        anon.scrub(t)
    took = time.perf_counter() - start
    mb = sum(len(t) for t in batch) / 1e6
    print(
        f"scrub {n} real CapitalBench rationales ({mb:.1f} MB, 50 contestants x 250 decisions' worth): {took:.2f} s "
        f"({1e3 * took / n:.2f} ms each)"
    )
    guards = {c.id: LeakGuard(c.provider_family, c.model, bundle.info.symbols()) for c in bundle.contestants}
    start = time.perf_counter()
    for d in (bundle.decisions * (n // len(bundle.decisions) + 1))[:n]:
        guards[d.contestant_id].find(d.rationale)
    print(f"leak guard over the same {n}: {time.perf_counter() - start:.2f} s")


if __name__ == "__main__":
    main()
