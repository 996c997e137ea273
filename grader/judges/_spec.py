"""A panel file's judge: `JudgeSpec` (provider, model, endpoint, limits, structured-output mode) and its `Pricing`.

What a spec may hold follows its provider's registered class (``grader.judges._registry.Provider``).
"""

from __future__ import annotations

import re
from typing import Any, Self

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_serializer, model_validator

from ._ratelimits import RateLimits
from ._registry import PROVIDERS, Provider, StructuredOutput, provider_class, providers_with


class Pricing(BaseModel):
    """USD per million tokens, from the panel file."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    input_per_mtok: float = Field(ge=0)
    output_per_mtok: float = Field(ge=0)
    cached_input_per_mtok: float | None = Field(default=None, ge=0)
    """Input tokens read from the provider's prompt cache (default: the input price, i.e. no discount known)."""
    cache_write_per_mtok: float | None = Field(default=None, ge=0)
    """Input tokens written to the cache where the provider bills writes (Anthropic; default: the input price)."""
    batch_factor: float | None = Field(default=None, gt=0, le=1)
    """What a call through the provider's batch API costs against the same call made synchronously (0.5: half
    price, the discount OpenAI, Anthropic and xAI give batches); unset: batch calls are priced in full."""

    def cost_usd(
        self,
        input_tokens: int | None,
        output_tokens: int | None,
        cached_input_tokens: int | None = 0,
        cache_write_tokens: int | None = 0,
        *,
        batch: bool = False,
    ) -> float:
        """List-price dollars of one call. ``input_tokens`` is every input token, cached and written included;
        ``batch``: sent through the provider's batch API (``batch_factor`` applies)."""
        factor = (self.batch_factor or 1.0) if batch else 1.0
        cached, written = cached_input_tokens or 0, cache_write_tokens or 0
        plain = max(0, (input_tokens or 0) - cached - written)
        cached_price = self.input_per_mtok if self.cached_input_per_mtok is None else self.cached_input_per_mtok
        write_price = self.input_per_mtok if self.cache_write_per_mtok is None else self.cache_write_per_mtok
        return (
            factor
            * (
                plain * self.input_per_mtok
                + cached * cached_price
                + written * write_price
                + (output_tokens or 0) * self.output_per_mtok
            )
            / 1e6
        )


class JudgeSpec(BaseModel):
    """One judge of a panel: which provider and model, where, how long to wait, what it costs.

    `provider` is a name registered in ``grader.judges._registry.PROVIDERS``; what the spec may hold follows the
    provider class (``Provider``): `base_url` for HTTP providers (required where the class has no default
    endpoint), `host` ("host:port") for gRPC ones, a temperature up to the class's ``max_temperature``, a
    `structured_output` mode among its ``structured_outputs``. `api_key_env` names the environment variable holding
    the key (never the key itself); left empty it defaults to the class's ``key_env``. Validation errors never
    echo input values, so a key pasted by mistake is not printed back.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, hide_input_in_errors=True)

    judge_id: str = Field(min_length=1)
    provider: str
    model: str = Field(min_length=1)
    family: str = Field(min_length=1)
    base_url: str | None = None
    host: str | None = None
    api_key_env: str | None = None
    timeout_s: float = Field(default=120.0, gt=0)
    max_output_tokens: int = Field(default=4096, gt=0)
    temperature: float | None = Field(default=None, ge=0, le=2)
    pricing: Pricing | None = None
    context_window: int | None = Field(default=None, gt=0)
    """The model's context window in tokens (from the panel file): a prompt that would not fit with room for the
    reply (``max_output_tokens``) is refused before any paid call."""
    rate_limits: RateLimits | None = None
    """The provider tier's limits per minute for this judge's key and model (requests, tokens, input and output
    tokens): its requests are paced to approach them, not hit them (``grader.panel._pacing``)."""
    structured_output: StructuredOutput = "strict"
    """How the judge asks for JSON (``StructuredOutput``): ``strict`` unless its provider offers other modes (the
    openai-compatible judge: ``json_object`` or ``tools`` for hosts without strict schemas, through instructor)."""

    @model_serializer(mode="wrap")
    def _without_default_mode(self, handler: Any) -> dict[str, Any]:
        """``structured_output`` left out at its default (``strict``): a panel that does not set it dumps and hashes
        as it did before the field existed (stored ``panel_doc``, ``PanelConfig.content_hash``)."""
        data = handler(self)
        if data.get("structured_output") == "strict":
            data.pop("structured_output")
        return data

    @field_validator("provider")
    @classmethod
    def _registered(cls, value: str) -> str:
        if value not in PROVIDERS:
            raise ValueError(f"unknown provider; registered: {', '.join(PROVIDERS)}")
        return value

    @model_validator(mode="after")
    def _endpoint_fits_provider(self) -> Self:
        provider = self.provider_class
        name = self.provider
        if provider.endpoint_field == "host" and self.base_url is not None:
            raise ValueError(f"an {name} judge is reached over gRPC: give `host` ('host:port'), not `base_url`")
        if provider.endpoint_field != "host" and self.host is not None:
            hosts = " or ".join(providers_with(endpoint_field="host"))
            raise ValueError(f"`host` is only for {hosts} judges; a {name} judge takes `base_url`")
        if provider.calls_provider and provider.default_endpoint is None and not self.endpoint_given:
            raise ValueError(f"an {name} judge needs `{provider.endpoint_field}` (e.g. http://127.0.0.1:8000/v1)")
        if self.temperature is not None and self.temperature > provider.max_temperature:
            raise ValueError(
                f"an {name} judge takes a temperature in [0, {provider.max_temperature:g}], got {self.temperature}"
            )
        if self.structured_output not in provider.structured_outputs:
            raise ValueError(
                f"an {name} judge offers structured_output {' | '.join(provider.structured_outputs)}, "
                f"not {self.structured_output!r}"
            )
        if self.api_key_env is not None and not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", self.api_key_env):
            raise ValueError(
                "`api_key_env` must be the NAME of an environment variable (letters, digits, underscore), not a key"
            )
        return self

    @property
    def provider_class(self) -> type[Provider]:
        """The registered class of this judge's provider: its capabilities as class attributes."""
        return provider_class(self.provider)

    @property
    def endpoint_given(self) -> str | None:
        """The endpoint the panel file gave (``base_url`` or ``host``, as the provider is reached), if any."""
        return self.host if self.provider_class.endpoint_field == "host" else self.base_url

    @property
    def endpoint(self) -> str:
        """Where calls go: the base URL (HTTP) or host:port (gRPC), the provider's default filled in."""
        return self.endpoint_given or self.provider_class.default_endpoint or ""

    @property
    def key_env(self) -> str | None:
        """The environment variable the key is read from (None: no key needed, e.g. openai-compatible)."""
        return self.api_key_env or self.provider_class.key_env
