"""Streamlit pieces shared by the pages: cached loads, the sidebar (sign-in, run picker), run banners.

Reads are cached with ``st.cache_data`` keyed by the database URL (and, where data can change, by a
cheap stamp such as the latest scored version or the human-grade count); writes go straight to the
database and are never cached.
"""

from __future__ import annotations

import base64
import os
import pickle
import re
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from console import _nav, _queries, _state
from console._auth import AnnotatorDirectory, AuthError, BrowserSessions, SignedIn, require_current
from console._blind import Blind, blinding
from console._state import CONTESTANT_KEY, RUN_KEY
from grader.storage import database_url

REPO = Path(__file__).resolve().parents[1]
ANNOTATOR_KEY = "annotator"
__all__ = ["CONTESTANT_KEY", "RUN_KEY"]  # the page-state keys, kept in the URL by console._state


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
def human_grades(url: str, run_id: str, contestant_row_id: int, annotator: str,
                 stamp: tuple[int, int]) -> list[_queries.HumanGradeView]:
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
    return _queries.leaderboard(run_id, url, blind=blind)


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
def contestant_score(url: str, run_id: str, contestant_row_id: int, version: int | None,
                     blind: Blind) -> dict | None:
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
        rounds = bool(season) and (season.info or {}).get("format") == "rounds"
    if rounds:  # no daily NAV, and no prices file needed to say so (the page shows the outcome per round)
        return _nav.contestant_nav(contestant_row_id, url)
    try:
        prices = season_prices(source, sha)
    except (OSError, ValueError) as exc:
        return _nav.NavResult(available=False, reason=str(exc))
    return _nav.contestant_nav(contestant_row_id, url, prices=prices)


@st.cache_data(ttl=3600, show_spinner=False, max_entries=256)
def round_outcomes(url: str, contestant_row_id: int) -> pd.DataFrame:
    try:
        return _nav.round_outcomes(contestant_row_id, url)
    except (OSError, ValueError, KeyError) as exc:
        return pd.DataFrame({"note": [f"per-round outcomes unavailable: {exc}"]})


COMPARISON_NOTE = ("Ranked as CapitalBench ranks: inside equal-run comparison sets (a model added later starts a "
                   "new set); set score = 100 x Σ returns / Σ oracle returns over the rounds every member completed. "
                   "All-rounds figures are each contestant's own history: context, not a ranking surface.")


@st.cache_data(ttl=3600, show_spinner=False, max_entries=64)
def comparison_sets(url: str, run_id: str) -> pd.DataFrame | None:
    """A rounds season's comparison sets (one row per set and member, best first), or None."""
    from grader.reporting import comparison_set_rows

    rows = comparison_set_rows(run_id, url)
    return None if rows is None else pd.DataFrame(rows)


@st.cache_data(ttl=3600, show_spinner=False, max_entries=64)
def process_facts(url: str, run_id: str) -> dict[str, dict[str, Any]]:
    """Every contestant's process facts (from the trades or allocations), as the judges see them."""
    from grader.reporting import run_process_facts

    return run_process_facts(run_id, url)


@st.cache_data(ttl=3600, show_spinner=False, max_entries=256)
def contestant_risk(url: str, contestant_row_id: int) -> tuple[pd.DataFrame, list[str]]:
    """PortBench's risk facts per decision (point-in-time) and the season's risk outcome lines."""
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


AuditKey = tuple[str, str, int, tuple[int, int]]  # (db url, run id, scored version, human-grade stamp)


