"""Inputs that would change a result silently are refused with file, line and field (nothing is written)."""

from __future__ import annotations

import json

import pytest
import yaml

from grader.season import BundleError, load_bundle


def _issues(path) -> list[str]:
    with pytest.raises(BundleError) as exc:
        load_bundle(path)
    return [str(i) for i in exc.value.issues]


def _edit_decision(bundle, index: int, fn) -> None:
    p = bundle / "decisions.jsonl"
    rows = [json.loads(line) for line in p.read_text().splitlines()]
    fn(rows[index])
    p.write_text("".join(json.dumps(r) + "\n" for r in rows))


def _edit_season(bundle, fn) -> None:
    p = bundle / "season.yaml"
    info = yaml.safe_load(p.read_text())
    fn(info)
    p.write_text(yaml.safe_dump(info, sort_keys=False))


@pytest.mark.parametrize(("price", "ok"), [(101.0, True), (1010.0, False), (10.1, False), (130.0, False)])
def test_a_fill_far_from_the_days_close_is_refused(tiny_bundle, price, ok):
    _edit_decision(tiny_bundle, 0, lambda d: d["trades"][0].update(price=price))
    if ok:
        load_bundle(tiny_bundle)
    else:
        assert any(
            i.startswith("decisions.jsonl:1: trades[0].price") and "within 25%" in i for i in _issues(tiny_bundle)
        )


def test_buying_beyond_the_cash_held_is_refused_unless_the_season_declares_margin(tiny_bundle):
    _edit_decision(tiny_bundle, 0, lambda d: d["trades"][0].update(quantity=1000))  # 1000 x 101 > 10,000 cash
    assert any("decisions.jsonl:1: trades" in i and "beyond the cash held" in i for i in _issues(tiny_bundle))
    _edit_season(tiny_bundle, lambda s: s.update(allow_margin=True))
    _edit_decision(tiny_bundle, 1, lambda d: d["trades"][0].update(quantity=1000))
    load_bundle(tiny_bundle)


@pytest.mark.parametrize("cash", [0, -100])
def test_non_positive_starting_cash_is_refused(tiny_bundle, cash):
    _edit_season(tiny_bundle, lambda s: s.update(starting_cash=cash))
    assert any(i.startswith("season.yaml:") and "starting_cash" in i for i in _issues(tiny_bundle))


@pytest.mark.parametrize("rate", [0.5, -0.2, 5.0])
def test_an_implausible_risk_free_rate_is_refused(tiny_bundle, rate):
    _edit_season(tiny_bundle, lambda s: s.update(risk_free_rate=rate))
    assert any("risk_free_rate" in i for i in _issues(tiny_bundle))


@pytest.mark.parametrize(("field", "value"), [("quantity", True), ("price", False)])
def test_a_boolean_is_not_a_number(tiny_bundle, field, value):
    _edit_decision(tiny_bundle, 0, lambda d: d["trades"][0].update({field: value}))
    assert any(f"trades.0.{field}" in i and "boolean" in i for i in _issues(tiny_bundle))


def test_a_trade_and_an_allocation_in_one_decision_is_refused(tiny_bundle):
    _edit_decision(tiny_bundle, 0, lambda d: d.update(allocation=[{"symbol": "AAA", "weight": 1.0}]))
    assert any(i.startswith("decisions.jsonl:1") and "not both" in i for i in _issues(tiny_bundle))


def test_a_traded_symbol_without_prices_is_refused(tiny_bundle):
    p = tiny_bundle / "market" / "prices.csv"
    p.write_text("".join(line + "\n" for line in p.read_text().splitlines() if ",CCC," not in line))
    _edit_decision(tiny_bundle, 2, lambda d: d["trades"][0].update(symbol="CCC", price=20.4))
    assert any("trades[0].symbol" in i and "CCC has no prices" in i for i in _issues(tiny_bundle))


def test_a_decision_before_any_price_history_is_refused(tiny_bundle):
    p = tiny_bundle / "market" / "prices.csv"
    p.write_text(
        "".join(
            line + "\n"
            for line in p.read_text().splitlines()
            if not line.startswith(("2021-12-30", "2021-12-31", "2022-01-03"))
        )
    )
    assert any(i.startswith("decisions.jsonl:") and "before any price history" in i for i in _issues(tiny_bundle))


@pytest.mark.parametrize("size", [60_000, 5_000_000])
def test_a_rationale_past_the_size_limit_is_refused(tiny_bundle, size):
    _edit_decision(tiny_bundle, 3, lambda d: d.update(rationale="x" * size))
    assert any(i.startswith("decisions.jsonl:4: rationale") and "at most 50,000" in i for i in _issues(tiny_bundle))
