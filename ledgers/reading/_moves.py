"""Moves in words: "crude has sold off sharply", "energy fell over the past week", "while the market fell",
"its sharp weekly gain", "the recent 7-day oil rally". The direction is the sign of the subject's return over the
window the words give (a week, a month, "recent": the short windows the round shows; none: the momentum windows).

A verb's subject must be named right before it (an option, the market, or "it / the sector / the fund" for the
option under discussion); a move of anything else (yields, inflation, "tech", "growth") is not read, and a
conditional or present-tense move ("if XLE falls", "rises when ...") is no claim about the data. A move said as a
noun phrase is read by the phrase's structure (``read_move_nouns``).
"""

from __future__ import annotations

import re
from typing import Any

from ledgers.reading._clauses import clause_start
from ledgers.reading._emit import Emit
from ledgers.reading._horizons import HORIZON_RE, WORD_NUMBERS, match_horizon

_DOWN = (
    r"fell|fallen|declined|dropped|sold\s+off|slid|slumped|tumbled|plunged|dipped|pulled\s+back|retreated|"
    r"weakened|lost\s+ground|sank|been\s+falling|been\s+declining|been\s+weak|been\s+soft"
)
_UP = (
    r"rose|risen|gained|rallied|climbed|surged|jumped|rebounded|advanced|firmed|strengthened|been\s+rising|"
    r"been\s+rallying|been\s+strong|been\s+firm"
)
_WINDOW = (
    r"(?:over\s+|in\s+|during\s+|for\s+)?(?:the\s+)?(?:past|last|prior|latest|recent|this|previous)?\s*"
    r"(?P<w>week|month|\d+\s*(?:sessions?|trading\s+days|days?|d|s)|1w|7d|30d|5d|3d|21d)\b"
)
MOVE_RE = re.compile(
    rf"(?P<pre>\b(?:has|have|had|is|are|was|were)\s+(?:also\s+)?)?(?P<verb>{_DOWN}|{_UP})\b"
    r"(?!\s+(?:out|behind|into|in\s+(?:the\s+)?rank|from\s+the|to\s+(?:the\s+)?(?:top|bottom|#|no\.)|off\s+the|back\s+into|"
    r"below|above|under|over\s+(?:its|their|the\s+\d|\d+[\s-]*day)|by\s+[+\-\u2212]?\$?\d|[+\-\u2212]?\$?\d))"
    r"(?P<adv>(?:\s+(?:sharply|steeply|strongly|hard|further|modestly|slightly|notably|recently|lately|this\s+week|"
    r"last\s+week|materially))*)"
    rf"(?P<win>\s+{_WINDOW})?",
    re.I,
)
_CONDITION = re.compile(
    r"\b(?:if|unless|when|whenever|once|should|until|in\s+case|lest|would|could|may|might|can)\b", re.I
)
_ITSELF = re.compile(
    r"(?:\b(?:it|its|the\s+(?:sector|fund|etf|option|index\s+fund|group|position|holding)|this\s+"
    r"(?:sector|fund|etf|option)|(?:recent\s+|its\s+)?(?:price\s+action|performance|returns?|"
    r"momentum))(?:\s+(?:has|have|had|is|was|been))*\s*)$",
    re.I,
)
_MARKET = re.compile(r"(?:\b(?:the\s+)?(?:broad\s+)?(?:market|index|benchmark|s&p(?:\s*500)?|spx|spy)\s*)$", re.I)


def _window(words: str) -> str | None:
    """Horizon label of the window words: '7D', '30D', a session count, or 'short' for "recent"."""
    w = words.lower()
    if re.search(r"\bweek|1w|7d\b", w):
        return "7D"
    if re.search(r"\bmonth|30d\b", w):
        return "30D"
    m = re.search(r"(\d+)\s*(?:sessions?|trading\s+days|s|d)\b", w)
    if m:
        return f"{m.group(1)}T"
    if re.search(r"\b(?:recent(?:ly)?|lately|short-term|near-term|sharp|this\s+week|last\s+week)\b", w):
        return "7D" if "week" in w else "short"
    return None


