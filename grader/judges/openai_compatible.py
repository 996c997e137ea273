"""openai-compatible judge: Chat Completions on any base URL, in the structured-output mode its host offers.

For open-weight judges behind vLLM, llama.cpp's server, Ollama, LM Studio, hosted open models... The panel file's
``structured_output`` says how the judge asks for JSON:

- ``strict`` (default): a strict json_schema ``response_format``, sent through the `openai` SDK
  (``chat.completions.with_raw_response.create``) so the raw body is kept before parsing.
- ``json_object`` / ``tools``: for hosts that offer only JSON mode or tool calls without strict schemas. The request
  is shaped and the reply read by ``instructor`` (``instructor.from_openai`` in ``Mode.JSON`` / ``Mode.TOOLS``: the
  schema written into the system prompt, or a forced function call whose parameters are the schema), with re-asks
  off (``max_retries=0``): our runner owns retries, so every attempt stays a stored, linked row and every judge
  sees the same prompt. The HTTP body is kept exactly as received (an httpx response hook reads it for the call
  that is waiting on it), and the JSON the mode yields is classified as in strict mode (``outcome_from_text``); the
  grader then validates it against the schema, which the host did not enforce.
"""

from __future__ import annotations

import asyncio
import copy
import json
from contextvars import ContextVar
from functools import lru_cache
from typing import Any

import openai
from openai import AsyncOpenAI
from openai.types.chat import ChatCompletion
from pydantic import BaseModel, ConfigDict, create_model

from ._outcome import CallOutcome, outcome_from_text
from ._redaction import redact
from ._registry import Provider
from ._sdk_judge import SdkJudge, Stopwatch, backstop_timeout, http_failure, no_reply_failure
from ._spec import JudgeSpec
from .openai import send_with_openai_sdk

__all__ = ["OpenAICompatibleJudge"]


