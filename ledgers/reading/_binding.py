"""What a number is bound to: the words right after it ("+5.6% 7d", "14.9% vol", "8% below its 52-week high",
"+9.8% vs SPY") or, failing that, the closest field phrase or horizon before it within five words ("RSI at
72", "30-day momentum at 29.68%"); a closer context word (CPI, yields, QoQ, ...) makes it a briefing figure."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ledgers._registry import FIELD_SPECS, window_family
from ledgers.reading._fields import last_field_phrase, leading_field_phrase, only_connectors, words_between
from ledgers.reading._horizons import (
    FIELD_HORIZONS,
    HORIZON,
    HORIZON_RE,
    SUFFIX_HORIZON,
    SUFFIX_WORD_HORIZON,
    is_rate_tenor,
    match_horizon,
)
from ledgers.reading._vocab import BENCH_WORDS, CONTEXT_RE, MA_WORDS

_SUFFIX_DISTANCE = re.compile(
    r"^\s*(?:(?:distance|drawdown|discount)\s+(?=from\b))?"  # "a 0.00% distance from its 52-week high"
    r"(?P<dir>below|under|beneath|off|from|shy\s+of|short\s+of|above|over|over\s+and\s+above)\s+"
    r"(?:(?:its|the|a|their)\s+)?(?:"
    r"(?P<w52>52[\s-]?(?:weeks?|wks?|w)\s+(?P<hl>highs?|lows?))"
    r"|(?P<ma>(?:(?P<man>50|200)[\s-]?(?:day|d)[\s-]?"
    + MA_WORDS
    + r"|(?P<man2>50|200)[\s-]?dma|sma[\s-]?(?P<man3>50|200)))"
    r"|(?P<tgt>(?:(?:analyst|consensus|analysts'|price)\s+)+target(?:\s+price)?))",
    re.I,
)


_SUFFIX_WITHIN = re.compile(
    r"^\s*of\s+(?:(?:its|the|a|their)\s+)?52[\s-]?(?:weeks?|wks?|w)\s+(?P<hl>highs?|lows?)", re.I
)


_NOT_A_RETURN = re.compile(
    r"^\s*(?:realized\s+|realised\s+|annualized\s+|price\s+)?(?:vol|volatility|drawdown|max\s+drawdown|up[\s-]days?|"
    r"beta|correlation|sharpe|range|average\s+volume|avg\s+volume)\b",
    re.I,
)


_SUFFIX_UPSIDE = re.compile(
    r"^\s*(?:of\s+)?(?:(?:potential|implied|further|analyst|remaining)\s+)?(?P<d>upside|downside)\b"
    r"(?P<tgt>[^.;]{0,40}?\btarget)?",
    re.I,
)


_SUFFIX_RELATIVE = re.compile(
    rf"^\s*(?:vs\.?|versus|relative\s+to|against|ahead\s+of|above|over|better\s+than|more\s+than)\s+(?:the\s+)?"
    rf"(?P<ref>{BENCH_WORDS})\b",
    re.I,
)


_GAP_VS = re.compile(
    rf"^\s+(?P<w>lag|shortfall|underperformance|deficit|edge|lead|advantage|outperformance|"
    rf"premium)\s+(?:versus|vs\.?|against|over|behind|to|relative\s+to)\s+(?:the\s+)?(?P<ref>{BENCH_WORDS})\b",
    re.I,
)
"""A figure named as the gap to the benchmark: "a 3.70% lag versus SPY", "a 1.2% edge over SPY"."""
_ASSETS_POSITIVE = re.compile(
    r"^\s*(?:of\s+(?:the\s+|all\s+)?(?:tracked\s+|listed\s+)?(?:assets|options|names|etfs|funds|the\s+universe)\s+"
    r"(?:(?:were|was|are|finished|closed|ended)\s+)?(?:(?:the\s+)?(?P<inner>(?:\w+\s+){0,2}sessions?)\s+)?"
    r"(?:positive|up|higher|in\s+the\s+green))",
    re.I,
)
"""A share of the options that rose: "34.78% of assets were positive", "only about a third (34.78%) finished the
five sessions positive" (the share's own words), "49% positive (5s)"."""
_PAREN_WINDOW = re.compile(r"^\s*\(\s*" + HORIZON.replace("(?P<hn>", "(?P<n>").replace("(?P<hu>", "(?P<u>") + r"\s*\)")
_OFF_THE_HIGH = re.compile(
    r"^\s*(?:off|below|under|from|beneath)\s+(?:its|the|their)?\s*(?:recent\s+)?highs?\b"
    r"(?!\s*(?:of|at)\s)",
    re.I,
)
_FIGURE_NEXT = re.compile(r"^\s*(?:'s\s+)?(?:at\s+|of\s+|was\s+)?[+\-\u2212]?\$?\d[\d,]*(?:\.\d+\s*%?|\s*%)")
"""A figure (not a window: "vs SPY 30d") right after the compared option."""


