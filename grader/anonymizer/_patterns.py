"""The identity vocabulary: regular-expression pieces for model, product and provider names.

Everything here is compiled with ``re.IGNORECASE``; pieces that are also ordinary English words are
scoped case-sensitive with ``(?-i:...)`` so that only their capitalised forms count as identities
(see grader/anonymizer/README.md for the word-by-word decisions).

Boundaries are "not next to a letter or digit" rather than ``\\b``, so ``claude_sonnet`` and
``api.openai.com`` are still caught while ``claudication``, ``metadata``, ``co3`` and ``NO3`` are not.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

START = r"(?<![^\W_])"
"""Not preceded by a letter or digit."""
END = r"(?![^\W_])"
"""Not followed by a letter or digit."""

_SEP = r"[\s_\-./]?"
_VER = r"v?\d+(?:[._\-]\d+)*[a-z]?"  # 4, 4o, 3.7, 4-6, 2.5, v3, 70b, 20250219
# Variant words that may follow a model name after any separator (including a space).
_WORDS = (
    r"(?:mini|nano|micro|pro|max|plus|turbo|flash|lite|ultra|instruct|preview|sonnet|opus|haiku|instant"
    r"|codex|coder|reasoner|thinking|omni|heavy|vision|exp|[rk]\d+(?:[.\-]\d+)?|deep[\s\-]?(?:think|research))"
)
# Variant words that are ordinary English: only after a hyphen, underscore, dot or colon (gpt-5-high).
_HYPHEN_WORDS = (
    r"(?:high|low|medium|chat|latest|fast|base|beta|reasoning|experimental|it|hf|tiny|large|small|code"
    r"|math|online|search|audio|realtime|image|nemo|saba|oss)"
)
_TAIL_ITEM = rf"(?:{_SEP}(?:{_VER}|{_WORDS})|[\-_.:]{_HYPHEN_WORDS})"
TAIL = rf"(?:{_TAIL_ITEM})*"
TAIL_REQUIRED = rf"(?:{_TAIL_ITEM})+"
# Mistral's sizes are ordinary words, accepted after a space only for Mistral names.
_MISTRAL_TAIL_ITEM = rf"(?:{_TAIL_ITEM}|{_SEP}(?:large|medium|small|tiny|nemo|saba))"
_O_SERIES_TAIL = r"(?:[\s\-](?:mini|pro|preview|high|low|medium|deep[\s\-]research))*"

# Provider names allowed directly in front of a model name ("Google's Gemini", "Meta Llama 3",
# "openai/gpt-4o"); in this position any case is an identity.
_PROVIDER_PREFIX = (
    r"(?:open[\s\-]?ai|anthropic|x[\s.\-]?ai|google(?:[\s\-]+deep[\s\-]?mind)?|deep[\s\-]?mind|meta(?:[\s\-]+ai)?"
    r"|facebook|alibaba(?:[\s\-]+cloud)?|mistral(?:[\s\-]+ai)?|microsoft|amazon|nvidia|ibm|cohere"
    r"|moonshot(?:[\s\-]+ai)?|zhipu(?:[\s\-]+ai)?|baidu|tencent|deep[\s\-]?seek(?:[\s\-]+ai)?)"
)

# Model and product heads with their tails.
_MODEL_HEADS = [
    rf"chat[\s\-]?gpt{TAIL}",
    rf"gpts?{TAIL}",
    rf"o[1345]{_O_SERIES_TAIL}",
    r"o[\s\-]series",
    r"4o(?:[\s\-]mini)?",
    rf"claude(?:[\s.\-]?ai)?{TAIL}",
    rf"(?-i:Opus|OPUS|Sonnet|SONNET|Haiku|HAIKU){TAIL}",
    rf"(?:opus|sonnet|haiku){_SEP}\d{TAIL}",
    rf"(?:super)?grok{TAIL}",
    rf"gemini{TAIL}",
    rf"gemma{TAIL}",
    r"(?-i:Bard|BARD)",
    rf"(?-i:PaLM|PALM){TAIL}",
    rf"palm[\s\-]?2{TAIL}",
    rf"lamda{TAIL}",
    rf"(?:code[\s\-]?)?llama{TAIL}",
    rf"deep[\s\-]?seek(?:['’]s)?{TAIL_REQUIRED}",
    rf"qw(?:en|q){TAIL}",
    rf"mistral(?:{_MISTRAL_TAIL_ITEM})+",
    rf"(?:mix|pix)tral{TAIL}",
    rf"(?:code|magi|mini|dev)stral{TAIL}",
    r"command[\s\-]r(?:\+|[\s\-]?plus)?",
    rf"kimi{TAIL}",
    rf"glm[\s\-]?\d{TAIL}",
    rf"phi[\s\-]?\d{TAIL}",
    rf"nemotron{TAIL}",
    rf"jamba{TAIL}",
    rf"dbrx{TAIL}",
    rf"olmo{TAIL}",
    rf"ernie[\s\-]?(?:bot|\d){TAIL}",
    rf"copilot{TAIL}",
    r"bing[\s\-]+(?:chat|ai|copilot)",
    rf"(?:text|code)[\s\-]davinci{TAIL}",
    r"(?-i:Le\s+Chat)",
]

MODEL_PATTERN = rf"{START}(?:{_PROVIDER_PREFIX}(?:['’]s)?[\s\-_/:]+)?(?:{'|'.join(_MODEL_HEADS)}){END}"
"""A model or product mention, optionally with its provider in front."""

# Providers always treated as identities (AI labs, and Google/Meta which are families of the brief).
_PROVIDERS_ALWAYS = [
    r"openai|open-ai|(?-i:Open|OPEN)[\s\-]?ai",
    r"anthropic(?:[\s\-]+(?:pbc|ai))?",
    r"x[\s.\-]?ai(?:[\s\-]+(?:corp|holdings))?",
    r"google(?:[\s\-]+(?:deep[\s\-]?mind|ai|brain|research|llc))?",
    r"(?-i:Alphabet|ALPHABET)",  # Google's parent ("the alphabet" is a word)
    r"(?-i:FAIR)(?![\s\-]+(?:value|price|share|game|trade|warning))",  # Meta's research lab, in capitals only
    r"deep[\s\-]?mind",
    # "Meta-analysis", "Meta-data" etc. are ordinary words (a fixed list: "Meta-owned" is the company)
    r"(?-i:Meta|META)(?!-(?:analy|data|learn|review|regress|model|heurist|level|cognit|ethic|physic|stud))"
    r"(?:[\s\-]+(?:ai|platforms?|superintelligence[\s\-]+labs))?",
    r"meta[\s\-]+ai",
    r"facebook[\s\-]+ai(?:[\s\-]+research)?",
    r"deep[\s\-]?seek(?:[\s\-]+ai)?",
    r"(?-i:Mistral|MISTRAL)(?:[\s\-]+ai)?",
    r"mistral[\s\-]+ai",
    r"(?-i:Cohere|COHERE)(?:[\s\-]+(?:for[\s\-]+)?ai)?",
    r"moonshot[\s\-]+ai",
    r"zhipu(?:[\s\-]+ai)?",
    r"ai21(?:[\s\-]+labs)?",
    r"01[\s.\-]ai",
    r"inflection[\s\-]+ai",
    r"qwen[\s\-]+team",
]

# Big companies that also make models: identities only when a contestant's provider_family names them
# (otherwise they are ordinary companies in financial text: "Microsoft cloud results", "Nvidia earnings").
CONDITIONAL_PROVIDERS: dict[str, str] = {
    "microsoft": r"microsoft(?:[\s\-]+(?:ai|research))?",
    "amazon": r"amazon(?:[\s\-]+(?:web[\s\-]+services|bedrock|ai))?|aws",
    "nvidia": r"nvidia",
    "alibaba": r"alibaba(?:[\s\-]+cloud)?",
    "ibm": r"ibm",
    "baidu": r"baidu",
    "tencent": r"tencent",
    "apple": r"apple(?:[\s\-]+intelligence)?",
    "facebook": r"facebook",
}

KNOWN_FAMILIES = {
    "openai", "anthropic", "xai", "google", "meta", "deepseek", "mistral", "cohere", "moonshot", "zhipu",
    "ai21", "01ai", "inflection",
}  # fmt: skip
FAMILY_SYNONYMS = {
    "googledeepmind": "google",
    "deepmind": "google",
    "gemini": "google",
    "metaai": "meta",
    "metallama": "meta",
    "llama": "meta",
    "mistralai": "mistral",
    "x": "xai",
    "grok": "xai",
    "alibabacloud": "alibaba",
    "qwen": "alibaba",
    "aws": "amazon",
    "amazonaws": "amazon",
    "moonshotai": "moonshot",
    "zhipuai": "zhipu",
    "ai21labs": "ai21",
    "claude": "anthropic",
    "chatgpt": "openai",
}
NON_IDENTITIES = {"", "undisclosed", "unknown", "other", "none", "null", "na", "nan", "various"}
"""Field values that name nobody and are never turned into patterns."""

PROVIDER_TOKENS = {
    "openai", "open", "ai", "anthropic", "xai", "x", "google", "deepmind", "meta", "facebook", "alibaba",
    "cloud", "microsoft", "amazon", "nvidia", "ibm", "baidu", "tencent", "s",
}  # fmt: skip
"""Tokens ignored when comparing a model mention with a contestant's model (see ``model_key``)."""

