"""Packages whose public names are imported on first use (PEP 562), so a command that needs one light function
does not load everything its package re-exports (pandas, the reports, scipy)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def lazy_exports(package: str, names: dict[str, str], namespace: dict[str, Any]) -> tuple[Callable, Callable]:
    """``(__getattr__, __dir__)`` for ``package``: ``names`` maps each public name to the module defining it;
    a name is imported when first read and then kept in ``namespace`` (the package's globals)."""

    def __getattr__(name: str) -> Any:  # noqa: N807 - the module-level hook's own name
        module = names.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:  # noqa: N807
        return sorted(names)

    return __getattr__, __dir__
