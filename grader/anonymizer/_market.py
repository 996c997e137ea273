"""Whether a name stands in market news: the clause around it reports an event (a launch, a deal, revenue, a
traded symbol) and the author does not speak of the name in it."""

from __future__ import annotations

import re

MARKET_WORDS = re.compile(
    r"(?i)\b(?:launch(?:ed|es|ing)?|releas(?:e|ed|es)|lifted|knocked|rall(?:y|ied|ies)|revenue|users|capex|deal|"
    r"added|adds|offers?|offering|hosts?|hosted|integrat(?:ion|es|ed)|shares|stock|earnings|guidance|funding|raised|"
    r"valuation|partnership|contract|customers|adoption|app|benchmarks?|outage|lawsuit|sales|margins?|demand|"
    r"spending|invest(?:ment|ed|s)|stake|acqui(?:re|red|sition)|chips?|gpus?|cluster|bedrock|azure|vertex|copilot|"
    r"seats?|subscribers|downloads|pop|drove|weighed|tailwind|headwind|ships?|shipped|lists|listing|relaunch|"
    r"pric\w+|run-rate|default|undercut|relies|rolled|license|headlines|flopped|demo|usage|caps|picked|closed|"
    r"series|training\s+on|hosting|accusation|ban\w*|delay\w*|poached|cut|power|voice|backlog|momentum|"
    r"tiers?|fine-tune|api)\b")


def market_clause(text: str, start: int, end: int, tickers: re.Pattern[str] | None) -> bool:
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
    if MARKET_WORDS.search(near):
        return True
    return bool(tickers and tickers.search(text[lo:hi]))
