"""Each class of real-rationale wording the verifier reads, one small case each way (read right, and the false
accusation it must not make). The sentences are shaped on real CapitalBench rationales (rounds in data/)."""

from __future__ import annotations

from datetime import date, datetime

import pandas as pd
import pytest

from grader.pit import MARKET_TZ, FieldRow, PointInTimeStore, close_time
from ledgers import VerifierConfig, extract_claims, verify_many

DECIDED = datetime(2026, 7, 20, 10, tzinfo=MARKET_TZ)
UNIVERSE = {
    "SP500": ["S&P 500", "SPY"],
    "OIL": ["Crude Oil", "USO"],
    "ENERGY": ["Energy Sector", "XLE"],
    "HEALTHCARE": ["Healthcare Sector", "XLV"],
    "UTILITIES": ["Utilities Sector", "XLU"],
    "CONSUMER_STAPLES": ["Consumer Staples Sector", "XLP"],
    "FINANCIALS": ["Financials Sector", "XLF"],
    "TECHNOLOGY": ["Technology Sector", "XLK"],
    "SMALL_CAP": ["US Small-Cap Stocks", "IWM"],
    "MID_CAP": ["US Mid-Cap Stocks", "IJH"],
    "SEMICONDUCTORS": ["Semiconductors", "SMH"],
    "AGGREGATE_BONDS": ["US Aggregate Bond Market", "AGG"],
    "EQUAL_WEIGHT_SP500": ["Equal-Weight S&P 500", "RSP"],
}
LABELS = {
    "HEALTHCARE": ("us_sector", "equity"),
    "UTILITIES": ("us_sector", "equity"),
    "FINANCIALS": ("us_sector", "equity"),
    "CONSUMER_STAPLES": ("us_sector", "equity"),
    "TECHNOLOGY": ("us_sector", "equity"),
    "ENERGY": ("us_sector", "equity"),
    "SP500": ("broad_us_equity", "equity"),
    "OIL": ("energy_commodities", "commodity"),
    "SMALL_CAP": ("size_factor", "equity"),
    "MID_CAP": ("size_factor", "equity"),
    "SEMICONDUCTORS": ("thematic_equity", "equity"),
    "AGGREGATE_BONDS": ("aggregate_bonds", "bond"),
    "EQUAL_WEIGHT_SP500": ("broad_us_equity", "equity"),
}
VALUES = {  # return5d, return21d, activeReturn5d, volatility21d, beta63d
    "SP500": (-0.0095, 0.0021, 0.0, 0.1212, 1.0),
    "OIL": (0.1027, 0.2860, 0.1122, 0.5585, -1.0),
    "ENERGY": (0.0211, -0.0399, 0.0306, 0.2141, -0.19),
    "HEALTHCARE": (0.0312, 0.0601, 0.0407, 0.1650, 0.40),
    "UTILITIES": (0.0248, 0.0165, 0.0343, 0.1613, 0.35),
    "CONSUMER_STAPLES": (0.0032, -0.0132, 0.0127, 0.1400, 0.30),
    "FINANCIALS": (-0.0005, 0.0482, 0.0090, 0.1378, 0.90),
    "TECHNOLOGY": (-0.0590, -0.0776, -0.0495, 0.2500, 1.30),
    "SMALL_CAP": (0.0101, 0.0364, 0.0196, 0.2271, 1.20),
    "MID_CAP": (0.0080, 0.0200, 0.0175, 0.1667, 1.05),
    "SEMICONDUCTORS": (-0.0711, -0.1784, -0.0616, 0.6590, 2.20),
    "AGGREGATE_BONDS": (0.0020, 0.0050, 0.0115, 0.0431, 0.05),
    "EQUAL_WEIGHT_SP500": (0.0142, 0.0126, 0.0237, 0.0987, 0.85),
}


@pytest.fixture(scope="module")
def store() -> PointInTimeStore:
    when = close_time(date(2026, 7, 17))
    fields = ("return5d", "return21d", "activeReturn5d", "volatility21d", "beta63d")
    rows = [
        FieldRow(s, f, v, when, "capitalbench:R")
        for s, vals in VALUES.items()
        for f, v in zip(fields, vals, strict=True)
    ]
    prices = pd.DataFrame([{"date": date(2026, 7, 17), "symbol": s, "close": 100.0} for s in VALUES])
    labels = {
        s: {
            "name": UNIVERSE[s][0],
            "sector": LABELS[s][0],
            "asset_class": LABELS[s][1],
            "group": "us_sector" if LABELS[s][0] == "us_sector" else LABELS[s][0],
        }
        for s in VALUES
    }
    return PointInTimeStore(prices, rows, benchmark="SP500", labels=labels)


def read(store, text, default=None, certain=True, holdings=()):
    claims = extract_claims(
        text,
        DECIDED,
        default,
        UNIVERSE,
        benchmark="SP500",
        available_fields=sorted({f for s in store.symbols for f in store.fields(s)}),
        default_is_certain=certain,
        holdings=holdings,
    )
    return [(c, v) for c, v in zip(claims, verify_many(claims, store, VerifierConfig(benchmark="SP500")), strict=True)]


def statuses(store, text, default=None, certain=True):
    return [(c.assertions[0].rule, c.symbol, v.status) for c, v in read(store, text, default, certain)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a move is the sign of the named mover's return
        (
            "Crude has sold off over the past week.",
            [("momentum", "OIL", "contradicted")],
        ),  # OIL +10.27% over 5 sessions
        ("Semis fell over the past week.", [("momentum", "SEMICONDUCTORS", "supported")]),
        (
            "Defensive strength (+3.12% 5s while the market fell).",
            [("exact_numeric", "HEALTHCARE", "supported"), ("momentum", "SP500", "supported")],
        ),
        # a condition, a phrasal verb, or a mover that is no option: not read
        ("Exit if XLE falls below its 50-day average.", []),
        ("It dropped out of the top 4 by momentum.", []),
        ("Yields rose over the past week.", []),
    ],
)
def test_moves(store, text, expected):
    got = [s for s in statuses(store, text, "HEALTHCARE") if s[0] in ("momentum", "exact_numeric", "ranking")]
    assert got == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("HEALTHCARE: higher volatility than SPY.", ("compare", "supported")),  # 16.5% vs 12.1% over 21 sessions
        ("HEALTHCARE: lower volatility than SPY.", ("compare", "contradicted")),
        ("MID_CAP: lower vol than broad small caps.", ("compare", "supported")),  # "small caps": SMALL_CAP
        ("Energy lagged crude's move.", ("compare", "supported")),  # short windows: +2.11% vs +10.27%
        ("Utilities have outperformed SPY.", ("compare", "supported")),
    ],
)
def test_comparisons_with_a_named_option(store, text, expected):
    got = [(c.assertions[0].rule, v.status) for c, v in read(store, text, "HEALTHCARE")]
    assert expected in got


