"""Issue 30: the anonymizer and the leak guard on sentences written by sessions that never saw their rules
(tests/anonymizer/battery, README there). ``dev``, ``dev2``, ``dev3``, ``dev4``, ``holdout2`` and, since the second
session of 2026-11-26, ``holdout3`` are what rules were written on (each first measured before any rule was written
on it: dev3 33/112 naming their author after scrubbing, 6/33 of those refused by the guard; dev4 68/152, 29 past the
guard; holdout2 43/136, 14 past the guard, 13/173 market texts altered; holdout3 52/136, 19 past the guard, 18/194
altered); ``holdout`` and ``holdout4`` are only measured (holdout4 first: 19/136 naming their author, 0 past the
guard, 20/200 market texts altered); ``holdout5`` (first: 17/136, 8 past the guard, 22/200 altered) is read on its
odd ids only, its even ids are held out; ``holdout6`` (first: 36/136, 10 past the guard, 12/200 altered; odd ids
19/69, 4, 8/100; even ids 17/67, 6, 4/100) likewise, and ``holdout7`` (first: 32/136, 8 past the guard, 10/200
altered; odd ids 19/72, 4, 4/100; even ids 13/64, 4, 6/100; its even ids were opened for development when holdout8
arrived), and ``holdout8`` (first: 31/136, 14 past the guard, 16/200 altered; odd ids 13/67, 5, 12/100, read to
write rules; even ids 18/69, 9, 4/100, held out). After the rules of the night of 2026-11-26/27 (holdout8's odd ids
and holdout7): holdout8 odd ids 7/67, 0, 1/100; even ids (held out) 15/69, 7, 2/100; holdout7 16/136, 4, 6/200. After
the rules of the morning of 2026-11-27 (holdout8 opened whole, ``test_standalone_classes.py``): holdout8 2/136, 0,
1/200 (odd 1/67, 0, 0/100; even 1/69, 0, 1/100); holdout7 13/136, 2, 6/200; holdout3 21/136, 5, 7/194; holdout4
(never read) 5/136, 0, 9/200; dev4 34/152, 7, 4/104. ``holdout9`` (first, on the code of 31419ed: 37/136, 14 past the
guard, 10/200 altered; after the morning's rules, written on holdout8 only: 34/136, 14, 10/200; odd ids 17/68, 8, 8/100, read to write rules; even ids 17/68, 6, 2/100, held out); after the rules of
``test_holdout9_classes.py``: odd ids 12/68, 5, 3/100; even ids 16/68, 6, 2/100; holdout5 7/136, 1, 14/200. After
the rules of ``test_split_and_link_classes.py`` (written on holdout9's odd ids): odd ids 0/68, 0, 3/100; even ids (held
out, counted only) 14/68, 5, 2/100; holdout 3/80, 0, 5/119; dev4 33/152, 7, 4/104. ``holdout10`` (never read; identity carried by
structure and decoration): first, on the code of 880eba3, 54/136, 20 past the guard, 9/200 altered; after those rules
49/136, 17, 9/200 (odd ids 21/64, 7, 3/100; even ids 28/72, 10, 6/100). Its odd ids were then opened for development
(09:20 UTC 2026-11-27, ``test_holdout10_classes.py``; the even ids stay held out, counted only): odd ids 0/64, 0,
0/100; even ids 18/72, 5, 6/100; holdout9 12/136, 3, 5/200; dev4 27/152, 6, 4/104. ``holdout12`` (never read, written
2026-11-27 by a helper that read only the battery's README and ten lines of dev.jsonl), first on the code of d066b20:
47/136 naming their author, 19 past the guard, 18/200 market texts altered; the guard on the unscrubbed sentences
121/136 caught, 18/64 market sentences refused. An experiment measured on it and on holdout11 and holdout10's even ids
(the author's own lexicon names swept outside every frame, branch ``experiment/own-names-sweep``) was not adopted: on
those 344 held-out self sentences it cut those naming their author 122 -> 109 but let 53 instead of 50 past the guard
and altered 44 instead of 35 market texts; scrubbing only with a certain sign of the author (a first person within four
words, "this X model") gave 117, 51, 36.
Figures are printed (``pytest -s``); the floors are the measured ones, so a regression fails."""

from __future__ import annotations

import pytest

from grader.anonymizer import LeakGuard
from tests.anonymizer._battery import UNIVERSE, load, score

SYMBOLS = [s for s, _ in UNIVERSE]


def _guard(out, author):
    return LeakGuard(author.provider_family, author.model, SYMBOLS).find(out)


