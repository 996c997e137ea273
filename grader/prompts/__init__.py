"""Judge prompts built from the anonymized record and point-in-time snapshots."""

from grader.anonymizer import PUBLIC_ROUND_ID
from grader.prompts._builder import PromptBuilder
from grader.prompts._fence import fence
from grader.prompts._judge_prompt import (
    DecisionSection,
    JudgePrompt,
    estimate_tokens,
    format_value,
    prompt_hash,
)
from grader.prompts._tokens import TOKENIZER, count_tokens, counting_method, exact_for
from grader.prompts._windows import (
    WINDOWED_LABEL,
    WindowPlan,
    plan_windows,
    synthesis_budget,
    synthesis_prompt,
    window_prompt,
)

__all__ = [
    "PUBLIC_ROUND_ID",
    "TOKENIZER",
    "WINDOWED_LABEL",
    "DecisionSection",
    "JudgePrompt",
    "PromptBuilder",
    "WindowPlan",
    "count_tokens",
    "counting_method",
    "estimate_tokens",
    "exact_for",
    "fence",
    "format_value",
    "plan_windows",
    "prompt_hash",
    "synthesis_budget",
    "synthesis_prompt",
    "window_prompt",
]
