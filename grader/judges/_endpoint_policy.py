"""Where a judge may call and with which key, and `make_judge`: a loopback endpoint (fakes, local servers) needs no
flag and no key; any other endpoint needs --allow-real-api-calls and its key variable set."""

from __future__ import annotations

import ipaddress
import os
from urllib.parse import urlsplit

from ._protocol import ProviderJudge
from ._spec import JudgeSpec

LOCAL_PLACEHOLDER_KEY = "local-no-key"
"""Sent to a loopback endpoint when no key variable is set (fakes and local servers accept any key)."""


class RealApiCallsNotAllowed(RuntimeError):
    """A judge would reach a real (non-loopback) provider endpoint without --allow-real-api-calls."""


class MissingApiKey(RuntimeError):
    """The environment variable that should hold a judge's API key is not set (its name is given)."""


def endpoint_host(endpoint: str) -> str:
    """The host name of a base URL or a gRPC 'host:port' target."""
    if "://" in endpoint:
        return urlsplit(endpoint).hostname or ""
    target = endpoint.removeprefix("dns:///").removeprefix("ipv4:").removeprefix("ipv6:")
    if target.startswith("["):
        return target[1 : target.index("]")] if "]" in target else target
    return target.rsplit(":", 1)[0] if target.count(":") == 1 else target


def is_local_endpoint(endpoint: str) -> bool:
    """True for loopback only (localhost, 127.0.0.0/8, ::1): fakes and servers on this machine."""
    host = endpoint_host(endpoint).lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def resolve_api_key(spec: JudgeSpec, *, local: bool) -> str:
    """The key from os.environ[spec.key_env]; a placeholder for loopback endpoints (or when no variable is named)."""
    name = spec.key_env
    value = os.environ.get(name, "") if name else ""
    if value:
        return value
    if local or name is None:
        return LOCAL_PLACEHOLDER_KEY
    raise MissingApiKey(f"judge {spec.judge_id!r}: environment variable {name} is not set (it must hold the API key)")


def missing_api_keys(specs: list[JudgeSpec]) -> list[str]:
    """ "judge: VARIABLE" for every judge of a real (non-loopback) endpoint whose key variable is not set; only
    variable names, never a value."""
    out = []
    for spec in specs:
        if not spec.provider_class.calls_provider or is_local_endpoint(spec.endpoint) or not spec.key_env:
            continue
        if not os.environ.get(spec.key_env):
            out.append(f"{spec.judge_id}: {spec.key_env}")
    return out


def make_judge(spec: JudgeSpec, *, allow_real_api_calls: bool) -> ProviderJudge:
    """Build the provider judge for `spec`.

    Refuses (RealApiCallsNotAllowed) an endpoint that is not loopback unless `allow_real_api_calls`;
    a loopback endpoint (fake server, local vLLM / llama.cpp / Ollama) needs no flag and no key.
    The provider's registered class builds the judge (``Provider.build``); the offline reference judge is not a
    provider client: build it with grader.judges.reference.
    """
    provider = spec.provider_class
    if not provider.calls_provider:
        raise ValueError(
            f"judge {spec.judge_id!r} is the offline {spec.provider} judge; it has no provider client "
            "(use grader.judges.reference)"
        )
    local = is_local_endpoint(spec.endpoint)
    if not local and not allow_real_api_calls:
        raise RealApiCallsNotAllowed(
            f"judge {spec.judge_id!r} ({spec.provider}) would call {endpoint_host(spec.endpoint)}, a real "
            "provider; pass --allow-real-api-calls to allow it (loopback endpoints need no flag)"
        )
    return provider.build(spec, api_key=resolve_api_key(spec, local=local), local=local)
