"""Keeping ratings in step with results: from scratch, or from one game onward.

A result entered or corrected changes every rating after it, so an update
rates again from that game's place in the order (``compute.game_key``): the
ratings just before it are read back from the history, the history from it
onward is rewritten. The result is the same as a recomputation from scratch
(``tests/ratings/test_services.py`` checks it).

Only games of rounds everyone sees count (a published event, no draft round:
``tournament.permissions.public_round_q``), so every public figure can be
explained from public games and a test event never moves a rating. Publishing
or unpublishing an event with results rates everything again from scratch
(``ratings_tournament_changed``), as a merge does.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from core.bulk import advisory_lock, rows_insert
from core.users import Actor
from games.models import Game
from games.selectors import results_with_people
from ratings.compute import (
    Change,
    PairKey,
    RatedGame,
    Skill,
    game_key,
    pair_key,
    rate_games,
)
from ratings.models import PairRating, PairRatingChange, PersonRating, PersonRatingChange
from tournament.models import Tournament, singles_rulesets

logger = logging.getLogger(__name__)
# pg_advisory_xact_lock key: one rating job at a time ("RATE").
_LOCK = 0x52415445
_CHANGE_FIELDS = (
    "game_id",
    "key",
    "side",
    "won",
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
)


def _rated_game(row: dict[str, Any], *, singles: bool) -> RatedGame | None:
    seats = ("player_1",) if singles else ("player_1", "player_2")
    yb = tuple(row[f"pair_yb__{seat}__person_id"] for seat in seats)
    rg = tuple(row[f"pair_rg__{seat}__person_id"] for seat in seats)
    people = (*yb, *rg)
    if None in people or len(set(people)) != len(people):
        return None  # a player not linked to a person (yet) cannot be rated
    key = game_key(
        date=row["round__tournament__date"],
        tournament_id=row["round__tournament_id"],
        round_number=row["round__number"],
        table=row["table_number"],
        game_id=row["id"],
    )
    if singles:
        return RatedGame(key, row["id"], yb, rg, row["winner"])
    return RatedGame(key, row["id"], pair_key(*yb), pair_key(*rg), row["winner"])


def _rated_games(rows: Iterable[dict[str, Any]]) -> list[RatedGame | None]:
    """Each result row as a rated game; a singles event's sides are one person each."""
    rows = list(rows)
    singles = set(
        Tournament.objects.filter(
            pk__in={row["round__tournament_id"] for row in rows}, ruleset__in=singles_rulesets()
        ).values_list("pk", flat=True)
    )
    return [_rated_game(row, singles=row["round__tournament_id"] in singles) for row in rows]


def rated_games(*, since_key: str = "") -> list[RatedGame]:
    """The games to rate from ``since_key`` on, in rating order."""
    since = (
        datetime.date(int(since_key[:4]), int(since_key[4:6]), int(since_key[6:8]))
        if since_key
        else None
    )
    games = _rated_games(results_with_people(since=since, public=True))
    return sorted((g for g in games if g is not None and g.key >= since_key), key=lambda g: g.key)


def _skills_before(
    since_key: str, people: set[int], pairs: set[PairKey]
) -> tuple[dict[int, Skill], dict[PairKey, Skill]]:
    person_skill: dict[int, Skill] = {}
    pair_skill: dict[PairKey, Skill] = {}
    if not since_key:
        return person_skill, pair_skill
    earlier = PersonRatingChange.objects.filter(key__lt=since_key, person_id__in=people)
    for pid, mu, sigma in earlier.order_by("key").values_list(
        "person_id", "mu_after", "sigma_after"
    ):
        person_skill[pid] = Skill(mu, sigma)
    counts = earlier.values("person_id").annotate(n=Count("id"), w=Count("id", filter=Q(won=True)))
    for row in counts:
        person_skill[row["person_id"]].games, person_skill[row["person_id"]].wins = (
            row["n"],
            row["w"],
        )
    lows = {low for low, _ in pairs}
    pair_rows = PairRatingChange.objects.filter(key__lt=since_key, person_low_id__in=lows)
    for low, high, mu, sigma, won in pair_rows.order_by("key").values_list(
        "person_low_id", "person_high_id", "mu_after", "sigma_after", "won"
    ):
        if (low, high) in pairs:
            before = pair_skill.get((low, high), Skill())
            pair_skill[(low, high)] = Skill(mu, sigma, before.games + 1, before.wins + won)
    return person_skill, pair_skill


def _change_rows(changes: Iterable[Change], *, pair: bool) -> Iterable[tuple[Any, ...]]:
    for c in changes:
        subject = c.subject if pair else (c.subject,)
        yield (
            *subject,
            c.game_id,
            c.key,
            c.side,
            c.won,  # type: ignore[misc]
            c.mu_before,
            c.sigma_before,
            c.mu_after,
            c.sigma_after,
        )


@transaction.atomic
def ratings_recompute(*, since_key: str = "") -> int:
    """Rate every game from ``since_key`` on ("" = from scratch); the number of games rated.

    Idempotent: running it twice leaves the same ratings and history.
    """
    advisory_lock(_LOCK)
    later_people = PersonRatingChange.objects.filter(key__gte=since_key)
    later_pairs = PairRatingChange.objects.filter(key__gte=since_key)
    touched_people = set(later_people.values_list("person_id", flat=True).distinct())
    touched_pairs = set(later_pairs.values_list("person_low_id", "person_high_id").distinct())
    if since_key:
        later_people.delete()
        later_pairs.delete()
    else:  # from scratch: every row goes, without asking which
        PersonRatingChange.objects.all().delete()
        PairRatingChange.objects.all().delete()
    games = rated_games(since_key=since_key)
    people = touched_people | {p for g in games for p in (*g.yb, *g.rg)}
    pairs = touched_pairs | {p for g in games if g.pairs for p in g.pairs}
    start_people, start_pairs = _skills_before(since_key, people, pairs)
    outcome = rate_games(games, people=start_people, pairs=start_pairs)
    rows_insert(
        PersonRatingChange,
        ("person_id", *_CHANGE_FIELDS),
        _change_rows(outcome.person_changes, pair=False),
    )
    rows_insert(
        PairRatingChange,
        ("person_low_id", "person_high_id", *_CHANGE_FIELDS),
        _change_rows(outcome.pair_changes, pair=True),
    )
    _store_current(
        outcome.people, outcome.pairs, touched_people, touched_pairs, scratch=not since_key
    )
    return len(games)


