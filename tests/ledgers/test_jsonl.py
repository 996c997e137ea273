"""``verify_claims_jsonl`` (behind ``grader claims verify``): format, errors, atomic output, no provider SDKs."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from grader.season import load_bundle
from ledgers import ClaimsFileError, verify_claims_jsonl
from tests.conftest import REPO, write_bundle

LINES = [
    {
        "id": "c1",
        "decided_at": "2021-06-15T10:00:00-04:00",
        "symbol": "AAPL",
        "text": "RSI at 60.4",
        "fields": ["rsi14"],
    },
    {"id": "c2", "decided_at": "2021-06-15T10:00:00-04:00", "symbol": "AAPL", "text": "RSI at 72", "fields": ["rsi14"]},
    {"id": "c3", "decided_at": "2021-06-15T10:00:00-04:00", "symbol": "AMD", "text": "AMD will double", "fields": []},
    {
        "id": "c4",
        "decided_at": "2021-07-27T12:00:00-04:00",
        "symbol": "AAPL",
        "text": "P/E of 31.6",
        "fields": ["peRatio"],
    },
]


def _write(path, lines):
    path.write_text("".join((json.dumps(x) if not isinstance(x, str) else x) + "\n" for x in lines))
    return path


def test_verifies_every_line(tmp_path, store):
    out = tmp_path / "out" / "verified.jsonl"
    counts = verify_claims_jsonl(_write(tmp_path / "in.jsonl", LINES), out, store)
    assert counts == {
        "claims": 4,
        "supported": 1,
        "not_verifiable": 1,
        "contradicted": 2,
        "lookahead": 1,
        "briefing_only": 0,
    }
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["id"] for r in rows] == ["c1", "c2", "c3", "c4"]
    assert [r["status"] for r in rows] == ["supported", "contradicted", "not_verifiable", "contradicted"]
    first = rows[0]
    assert set(first) >= {"id", "status", "reason", "evidence"}
    assert first["evidence"] == [
        {
            "symbol": "AAPL",
            "field": "rsi14",
            "value": pytest.approx(60.3525, abs=1e-3),
            "observed_at": "2021-06-14T16:00:00-04:00",
            "source": "prices",
        }
    ]
    assert rows[3]["lookahead"] is True


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (
            {"id": "x", "decided_at": "2021-06-15T10:00:00", "symbol": "AAPL", "text": "RSI 60"},
            "line 3, field 'decided_at'",
        ),
        ({"id": "x", "decided_at": "2021-06-15T10:00:00Z", "symbol": "AAPL"}, "line 3, field 'text'"),
        ({"id": "x", "decided_at": "2021-06-15T10:00:00Z", "text": "t", "fields": "rsi14"}, "line 3, field 'fields'"),
        ({"id": "x", "decided_at": "2021-06-15T10:00:00Z", "text": "t", "colour": "red"}, "line 3, field 'colour'"),
        (
            {"id": "c1", "decided_at": "2021-06-15T10:00:00Z", "text": "t"},
            "line 3, field 'id': duplicate id 'c1' (first on line 1)",
        ),
        ("{not json", "line 3: not valid JSON"),
        ("[1, 2]", "line 3: expected a JSON object"),
    ],
)
def test_bad_line_names_file_line_and_field_and_writes_nothing(tmp_path, store, bad, message):
    src = _write(tmp_path / "claims.jsonl", [LINES[0], LINES[1], bad])
    out = tmp_path / "verified.jsonl"
    out.write_text("previous\n")
    with pytest.raises(ClaimsFileError) as err:
        verify_claims_jsonl(src, out, store)
    assert f"{src}, {message}" in str(err.value)
    assert out.read_text() == "previous\n"
    assert not list(tmp_path.glob(".claims-*"))


def test_empty_file_is_rejected(tmp_path, store):
    src = tmp_path / "empty.jsonl"
    src.write_text("\n\n")
    with pytest.raises(ClaimsFileError, match="no claims"):
        verify_claims_jsonl(src, tmp_path / "o.jsonl", store)
    assert not (tmp_path / "o.jsonl").exists()


def test_works_on_a_loaded_season_bundle(tmp_path):
    bundle = load_bundle(write_bundle(tmp_path / "season"))
    lines = [
        {
            "id": "b1",
            "decided_at": "2022-01-07T17:00:00-05:00",
            "symbol": "AAA",
            "text": "up 6% over 5 days",
            "fields": ["return5d"],
        },
        {
            "id": "b0",
            "decided_at": "2022-01-07T17:00:00-05:00",
            "symbol": "AAA",
            "text": "up 5% over 5 days",
            "fields": ["return5d"],
        },
        {
            "id": "b2",
            "decided_at": "2022-01-07T17:00:00-05:00",
            "symbol": "BBB",
            "text": "positive momentum",
            "fields": [],
        },
    ]
    counts = verify_claims_jsonl(_write(tmp_path / "in.jsonl", lines), tmp_path / "out.jsonl", bundle.store)
    rows = {r["id"]: r for r in map(json.loads, (tmp_path / "out.jsonl").read_text().splitlines())}
    assert counts["claims"] == 3
    assert rows["b0"]["status"] == "supported"
    # AAA closes 102, 103, ..., 106 (2022-01-03 .. 01-07): 5-day return 106/101 - 1 = +4.95%
    assert rows["b1"]["status"] == "contradicted" and "+4.95%" in rows["b1"]["reason"]
    assert rows["b2"]["status"] == "not_verifiable"  # no return20d/return30d in a two-week bundle


def test_ledgers_import_no_provider_sdk():
    code = (
        "import sys, ledgers\n"
        "from ledgers import verify_claims_jsonl, extract_claims, verify_many, cross_check, grounding_summary\n"
        "print(','.join(m for m in ('openai', 'anthropic', 'xai_sdk', 'instructor') if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True)
    assert result.stdout.strip() == ""
