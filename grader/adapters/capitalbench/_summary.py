"""What an import wrote (the summary the CLI prints) and the bundle's ATTRIBUTION.md and README.md (pure text)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from grader.adapters.capitalbench._schema import SourceRound
from grader.season import SeasonInfo

SOURCE_REPOSITORY = "https://github.com/ishtiaqrahman/capitalbench"
LICENSE_URL = "https://creativecommons.org/licenses/by/4.0/"
ATTRIBUTION = (
    f"Round data from CapitalBench by Ishtiaq Rahman ({SOURCE_REPOSITORY}), licensed CC BY 4.0 ({LICENSE_URL}). "
    "Converted to season bundle v1: allocations, confidence, latency, prices and trailing returns are unchanged "
    "in value; each decision's rationale joins the submission's text fields. The licensor does not endorse "
    "this project."
)


@dataclass(frozen=True)
class RoundStatus:
    """One imported round's resolution: resolved, pending or never resolved, and why."""

    round_id: str
    decision_date: date
    status: str
    why: str
    decisions: int


def status_why(r: SourceRound) -> str:
    if r.status == "resolved":
        return f"exit prices of {r.manifest.exit_date}; outcomes scored"
    if r.status == "never resolved":
        return f"scoring job cancelled upstream: {r.resolution_note}; graded with the outcome weight redistributed"
    job = (
        f"scoring job scheduled ({r.resolution_note.removeprefix('scoring job ')})"
        if r.resolution == "scheduled"
        else "no exit prices published yet"
    )
    return f"{job}; outcome withheld, weight redistributed; import again when it resolves"


@dataclass
class ImportSummary:
    """What an import wrote (for the CLI to print)."""

    path: Path
    season_id: str
    round_ids: list[str]
    pending_round_ids: list[str]
    contestant_ids: list[str]
    decisions: int
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (round id, reason)
    notes: list[str] = field(default_factory=list)
    statuses: list[RoundStatus] = field(default_factory=list)

    def lines(self) -> list[str]:
        counts = {k: sum(s.status == k for s in self.statuses) for k in ("resolved", "pending", "never resolved")}
        out = [
            f"wrote {self.path} (season {self.season_id}): {len(self.round_ids)} rounds "
            f"({counts['resolved']} resolved, {counts['pending']} pending, {counts['never resolved']} never "
            f"resolved), {len(self.contestant_ids)} contestants, {self.decisions} decisions",
        ]
        out += self.status_table()
        out += [f"skipped {rid}: {why}" for rid, why in self.skipped]
        out += [f"note: {n}" for n in self.notes]
        return out

    def status_table(self) -> list[str]:
        """One line per imported round: status and why (CapitalBench's resolution job)."""
        if not self.statuses:
            return []
        width = max(len(s.round_id) for s in self.statuses)
        rows = [f"  {'round':<{width}}  decided     status          decisions  why"]
        for s in self.statuses:
            rows.append(f"  {s.round_id:<{width}}  {s.decision_date}  {s.status:<14}  {s.decisions:>9}  {s.why}")
        return rows


def attribution_md(rounds: Sequence[SourceRound]) -> str:
    listed = "\n".join(f"- `{r.id}` (official run `{r.run_id}`)" for r in rounds)
    return f"""# Attribution

The data in this directory is derived from **CapitalBench** by **Ishtiaq Rahman**
({SOURCE_REPOSITORY}), whose round artifacts are licensed under the
Creative Commons Attribution 4.0 International licence (CC BY 4.0, {LICENSE_URL}).

Changes made: the rounds listed below were converted to this project's season bundle v1 format
(`format: rounds`). Allocations, confidence, latency, adjusted closes and trailing returns keep their
values; each decision's `rationale` joins the submission's `rationale_summary`, `portfolio_rationale`,
per-holding rationales and `key_risks`; briefings are copied verbatim into `season.yaml`. Only each
round's operator-selected official run is used. "CapitalBench" names the data source only: this project
is not CapitalBench and is not endorsed by its author.

Rounds included:

{listed}
"""


def readme_md(info: SeasonInfo, rounds: Sequence[SourceRound], summary: ImportSummary, command: str) -> str:
    rows = "\n".join(
        f"| `{r.id}` | {r.manifest.decision_deadline.isoformat()} | {r.manifest.entry_date} | "
        f"{r.manifest.exit_date} | {'resolved' if r.exit is not None else r.status} | `{r.run_id}` | "
        f"{len(r.submissions)} |"
        for r in rounds
    )
    skipped = "\n".join(f"- `{rid}`: {why}" for rid, why in summary.skipped) or "- none"
    notes = "\n".join(f"- {n}" for n in summary.notes) or "- none"
    return f"""# {info.name}

Season bundle v1 with `format: rounds`: real LLM decisions from CapitalBench public rounds
(see ATTRIBUTION.md; CC BY 4.0, Ishtiaq Rahman). Each round is an independent experiment: never
compounded. Mapping and bundle extensions: docs/capitalbench.md in the project repository.

Built with (from the project root; rebuild by running it again with `--overwrite`):

    {command}

`grader import-capitalbench` takes the same arguments.

| round | decided at (deadline) | entry close | exit close | status | official run | decisions |
|---|---|---|---|---|---|---|
{rows}

Contestants: {", ".join(f"`{c}`" for c in summary.contestant_ids)}.

Skipped rounds:

{skipped}

Data notes:

{notes}
"""
