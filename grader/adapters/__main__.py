"""``python -m grader.adapters import-capitalbench ROUNDS_DIR --track 1W|1M [--from D --to D] --out DIR``.

The same arguments as the ``grader import-capitalbench`` verb; usable before the CLI is wired and without
importing any provider SDK.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from datetime import date
from pathlib import Path

from grader.adapters.capitalbench import CapitalBenchError, import_capitalbench_with_summary


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m grader.adapters")
    sub = parser.add_subparsers(dest="verb", required=True)
    cb = sub.add_parser("import-capitalbench", help="CapitalBench rounds -> season bundle (format: rounds)")
    cb.add_argument("rounds_dir", type=Path, help="directory of CapitalBench round directories")
    cb.add_argument("--track", required=True, choices=["1W", "1M"])
    cb.add_argument("--from", dest="date_from", type=date.fromisoformat, default=None, help="first decision date")
    cb.add_argument("--to", dest="date_to", type=date.fromisoformat, default=None, help="last decision date")
    cb.add_argument(
        "--round", dest="round_ids", action="append", default=None, help="import only this round (repeatable)"
    )
    cb.add_argument("--season-id", default=None)
    cb.add_argument("--out", required=True, type=Path)
    cb.add_argument("--overwrite", action="store_true", help="replace an existing bundle directory")
    return parser


def main(argv: list[str] | None = None) -> int:
    args_list = sys.argv[1:] if argv is None else argv
    args = build_parser().parse_args(args_list)
    shown = [a for a in args_list if a != "--overwrite"]
    try:
        summary = import_capitalbench_with_summary(
            args.rounds_dir,
            args.track,
            args.date_from,
            args.date_to,
            args.out,
            round_ids=args.round_ids,
            season_id=args.season_id,
            overwrite=args.overwrite,
            command="python -m grader.adapters " + shlex.join(shown),
        )
    except CapitalBenchError as exc:
        print(exc, file=sys.stderr)
        return 2
    print("\n".join(summary.lines()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
