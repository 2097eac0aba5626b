"""An event handed from the website to a venue laptop, and back.

Four steps, each one file (docs/operations.md, "From the website to the venue
and back"):

1. ``handover_export`` (website): the event's backup document without what
   the venue does not need (contact emails, sent-email records, the users'
   email addresses, the sign-ups' private-link nonces), the people its
   players and sign-ups name (id, name, club, consent), and a hand-over key
   and secret. The event is then "at the venue": the website remembers one
   digest per section of the event as it left.
2. ``handover_receive`` (laptop): imports the event (``tournament_import``)
   with the laptop's own people: each website person becomes one person of
   the laptop (the same one again for the next event from the same website),
   never matched by name.
3. ``handover_return_export`` (laptop): the finished event's backup document,
   its players' people named by the website's ids again, signed with the
   hand-over's secret.
4. ``handover_return_import`` (website): refuses a file of another event or
   another hand-over, a changed file, a second return, and a return when the
   event was changed on the website meanwhile (naming the sections); else it
   replaces the event's rows by the venue's (``tournament_contents_replace``),
   keeping the website's sign-ups, its organisers' and judges' roles, and the
   audit entries written on the website meanwhile, and announces the new results (ratings, season,
   statistics follow).
"""

from __future__ import annotations

import copy
import datetime
import hashlib
import hmac
import json
import secrets
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, Q
from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _

from competition.models import HandOver, VenueCopy
from competition.services.backup import (
    tournament_export,
)
from competition.services.backup_import import tournament_contents_replace, tournament_import
from core.errors import ApplicationError, Conflict, NotFound
from core.users import Actor, signed_in
from games.signals import results_replaced
from people.copies import PersonCopy, person_copies, persons_copy, persons_present
from signup.models import SignUp
from tournament.models import AuditEntry, Pair, Tournament, TournamentRole
from tournament.permissions import require_organiser
from tournament.services.audit import audit_record, tournament_data_changed

FORMAT = "dm-partners-handover"
VERSION = 1
TO_VENUE = "to_venue"
TO_WEBSITE = "to_website"
# The website's own: they stay on the website, and a return does not replace them.
WEBSITE_SECTIONS = frozenset({"signups", "signup_emails"})
# Who organises and judges the event on the website is the website's business:
# roles given on the laptop (its own accounts) are not taken back.
WEBSITE_ROLES = frozenset({"roles"})
# Not compared for a conflict: the website's own, and the audit trail, to which
# both places only add (the website's new entries are kept on return).
UNCOMPARED = WEBSITE_SECTIONS | WEBSITE_ROLES | {"audit", "users", "excluded"}


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _sha256(value: Any) -> str:
    return hashlib.sha256(_canonical(value)).hexdigest()


def _signature(secret: str, body: dict[str, Any]) -> str:
    return hmac.new(secret.encode(), _canonical(body), hashlib.sha256).hexdigest()


def event_digests(document: dict[str, Any]) -> dict[str, str]:
    """One digest per section of an event's backup document that a conflict concerns."""
    settings_row = dict(document["tournament"])
    settings_row.pop("data_version", None)
    digests = {"tournament": _sha256(settings_row)}
    for key, value in document.items():
        if isinstance(value, list) and key not in UNCOMPARED:
            digests[key] = _sha256(value)
    return digests


def _refused(code: str, message: Any, params: dict[str, Any] | None = None) -> ApplicationError:
    return ApplicationError(code, message, params=params, status=400)


def _check_file(document: Any, direction: str) -> dict[str, Any]:
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise _refused("handover_invalid", _("This file is not a hand-over of an event."))
    if document.get("version") != VERSION:
        raise _refused(
            "handover_invalid",
            _("This hand-over file has version %(version)s; this system reads %(expected)s."),
            params={"version": f"{document.get('version')!r}", "expected": VERSION},
        )
    if document.get("direction") != direction:
        if direction == TO_VENUE:
            message = _("This is an event returned from the venue: import it on the website.")
        else:
            message = _("This is an event sent to the venue: import it on the venue laptop.")
        raise _refused("handover_wrong_direction", message)
    handover = document.get("handover")
    if (
        not isinstance(handover, dict)
        or not isinstance(handover.get("key"), str)
        or not isinstance(document.get("event"), dict)
    ):
        raise _refused("handover_invalid", _("This hand-over file is incomplete."))
    return handover


