"""LLM-as-judge grading service for LLM trading seasons."""

__version__ = "0.1.0"
