"""Issue 32: a whole record grows with what the contestant wrote and did, not with the market tables.

Every bundled or importable real season (the bundled June weekly slice, and both CapitalBench tracks imported from the
rounds the tests read: the shipped slice, or a full copy named by ``GRADER_TEST_CB_ROUNDS``) has every record at most
40% of its naive dump, with every rationale, trade and allocation present verbatim; and each fits a 200,000-token
window (the smallest a frontier judge has had) with 15% of it left for the reply."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from grader.panel._prompts import REPLY_SHARE, prompt_builder
from grader.prompts._fence import unfence
from grader.season import load_bundle
from rubric import load_rubric
from tests.conftest import CB_ROUNDS, write_bundle

REPO = Path(__file__).resolve().parents[2]
SMALLEST_WINDOW = 200_000


@pytest.fixture(scope="module")
def real_seasons(tmp_path_factory) -> dict[str, Path]:
    from grader.adapters import import_capitalbench

    seasons = {"cb-2026-06-1w (bundled)": REPO / "seasons" / "cb-2026-06-1w"}
    if CB_ROUNDS.is_dir():
        for track in ("1W", "1M"):
            out = tmp_path_factory.mktemp(f"cb-{track}") / "season"
            import_capitalbench(CB_ROUNDS, track, None, None, out)
            seasons[f"{track} track of {CB_ROUNDS}"] = out
    return seasons


def _verbatim_parts(decision) -> list[str]:
    parts = [decision.rationale]
    parts += [f"{t.side} {t.quantity:g} {t.symbol} @ {t.price:.2f}" for t in decision.trades]
    parts += [f"{a.symbol} {a.weight * 100:.0f}%" for a in decision.allocation or []]
    parts += [a.rationale for a in decision.allocation or [] if a.rationale]
    return parts


def test_real_records_are_at_most_40_percent_of_the_naive_dump_with_every_rationale_and_trade_verbatim(real_seasons):
    from grader.anonymizer import NamedView
    from grader.prompts import PromptBuilder

    rubric = load_rubric("v0.4")
    for name, path in real_seasons.items():
        bundle = load_bundle(path)
        replays, outcomes, pending, builder = prompt_builder(bundle, rubric)
        # the same record under the contestants' own names: the words of each rationale are then the model's own
        named = PromptBuilder(bundle, rubric.judge_prompt(), NamedView(bundle.contestants), replays, outcomes, pending)
        for c in bundle.contestants:
            prompt = builder.build(c.id)
            assert prompt.token_estimate <= 0.40 * prompt.naive_token_estimate, (name, c.id)
            room = math.ceil(SMALLEST_WINDOW * REPLY_SHARE)
            assert prompt.counted_tokens + room <= SMALLEST_WINDOW, (name, c.id, prompt.counted_tokens)
            own = named.build(c.id, naive=False)
            decisions = bundle.decisions_of(c.id)
            assert len(own.sections) == len(decisions)
            for d, section in zip(decisions, own.sections, strict=True):
                for part in _verbatim_parts(d):
                    # verbatim inside its quote (grader/prompts/_fence.py: every line marked, the text as written)
                    assert named.neutral(part) in unfence(section.text), (name, c.id, d.key, part[:80])


def test_a_decision_shows_the_fields_its_text_cites_and_the_closes_of_what_it_holds(tmp_path):
    """The P/E the rationale quotes is shown (the value known at the decision); P/E of a symbol the text does not
    cite is not; the close of the symbol it holds is, though the text never names it."""
    fields = (
        "symbol,field,value,observed_at,source\n"
        "AAA,peRatio,25.5,2021-12-31,illustrative\n"
        "AAA,peRatio,27.0,2022-01-10,illustrative\n"
        "BBB,peRatio,11.25,2021-12-31,illustrative\n"
    )
    decisions = [
        {
            "contestant_id": "m1",
            "decided_at": "2022-01-03T15:30:00-05:00",
            "trades": [{"symbol": "BBB", "side": "buy", "quantity": 10, "price": 51}],
            "rationale": "Buying BBB for the dividend.",
            "decision_seconds": 1.0,
        },
        {
            "contestant_id": "m1",
            "decided_at": "2022-01-04T15:30:00-05:00",
            "trades": [{"symbol": "AAA", "side": "buy", "quantity": 5, "price": 102}],
            "rationale": "Buying AAA: its P/E of 25.5 is below peers.",
            "decision_seconds": 1.0,
        },
        {
            "contestant_id": "m2",
            "decided_at": "2022-01-04T15:30:00-05:00",
            "trades": [],
            "rationale": "Holding.",
            "decision_seconds": None,
        },
    ]
    bundle = load_bundle(write_bundle(tmp_path / "s", decisions=decisions, fields=fields))
    *_, builder = prompt_builder(bundle, load_rubric("v0.4"))
    first, second = builder.build("m1", naive=False).sections
    assert "as of 2021-12-31" in first.text and "  BBB: close=" in first.text and "peRatio" not in first.text
    assert "as of 2022-01-03" in second.text and "  AAA: close=102.00, peRatio=25.50" in second.text
    assert "  BBB: close=" in second.text  # held, never named by this text: its close
    assert "peRatio=11.25" not in second.text  # BBB's P/E: no claim of this text reads it
    assert all(o.observed_at <= second.decided_at for o in second.observations)


def test_a_briefing_excerpt_keeps_only_lines_with_the_texts_figures():
    from grader.prompts._touched import briefing_excerpt, cited_numbers

    briefing = (
        "# Briefing\n\nThe 10-year yield was 4.71% on July 31, 2026.\nClaims were 197,000.\n"
        "Payrolls rose by 57,000.\n\n| option_id | return_30d |\n| --- | --- |\n| SEMIS | 29.68% |\n"
        "| OIL | 6.44% |\n"
    )
    text = "With the 10-year at 4.710% and semis up 29.68% over 30 days in 2026, we buy."
    assert cited_numbers(text) == {"4.71", "29.68"}  # a year and two-digit integers are not distinctive
    assert briefing_excerpt(briefing, text) == [
        "The 10-year yield was 4.71% on July 31, 2026.",
        "option_id | return_30d",
        "SEMIS | 29.68%",
    ]
    assert briefing_excerpt(briefing, "Nothing quoted.") == []
