"""A season bundle loaded once per process for readers (reports, the console, the CLI): keyed by the bundle's
folder and the size and modification time of every file in it, so an edited bundle is read again, never served
stale. What is derived from a cached bundle (replays, the risk market, the decision interval) is kept with it
(:func:`cached_derived`), and dropped with it. Each is computed once when several threads ask for it at the same
time (a console page and its server's background warm-up): the others wait for it rather than compute it beside it."""

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
_COMPUTING: dict[tuple, threading.RLock] = {}  # one lock per bundle or derived value being computed


def _computing(key: tuple) -> threading.RLock:
    """The lock held while ``key`` is computed (re-entrant: a value derived from another takes both, in the order
    of their dependencies, so two threads never wait for each other)."""
    with _LOCK:
        return _COMPUTING.setdefault(key, threading.RLock())


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
    with _computing(key):
        return _load(key, root)


def _load(key: tuple, root: Path) -> SeasonBundle:
    with _LOCK:
        if key in _CACHE:  # loaded by another thread while this one waited
            _CACHE.move_to_end(key)
            return _CACHE[key]
    bundle = load_bundle(root)
    with _LOCK:
        _COMPUTING.pop(key, None)
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
    with _computing(key):
        with _LOCK:
            if key in _DERIVED:  # computed by another thread while this one waited
                return _DERIVED[key]
        value = compute()
        with _LOCK:
            _COMPUTING.pop(key, None)
            if any(b is bundle for b in _CACHE.values()):
                _DERIVED[key] = value
    return value
