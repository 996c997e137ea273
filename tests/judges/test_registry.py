"""The provider registry: a provider is one class (capabilities as class attributes) plus one line in PROVIDERS, and
nothing outside the registry and the provider files names a provider."""

from __future__ import annotations

import io
import subprocess
import sys
import tokenize
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import ValidationError

from grader.judges import PROVIDERS, JudgeSpec, Provider, make_judge, provider_class, providers_with
from grader.judges._sdk_judge import SdkJudge

REPO = Path(__file__).resolve().parents[2]


class AcmeJudge(SdkJudge[Any], Provider):
    """A provider added the documented way (docs/contributing.md): one class, one registration."""

    label = "Acme"
    default_endpoint = "https://api.acme.invalid/v1"
    key_env = "ACME_API_KEY"
    max_temperature = 1.5

    def __init__(self, spec: JudgeSpec, *, api_key: str) -> None:
        super().__init__(spec, api_key=api_key, factory=lambda: None)


@pytest.fixture
def acme(monkeypatch):
    """'acme' registered for one test (the registry's lookups forgotten before and after)."""
    monkeypatch.setitem(PROVIDERS, "acme", f"{__name__}:AcmeJudge")
    provider_class.cache_clear()
    yield
    provider_class.cache_clear()


def test_every_registered_provider_is_a_provider_class():
    assert set(PROVIDERS) >= {"openai", "anthropic", "xai", "openai-compatible", "reference"}
    for name in PROVIDERS:
        cls = provider_class(name)
        assert issubclass(cls, Provider) and cls.label
        assert cls.structured_outputs[0] == "strict"
        assert (cls.default_endpoint is None) == (name in ("openai-compatible", "reference"))
    assert providers_with(batch_api=True) == ["openai", "anthropic", "xai"]
    assert providers_with(calls_provider=False) == ["reference"]


def test_the_defaults_come_from_the_provider_class():
    xai = JudgeSpec(judge_id="x", provider="xai", model="grok", family="xai")
    assert (xai.endpoint, xai.key_env) == ("api.x.ai:443", "XAI_API_KEY")
    anthropic = JudgeSpec(judge_id="a", provider="anthropic", model="claude", family="anthropic", api_key_env="MINE")
    assert (anthropic.endpoint, anthropic.key_env) == ("https://api.anthropic.com", "MINE")
    with pytest.raises(ValidationError, match=r"temperature in \[0, 1\]"):
        JudgeSpec(judge_id="a", provider="anthropic", model="claude", family="anthropic", temperature=1.2)
    with pytest.raises(ValidationError, match="unknown provider; registered: openai, anthropic"):
        JudgeSpec(judge_id="z", provider="zeta", model="m", family="z")


def test_a_provider_is_one_class_and_one_registration(acme, monkeypatch, tmp_path):
    spec = JudgeSpec(judge_id="acme-1", provider="acme", model="acme-large", family="acme", temperature=1.4)
    assert (spec.endpoint, spec.key_env, spec.provider_class) == (
        "https://api.acme.invalid/v1",
        "ACME_API_KEY",
        AcmeJudge,
    )
    with pytest.raises(ValidationError, match=r"temperature in \[0, 1.5\]"):
        JudgeSpec(judge_id="acme-1", provider="acme", model="acme-large", family="acme", temperature=1.6)
    local = spec.model_copy(update={"base_url": "http://127.0.0.1:9/v1"})
    judge = make_judge(local, allow_real_api_calls=False)
    assert isinstance(judge, AcmeJudge) and judge.spec is local
    # the panel's rules follow the class: no batch API, no fake for a mock panel
    from grader.panel import RunError, load_panel
    from grader.panel._run_checks import check_batch_panel

    panel = tmp_path / "acme.yaml"
    panel.write_text(yaml.safe_dump({"name": "acme", "kind": "real", "judges": [local.model_dump(mode="json")]}))
    with pytest.raises(
        RunError, match="no provider batch API for judge.s. acme-1 .batches exist for OpenAI, Anthropic and xAI."
    ):
        check_batch_panel(load_panel(panel))
    panel.write_text(
        yaml.safe_dump({"name": "acme", "kind": "mock", "mock": {}, "judges": [local.model_dump(mode="json")]})
    )
    with pytest.raises(Exception, match="mock judges are openai, anthropic or xai judges behind local fakes"):
        load_panel(panel)
    monkeypatch.setattr(AcmeJudge, "batch_api", True)  # a batch API declared: the same panel may batch
    panel.write_text(yaml.safe_dump({"name": "acme", "kind": "real", "judges": [local.model_dump(mode="json")]}))
    check_batch_panel(load_panel(panel))


