"""Claim extraction from free-text rationales, on real CapitalBench phrasing (CC BY 4.0, Ishtiaq Rahman)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from ledgers import Claim, UniverseIndex, Verifier, VerifierConfig, extract_claims, split_sentences, verify
from tests.ledgers.capitalbench import CB_FIELDS, ROUNDS, round_store, round_universe

DECIDED = datetime(2026, 5, 28, 20, 35, tzinfo=UTC)
CB = VerifierConfig(benchmark="SPY")


def _sub(round_id: str, model: str) -> dict:
    return json.loads(next((ROUNDS / round_id).glob(f"runs/*/submissions/parsed/{model}.json")).read_text())


def _holding(sub: dict, option_id: str) -> str:
    return next(f"[{h['option_id']}] {h['rationale']}" for h in sub["portfolio"] if h["option_id"] == option_id)


@pytest.fixture(scope="module")
def round_0528():
    rd = ROUNDS / "CB-2026-05-28-1W"
    store, decided = round_store(rd)
    return store, decided, UniverseIndex(round_universe(rd))


def _by_field(claims: list[Claim]) -> dict[tuple[str | None, str | None], Claim]:
    return {(c.symbol, c.assertions[0].field): c for c in claims}


def test_split_sentences_keeps_decimals_and_abbreviations():
    text = "U.S. yields rose to 4.57% vs. 4.4% last week. Semis led; gold lagged! Next: RSI 72."
    parts = [s for _, s in split_sentences(text)]
    assert parts == ["U.S. yields rose to 4.57% vs. 4.4% last week.", "Semis led;", "gold lagged!", "Next: RSI 72."]


def test_option_rationale_with_horizon_suffixes(round_0528):
    store, decided, universe = round_0528
    sub = _sub("CB-2026-05-28-1W", "anthropic-claude-opus-4-8")
    text = _holding(sub, "SEMICONDUCTORS")  # "Strongest near-term momentum (+5.6% 7d, +22% 30d), robust chip ..."
    assert "+5.6% 7d, +22% 30d" in text
    claims = extract_claims(text, decided, None, universe, available_fields=CB_FIELDS)
    found = _by_field(claims)
    seven, thirty = found[("SMH", "return7d")], found[("SMH", "return30d")]
    assert seven.assertions[0].stated == pytest.approx(0.056) and thirty.assertions[0].stated == pytest.approx(0.22)
    verifier = Verifier(store, CB)
    assert verifier.verify(seven).status == "supported"  # SMH 7d +5.63%
    assert verifier.verify(thirty).status == "supported"  # SMH 30d +22.11%
    chip = next(c for c in claims if "79%" in c.text)
    assert chip.briefing_only and verifier.verify(chip).reason.endswith("(briefing/context figure)")
    forecast = [c for c in claims if c.assertions[0].rule == "forecast"]
    assert [c.text for c in forecast] == ["leadership likely persists into June 4"]
    assert verifier.verify(forecast[0]).status == "not_verifiable"
    # "Strongest near-term momentum" is a ranking, and a false one: South Korea (EWY) led on 7d and 30d
    ranking = next(c for c in claims if c.assertions[0].rule == "ranking")
    checked = verifier.verify(ranking)
    assert ranking.symbol == "SMH" and checked.status == "contradicted"
    assert "first EWY" in checked.reason
    for c in claims:  # spans point into the rationale
        assert c.span is not None and text[c.span[0] : c.span[1]].strip(" ,;()") != ""


def test_option_name_instead_of_ticker(round_0528):
    store, decided, universe = round_0528
    claims = extract_claims("Semiconductors +22% 30d; Taiwan +8.3% 7d while South Korea led.", decided, None, universe)
    found = _by_field(claims)
    assert ("SMH", "return30d") in found and ("EWT", "return7d") in found
    assert Verifier(store, CB).verify(found[("EWT", "return7d")]).status == "supported"  # EWT 7d +8.33%


def test_weekly_and_monthly_words(round_0528):
    store, decided, universe = round_0528
    sub = _sub("CB-2026-05-28-1W", "anthropic-claude-opus-4-7")
    text = _holding(sub, "TECHNOLOGY")  # "Tech sector +4.63% weekly, +18% monthly; ..."
    claims = extract_claims(text, decided, None, universe, available_fields=CB_FIELDS)
    found = _by_field(claims)
    verifier = Verifier(store, CB)
    assert verifier.verify(found[("XLK", "return7d")]).status == "supported"  # XLK 7d +4.63%
    assert verifier.verify(found[("XLK", "return30d")]).status == "supported"  # XLK 30d +18.38%


def test_momentum_at_value_in_a_summary():
    rd = ROUNDS / "CB-2026-05-10-1M"
    sub = _sub("CB-2026-05-10-1M", "xai-grok-4-3")
    text = sub["rationale_summary"]
    assert "30-day momentum at 29.68%" in text
    store, decided = round_store(rd)
    claims = extract_claims(text, decided, None, round_universe(rd), available_fields=CB_FIELDS)
    momentum = next(c for c in claims if c.assertions[0].field == "return30d")
    assert momentum.symbol == "SMH"  # "Semiconductors show ..." (no segment header)
    v = verify(momentum, store, CB)
    assert v.status == "supported" and v.evidence[0].field == "return30d"
    estimate = next(c for c in claims if "27.7%" in c.text)  # "earnings growth estimates of 27.7%"
    assert estimate.assertions[0].rule in ("forecast", "briefing")


def test_relative_to_benchmark_and_carried_horizon():
    rd = ROUNDS / "CB-2026-07-01-1W"
    text = _holding(_sub("CB-2026-07-01-1W", "anthropic-claude-opus-4-7"), "HEALTHCARE")
    assert "(+8.4% 30d, +9.8% vs SPY)" in text
    store, decided = round_store(rd)
    claims = extract_claims(text, decided, None, round_universe(rd), available_fields=CB_FIELDS)
    rel = next(c for c in claims if c.assertions[0].rule == "relative_return")
    assert rel.symbol == "XLV" and rel.assertions[0].label == "30D" and rel.assertions[0].benchmark == "SPY"
    v = verify(rel, store, CB)
    assert v.status == "supported", v.reason  # XLV 30d +8.39% minus SPY -1.43%
    assert {(e.symbol, e.field) for e in v.evidence} == {("XLV", "return30d"), ("SPY", "return30d")}


def test_relative_strength_wording_reads_plain_or_relative():
    rd = ROUNDS / "CB-2026-06-24-1W"
    sub = _sub("CB-2026-06-24-1W", "anthropic-claude-opus-4-8")
    store, decided = round_store(rd)
    universe = round_universe(rd)
    industrials = _holding(sub, "INDUSTRIALS")  # "strong relative momentum (+6.6% 30d)"
    rel = next(
        c for c in extract_claims(industrials, decided, None, universe, available_fields=CB_FIELDS) if "6.6%" in c.text
    )
    assert rel.assertions[0].rule == "return_or_relative"  # plain or relative: either reading may be meant
    v = verify(rel, store, CB)
    assert v.status == "supported" and "minus SPY's" in v.reason  # XLI 30d +5.17% minus SPY's = +6.6%
    pmi = next(
        c for c in extract_claims(industrials, decided, None, universe, available_fields=CB_FIELDS) if "55.7" in c.text
    )
    assert pmi.briefing_only


def test_briefing_only_figures():
    sub = _sub("CB-2026-06-01-1W", "anthropic-claude-opus-4-8")
    risk = next(r for r in sub["key_risks"] if "forward P/E" in r)  # "Stretched S&P 500 forward P/E (25.9) ..."
    universe = round_universe(ROUNDS / "CB-2026-06-01-1W")
    claims = extract_claims(risk, DECIDED, None, universe, available_fields=CB_FIELDS)
    pe = next(c for c in claims if "25.9" in c.text)
    assert pe.briefing_only and pe.cited_fields == ["forwardPE"] and pe.symbol == "SPY"
    chips = extract_claims(
        _holding(_sub("CB-2026-05-27-1W", "anthropic-claude-opus-4-7"), "SEMICONDUCTORS"),
        DECIDED,
        None,
        universe,
        available_fields=CB_FIELDS,
    )
    qoq = next(c for c in chips if "25%" in c.text)
    assert qoq.briefing_only and qoq.text == "Q1 chip sales +25% QoQ"
    numeric = [c for c in chips if c.assertions[0].stated is not None]
    assert {c.assertions[0].field for c in numeric} == {"return7d", "return30d"}  # +6.64% 7d, +18.94% 30d


def test_dates_allocations_and_index_names_are_not_claims():
    text = (
        "60% SP500 plus three holdings; equal 25% weights under a 50% cap. Window June 4 to June 11, 2026; "
        "the S&P 500 and Russell 2000 rallied."
    )
    claims = extract_claims(text, DECIDED, None, {"SPY": ["S&P 500", "SP500"]})
    assert [c for c in claims if c.assertions[0].stated is not None or c.briefing_only] == []


def test_rate_tenors_and_records_are_briefing():
    claims = extract_claims(
        "Rising long-term yields (30Y at 5.01%) and a PMI output index at a 59-month high 55.7.",
        DECIDED,
        "SPY",
        {"SPY": "S&P 500"},
    )
    numeric = [c for c in claims if c.assertions[0].rule != "forecast"]
    assert numeric and all(c.briefing_only for c in numeric)


def test_qualitative_claims_and_segment_symbols():
    text = (
        "[LOW_VOL] SPLV +7.3% 30d, low 14.9% vol, and near 52w high; defensive tilt fits quiet week.\n"
        "[SEMICONDUCTORS] Trading above its 200-day average with strong profitability."
    )
    universe = {"SPLV": ["US Low Volatility Equities", "LOW_VOL"], "SMH": ["Semiconductors", "SEMICONDUCTORS"]}
    claims = extract_claims(text, DECIDED, None, universe)
    rules = {(c.symbol, c.assertions[0].rule, c.assertions[0].field) for c in claims}
    assert ("SPLV", "exact_numeric", "return30d") in rules
    assert ("SPLV", "exact_numeric", "volatility20d") in rules
    assert ("SPLV", "near_52w_extreme", "week52High") in rules
    assert ("SMH", "sma_position", "sma200") in rules
    assert ("SMH", "profitability", "profitMargin") in rules
    assert [c.id for c in claims] == [f"claim-{i}" for i in range(1, len(claims) + 1)]


def test_stock_season_rationale(store):
    """A rationale in the stock demo's style, verified against the fixture store."""
    decided = datetime.fromisoformat("2021-06-15T10:00:00-04:00")
    text = (
        "Buying Apple: RSI at 60.4 and the stock is trading above its 200-day average, up 2.4% over 20 days. "
        "Exxon Mobil looks overbought and we expect a pullback. JPM has negative momentum."
    )
    universe = {"AAPL": "Apple Inc.", "XOM": "Exxon Mobil Corporation", "JPM": "JPMorgan Chase & Co."}
    claims = extract_claims(text, decided, None, universe)
    verifier = Verifier(store, VerifierConfig(benchmark="SP500"))
    got = {(c.symbol, c.assertions[0].rule): verifier.verify(c).status for c in claims}
    assert got[("AAPL", "exact_numeric")] == "supported"
    assert got[("AAPL", "sma_position")] == "supported"
    assert got[("XOM", "rsi_state")] == "not_verifiable"  # rsi14 60.35 on 2021-06-14: within 10 of 70
    assert got[("XOM", "forecast")] == "not_verifiable"
    assert got[("JPM", "momentum")] == "supported"


