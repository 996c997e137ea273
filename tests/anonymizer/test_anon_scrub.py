"""Scrubbing: the leak corpus comes out clean, the negative corpus untouched, universe names kept."""

from __future__ import annotations

import pytest

from grader.anonymizer import (
    MODEL_PLACEHOLDER,
    SELF_REFERENCE_PLACEHOLDER,
    Anonymizer,
    find_leaks,
    universe_allowlist,
)
from grader.season import Contestant, SeasonInfo, UniverseEntry
from tests.anonymizer._corpus import (
    CONTESTANTS,
    LEAK_CORPUS,
    MARKET_CONTEXT_CORPUS,
    NEGATIVE_CORPUS,
    word_present,
)


@pytest.fixture(scope="module")
def anon() -> Anonymizer:
    return Anonymizer.for_contestants(CONTESTANTS, "corpus-seed")


def _id(c: str) -> str:
    return next(x.id for x in CONTESTANTS if x.model == c)


def test_leak_corpus_is_large_enough():
    assert len(LEAK_CORPUS) >= 60
    assert len({s for s, _ in LEAK_CORPUS}) == len(LEAK_CORPUS)


@pytest.mark.parametrize(("sentence", "identities"), LEAK_CORPUS, ids=[s[:40] for s, _ in LEAK_CORPUS])
def test_leak_corpus_comes_out_clean(anon, sentence, identities):
    out = anon.scrub(sentence).text
    assert [w for w in identities if word_present(w, out)] == []
    assert anon.find_leaks(out) == []
    # the checker itself sees the identities before scrubbing
    assert find_leaks(sentence, CONTESTANTS) != []


def test_whole_corpus_as_one_text(anon):
    text = "\n".join(s for s, _ in LEAK_CORPUS)
    result = anon.scrub(text)
    assert anon.find_leaks(result.text) == []
    kept = [k.original for k in result.kept]  # companies named as market context in other sentences
    for _, identities in LEAK_CORPUS:
        assert [
            w for w in identities if word_present(w, result.text) and not any(word_present(w, k) for k in kept)
        ] == []


@pytest.mark.parametrize("sentence", NEGATIVE_CORPUS)
def test_negative_corpus_is_untouched(anon, sentence):
    result = anon.scrub(sentence)
    assert result.text == sentence
    assert result.replacements == []
    assert anon.find_leaks(sentence) == []


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("I'm Claude, and I'd buy AAPL.", "[self-reference], and I'd buy AAPL."),
        ("As an OpenAI model, I prefer KO.", "[self-reference], I prefer KO."),
        ("Grok here: buying XOM.", "[self-reference]: buying XOM."),
        ("As a large language model trained by Google, I hold.", "[self-reference], I hold."),
        ("Claude's and OpenAI's views differ.", "[model]'s and OpenAI's views differ."),  # a company: kept
        ("Claude 3.7 Sonnet agrees.", "[model] agrees."),
        ("A chip designed by Google.", "A chip designed by Google."),  # market context, not the author
    ],
)
def test_exact_replacements(anon, sentence, expected):
    assert anon.scrub(sentence).text == expected


@pytest.mark.parametrize(
    ("mention", "model"),
    [
        ("gpt-5.5", "gpt-5.5"),
        ("GPT 5.5", "gpt-5.5"),
        ("Opus 4.8", "claude-opus-4-8"),
        ("Claude Opus 4.8", "claude-opus-4-8"),
        ("grok-4-3", "grok-4.3"),
        ("Grok 4.3", "grok-4.3"),
        ("gemini-3-1-pro", "gemini-3.1-pro"),
        ("Google's Gemini 3.1 Pro", "gemini-3.1-pro"),
        ("DeepSeek-R1", "deepseek-r1"),
        ("Llama 4 Maverick", "llama-4-maverick"),
        ("Mistral Large 2", "mistral-large-2"),
    ],
)
def test_season_contestants_become_a_neutral_token(anon, mention, model):
    """Never the alias where a model stood (issue 30): "[Contestant C] release knocked 17% off NVDA" would tell
    anyone who knows the news which lab Contestant C is."""
    result = anon.scrub(f"Compare {mention} now.")
    assert result.text == f"Compare {MODEL_PLACEHOLDER} now."
    assert anon.alias_of(_id(model)) not in result.text
    assert [r.kind for r in result.replacements] == ["contestant"]


