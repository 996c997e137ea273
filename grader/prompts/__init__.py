"""Judge prompts built from the anonymized record and point-in-time snapshots."""

from grader.prompts._builder import (
    DecisionSection,
    JudgePrompt,
    PromptBuilder,
    estimate_tokens,
    format_value,
    prompt_hash,
)

__all__ = ["DecisionSection", "JudgePrompt", "PromptBuilder", "estimate_tokens", "format_value", "prompt_hash"]
