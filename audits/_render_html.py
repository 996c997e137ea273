"""Render an :class:`AuditReport` as one self-contained HTML page: all text escaped, inline CSS, charts as base64
PNG ``data:`` images; the page refers to nothing outside itself."""

from __future__ import annotations

import html

from audits._document import HASH_ROWS, Block, Caveats, ChartBlock, Paragraph, Table
from audits._report import AuditReport
from audits._sections import report_document

_CSS = """
:root { --ink: #1f2d3d; --muted: #5b6b7b; --line: #d9e1e8; --bg: #ffffff; --soft: #f5f7fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
  color: var(--ink); background: var(--bg); }
main { max-width: 1180px; margin: 0 auto; padding: 24px 28px 64px; }
h1 { font-size: 1.7rem; margin: 0 0 8px; }
h2 { font-size: 1.25rem; margin: 36px 0 10px; padding-bottom: 4px; border-bottom: 2px solid var(--line); }
.banner { padding: 14px 18px; margin: 12px 0 18px; font-weight: 700; font-size: 1.15rem; letter-spacing: .02em;
  border-radius: 6px; border: 3px solid #b00020; background: #fde7ea; color: #7a0016; }
.banner.baseline { border-color: #8a6d00; background: #fff6d6; color: #5c4800; }
.banner.dry-run, .banner.stability { border-color: #2b5797; background: #e8f0fb; color: #1b3a66; }
.notice { padding: 10px 14px; margin: 12px 0; border-left: 5px solid #8a6d00; background: #fff6d6; }
table { border-collapse: collapse; margin: 10px 0 18px; font-size: .88rem; width: 100%; }
caption { caption-side: top; text-align: left; color: var(--muted); padding: 4px 0; font-size: .85rem; }
th, td { border: 1px solid var(--line); padding: 5px 8px; text-align: left; vertical-align: top; }
th { background: var(--soft); font-weight: 600; }
td { overflow-wrap: break-word; }
table.wide { font-size: .76rem; }
table.wide th, table.wide td { padding: 4px 5px; }
table.wide th { hyphens: auto; }
tbody tr:nth-child(even) td { background: #fafbfc; }
table.identity { width: auto; }
table.identity th { white-space: nowrap; }
code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .82rem; word-break: break-all; }
figure { margin: 12px 0 18px; }
figure img { max-width: 100%; height: auto; border: 1px solid var(--line); }
figcaption { color: var(--muted); font-size: .85rem; }
.placeholder { padding: 28px; text-align: center; color: var(--muted); border: 2px dashed var(--line);
  border-radius: 6px; font-weight: 600; }
.caveats { color: var(--muted); font-size: .88rem; }
.caveats li { margin: 2px 0; }
nav { font-size: .9rem; margin: 8px 0 0; }
nav a { margin-right: 12px; color: #2b5797; }
footer { margin-top: 40px; color: var(--muted); font-size: .82rem; }
"""


def _e(text: str) -> str:
    return html.escape(text, quote=True)


def _html_table(table: Table) -> str:
    wide = len(table.headers) > 9  # many columns: smaller type and padding so the page fits 1280 px
    parts = ['<table class="wide">' if wide else "<table>"]
    if table.caption:
        parts.append(f"<caption>{_e(table.caption)}</caption>")
    parts.append("<thead><tr>" + "".join(f'<th scope="col">{_e(h)}</th>' for h in table.headers) + "</tr></thead>")
    if table.rows:
        body = "".join("<tr>" + "".join(f"<td>{_e(cell)}</td>" for cell in row) + "</tr>" for row in table.rows)
    else:
        body = f'<tr><td colspan="{len(table.headers)}">No rows.</td></tr>'
    parts.append(f"<tbody>{body}</tbody></table>")
    return "".join(parts)


def _html_block(block: Block) -> str:
    if isinstance(block, Paragraph):
        text = _e(block.text)
        return f"<p><strong>{text}</strong></p>" if block.strong else f"<p>{text}</p>"
    if isinstance(block, Table):
        return _html_table(block)
    if isinstance(block, ChartBlock):
        if block.chart is None:
            return f'<div class="placeholder" role="note">{_e(block.placeholder)}</div>'
        chart = block.chart
        return (
            f'<figure id="chart-{_e(chart.key)}"><img alt="{_e(chart.alt)}" '
            f'src="data:image/png;base64,{chart.png_base64}"><figcaption>{_e(chart.title)}</figcaption></figure>'
        )
    if isinstance(block, Caveats):
        if not block.items:
            return ""
        return '<ul class="caveats">' + "".join(f"<li>{_e(c)}</li>" for c in block.items) + "</ul>"
    items = "".join(f"<dt>{_e(term)}</dt><dd>{_e(text)}</dd>" for term, text in block.items)
    return f"<dl>{items}</dl>"


def render_html(report: AuditReport) -> str:
    """One self-contained HTML page (inline CSS, base64 PNG charts, no external reference)."""
    doc = report_document(report)
    identity_rows = "".join(
        f'<tr><th scope="row">{_e(k)}</th><td>{f"<code>{_e(v)}</code>" if k in HASH_ROWS else _e(v)}</td></tr>'
        for k, v in doc.identity
    )
    nav = "".join(f'<a href="#{_e(s.anchor)}">{_e(s.title)}</a>' for s in doc.sections)
    banner = f'<div class="banner {_e(doc.run_type)}" role="alert">{_e(doc.banner)}</div>' if doc.banner else ""
    notice = f'<div class="notice" role="note"><strong>{_e(doc.notice)}</strong></div>' if doc.notice else ""
    sections = "".join(
        f'<section id="{_e(s.anchor)}"><h2>{_e(s.title)}</h2>'
        + "".join(_html_block(b) for b in s.blocks)
        + "</section>"
        for s in doc.sections
    )
    meta = report.meta
    footer = (
        f"Rubric {_e(meta.rubric_id)} (<code>{_e(meta.rubric_hash)}</code>) · panel {_e(meta.panel_name)} "
        f"(<code>{_e(meta.panel_hash)}</code>) · run type {_e(meta.run_type)} · manifest "
        f"<code>{_e(meta.manifest_hash)}</code>"
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(doc.title)}</title><style>{_CSS}</style></head><body><main>"
        f"<h1>{_e(doc.title)}</h1>{banner}{notice}"
        f'<table class="identity"><tbody>{identity_rows}</tbody></table><nav>{nav}</nav>{sections}'
        f"<footer>{_e(doc.banner) + ' · ' if doc.banner else ''}{footer}</footer></main></body></html>\n"
    )
