"""Conditional GET of a game's state: an ETag for what a poller sees, and the 304.

Table devices poll their state every 5 s and spectators the live view every
3 s; most polls find the table unchanged. The state is a function of

* the log's chain head (``seq`` + ``last_hash``: the hash chains every active
  entry, so the head names exactly one log; a take-back or a judge's entry
  moves it) and the frame it is replayed in (ruleset, first dealer), from
  which the board, turn, hands, entries, legal moves and log error follow;
* the game row: status (in progress, time up, finished), winner and result
  source (an adjudication or a ruling changes them);
* the result confirmations of the two pairs;
* whether the answer carries the legal moves.

The judge's rulings a table's answer tells of (``table_rulings``) need no
place in the tag: each writes its judge entry (``! VOID``, ``! UNDO``,
``! SET``, ``! P1``, ``! WARN`` ...), which moves the chain head.

The tag hashes exactly those, so an unchanged tag means an unchanged answer
(apart from ``server_time``, which says when it was read). The state holds
nothing translated, so the language is not part of the tag.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.http import HttpResponse
from rest_framework.request import Request
from rest_framework.response import Response

from core.conditional import conditional_response
from games.selectors.state import TableState


def state_etag(state: TableState, *, legal: bool, tail: int = 0) -> str:
    """The weak ETag of ``state`` (``games.selectors.game_state``); see the module doc.

    ``tail`` is the number of last entries the answer carries (0: all)."""
    basis: list[Any] = [
        state.game_id,
        state.tournament,
        state.round,
        state.table,
        state.ruleset,
        state.first_dealer,
        state.seq,
        state.last_hash,
        state.status,
        state.winner,
        state.result.to_json(),
        state.confirmations,
    ]
    basis.append({"legal": legal, "entries": state.entries is not None, "tail": tail})
    digest = hashlib.blake2b(
        json.dumps(basis, sort_keys=True, default=str).encode(), digest_size=12
    ).hexdigest()
    return f'W/"{digest}"'


def state_response(
    request: Request, state: TableState, *, legal: bool, private: bool, tail: int = 0
) -> HttpResponse:
    """``state`` with its ETag, or 304 without a body when the poller already has it.

    ``no-cache``: a cache may keep the answer but must ask again every time
    (a browser's conditional request then gets the 304).
    """
    return conditional_response(
        request,
        etag=state_etag(state, legal=legal, tail=tail),
        headers={"Cache-Control": "private, no-cache" if private else "no-cache"},
        answer=lambda: Response(state.to_json()),
    )
