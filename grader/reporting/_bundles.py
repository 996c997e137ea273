"""A season bundle loaded once per process for readers (reports, the console): keyed by the bundle's folder and
the size and modification time of every file in it, so an edited bundle is read again, never served stale.
What is derived from a cached bundle (replays, the risk market, the decision interval) is kept with it."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

_CACHE: OrderedDict[tuple, Any] = OrderedDict()
_DERIVED: dict[tuple[int, str], Any] = {}
_LOCK = threading.Lock()
_KEEP = 4


def _stamp(root: Path) -> tuple:
    files = sorted(p for p in root.rglob("*") if p.is_file())
    return tuple((str(p.relative_to(root)), p.stat().st_mtime_ns, p.stat().st_size) for p in files)


def cached_bundle(source: Path | str):  # noqa: ANN201 - a grader.season.SeasonBundle
    """``load_bundle(source)``, reused while no file of the bundle changed (the same errors when invalid)."""
    from grader.season import load_bundle

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


def _derived(bundle: Any, name: str, compute: Callable[[], Any]) -> Any:
    """``compute()`` once per cached bundle (not kept for a bundle that is not in the cache)."""
    key = (id(bundle), name)
    with _LOCK:
        if key in _DERIVED:
            return _DERIVED[key]
    value = compute()
    with _LOCK:
        if any(b is bundle for b in _CACHE.values()):
            _DERIVED[key] = value
    return value


def cached_replays(bundle: Any) -> Mapping:
    """Every contestant's replay of a cached bundle, each computed when first asked (``SeasonReplays``; {} for a
    rounds season)."""
    from grader.replay import SeasonReplays

    return _derived(bundle, "replays", lambda: SeasonReplays(bundle) if bundle.info.format == "trading" else {})


def cached_market(bundle: Any) -> Any:
    """The risk market of a cached trading season (trailing-window statistics per date, shared by every
    contestant), or None for a rounds season."""
    from grader.risk import season_market

    return _derived(bundle, "market", lambda: season_market(bundle) if bundle.info.format == "trading" else None)


def cached_interval(bundle: Any) -> int:
    """The season's decision interval in sessions (``grader.risk.decision_interval``)."""
    from grader.risk import decision_interval

    return _derived(bundle, "interval", lambda: decision_interval(bundle))


def cached_risk_summaries(bundle: Any) -> Mapping:
    """contestant key -> its decisions' risk means (``ContestantRisk.summary()``: VaR95 and CVaR95 over one session
    and over the decision interval) of a cached trading season; {} for a rounds season (no daily prices)."""
    from grader.risk import contestant_risk

    def compute() -> dict[str, dict]:
        if bundle.info.format != "trading":
            return {}
        market, horizon, replays = cached_market(bundle), cached_interval(bundle), cached_replays(bundle)
        return {c.id: contestant_risk(bundle, c.id, market=market, horizon=horizon,
                                      nav=replays[c.id].nav if c.id in replays else None).summary()
                for c in bundle.contestants}

    return _derived(bundle, "risk_summaries", compute)
