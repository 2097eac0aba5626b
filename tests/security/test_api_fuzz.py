"""API fuzzing: Schemathesis against our OpenAPI schema, in process, as every role.

Every operation of /api/schema/ gets generated requests (valid and invalid
bodies, query strings and path values). Each example is sent as an
anonymous client (with the table's own token in table paths), a judge and an
organiser of
the tournament (session cookie + CSRF header), inside a savepoint that is
rolled back. Checks: no server error, and every documented response matches
its schema and content type. ``max_examples`` (4 in ``make test``) keeps the
run to a minute or two; ``make fuzz`` runs the same test deeper
(``FUZZ_EXAMPLES``, default 25 there) before an event or after API changes.
"""

from __future__ import annotations

import os

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, Phase, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)

from games.selectors import log_cache
from tests.security.world import CSRF

# The table token is in the path (the real one for half the examples), so
# "token" needs no cookie of its own: anonymous covers it.
FUZZ_ROLES = ("anon", "judge", "organiser")
CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]


@pytest.fixture
def world(security_world):
    return security_world


@pytest.fixture(autouse=True)
def _keep_the_test_connection():
    # The WSGI handler runs in this thread and shares the test's transaction:
    # Django must not close the connection at the end of each request.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


# Loaded at collection: the schema view needs no database.
schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", WSGIHandler())


def _real_path_values(world) -> dict[str, object]:
    return {
        "slug": world.main.slug,
        "game_id": world.game.pk,
        "alert_id": world.alert.pk,
        "call_id": world.call.pk,
        "ruling_id": world.ruling.pk,
        "token": world.tokens["token"],
    }


@pytest.mark.slow
@schema.parametrize()
@settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "4")),
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
    # No shrinking: a failure is reported as found, which keeps CI time bounded.
    phases=[Phase.explicit, Phase.generate],
)
def test_api_fuzz(case, world):
    # Half the examples address the world's real objects, so the fuzzed body
    # reaches the service; the rest keep the generated path values.
    if case.path_parameters and hash(repr(case.body)) % 2 == 0:
        real = _real_path_values(world)
        for key in case.path_parameters:
            if key in real:
                case.path_parameters[key] = real[key]
            elif key == "id":
                case.path_parameters[key] = (
                    world.pairs[0].pk if "/pairs/" in case.path
                    else world.running.pk if "/rounds/" in case.path
                    else world.game.pk
                )  # fmt: skip
    sessions = world.objects.setdefault("fuzz_sessions", {})
    for role in FUZZ_ROLES:
        cookies = {"csrftoken": CSRF}
        if role in world.users:
            if role not in sessions:
                sessions[role] = world.client(role).cookies["sessionid"].value
            cookies["sessionid"] = sessions[role]
        log_cache.clear()
        savepoint = transaction.savepoint()
        try:
            response = case.call(cookies=cookies, headers={"X-CSRFToken": CSRF})
            case.validate_response(response, checks=CHECKS)
        finally:
            transaction.savepoint_rollback(savepoint)
