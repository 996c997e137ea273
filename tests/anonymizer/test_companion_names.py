"""The author's own lab named in the same piece as its scrubbed name is the author describing itself and is
scrubbed; the same lab in news, or another lab, stays (grader/anonymizer/_anonymizer.py, ``_companion``)."""

from __future__ import annotations

import pytest

from tests.anonymizer.test_market_clause import scrub


@pytest.mark.parametrize(
    ("text", "family", "model", "gone"),
    [
        ("Soy Claude (de Anthropic) y prefiero bonos cortos.", "anthropic", "claude-sonnet-4", "Anthropic"),
        ("An Anthropic-built Claude model wrote this: trim XLK.", "anthropic", "claude-sonnet-4", "Anthropic"),
        ("Note filed by o3, desk of OpenAI, on the curve.", "openai", "o3", "OpenAI"),
        (
            '{"model": "deepseek-r1", "org": "deepseek", "side": "SELL", "asset": "EWH"}',
            "deepseek",
            "deepseek-r1",
            '"deepseek"',
        ),
        ("I'm a Llama fine-tune out of FAIR; flat.", "meta", "llama-4-maverick", "FAIR"),
    ],
)
def test_the_authors_lab_beside_its_scrubbed_name_is_scrubbed(text, family, model, gone):
    out = scrub(text, family, model)
    assert gone not in out, out


@pytest.mark.parametrize(
    ("text", "family", "model", "kept"),
    [
        # the same lab as news in its own clause: kept, even in a sentence where the author names itself
        ("I'm Qwen; Alibaba Cloud revenue growth is why I hold BABA.", "alibaba", "qwen-max", "Alibaba Cloud revenue"),
        ("As a Llama model, I see Meta capex rising; long META.", "meta", "llama-4-maverick", "Meta capex rising"),
        # another lab beside the author's name: not the author's
        ("Gemini here: OpenAI's pricing cut hurt nobody.", "google", "gemini-2.5-pro", "OpenAI's pricing cut"),
    ],
)
def test_the_lab_in_news_or_another_lab_stays(text, family, model, kept):
    assert kept in scrub(text, family, model)


@pytest.mark.parametrize(
    ("text", "family", "model", "gone"),
    [
        ("Speaking as an o-series model: flat.", "openai", "o3", "o-series"),
        ("I am Alphabet's model and I am long gold.", "google", "gemini-2.5-pro", "Alphabet"),
    ],
)
def test_model_lines_and_parents(text, family, model, gone):
    assert gone not in scrub(text, family, model)


def test_ordinary_capitals_stay():
    assert "FAIR value" in scrub("Trading below FAIR value, I add XLU.", "meta", "llama-4-maverick")
    assert "the alphabet" in scrub("Bond math is the alphabet of macro; I buy TLT.", "google", "gemini-2.5-pro")


def test_a_key_and_its_quoted_value_keep_their_quotes():
    assert (
        scrub('{"model": "qwen-max", "side": "SELL"}', "alibaba", "qwen-max")
        == '{"model": "[undisclosed]", "side": "SELL"}'
    )


@pytest.mark.parametrize(
    ("text", "family", "model", "gone", "kept"),
    [
        # the season trades GOOGL and META: their brands are protected as companies, except as the author's own lab
        (
            "Sono Gemini, addestrato da Google; riduco il rischio. Google Cloud revenue lifted GOOGL.",
            "google",
            "gemini-2.5-pro",
            "addestrato da Google",
            "Google Cloud revenue lifted GOOGL",
        ),
        (
            "Written by Llama (Meta). Meta capex guidance weighs on META.",
            "meta",
            "llama-4-maverick",
            "(Meta)",
            "Meta capex guidance weighs on META",
        ),
    ],
)
def test_a_protected_brand_is_scrubbed_only_as_the_authors_own_lab(text, family, model, gone, kept):
    out = scrub(text, family, model)
    assert gone not in out and kept in out, out