@pytest.mark.parametrize(
    "text",
    [
        "Invalidation: XLV underperforms SPY by more than 3% intramonth.",  # a plan
        "(expected return +1.6%; invalidation: Broad risk-on rally; XLV underperforms SPY by >1%.)",
        "Positioned to outperform SPY over the week.",  # an aim
        "Lower volatility than mega-cap growth.",  # not an option of the season
        "Higher base-case weekly returns than SPY.",  # a forecast
    ],
)
def test_comparisons_that_are_no_claims(store, text):
    assert [s for s in statuses(store, text, "HEALTHCARE") if s[0] == "compare"] == []


def test_a_figure_after_the_compared_option_is_its_own(store):
    got = read(store, "RSP 21-session volatility was 9.87%, lower than SPY at 12.12%.", "EQUAL_WEIGHT_SP500")
    numbers = [(c.symbol, c.assertions[0].field, v.status) for c, v in got if c.assertions[0].rule == "exact_numeric"]
    assert ("EQUAL_WEIGHT_SP500", "volatility21d", "supported") in numbers
    assert ("SP500", "volatility21d", "supported") in numbers


def test_relative_verbs_keep_their_sign_and_coordinated_figures_their_unit(store):
    got = statuses(store, "Technology underperformed SPY by 4.95% over five sessions.", "TECHNOLOGY")
    assert got == [("relative_return", "TECHNOLOGY", "supported")]  # activeReturn5d -4.95%
    got = read(
        store,
        "RSP beat SPY by 2.37 percentage points over five sessions and 1.05 over 21 sessions.",
        "EQUAL_WEIGHT_SP500",
    )
    stated = [round(c.assertions[0].stated, 4) for c, _ in got]
    assert stated == [0.0237, 0.0105]  # percentage points both, not 105%


def test_a_measure_named_before_its_window(store):
    got = read(store, "Evidence: XLF active return 5s +0.90%, return_21s +4.82%.", "FINANCIALS")
    assert [(c.assertions[0].field, v.status) for c, v in got] == [
        ("activeReturn5d", "supported"),
        ("return21d", "supported"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Reversal: High volatility and valuation sensitivity could produce a sharp reversal.",
        "Continuation: strongest momentum persists; lowest volatility in the universe keeps it bid.",
    ],
)
def test_scenario_pieces_are_not_facts(store, text):
    assert [s for s in statuses(store, text, "SEMICONDUCTORS") if s[0] not in ("forecast",)] == []


def test_key_risk_lines_keep_their_figures_but_not_their_words(store):
    text = "Holdings:\n- OIL (Crude Oil), 20%: supply risk.\n\nKey risks:\n- Oil price reversal after a sharp drop\n"
    assert [s for s in statuses(store, text, "OIL") if s[0] == "momentum"] == []


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("Strongest recent defensive momentum (+3.12% 5s).", "supported"),  # HEALTHCARE leads XLV/XLP/XLU on 5 sessions
        ("Best 5s active return among sectors.", "supported"),
        ("Weakest 5s active return among sectors.", "contradicted"),
        ("Leading sector.", "supported"),  # no measure named: some window of return or active return leads
    ],
)
def test_rankings_within_named_peer_groups(store, text, status):
    got = [(c.assertions[0].rule, v.status) for c, v in read(store, text, "HEALTHCARE")]
    assert ("ranking", status) in got


def test_a_group_word_whose_definitions_disagree_is_not_concluded(store):
    # "defensive" is XLV/XLP/XLU, or with real estate, or with low-vol and dividend funds: here the three-sector
    # set and the others are the same options, so construct a disagreement on "tech": ai_and_technology vs + names
    got = [
        (c.assertions[0].rule, v.status, v.reason)
        for c, v in read(store, "Highest beta among tech themes.", "SEMICONDUCTORS")
    ]
    rankings = [g for g in got if g[0] == "ranking"]
    assert rankings and rankings[0][1] == "not_verifiable"  # no definition of 'tech' has two options here


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("Low beta defensive.", "supported"),  # 0.30
        ("Avoids high-beta tech.", None),  # about tech, not the subject (test_uncertain_names: tech's own level)
        ("Low volatility relative to gains.", None),  # a ratio, no level
    ],
)
def test_levels_are_about_the_subject_only_when_said_of_it(store, text, status):
    got = [
        (c.assertions[0].rule, v.status)
        for c, v in read(store, "XLP: " + text, "CONSUMER_STAPLES")
        if c.assertions[0].rule in ("beta_level", "volatility_level") and c.symbol == "CONSUMER_STAPLES"
    ]
    assert got == ([] if status is None else [(got[0][0] if got else "", status)])


def test_a_level_also_holds_against_the_other_options(store):
    # SMALL_CAP volatility 22.7% is below the 35% "high" threshold but in the top third of these options
    got = [(c.assertions[0].rule, v.status) for c, v in read(store, "IWM: high volatility.", "SMALL_CAP")]
    assert got == [("volatility_level", "supported")]


def test_an_inferred_subject_never_yields_a_contradiction(store):
    text = "Profit-taking after a 7% 5-session surge."
    assert statuses(store, text, "ENERGY", certain=True)[0][2] == "contradicted"  # ENERGY's own line: +2.11%
    got = statuses(store, text, "ENERGY", certain=False)  # a portfolio-level sentence of a several-holding decision
    assert got[0][2] == "not_verifiable"


