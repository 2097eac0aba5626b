"""Writes of the people app: find or create, merge, undo a merge, anonymise.

Merging moves every reference to the duplicate (whatever app holds it) to the
survivor. The references are found through Django's model registry
(``Person._meta.related_objects``), so this app never imports the apps that
point at it, and a new one (ratings, say) is merged without a change here.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.users import Actor, User, signed_in
from people.errors import PersonRefused
from people.keys import match_key
from people.models import ConsentRecord, Person, PersonAudit, PersonMatch
from people.services_consent import person_consent_refresh
from people.signals import people_changed

ANONYMOUS_NAME = "Anonym #{pk}"


def _matchable() -> models.QuerySet[Person]:
    return Person.objects.filter(merged_into__isnull=True, anonymised_at__isnull=True)


# Given the known people a name matched, the ids of those this caller may link to.
LinkPolicy = Callable[[list[Person]], Collection[int]]


def persons_for_names(
    entries: Sequence[tuple[str, str]],
    *,
    may_link: LinkPolicy | None = None,
    context: str = "",
) -> list[Person]:
    """The person of each ``(name, club)``: a known one with the same match
    keys (the oldest, if duplicates are still unmerged), else a new one.

    ``may_link`` says which of the known people found this caller may link
    to (``tournament.person_permissions.link_policy``: the event's own
    organisers' people); a match it does not allow gets a new person and a
    ``PersonMatch`` suggestion instead, recorded under ``context``. Without
    it every match links (tests and the demo's own data only).

    One query finds every known person and one insert creates the rest, so a
    CSV import of a few hundred pairs costs a handful of queries, not hundreds.
    Nobody's consent to publish is touched: that comes from the person
    (people.services_consent), never from a form naming them.
    """
    keys = [(match_key(name), match_key(club)) for name, club in entries]
    candidates = list(_matchable().filter(name_key__in={k for k, _ in keys}).order_by("pk"))
    allowed = {p.pk for p in candidates} if may_link is None else set(may_link(candidates))
    known: dict[tuple[str, str], Person] = {}
    refused: dict[tuple[str, str], Person] = {}
    for person in candidates:
        key = (person.name_key, person.club_key)
        if person.pk in allowed:
            known.setdefault(key, person)
        else:
            refused.setdefault(key, person)
    new: dict[tuple[str, str], Person] = {}
    for (name, club), key in zip(entries, keys, strict=True):
        if key not in known and key not in new:
            new[key] = Person(
                name=" ".join(name.split()),
                club=" ".join(club.split()),
                name_key=key[0],
                club_key=key[1],
            )
    if new:
        created = _bulk_create(list(new.values()))
        known.update(zip(new, created, strict=True))
        PersonMatch.objects.bulk_create(
            [
                PersonMatch(new=known[key], known=refused[key], context=context[:120])
                for key in new
                if key in refused
            ],
            ignore_conflicts=True,
        )
    return [known[key] for key in keys]


def _bulk_create(persons: list[Person]) -> list[Person]:
    from django.db import connection

    if connection.features.can_return_rows_from_bulk_insert:
        return Person.objects.bulk_create(persons)
    for person in persons:
        person.save(force_insert=True)
    return persons


def _references() -> list[tuple[type[models.Model], str]]:
    """Every (model, foreign-key field) that points at Person, this app's audit aside.

    A model computed from the others (``DERIVED_FROM_PEOPLE = True``, e.g. the
    ratings) is not moved: its app rebuilds it on ``people_changed``.
    """
    found = []
    for relation in Person._meta.related_objects:
        # The audit, the suggestions and the consent history stay with the
        # person they are about.
        kept = (PersonAudit, PersonMatch, ConsentRecord)
        if relation.related_model in kept or not relation.one_to_many:
            continue
        if getattr(relation.related_model, "DERIVED_FROM_PEOPLE", False):
            continue
        found.append((relation.related_model, relation.field.name))
    return found


def _locked(*persons: Person) -> list[Person]:
    ids = sorted({p.pk for p in persons})
    rows = {p.pk: p for p in Person.objects.select_for_update().filter(pk__in=ids).order_by("pk")}
    return [rows[p.pk] for p in persons]


@transaction.atomic
def person_merge(
    *, survivor: Person, duplicate: Person, actor: Actor, context: str = ""
) -> PersonAudit:
    """``duplicate`` is the same human as ``survivor``: every reference moves.
    The survivor keeps its own name, club and consent to publish.

    The caller has checked that the actor may do this (the people app knows no
    roles). Refused (``PersonRefused``) for a person merged into itself, one
    merged already, or an anonymised one.
    """
    survivor, duplicate = _locked(survivor, duplicate)
    if survivor.pk == duplicate.pk:
        raise PersonRefused(
            "person_merge_same",
            _("A person cannot be merged with themselves."),
        )
    if survivor.merged_into_id or duplicate.merged_into_id:
        raise PersonRefused(
            "person_already_merged",
            _("One of these people has already been merged into another; reload the page."),
        )
    if survivor.anonymised_at or duplicate.anonymised_at:
        raise PersonRefused(
            "person_anonymised",
            _("An anonymised person cannot be merged."),
        )
    moved: dict[str, list[int]] = {}
    for model, field in _references():
        rows = model._default_manager.filter(**{field: duplicate})
        ids = list(rows.values_list("pk", flat=True))
        if ids:
            rows.update(**{field: survivor})
            moved[f"{model._meta.label}.{field}"] = ids
    duplicate.merged_into = survivor
    duplicate.save(update_fields=["merged_into"])
    # The survivor keeps its own consent: a merge is an organiser's judgement
    # that two records are one human, not that human's word (docs/decisions.md).
    if duplicate.publish_consent:
        duplicate.publish_consent, duplicate.consent_at = False, None
        duplicate.save(update_fields=["publish_consent", "consent_at"])
    people_changed.send(sender=Person, persons=[survivor, duplicate])
    return PersonAudit.objects.create(
        person=survivor,
        other=duplicate,
        action=PersonAudit.Action.MERGE,
        actor=_user(actor),
        context=context[:120],
        data={"moved": moved},
    )


@transaction.atomic
def person_merge_undo(*, merge: PersonAudit, actor: Actor, context: str = "") -> PersonAudit:
    """Put back exactly what ``merge`` moved (rows that still point at the survivor)."""
    merge = PersonAudit.objects.select_for_update().get(pk=merge.pk)
    if merge.action != PersonAudit.Action.MERGE or merge.undone_at is not None:
        raise PersonRefused(
            "person_merge_not_undoable",
            _("This merge has already been undone."),
        )
    survivor, duplicate = _locked(merge.person, merge.other)  # type: ignore[arg-type]
    if survivor.merged_into_id or duplicate.merged_into_id != survivor.pk:
        raise PersonRefused(
            "person_merge_superseded",
            _("The survivor has since been merged into someone else: undo that merge first."),
        )
    references = {f"{model._meta.label}.{field}": (model, field) for model, field in _references()}
    for key, ids in merge.data.get("moved", {}).items():
        if key not in references:
            continue  # the model is gone since; nothing to put back
        model, field = references[key]
        model._default_manager.filter(pk__in=ids, **{field: survivor}).update(**{field: duplicate})
    duplicate.merged_into = None
    duplicate.save(update_fields=["merged_into"])
    # Its own consent (its history) is its flag again.
    person_consent_refresh(person=duplicate)
    people_changed.send(sender=Person, persons=[survivor, duplicate])
    merge.undone_at = timezone.now()
    merge.save(update_fields=["undone_at"])
    return PersonAudit.objects.create(
        person=survivor,
        other=duplicate,
        action=PersonAudit.Action.MERGE_UNDO,
        actor=_user(actor),
        context=context[:120],
        data={"merge": merge.pk},
    )


@transaction.atomic
def person_anonymise(
    *, person: Person, actor: Actor, context: str = ""
) -> list[tuple[Person, str]]:
    """Replace the name with "Anonym #<id>" and drop club and consent, for the
    person and every duplicate merged into it (the same human).

    Returns each anonymised person with the name it had, so the apps that
    copied the name (a tournament's players, sign-ups) can replace their
    copies; the old name is kept nowhere here. The caller has checked the
    actor may do this. Anonymising twice changes nothing.
    """
    (person,) = _locked(person)
    group = [person, *Person.objects.select_for_update().filter(merged_into=person)]
    now = timezone.now()
    done: list[tuple[Person, str]] = []
    for member in group:
        if member.anonymised_at is not None:
            continue
        old_name = member.name
        member.name = ANONYMOUS_NAME.format(pk=member.pk)
        member.club = member.club_key = member.name_key = ""
        member.publish_consent, member.consent_at, member.anonymised_at = False, None, now
        member.save()
        ConsentRecord.objects.filter(person=member).update(reason="")
        PersonAudit.objects.create(
            person=member,
            action=PersonAudit.Action.ANONYMISE,
            actor=_user(actor),
            context=context[:120],
        )
        done.append((member, old_name))
    return done


@transaction.atomic
def person_match_decide(
    *, match: PersonMatch, actor: Actor, confirm: bool, context: str = ""
) -> PersonMatch:
    """Confirm a suggested match (``new`` is merged into ``known``) or dismiss it.

    The caller has checked the actor may (``tournament.person_permissions``).
    Deciding twice is refused: the suggestion is no longer open.
    """
    match = PersonMatch.objects.select_for_update().get(pk=match.pk)
    if match.status != PersonMatch.Status.OPEN:
        raise PersonRefused(
            "person_match_decided",
            _("This suggestion has already been decided; reload the page."),
        )
    if confirm:
        person_merge(survivor=match.known, duplicate=match.new, actor=actor, context=context)
    match.status = PersonMatch.Status.CONFIRMED if confirm else PersonMatch.Status.DISMISSED
    match.decided_by, match.decided_at = _user(actor), timezone.now()
    match.save(update_fields=["status", "decided_by", "decided_at"])
    return match


@transaction.atomic
def persons_keep_apart(
    *, first: Person, second: Person, actor: Actor, context: str = ""
) -> PersonMatch:
    """``first`` and ``second`` are two different humans: never suggested as one
    again (a dismissed ``PersonMatch``; an open one between them is dismissed).
    The caller has checked the actor may."""
    if first.pk == second.pk:
        raise PersonRefused("person_merge_same", _("A person cannot be merged with themselves."))
    known, new = sorted((first, second), key=lambda p: p.pk)
    match = (
        PersonMatch.objects.select_for_update()
        .filter(models.Q(new=new, known=known) | models.Q(new=known, known=new))
        .first()
    )
    if match is None:
        match = PersonMatch(new=new, known=known, context=context[:120])
    match.status = PersonMatch.Status.DISMISSED
    match.decided_by, match.decided_at = _user(actor), timezone.now()
    match.save()
    return match


def _user(actor: Actor | None) -> User | None:
    return signed_in(actor)
