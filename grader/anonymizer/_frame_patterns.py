"""The authorship frames as patterns (``_frames.py`` reads a text with them): labels, signatures and
self-descriptions, each with the named author in its ``who`` group.

Each pattern holds the alternation of every identity name (some 450 names, 14 kB, in a season of model names), and
compiling it is most of the cost (25-30 ms a pattern, 56 patterns). ``loose_names`` is a short stand-in that matches
every string the alternation can match (and more): a frame pattern built around it (its *sieve*, cheap to compile)
finds something in every window where the frame pattern itself would, so ``_frames.Frames`` compiles a frame pattern
only once its sieve has found something, and skips the windows where the sieve finds nothing."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")

_MADE = (
    r"(?:made|built|trained|created|developed|designed|released|fine[\s-]?tuned|powered|brought\s+to\s+you|"
    r"generated|written|produced|authored|backed|served|hosted|reasoned(?:\s+out)?|worked\s+out|thought\s+through|"
    r"put\s+together|pieced\s+together|crafted|assembled|computed)\s+(?:in\s+[A-Z][\w-]*\s+|up\s+)?by\b|"
    r"\bruns?\s+on\b|\brunning\s+on\b|\bbased\s+on\b|\bspeaking\s+(?:as|for)\b|\bon\s+behalf\s+of\b|"
    r"\bdisclosure\s+from\b|\bfrom\s+the\s+desk\s+of\b"
)
_SPEAKER_TAIL = (
    r"(?:[\w.\-/]*\d[\w.\-/]*|(?-i:[A-Z][\w.\-/]*)|(?-i:[a-z][\w.]*[-/][\w.\-/]*)|(?i:mini|pro|max|flash|fast|lite|"
    r"large|medium|small|nano|turbo|preview|exp|instruct|chat|coder|reasoner|reasoning|thinking|heavy|latest|base|"
    r"plus|ultra|beta|assistant|agent|model|trading|research|ai|bot|team))"
)
"""The words a speaker's name carries before its speech word ("Claude Sonnet 4.5 speaking", "grok-4 fast reasoning
view", "qwen3-235b-a22b (thinking) take"): a version, a capitalised name part, an id part or a variant word; not
ordinary words, which make a noun phrase about something else ("The mistral wind cut solar output ...": a wind).
"""
_ROLE = (
    r"(?:model|agent|assistant|system|desk|team|trader|bot|lab|weights|creators?|makers?|developers?|"
    r"training|llm|ai|engine|variant|sibling|version|release|reasoner|reasoning\s+model|instance)"
)


_VARIANT_WORD = (
    r"(?i:nano|mini|turbo|flash|lite|pro|fast|large|small|medium|max|plus|ultra|heavy|thinking|instruct|chat|coder)"
)
"""A variant word of a model line ("Turbo", "Flash", "mini")."""
_SPEAKER_ROLE = r"(?:desk|team|bot|agent|assistant|trading\s+\w+|system|trader)\b"
_PRODUCT_EVENT = (
    r"[^.;\n]{0,40}?\b(?:ships|shipped|shipping|launch\w*|rolled|rolls|rolling|released|arrives|arrived|integrat\w*|"
    r"added|adds|passed|topped|tops|reached|gained|lost|users|downloads|revenue|subscri\w+|(?:is|are)\s+(?:now\s+)?"
    r"(?:available|live|free|priced|bundled|offered))\b"
)
"""An event that follows "the X assistant" in the news ("The Grok assistant now ships in Tesla vehicles"): the
product, not the speaker ("the Qwen desk recommends" stays a self-description)."""


def name_pieces(name: str) -> list[str]:
    """The parts of a name the alternation joins by an optional separator ("Claude Opus" -> Claude, Opus)."""
    return [p for p in re.split(r"[\s\-_.]+", name) if p]


def names_alternation(names: Sequence[str]) -> str:
    """Every name, longest first as given, its parts joined by an optional separator ("gpt 4o", "gpt-4o", "gpt4o")."""
    return "|".join(r"[\s\-_.]?".join(re.escape(p) for p in name_pieces(w)) for w in names)


_NAME_END = r"(?-i:(?![^\W_\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]))"
"""Where a name ends: before anything but a letter or digit, or before kana, a CJK ideograph or Hangul, which run on
with no space ("저희 Claude는", "Claude的": the particle is no part of the name). Case-sensitive inside (``(?-i:``):
no character of those ranges has a case, nor folds into them (the same matches for every code point, checked in
``tests/anonymizer/test_frame_sieve.py``), and under ``re.I`` the compiler would fold each of their 38,000
characters: 5 ms a pattern instead of 1.4 ms, and the frames' patterns and sieves hold it some sixty times."""


def ident_source(alt: str) -> str:
    """Any name of ``alt`` with its version/variant tail: "Claude Opus 4.7", "gpt-4o", "Llama 4 Maverick"."""
    return (
        rf"(?<![^\W_])(?:{alt})(?:[\s\-_.]?(?:v?\d(?:[\w.]*\w)?|mini|pro|max|flash|large|small|"
        rf"medium|scout|maverick|opus|sonnet|haiku|instruct|chat|turbo|r1|v3))*{_NAME_END}"
    )


def loose_names(names: Sequence[str], prefix: int = 3) -> str:
    """A short pattern matching every string ``names_alternation(names)`` matches, under the same flags (and much
    more): the first ``prefix`` characters of a name's first part, as the same literals, then any characters up to
    the longest name's length (each character of the alternation is a literal or an optional one-character
    separator: a match is never longer than the name's characters and separators)."""
    pieces = [name_pieces(w) for w in names]
    longest = max((sum(map(len, p)) + len(p) - 1 for p in pieces if p), default=0)
    if not pieces or any(not p for p in pieces):  # a name of separators only: the alternation matches ""
        return rf"(?s:.{{0,{longest}}})"
    starts = sorted({p[0][:prefix] for p in pieces}, key=lambda s: (-len(s), s))
    return rf"(?:{'|'.join(map(re.escape, starts))})(?s:.{{0,{max(0, longest - 1)}}})"


def frame_patterns(
    alt: str,
    ident: str,
    make: Callable[[str], T] = re.compile,  # type: ignore[assignment]
) -> tuple[list[tuple[str, T]], list[tuple[str, T]]]:
    """(frames that say who speaks by themselves, frames that need a first person) for the names ``alt`` (an
    alternation) and ``ident`` (a name with its version tail), in the order they are tried; ``make`` makes each
    pattern from its source (``re.compile``; ``str`` keeps the sources). The names stand only where more of them
    can only find more: never inside a negative look-around, a back-reference or an atomic group (the sieves rely on
    it)."""
    # a name inside a handle or tag ("#GrokTrades", "@ClaudeDesk"): a capitalised part of a compound word
    compound = make(rf"(?i)(?<![\w@#])[@#](?P<who>\w*?(?:{alt})\w*)")
    maker = (
        r"(?:parent(?:\s+company)?|developer|developers|maker|makers|creator|creators|builder|lab|vendor|"
        r"provider|owner|trainer|company|house|home\s+lab)"
    )
    speech = (
        r"(?:here|speaking|writing|signing(?:\s+off)?|reporting|suggest(?:s|ed)?|thinks?|thought|recommend(?:s|ed)?|"
        r"advised|concluded|says|said|calls?|notes?|"
        r"view|take|call|verdict|output|trace|reasoning|analysis|desk|signal|pick|log|→|->|"
        r"(?:观点|看法|点评|判断|見解|見方)(?=\s*[:：]))"
    )
    # frames that say who speaks by themselves (no first person needed)
    inherent: list[tuple[str, T]] = [
        (
            "label",
            # "[xAI / grok-4]", "<Claude>", "#GrokDesk", "@qwen": a tag; a comment or heading ("# codestral-2508
            # generated this") only when the name opens it and is not a possessive ("# thesis: Mistral's ...": news)
            make(
                rf"(?im)(?:^|(?<=[.!?]\s))\s*(?:(?:[\[<@]\s*|#(?![#\s]))(?P<who>[^\]>\n]{{0,12}}?{ident}[^\]>\n\s]{{0,30}})|"
                rf"#[ \t]+(?P<who2>{ident}[^\]>\n\s'\u2019]{{0,30}})(?!['\u2019]))"
            ),
        ),
        (
            "label",
            make(
                rf"(?i)\b(?:route|agent|author|model|provider|vendor|family|engine|llm|source)\s*=\s*[\"']?"
                rf"(?P<who>[^\s\"'|;,>]{{0,12}}?{ident}[^\s\"'|;,>]{{0,40}})"
            ),
        ),
        (
            "label",
            make(
                rf"(?i)\\author\s*\{{(?P<who>[^}}]{{0,80}})\}}|<!--\s*(?P<who2>[^>]{{0,80}}?{ident}[^>]{{0,40}}?)\s*-->"
            ),
        ),
        ("label", make(rf"(?i)[@#](?P<who>\w*{ident}\w*)")),
        # the first person set beside its name in other languages: "Nous, chez Mistral AI, aimons ...", "Moi,
        # Mistral, je ...", "Wir bei Meta, ...", "Nosotros en Google, ..." (a pronoun, a comma or a preposition of
        # place, the name, a comma)
        (
            "self_reference",
            make(
                rf"(?i)(?<![\w'\u2019])(?:nous|moi|nosotros|yo|wir|noi|io|n[óo]s|eu)[ \t]*(?:,[ \t]*)?(?:(?:chez|en|bei|presso|"
                rf"em|na|no|da)[ \t]+)?(?P<who>{ident}(?:[ \t][\w.\-]+){{0,2}}?)[ \t]*,(?=[ \t])"
            ),
        ),
        # a data record's key for which line or build the text came from, its value a name: '"line":"grok"',
        # "series: gemini", "base_model=qwen3" (a key that holds a name only where a model wrote the record)
        (
            "label",
            make(
                rf"(?i)(?<![\w-])[\"']?(?:line|model[_\-]?line|series|backbone|base[_\-]?model|checkpoint|variant|build)"
                rf"[\"']?[ \t]*[:=][ \t]*[\"']?(?P<who>{ident}[^\s\"',;}}|]{{0,30}})(?=[ \t]*(?:[\"',;}}|\n]|$))"
            ),
        ),
        # a denial that names the line, and the plain build the author is instead: "Not a Llama 3 fine-tune: this
        # is stock Llama 4", "Not the R1 reasoner, just plain V3 chat", "not some Gemini distill"
        (
            "self_reference",
            make(
                rf"(?im)(?:^|(?<=[.!?:;]\s))[ \t]*(?:(?:I'm|I\s+am|this\s+is|it's)[ \t]+)?not[ \t]+(?:a|an|the|some)[ \t]+"
                rf"(?P<who>{ident}(?:[ \t][\w.\-]+){{0,1}}?)[ \t\-]+(?:fine-?tune|finetune|distill\w*|variant|reasoner|"
                rf"build|checkpoint|version|release|instruct|chat|model)\b"
            ),
        ),
        (
            "self_reference",
            make(
                rf"(?i)(?:\bthis\s+is|\bit's|\bjust|\bonly)[ \t]+(?:(?:the|a|an)[ \t]+)?(?:plain|stock|vanilla|unmodified|"
                rf"raw|default)[ \t]+(?P<who>{ident}(?:[ \t]+(?:from|by)[ \t]+{ident})?)"
                rf"(?=[ \t]*(?:chat|instruct|base|weights|checkpoint|build|model|[.,;:!)]|$))"
            ),
        ),
        # a model host's path naming the model: "huggingface.co/meta-llama/Llama-4-Scout-17B", "github.com/deepseek-ai/
        # DeepSeek-V3", "ollama.com/library/qwen3" (the path from its first segment with a name to its end: a model id)
        (
            "label",
            make(
                rf"(?i)(?<![\w.@])(?:https?://)?(?:www\.)?(?:huggingface\.co|hf\.co|github\.com|ollama\.com|openrouter\.ai|"
                rf"replicate\.com|modelscope\.cn|kaggle\.com/models)/(?:[\w.\-~%]+/)*?"
                rf"(?P<who>[\w.\-~%]*?{ident}[^\s)\]>\"',;]*)"
            ),
        ),
        # where the weights come from, said in a line of its own with no subject: "Weights from MSL (ex-FAIR).",
        # "Checkpoint by Google DeepMind;" ("Weights from Meta were downloaded 1B times" goes on: news)
        (
            "self_reference",
            make(
                rf"(?im)(?:^|(?<=[.!?]\s))[ \t]*(?:(?:my|our|the)[ \t]+)?(?:weights|checkpoint|base[ \t]+model|training|"
                rf"pre-?training|fine-?tuning)[ \t]+(?:from|by|at|of)[ \t]+(?:the[ \t]+)?(?P<who>{ident}"
                rf"(?:[ \t]*\([^)\n]{{0,30}}\))?)(?=[ \t]*(?:[.;:]|$))"
            ),
        ),
        # the same, the lab first, in a fragment of its own: "*Alibaba Cloud* weights.", "; DeepSeek checkpoint." (a
        # fragment that goes on is news: "Meta weights were downloaded 1B times")
        (
            "self_reference",
            make(
                rf"(?im)(?:^|(?<=[.!?;]\s))[ \t]*[*_]*(?P<who>{ident})[*_]*[ \t]+(?:open[ \t-]+)?(?:weights|checkpoint|"
                rf"base[ \t]+model)[ \t]*(?=[.;]|$)"
            ),
        ),
        # a link whose host names a lab, with its scheme or a path: "https://aistudio.google.com/app/...",
        # "deepmind.google/models", "api.deepseek.com/v1" (where the text was made; a bare host in the news,
        # "traffic to chatgpt.com rose", has neither)
        (
            "label",
            make(
                rf"(?i)(?:\bhttps?://(?P<who>(?:[\w\-]+\.)*?{ident}(?:\.[\w\-]+)*\.[a-z]{{2,}}(?:/[^\s)\]>\"',;]*)?)|"
                rf"(?<![\w.@/])(?P<who2>(?:[\w\-]+\.)*?{ident}(?:\.[\w\-]+)*\.[a-z]{{2,}}/[^\s)\]>\"',;]*))"
            ),
        ),
        # a sign-off line: "-- grok, long NVDA", "— claude, anthropic" (a dash opens the line, the name follows; not
        # a possessive, which is news: "— Meta's capex ...")
        (
            "label",
            make(
                rf"(?im)^[ \t]*(?:--|[\u2014\u2013])[ \t]*(?:(?i:(?:written|posted|sent|signed|generated|produced|drafted)"
                rf"\s+(?:by|from)|from)[ \t]+(?:the[ \t]+)?)?(?P<who>{ident})(?!['\u2019]s\b)(?=[ \t]*(?:$|[,/|(#]|\s+\w))"
            ),
        ),
        # a copyright line or a citation of the text itself: "(c) 2026 Mistral AI", "(DeepSeek-AI, 2026, this note)"
        (
            "label",
            make(
                rf"(?i)(?:\(c\)|\u00a9|\bcopyright)\s*(?:(?:19|20)\d\d\s*)?(?P<who>{ident})|"
                rf"\((?P<who2>{ident})\s*,\s*(?:19|20)\d\d\s*,\s*(?:this|the\s+present)\s+(?:note|rationale|memo|report)"
            ),
        ),
        # what describes a name already replaced, right after it: "[model] (千问)", "[model] (the Llama 4 one, from Meta)"
        (
            "label",
            make(
                rf"\[(?:model|provider|self-reference|undisclosed)\]\]?\s*[(（](?P<who>[^)）\n]{{0,40}}?{ident}[^)）\n]{{0,40}})[)）]"
            ),
        ),
        # what the text is, said of an unnamed model of a lab: "generated by an OpenAI model", "Output of an xAI
        # model.", "Quick one from an OAI model:" (an indefinite article: one of the lab's models wrote it; "powered
        # by an OpenAI model" is left to the first-person frames: products are powered by models in the news)
        (
            "self_reference",
            make(
                rf"(?i)(?:\b(?:generated|written|produced|authored|drafted|composed|created|prepared)\s+(?:by|with)|"
                rf"\b(?:output|product|work|note|take|view|analysis|opinion|call|one|message|answer|reply|read|"
                rf"thoughts?)\s+(?:of|from|by))\s+(?:an?|one)\s+(?P<who>{ident})(?:[\s\-][\w.\-]+){{0,2}}?[\s\-]+"
                rf"(?:model|agent|assistant|llm|system|bot)\b"
            ),
        ),
        # the text heads itself as coming from one of a lab's models: "A meta point from a Meta model: ...", "(from an
        # xAI model)" (a colon, a closing bracket or the line's end after the model noun; "moved from an OpenAI model
        # to Claude" is news)
        (
            "self_reference",
            make(
                rf"(?im)\bfrom\s+(?:an?|one)\s+(?P<who>{ident})(?:[\s\-][\w.\-]+){{0,2}}?[\s\-]+"
                rf"(?:model|agent|assistant|llm|bot)\s*(?=[:)]|$)"
            ),
        ),
        # the text's author glossed as one of a lab's models: "the author, a Grok model, abstains", "The writer, a
        # Behemoth-distilled model, expects", "yours truly, a Qwen model,", "the author (DeepSeek, MIT-licensed weights)"
        (
            "self_reference",
            make(
                rf"(?i)\b(?:the\s+(?:author|writer)|this\s+(?:author|writer)|yours\s+truly)\s*[,(]\s*(?:an?\s+|the\s+)?"
                rf"(?P<who>{ident})(?=(?:-[\w]+)?[\s\-]+{_ROLE}\b|\s*[,)])"
            ),
        ),
        # the model behind a product, speaking: "the model behind AI Overviews thinks this breakout is real" ("the model
        # behind ChatGPT got cheaper" is news: no verb of opinion)
        (
            "self_reference",
            make(
                rf"(?i)\bthe\s+(?:model|llm|assistant|agent|system)\s+(?:behind|inside|powering)\s+(?P<who>{ident}"
                rf"(?:[\s\-][\w.\-]+){{0,2}}?)\s+(?:thinks|says|sees|expects|recommends|believes|suggests|wants|writes|"
                rf"rates|is\s+(?:writing|buying|selling|long|short))\b"
            ),
        ),
        # a name the author owns in brackets: "R1-0528 (that's me)", "通义千问 (that's me)"
        (
            "self_reference",
            make(
                rf"(?i)(?P<who>{ident}(?:[\s\-][\w.\-]+){{0,2}}?)(?:['\u2019]s\s+[\w-]+(?:\s+[\w-]+)?)?\s*"
                rf"[(（]\s*(?:that['\u2019]?s|that\s+is|this\s+is|it['\u2019]?s)\s+(?:me|us|myself)\s*[)）]"
            ),
        ),
        # "as a model of X" in other languages: "Como modelo de OpenAI", "Als Gemini-Modell", "作为 DeepSeek 模型",
        # "En tant que modèle Mistral"; a model word always stands with the name ("als" and "como" alone are also
        # "than", "when" and "like": "höher als Meta, ..." is news)
        (
            "self_reference",
            make(
                rf"(?i)(?:\b(?:como|come|in\s+qualità\s+di)\s+(?:un\s+)?[\w-]*model(?:o|e|lo)\s+(?:de\s+|di\s+|da\s+)?|"
                rf"\ben\s+tant\s+que\s+[\w-]*mod[eè]le\s+(?:de\s+)?|"
                rf"\bals\s+(?:ein\s+)?[\w-]*modell\s+(?:von\s+)?)(?P<who>{ident})|"
                rf"(?:\bcomo\s+(?:un\s+)?|\ben\s+tant\s+que\s+|\bals\s+(?:ein\s+)?|作为\s*)(?P<who2>{ident})"
                rf"(?=[\s\-]*(?:modelo|mod[eè]le|modell|模型))"
            ),
        ),
        # a disclaimer on the lab's models: "DeepSeek models can hallucinate figures", "outputs from Meta AI may be
        # inaccurate" (what a model's maker warns of its output; no market news says it of a company)
        (
            "self_reference",
            make(
                rf"(?i)(?P<who>{ident})(?:['\u2019]s)?(?:[\s\-](?:models?|outputs?|answers?|responses?|LLMs?|AI))?\s+"
                rf"(?:can|may|might|could|will|sometimes|often|occasionally)\s+(?:\w+\s+)?(?:hallucinat\w*|"
                rf"be\s+(?:wrong|inaccurate|mistaken|outdated|incorrect|unreliable)|make\s+mistakes|"
                rf"contain\s+(?:errors|mistakes|inaccuracies))\b"
            ),
        ),
        # the lab's licence or policy said to apply to the text: "Meta's acceptable-use policy applies." ("... applies to
        # developers in the EU" is news)
        (
            "self_reference",
            make(
                rf"(?i)(?P<who>{ident})['\u2019]s\s+(?:acceptable[\s-]use|usage|use|community|content)\s+(?:policy|policies|"
                rf"licen[cs]e|terms)\s+(?:applies|apply)(?:\s+(?:here|to\s+(?:this|me|my)\b[^.;\n]{{0,20}}))?\s*(?:[.;:]|$)"
            ),
        ),
        # the lab named as the author's maker in the third person: "Alibaba Group is the parent of the model writing
        # this note", "Anthropic is the lab behind this desk"
        (
            "self_reference",
            make(
                rf"(?i)(?P<who>{ident}(?:\s+(?:Group|Inc\.?|Corp\.?|Cloud|Labs?|Research))?)\s+(?:is|was)\s+(?:the\s+)?"
                rf"{maker}(?:\s+company)?\s+(?:of|behind)\s+(?:me\b|this\s+(?:model|agent|assistant|note|rationale|"
                rf"desk|analysis)\b|the\s+(?:model|agent|assistant|bot|system)\s+(?:writing|behind|that\s+wrote|"
                rf"who\s+wrote|producing|authoring)\b)"
            ),
        ),
        # a name's own reasoning or call glossed as the text's: "Conclusion of R1's chain of thought:", "Google's
        # take, via its model:"
        (
            "signature",
            make(
                rf"(?i)(?P<who>{ident})['\u2019]s\s+(?:own\s+)?(?:(?:chain[\s-]of[\s-]thought|reasoning)\s*:|"
                rf"(?:pick|view|take|call|verdict|read)\s*,\s*(?:via|from|by|per)\s+(?:its|their|the)\s+"
                rf"(?:model|assistant|agent)\b)"
            ),
        ),
        # a greeting or an introduction: "Hi, Meta AI here", "Hey, Grok speaking", "This is R1 from DeepSeek."
        (
            "signature",
            make(
                rf"(?i)\b(?:hi|hello|hey|greetings|howdy|yo)\s*[,!]?\s+(?:(?:it's|this\s+is)\s+)?(?:the\s+)?"
                rf"(?P<who>{ident}(?:[\s\-][\w.\-]+){{0,2}}?)\s+(?:here|speaking|reporting|checking\s+in)\b"
            ),
        ),
        (
            "signature",
            make(
                rf"(?im)(?:^|(?<=[.!?]\s))\s*(?:(?:hi|hello|hey)\s*[,!]?\s+)?this\s+is\s+"
                rf"(?P<who>{ident}(?:\s+(?:from|by|of)\s+{ident})?)(?![\w.\-]*['\u2019]s\b)"
                rf"(?=\s+(?:from|by|here|speaking)\b|\s*[,.:;!\u2014\u2013](?:\s|$)|\s*$)"
            ),
        ),
        # a sign-off naming the lab's model: "Bisous from Paris — Mistral AI's model."
        (
            "signature",
            make(
                rf"(?im)(?:[\u2014\u2013]|--)\s*(?P<who>{ident}['\u2019]s\s+(?:model|agent|assistant|desk|bot|llm))"
                rf"\.?[ \t]*$"
            ),
        ),
        # a letter's opening or a spoken line: "From Qwen to you:", "Maverick writing (...)"
        ("signature", make(rf"(?i)\bfrom\s+(?P<who>{ident})\s+to\s+you\b")),
        # who made the text, said with no subject at a sentence's start: "Trained by X's team.", "Built by X."
        (
            "self_reference",
            make(
                rf"(?m)(?:^|(?<=[.!?]\s))\s*(?i:(?:made|built|trained|created|developed|fine[\s-]?tuned|released)\s+"
                rf"(?:by|at|in))"
                rf"\s+(?i:the\s+)?(?:[\w'\u2019-]+\s+){{0,2}}?(?P<who>{ident})"
            ),
        ),
        # who wrote the text, said with no subject: "Drafted by the Tongyi Lab model on Alibaba Cloud:", "Composed by
        # Gemini." (a model noun after the name, or the sentence ends: "Drafted by Google's lawyers, the settlement
        # ..." is news)
        (
            "self_reference",
            make(
                rf"(?m)(?:^|(?<=[.!?]\s))\s*(?i:(?:drafted|written|generated|produced|composed|prepared|authored)\s+by)"
                rf"\s+(?i:(?:the|an?)\s+(?:[\w-]+\s+)?(?:{_ROLE})(?:\s+team)?\s+(?:from|at|of|in)\s+)?"
                rf"(?i:the\s+)?(?P<who>{ident}(?:[\s\-][\w\-]+(?:\.[\w\-]+)*){{0,2}}?)(?=(?:['\u2019]s)?\s+(?i:{_ROLE})\b|"
                rf"\s*[.:;]|\s*$)"
            ),
        ),
        # reported self-speech: the first person's own words in quotes, opened by its name ('I said "Claude, Sonnet
        # tier,"', "As I told the user, 'I'm GPT-4o'", "j'ai répondu « je suis DeepSeek-Chat »"); the quoted name phrase
        # ends at a comma or the quote ('I said "Gemini 3 launch lifts GOOGL"' quotes a forecast: no match)
        (
            "self_reference",
            make(
                rf"(?i)(?:\b(?:I|we)\s+(?:said|say|told\s+(?:[\w-]+\s+){{1,3}}?|answered|answer|replied|reply|wrote|"
                rf"explained|introduced\s+myself\s+as)|\bj['\u2019]ai\s+(?:dit|répondu|écrit)|\bich\s+sagte|"
                rf"\bdije|\bho\s+detto)\s*[,:]?\s*(?:that\s+)?[\"\u201c\u2018'\u00ab\u300c]\s*"
                rf"(?:(?:I['\u2019]m|I\s+am|je\s+suis|ich\s+bin|soy|sono|this\s+is|it['\u2019]s)\s+)?(?:an?\s+|the\s+)?"
                rf"(?P<who>{ident}(?:[\s\-](?:v?\d[\w.\-]*|(?-i:[A-Z][\w.\-]*)|{_VARIANT_WORD})){{0,3}}?"
                rf"(?:\s*,\s*[^\"\u201d\u2019'\u00bb\u300d\n,.;]{{0,24}}?)?)"
                rf"(?=\s*[,.;!]?\s*[\"\u201d\u2019'\u00bb\u300d])"
            ),
        ),
        # the first person as a relation of a named model: "I'm its predecessor, R1", "I am the smaller sibling
        # (Haiku)" (the name right after the relation is the author's)
        (
            "self_reference",
            make(
                rf"(?i)\b(?:I['\u2019]m|I\s+am)\s+(?:its|their|the|a|an|his|her)\s+(?:[\w-]+\s+){{0,2}}?"
                rf"(?:predecessor|successor|sibling|ancestor|descendant|cousin|twin|sister|brother|"
                rf"(?:older|younger|earlier|later|previous|smaller|larger|bigger)\s+(?:version|release|model|sibling|"
                rf"generation|build))\s*(?:[,(:\u2014\u2013]\s*)(?P<who>{ident}(?:[\s\-][\w.\-]+){{0,2}}?)"
                rf"(?=\s*[,.;:)!\u2014\u2013]|\s*$)"
            ),
        ),
        # a question the text asks of itself, answered: "Is this Codestral? No.", "Is it Large? No.", "Am I a Llama?",
        # "Who is writing? Not Opus" (a capitalised word in the question is the author's name or tier; "Is this
        # Gemini's moment?" is a question about a product: no answer follows)
        (
            "self_reference",
            make(
                rf"(?i)(?:\b(?:is\s+(?:this|it|that)|are\s+we)\s+(?:an?\s+|the\s+)?(?P<who>{ident}(?:[\s\-][\w.\-]+){{0,2}}?|"
                rf"(?-i:[A-Z][\w.\-]*))\s*\?\s*(?-i:No|Nope|Yes|Yep|Not\s+quite|Not\s+really|Of\s+course|Correct|Wrong)"
                rf"\s*(?:[.!:;\u2014\u2013]|$)|"
                rf"\bam\s+I\s+(?:an?\s+|the\s+)?(?P<who2>{ident}(?:[\s\-][\w.\-]+){{0,2}}?)\s*\?)"
            ),
        ),
        (
            "self_reference",
            make(
                rf"(?i)\bwho(?:['\u2019]s|\s+is)\s+(?:writing|speaking|talking|this|here|typing)\s*\?\s*"
                rf"(?:(?:not|it['\u2019]s|I['\u2019]m|this\s+is)\s+)?(?:an?\s+|the\s+)?(?P<who>{ident}(?:[\s\-][\w.\-]+){{0,2}}?)"
                rf"(?=\s*[,.;:!\u2014\u2013]|\s*$)"
            ),
        ),
        # a header line that says what the text is: "User-Agent: claude-cli/2.0 (anthropic-sdk)", "X-Model: grok-4",
        # "Co-authored-by: Codex <noreply@openai.com>", "From: desk <grok@api.x.ai>" (the header's shape; a sender
        # line only with an address); every name on the line goes, a company that makes no model stays ("X-Served-By:
        # llama-3.3-70b (Meta weights via Groq)")
        (
            "label",
            make(
                rf"(?im)^[ \t]*(?:(?:x-[\w-]*(?:model|org|provider|vendor|served|agent|engine|lab|llm|author|by|source|"
                rf"client|sdk)[\w-]*|user-agent|server|via|served-by|co-authored-by|signed-off-by|reviewed-by|"
                rf"authored-by|helped-by|assisted-by|generated-by|on-behalf-of|committer)[ \t]*:[ \t]*"
                rf"[^\n]{{0,80}}?(?P<who>{ident}[^\s,;()<>]*)|"
                rf"(?:from|reply-to|sender|return-path|to)[ \t]*:(?=[^\n]*@)[ \t]*[^\n]{{0,60}}?(?P<who2>{ident}[^\s,;()<>@]*))"
            ),
        ),
        # a footnote that cites a model by its lab: "[^1]: Anthropic (2025). *Claude Sonnet 4.5*, rationale #88" (the
        # lab as the author of a model it names; "[^2]: Reuters (2025). Anthropic raises ..." cites a newswire)
        (
            "label",
            make(
                rf"(?im)^[ \t]*\[\^?[\w-]{{1,10}}\]:?[ \t]*(?P<who>{ident}(?:[ \t,&]+[\w.\-]+){{0,3}}?)[ \t]*"
                rf"\((?:19|20)\d\d[a-z]?\)\.?[ \t]*[*_\"\u201c]*(?=[^\n]{{0,20}}?{ident})"
            ),
        ),
        # a speaker line of a tier or variant, glossed by its line in brackets: "Flash here (Gemini line) likes ...",
        # "Medium here [Mistral]:"
        (
            "signature",
            make(
                rf"(?im)(?:^|(?<=[.!?;]\s))[^\w\n]{{0,4}}(?P<who>(?-i:[A-Z][\w.\-]*)(?:[ \t]+[\w.\-]+){{0,2}}?)[ \t]+here\b"
                rf"(?=[ \t]*[(\[][^)\]\n]{{0,30}}?{ident})"
            ),
        ),
        # a speaker line made of where the author was made: "Hangzhou-built, High-Flyer-funded reasoner here (R1
        # lineage):" (the whole line's subject is the author)
        (
            "signature",
            make(
                rf"(?im)^[^\w\n]{{0,4}}(?P<who>(?:[\w.\-]+-(?:built|made|trained|funded|backed|born|bred|based|grown|"
                rf"tuned)[ \t]*,?[ \t]*){{0,2}}{ident}-(?:built|made|trained|funded|backed|born|bred|based|grown|tuned)"
                rf"(?:[ \t]*,?[ \t]*[\w.\-]+-(?:built|made|trained|funded|backed|born|bred|based|grown|tuned)){{0,2}}"
                rf"(?:[ \t]+[\w-]+){{0,2}}?[ \t]+(?:model|reasoner|agent|assistant|bot|llm|system|desk|checkpoint|"
                rf"build)[ \t]+here\b(?:[ \t]*\([^)\n]{{0,40}}\))?)"
            ),
        ),
        # where a header says the text comes from, a unit of a lab: "From the Strawberry line at OAI:", "From the
        # Qwen series of Alibaba Cloud:" (a model line; "From the Google earnings call:", "From the research team at
        # DeepSeek: a paper ..." are the guard's: a unit may head news)
        (
            "self_reference",
            make(
                rf"(?im)(?:^|(?<=[.!?]\s))[ \t]*from[ \t]+(?P<who>(?:the[ \t]+)?(?:[\w.\-]+[ \t]+){{0,2}}?(?:line|family|"
                rf"series)[ \t]+(?:at|of|in)[ \t]+(?:the[ \t]+)?{ident})[ \t]*:"
            ),
        ),
        # who wrote the text, said as the model its lab ships under a name: "Written from SF by the model Anthropic
        # ships as Sonnet" ("Amazon hosts the model Anthropic ships as Sonnet" has no verb of writing)
        (
            "self_reference",
            make(
                rf"(?i)\b(?:written|drafted|generated|produced|composed|authored|prepared|typed|sent)\b[^.;\n]{{0,40}}?"
                rf"\bby\s+the\s+(?:model|assistant|agent|bot|llm|system)\s+(?:that\s+|which\s+)?(?P<who>{ident}\s+"
                rf"(?:ships|sells|offers|markets|releases|brands|calls|serves|deploys)(?:\s+as\s+{ident}"
                rf"(?:[\s\-][\w.\-]+){{0,2}}?)?)(?=\s*[,.;:!]|\s*$)"
            ),
        ),
        # a lab or a line as a segment of a file path: "/opt/models/alibaba/tongyi/", "~/runs/llama-3.1-405b/out.txt",
        # "ckpt/eval/deepseek-v3/" (lower-case segments before it; "Microsoft/Amazon/Meta" is a list of companies)
        (
            "label",
            make(
                rf"(?i)(?:(?<![\w/~.:])(?:~|\.{{1,2}})?/(?-i:[a-z0-9_.\-]+/)+|(?<![\w/:.])(?-i:[a-z0-9_.\-]+/){{2,}})"
                rf"(?P<who>{ident}(?:/(?-i:[a-z0-9_.\-]+))*/?)"
            ),
        ),
        ("label", compound),
        # a former name said with no subject: "Formerly shipped as Bard.", "(Previously released to you as Bard.)"
        # (the name ends the sentence; "Formerly known as Bard, Gemini now ..." names the product: news)
        (
            "self_reference",
            make(
                rf"(?im)(?:^|(?<=[.!?(]\s)|(?<=[.!?(]))\s*(?:formerly|previously|once|originally)\s+"
                rf"(?:[\w-]+\s+){{0,4}}?(?:as|called|named)\s+(?P<who>{ident})(?=\s*[.!)]|\s*$)"
            ),
        ),
        # where the text was typed, with no subject: "Typed in the ChatGPT app, so ...", "Sent from Le Chat.",
        # "Posted via Qwen Chat:"
        (
            "self_reference",
            make(
                rf"(?m)(?:^|(?<=[.!?]\s))\s*(?i:(?:typed|sent|posted|written|composed|drafted|answered|replied)\s+"
                rf"(?:in|from|via|through|on|with|at)\s+(?:the\s+|my\s+)?)(?P<who>(?:[\w-]+\.)?{ident}(?:\.[a-z]{{2,}})*)"
            ),
        ),
        # a sign-off phrase and who signs: "Signing off, the ChatGPT instance on seat 3."
        (
            "signature",
            make(
                rf"(?i)\bsigning\s+off\s*[,:\u2014\u2013-]\s*(?:the\s+|your\s+)?(?:[\w-]+\s+){{0,2}}?"
                rf"(?P<who>{ident}(?:[\s\-][\w.\-]+){{0,2}}?)(?=[\s.,;:!]|$)"
            ),
        ),
        # the text's own noun and where it comes from: "this note comes from xAI", "The view is from a Gemini model"
        (
            "self_reference",
            make(
                rf"(?i)\b(?:this|the)\s+(?:note|view|commentary|analysis|rationale|output|memo|write-?up|message|"
                rf"answer|response|recommendation)\s+(?:comes?|came|is|was)\s+(?:straight\s+)?from\s+"
                rf"(?:an?\s+|the\s+)?(?:[\w-]+\s+){{0,2}}?(?P<who>{ident})(?=(?:['\u2019]s)?\s+{_ROLE}\b|"
                rf"\s*[,.;:)]|\s*$)"
            ),
        ),
        # a request to a lab's API host: "POST dashscope.aliyuncs.com/...", "api.deepseek.com/chat"
        (
            "label",
            make(
                rf"(?i)(?:\b(?-i:POST|GET|PUT|PATCH)|\bcurl)\s+(?:-\S+\s+)*(?:https?://)?(?P<who>[\w.\-]*?{ident}[\w.\-/]*)|"
                rf"(?<![\w.])(?:https?://)?(?P<who2>(?:api|console|platform)\.(?:[\w-]+\.)*?{ident}\.[a-z]{{2,}}[\w./\-]*)"
            ),
        ),
        # who made the author, said by the author: "my parent xAI", "My developer, Alibaba Cloud, ...",
        # "Anthropic, my maker,", "as the model Elon's xAI ships inside X"
        ("self_reference", make(rf"(?i)\b(?:my|our)\s+{maker}\s*[,:(]?\s*(?:the\s+|is\s+)?(?P<who>{ident})")),
        ("self_reference", make(rf"(?i)(?P<who>{ident})\s*,\s*(?:my|our)\s+{maker}\b")),
        (
            "self_reference",
            make(
                rf"(?i)\bas\s+the\s+(?:model|assistant|agent|bot|llm|system)\s+(?:that\s+|which\s+)?"
                rf"(?:[\w'\u2019]+\s+){{0,2}}?(?P<who>{ident})\s+(?:ships|makes|builds|built|made|"
                rf"trains|trained|serves|offers|runs|released|deploys|hosts)\b"
            ),
        ),
        ("label", make(r"(?i)(?:作者|署名|落款|撰写)\s*[:：]\s*(?P<who>[^。.\n]{0,40})")),
        # who wrote the text, in Chinese: "本文由 DeepSeek 生成" (a verb of writing: "由 X 提供", provided by, is news)
        # (the name may stand in quotes with its model after it: "由「深度求索」的 V3.2-Exp 生成")
        (
            "self_reference",
            make(
                rf"(?i)由\s*(?P<who>[「『“\"']?\s*{ident}\s*[」』”\"']?(?:\s*的?\s*[\w.\-]+){{0,2}}?)\s*(?:生成|撰写|编写|写成|起草)"
            ),
        ),
        # "xai's model speaking", "Mistral's agent here": the lab's own model as the speaker
        (
            "signature",
            make(
                rf"(?im)(?:^|(?<=[.!?]\s)|(?<=[\u2014\u2013]\s))[^\w\n]{{0,4}}\s*(?:the\s+)?(?P<who>{ident}['\u2019]s\s+"
                rf"(?:model|agent|desk|bot|assistant|system|llm))\s+(?:here|speaking|signing(?:\s+off)?|reporting)\b"
            ),
        ),
        # the access named after how the text was made: "generated with [model] via meta API"
        (
            "self_reference",
            make(
                rf"(?i)\b(?:generated|produced|written|composed|drafted|served|run)\b[^.;\n]{{0,60}}?\bvia\s+(?:the\s+)?"
                rf"(?P<who>{ident})(?=(?:['\u2019]s)?\s+(?:API|endpoint|SDK)\b)"
            ),
        ),
        # how the text was made: "generated with llama-3.3-70b", "(via Anthropic API)", ", served via the deepseek API"
        (
            "self_reference",
            make(
                rf"(?im)(?:^|(?<=[(\[,;])|(?<=[\u2014\u2013])|\b(?:generated|produced|written|composed|drafted|"
                rf"served|run|created|made|accessed|queried)(?=\s))\s*(?:(?:with|using|via|through|on)\s+)"
                rf"(?:the\s+)?(?P<who>{ident}(?:[\s\-][\w.\-]+){{0,2}}?)(?=(?:['\u2019]s)?\s+(?:API|endpoint|SDK|"
                rf"console|playground|platform|model|weights)\b|[\s.,;:)\]]|$)"
            ),
        ),
        # "I am X" in other languages: "Я — Лама 4", "私は「クロード」", "저는 ‘딥시크’", "我是通义千问", and "we X" in
        # Chinese and Korean ("我们通义千问团队", "저희 Claude는"),
        # "Je suis un modèle Mistral", "Ich bin Claude", "Soy Gemini"
        (
            "self_reference",
            make(
                rf"(?:(?<![^\W_])[Яя]\s*(?:[\u2014\u2013-]\s*|это\s+)?(?:модель\s+)?|私は|わたしは|僕は|"
                rf"저는|나는|저희|우리는|我是|我叫|我们|我們|(?i:\bje\s+suis|\bich\s+bin|\bsoy|\bsono|\beu\s+sou)\s+"
                rf"(?i:(?:un|une|ein|eine|el|la|il|o|a|uno)\s+)?(?i:[\w-]*(?:modèle|modell|modelo|modello|agent|"
                rf"assistant|asistente)\w*\s+)?(?i:(?:de|von|di|da|del)\s+)?)\s*[«\"“‘'「『]?\s*(?P<who>{ident})"
            ),
        ),
        (
            "label",
            make(rf"(?i)\b(?:output|trace|note|view|call|take|log)\s*\((?P<who>[^)]{{0,40}}?{ident}[^)]{{0,40}})\)"),
        ),
        (
            "self_reference",
            make(rf"(?i)\b(?:I'm|I am)\s+(?:that|this|the|your)\s+(?P<who>{ident})"),
        ),
        (
            # "says this Llama", "says the Grok desk" (not "said the Gemini app passed 650M users": news of a product)
            "self_reference",
            make(
                rf"(?i)\b(?:says|said)\s+(?:this\s+(?P<who>{ident})|(?:the|your)\s+(?P<who2>{ident})"
                rf"(?=\s+(?:desk|model|agent|bot|assistant|trader|system)\b))"
            ),
        ),
        (
            "self_reference",
            make(rf"(?i)[\u2014\u2013]\s*as\s+(?P<who>{ident}(?:[\s\-][\w.\-]+){{0,2}}?)\s*[\u2014\u2013]"),
        ),
        (
            "signature",
            make(
                rf"(?im)(?:^|(?<=[.!?]\s)|(?<=[\u2014\u2013]\s))[^\w\n]{{0,4}}\s*(?:the\s+)?(?P<who>{ident}"
                rf"(?:[\s\-/]{_SPEAKER_TAIL}){{0,4}}?(?:\s*\([^)]{{0,40}}\))?)\s*{speech}"
            ),
        ),
        (
            "signature",
            make(
                rf"(?i)(?:\b(?:submitted|written|generated|produced|authored|posted|sent|signed|"
                rf"output|note|reminder|verdict|analysis|report|message|update|call|take|view|"
                rf"disclosure|rédigée?|écrit|verfasst|escrito)\s+(?:from|of|by|par|von|por)|作者)"
                rf"\s*[:：]?\s*(?:the\s+)?(?P<who>{ident}(?:@[\w.\-]+|(?:[\s\-/][\w.\-/]+){{0,4}}?)"
                rf"(?:\s*\([^)]{{0,40}}\))?)\s*(?=\.?\s*$|:|：|,\s*(?:an?|the)\s|\s*[\u2014\u2013])"
            ),
        ),
        (
            "self_reference",
            make(
                rf"(?i)\b(?:(?:our|my|this)\s+(?P<who>{ident}(?:[\s\-][\w.\-]+){{0,2}}?)\s+{_SPEAKER_ROLE}|"
                rf"the\s+(?P<who2>{ident}(?:[\s\-][\w.\-]+){{0,2}}?)\s+{_SPEAKER_ROLE}(?!{_PRODUCT_EVENT}))"
            ),
        ),
        ("signature", make(rf"(?im)^\s*(?P<who>{ident}[\w.\-/]*)\s*(?:\([^)]{{0,40}}\))?\s*(?:→|->|\|)")),
        (
            "self_reference",
            make(
                rf"(?i)\b(?:speaking\s+(?:as|for)|on\s+behalf\s+of|disclosure\s+from|from\s+the\s+desk\s+of)"
                rf"\s+(?:an?\s+|the\s+|your\s+)?(?:[\w-]+\s+){{0,2}}?(?P<who>{ident})"
            ),
        ),
        (
            "signature",
            make(
                rf"(?im)^\s*(?:my\s+\w+\s+as\s+)?(?P<who>{ident}(?:[\s\-][\w.\-]+){{0,1}}?)(?:'s)?"
                rf"(?:\s+[\w-]+){{0,3}}\s*:"
            ),
        ),
        ("signature", make(rf"(?i)\b(?:take|view|note|call|read)\s+as\s+(?:an?\s+|the\s+)?(?P<who>{ident})")),
        (
            "self_reference",
            make(
                rf"(?i)\bas\s+(?:an?\s+|the\s+)?(?P<who>{ident}(?:[\s\-][\w.\-]+){{0,2}}?)"
                rf"\s*(?::|,\s*(?:I|we)\b|\s+(?:I|we)\b)"
            ),
        ),
    ]
    frames: list[tuple[str, T]] = [
        # "I, a model from anthropic,", "As an open-weights model from Meta AI, I": a model of the lab, said of oneself
        (
            "self_reference",
            make(
                rf"(?i)\b(?:I,|I'm|I am|as|being|(?:run|managed|written|made|built|produced)\s+by)\s+(?:an?|one)\s+"
                rf"(?:[\w-]+\s+){{0,2}}?(?:model|agent|assistant|llm|"
                rf"system)\s+(?:from|by|of|made\s+by|built\s+by|trained\s+by)\s+(?:the\s+)?(?P<who>{ident})"
            ),
        ),
        # "I was trained at Google DeepMind", "we were built at xAI": the lab itself, where the first person was made
        (
            "self_reference",
            make(
                rf"(?i)\b(?:I|we)\s+(?:was|were|am|are|have\s+been|'ve\s+been)\s+(?:\w+\s+)?(?:made|built|trained|"
                rf"created|developed|fine[\s-]?tuned)\s+(?:at|in|inside)\s+(?:the\s+)?(?P<who>{ident})(?!['\u2019]s)\b"
            ),
        ),
        (
            "signature",
            make(
                rf"(?im)(?:(?<![^\W_])[\u2014\u2013]|--|(?<=\s)-|^-)\s*(?P<who>{ident}(?:[\s\-][\w.\-]+){{0,3}}?)\s*$"
            ),
        ),
        (
            "signature",
            make(
                rf"(?i)\bsigned,?\s+(?:by\s+)?(?:the\s+|your\s+)?(?:(?:friendly|humble|trusty|neighbourhood|"
                rf"neighborhood|local|resident)\s+)?(?P<who>{ident}(?:[\s\-][\w.\-]+){{0,2}}?)(?=[\s.,;:!]|$)"
            ),
        ),
        (
            "signature",
            make(
                rf"(?im)(?:^|(?<=[.!?]\s))\s*[*_]{{0,3}}(?P<who>{ident}(?:[\s\-][\w.\-]+){{0,3}}?)[*_]{{0,3}}\s+"
                rf"(?:here|speaking|signing(?:\s+off)?|out|reporting)\b"
            ),
        ),
        # a line opened by its speaker named with more than a name, then "here" and a mark: a variant of a line
        # ("Turbo tier of Qwen here:", "The Flash build of Gemini here, ...") or a handle's own model ("@MistralAI's
        # Large 2 here |"); the whole phrase is the author's name ("Mistral's deal here:" has no variant: news)
        (
            "signature",
            make(
                rf"(?im)^[^\w\n@#]{{0,4}}(?P<who>(?:(?:the|a)[ \t]+)?(?:{_VARIANT_WORD}|(?-i:[A-Z][\w.\-]*))[ \t]+"
                rf"(?:tier|build|variant|version|edition|flavou?r|release|checkpoint|size)[ \t]+of[ \t]+(?:the[ \t]+)?"
                rf"{ident}|[@#]\w*?{ident}\w*['\u2019]s(?:[ \t]+{_SPEAKER_TAIL}){{1,3}}?)[ \t]+here[ \t]*"
                rf"(?=[:|,(\u2014\u2013]|-[ \t])"
            ),
        ),
        (
            "signature",
            make(
                rf"(?im)^\s*(?P<who>{ident}(?:[\s\-][\w.\-]+){{0,2}}?)(?:'s)?\s+"
                rf"(?:view|take|note|call|desk|read|verdict|pick)\s*:"
            ),
        ),
        (
            "self_reference",
            make(rf"(?i)(?:{_MADE})\s+(?:an?\s+|the\s+)?(?:[\w-]+\s+){{0,3}}?(?P<who>{ident})"),
        ),
        (
            "self_reference",
            make(
                rf"(?i)\b(?:I'm|I am|I,|as|being|speaking\s+as|speaking\s+for|for)\s+(?:an?\s+|the\s+|your\s+)?"
                rf"(?:[\w-]+\s+){{0,2}}?(?P<who>{ident})(?:'s)?(?:[\s\-][\w.\-]+){{0,3}}?\s+{_ROLE}\b"
            ),
        ),
        (
            "self_reference",
            make(
                rf"(?i)\b(?:I'm|I am|I,)\s+(?:not\s+(?:an?\s+|the\s+)?)?(?:an?\s+|the\s+)?(?P<who>{ident})(?!['\u2019]s\b)"
            ),
        ),
        (
            "self_reference",
            make(
                rf"(?i)\b(?:as|being)\s+(?:an?\s+|the\s+)?(?P<who>{ident})(?:[\s\-][\w.\-]+){{0,3}}?\s*,\s*(?:I|we)\b"
            ),
        ),
        (
            "self_reference",
            make(
                rf"(?i)\b(?:our|my|its|this)\s+(?:own\s+|sibling\s+|fellow\s+)?(?P<who>{ident})(?:[\s\-][\w.\-]+){{0,2}}?\s+{_ROLE}\b"
            ),
        ),
        ("self_reference", make(rf"(?i)\b(?:sibling|fellow|family)\s+(?P<who>{ident})")),
        # the licence the text is given under, in a sentence the author speaks in: "Signed under the Llama Community
        # License, this analysis says: ..."
        (
            "self_reference",
            make(
                rf"(?i)\bunder\s+the\s+(?P<who>{ident}(?:[\s\-][\w.\-]+){{0,1}}?)[\s\-]+(?:community\s+|open\s+)?"
                rf"licen[cs]e\b"
            ),
        ),
        # "I was built in X's lab", "trained at X's research team"
        (
            "self_reference",
            make(
                rf"(?i)\b(?:made|built|trained|created|developed|born|raised|(?:come|comes|coming|came)\s+out)\s+"
                rf"(?:in|at|inside|within|of)\s+"
                rf"(?:the\s+)?(?P<who>{ident})(?:['\u2019]s)?\s+(?:[\w-]+\s+){{0,3}}?(?:labs?|teams?|groups?|org|shop|research)\b"
            ),
        ),
        (
            "self_reference",
            # "X-built, I", "a Meta trained model", "Alibaba Group made me": an adjective of the author, or its maker
            # (a corporate word may stand between); with a space and no model noun, comma or first person after
            # it, "R1 made Chinese AI investable" is a clause whose subject is the name (news)
            make(
                rf"(?i)(?P<who>{ident})(?:\s+(?:Group|Inc|Corp|Cloud|Labs?|Research|Holdings?|alumni|veterans|engineers|researchers|"
                rf"people|folks|staff))?(?:-(?:built|made|trained|powered|"
                rf"backed|native|based)\b|"
                rf"\s(?:built|made|trained|powered|backed|native|based)\b(?=\s*(?:,|\(|{_ROLE}\b|I\b|we\b|me\b|us\b|this\b)))"
            ),
        ),
    ]
    return inherent, frames


__all__ = ["frame_patterns", "ident_source", "loose_names", "name_pieces", "names_alternation"]
