"""A calibration set on disk and in the database: the items as the contestants of a derived season bundle.

The derived bundle (``calibration.yaml`` says what it is) holds the source season's market data unchanged and,
per item, decisions copied byte for byte from the source ``decisions.jsonl`` under the item's id. It
is a valid bundle v1, so calibration runs store calls, grades and ledgers exactly as any run does. An item's
contestant carries the source record up to the item's last decision (so its holdings are those of the source);
which of those decisions the item is stays in ``calibration.yaml`` and the database. The judges'
prompts are built from the *source* season (``item_prompts``): each decision shows the portfolio as it stood
before it, from the whole record's replay, which the derived bundle alone could not know.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import yaml

from grader.calibration._sample import ItemSpec, sample_items
from grader.season import BundleFile, jsonl_text, write_bundle, yaml_text
from grader.storage import CalibrationSetRow, RunRow, SeasonRow, record_row_hashes, session_scope

DERIVED_FILES = ("contestants.yaml", "decisions.jsonl", "season.yaml", "README.md", "calibration.yaml")


def item_prompts(
    bundle,
    rubric,
    items: list[ItemSpec],
    shown: dict | None = None,  # noqa: ANN001
    secret: str = "",
) -> tuple[dict, dict]:
    """(item id -> judge prompt, item id -> the source contestant's replay) built on the source ``bundle``. With
    ``shown``, also fills it with what the judges are shown of each item decision (source decision key ->
    ``{"rationale", "allocation", "facts"}``: scrubbed rationale, target weights with each holding's scrubbed
    rationale, the process facts at decision time)."""
    from grader.anonymizer import Anonymizer, NamedView
    from grader.panel import anonymizer_seed, season_outcomes
    from grader.prompts import PromptBuilder

    replays, outcomes, pending = season_outcomes(bundle)
    anonymizer: Anonymizer | NamedView
    if rubric.panel.anonymize:
        anonymizer = Anonymizer.for_season(
            bundle.info, bundle.contestants, seed=anonymizer_seed(bundle, rubric, secret)
        )
    else:
        anonymizer = NamedView(bundle.contestants)
    builder = PromptBuilder(bundle, rubric.judge_prompt(), anonymizer, replays, outcomes, pending)
    prompts = {i.item_id: builder.build_item(i.contestant, i.first, i.last, i.item_id, i.label) for i in items}
    if shown is not None:
        by_key = {d.key: d for d in bundle.decisions}
        for i in items:
            for key in i.decision_keys:
                decision, _ = anonymizer.anonymize_decision(by_key[key])
                shown[key] = {
                    "rationale": builder.neutral(decision.rationale),
                    "allocation": [
                        {
                            "symbol": a.symbol,
                            "weight": a.weight,
                            **({"rationale": builder.neutral(a.rationale)} if a.rationale else {}),
                        }
                        for a in decision.allocation or []
                    ]
                    or None,
                    "facts": "; ".join(builder.process_facts_at(i.contestant, by_key[key])),
                }
    return prompts, {i.item_id: replays[i.contestant] for i in items if i.contestant in replays}


def _write_bundle(source: Path, bundle, items: list[ItemSpec], out: Path, set_id: str, meta: dict) -> None:  # noqa: ANN001
    if out.exists() and any(out.iterdir()):
        raise FileExistsError(f"{out} exists and is not empty: choose another --out or --set-id")
    files: dict[str, BundleFile] = {}
    for path in source.iterdir():
        if path.name in DERIVED_FILES or path.is_symlink():  # a link is never followed (load_bundle refused it)
            continue
        if path.is_dir() or path.is_file():
            files[path.name] = path  # copied unchanged
    season = yaml.safe_load((source / "season.yaml").read_text(encoding="utf-8"))
    season["id"] = f"{season['id']}--{set_id}"
    season["name"] = f"Calibration set {set_id} ({len(items)} reference items of {season.get('name', season['id'])})"
    files["season.yaml"] = yaml_text(
        season,
        header="A calibration set (grader calibration sample): its contestants are reference items. Do not edit.",
    )
    source_people = {c.id: c for c in bundle.contestants}
    contestants = []
    for i in items:
        c = source_people[i.contestant]
        contestants.append(
            {
                "id": i.item_id,
                "display_name": f"{i.label} ({c.display_name}, decisions {i.first + 1}-{i.last + 1})",
                "provider_family": c.provider_family,
                "model": c.model,
            }
        )
    files["contestants.yaml"] = yaml_text(contestants)
    lines = (source / "decisions.jsonl").read_text(encoding="utf-8").splitlines()
    records = []
    for i in items:
        # the contestant's record up to the item's last decision: what it held before the item is then part of
        # the bundle (a trading season refuses a sale of shares not held); only the item's decisions are graded
        for d in bundle.decisions_of(i.contestant)[: i.last + 1]:
            record = json.loads(lines[d.line - 1])
            record["contestant_id"] = i.item_id
            records.append(record)
    files["decisions.jsonl"] = jsonl_text(records, sort_keys=True)
    files["calibration.yaml"] = yaml_text(meta)
    write_bundle(out, files, overwrite=True)  # an empty directory at ``out`` (checked above) is replaced


def build_set(
    run_id: str,
    n: int,
    *,
    window: int = 1,
    seed: int = 0,
    set_id: str | None = None,
    out: Path | None = None,
    db_url: str | None = None,
) -> dict:
    """Draw a calibration set from ``run_id``, write its derived bundle and store it (nothing stored on error);
    returns the set's id, size, bundle path, method and items."""
    from grader.scoring import run_rubric
    from grader.season import load_bundle

    with session_scope(db_url) as s:
        run = s.get(RunRow, run_id)
        if run is None:
            raise KeyError(f"no run {run_id!r} in this database")
        source = Path(s.get_one(SeasonRow, run.season_id).source_path)
        rubric_id, rubric_hash = run.rubric_id, run.rubric_hash
        rubric = run_rubric(run)
        set_id = set_id or f"{run_id}-cal{n}w{window}s{seed}"
        existing = s.get(CalibrationSetRow, set_id)
        if existing is not None:  # drawing the same set again is a no-op; another draw under its id is refused
            same = (existing.source_run_id, existing.n_items, existing.window, existing.seed, existing.rubric_hash) == (
                run_id,
                n,
                window,
                seed,
                rubric_hash,
            )
            if not same or not Path(existing.bundle_path).is_dir():
                raise FileExistsError(
                    f"calibration set {set_id!r} exists with other parameters (or its bundle "
                    f"{existing.bundle_path} is gone): choose another --set-id"
                )
            return {
                "set_id": set_id,
                "n_items": existing.n_items,
                "window": window,
                "seed": seed,
                "bundle_path": existing.bundle_path,
                "method": existing.method,
                "items": list(existing.items),
                "existing": True,
            }
    bundle = load_bundle(source)
    items, method = sample_items(run_id, n, window, seed, db_url, bundle=bundle)
    shown: dict[str, dict] = {}
    from grader.storage import alias_secret

    prompts, _ = item_prompts(bundle, rubric, items, shown=shown, secret=alias_secret(bundle.info.id, db_url))
    for i in items:  # what the judges are shown, for the console's item view
        i.rationales = {key: shown[key]["rationale"] for key in i.decision_keys}
        i.allocations = {key: shown[key]["allocation"] for key in i.decision_keys if shown[key]["allocation"]}
        i.facts = {key: shown[key]["facts"] for key in i.decision_keys}
        sections = {sec.decision_key: sec for sec in prompts[i.item_id].sections}
        i.snapshot = {
            key: [
                {
                    "symbol": o.symbol,
                    "field": o.field,
                    "value": o.value if isinstance(o.value, str) else float(o.value),
                    "observed_at": o.observed_at.isoformat(),
                    "source": o.source,
                }
                for o in sections[key].observations
            ]
            for key in i.decision_keys
            if key in sections
        }
    out = Path(out or Path("calibration") / set_id)
    meta = {
        "set_id": set_id,
        "source_run": run_id,
        "source_season": bundle.info.id,
        "source_season_hash": bundle.content_hash,
        "rubric_id": rubric_id,
        "rubric_hash": rubric_hash,
        "seed": seed,
        "window": window,
        "method": method,
        "items": [{k: v for k, v in i.as_json().items() if k != "snapshot"} for i in items],
    }
    _write_bundle(source, bundle, items, out, set_id, meta)
    try:
        derived = load_bundle(out)
    except Exception:
        shutil.rmtree(out, ignore_errors=True)
        raise
    row = CalibrationSetRow(
        id=set_id,
        source_run_id=run_id,
        rubric_id=rubric_id,
        rubric_hash=rubric_hash,
        seed=seed,
        n_items=len(items),
        window=window,
        bundle_path=str(out.resolve()),
        bundle_hash=derived.content_hash,
        method=method,
        items=[i.as_json() for i in items],
    )
    summary = {
        "set_id": set_id,
        "n_items": len(items),
        "window": window,
        "seed": seed,
        "bundle_path": row.bundle_path,
        "method": method,
        "items": [i.as_json() for i in items],
    }
    with session_scope(db_url) as s:
        s.add(row)
        s.flush()
        record_row_hashes(s, "calibration_set", [row.id])
    return summary
