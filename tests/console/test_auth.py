"""Annotator sign-in: token hashes only, constant-time checks, clear file errors, no forged sign-ins."""

from __future__ import annotations

import hashlib
import stat

import pytest
import yaml
from typer.testing import CliRunner

from console import AnnotatorDirectory, AuthError, SignedIn, hash_token, require_signed_in
from console.cli import app as annotators_app


def test_add_stores_only_a_salted_hash_and_the_token_signs_in(tmp_path):
    directory = AnnotatorDirectory(tmp_path / "a.yaml")
    token = directory.add("alice", email="alice@example.org")
    text = directory.path.read_text()
    assert token not in text
    record = yaml.safe_load(text)["annotators"][0]
    assert record["token_sha256"] == hashlib.sha256(bytes.fromhex(record["salt"]) + token.encode()).hexdigest()
    assert record["token_sha256"] != hashlib.sha256(token.encode()).hexdigest()  # salted
    assert stat.S_IMODE(directory.path.stat().st_mode) == 0o600
    who = directory.sign_in("alice", token)
    assert who.name == "alice" and who.method == "token"
    assert require_signed_in(who) is who


def test_wrong_token_unknown_name_and_duplicates_are_refused(tmp_path):
    directory = AnnotatorDirectory(tmp_path / "a.yaml")
    token_a = directory.add("alice")
    token_b = directory.add("bob")
    assert token_a != token_b
    with pytest.raises(AuthError, match="unknown annotator or wrong token"):
        directory.sign_in("alice", token_b)
    with pytest.raises(AuthError, match="unknown annotator or wrong token"):
        directory.sign_in("carol", token_a)
    with pytest.raises(AuthError, match="already exists"):
        directory.add("alice")
    with pytest.raises(AuthError, match="not a valid annotator name"):
        directory.add("bad name!")


def test_replace_reissues_the_token_and_remove_drops_the_annotator(tmp_path):
    directory = AnnotatorDirectory(tmp_path / "a.yaml")
    old = directory.add("alice", email="a@example.org")
    new = directory.add("alice", replace=True)
    with pytest.raises(AuthError):
        directory.sign_in("alice", old)
    assert directory.sign_in("alice", new).name == "alice"
    assert directory.records()[0].email == "a@example.org"  # kept on re-issue
    directory.remove("alice")
    assert directory.names() == []
    with pytest.raises(AuthError, match="no annotator"):
        directory.remove("alice")


def test_malformed_files_name_the_file_line_and_field(tmp_path):
    path = tmp_path / "a.yaml"
    path.write_text("annotators:\n  - name: alice\n    salt: [unclosed\n")
    with pytest.raises(AuthError, match=r"a\.yaml, line \d+: not valid YAML"):
        AnnotatorDirectory(path).records()
    path.write_text(yaml.safe_dump({"annotators": [{"name": "alice", "salt": "zz", "token_sha256": "0" * 64}]}))
    with pytest.raises(AuthError, match=r"annotator #1, field 'salt'"):
        AnnotatorDirectory(path).records()
    good = {"name": "alice", "salt": "0" * 32, "token_sha256": "0" * 64}
    path.write_text(yaml.safe_dump({"annotators": [good, good]}))
    with pytest.raises(AuthError, match=r"annotator #2, field 'name': 'alice' appears twice"):
        AnnotatorDirectory(path).records()


def test_missing_file_means_no_annotators(tmp_path, monkeypatch):
    monkeypatch.setenv("GRADER_ANNOTATORS_FILE", str(tmp_path / "none.yaml"))
    directory = AnnotatorDirectory()
    assert directory.path == tmp_path / "none.yaml"
    assert directory.records() == []


def test_identity_provider_login_maps_to_the_configured_email(tmp_path):
    directory = AnnotatorDirectory(tmp_path / "a.yaml")
    directory.add("alice", email="Alice@Example.org")
    who = directory.sign_in_oidc("alice@example.org")
    assert (who.name, who.method) == ("alice", "oidc")
    assert require_signed_in(who) is who
    with pytest.raises(AuthError, match="not a configured annotator"):
        directory.sign_in_oidc("mallory@example.org")
    with pytest.raises(AuthError):
        directory.sign_in_oidc(None)


def test_forged_or_missing_sign_in_is_refused():
    with pytest.raises(AuthError, match="sign in first"):
        require_signed_in(None)
    with pytest.raises(AuthError, match="sign in first"):
        require_signed_in("alice")
    with pytest.raises(AuthError, match="did not sign in"):
        require_signed_in(SignedIn(name="alice", method="token", seal="0" * 64))


def test_hash_token_depends_on_salt():
    assert hash_token("t", "00" * 16) != hash_token("t", "11" * 16)


def test_cli_prints_the_token_once_and_never_lists_it(tmp_path):
    path = tmp_path / "a.yaml"
    runner = CliRunner()
    added = runner.invoke(annotators_app, ["add", "alice", "--file", str(path)])
    assert added.exit_code == 0, added.output
    token = added.output.strip().splitlines()[-1]
    assert AnnotatorDirectory(path).sign_in("alice", token).name == "alice"
    listed = runner.invoke(annotators_app, ["list", "--file", str(path)])
    assert listed.exit_code == 0 and "alice" in listed.output
    assert token not in listed.output and token not in path.read_text()
    again = runner.invoke(annotators_app, ["add", "alice", "--file", str(path)])
    assert again.exit_code == 1 and "already exists" in again.output