class OpenAICompatibleJudge(SdkJudge[AsyncOpenAI], Provider):
    """A judge on any Chat Completions server (json_schema response_format, SDK retries off)."""

    label = "OpenAI-compatible"
    default_endpoint = None  # the panel file gives base_url; no key variable unless it names one
    structured_outputs = ("strict", "json_object", "tools")

    def __init__(self, spec: JudgeSpec, *, api_key: str) -> None:
        keep_bodies = spec.structured_output != "strict"
        super().__init__(
            spec,
            api_key=api_key,
            factory=lambda: AsyncOpenAI(
                api_key=api_key,
                base_url=spec.endpoint,
                timeout=spec.timeout_s,
                max_retries=0,
                http_client=(
                    openai.DefaultAsyncHttpxClient(timeout=spec.timeout_s, event_hooks={"response": [_keep_raw_body]})
                    if keep_bodies
                    else None  # the SDK's own client
                ),
            ),
        )

    def _base_params(self, system: str, user: str) -> dict[str, Any]:
        params: dict[str, Any] = {
            "model": self.spec.model,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
            "max_tokens": self.spec.max_output_tokens,
        }
        if self.spec.temperature is not None:
            params["temperature"] = self.spec.temperature
        return params

    def request_params(
        self, system: str, user: str, schema: dict[str, Any], schema_name: str, *, cache_prefix_chars: int = 0
    ) -> dict[str, Any]:
        """The Chat Completions body. `max_tokens` (not max_completion_tokens): what local servers all read. In
        ``json_object`` / ``tools`` mode, the body instructor sends for the mode."""
        params = self._base_params(system, user)
        if self.spec.structured_output != "strict":
            return instructor_request(params, self.spec.structured_output, reply_model(schema, schema_name))
        # the key order of the body as sent before modes existed (hashed by dry runs)
        params = {
            "model": params.pop("model"),
            "messages": params.pop("messages"),
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": schema_name, "schema": schema, "strict": True},
            },
            **params,
        }
        return params

    async def call(
        self, system: str, user: str, schema: dict[str, Any], schema_name: str, *, cache_prefix_chars: int = 0
    ) -> CallOutcome:
        if self.spec.structured_output != "strict":
            return await self._call_through_instructor(system, user, schema, schema_name)
        client = self._clients.get()
        params = self.request_params(system, user, schema, schema_name)
        sent = await send_with_openai_sdk(
            lambda: client.chat.completions.with_raw_response.create(**params), self.spec, self._secret
        )
        if isinstance(sent, CallOutcome):
            return sent
        raw, watch = sent
        body = redact(raw.http_response.text, self._secret) or ""
        fields: dict[str, Any] = {
            "http_status": raw.status_code,
            "request_id": raw.request_id,
            "latency_s": watch.elapsed,
        }
        try:
            completion = raw.parse()
        except Exception as error:  # not a chat.completion body: keep it, a format failure
            return CallOutcome(
                False, body, error_kind="format", error_message=f"unreadable Chat Completions body: {error!r}", **fields
            )
        return outcome_of_completion(completion, body, fields, tools=False)

    async def _call_through_instructor(
        self, system: str, user: str, schema: dict[str, Any], schema_name: str
    ) -> CallOutcome:
        """One attempt through instructor (re-asks off); the body as received is the raw reply."""
        import instructor
        from instructor.core.exceptions import InstructorError

        client = instructor.from_openai(self._clients.get(), mode=instructor_mode(self.spec.structured_output))
        bodies: list[str] = []
        token = _RAW_BODIES.set(bodies)
        watch = Stopwatch()
        completion: Any = None
        try:
            async with asyncio.timeout(backstop_timeout(self.spec)):
                _, completion = await client.chat.completions.create_with_completion(
                    response_model=reply_model(schema, schema_name), max_retries=0, **self._base_params(system, user)
                )
        except (TimeoutError, InstructorError, openai.APIError) as error:
            failure = self._failure(error, watch, answered=bool(bodies))
            if failure is not None:
                return failure
            completion = _completion_of(error)
        finally:
            _RAW_BODIES.reset(token)
        body = redact(bodies[-1] if bodies else "", self._secret) or ""
        fields: dict[str, Any] = {"http_status": 200, "latency_s": watch.elapsed}
        if completion is None:  # instructor gave up on a reply it got without keeping it: read the body ourselves
            try:
                completion = ChatCompletion.model_validate_json(bodies[-1])
            except Exception as error:  # noqa: BLE001 - not a chat.completion body: kept, a format failure
                return CallOutcome(
                    False,
                    body,
                    error_kind="format",
                    error_message=f"unreadable Chat Completions body: {error!r}",
                    **fields,
                )
        return outcome_of_completion(completion, body, fields, tools=self.spec.structured_output == "tools")

    def _failure(self, error: BaseException, watch: Stopwatch, *, answered: bool) -> CallOutcome | None:
        """The outcome of a call that got no completion (HTTP error, timeout, lost connection); None when one came
        back that instructor could not read (``answered``: a body was received), classified from the reply itself."""
        cause = next((e for e in _chain(error) if isinstance(e, (openai.APIError, TimeoutError))), None)
        if isinstance(cause, openai.APIStatusError):
            return http_failure(
                status=cause.status_code,
                body=cause.response.text,
                headers=cause.response.headers,
                request_id=cause.request_id,
                message=cause.message,
                latency_s=watch.elapsed,
                secret=self._secret,
            )
        if isinstance(cause, (openai.APITimeoutError, TimeoutError)):
            return no_reply_failure(
                "timeout", f"no reply within {self.spec.timeout_s:g} s", latency_s=watch.elapsed, secret=self._secret
            )
        if isinstance(cause, openai.APIConnectionError):
            detail = f"{cause.message} ({cause.__cause__!r})" if cause.__cause__ else cause.message
            return no_reply_failure("transport", detail, latency_s=watch.elapsed, secret=self._secret)
        if _completion_of(error) is None and not answered:
            return CallOutcome(
                False,
                "",
                error_kind="format",
                latency_s=watch.elapsed,
                error_message=redact(f"instructor: {error}", self._secret),
            )
        return None


# -- instructor (json_object / tools modes) --------------------------------------------------------------------

_RAW_BODIES: ContextVar[list[str] | None] = ContextVar("grader_openai_compatible_bodies", default=None)
"""Where the response hook puts the body of the call running in this context (one list per call)."""


