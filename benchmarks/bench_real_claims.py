"""The verifier on hand-labelled claims from real CapitalBench rationales: confusion matrix, precision and
recall per status, accuracy, and the share of numeric table-decided claims it checks.

Labels: tests/ledgers/fixtures/real_claims/*.jsonl (format in that folder's README). Rounds: data/capitalbench
(CC BY 4.0, Ishtiaq Rahman), or the folder named by GRADER_TEST_CB_ROUNDS. Run
``python benchmarks/bench_real_claims.py [--mistakes]``.
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from grader.reporting import evaluate, read_labels  # noqa: E402

LABELS = sorted((REPO / "tests" / "ledgers" / "fixtures" / "real_claims").glob("*.jsonl"))
ROUNDS = Path(os.environ.get("GRADER_TEST_CB_ROUNDS") or REPO / "data" / "capitalbench" / "rounds")


def main() -> None:
    labels = read_labels(LABELS)
    start = time.perf_counter()
    result = evaluate(labels, ROUNDS)
    elapsed = time.perf_counter() - start
    rounds = {lab.round for lab in labels}
    families = Counter(lab.model.split("-")[0] for lab in labels)
    print(
        f"hand-labelled real claims: {len(labels)} from {len(rounds)} rounds "
        f"({', '.join(f'{k} {v}' for k, v in sorted(families.items()))}); evaluated in {elapsed:.1f} s"
    )
    print(result.table())
    by_kind = Counter((o.label.kind, o.correct) for o in result.outcomes)
    kinds = sorted({k for k, _ in by_kind})
    print(
        "by kind (right/total): "
        + ", ".join(f"{k} {by_kind[(k, True)]}/{by_kind[(k, True)] + by_kind[(k, False)]}" for k in kinds)
    )
    if "--mistakes" in sys.argv:
        for o in result.mistakes():
            lab = o.label
            print(f"\n{lab.id} gold {lab.status}, verifier {o.predicted} ({lab.kind}; {lab.subject} {lab.column})")
            print(f"  {lab.sentence}\n  quote: {lab.quote}\n  label: {lab.reason}")
            for v in o.verifications:
                print(f"  verifier: {v.status} [{v.rule}] {v.reason}")


FIXTURES = REPO / "tests" / "ledgers" / "fixtures"
V4_DEV_ROUNDS = frozenset({"CB-2026-07-28-1W", "CB-2026-07-30-1M"})
"""holdout_v4 was measured once whole, then split by round: these two rounds were read to write rules."""
HELD_OUT = [
    (
        "later real rounds (11 rounds of 2026-07-21..31, not in data/: set GRADER_TEST_CB_ROUNDS to the full public "
        "rounds; labelled by a session that never saw the rules)",
        FIXTURES / "holdout_claims" / "late.jsonl",
        None,
    ),
    (
        "portfolio-v3.0 style, other rounds (development: written and labelled by another session, read to write rules)",
        FIXTURES / "dev_v3" / "labels.jsonl",
        None,
    ),
    (
        "portfolio-v3.0 format (held out: never read while writing rules; written and labelled by another session)",
        FIXTURES / "holdout_v3" / "labels.jsonl",
        None,
    ),
    (
        "other formats, development half (tables, key=value lines, YAML, JSON-ish, shorthand, prose; rounds "
        "2026-07-28-1W and 07-30-1M; read to write rules after one measurement of the whole set)",
        FIXTURES / "holdout_v4" / "labels.jsonl",
        lambda lab: lab.round in V4_DEV_ROUNDS,
    ),
    (
        "other formats, second half (rounds 2026-07-31-1M and -1W; never read until measured, then read to write rules "
        "after holdout_v5 arrived)",
        FIXTURES / "holdout_v4" / "labels.jsonl",
        lambda lab: lab.round not in V4_DEV_ROUNDS,
    ),
    (
        "v5: desk memo, CSV, HTML table, anaphora, ranges, words for numbers, and real sentences; development half "
        "(older rounds, read to write rules after one measurement of the whole set)",
        FIXTURES / "holdout_v5" / "labels.jsonl",
        lambda lab: lab.round in V5_DEV_ROUNDS,
    ),
    (
        "v5: second half (rounds 2026-07-27-1M and 07-29-1W; never read until holdout_v6 arrived, then read)",
        FIXTURES / "holdout_v5" / "labels.jsonl",
        lambda lab: lab.round not in V5_DEV_ROUNDS,
    ),
    (
        "v6: round 2026-07-14-1M, real sentences and a YAML-like desk sheet (read after one measurement of the whole "
        "set)",
        FIXTURES / "holdout_v6" / "labels.jsonl",
        lambda lab: lab.round in V6_DEV_ROUNDS,
    ),
    (
        "v6: rounds 2026-07-07-1M, 07-07-1W, 07-15-1W (real sentences; never read until holdout_v8 arrived, then read "
        "to write rules)",
        FIXTURES / "holdout_v6" / "labels.jsonl",
        lambda lab: lab.round not in V6_DEV_ROUNDS,
    ),
    (
        "v7: rounds 2026-06-30-1M, 07-08-1W, 07-09-1W, 07-10-1W, 07-13-1M (real sentences) and a pipe-table sheet on "
        "07-27-1M (held out whole: never read while writing rules)",
        FIXTURES / "holdout_v7" / "labels.jsonl",
        None,
    ),
    (
        "v8: real sentences of rounds 2026-06-24-1M, 06-26-1M, 07-02-1M, 07-06-1M (held out until measured at 67.0%, "
        "then read to write rules; its synthetic Q&A memo on 07-16-1M is measured apart, below)",
        FIXTURES / "holdout_v8" / "labels.jsonl",
        lambda lab: lab.round != "CB-2026-07-16-1M",
    ),
    (
        "v8: its synthetic Q&A memo on 2026-07-16-1M, a round never run, measured on its tables through a placeholder "
        "run (first measured 2026-11-27: never read)",
        FIXTURES / "holdout_v8" / "labels.jsonl",
        lambda lab: lab.round == "CB-2026-07-16-1M",
    ),
    (
        "v9: real sentences of rounds 2026-06-01-1M, 06-09-1M, 06-17-1M, 06-23-1M, 05-29-1W and a synthetic pre-trade "
        "checklist on 06-17-1M (held out until measured at 68.6%, then read to write rules)",
        FIXTURES / "holdout_v9" / "labels.jsonl",
        None,
    ),
    (
        "v10: real sentences of rounds 2026-05-24-1M/1W, 05-29-1M, 06-02-1M, 06-03-1M, 06-05-1M and a footnoted "
        "research note on 07-23-1M (held out: never read)",
        FIXTURES / "holdout_v10" / "labels.jsonl",
        lambda lab: lab.round != "CB-2026-07-16-1W",
    ),
    (
        "v10: its timestamped desk journal on 2026-07-16-1W, a round never run, measured on its tables through a "
        "placeholder run (held out: never read)",
        FIXTURES / "holdout_v10" / "labels.jsonl",
        lambda lab: lab.round == "CB-2026-07-16-1W",
    ),
    (
        "v11: real sentences of 13 rounds' unlabelled submissions, a pros/cons scorecard on 07-27-1W and a chat "
        "transcript on 07-28-1M (measured whole at 65.3% on arrival, then read to write rules)",
        FIXTURES / "holdout_v11" / "labels.jsonl",
        None,
    ),
    (
        "v12: real sentences of 17 June/July submissions no set used (held out until 2026-11-27, measured at 71.3%, "
        "then read to write rules once holdout_v13 existed)",
        FIXTURES / "holdout_v12" / "labels.jsonl",
        lambda lab: not lab.model.startswith("synthetic"),
    ),
    (
        "v12: a committee e-mail on 07-29-1M and a numbered thread on 07-21-1W, formats no rule was written for "
        "(held out: never read)",
        FIXTURES / "holdout_v12" / "labels.jsonl",
        lambda lab: lab.model.startswith("synthetic"),
    ),
    (
        "v13: real sentences of 22 June/July submissions no set used, most in the late-July candidate format (held "
        "out: never read)",
        FIXTURES / "holdout_v13" / "labels.jsonl",
        lambda lab: not lab.model.startswith("synthetic"),
    ),
    (
        "v13: a slide-deck outline on 07-30-1W and per-option paragraphs on 07-28-1M, formats no rule was written for "
        "(held out: never read)",
        FIXTURES / "holdout_v13" / "labels.jsonl",
        lambda lab: lab.model.startswith("synthetic"),
    ),
    (
        "v14: real sentences of 15 June/July submissions only never-read sets had labelled (held out: never read)",
        FIXTURES / "holdout_v14" / "labels.jsonl",
        lambda lab: not lab.model.startswith("synthetic"),
    ),
    (
        "v14: a PM question-and-answer sheet, a timestamped desk log and a memo with figures in numbered notes, "
        "formats no rule was written for (held out: never read)",
        FIXTURES / "holdout_v14" / "labels.jsonl",
        lambda lab: lab.model.startswith("synthetic"),
    ),
]
V5_DEV_ROUNDS = frozenset(
    {"CB-2026-06-12-1W", "CB-2026-06-22-1M", "CB-2026-07-22-1M", "CB-2026-07-23-1M", "CB-2026-07-24-1M"}
)
"""holdout_v5 was measured once whole, then split by time: its older rounds were read to write rules."""
V6_DEV_ROUNDS = frozenset({"CB-2026-07-14-1M"})
"""holdout_v6 was measured once whole, then split by round: this one (with the synthetic sheet) was read."""


def held_out() -> None:
    """The same figures on sets the rules were not written on (docs/ledgers.md, "Generalisation")."""
    for what, path, select in HELD_OUT:
        labels = [lab for lab in read_labels([path]) if select is None or select(lab)]
        if not all((ROUNDS / r).is_dir() for r in {lab.round for lab in labels}):
            print(f"\n{what}: rounds not found in {ROUNDS}; skipped")
            continue
        print(f"\n{what}: {len(labels)} claims")
        print(evaluate(labels, ROUNDS).table())


if __name__ == "__main__":
    main()
    held_out()
