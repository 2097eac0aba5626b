"""Reads of the people app: likely duplicates, the merges made."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from people.keys import loose_key, name_similarity
from people.models import Person, PersonAudit, PersonMatch

# Below this, two names in the same club are not worth an organiser's look.
SIMILAR_IN_CLUB = 0.85
REASONS = {
    "same_name_same_club": (
        "Same name and club (registered by another organiser)",
        "Samme navn og klub (tilmeldt af en anden arrangør)",
    ),
    "same_name_other_club": (
        "Same name, different club (or none)",
        "Samme navn, anden klub (eller ingen)",
    ),
    "same_name_spelling": (
        "Same name, spelt differently",
        "Samme navn, stavet forskelligt",
    ),
    "similar_name_same_club": (
        "Similar name in the same club",
        "Lignende navn i samme klub",
    ),
}


@dataclass(frozen=True)
class DuplicateSuggestion:
    """Two people who may be one. ``first`` is the older record (the likely survivor)."""

    first: Person
    second: Person
    reason: str
    similarity: float

    @property
    def reason_en(self) -> str:
        return REASONS[self.reason][0]

    @property
    def reason_da(self) -> str:
        return REASONS[self.reason][1]


def _reason(a: Person, b: Person) -> tuple[str, float] | None:
    if a.name_key == b.name_key and a.club_key == b.club_key:
        # Registration links these only within one organiser's events.
        return "same_name_same_club", 1.0
    if a.name_key == b.name_key:
        # Same match key: only a different club kept registration from linking them.
        return "same_name_other_club", 1.0
    similarity = name_similarity(a.name, b.name)
    if loose_key(a.name) == loose_key(b.name):
        return "same_name_spelling", similarity
    if a.club_key and a.club_key == b.club_key and similarity >= SIMILAR_IN_CLUB:
        return "similar_name_same_club", similarity
    return None


def duplicate_suggestions(
    *, persons: Iterable[Person], apart: set[frozenset[int]] | None = None
) -> list[DuplicateSuggestion]:
    """Likely duplicates among ``persons`` (merged and anonymised ones left out).

    ``apart`` holds pairs of person ids known to be different people (e.g.
    both played in the same event); they are never suggested. Names are only
    compared within a block sharing a first or last word of the loose key, so
    a season of a few hundred people stays a few thousand comparisons.
    """
    live = [p for p in persons if p.merged_into_id is None and p.anonymised_at is None]
    blocks: dict[str, list[Person]] = defaultdict(list)
    for person in live:
        words = loose_key(person.name).split() or [""]
        for word in {words[0], words[-1]}:
            blocks[word].append(person)
    seen: set[frozenset[int]] = set()
    found: list[DuplicateSuggestion] = []
    for block in blocks.values():
        block.sort(key=lambda p: p.pk)
        for i, a in enumerate(block):
            for b in block[i + 1 :]:
                key = frozenset((a.pk, b.pk))
                if key in seen or (apart and key in apart):
                    continue
                seen.add(key)
                verdict = _reason(a, b)
                if verdict is not None:
                    found.append(DuplicateSuggestion(a, b, verdict[0], round(verdict[1], 3)))
    found.sort(key=lambda s: (-s.similarity, s.first.name_key, s.first.pk, s.second.pk))
    return found


def merges_of(*, persons: Sequence[Person]) -> list[PersonAudit]:
    """The merges whose survivor is one of ``persons``, newest first."""
    return list(
        PersonAudit.objects.filter(action=PersonAudit.Action.MERGE, person__in=persons)
        .select_related("person", "other", "actor")
        .order_by("-created_at", "-pk")
    )


def dismissed_matches(*, person_ids: Iterable[int]) -> set[frozenset[int]]:
    """Pairs of these people someone said are two different humans."""
    ids = set(person_ids)
    rows = PersonMatch.objects.filter(
        status=PersonMatch.Status.DISMISSED, new__in=ids, known__in=ids
    ).values_list("new_id", "known_id")
    return {frozenset(row) for row in rows}


def person_matches_open() -> list[PersonMatch]:
    """Open suggested matches whose two people are both still live, newest first."""
    return list(
        PersonMatch.objects.filter(
            status=PersonMatch.Status.OPEN,
            new__merged_into__isnull=True,
            new__anonymised_at__isnull=True,
            known__merged_into__isnull=True,
            known__anonymised_at__isnull=True,
        )
        .select_related("new", "known")
        .order_by("-created_at", "-pk")
    )


def person_matches_decided(*, limit: int = 50) -> list[PersonMatch]:
    """The latest decided suggestions (a confirmed one can be undone)."""
    return list(
        PersonMatch.objects.exclude(status=PersonMatch.Status.OPEN)
        .select_related("new", "known", "decided_by")
        .order_by("-decided_at", "-pk")[:limit]
    )
