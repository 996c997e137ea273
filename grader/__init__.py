"""LLM-as-judge grading service for LLM trading seasons."""

from grader._lazy import LazyMapping, lazy_exports

__version__ = "0.1.0"

__all__ = ["LazyMapping", "lazy_exports"]
