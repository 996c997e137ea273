"""Classes of self-reference read on the whole of holdout8 (issue 30, morning of 2026-11-27), one structural rule each,
written with sentences of other wording than the battery's, and the market sentence of the same shape that must stay:
a model's version written alone, "as a model of X" in German and Italian, a disclaimer on the lab's models, the lab
named as the author's maker in the third person, a name's own reasoning glossed as the text's, who prepared the text
("a model from X"), a footnote as the author's voice, a name run into a hashtag, what describes the author after a
frame (where its model runs, a relative clause), "由 X 生成", a lower-case "grok" between a pronoun and its object, and
a company exposed to a lab's cycle, the product the author runs in ("I run as [model] inside the X app"), the lab's
licence or policy said to apply to the text, the text heading itself as coming from one of a lab's models, and the
people and places behind a lab after a frame, the author glossed as one of a lab's models ("the author, a Grok
model,"), the model behind a product giving its view. The leak guard learns the same classes with its own patterns."""

from __future__ import annotations

import pytest

from tests.anonymizer._class_checks import check_kept, check_passed, check_refused, check_removed
from tests.anonymizer.test_frame_classes import _scrub


@pytest.mark.parametrize(
    ("family", "text", "gone"),
    [
        # a version or size alone, after a function word or opening a clause
        ("google", "Risk note: 2.5 Flash chases gaps, so I size small; long XLU.", "2.5 Flash"),
        ("openai", "These weights were distilled into 5-nano for this run; buy IEF.", "5-nano"),
        ("meta", "Running on the 3.1-405B checkpoint, I hold GLD.", "3.1-405B"),
        ("alibaba", "Served as the 30B-A3B variant, I add EWH.", "30B-A3B"),
        # "as a model of X" in German and Italian
        ("google", "Als KI-Modell von Google bleibe ich bei TLT.", "Google"),
        ("anthropic", "Come modello di Anthropic, preferisco GLD.", "Anthropic"),
        ("mistral", "Sono un modello Mistral e compro EWQ.", "Mistral"),
        # a disclaimer on the lab's models
        ("xai", "Caution: Grok models may be wrong about timing; long SMH.", "Grok"),
        ("anthropic", "Answers from Claude can contain errors. Buy XLV.", "Claude"),
        # the lab named as the author's maker in the third person
        ("anthropic", "Anthropic is the company behind this desk; long XLV.", "Anthropic"),
        # a name's own reasoning glossed as the text's
        ("openai", "Summary of o3's reasoning: breadth is thin, so trim QQQ.", "o3"),
        ("meta", "Meta's view, via its model: buy XLE.", "Meta"),
        # who prepared the text, one of the lab's models
        ("mistral", "Written by an agent from Mistral AI. Buy EWQ.", "Mistral"),
        # a footnote is the author's own note on its text
        ("deepseek", "Buy FXI.[2]\n\n[2] Weights computed by DeepSeek-V3 with a 5% cap.", "DeepSeek"),
        ("google", "Long XLU.\u00b2\n\n\u00b2 Gemini-built allocation; no live data.", "Gemini"),
        # a name run into a hashtag
        ("anthropic", "Buy XLV. #ClaudeOpus #macro", "Claude"),
        ("mistral", "Long EWQ. #MistralLarge2", "Mistral"),
        # what describes the author after a frame: where its model runs, a relative clause
        ("google", "Drafted by the Gemini team model on Google Cloud: long XLU.", "Google"),
        ("google", "I was trained by DeepMind, which Alphabet owns, so note the link; buy XLU.", "Alphabet"),
        # who wrote the text, in Chinese
        ("alibaba", "结论：本报告由通义千问撰写。买入 EWH。", "通义千问"),
        # the product the author runs in (an app, or a lab's product of the lexicon)
        ("xai", "I run inside the X app most days; today, long QQQ.", "X app"),
        ("alibaba", "Talking to you from the Quark app: sell KWEB calls.", "Quark"),
        ("meta", "I run as an assistant inside Instagram, but here I trade: long DIS.", "Instagram"),
        # the lab's licence or policy said to apply to the text
        ("meta", "This view comes from an open model; Meta's acceptable-use policy applies.", "Meta"),
        ("meta", "Released under the Llama Community License, this note says: reduce beta.", "Llama"),
        # the text heads itself as coming from one of a lab's models
        ("meta", "A quick take from a Meta model: long XLC.", "Meta"),
        ("xai", "Long SMH (from an xAI model)", "xAI"),
        # the people and places behind a lab, in what describes the author after a frame
        ("alibaba", "Trained by the Qwen team in Hangzhou, this model buys EWH.", "Hangzhou"),
        ("meta", "from the Llama team's model in Menlo Park: rotate into KRE.", "Menlo Park"),
        # the text's author glossed as one of a lab's models; the model behind a product, giving its view
        ("xai", "The author, a Grok-tuned model, stays flat today.", "Grok"),
        ("anthropic", "Yours truly (Claude, at your service) sells the rip.", "Claude"),
        ("google", "The model behind Bard expects a retest of the lows.", "Bard"),
        # "this book" is the author's voice: "This book is run by a model from the o-series"
        ("openai", "This book is managed by a compact model from the o-series; cut HYG.", "o-series"),
    ],
)
def test_the_scrubber_removes_the_author(family, text, gone):
    check_removed(family, text, gone)