_CLAUSE_WORDS = re.compile(
    r"(?:[,;:(]|\b(?:while|whereas|but|though|although|and|as|after|despite|since|because|with|"
    r"amid|even\s+as)\b)",
    re.I,
)
_LINK = re.compile(
    r"^[\s']*(?:s\s+)?(?:(?:shares|prices?|equities|stocks|futures|fund|etf|sector|itself|has|have|had|is|are|"
    r"was|were|also|been|already|now|still)\s+){0,3}$",
    re.I,
)
_HORIZON_NEAR = re.compile(r"(\d+)\s*(d|s|day|days|sessions?|w|week)\b", re.I)


def _mover(text: str, start: int, named_before) -> tuple[str | None, bool]:
    """(the option named as the mover right before ``start``, whether the words there are "it / the sector"):
    the name must open the verb's own clause, with only link words ("has", "shares", "'s") before the verb."""
    head = text[:start]
    cuts = [m.end() for m in _CLAUSE_WORDS.finditer(head)]
    clause_from = cuts[-1] if cuts else 0
    clause = head[clause_from:]
    if named_before is not None:
        named = named_before(clause_from, start)
        if named is not None and _LINK.match(text[named.end : start]):
            return named.symbol, False
    return None, bool(_ITSELF.search(clause)) and len(clause.split()) <= 4


def _nearby_window(text: str, start: int) -> str | None:
    """A window written just before a move without one ("+2.37% 7d while market fell"): the same window."""
    found = list(_HORIZON_NEAR.finditer(text, max(0, start - 40), start))
    if not found:
        return None
    unit, n = found[-1].group(2).lower(), int(found[-1].group(1))
    return f"{7 * n}D" if unit.startswith("w") else f"{n}D" if n in (7, 30) and unit.startswith("d") else f"{n}T"


def read_moves(text: str, add: Emit, benchmark: str | None, named_before=None) -> None:
    for m in MOVE_RE.finditer(text):
        cut = max(text.rfind(c, 0, m.start()) for c in ",;:(") + 1
        if _CONDITION.search(text[cut : m.start()]) or re.search(r"\b(?:will|to)\s*$", text[: m.start()], re.I):
            continue  # "if XLE falls", "could have fallen", "expected to rise"
        subject, itself = _mover(text, m.start(), named_before)
        if subject is None and benchmark is not None and _MARKET.search(text[max(0, m.start() - 30) : m.start()]):
            subject = benchmark
        if subject is None and not itself:
            continue  # the mover is something else (yields, "growth/tech", inflation): not read
        down = re.fullmatch(_DOWN, m["verb"], re.I) is not None
        label = _window(f"{m['adv'] or ''} {m['win'] or ''}") or _nearby_window(text, m.start())
        kw: dict[str, Any] = {"symbol": subject} if subject is not None else {}
        add(m, rule="momentum", polarity=-1 if down else 1, label=label, **kw)
    read_move_nouns(text, add, named_before, benchmark)
    read_participles(text, add, named_before, benchmark)
    read_signed_windows(text, add, named_before, benchmark)


_SIGNED_WINDOW = re.compile(
    r"\b(?P<sign>positive|negative|up|down)\s+(?:(?:on|over|for|in)\s+(?:the\s+)?(?:past\s+|last\s+)?)?"
    r"(?P<w>week|month|(?:\d+|seven|thirty)[\s-]*(?:d|s|days?|sessions?)|1w|1m)\b"
    r"(?![\s,-]*(?:and\s+|or\s+)?(?:[\w-]+\s+){0,3}?(?:alpha|active|relative|excess|vs\.?|versus|than|beta|corr\w*|"
    r"breadth|share|high|low|volatility|vol|strength|weakness|momentum|returns?|performance|trend|drawdown|gains?|"
    r"loss(?:es)?|rank\w*)\b)",
    re.I,
)
"""A sign said over a window with no figure: "TLT positive 30d", "SPY is still up on the week", "XLE down over the
month"."""