def test_set_subjects_are_not_one_option(store):
    text = "SPY base at 0.5%; selected holdings exceed this threshold with positive recent returns."
    assert [s for s in statuses(store, text, "ENERGY") if s[0] == "momentum"] == []


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("XLV: shallowest drawdown among sectors.", "supported"),  # -2.0% is the least negative
        ("XLV: deepest drawdown among sectors.", "contradicted"),
        ("XLK: deepest drawdown among sectors.", "supported"),  # -13.6%
        ("XLK: shallowest drawdown among sectors.", "contradicted"),
    ],
)
def test_a_shallow_drawdown_is_the_least_negative(text, status):
    when = close_time(date(2026, 7, 17))
    dd = {
        "HEALTHCARE": -0.020,
        "UTILITIES": -0.031,
        "FINANCIALS": -0.024,
        "CONSUMER_STAPLES": -0.045,
        "TECHNOLOGY": -0.136,
        "ENERGY": -0.060,
    }
    rows = [FieldRow(s, "maxDrawdown63d", v, when, "capitalbench:R") for s, v in dd.items()]
    prices = pd.DataFrame([{"date": date(2026, 7, 17), "symbol": s, "close": 100.0} for s in dd])
    labels = {
        s: {"name": UNIVERSE[s][0], "sector": "us_sector", "asset_class": "equity", "group": "us_sector"} for s in dd
    }
    store = PointInTimeStore(prices, rows, benchmark="SP500", labels=labels)
    got = [(c.assertions[0].rule, v.status) for c, v in read(store, text)]
    assert ("ranking", status) in got


@pytest.mark.parametrize(
    ("text", "rank_status", "rank_text"),
    [
        # a superlative said of a figure is a claim of its own: supported when the figure AND the rank hold (OIL's 21s
        # return is the highest); the figure keeps its own verdict (these figures all hold)
        ("OIL 21-session return 28.6% (highest)", "supported", "highest"),
        ("OIL 21-session return 28.6%, highest in the universe", "supported", "highest in the universe"),
        (
            "Healthcare 21-session return 6.01%, among the highest in the universe",
            "supported",
            "highest in the universe",
        ),  # 2nd of 12
        # the figure holds, the rank does not: a gap when no set is written (which set is meant is not certain), a
        # contradiction when the whole set is written (the measure is the figure's own field)
        ("Healthcare 21-session return 6.01% (highest)", "not_verifiable", "highest"),
        ("Healthcare 21-session return 6.01%, best in the universe", "contradicted", "best in the universe"),
        # a named set written whole is a set written too (FINANCIALS is second of the sectors on 21 sessions)
        ("Financials 21-session return 4.82%, best among sectors", "contradicted", "best among sectors"),
        ("Healthcare 21-session return 6.01%, best among sectors", "supported", "best among sectors"),
        # a scope no definition resolves, or a superlative said of another measure
        ("OIL 21-session return 28.6%, highest in its cluster", "not_verifiable", "highest in its cluster"),
        ("Utilities 5-session return 2.48%, top safety ranks", "not_verifiable", "top"),
        # "best" says better, not higher: on a risk measure its order is not certain
        ("AGG 21-day volatility 4.31%, best in the universe", "not_verifiable", "best in the universe"),
        ("AGG 21-day volatility 4.31%, lowest in the universe", "supported", "lowest in the universe"),
    ],
)
def test_a_superlative_said_of_a_figure_must_hold_too(store, text, rank_status, rank_text):
    got = [(c.text, v.status, c.unread is not None) for c, v in read(store, text)]
    assert got[0][1:] == ("supported", False)  # the figure, on its own
    assert got[1:] == [(rank_text, rank_status, True)]


def test_a_superlative_is_never_checked_on_a_figure_that_does_not_hold(store):
    # OIL's 21s return is the highest, but 12.0% is not its figure: the figure is contradicted, its rank is a gap
    got = [(c.unread is not None, v.status) for c, v in read(store, "OIL 21-session return 12.0% (highest)")]
    assert got == [(False, "contradicted"), (True, "not_verifiable")]


def test_a_superlative_said_of_another_figure_is_not_this_ones(store):
    # "(highest)" follows OIL's 21s figure, not its 5s one: the 5s figure stands on its own
    got = [
        (c.assertions[0].field, c.unread is not None, v.status)
        for c, v in read(store, "OIL 5-session return 10.27% and 21-session return 28.6% (highest)")
    ]
    assert got == [
        ("return5d", False, "supported"),
        ("return21d", False, "supported"),
        ("return21d", True, "supported"),
    ]


@pytest.mark.parametrize(
    ("text", "field", "stated"),
    [
        ("Healthcare had a 3.12% return over the last 5 days.", "return5d", 0.0312),
        ("Healthcare had a 6.01% gain over the past 21 sessions.", "return21d", 0.0601),
        ("Technology had a 7.76% loss over the past 21 sessions.", "return21d", -0.0776),
        ("Utilities beta to SPY was 0.35.", "beta", 0.35),
    ],
)
def test_a_measure_written_around_its_figure(store, text, field, stated):
    [(claim, verdict)] = read(store, text)
    assert (claim.assertions[0].field, verdict.status) == (field, "supported")
    assert claim.assertions[0].stated == pytest.approx(stated)


