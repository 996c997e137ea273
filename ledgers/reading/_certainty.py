"""Certainty before contradiction: a second, small reader of the clause a claim came from.

The readers in this package find claims generously, so that a supported figure is found wherever it is written.
A *contradicted* verdict must not rest on that generosity: it says a model stated a falsehood. Before the
verifier may contradict a free-text claim, this module reads the claim's clause with a grammar that knows only
what it can be sure of, and names its doubt otherwise:

- **subject**: the option the figure is about is written in the clause or heads the line/bullet the clause is
  in, and no other option (or anything name-like the grammar does not know, "developed ex-US", "mega-cap tech")
  stands in the clause; another option is allowed only as a reference right after "vs / than / relative to",
  or as the benchmark a beta or correlation is measured to ("SPY beta", "corr to SPY");
- **field and window**: every word between the clause's start and the figure (and after it, up to the next
  stop word) is a measure, window, sign, light verb or function word of the vocabulary below;
- **scope** (rankings): nothing restricts the set the superlative ranks in ("theme", "sleeve", "among liquid
  thematic tech options", "in this cohort") unless it is the whole universe;
- **one subject** (rankings, moves): the clause is not about a list ("semis, Taiwan, defense") or a plural
  ("segments", "areas").

A clause the grammar cannot read in full gives doubt with the word that stopped it; the verifier then says
"not verifiable" with that reason instead of "contradicted". Supported verdicts are not gated: they are
checked on the figure itself, and every part must hold.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence, Set
from dataclasses import dataclass

from ledgers.reading._certainty_words import (
    _GROUP_NOUNS,
    _LIGHT,
    _MEASURE,
    _NON_RETURN_MEASURES,
    _NUMBER,
    _PLURAL_SUBJECT,
    _PREDICATES,
    _RANK_MEASURES,
    _RELATIVE_WORDS,
    _SCOPE_PREP,
    _SIGN,
    _TAIL_STOP,
    _TOKEN,
    _UNIVERSAL_SCOPE,
    _WINDOW,
    _WINDOW_NUMBER_WORD,
    _WINDOW_WORDS,
    FIELD_WORDS,
    NEVER_CONTRADICTED,
)
from ledgers.reading._clauses import Mention
from ledgers.reading._fields import last_field_phrase
from ledgers.reading._keys import FUSED_KEY, KEY_WORDS, key_before, key_field_of, value_start


@dataclass(frozen=True)
class ClauseRead:
    """The clause a claim came from (for readers) and, when a contradiction cannot be concluded, why."""

    clause: str
    doubt: str | None


_ABBREVIATION = re.compile(r"(?:(?<![\w.])[A-Za-z]\.[A-Za-z]|(?<!\w)(?:vs|etc|approx|incl))$", re.I)
"""A dot that ends an abbreviation ("U.S.", "e.g.", "vs."), not a sentence."""


def clause_bounds(sentence: str, span: tuple[int, int]) -> tuple[int, int]:
    """The clause around ``span``: from the last hard boundary (";", ":", a table's "|", a dash, a sentence end) or unbracketed
    comma before it to the next one after it; a figure opening a parenthesis takes the phrase before it along
    ("Positive momentum (+4.56% 21s)")."""
    start = 0
    depth = 0
    i = span[0] - 1
    while i >= 0:
        ch = sentence[i]
        if ch == ")":
            depth += 1
        elif ch == "(":
            if depth == 0:
                pass  # the figure is inside this parenthesis: the phrase before it is its head
            else:
                depth -= 1
        elif depth == 0 and (
            ch in ";:|\u2014"
            or (ch == "," and not _inside_parens(sentence, i, span[0]))
            or (
                ch == "."
                and i + 1 < len(sentence)
                and sentence[i + 1] == " "
                and not _ABBREVIATION.search(sentence, max(0, i - 6), i)
            )
        ):
            start = i + 1
            break
        elif (
            depth == 0 and ch == "-" and 0 < i < len(sentence) - 1 and sentence[i - 1] == " " and sentence[i + 1] == " "
        ):
            start = i + 1
            break
        i -= 1
    end = len(sentence)
    depth = 0
    for j in range(span[1], len(sentence)):
        ch = sentence[j]
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                end = j
                break
            depth -= 1
        elif depth == 0 and (
            ch in ";:|\u2014,"
            or (
                ch == "."
                and (j + 1 == len(sentence) or sentence[j + 1] == " ")
                and not _ABBREVIATION.search(sentence, max(0, j - 6), j)
            )
        ):
            end = j
            break
    return start, end


def _inside_parens(text: str, comma: int, figure: int) -> bool:
    """Whether the comma at ``comma`` and the figure share an open parenthesis ("(+5.6% 7d, +22% 30d)")."""
    depth = 0
    for ch in text[comma:figure]:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
    before = text[:comma]
    return before.count("(") > before.count(")") and depth >= 0


def _words(text: str) -> list[str]:
    return [t for t in _TOKEN.findall(text)]


def _allowed(word: str, subject_words: Set[str], field_words: Set[str]) -> bool:
    w = word.lower().strip("'")
    if not w or w in "(),;:":
        return True
    if _NUMBER.match(w) or _WINDOW.match(w):
        return True
    parts = [p for p in re.split(r"[-/]", w) if p]
    return all(
        p in _MEASURE
        or p in _SIGN
        or p in _LIGHT
        or p in subject_words
        or p in field_words
        or p in KEY_WORDS
        or FUSED_KEY.match(p)
        or _NUMBER.match(p)
        or _WINDOW.match(p)
        or p.isdigit()
        for p in parts
    )


def read_clause(
    sentence: str,
    span: tuple[int, int],
    rule: str,
    symbol: str | None,
    mentions: Sequence[Mention],
    *,
    subject_words: Iterable[str] = (),
    anchored: bool = False,
    benchmark: str | None = None,
    scope: str | None = None,
) -> ClauseRead:
    """The clause of the claim at ``span`` in ``sentence`` and the doubt, if any, that forbids a contradiction.

    ``mentions`` are the options the sentence names; ``subject_words`` the words of the subject's own names;
    ``anchored``: the subject heads the line or bullet the sentence is in (or is the decision's only holding);
    ``scope``: a ranking's scope as its reader resolved it ('universe', 'group:<peer group>'): a peer group the
    reader resolved (every definition agreeing) may be named in the clause, any other group word may not."""
    start, end = clause_bounds(sentence, span)
    clause = sentence[start:end].strip().strip(" ,;:(").strip()
    if rule in NEVER_CONTRADICTED:
        return ClauseRead(clause, None)
    subj = {w.lower() for w in subject_words}
    fields = FIELD_WORDS
    grouped = rule == "ranking" and (scope or "").startswith("group:")
    if grouped:  # the peer group's own words are part of the reading ("among sectors", "defensive")
        subj |= _GROUP_NOUNS | set(re.split(r"[\s_-]+", (scope or "")[6:].lower()))
    bench = {benchmark} if benchmark else set()

    # the subject and the other options in the clause
    own_here = False
    vague: list[str] = []  # the subject named only by a name that usually, not always, means it ("tech")
    for m in mentions:
        if m.end <= start or m.start >= end:
            continue
        if m.symbol == symbol:
            if m.uncertain:
                vague.append(sentence[m.start : m.end])
            else:
                own_here = True
            continue
        before = sentence[max(start, m.start - 25) : m.start].lower()
        after = sentence[m.end : m.end + 16].lower()
        bench_ref = m.symbol in bench
        if m.reference and (
            rule in ("compare", "relative_return", "return_or_relative", "relative_momentum") or bench_ref
        ):
            continue  # "vs SPY", "than oil": the reference of a comparison
        if bench_ref and (
            re.match(r"^\s*(?:beta|corr|correlation)", after)
            or re.search(r"(?:beta|corr\w*)\s+(?:to|with|vs\.?)\s*$", before)
        ):
            continue  # "SPY beta", "corr to SPY": what the measure is taken against
        return ClauseRead(
            clause,
            f"the clause also names {m.symbol} ('{sentence[m.start : m.end]}'), so whose figure it is is not certain",
        )
    if vague and not own_here and not anchored:
        return ClauseRead(clause, f"'{vague[0]}' usually, not always, names {symbol}")
    if not own_here and not anchored:
        # a lead naming the subject before a colon heads what follows ("Holding AMD: RSI(14) at 83.5 and ...")
        lead = sentence[:start]
        colon = lead.rfind(":")
        named = [m for m in mentions if m.end <= start]
        if not (
            colon != -1
            and len(lead[:colon]) <= 60
            and named
            and all(m.symbol == symbol for m in named)
            and any(m.end <= colon for m in named)
        ):
            return ClauseRead(clause, "the subject is not written in the clause, nor heads its line")

    # every word up to the figure (and its window after it) must be one the grammar knows
    mention_spans = [(m.start, m.end) for m in mentions]

    def strip_mentions(a: int, b: int) -> str:
        text = sentence[a:b]
        for ms, me in sorted(mention_spans, reverse=True):
            if ms >= a and me <= b:
                text = text[: ms - a] + " " + text[me - a :]
        return text

    head_start = start
    earlier = list(re.finditer(r"\d(?:[\d.,]*\d)?\s*%?", sentence[start : span[0]]))
    if earlier:  # "IGV gained 2.12% over 3 sessions yet remains 25.29% below ...": the earlier figure's words
        conjunction = re.search(
            r"\b(?:and|but|yet|while|though|whereas)\b", sentence[start + earlier[-1].end() : span[0]]
        )
        if conjunction is not None:
            head_start = start + earlier[-1].end() + conjunction.end()
    head = _words(strip_mentions(head_start, span[0]))
    body = _words(strip_mentions(span[0], span[1]))
    windows = {
        m.group(0).split()[0].lower()
        for m in re.finditer(
            r"\b[A-Za-z]+(?=[\s-]+(?:trading\s+)?(?:days?|sessions?|weeks?|months?|years?)\b)", sentence[start:end]
        )
        if _WINDOW_NUMBER_WORD.match(m.group(0))
    }
    subj = subj | windows  # "in three sessions": a window written in words
    for k, w in enumerate(head + body):
        if w.lower() in _PLURAL_SUBJECT and not (
            k == 0 and w[0].isupper() and w.lower() in _LIGHT and all(x.lower() in _SIGN for x in head[1:])
        ):
            # a verb that opens the clause right before the figure is not a plural subject ("Trades 16.80% below")
            return ClauseRead(clause, f"'{w}': the clause is about several options")
        if not _allowed(w, subj, fields):
            return ClauseRead(clause, f"'{w}' in the clause is not read with certainty")
    tail = _words(strip_mentions(span[1], end))
    scope_words: list[str] = []
    for k, w in enumerate(tail):
        lw = w.lower()
        if lw in _TAIL_STOP or w in "(),;:" or lw in _PREDICATES:
            break  # "... +12.21% shows a long-run leader": a new predicate about the figure
        if rule == "ranking" and lw in _SCOPE_PREP:
            rest = " ".join(tail[k + 1 :])
            phrase = []
            for x in tail[k + 1 :]:
                if x.lower() in _TAIL_STOP or x in "(),;:":
                    break
                phrase.append(x.lower())
            if _UNIVERSAL_SCOPE.match(rest) or (grouped and phrase and all(x in subj or x in _LIGHT for x in phrase)):
                break
            return ClauseRead(clause, f"the scope '{' '.join(tail[k : k + 6])}' is not resolved with certainty")
        if lw in _PLURAL_SUBJECT:
            return ClauseRead(clause, f"'{w}': the clause is about several options")
        if not _allowed(w, subj, fields):
            if rule == "ranking":
                return ClauseRead(clause, f"'{w}' after the superlative may restrict its scope")
            if lw not in _PREDICATES:
                return ClauseRead(clause, f"'{w}' in the clause is not read with certainty")
            break  # a new predicate after the figure and its measure ("... confirm the uptrend")
        scope_words.append(w)
    if rule in ("relative_return", "derived_return", "exact_numeric", "return_or_relative") and re.search(
        r"[,;]", sentence[span[0] : span[1]]
    ):
        return ClauseRead(clause, "the figure and its window or measure stand in separate pieces of the sentence")
    if rule in ("relative_return", "derived_return") and not _WINDOW_WORDS.search(sentence[start:end]):
        return ClauseRead(clause, "the window is not written in the clause")
    if rule in ("relative_return", "relative_momentum"):
        head_text = sentence[start : span[0]]
        last_figure = max((m.end() for m in re.finditer(r"\d(?:[\d.,]*\d)?\s*%", head_text)), default=0)
        joint = (
            max(
                (m.end() for m in re.finditer(r"\b(?:and|while|but|with|vs\.? its)\b", head_text[last_figure:])),
                default=0,
            )
            if last_figure
            else 0
        )
        # a "relative to" that belongs to another figure ("9.38% relative to SPY over 21 sessions and 2.72% ...")
        own = head_text[last_figure + joint :] + sentence[span[0] : end]
        if not _RELATIVE_WORDS.search(own):
            return ClauseRead(clause, "what the return is relative to is not written with this figure")
    cell = max(sentence.rfind(c, 0, start) for c in ";:|\u2014") + 1  # the clause's cell: "+5.76% active 21d, best"
    if rule == "ranking" and not any(
        w.lower() in _RANK_MEASURES or _WINDOW.match(w) or _WINDOW_WORDS.fullmatch(w)
        for w in _words(strip_mentions(cell, start)) + head + body + scope_words
    ):
        # "quality score 0.746: top sector": which measure "top" ranks on is not written in its clause or its cell
        return ClauseRead(clause, "the measure the superlative ranks on is not written in its clause")
    own_measure = [w.lower() for w in body if w.lower() in _RANK_MEASURES and not _WINDOW.match(w)]
    cell_end = min((i for i in (sentence.find(c, end) for c in ";|\u2014") if i != -1), default=len(sentence))
    other = [w for w in _words(strip_mentions(cell, cell_end)) if w.lower() in _NON_RETURN_MEASURES]
    if rule == "ranking" and not own_measure and other:
        # "quality 0.730 (best sector) but active_return_21s -5.70%": a superlative that names no measure ranks on
        # a return only by default, and the cell names another measure it may rank on
        return ClauseRead(
            clause,
            f"the superlative names no measure and its cell names '{other[0]}': which one it ranks on is not certain",
        )
    if rule == "ranking" and re.search(r"\b(?:lead(?:ing|s|er|ers)?|led)\b", sentence[span[0] : span[1]], re.I):
        return ClauseRead(clause, "'leading' may mean one of the leaders")
    if rule == "ranking" and re.search(r"\brank\b|percentile", sentence[span[0] : min(end, span[1] + 12)], re.I):
        return ClauseRead(clause, "a superlative of a percentile rank is ambiguous in direction")
    if rule == "ranking" and not grouped:
        rest_words = [w.lower() for w in tail]
        for k, lw in enumerate(rest_words):
            if lw in _SCOPE_PREP and k > len(scope_words):
                scope_phrase = " ".join(tail[k + 1 : k + 7])
                if not _UNIVERSAL_SCOPE.match(scope_phrase) and not re.match(r"^\d", scope_phrase):
                    return ClauseRead(
                        clause, f"the clause's scope '{tail[k]} {scope_phrase}' may restrict the superlative"
                    )
    if rule == "ranking":
        group = None if grouped else next((w for w in head + body + scope_words if w.lower() in _GROUP_NOUNS), None)
        if group is not None:
            return ClauseRead(clause, f"'{group}' may restrict the set the superlative ranks in")
        lists = re.search(r"\([^)]*,[^)]*\)", sentence[start:end])
        if lists and not re.search(r"\d", lists.group(0)):
            return ClauseRead(clause, "the superlative is said of a list")
    return ClauseRead(clause, None)


__all__ = ["NEVER_CONTRADICTED", "ClauseRead", "clause_bounds", "read_clause"]


_KEY_BEFORE = re.compile(r"(?P<key>[^\n|;,:=]{1,48}?)\s*[:=]\s*[(\[]?\s*$")
"""The key of a ``key: value`` line or cell, right before its value ("up_days_30d: 68%", "vol 30d = 27.4%")."""


def _measure_stem(field: str) -> str:
    return re.sub(r"\d+[a-zA-Z]?$", "", field)


def key_doubt(sentence: str, span: tuple[int, int], field: str | None) -> str | None:
    """When the figure at ``span`` is the value of a key (structure before prose) whose words name a measure other
    than ``field`` (the one the reader took, e.g. a return from the window alone): why it is not read with
    certainty; None otherwise."""
    if field is None:
        return None
    at = value_start(sentence, span)
    lo = max(sentence.rfind(c, 0, at) for c in "\n|;,") + 1
    m = _KEY_BEFORE.search(sentence, lo, at)
    if m is None:
        return None
    spelt = key_before(sentence, at)
    if spelt is not None and key_field_of(spelt) == field:  # "off_52w_high": the distance, spelt whole
        return None
    key = m["key"].replace("_", " ")
    while (named := last_field_phrase(key)) is not None:  # every measure the key names, last first
        if not _WINDOW.match(key[named[0] : named[1]]) and _measure_stem(named[2]) != _measure_stem(field):
            return f"its key '{m['key'].strip()}' names {named[2]}, not the {field} read from it"
        key = key[: named[0]]
    return None
