"""Identity scrubbing of everything a judge sees.

An :class:`Anonymizer` gives each contestant of a season a neutral alias ("Contestant C"), then scrubs
text: contestant ids, display names and models become that contestant's alias; other model or product
names become ``[model]``; provider and family names become ``[provider]``; self-identifying phrases
("I'm Claude", "as an OpenAI model", "Grok here", "as a large language model trained by Google") become
``[self-reference]``. The alias <-> id mapping lives on the object (and in the grader-side mapping file),
never in the scrubbed text. Rules and word-by-word decisions: grader/anonymizer/README.md.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from grader.anonymizer import _patterns as P
from grader.anonymizer._frames import Frames, FrameSpan
from grader.anonymizer._guard import lexicon
from grader.anonymizer._models import (
    MODEL_PLACEHOLDER,
    PROVIDER_PLACEHOLDER,
    SELF_REFERENCE_PLACEHOLDER,
    UNDISCLOSED,
    AliasAssignment,
    Kept,
    Replacement,
    ReplacementKind,
    ScrubRecord,
    ScrubResult,
)
from grader.season._models import AllocationItem, Contestant, Decision, SeasonInfo

_RESERVED_TOKENS = {"model", "provider", "self", "reference", "contestant", UNDISCLOSED}
_ALIAS_LIKE = re.compile(r"contestant[a-z]{1,3}")
_GAP = re.compile(r"[\W_]{0,3}")
"""Separators allowed between the words of a contestant name."""
_PLACEHOLDER = re.compile(
    "|".join(re.escape(p) for p in (MODEL_PLACEHOLDER, PROVIDER_PLACEHOLDER, SELF_REFERENCE_PLACEHOLDER))
)
_ALIAS_TOKEN = re.compile(rf"{P.START}(?:Contestant [A-Z]{{1,3}}|contestant-[a-z]{{1,3}}){P.END}")
_FAMILY_HEADS = {
    "claude", "gpt", "chatgpt", "gemini", "gemma", "grok", "llama", "qwen", "deepseek", "mistral", "kimi",
    "glm", "phi", "command",
}  # fmt: skip
"""Words a mention may leave out and still name a contestant's model ("Opus 4.8" ~ claude-opus-4-8)."""
_KIND_RANK: dict[str, int] = {"provider": 0, "model": 1, "contestant": 2, "self_reference": 3}

# Universe tickers of listed companies that also make models, and the brand names that, in a season
# trading them, are company references rather than identities (GOOGL -> "Google Cloud revenue +82%").
ISSUER_BRANDS: dict[str, tuple[str, ...]] = {
    "GOOGL": ("Google", "Alphabet"),
    "GOOG": ("Google", "Alphabet"),
    "META": ("Meta", "Facebook"),
    "FB": ("Meta", "Facebook"),
    "MSFT": ("Microsoft",),
    "AMZN": ("Amazon",),
    "NVDA": ("Nvidia",),
    "BABA": ("Alibaba",),
    "BIDU": ("Baidu",),
    "TCEHY": ("Tencent",),
    "IBM": ("IBM",),
    "AAPL": ("Apple",),
}
_CORPORATE_SUFFIX = re.compile(
    r"(?:[\s,]+(?:inc|incorporated|corp|corporation|co|company|ltd|limited|plc|llc|holdings|group|sa|ag|nv"
    r"|class\s+[a-c]|common\s+stock|ordinary\s+shares|adr|\(the\)|the)\.?)+\s*$",
    re.IGNORECASE,
)


_ORDINARY_WORD = re.compile(r"[a-z]{3,}")
@lru_cache(maxsize=1)
def _lexicon_words() -> frozenset[str]:
    """The identity lexicon's names and lines in lower case: the words a plain lower-case use may be ordinary for
    (a contestant's own name or id never is)."""
    from grader.anonymizer._guard import lexicon

    return frozenset(w.lower() for f in lexicon().values() for w in (*f.names, *f.lines))


_SPEAKER_BEFORE = re.compile(r"\b(?:I|we|me)\s+$")
""""I grok the setup": right after the author's own pronoun a model line may be the author naming itself."""
_VERSION_AFTER = re.compile(r"[\s\-_.]?(?:v?\d|mini|pro|max|flash|large|small|medium|nano|turbo|instruct|chat|code)\b")


def alias_label(index: int) -> str:
    """Spreadsheet-style letters: 0 -> A, 25 -> Z, 26 -> AA, 51 -> AZ."""
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return letters


def universe_allowlist(info: SeasonInfo, protect_issuer_brands: bool = True) -> list[str]:
    """Strings of a season's universe that are never scrubbed: symbols, names, short issuer names and
    (optionally) the brand names of listed model makers the season trades (see ``ISSUER_BRANDS``)."""
    out: list[str] = []
    for entry in info.universe:
        out.append(entry.symbol)
        out.append(entry.name)
        short = _CORPORATE_SUFFIX.sub("", entry.name).strip(" ,.")
        if short and short != entry.name:
            out.append(short)
        if protect_issuer_brands:
            out.extend(ISSUER_BRANDS.get(entry.symbol.upper(), ()))
    return out