def _person_ids(document: dict[str, Any]) -> set[int]:
    ids = {row.get("person_id") for row in document.get("players", [])}
    for row in document.get("signups", []):
        ids.update((row.get("person_1_id"), row.get("person_2_id")))
    return {pk for pk in ids if isinstance(pk, int)}


# --- 1. the website sends the event ------------------------------------------


@transaction.atomic
def handover_export(*, tournament: Tournament, actor: Actor) -> dict[str, Any]:
    """The file that takes ``tournament`` to the venue; the event is then at the venue."""
    require_organiser(actor, tournament)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    open_one = HandOver.objects.filter(tournament=tournament, state=HandOver.State.AT_VENUE).first()
    if open_one is not None:
        raise Conflict(
            "handover_open",
            _(
                "This event was handed over to the venue at %(when)s and has not come "
                "back. Import its return, or take it back first."
            ),
            params={"when": _local_moment(open_one.created_at)},
        )
    audit_record(tournament=tournament, actor=actor, action="handover_sent")
    document = tournament_export(tournament=tournament)
    handover = HandOver.objects.create(
        tournament=tournament,
        key=secrets.token_hex(16),
        secret=secrets.token_hex(32),
        base_digests=event_digests(document),
        base_version=tournament.data_version,
        base_audit_id=AuditEntry.objects.filter(tournament=tournament).aggregate(m=Max("pk"))["m"]
        or 0,
        created_by=signed_in(actor),
    )
    event = _for_the_venue(document)
    people = [
        {"id": pk, "name": p.name, "club": p.club, "publish_consent": p.publish_consent}
        for pk, p in person_copies(ids=_person_ids(event))
    ]
    body = {
        "format": FORMAT,
        "version": VERSION,
        "direction": TO_VENUE,
        "handover": {
            "key": handover.key,
            "secret": handover.secret,
            "origin_tournament_id": tournament.pk,
            "origin_slug": tournament.slug,
            "created_at": handover.created_at.isoformat(),
        },
        "people": people,
        "event": event,
    }
    body["sha256"] = _sha256(body)
    return body


def _for_the_venue(document: dict[str, Any]) -> dict[str, Any]:
    """The event without what the venue does not need (see the module doc)."""
    event = copy.deepcopy(document)
    for user in event.get("users", []):
        user["email"] = ""
    for row in event.get("signups", []):
        row["email"] = ""
        # The website's private sign-up links must not be reproducible at the venue.
        row["link_nonce"] = secrets.token_hex(16)
    event["signup_emails"] = []
    return event


# --- 2. the laptop receives it -------------------------------------------------


@transaction.atomic
def handover_receive(*, document: Any, actor: Actor, slug: str | None = None) -> Tournament:
    """Import an event sent from the website; ``actor`` becomes one of its organisers."""
    user = signed_in(actor)
    if user is None:
        raise _refused("handover_login", _("Log in to import an event."))
    handover = _check_file(document, TO_VENUE)
    body = {k: v for k, v in document.items() if k != "sha256"}
    if not hmac.compare_digest(str(document.get("sha256", "")), _sha256(body)):
        raise _refused(
            "handover_tampered",
            _("The file was changed after the website wrote it. Export it from the website again."),
        )
    earlier = VenueCopy.objects.filter(key=handover["key"]).select_related("tournament").first()
    if earlier is not None:
        raise Conflict(
            "handover_received",
            _("This hand-over was imported here already, as the event %(slug)s."),
            params={"slug": earlier.tournament.slug},
        )
    person_map = _venue_people(document.get("people", []))
    event = copy.deepcopy(document["event"])
    for row in event.get("players", []):
        row["person_id"] = person_map.get(row.get("person_id"))
    for row in event.get("signups", []):
        row["person_1_id"] = person_map.get(row.get("person_1_id"))
        row["person_2_id"] = person_map.get(row.get("person_2_id"))
    tournament = tournament_import(document=event, slug=slug, match_people=False)
    pairs = tournament.backup_id_maps.get(Pair, {})  # type: ignore[attr-defined]
    VenueCopy.objects.create(
        tournament=tournament,
        key=handover["key"],
        secret=str(handover.get("secret", "")),
        origin_tournament_id=int(handover.get("origin_tournament_id") or 0),
        origin_slug=str(handover.get("origin_slug", ""))[:80],
        person_ids={str(local): website for website, local in person_map.items()},
        pair_ids={str(local): website for website, local in pairs.items()},
    )
    TournamentRole.objects.get_or_create(
        tournament=tournament, user=user, role=TournamentRole.Role.ORGANISER
    )
    audit_record(
        tournament=tournament,
        actor=actor,
        action="handover_received",
        data={"origin": handover.get("origin_slug", "")},
    )
    return tournament


