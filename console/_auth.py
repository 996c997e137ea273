"""Annotator sign-in: a configured annotator list with per-annotator tokens (or Streamlit's built-in auth).

The annotators file (``GRADER_ANNOTATORS_FILE``, default ``annotators.yaml`` in the working directory) holds
names, optional e-mail addresses (for ``st.login``) and a salted SHA-256 hash of each token, never a token.
A token is printed once when it is created and cannot be recovered afterwards.

Every write of the console takes a :class:`SignedIn`, which only this module issues (after a token check
or an identity-provider login) and which carries a process-local seal, so a write cannot be made under a
name that did not sign in. Every write also re-reads the annotators file (:func:`require_current`): an
annotator removed with ``grader annotators remove``, or whose token was re-issued, can no longer write from
a session opened before, from the next write on.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

ANNOTATORS_ENV = "GRADER_ANNOTATORS_FILE"
DEFAULT_ANNOTATORS_FILE = "annotators.yaml"
NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,99}$")

_SEAL_KEY = secrets.token_bytes(32)  # process-local: a SignedIn cannot be forged or carried across processes


class AuthError(ValueError):
    """Sign-in failed, the annotators file is malformed, or a write came without a signed-in annotator."""


class AnnotatorRecord(BaseModel):
    """One configured annotator: the token is stored only as ``sha256(salt || token)``."""

    model_config = ConfigDict(extra="forbid")

    name: str
    email: str | None = None
    salt: str = Field(pattern=r"^[0-9a-f]{32}$")
    token_sha256: str = Field(pattern=r"^[0-9a-f]{64}$")
    created_at: str | None = None


class SignedIn(BaseModel):
    """An annotator who signed in during this process (issued only by :class:`AnnotatorDirectory`)."""

    model_config = ConfigDict(frozen=True)

    name: str
    method: str  # "token" | "oidc" | "import"
    seal: str
    credential: str = ""  # the token hash (token), e-mail (oidc) the session was opened with


def annotators_file(path: str | Path | None = None) -> Path:
    """The annotators file: ``path``, else ``$GRADER_ANNOTATORS_FILE``, else ``./annotators.yaml``."""
    return Path(path or os.environ.get(ANNOTATORS_ENV) or DEFAULT_ANNOTATORS_FILE)


def hash_token(token: str, salt: str) -> str:
    """Salted SHA-256 of a token (hex)."""
    return hashlib.sha256(bytes.fromhex(salt) + token.encode("utf-8")).hexdigest()


def _seal(name: str, method: str, credential: str = "") -> str:
    return hmac.new(_SEAL_KEY, f"{method}\0{name}\0{credential}".encode(), hashlib.sha256).hexdigest()


def require_signed_in(annotator: object) -> SignedIn:
    """The signed-in annotator, or :class:`AuthError` (no anonymous or forged writes)."""
    if not isinstance(annotator, SignedIn):
        raise AuthError("sign in first: every write needs a signed-in annotator")
    if not hmac.compare_digest(annotator.seal, _seal(annotator.name, annotator.method, annotator.credential)):
        raise AuthError(f"annotator {annotator.name!r} did not sign in through the console")
    return annotator


def require_current(annotator: object, directory: AnnotatorDirectory | None = None) -> SignedIn:
    """:func:`require_signed_in`, and the annotator is still configured with the credential they signed in with
    (removed, or token re-issued, or e-mail changed: :class:`AuthError`, so revocation takes effect on the next
    write)."""
    who = require_signed_in(annotator)
    directory = directory or AnnotatorDirectory()
    record = next((r for r in directory.records() if r.name == who.name), None)
    if record is None:
        raise AuthError(f"annotator {who.name!r} is no longer configured in {directory.path}: sign-in revoked")
    if who.method == "token" and not hmac.compare_digest(record.token_sha256, who.credential):
        raise AuthError(f"annotator {who.name!r}: the token was re-issued since this session signed in; sign in again")
    if who.method == "oidc" and (record.email or "").lower() != who.credential.lower():
        raise AuthError(f"annotator {who.name!r}: the e-mail changed since this session signed in; sign in again")
    return who


class AnnotatorDirectory:
    """The configured annotators of one annotators file."""

    def __init__(self, path: str | Path | None = None):
        self.path = annotators_file(path)

    def records(self) -> list[AnnotatorRecord]:
        """Every configured annotator; an empty list when the file does not exist."""
        if not self.path.exists():
            return []
        try:
            data = yaml.safe_load(self.path.read_text(encoding="utf-8")) or {}
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            line = f", line {mark.line + 1}" if mark is not None else ""
            raise AuthError(f"{self.path}{line}: not valid YAML ({exc})") from exc
        if not isinstance(data, dict) or not isinstance(data.get("annotators", []), list):
            raise AuthError(f"{self.path}: expected a mapping with an 'annotators' list")
        out: list[AnnotatorRecord] = []
        seen: set[str] = set()
        for i, item in enumerate(data.get("annotators") or [], start=1):
            try:
                record = AnnotatorRecord.model_validate(item)
            except ValidationError as exc:
                first = exc.errors()[0]
                field = ".".join(str(x) for x in first["loc"]) or "entry"
                raise AuthError(f"{self.path}: annotator #{i}, field {field!r}: {first['msg']}") from exc
            if not NAME_PATTERN.match(record.name):
                raise AuthError(f"{self.path}: annotator #{i}, field 'name': {record.name!r} is not a valid name")
            if record.name in seen:
                raise AuthError(f"{self.path}: annotator #{i}, field 'name': {record.name!r} appears twice")
            seen.add(record.name)
            out.append(record)
        return out

    def names(self) -> list[str]:
        return [r.name for r in self.records()]

    def _write(self, records: list[AnnotatorRecord]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        body = {"annotators": [r.model_dump(exclude_none=True) for r in records]}
        text = (
            "# Annotators of the grading console. Tokens are never stored: only a salted SHA-256 hash.\n"
            "# Add one with `grader annotators add NAME` (the token is printed once).\n"
            + yaml.safe_dump(body, sort_keys=False)
        )
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".annotators-", suffix=".yaml")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
            os.chmod(tmp, 0o600)
            os.replace(tmp, self.path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise

    def add(self, name: str, *, email: str | None = None, replace: bool = False) -> str:
        """Create (or, with ``replace``, re-issue) an annotator's token; returns the token, shown once."""
        if not NAME_PATTERN.match(name):
            raise AuthError(f"{name!r} is not a valid annotator name (letters, digits, _ . @ -; up to 100)")
        records = self.records()
        existing = [r for r in records if r.name == name]
        if existing and not replace:
            raise AuthError(f"annotator {name!r} already exists in {self.path} (use --replace to re-issue)")
        token = secrets.token_urlsafe(24)
        salt = secrets.token_hex(16)
        record = AnnotatorRecord(
            name=name,
            email=email if email is not None else (existing[0].email if existing else None),
            salt=salt,
            token_sha256=hash_token(token, salt),
            created_at=datetime.now(UTC).isoformat(timespec="seconds"),
        )
        self._write([r for r in records if r.name != name] + [record])
        return token

    def remove(self, name: str) -> None:
        """Remove an annotator (their grades stay: they are append-only rows)."""
        records = self.records()
        if not any(r.name == name for r in records):
            raise AuthError(f"no annotator {name!r} in {self.path}")
        self._write([r for r in records if r.name != name])

    def sign_in(self, name: str, token: str) -> SignedIn:
        """Check a token (constant time); :class:`AuthError` names no detail an attacker could use."""
        for record in self.records():
            if record.name == name and hmac.compare_digest(hash_token(token, record.salt), record.token_sha256):
                return SignedIn(
                    name=name,
                    method="token",
                    seal=_seal(name, "token", record.token_sha256),
                    credential=record.token_sha256,
                )
        raise AuthError("unknown annotator or wrong token")

    def sign_in_import(self, name: str) -> SignedIn:
        """The author of grades imported from a file by an operator with database access (``grader calibration
        import``): a configured annotator, recorded with the method ``import``."""
        if any(record.name == name for record in self.records()):
            return SignedIn(name=name, method="import", seal=_seal(name, "import"))
        raise AuthError(
            f"{name!r} is not a configured annotator in {self.path} (add them with `grader annotators add`)"
        )

    def sign_in_oidc(self, email: str | None) -> SignedIn:
        """An identity-provider login (``st.login``) maps to the configured annotator with that e-mail."""
        if email:
            for record in self.records():
                if record.email and record.email.lower() == email.lower():
                    return SignedIn(
                        name=record.name,
                        method="oidc",
                        credential=record.email,
                        seal=_seal(record.name, "oidc", record.email),
                    )
        raise AuthError(f"{email or 'this account'} is not a configured annotator")


class BrowserSessions:
    """Sign-ins kept across reloads of one browser: a random id in a cookie (``grader_session``, SameSite=Strict,
    12 hours) maps to the :class:`SignedIn` held in this server process only. The token is never stored; a server
    restart, a sign-out or the expiry ends the session, and :func:`require_current` still checks the annotators
    file on every write (revocation)."""

    COOKIE = "grader_session"
    LIFETIME_SECONDS = 12 * 3600

    def __init__(self) -> None:
        import threading

        self._lock = threading.Lock()
        self._sessions: dict[str, tuple[SignedIn, float]] = {}

    def open(self, who: SignedIn) -> str:
        import time

        sid = secrets.token_urlsafe(32)
        with self._lock:
            self._sessions[sid] = (require_signed_in(who), time.time() + self.LIFETIME_SECONDS)
        return sid

    def resume(self, sid: str | None) -> SignedIn | None:
        import time

        if not sid:
            return None
        with self._lock:
            held = self._sessions.get(sid)
            if held is None:
                return None
            if held[1] < time.time():
                del self._sessions[sid]
                return None
            return held[0]

    def close(self, sid: str | None) -> None:
        with self._lock:
            self._sessions.pop(sid or "", None)
