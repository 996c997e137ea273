"""Import CapitalBench rounds as a season bundle: select and read the rounds, assemble, write.

Nothing is written when every selected round is malformed: the bundle is assembled in memory and written all
or nothing by :func:`grader.season.write_bundle`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from pathlib import Path

from grader.adapters.capitalbench._assemble import assemble
from grader.adapters.capitalbench._schema import CapitalBenchError, CapitalBenchIssue, Track
from grader.adapters.capitalbench._select import read_selected_rounds
from grader.adapters.capitalbench._summary import ImportSummary
from grader.season import write_bundle


def _default_command(
    rounds_dir: Path,
    track: str,
    date_from: date | None,
    date_to: date | None,
    out: Path,
    round_ids: Sequence[str] | None,
    season_id: str | None,
) -> str:
    parts = ["python -m grader.adapters import-capitalbench", str(rounds_dir), "--track", track]
    if date_from:
        parts += ["--from", date_from.isoformat()]
    if date_to:
        parts += ["--to", date_to.isoformat()]
    for rid in round_ids or []:
        parts += ["--round", rid]
    if season_id:
        parts += ["--season-id", season_id]
    parts += ["--out", str(out)]
    return " ".join(parts)


def import_capitalbench_with_summary(
    rounds_dir: Path | str,
    track: Track | str,
    date_from: date | None,
    date_to: date | None,
    out: Path | str,
    *,
    round_ids: Sequence[str] | None = None,
    season_id: str | None = None,
    overwrite: bool = False,
    command: str | None = None,
) -> ImportSummary:
    """:func:`import_capitalbench`, returning what was written and skipped."""
    rounds_dir, out = Path(rounds_dir), Path(out)
    if not rounds_dir.is_dir():
        raise CapitalBenchError([CapitalBenchIssue(str(rounds_dir), None, None, "not a directory")])
    if (
        not any((p / "manifest.yaml").is_file() for p in rounds_dir.iterdir() if p.is_dir())
        and (rounds_dir / "rounds").is_dir()
    ):
        rounds_dir = rounds_dir / "rounds"  # accept the data directory that holds rounds/
    if out.exists() and not overwrite:
        raise CapitalBenchError(
            [CapitalBenchIssue(str(out), None, None, "already exists (pass overwrite=True / --overwrite)")]
        )
    cmd = command or _default_command(rounds_dir, str(track), date_from, date_to, out, round_ids, season_id)
    selected = read_selected_rounds(rounds_dir, str(track), date_from, date_to, round_ids)
    built = assemble(
        selected.rounds,
        selected.skipped,
        selected.with_prompt,
        track=str(track),
        date_from=date_from,
        date_to=date_to,
        out=out,
        round_ids=round_ids,
        season_id=season_id,
        command=cmd,
    )
    write_bundle(out, built.files, overwrite=True)
    return built.summary


def import_capitalbench(
    rounds_dir: Path | str,
    track: Track | str,
    date_from: date | None,
    date_to: date | None,
    out: Path | str,
    *,
    round_ids: Sequence[str] | None = None,
    season_id: str | None = None,
    overwrite: bool = False,
    command: str | None = None,
) -> Path:
    """Write a season bundle (``format: rounds``) from the CapitalBench rounds of one track.

    Rounds are selected by track (``1W``/``1M``, the round id suffix) and decision date (inclusive), or
    explicitly by ``round_ids``. Rounds that were never run (no ``runs/``) and parallel experiments
    (``publication_stream`` other than official, e.g. pilots) are skipped unless named in ``round_ids``.
    Raises :class:`CapitalBenchError` naming file, row and field of every problem; then nothing is written.
    ``command`` is the command line recorded in the bundle's README (default: the equivalent
    ``python -m grader.adapters import-capitalbench`` call).
    """
    return import_capitalbench_with_summary(
        rounds_dir,
        track,
        date_from,
        date_to,
        out,
        round_ids=round_ids,
        season_id=season_id,
        overwrite=overwrite,
        command=command,
    ).path
