"""Ledger review: each claim with the point-in-time values it was checked against and the verifier's reason;
an annotator records the correct status and a note (append-only)."""

from __future__ import annotations

from urllib.parse import urlencode

import pandas as pd
import streamlit as st

from console import _queries, _state, _ui
from console._writes import MAX_COMMENT, describe_error, record_ledger_annotation

STATUS_ICON = {
    "supported": ":green[:material/check_circle:]",
    "not_verifiable": ":gray[:material/help:]",
    "contradicted": ":red[:material/cancel:]",
}

st.title("Ledger review")
run = _ui.current_run()  # stops the page when there is no run
_ui.run_banner(run)
url = _ui.db_url()
who = _ui.signed_in()

judges = _ui.ledger_judges(url, run.run_id)
blind = _ui.blind(run)
people = _ui.contestants(url, run.run_id, blind)
names = {c.key: c.display_name for c in people}
row_of = {c.key: c.row_id for c in people}
STATUSES = list(_queries.CLAIM_STATUSES)
AGREEMENT = ["any", "disagreements", "agreements"]
for key, valid, what in (
    ("ledger_judge", ["(any)", *judges], "judge"),
    ("ledger_verifier", STATUSES, "status"),
    ("ledger_judge_status", STATUSES, "status"),
    ("ledger_disagree", AGREEMENT, "filter"),
    ("ledger_contestant", [None, *names], "contestant"),
    ("ledger_lookahead", None, ""),
    ("ledger_page_size", [10, 20, 50], "page size"),
    ("ledger_page", None, ""),
    ("ledger_claim", None, ""),
):
    _state.seed(key, valid, what)
st.session_state.setdefault("ledger_page_size", 10)  # each claim is a bordered card with its own form


def _first_page() -> None:
    st.session_state["ledger_page"] = 1  # new filters start at the first page
    _state.set_value("ledger_claim", None)


claim_id = _state.kept("ledger_claim")
with st.container(border=True):
    c1, c2, c3, c4 = st.columns(4)
    judge = c1.selectbox("Judge", ["(any)", *judges], key="ledger_judge", on_change=_first_page)
    verifier = c2.multiselect("Verifier status", STATUSES, key="ledger_verifier", on_change=_first_page)
    judge_status = c3.multiselect("Judge status", STATUSES, key="ledger_judge_status", on_change=_first_page)
    agreement = c4.radio("Judge vs verifier", AGREEMENT, key="ledger_disagree", horizontal=True, on_change=_first_page)
    c5, c6, c7 = st.columns([2, 1, 1])
    who_key = c5.selectbox(
        "Contestant",
        [None, *names],
        key="ledger_contestant",
        on_change=_first_page,
        format_func=lambda k: "(any)" if k is None else f"{names[k]} ({k})",
    )
    lookahead = c6.checkbox("Lookahead only", key="ledger_lookahead", on_change=_first_page)
    page_size = c7.selectbox("Per page", [10, 20, 50], key="ledger_page_size", on_change=_first_page)

filters = (
    _queries.LedgerFilters(entry_id=claim_id)
    if claim_id is not None
    else _queries.LedgerFilters(
        judge_id=None if judge == "(any)" else judge,
        verifier_statuses=verifier or None,
        judge_statuses=judge_status or None,
        disagrees={"any": None, "disagreements": True, "agreements": False}[agreement],
        contestant_row_id=row_of.get(who_key) if who_key else None,
        lookahead_only=lookahead,
    )
)
page_no = int(st.session_state.get("ledger_page", 1))
result = _queries.ledger_page(run.run_id, filters, page_no, page_size, url, blind=blind)
top_left, top_right = st.columns([3, 1], vertical_alignment="bottom")
top_left.markdown(f"**{result.total}** claims match · page {result.page} of {result.pages}")
st.session_state["ledger_page"] = result.page  # clamped when the filters shrink the result
top_right.number_input("Page", min_value=1, max_value=result.pages, step=1, key="ledger_page")
for key in (
    "ledger_judge",
    "ledger_verifier",
    "ledger_judge_status",
    "ledger_disagree",
    "ledger_contestant",
    "ledger_lookahead",
    "ledger_page_size",
    "ledger_page",
):
    _state.remember(key)
_state.publish("judge", "verifier", "jstatus", "agree", "who", "lookahead", "per", "page", "claim")
_ui.link_warnings()
if claim_id is not None:
    st.info(f"Showing claim {claim_id} only (from a link).")
    if st.button("Show every claim of the filters", key="ledger_all_claims"):
        _state.set_value("ledger_claim", None)
        st.rerun()
    if not result.entries:
        st.warning(
            f"Claim {claim_id} is not a ledger entry of run {run.run_id}"
            + (
                " that you may see yet (the claims of items you have not graded are hidden)."
                if result.hidden_items
                else "."
            )
        )
