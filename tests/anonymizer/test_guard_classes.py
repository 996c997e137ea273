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


# holdout8's development half and the placements its README names (sentences written here): a name's call glossed by
# how it was made, a code comment's author, the first person plural, a former name, a sign-off phrase, where the
# text was typed, a request to a lab's API host, a name in a path, a version alone, the first person in a script
# without spaces, who made the text in Chinese, the author's maker with a corporate word, a caveat on the author's
# own model; none of them shares a pattern with the scrubber
@pytest.mark.parametrize(
    ("family", "model", "text"),
    [
        ("google", "gemini-3-1-pro", "Google's view, from its model: copper runs ahead of PMIs; trim COPX."),
        ("xai", "grok-4", "if rsi < 30:\n    buy('SMH')  # by xai"),
        ("xai", "grok-4", "We Groks like momentum; long SMH."),
        ("meta", "llama-4-maverick", "us llamas stay hedged: long GLD."),
        ("google", "gemini-3-1-pro", "Hold XLP. (Formerly released as Bard.)"),
        ("openai", "gpt-5", "Long FCX.\nSigning off: your ChatGPT seat."),
        ("openai", "gpt-5", "Typed in the ChatGPT app on a phone: buy XLF."),
        ("alibaba", "qwen3-235b", "POST dashscope.aliyuncs.com/api/v1 -> BUY 20 EWH"),
        ("mistral", "mistral-large", "Docs at https://console.mistral.ai/models; long EWQ."),
        ("google", "gemini-3-1-pro", "Ran on projects/p1/locations/us/models/gemini-2.5-pro; buy XLV."),
        ("google", "gemini-3-1-pro", "Confidence: low; 2.5 Flash over-reacts to headlines. Long XLU."),
        ("openai", "gpt-5", "5-mini's pick: long XLY."),
        ("meta", "llama-4-maverick", "3.3-70B sees a bond rally: long TLT."),
        ("alibaba", "qwen3-235b", "我们通义千问团队看好港股。"),
        ("anthropic", "claude-opus-4-7", "저희 Claude는 TLT를 매수합니다."),
        ("deepseek", "deepseek-v3", "方法：本文由深度求索撰写。买入 FXI。"),
        ("alibaba", "qwen3-235b", "Although Alibaba Group made me, I'm neutral on BABA."),
        ("openai", "gpt-5", "Caveat: GPT-5 mini can't see intraday prices. Long SPY."),
        ("openai", "gpt-5", "As one of the o-series reasoners, I buy TLT."),
    ],
)
def test_the_guard_refuses_holdout8_placements(family, model, text):
    assert LeakGuard(family, model, SYMBOLS).find(text)


@pytest.mark.parametrize(
    ("family", "model", "text"),
    [
        ("google", "gemini-3-1-pro", "Google's take rate on Play fell; GOOGL flat."),  # no call glossed by a maker
        ("deepseek", "deepseek-v3", "Liang Wenfeng said DeepSeek has no plans to raise outside money."),  # news
        ("google", "gemini-3-1-pro", "The iPhone 17 Pro and Galaxy S25 Ultra sold well; long AAPL."),  # a product's
        ("xai", "grok-4", "Tesla's deal to put Grok in its cars lifts TSLA."),  # "put" is no request verb
        ("openai", "gpt-5", "Sales rose 5.5% and margins 1.2 points; SPY flat."),  # figures, no variant word
        ("anthropic", "claude-opus-4-7", "Anthropic's Series F closed at a $183B valuation."),  # a funding series
        ("meta", "llama-4-maverick", "Capex at Microsoft/Amazon/Meta keeps rising; long NVDA."),  # a list, no path
        ("google", "gemini-3-1-pro", "| beta | 0.45\nPro forma EPS rose; long GOOGL."),  # a figure, a line, a word
    ],
)
def test_the_guard_lets_holdout8_market_news_through(family, model, text):
    assert LeakGuard(family, model, SYMBOLS).find(text) == []
