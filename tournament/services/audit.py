"""The audit trail and the public data version, shared by every service."""

from __future__ import annotations

from typing import Any

from django.db.models import F

from core.live_copy import event_changed_on_commit
from core.push.broker import publish_on_commit
from core.users import Actor, signed_in
from tournament.models import AuditEntry, Tournament


def audit_record(
    *,
    tournament: Tournament,
    actor: Actor | None,
    action: str,
    target: object | str = "",
    data: dict[str, Any] | None = None,
) -> AuditEntry:
    return AuditEntry.objects.create(
        tournament=tournament,
        actor=signed_in(actor),
        action=action,
        target=str(target)[:200],
        data=data or {},
    )


def tournament_data_changed(*, tournament: Tournament) -> None:
    """Bump the version that public pages are cached under, and tell their open copies."""
    Tournament.objects.filter(pk=tournament.pk).update(data_version=F("data_version") + 1)
    # Before the push, so a page told of it finds the polled copies retired.
    event_changed_on_commit(tournament_id=tournament.pk)
    publish_on_commit((f"event:{tournament.pk}", "pages"))