def read_signed_windows(text: str, add: Emit, named_before, benchmark: str | None) -> None:
    """The sign of the subject's return over the window written. The subject is certain or the phrase is not read:
    the option named right before (link words only: "is", "still", "has been"), "it / the sector", or the market;
    a condition ("if XLE is down on the week") or a forecast is no claim about the data."""
    for m in _SIGNED_WINDOW.finditer(text):
        cut = max(text.rfind(c, 0, m.start()) for c in ",;:(") + 1
        if _CONDITION.search(text[cut : m.start()]) or re.search(r"\b(?:will|to|be)\s*$", text[: m.start()], re.I):
            continue
        subject, itself = _mover(text, m.start(), named_before)
        if subject is None and benchmark is not None and _MARKET.search(text[max(0, m.start() - 30) : m.start()]):
            subject = benchmark
        if subject is None and not itself:
            continue
        w = m["w"].lower()
        label = _window(w) or (
            "30D" if re.match(r"(?:30|thirty)|1m", w) else "7D" if re.match(r"(?:7|seven)|1w", w) else None
        )
        if label is None:
            continue
        kw: dict[str, Any] = {"symbol": subject} if subject is not None else {}
        add(m, rule="momentum", polarity=1 if m["sign"].lower() in ("positive", "up") else -1, label=label, **kw)


_MOVE_NOUNS_UP = r"strength|gains?|rally|run-up|surge|rebound|advance|upswing|rise|climb"
_MOVE_NOUNS_DOWN = r"weakness|dip|drop|decline|sell-?off|pullback|pull-back|slump|slide|fall"
_RELATIVE_NOUNS = r"outperformance|underperformance"
_PRESUPPOSED_ONLY = r"spike"
_MOVE_NOUN = re.compile(
    rf"\b(?P<noun>{_MOVE_NOUNS_UP}|{_MOVE_NOUNS_DOWN}|{_RELATIVE_NOUNS}|{_PRESUPPOSED_ONLY}|run)\b(?!-)", re.I
)
_PRESUPPOSING_BEFORE = re.compile(
    r"\b(?:revers(?:e|es|ed|ing)|give[sn]?\s+back|giving\s+back|gave\s+back|unwind(?:s|ing)?|unwound|"
    r"erase[sd]?|erasing|extend(?:s|ed|ing)?|prolong(?:s|ed|ing)?|continuation\s+of|reversal\s+of|after|following)\s+"
    r"(?:(?:the|its|their|this|that)\s+)?$",
    re.I,
)
_PRESUPPOSING_AFTER = re.compile(
    r"\s+(?:(?:could|may|might|would|can|will)\s+(?:\w+\s+)?(?:revers\w*|fade|unwind|mean[\s-]revert|stall|"
    r"roll\s+over|continue|persist)|to\s+(?:continue|persist))\b(?!\s+(?:the|a|an|its|their)\b)",
    re.I,
)
"""A fate a modal predicates of the move before it, with no object: the move exists ("Korea gains could reverse",
"weakness to persist"). A verb with an object makes the phrase a cause, which may be hypothetical ("technology
weakness could extend the pullback"): not read so."""
_CAUSE_AFTER = re.compile(
    r"\s+(?:could|may|might|would|can|will)\s+(?:\w+\s+)?(?:mean|extend|prove|invite|attract|signal|leave|make)\b", re.I
)
"""A modal verb with an object after a move: a cause, taken for given only when a time word dates the move ("recent
outperformance could mean positioning is crowded")."""
_SUBJECT_LEAD = re.compile(r"^(?:\s*(?:[A-Za-z][\w/-]*|[,&])){0,3}\s*$")
_NOT_A_LEAD = re.compile(
    r"\b(?:is|are|was|were|has|have|had|if|when|while|to|in|on|of|for|with|by|as|than|should|could|may|might|"
    r"would|will|can)\b",
    re.I,
)


