"""The mock panel: scripted judges behind local fake servers, reached through the real SDK clients.

Each mock grade is the reference judge's grade for the same prompt plus seeded noise (drawn per judge, contestant and
repeat, so a prompt's wording does not redraw it) plus the
planted bias of the panel file (points added to every sub-score when the contestant's provider family is
in the judge's bias map). The fake learns the family from a table the grader hands it out of band — the
prompt itself stays anonymized. Everything a mock judge returns is labelled MOCK.
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import os
import re
import threading
from collections.abc import Callable
from contextlib import ExitStack
from typing import TYPE_CHECKING, Any

import numpy as np

from grader.fakes import FakeLimits, FakeReply, FakeRequest, fake_server, script_from_spec
from grader.judges import JudgeSpec
from grader.panel._config import PanelConfig
from grader.prompts import prompt_hash

if TYPE_CHECKING:
    from grader.fakes import FakeServer

_REPEAT = re.compile(r"\[Stability repeat (\d+)\]")

STALL_AFTER_ENV = "GRADER_MOCK_STALL_AFTER"
"""Fault injection for crash tests: with ``N`` set, the mock fakes of this process answer their first ``N``
requests (all judges together) and hold every later one until the process ends, so a test can kill a run at
a known point ("exactly N calls completed") instead of racing a sleep. Read from the environment, never from
the panel file, so it changes no call's content address."""


def _stalling(script, counter: itertools.count, lock: threading.Lock, limit: int | None):
    if limit is None:
        return script

    def held(request: FakeRequest) -> FakeReply:
        with lock:
            served = next(counter)
        return FakeReply.hang() if served >= limit else script(request)

    return held


def _stall_limit() -> int | None:
    raw = os.environ.get(STALL_AFTER_ENV, "").strip()
    if not raw:
        return None
    if not raw.isdigit():
        raise ValueError(f"{STALL_AFTER_ENV} must be a whole number of requests, got {raw!r}")
    return int(raw)


NOISE_DRAW = "judge|contestant|repeat"
"""How a mock judge's noise is drawn, part of a mock call's content address: grades stored under an earlier scheme
(drawn per prompt text, before issue 31) are never reused for this one."""


def repeat_marker(repeat: int) -> str:
    """Appended to a mock prompt's system text so the scripted judge can vary its noise per repeat."""
    return f"\n\n[Stability repeat {repeat}]" if repeat else ""


class MockGrades:
    """Prompt hash -> (contestant family, reference grade, or how to compute it on the first request, and the
    contestant it grades)."""

    def __init__(self) -> None:
        self.table: dict[str, tuple[str, Any, str | None]] = {}
        self.probes: dict[str, tuple[str, list[str]]] = {}

    def add(
        self, system: str, user: str, family: str, grade: dict | Callable[[], dict], subject: str | None = None
    ) -> None:
        """The reference grade of a prompt, or a memoising, thread-safe function computing it when the prompt is
        first asked (so the calls start before every reference grade is computed). ``subject`` (the contestant)
        keys the judge's noise, so an edit of the prompt's wording does not redraw it; without it the prompt
        hash does."""
        self.table[prompt_hash(system, user)] = (family, grade, subject)

    def grade_of(self, key: str) -> tuple[str, dict]:
        """(family, reference grade) of a prompt; a function given to :meth:`add` is called here (it memoises)."""
        family, grade, _ = self.table[key]
        return family, (grade() if callable(grade) else grade)

    def subject_of(self, key: str) -> str | None:
        return self.table[key][2]

    def add_probe(self, system: str, user: str, family: str, candidates: list[str]) -> None:
        """An identity-probe question: the true family stays here, out of band, never in the prompt."""
        self.probes[prompt_hash(system, user)] = (family, list(candidates))


def _probe_reply(judge: JudgeSpec, settings, key: str, family: str, candidates: list[str]) -> FakeReply:
    seed = int.from_bytes(hashlib.sha256(f"{settings.seed}|probe|{judge.judge_id}|{key}".encode()).digest()[:8], "big")
    rng = np.random.default_rng(seed)
    rate = settings.recognition.get(judge.judge_id, 0.0)
    knows = rng.random() < rate
    guess = family if knows else candidates[int(rng.integers(len(candidates)))]
    return FakeReply.ok(
        {
            "family": guess,
            "confidence": 0.9 if knows else round(1 / len(candidates), 2),
            "reason": f"MOCK judge {judge.judge_id}: scripted guess (planted recognition rate "
            f"{rate:g}), not a real LLM judgement",
        },
        input_tokens=400,
        output_tokens=40,
    )


