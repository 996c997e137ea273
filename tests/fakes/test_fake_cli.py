"""`python -m grader.fakes` serves one provider as a standalone process (what the benchmarks start)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import grpc
import openai
import pytest
import xai_sdk
from xai_sdk.chat import user

from grader.fakes import main

REPO = Path(__file__).resolve().parents[2]
KEY = "sk-cli-SECRET-0b7e"


@contextmanager
def fake_process(*args: str) -> Iterator[dict]:
    process = subprocess.Popen(
        [sys.executable, "-m", "grader.fakes", *args],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        if not line:
            pytest.fail(f"fake did not start: {process.stderr.read() if process.stderr else ''}")
        ready = json.loads(line)
        assert ready["event"] == "ready"
        yield {"ready": ready, "process": process}
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            out, err = process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
        assert process.returncode == 0, err
        assert KEY not in out and KEY not in err


def test_openai_fake_process_with_a_storm() -> None:
    with fake_process(
        "--provider", "openai", "--port", "0", "--latency", "0", "--script", "storm:1:2", "--allow-no-schema"
    ) as fake:
        ready = fake["ready"]
        assert ready["base_url"] == f"http://127.0.0.1:{ready['port']}/v1"
        client = openai.OpenAI(base_url=ready["base_url"], api_key=KEY, max_retries=0, timeout=5)
        with pytest.raises(openai.RateLimitError) as limited:
            client.responses.create(model="gpt-5", input="grade")
        assert limited.value.response.headers["retry-after"] == "2"
        assert client.responses.create(model="gpt-5", input="grade").status == "completed"


def test_xai_fake_process() -> None:
    with fake_process("--provider", "xai", "--script", "server-error:503", "--allow-no-schema") as fake:
        client = xai_sdk.Client(
            api_key=KEY,
            api_host=fake["ready"]["host_port"],
            use_insecure_channel=True,
            timeout=5,
            channel_options=[("grpc.enable_retries", 0)],
        )
        with pytest.raises(grpc.RpcError) as failed:
            client.chat.create(model="grok-4", messages=[user("grade")]).sample()
        assert failed.value.code() == grpc.StatusCode.UNAVAILABLE  # type: ignore[attr-defined]


def test_a_bad_script_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--provider", "openai", "--script", "explode"])
    assert exited.value.code == 2
    assert "unknown fake script 'explode'" in capsys.readouterr().err
