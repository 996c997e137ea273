"""Read and validate CapitalBench round directories (the source side of the adapter).

A round directory holds ``manifest.yaml``, ``options.yaml``, ``briefing.md``, ``prices/*.csv``, an optional
``market_data/universe_trailing_returns.csv`` and ``runs/<run_id>/`` folders. Only the run whose
``run_manifest.yaml`` says ``operator_selected_official: true`` is read. Every problem is collected as a
:class:`CapitalBenchIssue` naming the file (relative to the rounds directory), the row and the field.
"""

from __future__ import annotations

import csv
import json
import math
from datetime import date, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from grader.adapters.capitalbench._schema import (
    BENCHMARK_OPTION,
    TRACKS,
    CapitalBenchIssue,
    OptionSpec,
    PricePoint,
    RoundListing,
    RoundManifest,
    RunManifest,
    SourceRound,
    Submission,
)
from grader.adapters.capitalbench._tables import (
    TABLE_FILES,
    TableRow,
    derive_returns_from_active,
    read_json_table,
    read_trailing_table,
)

_YamlLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when available: same result, faster


def _rel(rounds_dir: Path, path: Path) -> str:
    try:
        return path.relative_to(rounds_dir).as_posix()
    except ValueError:
        return path.as_posix()


def round_track(round_id: str) -> str:
    return round_id.rsplit("-", 1)[-1]


def list_rounds(rounds_dir: Path) -> list[RoundListing]:
    """Every round directory under ``rounds_dir`` (a directory holding ``manifest.yaml``, or a ``-1W``/``-1M``
    named directory that lacks one, so that a missing manifest is reported rather than ignored)."""
    found: list[RoundListing] = []
    for d in sorted(p for p in rounds_dir.iterdir() if p.is_dir()):
        manifest = d / "manifest.yaml"
        if not manifest.is_file() and round_track(d.name) not in TRACKS:
            continue
        decision_date: date | None = None
        stream: str | None = None
        if manifest.is_file():
            try:
                raw = _parse_yaml(manifest.read_text(encoding="utf-8")) or {}
                decision_date = date.fromisoformat(str(raw.get("decision_date")))
                stream = raw.get("publication_stream")
            except (yaml.YAMLError, ValueError, AttributeError):
                decision_date = None
        found.append(RoundListing(d.name, d, decision_date, stream, (d / "runs").is_dir()))
    return found


@lru_cache(maxsize=512)
def _parse_yaml(text: str) -> Any:
    """Parsed YAML by content: most rounds ship byte-identical options.yaml files. Callers must not mutate."""
    return yaml.load(text, Loader=_YamlLoader)


def _pydantic_issues(rel: str, err: ValidationError, issues: list[CapitalBenchIssue], prefix: str = "") -> None:
    for e in err.errors():
        loc = "".join(f"[{x}]" if isinstance(x, int) else f".{x}" for x in e["loc"]).lstrip(".")
        fld = f"{prefix}{loc}" if prefix and loc and loc.startswith("[") else ".".join(p for p in (prefix, loc) if p)
        msg = e["msg"] if e["type"] != "missing" else "required field is missing"
        issues.append(CapitalBenchIssue(rel, None, fld or None, msg))


