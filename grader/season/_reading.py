"""Bounded, strict readers of bundle files: every problem becomes a :class:`BundleIssue` naming file, line and
field, never a traceback.

- A bundle's tree is scanned without following links: a symbolic link (to a file or a folder, in or out of the
  bundle) and anything that is not a regular file or folder (a pipe, a device, a socket) is refused and never read.
- Text is UTF-8 without NUL characters; strings parsed from JSON or YAML escapes hold no NUL and no lone surrogate.
- Parsers are bounded: JSON and YAML nesting depth, YAML size after aliases, CSV field size; an unclosed CSV
  quote names its line.
- Numbers are finite and within range; dates and timestamps are representable (years 1900..2200, an offset that
  moves a timestamp past year 9999 is refused before any arithmetic).
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import stat
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from grader.season._errors import Collector, line_of

MAX_DEPTH = 32
"""Deepest nesting of lists and mappings in a JSON line or YAML file (a bundle needs 4)."""
MAX_YAML_NODES = 500_000
"""Most values a YAML file may expand to (aliases counted each time they are used: no 'billion laughs')."""
MAX_FILE_BYTES = 1 << 30
"""Largest bundle file read (1 GiB; the largest real season's decisions are a few MB)."""
MIN_YEAR, MAX_YEAR = 1900, 2200
"""Dates and timestamps outside these years are refused (none is a trading day; arithmetic on them overflows)."""
MAX_INT = 2**63
"""Integers beyond this are refused (no float can hold them exactly; some overflow a float)."""


# --- the tree ---


def scan_tree(root: Path, col: Collector) -> set[str]:
    """Every link and special file under ``root`` (relative paths), each reported once; nothing is followed or
    read. The root itself is the user's argument and may be reached through a link."""
    refused: set[str] = set()
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        for name in sorted(dirnames + filenames):
            path = Path(dirpath) / name
            rel = path.relative_to(root).as_posix()
            try:
                mode = os.lstat(path).st_mode
            except OSError as exc:
                col.add(rel, None, None, f"cannot be inspected ({exc.strerror})")
                refused.add(rel)
                continue
            if stat.S_ISLNK(mode):
                col.add(
                    rel,
                    None,
                    None,
                    "is a symbolic link: refused and never read (a link out of the bundle "
                    "could read any file; copy the file into the bundle instead)",
                )
                refused.add(rel)
            elif not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):
                col.add(
                    rel, None, None, "is not a regular file or folder (a pipe, device or socket): refused, never read"
                )
                refused.add(rel)
        dirnames[:] = [d for d in dirnames if (Path(dirpath) / d).relative_to(root).as_posix() not in refused]
    return refused


def regular_files(root: Path) -> list[Path]:
    """The bundle's regular files, path-sorted; links and special files are skipped, never read."""
    out: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        for name in filenames:
            p = Path(dirpath) / name
            if stat.S_ISREG(os.lstat(p).st_mode):
                out.append(p)
        dirnames[:] = [d for d in dirnames if not os.path.islink(Path(dirpath) / d)]
    return sorted(out)


def _refused(rel: str, refused: set[str]) -> bool:
    parts = rel.split("/")
    return any("/".join(parts[: i + 1]) in refused for i in range(len(parts)))


def read_text(root: Path, rel: str, col: Collector, refused: set[str], required: bool = True) -> str | None:
    """A bundle file's text, or None with the issue recorded (a link or special file was reported by the scan and
    is never opened)."""
    if _refused(rel, refused):
        return None
    p = root / rel
    try:
        mode = os.lstat(p).st_mode
    except OSError:
        mode = None
    if mode is not None and stat.S_ISREG(mode) and p.stat().st_size > MAX_FILE_BYTES:
        col.add(rel, None, None, f"{p.stat().st_size:,} bytes: larger than {MAX_FILE_BYTES:,} (not read)")
        return None
    if mode is None or not stat.S_ISREG(mode):
        if mode is None and required:
            col.add(rel, None, None, "file is missing")
        elif mode is not None:
            col.add(rel, None, None, "is not a regular file")
        return None
    data = p.read_bytes()
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark is fine
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        col.add(
            rel, line, None, f"not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}); save the file as UTF-8"
        )
        return None
    if not text.strip():
        col.add(rel, None, None, "file is empty")
        return None
    if "\x00" in text:
        col.add(
            rel,
            text[: text.index("\x00")].count("\n") + 1,
            None,
            "holds a NUL character (a binary file, or text a database cannot store)",
        )
        return None
    return text