def test_a_registration_that_is_not_a_provider_class_is_refused(monkeypatch):
    monkeypatch.setitem(PROVIDERS, "broken", "grader.judges._spec:JudgeSpec")
    provider_class.cache_clear()
    try:
        with pytest.raises(TypeError, match="is not a grader.judges.Provider subclass"):
            provider_class("broken")
    finally:
        provider_class.cache_clear()


# -- no provider named outside the registry ---------------------------------------------------------------------

PROVIDER_FILES = {
    "grader/judges/_registry.py",
    "grader/judges/openai.py",
    "grader/judges/anthropic.py",
    "grader/judges/xai.py",
    "grader/judges/openai_compatible.py",
    "grader/judges/reference.py",
}
ELSEWHERE = ("grader/fakes/", "grader/demo/", "grader/anonymizer/")
"""Not judge providers: the fakes are keyed by wire format, the demo's and the anonymizer's names are contestants'
provider families (who wrote a decision), not judges."""


def _string_literals(path: Path) -> list[tuple[int, str]]:
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text()).readline)
    out = []
    for token in tokens:
        if token.type == tokenize.STRING and not token.string.startswith(('"""', "'''", 'r"""', 'f"""')):
            try:
                value = eval(token.string)  # noqa: S307 - a literal token of our own source
            except Exception:  # noqa: BLE001 - an f-string: its text is not a provider name
                continue
            out.append((token.start[0], value))
    return out


def test_no_provider_name_outside_the_registry():
    names = {name for name in PROVIDERS if name != "reference"}
    found = []
    for path in sorted((REPO / "grader").rglob("*.py")):
        rel = path.relative_to(REPO).as_posix()
        if rel in PROVIDER_FILES or rel.startswith(ELSEWHERE) or "/migrations/" in rel:
            continue
        found += [f"{rel}:{line}: {value!r}" for line, value in _string_literals(path) if value in names]
    assert not found, "provider names outside the registry:\n" + "\n".join(found)


