"""Authorship frames: where a text says who wrote it, read by its structure before its words.

The scrubber's name patterns (``_patterns.py``) find names; whether a name is the author or a market actor is
decided here, one small rule per kind of frame:

- **labels and keys**: a line or JSON-ish key ``model:``, ``provider:``, ``vendor:``, ``family:``, ``author:``,
  ``lab:``, ``engine:``, ``llm:``, ``tier:`` -> its value is undisclosed, whatever it says;
- **signatures**: "— DeepSeek" / "-- Grok 4" ending a line, "Signed, Claude", "Maverick signing off",
  "Claude Sonnet speaking:", "tongyi view:" opening a line;
- **self-descriptions**: first person or "this desk / portfolio / agent / model / rationale" with made / built /
  trained / created / powered by, runs on, speaking as / for, "I'm X", "as X's model", "our X desk",
  "X-built, I", "its sibling X model".

Inside a frame every identity name (the identity lexicon, ``identity_lexicon.yaml``, and the season's contestants'
ids, names and models) is replaced by a neutral token; outside one, names stay for the scrubber's market rules.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property, lru_cache

from grader.anonymizer._frame_patterns import frame_patterns, ident_source, loose_names, names_alternation
from grader.anonymizer._guard import lexicon
from grader.anonymizer._market import MARKET_PIECE, MONEY, about_topic
from grader.anonymizer._scan import NameScan

_SELF = (
    r"(?:\bI\b|(?i:\brationale\b|\bthe\s+author\b|\bwriting\s+this\b)|(?i:\bthis\s+(?:desk|portfolio|book|agent|model|rationale|analysis|system|assistant|trader|bot|note|decision|allocation|trade|commentary|view|output|memo|write-?up)\b)|\bI'm\b|\bI am\b|\bI've\b|\bI'll\b|\bI'd\b|\bme\b|\bmy\b|\bmine\b|\bwe\b|\bwe're\b|\bour\b|"
    r"\bthis\s+(?:desk|portfolio|book|agent|model|rationale|analysis|system|assistant|trader|bot|note|decision|"
    r"allocation|trade)\b)"
)
_TAG_LABEL = re.compile(
    r"(?i)<(?P<tag>model|provider|vendor|family|author|lab|engine|llm|agent|signature|signed|"
    r"maker|creator|by)(?:\s[^<>]{0,40})?>(?P<val>[^<>\n]{1,60})</(?P=tag)\s*>"
)
"""'<model>Gemini 3 Pro</model>', '<provider>Google</provider>': a tag that says who wrote it is a label."""
_LABEL = re.compile(
    r"(?im)(?P<key>(?:^|(?<=[|;,{(\[]))\s*(?:(?:#+|//|--|[-\u2022+>]|\d{1,2}[.)])[ \t]*)?[\"'*_]*(?:x-|author[_\-]?|ai[_\-]|llm[_\-]|source[_\-])?"
    r"(?:model(?:[_\s\-]?id|[_\s\-]?name)?|provider|vendor|family|author|lab|org|organi[sz]ation|"
    r"engine|llm|tier|version|built[_\s]by|made[_\s]by|signed[_\s]by|signed|signature|sig|powered[_\s]by|creator|"
    r"maker)[\"'*_]*\s*[:=]\s*[\"'*_]*)"
    r"(?P<val>(?!\s*(?:[\"']\s*)?(?:\[undisclosed\]|undisclosed\b|\[))(?=\s*[^\s\"'])[^\n|;,}\"']{1,60}?)(?=\s*(?:[\"']|[|;,}\n]|\.(?:\s|$)|$))"
)
_BARE_VERSION = re.compile(
    r"(?<![\w$.,/\-])(?:[1-9]\d?(?:\.\d{1,2})?[ \-](?:Pro|Flash(?:-Lite)?|Ultra|Sonnet|Opus|Haiku|Maverick|Scout)|"
    r"[1-9]\d?(?:\.\d{1,2})?-(?:mini|nano|turbo|fast)|[1-9]\d?\.\d{1,2}-\d{1,3}[bB]|[1-9]\d{1,2}[bB]-[aA]\d{1,2}[bB]|"
    r"[1-9]\d{0,3}B(?=[ \t]+(?:open[ \t-]+(?:weights?[ \t]+)?)?(?:MoE|model|checkpoint|dense|instruct|base[ \t]+model)\b)|"
    r"[1-9]\d{0,2}B[ \t]+active(?![ \t]+(?:users|accounts|subscribers|devices|customers))|"
    r"[1-9]\d{0,3}B[ \t]+total(?=[ \t]*[/,(])|"
    r"V[1-9]\.\d-(?:Terminus|Exp|Base|Chat|Instruct)(?=[ \t]+(?:build|checkpoint|weights|here)\b))"
    r"(?![\w\-])"
)
"""A model's version with its variant or size ("2.5 Pro", "5-mini", "4-fast", "3.3-70B", "235B-A22B"), a size
before a model word or as active parameters ("671B MoE", "37B active"), a version with a release suffix before "build"
("V3.1-Terminus build"), the scrubber's own
pattern (the leak guard has its own)."""
_FUNCTION_WORDS = frozenset(
    """a an the as on of by from with to at in into for and or but that this its my our your their is was are were
