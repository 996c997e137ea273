"""The signature every qualitative reader has: it scans a sentence and emits assertions through ``add``."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol


class Emit(Protocol):
    def __call__(self, m: re.Match[str], span: tuple[int, int] | None = None, keep: bool = True, **kw: object) -> bool:
        """Emit an assertion for the match (``kw`` are its fields); False when the span was already read or a
        forecast word governs it. ``keep=False`` leaves the span free for a second assertion on it; ``presupposed=True``
        (a past move a forecast takes for given: "could fade the recent rally") is read under a forecast word too."""
        ...


Reader = Callable[[str, Emit, "str | None"], None]
"""(sentence, emit, benchmark symbol) -> None."""
