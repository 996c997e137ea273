"""`grader ledger`: a run's claim ledgers as a table, CSV or JSON, with the verifier's verdict, the path it
took (the judge's structured assertions, or the claim's words) and every flag with its reason."""

from __future__ import annotations

import csv
import io
import json
import sys
from typing import Literal

import typer
from rich.table import Table
from sqlalchemy import select

from grader.cli._common import console, fail
from grader.hygiene import for_csv_row, for_terminal, visible_controls

STATUSES = ("supported", "not_verifiable", "contradicted")


def ledger_rows(
    run_id: str,
    contestant: str | None = None,
    status: str | None = None,
    judge: str | None = None,
    db_url: str | None = None,
) -> list[dict]:
    from grader.storage import ContestantRow, LedgerEntryRow, RunRow, session_scope

    with session_scope(db_url) as s:
        run = s.get(RunRow, run_id)
        if run is None:
            raise KeyError(f"no run {run_id!r}")
        people = {c.id: c for c in s.scalars(select(ContestantRow).where(ContestantRow.season_id == run.season_id))}
        q = select(LedgerEntryRow).where(LedgerEntryRow.run_id == run_id)
        if judge:
            q = q.where(LedgerEntryRow.judge_id == judge)
        if status:
            q = q.where(LedgerEntryRow.verifier_status == status)
        if contestant:
            ids = [c.id for c in people.values() if contestant in (c.contestant_key, c.display_name)]
            if not ids:
                raise KeyError(f"no contestant {contestant!r} in run {run_id!r}")
            q = q.where(LedgerEntryRow.contestant_id.in_(ids))
        out = []
        for e in s.scalars(q.order_by(LedgerEntryRow.judge_id, LedgerEntryRow.contestant_id, LedgerEntryRow.position)):
            reasons = e.flag_reasons or {}
            out.append(
                {
                    "judge": e.judge_id,
                    "contestant": people[e.contestant_id].contestant_key
                    if e.contestant_id in people
                    else str(e.contestant_id),
                    "decision_date": e.decision_date.isoformat() if e.decision_date else None,
                    "symbol": e.symbol,
                    "claim": e.claim,
                    "clause": e.clause,
                    "judge_status": e.judge_status,
                    "verifier_status": e.verifier_status,
                    "path": e.check_path or "text",
                    "reason": e.verifier_reason,
                    "flags": [{"flag": f, "reason": reasons.get(f, "")} for f in e.flags or []],
                    "evidence": e.evidence or [],
                }
            )
        return out


def ledger(
    run_id: str = typer.Option(..., "--run", "--run-id", help="Run id"),
    contestant: str | None = typer.Option(None, "--contestant", help="Contestant id or display name"),
    status: str | None = typer.Option(None, "--status", help="supported | not_verifiable | contradicted"),
    judge: str | None = typer.Option(None, "--judge", help="Judge id (e.g. reference, mock-openai)"),
    fmt: Literal["table", "csv", "json"] = typer.Option("table", "--format", help="table, csv or json"),
    limit: int = typer.Option(200, "--limit", min=0, help="Rows shown in a table (0: all); csv/json: all"),
) -> None:
    """List a run's claim ledgers: claim, judge and verifier status, the path checked, the reason, flags."""
    if status is not None and status not in STATUSES:
        fail(f"--status must be one of {', '.join(STATUSES)}, got {status!r}")
    try:
        rows = ledger_rows(run_id, contestant, status, judge)
    except KeyError as exc:
        fail(str(exc.args[0]))
        return
    if fmt == "json":
        print(json.dumps(rows, ensure_ascii=False, indent=1, default=str))
        return
    if fmt == "csv":
        buf = io.StringIO()
        w = csv.writer(buf)
        w.writerow(
            [
                "judge",
                "contestant",
                "decision_date",
                "symbol",
                "claim",
                "clause",
                "judge_status",
                "verifier_status",
                "path",
                "reason",
                "flags",
            ]
        )
        for r in rows:
            w.writerow(
                for_csv_row(
                    [
                        r["judge"],
                        r["contestant"],
                        r["decision_date"],
                        r["symbol"],
                        r["claim"],
                        r["clause"] or "",
                        r["judge_status"],
                        r["verifier_status"],
                        r["path"],
                        r["reason"],
                        "; ".join(f"{f['flag']}: {f['reason']}" for f in r["flags"]),
                    ]
                )
            )
        text = buf.getvalue()
        if sys.stdout.isatty():  # on a terminal, a control character in a claim is shown, never sent
            text = visible_controls(text, multiline=True)
        print(text, end="")
        return
    t = Table(
        "judge",
        "contestant",
        "date",
        "symbol",
        "claim",
        "judge",
        "verifier",
        "path",
        "reason",
        "flags (why)",
        title=f"claim ledger of run {run_id}: {len(rows)} entries",
        show_lines=True,
    )
    for r in rows[: limit or None]:
        claim = for_terminal(r["claim"]) + (f"\n[dim]in: {for_terminal(r['clause'])}[/dim]" if r["clause"] else "")
        t.add_row(
            *(for_terminal(v or "") for v in (r["judge"], r["contestant"], r["decision_date"], r["symbol"])),
            claim,
            *(for_terminal(v or "") for v in (r["judge_status"], r["verifier_status"], r["path"], r["reason"])),
            "\n".join(f"⚑ {for_terminal(f['flag'])}: {for_terminal(f['reason'])}" for f in r["flags"]),
        )
    console.print(t)
    if limit and len(rows) > limit:
        console.print(f"{len(rows) - limit} more; use --limit 0, --format csv or --format json for all")