def test_relative_strength_with_a_plain_return():
    rd = ROUNDS / "CB-2026-06-05-1W"
    text = _holding(_sub("CB-2026-06-05-1W", "anthropic-claude-opus-4-8"), "HEALTHCARE")
    assert "relative strength (+2.37% 7d while market fell)" in text
    store, decided = round_store(rd)
    claim = next(
        c
        for c in extract_claims(text, decided, None, round_universe(rd), available_fields=CB_FIELDS)
        if "2.37%" in c.text
    )
    v = verify(claim, store, CB)
    assert v.status == "supported" and v.reason.startswith("XLV return7d = +2.37%")


def test_a_mention_inside_a_closed_aside_is_not_the_subject():
    text = (
        "Tilt away from cap-weighted tech weakness (Micron/Nvidia/Samsung selloff dragging SPY/QQQ) toward "
        "areas showing positive 1-week momentum: biotech breakout, small caps, and regional banks."
    )
    claims = extract_claims(text, DECIDED, None, {"SPY": "S&P 500", "QQQ": "Nasdaq 100"})
    momentum = [c for c in claims if c.assertions[0].rule == "momentum"]
    # not QQQ (real text: CB-2026-06-23-1W, anthropic-claude-opus-4-7): "areas showing ..." is about a set of options
    assert all(c.symbol is None for c in momentum)
    claims = extract_claims(
        "QQQ (the Nasdaq 100) shows positive 1-week momentum.", DECIDED, None, {"QQQ": "Nasdaq 100"}
    )
    assert next(c for c in claims if c.assertions[0].rule == "momentum").symbol == "QQQ"