@pytest.mark.parametrize(
    ("family", "text"),
    [
        ("google", "Gemini 2.5 Pro pricing cut lifted GOOGL."),  # the product stands before the version
        ("google", "The iPhone 17 Pro sold out; long AAPL."),
        ("google", "Apple sold the new 17 Pro in record numbers; long AAPL."),  # a word of its own before it
        ("meta", "Die Capex ist höher als bei Meta; kaufe META."),  # "als" is "than", no model word
        ("deepseek", "DeepSeek has no plans to raise outside money, said Liang Wenfeng."),  # news, no caveat
        ("alibaba", "Alibaba Group is the parent of Ant Group, whose buyback lifted BABA."),  # a parent of a company
        ("google", "Google's take rate on Play fell; GOOGL flat."),  # no call glossed by a model
        ("anthropic", "Long XLV.[1]\n\n[1] Anthropic's $13B raise was reported by Reuters."),  # a footnote's news
        ("xai", "Oracle, which rents capacity to xAI, is levered to the Grok training cycle; long ORCL."),
        ("xai", "I grok the bull case on ORCL better than most."),  # a verb between a pronoun and its object
        ("meta", "Users in the WhatsApp app grew 20%; long META."),  # nobody runs in it
        ("openai", "Salesforce moved from an OpenAI model to Claude last quarter; long MSFT."),  # news of a switch
        ("openai", "The author, a former banker, likes MSFT."),  # no lab's model glosses the author
        ("meta", "Meta AI now runs inside WhatsApp for 1B users; long META."),  # the product runs, not the author
        ("meta", "Meta's acceptable-use policy applies to EU developers; long META."),  # news of a policy
    ],
)
def test_market_news_of_the_same_shape_stays(family, text):
    check_kept(family, text)


def test_a_frame_in_one_sentence_leaves_the_same_name_in_market_news_before_it():
    text = "DeepSeek 的低价 API 拖累了百度的云业务定价。本文由 DeepSeek 生成。卖出 BIDU。"
    out = _scrub("deepseek", text)
    assert out.startswith("DeepSeek 的低价 API") and "由 DeepSeek" not in out


def test_the_parent_named_twice_is_the_author_once_and_news_once():
    text = "Alibaba Group is the parent of the model writing this note, and Alibaba Group's buyback pause worries me."
    out = _scrub("alibaba", text)
    assert out.count("Alibaba Group") == 1 and "Alibaba Group's buyback pause" in out


@pytest.mark.parametrize(
    ("family", "model", "text"),
    [
        ("openai", "gpt-5", "Als Sprachmodell von OpenAI kaufe ich SPY."),
        ("openai", "gpt-5", "Sized with 5-mini's risk model; long SPY."),  # after a function word
        ("openai", "gpt-5", "Long SPY.\n\n[1] Text produced by gpt-5 under the default budget."),  # a footnote
        ("deepseek", "deepseek-v3", "Buy FXI. #DeepSeekV3 #macro"),  # a name run into a tag
        ("deepseek", "deepseek-v3", "Disclaimer: DeepSeek models can hallucinate prices. Long FXI."),
        ("meta", "llama-4-maverick", "Outputs from Meta AI may be inaccurate; long SPY."),
        ("alibaba", "qwen3-235b", "Alibaba Cloud is the maker of this model, and BABA is cheap."),
        ("xai", "grok-4", "I grok the setup."),  # the verb the scrubber keeps: from an xAI author, a gap
    ],
)
def test_the_guard_refuses_with_its_own_patterns(family, model, text):
    check_refused(family, model, text)


@pytest.mark.parametrize(
    ("family", "model", "text"),
    [
        ("google", "gemini-3-1-pro", "Apple sold the new 17 Pro in record numbers; long AAPL."),
        ("meta", "llama-4-maverick", "Spending on the #metaverse weighs on META."),
        ("deepseek", "deepseek-v3", "DeepSeek has no plans to raise outside money."),
        ("meta", "llama-4-maverick", "Die Capex ist höher als bei Meta; kaufe META."),
        ("anthropic", "claude-opus-4-7", "Long XLV.[1]\n\n[1] Anthropic's $13B raise was reported by Reuters."),
        ("meta", "llama-4-maverick", "Users in the WhatsApp app grew 20%; long META."),
        ("meta", "llama-4-maverick", "Meta's acceptable-use policy applies to EU developers; long META."),
    ],
)
def test_the_guard_lets_market_news_of_the_same_shape_through(family, model, text):
    check_passed(family, model, text)
