"""What a tournament import checks before it writes anything.

``tournament_import`` writes in one transaction, so a refusal half-way
leaves nothing behind; but a document that only fails *after* it was
written (a move log whose hash chain is broken, found by a later check) or
whose rows point at rows it does not hold would be imported as it is. The
whole document is checked first:

* every row is an object with its own integer ``id``, and every value is one
  its model field accepts (type, length, choices, range, storable text);
* the tournament's settings pass the same checks as an organiser's edit
  (``TournamentUpdateInputSerializer`` and the rules between the settings,
  ``registration.tournament_settings_consistent``: e.g. the clock speed's range);
* every reference (foreign key) to a row of the event names a row of the
  document, and every user a user the document lists (people outside the event
  are linked again by name on import);
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
from django.utils.translation import gettext_lazy as _

from competition.serializers import TournamentUpdateInputSerializer
from core.errors import ApplicationError, Text, bilingual, in_language
from core.request import strings_storable
from games.selectors import entry_hash, genesis_hash
from tournament.models import Tournament
from tournament.services.registration import (
    SETTING_FIELDS,
    tournament_settings_consistent,
    tournament_settings_defaults,
)

Sections = list[tuple[type[models.Model], list[Any]]]


def _bad(detail: Text, params: dict[str, Any] | None = None) -> ApplicationError:
    detail_in_both = bilingual(in_language(detail, "en", params), in_language(detail, "da", params))
    return ApplicationError(
        "backup_invalid",
        _("This is not a tournament backup this system can read: %(detail)s Nothing was imported."),
        params={"detail": detail_in_both},
        status=400,
    )


def _is_user(field: models.Field[Any, Any]) -> bool:
    from django.contrib.auth import get_user_model

    return field.related_model is get_user_model()


def _row_ids(model: type[models.Model], rows: list[Any]) -> set[int]:
    label = model._meta.label
    if not isinstance(rows, list):
        raise _bad(_("the section of %(label)s is not a list."), params={"label": label})
    ids: set[int] = set()
    for row in rows:
        row_id = row.get("id") if isinstance(row, dict) else None
        if isinstance(row_id, bool) or not isinstance(row_id, int) or row_id in ids:
            raise _bad(
                _("a row of %(label)s has no id of its own."),
                params={"label": label},
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
            _("%(label)s %(id)s: the value of %(name)s is not valid."),
            params={"label": label, "id": row["id"], "name": field.name},
        ) from None


def _reference_check(
    model: type[models.Model],
    row: dict[str, Any],
    field: Any,
    ids: dict[type[models.Model], set[int]],
    usernames: set[str],
) -> None:
    label, target = model._meta.label, field.related_model
    known: set[str] | set[int]
    if _is_user(field):
        value, known = row.get(field.name), usernames
    else:
        value, known = row.get(field.attname), ids.get(target, set())
    if value is None and field.null:
        return
    if value not in known:
        raise _bad(
            _("%(label)s %(id)s points to a missing %(target)s %(value)s."),
            params={
                "label": label,
                "id": row["id"],
                "target": target._meta.label,
                "value": f"{value!r}",
            },
        )


def _users_check(users: list[dict[str, Any]]) -> None:
    from django.contrib.auth import get_user_model

    model = get_user_model()
    names = {"username", "first_name", "last_name", "email", "is_active"}
    fields = [f for f in model._meta.concrete_fields if f.name in names]
    for user in users:
        for field in fields:
            _value_check(model, {**user, "id": user["username"]}, field)


def _rows_check(
    sections: Sections, ids: dict[type[models.Model], set[int]], usernames: set[str]
) -> None:
    for model, rows in sections:
        for row in rows:
            for field in model._meta.concrete_fields:
                if field.primary_key or (field.is_relation and field.related_model is Tournament):
                    continue
                if field.is_relation and not _is_user(field) and field.related_model not in ids:
                    # A row outside the event (a player's person) is not in the
                    # document; the import links it again by name.
                    continue
                if field.is_relation:
                    _reference_check(model, row, field, ids, usernames)
                else:
                    _value_check(model, row, field)


def _chain_broken(game_id: object) -> ApplicationError:
    return _bad(
        _("the move log of game %(game_id)s has been changed (its hash chain is broken)."),
        params={"game_id": game_id},
    )


def _chain_link(row: dict[str, Any]) -> tuple[int, str, str, str, bool] | None:
    """``(seq, text, prev_hash, hash, active)`` of an entry row, or None if unreadable."""
    seq, text, prev, digest = (row.get(key) for key in ("seq", "text", "prev_hash", "hash"))
    if isinstance(seq, bool) or not isinstance(seq, int):
        return None
    if not (isinstance(text, str) and isinstance(prev, str) and isinstance(digest, str)):
        return None
    return seq, text, prev, digest, row.get("withdrawn_at") is None


def _chains_check(entries: list[dict[str, Any]]) -> None:
    by_game: dict[Any, list[tuple[int, str, str, str, bool]]] = defaultdict(list)
    for entry in entries:
        link = _chain_link(entry)
        if link is None:
            raise _chain_broken(entry.get("game_id"))
        by_game[entry.get("game_id")].append(link)
    for game_id, links in by_game.items():
        # Every entry, withdrawn ones too, carries its own hash.
        if any(digest != entry_hash(prev_hash=prev, text=text, seq=seq)
               for seq, text, prev, digest, _active in links):  # fmt: skip
            raise _chain_broken(game_id)
        prev = genesis_hash(game_id)
        active = sorted(link for link in links if link[4])
        for expected_seq, (seq, _text, prev_hash, digest, _active) in enumerate(active, start=1):
            if seq != expected_seq or prev_hash != prev:
                raise _chain_broken(game_id)
            prev = digest


def _entrants_check(pairs: list[Any], *, singles: bool) -> None:
    """A pairs event's entrant has two players, a singles event's one (as registering holds)."""
    for row in pairs:
        if (row.get("player_2_id") is None) != singles:
            raise _bad(
                _("entrant %(id)s has %(found)s, but every entrant of this event has %(need)s."),
                params={
                    "id": row.get("id"),
                    "found": _("one player") if not singles else _("two players"),
                    "need": _("one player") if singles else _("two players"),
                },
            )


def backup_document_check(*, document: dict[str, Any], sections: Sections) -> None:
    """Refuse ``document`` (one bilingual 400) unless all of the module doc holds.

    ``sections`` are the backup models with the document's rows for each;
    ``backup._check_document`` has checked the frame (format, version,
    section names) already.
    """
    if not strings_storable(document):
        raise _bad(
            _("it contains text the database cannot store (a NUL byte or a broken character)."),
        )
    users = document.get("users", [])
    if not isinstance(users, list) or not all(
        isinstance(u, dict) and isinstance(u.get("username"), str) and u["username"] for u in users
    ):
        raise _bad(_("the list of users is not readable."))
    _users_check(users)
    settings_row = {"id": document.get("tournament_id"), **document["tournament"]}
    _rows_check([(Tournament, [settings_row])], {}, set())
    settings = TournamentUpdateInputSerializer(
        data={k: v for k, v in document["tournament"].items() if k in SETTING_FIELDS}
    )
    if not settings.is_valid():
        why_en, why_da = settings.first_refusal()
        raise _bad(
            _("the tournament's settings: %(why)s"), params={"why": bilingual(why_en, why_da)}
        )
    try:
        tournament_settings_consistent(tournament_settings_defaults(settings.validated_data))
    except ApplicationError as error:
        raise _bad(
            _("the tournament's settings: %(why)s"),
            params={"why": bilingual(error.message_en, error.message_da)},
        ) from None
    ids = {model: _row_ids(model, rows) for model, rows in sections}
    _rows_check(sections, ids, {u["username"] for u in users})
    pairs = next((rows for model, rows in sections if model._meta.label == "tournament.Pair"), [])
    singles = Tournament(ruleset=str(settings_row.get("ruleset", ""))).is_singles
    _entrants_check(pairs, singles=singles)
    entries = next((rows for model, rows in sections if model._meta.label == "games.MoveEntry"), [])
    _chains_check(entries)
