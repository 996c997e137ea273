"""Moves said as noun phrases ("its recent sharp rally", "the recent 7-day oil rally", "XLE's weekly gain", "could
reverse energy gains"): read by the phrase's structure, right to left from the noun. A move the sentence takes for
given (the object of an undoing verb, after "after", the subject a modal predicates a fate of) is a past fact even
under a forecast (``presupposes``)."""

from __future__ import annotations

import re
from typing import Any

from ledgers.reading._clauses import clause_start
from ledgers.reading._emit import Emit
from ledgers.reading._horizons import HORIZON_RE, WORD_NUMBERS, match_horizon
from ledgers.reading._moves import CONDITION, CONDITION_AFTER, mover

_MOVE_NOUNS_UP = r"strength|gains?|rally|run-up|surge|rebound|advance|upswing|rise|climb|appreciation"
_MOVE_NOUNS_DOWN = r"weakness|dip|drop|decline|sell-?off|pullback|pull-back|slump|slide|fall"
_RELATIVE_NOUNS = r"outperformance|underperformance"
_PRESUPPOSED_ONLY = r"spike"
_MOVE_NOUN = re.compile(
    rf"\b(?P<noun>{_MOVE_NOUNS_UP}|{_MOVE_NOUNS_DOWN}|{_RELATIVE_NOUNS}|{_PRESUPPOSED_ONLY}|run|momentum)\b(?!-)", re.I
)
_PRESUPPOSING_BEFORE = re.compile(
    r"\b(?:revers(?:e|es|ed|ing)|give[sn]?\s+back|giving\s+back|gave\s+back|unwind(?:s|ing)?|unwound|"
    r"erase[sd]?|erasing|extend(?:s|ed|ing)?|prolong(?:s|ed|ing)?|continuation\s+of|reversal\s+of|after|following)\s+"
    r"(?:(?:the|its|their|this|that)\s+)?$",
    re.I,
)
_PRESUPPOSING_AFTER = re.compile(
    r"\s+(?:(?:could|may|might|would|can|will)\s+(?:\w+\s+)?(?:revers\w*|fade|unwind|mean[\s-]revert|stall|"
    r"roll\s+over|continue|persist)|to\s+(?:continue|persist)|persists|continues|lingers|deepens)\b"
    r"(?!\s+(?:the|a|an|its|their)\b)",
    re.I,
)
"""A fate a modal predicates of the move before it, with no object, or one said of it now ("QQQ weakness persists"):
the move exists ("Korea gains could reverse",
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
    outperformance", "extending the rally"), after "after / following" ("a rebound after recent weakness"), or
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
    r"persistent|price|heavy|solid|robust|renewed|further|early|very|unusually|exceptionally|extremely|particularly|"
    r"especially"
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
    r"confirms?|confirming|on\s+the\s+back\s+of|observed|offsets?|offsetting|balanc(?:e|es|ing)|"
    r"hit\s+by|pressured\s+by|(?:driven|led|supported|backed|helped|fu?ell?ed|boosted|dragged|weighed)\s+by|"
    r"thanks\s+to|due\s+to|owing\s+to))\s*$",
    re.I,
)
"""What may lead an option's bare "strength" / "weakness" ("ITA strength", "via biotech strength", "despite index
weakness") for it to state the option's present state: a clause's start or a word of circumstance. Anything else
("favor dollar strength", "buy on XLE weakness", "sell into strength") makes it a view or a plan: not read. No
window is written: the move is checked on the momentum windows and never contradicted."""


_STATE_NOUNS = ("strength", "weakness")
_NOT_UP = re.compile(
    r"\b(?:weak\w*|negative|fading|slowing|waning|declining|falling|deteriorating|poor|lost|losing|little|no|less|"
    r"mixed|limited|stalling|stalled|reversing)\b",
    re.I,
)
_SHOW_END = re.compile(
    r"\b(?:showing|shows|showed|shown|posting|posted|posts|displaying|displayed|demonstrat(?:ed|es|ing)|"
    r"exhibit(?:ed|s|ing)?)\s+$",
    re.I,
)
_MARKET_NOUN_END = re.compile(r"\b(?:index|market|benchmark|s&p(?:\s*500)?)\s+$", re.I)
_IN_OPTION = re.compile(r"\s+in\s+(?:the\s+)?")
_HYPOTHETICAL_BEFORE = re.compile(
    r"\b(?:potential|possible|expected|likely|anticipated|projected|forecast|hoped-for|eventual|further)\s+"
    r"(?:(?:the|a|an)\s+)?$",
    re.I,
)
_STILL_TO_COME = re.compile(r"\b(?:further|more|additional|new|fresh|renewed)\b", re.I)
_ITEM_END = re.compile(
    r"\s*(?:,|/|&|\band\b|\bor\b|[;.:()]|\s(?:could|may|might|would|will|can|to|as|if|is|are|have|has)\b|$)"
)
_LIST_ON = re.compile(r"\s*(?:,\s*(?:and\s+)?|/|&|\band\b|\bor\b)\s*\w")


def _owners_after(text: str, m: re.Match[str], words: str, named_before) -> list[str]:
    """The options a timed move noun is said of after "in": "recent strength in regional banks", "recent extreme
    gains in solar, South Korea, semiconductors, and cybersecurity" (each option of a list, named right after "in",
    every item an option; no time word is not read: "strength in value and quality", "favor strength in XLE"). A
    state noun ("strength", "weakness") takes one option; a move ("gains", "rally") a list too."""
    if named_before is None or not _TIMED.search(words) or _STILL_TO_COME.search(words):
        return []  # "support further near-term gains in energy equities": a move still to come
    noun = m["noun"].lower()
    if noun not in _STATE_NOUNS and re.fullmatch(r"gains|rally|run-up|surge|weakness|declines?|pullback", noun) is None:
        return []
    lead = _IN_OPTION.match(text, m.end())
    if lead is None:
        return []
    found: list[str] = []
    at = lead.end()
    while True:
        stop = _ITEM_END.search(text, at)
        hi = stop.start() if stop is not None else len(text)
        named = named_before(at, hi)
        if named is None or named.start != at:
            return []
        found.append(str(named.symbol))
        sep = _LIST_ON.match(text, named.end)
        if sep is None:
            return found
        if noun in _STATE_NOUNS:
            return []  # "strength in value and quality": one state, several owners: whose is unsaid
        at = sep.end() - 1


def pos_after(text: str, end: int) -> int:
    """The first position after ``end`` that is not a possessive or a space ("XLE's weekly gain": the 'w')."""
    return end + len(text[end:]) - len(_POSSESSIVE.sub("", text[end:], count=1).lstrip())


def np_window(words: str) -> str | None:
    """The window a move noun's modifiers write ('7D', '30D', '6M', '1Y', a session count, 'short' for "recent"), as
    the horizon readers key it (``match_horizon``); None when they write none ("prior", "large") or one the tables
    never show: which window the move was over is then unsaid."""
    m = HORIZON_RE.search(words)
    if m is not None:
        key = match_horizon(m)
        return key if key in ("7D", "30D", "6M", "1Y") or key.endswith("T") else None
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
        owners_after = _owners_after(text, m, words, named_before)
        owner_after = owners_after[0] if owners_after else None
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
            shower, itself = mover(text, shown.start(), named_before)
            if shower is not None or itself:
                subject, named = shower, None
            else:
                shown = None
        if noun == "momentum" and (shown is None or _NOT_UP.search(text, shown.start(), m.start())):
            continue  # "momentum" alone says no sign; shown by an option ("banks have demonstrated momentum") it is up,
            # unless a word says otherwise ("showed fading momentum": another reader's, or unsaid)
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
        if not presupposed and _HYPOTHETICAL_BEFORE.search(text, max(0, start - 30), start):
            continue  # "for a potential one-week rebound", "an expected rally": a move still to come
        past = timed or owner or definite or presupposed
        if not past:
            cut = max(text.rfind(c, 0, m.start()) for c in ",;:(") + 1
            if CONDITION.search(text[cut : m.start()]):
                continue  # "if a pullback comes": no claim about the data
            if CONDITION_AFTER.match(text, m.end()):
                continue  # "Gold weakness if the dollar rebounds": a scenario, not a state
        label = np_window(words)
        phrase = _WHOLE.match(text, start, m.end())
        assert phrase is not None
        up = (
            re.fullmatch(f"{_MOVE_NOUNS_UP}|{_PRESUPPOSED_ONLY}|outperformance|momentum", noun) is not None
            or noun == "run"
        )
        owners: list[str | None] = [mm.symbol for mm in listed] + [subject] if listed else [subject]
        if len(owners_after) > 1:
            owners = list(owners_after)
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
