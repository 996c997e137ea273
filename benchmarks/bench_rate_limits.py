"""Benchmark: ``grader grade`` of 150 contestants under an emulated tokens-per-minute limit, against the limit's bound
(total tokens / TPM), with the count of 429s; and the same run without a limit against the ideal fan-out (#35).

- no limit: one mock judge at 1 s latency, concurrency 16, as ``bench_grade_fanout.py`` (whose run this reuses):
  ideal ceil(150 / 16) x 1 s = 10 s; goal <= 1.15 x.
- under a limit: the judge's fake enforces a TPM (input and output tokens together, OpenAI's kind of limit) over a
  sliding window of ``WINDOW_S`` seconds (the same limit per minute as a 60 s window, scaled so the run spans many
  windows), 429 with Retry-After past it and the x-ratelimit-* headers on every reply. The TPM is chosen from the
  no-limit run's token total so that the bound is ``BOUND_S``; concurrency 32, so tokens and not slots are the
  bottleneck. Measured twice: with the limit in the panel file (``rate_limits: {tpm: ...}``), and with no limit in
  the panel file (the pacer learns it from the headers). Goal: within 1.10 x the bound, a handful of 429s at most.
  "calls" is the first call to the last reply (what the limit governs); "end to end" adds the process's start-up
  and tail (prompts, storage, scores), a fixed cost of about two seconds here.
- inspect_ai (``benchmarks/inspect_rate_limited.py``: one ``generate()`` per prompt, the same prompts) against the
  same kind of fake, with and without the limit, printed beside when a Python with inspect_ai is at hand: this one,
  or ``GRADER_BENCH_INSPECT_PYTHON`` (it is not a dependency of this project).

Run: .venv/bin/python benchmarks/bench_rate_limits.py [--workdir DIR] [--runs N]
(with inspect_ai: GRADER_BENCH_INSPECT_PYTHON=/path/to/venv/bin/python .venv/bin/python benchmarks/...)
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_grade_fanout import CONTESTANTS, DAYS, LATENCY, floor, grade_once  # noqa: E402

BOUND_S, WINDOW_S, LIMITED_CONCURRENCY, FANOUT_CONCURRENCY = 20.0, 10.0, 32, 16


def panel_text(*, concurrency: int, fake_tpm: int | None = None, judge_tpm: int | None = None) -> str:
    limits = f"\n  provider_limits: {{mock-openai: {{tpm: {fake_tpm}, window_s: {WINDOW_S}}}}}" if fake_tpm else ""
    judge_limits = f", rate_limits: {{tpm: {judge_tpm}}}" if judge_tpm else ""
    return f"""name: bench-rate-limits
kind: mock
description: MOCK panel for the rate-limit benchmark (one judge, {LATENCY:g} s latency)
concurrency: {{openai: {concurrency}}}
retry: {{max_attempts: 2, base_delay_s: 0.05, max_delay_s: 5.0}}
mock:
  seed: 7
  noise_sd: 4.0
  latency_s: {LATENCY}{limits}
judges:
  - {{judge_id: mock-openai, provider: openai, model: mock-gpt, family: openai, timeout_s: 30, max_output_tokens: 4096,
     pricing: {{input_per_mtok: 0.0, output_per_mtok: 0.0}}{judge_limits}}}
"""


def call_figures(db: Path) -> dict[str, float]:
    """Tokens the fake counted (input and output of every answered call) and the 429s, from the run's call rows."""
    from sqlalchemy import func, select

    from grader.storage import JudgeCallRow, session_scope

    with session_scope(f"sqlite:///{db}") as s:
        tokens = (
            s.scalar(
                select(func.sum(JudgeCallRow.input_tokens + JudgeCallRow.output_tokens)).where(
                    JudgeCallRow.status == "ok"
                )
            )
            or 0
        )
        refused = (
            s.scalar(select(func.count()).select_from(JudgeCallRow).where(JudgeCallRow.error_kind == "rate_limited"))
            or 0
        )
        calls = s.scalar(select(func.count()).select_from(JudgeCallRow)) or 0
    return {"tokens": float(tokens), "429s": float(refused), "rows": float(calls)}


def inspect_python() -> str | None:
    """A Python with inspect_ai: this one, or ``GRADER_BENCH_INSPECT_PYTHON`` (it is not this project's dependency)."""
    if importlib.util.find_spec("inspect_ai") is not None:
        return sys.executable
    return os.environ.get("GRADER_BENCH_INSPECT_PYTHON") or None


