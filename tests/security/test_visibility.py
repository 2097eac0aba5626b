"""A draft round and an unpublished event are seen by their organisers and judges only.

Generated from the URL configuration like the permission matrix, so a new
read of a game, record, live page or clock that forgets
``tournament.permissions`` fails here. The permission-matrix world gets:

- a **draft** round 3 of the published event ``sec-main``, with a game;
- an **unpublished** event ``sec-hidden`` (organised and judged by the
  matrix's ``organiser_other`` and ``judge_other``) with a game in progress.

Every GET of every URL is asked as every role, in two ways:

1. **Named**: a URL whose path names a round, a game, a table or a table
   token is asked for the draft's game (and the hidden event's); a URL that
   names the event (its slug, a pair) is asked for the hidden event. It must
   be refused (401/403/404, or the login page) to everyone but the event's
   organisers, judges and staff; a table URL to everyone but the game's own
   token (which shows the table its own game, draft or not).
2. **Unchanged**: every other answer to those who may not see the draft or
   the hidden event (anonymous, table tokens, the other event's staff) must
   be the same with and without the draft round and the hidden event: no
   list, hall, bracket, history or PDF shows them.
"""

from __future__ import annotations

import datetime
import json
import re
from typing import Any

import pytest
from django.core.cache import cache
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from games.models import Game, GameClock
from games.selectors import log_cache
from games.services.tokens import game_token
from tests.factories import (
    GameFactory,
    PairFactory,
    RoundFactory,
    TournamentFactory,
    judge_of,
    organiser_of,
)
from tests.printing.pdf_tools import pdf_text
from tests.security.policy import ALLOWED, POLICY
from tests.security.test_permission_matrix import URLS, _kwargs, _refused
from tests.security.world import ROLES, World
from tournament.models import Round, Tournament

ROUND_OR_GAME = {"game_id", "number", "round_number", "table_number", "token"}
EVENT = {"slug", "start_number"}
# Any other kwarg (a season, a person, a pair's private sign-up link) names no event:
# those pages must simply look the same with and without the hidden event.
# Kwargs of staff-only objects (print jobs, calls, alerts, roles): the
# permission matrix covers those URLs; they name no game of a draft.
STAFF_OBJECTS = {"job_id", "call_id", "alert_id", "role_id", "pair_id", "action", "code"}
# Who may not see the draft (of sec-main) and the hidden event (staffed by the "other" roles).
OUTSIDERS = {
    "draft": ("anon", "token", "token_closed", "judge_other", "organiser_other"),
    "hidden": ("anon", "token", "token_closed", "judge", "organiser"),
}
# The hidden event's staff in the roles of the policy (written for sec-main).
AS_HIDDEN = {"judge": "judge_other", "organiser": "organiser_other", "staff": "staff"}
# Not a read of tournament data (and full of timings).
NOT_TOURNAMENT_DATA = {"health"}


def _reads(name: str) -> bool:
    return "GET" in POLICY.get(name, {})


REPLAYED_TABLE = 2


def _hide(world: World) -> dict[str, Any]:
    """Add the draft round and the hidden event to the matrix world."""
    main = world.main
    draft = RoundFactory(tournament=main, number=3, status=Round.Status.DRAFT)
    draft_game = GameFactory(
        round=draft, table_number=1, pair_yb=world.pairs[3], pair_rg=world.pairs[4]
    )
    hidden = TournamentFactory(slug="sec-hidden", published=False)
    organiser_of(hidden, "sec-org2")
    judge_of(hidden, "sec-judge2")
    hidden_round = RoundFactory(tournament=hidden, number=1, status=Round.Status.IN_PROGRESS)
    hidden_pairs = [PairFactory(tournament=hidden, start_number=n) for n in (1, 2)]
    hidden_game = GameFactory(
        round=hidden_round,
        table_number=1,
        pair_yb=hidden_pairs[0],
        pair_rg=hidden_pairs[1],
        status=Game.Status.IN_PROGRESS,
    )
    GameClock.objects.create(
        game=hidden_game, started_at=timezone.now() - datetime.timedelta(minutes=3)
    )
    # A finished game of the hidden event at table 2: only a finished game has a
    # replay, which its staff must see. (A draft round has no results to replay.)
    GameFactory(
        round=hidden_round, table_number=REPLAYED_TABLE, pair_yb=hidden_pairs[1],
        pair_rg=hidden_pairs[0], winner="YB", result_source="typed",
        status=Game.Status.FINISHED,
    )  # fmt: skip
    return {
        "draft": {
            "staff": {"judge", "organiser", "staff"},
            "values": {
                "slug": main.slug, "number": draft.number, "round_number": draft.number,
                "table_number": 1, "game_id": draft_game.pk, "token": game_token(game=draft_game),
                "round": draft, "game": draft_game, "pair": world.pairs[3],
            },
        },
        "hidden": {
            "staff": {"judge_other", "organiser_other", "staff"},
            "values": {
                "slug": hidden.slug, "number": 1, "round_number": 1, "table_number": 1,
                "game_id": hidden_game.pk, "token": game_token(game=hidden_game),
                "start_number": hidden_pairs[0].start_number,
                "round": hidden_round, "game": hidden_game, "pair": hidden_pairs[0],
            },
        },
    }  # fmt: skip


