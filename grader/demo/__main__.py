"""Entry point of ``python -m grader.demo``."""

from grader.demo._cli import app

app(prog_name="python -m grader.demo")
