"""Peer groups: which options "among defensive sectors", "the top factor" or "the strongest country" ranks
within, read from ``peer_groups.yaml`` and the universe's labels (``PointInTimeStore.labels``)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

Selector = Mapping[str, object]


@dataclass(frozen=True)
class PeerGroup:
    words: tuple[str, ...]
    sets: tuple[tuple[Selector, ...], ...]  # each a union of selectors; () = never concluded

    @property
    def name(self) -> str:
        return self.words[0]


@cache
def peer_groups() -> tuple[PeerGroup, ...]:
    doc = yaml.safe_load(Path(__file__).with_name("peer_groups.yaml").read_text(encoding="utf-8"))
    return tuple(
        PeerGroup(tuple(str(w).lower() for w in g["words"]), tuple(tuple(s) for s in g.get("sets") or ())) for g in doc
    )


@cache
def group_words_pattern() -> re.Pattern[str]:
    """Every group word, longest first, as whole words ("defensive sectors" before "sectors")."""
    words = sorted({w for g in peer_groups() for w in g.words}, key=len, reverse=True)
    return re.compile(
        r"(?<![\w-])(?:" + "|".join(re.sub(r"\\ ", r"[\\s-]+", re.escape(w)) for w in words) + r")(?![\w-])", re.I
    )


def find_group(text: str) -> PeerGroup | None:
    """The peer group a piece of text names (its longest group word), or None."""
    best = None
    for m in group_words_pattern().finditer(text):
        if best is None or len(m.group(0)) >= len(best.group(0)):  # on a tie the later word, the head noun
            best = m
    if best is None:
        return None
    key = _key(best.group(0))
    return next((g for g in peer_groups() if key in {_key(w) for w in g.words}), None)


def _key(words: str) -> str:
    return re.sub(r"[\s-]+", " ", words.strip().lower())


def group_by_name(name: str) -> PeerGroup | None:
    return next((g for g in peer_groups() if g.name == name), None)


def _selects(sel: Selector, symbol: str, labels: Mapping[str, Mapping[str, str]], subject: str) -> bool:
    mine = labels.get(symbol, {})
    for key, wanted in sel.items():
        if key == "all":
            return True
        if key == "same":
            value = labels.get(subject, {}).get(str(wanted))
            return value is not None and mine.get(str(wanted)) == value
        if key == "name":
            name = mine.get("name", "").lower()
            return any(re.search(rf"(?<!\w){re.escape(str(w).lower())}(?!\w)", name) for w in _listed(wanted))
        value = mine.get(key)
        return value is not None and value.lower() in {str(w).lower() for w in _listed(wanted)}
    return False


def _listed(wanted: object) -> Iterable[object]:
    """The values a selector lists (``name: [...]``, ``sector: [...]``)."""
    if not isinstance(wanted, Iterable):
        raise TypeError(f"a selector lists its values, got {wanted!r}")
    return wanted


def members(
    group: PeerGroup, symbols: Iterable[str], labels: Mapping[str, Mapping[str, str]], subject: str
) -> list[set[str]]:
    """One member set per definition of the group (cash excluded), in the order the file gives them."""
    pool = [s for s in symbols if labels.get(s, {}).get("asset_class") != "cash"]
    return [{s for s in pool if any(_selects(sel, s, labels, subject) for sel in union)} for union in group.sets]