def _store_current(
    people: dict[int, Skill],
    pairs: dict[PairKey, Skill],
    touched_people: set[int],
    touched_pairs: set[PairKey],
    *,
    scratch: bool,
) -> None:
    now = timezone.now()
    skill = ("mu", "sigma", "games", "wins", "updated_at")
    if scratch:
        PersonRating.objects.all().delete()
        PairRating.objects.all().delete()
        rows_insert(
            PersonRating,
            ("person_id", *skill),
            ((p, s.mu, s.sigma, s.games, s.wins, now) for p, s in people.items()),
        )
        rows_insert(
            PairRating,
            ("person_low_id", "person_high_id", *skill),
            ((*k, s.mu, s.sigma, s.games, s.wins, now) for k, s in pairs.items()),
        )
        return
    # Rated before, not any more (a cleared result was their only game).
    PersonRating.objects.filter(person_id__in=touched_people - people.keys()).delete()
    for low, high in touched_pairs - pairs.keys():
        PairRating.objects.filter(person_low_id=low, person_high_id=high).delete()
    PersonRating.objects.bulk_create(
        [
            PersonRating(
                person_id=p, mu=s.mu, sigma=s.sigma, games=s.games, wins=s.wins, updated_at=now
            )
            for p, s in people.items()
        ],
        update_conflicts=True,
        unique_fields=["person"],
        update_fields=skill,
        batch_size=2000,
    )
    PairRating.objects.bulk_create(
        [
            PairRating(
                person_low_id=k[0],
                person_high_id=k[1],
                mu=s.mu,
                sigma=s.sigma,
                games=s.games,
                wins=s.wins,
                updated_at=now,
            )
            for k, s in pairs.items()
        ],
        update_conflicts=True,
        unique_fields=["person_low", "person_high"],
        update_fields=skill,
        batch_size=2000,
    )


def ratings_update_from_game(*, game_id: int) -> int:
    """Rate again from this game's place on (its result was entered, corrected or cleared)."""
    keys = [
        *PersonRatingChange.objects.filter(game_id=game_id).values_list("key", flat=True)[:1],
        *(g.key for g in _rated_games(results_with_people(game_ids=[game_id], public=True)) if g),
    ]
    if not keys:
        return 0  # neither rated before nor ratable now
    return ratings_recompute(since_key=min(keys))


def _recompute_on_commit(reason: str) -> None:
    """Queue a recomputation from scratch once the sender's transaction is committed."""

    def publish() -> None:
        from ratings.tasks import ratings_update

        try:
            ratings_update.delay(None)
        except Exception:  # ratings_recompute repairs it
            logger.warning("could not queue the rating recomputation after %s", reason)

    transaction.on_commit(publish)


def ratings_people_changed(sender: Any, **kwargs: Any) -> None:
    """Receiver of ``people.signals.people_changed`` (a merge or its undoing): rate again
    from scratch once committed, since results moved between people."""
    _recompute_on_commit("a merge")


def ratings_tournament_changed(
    sender: Any, *, tournament: Tournament, fields: frozenset[str], **kwargs: Any
) -> None:
    """Receiver of ``tournament.signals.tournament_settings_changed``: an event with
    results published or unpublished (its games start or stop counting), or a
    published one moved to another day (its games move in the rating order), is
    rated again from scratch once committed."""
    if not ("published" in fields or ("date" in fields and tournament.published)):
        return
    if not Game.objects.filter(round__tournament=tournament).exclude(winner="").exists():
        return  # nothing of it is rated, nor would be
    _recompute_on_commit("an event's publication")


def ratings_results_replaced(sender: Any, **kwargs: Any) -> None:
    """Receiver of ``games.signals.results_replaced`` (an event returned from a venue:
    its games were replaced): rate again from scratch once committed."""
    _recompute_on_commit("a returned event")


def ratings_result_changed(sender: Any, *, game: Game, **kwargs: Any) -> None:
    """Receiver of ``games.signals.game_result_changed``: update once the result is committed."""
    game_id = game.pk

    def publish() -> None:
        from ratings.tasks import ratings_update

        try:
            ratings_update.delay(game_id)
        except Exception:  # a lost update is caught by the next one or ratings_recompute
            logger.warning("could not queue the rating update for game %s", game_id)

    transaction.on_commit(publish)


def ratings_seed_event(*, tournament: Tournament, actor: Actor) -> int:
    """Seed the event's pairs by their players' ratings (organiser only); the number seeded.

    The first round "by seed" and the knockout "from the seeds" then follow
    the ratings; each pair's rating field shows its strength, rounded.
    """
    from ratings.selectors import seed_order
    from tournament.services.registration import pair_seeds_set

    ranked = [(row.pair.pk, round(row.strength)) for row in seed_order(tournament=tournament)]
    return pair_seeds_set(tournament=tournament, actor=actor, ranked=ranked)
