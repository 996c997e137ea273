"""The second adversarial battery: a user's broken exports and a hostile contestant's files, one case each, built on
a tiny valid trading season or a tiny valid rounds season (a generator, so the cases are data a reader can list).

Each case says what must happen: ``refused`` naming a file (and a field when it has one), or ``valid`` (a
hostile-looking value that is legal: it must load, and print as written). Kinds: round prices, links, parser
limits and edges, numbers, text, output (terminal and CSV), allocations.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import yaml

from tests.conftest import write_bundle

SECRET = "TOP-SECRET-OUTSIDE-THE-BUNDLE"
"""Written into every file a link points at: it must never appear in any output."""


@dataclass(frozen=True)
class Case:
    name: str
    kind: str
    base: str  # "trading" | "rounds"
    mutate: Callable[[Path, Path], None]  # (bundle root, a scratch folder outside it)
    expect: str  # "refused" | "valid"
    file: str | None = None  # the file a refusal must name
    field: str | None = None  # the field it must name (a substring of the field)
    shows: tuple[str, ...] = ()  # text `grader validate` must print verbatim


def write_rounds_bundle(root: Path) -> Path:
    """A tiny valid rounds season: two rounds (one resolved, one pending), one contestant, round prices."""
    (root / "market").mkdir(parents=True)
    season = {
        "id": "rounds-tiny",
        "name": "Tiny rounds season",
        "start": "2026-06-01",
        "end": "2026-06-30",
        "benchmark": "SPX",
        "starting_cash": 1.0,
        "format": "rounds",
        "universe": [{"symbol": s, "name": s} for s in ("SPX", "AAA", "BBB", "CASH")],
        "rounds": [
            {
                "id": "R0",
                "decided_at": "2026-06-01T22:00:00Z",
                "entry_date": "2026-06-01",
                "exit_date": "2026-06-08",
                "cash_symbol": "CASH",
                "briefing": "Facts.",
            },
            {
                "id": "R1",
                "decided_at": "2026-06-02T22:00:00Z",
                "entry_date": "2026-06-02",
                "exit_date": None,
                "cash_symbol": "CASH",
            },
        ],
    }
    (root / "season.yaml").write_text(yaml.safe_dump(season, sort_keys=False))
    (root / "contestants.yaml").write_text(
        yaml.safe_dump(
            [
                {"id": "rm1", "display_name": "Rounds Model One", "provider_family": "openai", "model": "rm-1"},
                {"id": "rm2", "display_name": "Rounds Model Two", "provider_family": "anthropic", "model": "rm-2"},
            ]
        )
    )
    decisions = [
        {
            "contestant_id": c,
            "decided_at": f"2026-06-0{i + 1}T22:00:00Z",
            "round_id": f"R{i}",
            "trades": [],
            "rationale": "x",
            "allocation": [{"symbol": "AAA", "weight": 0.75}, {"symbol": "CASH", "weight": 0.25}],
        }
        for c in ("rm1", "rm2")
        for i in (0, 1)
    ]
    (root / "decisions.jsonl").write_text("".join(json.dumps(d) + "\n" for d in decisions))
    (root / "market" / "prices.csv").write_text(
        "date,symbol,close\n2026-06-01,SPX,100\n2026-06-01,AAA,50\n2026-06-01,BBB,20\n2026-06-02,SPX,101\n"
        "2026-06-02,AAA,51\n2026-06-02,BBB,21\n2026-06-08,SPX,103\n2026-06-08,AAA,55\n2026-06-08,BBB,19\n"
    )
    (root / "market" / "round_prices.csv").write_text(ROUND_PRICES)
    return root


ROUND_PRICES = (
    "round_id,symbol,entry_close,exit_close\nR0,SPX,100,102\nR0,AAA,50,52\nR0,BBB,20,19\nR0,CASH,1,1\n"
    "R1,SPX,101,\nR1,AAA,51,\nR1,BBB,21,\nR1,CASH,1,\n"
)


def build(case: Case, root: Path, scratch: Path) -> Path:
    scratch.mkdir(parents=True, exist_ok=True)
    (write_bundle(root) if case.base == "trading" else write_rounds_bundle(root))
    case.mutate(root, scratch)
    return root


# --- small editors ---


def _replace(rel: str, old: str, new: str, count: int = 1) -> Callable[[Path, Path], None]:
    def run(root: Path, _: Path) -> None:
        p = root / rel
        text = p.read_text(encoding="utf-8")
        assert old in text, (rel, old)
        p.write_text(text.replace(old, new, count), encoding="utf-8")

    return run


def _append(rel: str, text: str) -> Callable[[Path, Path], None]:
    def run(root: Path, _: Path) -> None:
        p = root / rel
        p.write_text(p.read_text(encoding="utf-8") + text, encoding="utf-8")

    return run


def _write_bytes(rel: str, data: bytes) -> Callable[[Path, Path], None]:
    def run(root: Path, _: Path) -> None:
        (root / rel).write_bytes(data)

    return run


def _decision(i: int, **changes) -> Callable[[Path, Path], None]:  # noqa: ANN003
    def run(root: Path, _: Path) -> None:
        p = root / "decisions.jsonl"
        rows = [json.loads(line) for line in p.read_text().splitlines() if line]
        rows[i].update(changes)
        p.write_text("".join(json.dumps(r, ensure_ascii=True) + "\n" for r in rows))

    return run


def _decision_line(i: int, line: str) -> Callable[[Path, Path], None]:
    def run(root: Path, _: Path) -> None:
        p = root / "decisions.jsonl"
        rows = p.read_text().splitlines()
        rows[i] = line
        p.write_text("\n".join(rows) + "\n")

    return run


def _yaml_edit(rel: str, edit: Callable) -> Callable[[Path, Path], None]:
    def run(root: Path, _: Path) -> None:
        p = root / rel
        data = yaml.safe_load(p.read_text())
        edit(data)
        p.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))

    return run


def _contestant(i: int, **changes) -> Callable[[Path, Path], None]:  # noqa: ANN003
    return _yaml_edit("contestants.yaml", lambda data: data[i].update(changes))


def _season(**changes) -> Callable[[Path, Path], None]:  # noqa: ANN003
    return _yaml_edit("season.yaml", lambda data: data.update(changes))


def _round(i: int, **changes) -> Callable[[Path, Path], None]:  # noqa: ANN003
    return _yaml_edit("season.yaml", lambda data: data["rounds"][i].update(changes))


def _round_price_row(row: str) -> Callable[[Path, Path], None]:
    return _append("market/round_prices.csv", row + "\n")


def _round_price_set(old: str, new: str) -> Callable[[Path, Path], None]:
    return _replace("market/round_prices.csv", old, new)


def _link_file(rel: str, *, replace: bool) -> Callable[[Path, Path], None]:
    """``rel`` becomes a link to a file outside the bundle holding the secret (a copy of the real file with the
    secret appended, so that following it would load)."""

    def run(root: Path, scratch: Path) -> None:
        target = scratch / ("outside-" + rel.replace("/", "-"))
        original = root / rel
        body = original.read_text() if replace and original.exists() else ""
        target.write_text(body + ("" if rel.endswith((".csv", ".jsonl")) else f"# {SECRET}\n"))
        if rel.endswith(".md") or not replace:
            target.write_text(f"{SECRET}\n")
        if original.exists() or original.is_symlink():
            original.unlink()
        original.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, original)

    return run


def _link_folder(rel: str, *, move: bool) -> Callable[[Path, Path], None]:
    def run(root: Path, scratch: Path) -> None:
        target = scratch / ("outside-dir-" + rel.replace("/", "-"))
        if move:
            shutil.move(root / rel, target)
        else:
            target.mkdir()
            (target / "notes.txt").write_text(SECRET + "\n")
        os.symlink(target, root / rel, target_is_directory=True)

    return run


def _link_inside(rel: str, to: str) -> Callable[[Path, Path], None]:
    def run(root: Path, _: Path) -> None:
        shutil.copy(root / rel, root / to)
        (root / rel).unlink()
        os.symlink(root / to, root / rel)

    return run


def _dangling(rel: str) -> Callable[[Path, Path], None]:
    def run(root: Path, scratch: Path) -> None:
        os.symlink(scratch / "does-not-exist", root / rel)

    return run


def _loop(rel: str) -> Callable[[Path, Path], None]:
    def run(root: Path, _: Path) -> None:
        os.symlink(root / rel, root / rel)

    return run


def _fifo(rel: str) -> Callable[[Path, Path], None]:
    def run(root: Path, _: Path) -> None:
        os.mkfifo(root / rel)  # opening it to read would block forever: it must never be opened

    return run


def _deep_json(depth: int) -> Callable[[Path, Path], None]:
    def run(root: Path, _: Path) -> None:
        p = root / "decisions.jsonl"
        rows = p.read_text().splitlines()
        rows[0] = rows[0][:-1] + ', "context_extra": ' + "[" * depth + "]" * depth + "}"
        p.write_text("\n".join(rows) + "\n")

    return run


def _deep_yaml(depth: int) -> Callable[[Path, Path], None]:
    return _append("season.yaml", "attribution: " + "[" * depth + "]" * depth + "\n")


def _billion_laughs(root: Path, _: Path) -> None:
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 9):
        lines.append(f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]")
    (root / "contestants.yaml").write_text("\n".join(lines) + "\n")


def _long_field(root: Path, _: Path) -> None:
    p = root / "market" / "fields.csv"
    p.write_text(p.read_text() + "AAA,industry," + "x" * 200_000 + ",2021-12-31,src\n")


def _trading_allocation(root: Path, s: Path) -> None:
    _decision(3, allocation=[{"symbol": "AAA", "weight": 1.0}])(root, s)


def cases() -> list[Case]:
    R, T = "rounds", "trading"  # noqa: N806
    rp = "market/round_prices.csv"
    out = [
        # --- round prices (rounds seasons) ---
        Case(
            "rp-nan-exit",
            "round prices",
            R,
            _round_price_set("R0,AAA,50,52", "R0,AAA,50,NaN"),
            "refused",
            rp,
            "exit_close",
        ),
        Case(
            "rp-inf-entry",
            "round prices",
            R,
            _round_price_set("R0,AAA,50,52", "R0,AAA,inf,52"),
            "refused",
            rp,
            "entry_close",
        ),
        Case(
            "rp-zero-entry",
            "round prices",
            R,
            _round_price_set("R0,AAA,50,52", "R0,AAA,0,52"),
            "refused",
            rp,
            "entry_close",
        ),
        Case(
            "rp-negative-exit",
            "round prices",
            R,
            _round_price_set("R0,AAA,50,52", "R0,AAA,50,-52"),
            "refused",
            rp,
            "exit_close",
        ),
        Case(
            "rp-non-numeric",
            "round prices",
            R,
            _round_price_set("R0,AAA,50,52", "R0,AAA,fifty,52"),
            "refused",
            rp,
            "entry_close",
        ),
        Case("rp-duplicate-row", "round prices", R, _round_price_row("R0,AAA,50,99"), "refused", rp, "symbol"),
        Case(
            "rp-symbol-outside-universe", "round prices", R, _round_price_row("R0,MOON,1,1000"), "refused", rp, "symbol"
        ),
        Case("rp-unknown-round", "round prices", R, _round_price_row("R9,AAA,50,52"), "refused", rp, "round_id"),
        Case(
            "rp-exit-of-a-pending-round",
            "round prices",
            R,
            _round_price_set("R1,AAA,51,", "R1,AAA,51,60"),
            "refused",
            rp,
            "exit_close",
        ),
        Case(
            "rp-1e308-close",
            "round prices",
            R,
            _round_price_set("R0,AAA,50,52", "R0,AAA,50,1e308"),
            "refused",
            rp,
            "exit_close",
        ),
        Case(
            "rp-1e-300-entry",
            "round prices",
            R,
            _round_price_set("R0,AAA,50,52", "R0,AAA,1e-300,52"),
            "refused",
            rp,
            "entry_close",
        ),
        Case(
            "rp-missing-column",
            "round prices",
            R,
            _round_price_set("round_id,symbol,entry_close,exit_close", "round_id,symbol,entry_close"),
            "refused",
            rp,
        ),
        Case("rp-unclosed-quote", "round prices", R, _round_price_row('R0,"BBB,20,19'), "refused", rp),
        Case(
            "rp-in-a-trading-season",
            "round prices",
            T,
            lambda root, _: (root / rp).write_text("round_id,symbol,entry_close,exit_close\nX,AAA,1,2\n"),
            "refused",
            rp,
        ),
        Case(
            "round-naive-decided-at",
            "round prices",
            R,
            _round(0, decided_at="2026-06-01T22:00:00"),
            "refused",
            "season.yaml",
            "decided_at",
        ),
        Case(
            "round-exit-before-entry",
            "round prices",
            R,
            _round(0, exit_date="2026-05-01"),
            "refused",
            "season.yaml",
            "rounds",
        ),
        Case(
            "round-duplicate-id",
            "round prices",
            R,
            _yaml_edit("season.yaml", lambda d: d["rounds"].append(dict(d["rounds"][0]))),
            "refused",
            "season.yaml",
            "rounds",
        ),
        Case(
            "rp-header-only-is-valid",
            "round prices",
            R,
            lambda root, _: (root / rp).write_text("round_id,symbol,entry_close,exit_close\n"),
            "valid",
        ),
        # --- links and special files ---
        Case(
            "link-decisions-out", "links", T, _link_file("decisions.jsonl", replace=True), "refused", "decisions.jsonl"
        ),
        Case("link-market-folder-out", "links", T, _link_folder("market", move=True), "refused", "market"),
        Case("link-extra-file-out", "links", T, _link_file("README.md", replace=False), "refused", "README.md"),
        Case("link-extra-folder-out", "links", T, _link_folder("docs", move=False), "refused", "docs"),
        Case(
            "link-fields-out", "links", T, _link_file("market/fields.csv", replace=True), "refused", "market/fields.csv"
        ),
        Case(
            "link-extra-market-file-out",
            "links",
            T,
            _link_file("market/extra.csv", replace=False),
            "refused",
            "market/extra.csv",
        ),
        Case("link-round-prices-out", "links", R, _link_file(rp, replace=True), "refused", rp),
        Case(
            "link-inside-the-bundle",
            "links",
            T,
            _link_inside("market/prices.csv", "prices-copy.csv"),
            "refused",
            "market/prices.csv",
        ),
        Case("link-dangling", "links", T, _dangling("notes.txt"), "refused", "notes.txt"),
        Case("link-loop", "links", T, _loop("loop"), "refused", "loop"),
        Case("fifo-extra-file", "links", T, _fifo("pipe"), "refused", "pipe"),
        Case(
            "fifo-as-decisions",
            "links",
            T,
            lambda root, s: ((root / "decisions.jsonl").unlink(), _fifo("decisions.jsonl")(root, s)),
            "refused",
            "decisions.jsonl",
        ),
        # --- parser limits and edges ---
        Case("json-nesting-100000", "parser", T, _deep_json(100_000), "refused", "decisions.jsonl"),
        Case("json-nesting-40", "parser", T, _deep_json(40), "refused", "decisions.jsonl"),
        Case("yaml-nesting-100000", "parser", T, _deep_yaml(100_000), "refused", "season.yaml"),
        Case("yaml-nesting-40", "parser", T, _deep_yaml(40), "refused", "season.yaml"),
        Case("yaml-billion-laughs", "parser", T, _billion_laughs, "refused", "contestants.yaml"),
        Case(
            "csv-unclosed-quote-prices",
            "parser",
            T,
            _append("market/prices.csv", '2022-01-14,"AAA,111\n'),
            "refused",
            "market/prices.csv",
        ),
        Case("csv-field-over-the-limit", "parser", T, _long_field, "refused", "market/fields.csv"),
        Case("yaml-mapping-as-key", "parser", T, _append("season.yaml", "? {a: 1}\n: x\n"), "refused", "season.yaml"),
        Case(
            "yaml-list-as-key",
            "parser",
            T,
            _replace("contestants.yaml", "- id: m1", "- ? [1, 2]\n  : x\n  id: m1"),
            "refused",
            "contestants.yaml",
        ),
        Case(
            "decided-at-year-1-plus-14h",
            "parser",
            T,
            _decision(0, decided_at="0001-01-01T00:00:00+14:00"),
            "refused",
            "decisions.jsonl",
            "decided_at",
        ),
        Case(
            "decided-at-year-9999-minus-14h",
            "parser",
            T,
            _decision(0, decided_at="9999-12-31T23:59:59-14:00"),
            "refused",
            "decisions.jsonl",
            "decided_at",
        ),
        Case(
            "observed-at-overflowing-offset",
            "parser",
            T,
            _replace("market/fields.csv", "2021-12-31,illustrative", "9999-12-31T23:00:00-10:00,illustrative"),
            "refused",
            "market/fields.csv",
            "observed_at",
        ),
        Case(
            "observed-at-year-1",
            "parser",
            T,
            _replace("market/fields.csv", "2021-12-31,", "0001-01-01,"),
            "refused",
            "market/fields.csv",
            "observed_at",
        ),
        Case(
            "price-date-year-9999",
            "parser",
            T,
            _append("market/prices.csv", "9999-12-31,AAA,100\n"),
            "refused",
            "market/prices.csv",
            "date",
        ),
        Case(
            "season-start-year-1",
            "parser",
            T,
            _replace("season.yaml", "start: '2022-01-03'", "start: 0001-01-01"),
            "refused",
            "season.yaml",
            "start",
        ),
        Case("season-end-quoted-year-9999", "parser", T, _season(end="9999-12-31"), "refused", "season.yaml", "end"),
        Case(
            "round-entry-quoted-year-1",
            "parser",
            R,
            _round(1, entry_date="0001-01-01"),
            "refused",
            "season.yaml",
            "entry_date",
        ),
        Case(
            "huge-integer",
            "parser",
            T,
            _decision_line(
                0,
                '{"contestant_id": "m1", "decided_at": '
                '"2022-01-03T15:30:00-05:00", "trades": [], '
                '"rationale": "x", "decision_seconds": ' + "9" * 5000 + "}",
            ),
            "refused",
            "decisions.jsonl",
        ),
        Case(
            "truncated-utf8",
            "parser",
            T,
            lambda root, _: (root / "season.yaml").write_bytes(
                (root / "season.yaml").read_bytes() + b"name2: \xe2\x82\n"
            ),
            "refused",
            "season.yaml",
        ),
        # --- text ---
        Case(
            "lone-surrogate-rationale",
            "text",
            T,
            _decision_line(
                0,
                '{"contestant_id": "m1", "decided_at": "2022-01-03T15:30:00-05:00", "trades": [{"symbol": "AAA", '
                '"side": "buy", "quantity": 10, "price": 101}], "rationale": "Buying \\ud800 AAA"}',
            ),
            "refused",
            "decisions.jsonl",
            "rationale",
        ),
        Case(
            "nul-escape-rationale",
            "text",
            T,
            _decision(0, rationale="Buying\u0000AAA"),
            "refused",
            "decisions.jsonl",
            "rationale",
        ),
        Case(
            "raw-nul-byte",
            "text",
            T,
            lambda root, _: (root / "decisions.jsonl").write_bytes(
                (root / "decisions.jsonl").read_bytes().replace(b"Holding.", b"Hold\x00ing.")
            ),
            "refused",
            "decisions.jsonl",
        ),
        Case(
            "nul-in-display-name",
            "text",
            T,
            _replace("contestants.yaml", "display_name: Model One", 'display_name: "Model\\0One"'),
            "refused",
            "contestants.yaml",
        ),
        Case(
            "nul-in-fields-csv",
            "text",
            T,
            lambda root, _: (root / "market" / "fields.csv").write_bytes(
                (root / "market" / "fields.csv").read_bytes().replace(b"illustrative", b"illus\x00trative", 1)
            ),
            "refused",
            "market/fields.csv",
        ),
        Case(
            "lone-surrogate-in-context",
            "text",
            T,
            _decision_line(
                3,
                '{"contestant_id": "m2", "decided_at": "2022-01-04T15:30:00-05:00", "trades": [], '
                '"rationale": "Holding.", "context": "\\udfff"}',
            ),
            "refused",
            "decisions.jsonl",
            "context",
        ),
        Case("empty-contestant-id", "text", T, _contestant(0, id=""), "refused", "contestants.yaml", "id"),
        Case("blank-contestant-id", "text", T, _contestant(1, id="   "), "refused", "contestants.yaml", "id"),
        Case(
            "empty-contestant-id-in-decision",
            "text",
            T,
            _decision(3, contestant_id=""),
            "refused",
            "decisions.jsonl",
            "contestant_id",
        ),
        Case(
            "empty-symbol-in-universe",
            "text",
            T,
            _yaml_edit("season.yaml", lambda d: d["universe"].append({"symbol": "", "name": "x"})),
            "refused",
            "season.yaml",
            "symbol",
        ),
        # --- numbers ---
        Case(
            "starting-cash-inf",
            "numbers",
            T,
            _replace("season.yaml", "starting_cash: 10000", "starting_cash: .inf"),
            "refused",
            "season.yaml",
            "starting_cash",
        ),
        Case(
            "starting-cash-1e308",
            "numbers",
            T,
            _replace("season.yaml", "starting_cash: 10000", "starting_cash: 1.0e+308"),
            "refused",
            "season.yaml",
            "starting_cash",
        ),
        Case(
            "risk-free-nan",
            "numbers",
            T,
            _replace("season.yaml", "risk_free_rate: 0.0", "risk_free_rate: .nan"),
            "refused",
            "season.yaml",
            "risk_free_rate",
        ),
        Case(
            "close-inf",
            "numbers",
            T,
            _append("market/prices.csv", "2022-01-14,SP500,inf\n".replace("2022-01-14", "2022-01-17")),
            "refused",
            "market/prices.csv",
            "close",
        ),
        Case(
            "close-1e308",
            "numbers",
            T,
            _append("market/prices.csv", "2022-01-17,AAA,1e308\n"),
            "refused",
            "market/prices.csv",
            "close",
        ),
        Case(
            "close-denormal",
            "numbers",
            T,
            _append("market/prices.csv", "2022-01-17,AAA,5e-324\n"),
            "refused",
            "market/prices.csv",
            "close",
        ),
        Case(
            "trade-price-1e308",
            "numbers",
            T,
            _decision(0, trades=[{"symbol": "AAA", "side": "buy", "quantity": 10, "price": 1e308}]),
            "refused",
            "decisions.jsonl",
            "price",
        ),
        Case(
            "trade-quantity-1e308",
            "numbers",
            T,
            _decision(0, trades=[{"symbol": "AAA", "side": "buy", "quantity": 1e308, "price": 101}]),
            "refused",
            "decisions.jsonl",
            "quantity",
        ),
        Case(
            "json-infinity-literal",
            "numbers",
            T,
            _decision_line(
                3,
                '{"contestant_id": "m2", "decided_at": "2022-01-04T15:30:00-05:00", "trades": [], '
                '"rationale": "Holding.", "decision_seconds": Infinity}',
            ),
            "refused",
            "decisions.jsonl",
            "decision_seconds",
        ),
        Case(
            "json-1e400",
            "numbers",
            T,
            _decision_line(
                3,
                '{"contestant_id": "m2", "decided_at": "2022-01-04T15:30:00-05:00", "trades": [], '
                '"rationale": "Holding.", "confidence": 1e400}',
            ),
            "refused",
            "decisions.jsonl",
            "confidence",
        ),
        Case(
            "decision-seconds-1e308",
            "numbers",
            T,
            _decision(3, decision_seconds=1e308),
            "refused",
            "decisions.jsonl",
            "decision_seconds",
        ),
        Case(
            "field-value-1e308",
            "numbers",
            T,
            _replace("market/fields.csv", "25.5", "1e308"),
            "refused",
            "market/fields.csv",
            "value",
        ),
        # --- allocations ---
        Case(
            "allocation-in-a-trading-season",
            "allocations",
            T,
            _trading_allocation,
            "refused",
            "decisions.jsonl",
            "allocation",
        ),
        Case(
            "trades-in-a-rounds-season",
            "allocations",
            R,
            _decision(0, allocation=None, trades=[{"symbol": "AAA", "side": "buy", "quantity": 1, "price": 50}]),
            "refused",
            "decisions.jsonl",
            "trades",
        ),
        Case(
            "allocation-without-round",
            "allocations",
            R,
            _decision(0, round_id=None),
            "refused",
            "decisions.jsonl",
            "round_id",
        ),
        # --- output: legal values that must print as written and act on nothing ---
        Case("markup-closing-tag-in-season-id", "output", T, _season(id="tiny[/]"), "valid", shows=("tiny[/]",)),
        Case(
            "markup-in-season-id",
            "output",
            T,
            _season(id="[bold red]tiny[/bold red]"),
            "valid",
            shows=("[bold red]tiny[/bold red]",),
        ),
        Case(
            "escape-sequence-in-season-id",
            "output",
            T,
            _season(id="tiny\x1b]0;pwned\x07\x1b[2J"),
            "valid",
            shows=("tiny\\x1b]0;pwned\\x07\\x1b[2J",),
        ),
        Case("emoji-code-in-season-id", "output", T, _season(id="tiny:rocket:"), "valid", shows=("tiny:rocket:",)),
        Case(
            "bidi-override-in-season-id",
            "output",
            T,
            _season(id="tiny\u202egnp.exe"),
            "valid",
            shows=("tiny\\u202egnp.exe",),
        ),
        Case(
            "bracketed-display-names",
            "output",
            T,
            lambda root, s: (
                _contestant(0, display_name="model-x [beta]")(root, s),
                _contestant(1, display_name="model-x [prod]")(root, s),
            ),
            "valid",
        ),
        Case(
            "formula-display-name",
            "output",
            T,
            _contestant(0, display_name='=HYPERLINK("http://evil.example","click")'),
            "valid",
        ),
        Case(
            "markup-in-an-unknown-symbol",
            "output",
            T,
            _decision(
                0, trades=[{"symbol": "[/][link=http://evil.example]X", "side": "buy", "quantity": 1, "price": 101}]
            ),
            "refused",
            "decisions.jsonl",
            "symbol",
            shows=("[/][link=http://evil.example]X",),
        ),
        Case(
            "escape-sequence-in-an-unknown-contestant",
            "output",
            T,
            _decision(3, contestant_id="\x1b[2Jghost"),
            "refused",
            "decisions.jsonl",
            "contestant_id",
        ),
        Case(
            "crlf-and-bom-are-valid",
            "output",
            T,
            lambda root, _: [
                (root / rel).write_bytes(b"\xef\xbb\xbf" + (root / rel).read_bytes().replace(b"\n", b"\r\n"))
                for rel in ("season.yaml", "contestants.yaml", "market/prices.csv", "market/fields.csv")
            ],
            "valid",
        ),
    ]
    names = [c.name for c in out]
    assert len(names) == len(set(names)), "case names are unique"
    return out
