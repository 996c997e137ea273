"""Rubric v0.5 (output schema grade-v2): a judge's structured assertions are checked exactly, the path used
is stored with each verdict, and flags carry their reason."""

from __future__ import annotations

from datetime import datetime

import pytest

from grader.panel._ledger import verify_judge_ledger
from grader.pit import MARKET_TZ
from grader.season import load_bundle
from ledgers import Claim, VerifierConfig, structured_assertions, verify
from ledgers._structured import to_structured
from rubric import grade_json_schema, load_rubric


def _walk(node):
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from _walk(v)
    elif isinstance(node, list):
        for v in node:
            yield from _walk(v)


def test_v05_schema_is_strict_and_v03_v04_are_unchanged():
    schema = grade_json_schema(load_rubric("v0.5"))
    item = schema["$defs"]["ClaimAssertion"]
    assert item["additionalProperties"] is False
    assert (
        set(item["required"])
        == set(item["properties"])
        == {"subject", "field", "kind", "value", "relative_to", "rank", "order", "group", "horizon"}
    )
    entry = schema["$defs"]["ClaimLedgerEntryV2"]
    assert "assertions" in entry["required"]
    for node in _walk(schema):  # every object strict, every property required (OpenAI strict json_schema)
        if node.get("type") == "object" and "properties" in node:
            assert node.get("additionalProperties") is False and set(node["required"]) == set(node["properties"])
    for version in ("v0.3", "v0.4"):
        old = grade_json_schema(load_rubric(version))
        assert "ClaimAssertion" not in old["$defs"] and "assertions" not in str(old["$defs"]["ClaimLedgerEntry"])
    assert load_rubric("v0.4").output_schema_version == "grade-v1"


@pytest.fixture
def tiny(tiny_bundle):
    return load_bundle(tiny_bundle)


WHEN = datetime(2022, 1, 5, 15, 30, tzinfo=MARKET_TZ)  # AAA closes 101..., peRatio 25.5 (27.0 from 01-10)


def _check(bundle, items, text="(structured)"):
    claim = Claim(
        id="1",
        text=text,
        decided_at=WHEN,
        symbol="AAA",
        assertions=structured_assertions(items, None, text),
        structured=True,
    )
    return verify(claim, bundle.store, VerifierConfig(benchmark="SP500"))


def _a(**kw):
    return {
        "subject": "AAA",
        "field": "peRatio",
        "kind": "value",
        "value": None,
        "relative_to": None,
        "rank": None,
        "order": None,
        "group": None,
        "horizon": None,
        **kw,
    }


def test_a_value_is_checked_exactly_whatever_the_claim_text_says(tiny):
    ok = _check(tiny, [_a(value=25.5)], text="P/E of 99 (the words are not re-read)")
    assert ok.status == "supported" and ok.path == "structured"
    bad = _check(tiny, [_a(value=31.2)])
    assert bad.status == "contradicted" and "25.50" in bad.reason


def test_above_below_a_value_and_another_symbol(tiny):
    assert _check(tiny, [_a(kind="above", value=20)]).status == "supported"
    assert _check(tiny, [_a(kind="below", value=20)]).status == "contradicted"
    # AAA close 105.0 vs CCC close 21.0 on 2022-01-05
    assert _check(tiny, [_a(field="close", kind="above", relative_to="CCC")]).status == "supported"
    assert _check(tiny, [_a(field="close", kind="below", relative_to="CCC")]).status == "contradicted"


def test_a_rank_within_the_universe(tiny):
    first = _check(tiny, [_a(field="close", kind="rank", rank=1, order="highest", group="universe")])
    last = _check(tiny, [_a(field="close", kind="rank", rank=1, order="lowest", group="universe")])
    # the tiny season has 4 symbols: fewer than the 5 peers a ranking needs -> not concluded, never guessed
    assert first.status == last.status == "not_verifiable" and "fewer than 5" in first.reason


def test_an_unknown_field_says_so(tiny):
    v = _check(tiny, [_a(field="sharpe30d", value=1.2)])
    assert v.status == "not_verifiable" and "unknown field 'sharpe30d'" in v.reason


