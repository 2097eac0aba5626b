"""Factories for tests: every test builds the data it needs from these."""

from __future__ import annotations

import datetime

import factory
from django.contrib.auth import get_user_model

from games.models import Game
from tournament.models import Pair, Player, Round, Tournament, TournamentRole


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pw-for-tests")


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"DM i Partners {2026 + n}")
    slug = factory.Sequence(lambda n: f"dm-{n}")
    date = datetime.date(2026, 11, 28)
    venue = "Odense"
    # New events start unpublished; most tests look at an event everyone can see.
    published = True


class TournamentRoleFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = TournamentRole

    tournament = factory.SubFactory(TournamentFactory)
    user = factory.SubFactory(UserFactory)
    role = TournamentRole.Role.ORGANISER


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    tournament = factory.SubFactory(TournamentFactory)
    name = factory.Sequence(lambda n: f"Spiller {n}")
    club = "Partnersklubben"


class PairFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Pair

    tournament = factory.SubFactory(TournamentFactory)
    start_number = factory.Sequence(lambda n: n + 1)
    player_1 = factory.SubFactory(PlayerFactory, tournament=factory.SelfAttribute("..tournament"))
    player_2 = factory.SubFactory(PlayerFactory, tournament=factory.SelfAttribute("..tournament"))
    status = Pair.Status.CHECKED_IN


class RoundFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Round

    tournament = factory.SubFactory(TournamentFactory)
    number = factory.Sequence(lambda n: n + 1)
    status = Round.Status.PUBLISHED


class GameFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Game

    round = factory.SubFactory(RoundFactory)
    table_number = factory.Sequence(lambda n: n + 1)
    pair_yb = factory.SubFactory(
        PairFactory, tournament=factory.SelfAttribute("..round.tournament")
    )
    pair_rg = factory.SubFactory(
        PairFactory, tournament=factory.SelfAttribute("..round.tournament")
    )
    first_dealer = "Y"

    class Params:
        # A Partners DUO table (docs/rulesets/duo.md): singles, pair_yb's first
        # player plays Yellow (Y), pair_rg's Red (R).
        duo = factory.Trait(round__tournament__ruleset="duo")


def organiser_of(tournament: Tournament, username: str = "org") -> object:
    user = UserFactory(username=username)
    TournamentRole.objects.create(
        tournament=tournament, user=user, role=TournamentRole.Role.ORGANISER
    )
    return user


def judge_of(tournament: Tournament, username: str = "judge") -> object:
    user = UserFactory(username=username)
    TournamentRole.objects.create(tournament=tournament, user=user, role=TournamentRole.Role.JUDGE)
    return user


class PersonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "people.Person"

    name = factory.Sequence(lambda n: f"Person {n}")
    club = "Partnersklubben"


class SeriesFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "season.Series"

    name = factory.Sequence(lambda n: f"DM-sæson {2026 + n}")
    slug = factory.Sequence(lambda n: f"saeson-{n}")
