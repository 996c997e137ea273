"""A sentence -> its assertions: numbers bound to fields, rankings and signs, qualitative phrases, forecasts."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ledgers._models import Assertion
from ledgers._registry import FIELD_SPECS
from ledgers._units import StatedNumber
from ledgers.reading._clauses import Mention, clause_start, forecast_markers, main_subject, subjects
from ledgers.reading._fields import leading_field_phrase
from ledgers.reading._intent import number_intent
from ledgers.reading._leadership import find_leadership
from ledgers.reading._number_assertion import NumberHit, number_assertion
from ledgers.reading._numbers import find_numbers
from ledgers.reading._qualitative import qualitative
from ledgers.reading._ranking import find_rankings, find_signs
from ledgers.reading._vocab import DATE_AFTER, sign_word_before


@dataclass(slots=True)
class Parsed:
    """Assertions found in a text, each with its character span."""

    assertions: list[Assertion] = field(default_factory=list)
    spans: list[tuple[int, int]] = field(default_factory=list)
    forecast_spans: list[tuple[int, int]] = field(default_factory=list)
    numbers: list[NumberHit | None] = field(default_factory=list)  # the number each assertion states

    def add(self, assertion: Assertion, span: tuple[int, int], hit: NumberHit | None = None) -> None:
        self.assertions.append(assertion)
        self.spans.append(span)
        self.numbers.append(hit)


_BARE_AFTER = re.compile(r"^\s*(?:[,;)\].]|$|and\b|or\b|vs\.?\b|versus\b|while\b|with\b)", re.I)
"""Nothing after the number that names another measure ("SMH +82% YTD" stays a briefing figure)."""


_COMPARABLE = {"beta_level": "beta", "volatility_level": "volatility20d"}


_THAN = re.compile(r"^\s*than\s+(?:the\s+|its\s+|a\s+)?", re.I)


def _compared_with(mentions: Sequence[Mention], text: str, end: int) -> str | None:
    """The option right after "than" that follows ``end`` ("lower volatility than SPY"), or None."""
    m = _THAN.match(text[end : end + 30])
    if m is None:
        return None
    at = end + m.end()
    return next((mm.symbol for mm in mentions if mm.start == at), None)


def _named_right_before(mentions: Sequence[Mention], text: str, pos: int) -> str | None:
    """The option named right before a number ("SMH -7.3%", "EWY: -25%", "behind IGV +7.50%": a reference's own
    figure too), or None. Its callers read support-only rules (a figure that equals none of its fields is a gap)."""
    for m in mentions:
        if 0 <= pos - m.end <= 3 and re.fullmatch(r"[\s:(]*", text[m.end : pos]):
            return m.symbol
    return None


def falls_by_word(text: str, start: int) -> bool:
    """Whether a word of falling stands right before the figure at ``start`` ("lost 3.21%", "fell 0.47%"): a figure
    no field binds is then a fall (the template cache applies the same rule)."""
    return sign_word_before(text[max(0, start - 40) : start], negated=True) is not None


def _signed_by_word(text: str, hit: NumberHit) -> float:
    """The figure's value, made negative when no sign is written and a word of falling stands right before it."""
    falls = falls_by_word(text, hit.start)
    return -abs(hit.stated.value) if falls and not hit.stated.explicit_sign else hit.stated.value


def _plain_decimal(stated: StatedNumber) -> bool:
    """A plain decimal written to at least two places ("0.814", "-0.70"): no percent, currency or multiplier."""
    return (
        not stated.percent
        and not stated.bps
        and not stated.currency
        and stated.multiplier == 1.0
        and stated.decimals >= 2
        and abs(stated.value) < 1000
    )


_UNBOUND = frozenset({"briefing", "any_return", "any_field", "relative_return", "return_or_relative"})
_MORE_WORDS = frozenset({"higher", "more", "larger", "greater", "deeper", "stronger", "better", "bigger"})
_BARE_COMPARISON = re.compile(
    r"(?P<both>\bboth\s+)?\b(?P<dir>lower|higher|less|more|milder|shallower|deeper|smaller|"
    r"larger|greater|stronger|weaker|better|worse)\s+than\s+(?:the\s+)?(?=[A-Z])"
)


_COMPARED_BEFORE = re.compile(
    r"\b(?:than|vs\.?|versus|unlike|compared\s+(?:with|to)|against|relative\s+to|outperform\w*|"
    r"underperform\w*|beat(?:ing)?|lagg\w*|trail\w*)\s+(?:the\s+)?$",
    re.I,
)


_RELATIVE_GAP = re.compile(
    r",?\s*(?:which|that|who)\s+(?:(?:is|was|were|are|has|had|have|been)\s+)*(?:(?:down|up|fell|rose|gained|lost|"
    r"declined|dropped|returned|slipped|climbed|advanced|retreated)\s+)?(?:by\s+|about\s+|roughly\s+)?[~\u2248]?\s*",
    re.I,
)
"""A relative clause of the other term: "unlike SPY, which fell 1.25% over three sessions" is SPY's figure."""


