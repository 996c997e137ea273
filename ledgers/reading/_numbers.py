"""Numbers in a text: which are claim-worthy (not dates, years, index names, indicator parameters, allocations),
what each is bound to (``_binding``), its sign and approximation words; the ``NumberHit`` found and the assertion it
makes are ``_number_assertion``'s."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from ledgers._models import Op
from ledgers._registry import FIELD_SPECS, WINDOW_FAMILIES, resolve_field, window_family
from ledgers._units import NUMBER_PATTERN, number_from_match
from ledgers.reading._binding import PREFIX_RELATIVE, Binding, behind_sign, bind_prefix, bind_suffix
from ledgers.reading._clauses import forecast_marker_before
from ledgers.reading._fields import last_field_phrase, only_connectors
from ledgers.reading._horizons import (
    FIELD_HORIZONS,
    HORIZON_AFTER_NUM,
    HORIZON_RE,
    WORD_NUMBERS,
    is_rate_tenor,
    match_horizon,
)
from ledgers.reading._keys import key_before, key_field_of
from ledgers.reading._number_assertion import NumberHit
from ledgers.reading._vocab import (
    CONTEXT_JUST_BEFORE,
    CONTEXT_SUFFIX,
    DATE_AFTER,
    DATE_BEFORE,
    sign_word_before,
)

NUM_RE = re.compile(r"(?=[+\-\u2212\u2013$\d.])(?<![\w.&/])" + NUMBER_PATTERN)


_SAME_MEASURE_LINK = re.compile(
    r"\s*,?\s*(?:and|while|but|versus|vs\.?|compared\s+with|against|from|to|"
    r"(?:improving|rising|falling|easing|up|down)\s+to)?\s*",
    re.I,
)
_SCOPE_THEN_BRACKET = re.compile(
    r"\s+(?:in|among|of|across|within)\s+(?:the\s+|its\s+|all\s+|any\s+)?"
    r"[\w&/-]+(?:\s+[\w&/-]+){0,3}\s*\(\s*",
    re.I,
)
_NEXT_OPTION_LINK = re.compile(
    r"\s*\)?\s*[,;]?\s*(?:(?:just|narrowly|well|slightly|comfortably)\s+)?(?:ahead\s+of|behind|above|below|vs\.?|"
    r"versus|and|than|over|edging\s+out|compared\s+with|against|beside|next\s+to)?\s*"
    r"(?:[A-Z][\w&.-]*(?:'s)?\s+){0,2}\(?\s*"
)
"""'... score in the universe (0.756), just ahead of EWY (0.754) and SMH (0.751)', '(0.737 vs 0.734)': a figure
of another option in the same measure, its name (if any) and a link the only words between."""
_PORTFOLIO_SUFFIX = re.compile(
    r"^\s*(?:of\s+(?:the\s+)?(?:portfolio|capital|assets(?!\s+(?:were|was|are|finished|closed|ended|positive|up|"
    r"higher|rose|in\s+the\s+green))|allocation)|caps?\b|allocation|allocated|weights?"
    r"|weighting|position|sleeve|stake|limit|max(?:imum)?(?![\s-]+(?:draw|vol|loss|decline))|exposure\s+cap|in\s+cash"
    r"|cash\b|each\b|equal)",
    re.I,
)


_PORTFOLIO_PREFIX = re.compile(
    r"(?:allocat\w*|weights?|weighting|(?<!market\s)cap(?:ped)?|at\s+most|max(?:imum)?|limit(?:ed)?|equal|confidence)"
    r"\s*(?:of|at|to|:|=)?\s*$",
    re.I,
)


_APPROX_PREFIX = re.compile(
    r"(?:\b(?:about|around|roughly|approximately|approx\.?|nearly|almost|close\s+to|some|circa)\s*|[~\u2248])$",
    re.I,
)


_OP_PREFIX = re.compile(
    r"(?:\b(?P<gt>above|over|greater\s+than|more\s+than|exceed(?:s|ing)?|at\s+least|north\s+of|higher\s+than"
    r"|in\s+excess\s+of)|(?P<gt2>>=?)|\b(?P<lt>below|under|less\s+than|at\s+most|beneath|south\s+of"
    r"|lower\s+than)|(?P<lt2><=?))\s*$",
    re.I,
)


_NEG_PREFIX = re.compile(
    r"\b(?:down|fell|fall(?:en|ing)?|dropped|drop(?:ping)?|declined?|declining|lost|slid|slipped|sank|sunk"
    r"|lower|off|shed|pullback\s+of|drawdown\s+of|decline\s+of|loss\s+of|slump(?:ed)?\s+|tumbled|plunged|negative"
    r"|gave\s+back|gives\s+back|giving\s+back|given\s+back|handed\s+back|surrendered|shaved\s+off)"
    r"(?:\s+(?:another|a\s+further|an\s+additional))?"
    r"(?:\s+(?:by|of|some|about|around|roughly|nearly|almost))?\s*[~\u2248]?\s*$",
    re.I,
)


_TICKER_AFTER = re.compile(r"^\s+(?:in\s+|into\s+)?[A-Z][A-Z0-9_]{1,14}\b(?!\s*(?:at|of|is|was|=)\b)")


_PARAMETER_BEFORE = re.compile(
    r"\b(?:RSI|SMA|EMA|MA|MACD|ATR|ADX|CCI|ROC|BB|Bollinger|Stoch\w*|Williams\s*%R)\s*"
    r"\((?:\s*\d+\s*,)*\s*$",
    re.I,
)


_INDEX_NAME_BEFORE = re.compile(r"(?:S&P|SP|Russell|Nasdaq|NASDAQ|FTSE|Stoxx|STOXX|Nikkei|MSCI\s+\w+)[\s-]?$")


_RELATIVE_BEFORE = re.compile(
    r"\b(?:relative|active|excess|benchmark-relative)\s+(?:momentum|performance|outperformance|return|returns|"
    r"strength|gains?)\s*[(:]?\s*(?:of\s+|at\s+)?$",
    re.I,
)


_NOT_A_RETURN_BEFORE = re.compile(
    r"\b(?:share|breadth|participation|probability|chance|odds|weight(?:ing)?|allocation|yield|rate|ratio|"
    r"percent(?:age)?\s+of|z[\s-]?score|zscore|score|hit\s+rate|win\s+rate|up[\s-]days?)\s*(?:of|at|was|is|were|"
    r"near|around|about|:)?\s*[~\u2248]?\s*\(?\s*$",
    re.I,
)
"""A horizon after the number does not make it a return when the words before it name another measure."""


_SUFFIX_MULTIPLE = re.compile(
    r"^\s*(?:times\s+)?(?:(?:trailing|ttm)\s+)?(?P<fwd>forward\s+|fwd\s+)?(?:earnings|eps)\b", re.I
)
_HAS_DIGIT = re.compile(r"\d")


_POINTS_AFTER = re.compile(r"\s*(?:percentage\s+)?points?\b(?!\s+(?:on|in)\s+the\s+(?:s&p|index|dow|nasdaq))", re.I)
"""'3.05 points' after a comparison or a move is percentage points (an index's points are a level: left alone)."""
_PLAIN_RETURN_WORDS = re.compile(
    r"\b(?:returns?|returned|gain(?:s|ed)?|rose|rise|rising|fell|fall(?:en|ing)?|up|down|moved?|rall(?:y|ied|ies)|"
    r"performance|performed|change|advanced?|declined?|decline|drop(?:ped)?|pullback|loss|lost|run(?:-up)?|surged?|"
    r"jumped|climbed|slipped|sank|spike|momentum|sold\s+off)\b",
    re.I,
)
_MEASURED_RETURN = re.compile(r"\b(?:active|relative|excess|prior(?:[\s-]window)?)\s+returns?\b", re.I)
"""'active return' names another measure than a plain return: it does not make a figure a plain return."""
_PRIOR_BEFORE = re.compile(r"\bprior(?:[\s-]+window)?\b[^.;,()]{0,20}$", re.I)
"""'Prior 48% active run', 'prior-window active return of -11.7%': the window before the latest one."""


_ELIDED_WINDOW = re.compile(
    r"\s*(?:(?:vs\.?|versus|against)\s+(?:the\s+)?[A-Z][\w&]*\s+)?(?:over|across|in|for)\s+"
    rf"(?:the\s+)?(?:last\s+|past\s+|prior\s+)?(?P<n>\d{{1,3}}|{WORD_NUMBERS})\b"
    r"(?!\s*[-\u2013]?\s*(?:%|[A-Za-z]|\d))",
    re.I,
)
"""'over five', 'across 5', 'over the last three': a window whose unit is left to the sentence's earlier one."""
_UNIT_WRITTEN = re.compile(
    rf"(?<![\w.])(?:\d+|{WORD_NUMBERS})\s*-?\s*"
    r"(?P<u>trading[\s-]days?|sessions?|days?|weeks?|months?|years?|s|d)\b",
    re.I,
)


def _says_plain_return(text: str, start: int, end: int, floor: int) -> bool:
    """Whether the words around a number with a window name a plain return ("returned 3.05% over 3 sessions",
    "+5.6% 7d gain"); a bare window and figure ("5s +0.85%", "7d: +3.2%") leave the measure unsaid."""
    before = _MEASURED_RETURN.sub(" ", text[max(floor, start - 40) : start])
    after = _MEASURED_RETURN.sub(" ", text[end : end + 30])
    return bool(_PLAIN_RETURN_WORDS.search(before) or _PLAIN_RETURN_WORDS.search(after))


_FRONTED_WINDOW = re.compile(
    r"\s*(?:over|in|during|across|for)\s+(?:the\s+)?(?:(?:past|last|latest|prior|trailing)\s+)?"
    r"(?P<w>(?:\d+|one|five|seven|twenty[\s-]one|thirty)[\s-]*(?:trading\s+)?(?:sessions?|days?|weeks?|months?)|"
    r"week|month)\s*,?\s+(?=[A-Z])",
    re.I,
)


def _fronted_window(text: str, start: int, floor: int) -> str | None:
    """The window a sentence opens with ("Over 21 sessions SPY is up just 0.21%", "Over the past week, XLE fell
    2.1%"): the window of a plain move's figure with none of its own, inferred (it supports, never contradicts). Only
    when nothing but the sentence's start stands before the window."""
    opening = max(floor, text.rfind(". ", 0, start) + 2 if text.rfind(". ", 0, start) >= 0 else 0)
    m = _FRONTED_WINDOW.match(text, opening)
    if m is None or m.end() > start:
        return None
    hz = HORIZON_RE.search(m["w"])
    return match_horizon(hz) if hz is not None else None


_WINDOW_TOKEN = r"\d+\s*(?:d|s|w|m|y|days?|sessions?|weeks?|months?)\b"
_WINDOW_LIST = re.compile(rf"(?<![\w.])({_WINDOW_TOKEN})((?:\s*/\s*{_WINDOW_TOKEN})+)", re.I)
_FIGURE_LIST = re.compile(r"(?<![\w.])[+\-\u2212]?\d+(?:\.\d+)?%(?:\s*/\s*[+\-\u2212]?\d+(?:\.\d+)?%)+")
_FIGURE = re.compile(r"[+\-\u2212]?\d+(?:\.\d+)?%")
_OTHER_MEASURE = re.compile(
    r"\b(?:vol\w*|beta|drawdowns?|dd|corr\w*|active|relative|alpha|excess|vs\.?|versus|share|breadth|rank\w*|"
    r"scores?|percentile|rsi|yields?|spread|up[\s-]days?|dispersion|curve|treasur\w*|notes?|bonds?|rates?|tenors?)\b",
    re.I,
)


def _slash_pairs(text: str) -> dict[int, str]:
    """Figures paired in order with the windows a slash list writes ("7d/30d: +1.1%/+3.8%", "(+1.1%/+3.8% 7d/30d)"):
    the start of each figure's digits -> its window's horizon key. Only lists of the same length, close together, with no
    other measure named about them (a "vol 21s/63s" pair is no return)."""
    out: dict[int, str] = {}
    windows = list(_WINDOW_LIST.finditer(text))
    for figs in _FIGURE_LIST.finditer(text):
        near = [w for w in windows if 0 <= figs.start() - w.end() <= 40 or 0 <= w.start() - figs.end() <= 12]
        if len(near) != 1:
            continue
        w = near[0]
        keys = [match_horizon(h) for h in HORIZON_RE.finditer(w.group(0))]
        values = list(_FIGURE.finditer(figs.group(0)))
        lo, hi = min(w.start(), figs.start()), max(w.end(), figs.end())
        if len(keys) != len(values) or _OTHER_MEASURE.search(text, max(0, lo - 25), hi):
            continue
        for key, v in zip(keys, values, strict=True):
            out[figs.start() + v.start() + len(v.group(0)) - len(v.group(0).lstrip("+-\u2212"))] = key
    return out


def find_numbers(text: str, cited_fields: Sequence[str] = ()) -> list[NumberHit]:
    """Every claim-worthy number in ``text`` with the field (or briefing context) it belongs to."""
    hits: list[NumberHit] = []
    if not _HAS_DIGIT.search(text):
        return hits
    ordinal = -1
    floor = 0
    last_horizon: str | None = None
    last_relative: Binding | None = None  # "beat SPY by 1.70 points over five sessions and 0.97 over 21": one claim
    paired = _slash_pairs(text) if "/" in text else {}
    for m in NUM_RE.finditer(text):
        ordinal += 1
        num_end = m.end("num")
        suffix = m.group("suffix")
        rest = text[num_end:]
        if (
            HORIZON_AFTER_NUM.match(rest)
            and not m.group("cur")
            and suffix in (None, "m", "M")
            or (suffix is None and re.match(r"^(?:st|nd|rd|th)\b|^[A-Za-z]", rest))
        ):
            continue  # "7d", "30-day", "52-week", "Q1", "10Y", "3rd"
        if suffix == "m" and not m.group("cur") and "." not in m.group("num") and re.match(r"^m\b", rest):
            continue  # "6m", "12m": months
        stated = number_from_match(m)
        is_plain = not (suffix or m.group("cur") or "." in m.group("num"))
        start = m.start()
        if (m.group("sign") and start > 0 and text[start - 1].isdigit()) or (
            start >= 2 and text[start - 1] in "-\u2013" and text[start - 2].isdigit()
        ):
            continue  # the end of a range ("July 9-16", "3-5%")
        before = text[max(0, start - 40) : start]
        if is_plain and (DATE_BEFORE.search(before) or DATE_AFTER.match(text[m.end() :])):
            continue
        if is_plain and 1900 <= abs(stated.value) <= 2100:
            continue
        if is_plain and _INDEX_NAME_BEFORE.search(before):
            continue  # "S&P 500", "Russell 2000", "Nasdaq 100"
        if is_plain and _PARAMETER_BEFORE.search(before) and re.match(r"^\s*[,)]", text[m.end() :]):
            continue  # an indicator's parameter, not its value: "RSI(14)", "MACD(12, 26, 9)", "SMA(50)"
        # trailing "+" ("$90+") and portfolio words
        if _PORTFOLIO_SUFFIX.match(text[m.end() : m.end() + 30]) or _PORTFOLIO_PREFIX.search(before):
            floor = m.end()
            continue
        points = _POINTS_AFTER.match(text, m.end()) if not stated.percent else None
        if points is not None:  # "beat SPY by 3.05 points over 21 sessions": percentage points
            stated = dataclasses.replace(stated, percent=True)
        key = key_before(text, start, floor)  # "mdd_21s=-7.32%", "quality_evidence_score": 0.756: the key names it
        keyed: Binding | None = None
        key_field = key_field_of(key) if key is not None else None
        if key is not None and key_field is not None:
            keyed = Binding("exact_numeric", field=key_field, start=key.start, end=m.end())
        binding = keyed or bind_suffix(text, points.end() if points else m.end(), start)
        if keyed is None and m.start("num") in paired:  # "7d/30d (+1.1%/+3.8%)": the window at its place
            binding = Binding("return", horizon=paired[m.start("num")], start=start, end=m.end())
        if suffix == "x":  # a multiple: "28x earnings", "25x forward earnings"
            mult = _SUFFIX_MULTIPLE.match(text[m.end() : m.end() + 40])
            if mult:
                binding = Binding(
                    "exact_numeric",
                    field="forwardPE" if mult.group("fwd") else "peRatio",
                    start=start,
                    end=m.end() + mult.end(),
                )
        rel_prefix = PREFIX_RELATIVE.search(text[floor:start]) if binding is not None else None
        if binding is not None and binding.rule == "return" and rel_prefix:
            binding.rule, binding.relative = "relative_return", True  # "outperformed SPX by 2% over 30d"
            binding.start = floor + rel_prefix.start()
            binding.sign = binding.sign or behind_sign(rel_prefix)
        if (
            binding is not None
            and binding.rule == "return"
            and _RELATIVE_BEFORE.search(text[max(floor, start - 40) : start])
        ):
            binding.rule = "return_or_relative"  # "relative momentum (+6.6% 30d)": either reading may be meant
        if suffix == "x" and binding is not None and binding.field and FIELD_SPECS[binding.field].unit == "price":
            binding = None  # a multiple is not a price
        if (
            binding is not None
            and binding.rule == "return"
            and not stated.explicit_sign
            and _NOT_A_RETURN_BEFORE.search(before)
        ):  # a share or a level is never written with a sign
            binding = Binding("briefing", start=start, end=binding.end)  # "asset share 68% over 5 days"
        if binding is not None and binding.rule in ("return", "relative_return") and CONTEXT_JUST_BEFORE.search(before):
            binding = Binding("briefing", start=start, end=binding.end)  # "oil +8% weekly", "Kospi -3% 7d"
        if binding is not None and binding.rule == "relative_return" and binding.horizon is None:
            named = bind_prefix(text, start, floor)  # "Vol 15.6% vs SPY 12.1%": the measure named before the number
            if named is not None and named.rule == "exact_numeric" and named.field not in FIELD_HORIZONS:
                binding = named
            elif (
                named is not None and named.rule == "exact_numeric" and named.field is not None
            ):  # "return_21s was 1.73% versus SPY ...": either
                binding = Binding(
                    "return_or_relative", horizon=FIELD_HORIZONS[named.field], start=named.start, end=binding.end
                )
        if (
            binding is not None
            and binding.field in ("activeReturn", None)
            and binding.rule in ("exact_numeric", "relative_return")
            and _PRIOR_BEFORE.search(text[max(floor, start - 30) : start])
        ):
            binding = Binding("exact_numeric", field="priorActiveReturn", start=binding.start, end=binding.end)
        if binding is None:
            if _TICKER_AFTER.match(text[m.end() : m.end() + 16]) and not CONTEXT_SUFFIX.match(
                text[m.end() : m.end() + 40]
            ):
                floor = m.end()
                continue  # "60% SP500": an allocation
            binding = bind_prefix(text, start, floor)
        if binding is None:
            ctx = CONTEXT_SUFFIX.match(text[m.end() : m.end() + 40])
            if ctx:
                binding = Binding("briefing", start=start, end=m.end() + ctx.end())
        if binding is None and cited_fields:
            numeric = [f for f in (resolve_field(c) for c in cited_fields) if f and FIELD_SPECS[f].unit != "text"]
            if numeric:
                binding = Binding("exact_numeric", field=numeric[0], start=start, end=m.end())
        if binding is None:
            if is_plain:
                continue
            if key is not None and key.strong:  # a key not read: never matched to a field the value equals
                binding = Binding("unread_key", start=key.start, end=m.end(), label=key.text)
            else:
                binding = Binding("briefing", start=start, end=m.end(), label="unbound")
        if binding.rule == "return" and binding.horizon is not None:  # "active return was 3.95% over 5 sessions"
            phrase = last_field_phrase(text[floor:start])
            if phrase is not None and window_family(phrase[2]) and only_connectors(text[floor + phrase[1] : start]):
                window_key = binding.horizon
                suffix = window_key[:-1] + ("d" if window_key[-1] in "TD" else window_key[-1].lower())
                fld = next(
                    (f for f in window_family(phrase[2]) if f.endswith(suffix) and not f[-len(suffix) - 1].isdigit()),
                    None,
                )
                if fld is not None:
                    binding = Binding("exact_numeric", field=fld, start=floor + phrase[0], end=binding.end)
        bare = binding.rule == "return" and not _says_plain_return(text, start, m.end(), floor)
        if binding.rule == "briefing":
            ctx = CONTEXT_SUFFIX.match(text[m.end() : m.end() + 40])
            if ctx:
                binding.end = max(binding.end, m.end() + ctx.end())  # "+25% QoQ"
        if binding.rule == "relative_return" and binding.horizon is None:
            prior = list(HORIZON_RE.finditer(text, max(0, start - 60), start))
            if prior and not is_rate_tenor(prior[-1]):
                binding.horizon = match_horizon(prior[-1])  # "strongest 30d relative return (+14% vs SPX)"
                if hits and hits[-1].span[1] >= prior[-1].end():
                    # "returned 2.49% over three sessions and beat SPY by 3.01% across five": another figure's window
                    binding.label = "inferred"
            else:
                binding.horizon = last_horizon
                binding.label = "inferred"  # the window comes from earlier in the sentence
        if binding.rule == "briefing" and binding.label == "unbound":
            phrase = last_field_phrase(text[floor:start])
            if phrase is not None and _SCOPE_THEN_BRACKET.fullmatch(text, floor + phrase[1], start):
                # "the highest quality evidence score in the universe (0.756)": the measure, its set, its figure
                binding = Binding("exact_numeric", field=phrase[2], start=start, end=binding.end, label="inferred")
        if (
            binding.rule == "briefing"
            and binding.label == "unbound"
            and hits
            and hits[-1].field
            and hits[-1].binding_rule == "exact_numeric"
            and not hits[-1].forecast
            and stated.percent == hits[-1].stated.percent
            and _NEXT_OPTION_LINK.fullmatch(text, hits[-1].end, start)
        ):
            # the same measure, said of the next option: inferred (supports, never contradicts)
            binding = Binding("exact_numeric", field=hits[-1].field, start=start, end=binding.end, label="inferred")
        plain_unbound = (
            binding.rule == "briefing"
            and binding.label == "unbound"
            and _says_plain_return(text, start, m.end(), floor)
        )  # "rose 0.90% over the last three"
        if (
            plain_unbound
            or binding.rule in ("relative_return", "return", "derived_return")
            and (binding.horizon is None or binding.label == "inferred")
        ):
            elided = _ELIDED_WINDOW.match(text, max(m.end(), binding.end))
            unit = list(_UNIT_WRITTEN.finditer(text, 0, start)) if elided else []
            if elided and unit:  # "beat SPY by 3.01% across five", after "over three sessions": five sessions
                hz = HORIZON_RE.match(f"{elided['n']} {unit[-1]['u']}")
                if hz is not None:
                    if plain_unbound:
                        binding = Binding("return", start=binding.start, end=binding.end)
                    binding.horizon, binding.label = match_horizon(hz), "inferred"
                    binding.end = elided.end()
        if plain_unbound and binding.rule == "briefing" and stated.percent:
            fronted = _fronted_window(text, start, floor)
            if fronted is not None:  # "Over 21 sessions SPY is up just 0.21%": the window opening the sentence
                binding = Binding("return", start=binding.start, end=binding.end)
                binding.horizon, binding.label = fronted, "inferred"
        joined = (
            bool(hits) and re.fullmatch(r"\s*,?\s*(?:and|while|but)?\s*", text[hits[-1].span[1] : start]) is not None
        )
        if joined and hits[-1].stated.percent and not stated.percent and not suffix:
            stated = dataclasses.replace(
                stated, percent=True
            )  # "by 1.70 percentage points ... and 0.97 over 21 sessions"
        if (
            hits
            and hits[-1].field
            and FIELD_SPECS[hits[-1].field].category == "market_state"
            and binding.rule in ("return", "briefing", "any_field")
            and _SAME_MEASURE_LINK.fullmatch(text[hits[-1].span[1] : start])
        ):
            # "34.78% of assets were positive over 5 sessions versus 49.28% over 21": the same measure, its window
            family = window_family(hits[-1].field)
            family_key = binding.horizon
            suffix = (
                family_key[:-1] + ("d" if family_key[-1] in "TD" else family_key[-1].lower()) if family_key else None
            )
            fld = next((f for f in family if suffix and f.endswith(suffix) and not f[-len(suffix) - 1].isdigit()), None)
            generic = next((g for g, members in WINDOW_FAMILIES.items() if hits[-1].field in members), hits[-1].field)
            binding = Binding(
                "exact_numeric", field=fld or generic, start=start, end=binding.end, label=None if fld else "inferred"
            )
        if last_relative is not None and binding.rule in ("return", "relative_return") and joined:
            binding.rule, binding.relative, binding.sign = "relative_return", True, last_relative.sign
        last_relative = binding if binding.rule == "relative_return" else None
        if binding.horizon is not None:
            last_horizon = binding.horizon
        elif binding.field in FIELD_HORIZONS:
            last_horizon = FIELD_HORIZONS[binding.field]
        negated = not stated.explicit_sign and (
            binding.sign == -1
            or (
                _NEG_PREFIX.search(before) is not None
                and binding.rule in ("return", "exact_numeric", "relative_return", "derived_return")
            )
        )
        if (
            not stated.explicit_sign
            and not negated
            and hits
            and hits[-1].negated
            and binding.rule in ("return", "exact_numeric")
            and re.fullmatch(r"\s*,?\s*and\s*", text[hits[-1].span[1] : start])
        ):
            negated = True  # "declined 1.54% over five sessions and 0.68% over 21 sessions"
        word = (
            sign_word_before(before, negated)
            if not stated.explicit_sign and binding.rule in ("return", "exact_numeric", "derived_return")
            else None
        )
        if negated:
            stated = stated.negated()
        approx = bool(_APPROX_PREFIX.search(before.rstrip(" +-")) or _APPROX_PREFIX.search(before))
        op_m = _OP_PREFIX.search(before)
        op: Op = "eq"
        if op_m and binding.rule in ("exact_numeric", "return"):
            op = "gt" if (op_m.group("gt") or op_m.group("gt2")) else "lt"
        span = (min(start, binding.start), max(m.end(), binding.end))
        fc = forecast_marker_before(text, start)
        hits.append(
            NumberHit(
                start,
                m.end(),
                stated,
                binding.rule,
                binding.field,
                binding.horizon,
                binding.relative,
                approx,
                op,
                span,
                fc is not None,
                fc.start() if fc else -1,
                ordinal,
                negated,
                bare,
                binding.label == "unbound",
                binding.label == "inferred",
                word,
                binding.label if binding.rule == "unread_key" else None,
            )
        )
        floor = max(m.end(), binding.end)
    return hits