def lines_of(text: str) -> list[str]:
    """Lines split on "\\n" only (str.splitlines also splits inside JSON strings at U+2028, NEL, ...)."""
    return [line.removesuffix("\r") for line in text.split("\n")]


# --- values ---


def text_problem(value: str) -> str | None:
    """Why a string cannot be stored or shown faithfully: a NUL, a lone surrogate."""
    if "\x00" in value:
        return "holds a NUL character"
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "holds a lone surrogate (an unpaired \\ud800-\\udfff escape): not text"
    return None


def _date_problem(value: date) -> str | None:
    if isinstance(value, datetime) and value.tzinfo is not None:
        try:
            value = value.astimezone(UTC)
        except (OverflowError, ValueError):
            return f"{value.isoformat()} cannot be placed in time (its offset moves it out of the calendar)"
    if not MIN_YEAR <= value.year <= MAX_YEAR:
        return f"year {value.year} is outside {MIN_YEAR}..{MAX_YEAR}"
    return None


def check_values(
    obj: Any, file: str, line: int | None, prefix: str, col: Collector, lines: dict[tuple, int] | None = None
) -> bool:
    """Every value of a parsed JSON or YAML document, iteratively (no recursion): finite numbers within range,
    strings without NUL or lone surrogates, representable dates, nesting at most :data:`MAX_DEPTH`, at most
    :data:`MAX_YAML_NODES` values. Returns False when something was refused."""
    ok = True
    stack: list[tuple[Any, tuple, int]] = [(obj, (), 0)]
    seen = 0
    while stack:
        value, path, depth = stack.pop()
        seen += 1
        where = line_of(lines, path, line) if lines is not None else line
        name = _path_name(prefix, path)
        if seen > MAX_YAML_NODES:
            col.add(file, line, prefix or None, f"expands to more than {MAX_YAML_NODES:,} values (aliases?)")
            return False
        if depth > MAX_DEPTH:
            col.add(file, where, name, f"nested more than {MAX_DEPTH} levels deep")
            return False
        problem: str | None = None
        if isinstance(value, bool) or value is None:
            continue
        if isinstance(value, float):
            if not math.isfinite(value):
                problem = f"not a finite number: {value!r}"
        elif isinstance(value, int):
            if abs(value) > MAX_INT:
                problem = "integer out of range"
        elif isinstance(value, str):
            problem = text_problem(value)
        elif isinstance(value, date):
            problem = _date_problem(value)
        elif isinstance(value, dict):
            for k, v in value.items():
                if not isinstance(k, str | int | float | bool | date) and k is not None:
                    col.add(file, where, name, f"a mapping key must be a plain value, not {type(k).__name__}")
                    ok = False
                    continue
                if isinstance(k, str) and text_problem(k):
                    col.add(file, where, name, f"a key {text_problem(k)}")
                    ok = False
                    continue
                stack.append((v, (*path, k), depth + 1))
        elif isinstance(value, list):
            stack.extend((v, (*path, i), depth + 1) for i, v in enumerate(value))
        if problem:
            col.add(file, where, name, problem)
            ok = False
    return ok


def _path_name(prefix: str, path: tuple) -> str | None:
    out = prefix
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or None


