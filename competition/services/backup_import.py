"""Import a tournament's backup document (``competition.services.backup``
exports it): restore it with its ids, or copy it beside the original.

The whole document is checked before anything is written (``backup_check``:
values, references, settings, each move log's hash chain), then everything is
written in one transaction:

* **restore** — when none of the document's primary keys exist in the target
  database (an empty instance), rows keep their ids, so the table tokens
  (an HMAC of the game id and its nonce under ``SECRET_KEY``) printed on the
  score sheets keep working, provided the instance has the same
  ``DJANGO_SECRET_KEY``.
* **copy** — otherwise (e.g. beside the original under a new slug) ids are
  remapped and every game gets a new table token and short code: the old
  QR codes belong to the original.

Users are matched by username; a missing one is created with an unusable
password (the organiser sets a password or the admin resets it).
"""

from __future__ import annotations

import logging
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.core.management.color import no_style
from django.db import connection, models, transaction
from django.utils.translation import gettext_lazy as _

from competition.services.backup import (
    BACKUP_APPS,
    FORMAT,
    VERSION,
    backup_models,
    is_user_model,
    model_label,
    related_model,
    section_name,
    tournament_path,
)
from competition.services.backup_check import backup_document_check
from core.errors import ApplicationError, Text, bilingual, in_language
from games.models import Game, MoveEntry, ResultConfirmation
from games.selectors import entry_hash, genesis_hash
from games.services.tokens import game_token_rotate
from people.services import persons_for_names
from tournament.models import Player, Tournament
from tournament.person_permissions import link_policy

logger = logging.getLogger(__name__)

Row = TypeVar("Row", bound=models.Model)

# --- import --------------------------------------------------------------------


def _bad_document(detail: Text, params: dict[str, Any] | None = None) -> ApplicationError:
    detail_in_both = bilingual(in_language(detail, "en", params), in_language(detail, "da", params))
    return ApplicationError(
        "backup_invalid",
        _("This is not a tournament backup this system can read: %(detail)s"),
        params={"detail": detail_in_both},
        status=400,
    )


def _check_document(document: Any) -> None:
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise _bad_document(_("the file is not a DM i Partners backup."))
    if document.get("version") != VERSION:
        raise _bad_document(
            _("version %(version)s is not supported (expected %(expected)s)."),
            params={"version": f"{document.get('version')!r}", "expected": VERSION},
        )
    if not isinstance(document.get("tournament"), dict):
        raise _bad_document(_("the tournament settings are missing."))
    known = {section_name(m) for m in backup_models()}
    unknown = [
        key
        for key, value in document.items()
        if isinstance(value, list) and key not in known | {"users", "excluded"}
    ]
    if unknown:
        raise _bad_document(
            _("unknown sections %(unknown)s (made by a newer version?)."),
            params={"unknown": unknown},
        )


def _users_from(document: dict[str, Any]) -> dict[str, int]:
    user_model = get_user_model()
    field = user_model.USERNAME_FIELD
    ids = {}
    for entry in document.get("users", []):
        username = entry["username"]
        user = user_model._default_manager.filter(**{field: username}).first()
        if user is None:
            user = user_model(**{field: username})
            for attr in ("first_name", "last_name", "email", "is_active"):
                if attr in entry and hasattr(user, attr):
                    setattr(user, attr, entry[attr])
            user.set_unusable_password()
            user.save()
        ids[username] = user.pk
    return ids


def _ids_free(model: type[models.Model], rows: list[dict[str, Any]]) -> bool:
    ids = [row["id"] for row in rows]
    return not any(
        model._default_manager.filter(pk__in=ids[i : i + 500]).exists()
        for i in range(0, len(ids), 500)
    )


def _instance(
    model: type[Row],
    row: dict[str, Any],
    tournament: Tournament,
    id_maps: dict[type[models.Model], dict[int, int]],
    users: dict[str, int],
    keep_ids: bool,
) -> Row:
    values: dict[str, Any] = {}
    for field in model._meta.concrete_fields:
        if field.primary_key:
            if keep_ids:
                values[field.attname] = row["id"]
            continue
        if field.is_relation and field.related_model is Tournament:
            values[field.attname] = tournament.pk
        elif field.is_relation and is_user_model(field.related_model):
            username = row.get(field.name)
            values[field.attname] = users[username] if username else None
        elif field.is_relation:
            target = related_model(field)
            old = row.get(field.attname)
            if old is None or _outside(target):
                # A row outside the event (a player's person) is kept when this
                # database has it; otherwise the link is made again after import.
                values[field.attname] = old if old in id_maps.get(target, {}) else None
            else:
                mapping = id_maps.get(target)
                if mapping is None or old not in mapping:
                    raise _bad_document(
                        _("%(model)s %(id)s points to a missing %(target)s %(old)s."),
                        params={
                            "model": model_label(model),
                            "id": row.get("id"),
                            "target": model_label(target),
                            "old": old,
                        },
                    )
                values[field.attname] = mapping[old]
        elif field.name in row:
            values[field.attname] = field.to_python(row[field.name])
    return model(**values)