def _operand_of(mentions: Sequence[Mention], text: str, start: int) -> tuple[str, bool] | None:
    """(the option a number belongs to when it follows a comparison's other term, whether a field is named between):
    "than SPY at 11.37%", "vs SPY 12.1%", "shallower than SPY's -4.49%", "versus SPY return_21s of 0.63%"."""
    for mm in mentions:
        if not mm.reference or mm.end > start or not _COMPARED_BEFORE.search(text, max(0, mm.start - 25), mm.start):
            continue
        gap = text[mm.end : start]
        if re.fullmatch(r"(?:['\u2019]s)?\s*(?:at|of|was|is|:)?\s*[~\u2248]?\s*", gap) or _RELATIVE_GAP.fullmatch(gap):
            return mm.symbol, False
        named = leading_field_phrase(re.sub(r"^['\u2019]s", "", gap))
        if named is not None and re.fullmatch(
            r"\s*(?:at|of|was|is|were|:)?\s*[~\u2248]?\s*", re.sub(r"^['\u2019]s", "", gap)[named[0] :]
        ):
            return mm.symbol, True
    return None


def _last_field(parsed: Parsed) -> Assertion | None:
    """The last number of the sentence bound to a field (the measure a comparison's other term is quoted in)."""
    for a in reversed(parsed.assertions):
        if a.rule == "exact_numeric" and a.field in FIELD_SPECS and a.stated is not None:
            return a
    return None


