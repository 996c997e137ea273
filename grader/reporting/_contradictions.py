"""Every contradicted verdict the offline reference judge gives on real CapitalBench rounds, with its clause: the
list a person checks by hand (tests/ledgers/fixtures/pinned_contradictions.yaml pins the checked ones)."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Contradiction:
    round: str
    model: str
    subject: str | None
    claim: str
    clause: str | None
    reason: str

    @property
    def key(self) -> tuple[str, str, str | None, str]:
        return (self.round, self.model, self.subject, self.claim)


def reference_contradictions(rounds_dir: Path) -> list[Contradiction]:
    """Import each track of ``rounds_dir`` as one season and return the reference judge's contradicted claims."""
    from grader.adapters import import_capitalbench
    from grader.judges.reference import ReferenceJudge
    from grader.season import load_bundle

    out: list[Contradiction] = []
    for track in ("1W", "1M"):
        ids = sorted(p.name for p in rounds_dir.iterdir() if p.is_dir() and p.name.endswith("-" + track))
        if not ids:
            continue
        with tempfile.TemporaryDirectory(prefix="contradictions-") as tmp:
            season = Path(tmp) / "season"
            import_capitalbench(rounds_dir, track, None, None, season, round_ids=ids)
            bundle = load_bundle(season)
            judge = ReferenceJudge(bundle, None)
            for c in bundle.contestants:
                for evidence in judge.evidence(c.id):
                    for claim, ver in evidence.verifications:
                        if ver.status == "contradicted":
                            out.append(
                                Contradiction(
                                    evidence.decision.round_id or "",
                                    c.id,
                                    claim.symbol,
                                    claim.text,
                                    claim.clause,
                                    ver.reason,
                                )
                            )
    return out


__all__ = ["Contradiction", "reference_contradictions"]
