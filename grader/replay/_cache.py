"""A cached season's replays, kept with the bundle (``grader.season.cached_bundle``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from grader.replay._portfolio import SeasonReplays
from grader.season import cached_derived

__all__ = ["cached_replays"]


def cached_replays(bundle: Any) -> Mapping:
    """Every contestant's replay of a cached bundle, each computed when first asked (``SeasonReplays``; {} for a
    rounds season); just computed, not kept, for a bundle not in the cache."""
    return cached_derived(bundle, "replays", lambda: SeasonReplays(bundle) if bundle.info.format == "trading" else {})
