"""The identity-guess probe: each judge of a run's panel, in calls of its own (never inside a grading call), is
shown anonymized decisions and asked which provider family wrote each; its hit rate is compared with chance."""

from grader.probe._items import ProbeItem, probe_items
from grader.probe._prompt import PROBE_SCHEMA_NAME, PROBE_SYSTEM, parse_guess, probe_schema, probe_user
from grader.probe._run import ProbeError, ProbeRunResult, probe_rows, run_judge_probe

__all__ = [
    "PROBE_SCHEMA_NAME",
    "PROBE_SYSTEM",
    "ProbeError",
    "ProbeItem",
    "ProbeRunResult",
    "parse_guess",
    "probe_items",
    "probe_rows",
    "probe_schema",
    "probe_user",
    "run_judge_probe",
]