@pytest.fixture(scope="module")
def ranked_store() -> PointInTimeStore:
    """The quality-evidence table's percentile ranks: OIL first, TECHNOLOGY last."""
    when = close_time(date(2026, 7, 17))
    order = [
        "TECHNOLOGY",
        "SEMICONDUCTORS",
        "CONSUMER_STAPLES",
        "FINANCIALS",
        "SMALL_CAP",
        "MID_CAP",
        "UTILITIES",
        "HEALTHCARE",
        "ENERGY",
        "OIL",
    ]
    rows = [FieldRow(s, "priorActiveRank", i / (len(order) - 1), when, "capitalbench:R") for i, s in enumerate(order)]
    rows += [FieldRow(s, "correlation63d", 0.9 - i / 10, when, "capitalbench:R") for i, s in enumerate(order)]
    prices = pd.DataFrame([{"date": date(2026, 7, 17), "symbol": s, "close": 100.0} for s in order])
    return PointInTimeStore(prices, rows, benchmark="SP500", labels={s: {"name": UNIVERSE[s][0]} for s in order})


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("Crude has a high prior active rank.", "supported"),
        ("Technology: weak prior active rank, no trend to follow.", "supported"),
        ("Crude: low correlation to SPY.", "supported"),
        # the middle third: the words draw no line, so nothing is refuted
        ("Mid caps have a high prior active rank.", "not_verifiable"),
        ("Technology has a high prior active rank.", "not_verifiable"),
    ],
)
def test_a_standing_said_in_words_is_checked_in_thirds(ranked_store, text, status):
    got = read(ranked_store, text)
    assert [(c.assertions[0].rule, v.status) for c, v in got] == [("standing", status)]


def test_a_correlation_to_something_else_is_not_the_tables(ranked_store):
    assert read(ranked_store, "Crude offers low correlation to tech.") == []


def test_exclusivity_is_a_claim_about_the_others_too(store):
    # OIL's 21s return is positive, but so are others': "only" is not supported on OIL's figure alone
    [(figure, shown), (only, verdict)] = read(
        store, "Crude is the only option with a positive 21-session return (+28.6%)."
    )
    assert figure.unread is None and shown.status == "supported"  # the figure itself holds
    assert only.text == "only" and verdict.status == "not_verifiable" and "only" in verdict.reason


def test_only_before_a_figure_means_merely(store):
    [(_, verdict)] = read(store, "Crude 21-session return was only 28.6%.")
    assert verdict.status == "supported"


def test_breadth_is_the_markets_state_whatever_option_the_line_is_about():
    """'34.78% of assets were positive over 5 sessions' in OIL's line: the benchmark's row holds the market's state."""
    when = close_time(date(2026, 7, 17))
    rows = [
        FieldRow("SP500", "positiveAssetShare5d", 0.3478, when, "capitalbench:R"),
        FieldRow("SP500", "positiveAssetShare21d", 0.4928, when, "capitalbench:R"),
        FieldRow("OIL", "return5d", 0.1027, when, "capitalbench:R"),
    ]
    prices = pd.DataFrame([{"date": date(2026, 7, 17), "symbol": s, "close": 100.0} for s in ("SP500", "OIL")])
    market = PointInTimeStore(prices, rows, benchmark="SP500")
    got = read(
        market, "Only 34.78% of assets were positive over the last 5 sessions versus 49.28% over 21.", default="OIL"
    )
    assert [(c.assertions[0].field, v.status) for c, v in got] == [
        ("positiveAssetShare5d", "supported"),
        ("positiveAssetShare", "supported"),
    ]  # "over 21": the window, unit unsaid
    [(_, wrong)] = read(market, "Only 30.43% of assets were positive over the last 5 sessions.", default="OIL")
    assert wrong.status != "supported"


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("Crude is down 10.27% over 5 sessions.", "contradicted"),  # OIL +10.27%: the word says the way
        ("Crude is up 10.27% over 5 sessions.", "supported"),
        ("Crude moved 10.27% over 5 sessions.", "supported"),  # no sign written: the magnitude is the claim
    ],
)
def test_a_word_right_before_a_figure_signs_it(store, text, status):
    assert [v.status for _, v in read(store, text)] == [status]


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("Technology posted a 4.95% lag versus SPY over the last 5 sessions.", True),
        ("Technology posted a 4.95% edge over SPY over the last 5 sessions.", False),
    ],
)
def test_a_gap_to_the_benchmark_is_the_active_return(store, text, ok):
    [(claim, verdict)] = read(store, text)
    assert claim.assertions[0].rule == "relative_return" and (verdict.status == "supported") == ok


def test_a_superlative_with_its_measure_named_again(store):
    [(_, shown), (rank, verdict)] = read(
        store, "OIL 21-session return 28.6%, the highest reading of any option in the universe."
    )
    assert shown.status == "supported" and rank.text == "highest reading of any option in the universe"
    assert verdict.status == "supported" and "ranks 1 of" in verdict.reason


@pytest.mark.parametrize(
    ("text", "default", "expected"),
    [
        # a window written in words is read with certainty: the wrong sign is a contradiction
        ("Up 9.50% in five sessions.", "HEALTHCARE", "contradicted"),
        ("Up 3.12% in five sessions.", "HEALTHCARE", "supported"),
        # the words of an earlier figure before 'yet' / 'but' are not this figure's
        ("XLV gained 6.01% over 21 sessions yet fell 3.12% over 5 sessions.", None, "contradicted"),
        # a predicate after the figure says what it means, not what it is
        ("HEALTHCARE 5-session return of -3.12% shows a laggard.", None, "contradicted"),
        # a capitalised verb opening the clause is not a plural subject
        ("Trades up 9.50% over 5 sessions.", "HEALTHCARE", "contradicted"),
    ],
)
def test_clauses_read_in_full_may_contradict(store, text, default, expected):
    got = [v.status for c, v in read(store, text, default) if c.assertions[0].rule != "briefing"]
    assert got[-1] == expected


@pytest.mark.parametrize(
    ("text", "default"),
    [
        # a number word that is not a window, or a plural subject, still stops a contradiction
        ("Up 9.50%, one of five sectors over 5 sessions.", "HEALTHCARE"),
        ("Sectors rose 9.50% over 5 sessions.", "HEALTHCARE"),
        ("HEALTHCARE 5-session return of -3.12% versus three defensives.", None),
    ],
)
def test_clauses_not_read_in_full_never_contradict(store, text, default):
    assert "contradicted" not in [v.status for _, v in read(store, text, default)]


def test_a_window_written_with_an_earlier_figure_is_inferred_for_the_next(store):
    # "returned 2.49% over three sessions and beat SPY by 3.01% across five": the window is the first figure's
    # (a false accusation found on the real rounds); taken for the second, it is inferred and never contradicts
    got = [
        (c.assertions[0].inferred, v.status)
        for c, v in read(store, "XLV returned 6.01% over 21 sessions and beat SPY by 9.99% across five.")
    ]
    assert got == [(False, "supported"), (True, "not_verifiable")]


