"""Structure before prose: a rationale written as a document gives each line its option by its structure, a
markdown section under a heading that names the option, lines indented under a key or a bullet that only names
it, a log line's time stamp and tag, a footnote marker ending a sentence. Checked on whole documents, as the
reference judge reads a rationale."""

from __future__ import annotations

import pytest

from tests.ledgers.test_reading_classes import read, store  # noqa: F401  (the shared fixture)


def _numbers(store, text):  # noqa: F811
    return [(c.symbol, v.status) for c, v in read(store, text, None) if c.assertions[0].rule == "exact_numeric"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # HEALTHCARE +3.12% over 5 sessions, UTILITIES +2.48%, FINANCIALS -0.05%, TECHNOLOGY -5.90%
        (
            "## Market state\n- Breadth is thin.\n\n## Health Care (XLV)\n+ Up 3.12% over five sessions.\n"
            "- Weak participation.\n\n## Utilities (XLU)\n+ Up 2.48% over five sessions.\n",
            [("HEALTHCARE", "supported"), ("UTILITIES", "supported")],
        ),
        (
            "FINANCIALS:\n  weight: 25%\n  r5d: -0.05% over five sessions\nmarket:\n  note: up 3.12% over five sessions\n",
            [("FINANCIALS", "supported"), (None, "not_verifiable")],
        ),
        (
            "Defensive sleeve\n- Utilities (XLU), 20%\n  - up 2.48% over five sessions\n- Health care (XLV), 25%\n"
            "  - up 3.12% over five sessions\n",
            [("UTILITIES", "supported"), ("HEALTHCARE", "supported")],
        ),
    ],
)
def test_a_line_takes_the_option_its_structure_names(store, text, expected):  # noqa: F811
    assert _numbers(store, text) == expected


def test_a_heading_naming_an_option_does_not_lend_it_to_the_next_section(store):  # noqa: F811
    text = "## Health Care (XLV)\n+ Up 3.12% over five sessions.\n## Market state\n- Up 2.48% over five sessions.\n"
    assert _numbers(store, text) == [("HEALTHCARE", "supported"), (None, "not_verifiable")]


def test_a_log_lines_stamp_and_tag_are_structure_not_words(store):  # noqa: F811
    text = "[09:30:00] CHECK  Technology (XLK) gained 5.90% over five sessions.\n"
    found = [(c.symbol, v.status) for c, v in read(store, text, None) if c.assertions[0].rule == "exact_numeric"]
    assert found == [("TECHNOLOGY", "contradicted")]  # XLK -5.90%: the tag leaves no doubt about the subject


def test_a_sentence_ends_before_its_footnote_marker(store):  # noqa: F811
    text = "Health care (XLV) rose 3.12% over five sessions.[3] Technology (XLK) fell 5.90% over five sessions.[4]"
    assert _numbers(store, text) == [("HEALTHCARE", "supported"), ("TECHNOLOGY", "supported")]


def test_a_transcripts_turns_carry_their_option_to_a_later_it_and_never_accuse_through_it(store):  # noqa: F811
    text = (
        "[t07] PM: Health care next. XLV looks strong.\n"
        "[t08] Analyst: It is. Up 3.12% over five sessions.\n"
        "[t09] PM: And versus the tape?\n"
        "[t10] Analyst: It fell 5.90% over five sessions.\n"
    )
    # the second "it" is wrong of XLV (+3.12%): read through a pronoun, it is not verifiable, never contradicted
    assert _numbers(store, text) == [("HEALTHCARE", "supported"), ("HEALTHCARE", "not_verifiable")]


def test_a_speaker_that_is_an_option_stays_the_lines_header(store):  # noqa: F811
    assert _numbers(store, "[t16] XLF: down 0.05% over five sessions.\n") == [("FINANCIALS", "supported")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (  # tagged titles: the bullets under one are its option's; a title naming none, or two, lends none
            "Slide 1 - Backdrop\n- Down 0.95% over five sessions\n\nSlide 2 - Health Care (XLV): hold\n"
            "- Up 3.12% over five sessions\n- 21-session volatility 16.50%\n\nSlide 3: Utilities vs Energy\n"
            "- Up 2.48% over five sessions\n",
            [
                (None, "not_verifiable"),
                ("HEALTHCARE", "supported"),
                ("HEALTHCARE", "supported"),
                (None, "not_verifiable"),
            ],
        ),
        (  # a bold title, and a short untagged one the bullets follow
            "**Technology (XLK)**\n- Up 5.90% over five sessions\n\nFinancials (XLF) stays small\n"
            "- Down 0.05% over five sessions\n",
            [("TECHNOLOGY", "contradicted"), ("FINANCIALS", "supported")],
        ),
    ],
)
def test_a_title_line_lends_its_option_to_the_lines_up_to_the_next_title(store, text, expected):  # noqa: F811
    assert _numbers(store, text) == expected


def test_a_sentence_in_prose_is_not_a_title(store):  # noqa: F811
    text = "Health care (XLV) is our anchor.\n- Up 2.48% over five sessions\n"
    assert _numbers(store, text) == [(None, "not_verifiable")]  # a sentence above a bullet lends nothing


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (  # "it", "its", "the fund" in a paragraph that opened with one option: that option's, for certain
            "Health care (XLV) is the anchor. It rose 3.12% over five sessions. Its 21-session volatility is 12.00%. "
            "The fund's beta is 0.40.",
            [("HEALTHCARE", "supported"), ("HEALTHCARE", "contradicted"), ("HEALTHCARE", "supported")],
        ),
        (  # another subject in between: "it" may be that one; a figure is still checked, never an accusation
            "Health care (XLV) is the anchor. The portfolio is defensive. Its 21-session volatility is 12.00%.",
            [("HEALTHCARE", "not_verifiable")],
        ),
        (  # a paragraph that opens with two options lends neither
            "Health care (XLV) and utilities (XLU) anchor the book. Its 21-session volatility is 12.00%.",
            [(None, "not_verifiable")],
        ),
    ],
)
def test_a_paragraph_that_opens_with_an_option_lends_it_to_its_it(store, text, expected):  # noqa: F811
    assert _numbers(store, text) == expected


def test_a_label_over_bullets_stays_in_the_section_of_its_heading(store):  # noqa: F811
    text = "## Health Care (XLV)\nKey risks\n- Up 3.12% over five sessions\n"
    assert _numbers(store, text) == [("HEALTHCARE", "supported")]
