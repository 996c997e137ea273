"""Page state in the URL, revocation, plain-text notes, human grades behind sign-in, flag reasons (AppTest).

The same behaviours in a real browser (reload, links, Tab sign-in, two annotators) are in test_browser_state.py.
"""

from __future__ import annotations

from console import (
    AnnotatorDirectory,
    build_synthetic_run,
    ledger_page,
    record_ledger_annotation,
    run_contestants,
)
from grader.storage import ContestantScoreRow, session_scope
from tests.console._helpers import (
    app_test,
    audit_sections,
    open_audit_section,
    page_text,
    sign_in,
    write_forms,
)


def _open(page: str, **params: str):
    """A new browser session on ``page`` with ``params`` in its URL (a reload, or a followed link)."""
    at = app_test()
    for key, value in params.items():
        at.query_params[key] = value
    if page != "views/leaderboard.py":
        at.switch_page(page)
    return at.run()


def test_a_link_opens_the_run_and_contestant_it_names_and_the_url_follows_the_page(console_env):
    build_synthetic_run(console_env.bundle, "other-run", db_url=console_env.db_url, claims_per_grade=2, seed=4)
    at = _open("views/contestant.py", run=console_env.run_id, contestant="m2")
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="run_id").value == console_env.run_id  # not the newest run
    assert at.selectbox(key="selected_contestant").value == "m2" and "Model Two" in page_text(at)
    assert at.query_params["run"] == console_env.run_id and at.query_params["contestant"] == "m2"
    at.selectbox(key="selected_contestant").set_value("m1").run()
    assert at.query_params["contestant"] == "m1"


def test_the_contestant_button_keeps_the_run(console_env):
    build_synthetic_run(console_env.bundle, "newer-run", db_url=console_env.db_url, claims_per_grade=2, seed=4)
    at = _open("views/leaderboard.py", run=console_env.run_id)
    assert at.selectbox(key="run_id").value == console_env.run_id
    links = dict(zip(at.dataframe[0].value["contestant"], at.dataframe[0].value["page"], strict=True))
    assert links["Model Two"] == f"./contestant?run={console_env.run_id}&contestant=m2"  # the link column
    at.selectbox(key="leaderboard_open").set_value("m2")
    at.button(key="open_contestant").click().run()
    assert at.title[0].value == "Contestant"
    assert at.selectbox(key="run_id").value == console_env.run_id and "Model Two" in page_text(at)


def test_a_link_to_something_that_is_not_there_says_so(console_env):
    at = _open("views/contestant.py", run="no-such-run", contestant="zz")
    assert not at.exception
    text = page_text(at)
    assert "The link names run no-such-run, which is not in this database" in text
    assert "The link names contestant zz" in text


def test_ledger_filters_and_a_linked_claim_live_in_the_url(console_env):
    url = console_env.db_url
    entry = ledger_page(console_env.run_id, None, 1, 50, url).entries[3]
    at = _open("views/ledger.py", run=console_env.run_id, verifier="contradicted,supported", per="50")
    assert at.multiselect(key="ledger_verifier").value == ["contradicted", "supported"]
    assert at.selectbox(key="ledger_page_size").value == 50  # not the default (10)
    assert at.query_params["verifier"] == "contradicted,supported"
    linked = _open("views/ledger.py", run=console_env.run_id, claim=str(entry.id))
    assert f"Showing claim {entry.id} only" in page_text(linked)
    assert "**1** claims match" in page_text(linked) and entry.claim in page_text(linked).replace("\\", "")


def test_notes_render_as_plain_text(console_env):
    """A markdown image or link, a bare URL or an e-mail in a note is shown exactly as typed, with no markdown
    at all (st.text): never fetched, followed or made a link."""
    who = AnnotatorDirectory(console_env.annotators).sign_in("alice", console_env.tokens["alice"])
    entry = ledger_page(console_env.run_id, None, 1, 1, console_env.db_url).entries[0]
    note = (
        "see ![x](http://attacker.example/p.png) and [here](http://attacker.example) :red[alarm] $x^2$ "
        "https://example.com/a_b www.example.org mail@example.com"
    )
    record_ledger_annotation(who, entry.id, "supported", note, console_env.db_url)
    at = _open("views/ledger.py", run=console_env.run_id, claim=str(entry.id))
    shown = [t.value for t in at.text if "attacker" in t.value]
    assert shown and shown[0].endswith(note)  # exactly as typed
    assert not [c.value for c in at.caption if "attacker" in c.value]  # never through markdown


def test_judge_text_in_markdown_makes_no_link_of_a_bare_url_or_email():
    from console._ui import plain

    text = plain("see https://example.com/x, www.example.org and mail@example.com")
    assert "https\\:\u2060//" in text and "www\u2060\\." in text and "@\u2060example" in text
    assert (
        text.replace("\u2060", "").replace("\\", "") == "see https://example.com/x, www.example.org and "
        "mail@example.com"
    )


