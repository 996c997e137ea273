"""Issue 36: a property-based fuzzer over bundles and rubric files (tests/season/_fuzz.py), small budget here; the
large run (10,000 bundles) is benchmarks/bench_fuzz_bundles.py. Every generated bundle is refused with BundleError
(and grading it writes nothing) or validates and yields everything a grading run derives; a rubric loads or is
refused with RubricError; never another exception."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings

from tests.season._fuzz import bundles, check_bundle, check_rubric, gentle_bundles, rubric_mutations

RUBRIC = (Path(__file__).resolve().parents[2] / "rubric" / "versions" / "v0.4.yaml").read_text(encoding="utf-8")


@settings(max_examples=80, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(bundles)
def test_every_generated_bundle_is_refused_cleanly_or_validates(bundle):
    assert check_bundle(*bundle) in ("refused", "valid")


@settings(max_examples=6, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(gentle_bundles)
def test_a_generated_bundle_that_validates_is_graded_and_reported(bundle):
    assert check_bundle(*bundle, grade=True) in ("refused", "valid")


@settings(max_examples=60, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(rubric_mutations())
def test_every_generated_rubric_loads_or_is_refused_cleanly(ops):
    assert check_rubric(RUBRIC, ops) in ("refused", "valid")
