"""Ledger verification throughput: 50,000 judge-style claims verified in one batch (bar: under 2 s).

Store: real adjusted closes of 20 US stocks and the S&P 500 (2020-2022, data/market, skfolio
datasets, BSD-3-Clause) plus ILLUSTRATIVE fundamentals/analyst rows. Claims: 2,000 decisions (symbol,
decided_at) x 25 claims written the way judges write them (numbers read from the decision's snapshot, one in ten
wrong by a few percent; qualitative, comparative, forecast and briefing claims), parsed from text inside the
timed section, with cold caches. Prints the figures; run ``python benchmarks/bench_ledgers.py``.
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pandas as pd

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from grader.pit import FieldRow, PointInTimeStore, close_time  # noqa: E402
from ledgers import Claim, VerifierConfig, verify_many  # noqa: E402
from ledgers._verify import _parsed  # noqa: E402
from ledgers.reading import skeleton  # noqa: E402

MARKET = REPO / "data" / "market"
N_DECISIONS = 2_000
PER_DECISION = 25


def build_store(rng: random.Random) -> tuple[PointInTimeStore, list[str], list]:
    stocks = pd.read_csv(MARKET / "stocks_adj_close.csv")
    bench = pd.read_csv(MARKET / "sp500_index.csv")
    wide = stocks.merge(bench, on="Date")
    prices = wide.melt(id_vars="Date", var_name="symbol", value_name="close").rename(columns={"Date": "date"})
    symbols = [c for c in stocks.columns if c != "Date"]
    days = sorted(pd.to_datetime(wide["Date"]).dt.date)
    rows = []
    for s in symbols:  # illustrative quarterly fundamentals
        for q in range(0, len(days), 63):
            when = close_time(days[q])
            for field, lo, hi in (
                ("peRatio", 8, 45),
                ("profitMargin", -0.05, 0.35),
                ("returnOnEquityTTM", -0.1, 0.6),
                ("quarterlyEarningsGrowthYOY", -0.3, 0.8),
                ("analystTargetPrice", 0.9, 1.3),
                ("analystRatingBuy", 2, 25),
                ("analystRatingHold", 1, 15),
                ("analystRatingSell", 0, 5),
            ):
                value = rng.uniform(lo, hi)
                if field == "analystTargetPrice":
                    value *= float(prices[(prices.symbol == s)].close.iloc[q])
                rows.append(FieldRow(s, field, round(value, 4), when, "illustrative"))
    sectors = {s: {"sector": rng.choice(["Technology", "Energy", "Health Care", "Financials"])} for s in symbols}
    store = PointInTimeStore(prices, rows, benchmark="SP500", sectors=sectors)
    return store, symbols, days


def make_claims(store: PointInTimeStore, symbols: list[str], days: list, rng: random.Random) -> list[Claim]:
    """Judge-style claims: values read from the decision's snapshot (as judges cite them), one in ten of
    them wrong by a few percent, plus qualitative, comparative, forecast and briefing claims."""
    claims: list[Claim] = []
    for k in range(N_DECISIONS):
        symbol = rng.choice(symbols)
        day = rng.choice(days[260:])
        decided = close_time(day) + timedelta(hours=rng.choice([-5, 1, 2]))
        snap = store.snapshot([symbol, "SP500"], decided)
        mine, bench = snap[symbol], snap["SP500"]

        def near(field: str, scale: float = 1.0, source: dict = mine) -> float:
            value = float(source[field].value) if field in source else rng.uniform(0.1, 1)
            return value * scale * (1 + (rng.choice([-0.08, 0.06]) if rng.random() < 0.1 else 0.0))

        rel = (near("return20d") - near("return20d", source=bench)) * 100
        upside = (near("analystTargetPrice") / near("close") - 1) * 100 if "analystTargetPrice" in mine else 12.0
        templates = [
            f"RSI at {near('rsi14'):.1f}",
            f"up {near('return20d', 100):.1f}% over 20 days",
            f"{near('return5d', 100):+.2f}% 5d",
            f"{near('return1d', 100):+.2f}% on the day",
            rng.choice(["trading above its 200-day average", "trading below its 200-day average"]),
            rng.choice(["above its 50-day moving average", "below its 50-day moving average"]),
            f"{abs(near('close') / near('week52High') - 1) * 100:.1f}% below its 52-week high",
            rng.choice(["strong momentum", "negative momentum", "strong recent momentum"]),
            f"P/E of {near('peRatio'):.1f}",
            "strong profitability and growth with analyst upside",
            rng.choice(["cheap valuation", "expensive", "undervalued"]),
            f"outperformed the S&P 500 by {rel:.1f}% over 20 days",
            rng.choice(["overbought", "oversold", "not overbought"]),
            "will rally after earnings",
            f"Q1 chip sales +{rng.randint(5, 40)}% QoQ",
            rng.choice(["consensus buy", "analysts rate it a hold"]),
            f"{upside:.0f}% upside to the analyst target",
            rng.choice(["low beta", "high beta"]),
            f"volatility of {near('volatility20d', 100):.1f}%",
            f"price ${near('close'):.2f}",
            rng.choice(["bullish MACD", "bearish MACD"]),
            rng.choice(["golden cross", "death cross"]),
            f"RSI above {rng.choice([30, 50, 70])}",
            rng.choice(["at its 52-week high", "near its 52-week low"]),
            "management executes well",
        ]
        for i, text in enumerate(templates[:PER_DECISION]):
            claims.append(
                Claim(
                    id=f"{k}-{i}",
                    text=text,
                    decided_at=decided,
                    symbol=symbol,
                    cited_fields=[],
                    judge_status=rng.choice(["supported", "not_verifiable"]),
                )
            )
    return claims


def main() -> None:
    rng = random.Random(7)
    t0 = time.perf_counter()
    store, symbols, days = build_store(rng)
    t1 = time.perf_counter()
    claims = make_claims(store, symbols, days, rng)
    t2 = time.perf_counter()
    _parsed.cache_clear()
    skeleton.cache_clear()
    cpu = time.process_time()
    start = time.perf_counter()
    results = verify_many(claims, store, VerifierConfig(benchmark="SP500"))
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu
    counts = Counter(r.status for r in results)
    unique_texts = len({c.text for c in claims})
    print(
        f"store built in {t1 - t0:.2f} s; {len(claims):,} claims generated in {t2 - t1:.2f} s "
        f"({unique_texts:,} distinct texts, {N_DECISIONS:,} decisions)"
    )
    print(
        f"verify_many: {len(claims):,} claims in {elapsed:.3f} s = {len(claims) / elapsed:,.0f} claims/s "
        f"({'PASS' if elapsed < 2.0 else 'FAIL'}: bar < 2 s); CPU time {cpu:.3f} s; load average "
        f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} cores (other processes slow the wall time)"
    )
    print("statuses:", dict(counts), "lookahead flags:", sum(r.lookahead for r in results))


if __name__ == "__main__":
    main()
