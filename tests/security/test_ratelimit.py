"""Brute force: table codes per client IP; logins per client and username, and per IP."""

from __future__ import annotations

import logging

import pytest
from django.contrib.auth import SESSION_KEY
from django.core.cache import cache
from django.test import Client, RequestFactory, override_settings

from core.ratelimit import (
    DEVICE_COOKIE,
    LOGIN_PER_CLIENT_USERNAME,
    LOGIN_PER_IP,
    SHORT_CODE_PER_IP,
    client_ip,
)
from games.services.tokens import game_token
from tests.factories import GameFactory, UserFactory

pytestmark = pytest.mark.django_db

LOCKED_DA = "For mange mislykkede logins"
LOCKED_EN = "Too many failed logins"


def _code_lookup(client: Client, code: str, ip: str = "10.0.0.1"):
    return client.get("/t/", {"code": code}, REMOTE_ADDR=ip)


def test_short_code_lookups_are_limited_per_ip_and_say_so_in_danish():
    game = GameFactory()
    game_token(game=game)
    game.refresh_from_db()
    client = Client()
    for _ in range(SHORT_CODE_PER_IP.limit):
        res = _code_lookup(client, "ZZZZZZ")
        assert res.status_code == 200
        assert "Ingen borde har denne kode" in res.content.decode() or res.context["error"]
    refused = _code_lookup(client, game.short_code)
    # Even the right code is refused once the limit is reached: guessing gains nothing.
    assert refused.status_code == 429
    assert "For mange bordkoder" in refused.content.decode()
    # Another device is not affected.
    other = _code_lookup(client, game.short_code, ip="10.0.0.2")
    assert other.status_code == 302
    assert other["Location"] == f"/t/{game_token(game=game)}/"


def test_short_code_limit_message_in_english():
    client = Client()
    client.cookies["django_language"] = "en"
    for _ in range(SHORT_CODE_PER_IP.limit):
        _code_lookup(client, "ZZZZZZ")
    res = _code_lookup(client, "ZZZZZZ")
    assert res.status_code == 429
    assert "Too many table codes" in res.content.decode()


def test_opening_the_code_form_without_a_code_is_not_counted():
    client = Client()
    for _ in range(SHORT_CODE_PER_IP.limit + 3):
        assert client.get("/t/", REMOTE_ADDR="10.0.0.1").status_code == 200
    assert _code_lookup(client, "ZZZZZZ").status_code == 200


def _login(client: Client, username: str, password: str, ip: str = "10.0.0.1"):
    if DEVICE_COOKIE not in client.cookies:
        client.get("/login/", REMOTE_ADDR=ip)  # a browser loads the form before it posts
    return client.post("/login/", {"username": username, "password": password}, REMOTE_ADDR=ip)


def test_login_locks_a_username_after_repeated_failures_even_for_the_right_password():
    UserFactory(username="alice")
    client = Client()
    for _ in range(LOGIN_PER_CLIENT_USERNAME.limit):
        res = _login(client, "alice", "wrong")
        assert res.status_code == 200
        assert LOCKED_DA not in res.content.decode()
    res = _login(client, "alice", "pw-for-tests")
    assert res.status_code == 429
    assert LOCKED_DA in res.content.decode()
    assert SESSION_KEY not in client.session
    # The lock is on the username: another account from the same place can log in.
    UserFactory(username="bob")
    assert _login(client, "bob", "pw-for-tests").status_code == 302


def test_locked_login_message_in_english():
    UserFactory(username="alice")
    client = Client()
    client.cookies["django_language"] = "en"
    for _ in range(LOGIN_PER_CLIENT_USERNAME.limit):
        _login(client, "alice", "wrong")
    res = _login(client, "alice", "wrong")
    assert res.status_code == 429
    assert LOCKED_EN in res.content.decode()


def test_username_lock_ignores_case_and_spaces():
    UserFactory(username="alice")
    client = Client()
    names = ["alice", "ALICE", " Alice", "alice ", "aLiCe"]
    for name in names[: LOGIN_PER_CLIENT_USERNAME.limit]:
        _login(client, name, "wrong")
    assert _login(client, "alice", "pw-for-tests").status_code == 429


def test_a_successful_login_resets_the_username_counter():
    UserFactory(username="alice")
    client = Client()
    for _ in range(LOGIN_PER_CLIENT_USERNAME.limit - 1):
        _login(client, "alice", "wrong")
    assert _login(client, "alice", "pw-for-tests").status_code == 302
    client.logout()
    for _ in range(LOGIN_PER_CLIENT_USERNAME.limit - 1):
        _login(client, "alice", "wrong")
    assert _login(client, "alice", "pw-for-tests").status_code == 302


def test_one_ip_guessing_many_usernames_is_locked():
    UserFactory(username="victim")
    client = Client()
    for n in range(LOGIN_PER_IP.limit):
        _login(client, f"guess{n}", "wrong", ip="10.9.9.9")
    assert _login(client, "victim", "pw-for-tests", ip="10.9.9.9").status_code == 429
    assert _login(client, "victim", "pw-for-tests", ip="10.9.9.8").status_code == 302


