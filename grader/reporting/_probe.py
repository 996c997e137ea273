"""The identity probe on a season's anonymized rationales (what the judges see, decision by decision)."""

from __future__ import annotations

from pathlib import Path

from audits import IdentityProbe, stylometric_probe


def season_identity_probe(season_dir: Path | str, rubric_name: str = "v0.4", seed: int = 0) -> IdentityProbe | None:
    """Anonymize every decision as a grading run does, then probe whether style reveals the provider family.
    Groups are rounds (a rounds season) or decision days (a trading season)."""
    from grader.anonymizer import Anonymizer
    from grader.panel import anonymizer_seed
    from grader.prompts import PUBLIC_ROUND_ID as _PUBLIC_ROUND_ID
    from grader.season import load_bundle
    from rubric import load_rubric

    bundle = load_bundle(season_dir)
    anon = Anonymizer.for_season(
        bundle.info, bundle.contestants, seed=anonymizer_seed(bundle, load_rubric(rubric_name))
    )
    family = {c.id: c.provider_family for c in bundle.contestants}
    texts, families, groups = [], [], []
    for d in bundle.decisions:
        shown, _ = anon.anonymize_decision(d)
        texts.append(_PUBLIC_ROUND_ID.sub("a round", shown.rationale))
        families.append(family[d.contestant_id])
        groups.append(d.round_id or d.decided_at.date().isoformat())
    return stylometric_probe(texts, families, groups, seed=seed)


def run_identity_probe(run_id: str, db_url: str | None = None) -> IdentityProbe | None:
    """The probe for a stored run's season (None when its bundle moved or there is too little to test)."""
    from grader.season import BundleError
    from grader.storage import RunRow, SeasonRow, session_scope

    with session_scope(db_url) as s:
        run = s.get(RunRow, run_id)
        if run is None:
            return None
        season = s.get_one(SeasonRow, run.season_id)
        source, rubric = season.source_path, run.rubric_id
    try:
        return season_identity_probe(source, rubric)
    except (BundleError, OSError, ValueError):
        return None