be being been running run using via than like calibrated trained tuned built made same""".split()
)
"""Words after which a version stands alone (no product name before it)."""
_SEAT = re.compile(
    r"(?i)\b(?:run|runs|running|live|lives|living|deployed|installed|embedded|sit|sits|sitting|"
    r"(?P<talk>(?:talking|writing|speaking|chatting)\s+to\s+you))\s+(?:as\s+[^.;:\n]{0,30}?\s+)?"
    r"(?:in|inside|within|from)\s+(?:the\s+)?"
    r"(?P<who>(?-i:[A-Z][\w.\-]*|[a-z]+[A-Z]\w*)(?:\s+(?-i:[A-Z][\w.\-]*)){0,2}?)(?P<app>\s+app\b)?(?![\w.\-])"
)
"""Where the author runs: a verb of running, living or talking to the reader, then "in / inside / from" and a name."""
_FOOTNOTE = re.compile(
    r"[ \t]*(?:\[\d{1,2}\]|\[\^[\w-]{1,10}\]:?|\(\d{1,2}\)|[\u00b9\u00b2\u00b3\u2070-\u2079]+|\u2020)[ \t]*\S"
)
"""A footnote line's marker ("[1] ", "[^1]: ", "¹ ", "† "; not a bullet's "* ")."""
_FRAME_TAIL = re.compile(
    r"[」』’”»\]]?\s*(?:[(（][^)）\n]{1,60}[)）]|(?:researchers\s+)?at\s+[\w.\- ]{1,30}?(?=[,.;:]|$)|"
    r"(?i:(?:lab|team|model|agent|assistant|system|company|firm|startup|unit)(?:['\u2019]s)?\s+){1,2}(?:on|at|from|in)\s+"
    r"(?:the\s+)?"
    r"[A-Z][\w.\-]*(?:\s+[A-Z][\w.\-]*){0,2}(?=\s*[,.;:]|\s*$)|"
    r",\s*(?:which|who|that)\s+[\w.\- ]{1,40}?(?=[,.;:]|$)|,\s*an?\s+[\w.\- ]{1,40}?"
    r"(?:model|system|assistant|agent)\b|,?\s*(?:built|made|trained|developed|created|released)\s+by\s+"
    r"[\w\-']+(?:\.[\w\-']+)*(?:\s+[A-Z][\w\-']*(?:\.[\w\-']+)*){0,2}|"
    r"\s*(?:·|//)\s*[\w\-']+(?:\.[\w\-']+)*(?:\s+[A-Z][\w\-']*(?:\.[\w\-']+)*){0,2}|"
    r"['\u2019]s\s+(?:[\w-]+\s+){0,2}?(?i:model|agent|assistant|system|reasoner|llm)\s*,\s*[*_\"\u201c]*"
    r"[A-Z][\w.\-*]*(?:\s+[A-Z0-9][\w.\-*]*){0,2}[*_\"\u201d]*(?=\s*[,.;:]|\s+and\b|\s*$))"
)
"""What describes the same author right after a frame: "(OpenAI)", "researchers at Meta", ", a Google DeepMind
model", ", built by xAI", " · Anthropic PBC", " // DEEPMIND" (a signature's parts; never across a "|", which ends a cell,
nor a full stop: "built by OpenAI. Separately, ..." ends at the name); the lab's model named in apposition ("by
Anthropic's mid-tier model, Sonnet, and ...")."""
_SPEAKER_AFTER = re.compile(
    r"(?:[ \t]+(?:model|assistant|agent|app|desk|bot|team|here))?[ \t]*:[ \t]*"
    r"(?P<w>[A-Z][a-z]+(?: [A-Z][a-z]+)?)(?=[ \t]+[a-z])"
)
"""A capitalised word right after a frame's colon, before a lower-case verb: the speaker of what follows."""
_VERSION_SPEAKER = re.compile(
    r"(?m)(?:^|(?<=[.!?;]\s))[^\w\n]{0,4}(?P<v>(?:[1-9]\d?(?:\.\d{1,2})?[ \-](?:Fast|Heavy|Mini|Nano|Turbo|Max|Plus|Lite|"
    r"Pro|Flash|Ultra)|(?:Large|Medium|Small|Mini|Nano|Pro|Flash|Fast|Turbo|Heavy|Ultra|Max|Plus|Lite)[ \-]v?[1-9]\d?"
    r"(?:\.\d{1,2})?|[1-9]\d?(?:\.\d{1,2})?[ \-][1-9]\d{0,3}[bB]|[a-z]+-fast-\d{1,2})(?:[ \-](?:Instruct|Chat|Preview|"
    r"Thinking|Reasoning))?)[ \t]+(?:here|speaking|signing(?:[ \t]+off)?|reporting|writing)\b"
    r"(?=[ \t]*(?:[:,|(\u2014\u2013]|-[ \t]|$))"
)
"""A speaker line opened by a version and its variant or size alone: "Large 2 here", "Medium 3 speaking", "4 Fast
here", "3.3 70B here", "code-fast-1 here"."""
_ENV_NAME = re.compile(r"(?<![\w$])[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?![\w])")
"""An environment variable's name ("MISTRAL_API_KEY", "XAI_MODEL"): a segment that is a lab or a line is the author's
(the variables of the run that wrote the text)."""
_OWN_SIBLING = re.compile(
    r"\b(?i:our|my)\s+(?P<n>[A-Z][a-z][\w.\-]*(?:[ \-][\w.]+)?)\s+(?i:video|image|vision|coding|code|reasoning|chat|"
    r"language|speech|audio|music|embedding|multimodal|omni)\s+(?i:model|generator|line)\b"
)
"""The first person's own sibling model with its modality: "our Wan video model"."""
_ME_GLOSS = re.compile(r"(?i)\(\s*(?:me|myself|that['\u2019]?s\s+me|yours\s+truly|i\.e\.,?\s+me)\s*\)")
"""The author's gloss of the noun phrase before it: "(me)", "(that's me)", "(yours truly)"."""
_TIER_SELF = re.compile(
    r"\b(?:I['\u2019]m|I\s+am)\s+(?i:its|their|the|a|an|this|your)\s+(?P<v>Nano|Mini|Turbo|Flash|Lite|Pro|Fast|Large|"
    r"Small|Medium|Max|Plus|Ultra|Heavy|Haiku|Sonnet|Opus|Scout|Maverick|Behemoth)[ \t\-]+(?i:model|tier|variant|"
    r"version|build|size|release|edition|checkpoint)\b"
)
"""The first person as a capitalised tier of a line: "I'm its Medium model"."""
_KEY_LINE = re.compile(r"(?im)^[ \t]*(?:[\w-]{2,30}(?:[ \t]+by)?[ \t]*:[^\n]*|(?:[\w.-]{1,40}=[^\s=]*[ \t]*)+)$")
"""A line that is one key and its value ("Signed-off-by: Llama 3.3 <llama@meta.com>", "author: gpt-5 (OpenAI)"),
or only ``key=value`` pairs ("DASHSCOPE_API_KEY=*** MODEL=qwen-plus")."""
_RUN_ENDS = frozenset("\u3002\uff0c\uff1b\uff1a\u3001\uff08\uff09,;()[]<>\"'|")
"""What ends a label's run of characters: punctuation, brackets and a "|" between the fields of a record
("engine=codestral-2508|note=Mistral's Codestral is bundled ...": the note is another field, not the label)."""


