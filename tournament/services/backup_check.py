"""What a tournament import checks before it writes anything.

``tournament_import`` writes in one transaction, so a refusal half-way
leaves nothing behind; but a document that only fails *after* it was
written (a move log whose hash chain is broken, found by a later check) or
whose rows point at rows it does not hold would be imported as it is. The
whole document is checked first:

* every row is an object with its own integer ``id``, and every value is one
  its model field accepts (type, length, choices, range, storable text);
* the tournament's settings pass the same checks as an organiser's edit
  (``registration.tournament_settings_check``: e.g. the clock speed's range);
* every reference (foreign key) names a row of the document, and every user
  a user the document lists;
* each game's move log is an unbroken hash chain (``games.selectors``), its
  active entries numbered 1, 2, 3 …

The chain has no key: it proves that nothing was changed by accident or by
hand without recomputing it, not that nobody with the file did so.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models

from core.request import strings_storable
from tournament.errors import ApplicationError
from tournament.models import Tournament

Sections = list[tuple[type[models.Model], list[Any]]]


def _bad(detail_en: str, detail_da: str) -> ApplicationError:
    return ApplicationError(
        "backup_invalid",
        f"This is not a tournament backup this system can read: {detail_en} Nothing was imported.",
        f"Dette er ikke en turneringsbackup, som systemet kan læse: {detail_da} Intet blev "
        "importeret.",
        status=400,
    )


def _is_user(field: models.Field[Any, Any]) -> bool:
    from django.contrib.auth import get_user_model

    return field.related_model is get_user_model()


def _row_ids(model: type[models.Model], rows: list[Any]) -> set[int]:
    label = model._meta.label
    if not isinstance(rows, list):
        raise _bad(f"the section of {label} is not a list.", f"afsnittet {label} er ikke en liste.")
    ids: set[int] = set()
    for row in rows:
        row_id = row.get("id") if isinstance(row, dict) else None
        if isinstance(row_id, bool) or not isinstance(row_id, int) or row_id in ids:
            raise _bad(
                f"a row of {label} has no id of its own.",
                f"en række i {label} har intet eget id.",
            )
        ids.add(row_id)
    return ids


def _value_check(model: type[models.Model], row: dict[str, Any], field: Any) -> None:
    """``row``'s value of a plain (non-relation) field, as the model field takes it."""
    if field.name not in row:
        return
    try:
        value = field.to_python(row[field.name])
        if value is None and not field.null:
            raise ValidationError("null")
        if value not in (None, ""):
            field.run_validators(value)
            if field.choices and value not in {key for key, _label in field.flatchoices}:
                raise ValidationError("choice")
    except (ValidationError, TypeError, ValueError):
        label = model._meta.label
        raise _bad(
            f"{label} {row['id']}: the value of {field.name} is not valid.",
            f"{label} {row['id']}: værdien af {field.name} er ikke gyldig.",
        ) from None


def _reference_check(
    model: type[models.Model],
    row: dict[str, Any],
    field: Any,
    ids: dict[type[models.Model], set[int]],
    usernames: set[str],
) -> None:
    label, target = model._meta.label, field.related_model
    if _is_user(field):
        value, known = row.get(field.name), usernames
    else:
        value, known = row.get(field.attname), ids.get(target, set())
    if value is None and field.null:
        return
    if value not in known:
        raise _bad(
            f"{label} {row['id']} points to a missing {target._meta.label} {value!r}.",
            f"{label} {row['id']} peger på en manglende {target._meta.label} {value!r}.",
        )


def _rows_check(
    sections: Sections, ids: dict[type[models.Model], set[int]], usernames: set[str]
) -> None:
    for model, rows in sections:
        for row in rows:
            for field in model._meta.concrete_fields:
                if field.primary_key or (field.is_relation and field.related_model is Tournament):
                    continue
                if field.is_relation:
                    _reference_check(model, row, field, ids, usernames)
                else:
                    _value_check(model, row, field)


def _chain_broken(game_id: int) -> ApplicationError:
    return _bad(
        f"the move log of game {game_id} has been changed (its hash chain is broken).",
        f"spilleloggen for spil {game_id} er blevet ændret (dens hash-kæde er brudt).",
    )


def _chains_check(entries: list[dict[str, Any]]) -> None:
    from games.selectors import entry_hash, genesis_hash

    by_game: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for entry in entries:
        by_game[entry["game_id"]].append(entry)
    for game_id, rows in by_game.items():
        for row in rows:
            # Every entry, withdrawn ones too, carries its own hash.
            if row["hash"] != entry_hash(
                prev_hash=row["prev_hash"], text=row["text"], seq=row["seq"]
            ):
                raise _chain_broken(game_id)
        active = sorted((r for r in rows if r.get("withdrawn_at") is None), key=lambda r: r["seq"])
        prev = genesis_hash(game_id)
        for expected_seq, row in enumerate(active, start=1):
            if row["seq"] != expected_seq or row["prev_hash"] != prev:
                raise _chain_broken(game_id)
            prev = row["hash"]


def backup_document_check(*, document: dict[str, Any], sections: Sections) -> None:
    """Refuse ``document`` (one bilingual 400) unless all of the module doc holds.

    ``sections`` are the backup models with the document's rows for each;
    ``backup._check_document`` has checked the frame (format, version,
    section names) already.
    """
    from tournament.services.registration import tournament_settings_check

    if not strings_storable(document):
        raise _bad(
            "it contains text the database cannot store (a NUL byte or a broken character).",
            "den indeholder tekst, databasen ikke kan gemme (en NUL-byte eller et ødelagt tegn).",
        )
    users = document.get("users", [])
    if not isinstance(users, list) or not all(
        isinstance(u, dict) and isinstance(u.get("username"), str) and u["username"] for u in users
    ):
        raise _bad("the list of users is not readable.", "listen over brugere kan ikke læses.")
    settings_row = {"id": document.get("tournament_id"), **document["tournament"]}
    _rows_check([(Tournament, [settings_row])], {}, set())
    try:
        tournament_settings_check(document["tournament"])
    except ApplicationError as error:
        raise _bad(
            f"the tournament's settings: {error.message_en}",
            f"turneringens indstillinger: {error.message_da}",
        ) from None
    ids = {model: _row_ids(model, rows) for model, rows in sections}
    _rows_check(sections, ids, {u["username"] for u in users})
    entries = next((rows for model, rows in sections if model._meta.label == "games.MoveEntry"), [])
    _chains_check(entries)
