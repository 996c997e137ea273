"""Asset classes of a season's universe, in PortBench's terms (``asset_classes.yaml``)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import yaml

from grader.season import SeasonInfo

UNINVESTED_CASH = "cash"
"""Cash a trading contestant holds outside any symbol is weight in the cash class."""
EQUITY_LIKE = ("equities", "crypto")
"""PortBench's equity cap counts equity and crypto weight (Table 7)."""
BOND_CASH = ("bonds", "cash")
"""PortBench's bond floor counts bond and cash weight (Table 7)."""
_REAL_ESTATE = re.compile(r"\b(?:real estate|reits?)\b", re.IGNORECASE)


@cache
def _labels() -> dict[str, str]:
    data = yaml.safe_load((Path(__file__).with_name("asset_classes.yaml")).read_text(encoding="utf-8"))
    return {label.lower(): cls for cls, labels in data.items() for label in labels}


def asset_class(label: str, *, sector: str | None = None, industry: str | None = None, name: str = "") -> str:
    """PortBench's class for a bundle ``asset_class`` label; an unknown label is its own class."""
    key = (label or "").strip().lower()
    cls = _labels().get(key, key or "unknown")
    if cls == "equities" and any(_REAL_ESTATE.search(t or "") for t in (sector, industry, name)):
        return "real_estate"
    return cls


def classes_of(info: SeasonInfo) -> dict[str, str]:
    """symbol -> class for every universe entry (the benchmark too when it is in the universe)."""
    return {
        u.symbol: asset_class(u.asset_class, sector=u.sector, industry=u.industry, name=u.name) for u in info.universe
    }
