"""Local fake LLM providers (OpenAI and Anthropic over HTTP, xAI over gRPC, an OpenAI-compatible host with JSON mode
only) with scripted failures.

Used by tests (in-process, background thread) and benchmarks (`python -m grader.fakes`). The real
SDK clients talk to them over a real 127.0.0.1 socket, so nothing reaches a provider.
"""

from grader._lazy import lazy_exports

from ._cli import FAKE_SERVERS, FakeProvider, fake_server, main
from ._limits import FakeLimits, LimitWindows, WindowState
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

# the servers load a web server (HTTP) or gRPC: imported when first used
__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "FakeAnthropic": "grader.fakes._anthropic",
        "FakeJsonModeOpenAI": "grader.fakes._openai_json",
        "FakeOpenAI": "grader.fakes._openai",
        "FakeXai": "grader.fakes._xai",
        "FakeServer": "grader.fakes._server",
        "HttpFakeServer": "grader.fakes._server",
    },
    globals(),
)

__all__ = [
    "FAKE_SERVERS",
    "FakeAnthropic",
    "FakeJsonModeOpenAI",
    "FakeLimits",
    "FakeOpenAI",
    "FakeProvider",
    "FakeReply",
    "FakeRequest",
    "FakeServer",
    "FakeXai",
    "HttpFakeServer",
    "LimitWindows",
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
    "WindowState",
]