if result.hidden_items:
    st.info(
        f"Blind calibration: the ledgers of {result.hidden_items} item(s) you have not graded yet are hidden; "
        "grade them on the Calibration page to review them."
    )
if not who:
    st.caption("Sign in (sidebar) to record the correct status of a claim.")


def _save(entry_id: int) -> None:
    try:
        record_ledger_annotation(
            _ui.signed_in(),
            entry_id,
            st.session_state[f"ann_status_{entry_id}"],
            st.session_state.get(f"ann_note_{entry_id}", ""),
            _ui.db_url(),
        )
        st.session_state[f"ann_saved_{entry_id}"] = True
        st.session_state[f"ann_note_{entry_id}"] = ""
    except ValueError as exc:  # the note stays in its field, to be shortened
        st.session_state[f"ann_error_{entry_id}"] = f"Not recorded: {describe_error(exc)}"


EVIDENCE_COLUMNS = ("symbol", "field", "value", "observed_at", "source")


def _card_text(e: _queries.LedgerEntryView) -> str:
    """A claim's head, words, clause, judge's and verifier's status, the point-in-time values it was checked against
    and its flags as one markdown block: one element per card, not eight (each element, a table most, is a component
    the browser draws, and a page has up to 50 cards)."""
    head = (
        f"**{e.contestant}** · {e.judge_id} · claim #{e.position + 1} · "
        f"{e.decision_date.isoformat() if e.decision_date else 'no date'} · {e.symbol or 'no symbol'}"
    )
    if e.disagrees:
        head += " · :orange[judge and verifier disagree]"
    if e.lookahead:
        head += " · :red[lookahead]"
    link = "./ledger?" + urlencode({"run": run.run_id, "claim": e.id})
    parts = [f"{head} · [link]({link})", f"> {_ui.plain(e.claim)}"]
    if e.clause:
        parts.append(_ui.gray(f"in the rationale: {e.clause}"))
    parts.append(
        f"Judge: {STATUS_ICON.get(e.judge_status, '')} **{e.judge_status}**"
        + (f" — {_ui.plain(e.judge_note)}" if e.judge_note else "")
    )
    how = "checked the judge's structured assertions" if e.check_path == "structured" else "read the claim's words"
    parts.append(
        f"Verifier ({how}): {STATUS_ICON.get(e.verifier_status, '')} **{e.verifier_status}** — "
        f"{_ui.plain(e.verifier_reason) or 'no reason given'}"
    )
    if e.evidence:
        ev = pd.DataFrame(e.evidence)
        parts.append(_ui.markdown_table(ev[[c for c in EVIDENCE_COLUMNS if c in ev.columns]]))
    else:
        cited = ", ".join(e.cited_fields) or "—"
        parts.append(_ui.gray(f"No point-in-time value was found for the cited fields: {cited}"))
    parts += [_ui.gray(f"⚑ {flag}: {e.flag_reasons.get(flag, '') or 'no reason recorded'}") for flag in e.flags]
    return "\n\n".join(parts)


for e in result.entries:
    with st.container(border=True):
        st.markdown(_card_text(e))
        for a in e.annotations:  # st.text: no markdown at all, so no link, image or formatting is ever made
            st.text(
                f"Note by {a.annotator} ({a.created_at:%Y-%m-%d %H:%M}): {a.status}"
                + (f" — {a.note}" if a.note else "")
            )
        if who:
            with st.form(f"ann_form_{e.id}", border=False):
                f1, f2, f3 = st.columns([1, 3, 1], vertical_alignment="bottom")
                f1.selectbox(
                    "Correct status",
                    list(_queries.CLAIM_STATUSES),
                    key=f"ann_status_{e.id}",
                    index=list(_queries.CLAIM_STATUSES).index(e.verifier_status)
                    if e.verifier_status in _queries.CLAIM_STATUSES
                    else 0,
                )
                # no max_chars: the browser would drop an over-long paste without a word; the write refuses it
                f2.text_input(
                    "Note",
                    key=f"ann_note_{e.id}",
                    help=f"plain text (up to {MAX_COMMENT:,} characters): shown to other reviewers exactly as typed",
                )
                f3.form_submit_button("Record", on_click=_save, args=(e.id,))
            if st.session_state.pop(f"ann_saved_{e.id}", False):
                st.success("Recorded.")
            if st.session_state.get(f"ann_error_{e.id}"):
                st.error(st.session_state.pop(f"ann_error_{e.id}"))
