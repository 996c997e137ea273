"""Claim extraction from free-text rationales (for the offline reference judge).

The rationale is cut into segments (a line, or a sentence, starting with ``[OPTION]``, ``SYMBOL:`` or
``Name (SYM):`` sets the symbol of what follows), then sentences (and ``;`` parts). In each, numbers are bound to fields
("+5.6% 7d", "RSI at 72", "30-day momentum at 29.68%"), qualitative phrases to rules ("above its
200-day average", "strong profitability"), and forecast/opinion clauses are kept as ``forecast`` claims.
A claim's symbol is the closest universe mention before it in the sentence (by ticker, name, or the
name without "Sector"/"Equities"/...), else the segment's, else ``default_symbol``; mentions after
"vs", "than", "outperforming" are comparison references, not subjects.

A numeric claim with no registry field ("Q1 chip sales +25% QoQ"), or whose field the season does not
have (``available_fields``; e.g. "forward P/E 21.1" in a season with returns only), is a briefing
figure: ``briefing_only=True`` and never verifiable.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from datetime import datetime

from ledgers._models import Assertion, Claim
from ledgers._registry import window_family
from ledgers.reading import HORIZON_FIELDS, Mention, clause_start, main_subject, parse_text

_GENERIC_TAIL = re.compile(
    r",?\s+(?:Equities|Equity|Sector|Stocks?|ETF|Fund|Index|Shares|Inc\.?|Incorporated|Corp\.?|Corporation|Co\.?|"
    r"Company|Ltd\.?|Limited|plc|PLC|Holdings|Group|N\.V\.|S\.A\.|AG|SE)$",
    re.I,
)
_GENERIC_HEAD = re.compile(r"^(?:US|U\.S\.)\s+", re.I)
_BLOCKED = {"momentum", "value", "growth", "dividend", "cash", "quality", "size", "yield", "income", "credit",
            "low volatility", "min volatility"}
_REFERENCE_BEFORE = re.compile(
    r"(?:\bvs\.?|\bversus|\brelative\s+to|\bagainst|\bthan|\boutperform\w*|\bunderperform\w*|\bbeat\w*|"
    r"\blag\w*|\btrail\w*)\s+(?:the\s+)?$",
    re.I,
)
_ABBREVIATIONS = re.compile(r"(?:\b(?:U\.S|U\.K|vs|e\.g|i\.e|approx|Inc|Corp|Co|Ltd|No|St|Jan|Feb|Mar|Apr|Jun|Jul|Aug|"
                            r"Sep|Sept|Oct|Nov|Dec)|\b[A-Z])$")
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+(?=\S)")
_HEADER_BRACKET = re.compile(r"^\s*(?:[-*\u2022]\s*)?\[(?P<name>[^\]\n]{1,60})\]\s*:?\s*")
_HEADER_COLON = re.compile(
    # "SMH: ...", "- SEMICONDUCTORS (Semiconductors), 30%: ..." (a holding line with its weight)
    r"^\s*(?:[-*\u2022]\s*)?(?P<name>[A-Za-z0-9&_ .'/-]{2,60}?)\s*(?:\((?P<paren>[^)\n]{1,60})\))?"
    r"(?:,\s*\d{1,3}(?:\.\d+)?\s*%)?\s*:\s+"
)
_NUMERIC_RULES = ("exact_numeric", "threshold", "derived_return", "relative_return", "return_or_relative",
                  "distance_52w_high",
                  "distance_52w_low", "distance_sma", "analyst_upside")


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


class UniverseIndex:
    """Finds universe members in text by ticker, name, option id and short name."""

    def __init__(self, universe: Mapping[str, object] | Iterable[object], benchmark: str | None = None):
        if not isinstance(universe, Mapping):  # e.g. a list of UniverseEntry
            universe = {u.symbol: u for u in universe}
        self.benchmark = benchmark
        exact: dict[str, str] = {}  # case-sensitive (tickers, Title/UPPER short names)
        loose: dict[str, str] = {}  # case-insensitive (full names, option ids)
        for symbol, value in universe.items():
            exact[symbol] = symbol
            for alias in _as_aliases(value):
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
        if benchmark is None:
            for key in ("s&p 500", "sp500", "spy"):
                if key in loose:
                    self.benchmark = loose[key]
                    break
            else:
                self.benchmark = exact.get("SPY")
        self._exact = exact
        self._loose = loose
        self._exact_re = self._compile(exact, case=True)
        self._loose_re = self._compile(loose, case=False)

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
        """The symbol a header or name refers to."""
        name = name.strip()
        if name in self._exact:
            return self._exact[name]
        return self._loose.get(_norm(name))

    def mentions(self, text: str) -> list[Mention]:
        found: dict[int, Mention] = {}
        for pattern, table, norm in ((self._loose_re, self._loose, _norm), (self._exact_re, self._exact, None)):
            if pattern is None:
                continue
            for m in pattern.finditer(text):
                key = norm(m.group(0)) if norm else m.group(0)
                symbol = table.get(key)
                if symbol is None:
                    continue
                if any(m.start() < o.end and o.start < m.end() for o in found.values()):
                    continue
                ref = bool(_REFERENCE_BEFORE.search(text[max(0, m.start() - 30):m.start()]))
                found[m.start()] = Mention(m.start(), m.end(), symbol, ref)
        return [found[k] for k in sorted(found)]


TEMPLATE_MARK = "(platform template, not the contestant's words)"
"""A line carrying this mark was generated by the competition platform (e.g. CapitalBench portfolio-v3.0
per-holding texts): shown to judges as context, never mined for the contestant's claims."""


