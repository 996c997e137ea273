"""What changed between two rubric versions, grouped the way a reader asks about it."""

from __future__ import annotations

import difflib
from typing import Any

from pydantic import BaseModel, ConfigDict

from ._models import Rubric


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class WeightChange(_Frozen):
    """A weight that differs; ``before``/``after`` is None when the key exists on one side only."""

    key: str
    before: float | None
    after: float | None


class ValueChange(_Frozen):
    key: str
    before: Any = None
    after: Any = None


class RubricDiff(_Frozen):
    """Differences between rubric ``a`` (before) and ``b`` (after)."""

    a_id: str
    b_id: str
    a_content_hash: str
    b_content_hash: str
    a_judge_facing_hash: str
    b_judge_facing_hash: str
    identical: bool
    judge_facing_changed: bool
    weight_changes: list[WeightChange]
    """Sub-component (``axes.<axis>.<id>``), ``composite.<component>`` and ``process.<id>`` weights."""
    added_sub_components: list[str]
    """``<axis>.<id>`` present in b only."""
    removed_sub_components: list[str]
    text_changes: list[ValueChange]
    """Judge-facing wording of axes and sub-components (labels, descriptions)."""
    bands_changes: list[ValueChange]
    panel_changes: list[ValueChange]
    blend_changes: list[WeightChange]
    other_changes: list[ValueChange]
    """Everything else (id, version, titles, redistribution, efficiency rule, output schema, ...)."""
    instructions_changed: bool
    instructions_diff: str
    """Unified diff of the judge instructions ('' when unchanged)."""

    @property
    def score_only(self) -> bool:
        """True when stored grades stay valid: only scoring (weights, bands, blend, aggregation) changed."""
        return not self.judge_facing_changed

    def summary_lines(self) -> list[str]:
        """Human-readable lines, one per change, for a CLI or report."""
        if self.identical:
            return [f"{self.a_id} and {self.b_id} have identical content"]
        lines = [
            f"{self.a_id} -> {self.b_id}: "
            + (
                "judge-facing content changed: stored grades need a re-grade"
                if self.judge_facing_changed
                else "score-only change: stored grades can be re-scored without judge calls"
            )
        ]
        lines += [_change("weight", c.key, c.before, c.after) for c in self.weight_changes]
        lines += [f"sub-component {s}: added" for s in self.added_sub_components]
        lines += [f"sub-component {s}: removed" for s in self.removed_sub_components]
        lines += [f"text {c.key}: changed" for c in self.text_changes]
        lines += [_change("bands", c.key, c.before, c.after) for c in self.bands_changes]
        lines += [_change("panel", c.key, c.before, c.after) for c in self.panel_changes]
        lines += [_change("blend", c.key, c.before, c.after) for c in self.blend_changes]
        lines += [_change("", c.key, c.before, c.after) for c in self.other_changes]
        if self.instructions_changed:
            changed = sum(
                1
                for line in self.instructions_diff.splitlines()
                if line[:1] in "+-" and not line.startswith(("+++", "---"))
            )
            lines.append(f"instructions changed ({changed} lines added or removed)")
        return lines


_PRESENT = "(present)"


def _change(kind: str, key: str, before: Any, after: Any) -> str:
    label = f"{kind} {key}" if kind else key
    if any(isinstance(v, str) and len(v) > 60 for v in (before, after)):
        return f"{label}: changed"
    if before is None:
        return f"{label}: added" + ("" if after == _PRESENT else f" ({_show(after)})")
    if after is None:
        return f"{label}: removed" + ("" if before == _PRESENT else f" (was {_show(before)})")
    return f"{label}: {_show(before)} -> {_show(after)}"


def _show(value: Any) -> str:
    if value is None:
        return "(none)"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _flatten(node: Any, prefix: str, out: dict[str, Any]) -> dict[str, Any]:
    """Dotted keys -> leaf values; lists of mappings with an ``id`` are keyed by that id."""
    if isinstance(node, dict):
        for key, value in node.items():
            _flatten(value, f"{prefix}.{key}" if prefix else str(key), out)
    elif isinstance(node, list) and node and all(isinstance(i, dict) and "id" in i for i in node):
        for item in node:
            _flatten({k: v for k, v in item.items() if k != "id"}, f"{prefix}.{item['id']}", out)
            out[f"{prefix}.{item['id']}"] = _PRESENT
    else:
        out[prefix] = node
    return out


def rubric_diff(a: Rubric, b: Rubric) -> RubricDiff:
    """Everything that differs between rubric ``a`` (before) and ``b`` (after)."""
    flat_a = _flatten(a.model_dump(mode="json"), "", {})
    flat_b = _flatten(b.model_dump(mode="json"), "", {})
    weights: list[WeightChange] = []
    blend: list[WeightChange] = []
    text: list[ValueChange] = []
    bands: list[ValueChange] = []
    panel: list[ValueChange] = []
    other: list[ValueChange] = []
    added: list[str] = []
    removed: list[str] = []

    one_sided = {k for k in set(flat_a) ^ set(flat_b) if _PRESENT in (flat_a.get(k), flat_b.get(k))}
    for key in sorted(set(flat_a) | set(flat_b), key=lambda k: (k.split(".")[0], k)):
        before, after = flat_a.get(key), flat_b.get(key)
        if before == after or key == "instructions":
            continue
        if any(key.startswith(parent + ".") for parent in one_sided):
            continue  # a child of an added or removed item: the item itself is reported
        parts = key.split(".")
        if parts[0] == "axes" and len(parts) >= 4 and parts[2] == "sub_components":
            axis, sub_id = parts[1], parts[3]
            if len(parts) == 4:
                (added if before is None else removed).append(f"{axis}.{sub_id}")
            elif parts[4] == "weight" and before is not None and after is not None:
                weights.append(WeightChange(key=f"axes.{axis}.{sub_id}", before=before, after=after))
            elif before is not None and after is not None:
                text.append(ValueChange(key=key, before=before, after=after))
        elif parts[0] == "axes":
            text.append(ValueChange(key=key, before=before, after=after))
        elif parts[0] == "composite" or key.startswith("process.weights."):
            weights.append(WeightChange(key=key, before=before, after=after))
        elif parts[0] == "bands":
            bands.append(ValueChange(key=key, before=before, after=after))
        elif parts[0] == "panel":
            panel.append(ValueChange(key=key.removeprefix("panel."), before=before, after=after))
        elif key.startswith("total.blend."):
            blend.append(WeightChange(key=key.removeprefix("total.blend."), before=before, after=after))
        else:
            other.append(ValueChange(key=key, before=before, after=after))

    instructions_diff = "".join(
        difflib.unified_diff(
            a.instructions.splitlines(keepends=True),
            b.instructions.splitlines(keepends=True),
            fromfile=f"{a.id}/instructions",
            tofile=f"{b.id}/instructions",
        )
    )
    return RubricDiff(
        a_id=a.id,
        b_id=b.id,
        a_content_hash=a.content_hash,
        b_content_hash=b.content_hash,
        a_judge_facing_hash=a.judge_facing_hash,
        b_judge_facing_hash=b.judge_facing_hash,
        identical=a.content_hash == b.content_hash,
        judge_facing_changed=a.judge_facing_hash != b.judge_facing_hash,
        weight_changes=weights,
        added_sub_components=added,
        removed_sub_components=removed,
        text_changes=text,
        bands_changes=bands,
        panel_changes=panel,
        blend_changes=blend,
        other_changes=other,
        instructions_changed=a.instructions != b.instructions,
        instructions_diff=instructions_diff,
    )