def _allowlist_pattern(allowlist: Iterable[str]) -> re.Pattern[str] | None:
    """Ticker-like entries (upper case, no spaces) match case-sensitively; names match in any case."""
    symbols: set[str] = set()
    names: set[str] = set()
    for item in allowlist:
        item = item.strip()
        if not item:
            continue
        if re.fullmatch(r"[A-Z0-9.\-^=/$]{1,12}", item):
            symbols.add(item)
        else:
            names.add(item)
    parts = [re.escape(s) for s in sorted(symbols, key=len, reverse=True)]
    alts = []
    if parts:
        alts.append(f"(?-i:{'|'.join(parts)})")
    name_parts = [r"\s+".join(re.escape(w) for w in n.split()) for n in sorted(names, key=len, reverse=True)]
    alts.extend(name_parts)
    if not alts:
        return None
    return re.compile(rf"{P.START}(?:{'|'.join(alts)}){P.END}", re.IGNORECASE)


def _identity_values(c: Contestant) -> list[str]:
    values = [c.id, c.display_name, c.model]
    if "/" in c.model:
        values.append(c.model.rsplit("/", 1)[1])
    return [v for v in values if P.normalise(v) not in P.NON_IDENTITIES]


@dataclass
class _Group:
    start: int
    end: int
    members: list[tuple[int, int, str]] = field(default_factory=list)  # (start, end, kind)


