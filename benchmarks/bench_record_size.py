"""Benchmark (issue 32): tokens per decision against horizon length, and per real season.

A whole record must grow with what the contestant wrote and did, not with the market tables, and fit every judge's
window with 15% left for the reply, up to 250 trading days x 20 contestants and a quarter of CapitalBench rounds
(PRODUCT.md, "Non-functional bars").

1. Synthetic daily seasons (``grader.demo`` synthetic: the demo strategies on generated prices) of 30, 60, 125 and 250
   days (20 contestants at 250 days, the bar; 7 below, one per strategy style): tokens per decision (cl100k_base,
   the offline count the context-window check uses), the largest record, its share of the naive dump.
2. Real seasons: the bundled ``seasons/cb-2026-06-1w``, and both CapitalBench tracks imported from the rounds in
   ``data/capitalbench/rounds`` (the 50-round slice the repository ships), or from the folder named by
   ``GRADER_TEST_CB_ROUNDS`` (a full copy of the public rounds: the whole three-month 1M track): the same.
3. For each: the share of each frontier judge's window left for the reply by the largest record, and of a 200,000-token
   window (the smallest a frontier judge has had).

Run: .venv/bin/python benchmarks/bench_record_size.py
     GRADER_TEST_CB_ROUNDS=/path/to/rounds .venv/bin/python benchmarks/bench_record_size.py  (the full public rounds)
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SMALLEST_WINDOW = 200_000
SLICE = ROOT / "data" / "capitalbench" / "rounds"


def measure(name: str, season: Path, panel) -> None:
    from grader.panel._prompts import judge_prompts
    from grader.season import load_bundle
    from rubric import load_rubric

    bundle = load_bundle(season)
    start = time.perf_counter()
    *_, prompts = judge_prompts(bundle, load_rubric("v0.4"), naive=True)
    seconds = time.perf_counter() - start
    n = {c.id: len(bundle.decisions_of(c.id)) for c in bundle.contestants}
    per_decision = [p.counted_tokens / max(1, n[cid]) for cid, p in prompts.items()]
    share = [p.token_estimate / max(1, p.naive_token_estimate) for p in prompts.values()]
    cid, largest = max(((cid, p.counted_tokens) for cid, p in prompts.items()), key=lambda kv: kv[1])
    windows = [(j.judge_id, j.context_window) for j in panel.judges if j.context_window]
    left = "; ".join(f"{judge} {1 - largest / w:.0%}" for judge, w in [*windows, ("200k", SMALLEST_WINDOW)])
    print(
        f"{name:<34} {len(prompts):>3} records {sum(n.values()):>5} decisions | tokens/decision median "
        f"{statistics.median(per_decision):>5,.0f} max {max(per_decision):>5,.0f} | largest record {largest:>7,} "
        f"({n[cid]} decisions) | of naive: max {max(share):.1%} | window left: {left} | built in {seconds:.1f} s"
    )


def main() -> int:
    from grader.adapters import import_capitalbench
    from grader.demo import build_synthetic_season
    from grader.panel._config import load_panel

    panel = load_panel("frontier")
    print(
        "Tokens per decision (cl100k_base) against horizon length; share of the naive dump at four characters a "
        "token; window left for the reply by the largest record"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for days in (30, 60, 125, 250):
            contestants = 20 if days == 250 else 7
            out = Path(tmp) / f"syn-{days}"
            build_synthetic_season(out, n_contestants=contestants, n_days=days, seed=0)
            measure(f"synthetic {contestants} x {days} days", out, panel)
        measure("cb-2026-06-1w (bundled)", ROOT / "seasons" / "cb-2026-06-1w", panel)
        named = os.environ.get("GRADER_TEST_CB_ROUNDS")
        rounds = Path(named) if named else SLICE
        for track in ("1W", "1M"):
            out = Path(tmp) / f"cb-{track}"
            import_capitalbench(rounds, track, None, None, out)
            measure(f"CapitalBench {track} ({'GRADER_TEST_CB_ROUNDS' if named else 'slice in data/'})", out, panel)
        if not named:
            print(
                "(the CapitalBench tracks above are the slice in data/; GRADER_TEST_CB_ROUNDS=/path/to/rounds "
                "measures them on the full public rounds)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
