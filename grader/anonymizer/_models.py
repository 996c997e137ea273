"""Records of what the anonymizer did: replacements, per-decision scrub records and the alias map.

These objects name the original identities, so they belong to the grader's side of the wall: they are
written next to (never inside) the judge's view and never reach a prompt.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

ReplacementKind = Literal["contestant", "model", "provider", "self_reference"]
"""What a replaced span was: a season contestant (by id, name or model), another model identity, a
provider/family name, or a self-identifying phrase ("I'm Claude", "as an OpenAI model")."""

MODEL_PLACEHOLDER = "[model]"
PROVIDER_PLACEHOLDER = "[provider]"
SELF_REFERENCE_PLACEHOLDER = "[self-reference]"
UNDISCLOSED = "undisclosed"


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Replacement(_Frozen):
    """One scrubbed span: ``original`` was ``text[start:end]`` of the input and became ``replacement``."""

    original: str
    replacement: str
    kind: ReplacementKind
    start: int
    end: int


class Kept(_Frozen):
    """A name the scrubber found and deliberately left verbatim, with the reason (for the scrub report)."""

    original: str
    kind: ReplacementKind
    start: int
    end: int
    reason: str


class ScrubResult(_Frozen):
    """Scrubbed text and every replacement made, in text order (offsets refer to the input text), plus the
    names found and kept verbatim because they are market context, not the author's identity."""

    text: str
    replacements: list[Replacement]
    kept: list[Kept] = []

    @property
    def changed(self) -> bool:
        return bool(self.replacements)


class ScrubRecord(_Frozen):
    """What was scrubbed in one decision, per text field (``rationale``, ``context``,
    ``allocation[i].rationale``). Keyed by the original decision key; grader-side only."""

    decision_key: str
    contestant_id: str
    alias_id: str
    fields: dict[str, list[Replacement]]
    kept: dict[str, list[Kept]] = {}
    """Names found and deliberately kept verbatim (companies in market context), per field, with the reason."""

    @property
    def count(self) -> int:
        return sum(len(r) for r in self.fields.values())


class AliasAssignment(_Frozen):
    """One contestant's neutral alias: ``alias`` ("Contestant C") and ``alias_id`` ("contestant-c")."""

    alias: str
    alias_id: str
    contestant_id: str
