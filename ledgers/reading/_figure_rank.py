"""A superlative said of a figure ("0.817 (highest)", "+2.10%, best among sectors", "the best U.S. sector on the month
at +5.84%"): which word, which way, at which place and in which set (``FigureRank``), read beside the figure's own
claim. The rankings a sentence states of an option on a measure are ``_ranking.py``'s."""

from __future__ import annotations

import re
from functools import partial

from ledgers._groups import find_group, group_words_pattern
from ledgers._models import FigureRank
from ledgers.reading._certainty import clause_bounds
from ledgers.reading._ranking import _HIGH, _LOW, ORDINAL_PLACES

__all__ = ["figure_rank"]


_FIGURE_RANK_WORD = re.compile(
    rf"(?<![\w-])(?:(?P<ord>second|third|fourth|fifth|2nd|3rd|4th|5th)[\s-]+)?"
    rf"(?P<dir>{_HIGH}|{_LOW}|top|(?:most|least)(?:\s+(?:negative|positive))?|#\d{{1,2}})"
    rf"(?![\w])(?!-[A-Za-z])",
    re.I,
)
_SIGNED_ORDER = {
    "most negative": ("lowest", -1),
    "least positive": ("lowest", -1),
    "most positive": ("highest", 1),
    "least negative": ("highest", 1),
}
"""'the most negative of the sectors' orders like 'the lowest'."""
_NEAR_TOP_BEFORE = re.compile(r"\b(?:among|one\s+of|near|close\s+to|nearly|almost)\s+(?:the\s+)?$", re.I)
_SCOPE_WORDS = re.compile(
    r"^\s*(?:\)\s*)?(?P<prep>in|among|across|of|within)\s+(?:the\s+|its\s+|"
    r"our\s+)?(?P<words>[\w&/-]+(?:\s+[\w&/-]+){0,5})",
    re.I,
)
_ONLY = re.compile(
    r"(?<![\w-])(?<!is\s)(?<!was\s)(?<!are\s)(?<!were\s)(?:only|sole|lone)\s+(?=[A-Za-z])(?!(?:a|an|about|around|"
    r"slightly|modestly|marginally|mildly|just|barely|partly|partially|briefly|recently|since|after|if|when|as|to|by|"
    r"in|on|from|off|below|above|up|down|near|for|over|under|with|because|once|then|now|this|that|its|their)\b)",
    re.I,
)
"""Exclusivity said of the subject ("the only sector with ...", "sole option positive on both windows"): a claim
about every other option too. "Only -1.35% off its high", "was only 0.254", "only modestly" mean merely."""
_A_FIGURE = re.compile(r"[+\-\u2212]?\$?\d[\d,]*(?:\.\d+)?\s?%|(?<![\w.])\d+\.\d+(?![\w.])")
"""A figure (a percentage or a decimal), not a window ("21s", "5-day")."""
_MEASURE_NOUN = re.compile(
    r"^\s+(?:(?:active|relative|recent|absolute|prior|5-session|21-session|[\w-]+-session)\s+){0,2}(?:gain|gains|return|"
    r"returns|reading|readings|score|trend|discount|distance(?:\s+from\s+(?:its\s+|the\s+)?highs?)?|drawdown|decline|loss|"
    r"move|performance|value|level|correlation|beta|volatility|hole|participation|print|week|month|session|quarter)"
    r"(?=\s+(?:in|among|of|across)\b)",
    re.I,
)
"""The measure named again between a superlative and its scope ("the deepest discount in the ... cluster")."""
_ANY_SCOPE = re.compile(
    r"^\s+(?:of\s+any|of\s+all|across\s+all|in\s+the\s+whole|on|of)\s+(?:the\s+)?"
    r"(?P<words>(?:[\w&/-]+\s+){0,2}?)(?:options?|funds?|etfs?|assets?|universe|board|table|sheet|names?)\b"
    r"(?:\s+in\s+the\s+universe)?(?=\s*(?:[,.;:)]|$))",
    re.I,
)
"""The whole set, however it is said: "of any equity fund in the universe", "in the whole universe", "top of the
board" (a named group word in it restricts the set)."""
_ENDS_HERE = re.compile(r"^\s*(?:\)\s*)?(?:[,.;:]|$)")
_SCOPE_TAIL_OK = re.compile(
    r"^(?:(?:group|funds?|etfs?|cohort|complex|space)\b\s*)?(?:(?:context|set|list|cross-section)\b\s*)?(?:"
    r"today|now|overall|this\s+(?:round|week|month)|right\s+now|at\s+present|"
    r"(?:over|on|in|for|across)\s+(?:that|this|the)\s+(?:window|period|stretch|horizon|span|"
    r"week|month|day|session|sessions)|by\s+that\s+measure)?"
    r"(?:\s*\b(?:and|but|while|yet)\b.*)?$",
    re.I,
)
"""What may follow the group a superlative names: its noun ("the sector group"), a time, a new clause ("and ...")."""
_QUANTIFIER = re.compile(r"^(?:(?:any|all|every|each|the|eleven|twelve|ten|\d{1,3})\s+)+", re.I)
""""of any sector", "among the 11 sectors": words before the group's own."""


