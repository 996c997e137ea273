"""The provider registry: every judge provider is one class in its own file, registered here by one line.

A provider's class states what the rest of the grader needs to know of it as class attributes (``Provider``):
where it is reached by default and how (``base_url`` or gRPC ``host``), which environment variable holds its key,
whether it has a batch API, how it caches prompts, which structured-output modes it offers, which local fake
speaks its wire format. Nothing outside this registry names a provider: the panel, the costs, the mock panel and
the batch path ask the class (``provider_class(spec.provider).batch_api`` ...).

Adding a provider (docs/contributing.md): write ``grader/judges/<name>.py`` with a class that subclasses
``SdkJudge`` and ``Provider``, sets its attributes and implements ``call`` and ``request_params``; then add one
line to ``PROVIDERS`` below. Classes are imported when first asked for, so a panel without xAI never loads gRPC
and nothing loads a provider SDK before a panel names that provider.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import threading
from contextlib import contextmanager
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, Literal

if TYPE_CHECKING:
    from ._spec import JudgeSpec

PROVIDERS: dict[str, str] = {
    "openai": "grader.judges.openai:OpenAIJudge",
    "anthropic": "grader.judges.anthropic:AnthropicJudge",
    "xai": "grader.judges.xai:XaiJudge",
    "openai-compatible": "grader.judges.openai_compatible:OpenAICompatibleJudge",
    "reference": "grader.judges.reference:ReferenceProvider",
}
"""Provider name (the panel file's ``provider:``) -> ``module:Class`` of its provider class."""

StructuredOutput = Literal["strict", "json_object", "tools"]
"""How a judge asks for JSON: ``strict`` (the provider enforces the JSON schema natively), ``json_object`` (JSON
mode: any JSON object, the schema given in the prompt) or ``tools`` (a function call whose parameters are the schema,
not enforced). The last two go through ``instructor``; the grader validates every reply against the schema."""


class Provider:
    """What the grader knows of a provider, as class attributes (read without an instance or a key).

    A provider judge subclasses this beside ``SdkJudge``; ``build`` makes one judge of a panel file's spec."""

    label: ClassVar[str] = ""
    """The provider's name as people write it ("OpenAI"), for messages."""
    calls_provider: ClassVar[bool] = True
    """False for the offline reference judge: no client, no key, no rate limits."""
    endpoint_field: ClassVar[Literal["base_url", "host"]] = "base_url"
    """How the panel file says where it is: an HTTP ``base_url`` or a gRPC ``host`` ('host:port')."""
    default_endpoint: ClassVar[str | None] = None
    """Where calls go when the panel file gives no endpoint; None: the panel file must give one."""
    key_env: ClassVar[str | None] = None
    """The environment variable holding the key when the panel file names none; None: no key needed."""
    max_temperature: ClassVar[float] = 2.0
    """The highest temperature the provider accepts."""
    batch_api: ClassVar[bool] = False
    """The provider has a batch API (the judge implements ``BatchJudge``: submit, state, results)."""
    prompt_cache: ClassVar[Literal["none", "automatic", "breakpoints"]] = "none"
    """How the provider caches a shared prompt prefix: not at all (as far as the grader knows), by itself
    (``automatic``: OpenAI, xAI), or at explicit breakpoints whose writes are billed apart (Anthropic)."""
    structured_outputs: ClassVar[tuple[StructuredOutput, ...]] = ("strict",)
    """The structured-output modes a panel file may choose (``JudgeSpec.structured_output``); the first is the
    default. ``strict`` is native strict-schema support."""
    fake: ClassVar[str | None] = None
    """The ``grader.fakes`` server that speaks this provider's wire format (a mock panel's judges run on it);
    None: no mock judge of this provider."""

    @classmethod
    def build(cls, spec: JudgeSpec, *, api_key: str, local: bool) -> Any:
        """The judge for ``spec`` (``local``: its endpoint is loopback)."""
        return cls(spec, api_key=api_key)  # type: ignore[call-arg]


class UnknownProvider(ValueError):
    """A panel file names a provider that is not registered."""


def provider_names() -> tuple[str, ...]:
    """Every registered provider, in registration order."""
    return tuple(PROVIDERS)


@cache
def provider_class(name: str) -> type[Provider]:
    """The provider class registered as ``name`` (its module imported on first use)."""
    try:
        module, attribute = PROVIDERS[name].split(":")
    except KeyError:
        raise UnknownProvider(f"unknown provider {name!r}; registered: {', '.join(PROVIDERS)}") from None
    try:
        with _unused_transports_hidden():
            loaded = importlib.import_module(module)
    except ImportError as error:  # a provider that needs one of them after all: imported as it is
        if (error.name or "").split(".")[0] not in UNUSED_TRANSPORTS:
            raise
        loaded = importlib.import_module(module)
    cls = getattr(loaded, attribute)
    if not (isinstance(cls, type) and issubclass(cls, Provider)):
        raise TypeError(f"{PROVIDERS[name]} (provider {name!r}) is not a grader.judges.Provider subclass")
    return cls


UNUSED_TRANSPORTS = frozenset({"aiohttp"})
"""Optional HTTP transports the Stainless SDKs (OpenAI, Anthropic) import when installed, only to offer them
(``DefaultAioHttpClient``); the judges use the SDKs' default httpx transport. Hidden while a provider's module is
imported: ~0.1 s of a run's start-up."""


class _Hidden:
    """A meta path finder that answers 'not installed' for :data:`UNUSED_TRANSPORTS` (and their submodules)."""

    @staticmethod
    def find_spec(name: str, path: Any = None, target: Any = None) -> None:
        if name.split(".")[0] in UNUSED_TRANSPORTS:
            raise ModuleNotFoundError(f"No module named {name!r} (not needed by the judges)", name=name)


@contextmanager
def _unused_transports_hidden():  # noqa: ANN202
    if any(name in sys.modules for name in UNUSED_TRANSPORTS):  # already loaded by something else: nothing to save
        yield
        return
    finder = _Hidden()
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)


