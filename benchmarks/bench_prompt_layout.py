"""Benchmark: what a judge prompt is made of, and what a season re-grade costs at list price.

1. The real June 2026 CapitalBench season (weekly track, committed as seasons/cb-2026-06-1w, or SEASON_DIR): tokens
   per contestant, the share of all prompt tokens a provider's prompt cache can serve (each prompt's longest start
   in common with a prompt sent before it), and the size against a naive dump. (Since issue 32 a record names each
   round's briefing instead of sharing it in full: the records are far smaller and the shared part is a small share
   of them; benchmarks/bench_record_size.py prints sizes by horizon.)
2. A re-grade of that season with the frontier panel: every call in full, with the shared prefix cached, and
   through the providers' batch APIs with the cache.
3. A re-grade of the demo season: naive synchronous calls (the naive dump, every call in full) against batch +
   cached prefix (the compact prompts, the batch price, the shared prefix cached) — #18's bar: <= 30%.

Token counts are estimates (four characters a token) so that sizes compare like with like; the cl100k_base count
(the one encoding that ships offline) is printed beside them.
Output is assumed at 2,000 tokens a grade (a run's cost table reports the judges' own). Anthropic caches only up to
its breakpoints (after the instructions; after the part of the record shared with other records); OpenAI and xAI
cache the longest prefix they have seen by themselves.

Run: .venv/bin/python benchmarks/bench_prompt_layout.py [SEASON_DIR]
"""

from __future__ import annotations

import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
OUT_TOKENS = 2_000


def _prompts(season: Path):
    from grader.panel._prompts import judge_prompts
    from grader.season import load_bundle
    from rubric import load_rubric

    bundle = load_bundle(season)
    *_, prompts = judge_prompts(bundle, load_rubric("v0.4"))
    return bundle, list(prompts.values())


def cached_tokens(prompts, provider: str) -> list[tuple[int, int]]:
    """(cached, written) tokens of each prompt sent in order to one judge."""
    out = []
    if provider == "anthropic":  # explicit breakpoints: the instructions, then the shared part of the record
        seen: set[str] = set()
        for p in prompts:
            marks = [p.system, p.system + "\0" + p.user[: p.shared_chars]] if p.shared_chars else [p.system]
            read = max((len(m) // 4 for m in marks if m in seen), default=0)
            seen.update(marks)
            out.append((read, len(marks[-1]) // 4 - read))
        return out
    texts = [p.system + "\0" + p.user for p in prompts]  # automatic: the longest start seen before
    for k, text in enumerate(texts):
        common = max((len(os.path.commonprefix([text, texts[j]])) for j in range(k)), default=0)
        out.append((common // 4 if common // 4 >= 1024 else 0, 0))
    return out


def main() -> int:
    from grader.panel._config import load_panel

    season = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "seasons" / "cb-2026-06-1w"
    bundle, ps = _prompts(season)
    total = [p.token_estimate for p in ps]
    naive = [p.naive_token_estimate for p in ps]
    auto = cached_tokens(ps, "openai")
    print(f"{bundle.info.id}: {len(ps)} contestants, {len(bundle.decisions)} decisions")
    print(
        f"prompt tokens per contestant: median {statistics.median(total):,.0f} (min {min(total):,}, max "
        f"{max(total):,}); naive dump median {statistics.median(naive):,.0f}; compact = "
        f"{statistics.median(t / n for t, n in zip(total, naive, strict=True)):.0%} of naive (goal <= 50%)"
    )
    from grader.prompts import TOKENIZER

    counted = [p.counted_tokens for p in ps]
    print(
        f"counted with {TOKENIZER} (offline; exact for GPT-4-family models, an estimate for the panel's): median "
        f"{statistics.median(counted):,.0f} tokens, {statistics.median(c / t for c, t in zip(counted, total, strict=True)):.2f}"
        " x the four-characters estimate"
    )
    print(
        f"shared prefix a cache can serve (instructions, season header, what a record leaves out): "
        f"{sum(c for c, _ in auto) / sum(total):.1%} of all prompt tokens"
    )
    panel = load_panel("frontier")
    for judge in panel.judges:
        pr = judge.pricing
        split = cached_tokens(ps, judge.provider)
        full = sum(pr.cost_usd(t, OUT_TOKENS) for t in total)
        cached = sum(pr.cost_usd(t, OUT_TOKENS, c, w) for t, (c, w) in zip(total, split, strict=True))
        batch = sum(pr.cost_usd(t, OUT_TOKENS, c, w, batch=True) for t, (c, w) in zip(total, split, strict=True))
        print(
            f"  re-grade with {judge.judge_id}: ${full:,.2f} every call in full; ${cached:,.2f} with the shared "
            f"prefix cached ({cached / full:.0%}); ${batch:,.2f} through the batch API with the cache "
            f"({batch / full:.0%})"
        )

    demo, dps = _prompts(ROOT / "seasons" / "demo-2022q1")
    print(
        f"{demo.info.id} re-grade with the frontier panel: naive synchronous calls (naive dump, every call in full) "
        "vs batch + cached prefix (compact prompts):"
    )
    naive_all = batch_all = 0.0
    for judge in panel.judges:
        pr = judge.pricing
        naive_usd = sum(pr.cost_usd(p.naive_token_estimate, OUT_TOKENS) for p in dps)
        split = cached_tokens(dps, judge.provider)
        batch_usd = sum(
            pr.cost_usd(p.token_estimate, OUT_TOKENS, c, w, batch=True) for p, (c, w) in zip(dps, split, strict=True)
        )
        naive_all, batch_all = naive_all + naive_usd, batch_all + batch_usd
        print(
            f"  {judge.judge_id}: ${naive_usd:,.3f} naive vs ${batch_usd:,.3f} batch + cache = "
            f"{batch_usd / naive_usd:.0%}"
        )
    print(f"  panel: ${naive_all:,.3f} vs ${batch_all:,.3f} = {batch_all / naive_all:.0%} of naive (goal <= 30%)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
