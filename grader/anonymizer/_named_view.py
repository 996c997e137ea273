"""The judge's view with anonymization off: the same interface as the anonymizer, every name and text as written."""

from __future__ import annotations

from collections.abc import Iterable

from grader.anonymizer._models import AliasAssignment, ScrubRecord, ScrubResult
from grader.season import Contestant, Decision

__all__ = ["NamedView"]


class NamedView:
    """The judge's view when a rubric turns anonymization off (seed 003's v0.3): contestants by their own display
    names and every text verbatim. Same interface as :class:`Anonymizer`, so prompts are built the same way."""

    anonymizes = False
    """The prompt says so: its record is headed "contestants named", never "anonymized"."""

    def __init__(self, contestants: Iterable[Contestant]):
        self._contestants = {c.id: c for c in contestants}
        self.assignments = [
            AliasAssignment(alias=c.display_name, alias_id=c.id, contestant_id=c.id) for c in self._contestants.values()
        ]

    @property
    def mapping(self) -> dict[str, str]:
        return {c: c for c in self._contestants}

    def alias_of(self, contestant_id: str) -> str:
        return self._contestants[contestant_id].display_name

    def alias_id_of(self, contestant_id: str) -> str:
        return contestant_id

    def contestant_of(self, alias: str) -> str:
        for c in self._contestants.values():
            if alias in (c.id, c.display_name):
                return c.id
        raise KeyError(f"unknown contestant {alias!r}")

    def scrub(self, text: str, contestant_id: str | None = None) -> ScrubResult:
        return ScrubResult(text=text, replacements=[])

    def mentions(self, text: str) -> list[str]:
        return []

    def find_leaks(self, text: str) -> list[str]:
        return []  # nothing is hidden, so nothing can leak

    def anonymize_decision(self, decision: Decision) -> tuple[Decision, ScrubRecord]:
        return decision, ScrubRecord(
            decision_key=decision.key, contestant_id=decision.contestant_id, alias_id=decision.contestant_id, fields={}
        )

    def anonymize_contestant(self, contestant: Contestant) -> Contestant:
        return contestant

    def anonymized_contestants(self) -> list[Contestant]:
        return list(self._contestants.values())
