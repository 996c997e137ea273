"""The deterministic verifier: a claim -> its assertions -> one rule each -> one combined verification.

A claim with several assertions ("strong profitability and growth with analyst upside") is contradicted
when any part is contradicted, supported when every part is supported, and not verifiable otherwise; so a
forecast with a false premise is contradicted and a forecast with a true one is not verifiable.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from grader.pit import Observation, PointInTimeStore
from ledgers._data import StoreData, store_data
from ledgers._models import Assertion, Claim, Evidence, Status, Verification, VerifierConfig
from ledgers._registry import FIELD_SPECS
from ledgers.reading import parse_assertions_cached
from ledgers.rules import CON, NV, RULES, Ctx, RuleResult, rank_of_figure

DEFAULT_CONFIG = VerifierConfig()


@lru_cache(maxsize=200_000)
def _parsed(text: str, cited: tuple[str, ...], benchmark: str | None) -> tuple[Assertion, ...]:
    """Assertions of a judge's claim text, without a symbol: rules take the claim's symbol."""
    return tuple(parse_assertions_cached(text, None, cited, benchmark))


def claim_assertions(claim: Claim, config: VerifierConfig = DEFAULT_CONFIG) -> Sequence[Assertion]:
    """The claim's assertions: the pre-parsed ones, else those parsed from its text."""
    if claim.assertions is not None:
        return claim.assertions
    found = _parsed(claim.text, tuple(claim.cited_fields) if claim.cited_fields else (), config.benchmark)
    if claim.briefing_only and not found:
        return (Assertion(rule="briefing", symbol=claim.symbol, raw=claim.text),)
    return found


def _construct(cls, values: dict):
    """A trusted pydantic model without validation (the values come from the store and the rules); the
    same result as ``cls.model_construct(**values)`` with every field given, at a fraction of its cost."""
    model = cls.__new__(cls)
    object.__setattr__(model, "__dict__", values)
    object.__setattr__(model, "__pydantic_fields_set__", set(values))
    object.__setattr__(model, "__pydantic_extra__", None)
    object.__setattr__(model, "__pydantic_private__", None)
    return model


_EVIDENCE: dict[int, tuple[Observation, Evidence]] = {}


class _NoSeen(set):
    def add(self, item: object) -> None:  # a single observation needs no dedup bookkeeping
        return None


_NO_SEEN = _NoSeen()


def _evidence(obs: list[Observation]) -> list[Evidence]:
    """Evidence rows of the observations used (deduplicated); one Evidence per cached Observation."""
    out = []
    seen: set[int] = set()
    if len(obs) == 1:  # the common case: no duplicates possible
        seen = _NO_SEEN
    for o in obs:
        key = id(o)
        if key in seen:
            continue
        seen.add(key)
        hit = _EVIDENCE.get(key)
        if hit is None or hit[0] is not o:  # the pair keeps ``o`` alive, so its id cannot be reused
            if len(_EVIDENCE) > 500_000:
                _EVIDENCE.clear()
            hit = (
                o,
                _construct(
                    Evidence,
                    {
                        "symbol": o.symbol,
                        "field": o.field,
                        "value": o.value,
                        "observed_at": o.observed_at,
                        "source": o.source,
                    },
                ),
            )
            _EVIDENCE[key] = hit
        out.append(hit[1])
    return out


def _cited_evidence(data: StoreData, claim: Claim, config: VerifierConfig) -> list[Observation]:
    from ledgers._registry import resolve_field

    if claim.symbol is None:
        return []
    out = []
    for name in claim.cited_fields:
        fld = resolve_field(name)
        o = data.obs(claim.symbol, fld, claim.decided_at) if fld else None
        if o is not None:
            out.append(o)
    return out


def combine(statuses: Sequence[Status]) -> Status:
    """Any contradicted -> contradicted; all supported -> supported; else not verifiable."""
    if "contradicted" in statuses:
        return "contradicted"
    if statuses and all(s == "supported" for s in statuses):
        return "supported"
    return NV


