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
from typing import Literal

from grader.anonymizer import _patterns as P
from grader.anonymizer._companion import names_own_lab
from grader.anonymizer._detector import (
    Detector,
    Group,
    identity_values,
    next_to,
    public_names,
)
from grader.anonymizer._folded import folded_copy
from grader.anonymizer._frames import Frames, FrameSpan
from grader.anonymizer._guard import lexicon
from grader.anonymizer._kept_names import json_datum, other_proper_name, table_datum
from grader.anonymizer._market import market_clause
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
from grader.anonymizer._split_names import joined_copy, name_keys
from grader.season import AllocationItem, Contestant, Decision, SeasonInfo

_RESERVED_TOKENS = {"model", "provider", "self", "reference", "contestant", UNDISCLOSED}
_ALIAS_LIKE = re.compile(r"contestant[a-z]{1,3}")
_ALIAS_TOKEN = re.compile(rf"{P.START}(?:Contestant [A-Z]{{1,3}}|contestant-[a-z]{{1,3}}){P.END}")

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
_SPEAKER_BEFORE = re.compile(r"\b(?:I|we|me)\s+$")
""""I grok the setup": right after the author's own pronoun a model line may be the author naming itself."""
_VERB_OBJECT = re.compile(r"\s+(?:the|a|an|this|that|these|those|it|why|how|what|your|their|his|her)\b")
""""I grok the bear case": a lower-case line between a pronoun and its object is a verb, not the author's name."""
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


_UNDISCLOSED_VALUE = "[undisclosed]"
_SEEN_MAX_CHARS = 20_000
_SEEN_MAX_TEXTS = 100_000
"""What an anonymizer keeps of the texts it has read (``Anonymizer._found``): texts up to this long, this many."""
_KEPT_REASON = {
    "provider": "a company named in market context, not the author (only self-references are scrubbed)",
    "model": "another model or product named in market context, not a contestant of this season",
}


