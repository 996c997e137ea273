"""Claim-ledger models: claims, what a claim asserts, verifications, cross-checks and verifier thresholds."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field

Status = Literal["supported", "not_verifiable", "contradicted"]
STATUSES: tuple[Status, ...] = ("supported", "not_verifiable", "contradicted")

Flag = Literal["unknown_field", "field_not_in_snapshot", "misquoted_value", "status_disagreement", "lookahead"]

Op = Literal["eq", "gt", "lt"]
"""How a stated figure compares with the recorded one: equal to it, above it, below it."""

RuleName = Literal[
    "exact_numeric",  # a field value as stated ("RSI at 72", "P/E of 28.5", "+5.6% 7d")
    "threshold",  # a field above/below a stated number ("RSI above 70", "P/E under 20")
    "derived_return",  # return over N days computed from closes ("up 12% over 10 days")
    "relative_return",  # return minus the benchmark's over the same horizon ("+9.8% vs SPY")
    "return_or_relative",  # "relative strength (+2.4% 7d)": the plain or the relative return
    "distance_52w_high",  # close / week52High - 1 ("8% below its 52-week high")
    "distance_52w_low",  # close / week52Low - 1 ("30% above its 52-week low")
    "distance_sma",  # close / smaN - 1 ("3% above its 200-day average")
    "analyst_upside",  # analystTargetPrice / close - 1 ("15% upside to the analyst target")
    "sma_position",  # close above/below smaN, with a dead band
    "ma_cross",  # sma50 above/below sma200 (golden/death cross)
    "macd_signal",  # macd above/below macdSignal
    "momentum",  # sign of return20d / return30d (or the named horizon)
    "relative_momentum",  # return minus benchmark return, sign ("relative strength", "outperformed")
    "rsi_state",  # overbought (RSI >= 70) / oversold (RSI <= 30)
    "near_52w_extreme",  # at / near the 52-week high or low
    "profitability",  # strong / weak profitability
    "valuation",  # cheap / expensive
    "growth",  # strong / weak earnings or revenue growth
    "dividend_yield",  # high dividend yield
    "beta_level",  # low / high beta
    "volatility_level",  # low / high volatility
    "standing",  # low / high on a measure the round ranks by (quality score, prior active rank, correlation)
    "upside_direction",  # analyst target above / below the close
    "consensus",  # analyst consensus from rating counts
    "categorical",  # sector / industry label
    "any_return",  # "SMH -7.3%": a move next to a name, no horizon: supported when one return column matches
    "any_field",  # a distinctive figure no word binds: supported when it equals one of the subject's fields
    "compare",  # the same field of two symbols (structured assertions: above / below relative_to)
    "sign",  # "negative beta", "positive active returns": the sign of the measure's windows
    "ranking",  # superlatives and ranks against the cross-section ("strongest 30d performer", "top three")
    "forecast",  # forecasts and opinions: never verifiable
    "probability",  # the model's own probability or confidence ("60% chance"): never verifiable
    "plan",  # thresholds, exits, stops, caps and weights ("exit if XLE falls 5%"): never verifiable
    "briefing",  # a number that is not a point-in-time field (briefing / context figure)
    "unrecognised",  # no checkable assertion found
]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Assertion(_Model):
    """One checkable statement inside a claim, as the parser understood it.

    ``stated`` is in the field's unit (fractions for returns); ``tolerance`` is half a unit of the
    stated precision; ``polarity`` is +1 for above/positive/strong/high/buy and -1 for the opposite.
    """

    rule: RuleName
    symbol: str | None = None
    field: str | None = None
    stated: float | None = None
    tolerance: float = 0.0
    approx: bool = False
    op: Op = "eq"
    polarity: int = 1
    window: int | None = (
        None  # trading days for derived returns; 50/200 for sma rules; a ranking's top n (0: near the top)
    )
    benchmark: str | None = None
    label: str | None = None  # categorical value or consensus label
    raw: str = ""  # the words the assertion came from
    horizons: list[str] = Field(default_factory=list)  # ranking: horizon keys written ('7D', '30D', 'short')
    bare: bool = False
    """A figure written with only its window ("5s +0.85%", "7d: +3.2%"): the measure is unsaid, so the return or the
    active return the round shows over that window may be meant (free text only)."""
    inferred: bool = False
    """Part of the assertion (its subject or its window) was inferred from the rest of the text, not written with
    it ("...and 0.97 over five": which window; a portfolio-level sentence naming no option: whose figure): a mismatch
    is then not verifiable, never a contradiction (free text only)."""
    alternatives: list[str] = Field(default_factory=list)
    """Other subjects the sentence names for this assertion (free text only): when ``symbol``'s value does not
    match, the claim may be about one of these; a mismatch is then ambiguous, never a contradiction."""


class CitedValue(_Model):
    """A value a judge quoted for a field (optional structured part of a ledger entry)."""

    field: str
    value: float | str
    symbol: str | None = None
    observed_at: AwareDatetime | None = None


class FigureRank(_Model):
    """A superlative said of a figure ("0.827 highest in table"): which way it ranks and among what."""

    word: str
    polarity: int  # +1: the highest value; -1: the lowest
    scope: str | None
    """'universe' (written, or none written: a bare "(highest)") or 'group:<peer group>' (``ledgers/peer_groups.yaml``);
    None when the set it ranks in cannot be resolved ("in the cluster", "among finalists")."""
    position: int = 1
    """Where it places the option: 1 for a plain superlative, 3 for "#3" or "third-highest"."""
    within: int = 0
    """"top-5": within the first five (0: not said)."""
    near_top: bool = False
    """"among the highest": near the top, not first (supported within the top tenth; never contradicted)."""
    start: int = 0
    end: int = 0
    """Where the superlative and its scope start and end in the text read."""
    separate: bool = False
    """The superlative is a claim of its own, apart from the figure's (its span is the superlative's); otherwise
    it is part of the figure's claim (written inside the figure's words)."""
    written: bool = False
    """The whole set is written ("best in universe", "of all 68 options", "top of the board"): a superlative that is
    then false of the figure's own field is contradicted; with no set written it is never contradicted."""