def parse_text(
    text: str,
    symbol: str | None,
    cited_fields: Sequence[str] = (),
    mentions: Sequence[Mention] = (),
    benchmark: str | None = None,
    strong_symbol: bool = True,
    numbers_only: bool = False,
) -> Parsed:
    """Every assertion in ``text``: numbers bound to fields, qualitative phrases, forecasts.

    ``symbol`` is the subject when no mention says otherwise; with ``strong_symbol`` (a segment header or a
    judge's claim symbol) it wins over mentions in other clauses of the sentence. ``numbers_only`` (a hypothetical
    line, e.g. under "Key risks:") reads its figures but not its words: "reversal after a sharp drop" is a scenario."""
    parsed = Parsed()
    taken: list[tuple[int, int]] = [(mm.start, mm.end) for mm in mentions]
    for hit in find_numbers(text, cited_fields):
        subject, alternatives = subjects(mentions, hit.start, text, symbol, strong_symbol, hit.end)
        assertion = number_assertion(hit, subject, benchmark, text)
        intent = number_intent(text, hit.start, hit.end, clause_start(text, hit.start), assertion.field)
        if intent is not None and not (
            intent == "forecast" and assertion.rule == "forecast"
        ):  # a plan or a probability
            assertion = Assertion(rule=intent, symbol=subject, raw=text[hit.start : hit.end].strip())
        elif assertion.rule == "briefing" and hit.stated.percent and _BARE_AFTER.match(text[hit.end :]):
            named = _named_right_before(mentions, text, hit.start)
            if named is not None:  # "SMH -7.3%", "(SMH +24%, TECH +22%)": a move of the named option
                assertion = Assertion(
                    rule="any_return",
                    symbol=named,
                    stated=hit.stated.value / 100.0,
                    tolerance=hit.stated.in_unit("fraction")[1],
                    raw=hit.stated.raw,
                )
        if assertion.rule == "briefing" and hit.unbound and hit.stated.percent and intent is None:
            # a figure no word binds ("healthcare sector strength of 4.26%"): one of the subject's own fields, if any
            assertion = Assertion(
                rule="any_field",
                symbol=_named_right_before(mentions, text, hit.start) or subject,
                stated=_signed_by_word(text, hit) / 100.0,  # "TLT lost 3.21%": a fall
                tolerance=hit.stated.in_unit("fraction")[1],
                approx=hit.approx,
                raw=hit.stated.raw,
            )
        elif assertion.rule == "briefing" and hit.unbound and intent is None and _plain_decimal(hit.stated):
            # "quality only 0.137", "at 0.814", "XLV,1.32,5.65": a decimal no word binds: one of the subject's ratio fields
            # a rank, a beta) if it equals one at its written precision; never contradicted
            assertion = Assertion(
                rule="any_field",
                symbol=_named_right_before(mentions, text, hit.start) or subject,
                stated=hit.stated.value,
                tolerance=hit.stated.in_unit("ratio")[1],
                approx=hit.approx,
                raw=hit.stated.raw,
                label="plain",
            )
        operand_of = _operand_of(mentions, text, hit.start)
        operand = operand_of[0] if operand_of else None
        last = _last_field(parsed)
        if (
            operand_of is not None
            and intent is None
            and assertion.field is not None
            and assertion.rule in ("exact_numeric", "return_or_relative", "derived_return")
        ):
            assertion = replace(assertion, symbol=operand_of[0])  # "versus SPY return_21s of 0.63%": SPY's own figure
            alternatives = []
        elif operand is not None and last is not None and assertion.rule in _UNBOUND and intent is None:
            # "lower than SPY at 11.37%", "shallower than SPY's -4.49%": the other option's value of the same measure
            value, tol = hit.stated.in_unit(FIELD_SPECS[last.field].unit if last.field in FIELD_SPECS else "fraction")
            assertion = Assertion(
                rule="exact_numeric",
                symbol=operand,
                field=last.field,
                stated=value,
                tolerance=tol,
                approx=hit.approx,
                raw=hit.stated.raw,
            )
            alternatives = []
        if alternatives:
            assertion = replace(assertion, alternatives=alternatives)
        parsed.add(assertion, hit.span, hit)
    if numbers_only:
        for m in forecast_markers(text):
            parsed.forecast_spans.append((m.start(), m.end()))
        return parsed
    for m in _BARE_COMPARISON.finditer(
        text
    ):  # "both milder than SPY", "lower than SPY at 11.37%": the measures just named
        other = next((mm.symbol for mm in mentions if mm.start == m.end()), None)
        fields = [
            a
            for a in parsed.assertions
            if a.field is not None and a.field in FIELD_SPECS and a.rule == "exact_numeric" and a.symbol != other
        ][-(2 if m["both"] else 1) :]
        if other is None or not fields:
            continue
        for a in fields:
            if a.field is None:
                continue  # never: fields holds assertions on a known field (narrows a.field for the checker)
            more = m["dir"].lower() in _MORE_WORDS
            if a.field.startswith("maxDrawdown") or a.field == "distance52wHigh":
                more = not more
            parsed.add(
                Assertion(
                    rule="compare",
                    symbol=a.symbol,
                    field=a.field,
                    benchmark=other,
                    op="gt" if more else "lt",
                    raw=m.group(0).strip(),
                ),
                (m.start(), m.end()),
            )
    ranked: list[tuple[int, int]] = []  # a ranking may share words with a number ("strongest 7d return at 5%")
    for assertion, span in find_rankings(
        text, ranked, lambda pos: subjects(mentions, pos, text, symbol, strong_symbol)
    ):
        parsed.add(assertion, span)
        ranked.append(span)
    for assertion, span in find_signs(text, ranked, lambda pos: subjects(mentions, pos, text, symbol, strong_symbol)):
        parsed.add(assertion, span)
        ranked.append(span)
    for assertion, span in find_leadership(
        text, ranked, lambda pos: subjects(mentions, pos, text, symbol, strong_symbol), mentions
    ):
        parsed.add(assertion, span)
        ranked.append(span)
    taken.extend(parsed.spans)

    def named_before(lo: int, hi: int) -> Mention | None:  # the option named last in text[lo:hi]
        found = [mm for mm in mentions if lo <= mm.start and mm.end <= hi and not mm.reference]
        return found[-1] if found else None

    for assertion, span in qualitative(
        text,
        taken,
        lambda pos: main_subject(mentions, pos, text, symbol, strong_symbol),
        benchmark,
        named_before,
        mentions,
        symbol,
    ):
        other = _compared_with(mentions, text, span[1]) if assertion.rule in _COMPARABLE else None
        if assertion.rule in _COMPARABLE and other is None and _THAN.match(text[span[1] : span[1] + 30]):
            # "lower volatility than broad small caps": a comparison with no option named is no absolute level
            assertion = Assertion(
                rule="compare",
                symbol=assertion.symbol,
                field=_COMPARABLE[assertion.rule],
                benchmark=None,
                op="gt" if assertion.polarity > 0 else "lt",
                raw=text[span[0] : min(len(text), span[1] + 40)].split(".")[0].strip(),
            )
        elif other is not None and other != assertion.symbol:  # "lower beta than the S&P 500": the two compared
            assertion = Assertion(
                rule="compare",
                symbol=assertion.symbol,
                field=_COMPARABLE[assertion.rule],
                benchmark=other,
                op="gt" if assertion.polarity > 0 else "lt",
                raw=text[span[0] : span[1]].strip(),
            )
        parsed.add(assertion, span)
    for m in forecast_markers(text):
        if m.group(0).lower() == "may" and DATE_AFTER.match(text[m.start() :]) and m.group(0)[0] == "M":
            continue
        parsed.forecast_spans.append((m.start(), m.end()))
    return parsed


def parse_assertions(
    text: str, symbol: str | None, cited_fields: Sequence[str] = (), benchmark: str | None = None
) -> list[Assertion]:
    """Assertions of a judge's claim text; a forecast word anywhere adds a ``forecast`` assertion."""
    parsed = parse_text(text, symbol, cited_fields, (), benchmark)
    out = list(parsed.assertions)
    if parsed.forecast_spans and not any(a.rule == "forecast" for a in out):
        s, e = parsed.forecast_spans[0]
        out.append(Assertion(rule="forecast", symbol=symbol, raw=text[s:e]))
    return out


def replace(assertion: Assertion, **changes: object) -> Assertion:
    """A copy of a (valid) assertion with a few fields changed, without re-validation."""
    values = {**assertion.__dict__, **changes}
    copy = Assertion.__new__(Assertion)
    object.__setattr__(copy, "__dict__", values)
    object.__setattr__(copy, "__pydantic_fields_set__", set(values))
    object.__setattr__(copy, "__pydantic_extra__", None)
    object.__setattr__(copy, "__pydantic_private__", None)
    return copy
