"""Export a whole tournament as one JSON document, and import it again.

The document (``format`` "dm-partners-tournament", ``version`` 1) holds the
tournament's settings and one list per model with a path to the tournament
(players, pairs, rounds, byes, games with results/clock/token nonce, move
entries, clock events, alerts, judge calls, rulings, refusals, audit…), plus
the users those rows name (by username; never a password).

The model list is *derived*, not hand-kept: every model of the tournament,
games, judging and printing apps that reaches ``Tournament`` through foreign
keys is exported, unless it is named in ``EXCLUDED`` with a reason. A model
nobody gave a section name is still exported (under its ``app.model`` label)
and ``tests/operations/test_backup.py`` fails until it gets one, so a new
model is never silently left out of a backup.

The import is ``competition.services.backup_import``.
"""

from __future__ import annotations

import datetime
from collections import deque
from collections.abc import Iterable
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import models
from django.utils import timezone

from tournament.models import Tournament

FORMAT = "dm-partners-tournament"
VERSION = 1
BACKUP_APPS = ("tournament", "games", "judging", "printing", "signup")

# Section name in the document -> model label. Order is cosmetic: import sorts
# the models by their foreign keys.
SECTIONS: dict[str, str] = {
    "roles": "tournament.TournamentRole",
    "players": "tournament.Player",
    "pairs": "tournament.Pair",
    "rounds": "tournament.Round",
    "byes": "tournament.Bye",
    "games": "games.Game",
    "clocks": "games.GameClock",
    "clock_events": "games.ClockEvent",
    "move_entries": "games.MoveEntry",
    "result_confirmations": "games.ResultConfirmation",
    "alerts": "judging.Alert",
    "judge_calls": "judging.JudgeCall",
    "rulings": "judging.Ruling",
    "move_refusals": "judging.MoveRefusal",
    "audit": "tournament.AuditEntry",
    "signups": "signup.SignUp",
    "signup_emails": "signup.SignUpEmail",
}
# Models deliberately left out, with the reason (docs/operations.md).
EXCLUDED: dict[str, str] = {
    "printing.PrintJob": "generated PDFs; print them again after a restore",
}


# --- which models, and how they reach the tournament -------------------------


def model_label(model: type[models.Model]) -> str:
    return model._meta.label


def is_user_model(model: Any) -> bool:
    return model is get_user_model()


def related_model(field: models.Field[Any, Any]) -> type[models.Model]:
    """The model a foreign key points to (a concrete relation field always names one)."""
    target = field.related_model
    if target is None or isinstance(target, str):  # pragma: no cover - Django resolves them
        raise TypeError(f"{field} has no resolved related model")
    return target


def tournament_path(model: type[models.Model]) -> str | None:
    """The ORM lookup from ``model`` to its Tournament ("" for Tournament), or None.

    Shortest path over forward foreign keys, preferring required ones, within
    the backup apps.
    """
    if model is Tournament:
        return ""
    queue: deque[tuple[type[models.Model], str]] = deque([(model, "")])
    seen = {model}
    while queue:
        current, path = queue.popleft()
        fks = [
            f
            for f in current._meta.concrete_fields
            if f.is_relation and (f.many_to_one or f.one_to_one)
        ]
        fks.sort(key=lambda f: f.null)
        for field in fks:
            target = related_model(field)
            lookup = f"{path}__{field.name}" if path else field.name
            if target is Tournament:
                return lookup
            if target in seen or target._meta.app_label not in BACKUP_APPS:
                continue
            seen.add(target)
            queue.append((target, lookup))
    return None


def backup_models() -> list[type[models.Model]]:
    """Every model (but Tournament) with a path to Tournament that is not excluded."""
    found = []
    for app_label in BACKUP_APPS:
        for model in apps.get_app_config(app_label).get_models():
            if model is Tournament or model_label(model) in EXCLUDED:
                continue
            if tournament_path(model) is not None:
                found.append(model)
    return _sorted_by_dependencies(found)


def section_name(model: type[models.Model]) -> str:
    label = model_label(model)
    for name, section_label in SECTIONS.items():
        if section_label == label:
            return name
    return label.lower()


def unregistered_models() -> list[str]:
    """Labels of exported models without a section name (a test keeps this empty)."""
    return [model_label(m) for m in backup_models() if model_label(m) not in SECTIONS.values()]


def _sorted_by_dependencies(found: list[type[models.Model]]) -> list[type[models.Model]]:
    """Topological order: a model comes after every model its foreign keys point to."""
    members = set(found)
    ordered: list[type[models.Model]] = []
    pending = list(found)
    while pending:
        progress = False
        for model in list(pending):
            deps = {
                f.related_model
                for f in model._meta.concrete_fields
                if f.is_relation and f.related_model in members and f.related_model is not model
            }
            if deps <= set(ordered):
                ordered.append(model)
                pending.remove(model)
                progress = True
        if not progress:
            raise RuntimeError(f"foreign-key cycle between {[model_label(m) for m in pending]}")
    return ordered


# --- export --------------------------------------------------------------------


def _plain(value: Any) -> Any:
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, datetime.timedelta):
        return value.total_seconds()
    return value


def _row(instance: models.Model, users: dict[int, str]) -> dict[str, Any]:
    row: dict[str, Any] = {}
    for field in instance._meta.concrete_fields:
        if field.is_relation and field.related_model is Tournament:
            continue
        value = getattr(instance, field.attname)
        if field.is_relation and is_user_model(field.related_model):
            row[field.name] = users.get(value) if value is not None else None
        elif isinstance(field, models.FileField):
            row[field.name] = str(value or "")
        else:
            row[field.attname if field.is_relation else field.name] = _plain(value)
    return row


def _user_ids(rows: Iterable[models.Model]) -> set[int]:
    ids = set()
    for instance in rows:
        for field in instance._meta.concrete_fields:
            if field.is_relation and is_user_model(field.related_model):
                value = getattr(instance, field.attname)
                if value is not None:
                    ids.add(value)
    return ids


def tournament_export(*, tournament: Tournament) -> dict[str, Any]:
    """The whole tournament as one JSON-serialisable document (see the module doc)."""
    querysets = {}
    for model in backup_models():
        path = tournament_path(model) or ""  # backup_models() keeps models that have one
        querysets[model] = list(model._default_manager.filter(**{path: tournament}).order_by("pk"))
    user_model = get_user_model()
    ids = set().union(*(_user_ids(rows) for rows in querysets.values()))
    user_rows = user_model._default_manager.filter(pk__in=ids).order_by("username")
    usernames = {u.pk: u.get_username() for u in user_rows}
    settings_row = _row(tournament, usernames)
    settings_row.pop("id")
    document: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "tournament_id": tournament.pk,
        "tournament": settings_row,
        "users": [
            {
                "username": u.get_username(),
                "first_name": getattr(u, "first_name", ""),
                "last_name": getattr(u, "last_name", ""),
                "email": getattr(u, "email", ""),
                "is_active": u.is_active,
            }
            for u in user_rows
        ],
        "excluded": sorted(EXCLUDED),
    }
    for model, rows in querysets.items():
        document[section_name(model)] = [_row(instance, usernames) for instance in rows]
    return document


def backup_filename(*, tournament: Tournament) -> str:
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M%S")
    return f"{tournament.slug}-{stamp}.json"
