"""Reporting glue: audit inputs collected from storage for the audits package and the console."""

from grader.reporting._claims import real_claims_section
from grader.reporting._collect import collect_audit_inputs
from grader.reporting._labelled_claims import Evaluation, LabelledClaim, LabelsError, evaluate, read_labels
from grader.reporting._probe import run_identity_probe, season_identity_probe
from grader.reporting._process import compact_facts, run_process_facts, season_process_facts
from grader.reporting._risk import contestant_risk_table, run_risk_evidence, season_risk_evidence
from grader.reporting._rounds import round_outcome_rows, round_outcomes

__all__ = ["Evaluation", "LabelledClaim", "LabelsError", "collect_audit_inputs", "compact_facts", "contestant_risk_table", "evaluate",
           "read_labels", "real_claims_section", "round_outcome_rows", "round_outcomes", "run_identity_probe",
           "run_process_facts", "run_risk_evidence", "season_identity_probe", "season_process_facts",
           "season_risk_evidence"]
