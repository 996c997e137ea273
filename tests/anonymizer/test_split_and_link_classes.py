"""Classes read on the odd ids of holdout9 (issue 30, second session of 2026-11-27), one structural rule each, written
with sentences of other wording than the battery's, and the market sentence of the same shape that must stay: a name
split by emphasis or a line break ("**Clau**de", "Mis-\\ntral", "深度\\n求索"), a link whose host names a lab or a model host's path naming the model, a lab's
acronym ("MSL", "GDM") where the weights come from, a line opened by a variant of a line or a handle's own model before
"here", a denial naming the line and the plain build the author is instead, a record's key for the line or build it came
from, "X 观点：" (a name's view, in Chinese), and the first person set beside its name in other languages ("Nous, chez
Mistral AI,", "Yo, Gemini,"), a sibling line named by an ordinary word speaking right after a frame's colon ("...: Scout
likes CMG"). The leak guard learns each class with its own patterns."""

from __future__ import annotations

import pytest

from tests.anonymizer._class_checks import check_kept, check_passed, check_refused, check_removed


@pytest.mark.parametrize(
    ("family", "text", "gone"),
    [
        # a name split by emphasis inside the word, by a hyphen across a line, by a line break in CJK
        ("anthropic", "**Clau**de drafted this note; trim XLV.", "claude"),
        ("openai", "*Chat*GPT wrote the summary below. Long SPY.", "gpt"),
        ("mistral", "Signed, Mis-\ntral Medium 3: long EWQ.", "mis-\ntral"),
        ("deepseek", "我是深度\n求索的模型，买入 FXI。", "深度\n求索"),
        # a link whose host names a lab, with its scheme or a path
        ("anthropic", "Trace at https://claude.ai/chat/4f2 for this call; long XLV.", "claude"),
        ("openai", "Draft saved to chatgpt.com/c/77a1 before sizing; buy IEF.", "chatgpt"),
        # a model host's path naming the model
        ("alibaba", "Weights pulled from huggingface.co/Qwen/Qwen3-32B; long FXI.", "qwen"),
        ("mistral", "Served from https://ollama.com/library/mistral-small3.2 today; long EWQ.", "mistral"),
        # a lab's acronym where the weights come from
        ("google", "Checkpoint by GDM (Gemini team). Long XLU.", "GDM"),
        ("meta", "Training at MSL. Long XLE.", "MSL"),
        # a variant of a line, or a handle's own model, opening a line before "here"
        ("google", "The Flash tier of Gemini here: long XLU.", "Flash"),
        ("xai", "@xai's Heavy 4 here | long NEE.", "Heavy"),
        # a denial naming the line, and the plain build the author is instead
        ("google", "Not a Gemma fine-tune; just plain Gemini. Long XLU.", "Gemma"),
        ("google", "Not a Gemma fine-tune; just plain Gemini. Long XLU.", "Gemini"),
        # a record's key for the line or build it came from
        ("anthropic", '{"series": "claude", "side": "buy", "ticker": "XLV"}', "claude"),
        ("google", "series: gemini\nticker: XLU\nside: long", "gemini"),
        # a name's view, in Chinese
        ("alibaba", "千问 观点：买入 FXI。", "千问"),
        # the first person set beside its name in other languages
        ("mistral", "Nous, chez Mistral AI, restons longs EWQ.", "Mistral"),
        ("google", "Yo, Gemini, compro XLU.", "Gemini"),
        ("meta", "Wir bei Meta, kaufen XLE.", "Meta"),
        # a sibling line named by an ordinary word, speaking right after a frame's colon
        ("meta", "Written by a Meta model: Behemoth thinks rates fall; long TLT.", "Behemoth"),
        ("anthropic", "Drafted by an Anthropic model: Sonnet sees XLV higher.", "Sonnet"),
    ],
)
def test_the_scrubber_removes_the_author(family, text, gone):
    check_removed(family, text, gone)


@pytest.mark.parametrize(
    ("family", "text"),
    [
        ("meta", "Meta's long-\nterm capex guide rose; long META."),  # a line break joining no name
        ("google", "**Alphabet** beat on cloud; long GOOGL."),  # emphasis around a whole word
        ("google", "Traffic to gemini.google.com rose 30%; GOOGL up."),  # a bare host, no scheme, no path
        ("meta", "Downloads of meta-llama models on huggingface.co passed 1B; long META."),  # no path after the host
        ("meta", "Weights from Meta were downloaded 1B times; long META."),  # the sentence goes on: news
        ("meta", "This is plain Meta stock, long META."),  # no model word or end after the name
        ("google", "Order line: buy XLU at the open."),  # a "line" key whose value names nobody
        ("google", "Not a Gemini launch quarter, so GOOGL drifts."),  # no build word after the name
        ("google", "The Pro tier of Gemini drew 10M subscribers; GOOGL up."),  # no "here": news of a tier
        ("mistral", "En Francia, Mistral, la startup, recaudó 2.000 millones; long EWQ."),  # no pronoun before it
        ("meta", "Wir, die Anleger, mögen META."),  # a pronoun glossed by no name
        ("meta", "Our read: Maverick Capital trimmed META last quarter."),  # a fund: a capital word follows
    ],
)
def test_market_news_of_the_same_shape_stays(family, text):
    check_kept(family, text)


@pytest.mark.parametrize(
    ("family", "model", "text"),
    [
        ("meta", "llama-4-maverick", "*Lla*ma-4 wrote this."),
        ("deepseek", "deepseek-v3", "Deep-\nSeek here, long FXI."),
        ("google", "gemini-3-1-pro", "Trace: https://gemini.google.com/app/9 long XLU"),
        ("alibaba", "qwen3-235b", "Pulled from hf.co/Qwen/QwQ-32B; long FXI."),
        ("mistral", "mistral-large", "@[undisclosed]'s Medium 3 here | long EWQ"),  # what the scrubber left
        ("alibaba", "qwen3-235b", "The Plus tier of Qwen here: long FXI."),
        ("meta", "llama-4-maverick", "Weights from MSL; long XLE."),
        ("xai", "grok-4", '{"series": "grok", "side": "buy"}'),
        ("deepseek", "deepseek-v3", "Not the R1 reasoner today; long FXI."),
        ("meta", "llama-4-maverick", "Nous, chez Meta, aimons XLE."),
        ("meta", "llama-4-maverick", "Posted from the [self-reference]: Scout thinks rates fall."),
    ],
)
def test_the_guard_refuses_with_its_own_patterns(family, model, text):
    check_refused(family, model, text)


@pytest.mark.parametrize(
    ("family", "model", "text"),
    [
        ("meta", "llama-4-maverick", "Meta's long-\nterm capex guide rose; long META."),
        ("google", "gemini-3-1-pro", "**Alphabet** beat on cloud; long GOOGL."),
        ("meta", "llama-4-maverick", "This is plain Meta stock, META is cheap."),
        ("google", "gemini-3-1-pro", "Order line: buy XLU at the open."),
        ("meta", "llama-4-maverick", "Wir, die Anleger, mögen META."),
    ],
)
def test_the_guard_lets_market_news_of_the_same_shape_through(family, model, text):
    check_passed(family, model, text)
