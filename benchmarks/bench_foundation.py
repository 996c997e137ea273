"""Benchmark: load, validate and replay a generated 50-contestant × 250-day season (bar: under 5 s); then, apart,
PortBench's risk evidence of every decision (VaR, correlation score, baselines, stress windows)."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from grader.demo import build_synthetic_season
from grader.replay import replay_season
from grader.risk import season_risk_facts
from grader.season import load_bundle


def main() -> None:
    out = Path(tempfile.mkdtemp()) / "synthetic"
    t0 = time.perf_counter()
    built = build_synthetic_season(out, n_contestants=50, n_days=250, seed=0)
    t1 = time.perf_counter()
    bundle = load_bundle(out)
    t2 = time.perf_counter()
    store = bundle.store
    for symbol in store.symbols:  # fields are derived per symbol when first asked for: ask for all of them
        store.fields(symbol)
    t3 = time.perf_counter()
    replays = replay_season(bundle)
    t4 = time.perf_counter()
    print(
        f"season: {built.n_contestants} contestants × {built.n_days} days, {built.n_decisions} decisions, "
        f"{built.n_trades} trades (generated in {t1 - t0:.2f} s)"
    )
    print(
        f"  load + validate {t2 - t1:.2f} s; point-in-time store (every symbol's fields derived) {t3 - t2:.2f} s; replay {t4 - t3:.2f} s "
        f"({len(replays)} contestants)"
    )
    total = t4 - t1
    print(f"  total {total:.2f} s ({'within' if total < 5 else 'OVER'} the 5 s bar)")
    t5 = time.perf_counter()
    risk = season_risk_facts(bundle, replays)
    t6 = time.perf_counter()
    n = sum(len(r.decisions) for r in risk.values())
    computed = sum(d.var_1d is not None for r in risk.values() for d in r.decisions)
    print(
        f"  risk evidence (VaR, correlation score, baselines, stress windows): {t6 - t5:.2f} s for {n} decisions "
        f"({computed} with VaR; {(t6 - t5) / n * 1e3:.2f} ms per decision)"
    )


if __name__ == "__main__":
    main()