def number(
    raw: str, file: str, line: int, fld: str, col: Collector, positive: bool = False, limit: float | None = None
) -> float | None:
    """A CSV cell as a finite float (positive when asked, at most ``limit`` in size)."""
    try:
        value = float(raw)
    except (TypeError, ValueError, OverflowError):
        col.add(file, line, fld, f"not a number: {raw!r}")
        return None
    if math.isnan(value) or math.isinf(value):
        col.add(file, line, fld, f"not a finite number: {raw!r}")
        return None
    if positive and value <= 0:
        col.add(file, line, fld, f"must be positive: {raw!r}")
        return None
    if limit is not None and not abs(value) <= limit:
        col.add(file, line, fld, f"{raw!r} is out of range (at most {limit:g})")
        return None
    return value


def parse_aware(value: Any, file: str, line: int | None, fld: str, col: Collector) -> datetime | None:
    """An ISO 8601 timestamp that must carry an offset and be representable (see :data:`MIN_YEAR`)."""
    if not isinstance(value, str):
        col.add(file, line, fld, f"expected an ISO 8601 timestamp string, got {value!r}")
        return None
    try:
        ts = datetime.fromisoformat(value)
    except (ValueError, OverflowError):
        col.add(file, line, fld, f"not an ISO 8601 timestamp: {value!r}")
        return None
    if ts.tzinfo is None:
        col.add(file, line, fld, f"timestamp has no UTC offset: {value!r}")
        return None
    problem = _date_problem(ts)
    if problem:
        col.add(file, line, fld, problem)
        return None
    return ts


def parse_day(raw: str, file: str, line: int, fld: str, col: Collector) -> date | None:
    """A YYYY-MM-DD date within :data:`MIN_YEAR`..:data:`MAX_YEAR`."""
    try:
        d = date.fromisoformat(raw)
    except (ValueError, TypeError):
        col.add(file, line, fld, f"not a date: {raw!r}")
        return None
    problem = _date_problem(d)
    if problem:
        col.add(file, line, fld, problem)
        return None
    return d


# --- YAML ---


if TYPE_CHECKING:  # the same interface either way
    _SafeLoader = yaml.SafeLoader
else:
    _SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _StrictLoader(_SafeLoader):  # libyaml's parser when present: same nodes
    """SafeLoader that refuses a mapping key given twice (PyYAML keeps the last one silently) and a key that is
    itself a mapping or a list."""

    def construct_mapping(self, node, deep=False):  # noqa: ANN001
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise yaml.constructor.ConstructorError(
                    None, None, "a mapping key must be a plain value, not a mapping or list", key_node.start_mark
                )
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {key!r} given twice (first on line {seen[key]})", key_node.start_mark
                )
            seen[key] = key_node.start_mark.line + 1
        return super().construct_mapping(node, deep=deep)


def load_yaml(rel: str, text: str | None, col: Collector) -> tuple[Any, dict[tuple, int]]:
    """A YAML file's content (None when refused) and the line of each value by its path."""
    if text is None:
        return None, {}
    try:
        loader = _StrictLoader(text)
        try:
            node = loader.get_single_node()
            lines = _node_lines(node)
            if lines is None:
                col.add(
                    rel,
                    None,
                    None,
                    f"expands to more than {MAX_YAML_NODES:,} values (aliases used over and "
                    "over?): refused before it is built",
                )
                return None, {}
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", "") or ""
        if "given twice" in problem or "plain value" in problem:
            col.add(rel, mark.line + 1 if mark else None, None, problem)
        else:
            col.add(rel, mark.line + 1 if mark else None, None, f"not valid YAML (truncated?): {exc}")
        return None, {}
    except RecursionError:
        col.add(rel, None, None, f"nested too deeply (at most {MAX_DEPTH} levels)")
        return None, {}
    except Exception as exc:  # noqa: BLE001 - the parser's boundary: a timestamp PyYAML cannot build (its own
        # regex fails on a three-digit year: AttributeError), an overflowing offset, an unhashable key
        col.add(rel, None, None, f"a value YAML cannot build: {exc}")
        return None, {}
    if not check_values(data, rel, None, "", col, lines):
        return None, {}
    return data, lines


