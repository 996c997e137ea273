"""Calibration sets: reference items (one decision or a short window) drawn from a run, graded by the panel and
by people on identical material (seed 002's "small set of hand-graded reference decisions")."""

from grader.calibration._build import build_set, item_prompts
from grader.calibration._grade import calibration_set_of, grade_set, set_items
from grader.calibration._sample import ItemSpec, SampleError, sample_items

__all__ = [
    "ItemSpec",
    "SampleError",
    "build_set",
    "calibration_set_of",
    "grade_set",
    "item_prompts",
    "sample_items",
    "set_items",
]
