"""Seasons built from real tournaments, played through the services."""

from __future__ import annotations

import datetime
import itertools
from collections.abc import Callable

from django.utils import timezone

from competition.services.knockout import knockout_advance, knockout_create
from competition.services.pairing import round_close
from games.models import Game
from people.models import Person
from tests.competition.helpers import play
from tournament.models import Tournament
from tournament.services.registration import pair_register, tournament_create

_days = itertools.count()


def knockout_event(
    organiser: object,
    pairs: list[tuple[str, str]],
    *,
    winner_of: Callable[[Game], str] | None = None,
    finish: bool = True,
    **settings: object,
) -> Tournament:
    """An event of ``pairs`` (seeded in the order given) played as a knockout
    with a third-place game. By default the better seed wins every game, so
    the final placings are the seeding."""
    tournament = tournament_create(
        actor=organiser,
        name=f"Kvalifikation {next(_days) + 1}",
        date=datetime.date(2026, 3, 1) + datetime.timedelta(days=7 * next(_days)),
        swiss_rounds=0,
        knockout_size=len(pairs),
        third_place_game=True,
        **{"published": True, **settings},
    )
    for seed, (player_1, player_2) in enumerate(pairs, start=1):
        pair_register(
            tournament=tournament,
            actor=organiser,
            player_1=player_1,
            player_2=player_2,
            seed=seed,
            check_in=True,
        )
    if not finish:
        return tournament
    round_ = knockout_create(tournament=tournament, actor=organiser, source="seeds")
    while round_ is not None:
        play(round_, organiser, winner_of)
        round_close(round=round_, actor=organiser)
        round_ = knockout_advance(tournament=tournament, actor=organiser)
    return tournament


PAIRS = [
    ("Mette Hansen", "Jens Nielsen"),
    ("Anne Larsen", "Søren Poulsen"),
    ("Kirsten Pedersen", "Lars Andersen"),
    ("Hanne Jensen", "Peter Christensen"),
    ("Lene Sørensen", "Michael Rasmussen"),
    ("Susanne Jørgensen", "Henrik Petersen"),
    ("Pia Madsen", "Thomas Kristensen"),
    ("Bente Olsen", "Niels Thomsen"),
]


def everyone_consents() -> None:
    """Every player agreed to be published: the public season pages name them all."""
    Person.objects.update(publish_consent=True, consent_at=timezone.now())
