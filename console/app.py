"""The annotation console: ``streamlit run console/app.py`` (or ``grader console``).

Pages: leaderboard, contestant, ledger review, blind calibration grading, audits and run comparison.
The database is ``GRADER_DATABASE_URL``; annotators sign in with a token from ``GRADER_ANNOTATORS_FILE``.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `streamlit run console/app.py` puts only console/ on the path
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402

from console._state import restore_from_url  # noqa: E402
from console._ui import prewarm_server, sidebar_run_picker, sidebar_sign_in  # noqa: E402

st.set_page_config(page_title="Grader console", page_icon=":material/balance:", layout="wide")

PAGES = [
    st.Page("views/leaderboard.py", title="Leaderboard", icon=":material/leaderboard:", default=True),
    st.Page("views/contestant.py", title="Contestant", icon=":material/person:"),
    st.Page("views/ledger.py", title="Ledger review", icon=":material/fact_check:"),
    st.Page("views/calibration.py", title="Calibration", icon=":material/balance:"),
    st.Page("views/audits.py", title="Audits", icon=":material/analytics:"),
    st.Page("views/runs.py", title="Runs", icon=":material/compare_arrows:"),
]

page = st.navigation(PAGES)
restore_from_url()  # a reload or a followed link: run, contestant, item, filters from the query string
sidebar_sign_in()
prewarm_server(sidebar_run_picker())
page.run()
