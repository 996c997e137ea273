"""``market/round_prices.csv`` (rounds seasons): each round's own entry and exit closes, validated like every
other bundle file. Round scoring reads only the rows validated here, so no invalid close can change a score."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from grader.season._models import MAX_PRICE, MIN_PRICE, SeasonInfo
from grader.season._reading import Collector, csv_rows, number, read_text

ROUND_PRICES = "market/round_prices.csv"


def read_round_prices(
    root: Path, info: SeasonInfo | None, symbols: set[str], col: Collector, refused: set[str]
) -> list[dict[str, Any]] | None:
    """Validated rows ``{round_id, symbol, entry_close, exit_close (None while pending)}``, or None when the file
    is absent or the season could not be read. Refused with file, line and field: an unknown round or a symbol
    outside the universe, a close that is not a positive finite number in range, a duplicate (round, symbol), an
    exit close of a round that has not resolved (``exit_date: null``), a round price file in a trading season."""
    text = read_text(root, ROUND_PRICES, col, refused, required=False)
    if text is None or info is None:
        return None
    if info.format != "rounds":
        col.add(
            ROUND_PRICES,
            None,
            None,
            "round prices in a trading season (format: trading) would be ignored: "
            "remove the file or declare format: rounds",
        )
        return None
    rounds = {r.id: r for r in info.rounds or []}
    out: list[dict[str, Any]] = []
    first: dict[tuple[str, str], int] = {}
    issues_before = len(col.issues)
    for lineno, row in csv_rows(
        ROUND_PRICES, text, ("round_id", "symbol", "entry_close", "exit_close"), col, allow_empty=True
    ):  # every round cancelled: no prices
        rid, sym = row["round_id"], row["symbol"]
        spec = rounds.get(rid)
        if spec is None:
            col.add(ROUND_PRICES, lineno, "round_id", f"unknown round {rid!r} (not in season.yaml rounds)")
            continue
        if sym not in symbols:
            col.add(ROUND_PRICES, lineno, "symbol", f"unknown symbol {sym!r} (not in the universe)")
            continue
        entry = number(row["entry_close"], ROUND_PRICES, lineno, "entry_close", col, positive=True, limit=MAX_PRICE)
        exit_close = None
        if row["exit_close"]:
            exit_close = number(
                row["exit_close"], ROUND_PRICES, lineno, "exit_close", col, positive=True, limit=MAX_PRICE
            )
            if exit_close is None:
                continue
            if spec.exit_date is None:
                col.add(
                    ROUND_PRICES,
                    lineno,
                    "exit_close",
                    f"round {rid} has not resolved (exit_date is null): "
                    "an exit close would be a value from after its horizon",
                )
                continue
        if entry is None:
            continue
        for name, value in (("entry_close", entry), ("exit_close", exit_close)):
            if value is not None and value < MIN_PRICE:
                col.add(ROUND_PRICES, lineno, name, f"{value!r} is below {MIN_PRICE:g} (not a price)")
        key = (rid, sym)
        if key in first:
            col.add(
                ROUND_PRICES,
                lineno,
                "symbol",
                f"duplicate row for {sym} in round {rid} (first on line {first[key]}): which close counts is ambiguous",
            )
            continue
        first[key] = lineno
        out.append({"round_id": rid, "symbol": sym, "entry_close": entry, "exit_close": exit_close})
    return out if len(col.issues) == issues_before else None