def test_validating_a_panel_loads_only_its_providers_sdks():
    code = (
        "import sys\n"
        "from grader.panel import load_panel\n"
        "load_panel('reference')\n"
        "print(','.join(m for m in ('openai', 'anthropic', 'xai_sdk', 'grpc', 'instructor') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert done.stdout.strip() == ""


def test_the_stainless_sdks_load_without_their_unused_aiohttp_transport_which_stays_importable():
    code = (
        "import sys\n"
        "from grader.judges import provider_class\n"
        "provider_class('openai'); provider_class('anthropic')\n"
        "print('aiohttp' in sys.modules, 'openai' in sys.modules and 'anthropic' in sys.modules)\n"
        "import aiohttp\n"
        "print(aiohttp.ClientSession.__name__)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert done.stdout.split() == ["False", "True", "ClientSession"]


def test_the_openai_judge_loads_the_responses_resource_alone_and_the_sdk_loads_the_rest_when_asked():
    code = (
        "import sys\n"
        "from grader.judges import provider_class\n"
        "provider_class('openai')\n"
        "from openai import AsyncOpenAI\n"
        "client = AsyncOpenAI(api_key='sk-test')\n"
        "responses = client.responses.with_raw_response\n"
        "print('openai.resources.responses' in sys.modules, 'openai.resources' in sys.modules,\n"
        "      'openai.resources.chat' in sys.modules)\n"
        "chat = client.chat.completions\n"  # another resource, then a name of the package's __init__
        "import openai.resources as resources\n"
        "print(type(chat).__name__, resources.responses is sys.modules['openai.resources.responses'],\n"
        "      resources.AsyncBeta.__name__, 'openai.resources.beta' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert done.stdout.split() == ["True", "True", "False", "AsyncCompletions", "True", "AsyncBeta", "True"]


def test_a_module_imported_without_its_package_init_runs_it_when_the_package_is_asked_for_a_name(tmp_path, monkeypatch):
    from grader.judges._registry import import_without_package_init

    package = tmp_path / "heavy_sdk_pkg"
    package.mkdir()
    (package / "__init__.py").write_text(
        "import sys\nsys.heavy_inits = getattr(sys, 'heavy_inits', 0) + 1\nfrom .light import VALUE\nfrom . import other\n"
    )
    (package / "light.py").write_text("VALUE = 42\n")
    (package / "other.py").write_text("OTHER = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "heavy_inits", 0, raising=False)
    for name in ("heavy_sdk_pkg", "heavy_sdk_pkg.light", "heavy_sdk_pkg.other"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    light = import_without_package_init("heavy_sdk_pkg.light")
    assert light.VALUE == 42
    assert sys.heavy_inits == 0  # type: ignore[attr-defined]
    assert "heavy_sdk_pkg.other" not in sys.modules
    import heavy_sdk_pkg  # type: ignore[import-not-found]

    assert heavy_sdk_pkg.light is light and sys.heavy_inits == 0  # type: ignore[attr-defined]
    from heavy_sdk_pkg import VALUE  # type: ignore[import-not-found]

    assert VALUE == 42 and heavy_sdk_pkg.other.OTHER == 1
    assert sys.heavy_inits == 1  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        heavy_sdk_pkg.missing  # noqa: B018
    assert sys.heavy_inits == 1  # type: ignore[attr-defined]


def test_the_openai_judge_loads_without_the_sdks_package_inits_which_run_when_a_name_is_asked_for():
    code = (
        "import sys\n"
        "from grader.judges import provider_class\n"
        "provider_class('openai')\n"
        "print(*(m in sys.modules for m in ('openai.types.beta', 'openai.types.graders', 'openai.lib.azure')))\n"
        "from grader.judges.openai import APIStatusError, AsyncOpenAI\n"
        "import openai\n"
        "print(openai.AsyncOpenAI is AsyncOpenAI, openai.APIStatusError is APIStatusError, APIStatusError.__module__)\n"
        "print(type(openai.types.Batch).__name__, openai.types.beta.Assistant.__name__)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert done.stdout.split() == ["False", "False", "False", "True", "True", "openai", "ModelMetaclass", "Assistant"]


def test_a_module_of_a_package_without_its_init_imports_its_sibling_modules_alone(tmp_path, monkeypatch):
    from grader.judges._registry import import_without_package_init

    package = tmp_path / "heavy_sdk_pkg2"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("import sys\nsys.heavy_inits2 = getattr(sys, 'heavy_inits2', 0) + 1\n")
    (package / "sub" / "__init__.py").write_text("import sys\nsys.heavy_inits2 += 10\nNAME = 'sub'\n")
    (package / "sub" / "leaf.py").write_text("LEAF = 3\n")
    (package / "client.py").write_text("from . import errors\nfrom .sub.leaf import LEAF\nVALUE = errors.E + LEAF\n")
    (package / "errors.py").write_text("E = 4\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "heavy_inits2", 0, raising=False)
    names = ("heavy_sdk_pkg2", "heavy_sdk_pkg2.sub", "heavy_sdk_pkg2.sub.leaf", "heavy_sdk_pkg2.client")
    for name in (*names, "heavy_sdk_pkg2.errors"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    client = import_without_package_init("heavy_sdk_pkg2.client", "heavy_sdk_pkg2", "heavy_sdk_pkg2.sub")
    assert client.VALUE == 7 and sys.heavy_inits2 == 0  # type: ignore[attr-defined]
    import heavy_sdk_pkg2  # type: ignore[import-not-found]

    assert heavy_sdk_pkg2.sub.leaf.LEAF == 3 and sys.heavy_inits2 == 0  # type: ignore[attr-defined]
    assert heavy_sdk_pkg2.sub.NAME == "sub" and sys.heavy_inits2 == 10  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        heavy_sdk_pkg2.missing  # noqa: B018
    assert sys.heavy_inits2 == 11  # type: ignore[attr-defined]
