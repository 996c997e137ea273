"""``_split_names``: a name split by emphasis or a line break is read joined, and the answer points into the input."""

from __future__ import annotations

from grader.anonymizer._split_names import joined_copy, name_keys
from tests.anonymizer.test_frame_classes import _scrub

KEYS = name_keys(["Llama", "DeepSeek", "Claude", "通义千问"])


def test_a_name_split_by_emphasis_or_a_hyphenated_line_break_is_joined_with_its_offsets():
    text = "*Lla*ma and Deep-\nSeek"
    joined = joined_copy(text, KEYS)
    assert joined is not None
    fixed, index = joined
    assert fixed == "*Llama and DeepSeek"
    assert len(index) == len(fixed) and all(text[i] == fixed[k] for k, i in enumerate(index))


def test_a_name_across_a_line_break_in_a_script_without_spaces_is_joined():
    joined = joined_copy("我是通义\n千问。", KEYS)
    assert joined is not None and joined[0] == "我是通义千问。"


def test_breaks_that_join_no_name_stay():
    assert joined_copy("long-\nterm capex, **bold** and snake_case", KEYS) is None
    assert joined_copy("Deep_Seek", KEYS) is None  # an identifier: its own separator, read as written
    assert joined_copy("通义\n实验室", KEYS) is None  # "通义" alone, no name across the break


def test_the_scrubber_reports_replacements_in_the_input_offsets():
    from grader.anonymizer import Anonymizer
    from grader.anonymizer._anonymizer import universe_allowlist
    from tests.anonymizer._battery import INFO, contestants_for

    text = "Signed, Cl*au*de — long XLV."
    anon = Anonymizer.for_contestants(
        contestants_for({"family": "anthropic", "model": "claude-opus-4-7"}),
        seed="s",
        allowlist=universe_allowlist(INFO),
    )
    result = anon.scrub(text, "c-anthropic")
    assert "Cl*au*de" not in result.text and result.text.endswith("— long XLV.")
    assert result.replacements and all(r.original == text[r.start : r.end] for r in result.replacements)
    assert _scrub("anthropic", result.text) == result.text  # idempotent
