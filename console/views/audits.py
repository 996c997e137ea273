"""Audits: the judge-agreement report's charts and tables, built live from the database."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from console import _queries, _ui

st.title("Audits")
run = _ui.current_run()
url = _ui.db_url()
if run.latest_version is None:
    st.info("This run has no scored version yet, so there is nothing to audit.")
    st.stop()

stamp = _queries.human_grade_stamp(run.run_id, url)
with st.spinner("Running the audits…"):
    doc = _ui.audit_document(url, run.run_id, run.latest_version, stamp)

from audits._render import Caveats, ChartBlock, Definitions, Paragraph, Table  # noqa: E402

if doc.banner:
    st.error(f"**{doc.banner}**")
else:
    _ui.run_banner(run)
if doc.notice:
    st.warning(doc.notice)
st.caption(f"{doc.title} · live from the database · {stamp[0]} human grade value(s) included · "
           "fewer resamples than the published report (see Method)")
with st.expander("Run identity and hashes"):
    st.table(pd.DataFrame(doc.identity, columns=["", "value"]))

names = [section.title for section in doc.sections]
tabs = st.tabs(names)
for tab, section in zip(tabs, doc.sections, strict=True):
    with tab:
        for block in section.blocks:
            if isinstance(block, Paragraph):
                st.markdown(f"**{block.text}**" if block.strong else block.text)
            elif isinstance(block, Table):
                if block.caption:
                    st.caption(block.caption)
                st.dataframe(pd.DataFrame(block.rows, columns=_ui.unique_headers(block.headers)),
                             hide_index=True, width="stretch")
            elif isinstance(block, ChartBlock):
                if block.chart is None:
                    st.info(block.placeholder)
                else:
                    st.image(_ui.png(block.chart.png_base64), caption=f"{block.chart.title} — {block.chart.alt}")
            elif isinstance(block, Caveats):
                if block.items:
                    st.caption("\n".join(f"- {c}" for c in block.items))
            elif isinstance(block, Definitions):
                st.markdown("\n".join(f"- **{term}**: {text}" for term, text in block.items))
