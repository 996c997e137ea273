"""Windowed records: the fallback for a record that still does not fit a judge's window (issue 32).

The record is cut into consecutive windows of whole decisions; each window is graded on its own decisions (verbatim,
with their point-in-time values, sent afresh at the window's first decision) with a **carried thesis log**: every
earlier decision's date, action, stated confidence and the first sentence of its rationale, so that continuity,
consistency and thrash across windows stay visible. Then one **whole-horizon pass** grades the contestant from the
thesis log of every decision, each window's findings (the same judge's grade of that window, as JSON), the
whole-record process facts and the outcome. Every prompt says it is part of a windowed record; nothing is truncated:
every decision is in exactly one window, in full.

The windows are the largest runs of consecutive decisions whose prompt fits (``plan_windows``, with the caller's
``fits``); a single decision that does not fit on its own leaves the plan empty (the record is refused, said why).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from grader.pit import MARKET_TZ
from grader.prompts._tokens import count_tokens

__all__ = [
    "WINDOWED_LABEL",
    "WindowPlan",
    "plan_windows",
    "synthesis_budget",
    "synthesis_prompt",
    "thesis_log",
    "window_prompt",
]

WINDOWED_LABEL = "windowed: graded in consecutive windows with a carried thesis log, then a whole-horizon pass"
_FIRST_SENTENCE = re.compile(r"^(.{20,400}?[.!?])(?=\s|$)", re.S)


@dataclass(frozen=True)
class WindowPlan:
    contestant_id: str
    windows: tuple[tuple[int, int], ...]
    """(first, last) decision indexes, 0-based and inclusive, consecutive, covering every decision."""
    decisions: int

    def label(self) -> str:
        spans = ", ".join(f"{a + 1}-{b + 1}" for a, b in self.windows)
        return f"{len(self.windows)} windows (decisions {spans} of {self.decisions}) + a whole-horizon pass"


def _first_sentence(text: str) -> str:
    text = " ".join(text.split())
    m = _FIRST_SENTENCE.match(text)
    return m.group(1) if m else (text if len(text) <= 400 else text[:400].rsplit(" ", 1)[0] + " …")


def thesis_log(builder, contestant_id: str, upto: int) -> str:
    """One line per decision before ``upto``: date, round, action, stated confidence, the rationale's first sentence
    (anonymized, as the judge sees it; the full rationale is in the window that grades the decision)."""
    lines = []
    for d in builder.bundle.decisions_of(contestant_id)[:upto]:
        shown, _ = builder.anonymizer.anonymize_decision(d)
        when = d.decided_at.astimezone(MARKET_TZ).strftime("%Y-%m-%d")
        where = f" {builder.round_labels[d.round_id].split(' (')[0]}" if d.round_id in builder.round_labels else ""
        if d.trades:
            action = "; ".join(f"{t.side} {t.quantity:g} {t.symbol}" for t in d.trades)
        elif d.allocation:
            action = "; ".join(f"{a.symbol} {a.weight * 100:.0f}%" for a in d.allocation)
        else:
            action = "hold"
        conf = f"; confidence {d.confidence:.2f}" if d.confidence is not None else ""
        # the contestant's words as a quoted string on one line: they cannot start a line or close the quote
        thesis = json.dumps(_first_sentence(shown.rationale), ensure_ascii=False)
        lines.append(f"- {when}{where}: {action}{conf}. Thesis (its own words): {thesis}")
    return "\n".join(lines)


def _intro(plan: WindowPlan, k: int | None) -> str:
    n = len(plan.windows)
    head = (
        f"# Windowed record ({WINDOWED_LABEL})\nThis contestant's whole record ({plan.decisions} decisions) does "
        f"not fit one call to this judge, so it is graded in {n} consecutive windows of whole decisions, then in "
        "one whole-horizon pass over the windows' findings. Nothing is cut: every decision is in exactly one "
        "window, in full."
    )
    if k is None:
        return head
    a, b = plan.windows[k]
    return (
        head + f"\nThis is window {k + 1} of {n}: decisions {a + 1} to {b + 1}. Grade these decisions; the "
        "carried thesis log below is what the contestant said and did before them, for judging continuity, "
        "consistency and thrash across windows. Score the outcome axis null: the whole-horizon pass has the "
        "outcome."
    )


def window_prompt(builder, plan: WindowPlan, k: int):  # noqa: ANN201 - a JudgePrompt
    """Window ``k`` of ``plan``: its decisions in full, with the thesis log of every decision before it."""
    a, b = plan.windows[k]
    log = thesis_log(builder, plan.contestant_id, a)
    carried = (
        (
            "## Carried thesis log (decisions 1 to " + f"{a}: date, action, stated confidence, the first sentence "
            "of the rationale)\n" + log
        )
        if log
        else "## Carried thesis log\n(this is the first window)"
    )
    return builder.build_window(plan.contestant_id, a, b, [_intro(plan, k), carried])


def synthesis_prompt(builder, plan: WindowPlan, findings: list[dict]):  # noqa: ANN201 - a JudgePrompt
    """The whole-horizon pass: the thesis log of every decision, each window's findings, whole-record facts and the
    outcome."""
    parts = [
        _intro(plan, None) + "\nThis is the whole-horizon pass. Grade the contestant's whole horizon, every "
        "axis, from the thesis log of every decision, your findings on each window (your own grade of that "
        "window's decisions, below as JSON), the whole-record process facts and the outcome. Keep the claim "
        "ledger entries of the windows that stand, with their statuses.",
        "## Thesis log (every decision: date, action, stated confidence, the first sentence of the rationale)\n"
        + thesis_log(builder, plan.contestant_id, plan.decisions),
    ]
    for k, ((a, b), found) in enumerate(zip(plan.windows, findings, strict=True)):
        parts.append(
            f"## Findings of window {k + 1} (decisions {a + 1} to {b + 1})\n"
            + json.dumps(found, separators=(",", ":"), ensure_ascii=False)
        )
    return builder.build_synthesis(plan.contestant_id, parts)


def plan_windows(builder, contestant_id: str, fits: Callable[[object], bool], reserve: int = 0) -> WindowPlan | None:
    """The fewest consecutive windows, each as long as fits allows (greedy: each window grows by doubling, then by
    bisection, checking the real prompt). ``reserve``: tokens the whole-horizon pass will need per window (its
    findings); None when one decision alone does not fit."""
    n = len(builder.bundle.decisions_of(contestant_id))
    windows: list[tuple[int, int]] = []
    a = 0
    while a < n:

        def ok(b: int, a: int = a) -> bool:
            trial = WindowPlan(contestant_id, (*windows, (a, b)), n)
            return fits(window_prompt(builder, trial, len(windows)))

        if not ok(a):
            return None
        good, step = a, 1
        while good + step < n and ok(good + step):
            good, step = good + step, step * 2
        bad = min(n, good + step)  # the first index known (or assumed past the end) not to fit
        while bad - good > 1:
            mid = (good + bad) // 2
            if ok(mid):
                good = mid
            else:
                bad = mid
        windows.append((a, good))
        a = good + 1
    return WindowPlan(contestant_id, tuple(windows), n)


def synthesis_budget(plan: WindowPlan, builder, max_output_tokens: int) -> int:
    """Tokens the whole-horizon pass needs at most: its fixed parts plus each window's findings at the judge's
    ``max_output_tokens``."""
    log = thesis_log(builder, plan.contestant_id, plan.decisions)
    return count_tokens(builder.instructions) + count_tokens(log) + 2_000 + len(plan.windows) * max_output_tokens
