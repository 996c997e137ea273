"""Field phrases in text ("RSI", "50-day moving average", "P/E", "21-session volatility"): the registry's
aliases as token sequences, found right after a number or ending last before it."""

from __future__ import annotations

import re

from ledgers._registry import FIELD_SPECS, alias_phrases

_TOKEN_RE = re.compile(r"[a-z0-9$][a-z0-9/&']*(?:\(\d+\))?")


_PHRASES: dict[tuple[str, ...], str] = {}

for _alias, _field in alias_phrases():
    if FIELD_SPECS[_field].unit != "text":
        _PHRASES.setdefault(tuple(t for t in re.split(r"[\s\-_]+", _alias.lower()) if t), _field)


_MAX_PHRASE = max(len(k) for k in _PHRASES)


_SUFFIX_FILLERS = frozenset("in of on the its a trailing ttm annual current latest recent".split())


def _tokens(text: str) -> list[re.Match[str]]:
    return list(_TOKEN_RE.finditer(text.lower()))


def last_field_phrase(text: str) -> tuple[int, int, str] | None:
    """The field phrase ending last in ``text`` (longest on ties): (start, end, field)."""
    toks = _tokens(text)
    best: tuple[int, int, str] | None = None
    words = [t.group(0) for t in toks]
    for i in range(len(toks)):
        for n in range(min(_MAX_PHRASE, len(toks) - i), 0, -1):
            field = _PHRASES.get(tuple(words[i : i + n]))
            if field is not None:
                end = toks[i + n - 1].end()
                if best is None or end > best[1]:
                    best = (toks[i].start(), end, field)
                break
    return best


def leading_field_phrase(text: str) -> tuple[int, str] | None:
    """A field phrase right at the start of ``text`` (after "of the", "trailing", ...): (end, field)."""
    toks = _tokens(text[:60])
    if not toks or text[: toks[0].start()].strip():
        return None
    words = [t.group(0) for t in toks]
    i = 0
    while i < len(words) and words[i] in _SUFFIX_FILLERS and i < 3:
        i += 1
    for n in range(min(_MAX_PHRASE, len(words) - i), 0, -1):
        field = _PHRASES.get(tuple(words[i : i + n]))
        if field is not None:
            gap = text[toks[i - 1].end() if i else 0 : toks[i].start()] if i else ""
            if i and gap.strip(" -"):
                return None
            return toks[i + n - 1].end(), field
    return None


_CONNECTOR_WORDS = re.compile(r"[A-Za-z][\w'/&.-]*")


_CONNECTORS = frozenset(
    "at of is was were are near around about roughly approximately approx nearly almost to by from stood stands "
    "positive negative "
    "sits sitting came in reading reads read prints printing level value currently now trading trades traded up down rose fell gained lost "
    "a an the with its their has have had hit reached climbed dropped jumped slipped over under above below than "
    "more less at_least performer performance return returns gain gains move moves momentum change rally trend "
    "leader leading led showing shows shown show posted posting delivered recent recently latest current just "
    "only strong strongest weak weakest best worst top high low ~ stands_at still remains remained sitting "
    "printed print ratio score elevated very relatively quite sizable modest sector factor industry country theme "
    "price outperformance underperformance strength run runs spike surge shallow deep mild steep sharp moderate "
    "s".split()
)


def only_connectors(text: str) -> bool:
    """True when the words between a field phrase and its number are glue words ("RSI has climbed to 72")."""
    words = [w.lower() for w in _CONNECTOR_WORDS.findall(text)]
    return len(words) <= 5 and all(w in _CONNECTORS for w in words)


def words_between(text: str) -> int:
    return len(_CONNECTOR_WORDS.findall(text))
