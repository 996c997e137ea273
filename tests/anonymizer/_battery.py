"""Score an anonymizer (and a leak guard) on the sentence battery of tests/anonymizer/battery (format in its
README): every ``keep`` substring must survive verbatim; after deleting the ``keep`` substrings, no ``leak_tokens``
word may remain (case-insensitive, whole word). The season trades the labs' parents; the author of every item is
a contestant of the item's family and model, beside one contestant of each other family."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

from grader.season import Contestant

BATTERY = Path(__file__).parent / "battery"
FAMILY_MODELS = {
    "openai": "gpt-5",
    "anthropic": "claude-opus-4-7",
    "xai": "grok-4",
    "google": "gemini-3-1-pro",
    "meta": "llama-4-maverick",
    "mistral": "mistral-large",
    "deepseek": "deepseek-v3",
    "alibaba": "qwen3-235b",
}
UNIVERSE = [
    ("META", "Meta Platforms, Inc."),
    ("GOOGL", "Alphabet Inc."),
    ("MSFT", "Microsoft Corporation"),
    ("AMZN", "Amazon.com, Inc."),
    ("NVDA", "NVIDIA Corporation"),
    ("BABA", "Alibaba Group Holding Ltd"),
    ("TSLA", "Tesla, Inc."),
    ("AAPL", "Apple Inc."),
    ("ORCL", "Oracle Corporation"),
    ("SPY", "SPDR S&P 500 ETF"),
    ("QQQ", "Invesco QQQ Trust"),
    ("XLK", "Technology Select Sector SPDR"),
    ("SMH", "VanEck Semiconductor ETF"),
    ("XLE", "Energy Select Sector SPDR"),
    ("XLV", "Health Care Select Sector SPDR"),
    ("GLD", "SPDR Gold Shares"),
    ("TLT", "iShares 20+ Year Treasury Bond ETF"),
]
INFO = SimpleNamespace(universe=[SimpleNamespace(symbol=s, name=n) for s, n in UNIVERSE])


def load(name: str) -> list[dict]:
    return [json.loads(line) for line in (BATTERY / f"{name}.jsonl").read_text().splitlines() if line.strip()]


def contestants_for(item: dict) -> list[Contestant]:
    out = [
        Contestant(
            id=f"c-{item['family']}", display_name=item["model"], provider_family=item["family"], model=item["model"]
        )
    ]
    out += [
        Contestant(id=f"c-{fam}", display_name=model, provider_family=fam, model=model)
        for fam, model in FAMILY_MODELS.items()
        if fam != item["family"]
    ]
    return out


def leaks_in(text: str, item: dict) -> list[str]:
    rest = text
    for keep in item["keep"]:
        rest = rest.replace(keep, " ")
    return [t for t in item["leak_tokens"] if re.search(rf"(?<![^\W_]){re.escape(t)}(?![^\W_])", rest, re.I)]


@dataclass
class Score:
    items: int = 0
    leaking: list[str] = field(default_factory=list)  # ids of items that still name their author
    altered: list[str] = field(default_factory=list)  # ids of items whose market substrings changed
    refused: list[str] = field(default_factory=list)  # ids the leak guard refuses after scrubbing
    self_items: int = 0
    market_items: int = 0

    def line(self, name: str) -> str:
        return (
            f"{name}: {self.items} sentences; still naming the author {len(self.leaking)}/{self.self_items}; "
            f"market text altered {len(self.altered)}/{self.market_items}; leak guard refusals after "
            f"scrubbing {len(self.refused)}"
        )


def score(items: list[dict], guard=None) -> Score:
    from grader.anonymizer import Anonymizer
    from grader.anonymizer._anonymizer import universe_allowlist

    s = Score()
    allow = universe_allowlist(INFO)  # type: ignore[arg-type]
    for item in items:
        s.items += 1
        people = contestants_for(item)
        anon = Anonymizer.for_contestants(people, seed="battery", allowlist=allow)
        out = anon.scrub(item["text"], f"c-{item['family']}").text
        if item["leak_tokens"]:
            s.self_items += 1
            if leaks_in(out, item):
                s.leaking.append(item["id"])
        if item["keep"]:
            s.market_items += 1
            if any(k not in out for k in item["keep"]):
                s.altered.append(item["id"])
        if guard is not None and guard(out, people[0]):
            s.refused.append(item["id"])
    return s
