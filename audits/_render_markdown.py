"""Render an :class:`AuditReport` as Markdown: the same document as the HTML page, all text escaped, charts
described (the HTML page carries them)."""

from __future__ import annotations

import html

from audits._document import HASH_ROWS, Block, Caveats, ChartBlock, Paragraph, Table
from audits._report import AuditReport
from audits._sections import report_document


def _md(text: str) -> str:
    """Escape text for a Markdown table cell or paragraph (no raw HTML, no table breaks)."""
    escaped = html.escape(text, quote=False)
    return escaped.replace("|", "\\|").replace("\n", " ")


def _md_table(table: Table) -> str:
    lines = []
    if table.caption:
        lines.append(f"_{_md(table.caption)}_\n")
    lines.append("| " + " | ".join(_md(h) for h in table.headers) + " |")
    lines.append("|" + "|".join("---" for _ in table.headers) + "|")
    for row in table.rows:
        lines.append("| " + " | ".join(_md(cell) for cell in row) + " |")
    if not table.rows:
        lines.append("| " + " | ".join(["No rows."] + [""] * (len(table.headers) - 1)) + " |")
    return "\n".join(lines)


def _md_block(block: Block) -> str:
    if isinstance(block, Paragraph):
        return f"**{_md(block.text)}**" if block.strong else _md(block.text)
    if isinstance(block, Table):
        return _md_table(block)
    if isinstance(block, ChartBlock):
        if block.chart is None:
            return f"> {_md(block.placeholder)}"
        return f"_Chart (in report.html): {_md(block.chart.title)}. {_md(block.chart.alt)}_"
    if isinstance(block, Caveats):
        return "\n".join(f"- {_md(c)}" for c in block.items)
    return "\n".join(f"- **{_md(term)}**: {_md(text)}" for term, text in block.items)


def render_markdown(report: AuditReport) -> str:
    """The report as Markdown (charts are described; the HTML page carries them)."""
    doc = report_document(report)
    parts = [f"# {_md(doc.title)}"]
    if doc.banner:
        parts.append(f"> **{_md(doc.banner)}**")
    if doc.notice:
        parts.append(f"> **{_md(doc.notice)}**")
    parts.append(_md_table(Table(["", ""], [[k, f"`{v}`" if k in HASH_ROWS else v] for k, v in doc.identity])))
    for section in doc.sections:
        parts.append(f"## {_md(section.title)}")
        parts.extend(text for text in (_md_block(b) for b in section.blocks) if text)
    return "\n\n".join(parts) + "\n"
