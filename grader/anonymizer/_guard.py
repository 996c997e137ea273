"""The leak guard: a second, simpler and stricter check of what a judge will read, independent of the scrubber.

The scrubber (``_anonymizer.py`` with ``_detector.py`` and ``_patterns.py``) decides what to replace; a guard that shared its detector
could never find what the scrubber missed. This one shares nothing with it: it reads the identity lexicon
(``identity_lexicon.yaml``, data) and a handful of authorship frames, and flags

- **a label or key** naming a lab or model line ("model: qwen-max", ``"provider": "DeepSeek"``, "vendor = xAI",
  "family: llama", "author: ...");
- **an authorship frame**: first person or "this desk / portfolio / agent / model / rationale" together with made /
  built / trained / created / powered by / runs on / speaking as or for / "as X's model" / "I'm X" / "our X desk" /
  "X-built, I" and an identity name in the same sentence;
- **a signature or sign-off**: "— DeepSeek" at the end of a line, "Signed, Claude", "Grok here:", "Maverick
  signing off", "tongyi view:";
- **the author's own model line** (its family's lines and the words of its model id) outside a market clause (a
  sentence that names a traded symbol or a market event: launch, release, revenue, capex, deal, shares, ...).
- **a model named by structure alone**, read over the whole text: a version with its variant and no product before
  it ("2.5 Pro", "5-mini", "3.3-70B"), a name in a lower-case path, the first person plural by a model line ("We
  Groks"), the first person before a name in a script without spaces ("我们通义千问"), "由 X 生成", and a caveat on the
  author's own model line ("GPT-5 mini can't see intraday prices", whatever market word follows).

A hit refuses the prompt (the run leaves a stated gap); it never rewrites anything. Placeholders the scrubber
writes ("[model]", "[provider]", "[self-reference]", "Contestant C") are not identities.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path

import yaml

_LEXICON = Path(__file__).with_name("identity_lexicon.yaml")


@dataclass(frozen=True)
class Family:
    name: str
    names: tuple[str, ...]
    lines: tuple[str, ...]
    ordinary: frozenset[str]
    public: frozenset[str] = frozenset()


@cache
def lexicon() -> dict[str, Family]:
    """family -> its names and model lines (``identity_lexicon.yaml``)."""
    doc = yaml.safe_load(_LEXICON.read_text(encoding="utf-8")) or {}
    return {
        k: Family(
            k,
            tuple(map(str, v.get("names", []))),
            tuple(map(str, v.get("lines", []))),
            frozenset(map(str, v.get("ordinary", []))),
            frozenset(map(str, v.get("public", []))),
        )
        for k, v in doc.items()
    }


def _alt(words: Iterable[str]) -> str:
    parts = sorted({w for w in words if w}, key=len, reverse=True)
    return "|".join(r"[\s\-_.]?".join(re.escape(p) for p in re.split(r"[\s\-_.]+", w)) for w in parts)


_GENERIC_MODEL_WORDS = frozenset(
    """fast coder code large medium small mini nano pro max plus turbo flash lite ultra
instruct chat latest thinking heavy reasoner reasoning preview exp experimental base vision omni deep research it hf
open weights model""".split()
)
_B = r"(?<![^\W_])"
_E = r"(?![^\W_])"
_SELF = (
    r"(?:\bI\b|\bI'm\b|\bI am\b|\bI've\b|\bme\b|\bmy\b|\bwe\b|\bwe're\b|\bour\b|(?-i:\bus\b|\bUs\b)|"
    r"\bthe\s+author\b|\byours\s+truly\b|\bwriting\s+this\b|\bthat's\s+me\b|"
    r"\bthis\s+(?:desk|portfolio|agent|model|rationale|analysis|system|assistant|trader|bot|note|decision)\b)"
)
_MADE = (
    r"(?:made|built|trained|created|developed|designed|released|fine[\s-]?tuned|powered|brought\s+to\s+you|"
    r"generated|written|produced|authored|backed|reasoned(?:\s+out)?|worked\s+out|thought\s+through|put\s+together|"
    r"crafted|assembled|computed)\s+(?:in\s+\w+\s+)?by|runs?\s+on|running\s+on|based\s+on|"
    r"speaking\s+(?:as|for)|on\s+behalf\s+of|from\s+the\s+\w+\s+of"
)
_SELF_NOUN = r"(?:model|agent|assistant|system|desk|team|trader|bot|lab|weights|creators?|makers?|developers?|training)"
_LABEL_KEYS = (
    r"(?:model|model[_\s]?id|provider|vendor|family|author|lab|engine|llm|agent|built[_\s]by|made[_\s]by|signed)"
)
_MARKET_EVENT = re.compile(
    r"(?i)\b(?:launch\w*|releas\w*|added|adds|offers?|offering|hosts?|hosting|hosted|integrat\w*|deal|partner\w*|"
    r"pric\w+|price\s+cut|users|downloads|ship\w*|rolled\s+out|licen[cs]e|lists|listed|tie-up|outage|lawsuit|ban\w*|"
    r"funding|raised|valuation|revenue|run-rate|capex|gpus?|chips|cluster|training|undercut|demo|usage|benchmarks?|"
    r"app|api|tiers?|default|powers?|powering|voice|delay\w*|flopped|poached|accusation|bought|buying|sells?|sold|"
    r"relies|customer\w*|adoption|subscribers|seats?|growth|lifted|knocked|cost|rall\w*|tumbl\w*|jump\w*|"
    r"orders?|contract\w*|stake|invest\w*|round|buildout|data\s+center|sales|glasses|available|bring|models|"
    r"distribution|refresh|tuned|topped|cuts?|fell|rose|holders|burn|coding|tie|exposed|exposure|positions?|"
    r"holdings?|raise|shock|selloff|sell-off|drawdown|exchange|ipo\w*|listing|series|stake|monetiz\w*|"
    r"(?:was|were|went|is|are)\s+down)\b"
)
_BARE_VERSION = re.compile(
    r"(?<![\w$.,/\-])(?:[1-9]\d?(?:\.\d{1,2})?[ \-](?:Pro|Flash(?:-Lite)?|Ultra|"
    r"Sonnet|Opus|Haiku|Maverick|Scout)|[1-9]\d?(?:\.\d{1,2})?-(?:mini|nano|turbo|fast)|[1-9]\d?\.\d{1,2}-\d{1,3}[bB]|"
    r"[1-9]\d{1,2}[bB]-[aA]\d{1,2}[bB]|"
    r"[1-9]\d{0,3}B(?=[ \t]+(?:open[ \t-]+(?:weights?[ \t]+)?)?(?:MoE|model|checkpoint|dense|instruct|base[ \t]+model)\b)|"
    r"[1-9]\d{0,2}B[ \t]+active(?![ \t]+(?:users|accounts|subscribers|devices|customers))|"
    r"V[1-9]\.\d-(?:Terminus|Exp|Base|Chat|Instruct)(?=[ \t]+(?:build|checkpoint|weights|here)\b))(?![\w])"
)
"""A model's version and variant written alone, where no product name stands before it ("2.5 Pro", "4.5 Sonnet",
"5-mini", "4-fast", "3.3-70B", "235B-A22B", "671B MoE", "37B active", "V3.1-Terminus build"): a model named by its
number; "iPhone 17 Pro", "Galaxy S25 Ultra" have their
product before them (:func:`_product_before`)."""
_FUNCTION_WORDS = frozenset(
    """a an the as on of by from with to at in into for and or but that this its my our your their is was are were
