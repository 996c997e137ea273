"""Measure the claim verifier against hand-labelled claims from real CapitalBench rationales.

Each label (``tests/ledgers/fixtures/real_claims/*.jsonl``; format in that folder's README) names a round, a
model, the verbatim sentence, the words that carry the claim (``quote``), what decides it (option, table
column, value) and the gold status. The rounds are imported with the production adapter (so the point-in-time
fields are exactly what the grader uses), each sentence is read by the production extractor with the holding
under discussion as its default subject (a synthetic rationale's sentence in place, in its whole document), the
claims whose span covers the quote are verified against the round's own store, and the verdict is compared with
the gold status.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ledgers import (
    STATUSES,
    Claim,
    Status,
    Verification,
    VerifierConfig,
    extract_claims,
    structured_assertions,
    verify_many,
)

Kind = Literal["number", "direction", "ranking", "comparison", "forecast", "probability", "plan", "briefing", "opinion"]
TABLE_DECIDED_KINDS = ("number", "direction", "ranking", "comparison")


class LabelledClaim(BaseModel):
    """One hand-labelled claim of a real rationale."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    round: str
    model: str
    source: str
    holding: str | None
    sentence: str
    quote: str
    kind: Kind
    subject: str | None
    table: Literal["trailing_returns", "decision_context", "quality_evidence"] | None
    column: str | None
    table_value: float | None
    stated: float | None
    status: Status
    reason: str
    doubt: str | None = None
    """The labeller's stated doubt about this label, if any (kept with it; not used to score)."""
    document: str | None = Field(default=None, exclude=True)
    """The whole text a synthetic rationale's sentence comes from (``<labels folder>/<round>/<file>``, named by
    ``source``), set when the labels are read: the sentence is then read in place, with the structure around it
    (a heading naming its option, an earlier turn), as the grader reads a rationale whole."""

    @property
    def track(self) -> str:
        return self.round.rsplit("-", 1)[-1]


class LabelsError(ValueError):
    """A labels file that cannot be used (file, line and field named)."""


def read_labels(paths: Iterable[Path]) -> list[LabelledClaim]:
    out: list[LabelledClaim] = []
    seen: dict[str, str] = {}
    for path in sorted(paths):
        for lineno, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
            if not line.strip():
                continue
            try:
                label = LabelledClaim.model_validate(json.loads(line))
            except json.JSONDecodeError as err:
                raise LabelsError(f"{path}, line {lineno}: invalid JSON ({err.msg})") from None
            except ValidationError as err:
                e = err.errors()[0]
                raise LabelsError(
                    f"{path}, line {lineno}, field '{'.'.join(map(str, e['loc']))}': {e['msg']}"
                ) from None
            if label.quote not in label.sentence:
                raise LabelsError(f"{path}, line {lineno}, field 'quote': not a substring of the sentence")
            if label.id in seen:
                raise LabelsError(f"{path}, line {lineno}, field 'id': duplicate of {seen[label.id]}")
            seen[label.id] = f"{path.name}:{lineno}"
            if "#" in label.source:  # a synthetic rationale: "<file>#<anchor>", or "#<anchor>" in "<model>.md"
                name = label.source.split("#", 1)[0] or f"{label.model}.md"
                document = path.parent / label.round / name
                if not document.is_file():
                    raise LabelsError(f"{path}, line {lineno}, field 'source': no document {document}")
                text = document.read_text(encoding="utf-8")
                if label.sentence not in text:
                    raise LabelsError(f"{path}, line {lineno}, field 'sentence': not in {document.name}")
                label = label.model_copy(update={"document": text})
            out.append(label)
    return out


@dataclass
class Outcome:
    label: LabelledClaim
    predicted: Status
    verifications: list[Verification]

    @property
    def correct(self) -> bool:
        return self.predicted == self.label.status


