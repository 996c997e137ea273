"""The four checks every file of structural classes runs on its own sentences (``test_standalone_classes.py``,
``test_holdout9_classes.py``, ``test_split_and_link_classes.py``): the scrubber removes the author and the guard
would refuse the sentence unscrubbed; market news of the same shape stays verbatim; the guard refuses with its own
patterns; the guard lets market news of the same shape through."""

from __future__ import annotations

from grader.anonymizer import LeakGuard
from tests.anonymizer.test_frame_classes import _scrub

SYMBOLS = ["SPY", "META", "GOOGL", "AAPL", "BABA", "ORCL", "MSFT"]


def check_removed(family: str, text: str, gone: str) -> None:
    out = _scrub(family, text)
    assert gone.lower() not in out.lower(), out
    assert LeakGuard.for_author(family, None, SYMBOLS).find(text), text  # and the guard would refuse it unscrubbed


def check_kept(family: str, text: str) -> None:
    assert _scrub(family, text) == text


def check_refused(family: str, model: str, text: str) -> None:
    assert LeakGuard(family, model, SYMBOLS).find(text)


def check_passed(family: str, model: str, text: str) -> None:
    assert LeakGuard(family, model, SYMBOLS).find(text) == []