def behind_sign(m: re.Match[str]) -> int:
    """-1 when the relative verb says behind ("underperformed SPY by 2.71%": an active return of -2.71%)."""
    return -1 if re.match(r"(?:underperform|lag|trail)", m.group(0), re.I) else 0


PREFIX_RELATIVE = re.compile(
    rf"(?:outperform\w*|beat\w*|ahead\s+of|led|lead\w*|topp?\w*|underperform\w*|lag\w*|trail\w*)\s+"
    rf"(?:the\s+)?(?P<ref>{BENCH_WORDS})\s+(?:by\s+)?(?:about\s+|around\s+|roughly\s+|~)?$",
    re.I,
)


_PREFIX_UPSIDE = re.compile(r"(?P<d>upside|downside)\s+(?:of\s+|to\s+)?(?:about\s+|around\s+|roughly\s+|~)?$", re.I)


_PREFIX_DISTANCE = re.compile(r"(?P<w52>52[\s-]?(?:weeks?|wks?|w)\s+(?P<hl>highs?|lows?))\s*(?:of|at|:|is)?\s*$", re.I)


_NEG_SUFFIX = re.compile(
    r"^\s*(?:decline|drop|loss|pullback|pull-back|sell-?off|fall|slide|slump|drawdown|retreat|correction"
    r"|lower|down)\b",
    re.I,
)


@dataclass(slots=True)
class Binding:
    rule: str
    field: str | None = None
    horizon: str | None = None
    relative: bool = False
    start: int = 0
    end: int = 0
    sign: int = 0  # -1 forces a negative stated value
    label: str | None = None
    op: str = "eq"


_RETURN_OVER = re.compile(
    r"^\s*(?:absolute\s+|price\s+|total\s+)?(?:return|change|move|gain|rise|advance|rally|loss|decline|drop|slip|"
    r"dip|slide|fall|pullback)\s+(?:over|in|across|during|for)"
    r"\s+(?:the\s+)?(?:(?:past|last|prior|trailing|latest)\s+)?",
    re.I,
)
"""A return named before its window: "a -0.01% return over the last 5 days", "a 2.1% gain in the past 21 sessions"."""


