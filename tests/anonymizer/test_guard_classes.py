"""The leak guard on kinds of self-reference found on a development battery (dev4) it had not been written for:
letters written apart with dots or hyphens, an article before them, people and places behind a lab named as the
author's maker, the author spoken of in the third person. And what it must still let through."""

from __future__ import annotations

import pytest

from grader.anonymizer import LeakGuard

SYMBOLS = ["SPY", "META", "GOOGL", "AVGO", "BABA"]


@pytest.mark.parametrize(
    ("family", "model", "text"),
    [
        ("openai", "gpt-5", "my context window as a G.P.T. model lets me hold the whole session; fade the gap."),
        ("xai", "grok-4", "the author, a g r o k model, abstains: signal-to-noise is too low."),
        ("deepseek", "deepseek-v3", "the author (d-e-e-p-s-e-e-k, MIT-licensed weights) thinks breadth is cracking."),
        ("meta", "llama-4-maverick", "Zuck's open model (that's me) says buy AVGO."),
        ("xai", "grok-4", "I'm the assistant the one Elon's team trains. Verdict: wait."),
        ("alibaba", "qwen3-235b", "I was trained in Hangzhou, and this model rates the setup C-grade; skip."),
        ("google", "gemini-3-1-pro", "authored by a Flash-Lite model from Mountain View."),
        # holdout5's development half: where the author was trained, how the text was made, the lab's model speaking
        ("openai", "gpt-5", "my training at OpenAI aside, the launch reaction was flat; neutral MSFT."),
        ("meta", "llama-4-maverick", "generated with llama-3.3-70b; buy META on the tax charge."),
        ("deepseek", "deepseek-v3", "Short ARKK. This note was served via the deepseek API."),
        ("xai", "grok-4", "xai's model speaking: long DIS after the parks beat."),
        # holdout6's development half: sign-off lines, a name's own call, copyright, keys in any spelling
        ("xai", "grok-4", "Power demand keeps rising.\n-- grok, long VST"),
        ("deepseek", "deepseek-v3", "Round 15 -- DeepSeek-R1's pick: NVDA."),
        ("mistral", "mistral-large", "(c) 2026 Mistral AI. Hold BIL."),
        ("google", "gemini-3-1-pro", "{authorOrg: 'GoogleDeepMind', side: 'buy'}"),
        ("openai", "gpt-5", "X-Provider: openai\n\nAdd 1% to XLU."),
    ],
)
def test_the_guard_refuses(family, model, text):
    assert LeakGuard(family, model, SYMBOLS).find(text)


@pytest.mark.parametrize(
    ("family", "model", "text"),
    [
        ("meta", "llama-4-maverick", "Zuckerberg said capex rises again; META's ad growth is fine, long META."),
        ("xai", "grok-4", "Musk's pay package vote is a TSLA overhang; I stay flat."),
        ("alibaba", "qwen3-235b", "Hangzhou's property data improved; BABA holds its range."),
        (
            "google",
            "gemini-3-1-pro",
            "Gemini users hit 650M monthly, and AI Overviews are monetizing at parity; adding GOOGL.",
        ),
        ("openai", "gpt-5", "The U.S. C.P.I. print is due Tuesday; SPY is range-bound."),
        ("google", "gemini-3-1-pro", "Videos generated with Veo went viral on YouTube; adding GOOGL."),
    ],
)
def test_the_guard_lets_market_news_through(family, model, text):
    assert LeakGuard(family, model, SYMBOLS).find(text) == []