async def _keep_raw_body(response: Any) -> None:
    """httpx response hook: the body exactly as received, for the call waiting on it (read once; the SDK reads the
    same bytes after)."""
    bodies = _RAW_BODIES.get()
    if bodies is not None:
        await response.aread()
        bodies.append(response.text)


def instructor_mode(structured_output: str) -> Any:
    """instructor's Mode for a structured-output mode (``json_object``: Mode.JSON, ``tools``: Mode.TOOLS)."""
    import logging

    import instructor

    # instructor logs every failed attempt at ERROR level; the runner stores and reports each attempt itself
    logging.getLogger("instructor").setLevel(logging.CRITICAL)
    return {"json_object": instructor.Mode.JSON, "tools": instructor.Mode.TOOLS}[structured_output]


class SchemaReply(BaseModel):
    """Any JSON object: the grader validates the reply against the rubric's schema itself (as in strict mode);
    instructor only needs a model to write the schema into the request and read the reply's JSON."""

    model_config = ConfigDict(extra="allow")


@lru_cache(maxsize=16)
def _reply_model(schema_json: str, schema_name: str) -> type[SchemaReply]:
    schema = json.loads(schema_json)
    schema.setdefault("title", schema_name)
    model = create_model(schema_name, __base__=SchemaReply)

    def model_json_schema(cls: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        return copy.deepcopy(schema)

    model.model_json_schema = classmethod(model_json_schema)  # type: ignore[method-assign,assignment]
    model.__doc__ = f"The grade, as the JSON schema {schema_name!r} says."
    return model


def reply_model(schema: dict[str, Any], schema_name: str) -> type[SchemaReply]:
    """A pydantic model whose JSON schema is ``schema`` (what instructor writes into the request)."""
    return _reply_model(json.dumps(schema, sort_keys=True), schema_name)


def instructor_request(params: dict[str, Any], structured_output: str, model: type[BaseModel]) -> dict[str, Any]:
    """The Chat Completions body instructor sends in this mode (its own request handler, no call)."""
    from instructor.v2.core.providers import Provider as InstructorProvider
    from instructor.v2.core.registry import mode_registry

    handlers = mode_registry.get_handlers(InstructorProvider.OPENAI, instructor_mode(structured_output))
    _, body = handlers.request_handler(model, copy.deepcopy(params))
    return body


def _chain(error: BaseException) -> list[BaseException]:
    out: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and current not in out:
        out.append(current)
        current = current.__cause__ or current.__context__
    return out


def _completion_of(error: BaseException) -> Any:
    """The completion instructor could not read (its last attempt's), if it got one."""
    for e in _chain(error):
        completion = getattr(e, "last_completion", None)
        if completion is not None:
            return completion
    return None


def outcome_of_completion(completion: Any, body: str, fields: dict[str, Any], *, tools: bool) -> CallOutcome:
    """The outcome of a chat completion: its message text (strict and JSON mode) or, in tools mode, the first tool
    call's arguments, classified alike (refused, cut off, not JSON, not an object, ok)."""
    fields = dict(fields)
    try:
        fields.setdefault("request_id", getattr(completion, "_request_id", None))
        if completion.usage is not None:
            fields["input_tokens"] = completion.usage.prompt_tokens
            fields["output_tokens"] = completion.usage.completion_tokens
            details = completion.usage.prompt_tokens_details
            fields["cached_input_tokens"] = getattr(details, "cached_tokens", None) if details else None
        choice = completion.choices[0]
        fields["stop_reason"] = choice.finish_reason
        refusal = choice.message.refusal
        if choice.finish_reason == "content_filter" and refusal is None:
            refusal = "stopped by the content filter"
        calls = choice.message.tool_calls or []
        text = (calls[0].function.arguments or "") if tools and calls else (choice.message.content or "")
    except Exception as error:  # not a chat.completion body (or no choices): keep it, a format failure
        return CallOutcome(
            False, body, error_kind="format", error_message=f"unreadable Chat Completions body: {error!r}", **fields
        )
    return outcome_from_text(
        text, raw_reply=body, truncated=choice.finish_reason == "length", refusal=refusal, **fields
    )
