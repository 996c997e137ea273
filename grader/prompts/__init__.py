"""Judge prompts built from the anonymized record and point-in-time snapshots."""

from grader.prompts._builder import (
    DecisionSection,
    JudgePrompt,
    PromptBuilder,
    estimate_tokens,
    format_value,
    prompt_hash,
)
from grader.prompts._tokens import TOKENIZER, count_tokens, counting_method, exact_for

__all__ = ["TOKENIZER", "DecisionSection", "JudgePrompt", "PromptBuilder", "count_tokens", "counting_method",
           "estimate_tokens", "exact_for", "format_value", "prompt_hash"]
