"""Qualitative phrases -> assertions: the readers of ``_technical``, ``_trend`` and ``_fundamentals`` run in a fixed
order over a sentence; a phrase overlapping one already read, or governed by a forecast word, is skipped."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ledgers._models import Assertion
from ledgers.reading import _attributes as attributes
from ledgers.reading import _comparisons as comparisons
from ledgers.reading import _fundamentals as fundamentals
from ledgers.reading import _move_nouns as move_nouns
from ledgers.reading import _moves as moves
from ledgers.reading import _owned_moves as owned_moves
from ledgers.reading import _standing as standing
from ledgers.reading import _technical as technical
from ledgers.reading import _trend as trend
from ledgers.reading._clauses import Mention, apposition, clause_start, forecast_marker_before, overlaps
from ledgers.reading._emit import Reader

READERS: tuple[tuple[tuple[str, ...], Reader], ...] = (
    (("50", "200"), technical.read_sma),
    (("cross", "200"), technical.read_cross),
    (("macd",), technical.read_macd),
    (("overbought", "oversold"), technical.read_rsi),
    (("52", "from high"), technical.read_52w),
    (("relative", "perform", "alpha"), trend.read_relative_strength),
    (("momentum", "trend", "price action", "perform", "return"), trend.read_momentum),
    (("profit", "margin", "return", "roe", "losing"), fundamentals.read_profitability),
    (("growth",), fundamentals.read_growth),
    (("valu", "cheap", "expensive", "bargain", "pricey", "premium"), fundamentals.read_valuation),
    (("dividend",), fundamentals.read_dividend),
    (("quality", "rank", "correlation", "drawdown", "up-day", "up day", "up-days", "of up"), standing.read_standing),
    (("beta",), trend.read_beta_level),
    (("vol",), trend.read_volatility_level),
    (("upside", "downside", "target"), fundamentals.read_upside),
    (("consensus", "analyst", "rated"), fundamentals.read_consensus),
    (("sector", "industry"), fundamentals.read_category),
)
"""(keywords that must occur in the lower-cased text, reader), in the order they read: an earlier reader's span
wins over a later overlapping one."""
_KEYWORDS = re.compile("|".join(sorted({re.escape(k) for keys, _ in READERS for k in keys}, key=len, reverse=True)))


_SET_SUBJECT = re.compile(
    r"\b(?:holdings|names|positions|selections|picks|exposures|sleeves|sectors|portfolio|they|these|"
    r"those|both|basket|allocations|candidates|themes|tilts|leaders|groups|areas|trades|stocks)\b",
    re.I,
)
_COMPARISON_WORDS = re.compile(
    r"\b(?:than|vs\.?|versus|outperform\w*|beat\w*|lag\w*|trail\w*|underperform\w*|ahead)\b", re.I
)
_MOVE_WORDS = re.compile(
    r"\b(?:rising|falling|declining|rallying|sliding|slumping|surging|climbing|tumbling|sinking|firming|weakening|"
    r"strengthening|firm|soft|fell|fallen|declined|dropped|sold|slid|slumped|tumbled|plunged|dipped|pulled|retreated|"
    r"weakened|lost|sank|been|rose|risen|gained|rallied|climbed|surged|jumped|rebounded|advanced|"
    r"firmed|strengthened|dip|drop|decline|sell-?off|pullback|pull-back|slump|slide|gain|rally|"
    r"surge|rebound|spike|run-up|run|strength|weakness|gains|advance|upswing|rise|climb|fall|outperformance|"
    r"underperformance|positive|negative|up|down|momentum)\b",
    re.I,
)


_BRACKET = re.compile(r"\s*\(\s*")
_OPENS_CLAUSE = re.compile(r"[\s\W]*(?:(?:the|a|an|its|recent|sharp|spot|front-month|us|u\.s\.)\s+)*", re.I)
"""What may stand before a market word for it to be its clause's subject ("Oil had a sharp rise", "The crude
rally ...")."""