def presupposes(text: str, start: int, end: int) -> bool:
    """Whether the move phrase text[start:end] is taken for given, a past fact even where the sentence forecasts:
    the object of a verb that undoes or extends it ("could reverse energy gains", "giving back its recent
    outperformance", "extending the drawdown"), after "after / following" ("a rebound after recent weakness"), or
    the subject a modal predicates a fate of ("Korea gains could reverse", "recent outperformance may fade",
    "causing weakness to continue")."""
    if _PRESUPPOSING_BEFORE.search(text, max(0, start - 30), start):
        return True
    if _PRESUPPOSING_AFTER.match(text, end) is None and not (
        _CAUSE_AFTER.match(text, end) is not None and _TIMED.search(text, start, end) is not None
    ):
        return False
    lead = text[clause_start(text, start) : start]
    return (
        _SUBJECT_LEAD.match(lead) is not None
        and _NOT_A_LEAD.search(lead) is None
        or bool(re.search(r"\b(?:causing|leaving|letting|allowing)\s+$", text[max(0, start - 20) : start], re.I))
    )


def _listed_options(text: str, first: int, named_before) -> list[Any]:
    """The options a coordinated list names right before ``first`` ("oil and energy gains": oil, then energy), in
    text order; an empty list when a word that is no option stands in it."""
    found: list[Any] = []
    at = first
    while True:
        sep = re.search(r"(?:,\s*(?:and\s+)?|\s*/\s*|\s+(?:and|&)\s+)$", text[max(0, at - 8) : at])
        if sep is None:
            return found
        at -= len(sep.group(0))
        named = named_before(max(0, at - 40), at)
        if named is None or named.end != at:
            return []
        found.insert(0, named)
        at = named.start


_TIME_MOD = (
    r"recent|recently|latest|prior|previous|past|weekly|monthly|short-term|near-term|this\s+week's|last\s+week's|"
    rf"the\s+week's|the\s+month's|(?:\d+|{WORD_NUMBERS})[\s-]?(?:day|d|week|month|session|s)"
)
_MANNER_MOD = (
    r"sharp|steep|strong|modest|mild|steady|large|big|extreme|notable|sustained|continued|broad|broad-based|"
    r"persistent|price|heavy|solid|robust|renewed|further|early"
)
_MODS_END = re.compile(rf"(?:(?:{_TIME_MOD}|{_MANNER_MOD})[\s-]+)+$", re.I)
_TIMED = re.compile(rf"\b(?:{_TIME_MOD})\b", re.I)
_DET_END = re.compile(r"(?:\b(?P<det>the|its|their|this|that|a|an)\s+)$", re.I)
_POSSESSIVE = re.compile(r"^['\u2019]s?\s+")
_LIST_BEFORE = re.compile(r"(?:/|&|,|\band\b|\bor\b)\s*$", re.I)
_WHOLE = re.compile(r".+", re.S)
_RANKED_BEFORE = re.compile(
    r"\b(?:\w+est|most|least|more|less|bigger|larger|deeper|smaller|greater|better|worse)\s+$", re.I
)
_LIST_THEN_WHICH = re.compile(r"\b(?:and|or)\s+[^,;.]{2,40},?\s+(?:which|that|who)\s+(?:\w+\s+){0,2}$", re.I)
_CIRCUMSTANCE_BEFORE = re.compile(r"\b(?:in|during|amid|amidst|through|throughout|despite|since|into|on)\s+$", re.I)
_COMPOUND_AFTER = re.compile(
    r"^[\s-]+(?:rank\w*|scores?|ratios?|signals?|risks?|setups?|potential|candidates?|trades?|levels?|zones?|"
    r"entr(?:y|ies)|thesis|plays?|buyers?|sellers?|patterns?|regimes?|phases?|scenarios?|probabilit\w+|profiles?)\b",
    re.I,
)
_ELSEWHERE_AFTER = re.compile(
    r"^\s+(?:in|among|across|of|from|for|versus|vs\.?|against|relative|compared|than|within|on|at|to|rate)\b", re.I
)