def build_audit_document(run_id: str, url: str, timeout: float = 1800):  # noqa: ANN201
    """Build the run's report document in a worker process and load it (errors name the worker's reason)."""
    with tempfile.TemporaryDirectory(prefix="grader-audit-") as tmp:
        out = Path(tmp) / "document.pickle"
        env = {**os.environ, "GRADER_DATABASE_URL": url,
               "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p)}
        done = subprocess.run([sys.executable, "-m", "console._audit_worker", run_id, str(out)],
                              capture_output=True, text=True, timeout=timeout, env=env)
        if done.returncode != 0:
            lines = [line for line in done.stderr.strip().splitlines() if line.strip()]
            raise RuntimeError(lines[-1] if lines else f"audit worker exited with {done.returncode}")
        return pickle.loads(out.read_bytes())  # noqa: S301 - our own worker's output, in our own temp dir


class AuditJobs:
    """Audit reports built one at a time in a background worker process, so the Audits page answers at once.

    A separate process (``console._audit_worker``) keeps the CPU-bound resampling off the interpreter that
    serves the pages; a thread only waits for it.

    A job is keyed by run, scored version and the human-grade stamp: a new calibration grade starts a
    rebuild, and the page shows the last finished report of the run (saying it is updating) meanwhile.
    Jobs of a run that have not started yet are cancelled when a newer one is submitted.
    """

    def __init__(self, keep: int = 16):
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="console-audits")
        self._jobs: dict[AuditKey, Future] = {}
        self._lock = threading.Lock()
        self._keep = keep

    def submit(self, key: AuditKey) -> Future:
        with self._lock:
            job = self._jobs.get(key)
            if job is not None and not job.cancelled():  # running, built, or failed (see forget_failures)
                return job
            for other, fut in list(self._jobs.items()):
                if other[:2] == key[:2] and other != key and fut.cancel():
                    del self._jobs[other]
            job = self._pool.submit(build_audit_document, key[1], key[0])
            self._jobs[key] = job
            while len(self._jobs) > self._keep:
                oldest = next(iter(self._jobs))
                self._jobs.pop(oldest)
            return job

    def forget_failures(self) -> None:
        """Drop failed jobs so the next view retries them (the sidebar's "Refresh data")."""
        with self._lock:
            for key, fut in list(self._jobs.items()):
                if fut.done() and (fut.cancelled() or fut.exception() is not None):
                    del self._jobs[key]

    def latest_finished(self, url: str, run_id: str, version: int):  # noqa: ANN201
        """The newest successfully built document of this run and version, if any."""
        with self._lock:
            done = [(k, f) for k, f in self._jobs.items()
                    if k[:3] == (url, run_id, version) and f.done() and not f.cancelled() and f.exception() is None]
        return max(done, key=lambda kf: kf[0][3])[1].result() if done else None


@st.cache_resource(show_spinner=False)
def audit_jobs() -> AuditJobs:
    return AuditJobs()


def audit_key(run: _queries.RunSummary) -> AuditKey | None:
    if run.latest_version is None:
        return None
    url = db_url()
    return (url, run.run_id, run.latest_version, grade_stamp(run.run_id))


class _Prewarm:
    """Work done once per server process and run, in a background thread, so that first views are fast: the
    modules the pages import, the run's season bundle, its replays and process facts, and its risk market (the
    trailing-window statistics every contestant page reads). The audit report is not built here: it is CPU-heavy
    and would slow every page on a small machine; the Audits page starts it (in a niced worker process)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seen: set[tuple[str, str]] = set()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="console-prewarm")
        self._pool.submit(self._imports)

    @staticmethod
    def _imports() -> None:
        import altair  # noqa: F401 - the contestant page's chart

        from grader.reporting import run_process_facts, run_risk_evidence  # noqa: F401 - resolved lazily: loads them

    def run(self, url: str, run_id: str) -> None:
        with self._lock:
            if (url, run_id) in self._seen:
                return
            self._seen.add((url, run_id))
        self._pool.submit(self._warm_run, url, run_id)

    @staticmethod
    def _warm_run(url: str, run_id: str) -> None:
        try:
            from grader.reporting import run_process_facts

            run_process_facts(run_id, url)  # loads and keeps the bundle and its replays
            people = _queries.run_contestants(run_id, url)
            if people:
                _nav.contestant_risk_table(people[0].row_id, url)  # fills the season's risk statistics
        except Exception:  # noqa: BLE001 - warming is best effort: the page computes (and reports) it itself
            return


@st.cache_resource(show_spinner=False)
def _prewarm() -> _Prewarm:
    return _Prewarm()


def prewarm_server(run: _queries.RunSummary | None) -> None:
    """Start warming the picked run's data in the background (once per process and run)."""
    if run is not None:
        _prewarm().run(db_url(), run.run_id)


@st.cache_data(ttl=600, show_spinner=False, max_entries=32)
def compare_runs(url: str, run_a: str, run_b: str, va: int | None, vb: int | None, blind_a: Blind,
                 blind_b: Blind) -> pd.DataFrame:
    return _queries.compare_runs(run_a, run_b, url, blind_a=blind_a, blind_b=blind_b)


