"""Fault tests reuse the grading fixtures: a two-family season and mock panels."""

from tests.panel.conftest import season, sqlite_url  # noqa: F401 - fixtures