def _outside(model: type[models.Model]) -> bool:
    return model is not Tournament and model._meta.app_label not in BACKUP_APPS


def _outside_ids(
    sections: list[tuple[type[models.Model], list[dict[str, Any]]]],
) -> dict[type[models.Model], dict[int, int]]:
    """Rows outside the backup apps that the document names and this database has."""
    wanted: dict[type[models.Model], set[Any]] = {}
    for model, rows in sections:
        for field in model._meta.concrete_fields:
            target = field.related_model if field.is_relation else None
            if target is not None and _outside(target) and not is_user_model(target):
                wanted.setdefault(target, set()).update(row.get(field.attname) for row in rows)
    return {
        target: {pk: pk for pk in target._default_manager.filter(pk__in=ids - {None}).values_list(
            "pk", flat=True
        )}
        for target, ids in wanted.items()
    }  # fmt: skip


def _link_people(tournament: Tournament) -> None:
    """Players whose person this database does not have are matched by name, as at
    registration: to the event's own organisers' people only, others are suggested."""
    players = list(Player.objects.filter(tournament=tournament, person__isnull=True))
    found = persons_for_names(
        [(p.name, p.club) for p in players],
        may_link=link_policy(tournament),
        context=f"tournament:{tournament.pk}",
    )
    for player, person in zip(players, found, strict=True):
        player.person = person
    Player.objects.bulk_update(players, ["person"], batch_size=500)


def _auto_time_fields(model: type[models.Model]) -> list[models.Field[Any, Any]]:
    return [
        f
        for f in model._meta.concrete_fields
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]


def _create_rows(
    model: type[models.Model], instances: list[models.Model], rows: list[dict[str, Any]]
) -> None:
    if not instances:
        return
    if connection.features.can_return_rows_from_bulk_insert or instances[0].pk is not None:
        model._default_manager.bulk_create(instances, batch_size=500)
    else:
        for instance in instances:
            instance.save(force_insert=True)
    # bulk_create stamps auto_now(_add) fields with "now"; put the originals back
    # (bulk_update writes the attribute values without calling pre_save).
    time_fields = _auto_time_fields(model)
    if time_fields:
        for instance, row in zip(instances, rows, strict=True):
            for field in time_fields:
                setattr(instance, field.attname, field.to_python(row.get(field.name)))
        model._default_manager.bulk_update(
            instances, [field.name for field in time_fields], batch_size=500
        )


def _new_tokens(game_ids: list[int]) -> None:
    for game in Game.objects.filter(pk__in=game_ids, token_nonce__gt=""):
        game_token_rotate(game=game)


@transaction.atomic
def tournament_import(
    *,
    document: dict[str, Any],
    slug: str | None = None,
    name: str | None = None,
    match_people: bool = True,
) -> Tournament:
    """Create the tournament of ``document`` (see the module doc: restore or copy).

    ``match_people=False``: players the document does not link to a person of
    this database stay without one (no matching by name and club); the
    hand-over links them itself. The ids given to the document's rows are
    ``tournament.backup_id_maps`` (model -> document id -> new id).
    """
    _check_document(document)
    settings_row = dict(document["tournament"])
    settings_row.pop("id", None)
    if slug:
        settings_row["slug"] = slug
    if name:
        settings_row["name"] = name
    if Tournament.objects.filter(slug=settings_row.get("slug")).exists():
        raise ApplicationError(
            "backup_slug_taken",
            _(
                "A tournament with the short name %(slug)s exists already; choose "
                "another short name for the imported copy."
            ),
            params={"slug": f"{settings_row.get('slug')!r}"},
            status=409,
        )
    sections = [(m, document.get(section_name(m), [])) for m in backup_models()]
    backup_document_check(document=document, sections=sections)
    users = _users_from(document)
    old_tournament_id = document.get("tournament_id")
    keep_ids = (
        old_tournament_id is not None
        and not Tournament.objects.filter(pk=old_tournament_id).exists()
        and all(_ids_free(model, rows) for model, rows in sections)
    )
    if keep_ids:
        settings_row["id"] = old_tournament_id
    tournament = _instance(Tournament, settings_row, Tournament(), {}, users, keep_ids)
    _create_rows(Tournament, [tournament], [settings_row])
    id_maps = _import_sections(sections, tournament, users, keep_ids)
    if match_people:
        _link_people(tournament)
    logger.info(
        "tournament %s imported (%s) with %s rows",
        tournament.slug,
        "ids kept" if keep_ids else "ids remapped, new table tokens",
        sum(len(rows) for _m, rows in sections),
    )
    tournament.backup_mode = "restore" if keep_ids else "copy"  # type: ignore[attr-defined]
    tournament.backup_id_maps = id_maps  # type: ignore[attr-defined]
    return tournament