class Claim(_Model):
    """A factual claim from a rationale or a judge's ledger entry."""

    id: str
    text: str
    decided_at: AwareDatetime
    symbol: str | None = None
    cited_fields: list[str] = Field(default_factory=list)
    judge_status: Status | None = None
    judge_note: str = ""
    cited_values: list[CitedValue] = Field(default_factory=list)
    briefing_only: bool = False  # a numeric claim with no point-in-time field (set by extraction)
    assertions: list[Assertion] | None = None  # pre-parsed (extraction); None -> parsed from ``text``
    structured: bool = False  # ``assertions`` are the judge's own structured assertions (grade-v2)
    span: tuple[int, int] | None = None  # character offsets in the rationale it was extracted from
    clause: str | None = None
    """The clause the claim came from, as written (free text): what a person reviewing the verdict reads."""
    doubt: str | None = None
    """Why a contradiction of this claim cannot be concluded (``ledgers.reading._certainty``), or None when its
    clause was read with certainty; only consulted when ``clause`` is set."""
    unread: FigureRank | None = None
    """A superlative said of a figure in its clause that no assertion of the sentence checks ("0.817 (highest)",
    "+2.10%, best among sectors"), checked with the figure's assertions: supported only when the figure holds AND
    the option ranks as said on the figure's field (``ledgers.rules.rank_of_figure``), otherwise not verifiable,
    never contradicted by its rank. Written apart from the figure (``separate``) it is a claim of its own and the
    figure another; written inside the figure's words, it is part of the figure's claim."""


class Evidence(_Model):
    """A point-in-time value a verification used."""

    symbol: str
    field: str
    value: float | str
    observed_at: datetime
    source: str


