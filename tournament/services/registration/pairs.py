"""Pairs: register (by hand or from a sign-up), edit, withdraw, check in and out, drop."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, TypedDict, Unpack

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext_lazy as _

from core.errors import ApplicationError, Conflict
from core.users import Actor
from people.models import Person
from people.services import persons_for_names
from tournament.models import (
    Pair,
    Player,
    Tournament,
)
from tournament.permissions import require_organiser
from tournament.person_permissions import link_policy
from tournament.services.audit import audit_record, tournament_data_changed
from tournament.services.status import status_change_guarded


@dataclass(frozen=True)
class PairData:
    player_1: str
    # Empty for an entrant of a singles event.
    player_2: str
    club: str = ""
    name: str = ""
    seed: int | None = None
    rating: int | None = None


class PairChanges(TypedDict, total=False):
    """Any of a pair's fields, as the boundary typed them (names trimmed, one line)."""

    player_1: str
    player_2: str
    club: str
    name: str
    seed: int | None
    rating: int | None


def entrant_players(data: PairData, *, singles: bool) -> PairData:
    """A pairs event's entrant has two different players, a singles event's one."""
    if singles:
        if data.player_2:
            raise ApplicationError(
                "singles_one_player",
                _("This is a singles event: an entrant is one player (no player_2)."),
                extra={"field": "player_2"},
            )
        return data
    if not data.player_2:
        raise ApplicationError(
            "field_required",
            _("%(field)s must not be empty."),
            params={"field": "player_2"},
            extra={"field": "player_2"},
        )
    if data.player_1.casefold() == data.player_2.casefold():
        raise ApplicationError("pair_same_player", _("A pair needs two different players."))
    return data


def active_pairs_of(tournament: Tournament, exclude: Pair | None = None) -> Any:
    pairs = Pair.objects.filter(tournament=tournament).exclude(status=Pair.Status.DROPPED)
    if exclude is not None:
        pairs = pairs.exclude(pk=exclude.pk)
    return pairs.select_related("player_1", "player_2")


def pair_conflicts(
    data: PairData, existing: list[Pair], exclude: Pair | None = None
) -> ApplicationError | None:
    """A player already in another active pair, or a seed already taken."""
    names = {n.casefold() for n in (data.player_1, data.player_2) if n}
    for pair in existing:
        if exclude is not None and pair.pk == exclude.pk:
            continue
        taken = names & {p.name.casefold() for p in pair.players}
        if taken:
            who = ", ".join(sorted(taken))
            return Conflict(
                "pair_duplicate",
                _("%(who)s is already registered (start number %(number)s)."),
                params={"who": who, "number": pair.start_number},
            )
        if data.seed is not None and pair.seed == data.seed:
            return Conflict(
                "seed_taken",
                _("Seed %(seed)s is already given to start number %(number)s."),
                params={"seed": data.seed, "number": pair.start_number},
            )
    return None


def next_round_number(tournament: Tournament) -> int:
    return (tournament.rounds.aggregate(m=Max("number"))["m"] or 0) + 1


def _names(data: PairData) -> tuple[str, ...]:
    return (data.player_1, data.player_2) if data.player_2 else (data.player_1,)


def _linked(tournament: Tournament, entries: list[tuple[str, str]]) -> list[Person]:
    return persons_for_names(
        entries, may_link=link_policy(tournament), context=f"tournament:{tournament.pk}"
    )


def persons_for_pairs(tournament: Tournament, data: list[PairData]) -> list[tuple[Person, ...]]:
    """Each entrant's people (two in a pair, one in singles), found or created in one go:
    a known person only when the event's own organisers may manage them, else a new
    person and a suggested match."""
    found = iter(_linked(tournament, [(p, d.club) for d in data for p in _names(d)]))
    return [tuple(next(found) for _name in _names(d)) for d in data]


def pair_create_row(
    tournament: Tournament, data: PairData, *, start_number: int, first_round: int,
    check_in: bool, persons: tuple[Person, ...],
) -> Pair:  # fmt: skip
    player_1, *rest = (
        Player.objects.create(tournament=tournament, name=name, club=data.club, person=person)
        for name, person in zip(_names(data), persons, strict=True)
    )
    player_2 = rest[0] if rest else None
    return Pair.objects.create(
        tournament=tournament,
        start_number=start_number,
        name=data.name,
        player_1=player_1,
        player_2=player_2,
        club=data.club,
        seed=data.seed,
        rating=data.rating,
        first_round=first_round,
        status=Pair.Status.CHECKED_IN if check_in else Pair.Status.REGISTERED,
    )