_TOP_N_AFTER = re.compile(r"[\s-]*(?P<n>\d{1,2}|three|five|ten)\b(?![.%])", re.I)
_ORDINALS = {**ORDINAL_PLACES, "three": 3, "five": 5, "ten": 10}
"""Places ("third-highest") and counts ("top-5", "top three")."""


def _placed(sentence: str, m: re.Match[str], rank: FigureRank) -> FigureRank:
    """Where the superlative places the option: "#3" and "third-highest" at a position, "top-5" within the first
    five; plain superlatives first."""
    word = m["dir"].lower()
    if word.startswith("#"):
        return rank.model_copy(update={"word": word, "polarity": 1, "position": int(word[1:])})
    if m["ord"]:
        return rank.model_copy(update={"position": _ORDINALS[m["ord"].lower()]})
    top_n = _TOP_N_AFTER.match(sentence, m.end()) if word == "top" else None
    if top_n is not None:
        n = top_n["n"].lower()
        return rank.model_copy(update={"within": int(n) if n.isdigit() else _ORDINALS[n]})
    return rank


def _said(
    sentence: str, m: re.Match[str], word: str, polarity: int, near: bool, scope: str | None, end: int
) -> FigureRank:
    return _placed(
        sentence, m, FigureRank(word=word, polarity=polarity, scope=scope, near_top=near, start=m.start(), end=end)
    )


def figure_rank(sentence: str, span: tuple[int, int], rankings: list[tuple[int, int]]) -> FigureRank | None:
    """A superlative said of the figure at ``span``, after it in its clause (or the comma piece after it) and
    covered by no ranking assertion of the sentence ("0.817 (highest)", "+2.10%, best among sectors", "0.827
    highest in table", "0.746, among the highest in universe"), with the set it ranks in; None when there is
    none. A superlative followed by words that are not a scope ("top safety ranks") is said of something else:
    its scope is then None, and the claim is never supported on its figure alone."""
    start, end = clause_bounds(sentence, span)
    only = _ONLY.search(sentence, start, span[0])
    if only is not None:  # "Only major sector with positive prior active return (+2.10%)": the others are not read
        return FigureRank(word=only.group(0).lower(), polarity=1, scope=None, start=only.start(), end=only.end())
    return _rank_after(sentence, span, end, rankings) or _rank_before(sentence, span, start, end, rankings)


_BEFORE_WORD = re.compile(rf"(?<![\w-])(?!leading\b)(?P<dir>{_HIGH}|{_LOW})(?![\w-])", re.I)
"""A superlative before a figure ("leading" is not one: it may mean one of the leaders)."""
_SET_WORDS = re.compile(
    r"\b(?:among|within|in|across|of|for|versus|vs|than|group|peers?|names|candidates|"
    r"holdings|picks|sleeve|cluster|basket|portfolio)\b",
    re.I,
)
_UNIVERSE_WORDS = re.compile(r"\b(?:universe|board|table|sheet|all\s+(?:the\s+)?options|whole\s+list)\b", re.I)


