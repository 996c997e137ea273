"""Audits: the judge-agreement report's charts and tables, built live from the database.

The report (every audit, with resampling) is built in a background worker process (started when the run is first
viewed, once the server has warmed it up); this page answers at once, renders the newest report (one section at a
time), first without its charts while they are drawn, and refreshes itself when a newer one (the charts, or a new
human grade) is ready.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from console import _queries, _state, _ui

st.title("Audits")
run = _ui.current_run()
_state.publish()
version = run.latest_version
if version is None:
    _ui.run_banner(run)
    st.info("This run has no scored version yet, so there is nothing to audit.")
    st.stop()

withheld = _queries.audits_withheld(_ui.blind(run))
if withheld:
    _ui.run_banner(run)
    st.info(withheld)
    st.stop()

key = _ui.audit_key(run.run_id, version)
jobs = _ui.audit_jobs()
job = jobs.submit(key)
if job.cancelled():  # a newer human grade arrived while this page was loading
    st.rerun()
if job.done() and job.exception() is not None:
    _ui.run_banner(run)
    st.error(f"The audits failed on this run: {job.exception()}")
    st.stop()
first = None if job.done() else jobs.first_version(key)  # every section, its charts being drawn
doc = job.result() if job.done() else (first or jobs.latest_finished(key[0], key[1], key[2]))


@st.fragment(run_every="1s")
def _wait_for_report() -> None:
    if job.done() or (doc is None and jobs.first_version(key) is not None):
        st.rerun()
    st.caption("⏳ Building the audit report in the background (every audit, with resampling)…")


if doc is None:
    _ui.run_banner(run)
    st.info("Building the audit report for this run; the page shows it as soon as it is ready.")
    _wait_for_report()
    st.stop()
if first is not None:
    st.info("The report's charts are being drawn; the page shows them as soon as they are ready.")
    _wait_for_report()
elif not job.done():
    st.info("New human grades are being added to the report; showing the previous version meanwhile.")
    _wait_for_report()

from audits import Caveats, ChartBlock, Definitions, Paragraph, Table  # noqa: E402

if doc.banner:
    st.error(f"**{doc.banner}**")
else:
    _ui.run_banner(run)
if doc.notice:
    st.warning(doc.notice)
st.caption(
    f"{doc.title} · live from the database · {key[3][0]} human grade row(s) · fewer resamples than the "
    "published report (see the method section)"
)
with st.expander("Run identity and hashes"):  # a markdown table: drawn (and its code loaded) even while closed
    st.markdown(_ui.markdown_table(pd.DataFrame(doc.identity, columns=["what", "value"])))

WIDE_TABLE = 7  # columns: a wider table would not fit at 1280 px as a scrolling grid
HUMAN_SECTIONS = {"calibration"}  # individual human grades: for signed-in annotators only
reader = _ui.signed_in()
# one section at a time, picked from a list that wraps (every title readable at 1280 px, where a row of tabs would
# be cut): only the picked section's tables and charts are sent to the browser
by_title = {section.title: section for section in doc.sections}
picked = st.radio("Section", list(by_title), horizontal=True, key="audit_section")
section = by_title[picked]
if section.anchor in HUMAN_SECTIONS and reader is None:
    st.info(
        "Human calibration grades are shown to signed-in annotators only: sign in (sidebar) to see "
        "this section. The published report carries it."
    )
    st.stop()
with st.container(border=True):
    st.subheader(section.title)
    for block in section.blocks:
        if isinstance(block, Paragraph):
            st.markdown(f"**{_ui.md(block.text)}**" if block.strong else _ui.md(block.text))
        elif isinstance(block, Table):
            if block.caption:
                st.caption(block.caption)
            frame = pd.DataFrame(block.rows, columns=_ui.unique_headers(block.headers))
            if len(frame.columns) > WIDE_TABLE:  # in parts, drawn whole with cells wrapped: nothing clipped
                for part in _ui.split_wide(frame, WIDE_TABLE):
                    st.table(part, hide_index=True)
            else:
                st.dataframe(frame, hide_index=True, width="stretch")
        elif isinstance(block, ChartBlock):
            if block.chart is None:
                st.info(block.placeholder)
            elif not block.chart.drawn:
                st.caption(f"⏳ {block.chart.title}: being drawn…")
            else:
                st.image(_ui.png(block.chart.png_base64), width=760, caption=f"{block.chart.title} — {block.chart.alt}")
        elif isinstance(block, Caveats):
            if block.items:
                st.caption(_ui.md("\n".join(f"- {c}" for c in block.items)))
        elif isinstance(block, Definitions):
            st.markdown(_ui.md("\n".join(f"- **{term}**: {text}" for term, text in block.items)))
