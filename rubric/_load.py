"""Load a rubric by version name ("v0.4", "0.4", the full id) or from a user's YAML file.

Errors name the file, the line and the dotted key, e.g.
``rubric/versions/bad.yaml:31: axes.reasoning.sub_components: weights sum to 99, expected 100``.
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from ._models import Rubric, RubricConsistencyError

_FastLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

VERSIONS_DIR = Path(__file__).resolve().parent / "versions"


class RubricError(ValueError):
    """A rubric that cannot be used: which file, which key, which line, and what is wrong."""

    def __init__(self, path: Path | str | None, issues: list[tuple[str, str, int | None]]) -> None:
        self.path = str(path) if path is not None else None
        self.issues = issues  # (dotted key, message, 1-based line or None)
        where = self.path or "<rubric>"
        lines = []
        for key, message, line in issues:
            location = f"{where}:{line}" if line else where
            lines.append(f"{location}: {key}: {message}" if key else f"{location}: {message}")
        head = f"invalid rubric {where}" if len(issues) != 1 else "invalid rubric"
        super().__init__(lines[0] if len(lines) == 1 else head + "\n  " + "\n  ".join(lines))


def _key_path(key: str) -> tuple[str | int, ...]:
    """'axes.reasoning.sub_components[3].id' -> ('axes', 'reasoning', 'sub_components', 3, 'id')."""
    parts: list[str | int] = []
    for piece in key.split("."):
        match = re.fullmatch(r"([^\[\]]*)((?:\[\d+\])*)", piece)
        if not match:
            parts.append(piece)
            continue
        if match.group(1):
            parts.append(match.group(1))
        parts += [int(i) for i in re.findall(r"\[(\d+)\]", match.group(2))]
    return tuple(parts)


def _dotted(loc: tuple[str | int, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _line_index(text: str) -> dict[tuple[str | int, ...], int]:
    """Path of every key and list item in a YAML document -> its 1-based line."""
    index: dict[tuple[str | int, ...], int] = {}

    def walk(node: yaml.Node, path: tuple[str | int, ...]) -> None:
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                child = (*path, str(key_node.value))
                index[child] = key_node.start_mark.line + 1
                walk(value_node, child)
        elif isinstance(node, yaml.SequenceNode):
            for position, item in enumerate(node.value):
                child = (*path, position)
                index[child] = item.start_mark.line + 1
                walk(item, child)

    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        if root is not None:
            walk(root, ())
    except (yaml.YAMLError, RecursionError):
        return index
    return index


def _line_for(index: dict[tuple[str | int, ...], int], path: tuple[str | int, ...]) -> int | None:
    """Line of the deepest existing prefix of ``path`` (a missing key points at its parent)."""
    for end in range(len(path), 0, -1):
        if path[:end] in index:
            return index[path[:end]]
    return None


_PYDANTIC_MESSAGES = {"missing": "missing (required)", "extra_forbidden": "unknown key"}


def rubric_from_mapping(data: Any, *, path: Path | str | None = None, text: str | None = None) -> Rubric:
    """Validate an already-parsed rubric mapping; ``text`` (the YAML source) adds line numbers."""
    if not isinstance(data, dict):
        kind = "empty" if data is None else f"a {type(data).__name__}"
        raise RubricError(path, [("", f"expected a mapping of rubric keys, got {kind}", None)])
    try:
        return Rubric.model_validate(data)
    except ValidationError as exc:
        index = _line_index(text) if text is not None else {}
        issues: list[tuple[str, str, int | None]] = []
        for error in exc.errors():
            cause = (error.get("ctx") or {}).get("error")
            if isinstance(cause, RubricConsistencyError):
                for issue in cause.issues:
                    issues.append((issue.key, issue.message, _line_for(index, _key_path(issue.key))))
                continue
            loc = tuple(error["loc"])
            message = _PYDANTIC_MESSAGES.get(error["type"], error["msg"])
            issues.append((_dotted(loc), message, _line_for(index, loc)))
        raise RubricError(path, issues) from None


MAX_DEPTH = 32
"""Deepest nesting a rubric file may have (the bundled ones need 6)."""


def _check_text_and_depth(data: Any, file: Path, text: str) -> None:
    """No NUL and no lone surrogate in any key or string (they would reach every judge prompt, and a database
    cannot store them), nesting at most :data:`MAX_DEPTH`; iteratively, so depth cannot crash the check."""
    issues: list[tuple[str, str, int | None]] = []
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(data, ())]
    index: dict[tuple[str | int, ...], int] | None = None
    while stack and len(issues) < 20:
        value, path = stack.pop()
        problem = None
        if len(path) > MAX_DEPTH:
            problem = f"nested more than {MAX_DEPTH} levels deep"
        elif isinstance(value, str):
            problem = "holds a NUL character" if "\x00" in value else None
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                problem = "holds a lone surrogate (an unpaired \\ud800-\\udfff escape): not text"
        elif isinstance(value, dict):
            for k, v in value.items():
                stack.append((k, (*path, "<key>")) if isinstance(k, str) else (None, path))
                stack.append((v, (*path, str(k))))
        elif isinstance(value, list):
            stack.extend((v, (*path, i)) for i, v in enumerate(value))
        if problem:
            if index is None:
                index = _line_index(text)
            issues.append((_dotted(path), problem, _line_for(index, path)))
            if len(path) > MAX_DEPTH:
                break
    if issues:
        raise RubricError(file, issues)


def load_rubric_file(path: Path | str | os.PathLike[str]) -> Rubric:
    """Load and validate one rubric YAML file."""
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RubricError(file, [("", "no such rubric file", None)]) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RubricError(file, [("", f"cannot read: {exc}", None)]) from None
    try:
        data = yaml.load(text, Loader=_FastLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc)
        raise RubricError(file, [("", f"not valid YAML: {problem}", line)]) from None
    except RecursionError:
        raise RubricError(file, [("", f"nested more than {MAX_DEPTH} levels deep", None)]) from None
    except Exception as exc:  # noqa: BLE001 - the parser's boundary: a timestamp PyYAML cannot build, an unhashable key
        raise RubricError(file, [("", f"a value YAML cannot build: {exc}", None)]) from None
    _check_text_and_depth(data, file, text)
    rubric = rubric_from_mapping(data, path=file, text=text)
    rubric._source_path = str(file)
    return rubric


@functools.lru_cache(maxsize=32)
def _load_cached(path: str, mtime_ns: int, size: int) -> Rubric:
    return load_rubric_file(path)


def _bundled() -> dict[str, Rubric]:
    out = {}
    for file in sorted(VERSIONS_DIR.glob("*.yaml")):
        stat = file.stat()
        out[file.name] = _load_cached(str(file), stat.st_mtime_ns, stat.st_size)
    return out


def available_rubrics() -> list[str]:
    """Ids of the bundled rubric versions."""
    return [r.id for r in _bundled().values()]


def _aliases(rubric: Rubric, filename: str) -> set[str]:
    version = rubric.version.lower().removeprefix("v")
    return {rubric.id.lower(), version, f"v{version}", Path(filename).stem.lower()}


def load_rubric(name_or_path: str | os.PathLike[str]) -> Rubric:
    """A bundled version by name ("v0.4", "0.4", "grounded_financial_reasoning_judge_v0.4") or a YAML path.

    Anything with a path separator or a .yaml/.yml suffix is read as a file; a bare name that is not a
    bundled version is tried as a file before giving up.
    """
    if isinstance(name_or_path, os.PathLike):
        return load_rubric_file(name_or_path)
    text = str(name_or_path).strip()
    looks_like_path = text.lower().endswith((".yaml", ".yml")) or os.sep in text or "/" in text
    if not looks_like_path:
        wanted = text.lower()
        for filename, rubric in _bundled().items():
            if wanted in _aliases(rubric, filename):
                return rubric
        if not Path(text).is_file():
            known = ", ".join(f"v{r.version} ({r.id})" for r in _bundled().values())
            raise RubricError(
                None, [("", f"unknown rubric {text!r}; bundled versions: {known}; or give a YAML file", None)]
            )
    return load_rubric_file(text)
