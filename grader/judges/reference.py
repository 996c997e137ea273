"""The offline reference judge: deterministic, non-LLM, a baseline and calibration anchor.

It fills the same structured grade as the LLM judges, from data we compute ourselves:

- **evidence** from the ledger verifier run on claims extracted from the rationales (``ledgers``);
- **process** sub-scores from the process facts of the replay (thrash events, concentration, cash);
- **outcome** from the replay (alpha mapped to 0–100), null while the season is pending;
- **reasoning** from documented text heuristics (below).

Every grade it produces says so in its verdict and summary ("Reference baseline"); its runs carry run type
``baseline`` and are never presented as LLM grades.

Heuristics (all 0–100, rounded to integers; ``share`` = fraction of decisions):

- action_rationale_alignment: share of trading decisions whose rationale names every traded symbol (or
  its name); holds count as aligned.
- thesis_quality: 40 + 15 × verified (supported) claims per decision, capped at 100.
- strategy_fit: 100 − 150 × thrash events / trades, floored at 20.
- risk_awareness: 20 + 80 × share of decisions mentioning risk (risk, volatility, drawdown, stop, hedge,
  downside, trim, diversif…).
- portfolio_discipline: 100 − 100 × max(0, max position weight − 0.25) / 0.75, minus 20 if cash ever
  went negative.
- temporal_consistency: 100 − 200 × thrash events / trades, floored at 0.
- decision_update_quality: share of trading decisions whose rationale carries a checkable claim.
- uncertainty_discipline: 30 + 70 × share of decisions with hedged language or a stated confidence.
- outcome_independent_reasoning: 100 − 100 × share of rationales citing realised P&L as the reason.
- clarity_specificity: 30 + 20 × numbers quoted per decision, capped at 100.
- Evidence: claim_support = 100 × supported / checkable (30 with nothing checkable); each category score
  (valuation, momentum/technical, analyst, sector) is that ratio within the category, 50 when unused;
  unsupported_claim_avoidance = 100 × (1 − unverifiable numeric claims / numeric claims);
  no_contradiction = 100 × (1 − contradicted / checkable).
- outcome = clip(50 + 500 × alpha, 0, 100); data_reliability = share of trades priced within 5% of the
  last known close (100 for allocation records).
- Per-decision score (for the rank-confidence bootstrap): 100 × (supported + 0.5 × not_verifiable) /
  claims, 50 for a decision without claims.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property

from grader.judges._registry import Provider
from grader.pit import MARKET_TZ
from grader.season import Decision, SeasonBundle

REFERENCE_MODEL = "reference-baseline-v1"
_RISK = re.compile(r"\b(risk|risks|volatil\w*|drawdown|stop[- ]loss|stop|hedg\w*|downside|trim\w*|diversif\w*)\b", re.I)
_HEDGE = re.compile(r"\b(may|might|could|uncertain\w*|if|unless|probab\w*|likely|risk)\b", re.I)
_PNL = re.compile(r"\b(i made money|already up|locked in (?:a )?profit|my gains?|we are up|realized gain)\b", re.I)
_NUMBER = re.compile(r"[-+]?\$?\d+(?:\.\d+)?%?")
CATEGORY_SUB = {
    "valuation": "valuation_metrics",
    "price_momentum": "momentum_technical",
    "analyst": "analyst_data",
    "sector": "sector_industry_context",
}


def _clip(x: float) -> int:
    return int(round(max(0.0, min(100.0, x))))


def _memo(bundle: SeasonBundle, name: str) -> dict:
    """A cache held by ``bundle`` (a validated bundle does not change: what is derived from it holds for its life)."""
    return vars(bundle).setdefault(name, {})


def universe_index(bundle: SeasonBundle):
    """The names and tickers a rationale may use for each bundle symbol ("Semiconductors", "SMH"); built once per
    bundle (the prompt builder and the reference judge read its claims with the same index)."""
    memo = _memo(bundle, "_universe_index")
    if "index" not in memo:
        memo.setdefault("index", _universe_index(bundle))
    return memo["index"]


def _universe_index(bundle: SeasonBundle):
    from ledgers import UniverseIndex

    # a commodity is named by its last word ("oil" for "Crude Oil") when no other option ends with it
    last_words: dict[str, list[str]] = {}
    for u in bundle.info.universe:
        if u.name and " " in u.name.strip() and u.asset_class == "commodity":
            last_words.setdefault(u.name.split()[-1], []).append(u.symbol)

    def aliases(u) -> list[str]:
        names = [a for a in (u.name, u.ticker) if a]
        # "Semiconductor" for "Semiconductors": rationales use both
        names += [n[:-1] for n in names if n.endswith("s") and len(n) > 4 and " " not in n]
        last = u.name.split()[-1] if u.name else ""
        if last_words.get(last) == [u.symbol] and not last.endswith("s"):
            names += [last, last.lower()]
        return names

    return UniverseIndex({u.symbol: aliases(u) for u in bundle.info.universe}, bundle.info.benchmark)


def _decision_text(decision: Decision) -> str:
    """The rationale with each holding's own rationale (one line each, ``SYMBOL: text``), as the verifier reads it
    (for the reference judge and for the fields a prompt shows, ``grader.prompts._touched``)."""
    text = decision.rationale
    extra = [f"{a.symbol}: {a.rationale}" for a in decision.allocation or [] if a.rationale and a.rationale not in text]
    return text + ("\n" + "\n".join(extra) if extra else "")


def checked_claims_of(
    bundle: SeasonBundle, decisions: list[Decision], universe, available: list[str]
) -> list[list[tuple]]:
    """For each of ``decisions``: the claims of its text (``ledgers.extract_claims``: the rationale with each holding's own
    rationale) with the verifier's verification against the decision's own point-in-time store, in claim order.

    What the prompt builder's touched fields and the reference judge both read, so it is computed once per bundle
    for a decision, keyed by everything the extraction and the check read (the text, time, default symbol, its
    certainty, the round, the universe index, the fields, the benchmark); a claim's verification depends on that
    claim and its store alone, so a decision checked alone or in a batch gets the same result. A text written by
    several decisions (a season's repeated phrasing) is read once and its claims stamped with each decision's time
    (``ledgers.claims_at``); each decision's claims are still checked at its own time."""
    from ledgers import VerifierConfig, claims_at, extract_claims, verify_many

    benchmark = bundle.info.benchmark
    fields = tuple(available)
    # keyed by the index itself (held by the key, so it cannot be another's), the fields and the benchmark
    memo, read = _memo(bundle, "_checked_claims").setdefault((universe, fields, benchmark), ({}, {}))
    # memo: a decision's key -> its checked claims; read: (text, default, certain, holdings) -> its claims as first read
    keys: list[tuple] = []
    todo: dict[str | None, list[tuple]] = {}  # round -> (memo key, claims) of the decisions still to check
    for d in decisions:
        text = _decision_text(d)
        default = d.trades[0].symbol if d.trades else (d.allocation[0].symbol if d.allocation else None)
        held = tuple(dict.fromkeys([a.symbol for a in d.allocation or []] + [t.symbol for t in d.trades]))
        certain = len(held) <= 1
        key = (d.key, d.round_id, d.decided_at, text, default, certain, held)
        keys.append(key)
        if key in memo:
            continue
        first = read.get((text, default, certain, held))
        if first is None:
            first = read.setdefault(
                (text, default, certain, held),
                extract_claims(
                    text,
                    d.decided_at,
                    default,
                    universe,
                    benchmark=benchmark,
                    available_fields=list(fields),
                    default_is_certain=certain,
                    holdings=held,
                ),
            )
        todo.setdefault(d.round_id, []).append((key, claims_at(first, d.decided_at)))
    config = VerifierConfig(benchmark=benchmark)
    for round_id, owned in todo.items():  # each decision is checked against what it could see
        claims = [c for _, cs in owned for c in cs]
        vers = iter(verify_many(claims, bundle.store_for(round_id), config))
        for key, cs in owned:
            memo.setdefault(key, [(c, next(vers)) for c in cs])
    return [list(memo[key]) for key in keys]


@dataclass
class DecisionEvidence:
    decision: Decision
    verifications: list = field(default_factory=list)  # (claim, verification)

    @property
    def score(self) -> float:
        if not self.verifications:
            return 50.0
        sup = sum(v.status == "supported" for _, v in self.verifications)
        nv = sum(v.status == "not_verifiable" for _, v in self.verifications)
        return 100.0 * (sup + 0.5 * nv) / len(self.verifications)


class ReferenceProvider(Provider):
    """The registry's entry for the offline reference judge: no provider client, no key, no endpoint (the judge
    itself is ``ReferenceJudge``, built from the season, not from a panel spec)."""

    label = "reference"
    calls_provider = False


class ReferenceJudge:
    """Grades one contestant at a time from the bundle, the replay and the ledger verifier."""

    model = REFERENCE_MODEL

    def __init__(
        self,
        bundle: SeasonBundle,
        rubric,
        replays: dict | None = None,
        outcomes: dict[str, dict] | None = None,
        pending: bool = False,
    ):
        self.bundle = bundle
        self.rubric = rubric
        self.replays = replays or {}
        self.outcomes = outcomes or {}
        self.pending = pending
        self.names = {u.symbol: u.name for u in bundle.info.universe}
        self.universe = universe_index(bundle)
        self._evidence: dict[str, list[DecisionEvidence]] = {}

    @cached_property
    def available_fields(self) -> list[str]:
        """Every field some symbol of the season has (asked for on first use)."""
        return self.bundle.store.field_names()

    def evidence(self, contestant_id: str) -> list[DecisionEvidence]:
        if contestant_id not in self._evidence:
            decisions = self.bundle.decisions_of(contestant_id)
            checked = checked_claims_of(self.bundle, decisions, self.universe, self.available_fields)
            self._evidence[contestant_id] = [
                DecisionEvidence(d, pairs) for d, pairs in zip(decisions, checked, strict=True)
            ]
        return self._evidence[contestant_id]

    def checked_claims(self, contestant_id: str) -> list[tuple]:
        """(claim, verification) pairs in the order of the grade's claim ledger."""
        return [(c, v) for de in self.evidence(contestant_id) for c, v in de.verifications]

    def decision_scores(self, contestant_id: str) -> list[tuple[str, float]]:
        return [(de.decision.key, de.score) for de in self.evidence(contestant_id)]

    def grade(self, contestant_id: str) -> dict:
        evid = self.evidence(contestant_id)
        decisions = [de.decision for de in evid]
        n = max(1, len(decisions))
        pairs = [(c, v) for de in evid for c, v in de.verifications]
        sup = sum(v.status == "supported" for _, v in pairs)
        con = sum(v.status == "contradicted" for _, v in pairs)
        checkable = sup + con
        numeric = [(c, v) for c, v in pairs if getattr(v, "rule", "") not in ("forecast", "opinion")]
        unver_numeric = sum(v.status == "not_verifiable" for _, v in numeric)

        def ratio(items) -> int:
            s = sum(v.status == "supported" for _, v in items)
            k = s + sum(v.status == "contradicted" for _, v in items)
            return _clip(100.0 * s / k) if k else 50

        from ledgers import field_spec

        def field_category(name: str) -> str | None:
            spec = field_spec(name)
            return spec.category if spec else None

        evidence_scores = {
            "claim_support": _clip(100.0 * sup / checkable) if checkable else 30,
            "unsupported_claim_avoidance": _clip(100.0 * (1 - unver_numeric / len(numeric))) if numeric else 50,
            "no_contradiction": _clip(100.0 * (1 - con / checkable)) if checkable else 50,
        }
        for cat, sub in CATEGORY_SUB.items():
            evidence_scores[sub] = ratio(
                [(c, v) for c, v in pairs if any(field_category(f) == cat for f in (c.cited_fields or []))]
            )

        trading = [d for d in decisions if d.trades]
        replay = self.replays.get(contestant_id)
        facts = replay.facts if replay is not None else None
        trades = max(1, sum(len(d.trades) for d in decisions))
        thrash = len(facts.thrash_events) if facts else 0

        def names_all(d: Decision) -> bool:
            text = d.rationale.lower()
            return all(t.symbol.lower() in text or self.names.get(t.symbol, "\0").lower() in text for t in d.trades)

        supported_by_decision = {
            id(de.decision): sum(v.status == "supported" for _, v in de.verifications) for de in evid
        }
        checkable_by_decision = {
            id(de.decision): sum(v.status != "not_verifiable" for _, v in de.verifications) for de in evid
        }
        maxw = (
            facts.max_position_weight
            if facts
            else (max((max((a.weight for a in d.allocation), default=0) for d in decisions if d.allocation), default=0))
        )
        cash_negative = bool(replay is not None and (replay.cash < -1e-6).any())
        reasoning_scores = {
            "action_rationale_alignment": _clip(
                100.0 * (sum(names_all(d) for d in trading) + len(decisions) - len(trading)) / n
            ),
            "thesis_quality": _clip(40 + 15 * sum(supported_by_decision.values()) / n),
            "strategy_fit": max(20, _clip(100 - 150 * thrash / trades)),
            "risk_awareness": _clip(20 + 80 * sum(bool(_RISK.search(d.rationale)) for d in decisions) / n),
            "portfolio_discipline": _clip(100 - 100 * max(0.0, maxw - 0.25) / 0.75 - (20 if cash_negative else 0)),
            "temporal_consistency": _clip(100 - 200 * thrash / trades),
            "decision_update_quality": _clip(
                100.0 * sum(checkable_by_decision[id(d)] > 0 for d in trading) / len(trading)
            )
            if trading
            else 50,
            "uncertainty_discipline": _clip(
                30 + 70 * sum(bool(_HEDGE.search(d.rationale)) or d.confidence is not None for d in decisions) / n
            ),
            "outcome_independent_reasoning": _clip(
                100 - 100 * sum(bool(_PNL.search(d.rationale)) for d in decisions) / n
            ),
            "clarity_specificity": _clip(30 + 20 * sum(len(_NUMBER.findall(d.rationale)) for d in decisions) / n),
        }
        outcome = self.outcomes.get(contestant_id) or {}
        alpha = outcome.get("alpha")
        outcome_score: int | None = None
        outcome_note = "pending: no outcome"
        if not self.pending and alpha is not None:
            outcome_score = _clip(50 + 500 * alpha)
            outcome_note = f"alpha {alpha * 100:.2f}% mapped to 50 + 500 × alpha"
        reliability = self._reliability(decisions)
        from ledgers import to_structured

        structured = self.rubric.output_schema_version != "grade-v1"  # grade-v2: structured assertions
        ledger = [
            {
                "claim": c.text,
                "decision_date": c.decided_at.astimezone(MARKET_TZ).date().isoformat(),
                "symbol": c.symbol or self.bundle.info.benchmark,
                "cited_fields": list(c.cited_fields or []),
                "status": v.status,
                "note": v.reason,
                **(
                    {"assertions": [s for s in (to_structured(a) for a in c.assertions or []) if s is not None]}
                    if structured
                    else {}
                ),
            }
            for c, v in pairs
        ]
        grade = {
            "schema_version": self.rubric.output_schema_version,
            "claim_ledger": ledger,
            "reasoning": {
                "sub_scores": self._fit("reasoning", reasoning_scores),
                "note": "Reference baseline: text and process-fact heuristics (see grader/judges/reference.py).",
            },
            "evidence": {
                "sub_scores": self._fit("evidence", evidence_scores),
                "note": f"Reference baseline: {len(pairs)} claims extracted and verified: {sup} supported, "
                f"{con} contradicted, {len(pairs) - checkable} not verifiable.",
            },
            "outcome": {
                "score": outcome_score,
                "note": outcome_note,
            },
            "data_reliability": {"score": reliability, "note": "share of trades priced near the last known close"},
            "lookahead_check": {
                "passed": True,
                "note": "Reference baseline reads only point-in-time snapshots at each decision time.",
            },
        }
        weights = {s.id: s.weight for s in self.rubric.axes.reasoning.sub_components}
        r = sum(grade["reasoning"]["sub_scores"][k] * w for k, w in weights.items()) / max(1e-9, sum(weights.values()))
        band = "strong" if r >= 67 else "mixed" if r >= 45 else "weak"
        grade["verdict"] = f"Reference baseline: {band} reasoning (deterministic, not an LLM grade)"
        grade["summary"] = (
            f"Reference baseline — {len(decisions)} decisions, {sup}/{checkable} checkable claims "
            f"supported, {con} contradicted, {thrash} thrash events."
        )
        return self._order(grade)

    def _fit(self, axis: str, scores: dict[str, int]) -> dict[str, int]:
        """Map onto the rubric's sub-component ids; an id the baseline does not know gets the axis mean."""
        ids = [s.id for s in getattr(self.rubric.axes, axis).sub_components]
        known = [scores[i] for i in ids if i in scores] or list(scores.values())
        mean = _clip(sum(known) / len(known))
        return {i: int(scores.get(i, mean)) for i in ids}

    def _reliability(self, decisions: list[Decision]) -> int:
        trades = [(d, t) for d in decisions for t in d.trades]
        if not trades:
            return 100
        ok = 0
        for d, t in trades:
            obs = self.bundle.store.value(t.symbol, "close", d.decided_at)
            if obs is None:
                nxt = self.bundle.store.value(t.symbol, "close", datetime.max.replace(tzinfo=MARKET_TZ))
                ok += nxt is not None and abs(t.price / float(nxt.value) - 1) <= 0.05
            else:
                ok += abs(t.price / float(obs.value) - 1) <= 0.05
        return _clip(100.0 * ok / len(trades))

    @staticmethod
    def _order(grade: dict) -> dict:
        order = [
            "schema_version",
            "claim_ledger",
            "reasoning",
            "evidence",
            "outcome",
            "data_reliability",
            "lookahead_check",
            "verdict",
            "summary",
        ]
        return {k: grade[k] for k in order if k in grade}