_STATE_LEAD = re.compile(
    r"(?:^|[(;:,\u2014]|\b(?:via|with|given|amid|amidst|despite|plus|and|reflecting|shows?|showing|sees|seeing|"
    r"confirms?|confirming|on\s+the\s+back\s+of))\s*$",
    re.I,
)
"""What may lead an option's bare "strength" / "weakness" ("ITA strength", "via biotech strength", "despite index
weakness") for it to state the option's present state: a clause's start or a word of circumstance. Anything else
("favor dollar strength", "buy on XLE weakness", "sell into strength") makes it a view or a plan: not read. No
window is written: the move is checked on the momentum windows and never contradicted."""


_STATE_NOUNS = ("strength", "weakness")
_SHOW_END = re.compile(r"\b(?:showing|shows|showed|shown|posting|posted|posts|displaying|displayed)\s+$", re.I)
_MARKET_NOUN_END = re.compile(r"\b(?:index|market|benchmark|s&p(?:\s*500)?)\s+$", re.I)
_IN_OPTION = re.compile(r"\s+in\s+(?:the\s+)?")
_LIST_ON = re.compile(r"\s*(?:,|/|&|\band\b|\bor\b)\s*\w")


def _owner_after(text: str, m: re.Match[str], words: str, named_before) -> str | None:
    """The option a timed state noun is said of after "in": "recent strength in regional banks" (one option, named
    right after "in"; a list, or no time word, is not read: "strength in value and quality", "favor strength in
    XLE")."""
    if named_before is None or m["noun"].lower() not in _STATE_NOUNS or not _TIMED.search(words):
        return None
    lead = _IN_OPTION.match(text, m.end())
    if lead is None:
        return None
    named = named_before(lead.end(), lead.end() + 40)
    if named is None or named.start != lead.end() or _LIST_ON.match(text, named.end):
        return None
    return str(named.symbol)


def pos_after(text: str, end: int) -> int:
    """The first position after ``end`` that is not a possessive or a space ("XLE's weekly gain": the 'w')."""
    return end + len(text[end:]) - len(_POSSESSIVE.sub("", text[end:], count=1).lstrip())


def _np_window(words: str) -> str | None:
    """The window a move noun's modifiers write ('7D', '30D', a session count, 'short' for "recent"), as the horizon
    readers key it (``match_horizon``); None when they write none ("prior", "large") or a longer one than a month:
    which window the move was over is then unsaid."""
    m = HORIZON_RE.search(words)
    if m is not None:
        key = match_horizon(m)
        return key if key in ("7D", "30D") or key.endswith("T") else None
    if re.search(r"\b(?:recent(?:ly)?|latest|short-term|near-term)\b", words, re.I):
        return "short"
    return None