@pytest.mark.parametrize(
    ("name", "max_leaking", "max_altered"),
    [
        ("dev", 0, 3),
        ("dev2", 6, 6),
        ("dev3", 17, 5),
        ("dev4", 27, 4),
        ("holdout", 3, 5),
        ("holdout2", 22, 6),
        ("holdout3", 20, 7),
        ("holdout4", 5, 9),
        ("holdout5", 7, 14),
        ("holdout6", 19, 5),
        ("holdout7", 13, 5),
        ("holdout8", 2, 1),
        ("holdout9", 12, 5),
        ("holdout10", 18, 6),
        ("holdout11", 57, 11),  # never read: 60/136, 11/200 on 477c4da
        ("holdout12", 47, 18),  # never read: 47/136, 18/200 on d066b20
    ],
)
def test_scrubbed_battery_names_no_author_and_keeps_markets(name: str, max_leaking: int, max_altered: int) -> None:
    result = score(load(name), _guard)
    print("\n" + result.line(name))
    assert len(result.leaking) <= max_leaking, result.leaking
    assert len(result.altered) <= max_altered, result.altered


@pytest.mark.parametrize(
    ("name", "min_caught", "max_refused"),
    [
        ("dev", 0.97, 0.0),
        ("dev2", 0.95, 0.02),
        ("dev3", 0.98, 0.17),
        ("dev4", 0.94, 0.21),
        ("holdout", 0.98, 0.15),
        ("holdout2", 0.97, 0.24),
        ("holdout3", 0.99, 0.33),
        ("holdout4", 0.99, 0.19),
        ("holdout5", 0.98, 0.19),
        ("holdout6", 0.94, 0.15),
        ("holdout7", 0.98, 0.18),
        ("holdout8", 0.99, 0.15),
        ("holdout9", 1.0, 0.1),
        ("holdout10", 0.98, 0.18),
        ("holdout11", 0.81, 0.11),  # never read: 111/136 caught, 9/64 then 7/64 refused
        ("holdout12", 0.88, 0.29),  # never read: 121/136 caught, 18/64 refused on d066b20
    ],
)
def test_the_guard_refuses_what_names_its_author_and_passes_market_news(
    name: str, min_caught: float, max_refused: float
) -> None:
    """The guard on the unscrubbed sentences: a prompt that still carried them would be refused. A refused market
    sentence costs a gap (the record is not sent), never a leak: the guard leans to refusing."""
    items = load(name)
    named = [i for i in items if i["leak_tokens"]]
    caught = sum(bool(LeakGuard(i["family"], i["model"], SYMBOLS).find(i["text"])) for i in named)
    market = [i for i in items if i["kind"] == "market"]
    refused = sum(bool(LeakGuard(i["family"], i["model"], SYMBOLS).find(i["text"])) for i in market)
    print(
        f"\n{name}: guard refuses {caught}/{len(named)} sentences naming their author, {refused}/{len(market)} "
        "market sentences"
    )
    assert caught / len(named) >= min_caught
    assert refused <= max_refused * len(market)


@pytest.mark.parametrize(
    ("name", "max_past"),
    [
        ("dev", 0),
        ("dev2", 1),
        ("dev3", 0),
        ("dev4", 6),
        ("holdout", 0),
        ("holdout2", 4),
        ("holdout3", 5),
        ("holdout4", 0),
        ("holdout5", 1),
        ("holdout6", 6),
        ("holdout7", 1),
        ("holdout8", 0),
        ("holdout9", 3),
        ("holdout10", 5),
        ("holdout11", 26),  # never read: 27 on 477c4da
        ("holdout12", 19),  # never read: 19 on d066b20
    ],
)
def test_what_the_scrubber_leaves_naming_its_author_the_guard_refuses(name: str, max_past: int) -> None:
    """The second line of defence: a scrubbed sentence that still names its author is refused (a gap, never a
    leak). The ones that pass both are counted; the floor is the measured figure."""
    result = score(load(name), _guard)
    past = sorted(set(result.leaking) - set(result.refused))
    print(f"\n{name}: {len(result.leaking)} still naming the author after scrubbing, {len(past)} past the guard")
    assert len(past) <= max_past, past


def test_the_guard_shares_nothing_with_the_scrubber() -> None:
    """A check independent of what it checks: the guard imports neither the scrubber's patterns nor its frames."""
    import ast
    from pathlib import Path

    import grader.anonymizer._guard as guard

    tree = ast.parse(Path(guard.__file__).read_text())
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)} | {
        a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names
    }
    assert not any(
        m and any(part in m for part in ("_patterns", "_frames", "_anonymizer", "_detector", "_market"))
        for m in imported
    )