def _rank_before(
    sentence: str, span: tuple[int, int], start: int, end: int, rankings: list[tuple[int, int]]
) -> FigureRank | None:
    """A superlative before the figure in its clause, no other figure between ("the best U.S. sector on the month at
    +5.84%"): said of the figure, in the set its words name (None when they name none exactly)."""
    found = [
        m for m in _BEFORE_WORD.finditer(sentence, start, span[0]) if not any(s <= m.start() < e for s, e in rankings)
    ]
    if not found:
        return None
    m = found[-1]
    between = sentence[m.end() : span[0]]
    if _A_FIGURE.search(between) or len(between.split()) > 8:
        return None
    if _A_FIGURE.search(sentence, start, m.start()):
        return None  # "score 0.826 highest in table with rank 0.925": said of the figure before it
    word = m["dir"].lower()
    group = find_group(between)
    written = bool(_UNIVERSE_WORDS.search(between)) and (group is None or group.name == "universe")
    after = sentence[span[1] : end]
    later = find_group(after)  # "Strongest 7d (+7.1%) and 30d (+8.0%) sector": the set may follow the figure
    if written:
        scope: str | None = "universe"
    elif group is None and not _SET_WORDS.search(between):  # "Best up-day share (80.95%)": no set named
        scope = (
            "universe" if later is None or later.name == "universe" else (f"group:{later.name}" if later.sets else None)
        )
    else:
        scope = f"group:{group.name}" if group is not None and group.sets and group.name != "universe" else None
        written = scope is not None and _only_the_set(between)  # "the best U.S. sector on the month at +5.84%"
    return FigureRank(
        word=word,
        polarity=-1 if re.fullmatch(_LOW, word, re.I) else 1,
        scope=scope,
        start=m.start(),
        end=m.end(),
        written=written,
    )


_FILLER = re.compile(
    r"(?:the|a|an|on|in|over|at|of|with|this|past|last|month|week|year|day|days|sessions?|\d+[\s-]*[dswmy]?|"
    r"one|seven|thirty|twenty-one|five|eleven|u\.?s\.?|spdr)",
    re.I,
)


def _only_the_set(between: str) -> bool:
    """Whether the words between a superlative and its figure are the set and a window only ("the best U.S. sector on
    the month at"): another word there may be the measure it ranks on ("Best breadth-leading sector with +7% active
    21s" ranks on breadth, not on the figure)."""
    rest = group_words_pattern().sub(" ", between)
    return all(_FILLER.fullmatch(w.strip(".,:;()")) for w in rest.split() if w.strip(".,:;()"))


def _rank_after(sentence: str, span: tuple[int, int], end: int, rankings: list[tuple[int, int]]) -> FigureRank | None:
    after = sentence[end : end + 60]
    stretch_end = end + (len(after.split(";")[0].split(".")[0]) if after.startswith(",") else 0)
    for m in _FIGURE_RANK_WORD.finditer(sentence, span[1], stretch_end):
        if any(s <= m.start() < e for s, e in rankings):
            continue
        between = sentence[span[1] : m.start()]
        if _A_FIGURE.search(between):
            return None  # said of the other figure written between them
        word = re.sub(r"\s+", " ", m["dir"].lower())
        polarity = -1 if re.fullmatch(_LOW, word, re.I) or word == "least" else 1
        word, polarity = _SIGNED_ORDER.get(word, (word, polarity))
        near = _NEAR_TOP_BEFORE.search(sentence, max(0, m.start() - 15), m.start()) is not None

        said = partial(_said, sentence, m, word, polarity, near)  # said(scope, end): the superlative read

        if len(between.split()) > 5:  # too far from the figure to be sure it is said of it
            return said(None, m.end())
        tail_start = m.end()
        if word == "top" and (top_n := _TOP_N_AFTER.match(sentence, tail_start, stretch_end)) is not None:
            tail_start = top_n.end()  # "top-5 of the universe": the set after the count
        tail = sentence[tail_start:stretch_end]
        if _ENDS_HERE.match(tail):
            return said("universe", tail_start)
        noun = _MEASURE_NOUN.match(tail)  # "the largest active gain of any equity fund in the universe"
        if noun:
            tail = tail[noun.end() :]
        written = _ANY_SCOPE.match(tail) or _SCOPE_WORDS.match(tail)
        scope_words = _QUANTIFIER.sub("", written["words"]) if written else ""
        head = group_words_pattern().match(scope_words) if written else None  # the set is the first words
        group = find_group(head.group(0)) if head else None
        end = tail_start + (noun.end() if noun else 0) + (written.end() if written else 0)
        if written is not None and written.re is _ANY_SCOPE:  # "of any option", "in the whole universe", "of the board"
            group = find_group(written["words"]) if written["words"] else None
            if group is None or group.name == "universe":
                return said("universe", end).model_copy(update={"written": True})
            return said(f"group:{group.name}" if group.sets else None, end)
        if (
            written is None
            or head is None
            or group is None
            or not _SCOPE_TAIL_OK.match(scope_words[head.end() :].strip())
        ):
            return said(None, end)
        if group.name == "universe":
            return said("universe", end).model_copy(update={"written": True})
        return said(f"group:{group.name}" if group.sets else None, end).model_copy(update={"written": bool(group.sets)})
    return None
