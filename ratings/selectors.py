"""Reads of the ratings: the rating list, a person's history, an event's seed order.

Only people who consented to publish appear in anything public; the
``public`` flag of each function says which answer is wanted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import F, QuerySet

from people.models import Person
from people.selectors_public import PUBLIC_PEOPLE, person_is_public
from ratings.compute import Skill, team_strength
from ratings.models import PairRating, PersonRating, PersonRatingChange
from tournament.models import Tournament
from tournament.permissions import public_round_q
from tournament.selectors_events import active_pairs

__all__ = ["PUBLIC_PEOPLE", "person_is_public"]


def rating_list(*, public: bool = True) -> QuerySet[PersonRating]:
    """Every rated person, best rating (ordinal) first."""
    ratings = PersonRating.objects.select_related("person").annotate(
        ordinal_value=F("mu") - 3 * F("sigma")
    )
    if public:
        ratings = ratings.filter(**{f"person__{k}": v for k, v in PUBLIC_PEOPLE.items()})
    return ratings.order_by("-ordinal_value", "person__name", "person_id")


def pair_rating_list(*, public: bool = True) -> QuerySet[PairRating]:
    """Every rated pair (two people), best first; public: both consented."""
    ratings = PairRating.objects.select_related("person_low", "person_high").annotate(
        ordinal_value=F("mu") - 3 * F("sigma")
    )
    if public:
        for side in ("person_low", "person_high"):
            ratings = ratings.filter(**{f"{side}__{k}": v for k, v in PUBLIC_PEOPLE.items()})
    return ratings.order_by("-ordinal_value", "pk")


def person_rating(*, person: Person) -> PersonRating | None:
    return PersonRating.objects.filter(person=person).first()


def person_rating_history(*, person: Person, public: bool = True) -> list[PersonRatingChange]:
    """The person's rating after each game, oldest first.

    ``public``: only games of rounds everyone sees (published events, no draft
    round). Only those are rated at all; the filter also covers the moment
    between an event's unpublishing and the recomputation it queues, so a
    public history never shows a game of an unpublished event, not even as a
    point of a curve.
    """
    changes = PersonRatingChange.objects.filter(person=person)
    if public:
        changes = changes.filter(public_round_q("game__round__"))
    return list(changes.select_related("game__round__tournament").order_by("key"))


def rating_curves(
    *, people: list[Person], public: bool = True, tournaments: list[Tournament] | None = None
) -> dict[int, list[tuple[str, float]]]:
    """Per person: (game key, ordinal after the game), oldest first: one query.

    ``public``: the games of rounds everyone sees only (``person_rating_history``);
    ``tournaments``: only the games of these events (a season's curves)."""
    curves: dict[int, list[tuple[str, float]]] = {p.pk: [] for p in people}
    rows = PersonRatingChange.objects.filter(person__in=people).order_by("key")
    if tournaments is not None:
        rows = rows.filter(game__round__tournament__in=tournaments)
    if public:
        rows = rows.filter(public_round_q("game__round__"))
    for pid, key, mu, sigma in rows.values_list("person_id", "key", "mu_after", "sigma_after"):
        curves[pid].append((key, mu - 3 * sigma))
    return curves


@dataclass(frozen=True)
class SeedRow:
    pair: Any
    strength: float


def seed_order(*, tournament: Tournament) -> list[SeedRow]:
    """The event's active pairs by their players' ratings, strongest first.

    A side's strength is its two players' team rating (``compute.team_strength``);
    a player never rated, or not linked to a person, counts as a new player.
    Ties keep start-number order.
    """
    pairs = active_pairs(tournament=tournament)
    person_ids = {pl.person_id for p in pairs for pl in p.players if pl.person_id}
    skills = {
        r.person_id: Skill(r.mu, r.sigma)
        for r in PersonRating.objects.filter(person_id__in=person_ids)
    }
    rows = [
        SeedRow(
            p,
            team_strength(
                skills.get(pl.person_id, Skill()) if pl.person_id is not None else Skill()
                for pl in p.players
            ),
        )
        for p in pairs
    ]
    return sorted(rows, key=lambda r: (-r.strength, r.pair.start_number))


def top_rated_people(*, tournaments: list[Tournament], limit: int = 5) -> list[Person]:
    """The best-rated consenting people who played a rated game of these events in a
    round everyone sees (a season's curves): not everyone entered in them."""
    played = PersonRatingChange.objects.filter(game__round__tournament__in=tournaments)
    played = played.filter(public_round_q("game__round__"))
    people = rating_list().filter(person_id__in=played.values("person_id"))
    return [r.person for r in people[:limit]]
