"""What a run's warm-up computes (in the console's background process, ``console._worker``): every contestant's
process facts (the leaderboard's process and risk cells) and risk table (the contestant page's risk evidence), all
from the season bundle: its load, 50 replays and 12,500 VaR windows are seconds of CPU on a 50 x 250 season, which
a page view would otherwise wait for or share the server's interpreter with."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd


@dataclass(frozen=True)
class RunWarmup:
    """A run's warm-up, read by the pages once done (``console._prewarm.Prewarm``).

    ``facts``: contestant key -> process facts (``grader.reporting.run_process_facts``; {} when the season bundle
    moved or is no longer valid); ``risk``: contestant row id -> its risk table and season risk lines
    (``grader.reporting.contestant_risk_table``; a contestant whose table failed is left out: its page computes it
    and says why); ``error``: why the warm-up failed (then both are empty and the pages compute what they show)."""

    facts: dict[str, dict[str, Any]] = field(default_factory=dict)
    risk: dict[int, tuple[pd.DataFrame, list[str]]] = field(default_factory=dict)
    error: str | None = None


def warm_run(run_id: str, url: str) -> RunWarmup:
    """Compute the run's warm-up (the bundle loaded once for both)."""
    from console._queries import run_contestants
    from grader.reporting import contestant_risk_table, run_process_facts

    facts = run_process_facts(run_id, url)
    risk: dict[int, tuple[pd.DataFrame, list[str]]] = {}
    if facts:  # the bundle is there (else every table would fail the same way: the page says why)
        for person in run_contestants(run_id, url):
            try:
                risk[person.row_id] = contestant_risk_table(person.row_id, url)
            except (OSError, ValueError, KeyError):
                continue
    return RunWarmup(facts=facts, risk=risk)
