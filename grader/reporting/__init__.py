"""Reporting glue: audit inputs collected from storage for the audits package and the console.

Public names are resolved on first use (PEP 562): a CLI verb that needs only the process facts does not load the
audits' statistics stack (scipy, pingouin) with them."""

from grader._lazy import lazy_exports

_LAZY: dict[str, str] = {
    "Evaluation": "grader.reporting._labelled_claims",
    "LabelledClaim": "grader.reporting._labelled_claims",
    "LabelsError": "grader.reporting._labelled_claims",
    "collect_audit_inputs": "grader.reporting._collect",
    "COMPARISON_NOTE": "grader.replay",
    "compact_facts": "grader.reporting._process",
    "compact_risk": "grader.reporting._process",
    "comparison_set_rows": "grader.reporting._rounds",
    "contestant_risk_table": "grader.reporting._risk",
    "evaluate": "grader.reporting._labelled_claims",
    "read_labels": "grader.reporting._labelled_claims",
    "RISK_LEGEND": "grader.reporting._process",
    "real_claims_section": "grader.reporting._claims",
    "round_outcome_rows": "grader.reporting._rounds",
    "round_outcomes": "grader.reporting._rounds",
    "run_identity_probe": "grader.reporting._probe",
    "run_process_facts": "grader.reporting._process",
    "run_risk_evidence": "grader.reporting._risk",
    "season_identity_probe": "grader.reporting._probe",
    "season_process_facts": "grader.reporting._process",
    "season_risk_evidence": "grader.reporting._risk",
}

__all__ = sorted(_LAZY)


__getattr__, __dir__ = lazy_exports("grader.reporting", _LAZY, globals())