@pytest.mark.parametrize("mention", ["GPT-4.1", "gpt-5", "GPT-5.5 Pro", "Gemini 3.1", "Claude Opus", "o3", "Grok 4"])
def test_other_models_become_a_placeholder(anon, mention):
    result = anon.scrub(f"Compare {mention} now.")
    assert result.text == f"Compare {MODEL_PLACEHOLDER} now."
    assert [r.kind for r in result.replacements] == ["model"]


def test_ids_and_display_names_become_a_neutral_token(anon):
    for c in CONTESTANTS:
        for value in (c.id, c.display_name, c.id.upper(), c.display_name.replace(" ", "_")):
            assert anon.scrub(value).text == MODEL_PLACEHOLDER, value


def test_replacement_records_point_into_the_input(anon):
    text = "Note: I'm Claude. OpenAI's GPT-4.1 and Grok 4.3 disagree; Sonnet too."
    result = anon.scrub(text)
    rebuilt, pos = [], 0
    for r in result.replacements:
        assert text[r.start : r.end] == r.original
        rebuilt += [text[pos : r.start], r.replacement]
        pos = r.end
    rebuilt.append(text[pos:])
    assert "".join(rebuilt) == result.text
    assert [r.kind for r in result.replacements] == ["self_reference", "model", "contestant", "model"]
    assert [r.original for r in result.replacements] == [
        "I'm Claude",
        "OpenAI's GPT-4.1",
        "Grok 4.3",
        "Sonnet",
    ]
    assert result.replacements[0].replacement == SELF_REFERENCE_PLACEHOLDER
    assert result.text == "Note: [self-reference]. [model] and [model] disagree; [model] too."
    kept = anon.scrub("OpenAI's view")  # a company: kept verbatim, and the report says so
    assert kept.replacements == [] and kept.kept[0].kind == "provider" and kept.kept[0].original == "OpenAI"


def test_shared_model_goes_to_the_author_else_placeholder():
    twins = [
        Contestant(id="alpha-desk", display_name="Alpha Desk", provider_family="openai", model="gpt-5"),
        Contestant(id="omega-desk", display_name="Omega Desk", provider_family="openai", model="gpt-5"),
    ]
    a = Anonymizer.for_contestants(twins, "s")
    result = a.scrub("gpt-5 thinks so", contestant_id="omega-desk")  # the author speaking of itself
    assert result.text in ("[model] thinks so", "[self-reference] thinks so")
    assert a.scrub("gpt-5 thinks so").text in ("[model] thinks so", "[self-reference] thinks so")
    assert a.scrub("Alpha Desk and Omega Desk").text == "[model] and [model]"


def test_unknown_and_conditional_families_are_scrubbed_only_when_in_the_season():
    plain = Anonymizer.for_contestants(CONTESTANTS, "s")
    text = "Microsoft and Amazon results; Acme Labs filing."
    assert plain.scrub(text).text == text
    extra = [
        Contestant(id="phi-desk", display_name="Desk P", provider_family="microsoft", model="phi-4"),
        Contestant(id="acme-desk", display_name="Desk Q", provider_family="Acme Labs", model="acme-7b"),
    ]
    a = Anonymizer.for_contestants([*CONTESTANTS, *extra], "s")
    result = a.scrub(text)  # a contestant's family named as a company in the news stays, and is reported
    assert result.text == text and [k.original for k in result.kept] == ["Microsoft", "Acme Labs"]
    assert a.scrub("As a Microsoft model, I like MSFT.").text == "[self-reference], I like MSFT."


# -- universe allowlist -------------------------------------------------------------------------------
def _season(*entries: tuple[str, str]) -> SeasonInfo:
    return SeasonInfo(
        id="s",
        name="S",
        start="2022-01-03",
        end="2022-03-31",
        benchmark="SP500",
        starting_cash=100000,
        universe=[UniverseEntry(symbol=s, name=n) for s, n in entries],
    )


UNIVERSE = _season(
    ("GOOGL", "Alphabet Inc. Class A"),
    ("META", "Meta Platforms, Inc."),
    ("MSFT", "Microsoft Corporation"),
    ("AAPL", "Apple Inc."),
)


def test_universe_allowlist_contents():
    allow = universe_allowlist(UNIVERSE)
    for item in ("GOOGL", "Alphabet Inc. Class A", "Alphabet", "META", "Meta Platforms", "Meta", "Google"):
        assert item in allow
    assert "Google" not in universe_allowlist(UNIVERSE, protect_issuer_brands=False)


