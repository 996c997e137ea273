"""Checks shared by the demo tests: an independent reader of cited field values, and a bundle replay.

The claim reader here is deliberately written from the wording documented in ``grader/demo/_wording.py``
(not by importing it), so a change of wording that breaks the documented phrases fails the tests.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from grader.pit import MARKET_TZ, PointInTimeStore
from grader.season import Decision, SeasonBundle


@dataclass(frozen=True)
class Cited:
    """One number a rationale states about one field (or field relation) of one symbol."""

    symbol: str
    what: str  # a field name, or "gap50"/"gap200"/"belowHigh" for relations to the close
    value: float
    tolerance: float  # half a unit of the printed precision
    text: str


def _money(raw: str) -> float:
    return float(raw.replace(",", ""))


_PHRASES: list[tuple[re.Pattern[str], object]] = [
    (re.compile(r"last close of \$([\d,]+\.\d\d)"), lambda m: [("close", _money(m[1]), 0.005)]),
    (
        re.compile(r"\b(1|5|20)-day return of ([+-]\d+\.\d)%"),
        lambda m: [(f"return{m[1]}d", float(m[2]) / 100, 0.0005)],
    ),
    (re.compile(r"RSI\(14\) at (\d+\.\d)"), lambda m: [("rsi14", float(m[1]), 0.05)]),
    (
        re.compile(r"trading (\d+\.\d)% (above|below) its (50|200)-day average"),
        lambda m: [(f"gap{m[3]}", (1 if m[2] == "above" else -1) * float(m[1]) / 100, 0.0005)],
    ),
    (
        re.compile(r"\b(50|200)-day average of \$([\d,]+\.\d\d)"),
        lambda m: [(f"sma{m[1]}", _money(m[2]), 0.005)],
    ),
    (re.compile(r"(\d+\.\d)% below its 52-week high"), lambda m: [("belowHigh", float(m[1]) / 100, 0.0005)]),
    (
        re.compile(r"52-week (high|low) of \$([\d,]+\.\d\d)"),
        lambda m: [("week52High" if m[1] == "high" else "week52Low", _money(m[2]), 0.005)],
    ),
    (
        re.compile(r"20-day volatility of (\d+\.\d)%"),
        lambda m: [("volatility20d", float(m[1]) / 100, 0.0005)],
    ),
    (re.compile(r"\bbeta of (-?\d+\.\d\d)"), lambda m: [("beta", float(m[1]), 0.005)]),
    (
        re.compile(r"MACD of (-?\d+\.\d\d) against a signal of (-?\d+\.\d\d)"),
        lambda m: [("macd", float(m[1]), 0.005), ("macdSignal", float(m[2]), 0.005)],
    ),
    (re.compile(r"(?<!forward )P/E of (\d+\.\d)"), lambda m: [("peRatio", float(m[1]), 0.05)]),
    (re.compile(r"forward P/E of (\d+\.\d)"), lambda m: [("forwardPE", float(m[1]), 0.05)]),
    (re.compile(r"profit margin of (-?\d+\.\d)%"), lambda m: [("profitMargin", float(m[1]) / 100, 0.0005)]),
    (
        re.compile(r"return on equity of (-?\d+\.\d)%"),
        lambda m: [("returnOnEquityTTM", float(m[1]) / 100, 0.0005)],
    ),
    (
        re.compile(r"dividend yield of (\d+\.\d\d)%"),
        lambda m: [("dividendYield", float(m[1]) / 100, 0.00005)],
    ),
    (
        re.compile(r"analyst target price of \$([\d,]+\.\d\d)"),
        lambda m: [("analystTargetPrice", _money(m[1]), 0.005)],
    ),
    (
        re.compile(r"(\d+) Buy, (\d+) Hold and (\d+) Sell ratings"),
        lambda m: [
            ("analystRatingBuy", float(m[1]), 0.0),
            ("analystRatingHold", float(m[2]), 0.0),
            ("analystRatingSell", float(m[3]), 0.0),
        ],
    ),
]

FIELD_WORDS = re.compile(
    r"RSI|return of|-day average|P/E|volatility of|beta|MACD|margin of|return on equity|dividend|target price|"
    r"52-week|last close|ratings"
)
"""Words that announce a field value; a sentence with one of them and a number left over after removing
the parsed phrases holds a cited value the reader does not understand."""
_NUMBER = re.compile(r"\d\.\d|\d%|\$\d")

_SENTENCE_END = re.compile(r"(?<=[.;])\s+(?=[A-Z])")
_TICKER = re.compile(r"\b[A-Z][A-Z0-9]{1,4}\b")


def cited_values(rationale: str, universe: set[str]) -> tuple[list[Cited], list[str]]:
    """Cited values per sentence (each sentence names the one ticker its numbers are about), plus the
    sentences in which field words remain that no phrase accounted for."""
    cited: list[Cited] = []
    leftovers: list[str] = []
    for sentence in _SENTENCE_END.split(rationale):
        tickers = sorted({t for t in _TICKER.findall(sentence) if t in universe})
        rest = sentence
        found: list[tuple[str, float, float, str]] = []
        for pattern, read in _PHRASES:
            for m in pattern.finditer(sentence):
                found.extend((w, v, tol, m[0]) for w, v, tol in read(m))  # type: ignore[operator]
            rest = pattern.sub("", rest)
        if FIELD_WORDS.search(rest) and _NUMBER.search(rest):
            leftovers.append(sentence)
        if found:
            assert len(tickers) == 1, f"a sentence with cited values must name one ticker: {sentence!r}"
            cited.extend(Cited(tickers[0], w, v, tol, text) for w, v, tol, text in found)
    return cited, leftovers


def true_value(store: PointInTimeStore, c: Cited, decision: Decision) -> float:
    """The point-in-time value of what ``c`` cites, as known at the decision time."""

    def get(name: str) -> float:
        obs = store.value(c.symbol, name, decision.decided_at)
        assert obs is not None, f"{c.symbol}.{name} is not known at {decision.decided_at}"
        return float(obs.value)

    if c.what.startswith("gap"):
        return get("close") / get(f"sma{c.what[3:]}") - 1.0
    if c.what == "belowHigh":
        return 1.0 - get("close") / get("week52High")
    return get(c.what)


def decisions_with_claims(bundle: SeasonBundle, contestant_id: str) -> Iterator[tuple[Decision, list[Cited]]]:
    universe = bundle.info.symbols()
    for d in bundle.decisions_of(contestant_id):
        cited, leftovers = cited_values(d.rationale, universe)
        assert not leftovers, f"{contestant_id} {d.decided_at}: unparsed field wording in {leftovers}"
        yield d, cited


def previous_close(bundle: SeasonBundle, symbol: str, decision: Decision) -> float:
    """The close of the last trading day before the decision's day."""
    day = decision.decided_at.astimezone(MARKET_TZ).date()
    closes = bundle.store.closes(symbol)
    earlier = closes[closes.index < day]
    assert len(earlier), f"no close of {symbol} before {day}"
    return float(earlier.iloc[-1])


def replay_books(bundle: SeasonBundle) -> dict[str, tuple[float, dict[str, float]]]:
    """Apply every decision's trades in file order; assert no sell exceeds holdings and cash stays >= 0."""
    books: dict[str, tuple[float, dict[str, float]]] = {}
    for d in sorted(bundle.decisions, key=lambda d: (d.decided_at, d.line)):
        cash, shares = books.get(d.contestant_id, (float(bundle.info.starting_cash), {}))
        for t in d.trades:
            if t.side == "sell":
                assert t.quantity <= shares.get(t.symbol, 0.0), f"line {d.line}: sells more {t.symbol} than held"
                shares[t.symbol] = shares.get(t.symbol, 0.0) - t.quantity
                cash += t.quantity * t.price
            else:
                shares[t.symbol] = shares.get(t.symbol, 0.0) + t.quantity
                cash -= t.quantity * t.price
                assert cash >= 0, f"line {d.line}: cash goes negative buying {t.symbol}"
        books[d.contestant_id] = (cash, shares)
    return books
