"""The CapitalBench adapter's assemble step is pure: rounds already read become the same bundle with the
source gone, and the import writes exactly what assemble returns."""

from __future__ import annotations

import shutil
from datetime import date
from pathlib import Path

from grader.adapters.capitalbench import assemble, import_capitalbench_with_summary, read_selected_rounds
from tests.adapters.cb_helpers import rounds_dir


def test_assemble_needs_no_file_and_the_import_writes_what_it_returns(tmp_path: Path) -> None:
    source = tmp_path / "rounds"
    shutil.copytree(rounds_dir(), source)
    out = tmp_path / "b"
    summary = import_capitalbench_with_summary(
        source, "1W", date(2026, 6, 1), date(2026, 6, 30), out, command="the command"
    )
    selected = read_selected_rounds(source, "1W", date(2026, 6, 1), date(2026, 6, 30), None)
    shutil.rmtree(source)  # assemble reads nothing: the source may be gone
    built = assemble(
        selected.rounds,
        selected.skipped,
        selected.with_prompt,
        track="1W",
        date_from=date(2026, 6, 1),
        date_to=date(2026, 6, 30),
        out=out,
        round_ids=None,
        season_id=None,
        command="the command",
    )
    written = {p.relative_to(out).as_posix(): p.read_text(encoding="utf-8") for p in out.rglob("*") if p.is_file()}
    assert written == built.files
    assert built.summary == summary
    assert {"season.yaml", "contestants.yaml", "decisions.jsonl", "market/prices.csv", "README.md"} <= set(written)
