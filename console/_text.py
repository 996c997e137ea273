"""Text and table helpers of the pages: plain text for markdown, unique and split table headers, chart images
(re-exported by ``console._ui``)."""

from __future__ import annotations

import base64
import re

import pandas as pd


def unique_headers(headers: list[str]) -> list[str]:
    """Table headers made unique for a DataFrame: a header that repeats ("95% CI", "Reading") is named after the
    statistic before it ("ICC(2,1) 95% CI", "ICC(2,1) reading"); anything still repeated gets a number."""
    counts = {h: headers.count(h) for h in headers}
    out, owner = [], ""
    for h in headers:
        if counts[h] > 1 and owner:
            out.append(f"{owner} {h if h.isupper() or h[:1].isdigit() else h.lower()}")
        else:
            out.append(h)
            owner = h if counts[h] == 1 else owner
    seen: dict[str, int] = {}
    final = []
    for h in out:
        seen[h] = seen.get(h, 0) + 1
        final.append(h if seen[h] == 1 else f"{h} ({seen[h]})")
    return final


def split_wide(frame: pd.DataFrame, max_columns: int = 7) -> list[pd.DataFrame]:
    """A table too wide for the page as several narrower ones, each led by the first (naming) column and cut only
    between statistics (a statistic keeps its interval and reading: "ICC(2,1)", "ICC(2,1) 95% CI", ...)."""
    columns = list(frame.columns)
    if len(columns) <= max_columns:
        return [frame]
    key, rest = columns[0], columns[1:]
    groups: list[list[str]] = []
    for c in rest:
        if groups and str(c).startswith(f"{groups[-1][0]} "):
            groups[-1].append(c)
        else:
            groups.append([c])
    parts: list[list[str]] = [[]]
    for g in groups:
        if parts[-1] and 1 + len(parts[-1]) + len(g) > max_columns:
            parts.append([])
        parts[-1].extend(g)
    return [frame[[key, *part]] for part in parts]


def md(text: str) -> str:
    """Text for ``st.markdown`` with dollar signs escaped (so "$12 to $15" is not read as LaTeX)."""
    return (text or "").replace("$", "\\$")


_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*_{}\[\]()<>#+\-.!|~$:=^&])")


#: Where GitHub-flavoured markdown would make a bare URL or e-mail a link (after escapes are decoded): a word
#: joiner (U+2060, invisible) after "www", "http(s):" and "@" breaks the pattern without changing what is read.
_AUTOLINK = re.compile(r"(?i)(www(?=\\?\.)|https?\\?:(?=//)|@)")


def plain(text: str) -> str:
    """Text someone wrote (a judge's summary, a claim, a reason) for ``st.markdown``/``st.caption`` as plain text:
    every markdown character escaped and bare URLs and e-mails kept from becoming links, so the text cannot fetch
    an image, make a link, colour text or run LaTeX. (Annotators' own notes are shown with ``st.text``.)"""
    escaped = _MARKDOWN_PUNCTUATION.sub(r"\\\1", (text or "").replace("\r", "")).replace("\n", "  \n")
    return _AUTOLINK.sub("\\1\u2060", escaped)


def gray(text: str) -> str:
    """:func:`plain` text on one line, in grey (a caption's look inside a markdown block; escaped, it cannot close
    the grey span early)."""
    return f":gray[{plain(' '.join((text or '').split()))}]"


def markdown_table(frame: pd.DataFrame) -> str:
    """A small table as markdown (every cell :func:`plain`, on one line): drawn as part of the markdown block around
    it, where a table element of its own is one more component for the browser to draw."""

    def cell(value: object) -> str:
        return plain(" ".join(str(value).split())) if value is not None and value == value else "—"

    head = "| " + " | ".join(cell(c) for c in frame.columns) + " |"
    rule = "|" + "---|" * len(frame.columns)
    rows = ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join([head, rule, *rows])


def figures(pairs: list[tuple[str, object]]) -> str:
    """A row of headline figures (label, value) as a one-row markdown table, the values in bold: what a row of
    ``st.metric`` shows, in one markdown block (a metric element each, and its code, cost a new tab more)."""
    labels = [plain(label) for label, _ in pairs]
    values = [f"**{plain(str(value))}**" for _, value in pairs]
    return "\n".join(["| " + " | ".join(labels) + " |", "|" + "---|" * len(pairs), "| " + " | ".join(values) + " |"])


def png(b64: str) -> bytes:
    return base64.b64decode(b64)