be being been running run using via than like calibrated trained tuned built made same""".split()
)
"""Words that name no product: the version after them stands alone ("calibrated on 5-mini's own backtests", "As the
3.3-70B instruct build")."""


_VARIANT_OF_SCRUBBED = re.compile(
    r"(?i)\b(?:nano|mini|turbo|flash|lite|pro|fast|large|small|medium|max|plus)\s+(?:variant|version|edition|"
    r"flavou?r|build)\s+of\s+(?:the\s+)?\[(?:model|self-reference)\]"
)
"""A variant word left before a scrubbed model ("the nano variant of [model]"): it still says which model wrote."""


_SCRUBBED_TAIL = re.compile(
    r"(?i)\u2060\s*(?:['\u2019]s\s+)?(?:large|medium|small|mini|nano|pro|max|plus|turbo|flash|lite|ultra|heavy)"
    r"[\s\-]?v?\d{1,2}(?:\.\d{1,2})?(?![\w.%])"
)
"""A variant and version left right after what the scrubber replaced ("@[undisclosed] Large 2 here", "[model]'s Pro
2.5"): they still say which model wrote."""


def _product_before(text: str, start: int) -> bool:
    """Whether a product may stand right before the version at ``start`` ("iPhone 17 Pro", "Google's 2.5 Pro", "the
    new 17 Pro"): any word right before it but a function word."""
    m = re.search(r"([\w'\u2019]+)[ \t]+$", text[max(0, start - 40) : start])
    return m is not None and m.group(1).lower() not in _FUNCTION_WORDS


_LIMIT_AFTER = re.compile(
    r"(?i)(?:[\s\-][\w.\-]+){0,2}?\s+(?:can't|can\u2019t|cannot|can\s+not|couldn't|doesn't|doesn\u2019t|does\s+not|"
    r"(?:has\s+no|lacks)\s+(?:access|data|visibility|live|real-time|intraday|memory|knowledge)|tends?\s+to|is\s+(?:not\s+able|unable|prone|biased)|only\s+sees|may\s+be\s+wrong|"
    r"has\s+(?:a\s+)?(?:known\s+)?(?:bias|tendency|cutoff|blind\s+spot)|"
    r"(?:can|may|might|could|will|sometimes|often|occasionally)\s+(?:\w+\s+)?(?:hallucinat\w*|"
    r"be\s+(?:wrong|inaccurate|mistaken|outdated|incorrect|unreliable)|make\s+mistakes|"
    r"contain\s+(?:errors|mistakes|inaccuracies)|err))\b"
)
"""What a caveat says of the author's own model: "GPT-5 mini can't see intraday prices", "2.5 Pro tends to
over-weight ...", "Grok has a known bias to momentum", "R1 has no intraday data", and a disclaimer's "DeepSeek models
can hallucinate figures", "outputs from Meta AI may be inaccurate" (a market word after it is no market news;
"DeepSeek has no plans to raise" is)."""
_PLACEHOLDER = re.compile(r"\[(?:model|provider|self-reference|[a-z -]+)\]|Contestant\s+[A-Z]{1,3}\b")


class LeakGuard:
    """Finds identity left in a text a judge will read (``find``); independent of the scrubber."""

    def __init__(self, author_family: str | None, author_model: str | None, symbols: Iterable[str] = ()):
        lex = lexicon()
        fam = lex.get((author_family or "").lower())
        every = [w for f in lex.values() for w in (*f.names, *f.lines)]
        if author_family and fam is None:
            every.append(author_family)
        self._ident = re.compile(rf"{_B}(?:{_alt(every)}){_E}", re.I)
        own = list(fam.lines) if fam else []
        ordinary = fam.ordinary if fam else frozenset()
        model_words = [
            w
            for w in re.split(r"[\s\-_./:]+", author_model or "")
            if len(w) >= 3 and not w.isdigit() and w.lower() not in _GENERIC_MODEL_WORDS
        ]
        own_any = [w for w in own if w not in ordinary] + [
            w for w in model_words if w.lower() not in {x.lower() for x in ordinary}
        ]
        self._own_any = re.compile(rf"{_B}(?:{_alt(own_any)}){_E}", re.I) if own_any else None
        ordinary_lines = [w for w in ordinary if w in own]  # "Maverick", not the lab's name "Meta"
        self._own_cap = re.compile(rf"{_B}(?-i:{_alt(ordinary_lines)}){_E}") if ordinary_lines else None
        self._symbols = re.compile(rf"{_B}(?:{_alt(symbols)}){_E}") if symbols else None
        ident = rf"(?:{self._ident.pattern})"
        self._ordinary_exact = frozenset(w for f in lex.values() for w in f.ordinary)
        self._ordinary_low = frozenset(w.lower() for w in self._ordinary_exact)
        self._canon = {
            w.lower(): w
            for f in lex.values()
            for w in (*f.names, *f.lines)
            if len(w) >= 4 and re.fullmatch(r"[A-Za-z]+", w)
        }
        self._by_initial: dict[str, list[tuple[str, str]]] = {}
        for key, canon in self._canon.items():
            self._by_initial.setdefault(key[0], []).append((key, canon))
        self._seen: dict[str, str] = {}  # word -> as the guard reads it (remembered)
        self._joined = {
            re.sub(r"[^a-z]", "", w.lower()): w
            for f in lex.values()
            for w in (*f.names, *f.lines)
            if len(re.sub(r"[^a-z]", "", w.lower())) >= 4
        }
        # every name by its letters alone, for a name broken by emphasis or a line break ("*Lla*ma", "Deep-\nSeek")
        self._whole = {
            re.sub(r"[\W_]+", "", w.lower()): w for f in lex.values() for w in (*f.names, *f.lines) if len(w) >= 2
        }
        public = fam.public if fam else frozenset()
        family_words = [w for w in ((*fam.names, *fam.lines) if fam else ()) if w not in ordinary and w not in public]
        family_words += [w for w in model_words if w.lower() not in {x.lower() for x in ordinary}]
        if author_family and fam is None:
            family_words.append(author_family)
        self._family = re.compile(rf"{_B}(?:{_alt(family_words)}){_E}", re.I) if family_words else None
        quiet = ordinary | public  # ordinary words and listed companies: only next to a placeholder
        self._family_quiet = re.compile(rf"{_B}(?:{_alt(quiet)}){_E}", re.I) if quiet else None
        self._symbol_set = frozenset(symbols)
        # the first person plural named by a model line in the plural ("We Groks", "us llamas"): no name's boundary
        # holds there, so it is read over the whole text, not in the lines that name someone
        self._we_plural = re.compile(rf"(?i)\b(?:we|us)\s+(?:{_alt(every)})e?s\b")
        # a name run together with other words in a hashtag or handle ("#DeepSeekR1", "@GrokTrades"): it opens the
        # tag or starts at a capital, and a capital, a digit, "_" or the tag's end follows it ("#metaverse" is a word)
        self._tag_compound = re.compile(
            rf"(?<![\w@#])[@#](?:\w*?(?<=[a-z0-9])(?-i:(?=[A-Z])))?(?:{_alt(every)})(?-i:(?=[A-Z0-9_])|(?![^\W_]))",
            re.I,
        )
        # compiled when a text first has a line that names someone (``_frames``; a scrubbed prompt seldom has one)
        self._frame_sources: list[tuple[str, str]] = [
            ("tag", rf"(?im)(?:^|[.!?]\s+)\s*[\[<][^\]>\n]{{0,40}}?{ident}|[@#]\w*{ident}"),
            (
                "key",
                (
                    rf"(?i)\b(?:route|agent|author|model|provider|vendor|family|lab|engine|llm|tier|source|"
                    rf"generated[_-]?by|created[_-]?by|signed[_-]?by|output)\s*(?:[:=]|=\s*[\"'])\s*[\"'{{]?[^\n|;,}}\"']{{0,40}}?{ident}"
                ),
            ),
            ("key", rf"(?i)\\author\s*\{{[^}}]{{0,60}}?{ident}|<!--[^>]{{0,80}}?{ident}"),
            (
                "speaker",
                (
                    rf"(?im)(?:^|[.!?]\s+|[\u2014\u2013]\s*)[^\w\n]{{0,4}}(?:the\s+)?{ident}(?:[\s\-/][\w.\-/]+){{0,1}}?"
                    rf"(?:\s*\([^)]{{0,40}}\))?\s*(?:here|speaking|signing|reporting|suggests?|thinks?|"
                    rf"recommends?|says|calls?|notes?|view|take|call|verdict|output|trace|reasoning|"
                    rf"analysis|desk|→|->|:|\|)"
                ),
            ),
            (
                "speaker",  # a variant of a line, or a handle's own model, opening a line: "Turbo tier of Qwen here:"
                (
                    rf"(?im)^[^\w\n]{{0,4}}(?:(?:the|a)\s+)?[\w.\-]+\s+(?:tier|build|variant|version|edition|"
                    rf"flavou?r|release|checkpoint|size)\s+of\s+(?:the\s+)?{ident}[\w.\-]*\s+here\b|"
                    rf"^[^\w\n]{{0,4}}[@#]\w*{ident}\w*['\u2019]s(?:\s+[\w.\-]+){{1,3}}?\s+here\b"
                ),
            ),
            (
                "speaker",
                (
                    rf"(?i)(?:\b(?:written|submitted|generated|produced|authored|posted|sent|output|"
                    rf"reminder|verdict|note|message|report|analysis|disclosure|rédigée?|écrit|verfasst)"
                    rf"\s+(?:from|of|by|par|von|por)|作者)\s*[:：]?\s*(?:the\s+)?{ident}(?:[\s\-/][\w.\-/]+){{0,4}}?"
                    rf"\s*(?:\([^)]{{0,40}}\))?\s*(?::|：|\)|,\s*(?:an?|the)\s|\s*$|\s*[\u2014\u2013])"
                ),
            ),
            (
                "speaker",
                (
                    rf"(?i)\b(?:the|our|my|this)\s+{ident}(?:[\s\-][\w.\-]+){{0,2}}?\s+"
                    rf"(?:desk|team|bot|agent|assistant|trading|model|system|trader)\b"
                ),
            ),
            (
                "label",
                (rf"(?im)(?:^|[|;,{{(\[]\s*|\s)[\"']?{_LABEL_KEYS}[\"']?\s*[:=]\s*[\"']?[^\n|;,}}\"']{{0,40}}?{ident}"),
            ),
            ("authorship", rf"(?i){_SELF}[^.;:\n]{{0,60}}?\b(?:{_MADE})\b[^.;:\n]{{0,40}}?{ident}"),
            ("authorship", rf"(?i)\b(?:{_MADE})\b[^.;:\n]{{0,40}}?{ident}[^.;\n]{{0,60}}?{_SELF}"),
            (
                "authorship",
                (
                    rf"(?i)\b(?:I'm|I am|I,|as|being|speaking\s+as|speaking\s+for)\s+(?:an?\s+|the\s+|your\s+)?"
                    rf"(?:[\w-]+\s+){{0,2}}?{ident}(?:'s)?(?:[\s-]+[\w.-]+){{0,3}}?\s+{_SELF_NOUN}\b"
                ),
            ),
            ("authorship", rf"(?i)\b(?:I'm|I am|I,)\s+(?:not\s+)?(?:an?\s+|the\s+)?{ident}"),
            # the author's maker said as what it is: "my maker, Meta, now spends", "my creator is Meta Platforms"
            (
                "authorship",
                rf"(?i)\b(?:my|our)\s+(?:creator|maker|developer|parent|builder|trainer|owner|vendor|provider)s?"
                rf"(?:\s+company)?\s*(?:,|:|=|\bis\b|\bare\b|\bwas\b|\bwere\b)\s*(?:the\s+|still\s+)?{ident}",
            ),
            # the first person as a relation of a named model: "I'm its predecessor, R1"
            (
                "authorship",
                rf"(?i)\b(?:I'm|I\s+am)\s+(?:its|their|the|a|an)\s+(?:[\w-]+\s+){{0,2}}?(?:predecessor|successor|"
                rf"sibling|ancestor|descendant|cousin|twin|sister|brother|version|release|generation|build)\s*"
                rf"[,(:\u2014\u2013]\s*{ident}",
            ),
            # the first person's own words in quotes, opened by its name: 'I said "Claude, Sonnet tier,"'
            (
                "authorship",
                rf"(?i)\b(?:I|we)\s+(?:said|say|told\s+[\w\s-]{{1,24}}?|answered|replied|wrote|explained)\s*[,:]?\s*"
                rf"(?:that\s+)?[\"\u201c\u2018'\u00ab\u300c]\s*(?:(?:I'm|I\s+am|je\s+suis|this\s+is|it's)\s+)?"
                rf"(?:an?\s+|the\s+)?{ident}|\bj['\u2019]ai\s+(?:dit|répondu|écrit)\s*[\"\u00ab\u201c]\s*"
                rf"(?:je\s+suis\s+)?{ident}",
            ),
            # a question the text asks of itself about a name: "Am I a Llama?", "Who is writing? Not Opus"
            (
                "authorship",
                rf"(?i)\bam\s+I\s+(?:an?\s+|the\s+)?{ident}[^?\n]{{0,20}}\?|\bwho(?:'s|\s+is)\s+(?:writing|"
                rf"speaking|talking|this|here|typing)\s*\?\s*(?:(?:not|it's|I'm|this\s+is)\s+)?(?:an?\s+|the\s+)?{ident}",
            ),
            # a header line naming a lab or model: "User-Agent: claude-cli (anthropic-sdk)", "X-Org: openai",
            # "Co-authored-by: ... <noreply@openai.com>", "From: desk <grok@api.x.ai>"
            (
                "key",
                rf"(?im)^[ \t]*(?:x-[\w-]+|user-agent|server|via|served-by|co-authored-by|signed-off-by|reviewed-by|"
                rf"authored-by|helped-by|assisted-by|generated-by|on-behalf-of|committer)[ \t]*:[^\n]*?{ident}|"
                rf"^[ \t]*(?:from|reply-to|sender|return-path|to)[ \t]*:(?=[^\n]*@)[^\n]*?{ident}",
            ),
            # a footnote citing a model by its lab: "[^1]: Anthropic (2025). *Claude Sonnet 4.5*"
            ("key", rf"(?im)^[ \t]*\[\^?[\w-]{{1,10}}\]:?[ \t]*{ident}[^\n(]{{0,30}}\((?:19|20)\d\d"),
            # a speaker line made of where the author was made: "Hangzhou-built, High-Flyer-funded reasoner here"
            (
                "speaker",
                rf"(?im)^[^\w\n]{{0,4}}(?:[\w.-]+-(?:built|made|trained|funded|backed|born|bred|based|grown|tuned)"
                rf"[\s,]*){{0,2}}{ident}-(?:built|made|trained|funded|backed|born|bred|based|grown|tuned)\b[^\n]{{0,60}}?"
                rf"\bhere\b",
            ),
            # a header saying which unit of a lab the text comes from: "From the Strawberry line at OAI:"
            (
                "authorship",
                rf"(?im)(?:^|[.!?]\s+)\s*from\s+(?:the\s+)?(?:[\w.-]+\s+){{0,2}}?(?:line|family|series|lab|labs|team|desk|"
                rf"group|unit|division|org)\s+(?:at|of|in)\s+(?:the\s+)?{ident}\s*:",
            ),
            # who wrote the text, as the model a lab ships: "Written from SF by the model Anthropic ships as Sonnet"
            (
                "authorship",
                rf"(?i)\b(?:written|drafted|generated|produced|composed|authored|prepared|typed|sent)\b[^.;\n]{{0,40}}?"
                rf"\bby\s+the\s+(?:model|assistant|agent|bot|llm|system)\b[^.;\n]{{0,20}}?{ident}",
            ),
            # where the weights come from, the lab first, in a fragment: "*Alibaba Cloud* weights."
            (
                "authorship",
                rf"(?im)(?:^|[.!?;]\s+)\s*[*_]*{ident}[*_]*\s+(?:open\s+)?(?:weights|checkpoint|base\s+model)\s*(?:[.;]|$)",
            ),
            (
                "authorship",  # "as a model of X" in other languages: "Als Sprachmodell von OpenAI", "sono un modello X"
                (
                    rf"(?i)\b(?:als|como|comme|en\s+tant\s+que|come|in\s+qualit[àa]\s+di|ich\s+bin|je\s+suis|soy|sono|"
                    rf"sou|siendo|essendo|[ée]tant)\s+(?:(?:un|une|ein|eine|einem|el|la|il|lo|o|a|uno|una)\s+)?"
                    rf"[\w-]*(?:modell|mod[eè]le|modelo|modello|assistent|asistente)\w*\s+(?:[\w-]+\s+){{0,3}}?{ident}"
                ),
            ),
            (
                "authorship",  # a footnote on how the text was made: "[1] Sizing produced by gpt-5 under ..."
                (
                    rf"(?im)^[ \t]*(?:\[\d{{1,2}}\]|\(\d{{1,2}}\)|[\u00b9\u00b2\u00b3\u2070-\u2079]+|\u2020)"
                    rf"[^\n]{{0,60}}?\b(?:{_MADE})\b[^.;\n]{{0,40}}?{ident}"
                ),
            ),
            (
                "authorship",  # the text heads itself as one of a lab's models': "A meta point from a Meta model:"
                rf"(?im)\bfrom\s+(?:an?|one)\s+{ident}(?:[\s-][\w.-]+){{0,2}}?[\s-]+(?:model|agent|assistant|llm|bot)\s*(?::|\)|$)",
            ),
            (
                "authorship",  # the author glossed by a name: "The author, a Grok-tuned model,", "yours truly (Claude)"
                rf"(?i)\b(?:the\s+(?:author|writer)|this\s+(?:author|writer)|yours\s+truly)\s*[,(]\s*(?:an?\s+|the\s+)?{ident}",
            ),
            (
                "authorship",  # a licence the text is given under: "Signed under the Llama Community License, this ..."
                rf"(?i)\bunder\s+the\s+{ident}[\s\-]+(?:[\w-]+\s+)?licen[cs]e\b[^.;\n]{{0,60}}?{_SELF}",
            ),
            (
                "authorship",  # the lab's policy said to apply to the text: "Meta's acceptable-use policy applies."
                (
                    rf"(?i){ident}['\u2019]s\s+(?:acceptable[\s-]use|usage|use|community|content)\s+(?:policy|policies|"
                    rf"licen[cs]e|terms)\s+(?:applies|apply)(?:\s+(?:here|to\s+(?:this|me|my)\b[^.;\n]{{0,20}}))?\s*(?:[.;:]|$)"
                ),
            ),
            (
                "authorship",  # "Alibaba Group is the parent of the model writing this note"
                (
                    rf"(?i){ident}(?:\s+(?:Group|Inc\.?|Corp\.?|Cloud|Labs?|Research))?\s+(?:is|was)\s+(?:the\s+)?"
                    rf"(?:parent|maker|developer|creator|builder|trainer|owner|lab|company|team)(?:\s+company)?\s+"
                    rf"(?:of|behind)\s+(?:me\b|this\s+(?:model|agent|assistant|note|rationale|desk|analysis)\b|"
                    rf"the\s+(?:model|agent|assistant|bot|system)\s+(?:writing|behind|that\s+wrote|who\s+wrote|"
                    rf"producing|authoring)\b)"
                ),
            ),
            (
                "authorship",  # where the author comes from: "my training at OpenAI", "our fine-tuning by Meta"
                (
                    rf"(?i)\b(?:my|our)\s+(?:training|pre-?training|post-?training|fine-?tuning|alignment|origins?|"
                    rf"roots|weights|creators?|makers?|developers?)\s+(?:at|by|with|from|in)\s+(?:the\s+)?{ident}"
                ),
            ),
            (
                "authorship",  # how the text came to be: "generated with llama-3.3", "served via the deepseek API"
                (
                    rf"(?i)\b(?:generated|produced|written|composed|drafted|served|run|output)\s+(?:with|using|via|"
                    rf"through|on)\s+(?:the\s+)?{ident}|\bvia\s+(?:the\s+)?{ident}(?:'s)?\s+(?:API|endpoint|SDK)\b"
                ),
            ),
            (
                "authorship",
                (rf"(?i)\b(?:as|being)\s+(?:an?\s+|the\s+)?{ident}(?:[\s-]+[\w.-]+){{0,3}}?\s*,\s*(?:I|we)\b"),
            ),
            ("authorship", rf"(?i)\b(?:our|my)\s+{ident}(?:[\s-]+[\w.-]+){{0,2}}?\s+{_SELF_NOUN}\b"),
            (
                "authorship",
                (
                    rf"(?i){ident}(?:\s+(?:Group|Inc\.?|Corp\.?|Cloud|Labs?|Research|Holdings?|alumni|veterans|engineers|"
                    rf"researchers|people|folks|staff))?[\s-](?:built|made|trained|powered|"
                    rf"backed|native)\b[^.;\n]{{0,40}}?{_SELF}"
                ),
            ),
            (
                "signature",
                (
                    rf"(?im)(?:^|[.!]\s+)\s*{ident}(?:'s)?(?:[\s-]+[\w.-]+){{0,3}}?\s+(?:here|speaking|signing\s+off|out)\b"
                ),
            ),
            (
                "signature",
                (rf"(?im)^\s*{ident}(?:[\s-]+[\w.-]+){{0,2}}?(?:'s)?\s+(?:view|take|note|call|desk|read)\s*:"),
            ),
            ("signature", rf"(?im)(?:[\u2014\u2013]|--|^-)\s*{ident}(?:[\s-]+[\w.-]+){{0,3}}\s*$"),
            ("signature", rf"(?i)\bsigned,?\s+(?:the\s+)?{ident}"),
            # a name's own call, anywhere: "DeepSeek-R1's pick: NVDA", "Grok's view:", "Google's take, via its model:"
            (
                "signature",
                rf"(?i){ident}['\u2019]s\s+(?:pick|view|take|call|verdict|trade|read)\s*(?::|,\s*(?:via|from|by|per)\b)",
            ),
            # a code comment that says who wrote the code: "# by xai", "// author: grok", "-- generated by Qwen"
            (
                "signature",
                rf"(?im)(?:^|\s)(?:#|//|--|/\*)\s*(?:(?:written|generated|authored)\s+)?(?:by|author)\s*:?\s*{ident}",
            ),
            # a former name with no subject: "Formerly shipped as Bard.", "(Previously released to you as Bard.)"
            (
                "authorship",
                rf"(?im)(?:^|[.!?(]\s*)(?:formerly|previously|once|originally)\s+(?:[\w-]+\s+){{0,4}}?"
                rf"(?:as|called|named)\s+{ident}\s*(?:[.!)]|$)",
            ),
            ("signature", rf"(?i)\bsigning\s+off\s*[,:\u2014\u2013-]\s*(?:[\w-]+\s+){{0,3}}?{ident}"),
            # where the text was typed, with no subject: "Typed in the ChatGPT app", "Sent from Le Chat"
            (
                "authorship",
                rf"(?im)(?:^|[.!?]\s+)\s*(?:typed|sent|posted|written|composed|drafted|answered|replied)\s+"
                rf"(?:in|from|via|through|on|with)\s+(?:the\s+|my\s+)?{ident}",
            ),
            # the first person beside its name in other languages: "Nous, chez Mistral AI,", "Moi, Mistral, je"
            (
                "authorship",
                rf"(?i)(?<![\w'\u2019])(?:nous|moi|nosotros|yo|wir|noi|io|n[óo]s|eu)\s*,?\s*(?:(?:chez|en|bei|presso|em|na|no|"
                rf"da)\s+)?{ident}(?:\s[\w.\-]+){{0,2}}?\s*,",
            ),
            # a record's key for the line or build it came from: '"line":"grok"', "series: gemini"
            (
                "key",
                rf"(?im)[\"'](?:line|model[_-]?line|series|backbone|base[_-]?model|checkpoint|variant|build)[\"']\s*:\s*"
                rf"[\"']\s*{ident}|^\s*(?:line|model[_-]?line|series|backbone|base[_-]?model|checkpoint|variant|"
                rf"build)\s*[:=]\s*{ident}[^\s,;]*\s*$",
            ),
            # a denial naming the line, and the plain build the author is instead: "Not the R1 reasoner, just plain V3"
            (
                "authorship",
                rf"(?im)(?:^|[.!?:;]\s+)\s*(?:(?:I'm|I\s+am|this\s+is|it's)\s+)?not\s+(?:a|an|the|some)\s+{ident}"
                rf"(?:\s[\w.\-]+)?[\s\-]+(?:fine-?tune|finetune|distill\w*|variant|reasoner|build|checkpoint|version|"
                rf"release|instruct|chat|model)\b|"
                rf"\b(?:this\s+is|it's|just|only)\s+(?:(?:the|a|an)\s+)?(?:plain|stock|vanilla|unmodified|raw|default)"
                rf"\s+{ident}(?=\s*(?:chat|instruct|base|weights|checkpoint|build|model|from|by|[.,;:!)]|$))",
            ),
            # where the weights come from, in a line of its own with no subject: "Training at MSL.", "Weights by GDM;"
            (
                "authorship",
                rf"(?im)(?:^|[.!?]\s+)\s*(?:(?:my|our|the)\s+)?(?:weights|checkpoint|base\s+model|training|pre-?training|"
                rf"fine-?tuning)\s+(?:from|by|at|of)\s+(?:the\s+)?{ident}(?:\s*\([^)\n]{{0,30}}\))?\s*(?:[.;:]|$)",
            ),
            # a model host's path naming the model: "huggingface.co/meta-llama/Llama-4-Scout-17B"
            (
                "key",
                rf"(?i)\b(?:huggingface\.co|hf\.co|github\.com|ollama\.com|openrouter\.ai|replicate\.com|modelscope\.cn|"
                rf"kaggle\.com/models)/[^\s)\]>\"']*?{ident}",
            ),
            # a link whose host names a lab, with its scheme or a path: "https://aistudio.google.com/app/x",
            # "deepmind.google/models"
            (
                "key",
                rf"(?i)\bhttps?://(?:[\w-]+\.)*?{ident}(?:\.[\w-]+)*\.[a-z]{{2,}}|"
                rf"(?<![\w.@/])(?:[\w-]+\.)*?{ident}(?:\.[\w-]+)*\.[a-z]{{2,}}/",
            ),
            # a request to a lab's API host: "POST dashscope.aliyuncs.com/...", "https://api.mistral.ai/v1"
            (
                "key",
                rf"(?i)(?:\b(?-i:POST|GET|PUT|PATCH)|\bcurl)\s+\S*?{ident}|"
                rf"(?<![\w.])(?:https?://)?(?:api|console|platform|chat)\.(?:[\w-]+\.)*?{ident}\.[a-z]{{2,}}",
            ),
        ]

    @cached_property
    def _me_gloss(self) -> re.Pattern[str]:
        """A phrase naming a lab, a model or the people and places behind a lab, glossed by the author as itself:
        "The Musk lab's model (me)", "the o-series reasoner (me)"."""
        public = sorted({w for f in lexicon().values() for w in f.public}, key=len, reverse=True)
        names = rf"(?:{self._ident.pattern}|{_B}(?:{_alt(public)}){_E})"
        return re.compile(
            rf"(?i){names}[^.;:,!?\n()]{{0,50}}\(\s*(?:me|myself|that's\s+me|that\u2019s\s+me|yours\s+truly)\s*\)"
        )

    @cached_property
    def _in_path(self) -> re.Pattern[str]:
        """A name as a segment of a path ("projects/x/models/gemini-2.5-pro", "/v1/models/claude-opus"): the id of the
        model a request ran on, not news (a path has two lower-case segments or more before the name; "Microsoft/
        Amazon/Meta" is a list of companies)."""
        return re.compile(
            rf"(?i)(?:(?<![\w/~.])(?:~|\.{{1,2}})?/(?-i:[a-z0-9_.\-]+/)+|(?<![\w/])(?-i:[a-z0-9_.\-]+/){{2,}})"
            rf"{self._ident.pattern}"
        )

    @cached_property
    def _cjk_self(self) -> re.Pattern[str]:
        """The first person in Chinese, Japanese or Korean right before a name ("我们通义千问团队", "저희 Claude는",
        "私はクロード"), or who made the text in Chinese ("本分析由通义千问生成"): those scripts run on without spaces, so
        the name has no word boundary there."""
        names = sorted({w for f in lexicon().values() for w in (*f.names, *f.lines)}, key=len, reverse=True)
        alt = "|".join(re.escape(w) for w in names)
        return re.compile(
            rf"(?i)(?:我们|我們|我是|我叫|저희|우리는|저는|나는|私は|わたしは|僕は)\s*[「『“‘\"']?\s*(?:{alt})|"
            rf"由\s*[「『“\"']?\s*(?:{alt})[^。\n]{{0,24}}?(?:生成|撰写|编写|写成|提供|制作|完成|起草)"
        )

    @cached_property
    def _frames(self) -> list[tuple[str, re.Pattern[str]]]:
        """The frames the guard reads a named line with (each around the lexicon's names), compiled once needed."""
        return [(kind, re.compile(source)) for kind, source in self._frame_sources]

    @classmethod
    def for_author(cls, author_family: str | None, author_model: str | None, symbols: Iterable[str] = ()) -> LeakGuard:
        """One guard per author and universe, built once (its patterns and its word memory are reused)."""
        return _cached_guard(author_family, author_model, tuple(sorted(symbols)))

    def _canonical(self, text: str) -> str:
        """``text`` with near-miss spellings of lexicon names written as the names (the guard's own copy)."""

        def fix(m: re.Match[str]) -> str:
            word = m.group(0)
            hit = self._seen.get(word)
            if hit is not None:
                return hit
            low = word.lower()
            out = word
            if low not in self._canon and len(low) >= 4 and low not in _COMMON and word not in self._symbol_set:
                for key, canon in self._by_initial.get(low[0], ()):
                    near = abs(len(key) - len(low)) <= 1 if len(key) >= 5 else len(key) == len(low)
                    if near and _near_miss(low, key):
                        out = canon
                        break
            if len(self._seen) < 200_000:
                self._seen[word] = out
            return out

        text = _BROKEN.sub(self._unbreak, text)  # "*Lla*ma", "**Gem**ini", "Gr-\nok", "通义\n千问"
        if "\n" in text:  # "Deep\nSeek here": a name broken by a bare line break
            text = _LINE_BROKEN.sub(
                lambda m: (
                    m.group(1) + m.group(2)
                    if re.sub(r"[\W_]+", "", (m.group(1) + m.group(2)).lower()) in self._whole
                    else m.group(0)
                ),
                text,
            )
        text = _SPACED.sub(self._join_letters, text)  # "g r o k", "Q w e n  M a x", "G.P.T.", "d-e-e-p-s-e-e-k"
        text = _MIXED.sub(self._unleet, text)  # "G00gle", "Cl@ude", "d33pseek", "Llam4"
        text = _SPLIT.sub(lambda m: self._joined.get(re.sub(r"[^a-z]", "", m.group(0).lower()), m.group(0)), text)
        return re.sub(r"[A-Za-z]{4,}", fix, text)

    def _join_letters(self, m: re.Match[str]) -> str:
        """Letters written apart, joined ("g r o k" -> "grok"); a first letter that is a word of its own ("a g r o k
        model", "I, a G e m i n i model") stays apart when the rest is a lexicon name."""
        raw = m.group(0)
        words = [re.sub(r"[ .\-_]", "", w) for w in re.split(r"\s{2,}", raw.strip(" .-_"))]
        joined = " ".join(words)
        first, rest = raw[0], re.sub(r"[ .\-_]", "", raw[1:].split("  ")[0])
        if (
            first.lower() in ("a", "i")
            and raw[1] == " "
            and raw[2:3] != " "
            and len(rest) >= 3
            and joined.lower() not in self._joined
        ):
            return f"{first} {rest}" + joined[len(first) + len(rest) :]  # "a G.P.T. model": an article, then a name
        return joined

    def _unbreak(self, m: re.Match[str]) -> str:
        """A name broken by emphasis inside the word or by a line break, written whole (anything else as it was)."""
        word = m.group(0)
        if not word[0].isascii():  # a run of a script without spaces: a name across the break ("深度\n求索的")
            joined = re.sub(r"\s+", "", word)
            parts = re.split(r"\s+", word)
            spans = [k for k in self._whole if not k.isascii() and k in joined and not any(k in p for p in parts)]
            return joined if spans else word
        return self._whole.get(re.sub(r"[\W_]+", "", word.lower()), word)

    def _unleet(self, m: re.Match[str]) -> str:
        word = m.group(0)
        plain = word.translate(_LEET)
        key = re.sub(r"[^a-z]", "", plain.lower())
        return self._joined.get(key, word) if key != word.lower() else word

    def _real_identity(self, span: str) -> bool:
        """Whether a frame's identity names are more than ordinary words in ordinary case ("as a haiku",
        "Le chat est sorti du sac", "una jugada magistral")."""
        names = [m.group(0) for m in self._ident.finditer(span)]
        return any(n.lower() not in self._ordinary_low or n in self._ordinary_exact for n in names)

    def find(self, text: str) -> list[str]:
        """Why ``text`` would tell a judge who wrote it (empty: nothing found)."""
        # a scrubbed self-reference still marks the sentence as the author's ("[self-reference], created by X")
        clean = _PLACEHOLDER.sub(lambda m: " I \u2060" if "self" in m.group(0) else " \u2060 ", self._plain(text))
        clean = self._canonical(clean)
        out: list[str] = []
        windows: list[tuple[int, int]] = []  # the lines that name someone (a signature block: with the line before)
        for hit in self._ident.finditer(clean):
            lo = clean.rfind("\n", 0, hit.start()) + 1
            lo = clean.rfind("\n", 0, max(lo - 1, 0)) + 1 if lo else 0
            hi = clean.find("\n", hit.end())
            hi = len(clean) if hi == -1 else hi
            if windows and lo <= windows[-1][1]:
                windows[-1] = (windows[-1][0], max(hi, windows[-1][1]))
            else:
                windows.append((lo, hi))
        for kind, pattern in self._frames if windows else ():
            for m in (x for lo, hi in windows for x in pattern.finditer(clean, lo, hi)):
                if not self._real_identity(m.group(0)):
                    continue
                out.append(f"{kind}: {m.group(0).strip()[:80]!r}")
        out += self._family_named(clean)
        out += [
            f"a model's version alone: {m.group(0)!r}"
            for m in _BARE_VERSION.finditer(clean)
            if not _product_before(clean, m.start())
        ]
        out += [f"a name in a path: {m.group(0)!r}" for m in self._in_path.finditer(clean)]
        out += [f"a variant word of a scrubbed model: {m.group(0)!r}" for m in _VARIANT_OF_SCRUBBED.finditer(text)]
        out += [f"a variant and version after a scrubbed name: {m.group(0)!r}" for m in _SCRUBBED_TAIL.finditer(clean)]
        out += [f"the first person plural by its model line: {m.group(0)!r}" for m in self._we_plural.finditer(clean)]
        out += [f"a speaker glossed by a scrubbed name: {m.group(0)!r}" for m in _HERE_GLOSSED.finditer(clean)]
        out += [f"a question the text answers about itself: {m.group(0)!r}" for m in _SELF_QUESTION.finditer(clean)]
        out += [f"the first person as a tier of a line: {m.group(0)!r}" for m in _TIER_SELF.finditer(clean)]
        out += [f"the author's own sibling model: {m.group(0)!r}" for m in _OWN_SIBLING.finditer(clean)]
        out += [
            f"a speaker named by a version or variant alone: {m.group(0)!r}" for m in _VARIANT_SPEAKER.finditer(clean)
        ]
        if "_" in clean:
            out += [
                f"a lab or line in an environment variable: {m.group(0)!r}"
                for m in _ENV_VAR.finditer(clean)
                if any(seg.lower() in self._names_low for seg in m.group(0).split("_"))
            ]
        if "\t" in clean or "," in clean:
            out += [f"a delimited record under an authorship column: {r!r}" for r in self._delimited_authors(clean)]
        if "(" in clean:
            out += [f"a phrase the author glosses as itself: {m.group(0)!r}" for m in self._me_gloss.finditer(clean)]
        for m in _SEAT_APP.finditer(clean) if " app" in clean else ():
            if re.search(r"(?i)\bto\s+you\b", m.group(0)) or re.search(_SPEAKS, _sentence_of(clean, m.start())):
                out.append(f"the app the author runs in: {m.group(0)!r}")
        if "#" in clean or "@" in clean:
            out += [
                f"a name run into a tag: {m.group(0)!r}"
                for m in self._tag_compound.finditer(clean)
                if self._real_identity(m.group(0)[1:]) or not m.group(0)[1:].islower()
            ]
        if not clean.isascii():
            out += [
                f"the first person with a name, in a script without spaces: {m.group(0)!r}"
                for m in self._cjk_self.finditer(clean)
            ]
        for sentence in re.findall(r"(?:[^.!?;\n]|\.(?=\d))+", clean):
            for rx in (self._own_any, self._own_cap):
                if rx is None:
                    continue
                for m in rx.finditer(sentence):
                    word = m.group(0)
                    versioned = bool(
                        re.match(
                            r"[-_./]?\s?(?:v?\d|one|two|three|four|five|six|seven|eight|nine)",
                            sentence[m.end() : m.end() + 7],
                            re.I,
                        )
                    )
                    if word.lower() in self._ordinary_low and word not in self._ordinary_exact and not versioned:
                        continue  # an ordinary word in ordinary case ("a maverick trade")
                    if _LIMIT_AFTER.match(sentence, m.end()):
                        out.append(
                            f"the author's own model line stating its limits: {word!r} in {sentence.strip()[:80]!r}"
                        )
                        continue
                    if self._part_of_other_name(sentence, m.start(), m.end()):
                        continue  # "Analyst Gemma Okafor", "Opus Genetics (IRD)", "Saint-Claude (Jura)"
                    # the clause piece around the name: a recognised market clause names an event right next to it
                    lo = max(sentence.rfind(c, 0, m.start()) for c in ',(:\u2014|="{')
                    his = [i for i in (sentence.find(c, m.end()) for c in ',):\u2014|="}') if i != -1]
                    piece = sentence[lo + 1 : min(his) if his else len(sentence)]
                    at = m.start() - (lo + 1)
                    # (the name's own words are no market word: "o-series" is no funding series)
                    near = piece[max(0, at - 60) : at] + " " * len(word) + piece[at + len(word) : at + len(word) + 60]
                    speaks = re.search(r"(?i)\b(?:I|I'm|me|my|we|our|this\s+model's?)\b", piece)
                    if _MARKET_EVENT.search(near) and not speaks:
                        continue  # the author's family named as an actor of market news
                    out.append(
                        f"the author's own model line outside a market clause: {word!r} in {sentence.strip()[:80]!r}"
                    )
        return list(dict.fromkeys(out))

    def _plain(self, text: str) -> str:
        """``text`` read plain (:func:`_plain_letters`); a name written in full-width letters is written as the lexicon
        writes it ("ｍｉｓｔｒａｌ ｍｅｄｉｕｍ" -> "Mistral medium"): a disguised name is never an ordinary word."""
        if text.isascii():
            return text
        if _WIDE_RUN.search(text):
            text = _WIDE_RUN.sub(
                lambda m: self._whole.get(re.sub(r"[\W_]+", "", _widened(m.group(0)).lower()), m.group(0)), text
            )
        return _plain_letters(text)

    def _delimited_authors(self, text: str) -> list[str]:
        """The rows of a CSV or TSV record under a header with an authorship column that name someone."""
        out = []
        under = False
        for line in text.split("\n"):
            if not line.strip():
                under = False
            elif _DELIMITED_AUTHOR_HEADER.search(line) and len(line) <= 200:
                under = True
            elif under and any(m.group(0) not in self._symbol_set for m in self._ident.finditer(line)):
                out.append(line.strip()[:80])
        return out

    def _part_of_other_name(self, sentence: str, start: int, end: int) -> bool:
        """A one-word model line, capitalised and with no version, that is part of a person's, a place's or a
        company's name: a capitalised word after it ("Gemma Okafor", "Opus Genetics") or joined before it by a hyphen
        ("Saint-Claude") that is no lexicon name nor model word, and no first person in the sentence."""
        word = sentence[start:end]
        if not re.fullmatch(r"[A-Z][a-z]+", word) or re.search(r"(?i)\b(?:I|I'm|me|my|we|our)\b", sentence):
            return False
        after = re.match(r" ([A-Z][a-z]{2,})\b(?!['\u2019]s\s+(?:model|lab))", sentence[end:])
        before = re.search(r"(?<![\w-])([A-Z][a-z]{2,})-$", sentence[max(0, start - 30) : start])
        part = after or before
        if part is None or re.match(r"[-_.]?\s?v?\d", sentence[end : end + 3]):
            return False
        other = part.group(1).lower()
        return other not in self._names_low and other not in _GENERIC_MODEL_WORDS

    @cached_property
    def _names_low(self) -> frozenset[str]:
        return frozenset(w.lower() for f in lexicon().values() for w in (*f.names, *f.lines, *f.public))

    def _family_named(self, clean: str) -> list[str]:
        """The author's own family (its lab, parent, model lines; spelt any way the canonical copy undoes) in a
        piece of text that reports no market event and names no traded symbol: a tag, a key, a signature, a
        sign-off or a self-description, whatever its grammar. An ordinary word of the family ("scout", "haiku") or a
        listed parent ("Google") counts only where it glosses a placeholder the scrubber left ("// scout ([model])"),
        in a provider or model tag, as a variant ("magistral-small") or as the author's maker ("from google")."""
        out = []
        for m in self._family.finditer(clean) if self._family is not None else ():
            lo, hi = _piece(clean, m.start(), m.end())
            piece = clean[lo:hi]
            if _LIMIT_AFTER.match(clean, m.end()):  # a caveat or disclaimer on the family's models
                out.append(f"the author's family stating its limits: {m.group(0)!r} in {piece.strip()[:80]!r}")
                continue
            if _MAKER_BEFORE.search(clean[max(0, m.start() - 12) : m.start()]) and re.search(
                _SPEAKS, _sentence_of(clean, m.start())
            ):  # "from x.ai", "by High-Flyer's AI arm, this agent"
                out.append(f"the author's family named as its maker: {m.group(0)!r} in {piece.strip()[:80]!r}")
                continue
            if _MARKET_EVENT.search(piece) or (self._symbols is not None and self._symbols.search(piece)):
                continue  # the family as an actor of market news, or beside a traded symbol
            words = re.findall(r"[A-Za-z]{2,}", clean[lo : m.start()] + " " + clean[m.end() : hi])
            if len(words) > 3 and not re.search(_SPEAKS, piece):
                continue  # a longer piece that neither speaks as the author nor is a tag, a label or a sign-off
            if m.group(0).islower() and not re.search(_SPEAKS, _sentence_of(clean, m.start())):
                continue  # "grok the setup", "a gemini pattern", "the tongyi (unified) market": ordinary words
            out.append(f"the author's family outside any market clause: {m.group(0)!r} in {piece.strip()[:80]!r}")
        for m in self._family_quiet.finditer(clean) if self._family_quiet is not None else ():
            before, after = clean[max(0, m.start() - 16) : m.start()], clean[m.end() : m.end() + 16]
            lo, hi = _piece(clean, m.start(), m.end())
            speaks = re.search(_SPEAKS, _sentence_of(clean, m.start()))
            if (
                _TAG_KEY.search(clean[max(0, m.start() - 24) : m.start()])
                or _GLOSS_BEFORE.search(before)
                or _GLOSS_AFTER.match(after)
                or _VARIANT.match(after)
                or (speaks and _SEAT_BEFORE.search(clean[max(0, m.start() - 60) : m.start()]))
                or (speaks and re.match(r"-(?:trained|built|made|based|born|bred|raised)\b", after))
                or (
                    speaks
                    and (_MAKER_BEFORE.search(before) or _MAKER_AFTER.match(clean, m.end()))
                    and not _MARKET_EVENT.search(clean[lo:hi])
                )
            ):
                out.append(
                    f"the author's family next to what was scrubbed: {m.group(0)!r} in "
                    f"{(before + m.group(0) + after).strip()!r}"
                )
        return out


def _piece(text: str, start: int, end: int) -> tuple[int, int]:
    """The clause piece around ``text[start:end]``: bounded by punctuation (a full stop only before a space or the
    end: "Sonnet 4.5", "$1.5B" stay whole), brackets, tags and separators."""
    lo = max(m.start() for m in _BREAK.finditer(text, 0, start)) if _BREAK.search(text, 0, start) else -1
    hi = _BREAK.search(text, end)
    return lo + 1, hi.start() if hi else len(text)


_BREAK = re.compile(r"[,;:()\[\]<>|\u2014\u2013/\n!?=\"{}~#]|\.(?=\s|$)")
_SPEAKS = (
    r"(?i)\b(?:I|I'm|I'd|I've|me|my|we|our|(?-i:us|Us)|this\s+(?:desk|agent|model|bot|assistant|portfolio|system)|"
    r"the\s+author|yours\s+truly|writing\s+this|that's\s+me|your\s+friendly|this\s+(?:note|analysis)|"
    r"says|said|here|thinks|rationale|signing|bot|model|agent|assistant|desk|weights|arm|team|lab|lineage|"
    r"family)\b|\u2060"
)


_TAG_KEY = re.compile(
    r"(?i)<(?:provider|model|vendor|author|signature|family|lab|engine|agent|system|signed)[^>]{0,20}>"
    r"\s*[^<]{0,20}$"
)
_VARIANT = re.compile(
    r"^[\-_.](?:small|large|medium|mini|nano|pro|max|plus|turbo|flash|lite|ultra|instruct|chat|"
    r"latest|v?\d)",
    re.I,
)
"""An ordinary word made a model name by its variant ("magistral-small", "scout-17b")."""
_SEAT_BEFORE = re.compile(
    r"(?i)\b(?:run\w*|liv(?:e|es|ing)|deployed|installed|embedded|hosted|sit(?:s|ting)?|serv(?:e|es|ing)|"
    r"(?:talk|writ|speak|chatt)ing\s+to\s+you)\s+(?:as\s+[^.;:\n]{0,30}?\s+)?(?:in|inside|within|from|on)\s+(?:the\s+)?$"
)
"""Where the author runs, before a name: "I run as [model] in WhatsApp", "talking to you from the Quark app"."""
_SEAT_APP = re.compile(
    r"(?i)\b(?:run\w*|liv(?:e|es|ing)|deployed|installed|embedded|hosted|sit(?:s|ting)?|serv(?:e|es|ing)|"
    r"(?:talk|writ|speak|chatt)ing\s+to\s+you)\s+(?:as\s+[^.;:\n]{0,30}?\s+)?(?:in|inside|within|from|on)\s+(?:the\s+)?"
    r"(?-i:[A-Z][\w.\-]*)(?:\s+(?-i:[A-Z][\w.\-]*))?\s+app\b"
)
"""The app the author runs in, whatever its name: "I run as [model] inside the X app", "Talking to you from the Quark
app" (with the first person or talking to the reader; "users in the ChatGPT app grew" is news)."""
_MAKER_BEFORE = re.compile(
    r"(?i)\b(?:by|from|at|(?:made|built|trained|developed|created|based|born|written|drafted|generated|produced)\s+in|"
    r"(?:lab|team|company)\s+of)\s+(?:the\s+)?$"
)
_MAKER_AFTER = re.compile(
    r"(?i)'s\s+(?:[\w-]+\s+){0,2}?(?:lab|team|company|firm|fund|spin-?off|arm|shop|models?|"
    r"assistants?|engineers|researchers|people|unit|division|startup|outfit|org|group|venture)\b"
)
"""Whose the author is: "Zuck's open model (that's me)", "the one Elon's team trains", "Liang Wenfeng's lab"."""
"""Who made the author, in a sentence it speaks in: "open weights from google", "Built by Meta's GenAI team"."""


def _sentence_of(text: str, at: int) -> str:
    lo = max(text.rfind(c, 0, at) for c in ".!?\n")
    his = [i for i in (text.find(c, at) for c in ".!?\n") if i != -1]
    return text[lo + 1 : min(his) if his else len(text)]


_GLOSS_BEFORE = re.compile("\u2060[\\s\\])]*(?:,|\\()[\\s\"']*$")
_GLOSS_AFTER = re.compile("^(?:'s)?[\\s\"']*(?:\\(|,)[\\s\\[(]*\u2060")
"""A name glossing what the scrubber replaced, or glossed by it: "[self-reference], Meta's open model", "scout
([model])" (the guard's copy marks each placeholder with a word joiner)."""
_SPACED = re.compile(r"(?<![\w.\-])(?:[A-Za-z](?: {1,2}|\.|-|_)){2,}[A-Za-z]\.?(?![\w\-])")
"""Letters written apart to hide a name ("g r o k", "L L A M A", "Q w e n  M a x", "G.P.T.", "q-w-e-n")."""
_MIXED = re.compile(r"(?<![\w@$])(?=[\w@$]*[A-Za-z])(?=[\w@$]*[0-9@$])[A-Za-z0-9@$]{4,}(?![\w@$])")
"""A word of letters mixed with the digits or signs that stand for them ("G00gle", "Cl@ude", "M1stral")."""
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "@": "a", "$": "s", "5": "s", "7": "t"})
_BROKEN = re.compile(
    r"(?<![^\W\d_])[^\W\d_]+(?:(?:\*+|~~|-\s*\n\s*)[^\W\d_]+)+(?![^\W\d_])|"
    r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]+(?:\s*\n\s*[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]+)+"
)
"""Letters broken apart by emphasis or a line break, which may hide a name ("*Lla*ma", "Deep-\\nSeek", "通义\\n千问")."""
_LINE_BROKEN = re.compile(r"(?<![^\W\d_])([A-Za-z]{2,})[ \t]*\n[ \t]*([A-Za-z]{2,})(?![^\W\d_])")
"""Two Latin words either side of a bare line break ("Deep\\nSeek"): one name when their letters spell one."""
_FULL_WIDTH = {c: c - 0xFEE0 for c in range(0xFF01, 0xFF5F)}
_WIDE_RUN = re.compile(r"[０-９Ａ-Ｚａ-ｚ](?:[－．＿\u3000]?[０-９Ａ-Ｚａ-ｚ])*")
"""A run of full-width letters and digits, with a full-width hyphen, dot, low line or ideographic space inside it
("ＧＰＴ－５", "Ｇｒｏｋ　４"); full-width punctuation between CJK words stays as written."""
_PLAIN = {
    **{c: None for c in (0x00AD, 0x180E, 0x200B, 0x200C, 0x200D, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0xFEFF)},
    **{c: " " for c in (0x00A0, 0x1680, *range(0x2000, 0x200B), 0x202F, 0x205F)},
}


