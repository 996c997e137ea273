"""A season bundle loaded once per process for readers (reports, the console, the CLI): keyed by the bundle's
folder and the size and modification time of every file in it, so an edited bundle is read again, never served
stale. What is derived from a cached bundle (replays, the risk market, the decision interval) is kept with it
(:func:`cached_derived`), and dropped with it."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from grader.season._loader import SeasonBundle, load_bundle

__all__ = ["cached_bundle", "cached_derived"]

_CACHE: OrderedDict[tuple, SeasonBundle] = OrderedDict()
_DERIVED: dict[tuple[int, str], Any] = {}
_LOCK = threading.Lock()
_KEEP = 4


def _stamp(root: Path) -> tuple:
    files = sorted(p for p in root.rglob("*") if p.is_file())
    return tuple((str(p.relative_to(root)), p.stat().st_mtime_ns, p.stat().st_size) for p in files)


def cached_bundle(source: Path | str) -> SeasonBundle:
    """``load_bundle(source)``, reused while no file of the bundle changed (the same errors when invalid)."""
    root = Path(source).resolve()
    key = (str(root), _stamp(root))
    with _LOCK:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key]
    bundle = load_bundle(root)
    with _LOCK:
        _CACHE[key] = bundle
        while len(_CACHE) > _KEEP:
            _CACHE.popitem(last=False)
        live = {id(b) for b in _CACHE.values()}
        for stale in [k for k in _DERIVED if k[0] not in live]:
            del _DERIVED[stale]
    return bundle


def cached_derived(bundle: Any, name: str, compute: Callable[[], Any]) -> Any:
    """``compute()`` once per cached bundle and ``name`` (just computed, not kept, for a bundle not in the cache)."""
    key = (id(bundle), name)
    with _LOCK:
        if key in _DERIVED:
            return _DERIVED[key]
    value = compute()
    with _LOCK:
        if any(b is bundle for b in _CACHE.values()):
            _DERIVED[key] = value
    return value