def _label_region(text: str, start: int, end: int) -> tuple[int, int]:
    """What a label found at ``start..end`` spans: the brackets it sits in on its line ("[xAI / grok-4]"), else the
    key line it is the value of, else the run of non-blank characters around it ("qwen@dashscope")."""
    line_lo = text.rfind("\n", 0, start) + 1
    line_hi = text.find("\n", end)
    line_hi = len(text) if line_hi == -1 else line_hi
    for opener, closer in ("[]", "<>", "()"):
        lo, hi = text.rfind(opener, line_lo, start), text.find(closer, end, line_hi)
        if lo != -1 and hi != -1 and closer not in text[lo + 1 : start]:
            return lo + 1, hi
    key_line = _KEY_LINE.match(text, line_lo)
    if key_line is not None and key_line.end() == line_hi and len(text[line_lo:line_hi]) <= 100:
        return line_lo, line_hi
    lo, hi = start, end
    while lo > line_lo and not text[lo - 1].isspace() and text[lo - 1] not in _RUN_ENDS:
        lo -= 1
    while hi < line_hi and not text[hi].isspace() and text[hi] not in _RUN_ENDS:
        hi += 1
    return lo, hi


_GENERIC_WORDS = frozenset(
    """pro max mini nano plus turbo flash lite ultra large medium small instruct chat latest
thinking heavy preview base vision omni fast coder code model trader bot agent assistant the and""".split()
)
_WE_PLURAL = re.compile(r"(?i)\b(?:we|us)\s+(?:(?:other|fellow|humble|little|poor)\s+)?(?P<word>[a-z]{4,}s)\b")
"""The first person plural and a plural noun ("We Groks", "us Claudes"); the noun counts when its singular is a name."""
_RUN_ON_SCRIPT = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")
"""Kana, CJK ideographs and Hangul: scripts whose words run on with no space between them."""
_ENGLISH_NEAR = frozenset(
    """clause claudes gemini llamas mistrals groks grokked metal metro matter coded coders
gamma gemma geminis scoutt maverik groq""".split()
)
_PLAIN_WORDS = frozenset(
    """meta scout opus clause cloud crude grace grove gross great group groups quest gemma lama
llama lamp code coder codes fair fail hair pair quad grok sonnet haiku close""".split()
)
_WORDISH = re.compile(
    r"(?P<spaced>(?<![\w])(?:[A-Za-z] ){2,}[A-Za-z](?![\w])|"
    r"(?<![\w.\-])[A-Za-z](?P<sep>[.\-\u00b7])(?:[A-Za-z](?P=sep)){1,}[A-Za-z](?![\w\-]|\.\w))|"
    r"(?P<leet>(?<![\w@$])(?=[\w@$]*[A-Za-z])(?=[\w@$]*[0-9@$])[A-Za-z0-9@$]{4,}(?![\w@$]))|"
    r"(?P<plain>[A-Za-z]{4,})"
)
"""A word as it may be written to hide a name: letters spaced apart or set apart by dots or hyphens ("g r o k",
"C.L.A.U.D.E", "Q-w-e-n"), digits or signs for letters, or plain."""
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "@": "a", "$": "s", "5": "s", "7": "t"})


class _FrameRule:
    """One frame: its kind, whether it says who speaks by itself, and its pattern, compiled only when its sieve (the
    same pattern around ``loose_names``, which finds something wherever the pattern does) first finds something."""

    __slots__ = ("inherent", "kind", "sieve", "source", "compiled")

    def __init__(self, kind: str, inherent: bool, source: str, sieve: re.Pattern[str]) -> None:
        self.kind, self.inherent, self.source, self.sieve = kind, inherent, source, sieve
        self.compiled: re.Pattern[str] | None = None

    @property
    def pattern(self) -> re.Pattern[str]:
        if self.compiled is None:
            self.compiled = re.compile(self.source)
        return self.compiled

    def finditer(self, text: str, lo: int, hi: int) -> Iterator[re.Match[str]]:
        """The pattern's matches in ``text[lo:hi]`` (none, without compiling it, where the sieve finds none)."""
        if self.compiled is None and self.sieve.search(text, lo, hi) is None:
            return iter(())
        return self.pattern.finditer(text, lo, hi)


@dataclass(frozen=True)
class FrameSpan:
    start: int
    end: int
    kind: str  # label | signature | self_reference