_UNRECOGNISED = Assertion(rule="unrecognised")
_PRECISE_FIGURE = 100
"""A figure is precise when it is at least this many times half its last digit: three significant digits."""


def _other_subjects(ctx: Ctx, a: Assertion, first: RuleResult) -> RuleResult:
    """A mismatch for the assertion's subject when the sentence names other possible subjects: supported
    when the value is one of theirs, else not verifiable (whose number it is cannot be told), never
    contradicted: a false accusation is the worst error a grader can make."""
    for other in a.alternatives:
        res = RULES[a.rule](ctx, a.model_copy(update={"symbol": other, "alternatives": []}))
        if res.status == "supported":
            res.reason = f"about {other}, which the sentence also names: {res.reason}"
            return res
    names = ", ".join([str(a.symbol or ctx.symbol), *a.alternatives])
    return RuleResult(
        NV,
        f"ambiguous subject (the sentence names {names}); the value matches none of them: {first.reason}",
        first.evidence,
        first.lookahead,
    )


MARKET_STATE = frozenset(f for f, spec in FIELD_SPECS.items() if spec.category == "market_state")
"""Fields of the market as a whole (breadth, dispersion): kept with the benchmark, whatever option a claim is about."""


class Verifier:
    """Verifies claims against one store; snapshots are cached per (symbol, decided_at)."""

    def __init__(self, store: PointInTimeStore, config: VerifierConfig = DEFAULT_CONFIG):
        self.store = store
        self.config = config
        self.data = store_data(store, config.benchmark)

    def verify(self, claim: Claim) -> Verification:
        assertions = claim_assertions(claim, self.config)
        ctx = Ctx(self.data, self.config, claim.decided_at, claim.symbol)
        if not assertions:
            res = RULES["unrecognised"](ctx, _UNRECOGNISED)
            return self._build(
                claim,
                res.status,
                res.reason,
                _cited_evidence(self.data, claim, self.config),
                "unrecognised",
                False,
                False,
            )
        results: list[RuleResult] = []
        for a in assertions:  # an assertion without a symbol is about the claim's symbol (ctx.symbol)
            if a.field in MARKET_STATE and self.config.benchmark:  # breadth, dispersion: the benchmark's row holds
                a = a.model_copy(update={"symbol": self.config.benchmark, "alternatives": []})  # the market's state
            res = RULES[a.rule](ctx, a)
            if res.status == "contradicted" and a.alternatives:
                res = _other_subjects(ctx, a, res)
            if res.status == "contradicted" and a.inferred:
                res = RuleResult(
                    NV,
                    f"{res.reason} - but its subject, its window or what it is compared with was read from the "
                    "rest of the text, not written with the claim: not a contradiction",
                    res.evidence,
                    res.lookahead,
                )
            results.append(res)
        if len(results) == 1:
            status, reason, evidence = results[0].status, results[0].reason, results[0].evidence
        else:
            status = combine([r.status for r in results])
            reason = "; ".join(r.reason for r in results)
            evidence = [o for r in results for o in r.evidence]
        if status == "contradicted" and not claim.structured and claim.clause is not None and claim.doubt:
            # certainty before contradiction: the clause was not read in full (ledgers.reading._certainty)
            status, reason = NV, f"not certain enough to contradict ({claim.doubt}); the reading gave: {reason}"
        if claim.unread is not None and not claim.structured and claim.clause is not None:
            # a superlative said of a figure: checked on the figure's field once the figure holds, never contradicted
            if status == "supported":
                status, reason, evidence = self._ranked_figure(ctx, claim, assertions, results, reason, evidence)
            elif claim.unread.separate:
                status, reason = (
                    NV,
                    (f"the superlative ('{claim.unread.word}') is checked only on a figure that holds: {reason}"),
                )
        rule = assertions[0].rule if len(assertions) == 1 else "+".join(dict.fromkeys(a.rule for a in assertions))
        briefing = claim.briefing_only or (bool(results) and all(r.briefing for r in results))
        return self._build(claim, status, reason, evidence, rule, any(r.lookahead for r in results), briefing)

    @staticmethod
    def _ranked_figure(
        ctx: Ctx,
        claim: Claim,
        assertions: Sequence[Assertion],
        results: list[RuleResult],
        reason: str,
        evidence: list[Observation],
    ) -> tuple[Status, str, list[Observation]]:
        """A supported figure with a superlative said of it ("0.817 (highest)"): supported when the rank holds too,
        otherwise not verifiable (``rank_of_figure`` never contradicts)."""
        assert claim.unread is not None
        sym = assertions[0].symbol or ctx.symbol
        fields = list(dict.fromkeys(o.field for r in results for o in r.evidence if o.symbol == sym))
        a = assertions[0]
        # a bare window and figure ("IGV +5.37% 3s, top of the universe") is the window's return
        named = (
            a.field is not None
            and a.rule not in ("any_field", "any_return")
            and (not a.bare or re.fullmatch(r"return\d+[dwmy]", fields[0] if fields else "") is not None)
        )
        # a figure written to three significant digits that equals one field of its option, and no other, says by
        # its value which measure it is (and whose): "(-5.29%, the weakest of any sector)" is the active return
        # it equals; the rank is then checked on that field, to support only
        precise = (
            a.stated is not None
            and a.tolerance > 0
            and not a.approx
            and abs(a.stated) >= _PRECISE_FIGURE * a.tolerance
            and len(fields) == 1
        )
        if (
            sym is None
            or len(assertions) != 1
            or len(fields) != 1
            or (a.inferred and not precise)
            or not (named or precise)
        ):
            return (
                NV,
                (
                    f"the figure holds but the clause also ranks it ('{claim.unread.word}'), and which measure "
                    f"it ranks on is not certain: {reason}"
                ),
                evidence,
            )
        ranked = rank_of_figure(ctx, claim.unread, sym, fields[0])
        if ranked.status == CON and (a.inferred or not named):  # the measure or subject read from the value only
            return (
                NV,
                f"{reason}; its rank is refuted on the field its value equals, which the words do not name: "
                f"{ranked.reason}",
                [*evidence, *ranked.evidence],
            )
        return ranked.status, f"{reason}; and its rank: {ranked.reason}", [*evidence, *ranked.evidence]

    def verify_many(self, claims: Iterable[Claim]) -> list[Verification]:
        # a batch allocates many small, long-lived objects (results, evidence): the cyclic collector would
        # rescan them over and over without finding garbage, so it is paused for the batch
        enabled = gc.isenabled()
        gc.disable()
        try:
            return [self.verify(c) for c in claims]
        finally:
            if enabled:
                gc.enable()

    @staticmethod
    def _build(
        claim: Claim,
        status: Status,
        reason: str,
        evidence: list[Observation],
        rule: str,
        lookahead: bool,
        briefing: bool,
    ) -> Verification:
        return _construct(
            Verification,
            {
                "claim_id": claim.id,
                "status": status,
                "reason": reason,
                "evidence": _evidence(evidence),
                "rule": rule,
                "lookahead": lookahead,
                "briefing_only": briefing,
                "path": "structured" if claim.structured else "text",
            },
        )


def verify(claim: Claim, store: PointInTimeStore, config: VerifierConfig = DEFAULT_CONFIG) -> Verification:
    """Verify one claim against the point-in-time store (values observed at or before ``decided_at``)."""
    return Verifier(store, config).verify(claim)


def verify_many(
    claims: Iterable[Claim], store: PointInTimeStore, config: VerifierConfig = DEFAULT_CONFIG
) -> list[Verification]:
    """Verify a batch; snapshots and parses are shared across claims."""
    return Verifier(store, config).verify_many(claims)
