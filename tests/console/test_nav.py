"""The contestant page's NAV chart: an SVG drawn without a plotting library (issue 33: matplotlib took 0.15 to 0.4 s of
CPU of a contestant's first view)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from datetime import date

import pandas as pd
import pytest

from console._nav import CHART_HEIGHT, CHART_WIDTH, _month_ticks, _nice_ticks, nav_chart_svg

SVG = "{http://www.w3.org/2000/svg}"


def _frame() -> pd.DataFrame:
    days = pd.bdate_range("2025-01-02", "2025-06-30")
    nav = [100_000 + 40 * k for k in range(len(days))]
    bench = [100_000 - 10 * k for k in range(len(days))]
    return pd.DataFrame({"date": days, "NAV": nav, "benchmark (SP500)": bench})


def test_the_chart_draws_each_series_the_trades_the_values_and_the_months():
    frame = _frame()
    traded = [date(2025, 1, 2), date(2025, 3, 3), date(2025, 6, 30), date(2025, 3, 1)]  # 1 March: a Saturday
    svg = nav_chart_svg(frame, traded)
    root = ET.fromstring(svg)  # well-formed
    assert root.get("viewBox") == f"0 0 {CHART_WIDTH} {CHART_HEIGHT}"
    lines = root.findall(f"{SVG}polyline")
    assert len(lines) == 2
    assert all(len(line.get("points").split()) == len(frame) for line in lines)
    assert lines[0].get("stroke") != lines[1].get("stroke")
    # a point per traded day the NAV has (not the Saturday), and one in the legend
    assert len(root.findall(f"{SVG}circle")) == 3 + 1
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert {"NAV", "benchmark (SP500)", "trades", "value"} <= set(texts)
    assert [t for t in texts if re.fullmatch(r"2025-\d\d", t or "")] == [f"2025-{m:02d}" for m in range(2, 7)]
    values = [float(t.replace(",", "")) for t in texts if re.fullmatch(r"[\d,]+", t or "")]
    assert min(values) <= min(frame["benchmark (SP500)"]) + 2_000 and max(values) >= max(frame["NAV"]) - 2_000
    # the first NAV point is at the left edge of the plot, the highest value at the top
    first = [float(v) for v in lines[0].get("points").split()[0].split(",")]
    last = [float(v) for v in lines[0].get("points").split()[-1].split(",")]
    assert first[0] < last[0] and last[1] < first[1]  # the NAV rises: up is a smaller y


def test_a_name_with_markup_is_escaped_and_no_trades_draw_no_points():
    frame = _frame().rename(columns={"benchmark (SP500)": "benchmark <S&P>"})
    root = ET.fromstring(nav_chart_svg(frame, []))
    assert "benchmark <S&P>" in [t.text for t in root.iter(f"{SVG}text")]
    assert not root.findall(f"{SVG}circle")


def test_round_ticks_and_month_labels():
    assert _nice_ticks(0, 100) == [0, 20, 40, 60, 80, 100]
    assert _nice_ticks(87_000, 106_000) == [90_000, 95_000, 100_000, 105_000]
    assert _nice_ticks(0.2, 1.1) == pytest.approx([0.2, 0.4, 0.6, 0.8, 1.0])
    assert _month_ticks(date(2025, 1, 15), date(2025, 4, 1)) == [date(2025, 2, 1), date(2025, 3, 1), date(2025, 4, 1)]
    assert len(_month_ticks(date(2020, 1, 1), date(2024, 12, 31))) <= 12
