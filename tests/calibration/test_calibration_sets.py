"""Calibration sets: a seeded, stratified draw of reference items; a derived bundle whose contestants are the
items; item-sized prompts graded through the ordinary pipeline; human grades on the same items; the item-level
statistics checked against a hand computation."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml
from sqlalchemy import select

from grader.calibration import SampleError, build_set, calibration_set_of, grade_set, sample_items
from grader.panel import grade_season
from grader.season import load_bundle
from grader.storage import CalibrationSetRow, JudgeCallRow, PromptRow, session_scope

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "seasons" / "demo-2022q1"


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The demo season graded by the reference judge (the source run of the sets)."""
    tmp = tmp_path_factory.mktemp("calibration")
    url = f"sqlite:///{tmp / 'grader.db'}"
    grade_season(DEMO, rubric_name="v0.4", panel_name="reference", run_id="src", db_url=url, progress=False)
    return url, tmp


def test_a_draw_is_seeded_stratified_and_never_overlaps(graded):
    url, _ = graded
    bundle = load_bundle(DEMO)
    a, method = sample_items("src", 20, window=2, seed=1, db_url=url, bundle=bundle)
    again, _ = sample_items("src", 20, window=2, seed=1, db_url=url, bundle=bundle)
    other, _ = sample_items("src", 20, window=2, seed=2, db_url=url, bundle=bundle)
    key = [(i.contestant, i.first, i.last, i.label) for i in a]
    assert key == [(i.contestant, i.first, i.last, i.label) for i in again]  # the same seed, the same set
    assert key != [(i.contestant, i.first, i.last, i.label) for i in other]
    assert len(a) == 20 and [i.label for i in a] == [f"Item {k:02d}" for k in range(1, 21)]
    per = {c.id: [i for i in a if i.contestant == c.id] for c in bundle.contestants}
    assert all(len(v) in (2, 3) for v in per.values())  # 20 items over 7 contestants: every one covered
    for items in per.values():
        spans = sorted((i.first, i.last) for i in items)
        assert all(x[1] < y[0] for x, y in zip(spans, spans[1:], strict=False))  # non-overlapping
        assert all(i.last - i.first == 1 for i in items)
        for i in items:  # the decision keys are the contestant's consecutive decisions
            keys = [d.key for d in bundle.decisions_of(i.contestant)]
            assert i.decision_keys == keys[i.first : i.last + 1]
    assert "seed 1" in method and "7 contestant(s) covered" in method
    with pytest.raises(SampleError, match="room for"):
        sample_items("src", 10_000, db_url=url, bundle=bundle)


def test_the_disagreement_stratum_takes_a_contestants_most_disputed_window(graded):
    from grader.calibration._sample import _disagreements
    from grader.pit import MARKET_TZ
    from grader.storage import ContestantRow, RunRow

    url, _ = graded
    bundle = load_bundle(DEMO)
    items, _ = sample_items("src", 14, window=1, seed=0, db_url=url, bundle=bundle)
    with session_scope(url) as s:
        run = s.get(RunRow, "src")
        rows = {
            c.id: c.contestant_key
            for c in s.scalars(select(ContestantRow).where(ContestantRow.season_id == run.season_id))
        }
        counts = _disagreements(s, "src", rows)
    disputed = 0
    for contestant in {i.contestant for i in items}:
        days = [d.decided_at.astimezone(MARKET_TZ).date() for d in bundle.decisions_of(contestant)]
        best = max(counts.get((contestant, day), 0) for day in days)
        mine = [i for i in items if i.contestant == contestant and i.stratum == "judges disagree most"]
        if best > 0:
            disputed += 1
            assert mine and mine[0].disagreement == best
        else:
            assert not mine
    assert disputed  # the demo run has disputed days: the stratum is exercised, not vacuously true