def test_admin_login_is_limited_too():
    UserFactory(username="boss", is_staff=True)
    client = Client()
    for _ in range(LOGIN_PER_CLIENT_USERNAME.limit):
        client.post("/admin/login/", {"username": "boss", "password": "wrong"})
    res = client.post(
        "/admin/login/?next=/admin/", {"username": "boss", "password": "pw-for-tests"}
    )
    assert res.status_code == 200
    assert LOCKED_DA in res.content.decode()
    assert SESSION_KEY not in client.session


def test_client_ip_trusts_only_the_proxys_own_forwarded_entry():
    request = RequestFactory().get(
        "/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7"
    )
    assert client_ip(request) == "127.0.0.1"
    with override_settings(RATELIMIT_PROXY_COUNT=1):
        # The client wrote "6.6.6.6" itself; the proxy appended the real address.
        assert client_ip(request) == "203.0.113.7"


def _trusted_phone(username: str, ip: str) -> Client:
    """A phone that has signed in as ``username`` before (and signed out again)."""
    phone = Client()
    assert _login(phone, username, "pw-for-tests", ip=ip).status_code == 302
    phone.post("/logout/")
    return phone


def test_a_player_cannot_lock_a_judge_out_of_the_judges_own_phone():
    UserFactory(username="judge")
    venue = "10.0.0.5"  # the venue's Wi-Fi: one address for everyone
    phone = _trusted_phone("judge", venue)
    player = Client()
    for _ in range(LOGIN_PER_IP.limit + LOGIN_PER_CLIENT_USERNAME.limit):
        _login(player, "judge", "wrong", ip=venue)
    # The player's own device is locked for that name, even with the right password …
    assert _login(player, "judge", "pw-for-tests", ip=venue).status_code == 429
    # … the judge's phone, on the same Wi-Fi, is not.
    assert _login(phone, "judge", "pw-for-tests", ip=venue).status_code == 302


def test_throwing_the_device_cookie_away_does_not_reset_the_count():
    UserFactory(username="judge")
    venue = "10.0.0.6"
    phone = _trusted_phone("judge", venue)
    for _ in range(LOGIN_PER_IP.limit):
        _login(Client(), "judge", "wrong", ip=venue)  # a fresh browser every time
    # Every untrusted client at that address is refused now, whatever it sends …
    assert _login(Client(), "judge", "pw-for-tests", ip=venue).status_code == 429
    # … but not the phone the judge signed in with before.
    assert _login(phone, "judge", "pw-for-tests", ip=venue).status_code == 302


def test_a_forged_device_cookie_is_no_device():
    UserFactory(username="judge")
    attacker = Client()
    for n in range(LOGIN_PER_CLIENT_USERNAME.limit):
        attacker.cookies[DEVICE_COOKIE] = f"forged-{n}"
        attacker.post("/login/", {"username": "judge", "password": "x"}, REMOTE_ADDR="10.0.0.7")
    # Counted by address, as if there were no cookie: the lock holds.
    attacker.cookies[DEVICE_COOKIE] = "forged-again"
    assert _login(attacker, "judge", "pw-for-tests", ip="10.0.0.7").status_code == 429


def test_the_device_cookie_is_http_only_and_names_no_user():
    UserFactory(username="judge")
    phone = Client()
    first = phone.get("/login/")
    assert first.cookies[DEVICE_COOKIE]["httponly"]
    assert first.cookies[DEVICE_COOKIE]["samesite"] == "Lax"
    signed_in = _login(phone, "judge", "pw-for-tests")
    value = signed_in.cookies[DEVICE_COOKIE].value
    assert value != first.cookies[DEVICE_COOKIE].value  # now trusted for the judge
    assert "judge" not in value


def test_a_cache_outage_lets_logins_and_table_codes_through_with_a_warning(monkeypatch, caplog):
    """The shared cache is a help, never a dependency: while Redis is down nothing is
    counted, so no one is locked out and no page fails."""
    UserFactory(username="judge")
    game = GameFactory()
    game_token(game=game)
    game.refresh_from_db()
    client = Client()
    client.get("/login/", REMOTE_ADDR="10.0.0.1")

    def down(*args, **kwargs):
        raise ConnectionError("redis is down")

    for method in ("get", "add", "incr", "set", "delete"):
        monkeypatch.setattr(cache, method, down)
    with caplog.at_level(logging.WARNING):
        for _ in range(LOGIN_PER_CLIENT_USERNAME.limit + 2):
            assert _login(client, "judge", "wrong").status_code == 200
        assert _login(client, "judge", "pw-for-tests").status_code == 302
        for _ in range(SHORT_CODE_PER_IP.limit + 2):
            assert _code_lookup(Client(), "ZZZZZZ").status_code == 200
        assert _code_lookup(Client(), game.short_code).status_code == 302
    assert "shared cache unavailable" in caplog.text