def lock_tournament(tournament: Tournament) -> Tournament:
    """Serialise writes that number things within one event."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


@transaction.atomic
def pair_register(
    *,
    tournament: Tournament,
    actor: Actor,
    player_1: str,
    player_2: str = "",
    club: str = "",
    name: str = "",
    seed: int | None = None,
    rating: int | None = None,
    check_in: bool = False,
    persons: tuple[Person, ...] | None = None,
) -> Pair:
    """Register a pair (or, in a singles event, one player: ``player_2``
    stays empty). Once round 1 is paired it is a late entry: it starts on 0
    points in the next round.

    The players are linked to the people they are (``persons`` when the
    caller knows them, e.g. a season's final; else found by name and club).
    """
    require_organiser(actor, tournament)
    return _register(
        tournament, actor, player_1=player_1, player_2=player_2, club=club, name=name,
        seed=seed, rating=rating, check_in=check_in, persons=persons, action="pair_register",
    )  # fmt: skip


@transaction.atomic
def pair_register_signed_up(
    *, tournament: Tournament, actor: Actor | None, player_1: str, player_2: str, club: str,
    name: str, persons: tuple[Person, ...],
) -> Pair:  # fmt: skip
    """A pair that signed up online becomes a pair of the tournament.

    Only for the signup app, which has checked the sign-up may take a place
    (open, within capacity, approved when asked); ``actor`` is the approving
    organiser or None when no approval is needed.
    """
    return _register(
        tournament, actor, player_1=player_1, player_2=player_2, club=club, name=name,
        seed=None, rating=None, check_in=False, persons=persons, action="pair_signup",
    )  # fmt: skip


def _register(
    tournament: Tournament, actor: Actor | None, *, player_1: str, player_2: str, club: str,
    name: str, seed: int | None, rating: int | None, check_in: bool,
    persons: tuple[Person, ...] | None, action: str,
) -> Pair:  # fmt: skip
    tournament = lock_tournament(tournament)
    data = entrant_players(
        PairData(
            player_1=player_1, player_2=player_2, club=club, name=name, seed=seed, rating=rating
        ),
        singles=tournament.is_singles,
    )
    problem = pair_conflicts(data, list(active_pairs_of(tournament)))
    if problem:
        raise problem
    start_number = (tournament.pairs.aggregate(m=Max("start_number"))["m"] or 0) + 1
    pair = pair_create_row(
        tournament,
        data,
        start_number=start_number,
        first_round=next_round_number(tournament),
        check_in=check_in,
        persons=persons or persons_for_pairs(tournament, [data])[0],
    )
    audit_record(
        tournament=tournament,
        actor=actor,
        action=action,
        target=pair,
        data={"start_number": start_number, "first_round": pair.first_round},
    )
    tournament_data_changed(tournament=tournament)
    return pair


@transaction.atomic
def pair_withdraw(*, pair: Pair, actor: Actor | None) -> None:
    """A pair that signed up online withdraws (its private link, or the
    organiser for it): before round 1 is paired it leaves no trace in the
    event but the audit entry. Afterwards the organiser drops it instead.

    Only for the signup app, which has checked the link or the organiser.
    """
    tournament = lock_tournament(pair.tournament)
    if tournament.rounds.exists():
        raise Conflict(
            "tournament_started",
            _(
                "The tournament has started: a pair can no longer withdraw online. "
                "Tell the organiser, who can drop the pair."
            ),
        )
    pair = Pair.objects.select_related("player_1", "player_2").get(pk=pair.pk)
    players = [p.pk for p in pair.players]
    audit_record(
        tournament=tournament,
        actor=actor,
        action="pair_withdraw",
        target=pair,
        data={"start_number": pair.start_number},
    )
    pair.delete()
    Player.objects.filter(pk__in=players).delete()
    tournament_data_changed(tournament=tournament)


PAIR_FIELDS = frozenset(PairChanges.__annotations__)


@transaction.atomic
def pair_update(*, pair: Pair, actor: Actor, **changes: Unpack[PairChanges]) -> Pair:
    require_organiser(actor, pair.tournament)
    unknown = set(changes) - PAIR_FIELDS
    if unknown:
        raise TypeError(f"Not fields of a pair: {', '.join(sorted(unknown))}")
    pair = (
        Pair.objects.select_for_update(of=("self",))
        .select_related("player_1", "player_2")
        .get(pk=pair.pk)
    )
    current = PairData(
        player_1=pair.player_1.name,
        player_2=pair.player_2.name if pair.player_2 else "",
        club=pair.club,
        name=pair.name,
        seed=pair.seed,
        rating=pair.rating,
    )
    data = entrant_players(
        dataclasses.replace(current, **changes), singles=pair.tournament.is_singles
    )
    problem = pair_conflicts(data, list(active_pairs_of(pair.tournament)), exclude=pair)
    if problem:
        raise problem
    before, after = dataclasses.asdict(current), dataclasses.asdict(data)
    changed = {k: v for k, v in after.items() if before[k] != v}
    if not changed:
        return pair
    for key in ("player_1", "player_2"):
        if key in changed and getattr(pair, key) is not None:
            # A corrected name may be someone else (or someone known): link anew.
            player = getattr(pair, key)
            player.name = changed[key]
            player.person = _linked(pair.tournament, [(player.name, player.club)])[0]
            player.save(update_fields=["name", "person"])
    for key in ("club", "name", "seed", "rating"):
        if key in changed:
            setattr(pair, key, changed[key])
    pair.save()
    audit_record(
        tournament=pair.tournament,
        actor=actor,
        action="pair_update",
        target=pair,
        data={k: {"from": before[k], "to": v} for k, v in changed.items()},
    )
    tournament_data_changed(tournament=pair.tournament)
    return pair


@transaction.atomic
def pair_check_in(*, pair: Pair, actor: Actor) -> Pair:
    """Registered (or dropped, to undo a drop) -> checked in."""
    require_organiser(actor, pair.tournament)
    return status_change_guarded(
        pair,
        actor=actor,
        allowed_from=(Pair.Status.REGISTERED, Pair.Status.DROPPED),
        to=Pair.Status.CHECKED_IN,
        action="pair_check_in",
        refusal=("pair_already_checked_in", _("This pair is already checked in.")),
    )


@transaction.atomic
def pair_check_out(*, pair: Pair, actor: Actor) -> Pair:
    require_organiser(actor, pair.tournament)
    return status_change_guarded(
        pair,
        actor=actor,
        allowed_from=(Pair.Status.CHECKED_IN,),
        to=Pair.Status.REGISTERED,
        action="pair_check_out",
        refusal=("pair_not_checked_in", _("This pair is not checked in.")),
    )


@transaction.atomic
def pair_drop(*, pair: Pair, actor: Actor) -> Pair:
    """A dropped pair is not paired again; the games it played stay."""
    require_organiser(actor, pair.tournament)
    return status_change_guarded(
        pair,
        actor=actor,
        allowed_from=(Pair.Status.REGISTERED, Pair.Status.CHECKED_IN),
        to=Pair.Status.DROPPED,
        action="pair_drop",
        refusal=("pair_already_dropped", _("This pair has already withdrawn.")),
    )


@transaction.atomic
def pair_seeds_set(*, tournament: Tournament, actor: Actor, ranked: list[tuple[int, int]]) -> int:
    """Seed the event's active pairs in the given order, each with its rating.

    ``ranked`` lists ``(pair id, rating)`` strongest first, as a rating list
    gives them; the first round ("by seed") and the knockout ("the seeds")
    then use that order. Dropped pairs lose their seed. The number seeded.
    """
    require_organiser(actor, tournament)
    tournament = lock_tournament(tournament)
    active = {p.pk: p for p in active_pairs_of(tournament)}
    if sorted(pid for pid, _ in ranked) != sorted(active):
        raise ApplicationError(
            "seed_list_stale",
            _("The seed list does not match the event's pairs; reload and try again."),
        )
    Pair.objects.filter(tournament=tournament).update(seed=None)
    for number, (pair_id, rating) in enumerate(ranked, start=1):
        Pair.objects.filter(pk=pair_id).update(seed=number, rating=rating)
    audit_record(
        tournament=tournament, actor=actor, action="pair_seeds_set", target=tournament,
        data={"seeds": [pid for pid, _ in ranked]},
    )  # fmt: skip
    tournament_data_changed(tournament=tournament)
    return len(ranked)