@dataclass
class Evaluation:
    outcomes: list[Outcome] = field(default_factory=list)
    structured: list[Outcome] = field(default_factory=list)
    """The numeric labels checked through the structured path (rubric v0.5): the assertion a judge would give
    ({subject, field of the column, value}) built from the label, verified against the same store."""

    def structured_agreement(self) -> float | None:
        return sum(o.correct for o in self.structured) / len(self.structured) if self.structured else None

    def confusion(self) -> dict[Status, Counter[Status]]:
        table: dict[Status, Counter[Status]] = {s: Counter() for s in STATUSES}
        for o in self.outcomes:
            table[o.label.status][o.predicted] += 1
        return table

    def precision(self, status: Status) -> float | None:
        predicted = [o for o in self.outcomes if o.predicted == status]
        return sum(o.correct for o in predicted) / len(predicted) if predicted else None

    def recall(self, status: Status) -> float | None:
        gold = [o for o in self.outcomes if o.label.status == status]
        return sum(o.correct for o in gold) / len(gold) if gold else None

    @property
    def accuracy(self) -> float:
        return sum(o.correct for o in self.outcomes) / len(self.outcomes) if self.outcomes else 0.0

    def checked_share(self) -> float | None:
        """Of the numeric claims the tables decide (gold supported or contradicted), the share the verifier
        checked (supported or contradicted, right or wrong)."""
        decided = [o for o in self.outcomes if o.label.kind == "number" and o.label.status != "not_verifiable"]
        if not decided:
            return None
        return sum(o.predicted != "not_verifiable" for o in decided) / len(decided)

    def mistakes(self) -> list[Outcome]:
        return [o for o in self.outcomes if not o.correct]

    def table(self) -> str:
        """The confusion matrix and the per-status figures, as text."""
        rows = ["gold \\ verifier     supported  not_verifiable  contradicted   recall  precision"]
        conf = self.confusion()
        for s in STATUSES:
            c = conf[s]
            r, p = self.recall(s), self.precision(s)
            rows.append(
                f"{s:<18}{c['supported']:>11}{c['not_verifiable']:>16}{c['contradicted']:>14}{_pct(r):>9}{_pct(p):>11}"
            )
        checked = self.checked_share()
        rows.append(
            f"claims {len(self.outcomes)}; accuracy {_pct(self.accuracy)}; numeric table-decided "
            f"claims checked {_pct(checked)}"
        )
        if self.structured:
            rows.append(
                f"structured path (v0.5 assertions built from the labels' option, column and value): "
                f"{len(self.structured)} numeric claims, agreement {_pct(self.structured_agreement())}"
            )
        return "\n".join(rows)


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.1f}%"


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def _is_ranking(claim: Claim) -> bool:
    return claim.unread is not None or any(a.rule == "ranking" for a in claim.assertions or ())


def _claims_of_kind(kind: str, hits: list[Claim]) -> list[Claim]:
    """The claims under a label's quote that are of the label's kind, where the quote covers several: a figure
    and the superlative said of it are two claims ("+2.10%, best among sectors"); a ranking label is compared
    with the verdict on the ranking, a number label with the verdict on the figure."""
    if kind == "ranking" and any(_is_ranking(c) for c in hits):
        return [c for c in hits if _is_ranking(c)]
    if kind == "number" and any(not _is_ranking(c) for c in hits):
        return [c for c in hits if not _is_ranking(c)]
    return hits


def predicted_status(verifications: Sequence[Verification]) -> Status:
    statuses = {v.status for v in verifications}
    if "contradicted" in statuses:
        return "contradicted"
    if "supported" in statuses:
        return "supported"
    return "not_verifiable"


def _round_day(round_id: str) -> date | None:
    m = re.match(r"CB-(\d{4}-\d{2}-\d{2})", round_id)
    return date.fromisoformat(m.group(1)) if m else None


def _with_placeholder_run(rounds_dir: Path, round_id: str, tmp: Path) -> Path:
    """The rounds folder to import ``round_id`` from. A round that was never run (no ``runs/``: its scoring job was
    cancelled) has tables a synthetic rationale can be labelled on, but no decision to import: it is linked into
    ``tmp`` with one submission of the official run of the nearest round of its track (its round id rewritten, its
    holdings options of this round), so that the importer builds the round's point-in-time store. Only the store is
    used: the placeholder decision is never graded or shown."""
    rd = rounds_dir / round_id
    day = _round_day(round_id)
    if (rd / "runs").is_dir() or not rd.is_dir() or day is None:
        return rounds_dir
    track = round_id.rsplit("-", 1)[-1]
    donors = sorted(
        (
            p
            for p in rounds_dir.iterdir()
            if p.name.endswith("-" + track) and (p / "runs").is_dir() and _round_day(p.name)
        ),
        key=lambda p: abs(((_round_day(p.name) or day) - day).days),
    )
    options = {str(o.get("id")) for o in (yaml.safe_load((rd / "options.yaml").read_text()) or {}).get("options", [])}
    target = tmp / "placeholder-rounds" / round_id
    target.mkdir(parents=True)
    for item in rd.iterdir():
        (target / item.name).symlink_to(item.resolve())
    for donor in donors:
        official = next(
            (
                r
                for r in sorted((donor / "runs").iterdir())
                if (r / "run_manifest.yaml").is_file()
                and (yaml.safe_load((r / "run_manifest.yaml").read_text()) or {}).get("operator_selected_official")
            ),
            None,
        )
        if official is None:
            continue
        for sub in sorted((official / "submissions" / "parsed").glob("*.json")):
            doc = json.loads(sub.read_text(encoding="utf-8"))
            held = {h.get("option_id") for h in doc.get("portfolio") or []}
            if not held or not held <= options:
                continue
            run = target / "runs" / "placeholder"
            (run / "submissions" / "parsed").mkdir(parents=True)
            shutil.copy(official / "run_manifest.yaml", run / "run_manifest.yaml")
            (run / "submissions" / "parsed" / sub.name).write_text(
                json.dumps({**doc, "round_id": round_id}), encoding="utf-8"
            )
            return target.parent
    return rounds_dir