def bind_suffix(text: str, end: int, start: int = 0) -> Binding | None:
    after = text[end : end + 80]
    lead = leading_field_phrase(after)
    if lead is not None and lead[1] in ("distance52wHigh", "distance52wLow"):  # "-19.69% 52w drawdown": not a window
        return Binding("exact_numeric", field=lead[1], start=end, end=end + lead[0])
    over = _RETURN_OVER.match(after)
    window = SUFFIX_HORIZON.match(after[over.end() :]) if over else None
    if over and window and not is_rate_tenor(window) and not _NOT_A_RETURN.match(after[over.end() + window.end() :]):
        loss = re.match(
            r"^\s*(?:absolute\s+|price\s+|total\s+)?(?:loss|decline|drop|slip|dip|slide|fall|pullback)", after, re.I
        )
        return Binding(
            "return",
            horizon=match_horizon(window),
            start=end,
            end=end + over.end() + window.end(),
            sign=-1 if loss else 0,
        )
    gap = _GAP_VS.match(after)
    if gap:  # "a 3.70% lag versus SPY over the last 5 sessions", "ahead of SPY by": the figure is the active return
        b = Binding(
            "relative_return",
            relative=True,
            start=end,
            end=end + gap.end(),
            sign=-1 if gap["w"].lower() in ("lag", "shortfall", "underperformance", "deficit", "gap") else 0,
        )
        h = SUFFIX_HORIZON.match(after[gap.end() :]) or SUFFIX_WORD_HORIZON.match(after[gap.end() :])
        if h:  # "... over the last 5 sessions", "... this week"
            b.horizon = match_horizon(h)
            b.end += h.end()
        return b
    share = _ASSETS_POSITIVE.match(after)
    if share:  # "34.78% of assets were positive over the last 5 sessions": breadth, the market's own state
        window = (
            SUFFIX_HORIZON.match(after[share.end() :])
            or _PAREN_WINDOW.match(after[share.end() :])
            or (SUFFIX_HORIZON.match(" over " + share["inner"]) if share["inner"] else None)
        )
        key = match_horizon(window) if window else None
        field = f"positiveAssetShare{key[:-1]}d" if key and key[-1] in "TD" else "positiveAssetShare"
        return Binding(
            "exact_numeric",
            field=field if field in FIELD_SPECS else "positiveAssetShare",
            start=end,
            end=end + share.end() + (window.end() if window and not share["inner"] else 0),
        )
    paren = _PAREN_WINDOW.match(after)
    if paren and not is_rate_tenor(paren):  # "+0.53% (5s)": the window in brackets after the figure
        return Binding("return", horizon=match_horizon(paren), start=end, end=end + paren.end())
    high = _OFF_THE_HIGH.match(after)
    if high:  # "7.06% off its high": the one high the tables show is the 52-week one, but it is not written
        return Binding(
            "distance_52w_high", field="week52High", start=end, end=end + high.end(), sign=-1, label="inferred"
        )
    m = _SUFFIX_WITHIN.match(after)
    if m and re.search(r"\bwithin\s*$", text[max(0, start - 12) : start], re.I):
        f = "week52High" if m.group("hl").lower().startswith("h") else "week52Low"
        return Binding("near_52w_extreme", field=f, start=start, end=end + m.end())
    m = _SUFFIX_RELATIVE.match(after)
    if m and _FIGURE_NEXT.match(after[m.end() :]):
        m = None  # "RSP +1.30% vs SPY -0.40%": two options' figures side by side, neither one relative
    if m:
        b = Binding("relative_return", relative=True, start=end, end=end + m.end())
        h = SUFFIX_HORIZON.match(after[m.end() :]) or SUFFIX_WORD_HORIZON.match(after[m.end() :])
        if h:  # "3.95% relative to SPY over 5 sessions", "... this week"
            b.horizon = match_horizon(h)
            b.end += h.end()
        return b
    m = SUFFIX_HORIZON.match(after) or SUFFIX_WORD_HORIZON.match(after)
    if m and is_rate_tenor(m):
        return Binding("briefing", start=end, end=end + m.end())
    if m:
        rest = after[m.end() :]
        stat = _NOT_A_RETURN.match(rest)
        if (
            stat
        ):  # "66% 30d vol", "20-day volatility of", "-16.01% 63-session max drawdown": that measure over the window
            key = match_horizon(m)
            named = leading_field_phrase(stat.group(0))
            family = window_family(named[1]) if named else ()
            suffix = key[:-1] + ("d" if key[-1] in "TD" else key[-1].lower())
            fld = next((f for f in family if f.endswith(suffix) and not f[-len(suffix) - 1].isdigit()), None)
            return Binding("exact_numeric" if fld else "briefing", field=fld, start=end, end=end + m.end() + stat.end())
        if re.match(r"^\s*prior\b", after, re.I) and (
            m.groupdict().get("rel") or re.match(r"^\s*(?:active|relative|excess)\b", rest, re.I)
        ):  # "6.20% prior 16s active return"
            n = re.search(r"\d+", m.group(0))
            fld = f"priorActiveReturn{n.group(0)}d" if n else "priorActiveReturn"
            return Binding(
                "exact_numeric", field=fld if fld in FIELD_SPECS else "priorActiveReturn", start=end, end=end + m.end()
            )
        b = Binding("return", horizon=match_horizon(m), start=end, end=end + m.end())
        r = re.match(r"^\s*(?:return|gain|move|momentum|performance|change|rally|advance|rise)?s?\s*", rest, re.I)
        tail = rest[r.end() :] if r else rest
        rel = _SUFFIX_RELATIVE.match(tail)
        word = (m.groupdict().get("rel") or "").strip().lower()
        if re.match(r"^\s*underperformance\b", rest, re.I):  # "10.10% 21-session underperformance"
            b.rule, b.relative, b.sign = "relative_return", True, -1
        elif word == "outperformance" or rel or re.match(r"^\s*outperformance\b", rest, re.I):
            # "10.46% 30-day outperformance", "+2.8% 30d vs SPY": real rationales mean either reading
            b.rule = "return_or_relative"
            if rel:
                b.end += (r.end() if r else 0) + rel.end()
        elif word or re.match(r"^\s*(?:active|relative|excess|alpha)\b", rest, re.I):
            b.relative = True
            b.rule = "relative_return"
        elif _NEG_SUFFIX.match(tail):
            b.sign = -1
        return b
    m = _SUFFIX_DISTANCE.match(after)
    if m:
        d = m.group("dir").lower()
        negative = d not in ("above", "over", "over and above")
        b = Binding("", start=end, end=end + m.end(), sign=-1 if negative else 1)
        if m.group("w52"):
            b.rule = "distance_52w_high" if m.group("hl").lower().startswith("h") else "distance_52w_low"
            b.field = "week52High" if b.rule == "distance_52w_high" else "week52Low"
        elif m.group("ma"):
            days = m.group("man") or m.group("man2") or m.group("man3")
            b.rule, b.field = "distance_sma", f"sma{days}"
        else:
            b.rule, b.field = "analyst_upside", "analystTargetPrice"
            b.sign = 1 if negative else -1  # "10% below the target" = 10% upside
        return b
    m = _SUFFIX_UPSIDE.match(after)
    if m:
        return Binding(
            "analyst_upside",
            field="analystTargetPrice",
            start=end,
            end=end + m.end(),
            sign=1 if m.group("d").lower() == "upside" else -1,
        )
    lead = leading_field_phrase(after)
    if lead and not re.match(
        r"^\s*[:=]?\s*[+\-\u2212]?(?:\$\d|\d[\d,]*(?:\.\d+)?\s*%|\d+\.\d+)", after[lead[0] :]
    ):  # "return_3s +2.42% active_return_5s +3.12%":
        return Binding(
            "exact_numeric", field=lead[1], start=end, end=end + lead[0]
        )  # the next field has its own figure
    return None


