"""Prompt builder: layout, compaction, token report, and the lookahead guard (a property test)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grader.anonymizer import Anonymizer
from grader.prompts import PromptBuilder, format_value
from grader.replay import replay_season
from grader.season import load_bundle
from tests.conftest import write_bundle

BASE = datetime.fromisoformat("2022-01-03T09:00:00-05:00")


def _builder(bundle):
    anon = Anonymizer.for_season(bundle.info, bundle.contestants, seed="t")
    replays = replay_season(bundle)
    return PromptBuilder(bundle, "INSTRUCTIONS", anon, replays, {c: r.outcome.as_dict() for c, r in replays.items()})


def test_layout_and_compaction(tmp_path):
    bundle = load_bundle(write_bundle(tmp_path / "s"))
    p = _builder(bundle).build("m1")
    assert p.system == "INSTRUCTIONS"
    assert p.user.index("## Decision") < p.user.index("# OUTCOME — after the horizon")
    assert "Model One" not in p.user and "Contestant" in p.user
    # the record says what it leaves out; beyond that fixed note it is smaller than a naive dump even here
    note = p.user.split("# Left out of this record", 1)[1].split("\n\nContestant: ", 1)[0]
    assert "not_verifiable" in note
    assert p.token_estimate - len(note) / 4 < p.naive_token_estimate
    # fields the text does not touch are left out (AAA's sector and P/E: "Buying AAA on momentum" cites neither);
    # the close of what it trades is shown, and an unchanged value is not repeated
    assert "sector=" not in p.user and "peRatio=" not in p.user
    assert p.sections[0].text.count("  AAA: close=") == 1 and "as of 2021-12-31" in p.sections[0].text


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    decision_hours=st.lists(st.integers(min_value=0, max_value=9 * 24), min_size=1, max_size=4, unique=True),
    field_hours=st.lists(st.integers(min_value=-48, max_value=11 * 24), min_size=1, max_size=8, unique=True),
)
def test_no_later_value_in_a_decision_section(tmp_path_factory, decision_hours, field_hours):
    root = tmp_path_factory.mktemp("b")
    rows = ["symbol,field,value,observed_at,source"]
    sentinels = []
    for i, h in enumerate(sorted(field_hours)):
        when = BASE + timedelta(hours=h)
        value = 7000 + i * 111.1111 + h / 1000  # distinctive at display precision
        rows.append(f"AAA,peRatio,{value:.6f},{when.isoformat()},test")
        sentinels.append((when, format_value("peRatio", value)))
    decisions = []
    for h in sorted(decision_hours):
        when = BASE + timedelta(hours=h)
        if when.date() > datetime(2022, 1, 14).date():
            continue
        decisions.append(
            {
                "contestant_id": "m1",
                "decided_at": when.isoformat(),
                "trades": [],
                "rationale": "Watching AAA at a P/E of 7000.",
                "decision_seconds": 1.0,
            }
        )
    if not decisions:
        return
    path = write_bundle(
        root,
        decisions=[
            *decisions,
            {
                "contestant_id": "m1",
                "decided_at": "2022-01-03T10:00:00-05:00",
                "trades": [{"symbol": "AAA", "side": "buy", "quantity": 1, "price": 101}],
                "rationale": "Buy AAA.",
                "decision_seconds": 1.0,
            },
        ]
        if all(d["decided_at"] != "2022-01-03T10:00:00-05:00" for d in decisions)
        else decisions,
        fields="\n".join(rows) + "\n",
    )
    bundle = load_bundle(path)
    prompt = _builder(bundle).build("m1")
    for section in prompt.sections:
        assert all(o.observed_at <= section.decided_at for o in section.observations)
        if "P/E" in section.text and any(when <= section.decided_at for when, _ in sentinels):
            # the text cites the P/E: the field is shown (its latest value, or earlier in the record if unchanged)
            assert any(
                shown in prompt.user.split(section.text)[0] + section.text
                for when, shown in sentinels
                if when <= section.decided_at
            )
        for when, shown in sentinels:
            if when > section.decided_at:
                assert shown not in section.text, (shown, section.decided_at, when)
    json.dumps([s.text for s in prompt.sections])
