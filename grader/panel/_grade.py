"""``grade_season``: one grading run end to end, resumable, with a manifest.

Steps: validate the bundle (an invalid bundle writes nothing) → replay → anonymize + build prompts →
import the season and open (or resume) the run → judge calls (reference, mock fakes or providers) →
grades + verified ledgers → a scored version of the run → manifest with hashes.

This module refuses what must be refused and builds the prompts (``_run_checks``); the run itself, once nothing can
refuse it, is ``_run_calls``, its rows ``_run_rows``, what it reports ``_run_report``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from grader.judges import MissingApiKey, missing_api_keys
from grader.panel._config import PanelConfig, load_panel
from grader.panel._prompts import PromptStream, prompt_builder
from grader.panel._prompts import headroom as window_headroom
from grader.panel._prompts import too_long as find_too_long
from grader.panel._run_calls import run_calls
from grader.panel._run_checks import check_batch_panel, effective_run_type, panel_fit
from grader.panel._run_report import GradeReport, RunError
from grader.panel._run_rows import mark_run
from grader.panel._windowed import plan_windowed, windowed_note
from grader.season import load_bundle
from grader.storage import alias_secret
from rubric import grade_json_schema, load_rubric

if TYPE_CHECKING:
    from grader.prompts import JudgePrompt

__all__ = ["grade_season"]


def grade_season(
    season_dir: Path,
    *,
    rubric_name: str,
    panel_name: str,
    run_id: str,
    run_type: str = "official",
    repeats: int = 1,
    allow_real_api_calls: bool = False,
    db_url: str | None = None,
    progress: bool = True,
    console=None,
    bundle=None,
    prepared: tuple[Mapping, Mapping, bool, dict[str, JudgePrompt]] | None = None,
    extra_notes: list[str] | None = None,
    reference_bundle=None,
    batch: bool = False,
    wait: bool = False,
    poll_s: float = 30.0,
    on_poll=None,
    on_calls_start=None,
) -> GradeReport:
    """Grade ``season_dir`` (or an already validated ``bundle`` of it) and store the run.

    Everything that can refuse the run does so before anything is written: the bundle, the rubric, the panel (and
    whether it fits the rubric), missing API keys (all named), prompts over a judge's context window, identity
    leaks, and another process holding the run (``RunBusy``).

    ``prepared`` = (replays, outcomes, pending, prompts by contestant id) replaces the season's own prompts (a
    calibration set's items: ``grader.calibration``), ``reference_bundle`` what the reference judge (and the mock
    judges scripted from it) grade; ``extra_notes`` are stored with the run.

    ``batch``: judge calls go through the providers' batch APIs (``grader.panel._batch``): submitted, then collected
    by this call when ``wait`` (polling every ``poll_s`` s; ``on_poll(progress)`` after each step) or later by
    calling again (``grader batch collect``); the run stays ``batch_pending`` until every task is settled. A mock
    panel always waits (its fake servers live in this process).

    ``on_calls_start()``: called once everything is set up, just before the first judge call (the CLI resumes
    garbage collection there: ``grader.cli._gc``)."""
    from grader.judges.reference import ReferenceJudge
    from grader.panel._lease import acquire_lease

    bundle = bundle or load_bundle(season_dir)  # BundleError: nothing written
    rubric = load_rubric(rubric_name)
    panel = panel_name if isinstance(panel_name, PanelConfig) else load_panel(panel_name)
    kind = effective_run_type(panel, run_type, allow_real_api_calls)
    if batch:
        check_batch_panel(panel)
        if panel.kind == "mock":  # its fake servers live in this process, and end their batches at once
            wait, poll_s = True, min(poll_s, 0.2)
    dry = kind == "dry-run"
    if repeats < 1:
        raise RunError("--repeats must be at least 1")
    if repeats > 1 and kind not in ("stability", "mock", "baseline", "dry-run"):
        raise RunError("--repeats > 1 is for stability runs (--run-type stability)")
    notes = panel_fit(rubric, panel) + list(extra_notes or [])
    if panel.kind == "real" and not dry:
        missing = missing_api_keys(list(panel.judges))
        if missing:
            raise MissingApiKey(
                "no API key in the environment for: "
                + "; ".join(missing)
                + " (set each variable; keys are read from the environment only)"
            )
    # Streaming: a contestant's calls leave as soon as its prompt is built. Not for a dry run (it shows every
    # prompt's size), batches (one submission), prepared items, the reference judge (no calls), or a panel with
    # context windows (every prompt is counted against them before anything is sent).
    stream = (
        not dry
        and not batch
        and prepared is None
        and panel.kind != "reference"
        and all(j.context_window is None for j in panel.judges)
    )
    too_long: list[str] = []
    room: list[dict] = []
    windowed: dict = {}
    # the season's alias secret (grader-side, created once): aliases no one can recompute from public inputs
    secret = alias_secret(bundle.info.id, db_url) if rubric.panel.anonymize and prepared is None else ""
    prompts: PromptStream | dict[str, JudgePrompt]
    if stream:
        replays, outcomes, pending, builder = prompt_builder(bundle, rubric, secret)
        prompts = PromptStream(builder, [c.id for c in bundle.contestants])
    else:
        # the naive-dump sizes are for a dry run's savings table: a paid run skips that second rendering
        if prepared:
            replays, outcomes, pending, prompts = prepared
            builder = None
        else:
            replays, outcomes, pending, builder = prompt_builder(bundle, rubric, secret)
            prompts = {c.id: builder.build(c.id, naive=dry) for c in bundle.contestants}
        leaks = {cid: p.leaks for cid, p in prompts.items() if p.leaks}
        if leaks:
            raise RunError("identity leak in a judge prompt (refusing to send): " + json.dumps(leaks)[:500])
        too_long = find_too_long(prompts, panel)
        if too_long and builder is not None:  # graded in windows, then a whole-horizon pass (labelled, never cut)
            windowed, too_long = plan_windowed(builder, prompts, panel)
            if any(c.leaks for chain in windowed.values() for c in chain.prompts):
                raise RunError("identity leak in a window of a judge prompt (refusing to send)")
            notes = notes + [windowed_note(judge, cid, chain.plan) for (judge, cid), chain in sorted(windowed.items())]
            if windowed and batch:
                raise RunError(
                    "records graded in windows ("
                    + "; ".join(f"{c} for {j}" for j, c in windowed)
                    + ") are graded synchronously: their whole-horizon pass is built from the windows' "
                    "replies; grade without --batch"
                )
        room = window_headroom(prompts, panel, windowed)
        if too_long and not dry:
            raise RunError("prompt over a judge's context window (refusing before any call): " + "; ".join(too_long))
    schema = grade_json_schema(rubric)
    reference = ReferenceJudge(reference_bundle or bundle, rubric, replays, outcomes, pending)
    report = GradeReport(run_id, kind, panel.name, dry, notes=notes + [f"would not fit: {t}" for t in too_long])
    report.headroom = room

    lease = acquire_lease(run_id, db_url)  # RunBusy: another process holds this run; nothing written
    with lease:  # released however the run ends (an interrupt included), after the run is marked
        if lease.taken_over:
            report.notes.append(f"resumed after its earlier process ({lease.taken_over}) stopped")
        try:
            run_calls(
                season_dir,
                bundle,
                rubric,
                panel,
                kind,
                run_id,
                repeats,
                allow_real_api_calls,
                db_url,
                progress,
                console,
                schema,
                reference,
                prompts,
                outcomes,
                pending,
                report,
                notes,
                windowed,
                batch={"wait": wait, "poll_s": poll_s, "on_poll": on_poll} if batch else None,
                on_calls_start=on_calls_start,
            )
        except KeyboardInterrupt:  # Ctrl-C, or SIGTERM in the CLI (grader.cli._signals)
            mark_run(db_url, run_id, "interrupted")
            raise
    report.tokens_per_contestant = {  # both at four characters a token, so the saving compares like with like
        cid: {"prompt_tokens": p.token_estimate, "naive_tokens": p.naive_token_estimate} for cid, p in prompts.items()
    }
    return report
