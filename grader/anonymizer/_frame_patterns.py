"""The authorship frames as patterns (``_frames.py`` reads a text with them): labels, signatures and
self-descriptions, each with the named author in its ``who`` group. Compiled once per set of names."""

from __future__ import annotations

import re

_MADE = (
    r"(?:made|built|trained|created|developed|designed|released|fine[\s-]?tuned|powered|brought\s+to\s+you|"
    r"generated|written|produced|authored|backed|served|hosted)\s+(?:in\s+[A-Z][\w-]*\s+|up\s+)?by\b|"
    r"\bruns?\s+on\b|\brunning\s+on\b|\bbased\s+on\b|\bspeaking\s+(?:as|for)\b|\bon\s+behalf\s+of\b|"
    r"\bdisclosure\s+from\b|\bfrom\s+the\s+desk\s+of\b"
)
_ROLE = (
    r"(?:model|agent|assistant|system|desk|team|trader|bot|lab|weights|creators?|makers?|developers?|"
    r"training|llm|ai|engine|variant|sibling|version|release|reasoner|reasoning\s+model|instance)"
)


def frame_patterns(alt: str, ident: str) -> tuple[list[tuple[str, re.Pattern[str]]], list[tuple[str, re.Pattern[str]]]]:
    """(frames that say who speaks by themselves, frames that need a first person) for the names ``alt`` (an
    alternation) and ``ident`` (a name with its version tail), in the order they are tried."""
    # a name inside a handle or tag ("#GrokTrades", "@ClaudeDesk"): a capitalised part of a compound word
    compound = re.compile(rf"(?<![\w@#])[@#](?P<who>\w*?(?:{alt})\w*)", re.I)
    maker = (
        r"(?:parent(?:\s+company)?|developer|developers|maker|makers|creator|creators|builder|lab|vendor|"
        r"provider|owner|trainer|company|house|home\s+lab)"
    )
    speech = (
        r"(?:here|speaking|writing|signing(?:\s+off)?|reporting|suggest(?:s|ed)?|thinks?|thought|recommend(?:s|ed)?|"
        r"advised|concluded|says|said|calls?|notes?|"
        r"view|take|call|verdict|output|trace|reasoning|analysis|desk|signal|pick|log|→|->)"
    )
    # frames that say who speaks by themselves (no first person needed)
    inherent: list[tuple[str, re.Pattern[str]]] = [
        (
            "label",
            # "[xAI / grok-4]", "<Claude>", "#GrokDesk", "@qwen": a tag; a comment or heading ("# codestral-2508
            # generated this") only when the name opens it and is not a possessive ("# thesis: Mistral's ...": news)
            re.compile(
                rf"(?im)(?:^|(?<=[.!?]\s))\s*(?:(?:[\[<@]\s*|#(?![#\s]))(?P<who>[^\]>\n]{{0,12}}?{ident}[^\]>\n\s]{{0,30}})|"
                rf"#[ \t]+(?P<who2>{ident}[^\]>\n\s'\u2019]{{0,30}})(?!['\u2019]))"
            ),
        ),
        (
            "label",
            re.compile(
                rf"(?i)\b(?:route|agent|author|model|provider|vendor|family|engine|llm|source)\s*=\s*[\"']?"
                rf"(?P<who>[^\s\"'|;,>]{{0,12}}?{ident}[^\s\"'|;,>]{{0,40}})"
            ),
        ),
        (
            "label",
            re.compile(
                rf"(?i)\\author\s*\{{(?P<who>[^}}]{{0,80}})\}}|<!--\s*(?P<who2>[^>]{{0,80}}?{ident}[^>]{{0,40}}?)\s*-->"
            ),
        ),
        ("label", re.compile(rf"(?i)[@#](?P<who>\w*{ident}\w*)")),
        # a sign-off line: "-- grok, long NVDA", "— claude, anthropic" (a dash opens the line, the name follows; not
        # a possessive, which is news: "— Meta's capex ...")
        (
            "label",
            re.compile(
                rf"(?im)^[ \t]*(?:--|[\u2014\u2013])[ \t]*(?P<who>{ident})(?!['\u2019]s\b)(?=[ \t]*(?:$|[,/|(]|\s+\w))"
            ),
        ),
        # a copyright line or a citation of the text itself: "(c) 2026 Mistral AI", "(DeepSeek-AI, 2026, this note)"
        (
            "label",
            re.compile(
                rf"(?i)(?:\(c\)|\u00a9|\bcopyright)\s*(?:(?:19|20)\d\d\s*)?(?P<who>{ident})|"
                rf"\((?P<who2>{ident})\s*,\s*(?:19|20)\d\d\s*,\s*(?:this|the\s+present)\s+(?:note|rationale|memo|report)"
            ),
        ),
        # what describes a name already replaced, right after it: "[model] (千问)", "[model] (the Llama 4 one, from Meta)"
        (
            "label",
            re.compile(
                rf"\[(?:model|provider|self-reference|undisclosed)\]\]?\s*[(（](?P<who>[^)）\n]{{0,40}}?{ident}[^)）\n]{{0,40}})[)）]"
            ),
        ),
        # a letter's opening or a spoken line: "From Qwen to you:", "Maverick writing (...)"
        ("signature", re.compile(rf"(?i)\bfrom\s+(?P<who>{ident})\s+to\s+you\b")),
        # who made the text, said with no subject at a sentence's start: "Trained by X's team.", "Built by X."
        (
            "self_reference",
            re.compile(
                rf"(?m)(?:^|(?<=[.!?]\s))\s*(?i:(?:made|built|trained|created|developed|fine[\s-]?tuned|released)\s+by)"
                rf"\s+(?i:the\s+)?(?:[\w'\u2019-]+\s+){{0,2}}?(?P<who>{ident})"
            ),
        ),
        ("label", compound),
        # who made the author, said by the author: "my parent xAI", "My developer, Alibaba Cloud, ...",
        # "Anthropic, my maker,", "as the model Elon's xAI ships inside X"
        ("self_reference", re.compile(rf"(?i)\b(?:my|our)\s+{maker}\s*[,:(]?\s*(?:the\s+|is\s+)?(?P<who>{ident})")),
        ("self_reference", re.compile(rf"(?i)(?P<who>{ident})\s*,\s*(?:my|our)\s+{maker}\b")),
        (
            "self_reference",
            re.compile(
                rf"(?i)\bas\s+the\s+(?:model|assistant|agent|bot|llm|system)\s+(?:that\s+|which\s+)?"
                rf"(?:[\w'\u2019]+\s+){{0,2}}?(?P<who>{ident})\s+(?:ships|makes|builds|built|made|"
                rf"trains|trained|serves|offers|runs|released|deploys|hosts)\b"
            ),
        ),
        ("label", re.compile(r"(?i)作者\s*[:：]\s*(?P<who>[^。.\n]{0,40})")),
        # "xai's model speaking", "Mistral's agent here": the lab's own model as the speaker
        (
            "signature",
            re.compile(
                rf"(?im)(?:^|(?<=[.!?]\s)|(?<=[\u2014\u2013]\s))[^\w\n]{{0,4}}\s*(?:the\s+)?(?P<who>{ident}['\u2019]s\s+"
                rf"(?:model|agent|desk|bot|assistant|system|llm))\s+(?:here|speaking|signing(?:\s+off)?|reporting)\b"
            ),
        ),
        # the access named after how the text was made: "generated with [model] via meta API"
        (
            "self_reference",
            re.compile(
                rf"(?i)\b(?:generated|produced|written|composed|drafted|served|run)\b[^.;\n]{{0,60}}?\bvia\s+(?:the\s+)?"
                rf"(?P<who>{ident})(?=(?:['\u2019]s)?\s+(?:API|endpoint|SDK)\b)"
            ),
        ),
        # how the text was made: "generated with llama-3.3-70b", "(via Anthropic API)", ", served via the deepseek API"
        (
            "self_reference",
            re.compile(
                rf"(?im)(?:^|(?<=[(\[,;])|(?<=[\u2014\u2013])|\b(?:generated|produced|written|composed|drafted|"
                rf"served|run|created|made|accessed|queried)(?=\s))\s*(?:(?:with|using|via|through|on)\s+)"
                rf"(?:the\s+)?(?P<who>{ident}(?:[\s\-][\w.\-]+){{0,2}}?)(?=(?:['\u2019]s)?\s+(?:API|endpoint|SDK|"
                rf"console|playground|platform|model|weights)\b|[\s.,;:)\]]|$)"
            ),
        ),
        # "I am X" in other languages: "Я — Лама 4", "私は「クロード」", "저는 ‘딥시크’", "我是通义千问",
        # "Je suis un modèle Mistral", "Ich bin Claude", "Soy Gemini"
        (
            "self_reference",
            re.compile(
                rf"(?:(?<![^\W_])[Яя]\s*(?:[\u2014\u2013-]\s*|это\s+)?(?:модель\s+)?|私は|わたしは|"
                rf"저는|나는|我是|我叫|(?i:\bje\s+suis|\bich\s+bin|\bsoy|\bsono|\beu\s+sou)\s+"
                rf"(?i:(?:un|une|ein|eine|el|la|il|o|a)\s+)?(?i:(?:modèle|modell|modelo|agent|"
                rf"assistant|asistente)\s+)?(?i:(?:de|von|di)\s+)?)\s*[«\"“‘'「『]?\s*(?P<who>{ident})"
            ),
        ),
        (
            "label",
            re.compile(
                rf"(?i)\b(?:output|trace|note|view|call|take|log)\s*\((?P<who>[^)]{{0,40}}?{ident}[^)]{{0,40}})\)"
            ),
        ),
        (
            "self_reference",
            re.compile(rf"(?i)\b(?:I'm|I am)\s+(?:that|this|the|your)\s+(?P<who>{ident})"),
        ),
        (
            # "says this Llama", "says the Grok desk" (not "said the Gemini app passed 650M users": news of a product)
            "self_reference",
            re.compile(
                rf"(?i)\b(?:says|said)\s+(?:this\s+(?P<who>{ident})|(?:the|your)\s+(?P<who2>{ident})"
                rf"(?=\s+(?:desk|model|agent|bot|assistant|trader|system)\b))"
            ),
        ),
        (
            "self_reference",
            re.compile(rf"(?i)[\u2014\u2013]\s*as\s+(?P<who>{ident}(?:[\s\-][\w.\-]+){{0,2}}?)\s*[\u2014\u2013]"),
        ),
        (
            "signature",
            re.compile(
                rf"(?im)(?:^|(?<=[.!?]\s)|(?<=[\u2014\u2013]\s))[^\w\n]{{0,4}}\s*(?:the\s+)?(?P<who>{ident}(?:[\s\-/][\w.\-/]+){{0,4}}?"
                rf"(?:\s*\([^)]{{0,40}}\))?)\s*{speech}"
            ),
        ),
        (
            "signature",
            re.compile(
                rf"(?i)(?:\b(?:submitted|written|generated|produced|authored|posted|sent|signed|"
                rf"output|note|reminder|verdict|analysis|report|message|update|call|take|view|"
                rf"disclosure|rédigée?|écrit|verfasst|escrito)\s+(?:from|of|by|par|von|por)|作者)"
                rf"\s*[:：]?\s*(?:the\s+)?(?P<who>{ident}(?:[\s\-/][\w.\-/]+){{0,4}}?"
                rf"(?:\s*\([^)]{{0,40}}\))?)\s*(?=\.?\s*$|:|：|,\s*(?:an?|the)\s|\s*[\u2014\u2013])"
            ),
        ),
        (
            "self_reference",
            re.compile(
                rf"(?i)\b(?:the|our|my|this)\s+(?P<who>{ident}(?:[\s\-][\w.\-]+){{0,2}}?)\s+"
                rf"(?:desk|team|bot|agent|assistant|trading\s+\w+|system|trader)\b"
            ),
        ),
        ("signature", re.compile(rf"(?im)^\s*(?P<who>{ident}[\w.\-/]*)\s*(?:\([^)]{{0,40}}\))?\s*(?:→|->|\|)")),
        (
            "self_reference",
            re.compile(
                rf"(?i)\b(?:speaking\s+(?:as|for)|on\s+behalf\s+of|disclosure\s+from|from\s+the\s+desk\s+of)"
                rf"\s+(?:an?\s+|the\s+|your\s+)?(?:[\w-]+\s+){{0,2}}?(?P<who>{ident})"
            ),
        ),
        (
            "signature",
            re.compile(
                rf"(?im)^\s*(?:my\s+\w+\s+as\s+)?(?P<who>{ident}(?:[\s\-][\w.\-]+){{0,1}}?)(?:'s)?"
                rf"(?:\s+[\w-]+){{0,3}}\s*:"
            ),
        ),
        ("signature", re.compile(rf"(?i)\b(?:take|view|note|call|read)\s+as\s+(?:an?\s+|the\s+)?(?P<who>{ident})")),
        (
            "self_reference",
            re.compile(
                rf"(?i)\bas\s+(?:an?\s+|the\s+)?(?P<who>{ident}(?:[\s\-][\w.\-]+){{0,2}}?)"
                rf"\s*(?::|,\s*(?:I|we)\b|\s+(?:I|we)\b)"
            ),
        ),
    ]
    frames: list[tuple[str, re.Pattern[str]]] = [
        (
            "signature",
            re.compile(
                rf"(?im)(?:(?<![^\W_])[\u2014\u2013]|--|(?<=\s)-|^-)\s*(?P<who>{ident}(?:[\s\-][\w.\-]+){{0,3}}?)\s*$"
            ),
        ),
        (
            "signature",
            re.compile(
                rf"(?i)\bsigned,?\s+(?:by\s+)?(?:the\s+)?(?P<who>{ident}(?:[\s\-][\w.\-]+){{0,2}}?)(?=[\s.,;:!]|$)"
            ),
        ),
        (
            "signature",
            re.compile(
                rf"(?im)(?:^|(?<=[.!?]\s))\s*(?P<who>{ident}(?:[\s\-][\w.\-]+){{0,3}}?)\s+"
                rf"(?:here|speaking|signing(?:\s+off)?|out|reporting)\b"
            ),
        ),
        (
            "signature",
            re.compile(
                rf"(?im)^\s*(?P<who>{ident}(?:[\s\-][\w.\-]+){{0,2}}?)(?:'s)?\s+"
                rf"(?:view|take|note|call|desk|read|verdict|pick)\s*:"
            ),
        ),
        (
            "self_reference",
            re.compile(rf"(?i)(?:{_MADE})\s+(?:an?\s+|the\s+)?(?:[\w-]+\s+){{0,3}}?(?P<who>{ident})"),
        ),
        (
            "self_reference",
            re.compile(
                rf"(?i)\b(?:I'm|I am|I,|as|being|speaking\s+as|speaking\s+for|for)\s+(?:an?\s+|the\s+|your\s+)?"
                rf"(?:[\w-]+\s+){{0,2}}?(?P<who>{ident})(?:'s)?(?:[\s\-][\w.\-]+){{0,3}}?\s+{_ROLE}\b"
            ),
        ),
        (
            "self_reference",
            re.compile(rf"(?i)\b(?:I'm|I am|I,)\s+(?:an?\s+|the\s+)?(?P<who>{ident})(?!['\u2019]s\b)"),
        ),
        (
            "self_reference",
            re.compile(
                rf"(?i)\b(?:as|being)\s+(?:an?\s+|the\s+)?(?P<who>{ident})(?:[\s\-][\w.\-]+){{0,3}}?\s*,\s*(?:I|we)\b"
            ),
        ),
        (
            "self_reference",
            re.compile(
                rf"(?i)\b(?:our|my|its|this)\s+(?:own\s+|sibling\s+|fellow\s+)?(?P<who>{ident})(?:[\s\-][\w.\-]+){{0,2}}?\s+{_ROLE}\b"
            ),
        ),
        ("self_reference", re.compile(rf"(?i)\b(?:sibling|fellow|family)\s+(?P<who>{ident})")),
        # "I was built in X's lab", "trained at X's research team"
        (
            "self_reference",
            re.compile(
                rf"(?i)\b(?:made|built|trained|created|developed|born|raised|coming\s+out|came\s+out)\s+(?:in|at|inside|within|of)\s+"
                rf"(?:the\s+)?(?P<who>{ident})(?:['\u2019]s)?\s+(?:[\w-]+\s+){{0,3}}?(?:labs?|teams?|groups?|org|shop|research)\b"
            ),
        ),
        (
            "self_reference",
            re.compile(rf"(?i)(?P<who>{ident})[\s\-](?:built|made|trained|powered|backed|native|based)\b"),
        ),
    ]
    return inherent, frames


__all__ = ["frame_patterns"]
