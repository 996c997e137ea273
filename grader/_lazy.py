"""Work done when first needed.

- ``lazy_exports``: packages whose public names are imported on first use (PEP 562), so a command that needs one
  light function does not load everything its package re-exports (pandas, the reports, scipy).
- ``LazyMapping``: a read-only mapping whose values are computed when first read (per-symbol fields,
  per-contestant replays, risk facts and outcomes: a streamed grading run's first prompt does not wait for the
  whole season).
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, TypeVar

__all__ = ["LazyMapping", "lazy_exports"]

K = TypeVar("K")
V = TypeVar("V")


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


class LazyMapping(Mapping[K, V]):
    """The keys are known up front; ``compute(key)`` gives a key's value the first time it is read, once. Safe to
    read from several threads (values are computed under a lock, read without one)."""

    def __init__(self, keys: Iterable[K], compute: Callable[[K], V]) -> None:
        self._keys = list(dict.fromkeys(keys))
        self._known = frozenset(self._keys)
        self._compute = compute
        self._values: dict[K, V] = {}
        self._lock = threading.RLock()

    def __getitem__(self, key: K) -> V:
        try:
            return self._values[key]
        except KeyError:
            if key not in self._known:
                raise
        with self._lock:
            if key not in self._values:
                self._values[key] = self._compute(key)
            return self._values[key]

    def __contains__(self, key: object) -> bool:
        return key in self._known

    def __iter__(self) -> Iterator[K]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    @property
    def computed(self) -> list[K]:
        """The keys whose values exist so far, in the order they were computed."""
        return list(self._values)