def _venue_people(rows: Any) -> dict[int, int]:
    """Website person id -> this laptop's person: the one made for it before, else a new one."""
    if not isinstance(rows, list):
        raise _refused("handover_invalid", _("This hand-over file is incomplete."))
    known: dict[int, int] = {}
    for venue_copy in VenueCopy.objects.all():
        for local, website in venue_copy.person_ids.items():
            known[int(website)] = int(local)
    existing = persons_present(ids=set(known.values()))
    mapping = {website: local for website, local in known.items() if local in existing}
    new_rows = []
    for row in rows:
        if not isinstance(row, dict) or not isinstance(row.get("id"), int):
            raise _refused("handover_invalid", _("This hand-over file is incomplete."))
        if row["id"] not in mapping:
            new_rows.append(row)
    try:
        created = persons_copy(
            people=[
                PersonCopy(
                    name=str(row.get("name", "")),
                    club=str(row.get("club", "")),
                    publish_consent=row.get("publish_consent") is True,
                )
                for row in new_rows
            ]
        )
    except ValidationError as exc:
        raise _refused(
            "handover_invalid",
            _("A person in the hand-over file cannot be stored here: %(detail)s"),
            params={"detail": "; ".join(exc.messages)},
        ) from exc
    mapping.update({row["id"]: person.pk for row, person in zip(new_rows, created, strict=True)})
    return mapping


# --- 3. the laptop sends it back -----------------------------------------------


@transaction.atomic
def handover_return_export(*, tournament: Tournament, actor: Actor) -> dict[str, Any]:
    """The signed file that takes the finished event back to the website."""
    require_organiser(actor, tournament)
    venue_copy = VenueCopy.objects.filter(tournament=tournament).first()
    if venue_copy is None:
        raise NotFound(
            "handover_not_received",
            _("This event was not imported from the website, so it has nowhere to go back to."),
        )
    event = tournament_export(tournament=tournament)
    event["tournament_id"] = venue_copy.origin_tournament_id
    for row in event.get("players", []):
        # A player registered at the venue has no person on the website yet.
        row["person_id"] = venue_copy.person_ids.get(str(row.get("person_id")))
    for key in WEBSITE_SECTIONS:
        event[key] = []
    body = {
        "format": FORMAT,
        "version": VERSION,
        "direction": TO_WEBSITE,
        "handover": {
            "key": venue_copy.key,
            "origin_tournament_id": venue_copy.origin_tournament_id,
            "origin_slug": venue_copy.origin_slug,
            "returned_at": timezone.now().isoformat(),
        },
        "pair_origin": venue_copy.pair_ids,
        "event": event,
    }
    body["signature"] = _signature(venue_copy.secret, body)
    VenueCopy.objects.filter(pk=venue_copy.pk).update(returned_at=timezone.now())
    audit_record(tournament=tournament, actor=actor, action="handover_return_written")
    return body


# --- 4. the website takes it back ----------------------------------------------