class Verification(_Model):
    """The verifier's verdict on a claim, with the values used and a reason a person can check."""

    claim_id: str | None = None
    status: Status
    reason: str
    evidence: list[Evidence] = Field(default_factory=list)
    rule: str
    lookahead: bool = False
    briefing_only: bool = False
    path: Literal["structured", "text"] = "text"
    """structured: the judge's own structured assertions were checked; text: the claim's words were parsed."""


class CrossCheck(_Model):
    """A judge's ledger entry against the verifier and the snapshot the judge was shown."""

    claim_id: str | None = None
    flags: list[Flag] = Field(default_factory=list)
    verifier_status: Status
    judge_status: Status | None
    agrees: bool
    cited: int = 0  # fields the judge cited
    valid_citations: int = 0  # cited fields that exist and are in the snapshot
    details: list[str] = Field(default_factory=list)
    reasons: dict[str, str] = Field(default_factory=dict)  # flag -> why (which value, which comparison)


class VerifierConfig(_Model):
    """Every threshold the rules use (documented in ``ledgers.rules`` and docs/ledgers.md)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    relative_tolerance: float = 0.02
    approx_relative_tolerance: float = 0.05
    threshold_dead_band: float = 0.005
    ma_dead_band: float = 0.005
    macd_dead_band: float = 0.0005  # of the close
    momentum_fields: tuple[str, ...] = ("return20d", "return21d", "return30d")
    short_momentum_fields: tuple[str, ...] = ("return3d", "return5d", "return7d")  # "recent"/"short-term"
    recent_contradiction_fields: tuple[str, ...] = ("return20d", "return21d", "return30d")
    """A "recent" move is contradicted only when these longer windows disagree with it too (the month a round shows,
    as 20 or 21 sessions or 30 days: writers differ on how long "recent" is)."""
    momentum_dead_band: float = 0.005
    momentum_dominance: float = 5.0
    """Windows that disagree (or one in the dead band) still support an unscoped move when one of them is at least
    this many times larger than every other and at least ``momentum_dominance_floor``: "strong momentum" with the
    month at +23.5% and the week at -0.9%. Never a contradiction: a dominant window against the claim is not
    verifiable."""
    momentum_dominance_floor: float = 0.02
    overbought_rsi: float = 70.0
    oversold_rsi: float = 30.0
    rsi_state_band: float = 10.0  # "oversold" at RSI 30..40, "overbought" at 60..70: not verifiable
    strong_profit_margin: float = 0.15
    strong_return_on_equity: float = 0.15
    weak_profit_margin: float = 0.05
    cheap_pe: float = 15.0
    expensive_pe: float = 30.0
    sector_median_min_peers: int = 3
    valuation_dead_band: float = 0.02
    strong_growth: float = 0.10
    weak_growth: float = 0.0
    high_dividend_yield: float = 0.03
    low_dividend_yield: float = 0.01
    low_beta: float = 0.8
    high_beta: float = 1.2
    low_volatility: float = 0.15
    high_volatility: float = 0.35
    at_extreme_band: float = 0.01
    near_extreme_band: float = 0.05
    consensus_strong_buy: float = 4.5
    consensus_buy: float = 3.5
    consensus_sell: float = 2.5
    upside_dead_band: float = 0.01
    price_scale_ratio: float = 5.0
    ranking_min_peers: int = 5  # fewer symbols with the field: a superlative is not concluded
    lookahead_window_days: int = 10
    lookahead_min_precision: float = 0.005  # half a last digit relative to the stated value
    distinctive_precision: float = 0.005
    """A stated number is distinctive when half its last digit is at most this share of its value ("3.25%",
    "-6.08%", "0.116", not "8%" or "3.1%"): only such a number is matched against another window of the same
    measure (a mislabelled horizon) or against an option's other fields, so a coincidence is not taken for it."""
    benchmark: str | None = None
