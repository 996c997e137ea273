"""The terminal: bundle text never acts on the operator's terminal or on Rich.

- :func:`visible_controls` shows every control character (C0, DEL, C1: the escape that starts an ANSI or OSC
  sequence, a carriage return that overwrites a line, a bell) and every bidirectional override as its escape
  (``\\x1b``, ``\\u202e``): visible, never executed. A line break and a tab are kept where ``multiline``.
- :func:`for_terminal` does that and escapes Rich markup, so ``model-x [beta]`` prints as written and ``[/]``
  cannot close (or crash) the caller's markup. Every value from a bundle interpolated into a Rich markup string
  passes through it.
- :class:`SafeConsole` is the CLI's console: no emoji codes (``:rocket:`` in a name stays text), and a last line
  of defence that shows any control character left in printed text (the console's own styling is untouched).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.segment import Segment

_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
_CONTROLS_ONE_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def _show(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible_controls(text: str, multiline: bool = False) -> str:
    """Control characters and bidirectional overrides replaced by their visible escapes."""
    return (_CONTROLS if multiline else _CONTROLS_ONE_LINE).sub(_show, text)


def for_terminal(value: Any, multiline: bool = False) -> str:
    """``value`` as text safe to interpolate into a Rich markup string: controls made visible, markup escaped."""
    return escape(visible_controls(str(value), multiline))


class SafeConsole(Console):
    """A Rich console that shows, never sends, a control character in printed text, and reads no emoji codes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("emoji", False)
        super().__init__(*args, **kwargs)

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        return super()._render_buffer(
            seg if seg.control else Segment(visible_controls(seg.text, multiline=True), seg.style, seg.control)
            for seg in buffer
        )