def _about_a_set(text: str, pos: int, mentions: Sequence[Mention]) -> bool:
    """Whether the phrase at ``pos`` follows a plural set noun of its own sentence part ("selected holdings ... with
    positive recent returns", "trades (equal-weight, value) that are outperforming SPY") with no option named after it."""
    lo = max(clause_start(text, pos) - 60, 0) if "(" in text[:pos] else clause_start(text, pos)
    sets = list(_SET_SUBJECT.finditer(text, lo, pos))
    found = sets[-1] if sets else None
    if found is None or re.search(r"[;.]\s", text[found.end() : pos]):
        return False
    return not any(
        found.end() <= mm.start < pos and not mm.reference and not _inside_parens(text, mm.start, pos)
        for mm in mentions
    )


def _inside_parens(text: str, at: int, pos: int) -> bool:
    return text.count("(", 0, at) > text.count(")", 0, at) and ")" in text[at:pos]


def qualitative(
    text: str,
    taken: list[tuple[int, int]],
    symbol_at,
    benchmark: str | None,
    named_before=None,
    mentions: Sequence[Mention] = (),
    holding: str | None = None,
) -> list[tuple[Assertion, tuple[int, int]]]:
    """Qualitative assertions of one sentence with their spans; ``taken`` (spans already read) grows. A market-wide
    word before a phrase ("crude", "oil", "yields") makes it the market's, unless that word names the very option the
    phrase is read of ("Oil had a sharp seven-day rise" of the oil fund)."""
    out: list[tuple[Assertion, tuple[int, int]]] = []

    def add(m: re.Match[str], span: tuple[int, int] | None = None, keep: bool = True, **kw) -> bool:
        span = span or (m.start(), m.end())
        past = bool(kw.pop("presupposed", False))  # "could fade the recent rally": the rally is a past fact
        if overlaps(span, taken) or (not past and forecast_marker_before(text, m.start())):
            return False
        macro = (
            trend.MACRO_SUBJECT.search(text, clause_start(text, m.start()), m.start())
            if "symbol" not in kw and kw.get("rule") in trend.MARKET_WIDE_RULES
            else None
        )
        if macro is not None:
            named = next((mm for mm in mentions if mm.start <= macro.start() < mm.end), None)
            if named is None or named.symbol != symbol_at(m.start()):
                return False  # "WTI at $95 and Brent at $97 with upward momentum": about oil, not the symbol
            if named.symbol != holding and not _OPENS_CLAUSE.fullmatch(
                text, clause_start(text, m.start()), named.start
            ):
                return False  # "Energy equities ... from the sharp crude move and positive relative strength" of
                # the energy fund: the market word is an object there, not the phrase's subject (of the oil fund's own
                # rationale it is the option under discussion: "crude inventory draws and price strength")
        if "symbol" not in kw and _about_a_set(text, m.start(), mentions):
            return False  # "selected holdings ... with positive recent returns": a set, not one option
        bracket = _BRACKET.match(text, span[1]) if "symbol" not in kw else None
        if bracket is not None:  # "Low volatility (SPLV) was flat": the phrase is the name of the option bracketed
            named = next((mm for mm in mentions if mm.start == bracket.end()), None)
            if named is not None and apposition(text, named.start, named.end):
                kw["symbol"] = named.symbol
        symbol = kw.pop("symbol") if "symbol" in kw else symbol_at(m.start())
        if kw.get("rule") == "compare" and symbol is not None and kw.get("benchmark") == symbol:
            return False  # an option compared with itself: a misreading, never a claim
        out.append((Assertion(symbol=symbol, raw=m.group(0).strip(), **kw), span))
        if keep:
            taken.append(span)
        return True

    lower = text.lower()
    present = set(_KEYWORDS.findall(lower))
    if _COMPARISON_WORDS.search(text):  # with no option named, only a bare "lagged 30d" (against the market)
        comparisons.read_comparisons(text, add, benchmark, mentions)
    if "beta" in lower or "vol" in lower:
        attributes.read_attributes(text, add, mentions)
    owned_moves.read_owned_moves(text, add, mentions)  # before "strong momentum" is read without its owner
    for keys, reader in READERS:
        if present.intersection(keys):
            reader(text, add, benchmark)
    if _MOVE_WORDS.search(text):
        moves.read_moves(text, add, benchmark, named_before)
        move_nouns.read_move_nouns(text, add, named_before, benchmark)
        moves.read_participles(text, add, named_before, benchmark)
        moves.read_signed_windows(text, add, named_before, benchmark)
    if "highs" in lower or "lows" in lower:
        technical.read_near_highs(text, add, named_before, benchmark)
    return out
