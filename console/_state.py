"""Page state in the URL: run, contestant, calibration item, ledger filters and claim live in the query string,
so a reload keeps the page and any view can be linked (``?run=demo-mock&contestant=c3``).

Streamlit drops a widget's value when its page is not rendered, and a new browser session starts empty. Each
URL-linked value therefore has a *shadow* in the session state that no widget owns: it is seeded from the URL
on a session's first run, re-seeds its widget when the widget comes back, and is what :func:`publish` writes
to the query string. Values read from a link are checked against what exists (:func:`seed`); a link naming a
run or contestant that is not there says so instead of silently showing another one.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

RUN_KEY = "run_id"
CONTESTANT_KEY = "selected_contestant"
ITEM_KEY = "calib_item"

# query-string name -> session-state key (of the widget that shows it)
PARAMS: dict[str, str] = {
    "run": RUN_KEY,
    "contestant": CONTESTANT_KEY,
    "item": ITEM_KEY,
    "judge": "ledger_judge",
    "verifier": "ledger_verifier",
    "jstatus": "ledger_judge_status",
    "agree": "ledger_disagree",
    "who": "ledger_contestant",
    "lookahead": "ledger_lookahead",
    "per": "ledger_page_size",
    "page": "ledger_page",
    "claim": "ledger_claim",
    "a": "cmp_run_a",
    "b": "cmp_run_b",
}
_LISTS = {"verifier", "jstatus"}
_INTS = {"item", "per", "page", "claim"}
_BOOLS = {"lookahead"}
_READ = "_url_read"
_UNKNOWN = "_url_unknown"
_FROM_URL = "_url_keys"


def _shadow(key: str) -> str:
    return f"_keep_{key}"


def _parse(param: str, raw: list[str]) -> Any:
    if param in _LISTS:
        return [v for part in raw for v in part.split(",") if v]
    value = raw[-1] if raw else ""
    if param in _INTS:
        try:
            return int(value)
        except ValueError:
            return None
    if param in _BOOLS:
        return value.lower() in ("1", "true", "yes")
    return value


def _format(value: Any) -> str | None:
    if value is None or value == "" or value == [] or value is False:
        return None
    if value is True:
        return "1"
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def restore_from_url() -> None:
    """On a session's first run (a new tab, a reload, a followed link): take the page state from the URL."""
    ss = st.session_state
    if ss.get(_READ):
        return
    ss[_READ] = True
    for param, key in PARAMS.items():
        raw = st.query_params.get_all(param)
        if raw:
            value = _parse(param, raw)
            if value is not None:
                ss[_shadow(key)] = value
                ss.setdefault(_FROM_URL, set()).add(key)


def seed(key: str, valid: list[Any] | None = None, what: str = "") -> None:
    """Before its widget is created: give the widget its kept value (from the URL or an earlier page view).

    With ``valid``, a kept value outside it is dropped and noted (see :func:`unknown_from_link`).
    """
    ss = st.session_state
    kept = ss.get(_shadow(key))
    if kept is None:
        return
    from_link = key in ss.get(_FROM_URL, set())
    ss.get(_FROM_URL, set()).discard(key)
    if valid is not None:
        items = kept if isinstance(kept, list) else [kept]
        bad = [v for v in items if v not in valid]
        if bad:
            if from_link:  # a value kept from another run or page is simply dropped; a link's is reported
                ss.setdefault(_UNKNOWN, []).append(f"{what or key} {', '.join(map(str, bad))}")
            kept = [v for v in items if v in valid] if isinstance(kept, list) else None
            ss[_shadow(key)] = kept
            if kept is None:
                ss.pop(key, None)
                return
    if key not in ss:
        ss[key] = kept


def remember(key: str) -> None:
    """After its widget is created: keep its value."""
    st.session_state[_shadow(key)] = st.session_state.get(key)


def set_value(key: str, value: Any) -> None:
    """Set a URL-linked value for the next run (e.g. before ``st.switch_page``)."""
    st.session_state[_shadow(key)] = value
    st.session_state[key] = value


def kept(key: str) -> Any:
    return st.session_state.get(_shadow(key))


def publish(*params: str) -> None:
    """Write the run and the page's own ``params`` to the query string (and nothing else)."""
    ss = st.session_state
    wanted = {}
    for param in ("run", *params):
        value = _format(ss.get(_shadow(PARAMS[param])))
        if value is not None:
            wanted[param] = value
    current = {k: ",".join(st.query_params.get_all(k)) for k in st.query_params}
    if current != wanted:
        st.query_params.from_dict(wanted)


def unknown_from_link() -> list[str]:
    """What a followed link named that does not exist here (shown once, then forgotten)."""
    return st.session_state.pop(_UNKNOWN, [])