def import_without_package_init(name: str, *packages: str) -> ModuleType:
    """Import the module ``name`` without running its package's ``__init__`` yet (nor those of ``packages``, its
    package's ancestors or other packages it imports from), for each of them not loaded yet.

    For the Stainless SDKs' ``resources`` packages: their ``__init__`` imports every resource of the API (OpenAI's:
    0.32 s, the admin, beta, evals, audio ... resources) when a client's first call reaches the one resource a judge
    uses (``client.responses``: ``openai.resources.responses``, 0.07 s by itself). A package's module is made from
    its spec (its path, so its modules are found and bound to it as usual) and its ``__init__`` runs in it the first
    time something asks it for a name it lacks that is not one of its modules (a module ``__getattr__``, PEP 562):
    ``from openai.resources import Chat`` works as before, only later, while ``from . import _exceptions`` imports
    that module alone."""
    package = name.rpartition(".")[0]
    if name in sys.modules or not package:
        return importlib.import_module(name)
    made = [shell for shell in map(_package_shell, (*packages, package)) if shell is not None]
    try:
        return importlib.import_module(name)
    except BaseException:
        for shell in made:
            if sys.modules.get(shell.__name__) is shell:
                del sys.modules[shell.__name__]
        raise


def _package_shell(package: str) -> ModuleType | None:
    """The module of ``package`` put in ``sys.modules`` with its ``__init__`` not run yet (None: already loaded, or
    not a package). Its parent package must be loaded or shelled first."""
    if package in sys.modules:
        return None
    spec = importlib.util.find_spec(package)
    if spec is None or spec.loader is None or spec.submodule_search_locations is None:
        return None
    shell, loader = importlib.util.module_from_spec(spec), spec.loader
    lock, state = threading.RLock(), {"init": "not run"}

    def complete(attribute: str) -> Any:
        if state["init"] == "not run" and not attribute.startswith("__"):
            module = f"{package}.{attribute}"
            if module in sys.modules or importlib.util.find_spec(module) is not None:
                return importlib.import_module(module)  # one of its modules (``from . import _exceptions``)
        with lock:  # another thread waits for the __init__; a lookup from inside it sees a module being initialised
            if state["init"] == "not run":
                state["init"] = "running"
                loader.exec_module(shell)
                state["init"] = "done"
                if shell.__dict__.get("__getattr__") is complete:
                    del shell.__dict__["__getattr__"]
        try:
            return shell.__dict__[attribute]
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {attribute!r}") from None

    shell.__dict__["__getattr__"] = complete
    sys.modules[package] = shell
    parent, _, child = package.rpartition(".")
    if parent and parent in sys.modules:
        setattr(sys.modules[parent], child, shell)
    return shell


def providers_with(**capabilities: Any) -> list[str]:
    """The registered providers whose class attributes equal ``capabilities`` (e.g. ``batch_api=True``); imports
    every provider class, so for messages and checks that need all of them."""
    return [
        name
        for name in PROVIDERS
        if all(getattr(provider_class(name), key) == value for key, value in capabilities.items())
    ]


def provider_labels(names: list[str]) -> str:
    """'OpenAI, Anthropic and xAI': the providers' labels for a message."""
    words = [provider_class(name).label or name for name in names]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
