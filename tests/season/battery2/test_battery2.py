"""Issue 36: the second adversarial battery (tests/season/battery2/_cases.py). Every case is handled: refused with
the file (and field) named, or valid and printed as written; never a traceback, never a file outside the bundle
read, never a control sequence sent to the terminal, and a refused bundle writes nothing (``grader import`` leaves
no database behind)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grader.cli import app
from grader.season import BundleError, load_bundle
from tests.season.battery2._cases import SECRET, Case, build, cases

CASES = cases()
runner = CliRunner()


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_case_is_handled(case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = build(case, tmp_path / "bundle", tmp_path / "outside")
    if case.expect == "valid":
        bundle = load_bundle(root)
        assert bundle.content_hash and bundle.decisions
    else:
        with pytest.raises(BundleError) as err:
            load_bundle(root)
        issues = err.value.issues
        assert issues, case.name
        named = [i for i in issues if i.file == case.file or i.file.startswith(case.file + "/")]
        assert named, f"{case.name}: no issue names {case.file}: {[str(i) for i in issues]}"
        if case.field:
            assert any(case.field in (i.field or "") for i in named), [str(i) for i in named]
        assert not any(SECRET in str(i) for i in issues)

    db = tmp_path / "cli.db"
    monkeypatch.setenv("GRADER_DATABASE_URL", f"sqlite:///{db}")
    monkeypatch.setenv("COLUMNS", "250")
    shown = runner.invoke(app, ["validate", str(root)])
    assert shown.exception is None or isinstance(shown.exception, SystemExit), shown.output
    assert shown.exit_code == (0 if case.expect == "valid" else 1), shown.output
    assert "Traceback" not in shown.output and SECRET not in shown.output
    assert not any(ch in shown.output for ch in ("\x1b", "\x07", "\x00", "\u202e")), repr(shown.output)
    for text in case.shows:
        assert text in shown.output, (text, shown.output)
    if case.expect == "refused":
        imported = runner.invoke(app, ["import", str(root)])
        assert imported.exit_code == 1 and not db.exists(), imported.output  # nothing written


def test_the_battery_covers_every_kind() -> None:
    kinds = Counter(c.kind for c in CASES)
    print(f"\nbattery2: {len(CASES)} cases: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    assert set(kinds) == {"round prices", "links", "parser", "text", "numbers", "allocations", "output"}
    assert len(CASES) >= 69
