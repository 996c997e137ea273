"""inspect_ai's side of ``bench_rate_limits.py``: one ``generate()`` per prompt of a JSON file ([[system, user], ...]),
``--max-connections`` at once, against an OpenAI-compatible base URL (the bench's fake). Prints one JSON line:
wall seconds of ``eval`` and its status. Runs in whatever Python has inspect_ai installed (not this project's
dependency): ``GRADER_BENCH_INSPECT_PYTHON=/path/to/python``.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("prompts")
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--max-connections", type=int, default=32)
    parser.add_argument("--max-tokens", type=int, default=4096)
    args = parser.parse_args()
    from inspect_ai import Task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import ChatMessageSystem, ChatMessageUser
    from inspect_ai.solver import generate

    with open(args.prompts) as handle:
        prompts = json.load(handle)
    samples = [
        Sample(input=[ChatMessageSystem(content=system), ChatMessageUser(content=user)], id=k)
        for k, (system, user) in enumerate(prompts)
    ]
    task = Task(dataset=samples, solver=generate())
    start = time.perf_counter()
    logs = inspect_eval(
        task,
        model="openai/mock-gpt",
        model_base_url=args.base_url,
        max_connections=args.max_connections,
        max_tokens=args.max_tokens,
        log_dir=tempfile.mkdtemp(prefix="inspect-bench-"),
        display="none",
    )
    seconds = time.perf_counter() - start
    log = logs[0]
    errors = sum(1 for s in (log.samples or []) if s.error is not None)
    print(json.dumps({"seconds": seconds, "status": log.status, "samples": len(log.samples or []), "errors": errors}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
