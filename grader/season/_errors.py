"""The one error type of bundle validation: every issue names the file, the line (or row) and the field."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError


@dataclass(frozen=True)
class BundleIssue:
    file: str
    line: int | None
    field: str | None
    message: str

    def __str__(self) -> str:
        where = self.file + (f":{self.line}" if self.line is not None else "")
        return f"{where}: {self.field + ': ' if self.field else ''}{self.message}"


class BundleError(Exception):
    """A bundle failed validation; ``issues`` lists every problem found."""

    def __init__(self, path: Path, issues: list[BundleIssue]):
        self.path = path
        self.issues = issues
        super().__init__(f"{path}: {len(issues)} problem(s)\n" + "\n".join(f"  {i}" for i in issues))


class Collector:
    """Every issue found while reading a bundle."""

    def __init__(self) -> None:
        self.issues: list[BundleIssue] = []

    def add(self, file: str, line: int | None, fld: str | None, message: str) -> None:
        self.issues.append(BundleIssue(file, line, fld, message))

    def pydantic(
        self, file: str, line: int | None, err: ValidationError, prefix: str = "", lines: dict[tuple, int] | None = None
    ) -> None:
        for e in err.errors():
            loc = ".".join(str(x) for x in e["loc"])
            at = line if lines is None else line_of(lines, tuple(e["loc"]), line)
            self.add(file, at, f"{prefix}{loc}" if loc else prefix or None, e["msg"])


def line_of(lines: dict[tuple, int] | None, path: tuple, default: int | None) -> int | None:
    """The line of the value at ``path`` or of its nearest parent that has one."""
    if not lines:
        return default
    for n in range(len(path), -1, -1):
        if path[:n] in lines:
            return lines[path[:n]]
    return default
