"""Reporting glue: audit inputs collected from storage for the audits package and the console."""

from grader.reporting._claims import real_claims_section
from grader.reporting._collect import collect_audit_inputs

__all__ = ["collect_audit_inputs", "real_claims_section"]
