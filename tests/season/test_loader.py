"""Season bundle v1: a valid bundle loads; every listed rejection names file, line and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader.season import BundleError, load_bundle
from tests.conftest import write_bundle


def _decisions(path: Path) -> list[dict]:
    return [json.loads(line) for line in (path / "decisions.jsonl").read_text().splitlines() if line]


def _rewrite(path: Path, decisions: list[dict]) -> None:
    (path / "decisions.jsonl").write_text("".join(json.dumps(d) + "\n" for d in decisions))


def _issues(path: Path) -> list[str]:
    with pytest.raises(BundleError) as err:
        load_bundle(path)
    return [str(i) for i in err.value.issues]


def test_valid_bundle_loads(tiny_bundle):
    b = load_bundle(tiny_bundle)
    assert [c.id for c in b.contestants] == ["m1", "m2"]
    assert len(b.decisions) == 4
    assert b.decisions[0].decided_at.utcoffset() is not None
    assert len(b.content_hash) == 64 and "season.yaml" in b.file_hashes
    assert b.trading_days[0].isoformat() == "2022-01-03"


def test_same_content_same_hash(tmp_path):
    a = load_bundle(write_bundle(tmp_path / "a"))
    b = load_bundle(write_bundle(tmp_path / "b"))
    assert a.content_hash == b.content_hash


def test_unknown_contestant(tiny_bundle):
    ds = _decisions(tiny_bundle)
    ds[1]["contestant_id"] = "ghost"
    _rewrite(tiny_bundle, ds)
    issues = _issues(tiny_bundle)
    assert any(i.startswith("decisions.jsonl:2: contestant_id") and "ghost" in i for i in issues)


def test_unknown_symbol_in_trade_and_fields(tiny_bundle):
    ds = _decisions(tiny_bundle)
    ds[0]["trades"][0]["symbol"] = "ZZZ"
    _rewrite(tiny_bundle, ds)
    (tiny_bundle / "market" / "fields.csv").write_text(
        "symbol,field,value,observed_at,source\nQQQ,peRatio,20,2021-12-31,x\n"
    )
    issues = _issues(tiny_bundle)
    assert any(i.startswith("decisions.jsonl:1: trades[0].symbol") for i in issues)
    assert any(i.startswith("market/fields.csv:2: symbol") for i in issues)


def test_trade_outside_season(tiny_bundle):
    ds = _decisions(tiny_bundle)
    ds[3]["decided_at"] = "2022-02-01T15:30:00-05:00"
    _rewrite(tiny_bundle, ds)
    assert any(
        i.startswith("decisions.jsonl:4: decided_at") and "outside the season" in i for i in _issues(tiny_bundle)
    )


def test_selling_more_than_held(tiny_bundle):
    ds = _decisions(tiny_bundle)
    ds[1]["trades"][0]["quantity"] = 11
    _rewrite(tiny_bundle, ds)
    assert any(i.startswith("decisions.jsonl:2: trades[0].quantity") and "holds 10" in i for i in _issues(tiny_bundle))


def test_non_numeric_and_nan(tiny_bundle):
    text = (tiny_bundle / "decisions.jsonl").read_text().splitlines()
    text[0] = text[0].replace('"quantity": 10', '"quantity": NaN')
    text[2] = text[2].replace('"price": 49', '"price": "cheap"')
    (tiny_bundle / "decisions.jsonl").write_text("\n".join(text) + "\n")
    prices = (tiny_bundle / "market" / "prices.csv").read_text().splitlines()
    prices[3] = prices[3].rsplit(",", 1)[0] + ",abc"
    prices[4] = prices[4].rsplit(",", 1)[0] + ",nan"
    (tiny_bundle / "market" / "prices.csv").write_text("\n".join(prices) + "\n")
    issues = _issues(tiny_bundle)
    assert any(i.startswith("decisions.jsonl:1: trades[0].quantity") for i in issues)
    assert any(i.startswith("decisions.jsonl:3: trades.0.price") for i in issues)
    assert any(i.startswith("market/prices.csv:4: close") and "not a number" in i for i in issues)
    assert any(i.startswith("market/prices.csv:5: close") and "finite" in i for i in issues)


def test_duplicate_decisions_and_prices(tiny_bundle):
    ds = _decisions(tiny_bundle)
    ds.append(dict(ds[3]))
    _rewrite(tiny_bundle, ds)
    prices = (tiny_bundle / "market" / "prices.csv").read_text().splitlines()
    prices.append(prices[1])
    (tiny_bundle / "market" / "prices.csv").write_text("\n".join(prices) + "\n")
    issues = _issues(tiny_bundle)
    assert any(i.startswith("decisions.jsonl:5: decided_at") and "duplicate" in i for i in issues)
    assert any(i.startswith(f"market/prices.csv:{len(prices)}: date") and "duplicate" in i for i in issues)


def test_timestamp_without_offset(tiny_bundle):
    ds = _decisions(tiny_bundle)
    ds[2]["decided_at"] = "2022-01-03T15:30:00"
    _rewrite(tiny_bundle, ds)
    (tiny_bundle / "market" / "fields.csv").write_text(
        "symbol,field,value,observed_at,source\nAAA,peRatio,20,2022-01-04T10:00:00,x\n"
    )
    issues = _issues(tiny_bundle)
    assert any(i.startswith("decisions.jsonl:3: decided_at") and "offset" in i for i in issues)
    assert any(i.startswith("market/fields.csv:2: observed_at") and "offset" in i for i in issues)


def test_fields_observed_after_season_end(tiny_bundle):
    (tiny_bundle / "market" / "fields.csv").write_text(
        "symbol,field,value,observed_at,source\nAAA,peRatio,20,2022-03-01,x\n"
    )
    assert any(
        i.startswith("market/fields.csv:2: observed_at") and "after the season end" in i for i in _issues(tiny_bundle)
    )


@pytest.mark.parametrize("name", ["season.yaml", "contestants.yaml", "decisions.jsonl", "market/prices.csv"])
def test_empty_file(tiny_bundle, name):
    (tiny_bundle / name).write_text("")
    assert f"{name}: file is empty" in _issues(tiny_bundle)


@pytest.mark.parametrize("name", ["season.yaml", "contestants.yaml", "decisions.jsonl", "market/prices.csv"])
def test_missing_file(tiny_bundle, name):
    (tiny_bundle / name).unlink()
    assert f"{name}: file is missing" in _issues(tiny_bundle)


def test_truncated_files(tiny_bundle):
    text = (tiny_bundle / "decisions.jsonl").read_text()
    (tiny_bundle / "decisions.jsonl").write_text(text[: len(text) - 30])
    prices = (tiny_bundle / "market" / "prices.csv").read_text()
    (tiny_bundle / "market" / "prices.csv").write_text(prices.rsplit(",", 1)[0])
    season = (tiny_bundle / "season.yaml").read_text()
    (tiny_bundle / "season.yaml").write_text(season[: season.index("universe")] + "universe: [{symbol: AAA")
    issues = _issues(tiny_bundle)
    assert any(i.startswith("decisions.jsonl:4:") and "truncated" in i for i in issues)
    assert any(i.startswith("market/prices.csv:") and "truncated" in i for i in issues)
    assert any(i.startswith("season.yaml:") and "YAML" in i for i in issues)


def test_all_errors_listed_not_only_first(tiny_bundle):
    ds = _decisions(tiny_bundle)
    ds[0]["contestant_id"] = "ghost"
    ds[2]["decided_at"] = "2022-01-03T15:30:00"
    ds[3]["confidence"] = 7
    _rewrite(tiny_bundle, ds)
    issues = _issues(tiny_bundle)
    assert len(issues) >= 3
    assert any("confidence" in i for i in issues)


def test_missing_season_field_named(tiny_bundle):
    text = (tiny_bundle / "season.yaml").read_text().replace("benchmark: SP500\n", "")
    (tiny_bundle / "season.yaml").write_text(text)
    assert any(i.startswith("season.yaml") and "benchmark" in i for i in _issues(tiny_bundle))


def test_decisions_of_is_the_contestant_s_decisions_in_order_each_time_a_new_list(tiny_bundle):
    bundle = load_bundle(tiny_bundle)
    for c in bundle.contestants:
        mine = bundle.decisions_of(c.id)
        assert mine == [d for d in bundle.decisions if d.contestant_id == c.id]
        mine.clear()  # a caller's list: the bundle's index is untouched
        assert bundle.decisions_of(c.id) == [d for d in bundle.decisions if d.contestant_id == c.id]
    assert bundle.decisions_of("nobody") == []
