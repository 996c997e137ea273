"""Live provider round trips (marker ``live``): never run by default (``addopts = -m 'not live'``).

Run deliberately with real keys in the environment:
    GRADER_ALLOW_REAL_API_CALLS=1 .venv/bin/python -m pytest -m live tests/live
Each test sends one small strict-schema request and checks a parsed reply; keys are read from the environment
by the judge and never printed.
"""

from __future__ import annotations

import asyncio
import os

import pytest

from grader.judges import JudgeSpec, make_judge

pytestmark = pytest.mark.live

SCHEMA = {
    "type": "object",
    "properties": {"score": {"type": "integer"}, "note": {"type": "string"}},
    "required": ["score", "note"],
    "additionalProperties": False,
}
CASES = [
    ("openai", "gpt-5", "OPENAI_API_KEY"),
    ("anthropic", "claude-sonnet-4-6", "ANTHROPIC_API_KEY"),
    ("xai", "grok-4.3", "XAI_API_KEY"),
]


@pytest.mark.parametrize(("provider", "model", "key_env"), CASES)
def test_live_round_trip(provider, model, key_env):
    if os.environ.get("GRADER_ALLOW_REAL_API_CALLS") != "1" or not os.environ.get(key_env):
        pytest.skip(f"set GRADER_ALLOW_REAL_API_CALLS=1 and {key_env} to call {provider}")
    spec = JudgeSpec(
        judge_id=f"live-{provider}",
        provider=provider,
        model=model,
        family=provider,
        timeout_s=120,
        max_output_tokens=512,
    )

    async def go():
        judge = make_judge(spec, allow_real_api_calls=True)
        try:
            return await judge.call(
                "Reply with JSON only.", "Score the number 7 out of 10 and explain in 3 words.", SCHEMA, "live_check"
            )
        finally:
            await judge.aclose()

    outcome = asyncio.run(go())
    assert outcome.ok, outcome.error_message
    assert isinstance(outcome.parsed["score"], int) and outcome.raw_reply
