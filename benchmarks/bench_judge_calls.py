"""Benchmark: 150 judge calls at 1 s fake latency, concurrency 16, through the real OpenAI SDK.

The fake provider runs as a standalone process (``python -m grader.fakes``); the orchestrator records every
attempt in a fresh SQLite database, exactly as a run does. Bar: wall time within 10% of the ideal bound
ceil(calls / concurrency) × latency.
"""

from __future__ import annotations

import asyncio
import json
import math
import subprocess
import sys
import tempfile
import time

from grader.judges import JudgeSpec, make_judge
from grader.panel import PanelConfig
from grader.panel._runner import CallRunner, Task
from grader.prompts import JudgePrompt
from grader.storage import ContestantRow, PromptRow, RunRow, SeasonRow, session_scope

CALLS, CONCURRENCY, LATENCY = 150, 16, 1.0


def main() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "grader.fakes", "--provider", "openai", "--latency", str(LATENCY)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        ready = json.loads(proc.stdout.readline())
        spec = JudgeSpec(
            judge_id="bench",
            provider="openai",
            model="bench-model",
            family="openai",
            base_url=ready["base_url"],
            timeout_s=30,
        )
        panel = PanelConfig(name="bench", kind="mock", judges=[spec], concurrency={"openai": CONCURRENCY})
        db = f"sqlite:///{tempfile.mkdtemp()}/bench.db"
        schema = {
            "type": "object",
            "properties": {"score": {"type": "integer"}},
            "required": ["score"],
            "additionalProperties": False,
        }
        with session_scope(db) as s:
            from datetime import date

            season = SeasonRow(
                season_key="bench",
                content_hash="0" * 64,
                name="bench",
                start=date(2022, 1, 3),
                end=date(2022, 1, 3),
                benchmark="SP500",
                source_path="",
                info={},
                file_hashes={},
            )
            s.add(season)
            s.flush()
            c = ContestantRow(season_id=season.id, contestant_key="c", display_name="c", provider_family="x", model="m")
            s.add(c)
            s.flush()
            s.add(
                RunRow(
                    id="bench",
                    season_id=season.id,
                    run_type="mock",
                    rubric_id="r",
                    rubric_hash="r",
                    judge_facing_hash="r",
                    panel_name="bench",
                    panel_hash="p",
                )
            )
            tasks = []
            for i in range(CALLS):
                p = JudgePrompt("c", "A", "system", f"prompt {i}", [], 10, 10, 0)
                s.add(PromptRow(sha256=p.sha256, system=p.system, user=p.user, token_estimate=10))
                tasks.append(Task(spec, "c", c.id, p, 0, f"{i:064d}"))

        async def go() -> float:
            judge = make_judge(spec, allow_real_api_calls=False)
            await judge.call("warm-up", "warm-up", schema, "warm_up")  # the SDK builds its models once
            runner = CallRunner(
                db,
                "bench",
                panel,
                {"bench": judge},
                schema,
                lambda parsed, raw: (parsed, []) if parsed else (None, ["no json"]),
            )
            start = time.perf_counter()
            await runner.run_all(tasks, lambda r: None)
            wall = time.perf_counter() - start
            await judge.aclose()
            assert runner.stats.calls_sent == CALLS, runner.stats  # every call really went out
            return wall

        wall = asyncio.run(go())
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    ideal = math.ceil(CALLS / CONCURRENCY) * LATENCY
    print(f"judge calls: {CALLS} at {LATENCY:.1f} s fake latency, concurrency {CONCURRENCY}")
    print(
        f"  wall {wall:.2f} s; ideal bound ceil({CALLS}/{CONCURRENCY}) × {LATENCY:.0f} s = {ideal:.2f} s; overhead {100 * (wall / ideal - 1):+.1f}% "
        f"({'within' if wall <= ideal * 1.10 else 'OUTSIDE'} the 10% bar)"
    )


if __name__ == "__main__":
    main()