def _segments(text: str, index: UniverseIndex | None) -> list[tuple[int, str, str | None]]:
    """(offset, body, header symbol) per line of the rationale; platform template lines are left out."""
    out = []
    offset = 0
    for line in text.splitlines(keepends=True):
        if TEMPLATE_MARK in line:
            offset += len(line)
            continue
        symbol = None
        body_start = 0
        if index is not None:
            for header in (_HEADER_BRACKET, _HEADER_COLON):
                m = header.match(line)
                if not m:
                    continue
                symbol = index.resolve(m.group("name"))
                if symbol is None and m.groupdict().get("paren"):
                    symbol = index.resolve(m.group("paren").split(",")[0])
                if symbol is not None:
                    body_start = m.end()
                    break
        out.append((offset + body_start, line[body_start:], symbol))
        offset += len(line)
    return out


def _sentence_header(sentence: str, index: UniverseIndex | None) -> tuple[int, str] | None:
    """(length, symbol) of a "[OPTION]" or "SYMBOL:" header opening a sentence."""
    if index is None:
        return None
    for header in (_HEADER_BRACKET, _HEADER_COLON):
        m = header.match(sentence)
        if m:
            symbol = index.resolve(m.group("name"))
            if symbol is None and m.groupdict().get("paren"):
                symbol = index.resolve(m.group("paren").split(",")[0])
            if symbol is not None:
                return m.end(), symbol
    return None


def split_sentences(text: str) -> list[tuple[int, str]]:
    """(offset, sentence) pairs; splits after . ! ? ; but not after abbreviations or decimals."""
    out = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        head = text[start:m.start()]
        if head.endswith(".") and _ABBREVIATIONS.search(head[:-1]):
            continue
        if head.strip():
            out.append((start, head))
        start = m.end()
    if text[start:].strip():
        out.append((start, text[start:]))
    return out


_DIRECTION_BEFORE = re.compile(
    r"(?:\b(?:is|was|are|were|has|have|had)\s+)?\b(?:down|up|higher|lower|fell|rose|gained|lost|declined|dropped|"
    r"climbed|rallied|slipped|jumped|sank|surged|advanced|retreated)\s+(?:by\s+|about\s+|roughly\s+|some\s+)?$",
    re.I,
)
_RANGE_BEFORE = re.compile(r"\d(?:\.\d+)?\s*%?\s*(?:to|\u2013|-)\s*$")
_RANGE_AFTER = re.compile(r"^\s*(?:to|\u2013)\s*[-+\u2212]?\d")


def _in_range(body: str, span: tuple[int, int]) -> bool:
    """Whether the number at ``span`` is one end of a stated range ("3% to 9%", "5-10%")."""
    before = body[max(0, span[0] - 14):span[0]]
    return bool(_RANGE_BEFORE.search(before) or _RANGE_AFTER.match(body[span[1]:span[1] + 10]))


def _tidy(text: str) -> str:
    """Trim punctuation around a fragment; a leading sign of a number stays ("-0.08% 7d")."""
    text = re.sub(r"^[\s,;:]+|[\s,;:-]+$", "", text)
    text = re.sub(r"^-+(?!\d|\.\d)", "", text)
    if text.count("(") > text.count(")"):
        text = text.replace("(", "", text.count("(") - text.count(")"))
    if text.count(")") > text.count("("):
        text = text[::-1].replace(")", "", text.count(")") - text.count("("))[::-1]
    text = re.sub(r"\s+", " ", text).strip(" ,;:")
    return re.sub(r"^-+(?!\d|\.\d)|-+$", "", text)


_STORED_INSTEAD = {"week52High": "distance52wHigh", "week52Low": "distance52wLow"}
"""A table may give the distance itself (CapitalBench) instead of the 52-week extreme: the rules use either."""


