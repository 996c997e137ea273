"""The report as a renderer-neutral document: sections of paragraphs, tables, charts, caveats and definitions,
which the HTML and Markdown renderers walk alike."""

from __future__ import annotations

from dataclasses import dataclass, field

from audits._charts import Chart


@dataclass
class Paragraph:
    text: str
    strong: bool = False


@dataclass
class Table:
    headers: list[str]
    rows: list[list[str]]
    caption: str | None = None


@dataclass
class ChartBlock:
    chart: Chart | None
    placeholder: str


@dataclass
class Caveats:
    items: list[str]


@dataclass
class Definitions:
    items: list[tuple[str, str]]


Block = Paragraph | Table | ChartBlock | Caveats | Definitions


@dataclass
class Section:
    anchor: str
    title: str
    blocks: list[Block] = field(default_factory=list)


@dataclass
class Document:
    title: str
    banner: str | None
    run_type: str
    notice: str | None
    identity: list[tuple[str, str]]
    sections: list[Section]


#: Identity rows whose value is a hash: both renderers set them as code.
HASH_ROWS = {"Rubric content hash", "Rubric judge-facing hash", "Panel hash", "Manifest hash"}