def collides_with_aliases(value: str) -> bool:
    """Whether a contestant's id, display name or model would read as an alias or a placeholder once scrubbed
    ("Contestant B", "model", a single letter): such a contestant cannot be anonymized (``load_bundle`` refuses
    it with its file, line and field)."""
    tokens = P.split_tokens(value)
    return bool(
        _ALIAS_LIKE.fullmatch(P.normalise(value))
        or (tokens and all(t in _RESERVED_TOKENS or (len(t) == 1 and t.isalpha()) for t in tokens))
    )


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
        self._detector = Detector(contestants, self.allowlist)
        symbols = [a for a in self.allowlist if re.fullmatch(r"[A-Z][A-Z0-9.]{0,9}", a)]
        self._frames = Frames.for_names(
            [v for c in contestants for v in identity_values(c)], [c.provider_family for c in contestants], symbols
        )
        self._tickers = re.compile(rf"(?<![\w$])(?:{'|'.join(map(re.escape, symbols))})(?![\w])") if symbols else None
        # traded companies that are no contestant's lab: one named beside a model makes its piece market news
        # ("Apple's China iPhone AI features reportedly use Qwen models")
        companies = sorted(
            {
                a
                for a in self.allowlist
                if a not in symbols
                and len(a) >= 4
                and a[0].isupper()
                and re.split(r"[\s,.]+", a.lower())[0] not in public_names()  # no lab's or parent's name
            },
            key=len,
            reverse=True,
        )
        self._companies = (
            re.compile(rf"(?<![\w$])(?:{'|'.join(map(re.escape, companies))})(?![\w])") if companies else None
        )
        self._alias_tokens = frozenset({a.alias for a in self.assignments} | {a.alias_id for a in self.assignments})
        self._seen: dict[str, tuple[list[FrameSpan], list[Group]]] = {}  # text -> its frames and name groups
        self._split_keys = name_keys(
            [w for f in lexicon().values() for w in (*f.names, *f.lines)]
            + [v for c in contestants for v in identity_values(c)]
        )

    @classmethod
    def for_contestants(cls, contestants: Iterable[Contestant], seed: str, allowlist: Iterable[str] = ()) -> Anonymizer:
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
        until one finds nothing more (at most four), and every replacement points into ``text``. A name split by
        emphasis or a line break ("*Lla*ma", "Deep-\\nSeek") is read joined (``_split_names.py``), and one written in
        full-width letters, with an invisible character or with Unicode spaces ("ｍｉｓｔｒａｌ", "Clau\\u200bde") is
        read folded (``_folded.py``)."""
        copy, index = text, None
        folded = folded_copy(text)
        if folded is not None:
            copy, index = folded
        joined = joined_copy(copy, self._split_keys)
        if joined is not None:
            copy, inner = joined
            index = inner if index is None else [index[i] for i in inner]
        if index is None:
            return self._scrub_passes(text, contestant_id)
        return self._mapped_back(text, self._scrub_passes(copy, contestant_id), index)

    @staticmethod
    def _mapped_back(text: str, result: ScrubResult, index: list[int]) -> ScrubResult:
        """``result`` (a scrub of a joined copy of ``text``) with its spans mapped back into ``text`` through
        ``index`` (each character of the copy -> its offset in ``text``)."""

        def span(start: int, end: int) -> tuple[int, int]:
            a = index[start] if start < len(index) else len(text)
            return a, (index[end - 1] + 1 if end > start else a)

        out: list[str] = []
        replacements: list[Replacement] = []
        pos = 0
        for r in result.replacements:
            a, b = span(r.start, r.end)
            out += [text[pos:a], r.replacement]
            replacements.append(r.model_copy(update={"start": a, "end": b, "original": text[a:b]}))
            pos = b
        out.append(text[pos:])
        kept = []
        for k in result.kept:
            a, b = span(k.start, k.end)
            kept.append(k.model_copy(update={"start": a, "end": b, "original": text[a:b]}))
        return ScrubResult(text="".join(out), replacements=replacements, kept=kept)

    def _scrub_passes(self, text: str, contestant_id: str | None = None) -> ScrubResult:
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

    def _found(self, text: str) -> tuple[list[FrameSpan], list[Group]]:
        """The authorship frames and name groups of ``text``: what a pass reads before it weighs each name for its
        author. Neither depends on the author, so a text scrubbed for several (the same rationale in several
        records, a season's repeated phrasing) is read once; found again for a long text (a whole prompt, read
        once) and once the cache is full."""
        found = self._seen.get(text)
        if found is None:
            found = (self._frames.spans(text), self._detector.groups(text, self._protected(text)))
            if len(text) <= _SEEN_MAX_CHARS and len(self._seen) < _SEEN_MAX_TEXTS:
                self._seen[text] = found
        return found

    def _scrub_once(self, text: str, contestant_id: str | None = None) -> ScrubResult:
        frames, groups = self._found(text)
        if not groups and not frames:
            return ScrubResult(text=text, replacements=[])
        # an authorship frame (label, signature, self-description: grader/anonymizer/_frames.py) wins over the
        # name patterns; a name outside every frame is the author only by the scrubber's own self-reference rules
        items: list[tuple[int, int, FrameSpan | Group]] = []
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
                replacement = _UNDISCLOSED_VALUE if item.kind == "label" else SELF_REFERENCE_PLACEHOLDER
                last_identity_end = end
                out.append(text[pos:start])
                out.append(replacement)
                replacements.append(
                    Replacement(
                        original=text[start:end], replacement=replacement, kind="self_reference", start=start, end=end
                    )
                )
                pos = end
                continue
            g = item
            kind, replacement = self._replacement(text, g, contestant_id)
            if kind == "issuer":
                if not names_own_lab(text, g, self._author_family(contestant_id), self._tickers):
                    continue  # a traded company's brand the season protects, not the author's own lab named with it
                kind = "provider"
            assert kind != "issuer"  # (for the type checker: an issuer was turned into a provider above or skipped)
            reason = self._kept_name(text, g, kind)
            if reason is not None:
                kept.append(Kept(original=text[g.start : g.end], kind="model", start=g.start, end=g.end, reason=reason))
                continue
            if kind == "provider" and next_to(text, last_identity_end, g.start):
                pass  # "made by Claude Opus 4.8 (Anthropic)": the author's provider, named with it
            elif kind == "provider" and names_own_lab(text, g, self._author_family(contestant_id), self._tickers):
                pass  # "[model] de Meta", "an Alibaba-built [model]": the author's lab beside its scrubbed name
            elif kind == "provider":
                # identity, not markets: a company named as market context stays verbatim ("Meta -8%",
                # "Google Cloud +82%", "a lease with Anthropic", "xAI buying GPUs"); only a self-reference
                # ("as an OpenAI model", "trained by Google", "we at Anthropic") is scrubbed
                kept.append(
                    Kept(original=text[g.start : g.end], kind=kind, start=g.start, end=g.end, reason=_KEPT_REASON[kind])
                )
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

    def _kept_name(self, text: str, g: Group, kind: str) -> str | None:
        """Why a model or contestant name found outside every frame stays verbatim, or None (it is replaced)."""
        mention = text[g.start : g.end]
        if kind == "model":
            if (
                _ORDINARY_WORD.fullmatch(mention)
                and mention in public_names()
                and not _VERSION_AFTER.match(text, g.end)
                and not (
                    _SPEAKER_BEFORE.search(text, max(0, g.start - 8), g.start) and not _VERB_OBJECT.match(text, g.end)
                )
            ):
                # a model line written as a plain lower-case word outside every frame ("grok the setup", "a gemini
                # pattern"): an ordinary word; were it the author, the leak guard would still refuse it
                return "an ordinary lower-case word, not a name"
            if json_datum(text, g.start, g.end):
                return "a key or value of a data record with no authorship key, not the author"
            if other_proper_name(text, g.start, g.end):
                return "part of another proper name (a person, a place, a brand), not a model"
            if table_datum(text, g.start, g.end):
                return "a cell of a data table with no authorship column, not the author"
        if (
            kind in ("model", "contestant")
            and not self._names_a_contestant(mention)
            and market_clause(text, g.start, g.end, self._tickers, self._companies)
        ):
            # a model or product named as an actor in market news ("DeepSeek's R1 release knocked 17% off NVDA",
            # "Amazon's Bedrock added Claude") stays verbatim: never an alias where a product stood
            return "a model or product named in market context (news, launches, deals), not the author"
        return None

    def _author_family(self, contestant_id: str | None) -> str | None:
        author = next((c for c in self._detector.contestants if c.id == contestant_id), None)
        return None if author is None else P.family_key(author.provider_family)

    def _replacement(
        self, text: str, g: Group, contestant_id: str | None
    ) -> tuple[ReplacementKind | Literal["issuer"], str]:
        kind, target = self._detector.identity_kind(text, g, contestant_id)
        if kind == "self_reference":
            return "self_reference", SELF_REFERENCE_PLACEHOLDER
        if kind in ("provider", "issuer"):
            return "provider" if kind == "provider" else "issuer", PROVIDER_PLACEHOLDER
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
        if any(
            re.search(rf"(?<![^\W_]){re.escape(c.id)}(?![^\W_])", mention, re.I) for c in self._contestants.values()
        ):
            return True  # a mention that holds an id among other words ("Aaaa aaaa-00-2")
        # a display name or model string that is no public product name ("aaa-0", "Alpha Desk") names only it
        words = set(re.split(r"[\s\-_./]+", mention.lower()))
        return any(
            norm in (P.normalise(c.model), P.normalise(c.display_name)) for c in self._contestants.values()
        ) and words.isdisjoint(public_names())

    def mentions(self, text: str) -> list[str]:
        """Every identity-like name in ``text``, companies included (for reports on shared files such as
        ``season.yaml``, whose attribution names the contestants' makers)."""
        seen: dict[str, None] = {}
        for g in self._detector.groups(text, self._protected(text)):
            if self._detector.identity_kind(text, g, None)[0] != "issuer":
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
        record = ScrubRecord(decision_key=decision.key, contestant_id=cid, alias_id=alias_id, fields=fields, kept=kept)
        return decision.model_copy(update=update), record

    def anonymize_contestant(self, contestant: Contestant) -> Contestant:
        """The judge's view of a contestant: alias only, provider and model undisclosed."""
        a = self._assignment(contestant.id)
        return Contestant(id=a.alias_id, display_name=a.alias, provider_family=UNDISCLOSED, model=UNDISCLOSED)

    def anonymized_contestants(self) -> list[Contestant]:
        """All contestants in alias order."""
        return [self.anonymize_contestant(self._contestants[a.contestant_id]) for a in self.assignments]
