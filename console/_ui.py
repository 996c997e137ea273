"""Streamlit pieces shared by the pages: cached loads, the sidebar (sign-in, run picker), run banners.

Reads are cached with ``st.cache_data`` keyed by the database URL (and, where data can change, by a
cheap stamp such as the latest scored version or the human-grade count); writes go straight to the
database and are never cached.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from console import _nav, _queries, _state
from console import _prewarm as _prewarm_module
from console._audit_jobs import AuditJobs, AuditKey, build_audit_document
from console._blind import Blind, blinding
from console._prewarm import Prewarm
from console._sign_in import ANNOTATOR_KEY, browser_sessions, sidebar_sign_in, signed_in
from console._state import CONTESTANT_KEY, RUN_KEY
from console._text import figures, gray, markdown_table, md, plain, png, split_wide, unique_headers
from console._warmup import RunWarmup
from console._worker_client import Worker
from grader.storage import database_url

__all__ = [  # the page-state keys (kept in the URL by console._state) and the helpers that live in their own modules
    "ANNOTATOR_KEY",
    "CONTESTANT_KEY",
    "RUN_KEY",
    "AuditJobs",
    "AuditKey",
    "RunWarmup",
    "Worker",
    "build_audit_document",
    "browser_sessions",
    "figures",
    "gray",
    "markdown_table",
    "md",
    "plain",
    "png",
    "sidebar_sign_in",
    "signed_in",
    "split_wide",
    "unique_headers",
]


def db_url() -> str:
    """The database of this session (``GRADER_DATABASE_URL``, default SQLite ``grader.db``)."""
    return database_url()


# ------------------------------------------------------------------------------------ cached reads


@st.cache_data(ttl=20, show_spinner=False)
def runs(url: str) -> list[_queries.RunSummary]:
    return _queries.list_runs(url)


def grade_stamp(run_id: str) -> tuple[int, int]:
    """(count, highest id) of the run's human grades, read once per page view: the key of every cached read that a
    new human grade changes (the calibration queue, an annotator's grades, the blind view)."""
    memo = st.session_state.setdefault("_grade_stamps", {})
    view = st.session_state.get("_view_id")
    if memo.get("view") != view:
        memo.clear()
        memo["view"] = view
    if run_id not in memo:
        memo[run_id] = _queries.human_grade_stamp(run_id, db_url())
    return memo[run_id]


def new_view() -> None:
    """Mark the start of a page view (a script run): per-view memos such as :func:`grade_stamp` start afresh."""
    st.session_state["_view_id"] = st.session_state.get("_view_id", 0) + 1


def blind(run: _queries.RunSummary) -> Blind:
    """What the signed-in annotator (or a reader not signed in) may not see of the run yet (blind calibration);
    every cached read below that names a contestant or shows a judge's grade is keyed by it."""
    who = signed_in()
    return _blinding(db_url(), run.run_id, who.name if who else None, grade_stamp(run.run_id))


@st.cache_data(ttl=600, show_spinner=False, max_entries=64)
def calibration_items(url: str, run_id: str, stamp: tuple[int, int]) -> list[_queries.CalibrationItem]:
    """The run's calibration items and who graded each (keyed by the human-grade stamp)."""
    return _queries.calibration_items(run_id, url)


@st.cache_data(ttl=600, show_spinner=False, max_entries=512)
def human_grades(
    url: str, run_id: str, contestant_row_id: int, annotator: str, stamp: tuple[int, int]
) -> list[_queries.HumanGradeView]:
    """One annotator's grades of one item (keyed by the human-grade stamp)."""
    return _queries.human_grades(run_id, contestant_row_id, annotator, url)


@st.cache_resource(show_spinner=False)
def rubric(rubric_id: str):  # noqa: ANN201 - rubric.Rubric
    from rubric import load_rubric

    return load_rubric(rubric_id)


@st.cache_data(ttl=600, show_spinner=False, max_entries=256)
def _blinding(url: str, run_id: str, viewer: str | None, stamp: tuple[int, int]) -> Blind:
    return blinding(run_id, viewer, url)


@st.cache_data(ttl=600, show_spinner=False, max_entries=64)
def leaderboard(url: str, run_id: str, version: int | None, blind: Blind) -> tuple[dict[str, Any], pd.DataFrame]:
    """The leaderboard's scores (its process and risk columns empty: :func:`process_facts_if_ready` fills them)."""
    return _queries.leaderboard(run_id, url, blind=blind, facts={})


@st.cache_data(ttl=600, show_spinner=False, max_entries=64)
def contestants(url: str, run_id: str, blind: Blind) -> list[_queries.ContestantRef]:
    return _queries.run_contestants(run_id, url, blind=blind)


@st.cache_data(ttl=600, show_spinner=False, max_entries=64)
def contestant_keys(url: str, run_id: str) -> frozenset[str]:
    """The contestant ids of a run's season (ids only: they name no author)."""
    return frozenset(c.key for c in _queries.run_contestants(run_id, url))


@st.cache_data(ttl=600, show_spinner=False, max_entries=256)
def judge_grades(url: str, run_id: str, contestant_row_id: int, blind: Blind) -> list[_queries.JudgeGradeView]:
    return _queries.judge_grades(run_id, contestant_row_id, url, blind=blind)


@st.cache_data(ttl=600, show_spinner=False, max_entries=256)
def contestant_score(url: str, run_id: str, contestant_row_id: int, version: int | None, blind: Blind) -> dict | None:
    return _queries.contestant_score(run_id, contestant_row_id, url, blind=blind)


@st.cache_data(ttl=600, show_spinner=False, max_entries=256)
def decision_timeline(url: str, contestant_row_id: int, blind: Blind) -> pd.DataFrame:
    return _queries.decision_timeline(contestant_row_id, url, blind=blind)


@st.cache_data(ttl=3600, show_spinner=False, max_entries=8)
def season_prices(source_path: str, sha256: str | None) -> pd.DataFrame:
    return _nav.season_prices(source_path, sha256)


@st.cache_data(ttl=3600, show_spinner=False, max_entries=256)
def contestant_nav(url: str, contestant_row_id: int) -> _nav.NavResult:
    from grader.storage import ContestantRow, SeasonRow, session_scope

    with session_scope(url) as s:
        c = s.get(ContestantRow, contestant_row_id)
        season = s.get(SeasonRow, c.season_id) if c is not None else None
        source = season.source_path if season else ""
        sha = (season.file_hashes or {}).get(_nav.PRICES) if season else None
        rounds = season is not None and (season.info or {}).get("format") == "rounds"
    if rounds:  # no daily NAV, and no prices file needed to say so (the page shows the outcome per round)
        return _nav.contestant_nav(contestant_row_id, url)
    try:
        prices = season_prices(source, sha)
    except (OSError, ValueError) as exc:
        return _nav.NavResult(available=False, reason=str(exc))
    return _nav.contestant_nav(contestant_row_id, url, prices=prices)


@st.cache_data(ttl=3600, show_spinner=False, max_entries=256)
def nav_chart(url: str, contestant_row_id: int, blind: Blind) -> str | None:
    """The contestant's NAV against the benchmark with its trades marked, as an SVG (None when there is no NAV)."""
    nav = contestant_nav(url, contestant_row_id)
    if not nav.available or nav.frame is None:
        return None
    timeline = decision_timeline(url, contestant_row_id, blind)
    trade_dates = [d.date() for d in timeline.loc[timeline["trades"] > 0, "decided_at"]] if len(timeline) else []
    return _nav.nav_chart_svg(nav.frame, trade_dates)


@st.cache_data(ttl=3600, show_spinner=False, max_entries=256)
def round_outcomes(url: str, contestant_row_id: int) -> pd.DataFrame:
    try:
        return _nav.round_outcomes(contestant_row_id, url)
    except (OSError, ValueError, KeyError) as exc:
        return pd.DataFrame({"note": [f"per-round outcomes unavailable: {exc}"]})


COMPARISON_NOTE = (
    "Ranked as CapitalBench ranks: inside equal-run comparison sets (a model added later starts a "
    "new set); set score = 100 x Σ returns / Σ oracle returns over the rounds every member completed. "
    "All-rounds figures are each contestant's own history: context, not a ranking surface."
)


@st.cache_data(ttl=3600, show_spinner=False, max_entries=64)
def comparison_sets(url: str, run_id: str) -> pd.DataFrame | None:
    """A rounds season's comparison sets (one row per set and member, best first), or None."""
    from grader.reporting import comparison_set_rows

    rows = comparison_set_rows(run_id, url)
    return None if rows is None else pd.DataFrame(rows)


@st.cache_data(ttl=3600, show_spinner=False, max_entries=256)
def _contestant_facts(url: str, run_id: str, key: str) -> dict[str, Any] | None:
    from grader.reporting import run_process_facts

    return run_process_facts(run_id, url, contestants={key}).get(key)


def contestant_facts(url: str, run_id: str, key: str) -> dict[str, Any] | None:
    """One contestant's process facts (from the trades or allocations, as the judges see them): the run's warm-up's
    when it has them (:func:`warmup_if_ready`), else its own alone (a first view of the run does not wait for every
    contestant's)."""
    ready = warmup_if_ready(url, run_id)
    if ready is not None and key in ready.facts:
        return ready.facts[key]
    return _contestant_facts(url, run_id, key)


def warmup_if_ready(url: str, run_id: str) -> RunWarmup | None:
    """The run's warm-up (every contestant's process facts and risk table) when the background process has computed
    it (once per server process and run, started after the page's script: :func:`prewarm_server`), else None: a page
    draws the rest at once and these when they are ready, or computes its own contestant's."""
    return _prewarm().finished(url, run_id)


def process_facts_if_ready(url: str, run_id: str) -> dict[str, dict[str, Any]] | None:
    """Every contestant's process facts once the run's warm-up is done (:func:`warmup_if_ready`; {} when they could not
    be computed: the cells say "—"), else None."""
    ready = warmup_if_ready(url, run_id)
    return None if ready is None else ready.facts


def stop_polling() -> None:
    """In a fragment rerun by itself every so often (``st.fragment(run_every=...)``) that has what it waited for: stop
    those reruns (the browser's timer), so it redraws only when a person changes something in it. Streamlit has no
    public call for this (its own message is sent when such a fragment is no longer drawn); where its internals differ,
    the fragment keeps rerunning by itself, which only costs time."""
    try:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        ctx = get_script_run_ctx()
        fragment_id = getattr(ctx, "current_fragment_id", None)  # an older Streamlit
        if not fragment_id:
            from streamlit.runtime.scriptrunner_utils.script_run_context import ThreadState

            fragment_id = ThreadState.get().fragment_id
        if ctx is None or not fragment_id:
            return
        msg = ForwardMsg()
        msg.stop_auto_rerun.fragment_ids.append(fragment_id)
        ctx.enqueue(msg)
    except (ImportError, AttributeError, ValueError):  # another Streamlit: the polling simply goes on
        return


def contestant_risk(url: str, run_id: str, contestant_row_id: int) -> tuple[pd.DataFrame, list[str]]:
    """PortBench's risk facts per decision (point-in-time) and the season's risk outcome lines: the run's warm-up's
    when it has them (:func:`warmup_if_ready`), else computed here (the season bundle loaded in this process)."""
    ready = warmup_if_ready(url, run_id)
    if ready is not None and contestant_row_id in ready.risk:
        return ready.risk[contestant_row_id]
    return _contestant_risk(url, contestant_row_id)


@st.cache_data(ttl=3600, show_spinner=False, max_entries=256)
def _contestant_risk(url: str, contestant_row_id: int) -> tuple[pd.DataFrame, list[str]]:
    try:
        return _nav.contestant_risk_table(contestant_row_id, url)
    except (OSError, ValueError, KeyError) as exc:
        return pd.DataFrame({"note": [f"risk evidence unavailable: {exc}"]}), []


@st.cache_data(ttl=600, show_spinner=False, max_entries=32)
def ledger_judges(url: str, run_id: str) -> list[str]:
    return _queries.ledger_judges(run_id, url)


@st.cache_data(ttl=600, show_spinner=False, max_entries=256)
def item_view(url: str, run_id: str, contestant_row_id: int):  # noqa: ANN201 - console._items.CalibrationItemView
    from console._items import item_view as view

    return view(run_id, contestant_row_id, url)


@st.cache_data(ttl=600, show_spinner=False, max_entries=32)
def blind_record(url: str, run_id: str, contestant_row_id: int) -> _queries.BlindRecord | None:
    return _queries.blind_record(run_id, contestant_row_id, url)


@st.cache_resource(show_spinner=False)
def worker() -> Worker:
    """The server's background process (``console._worker``): the runs' warm-ups and the audit reports."""
    return Worker()


@st.cache_resource(show_spinner=False)
def audit_jobs() -> AuditJobs:
    return AuditJobs(worker())


def audit_key(run_id: str, version: int) -> AuditKey:
    """What the audit report of a run's scored version is cached by: the database, the run, the version and the
    human grades so far."""
    return (db_url(), run_id, version, grade_stamp(run_id))


@st.cache_resource(show_spinner=False)
def _prewarm() -> Prewarm:
    return Prewarm(worker())


def prewarm_server(run: _queries.RunSummary | None) -> None:
    """Start the picked run's warm-up in the background process (once per server process and run); in the console
    server, then its audit report (``console._prewarm.BUILD_AUDITS``)."""
    if run is None:
        return
    then = None
    if _prewarm_module.BUILD_AUDITS and run.latest_version is not None:
        jobs, key = audit_jobs(), audit_key(run.run_id, run.latest_version)

        def then() -> None:
            jobs.submit(key)

    _prewarm().run(db_url(), run.run_id, then=then)


@st.cache_data(ttl=600, show_spinner=False, max_entries=32)
def compare_runs(
    url: str, run_a: str, run_b: str, va: int | None, vb: int | None, blind_a: Blind, blind_b: Blind
) -> pd.DataFrame:
    return _queries.compare_runs(run_a, run_b, url, blind_a=blind_a, blind_b=blind_b)


@st.cache_data(ttl=600, show_spinner=False, max_entries=32)
def compare_rubrics(
    url: str, run_id: str, rubric_a: str, rubric_b: str, version: int | None, blind: Blind
) -> pd.DataFrame:
    return _queries.compare_rubrics(run_id, rubric_a, rubric_b, url, blind=blind)


@st.cache_data(ttl=3600, show_spinner=False)
def sub_score_labels(rubric_id: str) -> dict[str, str]:
    """Sub-component id -> label of a rubric (ids shown as they are when the rubric is unknown)."""
    from rubric import load_rubric

    try:
        rubric = load_rubric(rubric_id)
    except Exception:  # noqa: BLE001 - a run graded under a rubric file that moved: show ids
        return {}
    return {s.id: s.label for axis in (rubric.axes.reasoning, rubric.axes.evidence) for s in axis.sub_components}


@st.cache_data(ttl=3600, show_spinner=False)
def rubric_names() -> list[str]:
    from rubric import available_rubrics

    return list(available_rubrics())


# ------------------------------------------------------------------------------------------- runs


def default_run(all_runs: list[_queries.RunSummary]) -> _queries.RunSummary:
    """The run a first visit opens on: the newest with a scored version (a dry run has none), else the newest."""
    return next((r for r in all_runs if r.latest_version is not None), all_runs[0])


def sidebar_run_picker() -> _queries.RunSummary | None:
    """The run every page shows (shared across pages)."""
    url = db_url()
    try:
        all_runs = runs(url)
    except Exception as exc:  # noqa: BLE001 - show the database problem instead of a traceback
        st.sidebar.error(f"Cannot read the database: {exc}")
        return None
    if not all_runs:
        return None
    ids = [r.run_id for r in all_runs]
    by_id = {r.run_id: r for r in all_runs}
    _state.seed(RUN_KEY, ids, "run")
    if st.session_state.get(RUN_KEY) not in by_id:
        _state.default(RUN_KEY, default_run(all_runs).run_id)
    st.sidebar.selectbox("Run", ids, key=RUN_KEY, format_func=lambda r: by_id[r].label)
    _state.remember(RUN_KEY)
    if st.sidebar.button("Refresh data", key="refresh"):
        st.cache_data.clear()
        audit_jobs().forget_failures()
        _prewarm().forget()
        st.rerun()
    return by_id[st.session_state[RUN_KEY]]


def current_run() -> _queries.RunSummary:
    """The picked run, or a message and ``st.stop()`` when the database has none."""
    url = db_url()
    all_runs = runs(url)
    by_id = {r.run_id: r for r in all_runs}
    run = by_id.get(st.session_state.get(RUN_KEY, ""))
    if run is None and all_runs:
        run = default_run(all_runs)
    if run is None:
        st.info(
            f"No grading runs in `{url}` yet. Grade a season first, e.g. "
            "`grader grade seasons/demo-2022q1 --panel reference --run-id demo-ref`."
        )
        st.stop()
    return run


def run_banner(run: _queries.RunSummary) -> None:
    """A prominent label for runs whose grades are not real LLM grades."""
    label = _queries.run_label(run.run_type)
    if label is None:
        return
    if run.run_type in ("mock", "baseline"):
        st.error(f"**{label}**")
    else:
        st.warning(f"**{label}**")


def run_caption(run: _queries.RunSummary) -> None:
    st.caption(
        f"Run `{run.run_id}` ({run.run_type}, {run.status}) · season {run.season_key} — {run.season_name} "
        f"· graded under rubric {run.rubric_id} · panel {run.panel_name} · scored versions: {run.scored_versions}"
    )


def pick_contestant(run: _queries.RunSummary, label: str = "Contestant") -> _queries.ContestantRef | None:
    """A contestant picker whose choice is kept across pages (``selected_contestant``)."""
    cs = contestants(db_url(), run.run_id, blind(run))
    if not cs:
        st.info("This run's season has no contestants.")
        return None
    keys = [c.key for c in cs]
    by_key = {c.key: c for c in cs}
    _state.seed(CONTESTANT_KEY, keys, "contestant")
    if st.session_state.get(CONTESTANT_KEY) not in by_key:
        _state.default(CONTESTANT_KEY, keys[0])
    key = st.selectbox(label, keys, key=CONTESTANT_KEY, format_func=lambda k: f"{by_key[k].display_name} ({k})")
    _state.remember(CONTESTANT_KEY)
    return by_key[key]


def link_warnings() -> None:
    """Say what a followed link named that is not in this database (instead of showing something else)."""
    for what in _state.unknown_from_link():
        st.warning(f"The link names {what}, which is not in this database (or not in this run); showing another.")
