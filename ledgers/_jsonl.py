"""``grader claims verify``: verify a JSONL file of claims into a JSONL file of verifications.

Input lines: ``{id, decided_at, symbol, text, fields}`` (optional ``judge_status``, ``judge_note``).
Output lines: ``{id, status, reason, evidence, rule, lookahead, briefing_only}``. Every input line is
validated before anything is written; a bad line raises ``ClaimsFileError`` naming the file, the line
and the field, and the output file is left untouched. The output is written to a temporary file and
renamed into place.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter
from pathlib import Path

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, ValidationError

from grader.pit import PointInTimeStore
from ledgers._models import Claim, Status, VerifierConfig
from ledgers._verify import DEFAULT_CONFIG, Verifier


class ClaimsFileError(ValueError):
    """A claims file that cannot be verified; ``errors`` lists every problem as "FILE, line N, field 'F': msg"."""

    def __init__(self, errors: list[str]):
        self.errors = errors
        shown = errors[:20] + ([f"... and {len(errors) - 20} more"] if len(errors) > 20 else [])
        super().__init__("invalid claims file:\n" + "\n".join(shown))


class ClaimLine(BaseModel):
    """One input line."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1)
    decided_at: AwareDatetime
    symbol: str | None = None
    text: str = Field(min_length=1)
    fields: list[str] = Field(default_factory=list)
    judge_status: Status | None = None
    judge_note: str = ""


def read_claims(path: Path) -> list[Claim]:
    """Parse and validate a claims JSONL file; raises ``ClaimsFileError`` listing every bad line."""
    path = Path(path)
    errors: list[str] = []
    claims: list[Claim] = []
    first_line: dict[str, int] = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ClaimsFileError([f"{path}: cannot read ({exc})"]) from exc
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as exc:
            errors.append(f"{path}, line {number}: not valid JSON ({exc.msg} at column {exc.colno})")
            continue
        if not isinstance(raw, dict):
            errors.append(f"{path}, line {number}: expected a JSON object, got {type(raw).__name__}")
            continue
        try:
            item = ClaimLine.model_validate(raw)
        except ValidationError as exc:
            for err in exc.errors():
                where = ".".join(str(p) for p in err["loc"]) or "(line)"
                errors.append(f"{path}, line {number}, field '{where}': {err['msg']}")
            continue
        if item.id in first_line:
            errors.append(
                f"{path}, line {number}, field 'id': duplicate id {item.id!r} (first on line {first_line[item.id]})"
            )
            continue
        first_line[item.id] = number
        claims.append(
            Claim(
                id=item.id,
                text=item.text,
                decided_at=item.decided_at,
                symbol=item.symbol,
                cited_fields=item.fields,
                judge_status=item.judge_status,
                judge_note=item.judge_note,
            )
        )
    if not claims and not errors:
        errors.append(f"{path}: no claims (empty file)")
    if errors:
        raise ClaimsFileError(errors)
    return claims


def verify_claims_jsonl(
    in_path: Path | str, out_path: Path | str, store: PointInTimeStore, config: VerifierConfig = DEFAULT_CONFIG
) -> dict[str, int]:
    """Verify every claim of ``in_path`` into ``out_path``; returns counts per status."""
    claims = read_claims(Path(in_path))
    verifier = Verifier(store, config)
    out_path = Path(out_path)
    counts: Counter[str] = Counter()
    out_path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".claims-", suffix=".jsonl", dir=out_path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            for claim in claims:
                v = verifier.verify(claim)
                counts[v.status] += 1
                counts["lookahead"] += int(v.lookahead)
                counts["briefing_only"] += int(v.briefing_only)
                fh.write(
                    json.dumps(
                        {
                            "id": claim.id,
                            "status": v.status,
                            "reason": v.reason,
                            "evidence": [
                                {
                                    "symbol": e.symbol,
                                    "field": e.field,
                                    "value": e.value,
                                    "observed_at": e.observed_at.isoformat(),
                                    "source": e.source,
                                }
                                for e in v.evidence
                            ],
                            "rule": v.rule,
                            "lookahead": v.lookahead,
                            "briefing_only": v.briefing_only,
                        }
                    )
                    + "\n"
                )
        os.replace(tmp, out_path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return {
        "claims": len(claims),
        **{s: counts.get(s, 0) for s in ("supported", "not_verifiable", "contradicted")},
        "lookahead": counts.get("lookahead", 0),
        "briefing_only": counts.get("briefing_only", 0),
    }