# Self-identification around an identity mention. Each prefix is searched in the text just before the
# mention (anchored at its start), each suffix just after it (anchored at its end).
_ROLE = (
    r"(?:(?:[\s\-]+(?:based|built|trained|powered|developed|made))?\s+"
    r"(?:(?:large|ai|language|chat|reasoning|frontier|generative)\s+){0,3}"
    r"(?:model|llm|assistant|system|chatbot|bot|agent|ai))"
)
_AGENT_NOUN = r"(?:model|llm|assistant|system|chatbot|bot|agent|ai|version)"
_SPEAKER = r"(?:as|being|i\s+am|i['’]m|im)"
# "as a large language model (that was) ..." / "I'm an AI assistant, ..." in front of "trained by X".
_LEAD_IN = (
    rf"{_SPEAKER}\s+(?:an?\s+|the\s+)?(?:[\w\-]+\s+){{0,4}}?"
    rf"{_AGENT_NOUN},?\s+(?:(?:that|who)\s+(?:was|is)\s+)?"
)
_MADE = (
    r"(?:trained|built|developed|created|made|designed|released|produced|engineered|fine[\-\s]?tuned"
    r"|owned|operated|powered|brought\s+to\s+you)"
)
_BY_TAIL = r"\s+by\s+(?:the\s+(?:team|folks|people|researchers|engineers)\s+(?:at|of)\s+)?$"
SELF_PREFIXES = {
    # "I'm Claude", "my name is Grok", "I am an OpenAI model" (a provider needs a role noun after it)
    "declare": re.compile(
        r"(?<![\w'’])(?:i\s+am|i['’]m|im|i\s+was|my\s+name\s+is|call\s+me"
        r"|you['’]re\s+(?:talking|chatting)\s+(?:to|with))\s+(?:an?\s+|the\s+)?$",
        re.IGNORECASE,
    ),
    # "This is GPT-5 speaking", "It's Claude." (the mention must end the clause, see CLAUSE_END)
    "declare_weak": re.compile(
        r"(?<![\w'’])(?:this\s+is|it['’]s|it\s+is|here\s+is)\s+(?:an?\s+|the\s+)?$", re.IGNORECASE
    ),
    # "as an OpenAI model" (needs a role noun after the mention)
    "as": re.compile(r"(?<![\w'’])(?:as|being)\s+(?:an?\s+|the\s+)?$", re.IGNORECASE),
    # "As Claude, I ..." at the start of a sentence (a role noun or a comma after the mention)
    "as_lead": re.compile(r"(?:^|(?<=[.!?:;\n\"“(]))\s*(?:speaking\s+)?as\s+(?:an?\s+|the\s+)?$", re.IGNORECASE),
    # "(as a large language model) trained by Google", "I was built by xAI", "trained by OpenAI",
    # "I'm a model from OpenAI" (news such as "a chip designed by Google" is a provider mention, not this)
    "by": re.compile(
        rf"(?<![\w'’])(?:{_LEAD_IN}(?:(?:was|were|been|being)\s+)?{_MADE}"
        r"|(?:i\s+(?:was|am|have\s+been)|i['’](?:ve|m)\s+been|i['’]m|we\s+(?:were|are))\s+"
        rf"(?:(?:\w+ly|proudly|originally|initially)\s+)?{_MADE}"
        rf"|(?:pre[\-\s]?)?(?:trained|fine[\-\s]?tuned)){_BY_TAIL}"
        rf"|(?<![\w'’]){_SPEAKER}\s+(?:an?\s+|the\s+)?(?:(?:large|ai)\s+)?(?:language\s+)?"
        rf"{_AGENT_NOUN}\s+(?:from|by)\s+$"
        rf"|(?<![\w'’])(?:i\s+am|i['’]m)\s+[^.;\n]{{0,40}},\s+(?:an?\s+)?(?:(?:large|ai)\s+)?(?:language\s+)?"
        rf"{_AGENT_NOUN}\s+(?:built|made|trained|created|developed)\s+(?:by|at)\s+$",
        re.IGNORECASE,
    ),
    # "I, Claude, ...", "Me (Gemini): ...", "our Gemini desk", "my GPT view", "Model: claude-sonnet-4-6"
    "apposition": re.compile(
        r"(?<![\w'’])(?:i|me|we)\s*[,(]\s*$|(?<![\w'’])(?:our|my)\s+(?:own\s+)?$"
        r"|(?:^|(?<=[\n.;]))\s*(?:model|engine|llm|author|generated\s+by|signed)\s*:\s*$|(?:^|(?<=\n))\s*[—–]\s*$"
        r"|(?<![\w'’])(?:greetings|regards|cheers|thanks)\s+from\s+$",
        re.IGNORECASE,
    ),
    # "my creators at Anthropic", "we at OpenAI"
    "mine": re.compile(
        r"(?<![\w'’])(?:my|our)\s+(?:creators?|developers?|makers?|trainers?|designers?|builders?|authors?"
        r"|parent\s+company|company|team|lab)\s+(?:at\s+|is\s+|are\s+|,\s*)?$"
        r"|(?<![\w'’])(?:we|us)\s+(?:here\s+)?at\s+$",
        re.IGNORECASE,
    ),
}
# "Claude thinks ...", "Gemini recommends ...": a model name as the subject of an opinion or a decision is the
# author speaking of itself (a product in market news does not "recommend" or "favour" holdings)
SELF_OPINION_SUFFIX = re.compile(
    r"(?:['’]s\s+(?:view|take|call|pick|picks|thesis|recommendation|allocation)\b|\s+(?:thinks|believes|recommends|"
    r"favou?rs|prefers|expects|sees|likes|picks|chooses|allocates|overweights|underweights|is\s+(?:bullish|bearish|"
    r"overweight|underweight|positioned|buying|selling)|would\s+(?:buy|sell|hold)|will\s+(?:buy|sell|hold)))\b",
    re.IGNORECASE,
)
# "Google DeepMind trained me", "Anthropic built me": the provider of the author
SELF_MADE_ME_SUFFIX = re.compile(
    r"\s+(?:trained|built|made|created|developed|fine[\s-]?tuned)\s+(?:me|us)\b", re.IGNORECASE
)
SELF_ROLE_SUFFIX = re.compile(rf"{_ROLE}{END}|(?=\s*,)", re.IGNORECASE)
# "Grok here: ...", "Claude speaking." (the mention must open a sentence, see SENTENCE_START)
SELF_SUFFIX = re.compile(
    r"(?:['’]s)?\s*,?\s+(?:here|speaking|reporting|checking\s+in)(?=\s*(?:[:,.!;\-—–\n)]|$))",
    re.IGNORECASE,
)
CLAUSE_END = re.compile(
    r"(?:\s*,?\s+(?:speaking|here|reporting)(?![\w'’]))?(?=\s*(?:[,.!?:;\n—–)\]]|\s-\s|$))", re.IGNORECASE
)
SENTENCE_START = re.compile(r"(?:^|[.!?:;\n\"“(\[—–])\s*$")
SELF_WINDOWS = {"declare": 48, "declare_weak": 32, "as": 24, "as_lead": 48, "mine": 48, "by": 160, "apposition": 24}
"""Characters before a mention that each prefix pattern may cover."""
BY_ENDINGS = ("by", "from", "at", "of")
"""A "by" prefix ends with one of these words (a cheap test before the pattern runs)."""