def test_text_inside_a_card_block_cannot_break_out_of_its_grey_span_or_table_cell():
    import pandas as pd

    from console._ui import gray, markdown_table

    line = gray("a] :red[b](https://x.example/i.png)\n![img](y)")
    assert line.startswith(":gray[") and line.endswith("]") and "\n" not in line
    assert "]" not in line[len(":gray[") : -1].replace("\\]", "")  # every bracket inside escaped
    table = markdown_table(pd.DataFrame({"field": ["a|b", None], "value": ["x\ny", 1.5]}))
    head, rule, *rows = table.split("\n")
    assert head == "| field | value |" and rule == "|---|---|" and len(rows) == 2  # a newline never ends a row
    assert rows[0] == "| a\\|b | x y |" and rows[1] == "| — | 1\\.5 |"  # a pipe cannot start a cell


def test_an_over_long_note_is_refused_with_a_message_and_nothing_stored(console_env):
    from grader.storage import LedgerAnnotationRow

    entry = ledger_page(console_env.run_id, None, 1, 1, console_env.db_url).entries[0]
    at = _open("views/ledger.py", run=console_env.run_id, claim=str(entry.id))
    sign_in(at, "alice", console_env.tokens["alice"])
    at.text_input(key=f"ann_note_{entry.id}").input("x" * 6000)
    write_forms(at)[0].click().run()
    assert "note: 6,000 characters, longer than the limit of 5,000" in page_text(at)
    assert at.text_input(key=f"ann_note_{entry.id}").value == "x" * 6000  # kept, to be shortened
    with session_scope(console_env.db_url) as s:
        assert s.query(LedgerAnnotationRow).count() == 0


def test_human_grades_need_a_sign_in_on_the_audits_page(console_env):
    import time

    from console import HumanGradeInput, record_human_grade

    who = AnnotatorDirectory(console_env.annotators).sign_in("bob", console_env.tokens["bob"])
    for c in run_contestants(console_env.run_id, console_env.db_url):
        record_human_grade(
            who, console_env.run_id, c.row_id, HumanGradeInput(reasoning=60, evidence=50), console_env.db_url
        )
    at = _open("views/audits.py", run=console_env.run_id)
    start = time.monotonic()
    while not audit_sections(at):
        assert time.monotonic() - start < 240
        time.sleep(0.5)
        at.run()
    calibration = open_audit_section(at, "Calibration")
    assert "shown to signed-in annotators only" in "\n".join(str(e.value) for e in calibration.info)
    assert not calibration.get("imgs") and not calibration.get("image")
    calibration = open_audit_section(sign_in(at, "alice", console_env.tokens["alice"]), "Calibration")
    assert "signed-in annotators only" not in "\n".join(str(e.value) for e in calibration.info)
    assert calibration.get("imgs") or calibration.get("image")  # the scatter of human vs judge grades


def test_revocation_signs_an_open_session_out(console_env):
    at = sign_in(_open("views/ledger.py", run=console_env.run_id), "alice", console_env.tokens["alice"])
    assert write_forms(at)
    AnnotatorDirectory(console_env.annotators).remove("alice")
    at.run()
    assert not write_forms(at) and "no longer configured" in page_text(at)


def test_flags_show_their_reason(console_env):
    c = run_contestants(console_env.run_id, console_env.db_url)[1]
    with session_scope(console_env.db_url) as s:
        row = s.query(ContestantScoreRow).filter_by(contestant_id=c.row_id).one()
        row.flagged = True
        row.details = {
            **row.details,
            "panel": {
                **row.details["panel"],
                "missing": ["judge-xai"],
                "reasons": ["2 of 3 judges graded: score computed, flagged"],
            },
        }
    at = _open("views/leaderboard.py", run=console_env.run_id)
    frame = at.dataframe[0].value.set_index("contestant")
    assert frame.loc[c.display_name, "flag_reason"] == (
        "2 of 3 judges graded: score computed, flagged — missing: judge-xai"
    )
    at = _open("views/contestant.py", run=console_env.run_id, contestant=c.key)
    assert "Flagged, never official: 2 of 3 judges graded" in page_text(at) and "judge-xai" in page_text(at)


def test_switching_runs_drops_a_kept_item_without_blaming_a_link(console_env):
    """An item number kept from one run that the next run lacks is dropped quietly (it came from no link)."""
    build_synthetic_run(console_env.bundle, "other-run", db_url=console_env.db_url, claims_per_grade=2, seed=4)
    at = sign_in(
        _open("views/contestant.py", run=console_env.run_id, contestant="m2"), "alice", console_env.tokens["alice"]
    )
    at.session_state["_keep_calib_item"] = 99  # as if chosen earlier on another run's calibration page
    at.switch_page("views/calibration.py").run()
    assert not at.exception and "Your grade of Item" in page_text(at)
    assert "The link names" not in page_text(at)
    linked = sign_in(
        _open("views/calibration.py", run=console_env.run_id, item="99"), "alice", console_env.tokens["alice"]
    )
    assert "The link names calibration item 99" in page_text(linked)  # a link's is reported
