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


@pytest.mark.parametrize(
    ("text", "family", "model", "kept", "gone"),
    [
        (
            "I'm GPT-5, and yes, I'm aware the GPT-5 launch event moved MSFT less than expected.",
            "openai",
            "gpt-5",
            "the GPT-5 launch event moved MSFT",
            "I'm GPT-5",
        ),
        (
            "I'm Qwen-Max from Alibaba; Alibaba's Qwen app hitting 10M downloads in a week is why I like BABA.",
            "alibaba",
            "qwen-max",
            "Alibaba's Qwen app hitting 10M downloads",
            "I'm Qwen-Max",
        ),
        (
            "As ChatGPT, I note that ChatGPT Enterprise seat growth is a headwind for CRM; short CRM.",
            "openai",
            "gpt-5",
            "ChatGPT Enterprise seat growth",
            "As ChatGPT",
        ),
    ],
)
def test_market_news_is_kept_beside_a_self_reference(text, family, model, kept, gone):
    out = scrub(text, family, model)
    assert kept in out and gone not in out


@pytest.mark.parametrize(
    ("text", "family", "model", "name"),
    [
        ("agent: Grok 3 | Tesla disclosed Grok in its cars' infotainment, minor for TSLA.", "xai", "grok-3", "Grok 3"),
        ("Qwen, I think, should stay long BABA on downloads.", "alibaba", "qwen-max", "Qwen,"),
    ],
)
def test_a_name_the_author_speaks_of_is_scrubbed(text, family, model, name):
    assert name not in scrub(text, family, model)


@pytest.mark.parametrize(
    ("piece", "name", "speaks"),
    [
        ("I'm aware the GPT-5 launch event moved MSFT", "GPT-5", False),  # reported
        ("I like the GPT-5 launch", "GPT-5", False),  # an opinion of market news, not of itself
        ("I, GPT-5, like the launch", "GPT-5", True),
        ("my GPT-5 launch", "GPT-5", True),
        ("the Qwen app hitting 10M downloads is why I like BABA", "Qwen", False),  # a market word before the 'I'
        ("Qwen, I think", "Qwen", True),
    ],
)
def test_whether_the_author_speaks_of_a_name(piece, name, speaks):
    i = piece.index(name)
    assert author_speaks_of(piece, i, i + len(name)) is speaks


@pytest.mark.parametrize(
    ("text", "family", "model", "gone", "kept"),
    [
        # a tag that says who wrote it is a label
        (
            "<model>Gemini 3 Pro</model><provider>Google</provider><action>BUY IEF</action>",
            "google",
            "gemini-3-pro",
            "Google",
            "<action>BUY IEF</action>",
        ),
        # a signature's parts and the maker named right after the author
        (
            "<signature>Sonnet 4.5 · Anthropic PBC</signature> Decision: HOLD TLT.",
            "anthropic",
            "claude-sonnet-4-5",
            "Anthropic",
            "HOLD TLT",
        ),
        (
            "Grok 4 here, built by xAI. Shorting TSLA into delivery numbers is crowded.",
            "xai",
            "grok-4",
            "xAI",
            "Shorting TSLA",
        ),
        # a cell separator ends the label: what follows is market news
        (
            "provider: Google | Google Cloud signed a $10B deal with Meta, bullish GOOGL.",
            "google",
            "gemini-3-pro",
            "provider: Google",
            "Google Cloud signed a $10B deal with Meta",
        ),
        # a company opening a sentence is no maker of the author named before
        (
            "xAI merged with X Corp in an all-stock deal; I'm flat TSLA.",
            "xai",
            "grok-4",
            "[provider]",
            "xAI merged with X Corp",
        ),
    ],
)
def test_labels_and_makers(text, family, model, gone, kept):
    out = scrub(text, family, model)
    assert gone not in out and kept in out, out


@pytest.mark.parametrize(
    ("text", "family", "model", "kept"),
    [
        # "US" is the country, not "us": the news about a product stays
        (
            "ChatGPT slipped to #2 in the US App Store behind a rival app; AAPL services revenue is unaffected.",
            "openai",
            "gpt-5",
            "ChatGPT slipped to #2",
        ),
        # a one-word model line followed by a capitalised word no lexicon knows: a person or another brand
        (
            "Claude Shannon's information theory is why the quant team sizes bets with Kelly.",
            "anthropic",
            "claude-opus-4-7",
            "Claude Shannon's information theory",
        ),
        (
            "Le Chat Noir, the Montmartre cabaret brand, licensed its poster art.",
            "mistral",
            "mistral-large",
            "Le Chat Noir",
        ),
        # an en dash inside a compound ("Google–Anthropic") is no signature dash
        (
            "Long GOOGL.\nPS: the Google–Anthropic TPU pact is the catalyst.",
            "google",
            "gemini-3-1-pro",
            "Google–Anthropic TPU pact is the catalyst.",
        ),
    ],
)
def test_market_and_other_proper_names_stay(text, family, model, kept):
    assert kept in scrub(text, family, model)


@pytest.mark.parametrize(
    ("text", "family", "model", "gone"),
    [
        ("Я — Лама 4 от Мета. Покупаю Сбербанк (SBER).", "meta", "llama-4-maverick", ["Лама", "Мета"]),
        (
            "私は「クロード」（アンソロピック）です。トヨタ(7203)を買い増し。",
            "anthropic",
            "claude-opus-4-7",
            ["クロード", "アンソロピック"],
        ),
        (
            "저는 구글(Google)의 ‘제미나이’입니다. SK하이닉스(000660) 매수.",
            "google",
            "gemini-3-1-pro",
            ["구글", "Google", "제미나이"],
        ),
        ("Je suis un modèle Mistral. Long LVMH.", "mistral", "mistral-large", ["Mistral"]),
        # a record whose keys say who wrote it is no market datum
        ('{"who":"mistral-medium-3","side":"flat"}', "mistral", "mistral-large", ["mistral-medium-3"]),
        ('{"model_family": "x.ai", "build": "grok-code-fast-1"}', "xai", "grok-4", ["grok-code-fast-1"]),
        # the product line keeps its model words: "Gemini Advanced" is no person
        ("— sent via Gemini Advanced\nRotate from MTUM into USMV.", "google", "gemini-3-1-pro", ["Gemini"]),
    ],
)
def test_self_reference_in_other_languages_and_scripts_is_scrubbed(text, family, model, gone):
    out = scrub(text, family, model)
    assert not [g for g in gone if g in out], out