def test_a_table_cell_is_a_clause_of_its_own():
    from ledgers.reading._certainty import clause_bounds

    text = "QUAL 0.689 | prior rank .866 | pullback .448"
    i = text.index(".866")
    assert text[slice(*clause_bounds(text, (i, i + 4)))].strip() == "prior rank .866"


@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("QUAL 0.689", "qualityEvidenceScore"),
        ("Quality .578; recent pullback rank .030", "qualityEvidenceScore"),
        ("Quality income with a 3.5% yield", None),  # a percentage is never the 0..1 score
        ("quality 3.5%", None),
        ("Credit quality is strong at 0.6", None),
    ],
)
def test_quality_alone_names_the_score_only_before_a_score(text, field):
    claims = extract_claims(text, DECIDED, "FINANCIALS", UNIVERSE, benchmark="SP500")
    assert (claims[0].assertions[0].field if claims else None) == field


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a window whose unit is left to the sentence's earlier one: read, inferred (support only)
        ("XLV returned 6.01% over 21 sessions and was 4.07% ahead of SPY over five.", ["supported", "supported"]),
        ("XLV returned 6.01% over 21 sessions and rose 3.12% over the last five.", ["supported", "supported"]),
        ("XLV returned 6.01% over 21 sessions and was 9.99% ahead of SPY over five.", ["supported", "not_verifiable"]),
    ],
)
def test_a_window_with_its_unit_left_to_the_sentence(store, text, expected):
    got = [(c.assertions[0].inferred, v.status) for c, v in read(store, text)]
    assert [s for _, s in got] == expected and got[1][0]


def test_no_unit_written_no_window(store):
    [(claim, _)] = read(store, "XLV up 3.12% over five.")
    assert claim.assertions[0].field is None


@pytest.mark.parametrize(
    ("text", "certain"),
    [
        # which measure a superlative ranks on must be written in its clause or its cell
        ("Quality score 0.55: top sector, #3 in the universe.", False),
        ("+4.07% active 5d, best sector", True),
    ],
)
def test_a_superlative_names_its_measure_to_be_read_with_certainty(text, certain):
    claims = extract_claims(text, DECIDED, "HEALTHCARE", UNIVERSE, benchmark="SP500")
    ranking = [c for c in claims if c.assertions[0].rule == "ranking"]
    assert ranking and (ranking[0].doubt is None) is certain, [(c.text, c.doubt) for c in ranking]


@pytest.mark.parametrize(
    ("text", "rank_status"),
    [
        # the set a superlative ranks in, however it is said (HEALTHCARE's 21s return is the highest of the sectors)
        ("XLV 21-session return of 6.01% is the best of any sector, but it gave back more since.", "supported"),
        ("XLV 21-session return of 6.01% is the highest among the 6 sectors.", "supported"),
        ("XLV 21-session return of 6.01% is the highest in the sector group and a relief.", "supported"),
        ("XLV 21-session trend +6.01%, the best trend of any sector.", "supported"),
        # a bare window and figure is that window's return
        ("XLV +6.01% 21s, top of the sector group.", "supported"),
        ("XLU +1.65% 21s, top of the sector group.", "contradicted"),  # third of the sectors: the set is written
    ],
)
def test_a_superlative_scope_said_many_ways(store, text, rank_status):
    got = [v.status for c, v in read(store, text) if c.unread is not None]
    assert got == [rank_status]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the figure after a measure and its set, and the same measure said of the next options (inferred: support only)
        (
            "XLV has the highest 21-session volatility among sectors (16.50%), and XLU (16.13%).",
            [("volatility21d", True, "supported"), ("volatility21d", True, "supported")],
        ),
        (
            "XLV 21-session volatility 16.50%, ahead of XLU (19.99%).",
            [("volatility21d", False, "supported"), ("volatility21d", True, "not_verifiable")],
        ),
        # a sign word with 'another' between it and the figure
        ("XLK fell another 5.90% over 5 sessions.", [("return5d", False, "supported")]),
    ],
)
def test_figures_that_carry_a_measure_or_sign_said_before(store, text, expected):
    got = [
        (c.assertions[0].field, c.assertions[0].inferred, v.status)
        for c, v in read(store, text)
        if c.unread is None and c.assertions[0].rule != "ranking"
    ]
    assert got[-len(expected) :] == expected


@pytest.mark.parametrize(
    ("text", "rank_status"),
    [
        # 21s returns: OIL 28.6%, HEALTHCARE 6.01%, FINANCIALS 4.82%, SMALL_CAP 3.64% ...
        ("XLV 21-session return 6.01%, second-highest in the universe.", "supported"),
        ("XLV 21-session return 6.01%, #2 in the universe.", "supported"),
        ("XLF 21-session return 4.82%, 3rd-highest in the universe.", "supported"),
        ("XLF 21-session return 4.82%, top-5 of the universe.", "supported"),
        ("XLV 21-session return 6.01%, third-highest in the universe.", "not_verifiable"),  # second, not third
        ("XLV 21-session return 6.01%, #3 in the universe.", "not_verifiable"),
        ("OIL 21-session return 28.6%, second-highest in the universe.", "not_verifiable"),  # first, not second
        ("XLV 21-session volatility 16.50%, #2 in the universe.", "not_verifiable"),  # a number never ranks a risk
    ],
)
def test_a_superlative_at_a_place(store, text, rank_status):
    assert [v.status for c, v in read(store, text) if c.unread is not None] == [rank_status]


def test_a_superlative_with_no_measure_beside_another_measure_is_never_a_contradiction(store):
    # "best sector" names no measure: by default a return (XLK's is the lowest), but the cell names volatility
    got = [
        v.status
        for c, v in read(store, "TECHNOLOGY: vol 25.00% (best sector), beta 1.30.")
        if c.assertions[0].rule == "ranking"
    ]
    assert "contradicted" not in got
    got = [
        v.status
        for c, v in read(store, "TECHNOLOGY: the best sector over 5 sessions.")
        if c.assertions[0].rule == "ranking"
    ]
    assert got == ["contradicted"]  # no other measure in its cell: the return it ranks on is certain


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("SMH at 2.20, a high-beta bet.", ["supported"]),  # a plain decimal: SMH's beta, the field it equals
        (
            "SMH at 2.27, a high-beta bet.",
            ["not_verifiable"],
        ),  # equals none of its fields: a gap, never a contradiction
    ],
)
def test_a_plain_decimal_no_word_binds(store, text, expected):
    assert [v.status for c, v in read(store, text) if c.assertions[0].rule == "any_field"] == expected


