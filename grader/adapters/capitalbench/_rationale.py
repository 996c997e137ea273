"""A CapitalBench submission as a decision's rationale, allocation and contestant name (pure text work)."""

from __future__ import annotations

from grader.adapters.capitalbench._schema import Submission
from grader.season import AllocationItem
from ledgers import TEMPLATE_MARK  # platform text: shown, never graded or mined for claims

_ACRONYMS = {"gpt": "GPT", "ai": "AI", "llm": "LLM"}


def display_name_for(model_id: str, provider: str | None = None) -> str:
    """A readable name from a CapitalBench model id: ``openai-gpt-5-5`` → ``GPT-5.5``,
    ``anthropic-claude-opus-4-7`` → ``Claude Opus 4.7``, ``google-gemini-3-1-pro`` → ``Gemini 3.1 Pro``."""
    tokens = model_id.split("-")
    if provider and tokens and tokens[0].lower() == provider.lower() and len(tokens) > 1:
        tokens = tokens[1:]
    words: list[str] = []
    numbers: list[str] = []

    def flush() -> None:
        if numbers:
            version = ".".join(numbers)
            if words and words[-1] in _ACRONYMS.values():
                words[-1] = f"{words[-1]}-{version}"
            else:
                words.append(version)
            numbers.clear()

    for tok in tokens:
        if tok.isdigit():
            numbers.append(tok)
            continue
        flush()
        words.append(_ACRONYMS.get(tok.lower(), tok[:1].upper() + tok[1:]))
    flush()
    return " ".join(words)


def _pct(x: float) -> str:
    return f"{x:g}%"


def _pct_or_none(x: float | None) -> str | None:
    return None if x is None else f"{x:+g}%"


def _candidates_v2(sub: Submission, option_names: dict[str, str]) -> str | None:
    """portfolio-v2.2 ``candidate_ledger``: every option the model assessed, in its own words."""
    if not sub.candidate_ledger:
        return None
    lines = ["Candidates assessed:"]
    for c in sub.candidate_ledger:
        name = option_names.get(c.option_id)
        head = f"- {c.option_id} ({name})" if name else f"- {c.option_id}"
        bits = [f"{c.decision}" if c.decision else ""]
        if c.forecast_base_pct is not None:
            bits.append(
                f"forecast base case {c.forecast_base_pct:+g}%, low case {c.forecast_low_pct:+g}%, "
                f"high case {c.forecast_high_pct:+g}%"
                if c.forecast_low_pct is not None and c.forecast_high_pct is not None
                else f"forecast base case {c.forecast_base_pct:+g}%"
            )
        line = head + ": " + "; ".join(b for b in bits if b) + "."
        if c.evidence:
            line += " Evidence: " + " ".join(e.strip().rstrip(".") + "." for e in c.evidence if e.strip())
        for label, text in (
            ("Continuation", c.continuation_case),
            ("Reversal", c.reversal_case),
            ("Catalyst", c.time_window_catalyst),
            ("Invalidation", c.invalidation_condition),
        ):
            if text and text.strip():
                line += f" {label}: {text.strip().rstrip('.')}."
        lines.append(line)
    return "\n".join(lines)


def _assessments_v3(v3, option_names: dict[str, str]) -> list[str]:
    """portfolio-v3.0: the market rationale and every candidate assessment (the model's words and numbers)."""
    parts = []
    if v3.market_rationale and v3.market_rationale.strip():
        parts.append(v3.market_rationale.strip())
    state = [
        f"{k.replace('_', ' ')}: {v}"
        for k, v in (
            ("dominant_pattern", v3.dominant_pattern),
            ("dispersion_state", v3.dispersion_state),
            ("prefer_spy", v3.prefer_spy),
        )
        if v is not None
    ]
    if v3.top3_option_ids:
        state.append("top three: " + ", ".join(v3.top3_option_ids))
    if state:
        parts.append("Model's view: " + "; ".join(str(x) for x in state) + ".")
    if v3.candidate_assessments:
        lines = ["Candidate assessments:"]
        for a in sorted(v3.candidate_assessments, key=lambda a: (a.rank is None, a.rank or 0, a.option_id)):
            name = option_names.get(a.option_id)
            head = f"- {a.option_id} ({name})" if name else f"- {a.option_id}"
            line = head + (f", rank {a.rank}" if a.rank is not None else "") + ":"
            if a.mechanism:
                line += f" {a.mechanism.strip().rstrip('.')}."
            if a.evidence:
                line += " Evidence: " + " ".join(e.strip().rstrip(".") + "." for e in a.evidence if e.strip())
            if a.recent_return_interpretation:
                line += f" Recent returns: {a.recent_return_interpretation.strip().rstrip('.')}."
            probs = [
                f"probability of beating SPY {a.p_beat_spy_pct:g}%" if a.p_beat_spy_pct is not None else "",
                f"probability of a top-three finish {a.p_top3_pct:g}%" if a.p_top3_pct is not None else "",
            ]
            probs = [p for p in probs if p]
            if probs:
                line += " Model's " + ", ".join(probs) + "."
            if a.excess_return_p50_pct is not None:
                line += (
                    f" Forecast excess return vs SPY: base case {a.excess_return_p50_pct:+g}%"
                    + (f", low case {a.excess_return_p10_pct:+g}%" if a.excess_return_p10_pct is not None else "")
                    + (f", high case {a.excess_return_p90_pct:+g}%" if a.excess_return_p90_pct is not None else "")
                    + "."
                )
            lines.append(line)
        parts.append("\n".join(lines))
    return parts


