"""Write the judge's view of a season: a bundle of the same layout with identities scrubbed.

``out_dir`` receives ``season.yaml`` (copied byte for byte), ``contestants.yaml`` reduced to aliases,
``decisions.jsonl`` with alias ids and scrubbed text, and ``market/`` copied as is. The alias map and the
per-decision scrub log name the real contestants, so they are written NEXT TO ``out_dir`` (never inside):
``<out_dir>.mapping.json`` and ``<out_dir>.scrub-log.jsonl``. Neither may be shown to judges or to
annotators grading blind.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict

from grader.anonymizer._anonymizer import Anonymizer
from grader.anonymizer._guard import LeakGuard
from grader.season import load_bundle, write_bundle

MAPPING_WARNING = (
    "GRADER-SIDE ONLY. Maps the judge-facing aliases back to the real contestants. Never include this "
    "file, or anything from it, in a judge prompt or in a blind annotation view."
)


class AnonymizationLeakError(Exception):
    """The scrubbed bundle still names an identity; ``leaks`` lists ``(file, line, field, text)``."""

    def __init__(self, leaks: list[tuple[str, int, str, str]]):
        self.leaks = leaks
        lines = [f"  {f}:{n}: {fld}: {text!r}" for f, n, fld, text in leaks[:50]]
        more = f"\n  ... and {len(leaks) - 50} more" if len(leaks) > 50 else ""
        super().__init__(f"{len(leaks)} identity leak(s) survived scrubbing\n" + "\n".join(lines) + more)


class AnonymizedBundle(BaseModel):
    """Where the judge's view and the grader-side files went, and what was done."""

    model_config = ConfigDict(frozen=True)

    out_dir: Path
    mapping_path: Path
    scrub_log_path: Path
    contestants: int
    decisions: int
    replacements: int
    season_yaml_mentions: list[str]
    """Identity-looking strings in season.yaml (e.g. market news in a round briefing); its name and attribution
    are dropped from the judge's view, the rest is shared context, listed so a human can check it."""
    by_kind: dict[str, int] = {}
    """Scrubs per kind (self_reference, contestant, model)."""
    kept: dict[str, int] = {}
    """Names kept verbatim as market context, with their counts (every one is in the scrub log with its reason)."""


PUBLIC_ROUND_ID = re.compile(r"\bCB-\d{4}-\d{2}-\d{2}(?:-[A-Z0-9]+)*\b")
"""A public CapitalBench round id ("CB-2026-07-14-1M"): with an allocation it identifies a model, so neither the
judge's view nor a prompt carries one (the prompts and the identity probe read it from here)."""


def mapping_path_for(out_dir: Path) -> Path:
    return out_dir.parent / f"{out_dir.name}.mapping.json"


def scrub_log_path_for(out_dir: Path) -> Path:
    return out_dir.parent / f"{out_dir.name}.scrub-log.jsonl"


_IDENTIFYING_SEASON_KEYS = ("attribution", "source", "source_url", "license", "description")


def _judge_season_yaml(path: Path) -> str:
    """season.yaml as a judge may see it: no season name, attribution or source URL (they name the competition
    whose public results identify each contestant); the market, dates, rules and briefings stay."""
    info = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    if isinstance(info, dict):
        info["name"] = "Anonymized season"
        for key in _IDENTIFYING_SEASON_KEYS:
            info.pop(key, None)
    return yaml.safe_dump(info, sort_keys=False, allow_unicode=True, width=110)


def _neutral_ids(bundle) -> dict[str, str]:  # noqa: ANN001 - a SeasonBundle
    """public id -> neutral label: the season's id and each round's, in decision order."""
    out = {bundle.info.id: "season"}
    rounds = sorted(bundle.info.rounds or [], key=lambda r: (r.decided_at, r.id))
    out.update({r.id: f"round-{i:02d}" for i, r in enumerate(rounds, 1)})
    return out


def _neutralise(text: str, neutral: dict[str, str]) -> str:
    """``text`` with every public id (whole, longest first) replaced by its neutral label."""
    if neutral:
        rx = re.compile("|".join(rf"(?<![\w-]){re.escape(k)}(?![\w-])" for k in sorted(neutral, key=len, reverse=True)))
        text = rx.sub(lambda m: neutral[m.group(0)], text)
    return PUBLIC_ROUND_ID.sub("a parallel round", text)  # a round of another track a briefing names


