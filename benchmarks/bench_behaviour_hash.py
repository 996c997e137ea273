"""Behaviour hash: grade small deterministic seasons end to end and hash what the grader stored and reported.

A refactor that claims "behaviour unchanged" runs this before and after and compares the hashes (or runs it with
``--check``, which compares them with ``benchmarks/behaviour_hashes.json``). Graded, in a fresh SQLite database,
through the CLI exactly as ``make demo`` does:

- the demo season (``seasons/demo-2022q1``) by the reference judge, by the mock panel (scripted judges behind the
  local fakes, reached through the real SDKs) and by the mock panel through the providers' batch APIs;
- the real June 2026 CapitalBench week (``seasons/cb-2026-06-1w``) by the reference judge;
- the Markdown report of each run.

Hashed per run: the prompts (system and user text), the judge calls (judge, provider, model, contestant, attempt,
status, error kind, prompt, parsed reply, token counts, cost; not the raw reply, whose ids the fakes draw at random,
nor latency or timestamps), the grades, the claim ledgers, the scores, the manifest (its timestamps and raw-reply
hashes and row ids left out; JSON read, not compared as text) and the report (its "Generated at" and "Manifest
hash" lines left out: the manifest is hashed as said). Each season gets a fixed alias secret (drawn at
random per database otherwise), so the aliases the judges see, and so the prompts, are the same on every run. Also
printed: seconds for the whole run.

Run: .venv/bin/python benchmarks/bench_behaviour_hash.py [--check] [--write] [--keep DIR]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).with_name("behaviour_hashes.json")
GRADER = str(Path(sys.executable).with_name("grader"))

RUNS: list[tuple[str, list[str]]] = [
    ("demo-reference", ["seasons/demo-2022q1", "--rubric", "v0.4", "--panel", "reference"]),
    ("demo-mock", ["seasons/demo-2022q1", "--rubric", "v0.4", "--panel", "mock"]),
    ("demo-mock-batch", ["seasons/demo-2022q1", "--rubric", "v0.5", "--panel", "mock", "--batch"]),
    ("cb-reference", ["seasons/cb-2026-06-1w", "--rubric", "v0.4", "--panel", "reference"]),
]

_VOLATILE = re.compile(r"(_at|_s|raw_reply_sha256|created|timestamp|latency)$")


def _digest(value: object) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()


def _stable(value: object) -> object:
    """``value`` without what differs from run to run: times, raw-reply hashes, row ids (a map keyed by row id,
    whose ids follow the order concurrent calls finished in, becomes the sorted list of its values) and where the
    checkout is (a path under it is written relative to it)."""
    if isinstance(value, dict) and value and all(str(k).isdigit() for k in value):
        return sorted((_stable(v) for v in value.values()), key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(value, dict):
        return {k: _stable(v) for k, v in value.items() if not _VOLATILE.search(str(k))}
    if isinstance(value, list):
        return [_stable(v) for v in value]
    if isinstance(value, str) and value.startswith(str(ROOT)):  # a file of this checkout, wherever it is
        return "<repo>" + value[len(str(ROOT)) :]
    return value


def _cell(value: object) -> object:
    """A column's value; JSON text read, so the order its writer happened to put keys in does not count."""
    if isinstance(value, str) and value[:1] in "{[":
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value
    return value


def _rows(db: sqlite3.Connection, sql: str, *args: object) -> list[tuple]:
    rows = (tuple(_cell(v) for v in r) for r in db.execute(sql, args))
    return sorted(rows, key=lambda r: json.dumps(r, sort_keys=True, default=str))


