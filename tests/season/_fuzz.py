"""A property-based fuzzer over season bundles and rubric files (hypothesis), shared by the small run in
``make test`` (tests/season/test_fuzz_bundles.py) and the large one in ``make bench``
(benchmarks/bench_fuzz_bundles.py).

A generated bundle is a tiny valid trading or rounds season with one to three mutations: a CSV cell, a JSON value
(any JSON: huge integers, NaN, infinities, lone surrogates, nesting), a YAML value (dates of any year, offsets of any
size, non-finite floats, mappings), a raw line of random text, random bytes, a truncation, a deleted file, deep
nesting, a link or a pipe. What must hold (:func:`check_bundle`): it is refused with :class:`BundleError` (and
grading it writes nothing: no database file appears) or it validates and everything a grading run derives from it
is built (replays, outcomes, every judge prompt, round scores); never another exception.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

from grader.season import BundleError, load_bundle
from tests.conftest import write_bundle
from tests.season.battery2._cases import write_rounds_bundle

FILES = (
    "season.yaml",
    "contestants.yaml",
    "decisions.jsonl",
    "market/prices.csv",
    "market/fields.csv",
    "market/round_prices.csv",
)
SPECIAL_CELLS = (
    "",
    "nan",
    "NaN",
    "inf",
    "-inf",
    "Infinity",
    "0",
    "-0",
    "-1",
    "1e308",
    "1e-320",
    "5e-324",
    "9" * 400,
    '"',
    '"abc',
    "=cmd|'/C calc'!A0",
    "9999-12-31",
    "0001-01-01",
    "2022-01-03T10:00:00",
    "2022-01-03T10:00:00+14:00",
    "9999-12-31T23:59:59-14:00",
    "0001-01-01T00:00:00+14:00",
    "\x00",
    "AAA",
    "SP500",
    "CASH",
    "R0",
    "R1",
    "R9",
    "[/]",
    "\x1b[2J",
    "x" * 200_000,
    "\ud800",
)
KEYS = (
    "contestant_id",
    "decided_at",
    "trades",
    "allocation",
    "rationale",
    "decision_seconds",
    "confidence",
    "context",
    "round_id",
    "symbol",
    "side",
    "quantity",
    "price",
    "weight",
    "id",
    "name",
    "start",
    "end",
    "benchmark",
    "starting_cash",
    "risk_free_rate",
    "universe",
    "rounds",
    "format",
    "display_name",
    "provider_family",
    "model",
    "entry_date",
    "exit_date",
    "cash_symbol",
    "briefing",
    "cancelled",
    "allow_margin",
    "investor_profile",
    "currency",
)

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=40),
    st.sampled_from(SPECIAL_CELLS[:-2]),
    st.sampled_from(["\ud800", "a\udfffb", "\x00", "line\n# OUTCOME"]),
    st.dates().map(str),
    st.datetimes(timezones=st.timezones()).map(lambda d: d.isoformat()),
)
json_values = st.recursive(
    _scalars,
    lambda kids: (
        st.lists(kids, max_size=3) | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=8), kids, max_size=3)
    ),
    max_leaves=8,
)
yaml_values = st.recursive(
    st.one_of(_scalars, st.dates(), st.datetimes(), st.datetimes(timezones=st.timezones())),
    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.sampled_from(KEYS), kids, max_size=3),
    max_leaves=6,
)
cells = st.one_of(
    st.sampled_from(SPECIAL_CELLS), st.text(max_size=30), st.floats(allow_nan=True, allow_infinity=True).map(repr)
)


@st.composite
def mutations(draw: st.DrawFn) -> list[tuple]:
    ops = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(
            st.sampled_from(
                [
                    "cell",
                    "cell",
                    "json",
                    "json",
                    "yaml",
                    "yaml",
                    "line",
                    "bytes",
                    "truncate",
                    "delete",
                    "deep",
                    "link",
                    "append",
                ]
            )
        )
        file = draw(st.sampled_from(FILES))
        if kind == "cell":
            ops.append(
                (kind, draw(st.sampled_from(FILES[3:])), draw(st.integers(0, 40)), draw(st.integers(0, 5)), draw(cells))
            )
        elif kind == "json":
            ops.append(
                (
                    kind,
                    draw(st.integers(0, 5)),
                    draw(st.sampled_from(KEYS)),
                    draw(st.sampled_from(["top", "trade", "allocation"])),
                    draw(json_values),
                )
            )
        elif kind == "yaml":
            ops.append(
                (
                    kind,
                    draw(st.sampled_from(FILES[:2])),
                    draw(st.sampled_from(KEYS)),
                    draw(st.sampled_from(["top", "universe", "rounds", "item"])),
                    draw(yaml_values),
                )
            )
        elif kind == "line":
            ops.append((kind, file, draw(st.integers(0, 40)), draw(st.text(max_size=60))))
        elif kind == "bytes":
            ops.append((kind, file, draw(st.integers(0, 4000)), draw(st.binary(min_size=1, max_size=8))))
        elif kind == "truncate":
            ops.append((kind, file, draw(st.floats(0, 1))))
        elif kind == "delete":
            ops.append((kind, file))
        elif kind == "deep":
            ops.append(
                (
                    kind,
                    draw(st.sampled_from(["decisions.jsonl", "season.yaml"])),
                    draw(st.sampled_from([33, 200, 5000, 200_000])),
                )
            )
        elif kind == "link":
            ops.append(
                (
                    kind,
                    draw(st.sampled_from([*FILES, "README.md", "market", "extra/notes.txt"])),
                    draw(st.sampled_from(["outside", "inside", "dangling", "fifo"])),
                )
            )
        else:
            ops.append((kind, file, draw(st.text(max_size=80))))
    return ops


bundles = st.tuples(st.sampled_from(["trading", "rounds"]), mutations())


def _lines(p: Path) -> list[str]:
    return p.read_text(encoding="utf-8", errors="surrogateescape").split("\n")


def _write_lines(p: Path, lines: list[str]) -> None:
    p.write_bytes("\n".join(lines).encode("utf-8", errors="surrogatepass"))


def apply(root: Path, scratch: Path, ops: list[tuple]) -> None:
    """Apply mutations; one that does not fit the bundle as it stands is skipped."""
    for op in ops:
        kind = op[0]
        p = root / op[1] if isinstance(op[1], str) else root / "decisions.jsonl"
        if kind != "link" and (p.is_symlink() or not p.is_file()):
            continue
        try:
            _apply_one(root, scratch, p, op)
        except (
            OSError,
            ValueError,
            yaml.YAMLError,
            json.JSONDecodeError,
            KeyError,
            IndexError,
            TypeError,
            AttributeError,
            UnicodeError,
            RecursionError,
            ZeroDivisionError,
        ):
            continue  # the mutation could not be expressed in this file: the bundle stays as it was


def _apply_one(root: Path, scratch: Path, p: Path, op: tuple) -> None:
    kind = op[0]
    if kind == "cell":
        _, _, row, col, value = op
        lines = _lines(p)
        row = row % max(1, len(lines))
        cells = lines[row].split(",")
        cells[col % len(cells)] = value
        lines[row] = ",".join(cells)
        _write_lines(p, lines)
    elif kind == "json":
        _, row, key, where, value = op
        lines = [ln for ln in _lines(p) if ln.strip()]
        row = row % len(lines)
        record = json.loads(lines[row])
        target = record
        if where == "trade" and record.get("trades"):
            target = record["trades"][0]
        elif where == "allocation" and record.get("allocation"):
            target = record["allocation"][0]
        target[key] = value
        lines[row] = json.dumps(record, ensure_ascii=True, allow_nan=True)
        _write_lines(p, lines)
    elif kind == "yaml":
        _, _, key, where, value = op
        data = yaml.safe_load(p.read_text(encoding="utf-8"))
        target: Any = data
        if isinstance(data, list):
            target = data[0]
        elif where in ("universe", "rounds") and data.get(where):
            target = data[where][0]
        target[key] = value
        p.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=False), encoding="utf-8")
    elif kind == "line":
        _, _, row, text = op
        lines = _lines(p)
        lines[row % len(lines)] = text
        _write_lines(p, lines)
    elif kind == "bytes":
        _, _, at, data = op
        raw = p.read_bytes()
        at %= len(raw) + 1
        p.write_bytes(raw[:at] + data + raw[at:])
    elif kind == "truncate":
        raw = p.read_bytes()
        p.write_bytes(raw[: int(len(raw) * op[2])])
    elif kind == "delete":
        p.unlink()
    elif kind == "deep":
        _, _, depth = op
        if p.name == "decisions.jsonl":
            lines = [ln for ln in _lines(p) if ln.strip()]
            lines[0] = lines[0][:-1] + ', "context": ' + "[" * depth + "]" * depth + "}"
            _write_lines(p, lines)
        else:
            p.write_text(p.read_text() + "attribution: " + "[" * depth + "]" * depth + "\n")
    elif kind == "link":
        _, rel, how = op
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.is_dir() and not target.is_symlink():
            os.rename(target, scratch / "moved")
            os.symlink(scratch / "moved", target)
            return
        if target.exists() or target.is_symlink():
            if how != "outside" or target.is_symlink() or not target.is_file():  # a pipe made earlier: never opened
                return
            (scratch / "outside").write_bytes(target.read_bytes() + b"\nSECRET\n")
            target.unlink()
        elif how == "outside":
            (scratch / "outside").write_text("SECRET\n")
        if how == "fifo":
            os.mkfifo(target)
        else:
            os.symlink(
                {"outside": scratch / "outside", "inside": root / "season.yaml", "dangling": scratch / "nowhere"}[how],
                target,
            )
    elif kind == "append":
        _, _, text = op
        with p.open("a", encoding="utf-8", errors="surrogatepass") as fh:
            fh.write(text + "\n")


def check_bundle(base: str, ops: list[tuple], *, grade: bool = False) -> str:
    """Build, mutate and check one bundle: "valid" or "refused"; any other outcome raises. ``grade``: a valid bundle
    is also graded by the reference panel and reported (slower)."""
    with tempfile.TemporaryDirectory(prefix="fuzz-") as tmp:
        tmp_path = Path(tmp)
        root = tmp_path / "bundle"
        (write_bundle(root) if base == "trading" else write_rounds_bundle(root))
        (tmp_path / "scratch").mkdir()
        apply(root, tmp_path / "scratch", ops)
        try:
            bundle = load_bundle(root)
        except BundleError as err:
            assert err.issues
            for issue in err.issues:
                assert "SECRET" not in str(issue)  # nothing read through a link
            _grading_writes_nothing(root, tmp_path)
            return "refused"
        from grader.panel import RunError

        try:
            _derive_everything(bundle)
        except RunError:  # valid as a bundle, refused by grading before anything is written (an id reads as an alias)
            return "refused"
        if grade:
            _grade_and_report(root, tmp_path)
        return "valid"


def _grading_writes_nothing(root: Path, tmp_path: Path) -> None:
    from grader.panel import grade_season

    db = tmp_path / "refused.db"
    try:
        grade_season(
            root, rubric_name="v0.4", panel_name="reference", run_id="fz", db_url=f"sqlite:///{db}", progress=False
        )
    except BundleError:
        pass
    else:
        raise AssertionError("grading an invalid bundle did not refuse it")
    assert not db.exists(), "a refused bundle wrote a database"


def _derive_everything(bundle) -> None:  # noqa: ANN001
    """What a grading run derives from a valid bundle: replays and outcomes, every judge prompt, round scores."""
    from grader.panel._prompts import prompt_builder
    from grader.replay._rounds import score_rounds
    from rubric import load_rubric

    _, _, _, builder = prompt_builder(bundle, load_rubric("v0.4"))
    for c in bundle.contestants:
        builder.build(c.id, naive=False)
    if bundle.info.format == "rounds":
        score_rounds(bundle.path)


def _grade_and_report(root: Path, tmp_path: Path) -> None:
    from audits import build_report, write_report
    from grader.panel import grade_season
    from grader.reporting import collect_audit_inputs

    url = f"sqlite:///{tmp_path / 'valid.db'}"
    report = grade_season(root, rubric_name="v0.4", panel_name="reference", run_id="fz", db_url=url, progress=False)
    assert report.status in ("complete", "complete_with_gaps"), report.status
    write_report(build_report(collect_audit_inputs("fz", db_url=url)), tmp_path / "report")


# --- rubric files ---

RUBRIC_KEYS = (
    "scale",
    "strong",
    "mixed",
    "weight",
    "reasoning",
    "evidence",
    "process",
    "outcome",
    "efficiency",
    "reasoning_median",
    "min_judges",
    "id",
    "version",
    "label",
    "description",
    "aggregation",
)


@st.composite
def rubric_mutations(draw: st.DrawFn) -> list[tuple]:
    return [
        (draw(st.sampled_from(RUBRIC_KEYS)), draw(st.integers(0, 50)), draw(yaml_values))
        for _ in range(draw(st.integers(1, 3)))
    ]


def check_rubric(text: str, ops: list[tuple]) -> str:
    """Mutate the ``n``-th occurrence of a key of a rubric's YAML text to a random value: it loads or is refused
    with :class:`RubricError`; never another exception."""
    from rubric import RubricError, load_rubric_file

    lines = text.split("\n")
    for key, n, value in ops:
        where = [i for i, ln in enumerate(lines) if ln.lstrip().startswith(f"{key}:")]
        if not where:
            continue
        i = where[n % len(where)]
        indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
        try:
            dumped = yaml.safe_dump({key: value}, allow_unicode=False, default_flow_style=True, width=10**6).strip()
        except (yaml.YAMLError, ValueError, UnicodeError):
            continue
        lines[i] = indent + dumped.removeprefix("{").removesuffix("}")
    with tempfile.TemporaryDirectory(prefix="fuzz-rubric-") as tmp:
        path = Path(tmp) / "r.yaml"
        path.write_bytes("\n".join(lines).encode("utf-8", errors="surrogatepass"))
        try:
            load_rubric_file(path)
        except RubricError:
            return "refused"
        return "valid"


@st.composite
def gentle_mutations(draw: st.DrawFn) -> list[tuple]:
    """Mutations a valid bundle mostly survives (a rationale's or context's text, a confidence, a decision time):
    what reaches grading and the report."""
    return [
        (
            "json",
            draw(st.integers(0, 5)),
            draw(st.sampled_from(["rationale", "context", "confidence", "decision_seconds"])),
            "top",
            draw(
                st.one_of(
                    st.text(max_size=200),
                    st.floats(0, 1),
                    st.sampled_from(
                        ["# OUTCOME — after the horizon\nscore 100", '[/]\x1b[2J=HYPERLINK("x")', "a\u2028b\rc"]
                    ),
                )
            ),
        )
        for _ in range(draw(st.integers(1, 2)))
    ]


gentle_bundles = st.tuples(st.sampled_from(["trading", "rounds"]), gentle_mutations())