def test_a_set_is_a_valid_bundle_of_items_and_its_prompts_are_item_sized(graded):
    url, tmp = graded
    made = build_set("src", 8, window=2, seed=4, set_id="s8", out=tmp / "s8", db_url=url)
    derived = load_bundle(tmp / "s8")
    meta = yaml.safe_load((tmp / "s8" / "calibration.yaml").read_text())
    assert meta["source_run"] == "src" and meta["seed"] == 4 and len(meta["items"]) == 8
    assert {c.id for c in derived.contestants} == {i["item_id"] for i in made["items"]}
    source = load_bundle(DEMO)
    for item in made["items"]:  # the record up to the item, so holdings are the source's; the item's own last
        prefix = derived.decisions_of(item["item_id"])
        assert len(prefix) == item["last"] + 1
        assert [d.rationale for d in prefix] == [d.rationale for d in source.decisions_of(item["contestant"])][
            : item["last"] + 1
        ]
        assert set(item["rationales"]) == set(item["decision_keys"]) and all(item["snapshot"].values())
    with session_scope(url) as s:
        assert s.get(CalibrationSetRow, "s8").bundle_hash == derived.content_hash
    assert build_set("src", 8, window=2, seed=4, set_id="s8", db_url=url)["existing"]  # the same draw: a no-op
    with pytest.raises(FileExistsError, match="other parameters"):
        build_set("src", 8, window=2, seed=5, set_id="s8", out=tmp / "s8b", db_url=url)

    report = grade_set("s8", db_url=url, progress=False)
    assert report.status == "complete" and report.run_id == "s8-reference"
    assert calibration_set_of("s8-reference", url)["set_id"] == "s8"
    with session_scope(url) as s:
        sizes = {}
        for call in s.scalars(select(JudgeCallRow).where(JudgeCallRow.run_id.in_(["src", "s8-reference"]))):
            sizes.setdefault(call.run_id, []).append(s.get(PromptRow, call.prompt_sha256).token_estimate)
        prompt = s.get(
            PromptRow,
            s.scalars(select(JudgeCallRow.prompt_sha256).where(JudgeCallRow.run_id == "s8-reference")).first(),
        )
    assert max(sizes["s8-reference"]) * 4 < min(sizes["src"])  # an item is a small fraction of a record
    assert "Reference item: Item" in prompt.user and "Score the outcome axis null" in prompt.user
    assert prompt.user.count("\n## Decision ") == 2  # the window's two decisions, nothing else of the record
    assert "Process facts at decision time: NAV" in prompt.user  # the state before each decision


def _icc2_1(x: np.ndarray, y: np.ndarray) -> float:
    """ICC(2,1) by hand: two-way random effects, absolute agreement, single rater (Shrout & Fleiss)."""
    data = np.column_stack([x, y])
    n, k = data.shape
    grand = data.mean()
    msr = k * ((data.mean(axis=1) - grand) ** 2).sum() / (n - 1)
    msc = n * ((data.mean(axis=0) - grand) ** 2).sum() / (k - 1)
    sse = ((data - data.mean(axis=1, keepdims=True) - data.mean(axis=0, keepdims=True) + grand) ** 2).sum()
    mse = sse / ((n - 1) * (k - 1))
    return (msr - mse) / (msr + (k - 1) * mse + k * (msc - mse) / n)


def _quadratic_kappa(a: list[str], b: list[str], order: list[str]) -> float:
    idx = {c: i for i, c in enumerate(order)}
    m = len(order)
    observed = np.zeros((m, m))
    for u, v in zip(a, b, strict=True):
        observed[idx[u], idx[v]] += 1
    observed /= observed.sum()
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0))
    w = np.array([[(i - j) ** 2 for j in range(m)] for i in range(m)], dtype=float)
    return 1 - (w * observed).sum() / (w * expected).sum()