@st.cache_data(ttl=600, show_spinner=False, max_entries=32)
def compare_rubrics(url: str, run_id: str, rubric_a: str, rubric_b: str, version: int | None,
                    blind: Blind) -> pd.DataFrame:
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


# ------------------------------------------------------------------------------------------ sign-in


@st.cache_resource(show_spinner=False)
def browser_sessions() -> BrowserSessions:
    return BrowserSessions()


def _cookie_sid() -> str | None:
    try:
        return st.context.cookies.get(BrowserSessions.COOKIE)
    except Exception:  # noqa: BLE001 - no request context (AppTest): no cookie
        return None


def _set_cookie(sid: str, max_age: int) -> None:
    """Set (or, with ``max_age`` 0, clear) the session cookie in this browser (an id only, never a token)."""
    st.html(f"<script>document.cookie = '{BrowserSessions.COOKIE}={sid}; path=/; max-age={max_age}; "
            "SameSite=Strict';</script>", unsafe_allow_javascript=True, width=1)


def signed_in() -> SignedIn | None:
    """The annotator signed in to this browser session, if any (signed out here once revoked). A reload resumes
    the sign-in of this browser (the session cookie)."""
    who = st.session_state.get(ANNOTATOR_KEY)
    if who is None and not st.session_state.get("_signed_out"):
        who = browser_sessions().resume(_cookie_sid())
        if who is not None:
            st.session_state[ANNOTATOR_KEY] = who
    if not isinstance(who, SignedIn):
        return None
    try:
        return require_current(who)
    except AuthError as exc:
        st.session_state.pop(ANNOTATOR_KEY, None)
        browser_sessions().close(_cookie_sid())
        st.session_state["sign_in_error"] = str(exc)
        return None


def _oidc_configured() -> bool:
    try:
        return "auth" in st.secrets
    except Exception:  # noqa: BLE001 - no secrets file: built-in auth is simply not configured
        return False


def _sign_in_token(directory: AnnotatorDirectory) -> None:
    name = st.session_state.get("sign_in_name", "").strip()
    token = st.session_state.get("sign_in_token", "")
    st.session_state["sign_in_token"] = ""  # never kept in the session
    try:
        who = directory.sign_in(name, token)
        st.session_state[ANNOTATOR_KEY] = who
        st.session_state["_new_browser_session"] = browser_sessions().open(who)
        st.session_state.pop("sign_in_error", None)
        st.session_state.pop("_signed_out", None)
    except AuthError as exc:
        st.session_state["sign_in_error"] = str(exc)


def sidebar_sign_in() -> SignedIn | None:
    """Sign-in block of the sidebar: token form, or ``st.login`` where configured; sign out."""
    who = signed_in()
    box = st.sidebar.container(border=True)
    if who is not None:
        sid = st.session_state.pop("_new_browser_session", None)
        if sid:
            with st.sidebar:
                _set_cookie(sid, BrowserSessions.LIFETIME_SECONDS)
        box.markdown(f"Signed in as **{who.name}**")
        if box.button("Sign out", key="sign_out"):
            st.session_state.pop(ANNOTATOR_KEY, None)
            st.session_state["_signed_out"] = True
            browser_sessions().close(_cookie_sid())
            if who.method == "oidc":
                st.logout()
            st.rerun()
        return who
    if st.session_state.get("_signed_out"):
        with st.sidebar:
            _set_cookie("", 0)
    directory = AnnotatorDirectory()
    try:
        configured = directory.names()
    except AuthError as exc:
        box.error(str(exc))
        return None
    if _oidc_configured():
        user = getattr(st, "user", None)
        if user is not None and getattr(user, "is_logged_in", False):
            try:
                st.session_state[ANNOTATOR_KEY] = directory.sign_in_oidc(getattr(user, "email", None))
                st.rerun()
            except AuthError as exc:
                box.error(str(exc))
        elif box.button("Sign in with the identity provider", key="oidc_login"):
            st.login()
    if not configured:
        box.info(f"No annotators configured in `{directory.path}`: add one with `grader annotators add NAME`. "
                 "The console is read-only until then.")
        return None
    box.markdown("**Annotator sign-in**")
    # a real form: the values are sent together on submit (Enter, or Tab then a click on "Sign in")
    with box.form("sign_in_form", border=False, enter_to_submit=True):
        st.text_input("Annotator", key="sign_in_name", autocomplete="username")
        st.text_input("Token", key="sign_in_token", type="password", autocomplete="current-password")
        st.form_submit_button("Sign in", key="sign_in_button", on_click=_sign_in_token, args=(directory,))
    if st.session_state.get("sign_in_error"):
        box.error(st.session_state["sign_in_error"])
    box.caption("Reading needs no sign-in (human grades excepted); every grade and annotation is recorded under "
                "your name. A sign-in lasts 12 hours in this browser (a session cookie holding a random id; the "
                "token is never kept) or until you sign out.")
    return None


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
        st.rerun()
    return by_id[st.session_state[RUN_KEY]]