def inspect_ai_run(python: str, prompts: Path, *, connections: int, tpm: int | None) -> dict[str, float]:
    """inspect_ai's eval of the same prompts against the same kind of fake (1 s latency, 800 output tokens a reply,
    the TPM limit over the same window when given): wall seconds, the calls (first request to last reply) and 429s."""
    from grader.fakes import FakeLimits, FakeOpenAI, FakeReply, always

    limits = FakeLimits(tpm=tpm, window_s=WINDOW_S) if tpm else None
    script = always(FakeReply.ok({"score": 7}, output_tokens=800))
    with FakeOpenAI(script=script, latency_s=LATENCY, limits=limits, require_strict_schema=False) as fake:
        done = subprocess.run(
            [
                python,
                str(ROOT / "benchmarks" / "inspect_rate_limited.py"),
                str(prompts),
                "--base-url",
                fake.base_url,
                "--max-connections",
                str(connections),
            ],
            env={**os.environ, "OPENAI_API_KEY": "sk-bench"},
            capture_output=True,
            text=True,
        )
        requests = fake.requests
        refused = fake.limits.refused if fake.limits is not None else 0
    if done.returncode != 0:
        raise SystemExit(f"inspect_ai failed ({done.returncode}):\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    first = min(r.received_at for r in requests)
    calls = max(r.received_at for r in requests) + LATENCY - first
    return {
        "total": result["seconds"],
        "calls": calls,
        "429s": float(refused),
        "requests": float(len(requests)),
        "errors": float(result["errors"]),
    }


def export_prompts(db: Path, out: Path) -> Path:
    from sqlalchemy import select

    from grader.storage import PromptRow, session_scope

    with session_scope(f"sqlite:///{db}") as s:
        out.write_text(json.dumps([[p.system, p.user] for p in s.scalars(select(PromptRow))]))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.mkdtemp(prefix="grader-ratelimits-")))
    parser.add_argument("--runs", type=int, default=1, help="measurements of each (the median is the figure)")
    args = parser.parse_args()
    from grader.demo import build_synthetic_season

    season = args.workdir / f"season-{CONTESTANTS}x{DAYS}"
    if not (season / "decisions.jsonl").exists():
        build_synthetic_season(season, n_contestants=CONTESTANTS, n_days=DAYS, seed=0)
    runs = max(1, args.runs)

    free = args.workdir / "free.yaml"
    free.write_text(panel_text(concurrency=FANOUT_CONCURRENCY))
    ideal = math.ceil(CONTESTANTS / FANOUT_CONCURRENCY) * LATENCY
    fanout, floors = [], []
    for k in range(runs):
        floors.append(asyncio.run(floor()))
        fanout.append(grade_once(season, free, args.workdir / f"free-{k}.db"))
    tokens = call_figures(args.workdir / "free-0.db")["tokens"]
    tpm = int(math.ceil(tokens * 60 / BOUND_S))
    bound = tokens * 60 / tpm

    shapes = {
        "limit in the panel file": panel_text(concurrency=LIMITED_CONCURRENCY, fake_tpm=tpm, judge_tpm=tpm),
        "limit learned from headers": panel_text(concurrency=LIMITED_CONCURRENCY, fake_tpm=tpm),
    }
    measured: dict[str, list[tuple[dict[str, float], dict[str, float]]]] = {}
    for name, text in shapes.items():
        panel = args.workdir / f"{name.split()[1]}.yaml"
        panel.write_text(text)
        for k in range(runs):
            db = args.workdir / f"{name.split()[1]}-{k}.db"
            timing = grade_once(season, panel, db)
            measured.setdefault(name, []).append((timing, call_figures(db)))

    def med(values: list[float]) -> float:
        return statistics.median(values)

    total = [g["total"] for g in fanout]
    load = os.getloadavg()[0]
    print(
        f"{CONTESTANTS} contestants x {DAYS} days, one mock judge at {LATENCY:g} s latency; median of {runs} run(s); "
        f"load average {load:.1f} on {os.cpu_count()} cores (figures stretch with it)"
    )
    print(
        f"no limit, concurrency {FANOUT_CONCURRENCY}: ideal {ideal:.1f} s; floor (bare asyncio + SDK) "
        f"{med(floors):.2f} s = {med(floors) / ideal:.2f} x; grader grade end to end {med(total):.2f} s = "
        f"{med(total) / ideal:.2f} x ideal (goal <= 1.15 x), calls {med([g['calls'] for g in fanout]):.2f} s"
    )
    print(
        f"under a TPM limit of {tpm:,} (window {WINDOW_S:g} s), concurrency {LIMITED_CONCURRENCY}: "
        f"{tokens:,.0f} tokens -> bound {bound:.2f} s"
    )
    for name, rows in measured.items():
        calls = med([t["calls"] for t, _ in rows])
        end = med([t["total"] for t, _ in rows])
        refused = [int(f["429s"]) for _, f in rows]
        print(
            f"  {name:27s}: calls {calls:6.2f} s = {calls / bound:.3f} x bound (goal <= 1.10 x); end to end "
            f"{end:6.2f} s = {end / bound:.3f} x; 429s {refused} (goal: a handful at most)"
        )
    python = inspect_python()
    if python is None:
        print(
            "inspect_ai: not installed here (not a dependency of this project; point GRADER_BENCH_INSPECT_PYTHON at "
            "a Python that has it): not measured"
        )
        return 0
    prompts = export_prompts(args.workdir / "free-0.db", args.workdir / "prompts.json")
    free_inspect = [inspect_ai_run(python, prompts, connections=FANOUT_CONCURRENCY, tpm=None) for _ in range(runs)]
    limited_inspect = [inspect_ai_run(python, prompts, connections=LIMITED_CONCURRENCY, tpm=tpm) for _ in range(runs)]
    free_total = med([r["total"] for r in free_inspect])
    print(
        f"inspect_ai, same prompts, same kind of fake: no limit, {FANOUT_CONCURRENCY} connections: eval "
        f"{free_total:.2f} s = {free_total / ideal:.2f} x ideal, calls {med([r['calls'] for r in free_inspect]):.2f} s"
    )
    calls = med([r["calls"] for r in limited_inspect])
    end = med([r["total"] for r in limited_inspect])
    print(
        f"  under the TPM limit, {LIMITED_CONCURRENCY} connections: calls {calls:6.2f} s = {calls / bound:.3f} x bound; "
        f"eval {end:6.2f} s = {end / bound:.3f} x; 429s {[int(r['429s']) for r in limited_inspect]}; "
        f"requests {[int(r['requests']) for r in limited_inspect]}, samples in error "
        f"{[int(r['errors']) for r in limited_inspect]}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