class Frames:
    """Finds the spans of a text that say who wrote it (see the module docstring). The patterns are made once per set
    of names (``Frames.for_names``), run only on the lines that name something, and each is compiled only when its
    sieve first finds something in such a line (``_FrameRule``)."""

    @classmethod
    def for_names(
        cls, identity_values: Iterable[str] = (), families: Iterable[str] = (), symbols: Iterable[str] = ()
    ) -> Frames:
        # the contestants' own ids, names and models are the name patterns' (``_detector.Detector``); the frames
        # read the identity lexicon and the season's families, so one set of patterns serves many seasons
        lexicon_words = {w.lower() for f in lexicon().values() for w in (*f.names, *f.lines)}
        kept = tuple(
            sorted({v for v in identity_values if any(t in lexicon_words for t in re.split(r"[\s\-_./]+", v.lower()))})
        )
        return _cached_frames(kept, tuple(sorted(set(families))), tuple(sorted(set(symbols))))

    def __init__(self, identity_values: Iterable[str] = (), families: Iterable[str] = (), symbols: Iterable[str] = ()):
        self._symbols = frozenset(symbols)
        self._ordinary = frozenset(w for fam in lexicon().values() for w in fam.ordinary)
        words: set[str] = set()
        for fam in lexicon().values():
            words.update(fam.names)
            words.update(fam.lines)
        for family in families:
            if family and family.lower() not in ("undisclosed", "unknown", "other", "none"):
                words.add(family)
        for value in identity_values:
            if value and len(value) >= 2:
                words.add(value)
                words.update(
                    w
                    for w in re.split(r"[\s/]+", value)
                    if sum(ch.isalpha() for ch in w) >= 3 and w.lower() not in _GENERIC_WORDS
                )
        self._names = {w.lower() for w in words if len(w) >= 4 and w.isalpha()}
        self._short = {w.lower() for w in words if len(w) == 3 and w.isalpha()}  # "GPT" spelt "G P T"
        # misspelt names: every name of 5+ letters with one letter dropped, for the symmetric-delete look-up
        self._near: dict[str, str | None] = {}  # word -> the name it misspells (or None), remembered
        self._deletes: dict[str, str] = {}
        long_names = [w.lower() for w in words if len(w) >= 5 and w.isalpha()]
        self._initials = frozenset(w[0] for w in long_names)
        self._shortest = min(map(len, long_names), default=5)
        self._longest = max(map(len, long_names), default=5)
        for w in {w for w in words if len(w) >= 5 and w.isalpha()}:
            low = w.lower()
            for i in range(1, len(low)):
                self._deletes.setdefault(low[:i] + low[i + 1 :], w)
            self._deletes.setdefault(low, w)
        parts = sorted(words, key=len, reverse=True)
        alt = names_alternation(parts)
        # a name and its version/variant tail: "Claude Opus 4.7", "gpt-4o", "Llama 4 Maverick", "qwen3-235b"
        self._triggers = frozenset(t for w in words for t in re.findall(r"[a-z]+", w.lower())[:1])
        # names in other scripts ("通义千问") run on with the words around them: looked for as substrings
        self._wide_triggers = tuple(
            sorted({w for w in words if not w.isascii() and not re.search(r"[a-z]", w.lower())})
        )
        self._alt = alt  # the patterns are compiled when a text first names someone (see ``ident``)
        self._alt_names = parts

    @cached_property
    def ident(self) -> re.Pattern[str]:
        """Any identity name with its version/variant tail; compiled when first needed (a season whose texts name
        nobody never pays for it)."""
        return re.compile(ident_source(self._alt), re.I)

    @cached_property
    def _run_on(self) -> tuple[str, ...]:
        """The names in scripts written without spaces ("千问", "深度求索"): they run on with the words around them
        ("我是千问", "署名：深度求索"), so no word boundary is asked of them inside a frame."""
        return tuple(w for w in self._alt_names if _RUN_ON_SCRIPT.search(w))

    @cached_property
    def ident_in_frames(self) -> re.Pattern[str]:
        """``ident``, or a name of :attr:`_run_on` wherever it stands: what the frames take as a name."""
        if not self._run_on:
            return self.ident
        return re.compile(rf"(?:{self.ident.pattern}|{'|'.join(map(re.escape, self._run_on))})", re.I)

    @cached_property
    def ident_scan(self) -> NameScan:
        """``ident`` searched by word runs (``_scan.py``): the same matches, without trying every position."""
        return NameScan(self.ident, self._alt_names)

    @cached_property
    def _rules(self) -> list[_FrameRule]:
        """The frames in the order they are tried, each with its sieve (``_frame_patterns.loose_names``): made the
        first time a text has a line that names someone (the common text names nobody); a frame's own pattern is
        compiled when its sieve first finds something in such a line. Names in scripts written without spaces
        (:attr:`_run_on`) stand in both as they are: few, and no boundary is asked of them."""
        inherent, others = frame_patterns(self._alt, self.ident_in_frames.pattern, make=str)
        loose = loose_names(self._alt_names)
        run_on = "|".join(map(re.escape, self._run_on))
        loose_ident = rf"(?:{ident_source(loose)}|{run_on})" if run_on else ident_source(loose)
        sieves = frame_patterns(loose, loose_ident, make=re.compile)
        return [
            _FrameRule(kind, n < len(inherent), source, sieve)
            for n, ((kind, source), (_, sieve)) in enumerate(
                zip([*inherent, *others], [*sieves[0], *sieves[1]], strict=True)
            )
        ]

    def _misspelt(self, text: str) -> tuple[str, list[int] | None]:
        """``text`` with misspelt names ("Cluade", "gemni", "Lamma", "Deepseak", "qwne") spelt as the name, and the
        map from each character of the result back to the input (None: nothing was misspelt)."""
        out: list[str] = []
        index: list[int] = []
        pos = 0
        changed = False
        for m in _WORDISH.finditer(text):
            word = m.group(0)
            if m.lastgroup in ("spaced", "leet"):  # "g r o k", "L L A M A", "Gemin1", "Cl@ude", "d33pseek"
                joined = re.sub(r"[ .\-\u00b7]", "", word) if m.lastgroup == "spaced" else word.translate(_LEET)
                if joined.lower() not in self._names and joined.lower() not in self._short:
                    continue
                out.append(text[pos : m.start()])
                index.extend(range(pos, m.start()))
                out.append(joined)
                index.extend(m.start() + k * (len(word) - 1) // max(len(joined) - 1, 1) for k in range(len(joined)))
                pos = m.end()
                changed = True
                continue
            low = word.lower()
            if (word.isupper() and len(word) <= 5) or word in self._symbols:
                continue  # a ticker ("GOOGL") is no misspelt name
            if low[0] not in self._initials or not self._shortest - 1 <= len(low) <= self._longest + 1:
                continue
            if low in self._names or low in _PLAIN_WORDS or low in _ENGLISH_NEAR:
                continue
            name = self._near.get(low, "")
            if name == "":
                name = self._deletes.get(low) or next(
                    (
                        self._deletes[v]
                        for v in (low[:i] + low[i + 1 :] for i in range(1, len(low)))
                        if v in self._deletes
                    ),
                    None,
                )
                if len(self._near) < 200_000:
                    self._near[low] = name
            if name is None or name.lower()[0] != low[0]:
                continue
            out.append(text[pos : m.start()])
            index.extend(range(pos, m.start()))
            out.append(name)
            index.extend(min(m.start() + k, m.end() - 1) for k in range(len(name)))
            pos = m.end()
            changed = True
        if not changed:
            return text, None
        out.append(text[pos:])
        index.extend(range(pos, len(text)))
        return "".join(out), index

    def spans(self, text: str) -> list[FrameSpan]:
        """Identity spans inside authorship frames (labels: the whole value), merged, in text order."""
        fixed, index = self._misspelt(text)
        if index is not None:  # read the spelt-right copy, answer in the input's offsets
            found = [FrameSpan(index[f.start], index[f.end - 1] + 1, f.kind) for f in self._spans(fixed)]
        else:
            found = self._spans(text)
        plural = self._we_plural(text) + self._bare_versions(text) + self._tag_runs(text) + self._seats(text)
        plural += (
            self._variant_words(text) + self._people_makers(text) + self._glossed_me(text) + self._tier_words(text)
        )
        plural += self._env_names(text) + self._version_speakers(text) + self._own_siblings(text)
        if not plural:
            return found
        merged: list[FrameSpan] = []
        for f in sorted([*found, *plural], key=lambda f: (f.start, -f.end)):
            if merged and f.start < merged[-1].end:
                merged[-1] = FrameSpan(merged[-1].start, max(merged[-1].end, f.end), merged[-1].kind)
            else:
                merged.append(f)
        return merged

    def _we_plural(self, text: str) -> list[FrameSpan]:
        """The first person plural named by its family's model line in the plural: "We Groks run hot", "we llamas
        keep it simple", "us Claudes" (a plural is no name the name patterns know, and no market news says "we
        Llamas")."""
        out = []
        for m in _WE_PLURAL.finditer(text):
            word = m.group("word")
            stem = word[:-2] if word.lower().endswith("es") and word[:-2].lower() in self._names else word[:-1]
            if stem.lower() in self._names and not (word.islower() and stem.capitalize() in self._ordinary):
                out.append(FrameSpan(m.start("word"), m.end("word"), "self_reference"))
        return out

    def _bare_versions(self, text: str) -> list[FrameSpan]:
        """A model's version and variant written alone, no product before it: "2.5 Pro tends to ...", "calibrated on
        5-mini's own backtests", "As the 3.3-70B instruct build", "the 235B-A22B MoE checkpoint" (a number stands for
        the model; "Gemini 2.5 Pro", "iPhone 17 Pro", "the new 17 Pro" have a word of their own before it)."""
        out = []
        for m in _BARE_VERSION.finditer(text) if any(ch.isdigit() for ch in text) else ():
            before = re.search(r"([\w'\u2019]+)[ \t]+$", text[max(0, m.start() - 40) : m.start()])
            if before is None or before.group(1).lower() in _FUNCTION_WORDS:
                out.append(FrameSpan(m.start(), m.end(), "self_reference"))
        return out

    @cached_property
    def _variant_of(self) -> re.Pattern[str]:
        return re.compile(
            rf"\b(?P<v>nano|mini|turbo|flash|lite|pro|fast|large|small|medium|max|plus)\s+"
            rf"(?:variant|version|edition|flavou?r|build)\s+of\s+(?:the\s+)?(?:{self._alt})(?![\w])",
            re.I,
        )

    def _variant_words(self, text: str) -> list[FrameSpan]:
        """A variant word naming which model of a line: "the nano variant of GPT-4.1" (scrubbed, "the nano variant
        of [model]" still says which); a piece with a market word or a sum of money is news and stays."""
        if " of " not in text:
            return []
        out = []
        for m in self._variant_of.finditer(text):
            lo = max(text.rfind(c, 0, m.start()) for c in ".;\n|") + 1
            ends = [i for i in (text.find(c, m.end()) for c in ".;\n|") if i != -1]
            piece = text[lo : min(ends) if ends else len(text)]
            if not MARKET_PIECE.search(piece) and not MONEY.search(piece):
                out.append(FrameSpan(m.start("v"), m.end("v"), "self_reference"))
        return out

    @cached_property
    def _tag_run(self) -> re.Pattern[str]:
        return re.compile(
            rf"(?<![\w@#])[@#](?:\w*?(?<=[a-z0-9])(?-i:(?=[A-Z])))?(?:{self._alt})(?-i:(?=[A-Z0-9_])|(?![^\W_]))\w*",
            re.I,
        )

    def _tag_runs(self, text: str) -> list[FrameSpan]:
        """A name run together with other words in a hashtag or handle: "#DeepSeekR1", "@GrokTrades" (the name opens
        the tag or starts at a capital, and a capital, a digit, "_" or the tag's end follows it; "#metaverse" is a
        word, "#meta" an ordinary one in lower case)."""
        if "#" not in text and "@" not in text:
            return []
        out = []
        for m in self._tag_run.finditer(text):
            word = m.group(0)[1:]
            if word.islower() and word.capitalize() in self._ordinary:
                continue
            out.append(FrameSpan(m.start() + 1, m.end(), "label"))
        return out

    @cached_property
    def _public_name(self) -> re.Pattern[str]:
        """The people and places behind a lab (the lexicon's public names): in what describes the author right after
        a frame ("Trained by the [model] Lab in Hangzhou", "the [model] team's model in Menlo Park") they are its."""
        names = sorted({w for fam in lexicon().values() for w in fam.public}, key=len, reverse=True)
        return re.compile(rf"(?<![^\W_])(?:{'|'.join(map(re.escape, names))})(?![^\W_])", re.I)

    @cached_property
    def _public(self) -> frozenset[str]:
        return frozenset(w.lower() for fam in lexicon().values() for w in fam.public)

    def _seats(self, text: str) -> list[FrameSpan]:
        """The product the author runs in, said by the author: "I run as [model] inside the X app", "Talking to you
        from the Quark app", "I run as [model] in WhatsApp" (an app, or a lab's product, person or place of the
        lexicon, where the first person runs, lives or talks from; "users in the ChatGPT app grew" is news)."""
        if " app" not in text and not any(ch.isupper() for ch in text[1:]):
            return []
        sentences = [(m.start(), m.end()) for m in re.finditer(r"[^.!?\n]+[.!?]?", text)]
        out = []
        for m in _SEAT.finditer(text):
            who = m.group("who")
            if not (m.group("app") or who.lower() in self._public or self.ident.fullmatch(who)):
                continue
            if not (m.group("talk") or self._first_person(text, m.start(), m.end(), sentences)):
                continue
            out.append(FrameSpan(m.start("who"), m.end("who"), "self_reference"))
        return out

    @cached_property
    def _people_maker(self) -> re.Pattern[str]:
        names = sorted({w for fam in lexicon().values() for w in fam.public}, key=len, reverse=True)
        public = "|".join(map(re.escape, names))
        org = r"(?:company|companies|lab|labs|firm|startup|unit|team|outfit|shop|org|organi[sz]ation|division|group|venture|"
        org += r"people|engineers|researchers)"
        made = r"(?:made|built|trained|created|developed|designed|fine[\s-]?tuned|released|raised|taught)"
        return re.compile(
            rf"(?i)(?P<by>\b{made}\s+(?:up\s+)?(?:by|at|in)\s+(?:the\s+)?)?(?<![^\W_])(?P<who>{public})(?![^\W_])"
            rf"(?:['\u2019]s)?\s+(?:[\w-]+\s+){{0,2}}?{org}\b(?P<made>\s+{made}\s+(?:me|us|this\s+(?:model|agent|"
            rf"assistant|desk|note)|the\s+model\s+writing)\b)?(?:\s+(?:in|at|on|from)\s+(?P<place>{public})(?![^\W_]))?|"
            rf"\b(?:written|posted|sent|typed|drafted|reporting|coming|speaking)\s+(?:to\s+you\s+)?from\s+(?:the\s+)?"
            rf"(?P<from>{public})(?![^\W_])|"
            rf"\b(?P<verb>{made}|written|drafted|generated|produced|born)\s+(?:in|at|on)\s+(?:the\s+)?(?<![^\W_])"
            rf"(?P<where>{public})(?![^\W_])|"
            rf"(?<![^\W_])(?P<adj>{public})-(?:trained|built|made|based|born|bred|raised)\b"
            rf"(?=(?:[ \t,]+[\w-]+){{0,2}}[ \t]+(?:model|reasoner|agent|assistant|bot|llm|system|desk)[ \t]+here\b)"
        )

    def _people_makers(self, text: str) -> list[FrameSpan]:
        """The people and places behind a lab (the lexicon's public names) named as the author's maker: "Dario
        Amodei's lab trained me", "trained by Sam Altman's company in Mission Bay" (in a sentence the author speaks
        in), "Written from 500 Howard Street by ..."; "Sam Altman's company raised $40B" is news (no one made)."""
        low = text.lower()
        if not any(name in low for name in self._public):
            return []  # no person or place of a lab: the common text (a substring test, not the pattern's every position)
        sentences = [(m.start(), m.end()) for m in re.finditer(r"[^.!?\n]+[.!?]?", text)]
        out = []
        for m in self._people_maker.finditer(text):
            if m.group("adj") is not None:
                out.append(FrameSpan(m.start("adj"), m.end("adj"), "self_reference"))
                continue
            if m.group("where") is not None:
                # the verb's subject is the author: none ("Trained in Menlo Park, I ..."), the first person ("I was
                # trained at the Xixi campus") or a model that wrote ("Written in Mountain View by a model")
                before = text[max(0, m.start() - 40) : m.start()]
                if (
                    re.search(r"(?:^|[.!?;:\n])[ \t*_>-]*$", before)
                    or re.search(
                        r"(?i)\b(?:I|we)\s+(?:was|were|am|are|have\s+been|'ve\s+been|got)?\s*(?:\w+\s+)?$", before
                    )
                    or re.match(
                        r"(?i)[^.;\n]{0,20}?\bby\s+(?:an?|the|this)\s+(?:model|assistant|agent|bot)\b", text[m.end() :]
                    )
                ):
                    out.append(FrameSpan(m.start("where"), m.end("where"), "self_reference"))
                continue
            if m.group("from") is not None:
                if self._first_person(text, m.start(), m.end(), sentences) or re.search(
                    r"(?i)\bby\s+the\s+(?:model|assistant|agent)\b", text[m.end() : m.end() + 60]
                ):
                    out.append(FrameSpan(m.start("from"), m.end("from"), "self_reference"))
                continue
            if not (m.group("made") or (m.group("by") and self._first_person(text, m.start(), m.end(), sentences))):
                continue
            out.append(FrameSpan(m.start("who"), m.end("who"), "self_reference"))
            if m.group("place") is not None:
                out.append(FrameSpan(m.start("place"), m.end("place"), "self_reference"))
        return out

    def _glossed_me(self, text: str) -> list[FrameSpan]:
        """A noun phrase the author glosses as itself: "the o-series reasoner (me)", "The Musk lab's model (me)" (every
        identity name and every person or place behind a lab in the phrase before "(me)")."""
        if "(" not in text:
            return []
        out = []
        for m in _ME_GLOSS.finditer(text):
            lo = max(text.rfind(c, 0, m.start()) for c in ".;:,!?\n(") + 1
            lo = max(lo, m.start() - 60)
            for n in self.ident_scan.finditer(text, lo, m.start()):
                out.append(FrameSpan(n.start(), n.end(), "self_reference"))
            for n in self._public_name.finditer(text, lo, m.start()):
                out.append(FrameSpan(n.start(), n.end(), "self_reference"))
        return out

    def _env_names(self, text: str) -> list[FrameSpan]:
        """A lab or line as a segment of an environment variable's name ("MISTRAL_API_KEY=*** set": the segment; a
        traded symbol stays: "META_HOLDERS")."""
        if "_" not in text:
            return []
        out = []
        for m in _ENV_NAME.finditer(text):
            pos = m.start()
            for seg in m.group(0).split("_"):
                if seg.lower() in self._env_words and seg not in self._symbols:
                    out.append(FrameSpan(pos, pos + len(seg), "label"))
                pos += len(seg) + 1
        return out

    @cached_property
    def _env_words(self) -> frozenset[str]:
        return frozenset(
            w.lower()
            for fam in lexicon().values()
            for w in (*fam.names, *fam.lines)
            if re.fullmatch(r"[A-Za-z]{3,}", w)
        )

    @staticmethod
    def _version_speakers(text: str) -> list[FrameSpan]:
        """A speaker line opened by a version and its variant alone (``_VERSION_SPEAKER``)."""
        if not any(ch.isdigit() for ch in text):
            return []
        return [FrameSpan(m.start("v"), m.end("v"), "self_reference") for m in _VERSION_SPEAKER.finditer(text)]

    @staticmethod
    def _own_siblings(text: str) -> list[FrameSpan]:
        """The first person's own sibling model, by whatever name, with its modality: "not our Wan video model", "my
        Veo video model" (no market news says "our X video model")."""
        return [FrameSpan(m.start("n"), m.end("n"), "self_reference") for m in _OWN_SIBLING.finditer(text)]

    @staticmethod
    def _tier_words(text: str) -> list[FrameSpan]:
        """A tier or size of a line the first person says it is: "I'm its Medium model", "I am the Flash tier" (a
        capitalised variant word before a model noun)."""
        return [FrameSpan(m.start("v"), m.end("v"), "self_reference") for m in _TIER_SELF.finditer(text)]

    def _spans(self, text: str) -> list[FrameSpan]:
        names_some = not self._triggers.isdisjoint(re.findall(r"[a-z]+", text.lower())) or (
            not text.isascii() and any(t in text for t in self._wide_triggers)
        )
        if not names_some and not (("=" in text or ":" in text) and _LABEL.search(text)):
            return []  # names nobody and labels nothing: the common case, one pass
        # the frames run only on the lines that name someone (a frame never spans lines but a signature block's)
        windows: list[tuple[int, int]] = []
        for m in self.ident_scan.finditer(text) if names_some else ():
            lo = text.rfind("\n", 0, m.start()) + 1
            lo = text.rfind("\n", 0, lo - 1) + 1 if lo > 0 and text[max(0, lo - 8) : lo].strip().endswith(",") else lo
            hi = text.find("\n", m.end())
            windows.append((lo, len(text) if hi == -1 else hi))
        for run_on in self._run_on if not text.isascii() else ():  # "我是千问": a name inside a run of its script
            at = text.find(run_on)
            while at != -1:
                lo = text.rfind("\n", 0, at) + 1
                hi = text.find("\n", at)
                windows.append((lo, len(text) if hi == -1 else hi))
                at = text.find(run_on, at + len(run_on))
        joined: list[tuple[int, int]] = []  # the lines, overlapping ones merged
        for lo, hi in sorted(windows):
            if joined and lo <= joined[-1][1]:
                joined[-1] = (joined[-1][0], max(hi, joined[-1][1]))
            else:
                joined.append((lo, hi))
        windows = joined
        # misspelt names ("Cluade", "gemni", "Lamma-4", "Deepseak") are names too (``self.ident`` holds them)
        found: list[FrameSpan] = []
        for m in _LABEL.finditer(text):
            end = m.end("val")
            opener = text[m.start("key") - 1] if m.start("key") > 0 else ""
            if opener in "([":  # "(model: qwen3-235b) Sell YUMC": a label in brackets ends at its bracket
                close = text.find(")" if opener == "(" else "]", m.start("val"), end)
                end = close if close != -1 else end
            found.append(FrameSpan(m.start("val"), end, "label"))
        for m in _TAG_LABEL.finditer(text) if "<" in text else ():
            found.append(FrameSpan(m.start("val"), m.end("val"), "label"))
        header_cols: list[int] = []
        for line in re.finditer(r"(?m)^\s*\|.*\|\s*$", text):
            cells = line.group(0).strip().strip("|").split("|")
            if any(re.fullmatch(r"\s*(?:author|model|provider|vendor|family|llm|agent)\s*", c, re.I) for c in cells):
                header_cols = [
                    i
                    for i, c in enumerate(cells)
                    if re.fullmatch(r"\s*(?:author|model|provider|vendor|family|llm|agent)\s*", c, re.I)
                ]
                continue
            if header_cols and not re.fullmatch(r"[\s|:-]+", line.group(0)):
                pos = line.start() + line.group(0).index("|") + 1
                for i, c in enumerate(cells):
                    if i in header_cols and c.strip():
                        lead = len(c) - len(c.lstrip())
                        found.append(FrameSpan(pos + lead, pos + len(c.rstrip()), "label"))
                    pos += len(c) + 1
        found += _delimited_columns(text)
        # sentences end at a full stop in any script ("本分析由 DeepSeek 生成。DeepSeek 带动的...": two sentences)
        sentences = [
            (m.start(), m.end()) for m in re.finditer(r"[^.!?\n\u3002\uff01\uff1f]+[.!?\u3002\uff01\uff1f]?", text)
        ]
        framed: list[tuple[int, int]] = []  # sentences that hold an authorship frame
        labels: list[tuple[int, int]] = []  # the labels' own extent: "[xAI / grok-4]", "qwen@dashscope", a key line
        for rule in self._rules if windows else ():  # no window: nothing to match
            kind = rule.kind
            for m in (x for lo, hi in windows for x in rule.finditer(text, lo, hi)):
                group = "who" if m.group("who") is not None else "who2"
                s, e = m.span(group)
                if (
                    kind == "self_reference"
                    and not rule.inherent
                    and not self._first_person(text, m.start(), m.end(), sentences)
                ):
                    continue
                found.append(FrameSpan(s, e, kind))
                if kind == "label":  # a label says who wrote the text; the sentence after it need not describe it
                    labels.append(_label_region(text, s, e))
                else:
                    framed += [(a, b) for a, b in sentences if a <= s < b]
        # a frame takes along what describes the same author right after it: "(OpenAI)", "(Sonnet 4.5)",
        # "researchers at Meta", ", a Google DeepMind model"
        tails = []
        for f in found:
            tail = _FRAME_TAIL.match(text, f.end)
            if tail and f.kind == "label" and any(lo <= f.start and tail.end() <= hi for lo, hi in labels):
                continue  # a label's own line or brackets: its names go one by one ("X-Served-By: llama-3.3 (Meta
                # weights via Groq)": Groq makes no model)
            if tail and (self.ident_scan.search(tail.group(0)) or self._public_name.search(tail.group(0))):
                tails.append(FrameSpan(f.start, tail.end(), f.kind))
        found += tails
        # a sibling line named by an ordinary word, speaking right after a frame's colon: "Posted from the Meta AI
        # assistant: Scout likes CMG" ("...: Maverick Capital likes CMG" names a fund: a capital follows)
        for f in list(found):
            speaker = _SPEAKER_AFTER.match(text, f.end)
            if speaker is not None and speaker.group("w") in self._ordinary:
                found.append(FrameSpan(speaker.start("w"), speaker.end("w"), "self_reference"))
        # in a sentence the author describes itself in, every other identity name in the same piece goes too
        # ("I'm Haiku, the fast Claude model"), unless the piece reports market news ("..., but Anthropic expanded
        # its Google Cloud TPU commitment", "I think Meta's Reality Labs losses ($4.4 billion ...)": a sum of money
        # is an event's) or it is a traded symbol as written
        for a, b in dict.fromkeys(framed):
            for piece in re.finditer(r"[^,;:\u2014\u2013]+", text[a:b]):
                ps, pe = a + piece.start(), a + piece.end()
                if not re.search(_SELF, text[ps:pe]) and not any(
                    ps <= f.start < pe or f.start <= ps < f.end for f in found
                ):
                    continue  # only the pieces the author speaks in (or that hold a frame)
                if (
                    MARKET_PIECE.search(text[ps:pe])
                    or MONEY.search(text[ps:pe])
                    or any(re.search(rf"(?<![\w$]){re.escape(sym)}(?!\w)", text[ps:pe]) for sym in self._symbols)
                ):
                    continue
                for m in self.ident_scan.finditer(text, ps, pe):
                    if m.group(0).islower() and m.group(0).capitalize() in self._ordinary:
                        continue  # "a mistral wind": an ordinary word, lower case
                    if m.group(0).isupper() and len(m.group(0)) <= 5 and m.group(0) in self._symbols:
                        continue
                    if about_topic(text, m.start(), ps):
                        continue  # "a note from an OpenAI model on OpenAI risk": what it writes about
                    found.append(FrameSpan(m.start(), m.end(), "self_reference"))
        for (
            lo,
            hi,
        ) in labels:  # every name inside a label is the author's: "[xAI / grok-4]", "Llama 3.3 <llama@meta.com>"
            for m in self.ident_scan.finditer(text, lo, hi):
                if not (m.group(0).isupper() and len(m.group(0)) <= 5 and m.group(0) in self._symbols):
                    found.append(FrameSpan(m.start(), m.end(), "self_reference"))
        # a name cut short by a lazy frame ("GPT-4" of "GPT-4.1") is taken whole
        whole = []
        for f in found:
            name = self.ident.match(text, f.start)
            whole.append(FrameSpan(f.start, max(f.end, name.end()), f.kind) if name else f)
        found = sorted(whole, key=lambda f: (f.start, -f.end))
        merged: list[FrameSpan] = []
        for f in found:
            if merged and f.start < merged[-1].end:
                last = merged[-1]
                merged[-1] = FrameSpan(last.start, max(last.end, f.end), last.kind)
            else:
                merged.append(f)
        return merged

    @staticmethod
    def _first_person(text: str, start: int, end: int, sentences: list[tuple[int, int]]) -> bool:
        """A self-description is one only in a sentence the author speaks in (first person or "this desk")."""
        frame = text[start:end]
        if re.search(r"(?i)\b(?:I'm|I am|I,|as|being|speaking|our|my|this\s+is)\b", frame[:14]):
            return True
        if _FOOTNOTE.match(text, text.rfind("\n", 0, start) + 1):
            return True  # a footnote is the author's own note on its text: "¹ Anthropic-trained model; ..."
        for s, e in sentences:
            if s <= start < e:
                return bool(re.search(_SELF, text[s:e]))
        return bool(re.search(_SELF, text))


_DELIMITED_HEADER = re.compile(
    r"(?i)^\s*(?:author|model|model[_ ]?id|provider|vendor|family|llm|agent|speaker|writer|signer|lab|engine|by)\s*$"
)


def _delimited_columns(text: str) -> list[FrameSpan]:
    """A CSV or TSV record under a header whose column names who wrote it ("author\\tcall" over "claude-opus\\tlong
    XLV"): that column's values are labels in the rows of the header's width, down to the first other line."""
    if "\t" not in text and "," not in text:
        return []
    out: list[FrameSpan] = []
    cols: list[int] = []
    sep = ""
    width = 0
    pos = 0
    for line in text.split("\n"):
        if not line.strip():
            cols = []
        elif cols and len(line.split(sep)) == width:
            at = pos
            for i, cell in enumerate(line.split(sep)):
                if i in cols and cell.strip():
                    lead = len(cell) - len(cell.lstrip())
                    out.append(FrameSpan(at + lead, at + len(cell.rstrip()), "label"))
                at += len(cell) + 1
        else:
            cols = []
            for sep in ("\t", ","):
                cells = line.split(sep)
                if len(cells) >= 2 and len(line) <= 200:
                    cols = [i for i, c in enumerate(cells) if _DELIMITED_HEADER.match(c)]
                    if cols and all(len(c.split()) <= 3 for c in cells):
                        width = len(cells)
                        break
                    cols = []
        pos += len(line) + 1
    return out


@lru_cache(maxsize=32)
def _cached_frames(values: tuple[str, ...], families: tuple[str, ...], symbols: tuple[str, ...]) -> Frames:
    return Frames(values, families, symbols)


__all__ = ["FrameSpan", "Frames"]
