"""`make_judge` and `JudgeSpec`: the real-API guard, key handling, spec validation. No network is used."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from grader.judges import (
    JudgeSpec,
    MissingApiKey,
    Pricing,
    ProviderJudge,
    RealApiCallsNotAllowed,
    is_local_endpoint,
    make_judge,
)

SECRET = "sk-live-NEVER-PRINT-ME-71c2"


def spec(provider: str, **fields: object) -> JudgeSpec:
    defaults: dict[str, object] = {
        "judge_id": f"{provider}-judge",
        "provider": provider,
        "model": "m",
        "family": "f",
    }
    if provider == "openai-compatible":
        defaults["base_url"] = "http://127.0.0.1:8000/v1"
    return JudgeSpec.model_validate(defaults | fields)


@pytest.mark.parametrize(
    "judge_spec",
    [
        spec("openai"),
        spec("anthropic"),
        spec("xai"),
        spec("openai", base_url="https://api.openai.com/v1"),
        spec("anthropic", base_url="https://api.anthropic.com"),
        spec("xai", host="api.x.ai:443"),
        spec("openai-compatible", base_url="https://api.together.xyz/v1"),
        spec("openai-compatible", base_url="http://192.168.1.20:8000/v1"),
        spec("openai", base_url="http://127.0.0.1.example.com/v1"),
        spec("openai", base_url="http://localhost.example.com:8080/v1"),
    ],
    ids=lambda s: f"{s.provider}:{s.endpoint}",
)
def test_a_real_endpoint_needs_the_flag(judge_spec: JudgeSpec, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(judge_spec.key_env or "UNUSED_KEY_ENV", SECRET)
    with pytest.raises(RealApiCallsNotAllowed, match="--allow-real-api-calls") as refused:
        make_judge(judge_spec, allow_real_api_calls=False)
    assert SECRET not in str(refused.value)


@pytest.mark.parametrize(
    "judge_spec",
    [
        spec("openai", base_url="http://127.0.0.1:4010/v1"),
        spec("anthropic", base_url="http://localhost:4011"),
        spec("xai", host="127.0.0.1:4012"),
        spec("xai", host="localhost:4013"),
        spec("openai-compatible", base_url="http://[::1]:8000/v1"),
        spec("openai-compatible", base_url="http://127.0.0.2:11434/v1"),
    ],
    ids=lambda s: f"{s.provider}:{s.endpoint}",
)
def test_a_loopback_endpoint_needs_neither_flag_nor_key(judge_spec: JudgeSpec, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(judge_spec.key_env or "UNUSED_KEY_ENV", raising=False)
    judge = make_judge(judge_spec, allow_real_api_calls=False)
    assert isinstance(judge, ProviderJudge)
    assert judge.spec == judge_spec


@pytest.mark.parametrize("provider", ["openai", "anthropic", "xai"])
def test_with_the_flag_a_real_judge_reads_its_key_from_the_named_variable(
    provider: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MY_JUDGE_KEY", SECRET)
    judge = make_judge(spec(provider, api_key_env="MY_JUDGE_KEY"), allow_real_api_calls=True)
    assert judge.spec.key_env == "MY_JUDGE_KEY"
    assert SECRET not in repr(judge)


@pytest.mark.parametrize(
    ("provider", "variable"),
    [("openai", "OPENAI_API_KEY"), ("anthropic", "ANTHROPIC_API_KEY"), ("xai", "XAI_API_KEY")],
)
def test_a_missing_key_is_named_not_guessed(provider: str, variable: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(variable, raising=False)
    with pytest.raises(MissingApiKey, match=variable):
        make_judge(spec(provider), allow_real_api_calls=True)


def test_a_remote_openai_compatible_server_with_a_named_but_unset_key_fails(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("TOGETHER_API_KEY", raising=False)
    remote = spec("openai-compatible", base_url="https://api.together.xyz/v1", api_key_env="TOGETHER_API_KEY")
    with pytest.raises(MissingApiKey, match="TOGETHER_API_KEY"):
        make_judge(remote, allow_real_api_calls=True)
    assert make_judge(spec("openai-compatible", base_url="https://api.together.xyz/v1"), allow_real_api_calls=True)


def test_the_reference_judge_is_not_a_provider_client() -> None:
    with pytest.raises(ValueError, match="reference"):
        make_judge(spec("reference"), allow_real_api_calls=False)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"provider": "xai", "base_url": "http://127.0.0.1:1"}, "host"),
        ({"provider": "openai", "host": "127.0.0.1:1"}, "only for xai"),
        ({"provider": "openai-compatible", "base_url": None}, "needs `base_url`"),
        ({"provider": "openai", "api_key_env": "sk-proj-abc123"}, "NAME of an environment variable"),
        ({"provider": "anthropic", "temperature": 1.5}, r"\[0, 1\]"),
        ({"provider": "openai", "timeout_s": 0}, "greater than 0"),
        ({"provider": "gemini"}, "provider"),
        ({"provider": "openai", "api_key": "sk-x"}, "Extra inputs"),
    ],
)
def test_bad_specs_are_rejected_with_the_field_named(fields: dict[str, object], message: str) -> None:
    base = {"judge_id": "j", "model": "m", "family": "f"}
    with pytest.raises(ValidationError, match=message):
        JudgeSpec.model_validate(base | fields)


@pytest.mark.parametrize("field", ["api_key_env", "api_key"])
def test_a_key_pasted_into_a_spec_is_not_echoed_by_the_error(field: str) -> None:
    with pytest.raises(ValidationError) as rejected:
        JudgeSpec.model_validate({"judge_id": "j", "provider": "openai", "model": "m", "family": "f", field: SECRET})
    assert field in str(rejected.value)
    assert SECRET not in str(rejected.value) and SECRET not in repr(rejected.value)


def test_pricing_is_per_million_tokens() -> None:
    assert Pricing(input_per_mtok=1.25, output_per_mtok=10).cost_usd(200_000, 10_000) == pytest.approx(0.35)
    assert Pricing(input_per_mtok=3, output_per_mtok=15).cost_usd(None, None) == 0.0


@pytest.mark.parametrize(
    ("endpoint", "local"),
    [
        ("http://127.0.0.1:8000/v1", True),
        ("http://localhost/v1", True),
        ("127.0.0.1:50051", True),
        ("localhost:50051", True),
        ("[::1]:50051", True),
        ("https://api.openai.com/v1", False),
        ("api.x.ai:443", False),
        ("http://10.0.0.5:8000/v1", False),
        ("http://0.0.0.0:8000/v1", False),
    ],
)
def test_only_loopback_counts_as_local(endpoint: str, local: bool) -> None:
    assert is_local_endpoint(endpoint) is local
