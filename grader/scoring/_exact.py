"""Exact arithmetic for scoring: numbers are read as the decimals they were written as.

A float is converted through its shortest repr (0.1 -> 1/10), every formula runs on
``fractions.Fraction`` and only the final result is rounded once to a float. So 40 + 10*40/75 or
100*(4-1)/(8+2) come out as the correctly rounded value, and tests can compare with ``==``.
"""

from __future__ import annotations

import math
import numbers
from decimal import Decimal
from fractions import Fraction

Number = int | float | Fraction | Decimal


def exact_number(value: object, what: str = "value") -> int | Fraction:
    """Like ``exact`` but keeps whole numbers as ``int`` (fast integer arithmetic in hot loops).

    Callers must divide with ``Fraction`` (never ``/`` on two ints).
    """
    if type(value) is int:
        return value
    if type(value) is float and value.is_integer():
        return int(value)
    return exact(value, what)


def exact(value: object, what: str = "value") -> Fraction:
    """The exact rational value of a finite number; ValueError names ``what`` otherwise."""
    if type(value) is int:
        return Fraction(value)
    if type(value) is float and math.isfinite(value):
        return Fraction(int(value)) if value.is_integer() else Fraction(repr(value))
    if isinstance(value, bool) or value is None:
        raise ValueError(f"{what}: expected a number, got {value!r}")
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):  # float subclasses too, e.g. numpy.float64 (whose repr is not a number)
        if not math.isfinite(value):
            raise ValueError(f"{what}: expected a finite number, got {value!r}")
        return Fraction(float.__repr__(value))
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError(f"{what}: expected a finite number, got {value!r}")
        return Fraction(value)
    if isinstance(value, numbers.Integral):
        return Fraction(int(value))
    if isinstance(value, numbers.Real):
        return exact(float(value), what)
    raise ValueError(f"{what}: expected a number, got {type(value).__name__} {value!r}")


def to_float(value: Fraction | None) -> float | None:
    """Correctly rounded float (None stays None)."""
    return None if value is None else float(value)
