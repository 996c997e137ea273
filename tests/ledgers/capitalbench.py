"""Helpers to read CapitalBench rounds (data/capitalbench in this repository, CC BY 4.0) into ledger inputs.

Used by the extraction tests; the season adapter (grader.adapters) is the production path.
"""

from __future__ import annotations

import csv
import json
from datetime import date, datetime
from pathlib import Path

import pandas as pd
import yaml

from grader.pit import FieldRow, PointInTimeStore, close_time
from tests.conftest import CB_ROUNDS

ROUNDS = CB_ROUNDS
RETURN_COLUMNS = {"return_7d": "return7d", "return_30d": "return30d", "return_6m": "return6m", "return_1y": "return1y"}
CB_FIELDS = frozenset({"close", *RETURN_COLUMNS.values()})


def round_universe(round_dir: Path) -> dict[str, list[str]]:
    """symbol -> [name, option id] for every priced option."""
    options = yaml.safe_load((round_dir / "options.yaml").read_text())["options"]
    return {o["symbol"]: [o["name"], o["id"]] for o in options if o.get("symbol")}


def round_store(round_dir: Path) -> tuple[PointInTimeStore, datetime] | None:
    """A store with each option's as-of close and trailing returns, observed at the as-of close (None when
    the round ships no trailing-returns file)."""
    path = round_dir / "market_data" / "universe_trailing_returns.csv"
    if not path.exists():
        return None
    prices, rows = [], []
    as_of = None
    with path.open() as fh:
        for r in csv.DictReader(fh):
            if not r.get("symbol") or r.get("status") != "pass":
                continue
            day = date.fromisoformat(r["as_of_price_date"])
            as_of = close_time(day)
            prices.append({"date": day, "symbol": r["symbol"], "close": float(r["as_of_adj_close"])})
            for col, name in RETURN_COLUMNS.items():
                if r.get(col) not in (None, ""):
                    rows.append(FieldRow(r["symbol"], name, float(r[col]), as_of, "capitalbench"))
    assert as_of is not None
    manifest = yaml.safe_load((round_dir / "manifest.yaml").read_text())
    decided = datetime.fromisoformat(str(manifest["decision_deadline"]).replace("Z", "+00:00"))
    return PointInTimeStore(pd.DataFrame(prices), rows, benchmark="SPY"), decided


def submissions(round_dir: Path) -> list[tuple[str, str]]:
    """(model_id, rationale text) of every submission of the round's runs, rationale joined as the
    adapter does: summary, then one "[OPTION_ID] rationale" line per holding, then key risks."""
    out = []
    for path in sorted(round_dir.glob("runs/*/submissions/parsed/*.json")):
        sub = json.loads(path.read_text())
        parts = [sub.get("rationale_summary") or ""]
        if sub.get("portfolio_rationale"):
            parts.append(sub["portfolio_rationale"])
        for holding in sub.get("portfolio") or []:
            parts.append(f"[{holding.get('option_id')}] {holding.get('rationale') or ''}")
        parts += list(sub.get("key_risks") or [])
        out.append((sub.get("model_id") or path.stem, "\n".join(p for p in parts if p)))
    return out
