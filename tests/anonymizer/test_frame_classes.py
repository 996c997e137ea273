"""Authorship frames and market clauses found on holdout5's development half (odd ids; the even ids are held out),
one case each way: the frame is scrubbed, the market sentence of the same shape stays verbatim."""

from __future__ import annotations

import pytest

from grader.anonymizer import Anonymizer
from grader.anonymizer._anonymizer import universe_allowlist
from tests.anonymizer._battery import FAMILY_MODELS, INFO, contestants_for


def _scrub(family: str, text: str) -> str:
    people = contestants_for({"family": family, "model": FAMILY_MODELS[family]})
    anon = Anonymizer.for_contestants(people, seed="frames", allowlist=universe_allowlist(INFO))
    return anon.scrub(text, f"c-{family}").text


@pytest.mark.parametrize(
    ("family", "text", "gone"),
    [
        ("meta", "generated with llama-3.3-70b via meta API. Meta Platforms' tax charge is one-off.", "llama"),
        ("meta", "generated with llama-3.3-70b via meta API. Meta Platforms' tax charge is one-off.", "via meta"),
        ("anthropic", "via Anthropic API (claude opus) — thesis: GLD over TLT.", "Anthropic"),
        ("xai", "xai's model speaking — long DIS after the parks margin beat.", "xai"),
    ],
)
def test_how_the_text_was_made_is_an_authorship_frame(family, text, gone):
    assert gone.lower() not in _scrub(family, text).lower()


def test_a_label_in_brackets_ends_at_its_bracket():
    out = _scrub("alibaba", "(model: qwen3-235b-a22b) Sell YUMC: same-store sales are flat.")
    assert "qwen" not in out and out.endswith(") Sell YUMC: same-store sales are flat.")


@pytest.mark.parametrize(
    ("family", "text"),
    [
        ("google", "Videos generated with Veo went viral, lifting GOOGL."),  # a product's users, not the author
        ("google", "Apple will offer Gemini via the Google Cloud platform next year; long GOOGL."),
        ("xai", "Grok shipping in every new Tesla is a software-margin story; buy TSLA."),
        ("openai", "ChatGPT Enterprise wins are Microsoft's loss at the margin; trim MSFT."),
        ("alibaba", "Apple's China iPhone AI features reportedly use Qwen models; AAPL's China share matters more."),
    ],
)
def test_market_news_of_the_same_shape_stays(family, text):
    assert _scrub(family, text) == text


def test_shipping_as_a_name_is_the_author_not_news():
    out = _scrub("openai", "This author, a descendant of the text-davinci line now shipping as GPT-4.1, buys the dip.")
    assert "GPT-4.1" not in out


@pytest.mark.parametrize(
    ("family", "text", "kept"),
    [
        (
            "anthropic",
            "[claude-haiku-4-5] Google Cloud's TPU contract with Anthropic is worth tens of billions; buy GOOGL.",
            "Google Cloud's TPU contract with Anthropic is worth tens of billions",
        ),
        ("xai", "[Grok-3] Grok 3's free tier pushed the X app up the charts; long META.", "Grok 3's free tier pushed"),
    ],
)
def test_a_label_names_who_wrote_not_the_news_after_it(family, text, kept):
    """A label says who wrote the text: the market sentence after it is not the author describing itself."""
    out = _scrub(family, text)
    assert kept in out and "[undisclosed]" in out


@pytest.mark.parametrize(
    ("family", "text", "gone"),
    [
        ("xai", "[xAI / grok-4] xAI's Colossus power draw is why I like utilities: long VST.", "grok-4"),
        ("meta", "Signed-off-by: Llama 3.3 <llama@meta.com>\nTrim GS after the trading beat.", "llama@"),
        (
            "alibaba",
            "DASHSCOPE_API_KEY=*** MODEL=qwen-plus\nnews: Alibaba-backed Moonshot raised; long BABA",
            "DASHSCOPE",
        ),
    ],
)
def test_every_name_inside_a_label_is_the_author_s(family, text, gone):
    assert gone.lower() not in _scrub(family, text).lower()
