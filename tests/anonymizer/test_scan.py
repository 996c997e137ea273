"""``NameScan`` yields exactly the matches of the pattern it scans (grader/anonymizer/_scan.py)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.anonymizer._frames import Frames
from grader.anonymizer._scan import NameScan

NAMES = [
    "gpt-4o",
    "GPT",
    "Claude Opus",
    "o3",
    "Llama 4 Maverick",
    "qwen3-235b",
    "通义千问",
    "xAI",
    "Grok",
    "R1",
    "Meta AI",
]
FOLDED = [*NAMES, "ſam"]  # the long s matches "s" under re.I: every run is tried


def name_pattern(names: list[str]) -> re.Pattern[str]:
    alt = "|".join(
        r"[\s\-_.]?".join(re.escape(p) for p in re.split(r"[\s\-_.]+", w) if p)
        for w in sorted(names, key=len, reverse=True)
    )
    return re.compile(rf"(?<![^\W_])(?:{alt})(?:[\s\-_.]?(?:v?\d(?:[\w.]*\w)?|mini|pro))*(?![^\W_])", re.I)


BATTERY = Path(__file__).parent / "battery"


def spans(matches) -> list[tuple[int, int]]:  # noqa: ANN001
    return [m.span() for m in matches]


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                *NAMES,
                "gpt4o",
                "GPT-4o-mini",
                "xgpt",
                "o3o",
                " ",
                "-",
                "_",
                ".",
                "\n",
                "é",
                "Sam",
                "SAM",
                "r1",
                "4",
                "claude_opus",
                "(",
                "'s",
                "通义",
            ]
        ),
        max_size=30,
    ),
    st.integers(0, 5),
    st.integers(0, 5),
)
def test_the_same_matches_as_the_pattern_on_any_text(pieces: list[str], cut_lo: int, cut_hi: int) -> None:
    text = "".join(pieces)
    lo, hi = min(cut_lo, len(text)), max(0, len(text) - cut_hi)
    for names in (NAMES, FOLDED):
        pattern = name_pattern(names)
        scan = NameScan(pattern, names)
        assert spans(scan.finditer(text)) == spans(pattern.finditer(text))
        assert spans(scan.finditer(text, lo, hi)) == spans(pattern.finditer(text, lo, max(lo, hi)))


def test_the_same_matches_as_the_frames_identity_pattern_on_the_batteries() -> None:
    frames = Frames.for_names(
        ("gpt-4o", "claude-opus-4-1"),
        ("openai", "anthropic", "xai", "google", "meta", "mistral", "deepseek", "alibaba"),
        ("META", "GOOGL"),
    )
    texts = [json.loads(line)["text"] for f in sorted(BATTERY.glob("*.jsonl")) for line in f.open()]
    assert len(texts) > 1000
    found = 0
    for text in texts:
        expected = spans(frames.ident.finditer(text))
        assert spans(frames.ident_scan.finditer(text)) == expected, text
        found += len(expected)
    assert found > 500  # the batteries name their authors: the comparison is not over empty results


def test_a_pattern_that_does_not_open_at_a_word_start_is_refused() -> None:
    with pytest.raises(ValueError, match="opens with"):
        NameScan(re.compile("gpt"), ["gpt"])
