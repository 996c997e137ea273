"""Page state in the URL: run, contestant, calibration item, ledger filters and claim live in the query string,
so a reload keeps the page and any view can be linked (``?run=demo-mock&contestant=c3``).

Streamlit drops a widget's value when its page is not rendered, and a new browser session starts empty. Each
URL-linked value therefore has a *shadow* in the session state that no widget owns: it is seeded from the URL
on a session's first run, re-seeds its widget when the widget comes back, and is what :func:`publish` writes
to the query string. Values read from a link are checked against what exists (:func:`seed`); a link naming a
run or contestant that is not there says so instead of silently showing another one.

History: the browser adds one entry per page switch and one per change a person makes, never one for a value a page
picks by itself. So (1) the sidebar's page links carry the target page's state (:func:`link_params`): the switch
lands on its final URL at once, with no second entry when the page writes its query string; (2) values a page
picks by default (the latest scored run, the first contestant, ledger page 1, 10 per page) are not written to the
URL (:func:`default`, ``FIXED_DEFAULTS``); (3) a URL that changes under the page (Back, Forward, a followed link)
is the truth: the page's values are re-read from it, an absent one back to its default (:func:`sync_from_url`), so
the page cannot write its previous state back and "flip" the browser forward again.
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
#: The query-string parameters each page owns (besides ``run``), by page title.
PAGE_PARAMS: dict[str, tuple[str, ...]] = {
    "Leaderboard": (),
    "Contestant": ("contestant",),
    "Ledger review": ("judge", "verifier", "jstatus", "agree", "who", "lookahead", "per", "page", "claim"),
    "Calibration": ("item",),
    "Audits": (),
    "Runs": ("a", "b"),
}
#: Values that mean the same as an absent parameter: never written to the URL.
FIXED_DEFAULTS: dict[str, Any] = {"per": 10, "page": 1, "judge": "(any)", "agree": "any"}
_LISTS = {"verifier", "jstatus"}
_INTS = {"item", "per", "page", "claim"}
_BOOLS = {"lookahead"}
_READ = "_url_read"
_UNKNOWN = "_url_unknown"
_FROM_URL = "_url_keys"
_PUBLISHED = "_url_published"
_DEFAULTED = "_url_defaulted"


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


def _current_query() -> dict[str, str]:
    return {k: ",".join(st.query_params.get_all(k)) for k in st.query_params}


def sync_from_url(page_title: str) -> None:
    """Take the page state from the URL on a session's first run (a new tab, a reload, a followed link: every
    parameter it names) and whenever the URL changed under the page since it last wrote it (Back, Forward, a page
    link: the run and this page's parameters, an absent one back to its default)."""
    ss = st.session_state
    first = not ss.get(_READ)
    if not first and _current_query() == ss.get(_PUBLISHED):
        return  # a widget changed (the URL is the page's own): the page writes the new state itself
    ss[_READ] = True
    params = list(PARAMS) if first else ["run", *PAGE_PARAMS.get(page_title, ())]
    for param in params:
        key = PARAMS[param]
        raw = st.query_params.get_all(param)
        value = _parse(param, raw) if raw else None
        if value is not None:
            ss[_shadow(key)] = value
            ss.setdefault(_FROM_URL, set()).add(key)
            ss.get(_DEFAULTED, {}).pop(key, None)
            if not first:  # the widget shows the URL's value (on a first run, seed() gives it)
                ss[key] = value
        elif not first:
            ss.pop(_shadow(key), None)
            ss.pop(key, None)


def restore_from_url() -> None:
    """On a session's first run: take the page state from the URL (see :func:`sync_from_url`)."""
    if not st.session_state.get(_READ):
        sync_from_url("")


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


def default(key: str, value: Any) -> None:
    """Before its widget is created, with no kept value: the page's own pick (not written to the URL until a person
    changes it, so it adds no history entry)."""
    ss = st.session_state
    ss[key] = value
    ss.setdefault(_DEFAULTED, {})[key] = value


def remember(key: str) -> None:
    """After its widget is created: keep its value."""
    ss = st.session_state
    ss[_shadow(key)] = ss.get(key)
    defaulted = ss.get(_DEFAULTED, {})
    if key in defaulted and defaulted[key] != ss.get(key):
        del defaulted[key]  # a person changed it: from now on it is part of the URL


def set_value(key: str, value: Any) -> None:
    """Set a URL-linked value for the next run (e.g. before ``st.switch_page``)."""
    st.session_state[_shadow(key)] = value
    st.session_state[key] = value


def kept(key: str) -> Any:
    return st.session_state.get(_shadow(key))


def _wanted(params: tuple[str, ...], live: bool = False) -> dict[str, str]:
    """The query string of ``run`` and ``params``: kept values (``live``: a widget's current value where it has
    one), without values a page picked by itself or that mean the same as an absent parameter."""
    ss = st.session_state
    defaulted = ss.get(_DEFAULTED, {})
    wanted = {}
    for param in ("run", *params):
        key = PARAMS[param]
        value = ss[key] if live and key in ss else ss.get(_shadow(key))
        if key in defaulted and defaulted[key] == value:
            continue
        if param in FIXED_DEFAULTS and value == FIXED_DEFAULTS[param]:
            continue
        text = _format(value)
        if text is not None:
            wanted[param] = text
    return wanted


def publish(*params: str) -> None:
    """Write the run and the page's own ``params`` to the query string (and nothing else)."""
    wanted = _wanted(params)
    if _current_query() != wanted:
        st.query_params.from_dict(wanted)
    st.session_state[_PUBLISHED] = wanted


def link_params(page_title: str) -> dict[str, str]:
    """The query string a link to ``page_title`` carries: the run and that page's kept values (so the switch lands
    on the URL the page keeps, one history entry)."""
    return _wanted(PAGE_PARAMS.get(page_title, ()), live=True)


def unknown_from_link() -> list[str]:
    """What a followed link named that does not exist here (shown once, then forgotten)."""
    return st.session_state.pop(_UNKNOWN, [])