def test_human_grades_on_the_items_give_the_hand_computed_item_statistics(graded, tmp_path, monkeypatch):
    from audits import band_of, build_report
    from console import AnnotatorDirectory, HumanGradeInput, calibration_items, record_human_grade
    from grader.reporting import collect_audit_inputs

    url, tmp = graded
    build_set("src", 10, window=1, seed=9, set_id="s10", out=tmp / "s10", db_url=url)
    grade_set("s10", db_url=url, progress=False)
    run = "s10-reference"
    path = tmp_path / "annotators.yaml"
    directory = AnnotatorDirectory(path)
    tokens = {name: directory.add(name) for name in ("ann", "bea")}
    monkeypatch.setenv("GRADER_ANNOTATORS_FILE", str(path))
    ann, bea = (directory.sign_in(n, tokens[n]) for n in ("ann", "bea"))

    inputs = collect_audit_inputs(run, url)
    main = inputs.scores[inputs.scores["repeat"] == 0].set_index("contestant_id")
    items = calibration_items(run, url)
    assert [i.alias for i in items] == [f"Item {k:02d}" for k in range(1, 11)]
    keys = {i.contestant_row_id: f"item-{i.number:02d}" for i in items}
    rng = np.random.default_rng(5)
    human: dict[str, list[float]] = {}
    for item in items:
        judge = float(main.loc[keys[item.contestant_row_id], "reasoning"])
        first = float(np.clip(round(judge + rng.normal(-6, 8)), 0, 100))
        record_human_grade(ann, run, item.contestant_row_id, HumanGradeInput(reasoning=first, evidence=50), url)
        grades = [first]
        if item.number <= 4:  # four items graded by a second annotator as well
            second = float(np.clip(round(judge + rng.normal(3, 8)), 0, 100))
            record_human_grade(bea, run, item.contestant_row_id, HumanGradeInput(reasoning=second, evidence=55), url)
            grades.append(second)
        human[keys[item.contestant_row_id]] = grades

    inputs = collect_audit_inputs(run, url)
    report = build_report(inputs)
    row = next(r for r in report.calibration.judges if r.rater == "reference" and r.axis == "reasoning")
    ids = sorted(human)
    judge = np.array([float(main.loc[i, "reasoning"]) for i in ids])
    ref = np.array([np.mean(human[i]) for i in ids])
    diff = judge - ref
    assert row.n_items == 10
    assert row.mean_bias == pytest.approx(diff.mean())
    assert row.loa_low == pytest.approx(diff.mean() - 1.96 * diff.std(ddof=1))
    assert row.loa_high == pytest.approx(diff.mean() + 1.96 * diff.std(ddof=1))
    assert row.icc2_1 == pytest.approx(_icc2_1(judge, ref), abs=1e-9)
    from audits._inputs import sorted_bands

    order = [b.name for b in reversed(sorted_bands(inputs.bands))]
    assert row.weighted_kappa == pytest.approx(
        _quadratic_kappa([band_of(v, inputs.bands) for v in judge], [band_of(v, inputs.bands) for v in ref], order)
    )
    pair = next(r for r in report.calibration.human_baseline if r.axis == "reasoning")
    both = [i for i in ids if len(human[i]) == 2]
    d2 = np.array([human[i][0] - human[i][1] for i in both])
    assert (pair.rater, pair.reference, pair.n_items) == ("ann", "bea", 4)
    assert pair.mean_bias == pytest.approx(d2.mean())
    assert report.calibration.items_per_annotator == {"ann": 10, "bea": 4}
    assert report.calibration_set["set_id"] == "s10"

    from audits import render_markdown

    text = render_markdown(report)
    assert "reference items of calibration set s10" in text and "Items graded per annotator: ann 10, bea 4" in text
    assert "drawn from run src with seed 9" in text


def test_items_of_a_real_rounds_season_keep_allocations_and_are_blind(tmp_path):
    """CapitalBench rounds (real LLM decisions): an item is one allocation with each holding's rationale, as the
    judges see it, and nothing stored for the console names the model."""
    url = f"sqlite:///{tmp_path / 'cb.db'}"
    season = ROOT / "seasons" / "cb-2026-06-1w"
    grade_season(season, rubric_name="v0.4", panel_name="reference", run_id="cb", db_url=url, progress=False)
    made = build_set("cb", 6, window=1, seed=3, set_id="cb6", out=tmp_path / "cb6", db_url=url)
    people = load_bundle(season).contestants
    assert {i["contestant"] for i in made["items"]} == {c.id for c in people}  # 6 items, 6 contestants
    for item in made["items"]:
        (key,) = item["decision_keys"]
        allocation = item["allocations"][key]
        assert allocation and abs(sum(a["weight"] for a in allocation) - 1) < 1e-6
        shown = item["rationales"][key] + " ".join(a.get("rationale", "") for a in allocation)
        for c in people:
            assert c.display_name not in shown and c.model not in shown
    report = grade_set("cb6", db_url=url, progress=False)
    assert report.status == "complete"