def compose_rationale(sub: Submission, option_names: dict[str, str]) -> str:
    """The decision rationale: summary, portfolio rationale, per-holding rationales, the candidates the model
    assessed (v2.2 candidate ledger; v3.0 market rationale and candidate assessments), its own forecast, key
    risks. Portfolio-v3.0 per-holding texts are the platform's template: kept, marked, never graded."""
    v3 = sub.portfolio_v3
    parts = [sub.rationale_summary.strip()]
    if v3 is not None and v3.market_rationale and v3.market_rationale.strip() == sub.rationale_summary.strip():
        parts = []  # rationale_summary repeats the market rationale, which comes below
    if sub.portfolio_rationale and sub.portfolio_rationale.strip():
        parts.append(sub.portfolio_rationale.strip())
    if sub.portfolio:
        lines = ["Holdings:"]
        for h in sub.portfolio:
            name = option_names.get(h.option_id)
            label = f"{h.option_id} ({name})" if name else h.option_id
            text = h.rationale.strip()
            if v3 is not None:  # "V3 selected model rank 1: ...": generated upstream, not the model's words
                text = f"{TEMPLATE_MARK} {text}"
            line = f"- {label}, {_pct(h.allocation_pct)}: {text}"
            extra = []
            if h.expected_return_pct is not None:
                extra.append(f"expected return {h.expected_return_pct:+g}%")
            if h.time_window_catalyst:
                extra.append(f"catalyst: {h.time_window_catalyst.strip()}")
            if h.invalidation_condition:
                extra.append(f"invalidation: {h.invalidation_condition.strip()}")
            if extra:
                line += " (" + "; ".join(extra) + ")"
            lines.append(line)
        parts.append("\n".join(lines))
    elif sub.selected_option_id:
        name = option_names.get(sub.selected_option_id)
        parts.append(f"Selected: {sub.selected_option_id}" + (f" ({name})" if name else "") + ", 100%.")
    ledger = _candidates_v2(sub, option_names)
    if ledger:
        parts.append(ledger)
    if v3 is not None:
        parts.extend(_assessments_v3(v3, option_names))
    if sub.portfolio_expected_return_pct is not None and sub.benchmark_expected_return_pct is not None:
        alpha = sub.expected_alpha_vs_sp500_pct
        parts.append(
            f"Model's own forecast: portfolio {sub.portfolio_expected_return_pct:+g}%, S&P 500 "
            f"{sub.benchmark_expected_return_pct:+g}%"
            + (f", expected alpha {alpha:+g} pp." if alpha is not None else ".")
        )
    if sub.key_risks:
        parts.append("Key risks:\n" + "\n".join(f"- {r.strip()}" for r in sub.key_risks))
    return "\n\n".join(p for p in parts if p)


def allocation_of(sub: Submission, option_names: dict[str, str]) -> list[AllocationItem]:
    if sub.portfolio:
        return [
            AllocationItem(symbol=h.option_id, weight=h.allocation_pct / 100.0, rationale=h.rationale.strip())
            for h in sub.portfolio
        ]
    assert sub.selected_option_id is not None
    return [AllocationItem(symbol=sub.selected_option_id, weight=1.0)]