def test_the_reference_judge_writes_structured_assertions_it_can_read_back():
    from ledgers import parse_assertions

    for text, expected in (
        ("P/E of 28.5", {"field": "peRatio", "kind": "value", "value": 28.5}),
        ("RSI(14) at 69.4", {"field": "rsi14", "kind": "value", "value": 69.4}),
        ("P/E under 20", {"field": "peRatio", "kind": "below", "value": 20.0}),
    ):
        got = [to_structured(a) for a in parse_assertions(text, "AAA")]
        got = [g for g in got if g]
        assert len(got) == 1 and {k: got[0][k] for k in expected} == expected, (text, got)
        back = structured_assertions(got)
        assert back[0].field == expected["field"] and back[0].stated == expected["value"]


def test_judge_ledger_rows_store_the_path_and_every_flags_reason(tiny):
    entries = [
        {
            "claim": "AAA trades at a P/E of 27.0",
            "decision_date": "2022-01-03",
            "symbol": "AAA",
            "cited_fields": ["peRatio"],
            "status": "supported",
            "note": "peRatio 27.0",
            "assertions": [_a(value=27.0)],
        },
        {
            "claim": "AAA at a P/E of 25.5",
            "decision_date": "2022-01-03",
            "symbol": "AAA",
            "cited_fields": ["peRatio", "sharpeRatio"],
            "status": "supported",
            "note": "",
            "assertions": [],
        },
    ]
    rows = verify_judge_ledger(entries, tiny, "m1")
    structured, text = rows
    assert structured["check_path"] == "structured" and text["check_path"] == "text"
    # 27.0 is the revision observed on 2022-01-10, after the 2022-01-03 decision
    assert structured["lookahead"] and structured["verifier_status"] == "contradicted"
    assert "2022-01-10: 27.00" in structured["flag_reasons"]["lookahead"]
    assert "status_disagreement" in structured["flags"]
    assert "verifier says contradicted" in structured["flag_reasons"]["status_disagreement"]
    assert text["verifier_status"] == "supported"
    assert text["flag_reasons"]["unknown_field"] == "cited field 'sharpeRatio' does not exist"


def _round_store():
    """A rounds-like store: beta and volatility only over the windows a CapitalBench table shows."""
    from datetime import date

    import pandas as pd

    from grader.pit import FieldRow, PointInTimeStore, close_time

    when = close_time(date(2026, 6, 29))
    values = {"HEALTHCARE": (0.40, 0.14), "SP500": (1.0, 0.16), "SMALL_CAP": (1.2, 0.23), "MID_CAP": (1.05, 0.17)}
    rows = [
        FieldRow(s, f, v, when, "capitalbench:R")
        for s, (b, vol) in values.items()
        for f, v in (("beta1y", b), ("volatility30d", vol))
    ]
    prices = pd.DataFrame([{"date": date(2026, 6, 29), "symbol": s, "close": 100.0} for s in values])
    return PointInTimeStore(prices, rows, benchmark="SP500")


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("HEALTHCARE: defensive with lower beta than the S&P 500.", "supported"),  # 0.40 vs 1.00 (beta1y)
        ("HEALTHCARE: higher beta than the S&P 500.", "contradicted"),
        ("MID_CAP: lower vol than SMALL_CAP.", "supported"),  # 17% vs 23% (volatility30d)
        ("MID_CAP: lower vol than broad small caps.", "supported"),  # "small caps": the small-cap option's usual name
        ("MID_CAP: lower vol than mega-cap growth.", None),  # not one option: no claim, never a level claim
        ("MID_CAP: higher volatility than small caps.", "contradicted"),
        ("HEALTHCARE: low beta defensive.", "supported"),  # beta1y 0.40 < 0.8
        ("HEALTHCARE has positive beta.", "supported"),  # the sign of every window shown
        ("HEALTHCARE has negative beta.", "contradicted"),
    ],
)
def test_comparisons_and_levels_use_the_windows_the_round_shows(text, status):
    from ledgers import extract_claims

    universe = {
        "HEALTHCARE": ["Healthcare Sector", "XLV"],
        "SP500": ["S&P 500", "SPY"],
        "SMALL_CAP": ["US Small-Cap Stocks", "IWM"],
        "MID_CAP": ["US Mid-Cap Stocks", "IJH"],
    }
    claims = extract_claims(text, datetime(2026, 6, 30, 10, tzinfo=MARKET_TZ), None, universe, benchmark="SP500")
    got = [verify(c, _round_store(), VerifierConfig(benchmark="SP500")) for c in claims]
    assert [v.status for v in got] == ([status] if status else []), [
        (c.text, v.rule, v.reason) for c, v in zip(claims, got, strict=True)
    ]
