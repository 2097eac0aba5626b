"""A WSGI layer that answers spectators' polls from shared copies, without Django.

Two answers are polled by every open live view and hall screen, and by API
clients that poll: a table's live state (``/api/games/<id>/state/?tail=20``,
what ``live.js`` asks, or without ``tail``, the whole log) and an event's
hall (``/api/tournaments/<slug>/hall/``).
For an anonymous GET of either, this layer looks up the shared copy of the
answer (``core.live_copy``) and, when every mark it was made under is still
current, answers from it: a 304 when the poller's ``If-None-Match`` names its
ETag, else the stored bytes with the stored headers. No view runs and the
database is not read: one round trip to the shared cache (two the first
time a process meets a copy).

When there is no current copy, the marks are read first, then Django answers
the request as always (the view decides visibility: a draft round's table is
a 404 for an anonymous visitor, as before) and a 200 is stored with the marks
read. So a copy exists only where Django itself answered an anonymous
visitor, and it is retired by the first change of its table, its hall or its
event's visibility (docs/push.md, "Polling from a shared copy"). After a move
one process makes the new copy; polls arriving meanwhile (a push just told
every viewer at once) wait for it a moment instead of all asking Django.

Anything with a session cookie, a pending message, another query string or
method goes on down the stack unchanged.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from http.cookies import SimpleCookie
from typing import Any

from django.conf import settings
from django.db import close_old_connections

from config.public_fastpath import read_body
from core.cache import shared_add, shared_delete
from core.conditional import etag_matches
from core.live_copy import (
    CHANGED,
    FILL_GUARD_SECONDS,
    FILL_WAIT_SECONDS,
    FRESH,
    MISSING,
    Copy,
    copy_key,
    current_marks,
    event_scope,
    fill_guard_key,
    judge,
    read_many,
    store,
    table_scope,
    tables_scope,
)
from core.public_cache import MARK_HEADER, SERVER_TIME_HEADER

StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]

_STATE_PATH = re.compile(r"^/api/games/(?P<game>\d{1,18})/state/$")
_HALL_PATH = re.compile(r"^/api/tournaments/(?P<slug>[-\w]{1,100})/hall/$")
_BYPASS_COOKIES = ("messages",)
_NOT_STORED = {"content-length", "etag", "date", "set-cookie", MARK_HEADER.lower()}
_MAX_KNOWN = 1024
PEOPLE_VERSION_KEY = "ratings:people-version"
"""``people.page_version``'s key: a hall names pairs, so consent changes retire its copies."""


@dataclass(frozen=True)
class Target:
    """One polled answer: its copy's key, and how to find its event and marks."""

    key: str
    kind: str
    ident: str

    def marks(self, tournament_id: int) -> list[str]:
        return self.changes(tournament_id) + self.guards(tournament_id)

    def changes(self, tournament_id: int) -> list[str]:
        if self.kind == "state":
            return [table_scope(int(self.ident))]
        return [tables_scope(tournament_id)]

    def guards(self, tournament_id: int) -> list[str]:
        if self.kind == "state":
            return [event_scope(tournament_id)]
        return [event_scope(tournament_id), PEOPLE_VERSION_KEY]


