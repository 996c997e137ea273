"""A product named in market news stays verbatim even where the author speaks elsewhere in the sentence; a name
the author speaks of is scrubbed (grader/anonymizer/_market.py)."""

from __future__ import annotations

import pytest

from grader.anonymizer import Anonymizer
from grader.anonymizer._anonymizer import universe_allowlist
from grader.anonymizer._market import author_speaks_of
from tests.anonymizer._battery import INFO, contestants_for


def scrub(text: str, family: str, model: str) -> str:
    people = contestants_for({"family": family, "model": model})
    anon = Anonymizer.for_contestants(people, seed="t", allowlist=universe_allowlist(INFO))  # type: ignore[arg-type]
    return anon.scrub(text, f"c-{family}").text


@pytest.mark.parametrize(("text", "family", "model", "kept", "gone"), [
    ("I'm GPT-5, and yes, I'm aware the GPT-5 launch event moved MSFT less than expected.", "openai", "gpt-5",
     "the GPT-5 launch event moved MSFT", "I'm GPT-5"),
    ("I'm Qwen-Max from Alibaba; Alibaba's Qwen app hitting 10M downloads in a week is why I like BABA.", "alibaba",
     "qwen-max", "Alibaba's Qwen app hitting 10M downloads", "I'm Qwen-Max"),
    ("As ChatGPT, I note that ChatGPT Enterprise seat growth is a headwind for CRM; short CRM.", "openai",
     "gpt-5", "ChatGPT Enterprise seat growth", "As ChatGPT"),
])
def test_market_news_is_kept_beside_a_self_reference(text, family, model, kept, gone):
    out = scrub(text, family, model)
    assert kept in out and gone not in out


@pytest.mark.parametrize(("text", "family", "model", "name"), [
    ("agent: Grok 3 | Tesla disclosed Grok in its cars' infotainment, minor for TSLA.", "xai", "grok-3", "Grok 3"),
    ("Qwen, I think, should stay long BABA on downloads.", "alibaba", "qwen-max", "Qwen,"),
])
def test_a_name_the_author_speaks_of_is_scrubbed(text, family, model, name):
    assert name not in scrub(text, family, model)


@pytest.mark.parametrize(("piece", "name", "speaks"), [
    ("I'm aware the GPT-5 launch event moved MSFT", "GPT-5", False),  # reported
    ("I like the GPT-5 launch", "GPT-5", False),  # an opinion of market news, not of itself
    ("I, GPT-5, like the launch", "GPT-5", True),
    ("my GPT-5 launch", "GPT-5", True),
    ("the Qwen app hitting 10M downloads is why I like BABA", "Qwen", False),  # a market word before the 'I'
    ("Qwen, I think", "Qwen", True),
])
def test_whether_the_author_speaks_of_a_name(piece, name, speaks):
    i = piece.index(name)
    assert author_speaks_of(piece, i, i + len(name)) is speaks


@pytest.mark.parametrize(("text", "family", "model", "gone", "kept"), [
    # a tag that says who wrote it is a label
    ("<model>Gemini 3 Pro</model><provider>Google</provider><action>BUY IEF</action>", "google", "gemini-3-pro",
     "Google", "<action>BUY IEF</action>"),
    # a signature's parts and the maker named right after the author
    ("<signature>Sonnet 4.5 · Anthropic PBC</signature> Decision: HOLD TLT.", "anthropic", "claude-sonnet-4-5",
     "Anthropic", "HOLD TLT"),
    ("Grok 4 here, built by xAI. Shorting TSLA into delivery numbers is crowded.", "xai", "grok-4", "xAI",
     "Shorting TSLA"),
    # a cell separator ends the label: what follows is market news
    ("provider: Google | Google Cloud signed a $10B deal with Meta, bullish GOOGL.", "google", "gemini-3-pro",
     "provider: Google", "Google Cloud signed a $10B deal with Meta"),
    # a company opening a sentence is no maker of the author named before
    ("xAI merged with X Corp in an all-stock deal; I'm flat TSLA.", "xai", "grok-4", "[provider]",
     "xAI merged with X Corp"),
])
def test_labels_and_makers(text, family, model, gone, kept):
    out = scrub(text, family, model)
    assert gone not in out and kept in out, out