def _node_lines(root: yaml.Node | None) -> dict[tuple, int] | None:
    """Line of every value by its path (keys and indexes), iteratively; depth is bounded. None when the document
    expands to more than :data:`MAX_YAML_NODES` values (an alias is a shared node, walked each time it is used)."""
    lines: dict[tuple, int] = {}
    if root is None:
        return lines
    stack: list[tuple[yaml.Node, tuple]] = [(root, ())]
    visited = 0
    while stack:
        node, path = stack.pop()
        visited += 1
        if visited > MAX_YAML_NODES:
            return None
        lines.setdefault(path, node.start_mark.line + 1)
        if len(path) > MAX_DEPTH:
            continue
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                if isinstance(k, yaml.ScalarNode):
                    lines.setdefault((*path, k.value), k.start_mark.line + 1)
                    stack.append((v, (*path, k.value)))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend((v, (*path, i)) for i, v in enumerate(node.value))
    return lines


# --- CSV ---


def csv_rows(
    rel: str, text: str, required_cols: tuple[str, ...], col: Collector, allow_empty: bool = False
) -> list[tuple[int, dict]]:
    """Rows of a CSV file as (line of the row's start, {column: stripped cell}); an unclosed quote, a field over
    the csv module's limit or a row of the wrong width is named by its line."""
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(reader)
    except StopIteration:
        col.add(rel, 1, None, "no header row")
        return []
    except csv.Error as exc:
        col.add(rel, 1, None, f"not readable as CSV: {exc}")
        return []
    header = [h.strip() for h in header]
    twice = sorted({h for h in header if header.count(h) > 1})
    if twice:  # the second column would silently win
        col.add(rel, 1, ",".join(twice), "column given twice in the header")
        return []
    missing = [c for c in required_cols if c not in header]
    if missing:
        col.add(rel, 1, ",".join(missing), "missing column(s) in header")
        return []
    rows = []
    start = reader.line_num + 1
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            col.add(rel, start, None, f"not readable as CSV (an unclosed quote or a field over the limit?): {exc}")
            return []
        lineno, start = start, reader.line_num + 1
        if not row or all(not c.strip() for c in row):
            continue
        if len(row) != len(header):
            col.add(rel, lineno, None, f"expected {len(header)} columns, got {len(row)} (truncated row?)")
            continue
        cells = {}
        for name, cell in zip(header, row, strict=True):
            problem = text_problem(cell)
            if problem:
                col.add(rel, lineno, name, problem)
                break
            cells[name] = cell.strip()
        else:
            rows.append((lineno, cells))
    if not rows and not allow_empty:
        col.add(rel, None, None, "file has a header but no rows")
    return rows


# --- JSON Lines ---


class _DuplicateKey(ValueError):
    def __init__(self, key: str):
        super().__init__(key)
        self.key = key


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _DuplicateKey(k)
        out[k] = v
    return out


def _json_depth_over(line: str, limit: int) -> bool:
    """Whether brackets outside strings nest deeper than ``limit`` (checked before parsing: the parser recurses)."""
    depth = 0
    in_string = escaped = False
    for ch in line:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def parse_json_object(rel: str, lineno: int, line: str, col: Collector) -> dict | None:
    """One JSON Lines record: an object, no key twice, nesting bounded, every value checked (:func:`check_values`)."""
    if ("[" in line or "{" in line) and _json_depth_over(line, MAX_DEPTH):
        col.add(rel, lineno, None, f"nested more than {MAX_DEPTH} levels deep")
        return None
    try:
        raw = json.loads(line, object_pairs_hook=_no_duplicate_keys)
    except json.JSONDecodeError as exc:
        col.add(rel, lineno, None, f"not valid JSON (truncated line?): {exc.msg}")
        return None
    except _DuplicateKey as exc:
        col.add(rel, lineno, exc.key, "key given twice in one object (which one counts is ambiguous)")
        return None
    except (ValueError, RecursionError) as exc:  # an integer of thousands of digits, ...
        col.add(rel, lineno, None, f"not readable JSON: {exc}")
        return None
    if not isinstance(raw, dict):
        col.add(rel, lineno, None, "expected a JSON object")
        return None
    if not check_values(raw, rel, lineno, "", col):
        return None
    return raw