def split_tokens(value: str) -> list[str]:
    """Lower-case letter runs and digit runs: ``"GPT-4.1o"`` -> ``["gpt", "4", "1", "o"]``."""
    return re.findall(r"[^\W\d_]+|\d+", value.lower())


def normalise(value: str) -> str:
    """Letters and digits only, lower case: the form two spellings of one name share."""
    return "".join(split_tokens(value))


def flexible_literal(value: str) -> str | None:
    """A pattern for ``value`` tolerant of case and separators (``gpt-5.5`` ~ ``GPT 5.5`` ~ ``gpt55``)."""
    tokens = split_tokens(value)
    if not tokens:
        return None
    return START + r"[\W_]{0,3}".join(re.escape(t) for t in tokens) + END


def model_key(value: str) -> tuple[frozenset[str], str]:
    """Comparable key of a model spelling: its words (provider words dropped) and its digits in order.

    ``Claude Sonnet 4.6``, ``claude-sonnet-4-6`` and ``anthropic/claude-sonnet-4.6`` share one key;
    date stamps (six or more digits) are dropped, so ``claude-3-7-sonnet-20250219`` ~ ``Claude 3.7 Sonnet``.
    """
    words: set[str] = set()
    digits: list[str] = []
    for tok in split_tokens(value):
        if tok.isdigit():
            if len(tok) < 6:
                digits.append(tok)
        elif tok not in PROVIDER_TOKENS:
            words.add(tok)
    return frozenset(words), "".join(digits)


