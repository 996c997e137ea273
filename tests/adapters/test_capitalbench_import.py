"""CapitalBench adapter: every round imports to a valid bundle; malformed rounds are refused by file and field."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
import yaml

from grader.adapters import (
    CapitalBenchError,
    compose_rationale,
    display_name_for,
    import_capitalbench,
    import_capitalbench_with_summary,
)
from grader.adapters.__main__ import main as adapters_main
from grader.adapters.capitalbench import Submission
from grader.pit import close_time
from grader.season import load_bundle
from tests.adapters.cb_helpers import REPO, ROUNDS, is_resolved, official_run, round_ids, rounds_dir, track_of

COMMITTED = REPO / "seasons" / "cb-2026-06-1w"


def _csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as fh:
        return list(csv.DictReader(fh))


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


# --- every round in the data -------------------------------------------------------------------------


@pytest.mark.parametrize("round_id", round_ids())
def test_every_round_imports_alone(tmp_path: Path, round_id: str) -> None:
    src = rounds_dir()
    rd = src / round_id
    out = tmp_path / "bundle"
    if not (rd / "runs").is_dir():
        with pytest.raises(CapitalBenchError, match="never run: no runs/ directory"):
            import_capitalbench(src, track_of(round_id), None, None, out, round_ids=[round_id])
        assert not out.exists()
        return
    import_capitalbench(src, track_of(round_id), None, None, out, round_ids=[round_id])
    bundle = load_bundle(out)  # the project's own validator accepts it
    assert bundle.info.format == "rounds"
    assert [r.id for r in bundle.info.rounds] == [round_id]
    rnd = bundle.info.rounds[0]
    manifest = yaml.safe_load((rd / "manifest.yaml").read_text())
    assert rnd.decided_at.isoformat().replace("+00:00", "Z") == manifest["decision_deadline"]
    assert rnd.briefing == (rd / "briefing.md").read_text()
    assert (rnd.exit_date is None) == (not is_resolved(rd))
    parsed = sorted((official_run(rd) / "submissions" / "parsed").glob("*.json"))
    assert sorted(d.contestant_id for d in bundle.decisions) == sorted(p.stem for p in parsed)
    for d in bundle.decisions:
        assert d.round_id == round_id and d.trades == [] and d.decided_at == rnd.decided_at
        assert sum(a.weight for a in d.allocation) == pytest.approx(1.0, abs=1e-12)
    assert (
        bundle.info.attribution
        and "Ishtiaq Rahman" in bundle.info.attribution
        and "CC BY 4.0" in bundle.info.attribution
    )
    assert "Ishtiaq Rahman" in (out / "ATTRIBUTION.md").read_text()


@pytest.mark.parametrize("track", ["1W", "1M"])
def test_whole_track_imports_and_loads(tmp_path: Path, track: str) -> None:
    src = rounds_dir()
    summary = import_capitalbench_with_summary(src, track, None, None, tmp_path / track)
    bundle = load_bundle(summary.path)
    in_track = [rid for rid in round_ids() if track_of(rid) == track]
    skipped = {rid for rid, _ in summary.skipped}
    assert sorted(summary.round_ids + sorted(skipped)) == sorted(in_track)
    for rid, why in summary.skipped:  # only never-run rounds and parallel experiments are left out
        manifest = yaml.safe_load((src / rid / "manifest.yaml").read_text())
        assert (not (src / rid / "runs").is_dir()) or manifest.get("publication_stream") == "pilot", (
            rid,
            why,
        )
    assert len(bundle.decisions) == sum(
        len(list((official_run(src / rid) / "submissions" / "parsed").glob("*.json"))) for rid in summary.round_ids
    )
    assert bundle.info.benchmark == "SP500"
    assert {u.symbol: u.ticker for u in bundle.info.universe}["SP500"] == "SPY"


def test_june_weekly_selection_by_decision_date(tmp_path: Path) -> None:
    summary = import_capitalbench_with_summary(
        rounds_dir(), "1W", date(2026, 6, 1), date(2026, 6, 30), tmp_path / "june"
    )
    expected = []
    for rid in round_ids():
        m = yaml.safe_load((ROUNDS / rid / "manifest.yaml").read_text())
        if track_of(rid) == "1W" and "2026-06-01" <= m["decision_date"] <= "2026-06-30":
            expected.append(rid)
    assert sorted(summary.round_ids) == expected
    assert summary.season_id == "cb-2026-06-1w"
    info = yaml.safe_load((tmp_path / "june" / "season.yaml").read_text())
    assert info["id"] == "cb-2026-06-1w" and info["format"] == "rounds"


# --- mapping of one known round ----------------------------------------------------------------------


def test_decision_mapping_of_a_portfolio_submission(tmp_path: Path) -> None:
    src = rounds_dir()
    rid = "CB-2026-06-02-1W"
    import_capitalbench(src, "1W", None, None, tmp_path / "b", round_ids=[rid])
    sub = json.loads((official_run(src / rid) / "submissions/parsed/openai-gpt-5-5.json").read_text())
    (dec,) = [d for d in _jsonl(tmp_path / "b" / "decisions.jsonl") if d["contestant_id"] == "openai-gpt-5-5"]
    assert dec["allocation"] == [
        {"symbol": h["option_id"], "weight": h["allocation_pct"] / 100, "rationale": h["rationale"]}
        for h in sub["portfolio"]
    ]
    assert dec["confidence"] == sub["confidence"]
    assert dec["decision_seconds"] == sub["usage"]["latency_seconds"]
    assert dec["decided_at"] == "2026-06-02T08:00:00Z" and dec["round_id"] == rid and dec["trades"] == []
    text = dec["rationale"]
    pieces = [
        sub["rationale_summary"],
        sub["portfolio_rationale"],
        *(h["rationale"] for h in sub["portfolio"]),
        *sub["key_risks"],
    ]
    positions = [text.index(p) for p in pieces]
    assert positions == sorted(positions)  # summary, portfolio rationale, holdings, risks: in that order
    assert "Key risks:" in text
    contestants = yaml.safe_load((tmp_path / "b" / "contestants.yaml").read_text())
    assert {
        "id": "openai-gpt-5-5",
        "display_name": "GPT-5.5",
        "provider_family": "openai",
        "model": "openai-gpt-5-5",
    } in contestants


def test_single_pick_submission_is_a_full_allocation(tmp_path: Path) -> None:
    src = rounds_dir()
    rid = "CB-2026-05-10-1M"
    import_capitalbench(src, "1M", None, None, tmp_path / "b", round_ids=[rid])
    for d in _jsonl(tmp_path / "b" / "decisions.jsonl"):
        sub = json.loads((official_run(src / rid) / f"submissions/parsed/{d['contestant_id']}.json").read_text())
        assert d["allocation"] == [{"symbol": sub["selected_option_id"], "weight": 1.0}]
        assert d["rationale"].startswith(sub["rationale_summary"])


@pytest.mark.parametrize(
    ("model_id", "provider", "expected"),
    [
        ("openai-gpt-5-5", "openai", "GPT-5.5"),
        ("openai-gpt-5-6-sol", "openai", "GPT-5.6 Sol"),
        ("anthropic-claude-opus-4-7", "anthropic", "Claude Opus 4.7"),
        ("anthropic-claude-fable-5", "anthropic", "Claude Fable 5"),
        ("google-gemini-3-1-pro", "google", "Gemini 3.1 Pro"),
        ("xai-grok-4-3", "xai", "Grok 4.3"),
    ],
)
def test_display_names(model_id: str, provider: str, expected: str) -> None:
    assert display_name_for(model_id, provider) == expected


def test_rationale_carries_v2_forecasts_and_invalidation() -> None:
    sub = Submission.model_validate(
        {
            "round_id": "R",
            "model_id": "m",
            "provider": "p",
            "is_official_score": True,
            "rationale_summary": "Summary.",
            "key_risks": ["Risk one."],
            "confidence": 0.5,
            "usage": {"latency_seconds": 1.0},
            "portfolio_rationale": "Why this mix.",
            "portfolio": [
                {
                    "option_id": "ENERGY",
                    "allocation_pct": 100,
                    "rationale": "Oil up.",
                    "expected_return_pct": 1.5,
                    "invalidation_condition": "Oil below $60.",
                }
            ],
            "portfolio_expected_return_pct": 1.5,
            "benchmark_expected_return_pct": 0.5,
            "expected_alpha_vs_sp500_pct": 1.0,
        }
    )
    text = compose_rationale(sub, {"ENERGY": "Energy Sector"})
    assert "- ENERGY (Energy Sector), 100%: Oil up. (expected return +1.5%; invalidation: Oil below $60.)" in text
    assert "portfolio +1.5%, S&P 500 +0.5%, expected alpha +1 pp." in text


# --- point-in-time data and per-round prices ---------------------------------------------------------


def test_fields_are_known_before_the_decision_that_cites_them(tmp_path: Path) -> None:
    src = rounds_dir()
    import_capitalbench(src, "1W", date(2026, 6, 1), date(2026, 6, 30), tmp_path / "b")
    info = yaml.safe_load((tmp_path / "b" / "season.yaml").read_text())
    deadline = {r["id"]: r["decided_at"] for r in info["rounds"]}
    rows = _csv(tmp_path / "b" / "market" / "fields.csv")
    from datetime import datetime

    from ledgers import FIELD_SPECS

    assert {"close", "return7d", "return30d", "return6m", "return1y"} <= {r["field"] for r in rows}
    assert all(r["field"] in FIELD_SPECS for r in rows)

    for r in rows:
        rid = r["source"].removeprefix("capitalbench:")
        assert close_time(date.fromisoformat(r["observed_at"])) <= datetime.fromisoformat(deadline[rid])
    # values are the source file's, unchanged
    src_rows = {
        (x["option_id"], x["as_of_price_date"]): x
        for x in _csv(src / "CB-2026-06-02-1W/market_data/universe_trailing_returns.csv")
    }
    ours = {
        (r["symbol"], r["field"]): float(r["value"]) for r in rows if r["source"] == "capitalbench:CB-2026-06-02-1W"
    }
    semis = src_rows[("SEMICONDUCTORS", "2026-06-01")]
    assert ours[("SEMICONDUCTORS", "return30d")] == float(semis["return_30d"])
    assert ours[("SEMICONDUCTORS", "close")] == float(semis["as_of_adj_close"])


def test_every_column_of_every_table_a_round_showed_becomes_a_field(tmp_path: Path) -> None:
    """Trailing returns with their later columns, the decision-context and the quality-evidence appendices."""
    src = rounds_dir()
    summary = import_capitalbench_with_summary(src, "1M", date(2026, 7, 1), date(2026, 7, 31), tmp_path / "b")
    rows = _csv(tmp_path / "b" / "market" / "fields.csv")
    ours = {(r["source"].removeprefix("capitalbench:"), r["symbol"], r["field"]): float(r["value"]) for r in rows}
    # a trailing-returns round with the later columns (relative return, volatility, drawdown, beta, ...)
    trailing = {x["option_id"]: x for x in _csv(src / "CB-2026-07-08-1M/market_data/universe_trailing_returns.csv")}
    hc = trailing["HEALTHCARE"]
    for column, name in (
        ("return_vs_sp500_30d", "activeReturn30d"),
        ("volatility_30d", "volatility30d"),
        ("max_drawdown_30d", "maxDrawdown30d"),
        ("beta_to_sp500_1y", "beta1y"),
        ("distance_from_52w_high", "distance52wHigh"),
        ("rank_30d", "rank30d"),
    ):
        assert ours[("CB-2026-07-08-1M", "HEALTHCARE", name)] == float(hc[column]), column
    # the decision-context appendix (monthly profile: 5-session return, 21-session active return, ...)
    doc = json.loads((src / "CB-2026-07-21-1M/market_data/universe_decision_context.json").read_text())
    energy = next(r for r in doc["rows"] if r["option_id"] == "ENERGY")
    for column, name in (
        ("return_5s", "return5d"),
        ("active_return_21s", "activeReturn21d"),
        ("prior_105s_active_return", "priorActiveReturn105d"),
        ("volatility_63s", "volatility63d"),
        ("max_drawdown_63s", "maxDrawdown63d"),
        ("volume_zscore_20v120", "volumeZscore20v120"),
        ("corr_spy_252s", "correlation252d"),
        ("beta_spy_252s", "beta252d"),
        ("distance_52w_high", "distance52wHigh"),
    ):
        assert ours[("CB-2026-07-21-1M", "ENERGY", name)] == float(energy[column]), column
    # the quality-evidence appendix
    doc = json.loads((src / "CB-2026-07-21-1M/market_data/universe_quality_evidence.json").read_text())
    q = next(r for r in doc["rows"] if r["option_id"] == "ENERGY")
    assert ours[("CB-2026-07-21-1M", "ENERGY", "qualityEvidenceScore")] == q["quality_evidence_score"]
    assert ours[("CB-2026-07-21-1M", "ENERGY", "recentPullbackRank")] == q["recent_active_reversal_rank"]
    # nothing is dropped silently: a column no registry field holds is named in the import notes
    assert not any("columns not read" in n for n in summary.notes), summary.notes


def test_a_column_without_a_registry_field_is_reported_not_dropped(tmp_path: Path) -> None:
    src = rounds_dir()
    copy = tmp_path / "rounds"
    shutil.copytree(src / "CB-2026-07-08-1M", copy / "CB-2026-07-08-1M")
    table = copy / "CB-2026-07-08-1M/market_data/universe_trailing_returns.csv"
    lines = table.read_text().splitlines()
    lines = [lines[0] + ",sharpe_30d"] + [line + ",1.5" for line in lines[1:]]
    table.write_text("\n".join(lines) + "\n")
    summary = import_capitalbench_with_summary(copy, "1M", None, None, tmp_path / "b")
    assert any(
        "CB-2026-07-08-1M: trailing_returns columns not read" in n and "sharpe_30d" in n for n in summary.notes
    ), summary.notes


def test_round_prices_keep_each_rounds_own_adjusted_closes(tmp_path: Path) -> None:
    src = rounds_dir()
    import_capitalbench(src, "1M", None, None, tmp_path / "b")
    rows = _csv(tmp_path / "b" / "market" / "round_prices.csv")
    by_round: dict[str, dict[str, dict[str, str]]] = {}
    for r in rows:
        by_round.setdefault(r["round_id"], {})[r["symbol"]] = r
    differs = 0
    seen: dict[tuple[str, str], float] = {}
    for rid, table in by_round.items():
        entry = {x["option_id"]: x for x in _csv(src / rid / "prices" / "entry_prices.csv")}
        exit_path = src / rid / "prices" / "exit_prices.csv"
        exit_ = {x["option_id"]: x for x in _csv(exit_path)} if exit_path.is_file() else {}
        for sym, r in table.items():
            assert float(r["entry_close"]) == float(entry[sym]["adj_close"])
            assert (r["exit_close"] == "") == (sym not in exit_)
            if sym in exit_:
                assert float(r["exit_close"]) == float(exit_[sym]["adj_close"])
            for prices, col in ((entry, "entry_close"), (exit_, "exit_close")):
                if sym in prices:
                    key, value = (sym, prices[sym]["date"]), float(r[col])
                    if key in seen and abs(seen[key] - value) > 1e-6 * value:
                        differs += 1
                    seen.setdefault(key, value)
    # the reason market/round_prices.csv exists: rounds price the same symbol and date differently
    # (retroactive dividend adjustment: up to 1.4% in the monthly track, 2.1% in the weekly one)
    assert differs > 0


# --- malformed rounds are refused, nothing is written -------------------------------------------------


def _copy_round(tmp_path: Path, rid: str) -> tuple[Path, Path]:
    dst = tmp_path / "rounds" / rid
    shutil.copytree(rounds_dir() / rid, dst)
    return tmp_path / "rounds", dst


def _parsed(rd: Path, model: str) -> Path:
    return next(rd.glob(f"runs/*/submissions/parsed/{model}.json"))


def _edit_json(path: Path, fn) -> None:
    data = json.loads(path.read_text())
    fn(data)
    path.write_text(json.dumps(data))


def _drop_manifest(rd: Path) -> None:
    (rd / "manifest.yaml").unlink()


def _unselect_official(rd: Path) -> None:
    for p in rd.glob("runs/*/run_manifest.yaml"):
        p.write_text(p.read_text().replace("operator_selected_official: true", "operator_selected_official: false"))


def _drop_confidence(rd: Path) -> None:
    _edit_json(_parsed(rd, "openai-gpt-5-5"), lambda d: d.pop("confidence"))


def _drop_latency(rd: Path) -> None:
    _edit_json(_parsed(rd, "openai-gpt-5-5"), lambda d: d["usage"].pop("latency_seconds"))


def _bad_weights(rd: Path) -> None:
    _edit_json(
        _parsed(rd, "xai-grok-4-3"),
        lambda d: d["portfolio"][0].update(allocation_pct=d["portfolio"][0]["allocation_pct"] + 5),
    )


def _unknown_option(rd: Path) -> None:
    _edit_json(_parsed(rd, "openai-gpt-5-5"), lambda d: d["portfolio"][1].update(option_id="MOON_SHOT"))


def _no_entry_price(rd: Path) -> None:
    p = rd / "prices" / "entry_prices.csv"
    p.write_text("".join(line for line in p.read_text().splitlines(keepends=True) if not line.startswith("SP500,")))


@pytest.mark.parametrize(
    ("break_it", "file_part", "field_part"),
    [
        (_drop_manifest, "CB-2026-06-02-1W/manifest.yaml", "file is missing"),
        (_unselect_official, "CB-2026-06-02-1W/runs", "operator_selected_official"),
        (_drop_confidence, "submissions/parsed/openai-gpt-5-5.json", "confidence: required field is missing"),
        (
            _drop_latency,
            "submissions/parsed/openai-gpt-5-5.json",
            "usage.latency_seconds: required field is missing",
        ),
        (
            _bad_weights,
            "submissions/parsed/xai-grok-4-3.json",
            "allocation_pct: allocations sum to 105, expected 100",
        ),
        (
            _unknown_option,
            "submissions/parsed/openai-gpt-5-5.json",
            "portfolio[1].option_id: unknown option 'MOON_SHOT'",
        ),
        (_no_entry_price, "CB-2026-06-02-1W/prices/entry_prices.csv", "option_id: no entry price for SP500"),
    ],
)
def test_malformed_round_is_refused_naming_file_and_field(
    tmp_path: Path, break_it, file_part: str, field_part: str
) -> None:
    src, rd = _copy_round(tmp_path, "CB-2026-06-02-1W")
    break_it(rd)
    out = tmp_path / "out" / "season"
    with pytest.raises(CapitalBenchError) as exc:
        import_capitalbench(src, "1W", None, None, out)
    issue = next(i for i in exc.value.issues if file_part in i.file)
    assert field_part in str(issue)
    assert file_part in str(exc.value)
    assert not out.exists()
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_existing_output_is_kept_unless_overwrite(tmp_path: Path) -> None:
    src = rounds_dir()
    out = tmp_path / "b"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    with pytest.raises(CapitalBenchError, match="already exists"):
        import_capitalbench(src, "1W", None, None, out, round_ids=["CB-2026-06-02-1W"])
    assert (out / "keep.txt").read_text() == "mine"
    import_capitalbench(src, "1W", None, None, out, round_ids=["CB-2026-06-02-1W"], overwrite=True)
    assert not (out / "keep.txt").exists() and (out / "season.yaml").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b"]  # no temporary directories left behind


def test_a_round_sharing_a_deadline_and_a_model_with_another_is_left_out_with_the_reason(tmp_path: Path) -> None:
    summary = import_capitalbench_with_summary(
        rounds_dir(), "1W", None, None, tmp_path / "b", round_ids=["CB-2026-07-13-1W", "CB-2026-07-13-V2-1W"]
    )
    assert summary.round_ids == ["CB-2026-07-13-1W"]
    ((rid, why),) = summary.skipped
    assert rid == "CB-2026-07-13-V2-1W" and "same deadline" in why and "--round" in why


def test_one_bad_round_never_refuses_the_rest(tmp_path: Path) -> None:
    src, rd = _copy_round(tmp_path, "CB-2026-06-02-1W")
    shutil.copytree(rounds_dir() / "CB-2026-06-05-1W", src / "CB-2026-06-05-1W")
    _bad_weights(rd)
    summary = import_capitalbench_with_summary(src, "1W", None, None, tmp_path / "b")
    assert summary.round_ids == ["CB-2026-06-05-1W"]
    ((rid, why),) = summary.skipped
    assert rid == "CB-2026-06-02-1W" and "xai-grok-4-3.json" in why and "allocations sum to 105" in why
    assert any(line.startswith("skipped CB-2026-06-02-1W: refused") for line in summary.lines())
    assert load_bundle(tmp_path / "b").info.rounds[0].id == "CB-2026-06-05-1W"


# --- CLI entry and the committed season --------------------------------------------------------------


def test_module_cli_writes_and_refuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = rounds_dir()
    code = adapters_main(
        [
            "import-capitalbench",
            str(src),
            "--track",
            "1M",
            "--round",
            "CB-2026-05-10-1M",
            "--out",
            str(tmp_path / "b"),
        ]
    )
    assert (
        code == 0
        and "1 rounds (1 resolved, 0 pending, 0 never resolved), 4 contestants, 4 decisions" in capsys.readouterr().out
    )
    code = adapters_main(
        [
            "import-capitalbench",
            str(src),
            "--track",
            "1M",
            "--round",
            "CB-2026-05-10-1M",
            "--out",
            str(tmp_path / "b"),
        ]
    )
    assert code == 2 and "already exists" in capsys.readouterr().err


def test_importing_the_adapter_loads_no_provider_sdk() -> None:
    code = (
        "import sys, grader.adapters, grader.replay._rounds; "
        "bad = [m for m in ('openai', 'anthropic', 'xai_sdk', 'instructor') if m in sys.modules]; "
        "sys.exit(1 if bad else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code], cwd=REPO).returncode == 0


def test_committed_season_rebuilds_identically(tmp_path: Path) -> None:
    src = rounds_dir()
    assert COMMITTED.is_dir(), "seasons/cb-2026-06-1w is committed"
    readme = (COMMITTED / "README.md").read_text()
    command = next(line.strip() for line in readme.splitlines() if line.strip().startswith("python -m grader.adapters"))
    assert "--track 1W --from 2026-06-01 --to 2026-06-30" in command
    import_capitalbench(src, "1W", date(2026, 6, 1), date(2026, 6, 30), tmp_path / "b", command=command)
    ours = {
        p.relative_to(tmp_path / "b").as_posix(): p.read_bytes() for p in (tmp_path / "b").rglob("*") if p.is_file()
    }
    committed = {p.relative_to(COMMITTED).as_posix(): p.read_bytes() for p in COMMITTED.rglob("*") if p.is_file()}
    assert ours == committed
    bundle = load_bundle(COMMITTED)
    assert bundle.info.id == "cb-2026-06-1w" and "Ishtiaq Rahman" in (COMMITTED / "ATTRIBUTION.md").read_text()
