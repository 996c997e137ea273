"""Panel files: which judges grade, how many calls run at once per provider, retries, mock settings.

A panel is data (``grader/panel/panels/*.yaml`` or a user's YAML file). Three kinds:

- ``reference``: the offline deterministic reference judge — a baseline, never an LLM grade.
- ``mock``: scripted judges behind local fake servers that the grader starts itself, reached through the
  real SDK clients; run type ``mock``, never official. An optional planted bias per judge (e.g. +10 for
  its own family) lets the audits show they catch it.
- ``real``: provider judges. Without ``--allow-real-api-calls`` a run with such a panel is a dry run.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from grader.judges import PROVIDERS, JudgeSpec, provider_class

PANELS_DIR = Path(__file__).parent / "panels"


class RetryPolicy(BaseModel):
    """Retries only for infrastructure or format failures, capped; backoff (full jitter) doubles from
    ``base_delay_s``. Refusals for capacity (429, 529) are not failures of the judge and do not count toward
    ``max_attempts``; ``max_rate_limited`` of them end a chain (a provider that never lets a request through)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    max_attempts: int = Field(default=4, ge=1, le=10)
    base_delay_s: float = Field(default=1.0, ge=0)
    max_delay_s: float = Field(default=30.0, ge=0)
    max_rate_limited: int = Field(default=20, ge=1, le=1000)
    """Refusals for capacity (429 / RESOURCE_EXHAUSTED, 529 overloaded) one judge x contestant may meet before it
    is left a gap."""


class FakeProviderLimits(BaseModel):
    """Rate limits a mock judge's fake server enforces (per minute), over a sliding window of ``window_s``."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    rpm: int | None = Field(default=None, gt=0)
    tpm: int | None = Field(default=None, gt=0)
    input_tpm: int | None = Field(default=None, gt=0)
    output_tpm: int | None = Field(default=None, gt=0)
    window_s: float = Field(default=60.0, gt=0)


class MockSettings(BaseModel):
    """Scripted judges: the reference grade plus seeded noise plus a planted bias."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    seed: int = 7
    noise_sd: float = Field(default=4.0, ge=0)
    latency_s: float = Field(default=0.0, ge=0)
    bias: dict[str, dict[str, float]] = Field(default_factory=dict)
    """judge_id -> {contestant provider family -> points added to every sub-score}."""
    failures: dict[str, list[str]] = Field(default_factory=dict)
    """judge_id -> fake reply specs served first for every prompt (e.g. ["rate-limited:0.1", "malformed"])."""
    recognition: dict[str, float] = Field(default_factory=dict)
    """judge_id -> planted share of identity-probe items it answers with the true family (the rest are uniform
    guesses); a judge not listed guesses at chance. Only the identity probe reads it."""
    provider_limits: dict[str, FakeProviderLimits] = Field(default_factory=dict)
    """judge_id -> rate limits its fake server emulates (429 with Retry-After past them, the provider's rate-limit
    headers on every reply); the judge's own ``rate_limits`` are what the grader paces by."""


class PanelConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    kind: Literal["reference", "mock", "real"]
    description: str = ""
    judges: list[JudgeSpec] = Field(min_length=1)
    concurrency: dict[str, int] = Field(default_factory=dict)
    """Concurrent calls per provider (default 4)."""
    retry: RetryPolicy = RetryPolicy()
    mock: MockSettings | None = None

    @model_validator(mode="after")
    def _consistent(self) -> PanelConfig:
        ids = [j.judge_id for j in self.judges]
        if len(set(ids)) != len(ids):
            raise ValueError(f"judge ids must be unique: {ids}")
        if self.kind == "reference" and any(j.provider_class.calls_provider for j in self.judges):
            raise ValueError("a reference panel holds only reference judges")
        if self.kind != "reference" and any(not j.provider_class.calls_provider for j in self.judges):
            raise ValueError("reference judges belong in a reference panel")
        if self.kind == "mock" and any(j.provider_class.fake is None for j in self.judges):
            mockable = [name for name in PROVIDERS if provider_class(name).fake is not None]
            raise ValueError(f"mock judges are {', '.join(mockable[:-1])} or {mockable[-1]} judges behind local fakes")
        unknown = sorted(set(self.mock.provider_limits) - set(ids)) if self.mock else []
        if unknown:
            raise ValueError(f"mock.provider_limits names judges not in the panel: {unknown}")
        if self.kind == "reference" and any(j.rate_limits for j in self.judges):
            raise ValueError("the reference judge calls no provider: it takes no rate_limits")
        return self

    def limit(self, provider: str) -> int:
        return max(1, self.concurrency.get(provider, 4))

    @property
    def content_hash(self) -> str:
        """The panel's hash; pacing settings at their defaults (no ``rate_limits``, ``max_rate_limited`` 20, no
        ``provider_limits``) are left out, so a panel that sets none hashes as before they existed (and as its stored
        ``model_dump`` does)."""
        data = self.model_dump(mode="json")
        for judge in data["judges"]:
            if judge.get("rate_limits") is None:
                judge.pop("rate_limits", None)
        if self.retry.max_rate_limited == RetryPolicy.model_fields["max_rate_limited"].default:
            data["retry"].pop("max_rate_limited", None)
        if data.get("mock") is not None and not data["mock"].get("provider_limits"):
            data["mock"].pop("provider_limits", None)
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


class PanelError(ValueError):
    pass


def available_panels() -> list[str]:
    return sorted(p.stem for p in PANELS_DIR.glob("*.yaml"))


def load_panel(name_or_path: str | Path) -> PanelConfig:
    """A bundled panel by name (``reference``, ``mock``, ``frontier``) or a user's YAML file."""
    path = Path(name_or_path)
    if not path.is_file():
        path = PANELS_DIR / f"{name_or_path}.yaml"
        if not path.is_file():
            raise PanelError(f"unknown panel {name_or_path!r}: not a file and not one of {available_panels()}")
    try:
        data = yaml.safe_load(path.read_text())
    except yaml.YAMLError as exc:
        raise PanelError(f"{path}: not valid YAML: {exc}") from None
    try:
        return PanelConfig.model_validate(data)
    except ValidationError as err:
        text = path.read_text()
        problems = "; ".join(
            f"{_line_of(text, e['loc'])}{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in err.errors()
        )
        raise PanelError(f"{path}: {problems}") from None


def _line_of(text: str, loc: tuple) -> str:
    """ "line N: " of the YAML node a validation error's location names (the deepest that exists), or ""."""
    try:
        node = yaml.compose(text)
    except yaml.YAMLError:
        return ""
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            found = next((v for k, v in node.value if k.value == part), None)
            if found is None:
                found = next((k for k, _ in node.value if k.value == part), None)
                node = found if found is not None else node
                break
            node = found
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
        else:
            break
    return f"line {node.start_mark.line + 1}: " if node is not None else ""