def test_universe_tickers_and_company_news_stay_in_a_season_trading_them():
    a = Anonymizer.for_season(UNIVERSE, CONTESTANTS, "s")
    text = (
        "Bought GOOGL and META, trimmed MSFT. Google Cloud revenue +82%; Meta Platforms capex up; "
        "Meta guided higher; Alphabet buys back stock."
    )
    assert a.scrub(text).text == text
    assert a.find_leaks(text) == []


def test_identities_next_to_allowed_names_are_still_scrubbed():
    a = Anonymizer.for_season(UNIVERSE, CONTESTANTS, "s")
    out = a.scrub(
        "As a large language model trained by Google, I like GOOGL. Google DeepMind's Gemini 3.1 Pro and "
        "Meta AI agree; Meta Llama 3 too. I'm Claude."
    ).text
    assert out == ("[self-reference], I like GOOGL. [model] and Meta AI agree; [model] too. [self-reference].")


def test_tickers_are_case_sensitive_allowlist_entries():
    a = Anonymizer.for_contestants(CONTESTANTS, "s", allowlist=["META"])
    assert a.scrub("Bought META.").text == "Bought META."
    assert a.scrub("Meta released weights.").text == "Meta released weights."  # a company: kept
    b = Anonymizer.for_contestants(CONTESTANTS, "s")
    assert b.scrub("Bought META.").text == "Bought META."  # a ticker in market context, never the author
    assert b.scrub("As a META model, I hold it.").text == "[self-reference], I hold it."


def test_scrubbing_is_idempotent_on_the_corpus(anon):
    for sentence, _ in LEAK_CORPUS:
        once = anon.scrub(sentence).text
        assert anon.scrub(once).text == once
        assert anon.scrub(once).replacements == []


def test_gate_never_hides_a_detection(anon):
    detector = anon._detector
    texts = [s for s, _ in LEAK_CORPUS] + NEGATIVE_CORPUS
    for t in texts:
        assert [(g.start, g.end) for g in detector.groups(t)] == [
            (g.start, g.end) for g in detector.groups(t, use_gate=False)
        ], t


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Grok here: buy.", "[self-reference]: buy."),
        ("Note. Claude speaking, briefly.", "Note. [self-reference], briefly."),
        ("(Opus 4.8 here) hold", "([self-reference]) hold"),
        ("Compare GPT-4.1 here.", "Compare [model] here."),
        ("Is Grok here to stay?", "Is [model] here to stay?"),
    ],
)
def test_here_is_a_self_reference_only_when_it_opens_a_sentence(anon, sentence, expected):
    assert anon.scrub(sentence).text == expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("This is GPT-5.5 speaking: trim risk.", "[self-reference]: trim risk."),
        ("Hello, it's Claude.", "Hello, [self-reference]."),
        ("This is Google's best quarter.", "This is Google's best quarter."),
        ("It's GPT-4.1's weakness.", "It's [model]'s weakness."),
        ("I am an OpenAI model.", "[self-reference]."),
        ("I'm OpenAI's biggest fan.", "I'm OpenAI's biggest fan."),
        ("It's Anthropic, not me.", "It's Anthropic, not me."),
    ],
)
def test_weak_declaratives_need_the_mention_to_end_the_clause(anon, sentence, expected):
    assert anon.scrub(sentence).text == expected


@pytest.mark.parametrize("sentence", MARKET_CONTEXT_CORPUS)
def test_companies_named_as_market_context_stay_verbatim_and_are_reported(anon, sentence):
    """Identity, not markets: "Meta -8%", "Google Cloud +82%", "a lease with Anthropic" keep their subject; the
    scrub report says what was kept and why, and the leak guard does not refuse them."""
    result = anon.scrub(sentence)
    assert result.text == sentence and result.replacements == []
    assert result.kept and all("market context" in k.reason for k in result.kept)
    assert anon.find_leaks(sentence) == []


@pytest.mark.parametrize(
    ("sentence", "gone"),
    [
        ("I, Claude, think semis lead.", "Claude"),
        ("Our Gemini desk is bullish on GOOGL.", "Gemini"),
        ("Claude thinks energy leads.", "Claude"),
        ("We at OpenAI favour XLE.", "OpenAI"),
        ("Google DeepMind trained me, so read this with care.", "Google"),
        ("This decision was made by Claude Opus 4.8 (Anthropic).", "Anthropic"),
        ("Greetings from Claude! Buying XLV.", "Claude"),
    ],
)
def test_planted_self_references_are_scrubbed(anon, sentence, gone):
    out = anon.scrub(sentence).text
    assert not word_present(gone, out) and anon.find_leaks(out) == [], out