class _Detector:
    """Finds identity spans in text for one set of contestants and one allowlist (no aliases)."""

    def __init__(self, contestants: Sequence[Contestant], allowlist: Iterable[str] = ()):
        self.contestants = list(contestants)
        self.model_re = re.compile(P.MODEL_PATTERN, re.IGNORECASE)
        provider, provider_triggers = P.provider_pattern(c.provider_family for c in self.contestants)
        self.provider_re = re.compile(provider, re.IGNORECASE)
        self.allow_re = _allowlist_pattern(allowlist)
        self.by_norm: dict[str, set[str]] = {}
        self.by_key: dict[tuple[frozenset[str], str], set[str]] = {}
        # Contestant names are matched word by word: normalised name -> offsets where its tokens meet
        # (a word boundary in the text must fall on one of them), plus every prefix for early exit.
        self.literal_joints: dict[str, frozenset[int]] = {}
        self.literal_prefixes: set[str] = set()
        triggers = set(P.TRIGGER_WORDS) | provider_triggers
        for c in self.contestants:
            for value in _identity_values(c):
                tokens = P.split_tokens(value)
                if not tokens:
                    continue
                norm = "".join(tokens)
                self.by_norm.setdefault(norm, set()).add(c.id)
                joints = set()
                acc = 0
                for tok in tokens[:-1]:
                    acc += len(tok)
                    joints.add(acc)
                self.literal_joints[norm] = frozenset(joints)
                self.literal_prefixes.update(norm[:i] for i in range(1, len(norm) + 1))
                triggers |= P.first_letter_run(value) or {""}
                key = P.model_key(value)
                if key[0] or key[1]:
                    self.by_key.setdefault(key, set()).add(c.id)
        heads = {
            P.split_tokens(v)[0] for c in self.contestants for v in _identity_values(c) if P.split_tokens(v)
        }
        self.literal_head_re = re.compile(
            rf"{P.START}(?:{'|'.join(re.escape(h) for h in sorted(heads, key=len, reverse=True))})"
            if heads
            else r"(?!)",
            re.IGNORECASE,
        )
        longest = max((len(v) for c in self.contestants for v in _identity_values(c)), default=0)
        self._back = 64 + 2 * longest  # a mention may start before its trigger word ("Google's Gemini")
        self._ahead = 160 + 2 * longest
        self._allow_reach = max((len(a) for a in allowlist), default=0)
        self.always_scan = "" in triggers
        triggers.discard("")
        self.ascii_triggers = frozenset(t.encode() for t in triggers if t.isascii())
        self.unicode_triggers = frozenset(t for t in triggers if not t.isascii())

    def scan_windows(self, text: str) -> list[tuple[int, int]]:
        """Where identities can be: merged windows around trigger words (empty: the text is clean).

        A cheap test first (ASCII letter runs of the text against the trigger words), then the
        positions of the triggers found; the full patterns run only inside these windows."""
        n = len(text)
        if self.always_scan:
            return [(0, n)]
        runs = P.ascii_letter_runs(text)
        hits = self.ascii_triggers.intersection(runs)
        paired = [rx for word, rx in P.PAIRED_GATES.items() if word in runs]
        if self.unicode_triggers and not text.isascii():
            if not self.unicode_triggers.isdisjoint(P.LETTER_RUN.findall(text.lower())):
                return [(0, n)]
        if not hits and not paired:
            return []
        low = text.lower()
        if len(low) != n:  # lower-casing changed offsets (rare Unicode): scan everything
            return [(0, n)]
        positions: list[int] = []
        for word in hits:
            w = word.decode()
            i = low.find(w)
            while i != -1:
                positions.append(i)
                i = low.find(w, i + 1)
        for rx in paired:
            positions.extend(m.start() for m in rx.finditer(low))
        if not positions:
            return []
        windows: list[tuple[int, int]] = []
        for p in sorted(positions):
            lo, hi = max(0, p - self._back), min(n, p + self._ahead)
            if windows and lo <= windows[-1][1]:
                windows[-1] = (windows[-1][0], max(windows[-1][1], hi))
            else:
                windows.append((lo, hi))
        return windows

    def may_contain_identity(self, text: str) -> bool:
        """The cheap gate: False only when no identity pattern can match ``text``."""
        return bool(self.scan_windows(text))

    @staticmethod
    def _search(rx: re.Pattern[str], text: str, windows: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """Matches of ``rx`` inside the windows; a match cut by a window's end is re-matched uncut."""
        n = len(text)
        out: list[tuple[int, int]] = []
        for lo, hi in windows:
            pos = lo
            while pos < hi:
                m = rx.search(text, pos, hi)
                if m is None:
                    break
                s, e = m.span()
                if e == hi and hi < n:
                    whole = rx.match(text, s)
                    if whole is None:  # matched only because the window cut a word ("Sonnet|s"): no match
                        pos = s + 1
                        continue
                    e = whole.end()
                out.append((s, e))
                pos = max(e, s + 1)
        return out

    def literal_spans(self, text: str, windows: list[tuple[int, int]] | None = None) -> list[tuple[int, int]]:
        """Spans naming a contestant (id, display name, model) in any case and with any separators of
        up to three characters: ``gpt-5.5`` ~ ``GPT 5.5`` ~ ``gpt55`` ~ ``Gpt_5_5``."""
        if not self.literal_joints:
            return []
        spans: list[tuple[int, int]] = []
        prefixes, joints = self.literal_prefixes, self.literal_joints
        word_at, gap_at = P.WORD.match, _GAP.match
        heads = self._search(self.literal_head_re, text, windows if windows is not None else [(0, len(text))])
        for head_start, _ in heads:
            word = word_at(text, head_start)
            acc, cuts, best = "", [], None
            while word is not None:
                if acc:
                    cuts.append(len(acc))
                acc += word.group().lower()
                if acc not in prefixes:
                    break
                if acc in joints and joints[acc].issuperset(cuts):
                    best = word.end()
                word = word_at(text, gap_at(text, word.end()).end())
            if best is not None:
                spans.append((head_start, best))
        return spans

    # -- attribution ---------------------------------------------------------------------------
    def attribute(self, mention: str, contestant_id: str | None) -> str | None:
        """The season contestant a model mention names, if exactly one (or the speaker) fits."""
        key = P.model_key(mention)
        exact = self.by_key.get(key)
        if exact:
            return self.pick(exact, contestant_id)
        words, digits = key
        if not digits:
            return None
        fits: set[str] = set()
        for (c_words, c_digits), cids in self.by_key.items():
            if c_digits == digits and words <= c_words and (c_words - words) <= _FAMILY_HEADS:
                fits |= cids
        return self.pick(fits, contestant_id) if fits else None

    @staticmethod
    def pick(cids: set[str], contestant_id: str | None) -> str | None:
        if len(cids) == 1:
            return next(iter(cids))
        return contestant_id if contestant_id in cids else None

    # -- detection -----------------------------------------------------------------------------
    def groups(
        self, text: str, protected: Sequence[tuple[int, int]] = (), *, use_gate: bool = True
    ) -> list[_Group]:
        """Maximal identity spans (overlapping detections merged), in text order. ``use_gate=False``
        skips the cheap pre-check (tests compare both ways)."""
        windows = self.scan_windows(text) if use_gate else [(0, len(text))]
        if not windows:
            return []
        raw: list[tuple[int, int, str]] = []
        raw += [(s, e, "model") for s, e in self._search(self.model_re, text, windows)]
        raw += [(s, e, "provider") for s, e in self._search(self.provider_re, text, windows)]
        raw += [(s, e, "contestant") for s, e in self.literal_spans(text, windows)]
        if not raw:
            return []
        allowed: list[tuple[int, int]] = []
        if self.allow_re is not None:
            reach = self._allow_reach
            around = sorted((max(0, s - reach), e + reach) for s, e, _ in raw)
            merged: list[tuple[int, int]] = []
            for lo, hi in around:
                if merged and lo <= merged[-1][1]:
                    merged[-1] = (merged[-1][0], max(merged[-1][1], hi))
                else:
                    merged.append((lo, min(hi, len(text))))
            allowed = self._search(self.allow_re, text, merged)
        cands: list[tuple[int, int, str]] = []
        for s, e, kind in raw:
            inside = any(a <= s and e <= b for a, b in allowed)
            ss, se = self._self_reference(text, s, e, kind, allow_listed=inside)
            if (ss, se) != (s, e):
                cands.append((ss, se, "self_reference"))
                cands.append((s, e, kind))
                continue
            if inside:
                continue
            for a, b in allowed:  # a mention cutting into an allow-listed name takes the whole name
                if a < e and s < b:
                    s, e = min(s, a), max(e, b)
            cands.append((s, e, kind))
        shielded = (
            list(protected) + [m.span() for m in _PLACEHOLDER.finditer(text)] if "[" in text else protected
        )
        if shielded:
            cands = [c for c in cands if not any(a < c[1] and c[0] < b for a, b in shielded)]
        cands.sort(key=lambda c: (c[0], -c[1], -_KIND_RANK[c[2]]))
        groups: list[_Group] = []
        for s, e, kind in cands:
            if groups and s < groups[-1].end:
                groups[-1].end = max(groups[-1].end, e)
            else:
                groups.append(_Group(s, e))
            groups[-1].members.append((s, e, kind))
        return groups

    @staticmethod
    def _self_reference(text: str, s: int, e: int, kind: str, allow_listed: bool) -> tuple[int, int]:
        """Widen a mention to the self-identifying phrase around it, if there is one."""

        def prefix(name: str) -> re.Match[str] | None:
            return P.SELF_PREFIXES[name].search(text, max(0, s - P.SELF_WINDOWS[name]), s)

        start, end = s, e
        role = P.SELF_ROLE_SUFFIX.match(text, e)
        role_end = role.end() if role else e
        has_role = role_end > e
        has_comma = role is not None and not has_role
        if not allow_listed:
            names_a_model = kind != "provider" or has_role
            m = prefix("declare") if names_a_model else None
            if m:
                start, end = min(start, m.start()), max(end, role_end)
            m = prefix("declare_weak") if names_a_model else None
            clause = P.CLAUSE_END.match(text, role_end) if m else None
            if m and clause:
                start, end = min(start, m.start()), max(end, clause.end())
            suffix = P.SELF_SUFFIX.match(text, e)
            if suffix and P.SENTENCE_START.search(text, max(0, s - 8), s):
                end = max(end, suffix.end())
            m = prefix("as_lead") if has_role or has_comma else None
            if m:
                start, end = min(start, m.start()), max(end, role_end)
        m = prefix("as") if has_role else None
        if m:
            start, end = min(start, m.start()), max(end, role_end)
        m = prefix("mine")
        if m:
            start = min(start, m.start())
        if kind != "provider" or not allow_listed:
            m = prefix("apposition")  # "I, Claude, ...", "our Gemini desk"
            if m:
                start = min(start, m.start())
            made = P.SELF_MADE_ME_SUFFIX.match(text, e)  # "Google DeepMind trained me"
            if made:
                end = max(end, made.end())
            # a bare family word ("Claude thinks", not "gpt-5 thinks", which names a contestant's model)
            bare = kind == "model" and not any(ch.isdigit() for ch in text[s:e])
            opinion = P.SELF_OPINION_SUFFIX.match(text, e) if bare else None
            if opinion and P.SENTENCE_START.search(text, max(0, s - 8), s):  # "Claude thinks ..." opening a sentence
                end = max(end, opinion.end())
        if text[max(0, s - 24) : s].rstrip().lower().endswith(P.BY_ENDINGS):
            m = prefix("by")
            if m:
                start = min(start, m.start())
        return start, end

    def identity_kind(self, text: str, g: _Group, contestant_id: str | None) -> tuple[str, str | None]:
        """(kind, contestant) of a detected group: ``self_reference``; ``contestant`` (a season contestant's
        id, name or model); or ``provider`` / ``model`` (a company or another model: market context)."""
        if any(k == "self_reference" for _, _, k in g.members):
            return "self_reference", None
        s, e, kind = max(g.members, key=lambda m: (m[1] - m[0], _KIND_RANK[m[2]]))
        if kind == "provider":
            return "provider", None
        mention = text[s:e]
        target: str | None = None
        if kind == "contestant":
            target = self.pick(self.by_norm.get(P.normalise(mention), set()), contestant_id)
        if target is None:
            target = self.attribute(mention, contestant_id)
        return ("model", None) if target is None else ("contestant", target)

    def leaks(self, text: str, protected: Sequence[tuple[int, int]] = ()) -> list[str]:
        """Identity strings left in ``text``: self-references, contestants' ids, names and models, other model
        names (a company named as market context is no identity)."""
        seen: dict[str, None] = {}
        last_identity_end = -10
        shielded = list(protected)
        for g in self.groups(text, protected):
            identity = self.identity_kind(text, g, None)[0] != "provider"
            ends = [b for a, b in shielded if b <= g.start] + [last_identity_end]
            if identity or _next_to(text, max(ends), g.start):
                seen.setdefault(text[g.start : g.end], None)
                last_identity_end = g.end
        return list(seen)


_UNDISCLOSED_VALUE = "[undisclosed]"
_MARKET_WORDS = re.compile(
    r"(?i)\b(?:launch(?:ed|es|ing)?|releas(?:e|ed|es)|lifted|knocked|rall(?:y|ied|ies)|revenue|users|capex|deal|"
    r"added|adds|offers?|offering|hosts?|hosted|integrat(?:ion|es|ed)|shares|stock|earnings|guidance|funding|raised|"
    r"valuation|partnership|contract|customers|adoption|app|benchmarks?|outage|lawsuit|sales|margins?|demand|"
    r"spending|invest(?:ment|ed|s)|stake|acqui(?:re|red|sition)|chips?|gpus?|cluster|bedrock|azure|vertex|copilot|"
    r"seats?|subscribers|downloads|pop|drove|weighed|tailwind|headwind|ships?|shipped|lists|listing|relaunch|"
    r"pric\w+|run-rate|default|undercut|relies|rolled|license|headlines|flopped|demo|usage|caps|picked|closed|"
    r"series|training\s+on|hosting|accusation|ban\w*|delay\w*|poached|cut|power|voice|backlog|momentum|"
    r"tiers?|fine-tune|api)\b")


@lru_cache(maxsize=1)
def _public_names() -> frozenset[str]:
    """Every lab, parent and model-line name of the identity lexicon, lower case."""
    return frozenset(w.lower() for f in lexicon().values() for w in (*f.names, *f.lines))


def _next_to(text: str, identity_end: int, start: int) -> bool:
    """A provider written right after an identity: "Claude Opus 4.8 (Anthropic)", "Contestant B, OpenAI"."""
    return 0 <= start - identity_end <= 3 and text[identity_end:start].strip() in ("(", ",", "/", "-", "—", "")


_KEPT_REASON = {
    "provider": "a company named in market context, not the author (only self-references are scrubbed)",
    "model": "another model or product named in market context, not a contestant of this season",
}


@lru_cache(maxsize=64)
def _cached_detector(contestants: tuple[Contestant, ...], allowlist: tuple[str, ...]) -> _Detector:
    return _Detector(contestants, allowlist)


def find_leaks(text: str, contestants: Iterable[Contestant], allowlist: Iterable[str] = ()) -> list[str]:
    """Identity strings still present in ``text`` (empty when it is clean).

    Flags the season's contestant ids, display names and models in any spelling, any model/product or
    provider name, and self-identifying phrases; allow-listed universe symbols and names are not leaks.
    The prompt builder runs it as a final guard; tests use it on scrubbed corpora.
    """
    return _cached_detector(tuple(contestants), tuple(allowlist)).leaks(text)


def collides_with_aliases(value: str) -> bool:
    """Whether a contestant's id, display name or model would read as an alias or a placeholder once scrubbed
    ("Contestant B", "model", a single letter): such a contestant cannot be anonymized (``load_bundle`` refuses
    it with its file, line and field)."""
    tokens = P.split_tokens(value)
    return bool(_ALIAS_LIKE.fullmatch(P.normalise(value)) or (
        tokens and all(t in _RESERVED_TOKENS or (len(t) == 1 and t.isalpha()) for t in tokens)))


class Anonymizer:
    """Aliases for one season's contestants and the scrubber that applies them.

    Build with :meth:`for_contestants` or :meth:`for_season`. Aliases are ordered by
    ``sha256(seed + "\\x1f" + contestant_id)``, so they are reproducible for a seed, differ between seeds
    and do not reveal the order of ``contestants.yaml``.
    """

    anonymizes = True

    def __init__(
        self,
        contestants: Sequence[Contestant],
        assignments: Sequence[AliasAssignment],
        allowlist: Iterable[str] = (),
    ):
        self._contestants = {c.id: c for c in contestants}
        self.assignments = list(assignments)
        self._by_id = {a.contestant_id: a for a in self.assignments}
        self._by_alias = {a.alias: a for a in self.assignments} | {a.alias_id: a for a in self.assignments}
        self.allowlist = tuple(allowlist)
        self._detector = _Detector(contestants, self.allowlist)
        symbols = [a for a in self.allowlist if re.fullmatch(r"[A-Z][A-Z0-9.]{0,9}", a)]
        self._frames = Frames.for_names([v for c in contestants for v in _identity_values(c)],
                              [c.provider_family for c in contestants], symbols)
        self._tickers = re.compile(rf"(?<![\w$])(?:{'|'.join(map(re.escape, symbols))})(?![\w])") if symbols else None
        self._alias_tokens = frozenset(
            {a.alias for a in self.assignments} | {a.alias_id for a in self.assignments}
        )

    @classmethod
    def for_contestants(
        cls, contestants: Iterable[Contestant], seed: str, allowlist: Iterable[str] = ()
    ) -> Anonymizer:
        """Assign "Contestant A", "Contestant B", ... in the seed's hash order of contestant ids."""
        contestants = list(contestants)
        ids = [c.id for c in contestants]
        if len(set(ids)) != len(ids):
            dupes = sorted({i for i in ids if ids.count(i) > 1})
            raise ValueError(f"duplicate contestant ids: {', '.join(dupes)}")
        for c in contestants:
            for fld in ("id", "display_name", "model"):
                value = getattr(c, fld)
                if collides_with_aliases(value):
                    raise ValueError(
                        f"contestant {c.id!r}: {fld} {value!r} collides with the anonymizer's aliases or "
                        "placeholders; rename it"
                    )
        order = sorted(contestants, key=lambda c: hashlib.sha256(f"{seed}\x1f{c.id}".encode()).hexdigest())
        assignments = [
            AliasAssignment(
                alias=f"Contestant {alias_label(i)}",
                alias_id=f"contestant-{alias_label(i).lower()}",
                contestant_id=c.id,
            )
            for i, c in enumerate(order)
        ]
        return cls(contestants, assignments, allowlist)

    @classmethod
    def for_season(
        cls,
        info: SeasonInfo,
        contestants: Iterable[Contestant],
        seed: str,
        extra_allowlist: Iterable[str] = (),
        protect_issuer_brands: bool = True,
    ) -> Anonymizer:
        """Like :meth:`for_contestants`, with the season universe (symbols, names) as the allowlist."""
        allow = universe_allowlist(info, protect_issuer_brands) + list(extra_allowlist)
        return cls.for_contestants(contestants, seed, allow)

    # -- the map -------------------------------------------------------------------------------
    @property
    def mapping(self) -> dict[str, str]:
        """alias_id -> contestant_id (grader-side only; never put it in a prompt)."""
        return {a.alias_id: a.contestant_id for a in self.assignments}

    def alias_of(self, contestant_id: str) -> str:
        return self._assignment(contestant_id).alias

    def alias_id_of(self, contestant_id: str) -> str:
        return self._assignment(contestant_id).alias_id

    def contestant_of(self, alias: str) -> str:
        """The contestant id behind an alias or alias id."""
        try:
            return self._by_alias[alias].contestant_id
        except KeyError:
            raise KeyError(f"unknown alias {alias!r}") from None

    def _assignment(self, contestant_id: str) -> AliasAssignment:
        try:
            return self._by_id[contestant_id]
        except KeyError:
            raise KeyError(f"unknown contestant {contestant_id!r}") from None

    # -- scrubbing -----------------------------------------------------------------------------
    def _protected(self, text: str) -> list[tuple[int, int]]:
        """Spans of this anonymizer's own aliases (never re-scrubbed: scrubbing is idempotent)."""
        if "ontestant" not in text:
            return []
        return [m.span() for m in _ALIAS_TOKEN.finditer(text) if m.group() in self._alias_tokens]

    def scrub(self, text: str, contestant_id: str | None = None) -> ScrubResult:
        """Replace every identity in ``text``; ``contestant_id`` is the author (breaks ties when a model
        mention fits several contestants that share a model). Scrubbing is idempotent: a replacement changes the
        context of the names around it (a new authorship frame, a clause that now reads otherwise), so passes run
        until one finds nothing more (at most four), and every replacement points into ``text``."""
        result = self._scrub_once(text, contestant_id)
        for _ in range(3):
            if not result.replacements:
                return result
            more = self._scrub_once(result.text, contestant_id)
            if not more.replacements:
                return result
            composed = self._compose(text, result, more)
            if composed is None:
                return more.model_copy(update={"replacements": [*result.replacements]})
            result = composed
        return result

    @staticmethod
    def _compose(text: str, first: ScrubResult, second: ScrubResult) -> ScrubResult | None:
        """``second`` (a pass over ``first.text``) with its replacements mapped back into ``text``; None when one
        reaches into a placeholder of ``first`` (it cannot be placed in the input)."""
        shift: list[tuple[int, int, int]] = []  # (start in output, end in output, start in input) of kept text
        pos_in, pos_out = 0, 0
        for r in first.replacements:
            shift.append((pos_out, pos_out + r.start - pos_in, pos_in))
            pos_out += r.start - pos_in + len(r.replacement)
            pos_in = r.end
        shift.append((pos_out, pos_out + len(text) - pos_in, pos_in))

        def back(i: int) -> int | None:
            for lo, hi, src in shift:
                if lo <= i <= hi:
                    return src + i - lo
            return None

        extra = []
        for r in second.replacements:
            a, b = back(r.start), back(r.end)
            if a is None or b is None:
                return None
            extra.append(r.model_copy(update={"start": a, "end": b, "original": text[a:b]}))
        merged = sorted([*first.replacements, *extra], key=lambda r: r.start)
        kept = [k for k in first.kept if not any(e.start <= k.start < e.end for e in extra)]
        return ScrubResult(text=second.text, replacements=merged, kept=kept)

    def _scrub_once(self, text: str, contestant_id: str | None = None) -> ScrubResult:
        frames = self._frames.spans(text)
        groups = self._detector.groups(text, self._protected(text))
        if not groups and not frames:
            return ScrubResult(text=text, replacements=[])
        # an authorship frame (label, signature, self-description: grader/anonymizer/_frames.py) wins over the
        # name patterns; a name outside every frame is the author only by the scrubber's own self-reference rules
        items: list[tuple[int, int, object]] = []
        for f in frames:  # a frame inside the scrubber's own self-reference phrase takes the whole phrase
            over = [g for g in groups if g.start < f.end and f.start < g.end]
            if over and f.kind != "label":
                f = FrameSpan(min(f.start, *(g.start for g in over)), max(f.end, *(g.end for g in over)), f.kind)
            items.append((f.start, f.end, f))
        items += [(g.start, g.end, g) for g in groups if not any(f.start < g.end and g.start < f.end for f in frames)]
        items.sort(key=lambda t: (t[0], -t[1]))
        out: list[str] = []
        replacements: list[Replacement] = []
        kept: list[Kept] = []
        pos = 0
        last_identity_end = -10
        for start, end, item in items:
            if start < pos:
                continue
            if isinstance(item, FrameSpan):
                kind: ReplacementKind = "self_reference"
                replacement = _UNDISCLOSED_VALUE if item.kind == "label" else SELF_REFERENCE_PLACEHOLDER
                last_identity_end = end
                out.append(text[pos:start])
                out.append(replacement)
                replacements.append(Replacement(original=text[start:end], replacement=replacement, kind=kind,
                                                start=start, end=end))
                pos = end
                continue
            g = item
            kind, replacement = self._replacement(text, g, contestant_id)
            if kind == "model" and _ORDINARY_WORD.fullmatch(text[g.start:g.end]) and \
                    text[g.start:g.end] in _lexicon_words() and not \
                    _VERSION_AFTER.match(text, g.end) and not _SPEAKER_BEFORE.search(text, max(0, g.start - 8), g.start):
                # a model line written as a plain lower-case word outside every frame ("grok the setup", "a gemini
                # pattern"): an ordinary word; were it the author, the leak guard would still refuse it
                kept.append(Kept(original=text[g.start:g.end], kind="model", start=g.start, end=g.end,
                                 reason="an ordinary lower-case word, not a name"))
                continue
            if kind in ("model", "contestant") and not self._names_a_contestant(text[g.start:g.end]) \
                    and self._market_clause(text, g.start, g.end):
                # a model or product named as an actor in market news ("DeepSeek's R1 release knocked 17% off
                # NVDA", "Amazon's Bedrock added Claude") stays verbatim: never an alias where a product stood
                kept.append(Kept(original=text[g.start:g.end], kind="model", start=g.start, end=g.end,
                                 reason="a model or product named in market context (news, launches, deals), not the author"))
                continue
            if kind == "provider" and _next_to(text, last_identity_end, g.start):
                pass  # "made by Claude Opus 4.8 (Anthropic)": the author's provider, named with it
            elif kind == "provider":
                # identity, not markets: a company named as market context stays verbatim ("Meta -8%",
                # "Google Cloud +82%", "a lease with Anthropic", "xAI buying GPUs"); only a self-reference
                # ("as an OpenAI model", "trained by Google", "we at Anthropic") is scrubbed
                kept.append(Kept(original=text[g.start:g.end], kind=kind, start=g.start, end=g.end,
                                 reason=_KEPT_REASON[kind]))
                continue
            last_identity_end = g.end
            out.append(text[pos : g.start])
            out.append(replacement)
            replacements.append(
                Replacement(
                    original=text[g.start : g.end],
                    replacement=replacement,
                    kind=kind,
                    start=g.start,
                    end=g.end,
                )
            )
            pos = g.end
        out.append(text[pos:])
        return ScrubResult(text="".join(out), replacements=replacements, kept=kept)

    def _replacement(self, text: str, g: _Group, contestant_id: str | None) -> tuple[ReplacementKind, str]:
        kind, target = self._detector.identity_kind(text, g, contestant_id)
        if kind == "self_reference":
            return "self_reference", SELF_REFERENCE_PLACEHOLDER
        if kind == "provider":
            return "provider", PROVIDER_PLACEHOLDER
        if target is None:
            return "model", MODEL_PLACEHOLDER
        # a neutral token, never the alias: "[Contestant C] release knocked 17% off NVDA" would tell anyone who
        # knows the news which lab Contestant C is
        return "contestant", MODEL_PLACEHOLDER

    def _names_a_contestant(self, mention: str) -> bool:
        """A contestant's own id or display name (not a model or product name, which market news may use)."""
        norm = P.normalise(mention)
        if any(norm == P.normalise(c.id) for c in self._contestants.values()):
            return True  # an id is the season's own string, never news
        if any(re.search(rf"(?<![^\W_]){re.escape(c.id)}(?![^\W_])", mention, re.I)
               for c in self._contestants.values()):
            return True  # a mention that holds an id among other words ("Aaaa aaaa-00-2")
        # a display name or model string that is no public product name ("aaa-0", "Alpha Desk") names only it
        words = set(re.split(r"[\s\-_./]+", mention.lower()))
        return any(norm in (P.normalise(c.model), P.normalise(c.display_name)) for c in self._contestants.values()) \
            and words.isdisjoint(_public_names())

    def _market_clause(self, text: str, start: int, end: int) -> bool:
        """The sentence around ``start..end`` reports a market event: it names a traded symbol or a market verb
        or noun (launch, release, revenue, users, capex, shares, ...) and does not speak in the first person
        about the name."""
        lo = max(text.rfind(".", 0, start), text.rfind("\n", 0, start), text.rfind(";", 0, start),
                 text.rfind(",", 0, start), text.rfind(":", 0, start)) + 1
        hi_candidates = [i for i in (text.find(".", end), text.find("\n", end), text.find(";", end),
                                     text.find(",", end), text.find(":", end)) if i != -1]
        hi = min(hi_candidates) if hi_candidates else len(text)
        if re.search(r"(?i)\b(?:I|I'm|my|me|we|our)\b", text[lo:hi]):
            return False  # the author speaks in this piece: not a report of market news
        if hi < len(text) and text[hi] == ":" and not text[lo:start].strip() and len(text[end:hi].split()) <= 3:
            return False  # "Claude.ai users: ..." heads what follows, it reports nothing
        # a market word within a few words of the name: the name is an actor of the event ("the Qwen release",
        # "Bedrock added Claude", "ChatGPT users", "ships with Gemini")
        near = text[max(lo, start - 40):min(hi, end + 40)]
        if _MARKET_WORDS.search(near):
            return True
        return bool(self._tickers and self._tickers.search(text[lo:hi]))

    def mentions(self, text: str) -> list[str]:
        """Every identity-like name in ``text``, companies included (for reports on shared files such as
        ``season.yaml``, whose attribution names the contestants' makers)."""
        seen: dict[str, None] = {}
        for g in self._detector.groups(text, self._protected(text)):
            seen.setdefault(text[g.start : g.end], None)
        return list(seen)

    def find_leaks(self, text: str) -> list[str]:
        """Identities left in ``text`` (the author's or a contestant's; this anonymizer's aliases ignored):
        what scrubbing ``text`` again would still replace. Company and model names in market news are not
        identities (they stay verbatim by design). The prompt builder also runs the independent leak guard
        (``grader/anonymizer/_guard.py``), which shares nothing with this."""
        return list(dict.fromkeys(r.original for r in self.scrub(text).replacements))

    # -- records -------------------------------------------------------------------------------
    def anonymize_decision(self, decision: Decision) -> tuple[Decision, ScrubRecord]:
        """A copy with scrubbed rationale, context and allocation rationales and the alias id, plus the
        record of what was scrubbed (grader-side)."""
        cid = decision.contestant_id
        alias_id = self.alias_id_of(cid)
        fields: dict[str, list[Replacement]] = {}
        kept: dict[str, list[Kept]] = {}

        def clean(name: str, value: str | None) -> str | None:
            if value is None:
                return None
            result = self.scrub(value, cid)
            if result.replacements:
                fields[name] = result.replacements
            if result.kept:
                kept[name] = result.kept
            return result.text

        update: dict[str, object] = {
            "contestant_id": alias_id,
            "rationale": clean("rationale", decision.rationale),
            "context": clean("context", decision.context),
        }
        if decision.allocation is not None:
            update["allocation"] = [
                AllocationItem(
                    symbol=a.symbol,
                    weight=a.weight,
                    rationale=clean(f"allocation[{i}].rationale", a.rationale),
                )
                for i, a in enumerate(decision.allocation)
            ]
        record = ScrubRecord(decision_key=decision.key, contestant_id=cid, alias_id=alias_id, fields=fields,
                             kept=kept)
        return decision.model_copy(update=update), record

    def anonymize_contestant(self, contestant: Contestant) -> Contestant:
        """The judge's view of a contestant: alias only, provider and model undisclosed."""
        a = self._assignment(contestant.id)
        return Contestant(id=a.alias_id, display_name=a.alias, provider_family=UNDISCLOSED, model=UNDISCLOSED)

    def anonymized_contestants(self) -> list[Contestant]:
        """All contestants in alias order."""
        return [self.anonymize_contestant(self._contestants[a.contestant_id]) for a in self.assignments]


class NamedView:
    """The judge's view when a rubric turns anonymization off (seed 003's v0.3): contestants by their own display
    names and every text verbatim. Same interface as :class:`Anonymizer`, so prompts are built the same way."""

    anonymizes = False
    """The prompt says so: its record is headed "contestants named", never "anonymized"."""

    def __init__(self, contestants: Iterable[Contestant]):
        self._contestants = {c.id: c for c in contestants}
        self.assignments = [AliasAssignment(alias=c.display_name, alias_id=c.id, contestant_id=c.id)
                            for c in self._contestants.values()]

    @property
    def mapping(self) -> dict[str, str]:
        return {c: c for c in self._contestants}

    def alias_of(self, contestant_id: str) -> str:
        return self._contestants[contestant_id].display_name

    def alias_id_of(self, contestant_id: str) -> str:
        return contestant_id

    def contestant_of(self, alias: str) -> str:
        for c in self._contestants.values():
            if alias in (c.id, c.display_name):
                return c.id
        raise KeyError(f"unknown contestant {alias!r}")

    def scrub(self, text: str, contestant_id: str | None = None) -> ScrubResult:
        return ScrubResult(text=text, replacements=[])

    def mentions(self, text: str) -> list[str]:
        return []

    def find_leaks(self, text: str) -> list[str]:
        return []  # nothing is hidden, so nothing can leak

    def anonymize_decision(self, decision: Decision) -> tuple[Decision, ScrubRecord]:
        return decision, ScrubRecord(decision_key=decision.key, contestant_id=decision.contestant_id,
                                     alias_id=decision.contestant_id, fields={})

    def anonymize_contestant(self, contestant: Contestant) -> Contestant:
        return contestant

    def anonymized_contestants(self) -> list[Contestant]:
        return list(self._contestants.values())
