"""Numbers as writers spell them in windows ("over twenty-one sessions", "a five-session return"): one table for
the readers of horizons and the field registry's phrases."""

from __future__ import annotations

NUMBER_WORDS: dict[str, int] = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "twelve": 12,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "twenty": 20,
    "twenty-one": 21,
    "twenty-two": 22,
    "thirty": 30,
    "sixty": 60,
    "sixty-three": 63,
    "ninety": 90,
}


def spelled(n: int) -> tuple[str, ...]:
    """The ways ``n`` is spelled in words ("twenty-one", "twenty one"); none for a number the table lacks."""
    return tuple(w for k, v in NUMBER_WORDS.items() if v == n for w in dict.fromkeys((k, k.replace("-", " "))))
