"""A figure written as the value of a key: the key names its field ("mdd_21s=-7.32%", "ret_5s=+1.2%",
"prior_16s_active: +3.1%", "qual=0.58").

Structure before prose: a ``key=value`` pair, or a snake_case key before a colon, says which field its value is.
The key's parts are read as abbreviations of a measure and a window ("mdd" + "21s" = max drawdown over 21
sessions) and the phrase they spell is bound as any written field name would be. A key this reader cannot spell
out is a field it does not know: its value is not verifiable, never matched to whatever field it happens to
equal (an unread "mdd_21s=-7.32%" equal to the 52-week distance is not that distance).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ledgers._registry import resolve_field
from ledgers.reading._binding import bind_prefix

_KEY_BEFORE = re.compile(
    r"(?:^|(?<=[\s|,;(\[{\"'/]))(?P<key>[A-Za-z][A-Za-z0-9_.\-]{0,39}(?:\s+\d{1,3}[a-z]{0,4})?)\s*[\"']?\s*"
    r"(?P<sep>=|:)\s*[\"']?\s*$"
)
_WINDOW = re.compile(r"^(?:\d{1,3}(?:s|d|w|m|y|mo|wk|sess|day|days|sessions?)|\d{1,3}v\d{1,3})$", re.I)
_WORDS: dict[str, str] = {
    "ret": "return",
    "rtn": "return",
    "return": "return",
    "returns": "return",
    "chg": "return",
    "perf": "return",
    "act": "active return",
    "active": "active return",
    "alpha": "active return",
    "excess": "active return",
    "rel": "active return",
    "vol": "volatility",
    "volatile": "volatility",
    "volatility": "volatility",
    "sigma": "volatility",
    "mdd": "max drawdown",
    "maxdd": "max drawdown",
    "dd": "max drawdown",
    "drawdown": "max drawdown",
    "corr": "correlation",
    "correlation": "correlation",
    "beta": "beta",
    "qual": "quality score",
    "quality": "quality score",
    "qes": "quality score",
    "volz": "volume z-score",
    "vz": "volume z-score",
    "dist": "distance from 52-week high",
    "prior": "prior",
    "rank": "rank",
    "pullback": "pullback",
    "pb": "pullback",
    "score": "score",
    "off": "",  # "off_52w_high": the distance the pair after it names
}
_PAIRS: dict[tuple[str, str], str] = {
    ("vol", "z"): "volume z-score",
    ("volume", "z"): "volume z-score",
    ("max", "dd"): "max drawdown",
    ("max", "drawdown"): "max drawdown",
    ("dist", "52w"): "distance from 52-week high",
    ("dist", "high"): "distance from 52-week high",
    ("52w", "high"): "distance from 52-week high",
    ("off", "high"): "distance from 52-week high",
    ("prior", "active"): "prior active return",
    ("prior", "rank"): "prior active rank",
    ("pullback", "rank"): "recent pullback rank",
    ("pb", "rank"): "recent pullback rank",
    ("quality", "score"): "quality score",
    ("vs", "spy"): "active return",
    ("vs", "sp500"): "active return",
    ("up", "days"): "up-day share",
    ("up", "day"): "up-day share",
    ("updays", "share"): "up-day share",
}
FUSED_KEY = re.compile(r"^r(?P<window>\d{1,3}[dwmy])$")
""""r7d", "r30d", "r1y": a return and its window written as one word."""


KEY_WORDS = frozenset(w for w in (*_WORDS, *(p for pair in _PAIRS for p in pair)) if w)
"""The abbreviations a key is read with (the certainty reader knows them too)."""


@dataclass(frozen=True)
class Key:
    """The key written right before a figure: its text, the phrase it spells (None when it cannot be read) and
    whether it is a key for certain (``=``, or a snake_case key before a colon) or merely a word before a colon
    ("USO: +6.08%", where the option, not a field, leads)."""

    text: str
    start: int
    phrase: str | None
    strong: bool
    prefix: str | None = None
    """A leading part the phrase was spelt without ("spy" of "spy_off_high"): it must name an option (the caller
    checks it against the universe), else the key is not read with certainty."""


_FIGURE = re.compile(r"[+\-\u2212]?\$?\d[\d,]*(?:\.\d+)?\s?%?")


def value_start(text: str, span: tuple[int, int]) -> int:
    """Where the value of a claim's words starts: its last figure ("30d: 68%": 68%, whose window is the key's)."""
    figures = list(_FIGURE.finditer(text, span[0], span[1]))
    return figures[-1].start() if figures else span[0]


def key_before(text: str, start: int, floor: int = 0) -> Key | None:
    """The key whose value starts at ``start``, if the figure is written as one."""
    m = _KEY_BEFORE.search(text, max(floor, start - 48), start)
    if m is None:
        return None
    key = m["key"]
    strong = m["sep"] == "=" or "_" in key
    phrase = spell(key)
    prefix = None
    if phrase is None and strong:
        prefix, phrase = _spell_after_prefix(key)
    return Key(key, m.start("key"), phrase, strong, prefix)


_PREFIX = re.compile(r"^(?P<prefix>[A-Za-z]{2,5})[_.\-](?P<rest>.+)$")


def _spell_after_prefix(key: str) -> tuple[str | None, str | None]:
    """'spy_off_high', 'rsp_vol_30d': a snake_case key that opens with a ticker names the option and then the
    field. Only a part no abbreviation reads can be that ticker; the rest must spell a field on its own."""
    m = _PREFIX.match(key)
    if m is None or m["prefix"].lower() in _WORDS:
        return None, None
    phrase = spell(m["rest"])
    return (m["prefix"], phrase) if phrase is not None else (None, None)


def spell(key: str) -> str | None:
    """The measure-and-window phrase a key abbreviates ("mdd_21s" -> "max drawdown 21s"), or None."""
    parts = [p for p in re.split(r"[_.\-\s]+", key.lower()) if p]
    words: list[str] = []
    window: str | None = None
    i = 0
    while i < len(parts):
        p = parts[i]
        fused = FUSED_KEY.match(p)
        if fused is not None and window is None:
            words.append("return")
            window = fused["window"]
            i += 1
            continue
        pair = _PAIRS.get((p, parts[i + 1])) if i + 1 < len(parts) else None
        if pair is not None:  # before windows: "52w_high" is a measure, not a window
            words.append(pair)
            i += 2
            continue
        if _WINDOW.match(p):
            if window is not None:
                return None  # two windows: not one field
            window = p
            i += 1
            continue
        word = _WORDS.get(p)
        if word is None:
            return None  # a part this reader does not know
        if word:
            words.append(word)
        i += 1
    if not words:
        return None
    phrase = " ".join(dict.fromkeys(words))
    if phrase == "prior" and window:  # "prior_16s": the prior window's active return (CapitalBench's tables)
        phrase = "prior active return"
    if phrase in ("prior", "rank", "score", "pullback"):
        return None  # a part of a name, not a measure
    return f"{phrase} {window}" if window else phrase


def key_field_of(key: Key) -> str | None:
    """The field a key names: a registry name or alias as written ("quality_evidence_score", "vol_21s"), or the
    measure and window its abbreviations spell ("mdd_21s", "act_5s")."""
    field = resolve_field(key.text)
    if field is None and key.phrase is not None:
        named = bind_prefix(key.phrase + " ", len(key.phrase) + 1, 0)
        field = named.field if named is not None and named.rule == "exact_numeric" else None
    return field


_RANKING_KEY = re.compile(
    r"(?im)^[ \t]*(?P<key>(?P<dir>most|least|best|worst|top|bottom|highest|lowest|strongest|weakest)[_\-]"
    r"(?P<rest>[a-z0-9_\-]{2,30}))[ \t]*[:=][ \t]*(?P<value>[^\n]+)$"
)
_UP = frozenset({"most", "best", "top", "highest", "strongest"})
_VALUED_WORDS = frozenset({"best", "worst", "strongest", "weakest", "top", "bottom"})


@dataclass(frozen=True)
class RankingKey:
    """A key that ranks the option its value names ("most_volatile: EWY", "worst_30d: XME at -13.24%")."""

    start: int
    end: int
    """The key in the text."""
    value_start: int
    field: str
    polarity: int


def ranking_keys(text: str) -> list[RankingKey]:
    """Structure before prose: a desk sheet's key that ranks, with the field its words spell (a window alone, for
    'best'/'worst', is that window's return); a key whose field cannot be spelt, or 'best' of a risk measure, is
    not read."""
    out = []
    for m in _RANKING_KEY.finditer(text):
        word, rest = m["dir"].lower(), m["rest"]
        phrase = spell(rest)
        if phrase is None and _WINDOW.match(rest) and word in _VALUED_WORDS:
            phrase = f"return {rest}"
        field = key_field_of(Key(rest, 0, phrase, True)) if phrase else None
        if field is None or (word in _VALUED_WORDS and not field.startswith(("return", "activeReturn"))):
            continue
        out.append(RankingKey(m.start("key"), m.end("key"), m.start("value"), field, 1 if word in _UP else -1))
    return out


__all__ = [
    "FUSED_KEY",
    "KEY_WORDS",
    "Key",
    "RankingKey",
    "key_before",
    "key_field_of",
    "ranking_keys",
    "spell",
    "value_start",
]
