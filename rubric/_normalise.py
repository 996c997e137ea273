"""Turn a judge's raw reply into a validated grade, normalising only what is safe to normalise.

Safe: key spelling ("Sub Scores" -> sub_scores, a sub-component's label -> its id), claim statuses
("Supported " -> supported, "not verifiable" -> not_verifiable), whole-number scores given as strings
or floats ("85", 85.0 -> 85), yes/no spellings of the lookahead flag, a comma-separated string of cited
fields, a missing ``schema_version``, unknown extra keys (dropped). Not safe, so the grade is rejected
with reasons: out-of-range or fractional scores, unknown or missing sub-components, unknown statuses,
wrong types. The function never raises.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import ValidationError

from ._grade import JudgeGrade, grade_model_for
from ._models import Rubric

_WHOLE_NUMBER = re.compile(r"^[+-]?\d+(?:\.0*)?$")
_ISO_DATETIME = re.compile(r"^(\d{4}-\d{2}-\d{2})[T ]\d{2}:\d{2}")
_TRUE = {"true", "yes", "pass", "passed", "ok"}
_FALSE = {"false", "no", "fail", "failed"}
_NULL = {"null", "none", "n/a", "na", ""}
_STATUS_ALIASES = {
    "supported": "supported",
    "contradicted": "contradicted",
    "not_verifiable": "not_verifiable",
    "unverifiable": "not_verifiable",
    "notverifiable": "not_verifiable",
}


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.strip().lower()).strip("_")


class _Normaliser:
    def __init__(self, rubric: Rubric) -> None:
        self.rubric = rubric
        self.notes: list[str] = []

    def note(self, where: str, what: str) -> None:
        self.notes.append(f"normalised {where}: {what}")

    def keys(
        self,
        obj: dict[str, Any],
        known: list[str],
        where: str,
        *,
        drop_unknown: bool,
        aliases: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        """Rename keys whose spelling differs from a known key; drop (or keep, to be rejected) the rest."""
        out: dict[str, Any] = {}
        lookup = {_slug(k): k for k in known} | {_slug(a): k for a, k in (aliases or {}).items()}
        for key, value in obj.items():
            target: str | None
            if key in known:
                target = key
            else:
                target = lookup.get(_slug(str(key)))
                if target is None:
                    if drop_unknown:
                        self.note(where or "grade", f"dropped unknown key {key!r}")
                    else:
                        out[key] = value
                    continue
                self.note(f"{where}.{target}" if where else target, f"key {key!r} read as {target!r}")
            if target in out:
                raise _Reject(f"{where}.{target}" if where else target, "given twice under different spellings")
            out[target] = value
        return out

    def score(self, value: Any, where: str, *, nullable: bool) -> Any:
        if isinstance(value, bool):
            return value  # rejected by validation: a bool is not a score
        if isinstance(value, float) and value.is_integer():
            self.note(where, f"{value!r} -> {int(value)}")
            return int(value)
        if isinstance(value, str):
            text = value.strip()
            if nullable and text.lower() in _NULL:
                self.note(where, f"{value!r} -> null")
                return None
            if _WHOLE_NUMBER.match(text):
                self.note(where, f"{value!r} -> {int(float(text))}")
                return int(float(text))
        return value

    def axis(self, raw: Any, axis_name: str) -> Any:
        if not isinstance(raw, dict):
            return raw
        obj = self.keys(
            raw,
            ["sub_scores", "note"],
            axis_name,
            drop_unknown=True,
            aliases={"subscores": "sub_scores", "scores": "sub_scores"},
        )
        subs = obj.get("sub_scores")
        if isinstance(subs, dict):
            axis = getattr(self.rubric.axes, axis_name)
            labels = {s.label: s.id for s in axis.sub_components}
            subs = self.keys(subs, axis.ids(), f"{axis_name}.sub_scores", drop_unknown=False, aliases=labels)
            obj["sub_scores"] = {
                key: self.score(value, f"{axis_name}.sub_scores.{key}", nullable=False)
                if key in labels.values()
                else value
                for key, value in subs.items()
            }
        return obj

    def direct(self, raw: Any, axis_name: str, *, nullable: bool) -> Any:
        if not isinstance(raw, dict):
            return raw
        obj = self.keys(raw, ["score", "note"], axis_name, drop_unknown=True)
        if "score" in obj:
            obj["score"] = self.score(obj["score"], f"{axis_name}.score", nullable=nullable)
        return obj

    _ASSERTION_KEYS = ["subject", "field", "kind", "value", "relative_to", "rank", "order", "group", "horizon"]
    _KIND_ALIASES = {
        "equals": "value",
        "eq": "value",
        "is": "value",
        "value": "value",
        "above": "above",
        "gt": "above",
        "greater": "above",
        "greater_than": "above",
        "over": "above",
        "below": "below",
        "lt": "below",
        "less": "below",
        "less_than": "below",
        "under": "below",
        "rank": "rank",
        "ranking": "rank",
    }

    def assertion(self, raw: Any, where: str) -> Any:
        """A structured assertion (grade-v2): unknown keys dropped, a missing optional key set to null, kind
        synonyms mapped ("equals" -> "value"); anything still wrong is left for validation to reject."""
        if not isinstance(raw, dict):
            return raw
        obj = self.keys(
            raw,
            self._ASSERTION_KEYS,
            where,
            drop_unknown=True,
            aliases={"symbol": "subject", "ticker": "subject", "stated": "value", "vs": "relative_to"},
        )
        for key in ("value", "relative_to", "rank", "order", "group", "horizon"):
            if key not in obj:
                self.note(f"{where}.{key}", "missing -> null")
                obj[key] = None
        kind = obj.get("kind")
        if isinstance(kind, str) and kind not in ("value", "above", "below", "rank"):
            target = self._KIND_ALIASES.get(_slug(kind))
            if target is not None:
                self.note(f"{where}.kind", f"{kind!r} -> {target!r}")
                obj["kind"] = target
        return obj

    def claim(self, raw: Any, where: str) -> Any:
        if not isinstance(raw, dict):
            return raw
        known = ["claim", "decision_date", "symbol", "cited_fields", "status", "note"]
        if self.rubric.output_schema_version != "grade-v1":
            known.append("assertions")
            if isinstance(raw.get("assertions"), list):
                raw = {
                    **raw,
                    "assertions": [
                        self.assertion(a, f"{where}.assertions[{i}]") for i, a in enumerate(raw["assertions"])
                    ],
                }
        obj = self.keys(
            raw,
            known,
            where,
            drop_unknown=True,
            aliases={"date": "decision_date", "fields": "cited_fields", "ticker": "symbol"},
        )
        status = obj.get("status")
        if isinstance(status, str) and status not in _STATUS_ALIASES.values():
            target = _STATUS_ALIASES.get(_slug(status)) or _STATUS_ALIASES.get(_slug(status).replace("_", ""))
            if target is not None:
                self.note(f"{where}.status", f"{status!r} -> {target!r}")
                obj["status"] = target
        fields = obj.get("cited_fields")
        if isinstance(fields, str):
            split = [f.strip() for f in fields.split(",") if f.strip()]
            self.note(f"{where}.cited_fields", f"{fields!r} -> {split!r}")
            obj["cited_fields"] = split
        when = obj.get("decision_date")
        if isinstance(when, str):
            stripped = when.strip()
            match = _ISO_DATETIME.match(stripped)
            if match:
                self.note(f"{where}.decision_date", f"{when!r} -> {match.group(1)!r}")
                obj["decision_date"] = match.group(1)
            elif stripped != when:
                obj["decision_date"] = stripped
        elif when is not None and not hasattr(when, "isoformat"):
            raise _Reject(f"{where}.decision_date", f"expected a YYYY-MM-DD string, got {when!r}")
        symbol = obj.get("symbol")
        if isinstance(symbol, str) and symbol != symbol.strip():
            obj["symbol"] = symbol.strip()
        return obj

    def lookahead(self, raw: Any) -> Any:
        if isinstance(raw, bool):
            self.note("lookahead_check", f"bare {raw} -> {{passed: {str(raw).lower()}, note: ''}}")
            return {"passed": raw, "note": ""}
        if not isinstance(raw, dict):
            return raw
        obj = self.keys(
            raw,
            ["passed", "note"],
            "lookahead_check",
            drop_unknown=True,
            aliases={"pass": "passed", "result": "passed"},
        )
        flag = obj.get("passed")
        if isinstance(flag, str):
            word = flag.strip().lower()
            if word in _TRUE or word in _FALSE:
                self.note("lookahead_check.passed", f"{flag!r} -> {word in _TRUE}")
                obj["passed"] = word in _TRUE
        return obj

    def grade(self, raw: dict[str, Any], fields: list[str]) -> dict[str, Any]:
        data = self.keys(raw, fields, "", drop_unknown=True)
        if "schema_version" not in data:
            self.note("schema_version", f"missing -> {self.rubric.output_schema_version!r}")
            data["schema_version"] = self.rubric.output_schema_version
        for axis_name in ("reasoning", "evidence"):
            if axis_name in data:
                data[axis_name] = self.axis(data[axis_name], axis_name)
        if "outcome" in data:
            data["outcome"] = self.direct(data["outcome"], "outcome", nullable=True)
        if "data_reliability" in data:
            data["data_reliability"] = self.direct(data["data_reliability"], "data_reliability", nullable=False)
        if isinstance(data.get("claim_ledger"), list):
            data["claim_ledger"] = [
                self.claim(entry, f"claim_ledger[{i}]") for i, entry in enumerate(data["claim_ledger"])
            ]
        if "lookahead_check" in data:
            data["lookahead_check"] = self.lookahead(data["lookahead_check"])
        return data


class _Reject(Exception):
    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")


def _loc(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "grade"


def _describe(error: dict[str, Any]) -> str:
    where = _loc(tuple(error["loc"]))
    kind = error["type"]
    if kind == "missing":
        return f"{where}: missing"
    if kind == "extra_forbidden":
        if ".sub_scores." in where:
            return f"{where}: unknown sub-component id for this rubric"
        return f"{where}: unknown key"
    return f"{where}: {error['msg']} (got {error.get('input')!r})"


def _parse_text(raw: str | bytes) -> Any:
    text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    text = text.strip()
    fence = re.fullmatch(r"```(?:json)?\s*(.*?)\s*```", text, flags=re.DOTALL)
    if fence:
        text = fence.group(1)
    return json.loads(text)


def normalise_grade(raw: Any, rubric: Rubric) -> tuple[JudgeGrade | None, list[str]]:
    """(grade, notes) when the reply is a valid grade after safe normalisation, else (None, reasons).

    ``raw`` is the parsed JSON object (a JSON string or bytes is parsed first). When a grade is returned
    the list holds one "normalised ..." note per change made; when it is rejected, the reasons.
    """
    try:
        model = grade_model_for(rubric)
        if isinstance(raw, (str, bytes)):
            try:
                raw = _parse_text(raw)
            except (ValueError, UnicodeDecodeError) as exc:
                return None, [f"reply is not valid JSON: {exc}"]
        if not isinstance(raw, dict):
            return None, [f"expected a JSON object, got {type(raw).__name__}"]
        normaliser = _Normaliser(rubric)
        try:
            data = normaliser.grade(raw, list(model.model_fields))
        except _Reject as exc:
            return None, [str(exc)]
        try:
            grade = model.model_validate(data)
        except ValidationError as exc:
            return None, [_describe(dict(e)) for e in exc.errors()]
        return grade, normaliser.notes
    except Exception as exc:  # noqa: BLE001 - the contract is "never raises"; report instead
        return None, [f"could not normalise the grade: {type(exc).__name__}: {exc}"]