def _widened(run: str) -> str:
    return run.translate(_FULL_WIDTH).replace("\u3000", " ")


def _plain_letters(text: str) -> str:
    """The guard's own plain copy: full-width forms as ASCII ("ＧＰＴ－５"), invisible characters dropped ("Clau\\u200b
    de"), Unicode spaces plain ("G\\u2009e\\u2009m..."); read before the placeholders are marked (``find``)."""
    if text.isascii():
        return text
    out = text.translate(_PLAIN)
    return _WIDE_RUN.sub(lambda m: _widened(m.group(0)), out)


_HERE_GLOSSED = re.compile(
    r"(?m)(?:^|[.!?;]\s+)[^\w\n]{0,4}[A-Z][\w.\-]*(?:\s+[\w.\-]+){0,2}?\s+here\s*[(\[][^)\]\n]{0,30}?\u2060"
)
"""A speaker line glossed by what the scrubber replaced: "Flash here ([model] line)" (the speaker is a tier of it)."""
_SELF_QUESTION = re.compile(
    r"\b(?i:is\s+(?:this|it|that)|are\s+we)\s+(?i:an?\s+|the\s+)?[A-Z][\w.\-]*(?:\s+[\w.\-]+){0,2}?\s*\?\s*"
    r"(?:No|Nope|Yes|Yep|Not\s+quite|Not\s+really|Of\s+course|Correct|Wrong)\b"
)
"""A question the text asks of itself and answers, about a capitalised name: "Is it Large? No."."""
_VARIANT_SPEAKER = re.compile(
    r"(?m)(?:^|[.!?;]\s+)[^\w\n]{0,4}(?:(?:[1-9]\d?(?:\.\d{1,2})?[ \-])?(?:Fast|Heavy|Mini|Nano|Turbo|Max|Plus|Lite|Pro|"
    r"Flash|Ultra|Large|Medium|Small)(?:[ \-]v?[1-9]\d?(?:\.\d{1,2})?)?|[1-9]\d?(?:\.\d{1,2})?[ \-][1-9]\d{0,3}[bB]|"
    r"[a-z]+-fast-\d{1,2}|[1-9]\d{0,3}B\s+(?:total|active)[^\n]{0,20}?)\s+(?:here|speaking|signing|reporting)\b"
)
"""A speaker line opened by a version, a variant or a size alone: "Flash here:", "Large 2 here", "4 Fast here", "3.3
70B here", "code-fast-1 here", "235B total / 22B active here"."""
_ENV_VAR = re.compile(r"(?<![\w$])[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?![\w])")
"""An environment variable's name ("MISTRAL_API_KEY"): refused when a segment is a lab or a line."""
_DELIMITED_AUTHOR_HEADER = re.compile(
    r"(?i)^(?:[^\t,\n]*[\t,])*\s*(?:author|model|model[_ ]?id|provider|vendor|family|llm|agent|speaker|writer|signer|"
    r"lab|engine|by)\s*(?:[\t,][^\n]*)?$"
)
"""A CSV or TSV header with a column that says who wrote the rows."""
_OWN_SIBLING = re.compile(
    r"\b(?i:our|my)\s+[A-Z][a-z][\w.\-]*(?:[ \-][\w.]+)?\s+(?i:video|image|vision|coding|code|reasoning|chat|language|"
    r"speech|audio|music|embedding|multimodal|omni)\s+(?i:model|generator|line)\b"
)
"""The first person's own sibling model, by whatever name: "not our Wan video model"."""
_TIER_SELF = re.compile(
    r"\b(?:I'm|I\s+am)\s+(?i:its|their|the|a|an|this|your)\s+[A-Z]\w+[ \t\-]+(?i:model|tier|variant|version|build|"
    r"size|edition|checkpoint)\b"
)
"""The first person as a capitalised tier of a line: "I'm its Medium model"."""
_SPLIT = re.compile(r"(?<![\w])[A-Za-z]{2,}[\-_.][A-Za-z]{2,}(?![\w])")
"""Words a name was split into ("deep-seek", "Open AI", "x.ai")."""


def _near_miss(a: str, b: str) -> bool:
    """One edit (or one swap of neighbours) apart: "Cluade", "gemni", "Deepseak", "mistrel", "qwne"."""
    if a == b or abs(len(a) - len(b)) > 1:
        return a == b
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (
            len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
        )
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))


_COMMON = frozenset(
    """meta scout opus claude gross grace grove gemini clause gemma lama llama lamp crude quest quad
cloud crowd coder grow growth groan great group fair fail hair pair board beard bird bars bare barn gems gross
groks soar sore sort groq""".split()
)


@cache
def _cached_guard(author_family: str | None, author_model: str | None, symbols: tuple[str, ...]) -> LeakGuard:
    return LeakGuard(author_family, author_model, symbols)


__all__ = ["Family", "LeakGuard", "lexicon"]