def test_a_figure_right_after_a_reference_is_the_references_own(store):
    got = [
        (c.assertions[0].symbol, v.status) for c, v in read(store, "XLF is second, behind XLV +6.01%.", "FINANCIALS")
    ]
    assert ("HEALTHCARE", "supported") in got


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("XLV: between 6 and 7 percent over 21 sessions.", []),  # a range is no single value
        ("XLV +6.01% and XLU +1.65% over 21 sessions.", ["supported", "supported"]),  # a list, not a range
    ],
)
def test_ranges_and_lists(store, text, expected):
    assert [v.status for c, v in read(store, text) if c.assertions[0].rule != "ranking"] == expected


def test_a_figure_of_another_window_is_neither_supported_nor_contradicted(store):
    # 6.01% is XLV's 21-session return, written as its 5-session one: a mislabel or a false figure, not certain
    assert [v.status for c, v in read(store, "XLV 5-session return 6.01%.")] == ["not_verifiable"]
    assert [v.status for c, v in read(store, "XLV 5-session return 3.12%.")] == ["supported"]


def test_the_prior_column_in_short_is_read_as_the_prior_active_return():
    when = close_time(date(2026, 7, 17))
    rows = [
        FieldRow("HEALTHCARE", "priorActiveReturn16d", 0.0441, when, "capitalbench:R"),
        FieldRow("HEALTHCARE", "return5d", 0.0312, when, "capitalbench:R"),
    ]
    prices = pd.DataFrame([{"date": date(2026, 7, 17), "symbol": "HEALTHCARE", "close": 100.0}])
    small = PointInTimeStore(prices, rows, benchmark="SP500", labels={})
    assert [v.status for c, v in read(small, "XLV prior 16s +4.41pp.")] == ["supported"]
    # the short name says the column, not how it is measured: a mismatch is a gap, never a contradiction
    assert [v.status for c, v in read(small, "XLV prior 16s +9.41pp.")] == ["not_verifiable"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("XLK gave back 5.90% over 5 sessions.", ["supported"]),  # -5.90%: the words carry the sign
        ("XLV gave back 3.12% over 5 sessions.", ["contradicted"]),  # XLV rose 3.12%
    ],
)
def test_words_that_give_a_figure_its_sign(store, text, expected):
    assert [v.status for c, v in read(store, text)] == expected


@pytest.mark.parametrize(
    ("text", "rank_status"),
    [
        # 5-session returns of the sectors: HEALTHCARE 3.12%, UTILITIES 2.48%, ENERGY 2.11%, ..., TECHNOLOGY -5.90%
        ("XLK is the weakest U.S. sector over 5 sessions at -5.90%.", "supported"),  # "U.S." ends no clause
        ("XLV is the best sector over 5 sessions at +3.12%.", "supported"),
        (
            "XLU is the best sector over 5 sessions at +2.48%.",
            "contradicted",
        ),  # second; its measure and set are written
    ],
)
def test_a_superlative_before_its_figure_is_a_claim_of_its_own(store, text, rank_status):
    got = read(store, text)
    assert [v.status for c, v in got if c.unread is not None or c.assertions[0].rule == "ranking"] == [rank_status]
    assert [v.status for c, v in got if c.unread is None and c.assertions[0].rule != "ranking"] == ["supported"]


def test_a_row_of_plain_decimals_in_percent(store):
    # a CSV row pasted in the text: no unit, no header in the sentence; each value one of the option's own fields
    assert [v.status for c, v in read(store, "XLV,3.12,6.01", "HEALTHCARE")] == ["supported", "supported"]
    assert "contradicted" not in [v.status for c, v in read(store, "XLV,3.21,6.10", "HEALTHCARE")]


@pytest.mark.parametrize(
    ("text", "rank_status"),
    [
        # 21s returns: OIL 28.6%, HEALTHCARE 6.01%, FINANCIALS 4.82%, ...
        ("XLF 21-session return 4.82%, best in the universe.", "contradicted"),  # the whole set written: third
        ("XLF 21-session return 4.82%, best of all options.", "contradicted"),
        ("XLF 21-session return 4.82% (best).", "not_verifiable"),  # no set written: which one is meant is not certain
        # a named set written whole, every definition of it agreeing: the same as the universe written (second)
        ("XLF 21-session return 4.82%, best among sectors.", "contradicted"),
    ],
)
def test_a_superlative_beside_a_figure_with_the_whole_set_written(store, text, rank_status):
    assert [v.status for c, v in read(store, text) if c.unread is not None] == [rank_status]


def test_a_superlative_after_one_figure_is_not_said_of_the_next(store):
    # "highest in the universe" follows 6.01%; the beta after it is a figure of its own
    got = [
        (c.assertions[0].field, c.unread is None, v.status)
        for c, v in read(store, "XLV 21-session return 6.01% highest in the universe with beta 0.40.")
    ]
    assert ("beta", True, "supported") in got


def test_a_key_that_names_another_measure_is_not_read_as_a_return(store):
    """Structure before prose: "share_of_up_days_30d: 68%" (a key no abbreviation spells whole) names the up-day
    share, not the 30-day return its window alone would say; the reader doubts, so the mismatch is never a
    contradiction. "up_days_30d: 68%", which the key reader spells, is read as the up-day share itself."""
    claims = extract_claims("share_of_up_days_30d: 68%", DECIDED, "HEALTHCARE", UNIVERSE, benchmark="SP500")
    assert claims and all(c.doubt and "share_of_up_days_30d" in c.doubt for c in claims)
    verdicts = verify_many(claims, store, VerifierConfig(benchmark="SP500"))
    assert "contradicted" not in {v.status for v in verdicts}
    spelt = extract_claims("up_days_30d: 68%", DECIDED, "HEALTHCARE", UNIVERSE, benchmark="SP500")
    assert [a.field for c in spelt for a in c.assertions] == ["upDayShare30d"] and spelt[0].doubt is None


