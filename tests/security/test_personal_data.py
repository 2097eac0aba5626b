"""Personal data: a sign-up's contact email reaches the tournament's organisers, nobody else.

Walks every URL of the project (as the permission matrix does) and reads it
with GET as every role that is not an organiser of the tournament: no page,
API answer or export may contain the address. The organiser's own views must
(so the check can fail).
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.security.test_permission_matrix import URLS, _isolated, _kwargs, _request
from tests.security.world import ROLES, SIGNUP_EMAIL

NOT_ORGANISERS = [role for role in ROLES if role not in ("organiser", "staff")]
GET_URLS = sorted(name for name, (_route, pattern) in URLS.items() if name)


@pytest.fixture
def world(security_world):
    return security_world


@pytest.mark.slow  # every URL as every role: about two minutes
def test_no_page_api_or_export_shows_a_contact_email_to_anyone_but_organisers(world):
    leaks, asked = [], set()
    for name in GET_URLS:
        _route, pattern = URLS[name]
        for role in NOT_ORGANISERS:
            url = reverse(name, kwargs=_kwargs(name, pattern, world, role))
            # Anonymous roles differ only by the table token in table URLs.
            who = world.users.get(role)
            if (url, who) in asked:
                continue
            asked.add((url, who))
            client = world.client(role)
            response, _changed = _isolated(lambda: _request(client, "GET", url, {}, True))  # noqa: B023
            body = b"".join(response) if response.streaming else response.content
            if SIGNUP_EMAIL.encode() in body:
                leaks.append(f"{url} as {role}")
    assert not leaks, "contact email shown to non-organisers: " + ", ".join(leaks)


@pytest.mark.parametrize(
    "name", ["signup:organiser_list", "signup:organiser_csv", "api:signup-list"]
)
def test_the_tournaments_organisers_do_see_it(world, name):
    _route, pattern = URLS[name]
    url = reverse(name, kwargs=_kwargs(name, pattern, world, "organiser"))
    response = world.client("organiser").get(url)
    assert SIGNUP_EMAIL in response.content.decode("utf-8-sig")
