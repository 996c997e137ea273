"""Benchmark: what a judge prompt is made of on the real June 2026 CapitalBench season (weekly track, committed
as seasons/cb-2026-06-1w): tokens per contestant, the share that is a prefix shared by every contestant (what a
provider's prompt cache can serve), and the size against a naive dump. Token counts are estimates (four
characters a token: no tokenizer ships its encodings offline for every provider).

Run: .venv/bin/python benchmarks/bench_prompt_layout.py [SEASON_DIR]
"""

from __future__ import annotations

import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def shared_prefix(texts: list[str]) -> int:
    """Characters every text starts with."""
    return len(os.path.commonprefix(texts))


def main() -> int:
    from grader.panel._grade import judge_prompts
    from grader.season import load_bundle
    from rubric import load_rubric

    season = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "seasons" / "cb-2026-06-1w"
    bundle = load_bundle(season)
    *_, prompts = judge_prompts(bundle, load_rubric("v0.4"))
    ps = list(prompts.values())
    total = [p.token_estimate for p in ps]
    naive = [p.naive_token_estimate for p in ps]
    # what a prompt cache can serve: each prompt's longest prefix in common with a prompt sent before it
    texts = [p.system + "\0" + p.user for p in ps]
    cached = [0] + [max(shared_prefix([texts[k], texts[j]]) for j in range(k)) // 4 for k in range(1, len(texts))]
    prefix_tokens = round(statistics.mean(cached[1:])) if len(cached) > 1 else 0
    print(f"{bundle.info.id}: {len(ps)} contestants, {len(bundle.decisions)} decisions")
    print(f"prompt tokens per contestant: median {statistics.median(total):,.0f} (min {min(total):,}, max "
          f"{max(total):,}); naive dump median {statistics.median(naive):,.0f}; compact = "
          f"{statistics.median(t / n for t, n in zip(total, naive, strict=True)):.0%} of naive (goal <= 50%)")
    print(f"cacheable prefix (each prompt's longest start in common with an earlier one: instructions, season "
          f"header, the briefings of the rounds in common): {sum(cached) / sum(total):.1%} of all prompt tokens, "
          f"mean {prefix_tokens:,} tokens a prompt after the first")
    # a season re-grade with the frontier panel at its list prices: every call at full price (synchronous, no
    # cache) against the same calls with the shared prefix read from the cache after each judge's first call
    from grader.panel._config import load_panel

    panel = load_panel("frontier")
    out_tokens = 2_000  # an assumed grade size (the judges' own output is what the run's cost table reports)
    for judge in panel.judges:
        pr = judge.pricing
        full = sum(pr.cost_usd(t, out_tokens) for t in total)
        if judge.provider == "anthropic":  # caches only up to its breakpoint: after the instructions
            system = len(ps[0].system) // 4
            with_cache = sum(pr.cost_usd(t, out_tokens, system if k else 0, 0 if k else system)
                             for k, t in enumerate(total))
        else:  # OpenAI and xAI cache the longest prefix seen before by themselves
            with_cache = sum(pr.cost_usd(t, out_tokens, cached[k]) for k, t in enumerate(total))
        print(f"re-grade with {judge.judge_id} at list price: ${full:,.2f} every call in full vs ${with_cache:,.2f} with "
              f"the shared prefix cached = {with_cache / full:.0%} (output assumed {out_tokens:,} tokens a grade; "
              "provider batch discounts not applied: batch submission is not built"
              + ("; Anthropic: only the instructions carry a cache breakpoint" if judge.provider == "anthropic"
                 else "") + ")")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