class LivePollFastPath:
    """``app`` is the rest of the stack; ``django`` the Django handler that makes copies."""

    def __init__(self, app: WSGIApp, django: WSGIApp) -> None:
        from games.selectors import LIVE_TAIL

        self.app = app
        self.django = django
        # What live.js asks (the last entries), and the whole log (API clients).
        self.state_queries = frozenset({f"tail={LIVE_TAIL}", ""})
        self.session_cookie = settings.SESSION_COOKIE_NAME
        self.language_cookie = settings.LANGUAGE_COOKIE_NAME
        self.languages = frozenset(code for code, _name in settings.LANGUAGES)
        # The copies this process served last, by key: while their marks are
        # current they answer after one round trip for the marks alone.
        self.copies: dict[str, Copy] = {}

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        target = self._target(environ)
        if target is None:
            return self.app(environ, start_response)
        copy, verdict = self._read(target)
        if self._may_answer(target, copy, verdict):
            return _serve(copy, environ, start_response)
        if verdict == CHANGED and not shared_add(fill_guard_key(target.key), FILL_GUARD_SECONDS):
            # Another process is making the new copy: wait for it a moment.
            deadline = time.monotonic() + FILL_WAIT_SECONDS
            while time.monotonic() < deadline:
                time.sleep(0.005)
                copy, verdict = self._read(target)
                if self._may_answer(target, copy, verdict):
                    return _serve(copy, environ, start_response)
                if verdict == MISSING:
                    break
        return self._fill(target, environ, start_response)

    def _read(self, target: Target) -> tuple[Any, str]:
        """The copy of ``target`` and what it may do (``core.live_copy.judge``).

        The process's own copy when its marks are current (a copy made under
        the current marks is as good as any other made under them) or, for the
        hall, while it is still shared after a change; else the shared one,
        with the marks in the same round trip."""
        mine = self.copies.get(target.key)
        if mine is not None:
            guards = target.guards(mine.tournament_id)
            verdict = judge(mine, read_many(list(mine.marks)), guards=guards)
            if verdict == FRESH:
                return mine, FRESH
            if verdict == CHANGED and self._shared_for_now(target, mine):
                # The hall's moment after a change: this process's copy is as
                # good as the shared one, without a second round trip for it.
                return mine, CHANGED
        keys = [target.key, *(target.marks(mine.tournament_id) if mine is not None else ())]
        found = read_many(keys)
        copy = found.get(target.key)
        if not isinstance(copy, Copy):
            return None, MISSING
        if mine is None or copy.tournament_id != mine.tournament_id:
            found.update(read_many(target.marks(copy.tournament_id)))
        verdict = judge(copy, found, guards=target.guards(copy.tournament_id))
        if verdict == FRESH:
            self._remember(target.key, copy)
        return copy, verdict

    def _may_answer(self, target: Target, copy: Copy, verdict: str) -> bool:
        """A current copy answers; so does the hall's while it is shared after a change
        (also the one another process has just made while the tables moved on)."""
        return verdict == FRESH or (verdict == CHANGED and self._shared_for_now(target, copy))

    def _shared_for_now(self, target: Target, copy: Copy) -> bool:
        """The hall follows every table of the round: after a change its copy is still
        shared for ``HALL_CACHE_SECONDS`` (as its API says), so a busy round costs one
        render per that many seconds rather than one per move. Its screen polls again
        that long after a pushed change (``push.settle`` in static/js/live.js). A live
        table's state is never answered from a copy its own table has moved past."""
        from games.selectors import HALL_CACHE_SECONDS

        return target.kind == "hall" and time.time() - copy.made_at < HALL_CACHE_SECONDS

    def _remember(self, key: str, copy: Copy) -> None:
        if len(self.copies) >= _MAX_KNOWN:
            self.copies.clear()  # a memo, not a store: forgetting it all is safe
        self.copies[key] = copy

    def _target(self, environ: dict[str, Any]) -> Target | None:
        if environ.get("REQUEST_METHOD") != "GET" or "HTTP_AUTHORIZATION" in environ:
            return None
        path = environ.get("PATH_INFO", "")
        query = environ.get("QUERY_STRING", "")
        raw_cookies = environ.get("HTTP_COOKIE", "")
        if raw_cookies and (
            self.session_cookie in raw_cookies or any(c in raw_cookies for c in _BYPASS_COOKIES)
        ):
            return None
        host = environ.get("HTTP_HOST", "")
        state = _STATE_PATH.match(path) if query in self.state_queries else None
        if state is not None:
            game = state.group("game")
            return Target(copy_key("state", f"{game}:{query}:{host}"), "state", game)
        hall = _HALL_PATH.match(path) if query == "" else None
        if hall is not None:
            # The hall's clock labels are in the visitor's language: the chosen
            # one (the cookie), else the event's ("-", as Django decides it).
            lang = self._cookie_language(raw_cookies) if raw_cookies else "-"
            if lang is None:
                return None
            slug = hall.group("slug")
            return Target(copy_key("hall", f"{slug}:{lang}:{host}"), "hall", slug)
        return None

    def _cookie_language(self, raw_cookies: str) -> str | None:
        if self.language_cookie not in raw_cookies:
            return "-"
        parsed = SimpleCookie()
        try:
            parsed.load(raw_cookies)
        except Exception:  # a garbled cookie header: let Django answer
            return None
        morsel = parsed.get(self.language_cookie)
        value = morsel.value if morsel is not None else ""
        return value if value in self.languages else "-"

    def _tournament_id(self, target: Target) -> int | None:
        from games.models import Game
        from tournament.models import Tournament

        try:
            if target.kind == "state":
                return (
                    Game.objects.filter(pk=int(target.ident))
                    .values_list("round__tournament_id", flat=True)
                    .first()
                )
            return Tournament.objects.filter(slug=target.ident).values_list("pk", flat=True).first()
        finally:
            close_old_connections()

    def _fill(
        self, target: Target, environ: dict[str, Any], start_response: StartResponse
    ) -> Iterable[bytes]:
        tournament_id = self._tournament_id(target)
        marks = current_marks(target.marks(tournament_id)) if tournament_id is not None else None
        if tournament_id is None or marks is None:
            return self.app(environ, start_response)
        # Marks first, then Django reads the database: a change committed in
        # between has replaced a mark, so the copy made here is never served.
        inner = {k: v for k, v in environ.items() if k != "HTTP_IF_NONE_MATCH"}
        captured: dict[str, Any] = {}

        def capture(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            captured["status"], captured["headers"] = status, headers
            return lambda data: None

        made_at = time.time()
        result = self.django(inner, capture)
        try:
            body = read_body(result)
        finally:
            shared_delete(fill_guard_key(target.key))
        status: str = captured["status"]
        headers: list[tuple[str, str]] = captured["headers"]
        names = {name.lower() for name, _value in headers}
        if not status.startswith("200") or "set-cookie" in names:
            start_response(status, [(k, v) for k, v in headers if k != MARK_HEADER])
            return [body]
        etag = next((v for k, v in headers if k.lower() == "etag"), "") or _body_etag(body)
        copy = Copy(
            tournament_id=tournament_id,
            marks=marks,
            status=status,
            headers=[(k, v) for k, v in headers if k.lower() not in _NOT_STORED] + [("ETag", etag)],
            body=body,
            etag=etag,
            made_at=made_at,
        )
        store(target.key, copy)
        self._remember(target.key, copy)
        return _serve(copy, environ, start_response)


def _body_etag(body: bytes) -> str:
    return f'W/"{hashlib.blake2b(body, digest_size=12).hexdigest()}"'


def _serve(copy: Copy, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
    headers = copy.headers
    if any(k == SERVER_TIME_HEADER for k, _v in headers):
        now = f"{time.time():.3f}"
        headers = [(k, now if k == SERVER_TIME_HEADER else v) for k, v in headers]
    if etag_matches(environ.get("HTTP_IF_NONE_MATCH", ""), copy.etag):
        start_response("304 Not Modified", [(k, v) for k, v in headers if k != "Content-Type"])
        return []
    start_response(copy.status, [*headers, ("Content-Length", str(len(copy.body)))])
    return [copy.body]
