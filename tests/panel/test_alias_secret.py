"""Issue 30, structural identity: the aliases a judge sees are ordered by a seed that includes a per-season secret
kept grader-side (``alias_secrets``), so nobody holding the public inputs (season id, contestant ids, rubric) can
recompute which contestant an alias is; one database keeps the same secret, so a re-grade reuses its cached calls."""

from __future__ import annotations

from sqlalchemy import select

from grader.anonymizer import Anonymizer
from grader.panel import grade_season
from grader.panel._prompts import anonymizer_seed
from grader.season import load_bundle
from grader.storage import AliasSecretRow, ContestantRow, JudgeCallRow, PromptRow, RunRow, session_scope
from rubric import load_rubric


def _grade(season, db, run_id):
    return grade_season(
        season, rubric_name="v0.4", panel_name="mock", run_id=run_id, run_type="official", db_url=db, progress=False
    )


def test_the_alias_seed_holds_a_secret_kept_with_the_database(season, tmp_path):
    one, two = f"sqlite:///{tmp_path / 'one.db'}", f"sqlite:///{tmp_path / 'two.db'}"
    _grade(season, one, "a")
    _grade(season, one, "b")
    _grade(season, two, "a")
    with session_scope(one) as s:
        [secret_one] = [r.secret for r in s.scalars(select(AliasSecretRow))]
        manifests = [str(r.manifest) + str(r.notes) for r in s.scalars(select(RunRow))]
        stored = " ".join(p.system + p.user for p in s.scalars(select(PromptRow)))
    with session_scope(two) as s:
        [secret_two] = [r.secret for r in s.scalars(select(AliasSecretRow))]
    assert len(secret_one) == 64 and secret_one != secret_two  # 32 random bytes per season and database
    assert not any(secret_one in m for m in manifests) and secret_one not in stored  # never shown
    bundle, rubric = load_bundle(season), load_rubric("v0.4")
    assert anonymizer_seed(bundle, rubric, secret_one) != anonymizer_seed(bundle, rubric)  # not the public seed
    assert anonymizer_seed(bundle, rubric, secret_one).startswith(secret_one)
    # the prompts name each contestant by the alias the secret orders; the same database grades the same prompts
    # again (its cache serves them)
    anon = Anonymizer.for_season(bundle.info, bundle.contestants, seed=anonymizer_seed(bundle, rubric, secret_one))
    with session_scope(one) as s:
        calls = [
            (c.run_id, s.get(ContestantRow, c.contestant_id).contestant_key, c.prompt_sha256)
            for c in s.scalars(select(JudgeCallRow))
        ]
        for _, cid, sha in calls:
            assert anon.alias_of(cid) in s.get(PromptRow, sha).user
    by_run = {run: {(cid, sha) for r, cid, sha in calls if r == run} for run in ("a", "b")}
    assert by_run["a"] == by_run["b"] and by_run["a"]
