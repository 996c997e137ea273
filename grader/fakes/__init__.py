"""Local fake LLM providers (OpenAI and Anthropic over HTTP, xAI over gRPC) with scripted failures.

Used by tests (in-process, background thread) and benchmarks (`python -m grader.fakes`). The real
SDK clients talk to them over a real 127.0.0.1 socket, so nothing reaches a provider.
"""

from ._anthropic import FakeAnthropic
from ._cli import FAKE_SERVERS, FakeProvider, fake_server, main
from ._openai import FakeOpenAI
from ._script import (
    FakeReply,
    FakeRequest,
    ReplyKind,
    Script,
    always,
    by_prompt,
    example_from_schema,
    redact_headers,
    script_from_spec,
    sequence,
    storm,
    valid_grades,
)
from ._server import FakeServer, HttpFakeServer
from ._xai import FakeXai

__all__ = [
    "FAKE_SERVERS",
    "FakeAnthropic",
    "FakeOpenAI",
    "FakeProvider",
    "FakeReply",
    "FakeRequest",
    "FakeServer",
    "FakeXai",
    "HttpFakeServer",
    "ReplyKind",
    "Script",
    "always",
    "by_prompt",
    "example_from_schema",
    "fake_server",
    "main",
    "redact_headers",
    "script_from_spec",
    "sequence",
    "storm",
    "valid_grades",
]