def family_key(family: str) -> str:
    """Canonical provider family: ``"Google DeepMind"`` -> ``"google"``, ``"x-ai"`` -> ``"xai"``."""
    key = normalise(family)
    return FAMILY_SYNONYMS.get(key, key)


def provider_pattern(families: Iterable[str]) -> tuple[str, frozenset[str]]:
    """Provider names: the always-on list, plus conditional companies and unknown families in use.

    Returns the pattern and the extra trigger words (see ``TRIGGER_WORDS``) the additions need."""
    parts = list(_PROVIDERS_ALWAYS)
    triggers: set[str] = set()
    for raw in sorted(set(families)):
        fam = family_key(raw)
        if fam in NON_IDENTITIES or fam in KNOWN_FAMILIES:
            continue
        if fam in CONDITIONAL_PROVIDERS:
            if CONDITIONAL_PROVIDERS[fam] not in parts:
                parts.append(CONDITIONAL_PROVIDERS[fam])
                triggers |= CONDITIONAL_TRIGGERS[fam]
        else:
            lit = flexible_literal(raw)
            if lit:
                parts.append(lit)
                triggers |= first_letter_run(raw) or {""}  # "" = no letters: always scan
    return rf"{START}(?:{'|'.join(parts)}){END}", frozenset(triggers)


