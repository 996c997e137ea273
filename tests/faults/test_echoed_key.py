"""An endpoint that echoes the request's API key into its replies (the model's JSON, a malformed reply): no column,
file or output holds the key after grading, reporting, auditing and printing the ledger (the whole database is
searched, byte for byte, with its WAL)."""

from __future__ import annotations

import itertools
import os
import sqlite3
import subprocess
import sys
import uuid

import yaml

from grader.fakes import FakeReply, FakeRequest, example_from_schema, fake_server
from tests.faults._helpers import REPO


def _echo_script():
    served = itertools.count()

    def echo(value, key: str):
        if isinstance(value, dict):
            return {k: echo(v, key) for k, v in value.items()}
        if isinstance(value, list):
            return [echo(v, key) for v in value]
        return f"echo {key} echo" if value == "fake" else value

    def script(request: FakeRequest) -> FakeReply:
        key = request.api_key or ""
        if next(served) == 0:  # the first reply is not JSON and carries the key (an invalid attempt, retried)
            return FakeReply.malformed(f"no grade today, {key}")
        return FakeReply.ok(echo(example_from_schema(request.schema), key))

    return script


def test_no_key_anywhere_under_an_echoing_endpoint(season, tmp_path):
    key = f"sk-echo-{uuid.uuid4().hex}"
    db = tmp_path / "echo.db"
    env = {**os.environ, "GRADER_DATABASE_URL": f"sqlite:///{db}", "GRADER_TEST_ECHO_KEY": key}
    with fake_server("openai", script=_echo_script()) as fake:
        panel = tmp_path / "echo-panel.yaml"
        panel.write_text(
            yaml.safe_dump(
                {
                    "name": "echo",
                    "kind": "real",
                    "retry": {"max_attempts": 3, "base_delay_s": 0.01, "max_delay_s": 0.05},
                    "judges": [
                        {
                            "judge_id": "echo-openai",
                            "provider": "openai",
                            "model": "gpt-echo",
                            "family": "openai",
                            "base_url": fake.base_url,
                            "api_key_env": "GRADER_TEST_ECHO_KEY",
                            "timeout_s": 20,
                        }
                    ],
                }
            )
        )
        grader = [sys.executable, "-m", "grader"]
        outputs = []
        graded = subprocess.run(
            [
                *grader,
                "grade",
                str(season),
                "--rubric",
                "v0.3",
                "--panel",
                str(panel),
                "--run-id",
                "e",
                "--allow-real-api-calls",
                "--quiet",
            ],
            env=env,
            cwd=REPO,
            capture_output=True,
            text=True,
        )
        assert graded.returncode == 0, graded.stderr[-3000:]
        assert any(r.api_key == key for r in fake.requests)  # the key did reach the endpoint and come back
        outputs.append(graded)
    out = tmp_path / "report"
    for args in (
        ["report", "--run", "e", "--out", str(out)],
        ["ledger", "--run", "e", "--format", "json"],
        ["ledger", "--run", "e"],
        ["audit", "--run", "e"],
        ["verify", "--run", "e"],
        ["cost", "--run", "e"],
        ["leaderboard", "--run", "e"],
    ):
        done = subprocess.run([*grader, *args], env=env, cwd=REPO, capture_output=True, text=True)
        assert done.returncode == 0, (args, done.stderr[-2000:])
        outputs.append(done)
    assert any("echo [redacted] echo" in o.stdout for o in outputs)  # the echoed text is there, the key is not
    for o in outputs:
        assert key not in o.stdout and key not in o.stderr
    files = [p for p in tmp_path.rglob("*") if p.is_file() and not p.name.endswith(".yaml")]
    assert db in files and any(p.suffix == ".html" for p in files)
    for path in files:
        assert key.encode() not in path.read_bytes(), path
    with sqlite3.connect(db) as conn:  # every column of every table, as SQL text
        dump = "\n".join(conn.iterdump())
    assert "[redacted]" in dump and key not in dump