_WINDOW_LINK = re.compile(
    r"^\s*(?:over|in|for|of|across|during)?\s*(?:the\s+)?(?:past|last|prior|trailing|latest)?\s*$", re.I
)


def windowed_field(phrase: tuple[int, int, str] | None, before: str, hm: re.Match[str]) -> str | None:
    """A measure named right before a window ("active return 21s", "volatility over 63 sessions"): that measure's
    field over the window, when the registry has it (None for a plain return: the window alone says it)."""
    if phrase is None or phrase[1] > hm.start() or not _WINDOW_LINK.match(before[phrase[1] : hm.start()]):
        return None
    family = window_family(phrase[2])
    if not family:
        return None
    key = match_horizon(hm)
    suffix = key[:-1] + ("d" if key[-1] in "TD" else key[-1].lower())
    return next((f for f in family if f.endswith(suffix) and not f[-len(suffix) - 1].isdigit()), None)


_QUALITY_BEFORE = re.compile(r"\b(?:qual|quality)\s*(?:[:=]|of|at|is)?\s*$", re.I)
_SCORE_VALUE = re.compile(r"^(?:0?\.\d+|1\.0+)(?![\d.%]|\s*(?:%|percent|pp|bps?)\b)")
"""'QUAL 0.689', 'Quality .578': a score in 0..1 written after the word alone (a percentage never is one)."""


_PRIOR_COLUMN_BEFORE = re.compile(r"(?<![\w-])prior[\s_-]?(?P<n>\d{1,3})s\s*(?:[:=]\s*)?$", re.I)
"""'prior 16s +4.41pp', 'Prior 105s +40.58%': the table's own column name in short (prior_16s_active_return)."""


