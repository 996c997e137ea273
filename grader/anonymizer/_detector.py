"""Where identities stand in a text: the scrubber's name patterns for one season's contestants (ids, display names,
models in any spelling, other model lines, providers), widened to the self-identifying phrase around a name. The
:class:`~grader.anonymizer.Anonymizer` decides what each found span becomes; the leak guard (``_guard.py``) shares
nothing with this."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from grader.anonymizer import _patterns as P
from grader.anonymizer._guard import lexicon
from grader.anonymizer._models import MODEL_PLACEHOLDER, PROVIDER_PLACEHOLDER, SELF_REFERENCE_PLACEHOLDER
from grader.season import Contestant

_GAP = re.compile(r"[\W_]{0,3}")
"""Separators allowed between the words of a contestant name."""
_PLACEHOLDER = re.compile(
    "|".join(re.escape(p) for p in (MODEL_PLACEHOLDER, PROVIDER_PLACEHOLDER, SELF_REFERENCE_PLACEHOLDER))
)
_FAMILY_HEADS = {
    "claude", "gpt", "chatgpt", "gemini", "gemma", "grok", "llama", "qwen", "deepseek", "mistral", "kimi",
    "glm", "phi", "command",
}  # fmt: skip
"""Words a mention may leave out and still name a contestant's model ("Opus 4.8" ~ claude-opus-4-8)."""
_KIND_RANK: dict[str, int] = {"issuer": -1, "provider": 0, "model": 1, "contestant": 2, "self_reference": 3}
"""An ``issuer`` is a lab's name the season protects as a traded company's brand ("Google" where GOOGL trades): never
an identity by itself, only when the author names its own lab beside its scrubbed name (``_companion.py``)."""


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


def identity_values(c: Contestant) -> list[str]:
    values = [c.id, c.display_name, c.model]
    if "/" in c.model:
        values.append(c.model.rsplit("/", 1)[1])
    return [v for v in values if P.normalise(v) not in P.NON_IDENTITIES]


@dataclass
class Group:
    start: int
    end: int
    members: list[tuple[int, int, str]] = field(default_factory=list)  # (start, end, kind)


class Detector:
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
            for value in identity_values(c):
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
        heads = {P.split_tokens(v)[0] for c in self.contestants for v in identity_values(c) if P.split_tokens(v)}
        self.literal_head_re = re.compile(
            rf"{P.START}(?:{'|'.join(re.escape(h) for h in sorted(heads, key=len, reverse=True))})"
            if heads
            else r"(?!)",
            re.IGNORECASE,
        )
        longest = max((len(v) for c in self.contestants for v in identity_values(c)), default=0)
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
                gap = gap_at(text, word.end())
                word = word_at(text, gap.end() if gap else word.end())
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
    def groups(self, text: str, protected: Sequence[tuple[int, int]] = (), *, use_gate: bool = True) -> list[Group]:
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
                if kind == "provider":
                    cands.append((s, e, "issuer"))
                continue
            for a, b in allowed:  # a mention cutting into an allow-listed name takes the whole name
                if a < e and s < b:
                    s, e = min(s, a), max(e, b)
            cands.append((s, e, kind))
        shielded = list(protected) + [m.span() for m in _PLACEHOLDER.finditer(text)] if "[" in text else protected
        if shielded:
            cands = [c for c in cands if not any(a < c[1] and c[0] < b for a, b in shielded)]
        cands.sort(key=lambda c: (c[0], -c[1], -_KIND_RANK[c[2]]))
        groups: list[Group] = []
        for s, e, kind in cands:
            if groups and s < groups[-1].end:
                groups[-1].end = max(groups[-1].end, e)
            else:
                groups.append(Group(s, e))
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

    def identity_kind(self, text: str, g: Group, contestant_id: str | None) -> tuple[str, str | None]:
        """(kind, contestant) of a detected group: ``self_reference``; ``contestant`` (a season contestant's
        id, name or model); or ``provider`` / ``model`` (a company or another model: market context)."""
        if any(k == "self_reference" for _, _, k in g.members):
            return "self_reference", None
        if all(k == "issuer" for _, _, k in g.members):
            return "issuer", None
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
            kind = self.identity_kind(text, g, None)[0]
            if kind == "issuer":
                continue  # a traded company's brand the season protects
            identity = kind != "provider"
            ends = [b for a, b in shielded if b <= g.start] + [last_identity_end]
            if identity or next_to(text, max(ends), g.start):
                seen.setdefault(text[g.start : g.end], None)
                last_identity_end = g.end
        return list(seen)


@lru_cache(maxsize=1)
def public_names() -> frozenset[str]:
    """Every lab, parent and model-line name of the identity lexicon, lower case."""
    return frozenset(w.lower() for f in lexicon().values() for w in (*f.names, *f.lines))


_MAKER_GAP = re.compile(
    r"[ \t]*(?:[(,/\-—·]|//)?[ \t]*(?:here[ \t]*\([ \t]*|(?:built|made|trained|developed|created|released|"
    r"fine[ \t-]?tuned)[ \t]+by[ \t]+)?"
)
"""What may stand between an identity and its maker: "Claude Opus 4.8 (Anthropic)", "Contestant B, OpenAI",
"Sonnet 4.5 · Anthropic", "Grok 4 here, built by xAI", "Claude here (Anthropic)"; never a line break (a signature
line, then "Anthropic's rumored raise ..." on the next: news)."""


def next_to(text: str, identity_end: int, start: int) -> bool:
    """A provider written right after an identity, as its maker (``_MAKER_GAP``)."""
    return (
        identity_end >= 0
        and 0 <= start - identity_end <= 24
        and _MAKER_GAP.fullmatch(text, identity_end, start) is not None
    )


@lru_cache(maxsize=64)
def _cached_detector(contestants: tuple[Contestant, ...], allowlist: tuple[str, ...]) -> Detector:
    return Detector(contestants, allowlist)


def find_leaks(text: str, contestants: Iterable[Contestant], allowlist: Iterable[str] = ()) -> list[str]:
    """Identity strings still present in ``text`` (empty when it is clean).

    Flags the season's contestant ids, display names and models in any spelling, any model/product or
    provider name, and self-identifying phrases; allow-listed universe symbols and names are not leaks.
    The prompt builder runs it as a final guard; tests use it on scrubbed corpora.
    """
    return _cached_detector(tuple(contestants), tuple(allowlist)).leaks(text)
