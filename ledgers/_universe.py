"""Who a rationale is talking about: the options of a season found in text by ticker, option id, official name,
the name without generic words ("Semiconductors" for "Semiconductors ETF", "Energy" or "energy" for "Energy
Sector"), and the names market writers use for them ("semis", "biotech", "staples", "Korea", "crude", "small
caps"; ``colloquial_names.yaml``). A name right after "vs", "than", "relative to", "correlation to", ... is a
comparison reference, not a subject.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any, Protocol

import yaml

from ledgers.reading import Mention

_GENERIC_TAIL = re.compile(
    r",?\s+(?:Equities|Equity|Sector|Stocks?|ETF|Fund|Index|Shares|Inc\.?|Incorporated|Corp\.?|Corporation|Co\.?|"
    r"Company|Ltd\.?|Limited|plc|PLC|Holdings|Group|N\.V\.|S\.A\.|AG|SE)$",
    re.I,
)
_GENERIC_HEAD = re.compile(r"^(?:US|U\.S\.)\s+", re.I)
_BLOCKED = {
    "momentum",
    "value",
    "growth",
    "dividend",
    "cash",
    "quality",
    "size",
    "yield",
    "income",
    "credit",
    "low volatility",
    "min volatility",
}
_REFERENCE_BEFORE = re.compile(
    r"(?:\bvs\.?|\bversus|\bunlike|\bcompared\s+(?:with|to)|\brelative\s+to|\bagainst|\bthan|\boutperform\w*|\bunderperform\w*|\bbeat\w*|"
    r"\blag\w*|\btrail\w*|\bahead\s+of|\bbehind|\b(?:corr(?:elation)?|beta)\s+(?:to|with|vs\.?)|\bbeta\s+of)\s+(?:the\s+)?$",
    re.I,
)


_MEASURED_AGAINST_AFTER = re.compile(r"(?:['\u2019]s)?[\s-]*(?:beta|corr\b|correlation)", re.I)
""""SPY beta", "S&P 500 correlation": the benchmark named right before the measure it is taken against."""


_RAW_KEY = re.compile(r"(?<![\w])([a-z]{2,5})_(?:return|minus|vs|off|up|beta|vol|corr|dd|\d{1,3}[dswmy]\b)", re.I)


@cache
def _colloquial_doc() -> dict[str, Any]:
    doc = yaml.safe_load((Path(__file__).with_name("colloquial_names.yaml")).read_text(encoding="utf-8"))
    return dict(doc or {})


@cache
def colloquial_names() -> dict[str, tuple[str, ...]]:
    """phrase of an official name -> the names writers use for such an option (``colloquial_names.yaml``)."""
    return {str(k).lower(): tuple(str(a) for a in v) for k, v in _colloquial_doc().items() if k != "uncertain"}


@cache
def uncertain_names() -> dict[str, tuple[str, ...]]:
    """phrase of an official name -> names that usually, not always, mean such an option ("tech"): they find and
    support claims, never contradict them (``colloquial_names.yaml``, ``uncertain:``)."""
    doc = _colloquial_doc().get("uncertain") or {}
    assert isinstance(doc, dict)
    return {str(k).lower(): tuple(str(a) for a in v) for k, v in doc.items()}


def _colloquial(names: Mapping[str, list[str]], table: Mapping[str, tuple[str, ...]]) -> dict[str, list[str]]:
    """symbol -> colloquial names, for phrases that occur in exactly one option's official name (a phrase two
    options share names neither)."""
    owners: dict[str, list[str]] = {}
    for symbol, aliases in names.items():
        text = " ".join(aliases).lower()
        for phrase in table:
            if re.search(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])", text):
                owners.setdefault(phrase, []).append(symbol)
    out: dict[str, list[str]] = {}
    for phrase, symbols in owners.items():
        if len(set(symbols)) == 1:
            out.setdefault(symbols[0], []).extend(table[phrase])
    return out


def _norm(text: str) -> str:
    return re.sub(r"[\s_\-]+", " ", text.strip()).lower()


def _as_aliases(value: object) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        out = [str(value[k]) for k in ("name", "option_id", "id") if value.get(k)]
        out += [str(a) for a in value.get("aliases", []) or []]
        return out
    if isinstance(value, Iterable):
        return [str(v) for v in value if v]
    name = getattr(value, "name", None)
    return [str(name)] if name else []


class UniverseMember(Protocol):
    """A universe entry as a list holds it (``UniverseEntry``): its symbol names it."""

    @property
    def symbol(self) -> str: ...


class UniverseIndex:
    """Finds universe members in text by ticker, name, option id and short name."""

    def __init__(self, universe: Mapping[str, object] | Iterable[UniverseMember], benchmark: str | None = None):
        if not isinstance(universe, Mapping):  # e.g. a list of UniverseEntry
            universe = {u.symbol: u for u in universe}
        self.benchmark = benchmark
        exact: dict[str, str] = {}  # case-sensitive (tickers, Title/UPPER short names)
        loose: dict[str, str] = {}  # case-insensitive (full names, option ids)
        official = {symbol: _as_aliases(value) for symbol, value in universe.items()}
        spoken = _colloquial(official, colloquial_names())
        vague = _colloquial(official, uncertain_names())
        taken = {_norm(a) for aliases in official.values() for a in aliases}
        uncertain: set[str] = set()
        for symbol, aliases in official.items():
            exact[symbol] = symbol
            for name in spoken.get(symbol, []):  # never over an official name of another option
                if _norm(name) not in taken:
                    loose.setdefault(_norm(name), symbol)
            for name in vague.get(symbol, []):
                if _norm(name) not in taken and _norm(name) not in loose:
                    loose[_norm(name)] = symbol
                    uncertain.add(_norm(name))
            for alias in aliases:
                alias = alias.strip()
                if not alias:
                    continue
                if re.fullmatch(r"[A-Z0-9_&]+", alias) or _norm(alias) in _BLOCKED:
                    exact.setdefault(alias, symbol)  # option ids and generic words: case-sensitive
                else:
                    loose.setdefault(_norm(alias), symbol)
                short = _GENERIC_HEAD.sub("", _GENERIC_TAIL.sub("", alias)).strip()
                variants = {short, _GENERIC_TAIL.sub("", alias).strip()}
                for variant in variants:
                    if variant and variant != alias and _norm(variant) not in _BLOCKED and len(variant) > 2:
                        exact.setdefault(variant, symbol)
                        exact.setdefault(variant.upper().replace(" ", "_").replace("-", "_"), symbol)
                        if len(variant) >= 5 and not variant.isupper():  # "energy", "utilities": any case
                            loose.setdefault(_norm(variant), symbol)
        if benchmark is None:
            for key in ("s&p 500", "sp500", "spy"):
                if key in loose:
                    self.benchmark = loose[key]
                    break
            else:
                self.benchmark = exact.get("SPY")
        self._exact = exact
        self._loose = loose
        self._uncertain = frozenset(uncertain)
        words: dict[str, set[str]] = {}
        for table in (exact, loose):
            for name, symbol in table.items():
                if name in uncertain:
                    continue
                words.setdefault(symbol, set()).update(w for w in re.split(r"[\s_\-/().,&']+", name.lower()) if w)
        self._words = words
        self._exact_re = self._compile(exact, case=True)
        self._loose_re = self._compile({k: v for k, v in loose.items() if k not in uncertain}, case=False)
        self._loose_all_re = self._compile(loose, case=False) if uncertain else self._loose_re

    @staticmethod
    def _compile(names: Mapping[str, str], case: bool) -> re.Pattern[str] | None:
        if not names:
            return None
        parts = []
        for name in sorted(names, key=len, reverse=True):
            words = re.split(r"[\s_\-]+", name) if not case else [name]
            parts.append(r"[\s_\-]+".join(re.escape(w) for w in words))
        return re.compile(r"(?<![\w$&])(?:" + "|".join(parts) + r")(?![\w&])", 0 if case else re.I)

    def resolve(self, name: str) -> str | None:
        """The symbol a header or name refers to. A name that only usually means an option ("Tech") heads
        nothing: what a heading names is read as certain."""
        name = name.strip()
        if name in self._exact:
            return self._exact[name]
        if _norm(name) in self._uncertain:
            return None
        return self._loose.get(_norm(name))

    def words_of(self, symbol: str | None) -> frozenset[str]:
        """The lower-case words of every name ``symbol`` goes by (its id, ticker, names, colloquial names)."""
        if symbol is None:
            return frozenset()
        return frozenset(self._words.get(symbol, set()) | {symbol.lower(), *symbol.lower().split("_")})

    def mentions(self, text: str, *, uncertain: bool = False) -> list[Mention]:
        """The options ``text`` names, in order. Names that only usually mean an option ("tech") are left out
        unless ``uncertain``: a reader that takes them marks them (``Mention.uncertain``)."""
        found: dict[int, Mention] = {}
        loose = self._loose_all_re if uncertain else self._loose_re
        for pattern, table, norm in ((loose, self._loose, _norm), (self._exact_re, self._exact, None)):
            if pattern is None:
                continue
            for m in pattern.finditer(text):
                key = norm(m.group(0)) if norm else m.group(0)
                symbol = table.get(key)
                if symbol is None:
                    continue
                if any(m.start() < o.end and o.start < m.end() for o in found.values()):
                    continue
                ref = bool(_REFERENCE_BEFORE.search(text[max(0, m.start() - 30) : m.start()])) or (
                    symbol == self.benchmark and _MEASURED_AGAINST_AFTER.match(text, m.end()) is not None
                )
                vague = norm is not None and key in self._uncertain
                found[m.start()] = Mention(m.start(), m.end(), symbol, ref, uncertain=vague)
        for m in _RAW_KEY.finditer(text):  # "uso_return_5s", "rsp_minus_spy": a table key names its ETF
            symbol = self._exact.get(m.group(1).upper())
            if symbol is not None and not any(m.start() < o.end and o.start < m.end(1) for o in found.values()):
                found[m.start()] = Mention(m.start(), m.end(1), symbol, False)
        return [found[k] for k in sorted(found)]