def _load_yaml(path: Path, rel: str, issues: list[CapitalBenchIssue]) -> Any:
    if not path.is_file():
        issues.append(CapitalBenchIssue(rel, None, None, "file is missing"))
        return None
    try:
        return _parse_yaml(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        issues.append(CapitalBenchIssue(rel, mark.line + 1 if mark else None, None, f"not valid YAML: {exc}"))
        return None


def _finite(raw: str, rel: str, line: int, fld: str, issues: list[CapitalBenchIssue], positive: bool) -> float | None:
    try:
        v = float(raw)
    except (TypeError, ValueError):
        issues.append(CapitalBenchIssue(rel, line, fld, f"not a number: {raw!r}"))
        return None
    if math.isnan(v) or math.isinf(v) or (positive and v <= 0):
        issues.append(
            CapitalBenchIssue(rel, line, fld, f"not a {'positive' if positive else 'finite'} number: {raw!r}")
        )
        return None
    return v


def _read_price_file(
    path: Path, rel: str, expected_date: date, issues: list[CapitalBenchIssue], warnings: list[str]
) -> dict[str, PricePoint]:
    """``option_id, date, adj_close`` (``close`` used, with a warning, only when ``adj_close`` is empty)."""
    out: dict[str, PricePoint] = {}
    with path.open(newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        missing = [c for c in ("option_id", "date", "adj_close") if c not in (reader.fieldnames or [])]
        if missing:
            issues.append(CapitalBenchIssue(rel, 1, ",".join(missing), "missing column(s) in header"))
            return out
        for line, row in enumerate(reader, start=2):
            oid = (row.get("option_id") or "").strip()
            if not oid:
                issues.append(CapitalBenchIssue(rel, line, "option_id", "empty option id"))
                continue
            try:
                d = date.fromisoformat((row.get("date") or "").strip())
            except ValueError:
                issues.append(CapitalBenchIssue(rel, line, "date", f"not a date: {row.get('date')!r}"))
                continue
            if d != expected_date:
                warnings.append(
                    f"{rel}:{line}: {oid} is priced on {d}, not on the manifest date {expected_date}; "
                    "used as given (CapitalBench scored it so)"
                )
            raw = (row.get("adj_close") or "").strip()
            col = "adj_close"
            if not raw:
                raw, col = (row.get("close") or "").strip(), "close"
                warnings.append(f"{rel}:{line}: {oid} has no adj_close; its close is used (CapitalBench does the same)")
            value = _finite(raw, rel, line, col, issues, positive=True)
            if value is None:
                continue
            if oid in out:
                issues.append(CapitalBenchIssue(rel, line, "option_id", f"duplicate price row for {oid}"))
                continue
            out[oid] = PricePoint(d, value)
    return out


def _read_weekly(path: Path, rel: str, issues: list[CapitalBenchIssue]) -> list[tuple[str, PricePoint]]:
    out: list[tuple[str, PricePoint]] = []
    with path.open(newline="", encoding="utf-8") as fh:
        for line, row in enumerate(csv.DictReader(fh), start=2):
            raw = (row.get("price") or "").strip()
            if not raw:
                continue
            try:
                d = date.fromisoformat((row.get("price_date") or "").strip())
            except ValueError:
                issues.append(CapitalBenchIssue(rel, line, "price_date", f"not a date: {row.get('price_date')!r}"))
                continue
            value = _finite(raw, rel, line, "price", issues, positive=True)
            if value is not None:
                out.append(((row.get("option_id") or "").strip(), PricePoint(d, value)))
    return out


def _official_run(rd: Path, rounds_dir: Path, issues: list[CapitalBenchIssue]) -> Path | None:
    if not (rd / "runs").is_dir():
        issues.append(CapitalBenchIssue(_rel(rounds_dir, rd / "runs"), None, None, "no runs/ directory"))
        return None
    runs = sorted(p for p in (rd / "runs").iterdir() if p.is_dir())
    selected: list[Path] = []
    for run in runs:
        rel = _rel(rounds_dir, run / "run_manifest.yaml")
        raw = _load_yaml(run / "run_manifest.yaml", rel, issues)
        if raw is None:
            continue
        try:
            rm = RunManifest.model_validate(raw)
        except ValidationError as err:
            _pydantic_issues(rel, err, issues)
            continue
        if rm.operator_selected_official:
            selected.append(run)
    if not selected:
        issues.append(
            CapitalBenchIssue(
                _rel(rounds_dir, rd / "runs"),
                None,
                "operator_selected_official",
                f"no run/*/run_manifest.yaml has operator_selected_official: true (runs: {[r.name for r in runs]})",
            )
        )
        return None
    if len(selected) > 1:
        issues.append(
            CapitalBenchIssue(
                _rel(rounds_dir, rd / "runs"),
                None,
                "operator_selected_official",
                f"more than one run is selected as official: {[r.name for r in selected]}",
            )
        )
        return None
    return selected[0]


def _read_submission(
    path: Path, rel: str, round_id: str, options: dict[str, OptionSpec], issues: list[CapitalBenchIssue]
) -> Submission | None:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        issues.append(CapitalBenchIssue(rel, exc.lineno, None, f"not valid JSON: {exc.msg}"))
        return None
    if not isinstance(raw, dict):
        issues.append(CapitalBenchIssue(rel, None, None, "expected a JSON object"))
        return None
    try:
        sub = Submission.model_validate(raw)
    except ValidationError as err:
        _pydantic_issues(rel, err, issues)
        return None
    n_before = len(issues)
    if sub.round_id != round_id:
        issues.append(CapitalBenchIssue(rel, None, "round_id", f"{sub.round_id!r} is not this round ({round_id!r})"))
    if path.stem != sub.model_id:
        issues.append(CapitalBenchIssue(rel, None, "model_id", f"{sub.model_id!r} does not match the file name"))
    if not sub.is_official_score:
        issues.append(CapitalBenchIssue(rel, None, "is_official_score", "false in the official run"))
    if not sub.key_risks or any(not (r or "").strip() for r in sub.key_risks):
        issues.append(CapitalBenchIssue(rel, None, "key_risks", "expected a non-empty list of non-empty risks"))
    if sub.portfolio is None and sub.selected_option_id is None:
        issues.append(CapitalBenchIssue(rel, None, "portfolio", "neither portfolio nor selected_option_id is given"))
    if sub.portfolio is not None:
        if not sub.portfolio:
            issues.append(CapitalBenchIssue(rel, None, "portfolio", "empty portfolio"))
        seen: set[str] = set()
        for i, h in enumerate(sub.portfolio):
            if h.option_id not in options:
                issues.append(
                    CapitalBenchIssue(
                        rel,
                        None,
                        f"portfolio[{i}].option_id",
                        f"unknown option {h.option_id!r} (not in options.yaml)",
                    )
                )
            if h.option_id in seen:
                issues.append(
                    CapitalBenchIssue(rel, None, f"portfolio[{i}].option_id", f"{h.option_id!r} appears twice")
                )
            seen.add(h.option_id)
        total = sum(h.allocation_pct for h in sub.portfolio)
        if sub.portfolio and abs(total - 100.0) > 1e-9:
            issues.append(
                CapitalBenchIssue(
                    rel, None, "portfolio[].allocation_pct", f"allocations sum to {total:g}, expected 100"
                )
            )
        if not (sub.portfolio_rationale or "").strip():
            issues.append(CapitalBenchIssue(rel, None, "portfolio_rationale", "required for a portfolio submission"))
    elif sub.selected_option_id is not None and sub.selected_option_id not in options:
        issues.append(
            CapitalBenchIssue(
                rel,
                None,
                "selected_option_id",
                f"unknown option {sub.selected_option_id!r} (not in options.yaml)",
            )
        )
    return sub if len(issues) == n_before else None


def read_round(rd: Path, rounds_dir: Path, issues: list[CapitalBenchIssue]) -> SourceRound | None:
    """Validate one round directory (which must have a ``runs/`` folder); None when it has problems."""
    n_before = len(issues)
    rid = rd.name
    rel_m = _rel(rounds_dir, rd / "manifest.yaml")
    raw_m = _load_yaml(rd / "manifest.yaml", rel_m, issues)
    manifest: RoundManifest | None = None
    if raw_m is not None:
        try:
            manifest = RoundManifest.model_validate(raw_m)
        except ValidationError as err:
            _pydantic_issues(rel_m, err, issues)
        if manifest is not None and manifest.round_id != rid:
            issues.append(
                CapitalBenchIssue(rel_m, None, "round_id", f"{manifest.round_id!r} differs from the directory name")
            )

    rel_o = _rel(rounds_dir, rd / "options.yaml")
    raw_o = _load_yaml(rd / "options.yaml", rel_o, issues)
    options: list[OptionSpec] = []
    if raw_o is not None:
        items = raw_o.get("options") if isinstance(raw_o, dict) else None
        if not isinstance(items, list) or not items:
            issues.append(CapitalBenchIssue(rel_o, None, "options", "expected a non-empty list"))
        else:
            for i, item in enumerate(items):
                try:
                    opt = OptionSpec.model_validate(item)
                except ValidationError as err:
                    _pydantic_issues(rel_o, err, issues, prefix=f"options[{i}]")
                    continue
                if opt.include_in_universe:
                    options.append(opt)
            ids = [o.id for o in options]
            for dup in sorted({i for i in ids if ids.count(i) > 1}):
                issues.append(CapitalBenchIssue(rel_o, None, "options[].id", f"duplicate option id {dup!r}"))
            if options and BENCHMARK_OPTION not in ids:
                issues.append(
                    CapitalBenchIssue(
                        rel_o, None, "options[].id", f"the S&P 500 option {BENCHMARK_OPTION!r} is missing"
                    )
                )
    by_id = {o.id: o for o in options}

    briefing_path = rd / "briefing.md"
    briefing = briefing_path.read_text(encoding="utf-8") if briefing_path.is_file() else ""
    if not briefing.strip():
        issues.append(CapitalBenchIssue(_rel(rounds_dir, briefing_path), None, None, "briefing is missing or empty"))

    warnings: list[str] = []
    entry: dict[str, PricePoint] = {}
    exit_: dict[str, PricePoint] | None = None
    weekly: list[tuple[str, PricePoint]] = []
    trailing: list[TableRow] = []
    resolution, resolution_note = read_resolution(rd)
    if manifest is not None:
        p = rd / "prices" / "entry_prices.csv"
        if not p.is_file():
            if resolution in ("scheduled", "cancelled") and not (rd / "prices" / "exit_prices.csv").is_file():
                warnings.append(
                    f"{rid}: no entry prices yet (scoring job {resolution}): decisions graded, outcome withheld"
                )
            else:
                issues.append(CapitalBenchIssue(_rel(rounds_dir, p), None, None, "file is missing"))
        else:
            entry = _read_price_file(p, _rel(rounds_dir, p), manifest.entry_date, issues, warnings)
        p = rd / "prices" / "exit_prices.csv"
        if p.is_file():
            exit_ = _read_price_file(p, _rel(rounds_dir, p), manifest.exit_date, issues, warnings)
    p = rd / "prices" / "weekly_prices.csv"
    if p.is_file():
        weekly = _read_weekly(p, _rel(rounds_dir, p), issues)
    unused: dict[str, list[str]] = {}
    for table, fname in TABLE_FILES.items():
        p = rd / "market_data" / fname
        if not p.is_file():
            continue
        rel = _rel(rounds_dir, p)
        if table == "trailing_returns":
            read = read_trailing_table(p)
        else:
            read = read_json_table(p, table, manifest.decision_date if manifest is not None else None)
        for line, column, message in read.problems:
            issues.append(CapitalBenchIssue(rel, line, column, message))
        for row in read.rows:
            if by_id and row.option_id not in by_id:
                issues.append(CapitalBenchIssue(rel, None, "option_id", f"unknown option {row.option_id!r}"))
        if read.by_ticker and read.as_of is not None:  # market_state figures of options the rows lack
            by_ticker = {o.symbol.upper(): o.id for o in options if o.symbol}
            have = {(r.option_id, f) for r in read.rows for f in r.returns}
            for ticker, values in sorted(read.by_ticker.items()):
                oid = by_ticker.get(ticker)
                extra = {f: v for f, v in values.items() if oid and (oid, f) not in have}
                if extra:
                    read.rows.append(TableRow(oid, read.as_of, None, extra, table))  # type: ignore[arg-type]
                elif oid is None:
                    read.unused.add(f"market_state.{ticker.lower()}_* (no option with ticker {ticker})")
            derive_returns_from_active(read)
        if read.market_wide and read.as_of is not None:  # breadth and dispersion: the benchmark's row holds them
            bench = next((o.id for o in options if o.is_benchmark), None) or next(
                (o.id for o in options if (o.symbol or "").upper() == "SPY"), None
            )
            if bench is not None:
                read.rows.append(TableRow(bench, read.as_of, None, dict(read.market_wide), table))
            else:
                read.unused.update(f"market_state.{f} (no benchmark option)" for f in read.market_wide)
        trailing.extend(read.rows)
        if read.unused:
            unused[table] = sorted(read.unused)

    run = _official_run(rd, rounds_dir, issues)
    submissions: list[tuple[str, Submission]] = []
    if run is not None:
        parsed = run / "submissions" / "parsed"
        files = sorted(parsed.glob("*.json")) if parsed.is_dir() else []
        if not files:
            issues.append(
                CapitalBenchIssue(_rel(rounds_dir, parsed), None, None, "the official run has no parsed submissions")
            )
        for f in files:
            rel = _rel(rounds_dir, f)
            sub = _read_submission(f, rel, rid, by_id, issues)
            if sub is not None:
                submissions.append((rel, sub))
    # every held option and the benchmark need prices
    held = {h.option_id for _, s in submissions for h in (s.portfolio or [])}
    held |= {s.selected_option_id for _, s in submissions if s.portfolio is None and s.selected_option_id}
    cash = {o.id for o in options if o.is_cash}
    for label, prices, fname in (("entry", entry, "entry_prices.csv"), ("exit", exit_, "exit_prices.csv")):
        if prices is None or manifest is None or (label == "entry" and not prices and exit_ is None):
            continue
        need = sorted((held | {BENCHMARK_OPTION}) - cash - set(prices))
        if need:
            issues.append(
                CapitalBenchIssue(
                    _rel(rounds_dir, rd / "prices" / fname),
                    None,
                    "option_id",
                    f"no {label} price for {', '.join(need)}",
                )
            )
    if len(issues) > n_before or manifest is None or run is None:
        return None
    return SourceRound(
        id=rid,
        dir=rd,
        manifest=manifest,
        options=options,
        briefing=briefing,
        run_id=run.name,
        submissions=sorted(submissions, key=lambda x: x[1].model_id),
        entry=entry,
        exit=exit_,
        weekly=weekly,
        trailing=trailing,
        warnings=warnings,
        unused_columns=unused,
        resolution=resolution,
        resolution_note=resolution_note,
    )


def read_resolution(rd: Path) -> tuple[str | None, str]:
    """CapitalBench's scoring job for the round (``automation/resolution_job.yaml``): status and why."""
    p = rd / "automation" / "resolution_job.yaml"
    if not p.is_file():
        return None, ""
    try:
        job = yaml.safe_load(p.read_text(encoding="utf-8")) or {}
    except (yaml.YAMLError, UnicodeDecodeError):
        return None, "unreadable resolution_job.yaml"
    if not isinstance(job, dict):
        return None, ""
    status = str(job.get("status") or "") or None
    if status == "cancelled":
        return status, str(job.get("last_error") or "cancelled upstream")
    if status == "scheduled":
        return status, f"scoring job due {job.get('due_at_utc') or '?'}"
    return status, str(job.get("last_error") or "")


def deadline(r: SourceRound) -> datetime:
    return r.manifest.decision_deadline