def bind_prefix(text: str, start: int, floor: int) -> Binding | None:
    before = text[floor:start]
    m = _QUALITY_BEFORE.search(before)
    if m and _SCORE_VALUE.match(text[start:]):
        return Binding("exact_numeric", field="qualityEvidenceScore", start=floor + m.start(), end=start)
    m = _PRIOR_COLUMN_BEFORE.search(before)
    if m and f"priorActiveReturn{m['n']}d" in FIELD_SPECS:
        # the short name says the column, not how it is measured: supported when it holds, never contradicted
        return Binding(
            "exact_numeric", field=f"priorActiveReturn{m['n']}d", start=floor + m.start(), end=start, label="inferred"
        )
    m = PREFIX_RELATIVE.search(before)
    if m:
        return Binding("relative_return", relative=True, start=floor + m.start(), end=start, sign=behind_sign(m))
    m = _PREFIX_UPSIDE.search(before)
    if m:
        return Binding(
            "analyst_upside",
            field="analystTargetPrice",
            start=floor + m.start(),
            end=start,
            sign=1 if m.group("d").lower() == "upside" else -1,
        )
    m = _PREFIX_DISTANCE.search(before)
    if m and re.search(r"\b(?:distance|off|below|from)\s*(?:to|from)?\s*(?:the|its)?\s*$", before[: m.start()], re.I):
        m = None  # "distance to 52w high -17.99%": the distance, not the level
    if m:  # "52-week high of $180" is the level itself
        f = "week52High" if m.group("hl").lower().startswith("h") else "week52Low"
        return Binding("exact_numeric", field=f, start=floor + m.start(), end=start)
    best: Binding | None = None
    best_end = -1
    phrase = last_field_phrase(before)
    if phrase is not None:
        best_end = phrase[1]
        best = Binding("exact_numeric", field=phrase[2], start=floor + phrase[0], end=start)
        measure = last_field_phrase(before[: phrase[0]]) if phrase[2] in FIELD_HORIZONS else None
        if measure is not None and window_family(measure[2]) and not before[measure[1] : phrase[0]].strip():
            # "active 5d 1.71%", "volatility 21d 15%": a measure and then a window written like a return's name
            key = FIELD_HORIZONS[phrase[2]]
            suffix = key[:-1] + ("d" if key[-1] in "TD" else key[-1].lower())
            fld = next(
                (f for f in window_family(measure[2]) if f.endswith(suffix) and not f[-len(suffix) - 1].isdigit()), None
            )
            if fld is not None:
                best = Binding("exact_numeric", field=fld, start=floor + measure[0], end=start)
    for hm in HORIZON_RE.finditer(before):
        if phrase is not None and phrase[0] <= hm.start() and hm.end() <= phrase[1]:
            continue  # the window is part of the field's own name ("active return 21s", "30-day volatility")
        if hm.end() >= best_end:
            best_end = hm.end()
            if is_rate_tenor(hm):
                best = Binding("briefing", start=floor + hm.start(), end=start)
                continue
            best = Binding("return", horizon=match_horizon(hm), start=floor + hm.start(), end=start)
            measured = windowed_field(phrase, before, hm)
            if (
                measured is not None and phrase is not None
            ):  # "active return 21s +10.52%", "... over 5 sessions was +3.65%"
                best = Binding("exact_numeric", field=measured, start=floor + phrase[0], end=start)
                continue
            tail = before[hm.end() :]
            if re.match(r"^\s*(?:active|relative|excess|benchmark-relative|alpha)\b", tail, re.I):
                best.relative = True
                best.rule = "relative_return"
            elif re.match(r"^\s*(?:\w+\s+)?(?:outperformance|underperformance)\b", tail, re.I):
                best.rule = "return_or_relative"  # "7-day outperformance of 4.83%": either reading is meant
    ctx_start, ctx_end = -1, -1
    for cm in CONTEXT_RE.finditer(before):
        adjacent = ctx_end >= 0 and not before[ctx_end : cm.start()].strip()
        ctx_start, ctx_end = (ctx_start if adjacent else cm.start()), cm.end()  # "Q1 chip sales" as one phrase
    if ctx_end > best_end:
        if words_between(before[ctx_end:]) <= 5:
            return Binding("briefing", start=floor + ctx_start, end=start)
        return None
    if best is None or not only_connectors(before[best_end:]):
        return None
    return best