def read_move_nouns(text: str, add: Emit, named_before, benchmark: str | None = None) -> None:
    """A move said as a noun phrase: "its recent sharp rally", "the recent 7-day oil rally", "XLE's weekly gain",
    "recent weakness". The phrase is read by its structure, right to left from the noun: modifiers, at most one
    option named right before the noun (its subject), modifiers, a determiner or owner.

    - The word right before the noun must be a modifier, an option's name or a determiner: "commodity weakness",
      "earnings strength", "relative strength" are moves of something else (or another reader's).
    - The phrase needs an owner ("its", "their"), a time word ("recent", "7-day") or, with an option named, a
      definite article ("the oil rally"): "favor dollar strength", "strong gains" say no past move. With no option
      named, its subject is the clause's, unless a preposition of circumstance leads it ("outperformed in the recent
      selloff": the market's) or a list does ("A and B, which showed recent strength").
    - Not read: an option in a list ("KRE/XLF run-up": two subjects), unless the move is dated ("the recent KRE/XLF
      run-up") or taken for given ("could reverse oil and energy gains"): then each owner's; a phrase followed by "in / of / vs ..."
      (about that, or a comparison) or by the noun it modifies ("recent-pullback rank"); one after a superlative or
      a comparative ("the deepest recent pullback": a ranking).
    - A definite or timed phrase states a past move even under a forecast or a condition ("could fade the recent
      7-day oil rally"): it is read; an indefinite one there ("if a pullback comes") is not.
    - The window is the one written; with none ("a large prior run"), the move is checked but never contradicted.
    """
    for m in _MOVE_NOUN.finditer(text):
        noun = m["noun"].lower()
        head = text[: m.start()]
        mods2 = _MODS_END.search(head)
        pos = mods2.start() if mods2 else m.start()
        words = mods2.group(0) if mods2 else ""
        owner_after = _owner_after(text, m, words, named_before)
        elsewhere = _ELSEWHERE_AFTER.match(text[m.end() :])
        if owner_after is None and (
            (elsewhere and not (elsewhere.group(0).strip().lower() == "on" and presupposes(text, pos, m.end())))
            or _COMPOUND_AFTER.match(text[m.end() :])
        ):
            continue  # "strength in value", "recent-pullback rank": another subject's, or a noun's modifier (but
            # "give back its outperformance on adverse headlines": the headlines are the undoing's)
        named = named_before(max(0, pos - 60), pos) if named_before is not None else None
        subject: str | None = None
        span_from = pos  # the option's name is a mention, read already: the span starts after it
        market = _MARKET_NOUN_END.search(text[:pos]) if benchmark is not None and noun in _STATE_NOUNS else None
        if owner_after is not None:  # "recent strength in regional banks": the option after "in"
            subject, named = owner_after, None
        elif market is not None and _STATE_LEAD.search(text[: market.start()]) is not None:
            subject, named = benchmark, None  # "despite index weakness": the benchmark's
            span_from = pos = market.start()
        listed: list[Any] = []  # a coordinated list of owners, read only where the phrase is taken for given
        if named is not None and _POSSESSIVE.sub("", text[named.end : pos]).strip() == "":
            if _LIST_BEFORE.search(text[: named.start]):
                listed = _listed_options(text, named.start, named_before)
                dated = _MODS_END.search(text[: listed[0].start]) if listed else None
                if not listed or not (
                    presupposes(text, listed[0].start, m.end()) or (dated is not None and _TIMED.search(dated.group(0)))
                ):
                    continue  # "KRE/XLF strength": whose is unsaid (but "could reverse oil and energy gains", "the
                    # recent semis/software weakness": each owner's dated move)
            subject, pos = named.symbol, (listed[0].start if listed else named.start)
            span_from = pos_after(text, named.end)
            mods1 = _MODS_END.search(text[:pos])
            if mods1:
                words, pos = mods1.group(0) + " " + words, mods1.start()
        shown = _SHOW_END.search(text[:pos]) if subject is None and named_before is not None else None
        if shown is not None:  # "healthcare sector also showing strength": the shower, named right before the verb
            shower, itself = _mover(text, shown.start(), named_before)
            if shower is not None or itself:
                subject, named = shower, None
            else:
                shown = None
        det = _DET_END.search(text[:pos])
        owner = (det["det"].lower() if det else "") in ("its", "their")
        if subject is None and not words and not owner and shown is None:
            continue  # "commodity weakness", "on weakness", "relative strength"
        timed = _TIMED.search(words) is not None
        definite = det is not None and det["det"].lower() in ("the", "this", "that")
        bare_state = (
            subject is not None
            and det is None
            and noun in _STATE_NOUNS
            and (
                owner_after is not None
                or _STATE_LEAD.search(text[: named.start if named is not None else span_from]) is not None
            )
        )
        presupposed = presupposes(text, det.start() if det else pos, m.end())
        relative = re.fullmatch(_RELATIVE_NOUNS, noun) is not None
        if (relative or re.fullmatch(_PRESUPPOSED_ONLY, noun)) and not presupposed:
            continue  # "outperformance" alone is read as relative strength; a "spike" only as a move taken for given
        if not (
            (presupposed and (subject is not None or owner))
            or timed
            or owner
            or (subject is None and "price" in words.lower())
            or (subject and definite)
            or bare_state
            or (shown is not None and det is None)
        ):
            continue  # "strong gains", "favor dollar strength": whose, or when, is unsaid (a view, not a fact)
        start = det.start() if det else pos
        if _RANKED_BEFORE.search(text[:start]):
            continue  # "the deepest recent pullback", "a larger weekly gain than": a ranking or a comparison
        if subject is None and not owner and _CIRCUMSTANCE_BEFORE.search(text[:start]):
            continue  # "outperformed in the recent selloff", "despite recent weakness": the market's, or unsaid
        if subject is None and _LIST_THEN_WHICH.search(text[:start]):
            continue  # "communication services and discretionary, which showed recent strength": two subjects
        if noun == "run" and not words:
            continue  # "run" alone is a verb or a "run rate"
        past = timed or owner or definite or presupposed
        if not past:
            cut = max(text.rfind(c, 0, m.start()) for c in ",;:(") + 1
            if _CONDITION.search(text[cut : m.start()]):
                continue  # "if a pullback comes": no claim about the data
        label = _np_window(words)
        phrase = _WHOLE.match(text, start, m.end())
        assert phrase is not None
        up = re.fullmatch(f"{_MOVE_NOUNS_UP}|{_PRESUPPOSED_ONLY}|outperformance", noun) is not None or noun == "run"
        owners: list[str | None] = [mm.symbol for mm in listed] + [subject] if listed else [subject]
        for i, who in enumerate(owners):
            kw: dict[str, Any] = {"symbol": who} if who is not None else {}
            if relative:
                kw["benchmark"] = benchmark
            add(
                phrase,
                span=(start if who is None else span_from, m.end()),
                keep=i == len(owners) - 1,
                rule="relative_momentum" if relative else "momentum",
                polarity=1 if up else -1,
                label=label,
                inferred=label is None,
                presupposed=past,
                **kw,
            )


