"""The annotation console (Streamlit): leaderboard, contestant pages, ledger review, blind calibration
grading, live audits and run comparison. Start it with ``grader console`` (``streamlit run console/app.py``).

This package also exposes the console's data access (plain functions over the grader database), its
sign-in (annotators file with salted token hashes) and its only writes (append-only human grades and
ledger annotations), so they can be used and tested without Streamlit.
"""

_LAZY: dict[str, str] = {
    "ANNOTATORS_ENV": "console._auth",
    "AnnotatorDirectory": "console._auth",
    "AnnotatorRecord": "console._auth",
    "AuthError": "console._auth",
    "BlindRecord": "console._queries",
    "CalibrationItem": "console._queries",
    "ContestantRef": "console._queries",
    "HumanGradeInput": "console._writes",
    "HumanGradeView": "console._queries",
    "JudgeGradeView": "console._queries",
    "LedgerAnnotationView": "console._queries",
    "LedgerEntryView": "console._queries",
    "LedgerFilters": "console._queries",
    "LedgerPage": "console._queries",
    "NavResult": "console._nav",
    "RunSummary": "console._queries",
    "SignedIn": "console._auth",
    "SyntheticRun": "console._synthetic",
    "WriteError": "console._writes",
    "annotators_file": "console._auth",
    "audit_report": "console._queries",
    "blind_record": "console._queries",
    "build_synthetic_run": "console._synthetic",
    "calibration_items": "console._queries",
    "calibration_queue": "console._queries",
    "compare_rubrics": "console._queries",
    "compare_runs": "console._queries",
    "contestant_nav": "console._nav",
    "contestant_score": "console._queries",
    "decision_timeline": "console._queries",
    "hash_token": "console._auth",
    "human_composite": "console._writes",
    "human_grade_stamp": "console._queries",
    "human_grades": "console._queries",
    "judge_grades": "console._queries",
    "leaderboard": "console._queries",
    "ledger_judges": "console._queries",
    "ledger_page": "console._queries",
    "list_runs": "console._queries",
    "record_human_grade": "console._writes",
    "record_human_grades": "console._writes",
    "record_ledger_annotation": "console._writes",
    "require_current": "console._auth",
    "require_signed_in": "console._auth",
    "run_contestants": "console._queries",
    "run_label": "console._queries",
    "season_prices": "console._nav",
}
"""Public name -> the private module defining it. Imported on first use (PEP 562), so ``grader --help`` and the
annotators CLI do not load the console's data stack (pandas, the reports, scipy)."""


def __getattr__(name: str):  # noqa: ANN202
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'console' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "ANNOTATORS_ENV",
    "AnnotatorDirectory",
    "AnnotatorRecord",
    "AuthError",
    "BlindRecord",
    "CalibrationItem",
    "ContestantRef",
    "HumanGradeInput",
    "HumanGradeView",
    "JudgeGradeView",
    "LedgerAnnotationView",
    "LedgerEntryView",
    "LedgerFilters",
    "LedgerPage",
    "NavResult",
    "RunSummary",
    "SignedIn",
    "SyntheticRun",
    "WriteError",
    "annotators_file",
    "audit_report",
    "blind_record",
    "build_synthetic_run",
    "calibration_items",
    "calibration_queue",
    "compare_rubrics",
    "compare_runs",
    "contestant_nav",
    "contestant_score",
    "decision_timeline",
    "hash_token",
    "human_composite",
    "human_grade_stamp",
    "human_grades",
    "judge_grades",
    "leaderboard",
    "ledger_judges",
    "ledger_page",
    "list_runs",
    "record_human_grade",
    "record_human_grades",
    "record_ledger_annotation",
    "require_current",
    "require_signed_in",
    "run_contestants",
    "run_label",
    "season_prices",
]
