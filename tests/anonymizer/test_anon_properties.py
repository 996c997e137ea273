"""Property tests: scrubbing is idempotent, leaves no contestant name behind, and the gate hides nothing."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from grader.anonymizer import Anonymizer
from grader.season import Contestant
from tests.anonymizer._corpus import LEAK_CORPUS, NEGATIVE_CORPUS

# placeholder words (rejected by the anonymizer) and values that name nobody (never patterns)
RESERVED = {"model", "provider", "self", "reference", "contestant", "undisclosed", "unknown", "other", "none"}
RESERVED |= {"null", "various"}
FAMILIES = [
    "openai",
    "anthropic",
    "xai",
    "google",
    "deepseek",
    "meta",
    "mistral",
    "microsoft",
    "Acme Labs",
    "zeta",
]
FILLER = [
    "bought", "sold", "AAPL", "XOM", "momentum", "the", "RSI14", "42%", "metadata", "Meta-analysis", "peRatio",
    "on", "$120.50", "Q3", "co3", "operator", "rotation", "2022-01-03", "—", "(", ")", "'s", "\n", "I'm", "as an",
    "trained by", "here", "model", "provider", "self-reference", "[", "]",
]  # fmt: skip
SEPARATORS = [" ", " ", " ", ", ", ". ", "\n", "-", "/", "_", ": ", "'", '"']
IDENTITY_BASES = [
    "gpt-4.1", "GPT 4o", "gpt4", "gpt-5.5", "o3", "o4-mini", "4o", "ChatGPT", "OpenAI", "Open AI", "x.AI", "xAI",
    "X AI", "Grok 4.3", "grok-4", "Claude 3.7 Sonnet", "claude-sonnet-4-6", "Sonnet", "Opus 4.8", "Haiku",
    "Anthropic", "Gemini 3.1 Pro", "gemini-3-1-pro", "Google DeepMind", "Bard", "DeepSeek-R1", "deep seek v3",
    "Llama 3", "Meta", "Meta AI", "Mistral Large", "Mixtral 8x7B", "Qwen2.5-72B", "ai21 labs", "01.ai",
    "Kimi K2", "Phi-4", "Copilot",
]  # fmt: skip


LOWER = "abcdefghijklmnopqrstuvwxyz"
ALNUM = LOWER + "0123456789"


def _name_word() -> st.SearchStrategy[str]:
    return st.text(alphabet=LOWER, min_size=4, max_size=9).filter(lambda w: w not in RESERVED).map(str.capitalize)


@st.composite
def season_contestants(draw) -> list[Contestant]:
    n = draw(st.integers(1, 4))
    out: list[Contestant] = []
    for i in range(n):
        first = draw(_name_word())
        second = draw(st.none() | st.text(alphabet=ALNUM, min_size=2, max_size=5).map(str.capitalize))
        display = first if second is None else f"{first} {second}"
        cid = f"{first.lower()}-{draw(st.text(alphabet=ALNUM, min_size=2, max_size=5))}-{i}"
        major, minor = draw(st.integers(0, 9)), draw(st.none() | st.integers(0, 9))
        model = f"{draw(st.text(alphabet=LOWER, min_size=3, max_size=6))}-{major}" + (
            "" if minor is None else f".{minor}"
        )
        out.append(Contestant(id=cid, display_name=display, provider_family=draw(st.sampled_from(FAMILIES)),
                              model=model))  # fmt: skip
    return out


def _variants(value: str) -> list[str]:
    return [
        value, value.upper(), value.lower(), value.replace(" ", "_"), value.replace("-", " "),
        value.replace(" ", "-"), f"{value}'s", value.title(),
    ]  # fmt: skip


@st.composite
def texts(draw, contestants: list[Contestant]) -> str:
    # long neutral stretches put mentions in separate scan windows
    long_filler = [" ".join(NEGATIVE_CORPUS[i : i + 8]) for i in (0, 8, 16)]
    pool = list(FILLER) + [s for s, _ in LEAK_CORPUS[:30]] + NEGATIVE_CORPUS[:10] + long_filler
    for c in contestants:
        for v in (c.id, c.display_name, c.model):
            pool += _variants(v)
    for base in IDENTITY_BASES:
        pool += _variants(base)
    parts = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=25))
    seps = draw(st.lists(st.sampled_from(SEPARATORS), min_size=len(parts), max_size=len(parts)))
    return "".join(p + s for p, s in zip(parts, seps, strict=True))


def _flexible(value: str) -> re.Pattern[str]:
    tokens = re.findall(r"[^\W\d_]+|\d+", value.lower())
    return re.compile(r"(?<![^\W_])" + r"[\W_]{0,3}".join(map(re.escape, tokens)) + r"(?![^\W_])", re.I)


def _mask_neutral(text: str) -> str:
    """Hide aliases and placeholders (4 non-word characters: no name can span across the mask)."""
    return re.sub(r"Contestant [A-Z]{1,3}|contestant-[a-z]{1,3}|\[(?:model|provider|self-reference)\]", "§§§§", text)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_scrub_is_idempotent_and_leaves_no_contestant_name(data):
    contestants = data.draw(season_contestants())
    assume(len({c.id for c in contestants}) == len(contestants))
    anon = Anonymizer.for_contestants(contestants, data.draw(st.text(max_size=8)))
    text = data.draw(texts(contestants))

    once = anon.scrub(text)
    twice = anon.scrub(once.text)
    assert twice.text == once.text
    assert twice.replacements == []
    assert anon.find_leaks(once.text) == []

    masked = _mask_neutral(once.text)
    for c in contestants:
        for value in (c.id, c.display_name, c.model):
            assert _flexible(value).search(masked) is None, (value, once.text)

    # the records rebuild the output from the input
    pos, rebuilt = 0, []
    for r in once.replacements:
        assert text[r.start : r.end] == r.original
        rebuilt += [text[pos : r.start], r.replacement]
        pos = r.end
    assert "".join(rebuilt) + text[pos:] == once.text


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_gate_never_hides_a_detection(data):
    contestants = data.draw(season_contestants())
    assume(len({c.id for c in contestants}) == len(contestants))
    detector = Anonymizer.for_contestants(contestants, "s")._detector
    text = data.draw(texts(contestants))
    gated = [(g.start, g.end) for g in detector.groups(text)]
    assert gated == [(g.start, g.end) for g in detector.groups(text, use_gate=False)]


ALLOWLIST = ["GOOGL", "META", "MSFT", "Alphabet", "Google", "Meta", "Meta Platforms", "Microsoft"]
ALLOWED_TEXT = [
    "GOOGL",
    "META",
    "Google Cloud",
    "Meta Platforms",
    "Alphabet's buyback",
    "Microsoft Azure",
    "Meta",
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_with_a_universe_allowlist_scrubbing_stays_idempotent_and_clean(data):
    contestants = data.draw(season_contestants())
    assume(len({c.id for c in contestants}) == len(contestants))
    anon = Anonymizer.for_contestants(contestants, "s", allowlist=ALLOWLIST)
    text = data.draw(texts(contestants)) + " " + " ".join(data.draw(st.lists(st.sampled_from(ALLOWED_TEXT))))
    once = anon.scrub(text).text
    assert anon.scrub(once).text == once
    assert anon.find_leaks(once) == []
    for kept in ("GOOGL", "Google Cloud", "Meta Platforms", "Microsoft Azure"):
        if kept in text and kept not in once:
            # only possible when the kept name was swallowed by a longer identity around it, or said of the
            # author itself ("I'm  Google Cloud": a self-description, whatever name it claims)
            assert any(
                kept in r.original or (r.kind == "self_reference" and r.original in kept)
                for r in anon.scrub(text).replacements
            )


def test_a_window_cutting_a_word_does_not_invent_a_match():
    """Found by the property test: the pre-check window ended inside "Sonnets", so "Sonnet" matched on the
    second pass only; a match that exists only because the window cut the word is no match."""
    from grader.anonymizer import Anonymizer
    from grader.season import Contestant

    a = Anonymizer.for_contestants(
        [Contestant(id="aaaa-0000-0", display_name="Aaaa", provider_family="openai", model="aaa-0")], ""
    )
    u = (
        "bought Bingo: the breakout held. Sonnets and haikus aside, KO is defensive. The metaverse capex cycle is "
        "long. Grokking the curve took time. Palm oil prices rose 3%. A deep pullback in deep value names. Traders "
        "seek yield; keep in mind the duration risk. Claudette sold her shares. "
    )
    once = a.scrub(u + "gpt-4.1, " + u[7:])
    assert "Sonnets" in once.text and a.scrub(once.text).text == once.text


@pytest.mark.parametrize(
    "text",
    [
        "bought bought bought bought bought, Copilot bought bought bought bought Running as gemini-3-1-pro.: ",
        "bought bought bought bought bought, Copilot bought bought bought-gpt4: ",
    ],
)
def test_a_replacement_that_changes_its_neighbours_context_is_followed_to_the_end(text):
    """Found by the property test: a name replaced in one pass changed how the clause of another name read, so
    scrubbing the output scrubbed more; passes now run until one finds nothing."""
    from grader.anonymizer import Anonymizer
    from grader.season import Contestant

    people = [
        Contestant(id=f"aaaa-00-{i}", display_name="Aaaa", provider_family="openai", model="aaa-0") for i in range(4)
    ]
    anon = Anonymizer.for_contestants(people, "s")
    once = anon.scrub(text)
    assert anon.scrub(once.text).text == once.text
    assert all(text[r.start : r.end] == r.original for r in once.replacements)


def test_a_contestants_own_name_in_lower_case_is_never_an_ordinary_word():
    """Found by the property test: 'aaaa' (the contestant 'Aaaa') is scrubbed; only the identity lexicon's lines
    written in lower case ("grok the setup") may be ordinary words."""
    from grader.anonymizer import Anonymizer
    from grader.season import Contestant

    anon = Anonymizer.for_contestants(
        [Contestant(id="aaaa-00-0", display_name="Aaaa", provider_family="openai", model="aaa-0")], "s"
    )
    assert "aaaa" not in anon.scrub("aaaa bought the dip").text.lower()


def test_a_mention_holding_a_contestant_id_is_never_market_news():
    """Found by the property test: "momentum Aaaa aaaa-00-2" (a display name and an id read as one mention) was kept
    as a market mention because the whole was no contestant's exact name."""
    from grader.anonymizer import Anonymizer
    from grader.season import Contestant

    people = [
        Contestant(id=f"aaaa-00-{i}", display_name=name, provider_family="openai", model="aaa-0")
        for i, name in enumerate(("Aaaa", "Aaaa", "Aaaa Aaaa"))
    ]
    out = Anonymizer.for_contestants(people, "").scrub("momentum Aaaa aaaa-00-2 ").text
    assert "aaaa" not in out.lower()