def _unavailable(a: Assertion, available: Collection[str] | None) -> bool:
    """The season has no field the assertion's rule could use (a briefing figure): mirrors what the rules read."""
    if available is None or a.rule not in _NUMERIC_RULES:
        return False
    have = set(available)
    if a.field is not None:
        family = window_family(a.field)
        if family and not have.isdisjoint(family):
            return False  # the same measure over another window ("beta 0.73" where the round shows beta1y)
        if a.rule in ("distance_52w_high", "distance_52w_low") and _STORED_INSTEAD.get(a.field) in have:
            return False
        needed = {a.field}
        if a.rule in ("distance_52w_high", "distance_52w_low", "distance_sma", "analyst_upside"):
            needed.add("close")
        return not needed <= have
    horizon = a.label or ""
    return HORIZON_FIELDS.get(horizon) not in have and "close" not in have


def extract_claims(
    text: str,
    decided_at: datetime,
    default_symbol: str | None,
    universe: UniverseIndex | Mapping[str, object] | Iterable[object] | None = None,
    *,
    benchmark: str | None = None,
    available_fields: Collection[str] | None = None,
    id_prefix: str = "claim-",
) -> list[Claim]:
    """Claims found in a rationale, each with its pre-parsed assertion and character span."""
    if isinstance(universe, UniverseIndex):
        index: UniverseIndex | None = universe
    else:
        index = UniverseIndex(universe, benchmark) if universe is not None else None
    bench = benchmark or (index.benchmark if index else None)
    claims: list[Claim] = []

    def add(a: Assertion, span: tuple[int, int], body: str, offset: int, briefing: bool = False) -> None:
        if _in_range(body, span):  # "-3% to -9% 1w": a range is no single value to check
            return
        window_start = max(0, span[0] - 30)
        lead = _DIRECTION_BEFORE.search(body, window_start, span[0])
        if lead is not None:  # keep the words that carry the sign: "is down 8.4% over 20 days"
            span = (lead.start(), span[1])
        fragment = _tidy(body[span[0]:span[1]])
        cited = [a.field] if a.field else []
        claims.append(Claim(
            id=f"{id_prefix}{len(claims) + 1}", text=fragment or a.raw, decided_at=decided_at, symbol=a.symbol,
            cited_fields=cited, assertions=[a], briefing_only=briefing or a.rule == "briefing",
            span=(offset + span[0], offset + span[1]),
        ))

    for seg_offset, segment, seg_symbol in _segments(text, index):
        subject = seg_symbol or default_symbol
        strong = seg_symbol is not None
        carried: str | None = None  # the topic of the previous sentence ("Buying AAPL: ...; a close of $176")
        for sent_offset, sentence in split_sentences(segment):
            header = _sentence_header(sentence, index)
            if header is not None:  # "... . SMH: Strongest momentum ..." (holdings joined on one line)
                subject, strong = header[1], True
                sent_offset += header[0]
                sentence = sentence[header[0]:]
            offset = seg_offset + sent_offset
            mentions = index.mentions(sentence) if index else []
            own = [m for m in mentions if not m.reference]
            topic = subject
            if not own and not strong and carried is not None:
                topic = carried  # the previous sentence's subject carries over; the default stays an alternative
            parsed = parse_text(sentence, topic, (), mentions, bench, strong_symbol=strong)
            if topic != subject and subject is not None:
                parsed.assertions = [
                    a if a.symbol != topic or subject in a.alternatives
                    else a.model_copy(update={"alternatives": [*a.alternatives, subject]})
                    for a in parsed.assertions
                ]
            if not strong:  # one named subject carries over; a list of names ("QQQ/IGV/SMH") does not
                named = {m.symbol for m in own}
                topical = len(named) == 1 and own[0].start < 20  # the sentence opens with it ("Buying AAPL: ...")
                carried = own[0].symbol if topical else (None if named else carried)
            has_forecast = False
            for a, span in sorted(zip(parsed.assertions, parsed.spans, strict=True), key=lambda p: p[1][0]):
                if a.rule == "forecast":
                    has_forecast = True
                    start = clause_start(sentence, span[0])
                    add(a, (start, len(sentence.rstrip(" ."))), sentence, offset)
                    continue
                if _unavailable(a, available_fields):
                    b = Assertion(rule="briefing", symbol=a.symbol, raw=a.raw)
                    before = len(claims)
                    add(b, span, sentence, offset, briefing=True)
                    if len(claims) > before:  # (a range adds nothing)
                        claims[-1].cited_fields = [a.field] if a.field else []
                    continue
                add(a, span, sentence, offset)
            if not has_forecast and parsed.forecast_spans:
                start = clause_start(sentence, parsed.forecast_spans[0][0])
                who = main_subject(mentions, parsed.forecast_spans[0][0], sentence, subject, seg_symbol is not None)
                fc = Assertion(rule="forecast", symbol=who, raw=_tidy(sentence[parsed.forecast_spans[0][0]:]))
                add(fc, (start, len(sentence.rstrip(" ."))), sentence, offset)
    return claims