_PARTICIPLE = re.compile(
    r"(?<![\w-])(?P<det>the\s+|an?\s+)?(?P<verb>rising|falling|declining|rallying|sliding|slumping|surging|climbing|"
    r"tumbling|sinking|firming|weakening|strengthening)\s+",
    re.I,
)
_PARTICIPLE_DOWN = frozenset({"falling", "declining", "sliding", "slumping", "tumbling", "sinking", "weakening"})
_MARKET_THING = re.compile(r"(?:broad\s+)?(?:market|index|s&p(?:\s*500)?|benchmark)\b", re.I)
_THING_END = re.compile(
    r"(?:\s+(?:prices?|shares|stocks|equities|futures))?(?=\s*(?:[,;:.)]|$|\b(?:and|or|as|while|with|amid|since|"
    r"could|would|may|might|can|will|is|are|has|have|had|should|to|into|for|in|on|after|before|despite|"
    r"supports?|helps?|hurts?|lifts?|weighs?|drags?|favou?rs?|boosts?|pressures?)\b))",
    re.I,
)


def read_participles(text: str, add: Emit, named_before, benchmark: str | None) -> None:
    """A move said as a participle before its subject: "rising crude prices", "the falling dollar", "a weakening
    index" (the option named right after the participle, or the market); the subject is moving now, a fact even
    where a forecast takes it for given ("could hurt rising crude"), over no window written: checked on the momentum
    windows, never contradicted. An indefinite one ("in a rising market") is a kind of market, not this one: not read;
    nor one whose noun goes on ("rising oil demand": demand is no price)."""
    if named_before is None:
        return
    for m in _PARTICIPLE.finditer(text):
        if m["det"] and m["det"].strip().lower() in ("a", "an"):
            continue
        named = named_before(m.end(), m.end() + 40)
        subject: str | None = None
        end = m.end()
        if named is not None and named.start == m.end():
            subject, end = named.symbol, named.end
        elif benchmark is not None and (market := _MARKET_THING.match(text, m.end())) is not None:
            subject, end = benchmark, market.end()
        if subject is None:
            continue
        tail = _THING_END.match(text, end)
        if tail is None:
            continue  # "rising oil demand", "falling crude inventories": the noun is another thing's
        add(
            m,
            span=(m.start(), m.end()),
            rule="momentum",
            polarity=-1 if m["verb"].lower() in _PARTICIPLE_DOWN else 1,
            symbol=subject,
            inferred=True,
            presupposed=True,
        )
