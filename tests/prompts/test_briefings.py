"""Compact round briefings (issue 18): every cell of every table can be recovered from what the judge reads, on the
real June 2026 CapitalBench briefings and on generated tables; only earlier briefings are referred to."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from grader.prompts._briefings import BriefingMemory, _blocks, _Table, compact_briefing
from grader.season import load_bundle

SEASON = Path(__file__).resolve().parents[2] / "seasons" / "cb-2026-06-1w"
_REPEATED = re.compile(r"^\(as written in the briefing of (.+), (\d+) more row\(s\) by (.+?): (.*)\)$")


def decode(original: str, shown: str, decoded_earlier: dict[str, list[_Table]]) -> list[_Table]:
    """The tables of ``original`` rebuilt from ``shown`` alone (plus the earlier briefings' decoded tables), walking
    the original's block structure only to know where each table starts."""
    lines = shown.split("\n")
    pos = 0
    out: list[_Table] = []
    for block in _blocks(original):
        if not isinstance(block, _Table):
            assert lines[pos] == block
            pos += 1
            continue
        if block.ragged:  # kept as written
            assert lines[pos : pos + len(block.lines)] == block.lines
            pos += len(block.lines)
            out.append(block)
            continue
        constant: dict[str, str] = {}
        if lines[pos].startswith("(every row: "):
            for part in lines[pos][len("(every row: ") : -1].split("; "):
                name, value = part.split(" = ", 1)
                constant[name] = "" if value == "(empty)" else value
            pos += 1
        header_kept = lines[pos].split(" | ")
        pos += 1
        rows: list[list[str]] = []
        above: dict[str, str] | None = None
        while pos < len(lines) and (
            " | " in lines[pos] or (len(header_kept) == 1 and lines[pos] and not lines[pos].startswith("("))
        ):
            cells = lines[pos].split(" | ")
            row = {}
            for name, value in zip(header_kept, cells, strict=True):
                row[name] = above[name] if value == '"' and above is not None else value
            above = row
            rows.append([row.get(h, constant.get(h)) for h in block.header])
            pos += 1
        while pos < len(lines) and (m := _REPEATED.match(lines[pos])):
            source, count, column, names = m.group(1), int(m.group(2)), m.group(3), m.group(4).split(", ")
            assert len(names) == count
            k = block.header.index(column)
            found = [t for t in decoded_earlier[source] if t.header == block.header]
            for name in names:  # the name picks out exactly one row there, in the named column
                matches = {tuple(r) for t in found for r in t.rows if len(r) > k and r[k] == name}
                assert len(matches) == 1, f"{column} {name} is not one row of the briefing of {source}"
                rows.append(list(matches.pop()))
            pos += 1
        out.append(_Table(block.header, rows, []))
    assert pos == len(lines)
    return out


def _check_sequence(texts: list[tuple[str, str]]) -> None:
    written = BriefingMemory()
    decoded: dict[str, list[_Table]] = {}
    for label, text in texts:
        shown = compact_briefing(text, written, label)
        for ref in re.findall(r"as written in the briefing of (.+?), \d+ more row", shown):
            assert ref in decoded and ref != label  # only an earlier briefing is referred to
        tables = decode(text, shown, decoded)
        originals = [b for b in _blocks(text) if isinstance(b, _Table)]
        for got, want in zip(tables, originals, strict=True):
            assert sorted(map(tuple, got.rows)) == sorted(map(tuple, want.rows))
        decoded[label] = tables


def test_every_cell_of_the_real_june_briefings_is_recovered_and_the_record_shrinks():
    bundle = load_bundle(SEASON)
    rounds = sorted(bundle.info.rounds, key=lambda r: (r.decided_at, r.id))
    texts = [(f"Round {i}", r.briefing) for i, r in enumerate(rounds, 1) if r.briefing]
    _check_sequence(texts)
    written = BriefingMemory()
    shown = sum(len(compact_briefing(t, written, label)) for label, t in texts)
    assert shown < 0.55 * sum(len(t) for _, t in texts)  # the briefings alone (51% when written)


_cell = st.sampled_from(["", "a", "b", "not provided", "not source-reported", "1.5%", "x | y".replace("|", "/")])


@st.composite
def _table_text(draw):
    width = draw(st.integers(1, 5))
    header = [f"c{k}" for k in range(width)]
    n = draw(st.integers(0, 6))
    keys = draw(st.lists(st.sampled_from(["K1", "K2", "K3", "K4", "K5", "K6", "K7"]), min_size=n, max_size=n))
    rows = [[key] + [draw(_cell) for _ in range(width - 1)] for key in keys]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * width] + ["| " + " | ".join(r) + " |" for r in rows]
    return "intro\n\n" + "\n".join(lines) + "\n\nafter"


@settings(max_examples=150, deadline=None)
@given(st.lists(_table_text(), min_size=1, max_size=4))
def test_generated_tables_round_trip(texts):
    _check_sequence([(f"B{i}", t) for i, t in enumerate(texts)])


def test_a_table_without_a_unique_key_is_written_out_in_full():
    table = "| a | b |\n|---|---|\n| x | 1 |\n| x | 1 |"
    written = BriefingMemory()
    compact_briefing(table, written, "R1")
    again = compact_briefing(table, written, "R2")
    assert "as written" not in again and again.count("\n") == 2


def test_ditto_and_constant_columns():
    table = (
        "| id | unit | source |\n|---|---|---|\n| A | % | BLS release |\n| B | % | BLS release |\n"
        "| C | % | BEA release |"
    )
    shown = compact_briefing(table)
    assert shown.split("\n") == ["(every row: unit = %)", "id | source", "A | BLS release", 'B | "', "C | BEA release"]
