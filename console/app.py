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

from console._state import link_params, sync_from_url  # noqa: E402
from console._ui import new_view, prewarm_server, sidebar_run_picker, sidebar_sign_in  # noqa: E402

st.set_page_config(page_title="Grader console", page_icon=":material/balance:", layout="wide")

PAGES = [
    st.Page("views/leaderboard.py", title="Leaderboard", icon=":material/leaderboard:", default=True),
    st.Page("views/contestant.py", title="Contestant", icon=":material/person:"),
    st.Page("views/ledger.py", title="Ledger review", icon=":material/fact_check:"),
    st.Page("views/calibration.py", title="Calibration", icon=":material/balance:"),
    st.Page("views/audits.py", title="Audits", icon=":material/analytics:"),
    st.Page("views/runs.py", title="Runs", icon=":material/compare_arrows:"),
]

# the sidebar's page links are drawn here (not by st.navigation): each carries its page's state in its query string,
# so a page switch is one browser history entry and Back returns to the previous view
new_view()
page = st.navigation(PAGES, position="hidden")
sync_from_url(page.title)  # a reload, a followed link, Back/Forward: run, contestant, item, filters from the URL
links = st.sidebar.container()
run = sidebar_run_picker()  # above the sign-in box: what every page shows
sidebar_sign_in()
with links:
    for target in PAGES:
        st.page_link(target, query_params=link_params(target.title))
try:
    page.run()
finally:  # after the page: its own work comes first (a first view does not share the CPU with the warm-up)
    prewarm_server(run)