def evaluate(labels: Sequence[LabelledClaim], rounds_dir: Path, config: VerifierConfig | None = None) -> Evaluation:
    """Verify every labelled claim as the grader would read it; see the module docstring."""
    from grader.adapters import import_capitalbench
    from grader.adapters.capitalbench import column_field
    from grader.judges.reference import universe_index
    from grader.season import load_bundle

    result = Evaluation()
    by_round: dict[str, list[LabelledClaim]] = {}
    for label in labels:
        by_round.setdefault(label.round, []).append(label)
    with tempfile.TemporaryDirectory(prefix="labelled-claims-") as tmp:
        for round_id, group in sorted(by_round.items()):
            # one season per round: rounds are independent and may share a deadline and a model
            out = Path(tmp) / round_id
            source = _with_placeholder_run(rounds_dir, round_id, Path(tmp) / f"{round_id}-source")
            import_capitalbench(source, group[0].track, None, None, out, round_ids=[round_id])
            bundle = load_bundle(out)
            index = universe_index(bundle)
            bench = bundle.info.benchmark
            cfg = config or VerifierConfig(benchmark=bench)
            decided = {r.id: r.decided_at for r in bundle.info.rounds or []}[round_id]
            store = bundle.store_for(round_id)
            available = sorted({f for s in store.symbols for f in store.fields(s)})
            read: dict[str, list[Claim]] = {}  # a synthetic document is read once, whole
            held: dict[str, list[str]] = {}  # a submission's holdings, as the reference judge reads its summary
            for d in bundle.decisions:
                if d.round_id == round_id:
                    symbols = [a.symbol for a in d.allocation or []] + [t.symbol for t in d.trades]
                    held[d.contestant_id] = list(dict.fromkeys(symbols))
            for label in group:
                if label.document is not None:
                    if label.document not in read:
                        read[label.document] = extract_claims(
                            label.document, decided, None, index, benchmark=bench, available_fields=available
                        )
                    claims = read[label.document]
                    start = label.document.index(label.sentence) + label.sentence.index(label.quote)
                else:
                    claims = extract_claims(
                        label.sentence,
                        decided,
                        label.holding,
                        index,
                        benchmark=bench,
                        available_fields=available,
                        holdings=held.get(label.model, []) if label.holding is None else (),
                    )
                    start = label.sentence.index(label.quote)
                quote_span = (start, start + len(label.quote))
                hits = _claims_of_kind(
                    label.kind, [c for c in claims if c.span is not None and _overlaps(c.span, quote_span)]
                )
                if label.subject and any(c.symbol == label.subject for c in hits):
                    # one phrase said of several options ("recent semis/software weakness") is one claim each: the
                    # label's subject is compared with the verdict on its own claim, as a judge's ledger names it
                    hits = [c for c in hits if c.symbol == label.subject]
                verifications = verify_many(hits, store, cfg) if hits else []
                result.outcomes.append(Outcome(label, predicted_status(verifications), verifications))
                fld = column_field(label.column or "")
                if label.kind == "number" and label.subject and fld and label.stated is not None:
                    claim = Claim(
                        id=label.id,
                        text=label.quote,
                        decided_at=decided,
                        symbol=label.subject,
                        structured=True,
                        assertions=structured_assertions(
                            [{"subject": label.subject, "field": fld, "kind": "value", "value": label.stated}],
                            label.subject,
                            label.quote,
                        ),
                    )
                    ver = verify_many([claim], store, cfg)
                    result.structured.append(Outcome(label, predicted_status(ver), ver))
    result.outcomes.sort(key=lambda o: o.label.id)
    return result