def test_holdings_joined_on_one_line(round_0528):
    """The reference judge joins per-holding rationales as "SYMBOL: text" after the summary, on one line."""
    store, decided, universe = round_0528
    sub = _sub("CB-2026-05-28-1W", "anthropic-claude-opus-4-8")
    text = sub["rationale_summary"] + " " + " ".join(f"{h['option_id']}: {h['rationale']}" for h in sub["portfolio"])
    claims = extract_claims(text, decided, None, universe, available_fields=CB_FIELDS)
    found = _by_field(claims)
    assert {
        ("SMH", "return7d"),
        ("SMH", "return30d"),
        ("XLK", "return7d"),
        ("MTUM", "return7d"),
        ("QQQ", "return7d"),
        ("EWT", "return7d"),
    } <= set(found)
    verifier = Verifier(store, CB)
    assert all(verifier.verify(found[k]).status == "supported" for k in found if k[1] == "return7d")


@pytest.mark.parametrize(
    ("text", "field", "value"),
    [
        ("RSI(14) at 69.4", "rsi14", 69.4),
        ("RSI(14) of 72.1 signals overbought", "rsi14", 72.1),
        ("the 14-day RSI reads 31.2", "rsi14", 31.2),
        ("MACD(12, 26, 9) at 1.25", "macd", 1.25),
    ],
)
def test_an_indicator_parameter_is_not_its_value(text, field, value):
    from ledgers import parse_assertions

    numeric = [a for a in parse_assertions(text, "AAA") if a.stated is not None]
    assert [(a.field, a.stated) for a in numeric] == [(field, value)]


