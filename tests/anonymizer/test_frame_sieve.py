"""The frames' sieves (grader/anonymizer/_frame_patterns.py, ``loose_names``): a frame pattern is compiled and run on
a line only where its sieve finds something, which must never change what the frames find."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grader.anonymizer import Anonymizer
from grader.anonymizer._anonymizer import universe_allowlist
from grader.anonymizer._frame_patterns import loose_names, name_pieces, names_alternation
from grader.anonymizer._frames import Frames, _FrameRule
from grader.demo import build_synthetic_season
from grader.season import load_bundle
from tests.anonymizer._battery import BATTERY, INFO, contestants_for, load

LEXICON_NAMES = Frames.for_names()._alt_names


def _every_frame_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Frames as they were before the sieves: every pattern compiled and run on every line that names someone."""
    monkeypatch.setattr(_FrameRule, "finditer", lambda rule, text, lo, hi: rule.pattern.finditer(text, lo, hi))


@pytest.mark.parametrize("name", sorted(p.stem for p in BATTERY.glob("*.jsonl")))
def test_sieved_frames_scrub_the_battery_as_every_frame_does(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    items = load(name)
    allow = universe_allowlist(INFO)  # type: ignore[arg-type]

    def scrubbed() -> list[tuple[str, list]]:
        out = []
        for item in items:
            anon = Anonymizer.for_contestants(contestants_for(item), seed="battery", allowlist=allow)
            frames = anon._frames
            out.append((anon.scrub(item["text"], f"c-{item['family']}").text, frames.spans(item["text"])))
        return out

    sieved = scrubbed()
    with monkeypatch.context() as m:
        _every_frame_run(m)
        assert scrubbed() == sieved
    assert any(spans for _, spans in sieved)  # the battery exercises the frames


def test_sieved_frames_read_a_season_of_model_names_as_every_frame_does(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The benchmark's season (150 contestants under model names: some 450 names in the alternation), whose
    rationales say "As an OpenAI model, ...", with the battery's sentences read by the same season's frames."""
    build_synthetic_season(tmp_path, n_contestants=150, n_days=5, seed=0)
    bundle = load_bundle(tmp_path)
    texts = [d.rationale for d in bundle.decisions if d.rationale]
    texts += [item["text"] for p in sorted(BATTERY.glob("*.jsonl")) for item in load(p.stem)]
    anon = Anonymizer.for_season(bundle.info, bundle.contestants, seed="sieve")
    sieved = [anon._frames.spans(t) for t in texts]
    compiled = sum(rule.compiled is not None for rule in anon._frames._rules)
    with monkeypatch.context() as m:
        _every_frame_run(m)
        assert [anon._frames.spans(t) for t in texts] == sieved
    assert any(sieved)
    assert compiled < len(anon._frames._rules)  # some frame never had to be compiled


_SEPARATORS = st.sampled_from(["", " ", "-", "_", ".", "\n", "\t"])


@settings(max_examples=300, deadline=None)
@given(data=st.data(), extra=st.lists(st.text(min_size=1, max_size=12), max_size=3))
def test_loose_names_match_whatever_the_names_match(data: st.DataObject, extra: list[str]) -> None:
    names = sorted({*LEXICON_NAMES[:40], *extra}, key=len, reverse=True)
    name = data.draw(st.sampled_from([n for n in names if name_pieces(n)]))
    pieces = name_pieces(name)
    written = pieces[0] + "".join(data.draw(_SEPARATORS) + p for p in pieces[1:])
    cased = "".join(c.swapcase() if data.draw(st.booleans()) else c for c in written)
    alt, loose = names_alternation(names), loose_names(names)
    for flags, text in ((0, written), (re.I, cased)):
        assert re.fullmatch(f"(?:{alt})", text, flags), (name, text)  # a spelling the names match
        assert re.fullmatch(loose, text, flags), (name, text, loose)


def test_a_name_of_separators_only_leaves_the_sieve_open() -> None:
    assert re.fullmatch(loose_names(["--", "Claude"]), "")
    assert not re.fullmatch(loose_names(["Claude"]), "")


def test_a_name_ends_where_it_did_when_its_end_was_read_without_case() -> None:
    """``_NAME_END`` reads its one character case-sensitively (``(?-i:``: far cheaper to compile under ``re.I``):
    for every code point after a name, with and without ``re.I``, the same verdict as the class read with case."""
    import sys

    from grader.anonymizer._frame_patterns import _NAME_END

    with_case = r"(?![^\W_\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af])"
    assert _NAME_END != with_case and "(?-i:" in _NAME_END
    for flags in (0, re.I):
        old, new = re.compile("x" + with_case, flags), re.compile("x" + _NAME_END, flags)
        differ = [
            c for c in range(sys.maxunicode + 1) if bool(old.match("x" + chr(c))) != bool(new.match("x" + chr(c)))
        ]
        assert differ == []
        assert bool(old.match("x")) == bool(new.match("x"))