def _target_kwargs(name: str, pattern: Any, world: World, role: str, values: dict) -> dict:
    kwargs = _kwargs(name, pattern, world, role)
    for key in kwargs:
        if key == "token":
            kwargs[key] = values["token"] if role == "token" else world.token_for("anon")
        elif key == "pk":
            kind = (
                "pair" if name.startswith("api:pair-") else "round" if "round" in name else "game"
            )
            kwargs[key] = values[kind].pk
        elif key in values:
            kwargs[key] = values[key]
    if name.startswith("games:replay"):
        kwargs["table_number"] = REPLAYED_TABLE
    return kwargs


def _ask(world: World, role: str, url: str) -> Any:
    cache.clear()
    log_cache.clear()
    return world.client(role).get(url)


# Times and clock readings differ between two requests a moment apart.
_VOLATILE_KEYS = {
    "server_time", "server_now", "generated_at", "etag", "state_etag", "elapsed_s",
    "remaining_s",
}  # fmt: skip
_CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"|"csrf[^"]*":\s*"[^"]*"')
_TIMES = re.compile(r'"(server_time|server_now)":\s*"?[0-9.:T+\-]+"?')


def _without_volatile(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _without_volatile(v) for k, v in data.items() if k not in _VOLATILE_KEYS}
    if isinstance(data, list):
        return [_without_volatile(item) for item in data]
    return data


def _comparable(response: Any) -> Any:
    kind = response.get("Content-Type", "")
    body = b"".join(response) if response.streaming else response.content
    if "json" in kind:
        return response.status_code, _without_volatile(json.loads(body or b"null"))
    if "pdf" in kind:
        return response.status_code, pdf_text(body)
    text = body.decode("utf-8", "replace")
    return response.status_code, _TIMES.sub("", _CSRF.sub("", text))


def _without(target: str, world: World, role: str, url: str, hidden: dict[str, Any]) -> Any:
    """The answer to ``url`` with the draft round or the hidden event deleted."""
    savepoint = transaction.savepoint()
    try:
        if target == "draft":
            Round.objects.filter(pk=hidden["draft"]["values"]["round"].pk).delete()
        else:
            gone = Tournament.objects.get(slug="sec-hidden")
            Game.objects.filter(round__tournament=gone).delete()  # pairs, players: protected
            gone.pairs.all().delete()
            gone.players.all().delete()
            gone.delete()
        return _comparable(_ask(world, role, url))
    finally:
        transaction.savepoint_rollback(savepoint)


@pytest.fixture
def world(security_world):
    return security_world


def _allowed(name: str, target: str, keys: set[str], staff: set[str]) -> set[str]:
    """Who may read ``name`` of the target: its staff, as far as the URL's policy lets them."""
    if "token" in keys:
        # A table URL opens with the game's own token (staff use the game's other URLs).
        return {"token"}
    policy = ALLOWED[POLICY[name]["GET"]]
    if target == "hidden":
        policy = {AS_HIDDEN[role] for role in policy if role in AS_HIDDEN}
    return policy & staff


@pytest.mark.parametrize("name", sorted(n for n in POLICY if _reads(n)))
def test_drafts_and_unpublished_events_are_seen_by_their_staff_only(name, world):
    if name not in URLS or name in NOT_TOURNAMENT_DATA:
        pytest.skip("no tournament data, or no longer a URL (test_every_url_has_a_policy)")
    _, pattern = URLS[name]
    keys = set(pattern.pattern.regex.groupindex)
    if keys & STAFF_OBJECTS:
        pytest.skip("names a staff-only object (permission matrix)")
    hidden = _hide(world)
    failures = []
    names_game = bool(keys & ROUND_OR_GAME) or ("pk" in keys and not name.startswith("api:pair-"))
    names_event = names_game or bool(keys & EVENT)
    named = ["draft", "hidden"] if names_game else ["hidden"] if names_event else []
    for target in named:
        allowed = _allowed(name, target, keys, hidden[target]["staff"])
        values = hidden[target]["values"]
        for role in ROLES:
            url = reverse(name, kwargs=_target_kwargs(name, pattern, world, role, values))
            response = _ask(world, role, url)
            cell = f"GET {url} ({target}) as {role}: {response.status_code}"
            if response.status_code >= 500:
                failures.append(f"{cell} (server error)")
            elif role not in allowed and not _refused(response):
                failures.append(f"{cell} shown to someone who may not see it")
            elif target == "hidden" and role in allowed and _refused(response):
                # (A draft may stay off pages that show the public view, even to staff.)
                failures.append(f"{cell} refused to the event's own staff")
    unchanged = [t for t in ("draft", "hidden") if t not in named]
    for target in unchanged:
        for role in OUTSIDERS[target]:
            url = reverse(name, kwargs=_kwargs(name, pattern, world, role))
            seen = _comparable(_ask(world, role, url))
            if seen != _without(target, world, role, url, hidden):
                failures.append(f"GET {url} as {role} shows the {target} round or event")
    assert not failures, "\n".join(failures)