def test_a_key_that_opens_with_a_ticker_is_that_option_s_only_when_the_universe_has_it():
    """'spy_off_high: -0.76%': the key's first part is the option, the rest its field. A first part that is no
    option of the universe ('xyz_off_high') leaves the figure's owner unknown: a doubt, never a contradiction."""
    spy = extract_claims("spy_off_high: -0.76%", DECIDED, "HEALTHCARE", UNIVERSE, benchmark="SP500")
    assert [(c.symbol, c.assertions[0].field, c.doubt) for c in spy] == [("SP500", "distance52wHigh", None)]
    other = extract_claims("xyz_off_high: -0.76%", DECIDED, "HEALTHCARE", UNIVERSE, benchmark="SP500")
    assert other and all(c.doubt for c in other)
    # a known word as the first part ("max", "top") is no option either: the key's owner is not certain
    word = extract_claims("max_vol: 20.00%", DECIDED, "ENERGY", UNIVERSE, benchmark="SP500")
    assert word and all(c.doubt and "opens with 'max'" in c.doubt for c in word)


def test_a_superlative_fused_to_the_next_word_ranks_nothing(store):
    """ "momentum are the highest-conviction drivers": the superlative belongs to "conviction", not to momentum."""
    claims = extract_claims(
        "Recent sector momentum and earnings are the highest-conviction drivers.",
        DECIDED,
        "OIL",
        UNIVERSE,
        benchmark="SP500",
    )
    assert not [c for c in claims if c.assertions and c.assertions[0].rule == "ranking"]


def test_most_negative_orders_like_lowest():
    from ledgers.reading._figure_rank import figure_rank

    sentence = "beta of -0.322, the most negative of the eleven sectors"
    rank = figure_rank(sentence, (8, 14), [])
    assert rank is not None and (rank.word, rank.polarity, rank.scope) == ("lowest", -1, "group:sector")


@pytest.mark.parametrize(
    "text", ["Hedge with a negative 63-session SPY beta of -1.0.", "A negative SPY beta of -1.0 hedges the book."]
)
def test_the_benchmark_named_before_beta_is_what_it_is_taken_against(store, text):
    """ "negative SPY beta -1.0" said of OIL is OIL's beta to SPY, not SPY's beta (issue 29, kind 1)."""
    claims = extract_claims(text, DECIDED, "OIL", UNIVERSE, benchmark="SP500")
    numeric = [c for c in claims if c.assertions[0].rule == "exact_numeric"]
    assert numeric and {c.assertions[0].symbol for c in numeric} == {"OIL"}  # read so, not found by elimination
    verdicts = verify_many(numeric, store, VerifierConfig(benchmark="SP500"))
    assert all(v.status == "supported" and v.reason.startswith("OIL beta63d") for v in verdicts), verdicts


def test_a_key_that_opens_with_a_ticker_names_its_subject(store):
    """Structure before prose: "spy_5d: -0.95%" in another option's sheet is SPY's 5-day return."""
    claims = extract_claims("market:\n  spy_5d: -0.95%", DECIDED, "OIL", UNIVERSE, benchmark="SP500")
    numeric = [c for c in claims if c.assertions[0].rule == "exact_numeric"]
    assert numeric and {c.assertions[0].symbol for c in numeric} == {"SP500"}
    verdicts = verify_many(numeric, store, VerifierConfig(benchmark="SP500"))
    assert [v.status for v in verdicts] == ["supported"], verdicts


def _store_with(field: str, values: dict[str, float]) -> PointInTimeStore:
    when = close_time(date(2026, 7, 17))
    rows = [FieldRow(s, field, v, when, "capitalbench:R") for s, v in values.items()]
    prices = pd.DataFrame([{"date": date(2026, 7, 17), "symbol": s, "close": 100.0} for s in values])
    labels = {s: {"name": UNIVERSE[s][0], "sector": LABELS[s][0], "asset_class": LABELS[s][1]} for s in values}
    return PointInTimeStore(prices, rows, benchmark="SP500", labels=labels)


DRAWDOWNS = {  # maxDrawdown30d: bonds crowd the top, the market is mid-table
    "AGGREGATE_BONDS": -0.004,
    "UTILITIES": -0.010,
    "CONSUMER_STAPLES": -0.012,
    "EQUAL_WEIGHT_SP500": -0.014,
    "HEALTHCARE": -0.030,
    "SP500": -0.031,
    "FINANCIALS": -0.034,
    "MID_CAP": -0.040,
    "ENERGY": -0.060,
    "SMALL_CAP": -0.070,
    "TECHNOLOGY": -0.136,
    "SEMICONDUCTORS": -0.180,
}


@pytest.mark.parametrize(
    ("text", "holding", "status"),
    [
        ("Defensive sleeve with low drawdown.", "HEALTHCARE", "supported"),  # upper half, shallower than SPY's
        ("Comparatively contained drawdown.", "UTILITIES", "supported"),  # the top third
        ("Shallow drawdown and steady income.", "MID_CAP", "not_verifiable"),  # deeper than SPY's: no line to refute
        ("Shallow drawdown and steady income.", "SEMICONDUCTORS", "not_verifiable"),  # the words draw no line
        ("Rebound setup after a deep drawdown.", "SEMICONDUCTORS", "supported"),  # the bottom third
    ],
)
def test_a_drawdown_level_is_where_the_option_stands_never_a_contradiction(text, holding, status):
    """'Low' / 'shallow' / 'contained' drawdown: the top third of the options, or (an equity fund among bonds) the
    upper half and shallower than the market's; 'deep' the bottom third. Anything else is not verifiable."""
    store = _store_with("maxDrawdown30d", DRAWDOWNS)
    got = [(c.assertions[0].rule, v.status) for c, v in read(store, text, holding)]
    assert ("standing", status) in got and ("standing", "contradicted") not in got