def write_anonymized_bundle(
    season_dir: Path,
    out_dir: Path,
    seed: str,
    *,
    extra_allowlist: Iterable[str] = (),
    protect_issuer_brands: bool = True,
    overwrite: bool = False,
) -> AnonymizedBundle:
    """Validate ``season_dir``, then write its anonymized copy to ``out_dir`` and the grader-side map.

    Nothing is written when the bundle is invalid (``BundleError``), when ``out_dir`` exists and
    ``overwrite`` is false (``FileExistsError``) or when a leak survives scrubbing
    (:class:`AnonymizationLeakError`): files are assembled in a temporary sibling and moved at the end.
    """
    season_dir, out_dir = Path(season_dir), Path(out_dir)
    mapping_path, log_path = mapping_path_for(out_dir), scrub_log_path_for(out_dir)
    if out_dir.resolve() == season_dir.resolve() or season_dir.resolve() in out_dir.resolve().parents:
        raise ValueError(f"{out_dir}: the anonymized bundle must not be written inside the season {season_dir}")
    if not overwrite:
        for p in (out_dir, mapping_path, log_path):
            if p.exists():
                raise FileExistsError(f"{p} exists (pass overwrite=True to replace it)")

    bundle = load_bundle(season_dir)
    anonymizer = Anonymizer.for_season(
        bundle.info, bundle.contestants, seed, extra_allowlist, protect_issuer_brands=protect_issuer_brands
    )

    decisions = []
    records = []
    for d in bundle.decisions:
        anon, record = anonymizer.anonymize_decision(d)
        decisions.append((anon, d.line))
        records.append(record)
    decisions.sort(key=lambda x: (x[0].decided_at, x[0].contestant_id, x[1]))

    leaks: list[tuple[str, int, str, str]] = []
    lines: list[str] = []
    authors = {c.id: c for c in bundle.contestants}
    for out_line, (anon, _) in enumerate(decisions, 1):
        texts = {"rationale": anon.rationale, "context": anon.context}
        for i, a in enumerate(anon.allocation or []):
            texts[f"allocation[{i}].rationale"] = a.rationale
        author = authors[anonymizer.contestant_of(anon.contestant_id)]
        guard = LeakGuard.for_author(author.provider_family, author.model, bundle.info.symbols())
        for fld, text in texts.items():
            for leak in anonymizer.find_leaks(text or ""):
                leaks.append(("decisions.jsonl", out_line, fld, leak))
            for why in guard.find(text or ""):  # the independent check (grader/anonymizer/_guard.py)
                leaks.append(("decisions.jsonl", out_line, fld, f"leak guard: {why}"))
        # no decision timings: efficiency is computed outside the judge, and latency differs by family
        payload = anon.model_dump(mode="json", exclude={"line", "decision_seconds"}, exclude_none=True)
        lines.append(json.dumps(payload, ensure_ascii=False, sort_keys=False))
    anon_contestants = [c.model_dump() for c in anonymizer.anonymized_contestants()]
    contestants_text = yaml.safe_dump(anon_contestants, sort_keys=False, allow_unicode=True)
    for i, leak in enumerate(anonymizer.find_leaks(contestants_text)):
        leaks.append(("contestants.yaml", i + 1, "", leak))
    if leaks:
        raise AnonymizationLeakError(leaks)
    season_yaml_mentions = anonymizer.mentions((season_dir / "season.yaml").read_text(encoding="utf-8"))

    by_id = bundle.contestant_by_id
    mapping = {
        "warning": MAPPING_WARNING,
        "season_id": bundle.info.id,
        "seed": seed,
        "source_content_hash": bundle.content_hash,
        "judge_view": out_dir.name,
        "neutral_ids": _neutral_ids(bundle),
        "allowlist": list(anonymizer.allowlist),
        "aliases": [
            {
                "alias": a.alias,
                "alias_id": a.alias_id,
                "contestant_id": a.contestant_id,
                "display_name": by_id[a.contestant_id].display_name,
                "provider_family": by_id[a.contestant_id].provider_family,
                "model": by_id[a.contestant_id].model,
            }
            for a in anonymizer.assignments
        ],
    }

    # no public id reaches the judge's view: a round id with an allocation finds a model in the round's published
    # results, a season id names the competition; both become neutral labels (the map stays grader-side)
    neutral = _neutral_ids(bundle)
    files = {
        "season.yaml": _neutralise(_judge_season_yaml(season_dir / "season.yaml"), neutral),
        "contestants.yaml": contestants_text,
        "decisions.jsonl": _neutralise("\n".join(lines) + "\n", neutral),
    }
    for src in sorted((season_dir / "market").iterdir()):
        if src.is_file() and not src.is_symlink():  # a link is never read (load_bundle refused it)
            files[f"market/{src.name}"] = _neutralise(src.read_text(encoding="utf-8"), neutral)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tag = f".tmp-{os.getpid()}"
    tmp_map = mapping_path.parent / f".{mapping_path.name}{tag}"
    tmp_log = log_path.parent / f".{log_path.name}{tag}"
    try:
        tmp_map.write_text(json.dumps(mapping, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        tmp_log.write_text(
            "".join(r.model_dump_json() + "\n" for r in records),
            encoding="utf-8",
        )
        write_bundle(out_dir, files, overwrite=True)  # all or nothing (grader.season's bundle writer)
        tmp_map.replace(mapping_path)
        tmp_log.replace(log_path)
    finally:
        for p in (tmp_map, tmp_log):
            p.unlink(missing_ok=True)

    return AnonymizedBundle(
        out_dir=out_dir,
        mapping_path=mapping_path,
        scrub_log_path=log_path,
        contestants=len(anon_contestants),
        decisions=len(lines),
        replacements=sum(r.count for r in records),
        season_yaml_mentions=season_yaml_mentions,
        by_kind=dict(Counter(x.kind for r in records for reps in r.fields.values() for x in reps)),
        kept=dict(Counter(k.original for r in records for ks in r.kept.values() for k in ks).most_common()),
    )