def mock_script(judge: JudgeSpec, panel: PanelConfig, grades: MockGrades):
    settings = panel.mock
    assert settings is not None
    failures = [script_from_spec(s) for s in settings.failures.get(judge.judge_id, [])]
    bias_map = settings.bias.get(judge.judge_id, {})

    def script(request: FakeRequest) -> FakeReply:
        if request.attempt <= len(failures):
            return failures[request.attempt - 1](request)
        key = prompt_hash(request.system, request.user)
        if key in grades.probes:
            return _probe_reply(judge, settings, key, *grades.probes[key])
        if key not in grades.table:
            base = _REPEAT.sub("", request.system).rstrip()
            key = prompt_hash(base, request.user)
        if key not in grades.table:
            return FakeReply.refused("mock judge: unknown prompt")
        family, reference = grades.grade_of(key)
        m = _REPEAT.search(request.system)
        repeat = int(m.group(1)) if m else 0
        # the noise is drawn per judge, contestant and repeat: the same draw whatever the prompt's wording, so a
        # demo's outcome does not change with every edit of the prompt text (it is still one random draw: an
        # unbiased judge is flagged by chance at the self-preference test's level)
        subject = grades.subject_of(key)
        drawn = f"subject:{subject}" if subject is not None else key
        seed = int.from_bytes(
            hashlib.sha256(f"{settings.seed}|{judge.judge_id}|{drawn}|{repeat}".encode()).digest()[:8], "big"
        )
        rng = np.random.default_rng(seed)
        bias = bias_map.get(family, 0.0)
        grade = copy.deepcopy(reference)

        def jitter(v: int | None) -> int | None:
            if v is None:
                return None
            return int(round(min(100.0, max(0.0, v + rng.normal(0.0, settings.noise_sd) + bias))))

        for axis in ("reasoning", "evidence"):
            grade[axis]["sub_scores"] = {k: jitter(v) for k, v in grade[axis]["sub_scores"].items()}
            grade[axis]["note"] = f"MOCK judge {judge.judge_id}: scripted from the reference baseline."
        grade["outcome"]["score"] = jitter(grade["outcome"]["score"])
        grade["data_reliability"]["score"] = jitter(grade["data_reliability"]["score"])
        grade["verdict"] = f"MOCK ({judge.judge_id}): scripted grade, not a real LLM judgement"
        grade["summary"] = (
            f"MOCK judge {judge.judge_id} — reference baseline plus seeded noise"
            + (f" and a planted bias of {bias:+g}" if bias else "")
            + "."
        )
        return FakeReply.ok(grade, input_tokens=(len(request.system) + len(request.user)) // 4, output_tokens=800)

    return script


def start_mock_servers(
    panel: PanelConfig, grades: MockGrades, stack: ExitStack
) -> tuple[list[JudgeSpec], list[FakeServer]]:
    """Start one fake per judge (stopped when ``stack`` closes); return the judge specs pointed at them (loopback:
    no key, no flag) and the servers."""
    assert panel.mock is not None
    specs, servers = [], []
    counter, lock, limit = itertools.count(), threading.Lock(), _stall_limit()
    for judge in panel.judges:
        script = _stalling(mock_script(judge, panel, grades), counter, lock, limit)
        limits = panel.mock.provider_limits.get(judge.judge_id)
        emulated = (
            FakeLimits(limits.rpm, limits.tpm, limits.input_tpm, limits.output_tpm, limits.window_s)
            if limits is not None
            else None
        )
        provider = judge.provider_class  # its fake speaks the provider's wire format
        if provider.fake is None:  # PanelConfig refuses such a mock panel
            raise ValueError(f"no fake speaks the wire format of {judge.provider!r}: not a mock judge")
        server = stack.enter_context(
            fake_server(provider.fake, script=script, latency_s=panel.mock.latency_s, limits=emulated)
        )
        field = provider.endpoint_field
        endpoint: dict[str, str] = {field: server.host_port if field == "host" else server.base_url}
        # a variable nobody sets: the fakes get the loopback placeholder key, never a real provider key
        specs.append(judge.model_copy(update={**endpoint, "api_key_env": "GRADER_MOCK_JUDGE_KEY"}))
        servers.append(server)
    return specs, servers
