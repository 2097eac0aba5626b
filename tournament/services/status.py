"""The guarded status change shared by an event's rows that move through states
(a round: draft → published → in progress → closed; a pair: registered ⇄
checked in → dropped).

The change is one compare-and-set ``UPDATE … WHERE status IN (allowed)``, so a
double tap or a second organiser changes nothing: the loser gets the refusal
(409). The winner's row is read back, the change audited and the event's
public data version bumped.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from django.db.models import Model

from core.errors import Conflict, Text
from core.users import Actor
from tournament.models import Tournament
from tournament.services.audit import audit_record, tournament_data_changed

RowT = TypeVar("RowT", bound=Model)


def status_change_guarded(
    row: RowT,
    *,
    actor: Actor,
    allowed_from: tuple[str, ...],
    to: str,
    action: str,
    refusal: tuple[str, Text],
    params: Mapping[str, Any] | None = None,
    also: Mapping[str, Any] | None = None,
) -> RowT:
    """Set ``row.status`` to ``to`` if it is still one of ``allowed_from``
    (with the fields in ``also``, such as a time stamp), else raise
    ``Conflict(*refusal, params=params)``."""
    manager = type(row)._default_manager
    updated = manager.filter(pk=row.pk, status__in=allowed_from).update(status=to, **(also or {}))
    if not updated:
        raise Conflict(*refusal, params=params)
    row.refresh_from_db()
    tournament: Tournament = row.tournament  # type: ignore[attr-defined]
    audit_record(tournament=tournament, actor=actor, action=action, target=row)
    tournament_data_changed(tournament=tournament)
    return row