def hashes_of(db_path: Path, reports: Path) -> dict[str, dict[str, str]]:
    db = sqlite3.connect(db_path)
    contestant = "(select contestant_key from contestants where contestants.id = {}.contestant_id)"
    out: dict[str, dict[str, str]] = {}
    for run_id, _ in RUNS:
        calls = _rows(
            db,
            "select judge_id, provider, model, " + contestant.format("judge_calls") + ", repeat, attempt, "
            "status, error_kind, http_status, prompt_sha256, cache_key, parsed, input_tokens, output_tokens, "
            "cached_input_tokens, cache_write_tokens, cost_usd, custom_id is not null "
            "from judge_calls where run_id = ?",
            run_id,
        )
        prompts = _rows(
            db,
            "select sha256, system, user, token_estimate, shared_chars from prompts where sha256 in "
            "(select prompt_sha256 from judge_calls where run_id = ?)",
            run_id,
        )
        grades = _rows(
            db,
            "select judge_id, judge_family, " + contestant.format("grades") + ", repeat, grade, "
            "reasoning, evidence, process, outcome, data_reliability, composite, lookahead_passed, verdict, "
            "summary from grades where run_id = ?",
            run_id,
        )
        ledgers = _rows(
            db,
            "select judge_id, " + contestant.format("ledger_entries") + ", position, claim, "
            "decision_date, symbol, cited_fields, judge_status, judge_note, verifier_status, "
            "verifier_reason, evidence, flags, disagrees, lookahead, check_path, flag_reasons, clause "
            "from ledger_entries where run_id = ?",
            run_id,
        )
        scores = _rows(
            db,
            "select v.number, v.rubric_id, v.rubric_hash, " + contestant.format("s") + ", s.rank, "
            "s.total, s.reasoning_median, s.efficiency, s.band, s.judges_low, s.judges_high, s.n_judges, "
            "s.flagged, s.official_eligible, s.outcome, s.details from contestant_scores s join "
            "score_versions v on v.id = s.version_id where v.run_id = ?",
            run_id,
        )
        (manifest,) = db.execute("select manifest from runs where id = ?", (run_id,)).fetchone()
        report = (reports / run_id / "report.md").read_text()
        report = "\n".join(
            line for line in report.splitlines() if "Generated at" not in line and "Manifest hash" not in line
        )
        out[run_id] = {
            "prompts": _digest(prompts),
            "calls": _digest(calls),
            "grades": _digest(grades),
            "ledgers": _digest(ledgers),
            "scores": _digest(scores),
            "manifest": _digest(_stable(json.loads(manifest))),
            "report": _digest(report),
            "counts": f"{len(prompts)} prompts, {len(calls)} calls, {len(grades)} grades, {len(ledgers)} claims",
        }
    return out


def run_all(work: Path) -> dict[str, dict[str, str]]:
    # this checkout's code: the ``grader`` script alone would import the packages the shared virtualenv's editable
    # install points at (another checkout, when this one is a worktree)
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    env = {**os.environ, "GRADER_DATABASE_URL": f"sqlite:///{work / 'grader.db'}", "PYTHONPATH": path}

    def grader(*args: str) -> None:
        subprocess.run(
            [GRADER, *args], cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )

    db = work / "grader.db"
    for season in sorted({args[0] for _, args in RUNS}):
        grader("import", season)
    with sqlite3.connect(db) as conn:  # a fixed alias secret per season: the aliases judges see are reproducible
        conn.executemany(
            "insert into alias_secrets (season_key, secret, created_at) values (?, ?, '2026-01-01')",
            [
                (key, hashlib.sha256(f"bench {key}".encode()).hexdigest())
                for (key,) in conn.execute("select distinct season_key from seasons")
            ],
        )
    for run_id, args in RUNS:
        grader("grade", *args, "--run-id", run_id, "--quiet")
        grader("report", "--run", run_id, "--out", str(work / "reports" / run_id))
    return hashes_of(db, work / "reports")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help=f"compare with {GOLDEN.name}; exit 1 on a difference")
    parser.add_argument("--write", action="store_true", help=f"record the hashes in {GOLDEN.name}")
    parser.add_argument("--keep", type=Path, help="grade into this (new) directory and keep it (database, reports)")
    args = parser.parse_args()
    started = time.perf_counter()
    if args.keep:
        args.keep.mkdir(parents=True)
        hashes = run_all(args.keep.resolve())
    else:
        with tempfile.TemporaryDirectory() as tmp:
            hashes = run_all(Path(tmp))
    for run_id, parts in hashes.items():
        print(f"{run_id}: {parts['counts']}")
        for part, value in parts.items():
            if part != "counts":
                print(f"  {part:<9} {value}")
    print(f"seconds: {time.perf_counter() - started:.1f}")
    if args.write:
        GOLDEN.write_text(json.dumps(hashes, indent=2, sort_keys=True) + "\n")
    if args.check:
        golden = json.loads(GOLDEN.read_text())
        differs = [
            f"{run}.{part}"
            for run, parts in golden.items()
            for part, value in parts.items()
            if hashes.get(run, {}).get(part) != value
        ]
        print("behaviour unchanged" if not differs else f"behaviour CHANGED: {', '.join(differs)}")
        return 1 if differs else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