def _import_sections(
    sections: list[tuple[type[models.Model], list[dict[str, Any]]]],
    tournament: Tournament,
    users: dict[str, int],
    keep_ids: bool | None,
) -> dict[type[models.Model], dict[int, int]]:
    """Write the rows; ``keep_ids=None``: each section keeps its ids where all are free."""
    id_maps = _outside_ids(sections)
    kept: list[type[models.Model]] = []
    hashes: dict[int, dict[str, str]] | None = None
    for model, rows in sections:
        if model in (MoveEntry, ResultConfirmation) and Game not in kept:
            # A game under a new id starts its hash chain from another genesis.
            if hashes is None:
                hashes = _new_hashes(sections, id_maps.get(Game, {}))
            rows = _rechained(model, rows, hashes)
        keep = _ids_free(model, rows) if keep_ids is None else keep_ids
        instances = [_instance(model, row, tournament, id_maps, users, keep) for row in rows]
        _create_rows(model, instances, rows)
        id_maps[model] = {row["id"]: inst.pk for row, inst in zip(rows, instances, strict=True)}
        if keep:
            kept.append(model)
    if kept:
        _reset_sequences([Tournament, *kept] if keep_ids else kept)
    if Game not in kept:
        _new_tokens(list(id_maps.get(Game, {}).values()))
    return id_maps


def _new_hashes(
    sections: list[tuple[type[models.Model], list[dict[str, Any]]]], game_ids: dict[int, int]
) -> dict[int, dict[str, str]]:
    """Per document game id: each entry hash -> the same chain's hash under the game's new id.

    The document's chains were checked (``backup_document_check``); rebuilt here
    from the new genesis, entry by entry in the order they were chained (by
    sequence number; a withdrawn entry and its successor share their ``prev_hash``).
    """
    entries = next((rows for model, rows in sections if model is MoveEntry), [])
    by_game: dict[int, list[dict[str, Any]]] = {}
    for row in entries:
        by_game.setdefault(row["game_id"], []).append(row)
    hashes: dict[int, dict[str, str]] = {}
    for old_id, new_id in game_ids.items():
        mapping = {genesis_hash(old_id): genesis_hash(new_id)}
        for row in sorted(by_game.get(old_id, []), key=lambda r: (r["seq"], r["id"])):
            prev = mapping.get(row["prev_hash"], row["prev_hash"])
            mapping[row["hash"]] = entry_hash(prev_hash=prev, text=row["text"], seq=row["seq"])
        hashes[old_id] = mapping
    return hashes


def _rechained(
    model: type[models.Model], rows: list[dict[str, Any]], hashes: dict[int, dict[str, str]]
) -> list[dict[str, Any]]:
    fields = ("prev_hash", "hash") if model is MoveEntry else ("log_hash",)
    out = []
    for row in rows:
        mapping = hashes.get(int(row.get("game_id") or 0), {})
        out.append({**row, **{f: mapping.get(str(row.get(f)), row.get(f)) for f in fields}})
    return out


def tournament_contents_replace(
    *,
    tournament: Tournament,
    document: dict[str, Any],
    kept_whole: frozenset[str] = frozenset(),
    kept_rows: dict[str, models.Q] | None = None,
) -> dict[type[models.Model], dict[int, int]]:
    """Replace ``tournament``'s rows and settings by the document's, in place.

    The tournament row stays (with its id, short name and every link to it from
    outside the event, e.g. its seasons); its settings are the document's. The
    document's rows keep their ids where this database has them free (else
    new ids, and games new table tokens). Sections named in
    ``kept_whole`` stay as they are (the document's rows of them are not
    imported); ``kept_rows``: section name -> which of the tournament's rows of
    that section stay beside the document's. Checks the whole document first;
    the caller holds the transaction. Returns the new ids (model -> document id
    -> new id).
    """
    kept_rows = kept_rows or {}
    _check_document(document)
    sections = [(m, document.get(section_name(m), [])) for m in backup_models()]
    backup_document_check(document=document, sections=sections)
    users = _users_from(document)
    sections = [(m, rows) for m, rows in sections if section_name(m) not in kept_whole]
    for model, _rows in reversed(sections):
        rows = model._default_manager.filter(**{tournament_path(model) or "": tournament})
        keep = kept_rows.get(section_name(model))
        if keep is not None:
            rows = rows.exclude(keep)
        rows.delete()
    settings_row = dict(document["tournament"])
    template = _instance(Tournament, settings_row, Tournament(), {}, users, False)
    for field in Tournament._meta.concrete_fields:
        if field.primary_key or field.name in ("slug", "data_version"):
            continue
        setattr(tournament, field.attname, getattr(template, field.attname))
    tournament.save()
    return _import_sections(sections, tournament, users, None)


def _reset_sequences(model_list: list[type[models.Model]]) -> None:
    # After inserts with explicit ids, PostgreSQL's sequences must move past them.
    statements = connection.ops.sequence_reset_sql(no_style(), model_list)
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)
