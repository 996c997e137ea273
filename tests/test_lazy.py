"""``grader._lazy.LazyMapping``: values computed when first read, once, also with several readers at once."""

from __future__ import annotations

import threading
import time

import pytest

from grader._lazy import LazyMapping


def test_values_are_computed_when_first_read_and_only_once():
    calls: list[str] = []

    def square(key: str) -> int:
        calls.append(key)
        return len(key) ** 2

    lazy = LazyMapping(["bb", "a", "ccc", "a"], square)
    assert list(lazy) == ["bb", "a", "ccc"] and len(lazy) == 3 and "a" in lazy and "z" not in lazy
    assert calls == [] and lazy.computed == []  # listing, counting and membership compute nothing
    assert lazy["ccc"] == 9 and lazy["ccc"] == 9 and calls == ["ccc"] and lazy.computed == ["ccc"]
    assert dict(lazy) == {"bb": 4, "a": 1, "ccc": 9} and sorted(calls) == ["a", "bb", "ccc"]
    with pytest.raises(KeyError):
        lazy["z"]
    assert lazy.get("z") is None and sorted(calls) == ["a", "bb", "ccc"]  # an unknown key is never computed


def test_readers_on_several_threads_share_one_computation():
    calls: list[str] = []

    def slow(key: str) -> object:
        calls.append(key)
        time.sleep(0.05)
        return object()

    lazy = LazyMapping(["k"], slow)
    seen: list[object] = []
    readers = [threading.Thread(target=lambda: seen.append(lazy["k"])) for _ in range(8)]
    for t in readers:
        t.start()
    for t in readers:
        t.join()
    assert calls == ["k"] and len(seen) == 8 and all(v is seen[0] for v in seen)
