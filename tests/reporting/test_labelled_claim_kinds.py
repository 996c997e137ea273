"""A label's quote may cover a figure and the superlative said of it, two claims: the label's kind picks one."""

from __future__ import annotations

from datetime import UTC, datetime

from grader.reporting._labelled_claims import _claims_of_kind
from ledgers import extract_claims

WHEN = datetime(2026, 7, 28, 20, tzinfo=UTC)


def _claims(text: str):
    return extract_claims(text, WHEN, "FINANCIALS", None, benchmark="SP500")


def test_a_ranking_label_reads_the_superlative_and_a_number_label_the_figure():
    claims = _claims("Prior 16-session active return +2.10%, best among sectors")
    assert [c.unread is not None for c in claims] == [False, True]
    assert [c.text for c in _claims_of_kind("ranking", claims)] == ["best among sectors"]
    assert [c.unread for c in _claims_of_kind("number", claims)] == [None]
    assert _claims_of_kind("direction", claims) == claims


def test_a_quote_with_one_kind_only_keeps_its_claims():
    claims = _claims("Prior 16-session active return +2.10%.")
    assert len(claims) == 1
    assert _claims_of_kind("ranking", claims) == claims
