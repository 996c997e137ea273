"""Console fixtures: a synthetic graded run in a fresh database and annotators with tokens."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.console._helpers import ConsoleEnv, make_env


@pytest.fixture
def annotators(tmp_path, monkeypatch) -> tuple[Path, dict[str, str]]:
    from console import AnnotatorDirectory

    path = tmp_path / "annotators.yaml"
    directory = AnnotatorDirectory(path)
    tokens = {name: directory.add(name) for name in ("alice", "bob")}
    monkeypatch.setenv("GRADER_ANNOTATORS_FILE", str(path))
    return path, tokens


@pytest.fixture
def console_env(tmp_path, annotators, monkeypatch) -> ConsoleEnv:
    """A SQLite database with one synthetic mock run of the tiny season (2 contestants x 3 judges)."""
    return make_env(f"sqlite:///{tmp_path / 'console.db'}", tmp_path, annotators, monkeypatch)


@pytest.fixture
def any_db_env(db_url, tmp_path, annotators, monkeypatch) -> ConsoleEnv:
    """The same run on SQLite and on PostgreSQL (``db_url`` is parametrized)."""
    return make_env(db_url, tmp_path, annotators, monkeypatch)
