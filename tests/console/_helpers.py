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
    for kind in ("title", "header", "subheader", "markdown", "caption", "text", "code", "info", "warning",
                 "error", "success"):
        parts.extend(str(e.value) for e in getattr(at, kind))
    return "\n".join(parts)
