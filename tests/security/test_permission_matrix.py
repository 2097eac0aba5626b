"""The permission matrix: every URL × every role × every method, from the URL configuration.

Each URL name gets one test: it builds the world (tests/security/world.py),
asks as every role inside a savepoint that is rolled back afterwards, and
checks the answer against tests/security/policy.py:

- allowed: not refused (no 401/403/404, no redirect to the login page, no 5xx)
  — a validation answer (400/409/422) is fine;
- refused: 401/403/404 or a redirect to the login page, and for a write the
  database is unchanged;
- every session write without a CSRF token is refused with 403.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.cache import cache
from django.db import transaction
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from games.selectors import log_cache
from tests.security.policy import ALLOWED, BODIES, EXCLUDED_PREFIXES, POLICY
from tests.security.world import CSRF, ROLES, World, fingerprint

UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


def _walk(patterns: list[Any], prefix: str = "", namespace: str = "") -> list[tuple[str, str, Any]]:
    found = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            ns = namespace
            if pattern.namespace:
                ns = f"{namespace}:{pattern.namespace}" if namespace else pattern.namespace
            found += _walk(pattern.url_patterns, prefix + str(pattern.pattern), ns)
        elif isinstance(pattern, URLPattern):
            name = f"{namespace}:{pattern.name}" if namespace else (pattern.name or "")
            found.append((name, prefix + str(pattern.pattern), pattern))
    return found


def url_patterns() -> dict[str, tuple[str, Any]]:
    """Every named URL of the project except the excluded prefixes."""
    patterns = {}
    for name, route, pattern in _walk(get_resolver().url_patterns):
        if route.lstrip("^").startswith(EXCLUDED_PREFIXES) or route.startswith("static"):
            continue
        patterns[name] = (route, pattern)
    return patterns


URLS = url_patterns()


def test_every_url_has_a_policy():
    missing = sorted(set(URLS) - set(POLICY))
    assert not missing, (
        "These URLs have no entry in tests/security/policy.py POLICY; add each with the "
        f"access it needs (public/login/judge/organiser/token/token-read): {missing}"
    )
    stale = sorted(set(POLICY) - set(URLS))
    assert not stale, f"POLICY lists URLs that no longer exist: {stale}"


def _view_methods(pattern: Any) -> set[str] | None:
    """The methods a class-based view answers, or None for a plain function view."""
    callback = pattern.callback
    actions = getattr(callback, "actions", None)
    if actions:
        return {m.upper() for m in actions} - {"OPTIONS", "HEAD"}
    view_class = getattr(callback, "view_class", None) or getattr(callback, "cls", None)
    if view_class is None:
        return None
    methods = {m.upper() for m in view_class.http_method_names if hasattr(view_class, m)}
    return methods - {"OPTIONS", "HEAD"}


def test_policy_covers_every_method_of_class_based_views():
    gaps = []
    for name, (_, pattern) in URLS.items():
        methods = _view_methods(pattern)
        if methods is not None and name in POLICY and methods != set(POLICY[name]):
            gaps.append(f"{name}: view answers {sorted(methods)}, policy {sorted(POLICY[name])}")
    assert not gaps, "\n".join(gaps)


def _kwargs(name: str, pattern: Any, world: World, role: str) -> dict[str, Any]:
    names = set(pattern.pattern.regex.groupindex)
    values: dict[str, Any] = {
        "slug": world.main.slug,
        "number": world.running.number,
        "round_number": world.running.number,
        "table_number": world.game.table_number,
        "game_id": world.game.pk,
        "pair_id": world.pairs[0].pk,
        "start_number": world.pairs[0].start_number,
        "role_id": world.judge_role.pk,
        "job_id": world.job.pk,
        "alert_id": world.alert.pk,
        "call_id": world.call.pk,
        "ruling_id": world.ruling.pk,
        "code": "en",
        "token": world.token_for(role),
        "action": (
            "check-out"
            if "pair_action" in name
            else "deactivate"
            if "staff_account" in name
            else "close"
        ),
        "season": world.series.slug,
        "event_id": world.series_event.pk,
        "signup_id": world.signup.pk,
        "signup_token": world.tokens["signup"],
        "consent_token": world.tokens["consent"],
        "merge_id": world.merge.pk,
        "match_id": world.match.pk,
        "person_id": world.person.pk,
        "player_id": world.public_person.pk,
        "invitation_token": world.tokens["invitation"],
        "invitation_id": world.invitation.pk,
        "uidb64": world.tokens["reset_uid"],
        "reset_token": world.tokens["reset"],
        "user_id": world.users["judge_other"].pk,
    }
    if name.startswith("games:replay"):
        # Only a finished game has a replay: the closed round's.
        values["round_number"] = world.game_closed.round.number
        values["table_number"] = world.game_closed.table_number
    if "pk" in names:
        if name.startswith("api:pair-"):
            values["pk"] = world.pairs[0].pk
        elif name.startswith("api:round-"):
            values["pk"] = world.running.pk
        else:
            values["pk"] = world.game.pk
    return {key: values[key] for key in names}


def _refused(response: Any) -> bool:
    if response.status_code in (401, 403, 404):
        return True
    return response.status_code == 302 and response["Location"].startswith("/login/")


def _request(client: Any, method: str, url: str, body: dict[str, Any], csrf: bool) -> Any:
    extra = {"HTTP_X_CSRFTOKEN": CSRF} if csrf else {}
    if method == "GET":
        return client.get(url)
    if url.startswith("/api/"):
        data = json.dumps(body)
        return client.generic(method, url, data, content_type="application/json", **extra)
    return client.generic(
        method, url, _urlencode(body), content_type="application/x-www-form-urlencoded", **extra
    )


def _urlencode(body: dict[str, Any]) -> str:
    from urllib.parse import urlencode

    return urlencode(body)


def _isolated(call: Any, before: dict[str, int] | None = None) -> tuple[Any, bool]:
    """Run ``call`` in a savepoint that is rolled back; given the fingerprint of
    the data before it, report whether it changed data."""
    cache.clear()
    log_cache.clear()
    savepoint = transaction.savepoint()
    try:
        response = call()
        changed = before is not None and fingerprint() != before
    finally:
        transaction.savepoint_rollback(savepoint)
    return response, changed


@pytest.fixture
def world(security_world):
    return security_world


@pytest.mark.parametrize("name", sorted(POLICY))
def test_permission_matrix(name, world):
    if name not in URLS:
        pytest.skip("URL no longer exists (see test_every_url_has_a_policy)")
    _, pattern = URLS[name]
    failures = []
    # Every request is rolled back, so the data before each is the world as built.
    pristine = fingerprint()
    for method, access in POLICY[name].items():
        allowed_roles = ALLOWED[access]
        body = BODIES.get(name, {})
        for role in ROLES:
            url = reverse(name, kwargs=_kwargs(name, pattern, world, role))
            client = world.client(role)
            # A refused write must change nothing (an allowed one may).
            watch = pristine if method in UNSAFE and role not in allowed_roles else None
            response, changed = _isolated(
                lambda: _request(client, method, url, body, True),  # noqa: B023
                watch,
            )
            cell = f"{method} {url} as {role}: {response.status_code}"
            health_down = name == "health" and response.status_code == 503
            if response.status_code >= 500 and not health_down:
                failures.append(f"{cell} (server error)")
            elif role in allowed_roles and _refused(response):
                failures.append(f"{cell} refused, policy says {access}")
            elif role not in allowed_roles:
                if not _refused(response):
                    failures.append(f"{cell} allowed, policy says {access}")
                elif method in UNSAFE and changed:
                    failures.append(f"{cell} refused but the database changed")
                elif url.startswith("/api/") and response.status_code in (401, 403):
                    error = response.json().get("error", {})
                    if not (error.get("message_da") and error.get("message_en")):
                        failures.append(f"{cell} refusal without a bilingual message")
        if method in UNSAFE and access not in ("token", "token-read"):
            url = reverse(name, kwargs=_kwargs(name, pattern, world, "organiser"))
            client = world.client("organiser", csrf=False)
            response, changed = _isolated(
                lambda: _request(client, method, url, body, False),  # noqa: B023
                pristine,
            )
            if response.status_code != 403 or changed:
                failures.append(f"{method} {url} without CSRF: {response.status_code}")
    assert not failures, "\n".join(failures)