def current_run() -> _queries.RunSummary | None:
    """The picked run, or a message and ``st.stop()`` when the database has none."""
    url = db_url()
    all_runs = runs(url)
    by_id = {r.run_id: r for r in all_runs}
    run = by_id.get(st.session_state.get(RUN_KEY, ""))
    if run is None and all_runs:
        run = default_run(all_runs)
    if run is None:
        st.info(f"No grading runs in `{url}` yet. Grade a season first, e.g. "
                "`grader grade seasons/demo-2022q1 --panel reference --run-id demo-ref`.")
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
    st.caption(f"Run `{run.run_id}` ({run.run_type}, {run.status}) · season {run.season_key} — {run.season_name} "
               f"· graded under rubric {run.rubric_id} · panel {run.panel_name} · scored versions: {run.scored_versions}")


def unique_headers(headers: list[str]) -> list[str]:
    """Table headers made unique for a DataFrame: a header that repeats ("95% CI", "Reading") is named after the
    statistic before it ("ICC(2,1) 95% CI", "ICC(2,1) reading"); anything still repeated gets a number."""
    counts = {h: headers.count(h) for h in headers}
    out, owner = [], ""
    for h in headers:
        if counts[h] > 1 and owner:
            out.append(f"{owner} {h if h.isupper() or h[:1].isdigit() else h.lower()}")
        else:
            out.append(h)
            owner = h if counts[h] == 1 else owner
    seen: dict[str, int] = {}
    final = []
    for h in out:
        seen[h] = seen.get(h, 0) + 1
        final.append(h if seen[h] == 1 else f"{h} ({seen[h]})")
    return final


def split_wide(frame: pd.DataFrame, max_columns: int = 7) -> list[pd.DataFrame]:
    """A table too wide for the page as several narrower ones, each led by the first (naming) column and cut only
    between statistics (a statistic keeps its interval and reading: "ICC(2,1)", "ICC(2,1) 95% CI", ...)."""
    columns = list(frame.columns)
    if len(columns) <= max_columns:
        return [frame]
    key, rest = columns[0], columns[1:]
    groups: list[list[str]] = []
    for c in rest:
        if groups and str(c).startswith(f"{groups[-1][0]} "):
            groups[-1].append(c)
        else:
            groups.append([c])
    parts: list[list[str]] = [[]]
    for g in groups:
        if parts[-1] and 1 + len(parts[-1]) + len(g) > max_columns:
            parts.append([])
        parts[-1].extend(g)
    return [frame[[key, *part]] for part in parts]


def md(text: str) -> str:
    """Text for ``st.markdown`` with dollar signs escaped (so "$12 to $15" is not read as LaTeX)."""
    return (text or "").replace("$", "\\$")


_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*_{}\[\]()<>#+\-.!|~$:=^&])")


#: Where GitHub-flavoured markdown would make a bare URL or e-mail a link (after escapes are decoded): a word
#: joiner (U+2060, invisible) after "www", "http(s):" and "@" breaks the pattern without changing what is read.
_AUTOLINK = re.compile(r"(?i)(www(?=\\?\.)|https?\\?:(?=//)|@)")


def plain(text: str) -> str:
    """Text someone wrote (a judge's summary, a claim, a reason) for ``st.markdown``/``st.caption`` as plain text:
    every markdown character escaped and bare URLs and e-mails kept from becoming links, so the text cannot fetch
    an image, make a link, colour text or run LaTeX. (Annotators' own notes are shown with ``st.text``.)"""
    escaped = _MARKDOWN_PUNCTUATION.sub(r"\\\1", (text or "").replace("\r", "")).replace("\n", "  \n")
    return _AUTOLINK.sub("\\1\u2060", escaped)


def png(b64: str) -> bytes:
    return base64.b64decode(b64)


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
