"""A judge on an OpenAI-compatible host that offers only JSON mode grades a season end to end (``grader grade`` with a
panel file naming it, through instructor and the real openai SDK): every attempt a stored row, a retry linked to
the attempt it replaces, the body kept as received, no re-ask sent by instructor."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from grader.fakes import FakeReply, fake_server, sequence

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("mode", ["json_object", "tools"])
def test_a_json_mode_only_judge_grades_a_season(season, tmp_path, mode):
    db = tmp_path / "json-mode.db"
    env = {**os.environ, "GRADER_DATABASE_URL": f"sqlite:///{db}"}
    # every prompt's first reply is not JSON (an invalid attempt the runner retries), the second a grade
    with fake_server("openai-json-mode", script=sequence(FakeReply.malformed())) as host:
        panel = tmp_path / "json-mode-panel.yaml"
        panel.write_text(
            yaml.safe_dump(
                {
                    "name": "json-mode",
                    "kind": "real",
                    "retry": {"max_attempts": 3, "base_delay_s": 0.01, "max_delay_s": 0.05},
                    "judges": [
                        {
                            "judge_id": "open-json",
                            "provider": "openai-compatible",
                            "model": "open-weights-7b",
                            "family": "openai",
                            "base_url": host.base_url,
                            "structured_output": mode,
                            "timeout_s": 20,
                        }
                    ],
                }
            )
        )
        graded = subprocess.run(
            [
                sys.executable,
                "-m",
                "grader",
                "grade",
                str(season),
                "--rubric",
                "v0.3",
                "--panel",
                str(panel),
                "--run-id",
                "j",
                "--allow-real-api-calls",
                "--quiet",
            ],
            env=env,
            cwd=REPO,
            capture_output=True,
            text=True,
        )
        assert graded.returncode == 0, graded.stderr[-3000:]
        requests = host.requests
    verified = subprocess.run(
        [sys.executable, "-m", "grader", "verify", "--run", "j"], env=env, cwd=REPO, capture_output=True, text=True
    )
    assert verified.returncode == 0, verified.stdout[-2000:] + verified.stderr[-2000:]

    with sqlite3.connect(db) as conn:
        calls = conn.execute(
            "select id, contestant_id, attempt, status, error_kind, replaces_call_id, raw_reply, "
            "parsed from judge_calls where run_id = 'j' order by id"
        ).fetchall()
        grades = conn.execute("select contestant_id, call_id, composite from grades where run_id = 'j'").fetchall()
    contestants = {c[1] for c in calls}
    assert len(contestants) == 2 and len(grades) == 2 and len(calls) == 4
    assert len(requests) == len(calls)  # one request per stored attempt: instructor re-asked nothing
    for request in requests:  # never a strict schema: the host would refuse it
        assert "json_schema" not in json.dumps(request.body.get("response_format") or {})
        assert ("tools" in request.body) == (mode == "tools")
    by_id = {c[0]: c for c in calls}
    for contestant_id, call_id, composite in grades:
        ok = by_id[call_id]
        assert ok[1] == contestant_id and ok[2] == 2 and ok[3] == "ok" and composite is not None
        first = by_id[ok[5]]  # the retry names the attempt it replaces
        assert first[2] == 1 and first[3] == "invalid" and first[4] == "format" and first[1] == contestant_id
        assert "Here is my grade" in first[6]  # the unusable body kept as received
        body = json.loads(ok[6])  # the body exactly as the host sent it, the grade read from it
        assert body["object"] == "chat.completion" and json.loads(ok[7]) == _answer(body, mode)


def _answer(body: dict, mode: str) -> dict:
    message = body["choices"][0]["message"]
    return json.loads(message["tool_calls"][0]["function"]["arguments"] if mode == "tools" else message["content"])
