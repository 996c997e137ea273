"""Console test helpers: the synthetic run environment, AppTest, sign-in and page text."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tests.conftest import write_bundle

REPO = Path(__file__).resolve().parents[2]
APP = REPO / "console" / "app.py"
RUN_ID = "syn-run"


@dataclass
class ConsoleEnv:
    db_url: str
    bundle: Path
    annotators: Path
    tokens: dict[str, str]
    run_id: str = RUN_ID


def make_env(db_url: str, tmp_path: Path, annotators, monkeypatch) -> ConsoleEnv:
    from console import build_synthetic_run

    bundle = write_bundle(tmp_path / "tiny")
    build_synthetic_run(bundle, RUN_ID, db_url=db_url, claims_per_grade=4)
    monkeypatch.setenv("GRADER_DATABASE_URL", db_url)
    return ConsoleEnv(db_url=db_url, bundle=bundle, annotators=annotators[0], tokens=annotators[1])


def app_test():
    from streamlit.testing.v1 import AppTest

    return AppTest.from_file(str(APP), default_timeout=120)


def sign_in(at, name: str, token: str):
    at.text_input(key="sign_in_name").input(name)
    at.text_input(key="sign_in_token").input(token)
    at.button(key="sign_in_button").click().run()
    return at


def page_text(at) -> str:
    """Every title, markdown, caption, text, code and alert value of the current page, joined."""
    parts: list[str] = []
    for kind in (
        "title",
        "header",
        "subheader",
        "markdown",
        "caption",
        "text",
        "code",
        "info",
        "warning",
        "error",
        "success",
    ):
        parts.extend(str(e.value) for e in getattr(at, kind))
    return "\n".join(parts)


def markdown_tables(at) -> list:
    """The tables drawn inside markdown blocks on the page (``console._ui.markdown_table``), as DataFrames of their
    cells' text (escapes undone)."""
    import re

    import pandas as pd

    def cells(line: str) -> list[str]:
        parts = re.split(r"(?<!\\)\|", line.strip())[1:-1]
        return [re.sub(r"\\(.)", r"\1", p.strip()).replace("\u2060", "") for p in parts]

    tables = []
    for element in at.markdown:
        lines = str(element.value).split("\n")
        for i, line in enumerate(lines):
            if line.startswith("| ") and i + 1 < len(lines) and lines[i + 1].startswith("|---"):
                rows = []
                for row in lines[i + 2 :]:
                    if not row.startswith("| "):
                        break
                    rows.append(cells(row))
                tables.append(pd.DataFrame(rows, columns=cells(line)))
    return tables


def write_forms(at) -> list:
    """The form buttons that write (the sidebar's sign-in form excepted)."""
    return [b for b in at.form_submit_button if b.key != "sign_in_button"]


def calibration_prefix(at) -> str:
    """The widget-key prefix of the calibration form on the page (``cg_<run>_<item>_<generation>_``)."""
    keys = [
        w.key
        for w in at.number_input
        if w.key and w.key.startswith("cg_") and w.key.endswith("_reasoning") and ":" not in w.key
    ]
    assert len(keys) == 1, keys
    return keys[0].removesuffix("reasoning")


def item_row_id(run_id: str, number: int, db_url: str) -> int:
    """The contestant row behind calibration item ``number``."""
    from console import calibration_items

    return next(i.contestant_row_id for i in calibration_items(run_id, db_url) if i.number == number)


def fill_calibration(
    at, reasoning=None, evidence=None, data_reliability=None, outcome=None, comment=None, **subs
) -> str:
    """Fill the calibration form's fields that are given (``evidence_claim_support=90`` for a sub-score)."""
    prefix = calibration_prefix(at)
    subs = {"sub:{}:{}".format(*name.split("_", 1)): value for name, value in subs.items()}
    if subs and not at.toggle(key=f"{prefix}subs_shown").value:  # the sub-score fields are drawn when asked for
        at.toggle(key=f"{prefix}subs_shown").set_value(True).run()
    for name, value in (
        ("reasoning", reasoning),
        ("evidence", evidence),
        ("data_reliability", data_reliability),
        ("outcome", outcome),
        *subs.items(),
    ):
        if value is not None:
            at.number_input(key=f"{prefix}{name}").set_value(value)
    if comment is not None:
        at.text_area(key=f"{prefix}comment").input(comment)
    return prefix


def audit_sections(at) -> list[str]:
    """The Audits page's section titles once its whole report is shown (the section picker; not while the page shows
    the report's first version, its charts being drawn), else []."""
    picker = [r for r in at.radio if r.key == "audit_section"]
    drawing = "charts are being drawn" in "\n".join(str(e.value) for e in at.info)
    return list(picker[0].options) if picker and not drawing else []


def open_audit_section(at, contains: str):
    """Show the first Audits section whose title contains ``contains`` (the page draws one section at a time)."""
    title = next(t for t in audit_sections(at) if contains in t)
    return at.radio(key="audit_section").set_value(title).run()
