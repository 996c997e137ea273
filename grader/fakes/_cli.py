"""`python -m grader.fakes`: one fake provider as a standalone process (for benchmarks)."""

from __future__ import annotations

import argparse
import importlib
import json
import signal
import sys
import threading
from collections.abc import Sequence
from typing import Any, Literal

from ._script import script_from_spec

FakeProvider = Literal["openai", "anthropic", "xai", "openai-json-mode"]

FAKE_SERVERS: dict[str, str] = {
    "openai": "._openai:FakeOpenAI",
    "anthropic": "._anthropic:FakeAnthropic",
    "xai": "._xai:FakeXai",
    "openai-json-mode": "._openai_json:FakeJsonModeOpenAI",
}
"""Wire format -> where its server class lives (imported when asked: the xAI fake loads gRPC, the others a web
server; a panel without xAI never loads gRPC). ``openai-json-mode``: an OpenAI-compatible host that offers only JSON
mode and tool calls, never a strict JSON schema. A provider class names its fake (``grader.judges.Provider.fake``)."""


def fake_server_class(provider: str):  # noqa: ANN201 - a FakeServer subclass
    module, name = FAKE_SERVERS[provider].split(":")
    return getattr(importlib.import_module(module, __package__), name)


def fake_server(provider: FakeProvider | str, **options: Any):  # noqa: ANN201 - a FakeServer
    """A (not yet started) fake for `provider`; options go to the server class (script, latency_s, port...).
    A name read at run time (a provider class's ``fake``) is checked here: ValueError when no fake has it.

    'openai' also serves Chat Completions, so it stands in for openai-compatible servers too; 'openai-json-mode'
    for those that have no strict schemas.
    """
    try:
        server_class = fake_server_class(provider)
    except KeyError:
        raise ValueError(f"unknown fake provider {provider!r}; choose one of {sorted(FAKE_SERVERS)}") from None
    return server_class(**options)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m grader.fakes",
        description="Serve one scripted fake LLM provider on 127.0.0.1 until interrupted. Prints one JSON "
        "line {'event': 'ready', 'provider', 'base_url', 'host_port', 'port'} once it accepts calls.",
    )
    parser.add_argument("--provider", required=True, choices=sorted(FAKE_SERVERS))
    parser.add_argument("--port", type=int, default=0, help="TCP port (0 = pick a free one; default)")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds added to every content reply")
    parser.add_argument(
        "--script",
        default="ok",
        help="ok | malformed | truncated | refused | hang | overloaded | rate-limited[:S] | server-error[:STATUS] | "
        "slow:S | storm:N[:S] | package.module:attribute (default: ok, schema-valid answers)",
    )
    parser.add_argument("--require-api-key", default=None, help="accept only this key (default: any non-empty)")
    parser.add_argument(
        "--allow-no-schema",
        action="store_true",
        help="answer requests without a strict JSON schema (default: refuse them, as the grader always sends one)",
    )
    for name, what in (
        ("rpm", "requests"),
        ("tpm", "tokens (input and output)"),
        ("input-tpm", "input tokens"),
        ("output-tpm", "output tokens"),
    ):
        parser.add_argument(f"--{name}", type=int, default=None, help=f"emulate a limit of {what} per minute per key")
    parser.add_argument(
        "--limit-window",
        type=float,
        default=60.0,
        help="seconds of the sliding window the limits are enforced over (default 60)",
    )
    args = parser.parse_args(argv)
    try:
        script = script_from_spec(args.script)
    except (ValueError, ImportError, AttributeError) as error:
        parser.error(str(error))
    limits = None
    if any(v is not None for v in (args.rpm, args.tpm, args.input_tpm, args.output_tpm)):
        from ._limits import FakeLimits

        try:
            limits = FakeLimits(args.rpm, args.tpm, args.input_tpm, args.output_tpm, args.limit_window)
        except ValueError as error:
            parser.error(str(error))
    server = fake_server(
        args.provider,
        limits=limits,
        script=script,
        latency_s=args.latency,
        port=args.port,
        require_api_key=args.require_api_key,
        require_strict_schema=not args.allow_no_schema,
    )
    stop = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stop.set())
    with server:
        ready = {
            "event": "ready",
            "provider": args.provider,
            "base_url": server.base_url,
            "host_port": server.host_port,
            "port": server.port,
        }
        print(json.dumps(ready), flush=True)
        stop.wait()
    print(json.dumps({"event": "stopped", "requests": len(server.requests)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
