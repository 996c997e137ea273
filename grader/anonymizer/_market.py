"""Whether a name stands in market news: the clause around it reports an event (a launch, a deal, revenue, a
traded symbol) and the author does not speak of the name in it."""

from __future__ import annotations

import re

MARKET_WORDS = re.compile(
    r"(?i)\b(?:launch\w*|releas\w*|lifted|knocked|rall(?:y|ied|ies)|revenue|users|capex|deal|added|adds|offers?|"
    r"offering|hosts?|hosted|integrat(?:ion|es|ed)|shares|stock|earnings|guid\w*|funding|raised|valuation|partnership|"
    r"contract|customers?|adoption|app|benchmarks?|outage|lawsuit|sales|margins?|demand|spending|"
    r"invest(?:ment|ed|s)|stake|acqui(?:re|red|sition)|chips?|gpus?|cluster|bedrock|azure|vertex|copilot|seats?|"
    r"subscribers|downloads|pop|drove|weighed|tailwind|headwind|ships?|shipped|shipping(?!\s+as\b)|wins|losses|lists|listing|listed|relaunch|pric\w+|"
    r"run-rate|default|undercut|relies|rely|relied|rolled|rollout|license|headlines|flopped|demo|usage|caps|picked|"
    r"closed|series|training\s+on|hosting|accusation|ban\w*|delay\w*|poached|cut|power|voice|backlog|momentum|"
    r"tiers?|fine-tune|api|bundled|disclosed|exchange|ipo|share\s+gains?|expanded|signed|announced|"
    r"sell-?offs?|crash\w*|plung\w*|rout|slump\w*|soar\w*|tumbl\w*|surg\w*|financ\w*|tie-?ups?|vendors?|"
    r"suppliers?|agreements?|quarter(?:ly)?|results|bonds?|settle\w*|buybacks?|repurchas\w*|dividends?|"
    # distribution and adoption of a product by a company: "Deloitte rolling Claude out to 470,000 staff", "Orange
    # bundling Le Chat Pro into mobile plans", "Gemini subscriptions", "the most downloaded open models",
    # "topping OpenRouter token share", "made Claude a preferred model"
    r"rolling|rolls|bundl\w*|subscriptions?|download\w*|leaderboards?|top(?:ped|ping|s)|(?:token|market|usage)\s+share|"
    r"preferred|putting|embed(?:s|ding|ded)|"
    # a product's fortunes as news: "Le Chat hit No. 1 on the App Store", "Grok 5 slipping to 2026", "the 4o
    # retirement drew user backlash", "Taobao's Qwen shopping agent lifts GMV", "Samsung's Gemini-on-Galaxy push"
    r"(?:hit|reached|climbed\s+to)\s+(?-i:No)\b|slip(?:s|ped|ping)?|backlash|app\s+store|gmv|push|compet(?:e|es|ing|ition)|"
    # exposure of a company to a lab's cycle: "Oracle ... is levered to the Grok training cycle"
    r"levered|leveraged|exposed|exposure|training\s+(?:cycles?|runs?|clusters?|spend\w*|capex))\b"
)
"""Words of market news: a name near one is an actor of an event. Words a self-description also uses ("deployed",
"powered", "features", "built") are not among them."""


_FIRST_PERSON = re.compile(r"(?i)\b(?:I|I'm|I'd|I've|I'll|my|me|we|we're|we'd|our|(?-i:us|Us))\b")
_REPORTING = re.compile(
    r"(?i)\b(?:note|notes|noting|noted|aware|point\s+out|pointing\s+out|flag|flagging|observe|observing|notice|"
    r"noticed|see|saw|read|hear|heard|watch|watching|track|tracking|think|believe|expect|argue|would\s+add|mention|"
    r"suspect|doubt|like|prefer|avoid|fade|skip|remember|recall)\b(?:\s+that)?[\s,]+"
    r"(?:the|a|an|this|that|[A-Z][\w.&-]*'s|[A-Z][\w.&-]*)\b"
)
"""'I note that ...', "I'm aware the ...", "I'd point out Claude's ...": what follows is reported, not said of
the author."""


def author_speaks_of(piece: str, start: int, end: int) -> bool:
    """Whether the author speaks of the name at ``start..end`` of ``piece``: a first-person word before it, unless
    a reporting verb between them introduces what follows ("I note that the X launch ..."), or right after it
    before any market word ("X, I think"; not "the X app's downloads are why I like BABA")."""
    before = list(_FIRST_PERSON.finditer(piece, 0, start))
    if before and not _REPORTING.search(piece, before[-1].end(), end):
        return True
    after = _FIRST_PERSON.search(piece, end)
    return after is not None and not MARKET_WORDS.search(piece, end, after.start())


