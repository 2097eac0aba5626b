"""Hostile input at every URL: never a 5xx, and a refusal changes nothing.

Generated from the URL configuration like the permission matrix: each URL
name is one test, run against the permission-matrix world as every role.
For each method (and each baseline of ``inputs.BASELINES``) the test first
sends a valid request and records which query parameters and body fields
it reads (and from where). Then:

1. a read parameter that ``inputs.INPUTS`` does not declare fails the
   test, and so does a query or form parameter read anywhere but in
   ``core.request``, Django's forms or DRF's serializers;
2. every parameter the request read is sent with hostile values —
   Unicode digits, huge and negative numbers, nested JSON, lone
   surrogates, NUL, right-to-left overrides, markup, 10,000 characters,
   bytes that are not UTF-8 — one at a time, the others valid. The first
   role of each kind of request (the same parameters read, the same kind of
   answer) gets a few in every run and all in the slow run
   (``test_hostile_input_every_value``); every further role of that kind
   the first of them;
3. an API write is sent whole bodies that are no JSON object (50,000
   nested brackets, a list, NaN, broken UTF-8), and an id in the path that
   no database holds.

Every answer must be below 500; a refusal (4xx) of a write must leave every
row of the product's tables as it was. Each request runs in a savepoint
that is rolled back.
"""

from __future__ import annotations

import contextvars
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import pytest
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse, QueryDict
from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart
from django.urls import reverse
from django.utils.datastructures import MultiValueDict

from core.request import BoundedJSONParser
from games.selectors import log_cache
from tests.security.inputs import BASELINES, FRAMEWORK_READS, INPUTS
from tests.security.policy import BODIES, POLICY
from tests.security.test_permission_matrix import URLS, _kwargs
from tests.security.world import CSRF, ROLES, World, fingerprint

UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}
# Modules that read query and form parameters as a parser does (drf_spectacular:
# the schema and docs views' own ?lang=, ?version=, ?script=).
PARSERS = ("core.", "django.", "rest_framework.", "drf_spectacular.")
# A refused table entry is kept for the judges on purpose (judging.MoveRefusal).
KEPT_ON_REFUSAL = {"api:table-entries": {"judging.MoveRefusal"}}


class Raw(bytes):
    """A query or form value sent as these bytes, percent-encoded (not UTF-8)."""


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


# Sent in query strings, form fields and JSON bodies.
HOSTILE_TEXT: list[Any] = [
    "²",  # str.isdigit() is true, int() refuses it
    "-1",
    "99999999999999999999999",
    "9" * 5000,  # beyond int()'s 4300 digits
    "",
    "Hans\x00en",
    "Ali \u202eHansen",
    '<script>alert(1)</script><img src="/etc/passwd"/>',
    "x" * 10_000,
]
# JSON only: values a form cannot carry.
HOSTILE_JSON: list[Any] = [
    10**30,
    1.5,
    None,
    ["x"] * 10_000,
    {"a": [1, {"b": True}]},
    "Ali\ud800",
    _nested(25),
]
# Query strings and forms only: bytes that are not UTF-8 (a lone surrogate, then 0xFF).
HOSTILE_RAW: list[Any] = [Raw(b"\xed\xa0\x80\xff")]
# How deep a role's request is walked. The first role of each kind of request
# (the same parameters read, the same kind of answer) gets the lists above in
# the slow run (PostgreSQL in CI) and these in every run (SQLite too); every
# further role of that kind gets the first of them.
SMOKE_TEXT: list[Any] = ["²", "Hans\x00en"]
SMOKE_JSON: list[Any] = ["Ali\ud800", {"a": [1]}]
# Whole API bodies.
HOSTILE_BODIES: list[bytes] = [
    b"[" * 50_000 + b"]" * 50_000,
    b'{"a":' * 30_000 + b"1" + b"}" * 30_000,
    b"[1, 2]",
    b'{"seq": NaN}',
    b'{"text": "\\ud800"}',
    b'{"text": "\\u0000"}',
    b"\xff\xfe{}",
    b"",
]


# --- recording what a request reads -----------------------------------------------------


@dataclass
class Recording:
    request: HttpRequest | None = None
    reads: set[str] = field(default_factory=set)
    raw: set[str] = field(default_factory=set)


_recording: contextvars.ContextVar[Recording | None] = contextvars.ContextVar(
    "hostile_recording", default=None
)