def test_drawdown_risk_is_a_forecast_not_a_level():
    store = _store_with("maxDrawdown30d", DRAWDOWNS)
    assert not [c for c, _ in read(store, "Limited drawdown risk if rates rise.", "SEMICONDUCTORS")]


def test_a_high_up_day_share_is_the_top_third_whatever_the_market_did():
    shares = {s: 0.40 + 0.02 * i for i, s in enumerate(DRAWDOWNS)}  # SEMICONDUCTORS highest, SP500 at 0.50
    store = _store_with("upDayShare30d", shares)
    assert [v.status for _, v in read(store, "High up-day share.", "SEMICONDUCTORS")] == ["supported"]
    assert [v.status for _, v in read(store, "High up-day share.", "FINANCIALS")] == ["not_verifiable"]  # above SPY


RETURNS_30D = {"SP500": 0.0021, "HEALTHCARE": 0.0601, "TECHNOLOGY": -0.0776, "SEMICONDUCTORS": -0.1784, "ENERGY": 0.0}


@pytest.mark.parametrize(
    ("text", "holding", "status"),
    [
        ("Recent outperformance and thematic demand.", "HEALTHCARE", "supported"),  # 30d +6.01% vs SPY +0.21%
        ("Recent outperformance and thematic demand.", "TECHNOLOGY", "contradicted"),  # -7.76% vs +0.21%
        ("Persistent underperformance weighs on the name.", "SEMICONDUCTORS", "supported"),
    ],
)
def test_bare_outperformance_is_against_the_benchmark(text, holding, status):
    store = _store_with("return30d", RETURNS_30D)
    got = [(c.assertions[0].rule, c.symbol, v.status) for c, v in read(store, text, holding)]
    assert ("relative_momentum", holding, status) in got


def test_outperformance_of_another_set_is_not_read_as_against_the_benchmark():
    store = _store_with("return30d", RETURNS_30D)
    got = [c.assertions[0].rule for c, _ in read(store, "Recent outperformance vs tech names.", "HEALTHCARE")]
    assert "relative_momentum" not in got


@pytest.mark.parametrize(
    ("text", "holding", "status"),
    [
        ("Tech has the second-lowest 21-session return in the universe.", "TECHNOLOGY", "supported"),
        ("Semis have the second-lowest 21-session return in the universe.", "SEMICONDUCTORS", "not_verifiable"),
        ("Utilities have the third highest 21-session return in the universe.", "UTILITIES", "not_verifiable"),
    ],
)
def test_an_ordinal_before_a_superlative_is_that_place_never_a_contradiction(store, text, holding, status):
    """'The second-lowest': supported at exactly that place; first, or further down, is not verifiable (a tie or
    another set may be meant), never contradicted."""
    got = [(rule, sym, st) for rule, sym, st in statuses(store, text, holding) if rule == "ranking"]
    assert got == [("ranking", holding, status)]


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("worst_21s: SMH at -17.84%", "supported"),  # the lowest 21-session return of the universe
        ("worst_21s: XLK at -7.76%", "not_verifiable"),  # second lowest: the sheet's set is not written
    ],
)
def test_a_ranking_key_is_checked_on_the_option_its_value_names(store, text, status):
    got = [(rule, st) for rule, _, st in statuses(store, text, "HEALTHCARE") if rule == "ranking"]
    assert got == [("ranking", status)]


@pytest.mark.parametrize(
    ("text", "status"),
    [
        # the superlative before its figure, with only the set and a window between: ranked in that set
        ("Financials are the best sector over 21 sessions at 4.82%.", ["contradicted"]),
        # another word between may be the measure it ranks on: not read as a rank of the figure
        ("Financials are the best breadth-leading sector over 21 sessions at 4.82%.", []),
    ],
)
def test_a_superlative_before_its_figure_ranks_in_the_set_written_between(store, text, status):
    got = [(v.status, c.assertions[0].rule) for c, v in read(store, text)]
    assert ("supported", "exact_numeric") in got  # the figure holds
    assert [st for st, rule in got if rule != "exact_numeric"] == status


@pytest.mark.parametrize(
    ("text", "status"),
    [
        # the window written after the superlative is the one it ranks on (ENERGY: third on 5 sessions, fifth on 21)
        ("XLE is the best sector over 21 sessions.", "contradicted"),
        ("XLV is the best sector over the past 5 sessions.", "supported"),
        # a calendar window the table does not show is read as its session window: it supports, never refutes
        ("XLV is the best sector on the month.", "supported"),
        ("XLF is the best sector on the month.", "not_verifiable"),  # second on 21 sessions
    ],
)
def test_a_superlative_ranks_on_the_window_written_after_it(store, text, status):
    assert [v.status for c, v in read(store, text) if c.assertions[0].rule == "ranking"] == [status]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # figures paired in order with the windows of a slash list, before or after them
        ("XLV 5s/21s: +3.12%/+6.01%.", [("return5d", "supported"), ("return21d", "supported")]),
        ("XLV +3.12%/+6.01% 5s/21s.", [("return5d", "supported"), ("return21d", "supported")]),
        # swapped: the first refuted; the second equals the other window written beside it: a gap, never a guess
        ("XLV 5s/21s: +6.01%/+3.12%.", [("return5d", "contradicted"), ("return21d", "not_verifiable")]),
    ],
)
def test_figures_of_a_slash_list_take_the_windows_of_its_slash_list_in_order(store, text, expected):
    got = [(c.assertions[0].field, v.status) for c, v in read(store, text, "HEALTHCARE")]
    assert got == expected


@pytest.mark.parametrize(
    "text",
    [
        "Financials supported by a steep 2s/30s curve (4.18%/5.06%).",  # yield tenors, not sessions
        "XLV vol 5s/21s: 16.50%/17.00%.",  # another measure: no return pair
    ],
)
def test_a_slash_list_about_another_measure_is_not_paired_as_returns(store, text):
    got = [(c.assertions[0].field, v.status) for c, v in read(store, text, "HEALTHCARE")]
    assert ("return5d", "supported") not in got and all(st != "contradicted" for _, st in got)