MARKET_PIECE = re.compile(
    r"(?i)\b(?:rose|fell|rall\w*|lifted|knocked|grew|revenue|capex|earnings|shares|stock|launch\w*|releas\w*|"
    r"expanded|deal|funding|raised|signed|added|offers?|hosts?|hosting|users|sales|guid\w*|beat|missed|drove|"
    r"partnership|integration|lists|listed|news|moves|said|announced|reported|deployed|customers?|pric\w+|"
    r"run-rate|default|undercut|relies|rolled|license|headlines|flopped|demo|usage|downloads|caps|picked|"
    r"closed|series|valuation|training\s+on|hosting|accusation|ban\w*|delay\w*|poached|cut|headwind|tailwind|"
    r"seat\s+growth|share\s+gains?|sell-?offs?|crash\w*|plung\w*|soar\w*|tumbl\w*|financ\w*|tie-?ups?|"
    r"quarter(?:ly)?|results|settle\w*|buybacks?|repurchas\w*|dividends?)\b"
)
"""The stricter test for a piece the author speaks in (``_frames.py``): it reports market news only with a word of
news itself (a move, a deal, a release), not with what merely sits near a product (an app, an API, chips)."""


MONEY = re.compile(
    r"(?i)(?:[$€£¥]\s?\d[\d.,]*\s*(?:[kmbt]n?|thousand|million|billion|trillion)?\b|"
    r"\b\d[\d.,]*\s*(?:[kmb]n?\s+)?(?:million|billion|trillion|bn|mn)?\s*(?:dollars|euros?|usd|eur|yuan|rmb)\b)"
)
"""A sum of money ("$300 million", "1.7B euro", "€2bn"): a piece that names one reports a deal, a raise, a price."""


PIECE_ENDS = (".", "\n", ";", ",", ":", "|")
"""What ends the piece of text a name is read in (a table's or a label line's "|" too)."""


def market_clause(
    text: str, start: int, end: int, tickers: re.Pattern[str] | None, companies: re.Pattern[str] | None = None
) -> bool:
    """The sentence around ``start..end`` reports a market event: it names a traded symbol, a traded company that
    makes no model (``companies``) or a market verb or noun (launch, release, revenue, users, capex, shares, ...)
    and the author does not speak of the name in it (:func:`author_speaks_of`)."""
    lo = max(text.rfind(c, 0, start) for c in PIECE_ENDS) + 1
    hi_candidates = [i for i in (text.find(c, end) for c in PIECE_ENDS) if i != -1]
    hi = min(hi_candidates) if hi_candidates else len(text)
    if author_speaks_of(_asides_blanked(text[lo:hi], start - lo, end - lo), start - lo, end - lo):
        return False  # the author speaks of the name in this piece: not a report of market news
    if hi < len(text) and text[hi] == ":" and not text[lo:start].strip() and len(text[end:hi].split()) <= 3:
        return False  # "Claude.ai users: ..." heads what follows, it reports nothing
    # a market word within a few words of the name: the name is an actor of the event ("the Qwen release",
    # "Bedrock added Claude", "ChatGPT users", "ships with Gemini")
    near = text[max(lo, start - 40) : min(hi, end + 40)]
    if MARKET_WORDS.search(near):
        return True
    piece = text[lo:hi]
    if MONEY.search(text, max(lo, start - 80), min(hi, end + 80)):
        return True  # "put into Telegram under a reported $300 million deal": a sum of money is an event's
    return bool((tickers and tickers.search(piece)) or (companies and companies.search(piece)))


_ASIDE = re.compile(r"\([^()\n]*\)|\([^()\n]*$")


def _asides_blanked(piece: str, start: int, end: int) -> str:
    """``piece`` with the asides in brackets that do not hold the name blanked out: the author speaking in an aside
    ("DeepSeek's R1 made Chinese AI investable (a story I know well, being ...)") does not speak of the name
    outside it."""
    return _ASIDE.sub(lambda m: m.group(0) if m.start() <= start < m.end() else " " * len(m.group(0)), piece)


_TOPIC_BEFORE = re.compile(
    r"(?i)(?:\b(?P<verb>[\w-]+)\s+)?\b(?:on|about|regarding|concerning|re:?|over)\s+(?:the\s+)?$"
)
_MADE_ON = frozenset(
    {"trained", "built", "runs", "run", "running", "based", "hosted", "served", "deployed", "tuned", "fine-tuned"}
)


def about_topic(text: str, start: int, floor: int = 0) -> bool:
    """Whether a preposition of topic stands right before ``start`` ("a note from an OpenAI model on OpenAI risk",
    "my view about Meta"): the name is what the text is about, not who wrote it. "Trained on", "served over" are
    how the author was made: not a topic."""
    m = _TOPIC_BEFORE.search(text, max(floor, start - 30), start)
    return m is not None and (m["verb"] or "").lower() not in _MADE_ON