def first_letter_run(value: str) -> frozenset[str]:
    """The first letter run of ``value`` (lower case), or an empty set when it has no letters."""
    m = LETTER_RUN.search(value.lower())
    return frozenset({m.group()}) if m else frozenset()


# -- the gate: a cheap test that a text may contain an identity at all -------------------------------
# Real rationales rarely name a model, so the full patterns run only on texts that pass this test.
# Every alternative of MODEL_PATTERN and of the provider patterns contains one of these letter runs
# (tests/anonymizer/test_gate.py checks the corpus against it); contestant names add their own.
TRIGGER_WORDS = frozenset(
    """gpt gpts chatgpt claude opus sonnet haiku grok supergrok gemini gemma bard palm lamda llama codellama
    deepseek qwen qwq mistral mixtral codestral magistral ministral pixtral devstral command kimi glm phi
    nemotron jamba dbrx olmo ernie erniebot copilot bing chat davinci openai anthropic xai google deepmind meta
    facebook cohere zhipu alphabet fair series""".split()
)
"""Letter runs (lower case) whose presence sends a text through the full patterns."""
CONDITIONAL_TRIGGERS: dict[str, frozenset[str]] = {
    "microsoft": frozenset({"microsoft"}),
    "amazon": frozenset({"amazon", "aws"}),
    "nvidia": frozenset({"nvidia"}),
    "alibaba": frozenset({"alibaba"}),
    "ibm": frozenset({"ibm"}),
    "baidu": frozenset({"baidu"}),
    "tencent": frozenset({"tencent"}),
    "apple": frozenset({"apple"}),
    "facebook": frozenset({"facebook"}),
}
# Letter runs too common to trigger alone ("AI capex", "deep pullback", "o"): when one is present, the
# narrow pattern that every identity using it must match is searched in the lower-cased text instead.
PAIRED_GATES: dict[bytes, re.Pattern[str]] = {
    b"ai": re.compile(r"(?:open|x|01|inflection|moonshot)[\s.\-]*ai|ai21"),
    b"o": re.compile(r"o[1345]|4o"),
    b"deep": re.compile(r"deep[\s\-]?(?:seek|mind)"),
}
ASCII_LETTER_TABLE = bytes(c + 32 if 65 <= c <= 90 else c if 97 <= c <= 122 else 32 for c in range(256))
"""bytes.translate table: ASCII letters to lower case, everything else to a space (splits letter runs)."""
LETTER_RUN = re.compile(r"[^\W\d_]+")
WORD = re.compile(r"[^\W_]+")
"""A maximal run of letters and digits: the unit contestant names are matched on."""


def ascii_letter_runs(text: str) -> set[bytes]:
    """Lower-case ASCII letter runs of ``text`` (non-ASCII characters split runs): the gate's tokens."""
    return set(text.encode("utf-8", "surrogatepass").translate(ASCII_LETTER_TABLE).split())