class CaptureRequest:
    """Test-only middleware: tells the recorder which request is being served."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        recording = _recording.get()
        if recording is not None:
            recording.request = request
        return self.get_response(request)


def _note(store: Any, key: Any) -> None:
    """Note a read of ``store[key]`` made by the caller of the patched method."""
    recording = _recording.get()
    if recording is None or recording.request is None:
        return
    request = recording.request
    if store is request.__dict__.get("GET"):
        name = f"?{key}"
    elif isinstance(store, QueryDict) or store is request.__dict__.get("_files"):
        name = str(key)  # the form body, DRF's form data, uploaded files
    else:
        return
    frame = sys._getframe(2)  # _note <- the patched method <- its caller
    caller = frame.f_globals.get("__name__", "")
    parser = caller.startswith(PARSERS)
    if name == "*" and parser:
        return  # the framework going through every value (closing uploads, copying)
    recording.reads.add(name)
    if not parser:
        recording.raw.add(f"{name} read by {caller}:{frame.f_lineno}")


class RecordingDict(dict):
    """A parsed JSON object that notes which fields are read (anywhere: JSON is typed)."""

    def _seen(self, key: Any) -> None:
        recording = _recording.get()
        if recording is not None:
            recording.reads.add(str(key))

    def get(self, key: Any, default: Any = None) -> Any:
        self._seen(key)
        return super().get(key, default)

    def __getitem__(self, key: Any) -> Any:
        self._seen(key)
        return super().__getitem__(key)

    def __contains__(self, key: Any) -> bool:
        self._seen(key)
        return super().__contains__(key)

    def pop(self, key: Any, *default: Any) -> Any:
        self._seen(key)
        return super().pop(key, *default)


@pytest.fixture
def recorder(monkeypatch, settings):
    """Patch the request data types so every read is noted; yields a recording factory."""
    settings.MIDDLEWARE = ["tests.security.test_hostile_input.CaptureRequest", *settings.MIDDLEWARE]
    original_get, original_item = MultiValueDict.get, MultiValueDict.__getitem__
    original_getlist = MultiValueDict.getlist

    def get(self: MultiValueDict, key: Any, default: Any = None) -> Any:
        _note(self, key)
        return original_get(self, key, default)

    def getitem(self: MultiValueDict, key: Any) -> Any:
        _note(self, key)
        return original_item(self, key)

    def getlist(self: MultiValueDict, key: Any, default: Any = None) -> Any:
        _note(self, key)
        return original_getlist(self, key, default)

    def whole(name: str) -> Callable[..., Any]:
        original = getattr(MultiValueDict, name)

        def read_all(self: MultiValueDict, *args: Any) -> Any:
            _note(self, "*")
            return original(self, *args)

        return read_all

    monkeypatch.setattr(MultiValueDict, "get", get)
    monkeypatch.setattr(MultiValueDict, "__getitem__", getitem)
    monkeypatch.setattr(MultiValueDict, "getlist", getlist)
    for name in ("items", "lists", "values", "dict"):
        monkeypatch.setattr(MultiValueDict, name, whole(name))
    original_parse = BoundedJSONParser.parse

    def parse(self: BoundedJSONParser, *args: Any, **kwargs: Any) -> Any:
        data = original_parse(self, *args, **kwargs)
        return RecordingDict(data) if type(data) is dict else data

    monkeypatch.setattr(BoundedJSONParser, "parse", parse)

    @contextmanager
    def recording() -> Iterator[Recording]:
        current = Recording()
        token = _recording.set(current)
        try:
            yield current
        finally:
            _recording.reset(token)

    return recording


# --- sending -------------------------------------------------------------------------------


def _encode(pairs: list[tuple[str, Any]]) -> str:
    parts = []
    for key, value in pairs:
        data = bytes(value) if isinstance(value, Raw) else str(value).encode("utf-8", "replace")
        parts.append(f"{quote(key)}={quote(data)}")
    return "&".join(parts)


@dataclass(frozen=True)
class Sent:
    status: int
    changed: set[str]  # models whose rows differ after a refused write
    recording: Recording


def _send(
    client: Any,
    method: str,
    path: str,
    query: dict[str, Any],
    body: dict[str, Any] | bytes,
    recording: Callable[[], Any],
    pristine: dict[str, int],
) -> Sent:
    url = f"{path}?{_encode(list(query.items()))}" if query else path
    extra = {"HTTP_X_CSRFTOKEN": CSRF}
    cache.clear()
    log_cache.clear()
    savepoint = transaction.savepoint()
    try:
        with recording() as noted:
            if method == "GET":
                response = client.get(url, **extra)
            elif isinstance(body, bytes):
                response = client.generic(
                    method, url, body, content_type="application/json", **extra
                )
            elif path.startswith("/api/"):
                data = json.dumps(body)
                response = client.generic(
                    method, url, data, content_type="application/json", **extra
                )
            elif any(isinstance(v, _Upload) for v in body.values()):
                files = {k: (v.file() if isinstance(v, _Upload) else v) for k, v in body.items()}
                response = client.generic(
                    method,
                    url,
                    encode_multipart(BOUNDARY, files),
                    content_type=MULTIPART_CONTENT,
                    **extra,
                )
            else:
                response = client.generic(
                    method,
                    url,
                    _encode([(k, v) for k, v in body.items() if not isinstance(v, list)]
                            + [(k, item) for k, v in body.items() if isinstance(v, list)
                               for item in v]),
                    content_type="application/x-www-form-urlencoded",
                    **extra,
                )  # fmt: skip
        # Every request is rolled back, so the data before each is the world as built.
        refused = method in UNSAFE and response.status_code >= 400
        after = fingerprint() if refused else pristine
    finally:
        transaction.savepoint_rollback(savepoint)
    changed = {label for label, rows in pristine.items() if after[label] != rows}
    return Sent(response.status_code, changed, noted)


@dataclass(frozen=True)
class _Upload:
    """A file field's content (a CSV upload)."""

    content: bytes

    def file(self) -> Any:
        from django.core.files.uploadedfile import SimpleUploadedFile

        return SimpleUploadedFile("pairs.csv", self.content, content_type="text/csv")


