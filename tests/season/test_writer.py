"""The bundle writer beside the loader: what it writes loads with the same content hash; all or nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.season import csv_text, jsonl_text, load_bundle, write_bundle, yaml_text
from tests.conftest import REPO

DEMO = REPO / "seasons" / "demo-2022q1"


def _files_of(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_bundle_written_from_its_files_loads_with_the_same_content_hash(tmp_path):
    out = write_bundle(tmp_path / "copy", _files_of(DEMO))
    assert load_bundle(out).content_hash == load_bundle(DEMO).content_hash
    assert [p.name for p in tmp_path.iterdir()] == ["copy"]  # no temporary sibling left behind


def test_text_is_written_as_utf8_with_newline_endings_and_paths_are_copied(tmp_path):
    out = write_bundle(
        tmp_path / "b", {"notes/a.txt": "é\nz\n", "market": DEMO / "market", "season.yaml": DEMO / "season.yaml"}
    )
    assert (out / "notes" / "a.txt").read_bytes() == "é\nz\n".encode()
    assert (out / "market" / "prices.csv").read_bytes() == (DEMO / "market" / "prices.csv").read_bytes()
    assert (out / "season.yaml").read_bytes() == (DEMO / "season.yaml").read_bytes()


def test_an_existing_bundle_is_replaced_only_with_overwrite(tmp_path):
    out = tmp_path / "b"
    write_bundle(out, {"a.txt": "first\n"})
    with pytest.raises(FileExistsError, match="overwrite"):
        write_bundle(out, {"b.txt": "second\n"})
    assert sorted(p.name for p in out.iterdir()) == ["a.txt"]
    write_bundle(out, {"b.txt": "second\n"}, overwrite=True)
    assert sorted(p.name for p in out.iterdir()) == ["b.txt"]  # replaced whole: no stale file stays
    empty = tmp_path / "empty"
    empty.mkdir()
    write_bundle(empty, {"c.txt": "x"})  # an empty directory is no bundle to protect
    assert (empty / "c.txt").read_text() == "x"


def test_a_failure_while_writing_leaves_the_bundle_that_was_there(tmp_path):
    out = tmp_path / "b"
    write_bundle(out, {"a.txt": "kept\n"})
    with pytest.raises(FileNotFoundError):
        write_bundle(out, {"b.txt": "new\n", "c.txt": tmp_path / "missing.csv"}, overwrite=True)
    assert sorted(p.name for p in out.iterdir()) == ["a.txt"] and (out / "a.txt").read_text() == "kept\n"
    assert [p.name for p in tmp_path.iterdir()] == ["b"]
    with pytest.raises(ValueError, match="relative path inside the bundle"):
        write_bundle(tmp_path / "c", {"../escape.txt": "x"})
    assert not (tmp_path / "c").exists() and not (tmp_path / "escape.txt").exists()


def test_the_text_helpers_keep_order_unicode_and_exact_numbers():
    assert (
        yaml_text({"b": 1, "a": "ü"}, header="made by a test\n\nline 3")
        == "# made by a test\n#\n# line 3\nb: 1\na: ü\n"
    )
    assert yaml_text({"t": "one\ntwo\n"}, literal_blocks=True) == "t: |\n  one\n  two\n"
    assert jsonl_text([{"b": 1, "a": "ü"}], sort_keys=True) == '{"a": "ü", "b": 1}\n'
    with pytest.raises(ValueError):
        jsonl_text([{"x": float("nan")}], allow_nan=False)
    assert csv_text(["x", "y"], [[repr(0.1), "a,b"]]) == 'x,y\n0.1,"a,b"\n'
