"""Reading real files: a byte-order mark and Unicode line separators inside strings are valid; a file in another
encoding, a duplicated column or key, and a link out of the bundle are refused with file, line and field, and
nothing is read from outside the bundle."""

from __future__ import annotations

import json
import os

import pytest

from grader.season import BundleError, load_bundle


def _issues(path) -> list[str]:
    with pytest.raises(BundleError) as exc:
        load_bundle(path)
    return [str(i) for i in exc.value.issues]


def test_a_byte_order_mark_is_fine(tiny_bundle):
    for rel in ("season.yaml", "decisions.jsonl", "market/prices.csv"):
        p = tiny_bundle / rel
        p.write_bytes(b"\xef\xbb\xbf" + p.read_bytes())
    assert len(load_bundle(tiny_bundle).decisions) == 4


def test_unicode_line_separators_inside_a_json_string_are_not_line_breaks(tiny_bundle):
    p = tiny_bundle / "decisions.jsonl"
    rows = [json.loads(line) for line in p.read_text().splitlines()]
    rows[0]["rationale"] = "Buying AAA\u2028on momentum\x85and breadth."
    p.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    bundle = load_bundle(tiny_bundle)
    assert "\u2028" in bundle.decisions[0].rationale and len(bundle.decisions) == 4


def test_another_encoding_is_refused_with_file_and_line(tiny_bundle):
    p = tiny_bundle / "decisions.jsonl"
    text = p.read_text().replace("Holding.", "Holding caf\u00e9 positions.")
    p.write_bytes(text.encode("latin-1"))
    issues = _issues(tiny_bundle)
    assert any(i.startswith("decisions.jsonl:4") and "not UTF-8" in i for i in issues), issues


def test_a_utf16_file_is_refused_with_its_name(tiny_bundle):
    p = tiny_bundle / "season.yaml"
    p.write_bytes(p.read_text().encode("utf-16"))
    issues = _issues(tiny_bundle)
    assert any(i.startswith("season.yaml") and "not UTF-8" in i for i in issues), issues


def test_a_duplicated_csv_column_is_refused(tiny_bundle):
    p = tiny_bundle / "market" / "prices.csv"
    lines = p.read_text().splitlines()
    p.write_text("\n".join([lines[0] + ",close"] + [line + ",1e6" for line in lines[1:]]) + "\n")
    issues = _issues(tiny_bundle)
    assert any("market/prices.csv:1" in i and "close" in i and "given twice" in i for i in issues), issues


def test_a_duplicated_json_key_is_refused(tiny_bundle):
    p = tiny_bundle / "decisions.jsonl"
    lines = p.read_text().splitlines()
    lines[1] = lines[1][:-1] + ', "rationale": "second wins?"}'
    p.write_text("\n".join(lines) + "\n")
    issues = _issues(tiny_bundle)
    assert any(i.startswith("decisions.jsonl:2") and "rationale" in i and "twice" in i for i in issues), issues


def test_a_duplicated_yaml_key_is_refused(tiny_bundle):
    p = tiny_bundle / "season.yaml"
    p.write_text(p.read_text() + "starting_cash: 1\n")
    issues = _issues(tiny_bundle)
    assert any(i.startswith("season.yaml:") and "'starting_cash' given twice" in i for i in issues), issues


def test_a_link_out_of_the_bundle_is_refused_and_never_read(tiny_bundle, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-CONTENT\n")
    (tiny_bundle / "decisions.jsonl").unlink()
    os.symlink(secret, tiny_bundle / "decisions.jsonl")
    issues = _issues(tiny_bundle)
    assert any("decisions.jsonl" in i and "link out of the bundle" in i for i in issues), issues
    assert not any("TOP-SECRET" in i for i in issues)


def test_a_linked_folder_out_of_the_bundle_is_refused(tiny_bundle, tmp_path):
    import shutil

    outside = tmp_path / "elsewhere"
    shutil.move(tiny_bundle / "market", outside)
    os.symlink(outside, tiny_bundle / "market")
    issues = _issues(tiny_bundle)
    assert any("market" in i and "link out of the bundle" in i for i in issues), issues