# --- the walk ------------------------------------------------------------------------------


def _baselines(name: str, method: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    found = [(dict(q), dict(b)) for m, q, b in BASELINES.get(name, []) if m == method]
    default = dict(BODIES.get(name, {})) if method in UNSAFE else {}
    return [({}, default), *found]


def _hostile_values(name: str, api: bool, *, full: bool, first: bool) -> list[Any]:
    if not first:
        return SMOKE_TEXT[:1]
    if name.startswith("?") or not api:
        return [*HOSTILE_TEXT, *HOSTILE_RAW] if full else [*SMOKE_TEXT, *HOSTILE_RAW]
    return [*HOSTILE_TEXT, *HOSTILE_JSON] if full else [*SMOKE_TEXT, *SMOKE_JSON]


def _file_values(name: str) -> list[Any]:
    return [
        _Upload(b"player_1,player_2\n\x00A,B\n"),
        _Upload(b"\xff\xfe\x00p\x00l"),
        _Upload(b"player_1,player_2\n" + b"x" * 10_000 + b",y\n"),
        _Upload(b'player_1,player_2\n"<script>",\xe2\x80\xaeB\n'),
    ]


def _with(
    query: dict[str, Any], body: dict[str, Any], param: str, value: Any
) -> tuple[dict[str, Any], dict[str, Any]]:
    if param.startswith("?"):
        return {**query, param[1:]: value}, body
    return query, {**body, param: value}


@dataclass
class Walk:
    name: str
    world: World
    recording: Callable[[], Any]
    full: bool
    pristine: dict[str, int] = field(default_factory=fingerprint)
    failures: list[str] = field(default_factory=list)
    # (method, baseline, reads, answer class) of the requests walked in depth.
    walked: set[tuple[Any, ...]] = field(default_factory=set)
    # One signed-in client per role (a sign-in per request would cost more).
    clients: dict[str, Any] = field(default_factory=dict)

    def send(self, role: str, method: str, path: str, query: Any, body: Any) -> Sent:
        if role not in self.clients:
            self.clients[role] = self.world.client(role)
        client = self.clients[role]
        return _send(client, method, path, query, body, self.recording, self.pristine)

    def check(self, cell: str, method: str, sent: Sent) -> None:
        if sent.status >= 500 and not (self.name == "health" and sent.status == 503):
            # (503 from /health/ says a dependency is down: an answer, not an error.)
            self.failures.append(f"{cell}: {sent.status} (server error)")
        kept = KEPT_ON_REFUSAL.get(self.name, set())
        if method in UNSAFE and sent.status >= 400 and sent.changed - kept:
            self.failures.append(
                f"{cell}: refused ({sent.status}) but {sorted(sent.changed)} changed"
            )

    def url(self, role: str) -> str:
        _, pattern = URLS[self.name]
        return reverse(self.name, kwargs=_kwargs(self.name, pattern, self.world, role))

    def run(self, method: str, role: str) -> bool:
        """Walk ``role``'s requests; whether its default request was the first of its kind."""
        declared = INPUTS.get(self.name, {}).get(method, {})
        first_of_kind = False
        path = self.url(role)
        api = path.startswith("/api/")
        for number, (query, body) in enumerate(_baselines(self.name, method)):
            base = self.send(role, method, path, query, body)
            where = f"{method} {path} as {role}"
            self.check(f"{where} (baseline {query or body or 'empty'})", method, base)
            reads = base.recording.reads - FRAMEWORK_READS
            undeclared = sorted(reads - set(declared))  # "*": a read of every parameter
            if undeclared:
                self.failures.append(
                    f"{where} reads {undeclared}: declare each in tests/security/inputs.py "
                    "INPUTS and read it through core.request"
                )
            for raw in sorted(base.recording.raw):
                self.failures.append(f"{where}: {raw}, not through core.request")
            signature = (method, number, frozenset(reads), base.status // 100)
            first = signature not in self.walked
            self.walked.add(signature)
            first_of_kind = first_of_kind or (first and number == 0)
            for param in sorted(reads & set(declared)):
                if declared[param] == "file":
                    values = _file_values(param)
                else:
                    values = _hostile_values(param, api, full=self.full, first=first)
                for value in values:
                    q, b = _with(query, body, param, value)
                    sent = self.send(role, method, path, q, b)
                    self.check(f"{where} with {param}={_short(value)}", method, sent)
        return first_of_kind

    def bodies(self, method: str, role: str, *, first: bool) -> None:
        path = self.url(role)
        for body in HOSTILE_BODIES if first else HOSTILE_BODIES[:1]:
            sent = self.send(role, method, path, {}, body)
            self.check(f"{method} {path} as {role} with body {_short(body)}", method, sent)

    def huge_ids(self, method: str, role: str) -> None:
        _, pattern = URLS[self.name]
        kwargs = _kwargs(self.name, pattern, self.world, role)
        converters = getattr(pattern.pattern, "converters", {})
        huge = {
            k: 10**20
            for k in kwargs
            if k == "pk" or type(converters.get(k)).__name__ == "IntConverter"
        }
        if not huge:
            return
        path = reverse(self.name, kwargs={**kwargs, **huge})
        body = dict(BODIES.get(self.name, {})) if method in UNSAFE else {}
        sent = self.send(role, method, path, {}, body)
        self.check(f"{method} {path} as {role}", method, sent)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:37]}… ({len(text)} chars)"


