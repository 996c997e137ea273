"""Windowed grading in a run: which (judge, contestant) records need it, and the chain of calls that grades them.

A record whose prompt does not leave a judge ``REPLY_SHARE`` of its window for the reply is graded, for that judge
only, in consecutive windows with a carried thesis log, then in one whole-horizon pass over the windows' findings
(``grader.prompts._windows``). Each window and the pass are ordinary calls: stored as ``sent`` before they leave,
retried, content-addressed and reused like any other; the grade is the whole-horizon pass's, stored against the pass's
call. It is labelled in the run's notes (shown in the report), the manifest (``windowed``: every chain, its windows
and its calls) and the command's output. A record whose windows or pass would not fit either is refused, said why.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

from grader.panel._config import PanelConfig
from grader.panel._prompts import REPLY_SHARE

if TYPE_CHECKING:
    from grader.panel._tasks import Task
    from grader.prompts import WindowPlan

__all__ = ["WindowedChain", "plan_windowed", "windowed_note"]


def room_for_reply(spec) -> int:  # noqa: ANN001 - a JudgeSpec
    return max(spec.max_output_tokens, math.ceil(spec.context_window * REPLY_SHARE))


def fits(spec, prompt) -> bool:  # noqa: ANN001
    return prompt.counted_tokens + room_for_reply(spec) <= spec.context_window


@dataclass
class WindowedChain:
    """One judge's windowed grading of one contestant: the window prompts, and how the pass is built."""

    plan: WindowPlan
    prompts: list  # JudgePrompt of each window
    synthesis: Callable[[list[dict]], object]  # findings -> the whole-horizon pass's JudgePrompt
    windows: list = field(default_factory=list)  # the runner's Task of each window (set when tasks are made)
    final: Callable[[list[dict]], object] | None = None  # findings -> the pass's Task


def windowed_note(judge_id: str, contestant_id: str, plan) -> str:  # noqa: ANN001
    from grader.prompts import WINDOWED_LABEL

    return f"{contestant_id} for {judge_id}: {WINDOWED_LABEL}: {plan.label()}"


def plan_windowed(builder, prompts: dict, panel: PanelConfig) -> tuple[dict, list[str]]:  # noqa: ANN001
    """({(judge_id, contestant_id): WindowedChain}, what cannot be graded even so, one line each)."""
    from grader.prompts import plan_windows, synthesis_budget, synthesis_prompt, window_prompt

    chains: dict[tuple[str, str], WindowedChain] = {}
    refused: list[str] = []
    plans: dict[tuple[str, int], WindowPlan | None] = {}
    for spec in panel.judges:
        if spec.context_window is None:
            continue
        for cid, prompt in sorted(prompts.items()):
            if fits(spec, prompt):
                continue
            budget = spec.context_window - room_for_reply(spec)
            key = (cid, budget)  # judges with the same room share a plan
            if key not in plans:
                plans[key] = plan_windows(builder, cid, partial(fits, spec))
            plan = plans[key]
            if plan is None:
                refused.append(
                    f"{cid} for {spec.judge_id}: one decision alone does not fit the "
                    f"{spec.context_window:,}-token window with room for the reply, even windowed"
                )
                continue
            need = synthesis_budget(plan, builder, spec.max_output_tokens)
            if need > budget:
                refused.append(
                    f"{cid} for {spec.judge_id}: the whole-horizon pass over {len(plan.windows)} windows "
                    f"could need {need:,} tokens, over the {budget:,} the window leaves"
                )
                continue
            chains[(spec.judge_id, cid)] = WindowedChain(
                plan,
                [window_prompt(builder, plan, k) for k in range(len(plan.windows))],
                partial(synthesis_prompt, builder, plan),
            )
    return chains, refused


def windowed_task(
    spec,
    cid: str,
    row_id: int,
    repeat: int,
    chain: WindowedChain,
    marked,
    schema: dict,  # noqa: ANN001
    mock_settings: dict | None,
    on_pass: Callable[[Task], None],
):  # noqa: ANN201 - a runner Task
    """The runner's task of one windowed record for one judge and repeat: a task per window, and the pass's task
    built (and handed to ``on_pass``, e.g. to script a mock) from the windows' grades."""
    from grader.panel._tasks import Task, WindowedTasks, cache_key

    windows = []
    for prompt in chain.prompts:
        p = marked(prompt, repeat)
        windows.append(Task(spec, cid, row_id, p, repeat, cache_key(spec, p, schema, repeat, mock_settings)))

    def final(findings: list[dict]) -> Task:
        p = marked(chain.synthesis(findings), repeat)
        task = Task(spec, cid, row_id, p, repeat, cache_key(spec, p, schema, repeat, mock_settings))
        on_pass(task)
        return task

    return Task(
        spec,
        cid,
        row_id,
        windows[0].prompt,
        repeat,
        "windowed:" + windows[0].key,
        windowed=WindowedTasks(windows, final),
    )
