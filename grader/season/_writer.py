"""Write a season bundle v1 directory: the one writer, beside the loader that reads it.

Every producer of a bundle (the demo and synthetic builders, the CapitalBench importer, the anonymizer's judge
view, a calibration set's derived bundle) assembles its files as text and calls :func:`write_bundle`, which
writes them all or nothing: into a temporary sibling first, then moved into place in one rename (an existing
bundle is replaced only with ``overwrite``). The text helpers give the formats producers share: YAML (optionally
with a comment header, or multi-line strings as literal blocks), JSON lines and CSV, always UTF-8 with ``\\n``
line endings, so a builder that is deterministic writes byte-identical bundles.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
import uuid
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import yaml

__all__ = ["BundleFile", "csv_text", "jsonl_text", "write_bundle", "yaml_text"]

BundleFile = str | bytes | Path
"""A file's content: text (written as UTF-8), bytes, or a file or directory copied unchanged (a directory with
its links kept as links, never followed)."""


class _LiteralDumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    """Multi-line strings (briefings) as literal blocks, so a season.yaml stays readable."""


def _str_presenter(dumper: yaml.SafeDumper, data: str) -> yaml.ScalarNode:
    if "\n" in data:
        return dumper.represent_scalar("tag:yaml.org,2002:str", data, style="|")
    return dumper.represent_scalar("tag:yaml.org,2002:str", data)


_LiteralDumper.add_representer(str, _str_presenter)


def yaml_text(data: object, *, header: str = "", width: int | None = None, literal_blocks: bool = False) -> str:
    """``data`` as YAML in its own key order (Unicode kept), after ``header`` as ``#`` comment lines;
    ``literal_blocks``: multi-line strings as ``|`` blocks."""
    if literal_blocks:
        text = yaml.dump(data, Dumper=_LiteralDumper, sort_keys=False, allow_unicode=True, width=width)
    else:
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=width, default_flow_style=False)
    return "".join(f"# {line}\n" if line else "#\n" for line in header.splitlines()) + text


def jsonl_text(records: Iterable[object], *, sort_keys: bool = False, allow_nan: bool = True) -> str:
    """One JSON object per line (Unicode kept), each line ending in ``\\n``."""
    return "".join(json.dumps(r, sort_keys=sort_keys, ensure_ascii=False, allow_nan=allow_nan) + "\n" for r in records)


def csv_text(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A CSV table with ``\\n`` line endings."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buf.getvalue()


def _put(path: Path, content: BundleFile) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, Path):
        if content.is_dir():
            shutil.copytree(content, path, symlinks=True)
        else:
            shutil.copy2(content, path)
    elif isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_bytes(content.encode("utf-8"))


def write_bundle(out_dir: str | Path, files: Mapping[str, BundleFile], *, overwrite: bool = False) -> Path:
    """Write ``files`` (path relative to the bundle, ``/``-separated -> content) as the bundle ``out_dir``.

    All or nothing: the files are written into a temporary sibling of ``out_dir`` and moved into place at the
    end; on any error nothing of them remains and ``out_dir`` is as it was. An existing non-empty ``out_dir`` is
    replaced only with ``overwrite`` (FileExistsError otherwise); an empty one is replaced. The bundle is not
    validated here: its producer loads it (``load_bundle``) when it must.
    """
    out = Path(out_dir)
    for rel in files:
        if not rel or rel.startswith("/") or ".." in Path(rel).parts:
            raise ValueError(f"{rel!r}: a bundle file is a relative path inside the bundle")
    if out.exists() and not overwrite and (not out.is_dir() or any(out.iterdir())):
        raise FileExistsError(f"{out} exists (pass overwrite=True to replace it)")
    out.parent.mkdir(parents=True, exist_ok=True)
    tag = uuid.uuid4().hex[:8]
    tmp = out.parent / f".{out.name}.tmp-{tag}"
    old = out.parent / f".{out.name}.old-{tag}"
    moved = False
    try:
        tmp.mkdir()
        for rel, content in files.items():
            _put(tmp / rel, content)
        if out.exists():
            out.rename(old)
            moved = True
        tmp.rename(out)
    except BaseException:
        if moved and not out.exists():
            old.rename(out)  # the bundle that was there stays
        raise
    finally:
        if tmp.exists():
            shutil.rmtree(tmp)
        if old.exists():
            shutil.rmtree(old)
    return out