@pytest.fixture
def world(security_world):
    return security_world


def test_every_declared_url_exists_and_reads_what_it_declares():
    stale = sorted(set(INPUTS) - set(POLICY))
    assert not stale, f"inputs.INPUTS names URLs that POLICY does not: {stale}"
    for name, methods in INPUTS.items():
        assert set(methods) <= set(POLICY[name]), f"{name}: methods {sorted(methods)} unknown"


def _walk(name: str, world: World, recorder: Any, *, full: bool) -> None:
    if name not in URLS:
        pytest.skip("URL no longer exists (see test_every_url_has_a_policy)")
    walk = Walk(name, world, recorder, full)
    for method in POLICY[name]:
        for role in ROLES:
            first = walk.run(method, role)
            if not full:
                walk.huge_ids(method, role)
                if method in UNSAFE and walk.url(role).startswith("/api/"):
                    walk.bodies(method, role, first=first)
    assert not walk.failures, "\n".join(walk.failures)


@pytest.mark.parametrize("name", sorted(POLICY))
def test_hostile_input(name, world, recorder):
    """Every role, every parameter it reads, a few values; whole bodies; huge ids."""
    _walk(name, world, recorder, full=False)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(POLICY))
def test_hostile_input_every_value(name, world, recorder):
    """Every hostile value for every parameter, the first role of each kind of request."""
    _walk(name, world, recorder, full=True)
