"""The sidebar's sign-in: token form (or ``st.login`` where configured), the browser session cookie, sign-out and
revocation (re-exported by ``console._ui``)."""

from __future__ import annotations

import streamlit as st

from console._auth import AnnotatorDirectory, AuthError, BrowserSessions, SignedIn, require_current

ANNOTATOR_KEY = "annotator"


@st.cache_resource(show_spinner=False)
def browser_sessions() -> BrowserSessions:
    return BrowserSessions()


def _cookie_sid() -> str | None:
    try:
        return st.context.cookies.get(BrowserSessions.COOKIE)
    except Exception:  # noqa: BLE001 - no request context (AppTest): no cookie
        return None


def _set_cookie(sid: str, max_age: int) -> None:
    """Set (or, with ``max_age`` 0, clear) the session cookie in this browser (an id only, never a token)."""
    st.html(
        f"<script>document.cookie = '{BrowserSessions.COOKIE}={sid}; path=/; max-age={max_age}; "
        "SameSite=Strict';</script>",
        unsafe_allow_javascript=True,
        width=1,
    )


def signed_in() -> SignedIn | None:
    """The annotator signed in to this browser session, if any (signed out here once revoked). A reload resumes
    the sign-in of this browser (the session cookie)."""
    who = st.session_state.get(ANNOTATOR_KEY)
    if who is None and not st.session_state.get("_signed_out"):
        who = browser_sessions().resume(_cookie_sid())
        if who is not None:
            st.session_state[ANNOTATOR_KEY] = who
    if not isinstance(who, SignedIn):
        return None
    try:
        return require_current(who)
    except AuthError as exc:
        st.session_state.pop(ANNOTATOR_KEY, None)
        browser_sessions().close(_cookie_sid())
        st.session_state["sign_in_error"] = str(exc)
        return None


def _oidc_configured() -> bool:
    try:
        return "auth" in st.secrets
    except Exception:  # noqa: BLE001 - no secrets file: built-in auth is simply not configured
        return False


def _sign_in_token(directory: AnnotatorDirectory) -> None:
    name = st.session_state.get("sign_in_name", "").strip()
    token = st.session_state.get("sign_in_token", "")
    st.session_state["sign_in_token"] = ""  # never kept in the session
    try:
        who = directory.sign_in(name, token)
        st.session_state[ANNOTATOR_KEY] = who
        st.session_state["_new_browser_session"] = browser_sessions().open(who)
        st.session_state.pop("sign_in_error", None)
        st.session_state.pop("_signed_out", None)
    except AuthError as exc:
        st.session_state["sign_in_error"] = str(exc)


def sidebar_sign_in() -> SignedIn | None:
    """Sign-in block of the sidebar: token form, or ``st.login`` where configured; sign out."""
    who = signed_in()
    box = st.sidebar.container(border=True)
    if who is not None:
        sid = st.session_state.pop("_new_browser_session", None)
        if sid:
            with st.sidebar:
                _set_cookie(sid, BrowserSessions.LIFETIME_SECONDS)
        box.markdown(f"Signed in as **{who.name}**")
        if box.button("Sign out", key="sign_out"):
            st.session_state.pop(ANNOTATOR_KEY, None)
            st.session_state["_signed_out"] = True
            browser_sessions().close(_cookie_sid())
            if who.method == "oidc":
                st.logout()
            st.rerun()
        return who
    if st.session_state.get("_signed_out"):
        with st.sidebar:
            _set_cookie("", 0)
    directory = AnnotatorDirectory()
    try:
        configured = directory.names()
    except AuthError as exc:
        box.error(str(exc))
        return None
    if _oidc_configured():
        user = getattr(st, "user", None)
        if user is not None and getattr(user, "is_logged_in", False):
            try:
                st.session_state[ANNOTATOR_KEY] = directory.sign_in_oidc(getattr(user, "email", None))
                st.rerun()
            except AuthError as exc:
                box.error(str(exc))
        elif box.button("Sign in with the identity provider", key="oidc_login"):
            st.login()
    if not configured:
        box.info(
            f"No annotators configured in `{directory.path}`: add one with `grader annotators add NAME`. "
            "The console is read-only until then."
        )
        return None
    box.markdown("**Annotator sign-in**")
    # a real form: the values are sent together on submit (Enter, or Tab then a click on "Sign in")
    with box.form("sign_in_form", border=False, enter_to_submit=True):
        st.text_input("Annotator", key="sign_in_name", autocomplete="username")
        st.text_input("Token", key="sign_in_token", type="password", autocomplete="current-password")
        st.form_submit_button("Sign in", key="sign_in_button", on_click=_sign_in_token, args=(directory,))
    if st.session_state.get("sign_in_error"):
        box.error(st.session_state["sign_in_error"])
    box.caption(
        "Reading needs no sign-in (human grades excepted); every grade and annotation is recorded under "
        "your name. A sign-in lasts 12 hours in this browser (a session cookie holding a random id; the "
        "token is never kept) or until you sign out."
    )
    return None