@pytest.mark.parametrize(
    ("text", "fragment", "stated"),
    [
        ("AAA is down 8.4% over 20 days.", "is down 8.4% over 20 days", -0.084),
        ("AAA rose 3.1% over 5 days.", "rose 3.1% over 5 days", 0.031),
        ("AAA fell 2% this week.", "fell 2% this week", -0.02),
    ],
)
def test_direction_words_stay_with_the_extracted_claim(text, fragment, stated):
    from datetime import datetime

    claims = extract_claims(text, datetime(2022, 1, 5, 21, tzinfo=UTC), "AAA", {"AAA": "Alpha Corp"})
    assert [(c.text, c.assertions[0].stated) for c in claims][:1] == [(fragment, pytest.approx(stated))]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("I assign a 60% probability that energy beats SPY.", "probability"),
        ("Confidence: 62%.", None),  # no claim at all
        ("Exit if XLE falls 5% below entry.", "plan"),
        ("Stop loss at -4%.", "plan"),
        ("Position capped at 25% of the book.", None),  # a cap written as a weight: no claim at all
        ("Invalidation: XLE underperforms SPY by 2% over two sessions.", "plan"),
        ("Base case +1.2% for the week, low -2%, high +3%.", "forecast"),
        ("Expected return +1.45% over the week.", "forecast"),
    ],
)
def test_probabilities_plans_and_forecasts_are_their_own_kinds_never_facts(text, kind):
    from datetime import datetime

    universe = {"ENERGY": ["Energy Sector", "XLE"], "SP500": ["S&P 500", "SPY"]}
    claims = extract_claims(text, datetime(2026, 7, 1, 20, tzinfo=UTC), "ENERGY", universe, benchmark="SP500")
    rules = {c.assertions[0].rule for c in claims}
    assert not rules & {"exact_numeric", "threshold", "relative_return", "return_or_relative", "derived_return"}
    assert not any(c.briefing_only for c in claims), "not a briefing figure either"
    if kind is not None:
        assert kind in rules, (text, rules)


