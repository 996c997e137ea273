"""Classes read on the odd ids of holdout9 (issue 30, 2026-11-27), one structural rule each, written with sentences
of other wording than the battery's, and the market sentence of the same shape that must stay: a model's size alone
before a model word or as its active parameters ("As a 236B MoE with 21B active"), a version with a fast variant or a
release suffix alone ("the same 4-fast checkpoint", "V3.2-Exp checkpoint here"), a variant word naming which
model of a line ("the Flash version of Gemini 2.5"), and a product's fortunes as market
news (an app-store ranking, a delay, a backlash, competition, a push, GMV). The leak guard learns the sizes,
versions and variant words with its own patterns."""

from __future__ import annotations

import pytest

from tests.anonymizer._class_checks import check_kept, check_passed, check_refused, check_removed


@pytest.mark.parametrize(
    ("family", "text", "gone"),
    [
        ("deepseek", "Being a 236B MoE with 21B active, I fade FXI.", "236B"),
        ("deepseek", "Being a 236B MoE with 21B active, I fade FXI.", "21B active"),
        ("meta", "As the 70B open-weights model here, I like XLE.", "70B"),
        ("xai", "This memo is from the same 4-fast checkpoint; long NEE.", "4-fast"),
        ("deepseek", "V3.2-Exp checkpoint here: buy KWEB.", "V3.2-Exp"),
        ("google", "Trades came from the Flash version of Gemini 2.5; long XLU.", "Flash"),
        ("openai", "Output of the mini build of GPT-5, sized small: long IEF.", "mini"),
    ],
)
def test_the_scrubber_removes_the_author(family, text, gone):
    check_removed(family, text, gone)


@pytest.mark.parametrize(
    ("family", "text"),
    [
        ("meta", "Meta sold a $30B bond to fund capex; long META."),  # money, not a size
        ("meta", "Instagram has 3B active users; long META."),  # users, not parameters
        ("google", "Apple's 120B model talks lifted AAPL."),  # a word of its own before the size
        ("deepseek", "DeepSeek halved API prices when V3.2-Exp shipped; BIDU fell."),  # no model word after it
        ("mistral", "Le Chat reached No. 1 on the App Store in France; long CAP.PA."),
        ("xai", "Grok 5 slips to next year, a delay that matters for ORCL."),
        ("openai", "Pulling GPT-4o from ChatGPT drew user backlash; MSFT flat."),
        ("alibaba", "Qwen competes with Kimi for Chinese enterprise buyers; BABA flat."),
        ("google", "Xiaomi's Gemini push on its phones helps 1810.HK."),
        ("openai", "The mini variant of GPT-5 launched at half the price; MSFT up."),  # a variant as news
    ],
)
def test_market_news_of_the_same_shape_stays(family, text):
    check_kept(family, text)


@pytest.mark.parametrize(
    ("family", "model", "text"),
    [
        ("deepseek", "deepseek-v3", "As a 671B MoE, I buy FXI."),
        ("deepseek", "deepseek-v3", "With 37B active per token, I stay light on FXI."),
        ("xai", "grok-4", "Written by that same 4-fast model: long NEE."),
        ("deepseek", "deepseek-v3", "V3.1-Terminus weights, long FXI."),
        ("openai", "gpt-5", "Written by the nano variant of [model]; long SPY."),  # what the scrubber left
    ],
)
def test_the_guard_refuses_with_its_own_patterns(family, model, text):
    check_refused(family, model, text)


@pytest.mark.parametrize(
    ("family", "model", "text"),
    [
        ("meta", "llama-4-maverick", "Instagram has 3B active users; long META."),
        ("meta", "llama-4-maverick", "Meta sold a $30B bond to fund capex; long META."),
        ("deepseek", "deepseek-v3", "BIDU fell when V3.2-Exp shipped."),
        ("openai", "gpt-5", "The nano variant launched at half the price; SPY up."),  # no scrubbed model after it
    ],
)
def test_the_guard_lets_market_news_of_the_same_shape_through(family, model, text):
    check_passed(family, model, text)
