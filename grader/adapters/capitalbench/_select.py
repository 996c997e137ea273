"""Which CapitalBench rounds an import takes, read and validated (the I/O side of the adapter).

Rounds are selected by track and decision date, or by id; rounds never run and parallel experiments are
skipped with the reason; each selected round is read and validated on its own, and a round that is malformed
or clashes with an earlier one (a model deciding twice at one deadline, or under two providers) is left out
with its problems, never refusing the rest.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from grader.adapters.capitalbench._schema import TRACKS, CapitalBenchError, CapitalBenchIssue, SourceRound
from grader.adapters.capitalbench._source import list_rounds, read_resolution, read_round, round_track


@dataclass
class SelectedRounds:
    """The rounds an import takes, validated, in deadline order; the rounds left out and why."""

    rounds: list[SourceRound]
    skipped: list[tuple[str, str]]  # (round id, reason)
    with_prompt: list[str]
    """Rounds whose directory holds a prompt.md (not carried into the bundle; said in its notes)."""


def _round_date(listing_id: str, decision_date: date | None) -> date | None:
    if decision_date is not None:
        return decision_date
    m = re.search(r"(\d{4}-\d{2}-\d{2})", listing_id)
    return date.fromisoformat(m.group(1)) if m else None


def _select_dirs(
    rounds_dir: Path,
    track: str,
    date_from: date | None,
    date_to: date | None,
    round_ids: Sequence[str] | None,
) -> tuple[list[Path], list[tuple[str, str]]]:
    listing = [r for r in list_rounds(rounds_dir) if round_track(r.id) == track]
    by_id = {r.id: r for r in listing}
    skipped: list[tuple[str, str]] = []
    if round_ids is not None:
        unknown = [rid for rid in round_ids if rid not in by_id]
        if unknown:
            raise CapitalBenchError(
                [
                    CapitalBenchIssue(str(rounds_dir), None, "round_ids", f"no {track} round directory named {rid!r}")
                    for rid in unknown
                ]
            )
        chosen = [by_id[rid] for rid in dict.fromkeys(round_ids)]
    else:
        chosen = []
        for r in listing:
            day = _round_date(r.id, r.decision_date)
            if day is not None and ((date_from and day < date_from) or (date_to and day > date_to)):
                continue
            if (
                r.publication_stream
                and r.publication_stream != "official"
                and (rounds_dir / r.id / "manifest.yaml").is_file()
            ):
                skipped.append(
                    (
                        r.id,
                        f"publication_stream: {r.publication_stream} (a parallel experiment; "
                        "import it alone with --round)",
                    )
                )
                continue
            chosen.append(r)
    dirs: list[Path] = []
    for r in chosen:
        if not r.has_runs and (r.dir / "manifest.yaml").is_file():
            status, why = read_resolution(r.dir)
            upstream = f" (scoring job {status}: {why})" if status == "cancelled" else ""
            skipped.append((r.id, f"never run: no runs/ directory, so no decisions exist{upstream}"))
            continue
        dirs.append(r.dir)
    if not dirs:
        what = (
            f"round(s) {list(round_ids)}"
            if round_ids is not None
            else (f"{track} rounds with a decision date in {date_from or '…'}..{date_to or '…'}")
        )
        reasons = "; ".join(f"{rid}: {why}" for rid, why in skipped)
        raise CapitalBenchError(
            [
                CapitalBenchIssue(
                    str(rounds_dir),
                    None,
                    None,
                    f"nothing to import: no {what} with decisions" + (f" ({reasons})" if reasons else ""),
                )
            ]
        )
    return dirs, skipped


def read_selected_rounds(
    rounds_dir: Path,
    track: str,
    date_from: date | None,
    date_to: date | None,
    round_ids: Sequence[str] | None,
) -> SelectedRounds:
    """The rounds of ``track`` to import, read and validated; CapitalBenchError when none can be."""
    if track not in TRACKS:
        raise CapitalBenchError(
            [CapitalBenchIssue(str(rounds_dir), None, "track", f"{track!r} is not one of {TRACKS}")]
        )
    if date_from and date_to and date_from > date_to:
        raise CapitalBenchError(
            [CapitalBenchIssue(str(rounds_dir), None, "date_from", f"{date_from} is after {date_to}")]
        )
    dirs, skipped = _select_dirs(rounds_dir, track, date_from, date_to, round_ids)
    refused: list[tuple[str, list[CapitalBenchIssue]]] = []  # one bad round never refuses the rest
    rounds: list[SourceRound] = []
    for d in dirs:
        own: list[CapitalBenchIssue] = []
        r = read_round(d, rounds_dir, own)
        if r is None or own:
            refused.append((d.name, own))
        else:
            rounds.append(r)
    rounds.sort(key=lambda r: (r.manifest.decision_deadline, r.id))
    # a decision is identified by (contestant, decided_at): two rounds sharing a deadline cannot share a model,
    # and a model keeps one provider: the later round that breaks either is left out, with the reason
    seen: dict[tuple[str, object], str] = {}
    providers: dict[str, str] = {}
    kept: list[SourceRound] = []
    for r in rounds:
        clash: list[CapitalBenchIssue] = []
        for rel, sub in r.submissions:
            key = (sub.model_id, r.manifest.decision_deadline)
            if key in seen:
                clash.append(
                    CapitalBenchIssue(
                        rel,
                        None,
                        "model_id",
                        f"{sub.model_id} also decided in {seen[key]} at the same deadline "
                        f"{r.manifest.decision_deadline.isoformat()}; import this round alone with --round",
                    )
                )
            if providers.get(sub.model_id, sub.provider) != sub.provider:
                clash.append(
                    CapitalBenchIssue(
                        rel, None, "provider", f"{sub.provider!r} differs from {providers[sub.model_id]!r} elsewhere"
                    )
                )
        if clash:
            refused.append((r.id, clash))
            continue
        for _, sub in r.submissions:
            seen[(sub.model_id, r.manifest.decision_deadline)] = r.id
            providers.setdefault(sub.model_id, sub.provider)
        kept.append(r)
    rounds = kept
    if not rounds:
        raise CapitalBenchError(
            [i for _, own in refused for i in own]
            or [CapitalBenchIssue(str(rounds_dir), None, None, "no round could be imported")]
        )
    for rid, own in refused:
        first = "; ".join(str(i) for i in own[:2]) or "unreadable"
        skipped.append((rid, f"refused ({len(own)} problem(s)): {first}" + (" ..." if len(own) > 2 else "")))

    with_prompt = [r.id for r in rounds if (r.dir / "prompt.md").is_file()]
    return SelectedRounds(rounds, skipped, with_prompt)