@transaction.atomic
def handover_return_import(
    *, document: Any, actor: Actor, tournament: Tournament | None = None
) -> HandOver:
    """Replace the event on the website by the venue's (see the module doc for the refusals)."""
    meta = _check_file(document, TO_WEBSITE)
    handover = (
        HandOver.objects.select_for_update()
        .select_related("tournament")
        .filter(key=meta["key"])
        .first()
    )
    if handover is None:
        raise _refused(
            "handover_unknown",
            _("This website did not hand this event over (the file names an unknown hand-over)."),
        )
    if tournament is not None and handover.tournament_id != tournament.pk:
        raise _refused(
            "handover_other_event",
            _("This file is the return of another event (%(slug)s), not of %(this)s."),
            params={"slug": handover.tournament.slug, "this": tournament.slug},
        )
    event_row = Tournament.objects.select_for_update().get(pk=handover.tournament_id)
    require_organiser(actor, event_row)
    _check_open(handover)
    body = {k: v for k, v in document.items() if k != "signature"}
    signature = _signature(handover.secret, body)
    if not hmac.compare_digest(str(document.get("signature", "")), signature):
        raise _refused(
            "handover_tampered",
            _("The file was changed after the venue laptop wrote it (its signature differs)."),
        )
    website = tournament_export(tournament=event_row)
    current = event_digests(website)
    base = handover.base_digests
    changed = sorted(k for k in base.keys() | current.keys() if base.get(k) != current.get(k))
    if changed:
        raise Conflict(
            "handover_conflict",
            _(
                "The event was changed on the website while it was at the venue "
                "(changed: %(sections)s), so the venue's results cannot replace it. "
                "Nothing was imported. See the audit trail of the event for what was "
                "changed, undo it, and import the return again."
            ),
            params={"sections": ", ".join(changed)},
        )
    event = copy.deepcopy(document["event"])
    event["signups"] = _website_signups(website, document.get("pair_origin"))
    event["signup_emails"] = website.get("signup_emails", [])
    tournament_contents_replace(
        tournament=event_row,
        document=event,
        kept_whole=WEBSITE_ROLES,
        kept_rows={"audit": Q(pk__gt=handover.base_audit_id)},
    )
    returned_version = int(event["tournament"].get("data_version") or 0)
    Tournament.objects.filter(pk=event_row.pk).update(
        data_version=max(event_row.data_version, returned_version)
    )
    tournament_data_changed(tournament=event_row)
    handover.state = HandOver.State.RETURNED
    handover.closed_at = timezone.now()
    handover.closed_by = signed_in(actor)
    handover.save(update_fields=["state", "closed_at", "closed_by"])
    audit_record(tournament=event_row, actor=actor, action="handover_returned")
    results_replaced.send(sender=Tournament, tournament_id=event_row.pk)
    return handover


def _local_moment(moment: datetime.datetime) -> str:
    """A moment in a message, as the reader's language writes it ("26.11.2026 14:30")."""
    return formats.date_format(timezone.localtime(moment), "SHORT_DATETIME_FORMAT")


def _check_open(handover: HandOver) -> None:
    if handover.state == HandOver.State.AT_VENUE:
        return
    when = _local_moment(handover.closed_at or handover.created_at)
    if handover.state == HandOver.State.RETURNED:
        raise Conflict(
            "handover_returned",
            _("This hand-over was returned already (at %(when)s); a second return is refused."),
            params={"when": when},
        )
    raise Conflict(
        "handover_taken_back",
        _(
            "The event was taken back on the website at %(when)s; the website's "
            "version stands and this return is refused."
        ),
        params={"when": when},
    )


def _website_signups(website: dict[str, Any], pair_origin: Any) -> list[dict[str, Any]]:
    """The website's sign-ups, pointing at the returned event's pairs."""
    laptop_pair = {}
    if isinstance(pair_origin, dict):
        laptop_pair = {website_id: int(local) for local, website_id in pair_origin.items()}
    rows: list[dict[str, Any]] = copy.deepcopy(website.get("signups", []))
    for row in rows:
        pair = row.get("pair_id")
        row["pair_id"] = laptop_pair.get(pair) if pair is not None else None
        if row["pair_id"] is None and row.get("status") == SignUp.Status.CONFIRMED:
            raise _refused(
                "handover_invalid",
                _("The pair of the confirmed sign-up %(name)s is missing from the return."),
                params={"name": row.get("player_1", "")},
            )
    return rows


@transaction.atomic
def handover_take_back(*, tournament: Tournament, actor: Actor) -> HandOver:
    """End the hand-over without a return: the website's version stands."""
    require_organiser(actor, tournament)
    handover = (
        HandOver.objects.select_for_update()
        .filter(tournament=tournament, state=HandOver.State.AT_VENUE)
        .first()
    )
    if handover is None:
        raise Conflict("handover_none", _("This event is not at the venue."))
    handover.state = HandOver.State.TAKEN_BACK
    handover.closed_at = timezone.now()
    handover.closed_by = signed_in(actor)
    handover.save(update_fields=["state", "closed_at", "closed_by"])
    audit_record(tournament=tournament, actor=actor, action="handover_taken_back")
    return handover


def handover_filename(*, tournament: Tournament, direction: str) -> str:
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
    word = "to-venue" if direction == TO_VENUE else "return"
    return f"{tournament.slug}-{word}-{stamp}.json"