@pytest.mark.parametrize(
    "text",
    [
        "XLE rose 5.3% over 7 days.",
        "Energy (+5.28% 7d) leads.",
        "low 14.9% vol",
        "market cap of $2.15T",
        "analyst target price $160",
    ],
)
def test_facts_near_marker_words_stay_facts(text):
    from datetime import datetime

    claims = extract_claims(
        text, datetime(2026, 7, 1, 20, tzinfo=UTC), "ENERGY", {"ENERGY": ["Energy Sector", "XLE"]}, benchmark="SP500"
    )
    assert claims and claims[0].assertions[0].rule == "exact_numeric", [(c.text, c.assertions[0].rule) for c in claims]


def test_a_claim_keeps_its_clause_and_a_doubt_stops_a_contradiction():
    """Issue 29: a fragment ("+3.1% 5s") is stored with the clause that decides it, and a clause the certainty
    reader cannot read in full (another name before the figure) never yields a contradiction."""
    from ledgers.reading._certainty import read_clause

    text = "Strong tape; developed ex-US +0.9% over 5 sessions, JAPAN lagging."
    read = read_clause(
        text,
        (text.index("+0.9%"), text.index("+0.9%") + 5),
        "exact_numeric",
        "JAPAN",
        [],
        subject_words={"japan"},
        anchored=True,
    )
    assert read.clause == "developed ex-US +0.9% over 5 sessions" and "developed" in (read.doubt or "")
    plain = "Evidence: JAPAN +0.9% over 5 sessions."
    read = read_clause(
        plain,
        (plain.index("+0.9%"), plain.index("+0.9%") + 5),
        "exact_numeric",
        "JAPAN",
        [],
        subject_words={"japan"},
        anchored=True,
    )
    assert read.doubt is None and read.clause == "JAPAN +0.9% over 5 sessions"
    rank = "Strongest momentum theme; AI capex intact."
    assert "theme" in read_clause(rank, (0, 18), "ranking", "SMH", [], subject_words={"smh"}, anchored=True).doubt
    scoped = "Strongest momentum in the universe (+8.8% 7d)."
    assert read_clause(scoped, (0, 18), "ranking", "SMH", [], subject_words={"smh"}, anchored=True).doubt is None


def test_claims_read_at_one_time_are_the_claims_read_at_another_stamped_with_it(round_0528):
    """``claims_at``: a text's claims read once serve every decision that wrote it (the time is only stamped)."""
    from zoneinfo import ZoneInfo

    from ledgers import claims_at

    _, decided, universe = round_0528
    later = datetime(2026, 6, 2, 15, 59, tzinfo=ZoneInfo("America/New_York"))
    sub = _sub(
        "CB-2026-05-28-1W", next(p.stem for p in (ROUNDS / "CB-2026-05-28-1W").glob("runs/*/submissions/parsed/*.json"))
    )
    texts = [h["rationale"] for h in sub["portfolio"]] + [sub.get("summary") or ""]
    for text in texts:
        for certain in (True, False):
            first = extract_claims(text, decided, "SPY", universe, benchmark="SPY", default_is_certain=certain)
            again = extract_claims(text, later, "SPY", universe, benchmark="SPY", default_is_certain=certain)
            stamped = claims_at(first, later)
            assert [c.model_dump_json() for c in stamped] == [c.model_dump_json() for c in again]
            assert all(c.decided_at is later for c in stamped) and all(c.decided_at == decided for c in first)
